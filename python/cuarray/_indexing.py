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
        return ("int", int(h)) if h.ndim == 0 else ("array", h)
    if isinstance(k, (float, complex, str, bytes)):
        raise IndexError(_VALID)
    try:
        return "int", operator.index(k)
    except TypeError:
        raise IndexError(_VALID) from None


def _bounds_error(value, axis, size):
    return IndexError(f"index {value} is out of bounds for axis {axis} with size {size}")


def _check_host(h, size, axis):
    """Host index array h must address an axis of `size`; raises NumPy's IndexError for the first that
    does not."""
    if h.size and (h.max() >= size or h.min() < -size):
        bad = h[(h >= size) | (h < -size)].flat[0]
        raise _bounds_error(int(bad), axis, size)


def _parse(shape, key):
    """(basic key, [(view axis, index array, source axis)], insert_at, trusted) for indexing an array of
    `shape` with `key` (Note [Advanced index plan]). Index arrays stay where they came from: host (NumPy)
    arrays are checked here, and are all in bounds when `trusted`. Needs a device only for device arrays."""
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
            basic.append(v)
            view_dim += kind == "slice"
            src_dim += 1
        elif kind == "bool0":  # a new axis of length 1, indexed by [0] (True) or [] (False)
            basic.append(None)
            entries.append((view_dim, numpy.zeros(1 if v else 0, numpy.int64), src_dim))
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
                entries.append((view_dim + j, c, src_dim + j))
            view_dim, src_dim = view_dim + v.ndim, src_dim + v.ndim
        else:  # an integer array
            if isinstance(v, numpy.ndarray):
                _check_host(v, shape[src_dim], src_dim)
            else:
                trusted = False
            basic.append(slice(None))
            entries.append((view_dim, v, src_dim))
            view_dim, src_dim = view_dim + 1, src_dim + 1
    return tuple(basic), entries, 0 if split else first, trusted


def _plan(a, key):
    """(view, axes, device indices, insert_at, labels, mode) for the core's gather and scatter."""
    basic, entries, insert_at, trusted = _parse(a.shape, key)
    indices = [
        _to_device(i.astype(numpy.int64, copy=False)) if isinstance(i, numpy.ndarray) else i
        for _, i, _ in entries
    ]
    axes = [e[0] for e in entries]
    labels = [e[2] for e in entries]
    return a[basic], axes, indices, insert_at, labels, "inbounds" if trusted else "raise"


def _getitem(a, key):
    if _structured._is_field_key(key):
        return _structured.field(a, key)
    view, axes, indices, insert_at, labels, mode = _plan(a, key)
    if not axes:
        # Only 0-d integer arrays: a basic index after all, but an array index gives a new array in NumPy and
        # CuPy (NumPy a scalar where one element is left).
        return view.copy()
    return _core._gather(view, axes, indices, insert_at, labels, mode)


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
    try:
        view, axes, indices, insert_at, labels, mode = _plan(a, key)
    except IndexError as e:
        # NumPy converts the value before it checks the bounds of index arrays (after parsing the index, and
        # after the bounds of integer indices): a[[9]] = 1j on integers raises the conversion's TypeError.
        if (
            not isinstance(value, ndarray)
            and "out of bounds" in str(e)
            and _index_arrays_out_of_bounds(a, items)
        ):
            numpy.asarray(value, dtype=a.dtype)
        raise
    if not axes:
        _core._assign(view, value)
        return
    if not isinstance(value, ndarray):
        value = _to_device(numpy.asarray(value, dtype=a.dtype))
    _core._scatter(view, axes, indices, insert_at, labels, value, mode)


def _index_arrays_out_of_bounds(a, items):
    """Whether the index is good but for the bounds of its integer arrays (each read as a whole axis)."""

    def integer_array(i):
        if isinstance(i, (ndarray, numpy.ndarray)):
            return i.dtype.kind != "b"
        return isinstance(i, list) and numpy.asarray(i).dtype.kind not in "bO"

    if not any(integer_array(i) for i in items):
        return False
    try:
        _plan(a, tuple(slice(None) if integer_array(i) else i for i in items))
    except IndexError:
        return False
    return True


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
    return indices.astype(numpy.int64) if indices.dtype == numpy.bool_ else indices


def _checked(idx, size, axis, mode, read):
    """(device int array, mode for the core) for take/put indices `idx` into an axis of `size`. `read` says
    whether the indices are dereferenced at all (Note [Empty takes]); host indices are checked here."""
    if not read or (size == 0 and mode != "raise"):
        mode = "inbounds"  # the core reads none of them (its result is empty) and checks none
    elif mode == "raise" and isinstance(idx, numpy.ndarray):
        _check_host(idx, size, axis)
        mode = "inbounds"
    if isinstance(idx, numpy.ndarray):
        idx = _to_device(idx.astype(numpy.int64, copy=False))
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
        put(flat, idx, values, mode)
        a[...] = flat
        return
    flat = a.reshape(-1)
    idx, mode = _checked(idx, flat.size, 0, mode, True)
    idx = idx.reshape(-1)
    values = values.reshape(-1)
    if values.size != idx.size:
        values = take(values, arange(idx.size) % values.size)
    _core._scatter(flat, [0], [idx], 0, [0], values, mode)


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
