"""NumPy's legacy polynomial API (poly1d, poly, polyadd, ..., polyfit, roots, vander) against NumPy."""

import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same, make_data
from cuarray._polynomial import _poly_text

gpu = pytest.mark.gpu

# Coefficient lists that cover leading zeros, signs, complex values and a single constant.
COEFFS = [[1, 2, 3], [0, 0, 4, -5, 0], [3], [-1.5, 0.25, 0, 2], [1 + 2j, -3j, 0.5]]
SOME_DTYPES = ["bool", "int8", "uint16", "int64", "float16", "float32", "float64", "complex64", "complex128"]


def _pair(data, dtype=None):
    host = np.asarray(data, dtype=dtype)
    return host, cp.asarray(host)


def _same_poly(got, want):
    __tracebackhide__ = True
    assert isinstance(got, cp.poly1d), f"expected a cuarray.poly1d, got {type(got)!r}"
    assert got.variable == want.variable
    assert_same(got.coeffs, want.coeffs)


# ---------------------------------------------------------------------------------------------
# Without a GPU: the printed form and the refusals that come before any device work
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "coeffs",
    COEFFS
    + [
        [0],
        [],
        [True, False, True],
        np.arange(1, 40),
        np.arange(-60.5, 0),
        [1e-5, -0.0, np.nan, np.inf, -7],
        [2j, 0, -1 - 1j],
    ],
)
@pytest.mark.parametrize("variable", ["x", "zeta"])
def test_printed_form_matches_numpy(coeffs, variable):
    host = np.poly1d(coeffs, variable=variable)
    assert _poly_text(host.coeffs, variable) == str(host)


@pytest.mark.parametrize(
    "call",
    [
        lambda a: cp.poly(a),
        lambda a: cp.roots(a),
        lambda a: cp.polyval(a, 2),
        lambda a: cp.polyadd(a, [1]),
        lambda a: cp.polysub(a, [1]),
        lambda a: cp.polymul(a, [1]),
        lambda a: cp.polydiv(a, [1]),
        lambda a: cp.polyder(a),
        lambda a: cp.polyint(a),
        lambda a: cp.vander(a),
        lambda a: cp.polyfit(a, [1, 2, 3], 1),
    ],
)
def test_numpy_arrays_are_refused(call):
    with pytest.raises(TypeError, match="numpy.ndarray"):
        call(np.ones(3))


def test_negative_orders_are_refused():
    with pytest.raises(ValueError, match="Order of integral must be positive"):
        cp.polyint([1, 2], m=-1)
    with pytest.raises(ValueError, match="Order of derivative must be positive"):
        cp.polyder([1, 2], m=-1)


# ---------------------------------------------------------------------------------------------
# poly1d
# ---------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("coeffs", COEFFS + [[0, 0, 0], [], [False, True]])
def test_poly1d_construction(coeffs):
    want = np.poly1d(coeffs)
    got = cp.poly1d(coeffs)
    _same_poly(got, want)
    for name in ("c", "coef", "coefficients"):
        assert getattr(got, name) is got.coeffs
    assert got.order == got.o == want.order
    assert len(got) == len(want)
    assert repr(got) == repr(want)
    assert str(got) == str(want)


@gpu
@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_poly1d_from_device_array(dtype):
    host, dev = _pair(make_data(5, dtype, seed=3))
    host[:2] = 0
    dev[:2] = 0
    _same_poly(cp.poly1d(dev, variable="s"), np.poly1d(host, variable="s"))
    _same_poly(cp.poly1d(dev[::-2]), np.poly1d(host[::-2]))


@gpu
def test_poly1d_from_roots_and_from_poly1d():
    _same_poly(cp.poly1d([1, 2, 3], r=True), np.poly1d([1, 2, 3], r=True))
    _same_poly(cp.poly1d([], r=True), np.poly1d([], r=True))
    p = cp.poly1d([1, 2], variable="t")
    q = cp.poly1d(p)
    assert q.coeffs is p.coeffs and q.variable == "t"
    assert cp.poly1d(p, variable="u").variable == "u"
    with pytest.raises(ValueError, match="Polynomial must be 1d only"):
        cp.poly1d(cp.ones((2, 2)))


