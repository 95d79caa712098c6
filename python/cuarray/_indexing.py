"""Advanced indexing (integer arrays, boolean masks) with NumPy's rules, and the functions built on it:
nonzero, flatnonzero, argwhere, take, put, compress, extract, take_along_axis, place-free mask assignment;
conversions between flat indices and coordinates (unravel_index, ravel_multi_index).

Basic keys (ints, slices, None, Ellipsis) never come here: ndarray.__getitem__ (python/src/array.cpp)
handles them in C++ and calls _getitem/_setitem only for keys that hold arrays, lists or bools.

Note [Advanced index plan]
A key is split into a basic key, applied first as a view, and advanced items: index arrays, each on one
axis of that view (a boolean array of k dimensions becomes k index arrays through nonzero). Integers
next to arrays count as advanced for NumPy's placement rule but stay basic here (they broadcast as
0-d arrays and change nothing else). The broadcast index shape replaces the indexed axes in place when
all advanced items are adjacent in the key, else it goes first. Host indices are checked on the host
and need no synchronization; device index arrays are checked on the device (one synchronization).

Note [Index errors in NumPy's order]
NumPy checks a key in this order, and so does _parse: its form and the masks' shapes; the integers' bounds
(even after an index array: m[[9], 5] names 5); the broadcast of the index arrays; then each index array's
bounds, in its memory order (the first bad index of the first array that has one), and none of them where
the broadcast index is empty (m[[], [9]] is an empty result; zeros((0, 4))[:, [9]] still raises, as only
other axes are empty). An assignment converts the value after the integers' bounds, and checks the value's
shape after the broadcast, before the arrays' bounds: m[[9], [0]] = [1, 2] is NumPy's ValueError.
"""

import math
import operator

import numpy

from cuarray import _core, _interop, _reduction, _structured, _transfer
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._creation import arange

__all__ = [
    "argwhere",
    "compress",
    "extract",
    "flatnonzero",
    "nonzero",
    "put",
    "put_along_axis",
    "ravel_multi_index",
    "take",
    "take_along_axis",
    "unravel_index",
]

_VALID = (
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays "
    "are valid indices"
)
_NOT_INTEGER = "arrays used as indices must be of integer (or boolean) type"


def _to_device(host):
    return _core._from_numpy(numpy.asarray(host, order="C"))  # not ascontiguousarray: it makes 0-d 1-D


def _classify(k):
    """(kind, value) for one key item: basic ('none', 'ellipsis', 'slice', 'int'), or advanced ('bool0',
    'bool', 'array'), with host values as NumPy arrays."""
    if k is None:
        return "none", k
    if k is Ellipsis:
        return "ellipsis", k
    if isinstance(k, slice):
        return "slice", k
    if isinstance(k, (bool, numpy.bool_)):
        return "bool0", bool(k)
    if not isinstance(k, (ndarray, numpy.ndarray, int, numpy.integer)):
        # A CuPy-like object or another library's device array, or a list of such: read as a device array.
        if isinstance(k, list) and _transfer._holds_device_array(k):
            k = _transfer.asarray(k)
        elif (d := _interop._device_operand(k)) is not None:
            k = d
    if isinstance(k, ndarray):
        if k.dtype == numpy.bool_:
            return ("bool0", bool(k.item())) if k.ndim == 0 else ("bool", k)
        if k.dtype.kind not in "iu":
            raise IndexError(_NOT_INTEGER)
        return ("int", int(k.item())) if k.ndim == 0 else ("array", k)
    if isinstance(k, (numpy.ndarray, list, tuple, range)):  # a range is an index array, as in NumPy
        h = numpy.asarray(k)
        if h.dtype == numpy.bool_:
            return ("bool0", bool(h)) if h.ndim == 0 else ("bool", h)
        if h.size == 0 and h.dtype.kind == "f" and not isinstance(k, numpy.ndarray):
            h = h.astype(numpy.intp)  # [] indexes nothing
        if h.dtype.kind not in "iu":  # NumPy words it differently for arrays and for sequences
            raise IndexError(_NOT_INTEGER if isinstance(k, numpy.ndarray) else _VALID)
        if h.ndim == 0:
            return "int", int(h)
        # NumPy casts index arrays to intp by 'same_kind': a uint64 index past 2**63 wraps (2**64 - 1 is -1).
        return "array", h.astype(numpy.intp, copy=False)
    if isinstance(k, (float, complex, str, bytes)):
        raise IndexError(_VALID)
    try:
        return "int", operator.index(k)
    except TypeError:
        raise IndexError(_VALID) from None


