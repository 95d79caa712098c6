"""Array creation: empty, zeros, ones, full, their *_like forms, arange, linspace, logspace, eye, identity,
indices, fromfunction.

Each takes the array API's ``device=`` (a cuarray.cuda.Device or device number): the array is made there
instead of on the current device. NumPy's ``like=`` is taken where NumPy takes it and changes nothing: the
result is a cuarray array (NumPy's functions called with ``like=`` a cuarray array come here).
"""

import math
import operator

import numpy

from cuarray import _core
from cuarray import _ufuncs as u
from cuarray._core import ndarray
from cuarray._interop import _device_operand, _target_device
from cuarray._manipulation import expand_dims, moveaxis
from cuarray._transfer import asarray

__all__ = [
    "arange",
    "empty",
    "empty_like",
    "eye",
    "fromfunction",
    "full",
    "full_like",
    "geomspace",
    "identity",
    "indices",
    "linspace",
    "logspace",
    "ones",
    "ones_like",
    "zeros",
    "zeros_like",
]


def _made_on(device, make, *args):
    """make(*args) with `device` current, so that the new array lives there."""
    with _target_device(device):
        return make(*args)


_MAX_SIZE = 2**63 - 1  # elements in an array: int64's range, as in NumPy

# Python's and NumPy's number types: the fill values full passes straight to the core.
_NUMBERS = frozenset((int, float, complex, bool, *(numpy.dtype(c).type for c in "?bBhHiIlLqQefdgFDG")))


def empty(shape, dtype=float, order="C", *, device=None, like=None):
    """A new device array of `shape` and `dtype`, its values not set."""
    if device is not None:
        return _made_on(device, empty, shape, dtype, order)
    return _core.empty(shape, dtype, order)


def zeros(shape, dtype=float, order="C", *, device=None, like=None):
    """A new device array of `shape` and `dtype` filled with zeros."""
    if device is not None:
        return _made_on(device, zeros, shape, dtype, order)
    return _core.zeros(shape, dtype, order)


def ones(shape, dtype=float, order="C", *, device=None, like=None):
    """A new device array of `shape` and `dtype` filled with ones."""
    if device is not None:
        return _made_on(device, ones, shape, dtype, order)
    return _core._full(shape, 1, dtype, order)


# Note [Fill values as NumPy casts them]
# NumPy's full and full_like are empty(...) then copyto(a, fill_value, casting='unsafe'): the value is cast as
# astype casts, so NaN and infinities become int64's minimum (with NumPy's RuntimeWarning), -1.5 becomes 255 in
# uint8, 1j becomes 0.0 in float (with a ComplexWarning) and '5' becomes 5; only a Python int out of the type's
# range raises (OverflowError), and a sequence is broadcast. The core's fill (the common case, kept fast) converts
# a scalar as numpy.array(value, dtype) (full) or a[...] = value (full_like), which give copyto's value wherever
# they give one, but raise for these. So where the core raises, the value is converted on the host by NumPy's own
# copyto, with its warnings and errors, and the array filled with the result. full converts host sequences and
# arrays so too; full_like's are cast on the device, as a[...] = value casts them (NumPy's values, without its
# RuntimeWarnings: docs/behaviour.md). The one value the core takes and copyto refuses is a Python int beyond
# int64 for a bool array (True here, OverflowError in NumPy).
def _fill_on_host(out, fill_value):
    """`out` filled with `fill_value` converted to out's dtype as NumPy's copyto(casting='unsafe') converts it."""
    # A sequence keeps its own shape here, and is broadcast on the device.
    host = numpy.empty(numpy.shape(fill_value), out.dtype)
    numpy.copyto(host, fill_value, casting="unsafe")
    _core._assign(out, host)
    return out


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    """A new device array of `shape` filled with `fill_value` (its dtype, NumPy's, when `dtype` is None), cast
    to `dtype` as NumPy casts it (Note [Fill values as NumPy casts them])."""
    if device is not None:
        return _made_on(device, full, shape, fill_value, dtype, order)
    if type(fill_value) not in _NUMBERS:  # the common case skips the isinstance checks
        if isinstance(fill_value, ndarray):
            out = empty(shape, fill_value.dtype if dtype is None else dtype, order)
            _core._copyto(out, fill_value)
            return out
        if isinstance(fill_value, (list, tuple, numpy.ndarray)):
            out = empty(shape, numpy.asarray(fill_value).dtype if dtype is None else dtype, order)
            return _fill_on_host(out, fill_value)
    if dtype is None:
        dtype = numpy.array(fill_value).dtype
    try:
        return _core._full(shape, fill_value, dtype, order)
    except (TypeError, ValueError, OverflowError):
        if _device_operand(fill_value) is not None:
            raise  # another library's device array: not one to read on the host
        # NumPy's order: the shape, dtype and order raise first (from empty), then the value (from copyto).
        return _fill_on_host(empty(shape, dtype, order), fill_value)


