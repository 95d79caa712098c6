"""NumPy's elementwise functions that are not ufuncs, built on the ufunc table with NumPy's own algorithms:
fix, around/round, clip, where, select, real, imag, angle, nan_to_num, interp, sinc, i0 (a small user kernel
over CUDA's Bessel function), diff, unwrap, isposinf and isneginf (conj/conjugate are ufuncs, in _ufuncs).

The table rows named with a leading underscore (_where, _clip, _real, _imag, _complex) exist for these;
_ufuncs._resolve picks their loops.
"""

import operator

import numpy

from cuarray import _core
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._creation import _order_a, empty, full, zeros
from cuarray._indexing import nonzero
from cuarray._joining import concatenate
from cuarray._manipulation import copyto
from cuarray._scan import cumsum
from cuarray._sorting import _take, argsort, searchsorted
from cuarray._transfer import array, asarray
from cuarray._transfer import device_array as _device

__all__ = [
    "angle",
    "around",
    "clip",
    "diff",
    "fix",
    "i0",
    "imag",
    "interp",
    "isneginf",
    "isposinf",
    "nan_to_num",
    "real",
    "round",
    "select",
    "sinc",
    "unwrap",
    "where",
]


def _as_array(a):
    return a if isinstance(a, ndarray) else asarray(a)


def fix(x, out=None):
    """Round toward zero, keeping the dtype (NumPy 2: trunc)."""
    return _u.trunc(_as_array(x), out=out)


def _power_of_ten(n):
    # NumPy's power_of_ten: exact up to 1e22, then repeated (rounded) products, not 10.0 ** n.
    if n < 9:
        return float(10**n)
    p = 1e9
    for _ in range(n - 9):
        p *= 10.0
    return p


def _round_real(a, decimals, out):
    """NumPy's PyArray_Round for a non-complex array."""
    integer = a.dtype.kind in "iu"
    if decimals >= 0:
        if integer:
            if out is None:
                return a.copy(order="K")
            copyto(out, a)
            return out
        if decimals == 0:
            return _u.rint(a, out=out)
        scale, unscale = _u.multiply, _u.divide
    else:
        scale, unscale = _u.divide, _u.multiply
        decimals = -decimals
    # Integers round in float64 and are cast back (wrapping as C casts do: int8 127 to -1 decimals is -126).
    # NumPy's layouts: integers scale into a new array laid out as `a` (order='K') and are cast back with
    # order='A'; floats go into a new array of order 'A' (F for an F-contiguous `a`, else C).
    if out is not None:
        ret = out
    elif integer:
        ret = _core._empty_like(a, numpy.float64)
    else:
        ret = empty(a.shape, a.dtype, _order_a(a))
    f = _power_of_ten(decimals)
    scale(a, f, out=ret)
    _u.rint(ret, out=ret)
    unscale(ret, f, out=ret)
    return ret.astype(a.dtype, order="A") if integer and out is None else ret


def around(a, decimals=0, out=None):
    """Round to `decimals` decimal places as NumPy does: x * 10**decimals, rint (half to even), divided back.
    Complex values round their real and imaginary parts apart."""
    a = _as_array(a)
    decimals = operator.index(decimals)
    if out is not None and out.size != a.size:
        raise ValueError("invalid output shape")
    if a.dtype.kind != "c":
        return _round_real(a, decimals, out)
    parts = [_round_real(part(a), decimals, None) for part in (real, imag)]
    # Into a new array laid out as `a`, as NumPy's (its complex rounding works on a copy of order 'K').
    return _u._complex(*parts, out=out if out is not None else _core._empty_like(a, a.dtype))


round = around  # NumPy 2's name; around is its alias