def _bounds_error(value, axis, size):
    """NumPy's IndexError for `value` on an axis of `size`; axis None is a flat iterator's (no axis named)."""
    if axis is None:
        return IndexError(f"index {value} is out of bounds for size {size}")
    return IndexError(f"index {value} is out of bounds for axis {axis} with size {size}")


def _check_host(h, size, axis, order="K"):
    """Host intp index array h must address an axis of `size`; raises NumPy's IndexError for the first index
    that does not, in NumPy's order: memory order ('K') for indexing, C order for take, put and flat."""
    if h.size and (h.max() >= size or h.min() < -size):
        flat = h.ravel(order=order)
        raise _bounds_error(int(flat[(flat >= size) | (flat < -size)][0]), axis, size)


def _shape_str(shape):
    """A shape as NumPy's messages write it: (2,3), (3,)."""
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _parse(shape, key, bounds=True):
    """(basic key, [(view axis, index array, source axis, given)], insert_at, trusted) for indexing an array of
    `shape` with `key` (Note [Advanced index plan]), `given` saying whether the index array is one of the key's
    (not a mask's coordinates, which need no check), its errors raised in NumPy's order (Note [Index errors in
    NumPy's order]). Index arrays stay where they came from: host (NumPy) arrays are checked here, and are all in
    bounds when `trusted`. Without `bounds`, _check_entries does the index arrays' checks (broadcast and host
    bounds) later. Needs a device only for device arrays."""
    items = [_classify(k) for k in (key if isinstance(key, tuple) else (key,))]
    if sum(kind == "ellipsis" for kind, _ in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    ndim = len(shape)
    consumed = sum(v.ndim if kind == "bool" else kind in ("slice", "int", "array") for kind, v in items)
    if consumed > ndim:
        raise IndexError(
            f"too many indices for array: array is {ndim}-dimensional, but {consumed} were indexed"
        )
    advanced = any(kind in ("bool0", "bool", "array") for kind, _ in items)
    basic, entries = [], []
    view_dim = src_dim = 0
    first = None  # the view position of the first advanced item
    gap = split = False
    trusted = True
    ints = []  # (value, source axis) of the integers among advanced items, checked before the arrays
    for kind, v in items:
        if kind in ("bool0", "bool", "array") or (kind == "int" and advanced):
            split = split or gap
            first = view_dim if first is None else first
        elif first is not None:
            gap = True
        if kind == "none":
            basic.append(None)
            view_dim += 1
        elif kind == "ellipsis":
            n = ndim - consumed
            basic.append(Ellipsis)
            view_dim, src_dim = view_dim + n, src_dim + n
        elif kind in ("slice", "int"):
            if kind == "int" and advanced:
                if not -(2**63) <= v < 2**63:  # NumPy's, as C++'s index_value (python/src/array.cpp)
                    if 0 <= v < 2**64:
                        raise OverflowError("Python int too large to convert to C long")
                    raise IndexError(_VALID)
                ints.append((v, src_dim))
            basic.append(v)
            view_dim += kind == "slice"
            src_dim += 1
        elif kind == "bool0":  # a new axis of length 1, indexed by [0] (True) or [] (False)
            basic.append(None)
            entries.append((view_dim, numpy.zeros(1 if v else 0, numpy.int64), src_dim, False))
            view_dim += 1
        elif kind == "bool":
            for j in range(v.ndim):
                # NumPy lets an axis of length 0 select nothing along an axis of any length.
                if v.shape[j] not in (0, shape[src_dim + j]):
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {src_dim + j}; size of "
                        f"axis is {shape[src_dim + j]} but size of corresponding boolean axis is "
                        f"{v.shape[j]}"
                    )
            # The device coordinates as contiguous rows (nonzero's columns would be copied to index with).
            coords = numpy.nonzero(v) if isinstance(v, numpy.ndarray) else tuple(_core._nonzero(v, "rows"))
            for j, c in enumerate(coords):
                basic.append(slice(None))
                entries.append((view_dim + j, c, src_dim + j, False))
            view_dim, src_dim = view_dim + v.ndim, src_dim + v.ndim
        else:  # an integer array
            trusted = trusted and isinstance(v, numpy.ndarray)
            basic.append(slice(None))
            entries.append((view_dim, v, src_dim, True))
            view_dim, src_dim = view_dim + 1, src_dim + 1
    for v, d in ints:
        if not -shape[d] <= v < shape[d]:
            raise _bounds_error(v, d, shape[d])
    if bounds:
        _check_entries(shape, entries)
    return tuple(basic), entries, 0 if split else first, trusted