def empty_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    """A new array with a's shape and dtype; order 'K' keeps a's memory layout, as NumPy does. A host
    prototype (as CuPy takes) gives its shape, dtype and C or F layout."""
    if device is not None:
        return _made_on(device, empty_like, a, dtype, order, subok, shape)
    if not isinstance(a, ndarray):
        a = numpy.asarray(a)
    if dtype is None:
        dtype = a.dtype
    order = order.upper() if isinstance(order, str) else order  # NumPy ignores the case
    if shape is None and order in ("K", None) and isinstance(a, ndarray):
        return _core._empty_like(a, dtype)
    if shape is None:
        shape = a.shape
    elif numpy.ndim(shape) == 0:
        integer = hasattr(shape, "__index__") and not isinstance(shape, (bool, numpy.bool_))
        if not integer and not isinstance(shape, str):  # a str gets int()'s error below, as in NumPy
            raise TypeError(f"expected a sequence of integers or a single integer, got '{shape!r}'")
        shape = (shape,)
    else:
        shape = tuple(shape)
    if order in ("K", None) and len(shape) == a.ndim and a.ndim > 1 and not a.flags.c_contiguous:
        # NumPy's 'K' for a new shape of a's rank: a's axes in its memory order (stable by |stride|).
        perm = sorted(range(a.ndim), key=lambda i: -abs(a.strides[i]))
        return empty(tuple(shape[i] for i in perm), dtype, "C").transpose(numpy.argsort(perm).tolist())
    if order == "A" or (order in ("K", None) and len(shape) == a.ndim):
        order = "F" if a.ndim > 1 and a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    elif order in ("K", None):
        order = "C"  # a new rank: NumPy's C order
    return empty(shape, dtype, order)


def _order_a(a):
    """NumPy's order 'A' for a new array made from `a`: F for an F-contiguous `a` that is not also C-contiguous,
    else C (whatever a's own memory order)."""
    return "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"


def _k_order_is_c(a):
    """Whether NumPy's order 'K' for `a` (its axes by decreasing |stride|, ties in order) is C order."""
    last = None
    for n, stride in zip(a.shape, a.strides):
        if n != 1:
            if last is not None and abs(stride) > last:
                return False
            last = abs(stride)
    return True


def _laid_out_like(result, a):
    """`result`, of `a`'s shape, laid out as `a` (order 'K'), as NumPy lays out what it computes into a copy of
    its input (sort, partition, median's partition): `result` itself where it already is, else a copy."""
    if result.size == 0 or (result.flags.c_contiguous and _k_order_is_c(a)):
        return result
    return _in_layout_of(result, _core._empty_like(a, result.dtype))


def _in_layout_of(result, out):
    """`result` where it has the strides of `out` (a new array of its shape and dtype), else `out` holding it."""
    if out.strides == result.strides:
        return result
    _core._copyto(out, result)
    return out


def zeros_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    """A new device array of zeros with the shape and dtype of `a` (or `shape`, `dtype`)."""
    return full_like(a, 0, dtype, order, subok, shape, device=device)


def ones_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    """A new device array of ones with the shape and dtype of `a` (or `shape`, `dtype`)."""
    return full_like(a, 1, dtype, order, subok, shape, device=device)


def full_like(a, fill_value, dtype=None, order="K", subok=None, shape=None, *, device=None):
    """A new device array filled with `fill_value`, with the shape and dtype of `a` (or `shape`, `dtype`); the
    value is cast as NumPy casts it (Note [Fill values as NumPy casts them])."""
    if device is not None:
        return _made_on(device, full_like, a, fill_value, dtype, order, subok, shape)
    out = empty_like(a, dtype, order, subok, shape)
    try:
        _core._assign(out, fill_value)
    except (TypeError, ValueError, OverflowError):
        if isinstance(fill_value, ndarray) or _device_operand(fill_value) is not None:
            raise  # a device array: cast on the device, its errors its own
        _fill_on_host(out, fill_value)
    return out


