"""SciPy's zeta and polygamma, Python functions in SciPy (scipy/special/_basic.py) over its ufuncs: the same
steps on cuarray's ufuncs, so that their dtypes, NaNs and infinities are SciPy's."""

from cuarray import _ufuncs as _u
from cuarray._math import where
from cuarray.scipy.special._logsumexp import _device


def zeta(x, q=None, out=None):
    """SciPy's ``zeta``: the Riemann zeta function of `x`, or with `q` the Hurwitz zeta function
    sum_k (k + q)^-x (real `x` >= 1 only, as SciPy's). The ufuncs behind it are SciPy's private
    ``_riemann_zeta`` and ``_zeta``."""
    if q is None:
        return _u._special__riemann_zeta(x, out=out)
    return _u._special__zeta(x, q, out=out)


def polygamma(n, x):
    """SciPy's ``polygamma``: psi(x) where n is 0, else (-1)^(n+1) n! zeta(n + 1, x), computed as SciPy does
    (so a non-integer n gives NaN and the dtype follows n's and x's)."""
    x = _device(x, "polygamma")  # a host array is refused before n goes to the device
    n = _device(n, "polygamma")
    fac2 = (-1.0) ** (n + 1) * _u._special_gamma(n + 1.0) * zeta(n + 1, x)
    return where(n == 0, _u._special_psi(x), fac2)