def clip(
    a,
    min=numpy._NoValue,
    max=numpy._NoValue,
    out=None,
    *,
    a_min=numpy._NoValue,
    a_max=numpy._NoValue,
    **kwargs,
):
    """Limit the values of `a` to [min, max] (either may be None: no bound); NaNs propagate, and min > max gives
    max everywhere. The bounds are named as in the array API, whose signature the conformance suite checks
    (NumPy's a_min and a_max keywords work too, and a single positional bound is the lower one, where NumPy
    asks for both)."""
    if a_min is not numpy._NoValue or a_max is not numpy._NoValue:
        if a_min is numpy._NoValue or a_max is numpy._NoValue:
            missing = "a_min" if a_min is numpy._NoValue else "a_max"
            raise TypeError(f"clip() missing 1 required argument: '{missing}'")
        if min is not numpy._NoValue or max is not numpy._NoValue:
            raise ValueError(
                "Passing `min` or `max` keyword argument when `a_min` and `a_max` are provided is forbidden."
            )
    else:
        a_min = None if min is numpy._NoValue else min
        a_max = None if max is numpy._NoValue else max
    a = _as_array(a)
    if a.dtype.kind in "iu":
        # Python ints beyond the dtype's range are no bound at all (NEP 50: no value-based promotion).
        info = numpy.iinfo(a.dtype)
        if type(a_min) is int and a_min <= info.min:
            a_min = None
        if type(a_max) is int and a_max >= info.max:
            a_max = None
    if a_min is None and a_max is None:
        return _u.positive(a, out=out, **kwargs)
    if a_min is None:
        return _u.minimum(a, a_max, out=out, **kwargs)
    if a_max is None:
        return _u.maximum(a, a_min, out=out, **kwargs)
    return _u._clip(a, a_min, a_max, out=out, **kwargs)


def where(condition, x=None, y=None):
    """Elements of `x` where `condition` holds, else of `y`, in numpy.result_type(x, y); with `condition`
    alone, nonzero(condition)."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return _u._where(condition, _wrapped_int(x, y), _wrapped_int(y, x))


def _wrapped_int(v, other):
    """A Python int outside the range of `other`'s integer type as the running NumPy's where takes it: NumPy
    2.4 casts it, so it wraps (-1 with uint8 is 255), where earlier versions raise OverflowError as a ufunc
    does (and all raise it past 64 bits). NumPy's own where on a 0-d array decides, so both follow it."""
    if type(v) is int and isinstance(other, ndarray) and other.dtype.kind in "iu":
        info = numpy.iinfo(other.dtype)
        if not info.min <= v <= info.max:
            return numpy.where(True, v, numpy.zeros((), other.dtype))[()]
    return v