def _index_shape(entries):
    """The broadcast shape of the index arrays of _parse's `entries`, or NumPy's IndexError."""
    shapes = [e[1].shape for e in entries]
    try:
        return numpy.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError(
            "shape mismatch: indexing arrays could not be broadcast together with shapes "
            + "".join(_shape_str(s) + " " for s in shapes)
        ) from None


def _check_entries(shape, entries):
    """Checks that the index arrays of _parse's `entries` broadcast, and the host integer ones against the axes
    of `shape` they index; none where the broadcast index is empty (Note [Index errors in NumPy's order]).
    Masks' coordinates and 0-d bools' [0] need no check."""
    if math.prod(_index_shape(entries)) == 0:
        return
    for _, i, d, given in entries:
        if given and isinstance(i, numpy.ndarray):
            _check_host(i, shape[d], d)


def _plan(a, key, bounds=True):
    """(view, axes, device indices, insert_at, labels, mode, entries) for the core's gather and scatter; host
    index arrays are checked unless not `bounds` (_check_entries(a.shape, entries) then does it)."""
    basic, entries, insert_at, trusted = _parse(a.shape, key, bounds)
    indices = [
        _to_device(e[1].astype(numpy.int64, copy=False)) if isinstance(e[1], numpy.ndarray) else e[1]
        for e in entries
    ]
    axes = [e[0] for e in entries]
    labels = [e[2] for e in entries]
    return a[basic], axes, indices, insert_at, labels, "inbounds" if trusted else "raise", entries


def _getitem(a, key):
    if _structured._is_field_key(key):
        return _structured.field(a, key)
    view, axes, indices, insert_at, labels, mode, _ = _plan(a, key)
    if not axes:
        # Only 0-d integer arrays: a basic index after all, but an array index gives a new array in NumPy and
        # CuPy (NumPy a scalar where one element is left).
        return view.copy()
    if len(axes) > _MAX_INDEX_ARRAYS:
        merged, flat, insert_at, _ = _merged(view, axes, indices, insert_at, labels, mode)
        return _core._gather(merged, [0], [flat], insert_at, [0], "inbounds")
    return _core._gather(view, axes, indices, insert_at, labels, mode)


_BOOL_VALUE_NDIM = (
    "NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has {} dimensions"
)


def _setitem(a, key, value):
    if _structured._is_field_key(key):
        _structured.set_field(a, key, value)
        return
    items = key if isinstance(key, tuple) else (key,)
    if len(items) == 1 and _is_scalar(value):
        kind, mask = _classify(items[0])
        if kind == "bool" and mask.shape == a.shape[: mask.ndim]:
            _assign_masked(a, mask, value)
            return
    # Note [Index errors in NumPy's order]: the index arrays' checks come after the value's conversion.
    view, axes, indices, insert_at, labels, mode, entries = _plan(a, key, bounds=False)
    if not axes:
        _core._assign(view, value)
        return
    if not isinstance(value, ndarray):
        value = _to_device(numpy.asarray(value, dtype=a.dtype))
    if value.ndim > 1 and len(items) == 1 and _is_mask_of_ndim(items[0], a.ndim):
        raise TypeError(_BOOL_VALUE_NDIM.format(value.ndim))  # NumPy's one full boolean mask takes 0-d or 1-D
    index_shape = _index_shape(entries)
    try:
        _check_entries(a.shape, entries)
    except IndexError:
        _check_value_shape(value.shape, _result_shape(view.shape, axes, index_shape, insert_at))
        raise
    if len(axes) > _MAX_INDEX_ARRAYS:
        merged, flat, insert_at, write_back = _merged(view, axes, indices, insert_at, labels, mode)
        _core._scatter(merged, [0], [flat], insert_at, [0], value, "inbounds")
        write_back()
        return
    _core._scatter(view, axes, indices, insert_at, labels, value, mode)


