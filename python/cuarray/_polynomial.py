"""NumPy's legacy polynomial API on device coefficients (highest power first): the poly1d class, and poly,
polyadd, polysub, polymul, polydiv, polyval, polyfit, polyder, polyint, roots and vander."""

import re
import warnings

import numpy

from cuarray import _reduction
from cuarray import _ufuncs as _u
from cuarray._convolution import convolve
from cuarray._core import ndarray
from cuarray._creation import arange, empty, ones, zeros, zeros_like
from cuarray._joining import concatenate
from cuarray._manipulation import copyto
from cuarray._math import real
from cuarray._ndarray import _IMPLICIT_CONVERSION
from cuarray._products import dot, outer
from cuarray._scan import cumprod
from cuarray._sorting import sort
from cuarray._transfer import asarray

__all__ = [
    "poly",
    "poly1d",
    "polyadd",
    "polyder",
    "polydiv",
    "polyfit",
    "polyint",
    "polymul",
    "polysub",
    "polyval",
    "roots",
    "vander",
]


def _device(a, name):
    """A device array of `a` (a poly1d gives its coefficients); NumPy arrays are refused."""
    if isinstance(a, poly1d):
        return a.coeffs
    if isinstance(a, numpy.ndarray):
        raise TypeError(f"cuarray.{name}: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)")
    return a if isinstance(a, ndarray) else asarray(a)


def _1d(a, name):
    a = _device(a, name)
    return a.reshape(1) if a.ndim == 0 else a


def _without_leading_zeros(c):
    """c from its first nonzero on, or [0] of c's dtype when all are zero (one readback: the length depends on
    the values)."""
    first = int(_reduction.argmax(concatenate((_u.not_equal(c, 0), ones(1, bool)))))
    return c[first:] if first < c.shape[0] else zeros(1, c.dtype)


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with these roots (or with a square matrix's eigenvalues, which
    are computed on the host: cuarray has no general eigenvalue solver yet). Real when the complex roots come in
    conjugate pairs; 1.0 for no roots, as NumPy."""
    z = _device(seq_of_zeros, "poly")
    if z.ndim == 0:  # NumPy's dispatcher refuses what is not iterable
        raise TypeError("poly takes a sequence of roots or a square matrix, not a scalar")
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] != 0:
        z = asarray(numpy.linalg.eigvals(z.get()))
    elif z.ndim == 1:
        z = z.astype(numpy.mintypecode(z.dtype.char), copy=False)
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    n = z.shape[0]
    if n == 0:
        return 1.0
    factors = empty((n, 2), z.dtype)  # row i holds x - z[i]
    copyto(factors[:, 0], 1)
    copyto(factors[:, 1], _u.negative(z))
    a = ones(1, z.dtype)
    for i in range(n):
        a = convolve(a, factors[i])
    if a.dtype.kind == "c":
        zc = z.astype(numpy.complex128, copy=False)
        if bool(
            _reduction.all(_u.equal(sort(zc), sort(_u.conjugate(zc))))
        ):  # the result's dtype depends on it
            a = real(a).copy()  # NumPy's a.real.copy(): a contiguous array, not a view of the complex one
    return a


def roots(p):
    """The roots of the polynomial with coefficients p, as a device array. cuarray has no general eigenvalue
    solver yet: the (small) coefficient array is read back and numpy.roots finds the eigenvalues of its
    companion matrix on the host."""
    return asarray(numpy.roots(_device(p, "roots").get()))


def polyint(p, m=1, k=None):
    """The m-th antiderivative of p; k holds the integration constants (one for all, or one per order)."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    val = _device(p, "polyint")
    k = zeros(m, float) if k is None else _1d(k, "polyint")
    if k.shape[0] == 1 and m > 1:
        k = _u.multiply(k[0], ones(m, float))
    if k.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    for i in range(m):
        val = concatenate((_u.true_divide(val, arange(len(val), 0, -1)), k[i : i + 1]))
    return poly1d(val) if isinstance(p, poly1d) else val


