"""Shape and layout functions: reshape, ravel, transpose (permute_dims), matrix_transpose, swapaxes, moveaxis,
rollaxis, squeeze, expand_dims, broadcasting (with NumPy's broadcast object), astype, copyto."""

import math

import numpy

from cuarray import _core, _ufuncs
from cuarray._core import ndarray
from cuarray._interop import _target_device
from cuarray._transfer import asarray

__all__ = [
    "astype",
    "broadcast",
    "broadcast_arrays",
    "broadcast_shapes",
    "broadcast_to",
    "copyto",
    "expand_dims",
    "matrix_transpose",
    "moveaxis",
    "ndim",
    "permute_dims",
    "ravel",
    "reshape",
    "rollaxis",
    "shape",
    "size",
    "squeeze",
    "swapaxes",
    "transpose",
]


def _check(a, name):
    if not isinstance(a, ndarray):
        raise TypeError(
            f"cuarray.{name} expects a cuarray.ndarray, got {type(a).__module__}.{type(a).__name__}; "
            "use cuarray.asarray() to move it to the device"
        )
    return a


def reshape(a, /, shape, order="C", *, copy=None):
    """`a` with a new shape: a view where the strides allow, else a copy; copy=True always copies, copy=False
    raises where a copy would be needed."""
    return _check(a, "reshape").reshape(shape, order=order, copy=copy)


def ravel(a, order="C"):
    """The elements of `a` as a 1-D array in `order`: a view where the layout allows, else a copy."""
    return _check(a, "ravel").ravel(order)


def transpose(a, axes=None):
    """A view of `a` with its axes permuted by `axes` (None: reversed); `permute_dims` is the array API's
    name for it."""
    return _check(a, "transpose").transpose(axes)


permute_dims = transpose  # the array API's name, as NumPy's


def matrix_transpose(x, /):
    """The last two axes swapped (a view)."""
    x = _check(x, "matrix_transpose")
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return x.swapaxes(-1, -2)


def swapaxes(a, axis1, axis2):
    """A view of `a` with the axes `axis1` and `axis2` interchanged."""
    return _check(a, "swapaxes").swapaxes(axis1, axis2)


def moveaxis(a, source, destination):
    """A view of `a` with the axes `source` moved to the positions `destination`, the others keeping their
    order."""
    a = _check(a, "moveaxis")
    # NumPy's checks, in its order: each list in range and without repeats, then their lengths.
    order = numpy.lib.array_utils.normalize_axis_tuple(source, a.ndim, "source")
    dest = numpy.lib.array_utils.normalize_axis_tuple(destination, a.ndim, "destination")
    if len(order) != len(dest):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    rest = [n for n in range(a.ndim) if n not in order]
    for d, s in sorted(zip(dest, order)):
        rest.insert(d, s)
    return a.transpose(rest)


def rollaxis(a, axis, start=0):
    """`a` with `axis` moved to before position `start` (moveaxis is the clearer spelling)."""
    a = _check(a, "rollaxis")
    n = a.ndim
    axis = numpy.lib.array_utils.normalize_axis_index(axis, n)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise numpy.exceptions.AxisError(
            f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in"
        )
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    order = [d for d in range(n) if d != axis]
    order.insert(start, axis)
    return a.transpose(order)


def squeeze(a, axis=None):
    """A view of `a` without its length-1 axes (or those in `axis`, which must have length 1)."""
    return _check(a, "squeeze").squeeze(axis)


def expand_dims(a, axis=0):
    """A view of `a` with new axes of length 1 at `axis` (an int or a tuple, positions in the result)."""
    return _check(a, "expand_dims")._expand_dims(axis)


def broadcast_shapes(*shapes):
    """The shape that arrays of the given shapes broadcast to; ValueError where they do not broadcast."""
    return numpy.broadcast_shapes(*shapes)


def broadcast_to(array, shape, subok=False):
    """A view of `array` broadcast to `shape` (the broadcast axes have stride 0: do not write through it)."""
    return _check(array, "broadcast_to")._broadcast_to((shape,) if numpy.ndim(shape) == 0 else shape)


def broadcast_arrays(*args, subok=False):
    """Views of the arguments broadcast against each other, all of one shape (NumPy's rules); a tuple."""
    shape = numpy.broadcast_shapes(*(_check(a, "broadcast_arrays").shape for a in args))
    return tuple(a if a.shape == shape else a._broadcast_to(shape) for a in args)  # NumPy 2: a tuple


class broadcast:
    """NumPy's broadcast object for device arrays: the broadcast shape of the arguments (arrays, scalars,
    sequences, broadcast objects) and, as CuPy's, their broadcast views in ``values``. It does not iterate."""

    def __init__(self, *args):
        arrays = []
        for a in args:
            if isinstance(a, broadcast):  # NumPy takes the nested object's operands one by one
                arrays.extend(a.values)
            elif isinstance(a, numpy.ndarray):
                raise TypeError(
                    "cuarray.broadcast: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)"
                )
            else:
                arrays.append(a if isinstance(a, ndarray) else asarray(a))
        if len(arrays) > 64:
            raise ValueError("Need at least 0 and at most 64 array objects.")
        self.shape = numpy.broadcast_shapes(*(a.shape for a in arrays))
        self.values = tuple(a if a.shape == self.shape else a._broadcast_to(self.shape) for a in arrays)

    @property
    def ndim(self):
        """The number of dimensions of the broadcast shape (`nd` is NumPy's older name)."""
        return len(self.shape)

    nd = ndim

    @property
    def size(self):
        """The number of elements of the broadcast shape."""
        return int(numpy.prod(self.shape, dtype=numpy.int64))

    @property
    def numiter(self):
        """The number of broadcast operands."""
        return len(self.values)

    @property
    def index(self):
        """Always 0: a cuarray broadcast object does not iterate."""
        return 0  # iteration, which would move it, is not supported

    def reset(self):
        """Nothing to reset: the index stays 0."""

    @property
    def iters(self):
        """Not supported (NotImplementedError): use `values`, the broadcast arrays."""
        raise NotImplementedError(
            "cuarray.broadcast does not iterate (no iters); use its `values`, the broadcast arrays"
        )

    def __iter__(self):
        raise NotImplementedError(
            "cuarray.broadcast does not iterate; use its `values`, the broadcast arrays"
        )

    __next__ = __iter__


