"""Predicates on arrays and NumPy's checked conversions: isscalar, iterable, isfortran, iscomplexobj,
isrealobj, iscomplex, isreal, real_if_close, may_share_memory, shares_memory, common_type, asanyarray,
asarray_chkfinite, require.

Memory overlap is decided on the host from the arrays' addresses, shapes and strides, as NumPy decides it:
may_share_memory compares the memory extents; shares_memory solves the overlap exactly (a bounded linear
Diophantine equation, Note [Exact overlap])."""

import math

import numpy

from cuarray import _reduction
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._creation import ones, zeros
from cuarray._math import imag, real
from cuarray._transfer import array, asarray
from cuarray._transfer import device_array as _device

__all__ = [
    "asanyarray",
    "asarray_chkfinite",
    "byte_bounds",
    "common_type",
    "iscomplex",
    "iscomplexobj",
    "isfortran",
    "isreal",
    "isrealobj",
    "isscalar",
    "iterable",
    "may_share_memory",
    "real_if_close",
    "require",
    "shares_memory",
]

# NumPy's own: a cuarray array, 0-d included, is neither a numpy.generic nor a numbers.Number.
isscalar = numpy.isscalar

# cuarray has no ndarray subclasses.
asanyarray = asarray


def iterable(y):
    """Whether iter(y) works. A cuarray array is iterable unless it is 0-d (its __iter__ is a generator, which
    raises for a 0-d array only when advanced, so iter() alone cannot tell)."""
    if isinstance(y, ndarray):
        return y.ndim > 0
    return numpy.iterable(y)


def isfortran(a):
    """True if `a` is Fortran-contiguous but not C-contiguous."""
    a = _device(a, "isfortran")
    return a._f_contiguous and not a._c_contiguous


def _scalar_type(x):
    # Only the dtype is read, so NumPy arrays are taken too; other objects get the dtype NumPy infers. A scalar
    # type's .dtype is a descriptor, without .type: NumPy's falls back to asarray (an object array) then too.
    try:
        return x.dtype.type
    except AttributeError:
        return numpy.asarray(x).dtype.type


def iscomplexobj(x):
    """Whether x has a complex dtype (no device work)."""
    return issubclass(_scalar_type(x), numpy.complexfloating)


def isrealobj(x):
    """Whether x has a dtype other than complex (no device work)."""
    return not iscomplexobj(x)


def iscomplex(x):
    """Elementwise: whether the imaginary part is nonzero (all False for a non-complex dtype)."""
    x = _device(x, "iscomplex")
    return _u.not_equal(imag(x), 0) if x.dtype.kind == "c" else zeros(x.shape, bool)


def isreal(x):
    """Elementwise: whether the imaginary part is zero (all True for a non-complex dtype)."""
    x = _device(x, "isreal")
    if x.dtype.kind == "M":
        # NumPy's imag(x) == 0 compares the zero imaginary parts, datetimes at the epoch, with 0: never equal.
        return zeros(x.shape, bool)
    return _u.equal(imag(x), 0) if x.dtype.kind == "c" else ones(x.shape, bool)


def real_if_close(a, tol=100):
    """The real part of complex `a` if every imaginary part is below `tol` (in machine epsilons of a's dtype
    when tol > 1), else `a`. The real part is a view of `a`, as NumPy's."""
    a = _device(a, "real_if_close")
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = numpy.finfo(a.dtype).eps * tol
    # One readback: the result's dtype depends on the values.
    if _reduction.all(_u.less(_u.absolute(imag(a)), tol)).item():
        return real(a)
    return a


def common_type(*arrays):
    """NumPy's common_type: the inexact scalar type of the arrays' dtypes, integers counting as float64 (no
    device work; NumPy arrays are taken too)."""
    is_complex, precision = False, 0
    for a in arrays:
        dt = a.dtype
        if issubclass(dt.type, numpy.integer):  # timedelta64 included, as in NumPy's
            p = 2
        elif dt.kind in "fc" and dt.type in _PRECISION:
            p = _PRECISION[dt.type]
            is_complex = is_complex or dt.kind == "c"
        else:
            raise TypeError("can't get common type for non-numeric array")
        precision = max(precision, p)
    return (_COMPLEX if is_complex else _FLOAT)[precision]