def polyder(p, m=1):
    """The m-th derivative of p."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    val = _device(p, "polyder")
    if val.ndim == 0:  # NumPy's takes len(p) even for m == 0
        raise TypeError("len() of unsized object")
    for _ in range(m):
        n = len(val) - 1
        val = _u.multiply(val[:-1], arange(n, 0, -1))
    return poly1d(val) if isinstance(p, poly1d) else val


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-D x: columns x**(N-1), ..., x, 1 (the reverse when increasing), in
    the dtype of x promoted with the default int."""
    x = _device(x, "vander")
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x.shape[0]
    N = n if N is None else N
    if N < 0:
        raise ValueError("negative dimensions are not allowed")
    v = empty((n, N), numpy.promote_types(x.dtype, int))
    cols = v if increasing else v[:, ::-1]  # cols[:, j] = x**j
    if N > 0:
        copyto(cols[:, 0], 1)
    if N > 1:
        copyto(cols[:, 1:], x.reshape(n, 1))
        copyto(cols[:, 1:], cumprod(cols[:, 1:], axis=1))
    return v


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial fit of degree deg to the points (x, y) (y may hold several data sets as
    columns), weighted by w, through cuarray.linalg.lstsq on the Vandermonde matrix with unit-norm columns.
    Returns the coefficients; with full, also (residuals, rank, singular values, rcond); with cov, also the
    covariance matrix (scaled by the residuals unless cov='unscaled')."""
    from cuarray.linalg import inv, lstsq

    order = int(deg) + 1
    x = _u.add(_device(x, "polyfit"), 0.0)
    y = _u.add(_device(y, "polyfit"), 0.0)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = len(x) * numpy.finfo(x.dtype).eps
    lhs, rhs = vander(x, order), y
    if w is not None:
        w = _u.add(_device(w, "polyfit"), 0.0)
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        w_col = w.reshape(-1, 1)
        _u.multiply(lhs, w_col, out=lhs)  # in place, as NumPy: the products keep lhs's and rhs's dtypes
        _u.multiply(rhs, w_col if rhs.ndim == 2 else w, out=rhs)
    # NumPy's scaling (lhs * lhs, not |lhs|**2, for complex x) improves the conditioning.
    scale = _u.sqrt(_u.multiply(lhs, lhs).sum(axis=0))
    _u.true_divide(lhs, scale, out=lhs)
    c, resids, rank, s = lstsq(lhs, rhs, rcond)
    c = _u.true_divide(c.T, scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", numpy.exceptions.RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if not cov:
        return c
    vbase = _u.true_divide(inv(dot(lhs.T, lhs)), outer(scale, scale))
    if cov == "unscaled":
        fac = 1
    else:
        if len(x) <= order:
            raise ValueError("the number of data points must exceed order to scale the covariance matrix")
        fac = _u.true_divide(resids, len(x) - order)
    if y.ndim == 1:
        return c, _u.multiply(vbase, fac)
    return c, _u.multiply(vbase.reshape(order, order, 1), fac)


def polyval(p, x):
    """p evaluated at x by Horner's rule (one multiply and one add over x per coefficient); x may be a
    poly1d, which gives the composition."""
    p = _device(p, "polyval")
    if isinstance(x, poly1d):
        y = 0
    else:
        x = _device(x, "polyval")
        y = zeros_like(x)
    for coefficient in p:
        y = y * x + coefficient
    return y


def _aligned(a1, a2, name):
    """a1 and a2 as 1-D device arrays, the shorter padded with leading zeros (of its own dtype)."""
    a1, a2 = _1d(a1, name), _1d(a2, name)
    diff = len(a2) - len(a1)
    if diff > 0:
        a1 = concatenate((zeros(diff, a1.dtype), a1))
    elif diff < 0:
        a2 = concatenate((zeros(-diff, a2.dtype), a2))
    return a1, a2


def polyadd(a1, a2):
    """The sum of two polynomials (a poly1d if either is one)."""
    val = _u.add(*_aligned(a1, a2, "polyadd"))
    return poly1d(val) if isinstance(a1, poly1d) or isinstance(a2, poly1d) else val


def polysub(a1, a2):
    """The difference a1 - a2 of two polynomials (a poly1d if either is one)."""
    val = _u.subtract(*_aligned(a1, a2, "polysub"))
    return poly1d(val) if isinstance(a1, poly1d) or isinstance(a2, poly1d) else val


def _trimmed(a, name):
    return a.coeffs if isinstance(a, poly1d) else poly1d(_device(a, name)).coeffs


def polymul(a1, a2):
    """The product of two polynomials (leading zeros dropped first), by convolution on the device."""
    val = convolve(_trimmed(a1, "polymul"), _trimmed(a2, "polymul"))
    return poly1d(val) if isinstance(a1, poly1d) or isinstance(a2, poly1d) else val


def polydiv(u, v):
    """(quotient, remainder) of u / v, in floating point. The division runs on the host (numpy.polydiv):
    it is a sequential loop over the few coefficients, and the remainder's length depends on the values."""
    q, r = numpy.polydiv(_device(u, "polydiv").get(), _device(v, "polydiv").get())
    if isinstance(u, poly1d) or isinstance(v, poly1d):
        return poly1d(asarray(q)), poly1d(asarray(r))
    return asarray(q), asarray(r)