@gpu
def test_poly1d_attributes_are_read_only_and_no_implicit_conversion():
    p = cp.poly1d([1, 2])
    with pytest.raises(AttributeError):
        p.coeffs = cp.asarray([3, 4])
    with pytest.raises(AttributeError):
        p.order = 3
    with pytest.raises(AttributeError):
        p.variable = "y"
    p.coeffs *= 2  # in place: the same array comes back
    assert_same(p.coeffs, np.array([2, 4]))
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.asarray(p)
    with pytest.raises(TypeError):
        hash(p)


@gpu
def test_poly1d_roots_property():
    p, q = cp.poly1d([1, -3, 2]), np.poly1d([1, -3, 2])
    assert_same(p.roots, q.roots)
    assert_same(p.r, q.r)


@gpu
@pytest.mark.parametrize("coeffs", COEFFS)
def test_poly1d_call(coeffs):
    p, q = cp.poly1d(coeffs), np.poly1d(coeffs)
    assert_same(p(3), np.asarray(q(3)))
    assert_same(p(2.5), np.asarray(q(2.5)))
    host, dev = _pair(make_data((2, 3), "float32", seed=1))
    assert_same(p(dev), q(host))
    _same_poly(p(cp.poly1d([1, -1])), q(np.poly1d([1, -1])))


@gpu
def test_poly1d_arithmetic():
    a, b = [1.5, -2, 3], [4, 0, 5, 1]
    p, q = cp.poly1d(a), cp.poly1d(b)
    n, m = np.poly1d(a), np.poly1d(b)
    _same_poly(p + q, n + m)
    _same_poly(p - q, n - m)
    _same_poly(p * q, n * m)
    _same_poly(p + 2, n + 2)
    _same_poly(2 + p, 2 + n)
    _same_poly(p - 2, n - 2)
    _same_poly(2 - p, 2 - n)
    _same_poly(p * 3, n * 3)
    _same_poly(3 * p, 3 * n)
    _same_poly(np.float32(3) * p, np.poly1d(np.float32(3) * n.coeffs))  # NumPy scalars defer to poly1d
    _same_poly(p * [1, 1], n * [1, 1])
    _same_poly(p * cp.asarray([1, 1]), n * np.array([1, 1]))
    _same_poly(p / 2, n / 2)
    _same_poly(2 / p, 2 / n)
    _same_poly(-p, -n)
    assert +p is p
    for got, want in zip(q / p, m / n):
        _same_poly(got, want)
    for got, want in zip([1, 2, 3, 4] / p, [1, 2, 3, 4] / n):
        _same_poly(got, want)


@gpu
@pytest.mark.parametrize("dtype", ["int32", "float32", "complex64"])
@pytest.mark.parametrize("power", [0, 1, 3])
def test_poly1d_power(dtype, power):
    host, dev = _pair([1, -2, 1], dtype)
    _same_poly(cp.poly1d(dev) ** power, np.poly1d(host) ** power)


@gpu
@pytest.mark.parametrize("power", [-1, 1.5, [2], "device"])
def test_poly1d_power_errors(power):
    power = cp.asarray(2) if power == "device" else power  # a 0-d array is no scalar, as in NumPy
    with pytest.raises(ValueError, match="Power to non-negative integers only"):
        cp.poly1d([1, 2]) ** power


@gpu
def test_poly1d_equality():
    p = cp.poly1d([1, 2])
    assert p == cp.poly1d([1.0, 2.0])
    assert (p != cp.poly1d([1.0, 2.0])) is False
    assert p != cp.poly1d([1, 3])
    assert p != cp.poly1d([1, 2, 3])
    assert (p == cp.poly1d([1, 2, 3])) is False
    assert (p == [1, 2]) is False  # NumPy compares poly1d with poly1d only


