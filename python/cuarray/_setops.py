"""Set operations on the device, built on sort, searchsorted and unique as NumPy's are: isin, intersect1d,
union1d, setdiff1d, setxor1d; with ediff1d (differences of the flattened array) and trim_zeros."""

import numpy

from cuarray import _core, _reduction
from cuarray import _ufuncs as _u
from cuarray._creation import _is_weak, empty, full
from cuarray._indexing import flatnonzero
from cuarray._joining import concatenate, stack
from cuarray._sorting import _take, argsort, searchsorted, unique
from cuarray._transfer import device_array as _device

__all__ = ["ediff1d", "intersect1d", "isin", "setdiff1d", "setxor1d", "trim_zeros", "union1d"]


def _compress(a, mask):
    """a[mask] for a 1-D `a` and bool `mask` (its size comes back to the host, as for any a[mask])."""
    return _take(a, flatnonzero(mask))


def _isin(ar1, ar2, invert):
    """For each element of the 1-D `ar1`, whether it equals an element of the 1-D `ar2` (NaN equals nothing),
    compared in their common dtype, as NumPy's concatenation does."""
    common = numpy.result_type(ar1.dtype, ar2.dtype)
    if common.kind == "f" and {ar1.dtype.kind, ar2.dtype.kind} == {"i", "u"}:
        # uint64 with a signed type: float64 would merge neighbours past 2**53, where NumPy compares exactly.
        # Compared as uint64 instead, without the negative values, which no uint64 equals.
        if ar2.dtype.kind == "i":
            ar2 = _compress(ar2, _u.greater_equal(ar2, 0))
        found = _isin(ar1.astype(numpy.uint64), ar2.astype(numpy.uint64), invert)
        if ar1.dtype.kind == "u":
            return found
        negative = _u.less(ar1, 0)
        return _u.logical_or(found, negative) if invert else _u.logical_and(found, _u.logical_not(negative))
    ar1, ar2 = ar1.astype(common, copy=False), ar2.astype(common, copy=False)
    if ar2.size == 0:
        return full(ar1.shape, invert, numpy.bool_)
    table = _core._sort(ar2, 0)
    # The leftmost slot of each value in the sorted table holds that value when it is there at all.
    slot = _u.minimum(searchsorted(table, ar1), table.size - 1)
    return (_u.not_equal if invert else _u.equal)(_take(table, slot), ar1)


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Whether each element of `element` is in `test_elements` (flattened), in element's shape. Every `kind`
    gives the same result; this one sorts `test_elements` and searches it."""
    element = _device(element, "isin")
    test_elements = _device(test_elements, "isin")
    if kind not in {None, "sort", "table"}:
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    if kind == "table" and not (element.dtype.kind in "uib" and test_elements.dtype.kind in "uib"):
        raise ValueError(
            "The 'table' method is only supported for boolean or integer arrays. Please select "
            "'sort' or None for kind."
        )
    if kind == "table" and test_elements.size:
        # NumPy's table spans test_elements' range, which must fit their dtype (bools count as uint8).
        t = numpy.uint8 if test_elements.dtype == numpy.bool_ else test_elements.dtype
        span = int(_reduction.max(test_elements).get()) - int(_reduction.min(test_elements).get())
        if span > numpy.iinfo(t).max:
            raise RuntimeError(
                "You have specified kind='table', but the range of values in `ar2` or `ar1` exceed the maximum "
                "integer of the datatype. Please set `kind` to None or 'sort'."
            )
    return _isin(element.reshape(-1), test_elements.reshape(-1), invert).reshape(element.shape)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted unique values in both arrays (flattened); with return_indices, also the indices of their
    first occurrences in each."""
    ar1, ar2 = _device(ar1, "intersect1d"), _device(ar2, "intersect1d")
    if assume_unique:
        ar1, ar2 = ar1.reshape(-1), ar2.reshape(-1)
    elif return_indices:
        ar1, ind1 = unique(ar1, return_index=True)
        ar2, ind2 = unique(ar2, return_index=True)
    else:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = concatenate((ar1, ar2))
    if return_indices:
        perm = argsort(aux)  # stable: of two equal values, ar1's comes first
        aux = _take(aux, perm)
    else:
        aux = _core._sort(aux, 0)
    # Each input holds a value at most once, so a value in both is a pair of equal neighbours.
    where = flatnonzero(_u.equal(aux[1:], aux[:-1]))
    common = _take(aux, where)
    if not return_indices:
        return common
    ind1_in, ind2_in = _take(perm, where), _u.subtract(_take(perm[1:], where), ar1.size)
    if not assume_unique:
        ind1_in, ind2_in = _take(ind1, ind1_in), _take(ind2, ind2_in)
    return common, ind1_in, ind2_in