def _is_mask_of_ndim(k, ndim):
    """Whether the key item k is a boolean mask (a bool too) of `ndim` dimensions."""
    if isinstance(k, (bool, numpy.bool_)):
        return ndim == 0
    if isinstance(k, list):
        k = numpy.asarray(k)
    return isinstance(k, (ndarray, numpy.ndarray)) and k.dtype == numpy.bool_ and k.ndim == ndim


def _result_shape(view_shape, axes, index_shape, insert_at):
    """The shape of view[index] where index arrays of broadcast shape `index_shape` index `axes` of the view."""
    other = [n for d, n in enumerate(view_shape) if d not in axes]
    return tuple(other[:insert_at]) + tuple(index_shape) + tuple(other[insert_at:])


def _check_value_shape(shape, result):
    """NumPy's ValueError unless values of `shape` broadcast to an indexing result of shape `result` (after
    dropping the values' leading length-1 axes beyond its rank, as the core's scatter does)."""
    given = tuple(shape)
    while len(shape) > len(result) and shape[0] == 1:
        shape = shape[1:]
    try:
        fits = numpy.broadcast_shapes(shape, result) == tuple(result)
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(
            f"shape mismatch: value array of shape {_shape_str(given)} could not be broadcast to indexing result "
            f"of shape {_shape_str(result)}"
        )


# Note [Many index arrays]
# The core's gather and scatter take at most 8 index arrays (a kernel argument of fixed size); NumPy takes as
# many as an array has dimensions (a mask of 9+ dimensions, 9+ arrays, 9+ 0-d bools). Past 8, the indexed axes
# of a C-ordered copy of the view, moved to the front, merge into one axis, indexed by the flat position that
# the index arrays name together (checked first, as the core would). A scatter writes into the copy and then
# copies it back. Keys like that are rare, and the copy is the price of one code path.
_MAX_INDEX_ARRAYS = 8


def _merged(view, axes, indices, insert_at, labels, mode):
    """(merged array, flat index, insert_at, write_back) for more than 8 index arrays (Note [Many index
    arrays]): merged[flat] (with the index dimensions at `insert_at`) is view[index], and write_back() copies
    what a scatter wrote into merged back into the view."""
    sizes = [view.shape[d] for d in axes]
    index_shape = numpy.broadcast_shapes(*(i.shape for i in indices))
    others = [d for d in range(view.ndim) if d not in axes]
    copy = view.transpose(list(axes) + others).copy()
    merged = copy.reshape((math.prod(sizes),) + copy.shape[len(axes) :])
    if math.prod(index_shape) == 0:
        flat = _core._from_numpy(numpy.zeros(index_shape, numpy.int64))
    else:
        flat = None
        for k, (i, n, label) in enumerate(zip(indices, sizes, labels)):
            i = i.astype(numpy.int64, copy=False)
            if mode == "raise":  # device arrays; the host ones are checked already
                k_order = i.ravel(order="K")
                bad = _u.logical_or(_u.less(k_order, -n), _u.greater_equal(k_order, n))
                if bool(_reduction.any(bad)):
                    raise _bounds_error(int(k_order[bad][0].item()), label, n)
            term = _u.multiply(_u.remainder(i, n), math.prod(sizes[k + 1 :]))  # a negative index from the end
            flat = term if flat is None else _u.add(flat, term)

    def write_back():
        view[...] = copy.transpose(numpy.argsort(list(axes) + others).tolist())

    return merged, flat, insert_at, write_back


def _is_scalar(value):
    return numpy.ndim(value) == 0 if not isinstance(value, ndarray) else value.ndim == 0


def _assign_masked(a, mask, value):
    """a[mask] = scalar as one elementwise pass, with no compaction: where(mask, value, a) into a."""
    if isinstance(mask, numpy.ndarray):
        mask = _to_device(mask)
    mask = mask.reshape(mask.shape + (1,) * (a.ndim - mask.ndim))
    if isinstance(value, ndarray):
        value = value.astype(a.dtype, copy=False)
    else:
        value = numpy.asarray(value, dtype=a.dtype)[()]
    _u._where(mask, value, a, out=a)


def _device_array(x, name):
    if isinstance(x, ndarray):
        return x
    if isinstance(x, numpy.ndarray):
        raise TypeError(f"cuarray.{name}: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)")
    return _to_device(numpy.asarray(x))