@gpu
def test_poly1d_items():
    p, q = cp.poly1d([4, 5, 6]), np.poly1d([4, 5, 6])
    for power in (-1, 0, 1, 2, 3):
        assert_same(p[power], np.asarray(q[power]))
    assert [int(c) for c in p] == [int(c) for c in q]
    p[1], q[1] = 7, 7
    _same_poly(p, q)
    p[5], q[5] = 9, 9
    _same_poly(p, q)
    with pytest.raises(ValueError, match="negative powers"):
        p[-1] = 1


@gpu
@pytest.mark.parametrize("m", [0, 1, 2, 4])
def test_poly1d_deriv_and_integ(m):
    p, q = cp.poly1d([3, -2, 5, 1]), np.poly1d([3, -2, 5, 1])
    _same_poly(p.deriv(m), q.deriv(m))
    _same_poly(p.integ(m), q.integ(m))
    _same_poly(p.integ(m, k=2.5), q.integ(m, k=2.5))


# ---------------------------------------------------------------------------------------------
# The functions
# ---------------------------------------------------------------------------------------------


_HALVES = np.array([-1.5, -1, -0.5, 0, 0.5, 1, 1.5])
# Points at which Horner's rule is exact in every dtype but float16 (so the order of rounding cannot matter).
_POINTS = {
    "bool": _HALVES != 0,
    "uint8": np.arange(7),
    "int32": np.arange(7) - 3,
    "float16": _HALVES,
    "float64": _HALVES,
    "complex64": _HALVES + 0.5j * _HALVES[::-1],
}


@gpu
@pytest.mark.parametrize("p_dtype", ["bool", "int8", "int64", "float32", "complex128"])
@pytest.mark.parametrize("x_dtype", list(_POINTS))
def test_polyval_dtypes(p_dtype, x_dtype):
    hp, dp = _pair(make_data(4, p_dtype, seed=1))
    hx, dx = _pair(_POINTS[x_dtype], x_dtype)
    want = np.polyval(hp, hx)
    half = want.dtype == np.float16
    assert_same(cp.polyval(dp, dx), want, rtol=1e-2 if half else None, atol=0.5 if half else 0.0)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.polyval(dp, hx)


@gpu
@pytest.mark.parametrize(
    "view",
    [lambda a: a, lambda a: a[::-2], lambda a: a.T, lambda a: a[:, 1::2], lambda a: a[0, 0], lambda a: a[:0]],
)
def test_polyval_layouts(view):
    hx, dx = _pair(make_data((4, 6), "float64", seed=4) / 8)
    hp, dp = _pair([0.5, -1.0, 2.0, 0.25])
    assert_same(cp.polyval(dp[::-1], view(dx)), np.asarray(np.polyval(hp[::-1], view(hx))))


@gpu
def test_polyval_scalars_lists_and_poly1d():
    assert_same(cp.polyval([1, 2, 3], 5), np.asarray(np.polyval([1, 2, 3], 5)))
    assert_same(cp.polyval([1, 2, 3], [1.5, 2]), np.polyval([1, 2, 3], [1.5, 2]))
    assert_same(cp.polyval(cp.poly1d([1, 2]), cp.arange(3)), np.polyval(np.poly1d([1, 2]), np.arange(3)))
    assert_same(cp.polyval([], cp.arange(3.0)), np.polyval([], np.arange(3.0)))
    _same_poly(cp.polyval([1, 0, 1], cp.poly1d([1, 2])), np.polyval([1, 0, 1], np.poly1d([1, 2])))
    with pytest.raises(TypeError, match="0-d"):
        cp.polyval(cp.asarray(2.0), 3)


@gpu
@pytest.mark.parametrize("dtype", SOME_DTYPES + ["uint64"])
@pytest.mark.parametrize("N", [None, 0, 1, 2, 5])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander(dtype, N, increasing):
    host, dev = _pair(
        make_data(9, dtype, seed=5)[::-2] / (8 if dtype in ("float16", "float32") else 1), dtype
    )
    assert_same(cp.vander(dev, N, increasing), np.vander(host, N, increasing))


