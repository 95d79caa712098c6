"""Joining, splitting and rearranging arrays (NumPy's names), built from views and device copies:
concatenate (concat), stack, vstack, row_stack, hstack, dstack, column_stack, atleast_1d/2d/3d, split,
array_split, hsplit, vsplit, dsplit, unstack, append, insert, delete, resize, flip, fliplr, flipud, roll, rot90,
tile, repeat, diag, diagflat, tri, tril, triu, meshgrid.
"""

import itertools
import operator
import warnings

import numpy

from cuarray import _core
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._creation import _is_weak, _order_a, arange, empty, ones, zeros
from cuarray._indexing import flatnonzero
from cuarray._manipulation import copyto, moveaxis
from cuarray._reduction import any as any_
from cuarray._scan import cumsum
from cuarray._sorting import argsort, searchsorted
from cuarray._transfer import array, asarray

__all__ = [
    "append",
    "array_split",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "column_stack",
    "concat",
    "concatenate",
    "delete",
    "diag",
    "diagflat",
    "dsplit",
    "dstack",
    "flip",
    "fliplr",
    "flipud",
    "hsplit",
    "hstack",
    "insert",
    "meshgrid",
    "repeat",
    "resize",
    "roll",
    "rot90",
    "row_stack",
    "split",
    "stack",
    "tile",
    "tri",
    "tril",
    "triu",
    "unstack",
    "vsplit",
    "vstack",
]


def _arrays(arrays, name):
    arrays = list(arrays)
    for a in arrays:
        if isinstance(a, numpy.ndarray):
            raise TypeError(
                f"cuarray.{name}: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)"
            )
    return [a if isinstance(a, ndarray) else asarray(a) for a in arrays]


def _weak_numbers_typed(items, target):
    """concatenate's arrays. NumPy's concatenate reads a Python number weakly typed: as the type of the result
    (`target`, from dtype or out; else the arrays' and numbers' result type, so uint8 values and 2 give uint8,
    float32 ones and 2.0 float32) where its kind allows, cast as astype casts (-1 is 255 in uint8, 300 is 44);
    a float for an integer result stays float64, for the casting rule to refuse. A list is typed as it is."""
    weak = [_is_weak(x) for x in items]
    strong = _arrays([x for x, w in zip(items, weak) if not w], "concatenate")
    if not any(weak):
        return strong
    if target is None:
        target = numpy.result_type(*(a.dtype for a in strong), *(x for x, w in zip(items, weak) if w))
    rest = iter(strong)
    return [
        asarray(numpy.asarray(x).astype(numpy.result_type(target, x))) if w else next(rest)
        for x, w in zip(items, weak)
    ]


def _axis(axis, ndim):
    return numpy.lib.array_utils.normalize_axis_index(operator.index(axis), ndim)