def nonzero(a):
    """The indices of the nonzero elements: one int64 array per axis, the elements in C order."""
    a = _device_array(a, "nonzero")
    if a.ndim == 0:
        raise ValueError(
            "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
            "instead. If the context of this function is of the form `arr[nonzero(cond)]`, just use "
            "`arr[cond]`."
        )
    # NumPy's index arrays are the columns of one (count, ndim) C-ordered array.
    columns = _core._nonzero(a, "columns")
    return tuple(columns[:, i] for i in range(a.ndim))


def flatnonzero(a):
    """Indices of the nonzero elements of the flattened array."""
    return _core._nonzero(_device_array(a, "flatnonzero"), "flat")


def argwhere(a):
    """The indices of the nonzero elements as a (count, ndim) array."""
    a = _device_array(a, "argwhere")
    if a.ndim == 0:
        return _core._nonzero(a.reshape(1), "columns")[:, :0]
    return _core._nonzero(a, "rows").T  # F-ordered, as NumPy's transpose of its nonzero()


def _index_values(indices, rule):
    """Integer indices for take/put: a device array as given, anything else as a host (NumPy) array. Arrays
    must cast to intp by `rule` (take's 'same_kind', put's 'safe'); other objects are converted by force, as
    NumPy does (np.take(a, [1.7]) reads a[1])."""
    if not isinstance(indices, (ndarray, numpy.ndarray)):
        return numpy.asarray(indices, dtype=numpy.intp)
    if not numpy.can_cast(indices.dtype, numpy.intp, rule):
        raise TypeError(
            f"Cannot cast array data from {indices.dtype!r} to dtype('int64') according to the rule '{rule}'"
        )
    if isinstance(indices, numpy.ndarray):  # cast as NumPy casts it: a uint64 past 2**63 wraps
        return indices.astype(numpy.intp, copy=False)
    return indices.astype(numpy.int64) if indices.dtype == numpy.bool_ else indices


def _checked(idx, size, axis, mode, read):
    """(device int array, mode for the core) for take/put indices `idx` into an axis of `size` (axis None: a
    flat iterator's, for its messages). `read` says whether the indices are dereferenced at all (Note [Empty
    takes]); host indices are checked here, in C order as NumPy checks these, and device ones are made C-ordered
    for the core's check to find the same first bad index."""
    if not read or (size == 0 and mode != "raise"):
        mode = "inbounds"  # the core reads none of them (its result is empty) and checks none
    elif mode == "raise" and isinstance(idx, numpy.ndarray):
        _check_host(idx, size, axis, "C")
        mode = "inbounds"
    if isinstance(idx, numpy.ndarray):
        idx = _to_device(idx.astype(numpy.int64, copy=False))
    elif mode == "raise":
        idx = idx.astype(numpy.int64, order="C", copy=False)  # the core's int64 copy otherwise
    return idx, mode


def _check_mode(mode):
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")


# Note [take's out type]
# NumPy before 2.5 requires take's `out` to cast back safely to the input's type (an int64 `out` for int32
# input is refused, a uint8 one accepted); NumPy 2.5 also accepts any `out` the input casts to by the
# 'same_kind' rule. take follows the NumPy it runs beside, so its results and errors are that NumPy's.
_TAKE_OUT_SAME_KIND = numpy.lib.NumpyVersion(numpy.__version__) >= "2.5.0"


