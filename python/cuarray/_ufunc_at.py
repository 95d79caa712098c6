"""ufunc.at(a, indices, b=None): the ufunc applied in place at `a[indices]`, unbuffered, so that an element
indexed k times is updated k times, with NumPy's results (Note [ufunc.at]). Installed on cuarray's ufunc type
at import.

Note [ufunc.at]
NumPy's at runs the ufunc once per index in order, each result cast back to a's dtype before the next reads
it. Here every index is first turned into the flat position it names in `a` (the key goes through the
ordinary indexing code, so every key NumPy takes and every error it raises come out the same), and the
positions are sorted, stably. The k-th occurrence of every position then belongs to round k: a round has
each position at most once, so it is one gather, one call of the ufunc and one scatter, and the rounds in
order give each element NumPy's sequence of updates, rounding included. Rounds cost launches, as many as
the most repeated index has repeats; where the updates of an element can be summed first without changing
the result (integer add and subtract, exact modulo 2**bits however they are grouped), one round adds the
sum of each position's values. Atomics would be faster, but their order, and a float sum's rounding, would
change from run to run.
"""

import math
import warnings

import numpy

from cuarray import _core
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._creation import arange, empty, zeros
from cuarray._histogram import bincount
from cuarray._indexing import flatnonzero
from cuarray._joining import concatenate
from cuarray._manipulation import broadcast_to
from cuarray._scan import cumsum
from cuarray._sorting import argsort, searchsorted
from cuarray._transfer import asarray, device_array

__all__ = []

# The ufuncs whose repeated updates of one element can be summed first (Note [ufunc.at]), on integers.
_SUMMED = ("add", "subtract")


def _gather(x, p):
    return _core._gather(x, [0], [p], 0, [0], "inbounds")


def _positions(shape, indices):
    """The flat C-order position in an array of `shape` of every element of arr[indices], in the shape of
    arr[indices]: one broadcast view per axis (its coordinate times the axis' C stride) indexed by `indices`,
    summed, so only the indexed elements are ever computed."""
    if not shape:
        return arange(1, dtype=numpy.int64).reshape(())[indices]
    pos = None
    for d, n in enumerate(shape):
        coord = arange(n, dtype=numpy.int64) * math.prod(shape[d + 1 :])
        term = broadcast_to(coord.reshape((1,) * d + (n,) + (1,) * (len(shape) - d - 1)), shape)[indices]
        pos = term if pos is None else _u.add(pos, term)
    return pos


def at(self, a, indices, b=None, /):
    """Performs ``self`` in place on `a` at `indices` (with `b` for a binary ufunc): NumPy's ufunc.at, where an
    index that repeats applies the ufunc once per occurrence."""
    name = self.__name__
    if self.nout != 1:
        raise ValueError("Only single output ufuncs supported at this time")
    if isinstance(a, numpy.ndarray):
        raise TypeError(f"cuarray.{name}.at: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)")
    if not isinstance(a, ndarray):
        raise TypeError("first operand must be array")
    if self.nin == 2 and b is None:
        raise ValueError("second operand needed for ufunc")
    if self.nin == 1 and b is not None:
        raise ValueError("second operand provided when ufunc is unary")
    if self.nin > 2:
        raise NotImplementedError(f"{name}.at takes ufuncs of one or two inputs")
    # NumPy's order of errors: the types (an empty call raises NumPy's TypeError where the ufunc has no loop
    # for them), then the indices, then b's shape.
    if b is None:
        loop = self(empty(0, a.dtype)).dtype
    else:
        # A host b is copied over, as CuPy's at does (a host `a` cannot be updated in place, so it is refused).
        b = asarray(b) if isinstance(b, numpy.ndarray) else device_array(b, f"{name}.at")
        loop = self(empty(0, a.dtype), empty(0, b.dtype)).dtype
    pos = _positions(a.shape, indices)
    shape = pos.shape
    if b is not None:
        try:
            fits = numpy.broadcast_shapes(b.shape, shape) == shape
        except ValueError:
            fits = False
        if not fits:
            raise ValueError("array is not broadcastable to correct shape")
    n = pos.size
    if n == 0:
        return
    target = a if a._c_contiguous else a.copy("C")
    flat = target.reshape(-1)
    pos = pos.reshape(-1)
    order = argsort(pos)  # stable: the occurrences of a position stay in index order
    ps = _gather(pos, order)
    vs = None if b is None else _gather(broadcast_to(b, shape).reshape(-1), order)

    # A complex loop's results lose their imaginary parts in a real `a`: NumPy warns once per call, where each
    # round's scatter would warn again, so the rounds scatter the real parts.
    drops_imaginary = loop.kind == "c" and a.dtype.kind not in "cb"
    if drops_imaginary:
        warnings.warn(
            "Casting complex values to real discards the imaginary part", numpy.exceptions.ComplexWarning, 2
        )

    def apply(p, v):
        old = _gather(flat, p)
        new = self(old) if v is None else self(old, v)
        _core._scatter(flat, [0], [p], 0, [0], new.real if drops_imaginary else new, "inbounds")

    if name in _SUMMED and a.dtype.kind in "iu" and loop.kind in "iu":
        # One round: each position's values summed (exact modulo 2**bits), added or subtracted once.
        last = _u.subtract(searchsorted(ps, ps, side="right"), 1)
        ends = flatnonzero(_u.equal(last, arange(n, dtype=numpy.int64)))
        sums = _gather(cumsum(vs, dtype=loop), ends)
        before = concatenate([zeros(1, loop), sums[:-1]])
        apply(_gather(ps, ends), _u.subtract(sums, before))
    else:
        rank = _u.subtract(arange(n, dtype=numpy.int64), searchsorted(ps, ps))  # occurrence number
        counts = bincount(rank).get()  # the positions of each round; one synchronization
        by_round = argsort(rank)
        ps, vs = _gather(ps, by_round), None if vs is None else _gather(vs, by_round)
        start = 0
        for count in counts.tolist():
            apply(ps[start : start + count], None if vs is None else vs[start : start + count])
            start += count
    if target is not a:
        a[...] = target


_core.ufunc.at = at