def select(condlist, choicelist, default=0):
    """Elements of the first choice whose condition holds, else `default` (NumPy's select)."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    choices = [c if type(c) in (int, float, complex) else _as_array(c) for c in list(choicelist) + [default]]
    try:
        dtype = numpy.result_type(*(c.dtype if isinstance(c, ndarray) else c for c in choices))
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}") from None
    conds = [_as_array(c) for c in condlist]
    for i, cond in enumerate(conds):
        if cond.dtype != numpy.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    cond_shape = numpy.broadcast_shapes(*(c.shape for c in conds))
    choice_shape = numpy.broadcast_shapes(
        *(numpy.shape(c) if not isinstance(c, ndarray) else c.shape for c in choices)
    )
    shape = numpy.broadcast_shapes(cond_shape, choice_shape) if choice_shape else cond_shape
    choices = [_select_number(c, dtype, c_is_default=i == len(choices) - 1) for i, c in enumerate(choices)]
    result = full(shape, choices[-1], dtype)
    for cond, choice in zip(conds[::-1], choices[-2::-1]):  # the first true condition wins
        _u._where(cond, choice, result, out=result)
    return result


def _select_number(c, dtype, c_is_default):
    """A choice of select as NumPy's select has it once the result type `dtype` is known: a Python number is
    typed weakly for that type, then made an array of its default type (int64, float64, complex128; uint64 or
    object past int64) and cast to `dtype`, unsafely for the default (np.full: 300 is 44 in uint8) and by
    copyto's same_kind rule for a choice (a Python int choice for an unsigned result is NumPy's TypeError)."""
    if type(c) not in (int, float, complex):
        return c
    host = numpy.asarray(c)
    if not c_is_default and not numpy.can_cast(host.dtype, dtype, "same_kind"):
        raise TypeError(
            f"Cannot cast array data from {host.dtype!r} to {dtype!r} according to the rule 'same_kind'"
        )
    return host.astype(dtype)[()]


def interp(x, xp, fp, left=None, right=None, period=None):
    """Piecewise-linear interpolation of the points (xp, fp) (xp increasing) at `x`, with NumPy's values at and
    beyond the ends (`left`, `right`: fp's first and last by default) and its periodic form; float64, or
    complex128 for complex fp."""
    fp = _as_array(fp)
    t = numpy.complex128 if fp.dtype.kind == "c" else numpy.float64
    x, xp = _as_array(x), _as_array(xp)
    for a in (
        (x, xp) if period is None else ()
    ):  # NumPy casts them to float64 safely (the periodic form casts)
        if a.dtype.kind == "c":
            raise TypeError(
                f"Cannot cast array data from {a.dtype!r} to dtype('float64') according to the rule 'safe'"
            )
    if t is numpy.float64 and (type(left) is complex or type(right) is complex):
        raise TypeError(
            "must be real number, not complex"
        )  # NumPy's conversion of a Python complex to double
    x, xp = x.astype(numpy.float64, copy=False), xp.astype(numpy.float64, copy=False)
    fp = fp.astype(t, copy=False)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        if xp.ndim != 1 or fp.ndim != 1:
            raise ValueError("Data points must be 1-D sequences")
        if xp.shape[0] != fp.shape[0]:
            raise ValueError("fp and xp are not of the same length")
        x, xp = _u.remainder(x, period), _u.remainder(xp, period)
        order = argsort(xp)
        xp, fp = _take(xp, order), _take(fp, order)
        xp = concatenate([_u.subtract(xp[-1:], period), xp, _u.add(xp[:1], period)])
        fp = concatenate([fp[-1:], fp, fp[:1]])
    for a in (xp, fp):
        if a.ndim != 1:
            raise ValueError(
                "object too deep for desired array"
                if a.ndim
                else "object of too small depth for desired array"
            )
    n = xp.shape[0]
    if n == 0:
        raise ValueError("array of sample points is empty")
    if fp.shape[0] != n:
        raise ValueError("fp and xp are not of the same length.")
    left = fp[0] if left is None else left
    right = fp[-1] if right is None else right
    if n == 1:
        inside = _u._where(_u.greater(x, xp[0]), right, fp[0])
        return _u._where(_u.less(x, xp[0]), left, inside).astype(t, copy=False)
    # xp[j] <= x < xp[j + 1]; j = n - 1 at and beyond the last point, -1 before the first.
    j = _u.subtract(searchsorted(xp, x, side="right"), 1)
    k = _u.minimum(_u.maximum(j, 0), n - 2)
    x0, x1 = _take(xp, k), _take(xp, _u.add(k, 1))  # k is clipped in range: no bounds check needed
    y0, y1 = _take(fp, k), _take(fp, _u.add(k, 1))

    def segment(y0, y1):
        slope = _u.divide(_u.subtract(y1, y0), _u.subtract(x1, x0))
        r = _u.add(_u.multiply(slope, _u.subtract(x, x0)), y0)
        # NumPy's fallbacks for non-finite slopes: from the right neighbour, then a flat segment's value.
        r = _u._where(_u.isnan(r), _u.add(_u.multiply(slope, _u.subtract(x, x1)), y1), r)
        return _u._where(_u.logical_and(_u.isnan(r), _u.equal(y0, y1)), y0, r)

    if fp.dtype.kind == "c":  # NumPy interpolates the real and imaginary parts apart (no complex products)
        r = empty(x.shape, t)
        r._part(False)[...] = segment(y0._part(False), y1._part(False))
        r._part(True)[...] = segment(y0._part(True), y1._part(True))
    else:
        r = segment(y0, y1)
    r = _u._where(_u.equal(x, x0), y0, r)
    r = _u._where(_u.equal(j, n - 1), fp[-1], r)
    r = _u._where(_u.less(x, xp[0]), left, r)
    r = _u._where(_u.greater(x, xp[-1]), right, r)
    return _u._where(_u.isnan(x), x, r).astype(t, copy=False)


def real(val):
    """The real part: of a complex array a view (writing into it writes into `val`, as in NumPy and CuPy);
    other arrays are returned as they are."""
    val = _as_array(val)
    return val._part(False) if val.dtype.kind == "c" else val


def imag(val):
    """The imaginary part: of a complex array a view (as real's), of others a new array of zeros."""
    val = _as_array(val)
    if val.dtype.kind == "c":
        return val._part(True)
    return zeros(val.shape, val.dtype, _order_a(val))  # NumPy's ndarray.imag of a real array: order 'A'


def angle(z, deg=False):
    """The argument of complex values: arctan2(imag, real), in degrees if `deg`. A NumPy array is refused, as
    by every ufunc (CuPy's angle is one)."""
    z = _device(z, "angle")
    if z.dtype.kind == "c":
        a = _u.arctan2(_u._imag(z), _u._real(z))
    else:
        a = _u.arctan2(0, z)
    if deg:
        _u.multiply(a, 180 / numpy.pi, out=a)
    return a


def _replace_non_finite(d, nan, posinf, neginf):
    # In place; the three masks are taken first, as NumPy does (nan=inf stays inf).
    masks = _u.isnan(d), _u.equal(d, numpy.inf), _u.equal(d, -numpy.inf)
    for mask, value in zip(masks, (nan, posinf, neginf)):
        _u._where(mask, value, d, out=d)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN to `nan`, +inf to `posinf` (default: the dtype's largest value), -inf to `neginf` (its most
    negative); the real and imaginary parts of complex values apart. Other arrays (bfloat16 too, as in NumPy)
    are returned unchanged."""
    x = array(x, copy=None if copy is None else bool(copy))  # NumPy's: copy=False never copies a list
    if not issubclass(x.dtype.type, numpy.inexact):
        return x
    part = numpy.finfo(x.dtype).dtype  # float32 for complex64
    posinf = part.type(numpy.finfo(part).max) if posinf is None else posinf
    neginf = part.type(numpy.finfo(part).min) if neginf is None else neginf
    if x.dtype.kind != "c":
        _replace_non_finite(x, nan, posinf, neginf)
        return x
    parts = _u._real(x), _u._imag(x)
    for d in parts:
        _replace_non_finite(d, nan, posinf, neginf)
    return _u._complex(*parts, out=x)


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0 (NumPy's sinc: x = 0 is replaced by the dtype's eps, 1e-20 for complex)."""
    x = _u.multiply(numpy.pi, _device(x, "sinc"))
    eps = numpy.finfo(x.dtype).eps if x.dtype.kind == "f" else 1e-20
    y = _u._where(_u.not_equal(x, 0), x, eps)
    return _u.divide(_u.sin(y), y)


# I0 from CUDA's math library. NumPy's Cephes form is exp(|x|) * (a series), divided by sqrt(|x|) beyond 8: it
# is inf wherever exp(|x|) overflows the dtype (`top` is its largest value; e * top is inf in T) and NaN at
# +-inf (inf / inf).
_I0_PREAMBLE = """
__device__ __forceinline__ float cuarray_i0(float x) { return cyl_bessel_i0f(x); }
__device__ __forceinline__ double cuarray_i0(double x) { return cyl_bessel_i0(x); }
"""
_I0_BODY = (
    "const T a = fabs(x); const T e = exp(a); y = isinf(a) ? a - a : (e > top ? e * top : cuarray_i0(a))"
)
_i0_kernel = None


def i0(x):
    """The modified Bessel function of the first kind, order 0, elementwise: float64 for integer and bool input,
    else the input's float dtype (NumPy's i0; complex input raises TypeError)."""
    global _i0_kernel
    x = _device(x, "i0")
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = x.astype(numpy.float64)
    if _i0_kernel is None:
        from cuarray._kernel import ElementwiseKernel

        _i0_kernel = ElementwiseKernel("T x, T top", "T y", _I0_BODY, "cuarray_i0", preamble=_I0_PREAMBLE)
    # Laid out as NumPy's, zeros_like(abs(x)): by the ufuncs' rule (a user ElementwiseKernel's output is C-ordered).
    out = _core._empty_like_all(x.shape, x.dtype, [x], True)
    return _i0_kernel(x, x.dtype.type(numpy.finfo(x.dtype).max), out)


def diff(a, n=1, axis=-1, prepend=numpy._NoValue, append=numpy._NoValue):
    """The n-th discrete difference along `axis` (not_equal for booleans), after joining prepend/append (None,
    the array API's default, is none)."""
    if n == 0:  # before n is read as an integer, as in NumPy's: n=0.0 returns `a` too
        return a
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    n = operator.index(n)
    a = _device(a, "diff")
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = numpy.lib.array_utils.normalize_axis_index(operator.index(axis), a.ndim)
    parts = []
    for value in (prepend, append):
        if value is numpy._NoValue or value is None:
            parts.append(None)
            continue
        value = _device(value, "diff")
        if value.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            value = value._broadcast_to(tuple(shape))
        parts.append(value)
    if parts[0] is not None or parts[1] is not None:
        a = concatenate([p for p in (parts[0], a, parts[1]) if p is not None], axis=axis)
    op = _u.not_equal if a.dtype == numpy.bool_ else _u.subtract
    head = (slice(None),) * axis
    for _ in range(n):
        a = op(a[head + (slice(1, None),)], a[head + (slice(None, -1),)])
    return a


def unwrap(p, discont=None, axis=-1, *, period=2 * numpy.pi):
    """Unwraps `p` along `axis`: steps larger than max(discont, period / 2) become their remainder modulo
    `period` (NumPy's unwrap, integer input and periods too)."""
    p = _device(p, "unwrap")
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    slice1 = [slice(None)] * p.ndim
    slice1[axis] = slice(1, None)
    slice1 = tuple(slice1)
    dtype = numpy.result_type(dd.dtype, period)
    if dtype.kind in "iu":
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = _u.add(_u.remainder(_u.subtract(dd, interval_low), period), interval_low)
    if boundary_ambiguous:
        # Steps of exactly +-period/2 came out as -period/2: they keep dd's sign.
        _u._where(
            _u.logical_and(_u.equal(ddmod, interval_low), _u.greater(dd, 0)), interval_high, ddmod, out=ddmod
        )
    ph_correct = _u.subtract(ddmod, dd)
    _u._where(_u.less(_u.absolute(dd), discont), 0, ph_correct, out=ph_correct)
    up = array(p, copy=True, dtype=dtype)
    up[slice1] = _u.add(p[slice1], cumsum(ph_correct, axis=axis))
    return up


def _infinite(x, name):
    x = _device(x, name)
    if x.dtype.kind == "c":  # NumPy's signbit has no complex loop
        raise TypeError(
            f"This operation is not supported for {x.dtype} values because it would be ambiguous."
        )
    return x


def isposinf(x, out=None):
    """True where `x` is +inf (False for every integer and bool)."""
    return _u.equal(_infinite(x, "isposinf"), numpy.inf, out=out)


def isneginf(x, out=None):
    """True where `x` is -inf (False for every integer and bool)."""
    return _u.equal(_infinite(x, "isneginf"), -numpy.inf, out=out)