@gpu
def test_vander_edges_and_errors():
    assert_same(cp.vander([1, 2, 3]), np.vander([1, 2, 3]))
    assert_same(cp.vander(cp.zeros(0)), np.vander(np.zeros(0)))
    assert_same(cp.vander(cp.zeros(0), 3), np.vander(np.zeros(0), 3))
    with pytest.raises(ValueError, match="one-dimensional"):
        cp.vander(cp.ones((2, 2)))
    with pytest.raises(ValueError, match="one-dimensional"):
        cp.vander(cp.asarray(2.0))
    with pytest.raises(ValueError, match="negative dimensions"):
        cp.vander(cp.ones(3), -1)


@gpu
@pytest.mark.parametrize("name", ["polyadd", "polysub", "polymul"])
@pytest.mark.parametrize(
    "d1,d2",
    [("int8", "int8"), ("int16", "uint8"), ("float32", "int64"), ("float64", "complex64"), ("bool", "bool")],
)
@pytest.mark.parametrize("n1,n2", [(3, 3), (2, 5), (5, 1)])
def test_add_sub_mul(name, d1, d2, n1, n2):
    if name == "polysub" and d1 == d2 == "bool":
        with pytest.raises(TypeError):
            cp.polysub(cp.ones(2, bool), cp.ones(2, bool))
        return
    h1, a1 = _pair(make_data(n1, d1, seed=n1))
    h2, a2 = _pair(make_data(n2, d2, seed=n2 + 7))
    fn, np_fn = getattr(cp, name), getattr(np, name)
    assert_same(fn(a1, a2), np_fn(h1, h2))
    assert_same(fn(a1[::-1], a2), np_fn(h1[::-1], h2))
    _same_poly(fn(cp.poly1d(a1), a2), np_fn(np.poly1d(h1), h2))
    _same_poly(fn(a1, cp.poly1d(a2)), np_fn(h1, np.poly1d(h2)))


@gpu
def test_add_sub_mul_scalars_and_lists():
    for name in ("polyadd", "polysub", "polymul"):
        fn, np_fn = getattr(cp, name), getattr(np, name)
        assert_same(fn([1, 2, 3], 4), np_fn([1, 2, 3], 4))
        assert_same(fn(2.5, [0, 0, 1, 2]), np_fn(2.5, [0, 0, 1, 2]))
        assert_same(fn(cp.asarray(3), cp.asarray([1j, 2])), np_fn(np.asarray(3), np.asarray([1j, 2])))


@gpu
@pytest.mark.parametrize(
    "u,v",
    [
        ([1, 2, 3], [1, 1]),
        ([1.0, -3, 0, 2], [2, 1]),
        ([1, 2], [1, 2, 3]),
        ([1 + 1j, 2, 3], [1j, 1]),
        ([4], [2]),
        ([0, 0, 1, 1], [1, 1]),
    ],
)
def test_polydiv(u, v):
    for got, want in zip(cp.polydiv(u, cp.asarray(v)), np.polydiv(u, v)):
        assert_same(got, want)
    for got, want in zip(cp.polydiv(cp.poly1d(u), v), np.polydiv(np.poly1d(u), v)):
        _same_poly(got, want)


@gpu
@pytest.mark.parametrize("dtype", SOME_DTYPES)
@pytest.mark.parametrize("m", [0, 1, 2, 6])
def test_polyder(dtype, m):
    host, dev = _pair(make_data(5, dtype, seed=6))
    assert_same(cp.polyder(dev, m), np.polyder(host, m))
    assert_same(cp.polyder(dev[::-1], m), np.polyder(host[::-1], m))


@gpu
@pytest.mark.parametrize("dtype", SOME_DTYPES)
@pytest.mark.parametrize(
    "m,k", [(0, None), (1, None), (2, None), (3, 1.5), (2, [1, 2]), (1, 2j), (2, [1.0, -1.0, 7.0])]
)
def test_polyint(dtype, m, k):
    host, dev = _pair(make_data(4, dtype, seed=7))
    want = np.polyint(host, m, k)
    assert_same(cp.polyint(dev, m, k), want)
    if k is not None:
        assert_same(cp.polyint(dev, m, cp.asarray(k)), want)