_FLOAT = (numpy.float16, numpy.float32, numpy.float64, numpy.longdouble)
_COMPLEX = (None, numpy.complex64, numpy.complex128, numpy.clongdouble)
_PRECISION = {t: i for types in (_FLOAT, _COMPLEX) for i, t in enumerate(types) if t is not None}


def asarray_chkfinite(a, dtype=None, order=None):
    """asarray, raising ValueError if a float or complex result holds an inf or a NaN (one readback)."""
    a = asarray(a, dtype=dtype, order=order)
    if a.dtype.char in numpy.typecodes["AllFloat"] and not _reduction.all(_u.isfinite(a)).item():
        raise ValueError("array must not contain infs or NaNs")
    return a


_FLAGS = {
    "C": "C",
    "C_CONTIGUOUS": "C",
    "CONTIGUOUS": "C",
    "F": "F",
    "F_CONTIGUOUS": "F",
    "FORTRAN": "F",
    "A": "A",
    "ALIGNED": "A",
    "W": "W",
    "WRITEABLE": "W",
    "O": "O",
    "OWNDATA": "O",
    "E": "E",
    "ENSUREARRAY": "E",
}


def require(a, dtype=None, requirements=None):
    """An array of `dtype` with the flags in `requirements` (NumPy's names), copying only if needed. On the
    device every array is aligned ('A') and writeable ('W'), and is a base array ('E')."""
    if not requirements:
        return asarray(a, dtype=dtype)
    flags = {_FLAGS[r.upper()] for r in requirements}
    if flags >= {"C", "F"}:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "F" if "F" in flags else "C" if "C" in flags else "A"
    out = array(a, dtype=dtype, order=order, copy=None)
    if "O" in flags and out.base is not None:
        return out.copy(order)
    return out


# ---- memory overlap ---------------------------------------------------------------------------------------


def _max_work(max_work, default):
    if max_work is None:
        return default
    if not isinstance(max_work, int):  # NumPy's check: a Python int (bool included), not a NumPy integer
        raise ValueError("max_work must be an integer")  # noqa: TRY004  (NumPy's type)
    if max_work < -2:
        raise ValueError("Invalid value for max_work")
    return max_work


def _extent(a):
    """The bytes [lo, hi) that a non-empty array spans."""
    lo = hi = a._ptr
    for n, s in zip(a.shape, a.strides):
        if s < 0:
            lo += s * (n - 1)
        else:
            hi += s * (n - 1)
    return lo, hi + a.itemsize


# Note [Exact overlap]
# A byte of `a` and one of `b` coincide when
#     ptr_a + sum(stride_a[i] * i_a[i]) + u == ptr_b + sum(stride_b[j] * i_b[j]) + v
# for indices 0 <= i_a[i] < shape_a[i], 0 <= i_b[j] < shape_b[j] and byte offsets 0 <= u < itemsize_a,
# 0 <= v < itemsize_b. Moving b's terms to the left gives sum(c * x) == rhs with 0 <= x <= ub. A negative
# coefficient c becomes |c| by substituting x -> ub - x (which moves c * ub to the right side), and terms of
# equal coefficient merge (c*x + c*y with x <= u1, y <= u2 takes the values c*z, z <= u1 + u2). The search
# below takes the largest coefficient first and, for each term, only the values that leave a remainder the
# later terms can make: between 0 and their largest sum, and a multiple of the gcd of their coefficients.
# The last two terms therefore need one candidate at most. The problem is NP-hard in general (as NumPy says);
# `budget` bounds the number of candidates tried.


class _TooHard(Exception):
    pass


