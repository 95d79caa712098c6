"""SciPy's softmax, log_softmax and logsumexp, in SciPy's steps (scipy/special/_logsumexp.py) on device
arrays, so that their NaNs, infinities and dtypes are SciPy's. Real inputs; complex logsumexp is not
supported."""

import numpy
from numpy.lib.array_utils import normalize_axis_tuple

from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._creation import full
from cuarray._manipulation import broadcast_to, squeeze
from cuarray._math import where
from cuarray._reduction import max as _max
from cuarray._reduction import sum as _sum
from cuarray._transfer import asarray


def _device(x, name):
    """A device array of `x`: a Python number or NumPy scalar becomes a 0-d array (of the dtype SciPy's
    asarray gives it), as the special ufuncs take them; host arrays are CuPy's TypeError."""
    if isinstance(x, ndarray):
        return x
    if isinstance(x, (bool, int, float, numpy.generic)):
        return asarray(x)
    raise TypeError(f"cuarray.scipy.special.{name}: Unsupported type {type(x)}")


def softmax(x, axis=None):
    """SciPy's ``softmax``: exp(x - max) / sum(exp(x - max)) over `axis` (all axes by default)."""
    x = _device(x, "softmax")
    shifted = _u.exp(x - _max(x, axis=axis, keepdims=True))
    return shifted / _sum(shifted, axis=axis, keepdims=True)


def log_softmax(x, axis=None):
    """SciPy's ``log_softmax``: x - max - log(sum(exp(x - max))), an infinite maximum shifting by 0."""
    x = _device(x, "log_softmax")
    x_max = _max(x, axis=axis, keepdims=True)
    if x_max.ndim > 0:  # SciPy sets the non-finite maxima to 0 in place: x_max keeps its dtype
        x_max = where(_u.isfinite(x_max), x_max, x_max.dtype.type(0))
    elif not bool(_u.isfinite(x_max)):
        x_max = 0
    tmp = x - x_max
    return tmp - _u.log(_sum(_u.exp(tmp), axis=axis, keepdims=True))


def _floating(a, b):
    """a and b (or None) as device arrays of their common floating dtype, broadcast together (SciPy's
    xp_promote with force_floating: Python numbers are weak, integers and bools compute in float64)."""
    given = [v for v in (a, b) if v is not None]
    dtype = numpy.result_type(
        *(v if type(v) in (bool, int, float) else _device(v, "logsumexp").dtype for v in given), 1.0
    )
    arrays = [_device(v, "logsumexp") for v in given]
    if dtype.kind == "c":
        raise NotImplementedError("cuarray.scipy.special.logsumexp supports real inputs only (got complex)")
    shape = numpy.broadcast_shapes(*(v.shape for v in arrays))
    arrays = [broadcast_to(v.astype(dtype, copy=False), shape) for v in arrays]
    return arrays[0], (arrays[1] if b is not None else None)


def _shifted_sum(a, b, axis, return_sign):
    """SciPy's _logsumexp: the largest term of each sum is taken out as log(m) + a_max, the rest summed
    through log1p, for precision."""
    if b is not None:
        a = where(b == 0, -numpy.inf, a)
    a_max = _max(a, axis=axis, keepdims=True)
    i_max = a == a_max
    a = where(i_max, -numpy.inf, a)
    i_max = i_max.astype(a.dtype)
    m = _sum(i_max if b is None else b * i_max, axis=axis, keepdims=True, dtype=a.dtype)
    terms = _u.exp(a - a_max) if b is None else b * _u.exp(a - a_max)
    s = _sum(terms, axis=axis, keepdims=True, dtype=terms.dtype)
    s = where(s == 0, s, s / m)
    sgn = _u.sign(s + 1) * _u.sign(m)
    s = where(s < -1, -s - 2, s)
    out = _u.log1p(s) + _u.log(_u.absolute(m)) + a_max
    if not return_sign:
        out = where(sgn < 0, numpy.nan, out)
    return out, sgn


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """SciPy's ``logsumexp``: log(sum(b * exp(a))) over `axis`, with SciPy's handling of weights, signs
    (``return_sign``) and infinite results."""
    a, b = _floating(a, b)
    if a.ndim == 0:
        a = a.reshape(1)
        b = b.reshape(1) if b is not None else None
    axis = tuple(range(a.ndim)) if axis is None else normalize_axis_tuple(axis, a.ndim)
    if a.size:
        # Infinite results are those of the direct sum, whose log and exp give C99's special values.
        direct = _sum(_u.exp(a) if b is None else b * _u.exp(a), axis=axis, keepdims=True)
        sgn_inf = _u.sign(direct) if return_sign else None
        out_inf = _u.log(_u.absolute(direct) if return_sign else direct)
        out, sgn = _shifted_sum(a, b, axis, return_sign)
        finite = _u.isfinite(out)
        out = where(finite, out, out_inf)
        sgn = where(finite, sgn, sgn_inf) if return_sign else sgn
    else:
        shape = tuple(1 if i in axis else n for i, n in enumerate(a.shape))
        out = full(shape, -numpy.inf, dtype=a.dtype)
        sgn = _u.sign(out)
    if not keepdims:
        out, sgn = squeeze(out, axis=axis), squeeze(sgn, axis=axis)
    return (out, sgn) if return_sign else out
