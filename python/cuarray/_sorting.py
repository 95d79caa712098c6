"""Sorting, searching and unique values in NumPy's order (NaNs last; Note [Sort order] in
cpp/cuarray/kernels/sort.cuh): sort, argsort, partition, argpartition, lexsort, sort_complex, searchsorted,
unique, and the array API's unique_values, unique_counts, unique_inverse, unique_all.

Every sort is stable, whatever `kind` or `stable` says (NumPy's 'quicksort' promises no order among equal
elements, so a stable order is one of its valid results).

Note [Descending sorts]
NumPy 2.5's ``descending=True`` (and the array API's) puts the largest first and NaNs last, as in ascending
order, and a stable sort keeps equal elements in their original order. That is the ascending stable sort of
a key that reverses the order of the numbers and keeps NaNs NaN: -x for floating and complex types (a
complex NaN keeps its place among NaNs: R+nanj before nan+Rj before nan+nanj, each group largest first, as
NumPy's), ~x for integers and bools. Both are exact and their own inverse, so sort maps the sorted keys back
through the same function, and argsort of the key is the answer. Reversing an ascending sort would put NaNs
first and equal elements last-seen-first.
"""

import math
import operator
from collections import namedtuple

import numpy

from cuarray import _core, _reduction
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._creation import _laid_out_like, arange, empty
from cuarray._indexing import flatnonzero, take_along_axis
from cuarray._manipulation import moveaxis
from cuarray._scan import cumsum
from cuarray._transfer import asarray
from cuarray._transfer import device_array as _device

__all__ = [
    "argpartition",
    "argsort",
    "lexsort",
    "partition",
    "searchsorted",
    "sort",
    "sort_complex",
    "unique",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
]

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


_NO = numpy._NoValue


def _check(kind, order, stable=None, descending=_NO):
    """NumPy's checks of sort's `kind` (a string whose first letter, in either case, names quick, heap,
    merge or stable sort), `stable`, `descending` and `order`."""
    if kind is not None:
        if not isinstance(kind, (str, bytes)):
            raise TypeError(f"sort kind must be str, not {type(kind).__name__}")
        first = kind[:1].decode("latin-1") if isinstance(kind, bytes) else kind[:1]
        if first.lower() not in ("q", "h", "m", "s"):
            raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")
        if stable is not None or descending is not _NO:
            raise ValueError(
                "`kind` and keyword parameters can't be provided at the same time. Use only one of them."
            )
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    return descending is not _NO and bool(descending)


def _descending_key(a):
    """The key whose ascending sort is `a`'s descending sort (Note [Descending sorts]); its own inverse."""
    return _u.negative(a) if a.dtype.kind in "fc" or a.dtype.name == "bfloat16" else _u.invert(a)


def _check_select_kind(kind):
    if not isinstance(kind, (str, bytes)):  # NumPy takes the name as bytes too
        raise TypeError(f"select kind must be str, not {type(kind).__name__}")
    if kind not in ("introselect", b"introselect"):
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")


def _axis(a, axis):
    """(array, axis): the flattened array for axis None."""
    if axis is None:
        return a.reshape(-1), 0
    return a, numpy.lib.array_utils.normalize_axis_index(operator.index(axis), a.ndim)


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=_NO):
    """A sorted copy of `a` along `axis` (the flattened array for None); largest first, NaNs still last, with
    descending=True (Note [Descending sorts])."""
    descending = _check(kind, order, stable, descending)
    a, axis = _axis(_device(a, "sort"), axis)
    # NumPy sorts a copy of `a` laid out as `a` (order='K').
    if descending:
        return _laid_out_like(_descending_key(_core._sort(_descending_key(a), axis)), a)
    return _laid_out_like(_core._sort(a, axis), a)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=_NO):
    """The int64 indices that sort `a` along `axis`; equal elements keep their order, also with
    descending=True (Note [Descending sorts])."""
    descending = _check(kind, order, stable, descending)
    a = _device(a, "argsort")
    if a.ndim == 0 and axis is not None and operator.index(axis) in (0, -1):
        axis = None  # NumPy's argsort ravels a 0-d array first (its sort does not)
    a, axis = _axis(a, axis)
    return _core._argsort(_descending_key(a) if descending else a, axis)