def astype(x, dtype, /, *, copy=True, device=None):
    """`x` cast to `dtype` (the array API's and NumPy's function form of ndarray.astype); `x` itself when
    copy=False and nothing changes. `device` (a cuarray.cuda.Device or number): the result's device."""
    x = _check(x, "astype")
    if device is not None:
        target = _target_device(device)
        moved = x.to_device(target)
        if moved is not x:
            with target:  # the cast runs where the copy now lives
                return moved.astype(dtype, copy=False)
    return x.astype(dtype, copy=copy)


def copyto(dst, src, casting="same_kind", where=None):
    """Copies `src` into `dst` with broadcasting, refusing casts that `casting` forbids (NumPy's rules); with
    `where` (booleans broadcast to dst), only where it is True."""
    _check(dst, "copyto")
    if isinstance(src, ndarray):
        src_dtype = src.dtype
    elif type(src) in (bool, int, float, complex):
        src_dtype = type(src)  # a weak Python scalar (NEP 50); NumPy's scalars have their dtype
    else:
        src = numpy.asarray(src)
        src_dtype = src.dtype
    python_number = (
        src_dtype is int or src_dtype is float or src_dtype is complex
    )  # `is`: dtype('int64') == int
    if casting == "equiv" and python_number and dst.dtype != numpy.dtype(src_dtype):
        # NumPy's 'equiv' takes a Python number only into its default dtype (int64, float64, complex128)
        raise TypeError(
            f"cannot cast Python {src_dtype.__name__} to {dst.dtype} under the casting rule 'equiv'"
        )
    if not _can_cast(src, src_dtype, dst.dtype, casting):
        what = "scalar" if isinstance(src_dtype, type) else "array data"
        shown = numpy.dtype(src_dtype) if isinstance(src_dtype, type) else src_dtype
        raise TypeError(
            f"Cannot cast {what} from {shown!r} to {dst.dtype!r} according to the rule '{casting}'"
        )
    if where is None or where is True:
        _core._assign(dst, src)
    else:
        _copy_where(dst, src, where)


def _copy_where(dst, src, where):
    # NumPy's reading of `where`: an array must be boolean (the only type that casts safely to bool), anything
    # else (scalars, lists) is converted to bool as by bool().
    if isinstance(where, (ndarray, numpy.ndarray)):
        if where.dtype != numpy.bool_:
            raise TypeError(
                f"Cannot cast array data from {where.dtype!r} to dtype('bool') according to the rule 'safe'"
            )
        mask = where if isinstance(where, ndarray) else asarray(where)
    else:
        mask = asarray(numpy.asarray(where, dtype=numpy.bool_))
    shape = numpy.shape(src)
    if len(shape) > dst.ndim and shape[0] == 1:  # NumPy drops the source's extra leading length-1 axes
        while len(shape) > dst.ndim and shape[0] == 1:
            shape = shape[1:]
        src = src.reshape(shape) if isinstance(src, ndarray) else numpy.reshape(src, shape)
    for what, given in (("input array", shape), ("where mask", mask.shape)):
        try:
            fits = numpy.broadcast_shapes(dst.shape, given) == dst.shape
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(f"could not broadcast {what} from shape {given} into shape {dst.shape}")
    if isinstance(src, ndarray):
        src = src.astype(dst.dtype, copy=False)
    else:
        src = asarray(numpy.asarray(src, dtype=dst.dtype))
    _ufuncs._where(mask, src, dst, out=dst)


def _can_cast(value, from_dtype, to_dtype, casting):
    if from_dtype is bool:  # a Python bool is no weak number: it casts as bool does
        return numpy.can_cast(numpy.bool_, to_dtype, casting)
    if isinstance(
        from_dtype, type
    ):  # Python scalar: its kind decides, the value must fit (checked on assign)
        if casting == "unsafe":
            return True
        kind_order = {int: "iu", float: "f", complex: "c"}
        allowed = {"iu": "iufc", "f": "fc", "c": "c"}[kind_order[from_dtype]]
        return to_dtype.kind in allowed or (casting == "unsafe")
    return numpy.can_cast(from_dtype, to_dtype, casting)


def shape(a):
    """The shape of `a` (any array-like), as a tuple."""
    return a.shape if isinstance(a, ndarray) else numpy.shape(a)


def ndim(a):
    """The number of dimensions of `a` (any array-like)."""
    return a.ndim if isinstance(a, ndarray) else numpy.ndim(a)


def size(a, axis=None):
    """The number of elements of `a` (any array-like), or along `axis`."""
    if not isinstance(a, ndarray):
        return numpy.size(a, axis)
    if axis is None:
        return a.size
    # NumPy's: AxisError out of range; a tuple of axes (NumPy 2.4) gives the product of their lengths
    axes = numpy.lib.array_utils.normalize_axis_tuple(axis, a.ndim)
    return math.prod(a.shape[ax] for ax in axes)