def _out_or_dtype(out, dtype):
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.")


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Joins arrays along an existing axis (axis=None flattens them first)."""
    _out_or_dtype(out, dtype)
    arrays = _weak_numbers_typed(list(arrays), getattr(out, "dtype", None) if dtype is None else dtype)
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrays, axis = [a.ravel() for a in arrays], 0
    first = arrays[0]
    if first.ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = _axis(axis, first.ndim)
    for i, a in enumerate(arrays[1:], 1):
        if a.ndim != first.ndim:
            raise ValueError(
                "all the input arrays must have same number of dimensions, but the array at index 0 "
                f"has {first.ndim} dimension(s) and the array at index {i} has {a.ndim} dimension(s)"
            )
        for d in range(first.ndim):
            if d != axis and a.shape[d] != first.shape[d]:
                raise ValueError(
                    "all the input array dimensions except for the concatenation axis must match "
                    f"exactly, but along dimension {d}, the array at index 0 has size {first.shape[d]} "
                    f"and the array at index {i} has size {a.shape[d]}"
                )
    shape = list(first.shape)
    shape[axis] = sum(a.shape[axis] for a in arrays)
    if out is None:
        # Laid out in the inputs' common memory order, as NumPy's is (Note [Layout of new arrays] in shape.h).
        out = _core._empty_like_all(
            tuple(shape),
            numpy.result_type(*(a.dtype for a in arrays)) if dtype is None else dtype,
            [a for a in arrays if isinstance(a, ndarray)],  # another array is refused by copyto below
        )
    elif out.shape != tuple(shape):
        raise ValueError(f"Output array has wrong shape {out.shape}, expected {tuple(shape)}")
    start = 0
    for a in arrays:
        index = (slice(None),) * axis + (slice(start, start + a.shape[axis]),)
        copyto(out[index], a, casting=casting)
        start += a.shape[axis]
    return out


concat = concatenate  # the array API's name, as NumPy's


def atleast_1d(*arys):
    """Each argument as an array of at least one dimension (views); one array for one argument, else a
    list."""
    res = [a if a.ndim >= 1 else a.reshape(1) for a in _arrays(arys, "atleast_1d")]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_2d(*arys):
    """Each argument as an array of at least two dimensions (views; a 1-D array becomes one row)."""
    res = [
        a if a.ndim >= 2 else a.reshape((1,) * (2 - a.ndim) + a.shape) for a in _arrays(arys, "atleast_2d")
    ]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_3d(*arys):
    """Each argument as an array of at least three dimensions (views; shape (n,) becomes (1, n, 1), (m, n)
    becomes (m, n, 1))."""
    res = []
    for a in _arrays(arys, "atleast_3d"):
        if a.ndim == 0:
            a = a.reshape(1, 1, 1)
        elif a.ndim == 1:
            a = a.reshape(1, -1, 1)
        elif a.ndim == 2:
            a = a.reshape(a.shape + (1,))
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Join arrays of one shape along a new axis `axis`, into a new array (or `out`)."""
    _out_or_dtype(out, dtype)
    arrays = _arrays(arrays, "stack")
    if not arrays:
        raise ValueError("need at least one array to stack")
    if len({a.shape for a in arrays}) != 1:
        raise ValueError("all input arrays must have the same shape")
    axis = _axis(axis, arrays[0].ndim + 1)
    return concatenate([a._expand_dims(axis) for a in arrays], axis, out, dtype=dtype, casting=casting)