def _sort_in_place(self, axis=-1, kind=None, order=None, *, stable=None, descending=_NO):
    """ndarray.sort: sorts the array in place along `axis`."""
    descending = _check(kind, order, stable, descending)
    axis = numpy.lib.array_utils.normalize_axis_index(operator.index(axis), self.ndim)
    if descending:
        self[...] = _descending_key(_core._sort(_descending_key(self), axis))
    else:
        self[...] = _core._sort(self, axis)


def _partition_in_place(self, kth, axis=-1, kind="introselect", order=None):
    """ndarray.partition: partitions the array in place (by sorting it)."""
    self[...] = _core._sort(self, _check_partition(self, kth, axis, kind, order))


_TOO_DEEP = "setting an array element with a sequence. The requested array would exceed the maximum number of dimension of 1."


def _check_partition(a, kth, axis, kind, order, float_axis="integer argument expected, got float"):
    """NumPy's checks of partition's arguments, in its order: the axis's type, the kind, no `order` for an array
    without fields, kth's shape (at most 1-D), the axis's range, kth's type (integers, not bools), and its bounds
    (skipped for an empty array; a negative kth counted from the end, as the message shows it). Returns the axis,
    normalised. `float_axis`: the message for a float axis (argpartition's is operator.index's)."""
    if float_axis and isinstance(axis, (float, numpy.floating)):
        raise TypeError(float_axis)
    axis = operator.index(axis)
    _check_select_kind(kind)
    if order is not None and a.dtype.names is None:
        raise ValueError("Cannot specify order when the array has no fields.")
    try:
        kth_array = numpy.asarray(kth)
    except ValueError:  # a ragged sequence
        raise ValueError(_TOO_DEEP) from None
    if kth_array.ndim > 1:
        raise ValueError("object too deep for desired array" if isinstance(kth, numpy.ndarray) else _TOO_DEEP)
    kth = kth_array
    axis = numpy.lib.array_utils.normalize_axis_index(axis, a.ndim)
    if kth.dtype.kind == "b":
        raise ValueError("Booleans unacceptable as partition index")
    if kth.dtype.kind not in "iu":
        raise TypeError("Partition index must be integer")
    kth = kth.astype(numpy.intp, casting="unsafe")  # NumPy's: uint64 values past intp wrap around
    n = a.shape[axis]
    for k in kth.ravel().tolist() if a.size else ():
        k = k + n if k < 0 else k
        if not 0 <= k < n:
            raise ValueError(f"kth(={k}) out of bounds ({n})")
    return axis


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """`a` with the k-th element of each row in its sorted place, smaller ones before and larger after (here
    the rows are fully sorted, which satisfies that)."""
    a = _device(a, "partition")
    if axis is None:
        a, axis = a.reshape(-1), -1
    axis = _check_partition(a, kth, axis, kind, order)
    return _laid_out_like(_core._sort(a, axis), a)  # as sort's


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """The indices that partition `a` (see partition)."""
    if isinstance(
        axis, (bool, numpy.bool_)
    ):  # NumPy's argpartition, before anything else (its partition takes it)
        raise TypeError("an integer is required for the axis")
    a = _device(a, "argpartition")
    if a.ndim == 0:
        a = a.reshape(1)  # NumPy's argpartition ravels a 0-d array first (its partition does not)
    if axis is None:
        a, axis = a.reshape(-1), -1
    return _core._argsort(a, _check_partition(a, kth, axis, kind, order, float_axis=None))


