"""cuarray arrays' Dask token and size, without importing Dask.

Dask's `dask.sizeof` entry point (pyproject.toml) calls `register_sizeof` while Dask itself is being imported;
`tokenize` is ndarray.__dask_tokenize__, reached through cuarray.dask, which registers the rest of the support.
"""

import math

import numpy

from cuarray import _creation, _transfer
from cuarray._core import ndarray
from cuarray.cuda.device import Device

# Note [Dask tokens]
# Dask names data by its token: equal tokens must mean equal values, or Dask reuses a result computed from
# other data (a persisted chunk, a deduplicated graph key). A token made of the device pointer, shape and
# dtype breaks that twice: writes in place keep the pointer, and the pool hands a freed pointer to the next
# array. So the token digests the values, as Dask's token of a NumPy array hashes its buffer, but on the
# device: one pass over the memory, and 16 bytes come back to the host, never the array.

_MIX = r"""
__device__ __forceinline__ unsigned long long digest_mix(unsigned long long z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
"""

# Each thread sums two mixes of (position, word) over a strided share of the words; a changed word changes
# its term in both lanes, since digest_mix is a bijection. U (bound by `w`) is the word type read.
_DIGEST = r"""
const U* words = reinterpret_cast<const U*>(x.ptr);
unsigned long long a = 0, b = 0;
for (unsigned long long k = i; k < n; k += _ind.size()) {
  const unsigned long long word = words[k], key = k * 0x9e3779b97f4a7c15ull;
  a += digest_mix(word ^ digest_mix(key ^ 0x243f6a8885a308d3ull));
  b += digest_mix(word ^ digest_mix(key ^ 0x13198a2e03707344ull));
}
h[2 * i] = a;
h[2 * i + 1] = b;
"""

_THREADS = 1 << 18
_WORDS = {8: numpy.uint64(0), 4: numpy.uint32(0), 2: numpy.uint16(0), 1: numpy.uint8(0)}
_kernel = None


def digest(x):
    """32 hex digits that depend on every byte of `x` in C order (whatever its layout), computed on x's
    device."""
    global _kernel
    if _kernel is None:
        from cuarray._kernel import ElementwiseKernel

        _kernel = ElementwiseKernel(
            "raw T x, U w, uint64 n", "raw uint64 h", _DIGEST, "cuarray_digest", preamble=_MIX
        )
    with Device(x._device_id):
        flat = _transfer.ascontiguousarray(x).reshape(-1)
        width = next(w for w in _WORDS if flat.data.ptr % w == 0 and flat.nbytes % w == 0)
        n = flat.nbytes // width
        threads = min(n, _THREADS)
        h = _creation.empty(2 * threads, numpy.uint64)
        _kernel(flat, _WORDS[width], n, h, size=threads)
        lo, hi = h.reshape(threads, 2).sum(axis=0).get()
    return f"{int(lo):016x}{int(hi):016x}"


def tokenize(x):
    """Dask's token of `x` (Note [Dask tokens]): device, dtype, shape and a digest of the values. Dask calls
    this (as ndarray.__dask_tokenize__, which loads cuarray.dask first) before it holds a cuarray array as data,
    so that the rest of the Dask support is registered by then."""
    return ("cuarray.ndarray", x._device_id, x.dtype.name, x.shape, digest(x) if x.size else "")


def nbytes_held(x):
    """The device memory `x` spans: a broadcast axis (stride 0) counts once, as Dask counts NumPy's."""
    if x.size == 0:
        return 0
    return x.itemsize * math.prod(n for n, s in zip(x.shape, x.strides) if s != 0)


def register_sizeof(sizeof):
    """The `dask.sizeof` entry point: how many bytes a cuarray array holds, for Dask's memory accounting."""
    sizeof.register(ndarray, nbytes_held)