@gpu
def test_polyint_errors_and_empty():
    with pytest.raises(ValueError, match="k must be a scalar or a rank-1 array"):
        cp.polyint([1, 2, 3], 3, [1, 2])
    assert_same(cp.polyint(cp.zeros(0)), np.polyint(np.zeros(0)))
    _same_poly(cp.polyint(cp.poly1d([3, 2])), np.polyint(np.poly1d([3, 2])))
    _same_poly(cp.polyder(cp.poly1d([3, 2, 1])), np.polyder(np.poly1d([3, 2, 1])))


@gpu
@pytest.mark.parametrize(
    "zeros", [[1, 2, 3], [0.5, -2.0], [1 + 2j, 1 - 2j, 3], [1 + 2j, 3], [2j, -2j], [True, False], [], [7]]
)
@pytest.mark.parametrize("dtype", [None, "int16", "float32", "complex64"])
def test_poly_from_roots(zeros, dtype):
    if dtype is not None and np.iscomplexobj(zeros) and dtype[0] != "c":
        return
    host, dev = _pair(zeros, dtype if zeros else None)
    want = np.poly(host)
    got = cp.poly(dev)
    if not zeros:
        assert got == want == 1.0
    else:
        assert_same(got, want)
    if dtype is None and zeros:
        assert_same(cp.poly(zeros), want)
        assert_same(cp.poly(dev[::-1]), np.poly(host[::-1]))


@gpu
def test_poly_from_matrix_and_errors():
    host, dev = _pair([[1.0, 2.0], [3.0, 4.0]])
    assert_same(cp.poly(dev), np.poly(host))
    host, dev = _pair([[0.0, -1.0], [1.0, 0.0]])  # eigenvalues +-i: a real result
    assert_same(cp.poly(dev), np.poly(host), atol=1e-12)
    for bad in (cp.ones((2, 3)), cp.ones((0, 0)), cp.ones((2, 2, 2))):
        with pytest.raises(ValueError, match="1d or non-empty square 2d"):
            cp.poly(bad)


@gpu
@pytest.mark.parametrize(
    "p", [[1, -3, 2], [0, 0, 1, -6, 11, -6, 0, 0], [1, 0, 1], [2.5], [0, 0], [], [1j, 2, 0], [True, True]]
)
def test_roots(p):
    host, dev = _pair(p)
    assert_same(cp.roots(dev), np.roots(host))
    assert_same(cp.roots(p), np.roots(p))


@gpu
def test_zero_d_coefficients_are_refused_as_numpy():
    # NumPy's polyder takes len(p) even for m=0; its poly's dispatcher refuses what is not iterable.
    for xp in (np, cp):
        z = xp.asarray(5.0)
        for name, args in (("polyder", (z, 0)), ("polyder", (z,)), ("poly", (z,)), ("poly", (5.0,))):
            with pytest.raises(TypeError):
                getattr(xp, name)(*args)
    assert_same(cp.polyint(cp.asarray(5.0), 0), np.polyint(np.asarray(5.0), 0))


@gpu
def test_roots_errors():
    with pytest.raises(ValueError, match="rank-1"):
        cp.roots(cp.ones((2, 2)))


def _fit_data(n, x_dtype, y_shape=(), seed=0):
    rng = np.random.default_rng(seed)
    x = np.linspace(-2, 3, n).astype(x_dtype)
    y = (1.5 * x.astype(np.float64) ** 2 - 2 * x + 0.5)[(...,) + (None,) * len(y_shape)]
    y = y + 0.01 * rng.standard_normal((n,) + y_shape)
    return x, y