def _overlap_equation(a, b):
    """(coefficient -> upper bound, right side) of Note [Exact overlap]."""
    terms, rhs = {}, b._ptr - a._ptr
    parts = [(s, n - 1) for n, s in zip(a.shape, a.strides)]
    parts += [(-s, n - 1) for n, s in zip(b.shape, b.strides)]
    for c, ub in parts + [(1, a.itemsize - 1), (-1, b.itemsize - 1)]:
        if c < 0:
            rhs -= c * ub
            c = -c
        if c and ub:
            terms[c] = terms.get(c, 0) + ub
    return terms, rhs


def _solvable(terms, rhs, budget):
    """Whether sum(c * x) == rhs has a solution with 0 <= x <= terms[c]; raises _TooHard after `budget`
    candidates (None: no limit)."""
    if rhs < 0:
        return False
    terms = sorted(((c, min(ub, rhs // c)) for c, ub in terms.items()), reverse=True)
    terms = [t for t in terms if t[1]]
    n = len(terms)
    gcds, tops = [0] * (n + 1), [0] * (n + 1)  # of terms[i:]
    for i in reversed(range(n)):
        c, ub = terms[i]
        gcds[i], tops[i] = math.gcd(gcds[i + 1], c), tops[i + 1] + c * ub
    if rhs > tops[0] or (n and rhs % gcds[0]):
        return False
    work = 0

    def search(i, r):  # r is reachable by terms[i:] as far as the gcd and the bounds tell
        nonlocal work
        if i >= n - 1:
            return True
        c, ub = terms[i]
        g = gcds[i + 1]
        lo, hi = max(0, -((tops[i + 1] - r) // c)), min(ub, r // c)
        # c * x == r (mod g): x == x0 (mod step)
        h = math.gcd(c, g)
        step = g // h
        x0 = (r // h) * pow(c // h, -1, step) % step
        for x in range(lo + (x0 - lo) % step, hi + 1, step):
            work += 1
            if budget is not None and work > budget:
                raise _TooHard
            if search(i + 1, r - c * x):
                return True
        return False

    return search(0, rhs)


def _overlap(a, b, max_work):
    """True, False, or None where deciding needs more than max_work (0: bounds only; negative: exact)."""
    if a.size == 0 or b.size == 0:
        return False
    (alo, ahi), (blo, bhi) = _extent(a), _extent(b)
    if ahi <= blo or bhi <= alo:
        return False
    if max_work == 0:
        return None
    try:
        return _solvable(*_overlap_equation(a, b), None if max_work < 0 else max_work)
    except _TooHard:
        return None


def byte_bounds(a):
    """(low, high): the device addresses of a's first byte and one past its last (NumPy's
    numpy.lib.array_utils.byte_bounds, as CuPy's cupy.byte_bounds); (ptr, ptr) for an empty array."""
    a = _device(a, "byte_bounds")
    return (a._ptr, a._ptr) if a.size == 0 else _extent(a)


def may_share_memory(a, b, max_work=None):
    """Whether a and b might share memory. By default (max_work None or 0) only their memory extents are
    compared; max_work < 0 decides exactly, > 0 bounds the search of shares_memory (True where it gives
    up)."""
    max_work = _max_work(max_work, 0)
    res = _overlap(_device(a, "may_share_memory"), _device(b, "may_share_memory"), max_work)
    return True if res is None else res


def shares_memory(a, b, max_work=None):
    """Whether a and b share a byte of memory, decided exactly on the host from their addresses, shapes and
    strides (Note [Exact overlap]) as NumPy does: no device work. max_work=0 only compares the extents;
    max_work > 0 bounds the number of candidate solutions tried (counted by this search, not NumPy's, so
    the point where it gives up can differ). numpy.exceptions.TooHardError where the bound is exceeded."""
    max_work = _max_work(max_work, -1)
    res = _overlap(_device(a, "shares_memory"), _device(b, "shares_memory"), max_work)
    if res is None:
        raise numpy.exceptions.TooHardError("Exceeded max_work")
    return res