# Note [Empty takes]
# NumPy's take runs over the axes before `axis` (n positions), the indices (m), and the axes after it
# (a block copied whole per index). It raises "cannot do a non-empty take from an empty axes." only when the
# result has elements, and otherwise reads an index, and checks it in mode 'raise', only when n and m are
# both nonzero: np.take(np.zeros((0, 3)), [5], axis=1) is an empty (0, 1) array, while
# np.take(np.zeros((3, 0)), [5], axis=0) raises for index 5. Wrap and clip on an empty axis with an empty
# result give the empty result (NumPy's wrap loops forever there; its clip returns it). put reads its indices
# only when it has values to write, and an empty array with indices to write raises first.
def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of `a` at `indices` along `axis` (of the flattened array for None); mode raise/wrap/clip."""
    _check_mode(mode)
    a = _device_array(a, "take")
    if axis is None or a.ndim == 0:  # a 0-d array's axis is checked as a 1-D one's, as NumPy does
        if axis is not None:
            numpy.lib.array_utils.normalize_axis_index(operator.index(axis), 1)
        a, axis = a.reshape(-1), 0
    else:
        axis = numpy.lib.array_utils.normalize_axis_index(operator.index(axis), a.ndim)
    idx = _index_values(indices, "same_kind")
    zero_d = idx.ndim == 0
    if out is not None:  # NumPy checks out before the indices
        shape = a.shape[:axis] + idx.shape + a.shape[axis + 1 :]
        if out.shape != shape:
            raise ValueError("output array does not match result of ndarray.take")
        if not numpy.can_cast(out.dtype, a.dtype, "safe") and not (
            _TAKE_OUT_SAME_KIND and numpy.can_cast(a.dtype, out.dtype, "same_kind")
        ):  # Note [take's out type]
            raise TypeError(
                f"Cannot cast array data from {out.dtype!r} to {a.dtype!r} according to the rule 'safe'"
            )
    before, after = math.prod(a.shape[:axis]), math.prod(a.shape[axis + 1 :])
    if a.shape[axis] == 0 and before * idx.size * after:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    idx, mode = _checked(idx, a.shape[axis], axis, mode, before * idx.size != 0)
    result = _core._gather(a, [axis], [idx], axis, [axis], mode)
    if zero_d and result.ndim == a.ndim:  # a scalar index removes the axis, as NumPy's take does
        result = result.reshape(result.shape[:axis] + result.shape[axis + 1 :])
    if out is None:
        return result
    out[...] = result
    return out


def put(a, ind, v, mode="raise"):
    """a.flat[ind] = v, with v repeated as needed; mode raise/wrap/clip (Note [Empty takes])."""
    _put(a, ind, v, mode, 0)


def _flat_take(flat, indices):
    """flat[indices] for a flat iterator over a 1-D `flat`: integer positions (a host or device array), checked
    in NumPy's order, its messages naming no axis."""
    idx, mode = _checked(_index_values(indices, "same_kind"), flat.size, None, "raise", indices.size != 0)
    return _core._gather(flat, [0], [idx], 0, [-1], mode)


def _put(a, ind, v, mode, axis):
    """put, its messages naming `axis` (None: a flat iterator's, which names none)."""
    _check_mode(mode)
    if not isinstance(a, ndarray):
        raise TypeError(f"put() argument 1 must be cuarray.ndarray, not {type(a).__name__}")
    idx = _index_values(ind, "safe")
    if idx.size and a.size == 0:
        raise IndexError("cannot replace elements of an empty array")
    values = v if isinstance(v, ndarray) else _to_device(numpy.asarray(v, dtype=a.dtype))
    if values.size == 0 or idx.size == 0:
        return
    if not a._c_contiguous:
        flat = a.copy()
        _put(flat, idx, values, mode, axis)
        a[...] = flat
        return
    flat = a.reshape(-1)
    idx, mode = _checked(idx, flat.size, axis, mode, True)
    idx = idx.reshape(-1)
    values = values.reshape(-1)
    if values.size != idx.size:
        values = take(values, arange(idx.size) % values.size)
    _core._scatter(flat, [0], [idx], 0, [-1 if axis is None else axis], values, mode)


def compress(condition, a, axis=None, out=None):
    """The slices of `a` along `axis` where `condition` (1-D) is true."""
    cond = _device_array(condition, "compress")
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    a = _device_array(a, "compress")
    if axis is None:
        a, axis = a.reshape(-1), 0
    return take(a, _core._nonzero(cond.astype(numpy.bool_, copy=False), "flat"), axis=axis, out=out)


def extract(condition, arr):
    """The elements of the flattened `arr` where the flattened `condition` is nonzero."""
    arr = _device_array(arr, "extract").reshape(-1)
    return take(arr, flatnonzero(condition))


def take_along_axis(arr, indices, axis=-1):
    """arr's elements at `indices` along `axis`, matching the other axes (argsort's inverse)."""
    arr, key = _along_axis(arr, indices, axis, "take_along_axis")
    return arr[key]


def put_along_axis(arr, indices, values, axis):
    """arr[... indices along axis ...] = values, matching the other axes."""
    arr, key = _along_axis(arr, indices, axis, "put_along_axis")
    arr[key] = values