@gpu
@pytest.mark.parametrize("x_dtype", ["int64", "float16", "float32", "float64"])
@pytest.mark.parametrize("y_dtype", ["float32", "float64"])
@pytest.mark.parametrize("deg", [0, 2, 3])
def test_polyfit(x_dtype, y_dtype, deg):
    x, y = _fit_data(11, x_dtype)
    y = y.astype(y_dtype)
    want = np.polyfit(x, y, deg)
    got = cp.polyfit(cp.asarray(x), cp.asarray(y), deg)
    assert_same(got, want, rtol=1e-8, atol=1e-10)


@gpu
@pytest.mark.parametrize("y_shape", [(), (3,)])
@pytest.mark.parametrize("weighted", [False, True])
def test_polyfit_full_and_cov(y_shape, weighted):
    x, y = _fit_data(12, "float64", y_shape, seed=1)
    w = np.linspace(0.5, 2, 12) if weighted else None
    dw = None if w is None else cp.asarray(w)
    dx, dy = cp.asarray(x), cp.asarray(y)
    tol = {"rtol": 1e-8, "atol": 1e-12}
    c, resids, rank, s, rcond = cp.polyfit(dx, dy, 2, w=dw, full=True)
    ec, eresids, erank, es, ercond = np.polyfit(x, y, 2, w=w, full=True)
    assert_same(c, ec, **tol)
    assert_same(resids, eresids, **tol)
    assert_same(s, es, **tol)
    assert rank == erank and rcond == ercond
    for cov in (True, "unscaled"):
        c, v = cp.polyfit(dx, dy, 2, w=dw, cov=cov)
        ec, ev = np.polyfit(x, y, 2, w=w, cov=cov)
        assert_same(c, ec, **tol)
        assert_same(v, ev, **tol)


@gpu
def test_polyfit_lists_rcond_and_complex():
    x, y = [0, 1, 2, 3, 4], [1, 3, 2, 5, 4]
    assert_same(cp.polyfit(x, y, 1), np.polyfit(x, y, 1), rtol=1e-10)
    assert_same(cp.polyfit(x, y, 2, rcond=1e-3), np.polyfit(x, y, 2, rcond=1e-3), rtol=1e-10)
    yc = np.array(y) * (1 - 0.5j)
    assert_same(cp.polyfit(cp.asarray(x), cp.asarray(yc), 1), np.polyfit(x, yc, 1), rtol=1e-10)
    xs, ys = _fit_data(20, "float64", seed=2)
    assert_same(
        cp.polyfit(cp.asarray(xs)[::-2], cp.asarray(ys)[::-2], 2),
        np.polyfit(xs[::-2], ys[::-2], 2),
        rtol=1e-9,
    )


@gpu
def test_polyfit_rank_warning():
    x, y = cp.asarray([1.0, 1.0, 1.0]), cp.asarray([1.0, 2.0, 3.0])
    with pytest.warns(np.exceptions.RankWarning, match="poorly conditioned"):
        cp.polyfit(x, y, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cp.polyfit(x, y, 2, full=True)


@gpu
def test_polyfit_errors():
    x, y = cp.arange(4.0), cp.arange(4.0)
    cases = [
        ((x, y, -1), ValueError, "deg >= 0"),
        ((cp.ones((2, 2)), y, 1), TypeError, "1D vector for x"),
        ((cp.ones(0), cp.ones(0), 1), TypeError, "non-empty"),
        ((x, cp.ones((4, 1, 1)), 1), TypeError, "1D or 2D array for y"),
        ((x, cp.ones(3), 1), TypeError, "same length"),
    ]
    for args, exc, message in cases:
        with pytest.raises(exc, match=message):
            cp.polyfit(*args)
    with pytest.raises(TypeError, match="1-d array for weights"):
        cp.polyfit(x, y, 1, w=cp.ones((4, 1)))
    with pytest.raises(TypeError, match="w and y to have the same length"):
        cp.polyfit(x, y, 1, w=cp.ones(3))
    with pytest.raises(ValueError, match="must exceed order"):
        cp.polyfit(x, y, 3, cov=True)
    with pytest.raises(TypeError, match="unsupported in linalg"):
        cp.polyfit(x, y.astype(cp.float16), 1)