_NO = numpy._NoValue


def arange(start_or_stop=_NO, /, stop=_NO, step=None, dtype=None, *, start=_NO, device=None, like=None):
    """NumPy's arange: arange(stop), arange(start, stop[, step]) or the same by keyword (arange(stop=5) is
    arange(5)), with NumPy's length rule and its dtype rule (the arguments' types, at least the default int)."""
    # NumPy's reading of the arguments: a positional first argument is start, or stop when it is alone; by
    # keyword, stop alone is stop; start alone, or nothing, is NumPy's TypeError.
    if start_or_stop is not _NO:
        if start is not _NO:
            raise TypeError("argument for arange() given by name ('start') and position (position 0)")
        start = start_or_stop
    elif stop is _NO:
        raise TypeError("arange() requires stop to be specified.")
    if stop is _NO:
        stop = None
    elif start is _NO:
        start, stop = stop, None
    if device is not None:
        return _made_on(device, arange, start, stop, step, dtype)
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    args = [start, stop, step]
    if isinstance(start, ndarray) and start.ndim == 0 and start.dtype.kind == "c" and dtype is not None:
        kind = numpy.dtype(dtype).kind
        if kind == "f":  # NumPy converts such a start with float() or int(), which refuse a complex array
            raise TypeError("float() argument must be a string or a real number, not 'complex'")
        if kind in "iu":
            raise TypeError(
                "int() argument must be a string, a bytes-like object or a real number, not 'complex'"
            )
    if any(isinstance(v, ndarray) for v in args):
        # A 0-d array (a reduction's result) as the NumPy scalar of its type, as NumPy's arange reads it: the
        # length and the values are computed in that type (a float32 stop of 0.3 gives 3 steps of 0.1, not 4).
        args = [(v.get()[()] if v.ndim == 0 else v.item()) if isinstance(v, ndarray) else v for v in args]
        start, stop, step = args
    if dtype is None:
        dtype = numpy.result_type(numpy.intp, *(numpy.asarray(v).dtype for v in args))
    dtype = numpy.dtype(dtype)
    # As NumPy's: Python's division, so a Python zero step is Python's ZeroDivisionError and a NumPy zero gives
    # inf or nan (refused below); NumPy's own C arithmetic warns of no overflow or division by zero.
    with numpy.errstate(divide="ignore", invalid="ignore", over="ignore"):
        span = (stop - start) / step
    if dtype.kind != "c" and type(span) is complex:
        # NumPy reads a real type's length with PyFloat_AsDouble, which refuses a Python complex (a NumPy complex
        # scalar converts, with its ComplexWarning, and is read below as its real part).
        raise TypeError("must be real number, not complex")
    if isinstance(span, complex) or numpy.iscomplexobj(span):
        # NumPy's complex length: the shorter of the real and the imaginary parts' ranges
        parts = [span.real, span.imag] if dtype.kind == "c" else [span.real]
    else:
        parts = [span]
    if any(math.isnan(p) for p in parts):
        raise ValueError("arange: cannot compute length")
    # NumPy's length must fit its intp either way: an infinite or hugely negative one is too large too.
    if any(math.isinf(p) for p in parts) or min(math.ceil(p) for p in parts) < -(2**63):
        raise ValueError("Maximum allowed size exceeded")
    n = max(0, min(math.ceil(p) for p in parts))
    if n > _MAX_SIZE:
        raise ValueError("Maximum allowed size exceeded")
    if dtype.kind == "b" and n > 2:
        raise TypeError("arange() is only supported for booleans when the result has at most length 2.")
    if n == 0:  # NumPy adds start and step only for a non-empty result (a uint8 start and step -1 do not add)
        return empty((0,), dtype)
    if dtype.kind == "c":  # NumPy fills the real and imaginary parts apart, each as a real arange of its type
        first, second = complex(start), complex(start + step)
        part = numpy.finfo(dtype).dtype
        out = _core._arange(n, first.real, second.real, part).astype(dtype)
        if first.imag or second.imag:
            out.imag = _core._arange(n, first.imag, second.imag, part)
        return out
    return _core._arange(n, start, start + step, dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """`num` evenly spaced values from `start` to `stop` (included unless `endpoint` is False), computed on
    the device; with `retstep`, also the spacing."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if num > _MAX_SIZE:
        raise ValueError("Maximum allowed size exceeded")
    computed = _bounds_type(start, stop)
    if numpy.ndim(start) or numpy.ndim(stop):
        return _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis, device, computed)
    if computed not in (numpy.float64, numpy.complex128):
        # NumPy steps in the bounds' own type, rounding at each step: the same steps on the device.
        out = _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis, device, computed)
        return (out[0], out[1].get()[()] if isinstance(out[1], ndarray) else out[1]) if retstep else out
    if axis != 0:  # NumPy's moveaxis raises AxisError for any axis but 0 and -1: checked before the launch
        numpy.lib.array_utils.normalize_axis_tuple(axis, 1, "destination")
    if isinstance(start, ndarray):
        start = start.item()
    if isinstance(stop, ndarray):
        stop = stop.item()
    if dtype is None:
        dtype = computed
    cast_to = None
    if computed == numpy.complex128 and numpy.dtype(dtype).kind in "biuf":
        # The kernel would keep the real parts alone: NumPy's result is the complex one cast (its floor refuses
        # complex values for integer types; bool reads both parts; real types warn and drop the imaginary part).
        if numpy.dtype(dtype).kind in "iu":
            raise TypeError(
                "ufunc 'floor' not supported for the input types, and the inputs could not be safely coerced to "
                "any supported types according to the casting rule ''safe''"
            )
        cast_to, dtype = numpy.dtype(dtype), computed
    # Complex bounds take NumPy's complex division and products (ops::linspace), real ones its real arithmetic.
    args = complex(start), complex(stop), num, bool(endpoint), dtype, computed == numpy.complex128
    out = _core._linspace(*args) if device is None else _made_on(device, _core._linspace, *args)
    if cast_to is not None:  # on the device the array was made on
        cast = (lambda o: u.not_equal(o, 0)) if cast_to.kind == "b" else (lambda o: o.astype(cast_to))
        out = cast(out) if device is None else _made_on(device, cast, out)
    if axis != 0:
        out = moveaxis(out, 0, axis)
    if retstep:
        div = (num - 1) if endpoint else num
        # NumPy's step: delta / div in the bounds' type (NumPy's complex division), or its nan (a Python float).
        return out, (numpy.subtract(stop, start, dtype=computed) / div if div > 0 else numpy.nan)
    return out


def _bounds_type(start, stop):
    """NumPy's linspace type: the bounds' result type, at least inexact, a Python number weakly typed (a
    float32 array and 2 give float32)."""
    return numpy.result_type(*(_type_of(x) for x in (start, stop)), 0.0)


def _type_of(bound):
    if _is_weak(bound):
        return bound
    if isinstance(bound, (list, tuple)):
        return numpy.asarray(bound).dtype
    if isinstance(bound, (ndarray, numpy.ndarray, numpy.generic)):
        return bound.dtype
    return asarray(bound).dtype  # another library's array (a torch tensor's dtype is no NumPy type), as read


def _is_weak(x):
    return type(x) in (bool, int, float, complex)


def _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis, device, computed):
    """linspace of array bounds, computed on the device in NumPy's steps (so that the values round the same):
    the samples run along a new axis `axis` of the broadcast shape of start and stop, in type `computed`."""
    start, stop = (x if _is_weak(x) else asarray(x, device=device) for x in (start, stop))
    dtype = computed if dtype is None else numpy.dtype(dtype)
    delta = u.subtract(stop, start, dtype=computed)
    y = arange(0, num, dtype=computed, device=device).reshape((-1,) + (1,) * delta.ndim)
    div = (num - 1) if endpoint else num
    if div > 0:
        step = u.true_divide(delta, div)
        y = u.multiply(u.true_divide(y, div), delta) if bool((step == 0).any()) else u.multiply(y, step)
    else:
        step = numpy.nan
        y = u.multiply(y, delta)
    u.add(y, start, out=y)  # NumPy's `y += start`: in the computed type
    if endpoint and num > 1:
        y[-1, ...] = stop
    if axis != 0:
        y = moveaxis(y, 0, axis)
    if dtype.kind in "iu":
        u.floor(y, out=y)
    y = y.astype(dtype, copy=False)
    return (y, step) if retstep else y


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """base ** linspace(start, stop, num, endpoint): numbers spaced evenly on a log scale; start, stop and base
    may be arrays, broadcast together, with the samples along `axis`."""
    # NumPy's steps: an array base is broadcast with the bounds; a scalar one is used as it is, so a Python
    # number stays weakly typed (float16 bounds give float16 powers, as NumPy's).
    if not isinstance(base, (float, int)) and numpy.ndim(base):
        ndmax = len(numpy.broadcast_shapes(*(numpy.shape(x) for x in (start, stop, base))))
        start, stop, base = (
            asarray(x).reshape((1,) * (ndmax - numpy.ndim(x)) + numpy.shape(x)) for x in (start, stop, base)
        )
        base = expand_dims(base, axis)
    elif isinstance(base, numpy.ndarray):
        base = asarray(base)  # a 0-d host array: strongly typed, as NumPy's
    y = linspace(start, stop, num, endpoint, axis=axis)
    y = u.power(base, y)
    return y if dtype is None else y.astype(dtype, copy=False)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`num` numbers spaced evenly on a log scale from `start` to `stop` (arrays broadcast, the samples along
    `axis`), computed in NumPy's steps: the bounds are rotated onto the positive reals by start's sign, spaced
    by logspace of their base-10 logarithms, set exactly at the ends and rotated back."""
    start, stop = asarray(start), asarray(stop)  # Python numbers as NumPy's asanyarray types them
    if bool(u.equal(start, 0).any()) or bool(u.equal(stop, 0).any()):
        raise ValueError("Geometric sequence cannot include zero")
    computed = numpy.result_type(start.dtype, stop.dtype, float(num), numpy.zeros((), dtype))
    dtype = computed if dtype is None else numpy.dtype(dtype)
    sign = u.sign(start.astype(computed))
    start, stop = u.divide(start.astype(computed), sign), u.divide(stop.astype(computed), sign)
    result = logspace(u.log10(start), u.log10(stop), num, endpoint, 10.0, computed)
    if num > 0:  # exactly the bounds at the ends, which 10 ** log10(x) need not give
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result = u.multiply(result, sign)
    if axis != 0:
        result = moveaxis(result, 0, axis)
    return result.astype(dtype, copy=False)


def _dimension(n):
    """A matrix size as NumPy reads it: an integer, but not a bool, within int64."""
    if isinstance(n, (bool, numpy.bool_)):
        raise TypeError("an integer is required")
    n = operator.index(n)
    if not -(2**63) <= n < 2**63:
        raise ValueError("Maximum allowed dimension exceeded")
    return n


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    """A new 2-D device array of shape (N, M) with ones on the `k`-th diagonal and zeros elsewhere."""
    N, M = _dimension(N), _dimension(N if M is None else M)
    # Every k beyond the matrix gives the same zeros: any int, clamped to what the core takes.
    k = min(max(operator.index(k), -N - 1), M + 1) if N >= 0 and M >= 0 else operator.index(k)
    args = N, M, k, dtype, order
    return _core._eye(*args) if device is None else _made_on(device, _core._eye, *args)


def identity(n, dtype=float, *, device=None, like=None):
    """The `n` x `n` identity matrix as a new device array."""
    return eye(n, dtype=dtype, device=device)


def indices(dimensions, dtype=int, sparse=False):
    """An array of the index grids of shape `dimensions`: its k-th element holds each position's k-th index
    (or, with `sparse`, a tuple of broadcastable arrays)."""
    dimensions = tuple(dimensions)
    n = len(dimensions)
    grids = [
        arange(d, dtype=dtype).reshape((1,) * i + (d,) + (1,) * (n - i - 1)) for i, d in enumerate(dimensions)
    ]
    if sparse:
        return tuple(grids)
    out = empty((n,) + dimensions, dtype)
    for i, g in enumerate(grids):
        out[i] = g
    return out


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """``function(*index_arrays, **kwargs)``, where the k-th device array of `shape` holds each element's k-th
    index (as `dtype`); whatever `function` returns is the result."""
    return function(*indices(shape, dtype=dtype), **kwargs)