def union1d(ar1, ar2):
    """The sorted unique values in either array (flattened)."""
    pair = [x if _is_weak(x) else _device(x, "union1d") for x in (ar1, ar2)]
    return unique(concatenate(pair, axis=None))  # a Python number weakly typed, as NumPy's concatenate


def setdiff1d(ar1, ar2, assume_unique=False):
    """The unique values of `ar1` that are not in `ar2`: sorted, or in ar1's order with assume_unique=True."""
    ar1, ar2 = _device(ar1, "setdiff1d"), _device(ar2, "setdiff1d")
    if assume_unique:
        ar1 = ar1.reshape(-1)
    else:
        ar1, ar2 = unique(ar1), unique(ar2)
    return _compress(ar1, _isin(ar1, ar2.reshape(-1), invert=True))


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted unique values in exactly one of the arrays (flattened)."""
    ar1, ar2 = _device(ar1, "setxor1d"), _device(ar2, "setxor1d")
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = concatenate((ar1, ar2), axis=None)
    if aux.size == 0:
        return aux
    aux = _core._sort(aux, 0)
    # A value is kept when it differs from both neighbours (the ends count as different).
    flag = empty((aux.size + 1,), numpy.bool_)
    flag[:1] = True
    flag[-1:] = True
    _u.not_equal(aux[1:], aux[:-1], out=flag[1:-1])
    return _compress(aux, _u.logical_and(flag[1:], flag[:-1]))


def _edge(values, dtype, name):
    """to_begin / to_end as a 1-D array of `dtype`, if it casts to it under the same_kind rule."""
    values = _device(values, "ediff1d")
    if not numpy.can_cast(values.dtype, dtype, casting="same_kind"):
        raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under the `same_kind` rule.")
    return values.reshape(-1).astype(dtype)


def ediff1d(ary, to_end=None, to_begin=None):
    """The differences between consecutive elements of the flattened `ary`, in ary's dtype, with `to_begin`
    and `to_end` (cast to that dtype) before and after them."""
    ary = _device(ary, "ediff1d").reshape(-1)
    diff = _u.subtract(ary[1:], ary[:-1])
    if to_begin is None and to_end is None:
        return diff
    parts = [] if to_begin is None else [_edge(to_begin, ary.dtype, "to_begin")]
    parts.append(diff)
    if to_end is not None:
        parts.append(_edge(to_end, ary.dtype, "to_end"))
    return concatenate(parts)


def trim_zeros(filt, trim="fb", axis=None):
    """A view of `filt` without the leading ('f') and/or trailing ('b') slices along `axis` (default: every
    axis) that hold only zeros; an all-zero array gives an empty one along those axes."""
    a = _device(filt, "trim_zeros")
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    if axis is None:
        axes = tuple(range(a.ndim))
    else:
        axes = numpy.lib.array_utils.normalize_axis_tuple(axis, a.ndim, argname="axis")
    if not axes:
        return a
    bounds = None
    if a.size:
        nonzero = a.astype(numpy.bool_)
        parts = [_reduction.any(nonzero)]
        for ax in axes:
            others = tuple(d for d in range(a.ndim) if d != ax)
            hit = _reduction.any(nonzero, axis=others) if others else nonzero
            parts += [_reduction.argmax(hit), a.shape[ax] - 1 - _reduction.argmax(hit[::-1])]
        # The bounds set the result's shape: one small readback.
        found, *bounds = stack(parts).get().tolist()
        if not found:
            bounds = None
    index = [slice(None)] * a.ndim
    for i, ax in enumerate(axes):
        if bounds is None:  # all zeros: empty along every trimmed axis
            index[ax] = slice(0, 0)
        else:
            start, last = bounds[2 * i : 2 * i + 2]
            index[ax] = slice(start if "f" in trim else None, last + 1 if "b" in trim else None)
    return a[tuple(index)]
