"""Memory-bound kernels on 1 GiB arrays: device time from each library's events, as GB/s moved.

Bytes counted are those a kernel must read and write in DRAM (a strided input counts its whole extent,
since a stride of 2 touches every 32-byte sector). Each row is also given as a fraction of the best
device-to-device copy (or fill, for write-only kernels) measured in the same run: the hardware ceiling.
1 GiB is far past L2, so inputs need no rotation between repeats.
"""

import numpy as np
from cases_lessons import chain_of_ten, squared_diff
from harness import CUPY_LIKE, LIBS, Case, of_ceiling

GIB = 1 << 30
N = GIB // 4  # 2^28 float32
SIDE = 1 << 14  # 16384² float32 = 1 GiB
COPY = "copy 1 GiB f32"
FILL = "fill 1 GiB f32"
CHAIN_N = 1 << 26


def _vec(lib, dtype="float32", seed=0):
    return lib.rand(GIB // np.dtype(dtype).itemsize, dtype, seed)


def _square(lib, seed=0):
    return lib.rand((SIDE, SIDE), "float32", seed)


def _copy(lib):
    x = _vec(lib)
    return x.clone if lib.name == "torch" else x.copy


def _fill(lib):
    x = lib.empty(N)
    if lib.name == "torch":
        return lambda: x.fill_(1.0)
    return lambda: x.fill(1.0)


def _add(dtype):
    def make(lib):
        x, y = _vec(lib, dtype, 0), _vec(lib, dtype, 1)
        z = lib.empty(x.shape, dtype)
        return lambda: lib.xp.add(x, y, out=z)

    return make


def _strided_add(lib):
    x, y = _vec(lib, seed=0), _vec(lib, seed=1)
    return lambda: x[::2] + y[::2]


def _transposed_add(lib):
    x, y = _square(lib, 0), _square(lib, 1)
    return lambda: x.T + y


def _transpose_copy(lib):
    x = _square(lib)
    if lib.name == "torch":
        return lambda: x.T.contiguous()
    return lambda: lib.xp.ascontiguousarray(x.T)


def _reduce(method):
    def make(lib):
        x = _vec(lib)
        return getattr(x, method)

    return make


def _sum_axis(axis):
    def make(lib):
        x = _square(lib)
        if lib.name == "torch":
            return lambda: x.sum(dim=axis)
        return lambda: x.sum(axis=axis)

    return make


def _dot(lib):
    x, y = _vec(lib, seed=0), _vec(lib, seed=1)
    return lambda: lib.xp.dot(x, y)


def _fused_sq_diff(lib):
    x, y = _vec(lib, seed=0), _vec(lib, seed=1)
    f = lib.xp.fuse(squared_diff)
    return lambda: f(x, y)


def _fused_sum_sq(lib):
    xp = lib.xp
    x = _vec(lib)

    def sum_of_squares(v):
        return xp.sum(v * v)

    f = xp.fuse(sum_of_squares)
    return lambda: f(x)


def _chain(fused):
    def make(lib):
        # 2^26 float32 elements, as the lessons' larger arrays; the bytes counted are the fused minimum (read x
        # and y, write the result), so eager code shows what its intermediates cost.
        x, y = lib.rand(CHAIN_N, "float32", 0), lib.rand(CHAIN_N, "float32", 1)
        f = lib.fuse(chain_of_ten) if fused else chain_of_ten
        return lambda: f(x, y)

    return make


def _bw(name, make, gib, fraction=None, libs=LIBS, ceiling=COPY, env=None):
    return Case(
        name,
        "bandwidth",
        make,
        "GB/s",
        work=gib * GIB,
        ceiling=ceiling,
        libs=libs,
        target=of_ceiling(fraction) if fraction else None,
        quick_skips=("numpy",),
        env=env,
    )


CASES = [
    _bw(COPY, _copy, 2),
    _bw(FILL, _fill, 1, ceiling=FILL),
    _bw("add(x, y, out=z) f32", _add("float32"), 3, 0.95),
    _bw("sum f32", _reduce("sum"), 1, 0.95),
    _bw("sum(axis=0) 16384² f32", _sum_axis(0), 1, 0.90),
    _bw("sum(axis=1) 16384² f32", _sum_axis(1), 1, 0.95),
    _bw("argmax f32", _reduce("argmax"), 1, 0.85),
    _bw("var f32", _reduce("var"), 1, 0.85),
    _bw("transpose copy ascontiguousarray(x.T) 16384²", _transpose_copy, 2, 0.80),
    _bw("dot 1 GiB · 1 GiB f32", _dot, 2, 0.90),
    _bw("fused (x-y)*(x-y) f32", _fused_sq_diff, 3, 0.95, libs=CUPY_LIKE),
    _bw("fused sum(x*x) f32", _fused_sum_sq, 1, 0.90, libs=CUPY_LIKE),
    # Eager code as written: cuarray fuses this chain by itself (arrays of 2^20 elements and more).
    _bw("chain of 10 ops 2^26 f32, eager", _chain(False), 3 * CHAIN_N * 4 / GIB),
    _bw(
        "chain of 10 ops 2^26 f32, eager, CUARRAY_AUTO_FUSE=0",
        _chain(False),
        3 * CHAIN_N * 4 / GIB,
        libs=("cuarray",),
        env={"CUARRAY_AUTO_FUSE": "0"},
    ),
    _bw("chain of 10 ops 2^26 f32, fuse", _chain(True), 3 * CHAIN_N * 4 / GIB, libs=(*CUPY_LIKE, "jax")),
    _bw("strided add x[::2] + y[::2] f32", _strided_add, 2.5, 0.70),
    _bw("transposed add x.T + y 16384²", _transposed_add, 3, 0.70),
    # Last, so that the float32 inputs above stay in the host cache while they are needed.
    _bw("add(x, y, out=z) f16", _add("float16"), 3, 0.95),
    _bw("add(x, y, out=z) f64", _add("float64"), 3, 0.95),
    _bw("add(x, y, out=z) int32", _add("int32"), 3, 0.95),
    _bw("add(x, y, out=z) c64", _add("complex64"), 3, 0.95),
]