def _along_axis(arr, indices, axis, name):
    """(arr, key): the advanced index that pairs `indices` along `axis` with every position of the others."""
    arr, indices = _device_array(arr, name), _device_array(indices, name)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        if name == "put_along_axis" and not arr.flags.c_contiguous:
            # NumPy writes through arr.flat, a read-only copy unless arr is C-contiguous.
            raise ValueError("assignment destination is read-only")
        arr, axis = arr.reshape(-1), 0
    axis = numpy.lib.array_utils.normalize_axis_index(operator.index(axis), arr.ndim)
    if indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if indices.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    key = []
    for d in range(arr.ndim):
        if d == axis:
            key.append(indices)
        else:
            shape = [1] * arr.ndim
            shape[d] = arr.shape[d]
            key.append(arange(arr.shape[d]).reshape(tuple(shape)))
    return arr, tuple(key)


def _dims(shape):
    return (operator.index(shape),) if numpy.ndim(shape) == 0 else tuple(operator.index(d) for d in shape)


def _c_or_f(order):
    """NumPy's reading of unravel_index's and ravel_multi_index's `order`: None is 'C', case is ignored, 'A'
    and 'K' are refused for these two, anything else is not an order at all."""
    if order is None:
        return "C"
    o = order.upper() if isinstance(order, str) else order
    if o in ("C", "F"):
        return o
    if o in ("A", "K"):
        raise ValueError("only 'C' or 'F' order is permitted")
    raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")


def unravel_index(indices, shape, order="C"):
    """The coordinates in an array of `shape` of the flat `indices`: a tuple of int64 arrays of indices' shape.
    Device indices are checked on the device (one synchronization)."""
    shape = _dims(shape)
    order = _c_or_f(order)
    if not isinstance(indices, ndarray):  # host indices: NumPy checks and converts them
        return tuple(
            _core._from_numpy(numpy.asarray(c, dtype=numpy.int64))
            for c in numpy.unravel_index(indices, shape, order)
        )
    if indices.dtype.kind not in "biu":
        raise TypeError("only int indices permitted")
    size = math.prod(shape)
    flat = indices.astype(numpy.int64, copy=False)
    bad = _u.logical_or(_u.less(flat, 0), _u.greater_equal(flat, size))
    if bool(_reduction.any(bad)):
        raise ValueError(f"index {int(flat[bad][0].item())} is out of bounds for array with size {size}")
    coords = []
    for n in reversed(shape) if order == "C" else shape:  # the fastest-varying axis first
        coords.append(_u.remainder(flat, n))
        flat = _u.floor_divide(flat, n)
    return tuple(reversed(coords)) if order == "C" else tuple(coords)


_CLIP_MODES = ("raise", "wrap", "clip")


def _in_range(index, n, mode, message):
    """int64 `index` made to point into n items by NumPy's `mode`: 'raise' checks (one synchronization) and
    raises ValueError(message), 'wrap' takes it modulo n, 'clip' clamps it."""
    if mode == "raise":
        if bool(_reduction.any(_u.logical_or(_u.less(index, 0), _u.greater_equal(index, n)))):
            raise ValueError(message)
        return index
    if mode == "wrap":
        return _u.remainder(index, n)
    return _u.minimum(_u.maximum(index, 0), n - 1)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """The flat indices in an array of shape `dims` of the coordinate arrays `multi_index` (broadcast together),
    out-of-range coordinates raising, wrapping or clipped per `mode` (one, or one per axis)."""
    dims = _dims(dims)
    if not any(isinstance(c, ndarray) for c in multi_index):  # host coordinates: NumPy does it all
        flat = numpy.ravel_multi_index(multi_index, dims, mode, order)
        return _core._from_numpy(numpy.asarray(flat, dtype=numpy.int64))
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    if math.prod(dims) > numpy.iinfo(numpy.intp).max:
        raise ValueError("invalid dims: array size defined by dims is larger than the maximum possible size.")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError(f"parameter clipmode must be a sequence of length {len(dims)}")
    for m in modes:
        _check_mode(m)
    order = _c_or_f(order)
    coords = [_device_array(c, "ravel_multi_index") for c in multi_index]
    if any(c.dtype.kind not in "biu" for c in coords):
        raise TypeError("only int indices permitted")
    strides = [math.prod(dims[k + 1 :]) if order == "C" else math.prod(dims[:k]) for k in range(len(dims))]
    flat = None
    for c, n, m, stride in zip(coords, dims, modes, strides):
        c = _in_range(c.astype(numpy.int64, copy=False), n, m, "invalid entry in coordinates array")
        term = _u.multiply(c, stride)
        flat = term if flat is None else _u.add(flat, term)
    return flat