def lexsort(keys, axis=-1):
    """Indices that sort by the last key, then the one before it, ...: stable sorts from the first key."""
    if isinstance(keys, ndarray):  # its rows are the keys (a 0-d array has none, as in NumPy)
        keys = [keys[i] for i in range(keys.shape[0])] if keys.ndim else []
    keys = [_device(k, "lexsort") for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    if len(shape) == 0:
        return asarray(numpy.intp(0))
    axis = numpy.lib.array_utils.normalize_axis_index(operator.index(axis), len(shape))
    order = _core._argsort(keys[0], axis)
    for k in keys[1:]:
        order = take_along_axis(order, _core._argsort(take_along_axis(k, order, axis), axis), axis)
    return order


def sort_complex(a):
    """`a` sorted (real part first, then imaginary), as complex."""
    a = _device(a, "sort_complex")
    s = sort(a)
    if s.dtype.kind == "c":
        return s
    return s.astype(numpy.complex64 if s.dtype.char in "bhBH" else numpy.complex128)


def search_type(a_type, host):
    """The type searchsorted compares `a` (of type a_type) and the host values `host` in. NumPy's is their
    result type, a Python number typed strongly (int64, float64): 300 is past every uint8 and 0.1 compares
    as float64 with float32 data. A number that `a`'s type holds exactly, where `a` widens to that type
    exactly, orders the same in `a`'s own type, which spares converting `a`."""
    common = numpy.result_type(a_type, host.dtype)
    exact = a_type.kind == common.kind or a_type.kind == "b" or (a_type.kind == "u" and common.kind == "i")
    if host.ndim or common == a_type or not exact or (host.dtype.kind == "c" and a_type.kind != "c"):
        return common
    with numpy.errstate(all="ignore"):
        held = host.astype(a_type)
    return a_type if held.item() == host.item() else common


def searchsorted(a, v, side="left", sorter=None):
    """Indices at which the values `v` would be inserted into the sorted 1-D `a` to keep it sorted."""
    if isinstance(side, bytes):  # NumPy reads bytes as their text
        side = side.decode("latin-1")
    if not isinstance(side, str):
        raise TypeError(f"search side must be str, not {type(side).__name__}")
    if side not in ("left", "right"):
        raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")
    a = _device(a, "searchsorted")
    scalar = not isinstance(v, ndarray) and numpy.ndim(v) == 0
    if isinstance(v, ndarray):
        common = numpy.result_type(a.dtype, v.dtype)
    else:
        host = numpy.asarray(v)
        common = search_type(a.dtype, host)
        v = asarray(host)
    if sorter is not None:
        sorter = _device(sorter, "searchsorted")
        if sorter.dtype.kind not in "iu":
            raise TypeError("sorter must only contain integers")
        if not numpy.can_cast(sorter.dtype, numpy.intp):  # uint64, as NumPy's safe cast to intp
            raise ValueError("could not parse sorter argument")
        if sorter.ndim != 1:  # NumPy reads a sorter as a 1-D array only
            raise TypeError("could not parse sorter argument")
    out = _core._searchsorted(
        a.astype(common, copy=False), v.astype(common, copy=False), side == "right", sorter
    )
    return out.reshape(()) if scalar else out


def _take(a, indices):
    """a[indices] for indices known to be in bounds (no check, no synchronization)."""
    return _core._gather(a, [0], [indices], 0, [0], "inbounds")


def _sorted_rows(rows):
    """(perm, rows[perm]) for the (n, m) `rows` sorted lexicographically, stably (NaNs last in each column,
    but first in a float16 column)."""
    n, m = rows.shape
    if n == 0 or m == 0:  # no rows, or rows that are all equal: the identity order
        perm = arange(n, dtype=numpy.int64)
    else:
        keys = []  # lexsort's last key is the primary one
        for j in range(m - 1, -1, -1):
            keys.append(rows[:, j])
            if rows.dtype == numpy.float16:
                # NumPy sorts the rows as records, and its float16 field order puts NaN before every number
                # (its other float types put NaN last): a NaN-first key ahead of the value.
                keys.append(_u.logical_not(_u.isnan(rows[:, j])))
        perm = lexsort(keys)
    return perm, _take(rows, perm)


def unique(
    ar,
    return_index=False,
    return_inverse=False,
    return_counts=False,
    axis=None,
    *,
    equal_nan=True,
    sorted=True,
):
    """The sorted unique values of `ar` (flattened), optionally with the index of each value's first
    occurrence, the indices that rebuild `ar` from them (ar's shape), and their counts. With an integer
    `axis`, the unique sub-arrays along it, in lexicographic order; as NumPy's, these compare with ==, so a
    sub-array holding a NaN is unique whatever `equal_nan` says, and the inverse is 1-D."""
    ar = _device(ar, "unique")
    rows_shape = None
    if axis is not None:
        axis = numpy.lib.array_utils.normalize_axis_index(operator.index(axis), ar.ndim)
        if ar.ndim > 1:
            # Sub-arrays along `axis` become the rows of an (n, m) array.
            moved = moveaxis(ar, axis, 0)
            rows_shape = moved.shape
            ar = moved.reshape(rows_shape[0], math.prod(rows_shape[1:]))
    if rows_shape is not None:
        perm, aux = _sorted_rows(ar)
    elif return_index or return_inverse:
        flat = ar.reshape(-1)
        perm = _core._argsort(flat, 0)
        aux = _take(flat, perm)
    else:
        aux = _core._sort(ar.reshape(-1), 0)
    n = aux.shape[0]
    mask = empty((n,), numpy.bool_)
    if n:
        mask[:1] = True
        if rows_shape is not None:
            mask[1:] = _reduction.any(_u.not_equal(aux[1:], aux[:-1]), axis=1)
        else:
            _u.not_equal(aux[1:], aux[:-1], out=mask[1:])
        if rows_shape is None and equal_nan and aux.dtype.kind in "fc" and bool(_u.isnan(aux[-1])):
            # Every NaN is one value: keep the first (NaNs sort last).
            first_nan = int(searchsorted(_u.isnan(aux), True, side="left"))
            mask[first_nan] = True
            mask[first_nan + 1 :] = False
    where = flatnonzero(mask)
    values = _take(aux, where)
    if (
        rows_shape is None
        and not (return_index or return_inverse or return_counts)
        and equal_nan
        and aux.dtype.kind == "c"
        and n
        and bool(_u.isnan(aux[-1]))
    ):
        # NumPy finds these unique values by hashing, which keeps the first NaN of the input, not of the
        # sorted values (nan+0j before 1+nanj, where sorting puts 1+nanj first).
        flat = ar.reshape(-1)
        values[-1] = flat[int(_reduction.argmax(_u.isnan(flat)))]
    if rows_shape is not None:
        values = moveaxis(values.reshape((where.size,) + rows_shape[1:]), 0, axis)
    result = (values,)
    if return_index:
        result += (_take(perm, where),)
    if return_inverse:
        inverse = empty((n,), numpy.int64)
        _core._scatter(inverse, [0], [perm], 0, [0], cumsum(mask, dtype=numpy.int64) - 1, "inbounds")
        result += (inverse if rows_shape is not None else inverse.reshape(ar.shape),)
    if return_counts:
        bounds = empty((where.size + 1,), numpy.int64)
        bounds[:-1] = where
        bounds[-1:] = n
        result += (bounds[1:] - bounds[:-1],)
    return result[0] if len(result) == 1 else result


def unique_values(x, /):
    """The unique elements of `x` (flattened), sorted; each NaN is its own value, as the array API says."""
    return unique(x, equal_nan=False)


def unique_counts(x, /):
    """UniqueCountsResult(values, counts): the unique elements and how often each occurs."""
    return UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False))


def unique_inverse(x, /):
    """UniqueInverseResult(values, inverse_indices): the unique elements, and for each element of `x` (in x's
    shape) the index of its value among them."""
    return UniqueInverseResult(*unique(x, return_inverse=True, equal_nan=False))


def unique_all(x, /):
    """UniqueAllResult(values, indices, inverse_indices, counts): unique_inverse and unique_counts, with the
    index of each value's first occurrence in the flattened `x`."""
    return UniqueAllResult(
        *unique(x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)
    )