_POWER = re.compile(r"\*\*([0-9]*)")


def _superscripts(text, wrap=70):
    """`text` with each '**n' raised: the exponents on a line above, in lines of at most `wrap` characters
    (NumPy's layout, leading space included)."""
    pieces = _POWER.split(text)  # text, exponent, text, exponent, ..., tail
    tail = pieces.pop()
    out, upper, lower = " ", "", ""
    for part, power in zip(pieces[::2], pieces[1::2]):
        if len(lower) + len(part) + len(power) - 1 > wrap:
            out += f"{upper}\n{lower}\n "
            upper, lower = "", ""
        upper += " " * (len(part) - 1) + power  # the exponent starts above the variable's last letter
        lower += part + " " * (len(power) - 1)
    return f"{out}{upper}\n{lower}{tail}"


def _coefficient_text(c):
    re_part, im_part = numpy.real(c), numpy.imag(c)
    if im_part == 0:
        return f"{re_part:.4g}"
    if re_part == 0:
        return f"{im_part:.4g}j"
    return f"({re_part:.4g} + {im_part:.4g}j)"


def _poly_text(coeffs, var):
    """NumPy's str of a poly1d with the host coefficients `coeffs` in the variable `var`."""
    nonzero = numpy.flatnonzero(coeffs != 0)
    coeffs = coeffs[nonzero[0] :] if nonzero.size else coeffs[:0]
    terms = []
    for power, c in zip(range(len(coeffs) - 1, -1, -1), coeffs):
        text = _coefficient_text(c)
        if text != "0":
            terms.append(text if power == 0 else f"{text} {var}" if power == 1 else f"{text} {var}**{power}")
    joined = terms[0] if terms else "0"
    for term in terms[1:]:
        joined += f" - {term[1:]}" if term.startswith("-") else f" + {term}"
    return _superscripts(joined)


def _as_poly1d(p):
    return p if isinstance(p, poly1d) else poly1d(p)