def vstack(tup, *, dtype=None, casting="same_kind"):
    """Join arrays along the first axis after making them at least 2-D, into a new array."""
    return concatenate([atleast_2d(a) for a in tup], 0, dtype=dtype, casting=casting)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """vstack's alias, deprecated in NumPy 2.0: warns as NumPy's does."""
    warnings.warn(
        "`row_stack` alias is deprecated. Use `np.vstack` directly.", DeprecationWarning, stacklevel=2
    )
    return vstack(tup, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """Join arrays along the second axis (the first for 1-D arrays), into a new array."""
    arrs = [atleast_1d(a) for a in tup]  # an empty sequence (or array) is concatenate's ValueError
    return concatenate(arrs, 0 if arrs and arrs[0].ndim == 1 else 1, dtype=dtype, casting=casting)


def dstack(tup):
    """Join arrays along the third axis (after making them at least 3-D), into a new array."""
    return concatenate([atleast_3d(a) for a in tup], 2)


def column_stack(tup):
    """Stack 1-D arrays as the columns of a 2-D array (2-D arrays are joined as they are), into a new
    array."""
    arrays = [a.reshape(-1, 1) if a.ndim < 2 else a for a in _arrays(tup, "column_stack")]
    return concatenate(arrays, 1)


def array_split(ary, indices_or_sections, axis=0):
    """Split `ary` into sub-arrays (views) along `axis`: `indices_or_sections` equal parts (the first ones
    one longer where they do not divide), or the parts between the given indices."""
    (ary,) = _arrays([ary], "array_split")
    axis_n = ary.shape[axis]
    if numpy.ndim(indices_or_sections) == 0:
        sections = int(indices_or_sections)  # NumPy's int(): 2.0 is two sections
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        each, extra = divmod(axis_n, sections)
        sizes = [each + 1] * extra + [each] * (sections - extra)
        bounds = numpy.concatenate([[0], numpy.cumsum(sizes)]).tolist()
    else:
        bounds = [0] + list(indices_or_sections) + [axis_n]
    axis = _axis(axis, ary.ndim)
    return [ary[(slice(None),) * axis + (slice(lo, hi),)] for lo, hi in itertools.pairwise(bounds)]


def split(ary, indices_or_sections, axis=0):
    """Split `ary` into views along `axis`: `indices_or_sections` equal parts (ValueError if they do not
    divide the axis), or the parts between the given indices."""
    (ary,) = _arrays([ary], "split")
    if numpy.ndim(indices_or_sections) == 0 and ary.shape[axis] % indices_or_sections:
        raise ValueError("array split does not result in an equal division")
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    """split along axis 1 (axis 0 for 1-D arrays)."""
    (ary,) = _arrays([ary], "hsplit")
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """split along axis 0 of an array of 2 or more dimensions."""
    (ary,) = _arrays([ary], "vsplit")
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """split along axis 2 of an array of 3 or more dimensions."""
    (ary,) = _arrays([ary], "dsplit")
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


def unstack(x, /, *, axis=0):
    """The views x[..., i, ...] along `axis`, as a tuple."""
    x = _arrays([x], "unstack")[0]
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    axis = _axis(axis, x.ndim)
    head = (slice(None),) * axis
    return tuple(x[head + (i,)] for i in range(x.shape[axis]))


def append(arr, values, axis=None):
    """arr with `values` joined at the end of `axis` (both flattened for axis None)."""
    arr, values = _arrays([arr, values], "append")
    if axis is None:
        arr, values, axis = arr.ravel(), values.ravel(), 0
    return concatenate((arr, values), axis=axis)


def _along(arr, axis, name):
    """(arr, axis) for delete and insert: the flattened array for axis None."""
    (arr,) = _arrays([arr], name)
    if axis is None:
        return arr.ravel(), 0
    return arr, _axis(axis, arr.ndim)


def delete(arr, obj, axis=None):
    """A copy of `arr` without the entries `obj` (an int, slice, sequence of ints or bools, or a device int or
    bool array) along `axis` (of the flattened array for None)."""
    arr, axis = _along(arr, axis, "delete")
    n = arr.shape[axis]
    head = (slice(None),) * axis
    if isinstance(obj, ndarray) and obj.size == 1 and obj.dtype.kind in "ui":
        obj = obj.item()  # NumPy's delete takes one index as an int (its layout and its IndexError)
    if isinstance(obj, ndarray):
        if obj.dtype == numpy.bool_:
            if obj.shape != (n,):
                raise ValueError(
                    "boolean array argument obj to delete must be one dimensional and match the axis "
                    f"length of {n}"
                )
            keep = _u.logical_not(obj)
        else:
            keep = ones(n, numpy.bool_)
            keep[obj] = False  # device indices, checked on the device (NumPy's IndexError)
        # The result's length is the number of entries kept: the boolean index reads it back.
        return arr[head + (keep,)]
    if not isinstance(obj, (slice, int, numpy.integer)):
        host = numpy.asarray(obj)
        if host.size == 1 and host.dtype.kind in "ui":  # NumPy's delete takes one index as an int
            obj = host.item()
    if isinstance(obj, (int, numpy.integer)) and not isinstance(obj, bool):
        if not -n <= obj < n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        obj = operator.index(obj) % n
        new = empty(arr.shape[:axis] + (n - 1,) + arr.shape[axis + 1 :], arr.dtype, order=_order_a(arr))
        new[head + (slice(None, obj),)] = arr[head + (slice(None, obj),)]
        new[head + (slice(obj, None),)] = arr[head + (slice(obj + 1, None),)]
        return new
    # Host obj: NumPy finds the kept positions (and raises its errors), the device gathers them.
    kept = numpy.delete(numpy.arange(n), obj)
    new = _core._gather(arr, [axis], [asarray(kept.astype(numpy.int64))], axis, [axis], "inbounds")
    if isinstance(obj, slice) and _order_a(arr) == "F" and not new.flags.f_contiguous:
        new = new.copy(order="F")  # NumPy copies the slices into a new array of the input's order
    return new


def insert(arr, obj, values, axis=None):
    """A copy of `arr` with `values` inserted along `axis` (of the flattened array for None) before the indices
    `obj` (an int, slice, sequence of ints, boolean mask, or device array), with NumPy's rules: one index takes
    all of `values` there, several take one slice of `values` each."""
    if isinstance(values, numpy.ndarray):
        raise TypeError("cuarray.insert: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)")
    arr, axis = _along(arr, axis, "insert")
    n = arr.shape[axis]
    head = (slice(None),) * axis
    if isinstance(obj, slice):
        indices = numpy.arange(*obj.indices(n))
    else:
        indices = obj if isinstance(obj, ndarray) else numpy.array(obj)
        if indices.dtype == numpy.bool_:
            if indices.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be one dimensional")
            # A device mask's count sets the result's length: flatnonzero reads it back.
            indices = flatnonzero(indices) if isinstance(indices, ndarray) else numpy.flatnonzero(indices)
        elif indices.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    if indices.size == 1:
        # One index (a device one is read back: it places the slices) takes all of `values`.
        index = operator.index(indices.item())
        if not -n <= index <= n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        if index < 0:
            index += n
        values = array(values, dtype=arr.dtype, copy=None, ndmin=arr.ndim)
        if indices.ndim == 0:  # as arr[..., i:i+1, ...] = values, not arr[..., i, ...] = values
            values = moveaxis(values, 0, axis)
        count = values.shape[axis]
        shape = arr.shape[:axis] + (n + count,) + arr.shape[axis + 1 :]
        new = empty(shape, arr.dtype, order=_order_a(arr))
        new[head + (slice(None, index),)] = arr[head + (slice(None, index),)]
        new[head + (slice(index, index + count),)] = values
        new[head + (slice(index + count, None),)] = arr[head + (slice(index, None),)]
        return new
    if not isinstance(indices, ndarray):
        if indices.size == 0 and not isinstance(obj, numpy.ndarray):
            indices = indices.astype(numpy.intp)
        indices = asarray(indices)
    if indices.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    idx = indices.astype(numpy.int64, copy=False)
    idx = _u._where(_u.less(idx, 0), _u.add(idx, n), idx)
    count = idx.size
    # NumPy's placement: in stable sorted order, the k-th new entry goes to its index + k; old entry j moves up
    # by the number of indices <= j.
    order = argsort(idx)
    ordered = _core._gather(idx, [0], [order], 0, [0], "inbounds")
    where_new = empty(count, numpy.int64)
    _core._scatter(where_new, [0], [order], 0, [0], _u.add(ordered, arange(count)), "inbounds")
    if count and bool(any_(_u.less(ordered[:1], 0))):
        # NumPy adds n once, so an index in [-n - count, -n) stays negative and counts from the new end; the
        # old elements fill the places no new one took, in order.
        where_new = _u._where(_u.less(where_new, 0), _u.add(where_new, n + count), where_new)
        taken = ones(n + count, numpy.bool_)
        taken[where_new] = False  # bounds checked: NumPy's IndexError below -n - count
        where_old = flatnonzero(taken)
        if where_old.size != n:
            raise ValueError(  # two new indices on one place: NumPy's error filling the rest
                f"NumPy boolean array indexing assignment cannot assign {n} input values to the "
                f"{where_old.size} output values where the mask is true"
            )
    else:
        where_old = _u.add(arange(n), searchsorted(ordered, arange(n), side="right"))
    new = empty(arr.shape[:axis] + (n + count,) + arr.shape[axis + 1 :], arr.dtype, order=_order_a(arr))
    new[head + (where_new,)] = values  # bounds checked on the device: NumPy's IndexError for indices past n
    _core._scatter(new, [axis], [where_old], axis, [axis], arr, "inbounds")
    return new


def resize(a, new_shape):
    """An array of `new_shape` filled with a's elements in C order, repeated as needed (NumPy's function, not
    ndarray.resize: no zero fill); zeros when `a` is empty."""
    (a,) = _arrays([a], "resize")
    new_shape = (new_shape,) if isinstance(new_shape, (int, numpy.integer)) else tuple(new_shape)
    new_shape = tuple(operator.index(d) for d in new_shape)
    if any(d < 0 for d in new_shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = 1
    for d in new_shape:
        size *= d
    flat = a.ravel()
    if flat.size == 0 or size == 0:
        return zeros(new_shape, a.dtype)
    if size <= flat.size:
        return flat[:size].copy().reshape(new_shape)
    return tile(flat, -(-size // flat.size))[:size].reshape(new_shape)


def flip(m, axis=None):
    """A view of `m` with the order of the elements along `axis` (None: every axis) reversed."""
    (m,) = _arrays([m], "flip")
    if axis is None:
        axes = range(m.ndim)
    else:  # NumPy's normalisation: out-of-range axes are AxisError, repeated ones ValueError
        axes = numpy.lib.array_utils.normalize_axis_tuple(axis, m.ndim)
    index = [slice(None)] * m.ndim
    for a in axes:
        index[a] = slice(None, None, -1)
    return m[tuple(index)]


def fliplr(m):
    """A view of `m` with the columns (axis 1) reversed; `m` needs at least two dimensions."""
    (m,) = _arrays([m], "fliplr")
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1]


def flipud(m):
    """A view of `m` with the rows (axis 0) reversed; `m` needs at least one dimension."""
    (m,) = _arrays([m], "flipud")
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1]


def roll(a, shift, axis=None):
    """A new array with the elements shifted by `shift` along `axis` (None: the flattened array, reshaped
    back), those past the end coming back at the start. Each shift is read with int(), as NumPy's; a device
    array of shifts is read back first (one synchronization, as CuPy's)."""
    (a,) = _arrays([a], "roll")
    if axis is None:
        return roll(a.ravel(), shift, 0).reshape(a.shape)
    if isinstance(shift, ndarray):
        shift = shift.get()
    shifts, axes = numpy.broadcast_arrays(numpy.asarray(shift), numpy.asarray(axis))
    if shifts.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    out = a
    for s, ax in zip(shifts.ravel().tolist(), axes.ravel().tolist()):
        ax = _axis(ax, a.ndim)
        n = out.shape[ax]
        s = int(s)
        if n == 0:
            continue
        s %= n
        head = (slice(None),) * ax
        out = concatenate([out[head + (slice(n - s, None),)], out[head + (slice(0, n - s),)]], ax)
    return out if out is not a else a.copy()


def rot90(m, k=1, axes=(0, 1)):
    """A view of `m` rotated by 90 degrees `k` times in the plane of `axes`, from the first axis towards
    the second."""
    (m,) = _arrays([m], "rot90")
    a0, a1 = (_axis(x, m.ndim) for x in axes)
    if a0 == a1:
        raise ValueError("Axes must be different.")
    k %= 4
    if k == 0:
        return m[...]
    if k == 2:
        return flip(flip(m, a0), a1)
    perm = list(range(m.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    return flip(m, a1).transpose(perm) if k == 1 else flip(m.transpose(perm), a1)


def tile(A, reps):
    """A new array of `A` repeated `reps` times along each axis."""
    A = _arrays([A], "tile")[0]
    reps = (reps,) if numpy.ndim(reps) == 0 else tuple(reps)
    d = max(len(reps), A.ndim)
    reps = (1,) * (d - len(reps)) + reps
    A = A.reshape((1,) * (d - A.ndim) + A.shape)
    if all(r == 1 for r in reps):  # NumPy's copy keeps the input's memory order (so do its later views)
        return A.copy(order="K")
    # Broadcast a (r0, n0, r1, n1, ...) view of A, then copy it into shape (r0*n0, r1*n1, ...) (Note [Tile and
    # repeat copy]).
    view_shape, expanded = [], A
    for i, (r, n) in enumerate(zip(reps, A.shape)):
        expanded = expanded._expand_dims(2 * i)
        view_shape += [r, n]
    out_shape = tuple(r * n for r, n in zip(reps, A.shape))
    return _copied(expanded._broadcast_to(tuple(view_shape)), out_shape)  # Note [Tile and repeat copy]


# Note [Tile and repeat copy]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~
# tile and repeat are a broadcast view of the input reshaped to the result's shape. Where the broadcast axes
# have length 1 (reps or repeats of 1, or a size-1 input) that reshape needs no copy and would give a view of
# the input, but NumPy's tile and repeat always return a new array: writing into the result must not change
# the input, nor the input the result. So the view is copied, in the one strided copy kernel that the other
# cases run anyway, into a new C-ordered array of the result's shape (an owner, base None, as NumPy's; a
# copying reshape is a view of its copy).


def _copied(view, out_shape):
    """A new C-ordered array of `out_shape` holding the elements of `view` in C order."""
    out = empty(out_shape, view.dtype)
    out.reshape(view.shape)[...] = view
    return out


def repeat(a, repeats, axis=None):
    """Each element (of the flattened `a` for axis None) `repeats` times along `axis`: one count for all, or
    one per element (a sequence, or a device array: its total costs one synchronization)."""
    a = _arrays([a], "repeat")[0]
    if axis is None or a.ndim == 0:  # NumPy repeats a 0-d array as a 1-d one (axis 0 or -1)
        a, axis = a.ravel(), 0 if axis is None else axis
    axis = _axis(axis, a.ndim)
    if isinstance(repeats, ndarray):
        if not numpy.can_cast(repeats.dtype, numpy.intp, "safe"):  # NumPy's rule for an array of counts
            raise TypeError(
                f"Cannot cast array data from {repeats.dtype!r} to {numpy.dtype(numpy.intp)!r} according to "
                "the rule 'safe'"
            )
        if repeats.ndim > 1:
            raise ValueError("object too deep for desired array")
        if repeats.size != 1:
            return _repeat_each(a, repeats, axis)
        repeats = repeats.item()
    elif isinstance(repeats, numpy.ndarray):  # CuPy's refusal: moving data is the caller's choice
        raise TypeError(
            "cuarray.repeat: got a numpy.ndarray of repeats; move it to the GPU with cuarray.asarray(x)"
        )
    elif numpy.ndim(repeats) != 0:
        counts = numpy.asarray(repeats)
        if counts.size != 1:  # NumPy checks the counts and builds the gather index on the host
            index = numpy.repeat(numpy.arange(a.shape[axis]), counts.astype(numpy.intp, copy=False))
            return _core._gather(a, [axis], [asarray(index.astype(numpy.int64))], axis, [axis], "inbounds")
        repeats = counts.ravel()[0]
    repeats = _repeat_count(repeats)
    if repeats < 0:
        raise ValueError("negative dimensions are not allowed")
    expanded = a._expand_dims(axis + 1)
    shape = a.shape[: axis + 1] + (repeats,) + a.shape[axis + 1 :]
    out_shape = a.shape[:axis] + (a.shape[axis] * repeats,) + a.shape[axis + 1 :]
    return _copied(expanded._broadcast_to(shape), out_shape)  # Note [Tile and repeat copy]


def _repeat_count(r):
    """One repeat count, as NumPy reads it (floats included): a Python int past int64 is an OverflowError."""
    if isinstance(r, int):
        numpy.asarray(r, dtype=numpy.intp)  # NumPy's OverflowError
    return int(r)


def _repeat_each(a, counts, axis):
    """repeat with one device count per element along `axis`: output position j takes element i where
    cumsum(counts)[i - 1] <= j < cumsum(counts)[i]."""
    n = a.shape[axis]
    if counts.size != n:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) ({counts.size},)")
    counts = counts.astype(numpy.int64, copy=False)
    if bool(any_(_u.less(counts, 0))):
        raise ValueError("repeats may not contain negative values.")
    ends = cumsum(counts)
    total = int(ends[-1].item()) if n else 0
    index = searchsorted(ends, arange(total), side="right")
    return _core._gather(a, [axis], [index], axis, [axis], "inbounds")


def diag(v, k=0):
    """The `k`-th diagonal of a 2-D array (a view), or a new 2-D array with a 1-D `v` on its `k`-th
    diagonal."""
    (v,) = _arrays([v], "diag")
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        out = zeros((n, n), v.dtype)
        out.diagonal(k)[...] = v
        return out
    if v.ndim == 2:
        return v.diagonal(k)  # a view, as NumPy's (read-only there) and CuPy's
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0):
    """A 2-D array with the flattened `v` on its k-th diagonal, zeros elsewhere."""
    return diag(_arrays([v], "diagflat")[0].ravel(), k)


def tri(N, M=None, k=0, dtype=float):
    """An N x M array with ones at and below the k-th diagonal, zeros above."""
    return _tri_mask((N,) if M is None else (N, M), k, True).astype(dtype, copy=False)


def _tri_mask(shape, k, lower):
    # NumPy's tri(*shape[-2:]): a 1-D array's mask is square, and the result broadcasts it to 2-D.
    if not shape:
        raise TypeError("tri() missing 1 required positional argument: 'N'")  # NumPy's, for a 0-d array
    rows, cols = (shape[-1], shape[-1]) if len(shape) == 1 else (shape[-2], shape[-1])
    try:
        rows, cols, k = operator.index(rows), operator.index(cols), operator.index(k)
    except TypeError:
        # Note [tri of non-integers]: NumPy's tri takes any numbers that arange takes, and compares
        # arange(rows) with arange(-k, cols - k) in its smallest integer types, whose steps come from the
        # first two values cast. The two short vectors are made as NumPy makes them, on the host.
        # triu keeps what tri(k - 1) leaves out.
        k = k if lower else k - 1
        r = asarray(numpy.arange(rows, dtype=_min_int(0, rows)))._expand_dims(1)
        c = asarray(numpy.arange(-k, cols - k, dtype=_min_int(-k, cols - k)))._expand_dims(0)
        return _u.greater_equal(r, c) if lower else _u.less(r, c)
    r = arange(rows)._expand_dims(1)
    c = arange(cols)._expand_dims(0)
    return _u.greater_equal(r + k, c) if lower else _u.less_equal(r + k, c)


def _min_int(low, high):
    """The smallest signed integer type holding low..high, as NumPy's tri chooses it."""
    for t in (numpy.int8, numpy.int16, numpy.int32):
        info = numpy.iinfo(t)
        if info.min <= low and high <= info.max:
            return t
    return numpy.int64


def tril(m, k=0):
    """A new array of `m` with the elements above the `k`-th diagonal zeroed (the last two axes)."""
    (m,) = _arrays([m], "tril")
    return _u._where(_tri_mask(m.shape, k, True), m, zeros((), m.dtype))


def triu(m, k=0):
    """A new array of `m` with the elements below the `k`-th diagonal zeroed (the last two axes)."""
    (m,) = _arrays([m], "triu")
    return _u._where(_tri_mask(m.shape, k, False), m, zeros((), m.dtype))


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """Coordinate arrays from 1-D coordinate vectors, with `indexing` 'xy' (Cartesian) or 'ij' (matrix);
    `sparse` gives broadcastable arrays, `copy=False` views."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    xi = _arrays(xi, "meshgrid")
    ndim = len(xi)
    grids = [x.reshape((1,) * i + (-1,) + (1,) * (ndim - i - 1)) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        grids[0] = grids[0].reshape((1, -1) + (1,) * (ndim - 2))
        grids[1] = grids[1].reshape((-1, 1) + (1,) * (ndim - 2))
    if not sparse:
        shape = numpy.broadcast_shapes(*(g.shape for g in grids))
        grids = [g._broadcast_to(shape) for g in grids]
    if copy:
        return tuple(g.copy() for g in grids)  # NumPy 2: a tuple
    return grids if sparse and _SPARSE_VIEWS_AS_LIST else tuple(grids)


# NumPy 2.4's meshgrid returns sparse views (copy=False, sparse=True) as the list it built, its other results as
# tuples; cuarray follows the NumPy it runs with, asked once.
_SPARSE_VIEWS_AS_LIST = type(numpy.meshgrid(numpy.zeros(1), copy=False, sparse=True)) is list