class poly1d:
    """A polynomial with device coefficients, highest power first (NumPy's poly1d): `poly1d([1, 2, 3])` is
    x**2 + 2x + 3; with r=True the argument holds the roots instead. Calling it evaluates it; it supports
    + - * with scalars and polynomials, ** by a non-negative integer, / by a scalar (by a polynomial:
    (quotient, remainder)). Printing reads the coefficients back; it never converts to a NumPy array
    implicitly."""

    __hash__ = None
    __array_ufunc__ = None  # NumPy scalars and ufuncs defer to poly1d's operators instead of converting it

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._coeffs = c_or_r._coeffs
            self._variable = c_or_r._variable if variable is None else variable
            return
        if isinstance(c_or_r, numpy.poly1d):  # NumPy's polynomial, copied over with its variable
            variable = c_or_r.variable if variable is None else variable
            c_or_r = c_or_r.coeffs
        if isinstance(c_or_r, numpy.ndarray):  # host coefficients are copied over, as CuPy's poly1d does
            c_or_r = asarray(c_or_r)
        if r:
            c_or_r = poly(c_or_r)
        c = _1d(c_or_r, "poly1d")
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        self._coeffs = _without_leading_zeros(c)
        self._variable = "x" if variable is None else variable

    @property
    def coeffs(self):
        """The coefficients, highest power first (a device array)."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        # Only in-place operators, which hand the same array back (p.coeffs *= 2), may assign.
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    c = coef = coefficients = coeffs

    @property
    def variable(self):
        """The variable's name in the printed form."""
        return self._variable

    @property
    def order(self):
        """The degree (the number of coefficients less one)."""
        return len(self._coeffs) - 1

    o = order

    @property
    def roots(self):
        """The roots (see cuarray.roots: found on the host)."""
        return roots(self._coeffs)

    r = roots

    def __array__(self, dtype=None, copy=None):
        raise TypeError(_IMPLICIT_CONVERSION)

    def __cupy_get_ndarray__(self):
        """The coefficients: what ufuncs, kernels and ndarray operators read a poly1d as (CuPy's protocol; NumPy
        reads its poly1d's coefficients the same way)."""
        return self._coeffs

    def get(self, stream=None):
        """A numpy.poly1d with these coefficients (copied on `stream`) and variable."""
        return numpy.poly1d(self._coeffs.get(stream), variable=self._variable)

    def set(self, polyin, stream=None):
        """Takes the coefficients (copied on `stream`) and the variable of the numpy.poly1d `polyin`."""
        if not isinstance(polyin, numpy.poly1d):
            raise TypeError(f"cuarray.poly1d.set takes a numpy.poly1d, not {type(polyin).__name__}")
        coeffs = numpy.ascontiguousarray(polyin.coeffs)
        # New: the old coefficients may be a view of a caller's array.
        self._coeffs = empty(coeffs.shape, coeffs.dtype)
        self._coeffs.set(coeffs, stream)
        self._variable = polyin.variable

    def __repr__(self):
        return f"poly1d({repr(self._coeffs.get())[6:-1]})"

    def __str__(self):
        return _poly_text(self._coeffs.get(), self._variable)

    def __len__(self):
        return self.order

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def __neg__(self):
        return poly1d(_u.negative(self._coeffs))

    def __pos__(self):
        return self

    # The functions return a poly1d when given one (with the default variable, as NumPy's operators).
    def __mul__(self, other):
        if numpy.isscalar(other):
            return poly1d(self._coeffs * other)
        return polymul(self, _as_poly1d(other))

    def __rmul__(self, other):
        if numpy.isscalar(other):
            return poly1d(other * self._coeffs)
        return polymul(self, _as_poly1d(other))

    def __add__(self, other):
        return polyadd(self, _as_poly1d(other))

    __radd__ = __add__

    def __sub__(self, other):
        return polysub(self, _as_poly1d(other))

    def __rsub__(self, other):
        return polysub(_as_poly1d(other), self)

    def __pow__(self, val):
        if not numpy.isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res = poly1d([1])
        for _ in range(val):
            res = polymul(self, res)
        return poly1d(res)

    def __truediv__(self, other):
        if numpy.isscalar(other):
            return poly1d(self._coeffs / other)
        return polydiv(self, _as_poly1d(other))

    def __rtruediv__(self, other):
        if numpy.isscalar(other):
            return poly1d(other / self._coeffs)
        return polydiv(_as_poly1d(other), self)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool(_reduction.all(_u.equal(self._coeffs, other._coeffs)))

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, val):
        """The coefficient of x**val (a 0-d device array; zero beyond the degree)."""
        if val > self.order or val < 0:
            return zeros((), self._coeffs.dtype)
        return self._coeffs[self.order - val]

    def __setitem__(self, key, val):
        if key < 0:
            raise ValueError("Does not support negative powers.")
        if key > self.order:
            self._coeffs = concatenate((zeros(key - self.order, self._coeffs.dtype), self._coeffs))
        self._coeffs[self.order - key] = val

    def __iter__(self):
        return iter(self._coeffs)

    def integ(self, m=1, k=0):
        """The m-th antiderivative, with integration constants k."""
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        """The m-th derivative."""
        return poly1d(polyder(self._coeffs, m=m))
