"""cuarray.scipy.special against SciPy on the same inputs: every ufunc on every real dtype, SciPy's special
values (NaN, infinities, domain edges), layouts (0-d, empty, non-contiguous, negative strides, broadcasting),
Python numbers, out=/dtype=, fusion, and softmax, log_softmax and logsumexp."""

import cuarray as cp
import cuarray.scipy.special as csp
import numpy as np
import pytest
import scipy.special
from conftest import make_data
from cuarray import testing

pytestmark = pytest.mark.gpu

REAL = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16", "float32", "float64"]
UNARY = [n for n in csp.__all__ if isinstance(getattr(csp, n), cp.ufunc) and getattr(csp, n).nin == 1]
BINARY = [n for n in csp.__all__ if isinstance(getattr(csp, n), cp.ufunc) and getattr(csp, n).nin == 2]
# float32 results are double results rounded once; SciPy computes some float32 loops in float32 itself.
RTOL = {np.float32: 1e-5, np.float64: 1e-11, "default": 1e-11}
ATOL = {np.float32: 1e-6, np.float64: 1e-13, "default": 1e-13}
# Where a function's domain is narrow, the data are moved into it (and some values stay outside: NaN both).
DOMAIN = {
    "erfinv": lambda a: a / 31,
    "erfcinv": lambda a: a / 31 + 1,
    "ndtri": lambda a: a / 61 + 0.5,
    "logit": lambda a: a / 61 + 0.5,
}
EDGES = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0, 0.5, -0.5, 0.3, 0.65, 1e-300, 1e300, -1e300]
EDGES += [700.0, -700.0, 40.0, -40.0, 171.5, -171.5, -2.5, 1e-5, 1.5, 3.0]


def _data(name, shape, dtype, seed=0):
    a = make_data(shape, dtype, seed)
    f = DOMAIN.get(name)
    return f(a) if f is not None and a.dtype.kind == "f" else a


def test_the_module_lists_its_ufuncs_and_functions():
    assert {"erf", "gammaln", "expit", "xlogy", "softmax", "logsumexp"} <= set(csp.__all__)
    assert csp.erf.__name__ == "erf" and csp.erf.nin == 1 and csp.xlogy.nin == 2
    assert csp.erf.types == ["f->f", "d->d"] and csp.logit.types == ["d->d", "f->f"]
    functions = {"softmax", "log_softmax", "logsumexp", "zeta", "polygamma"}
    assert set(UNARY) | set(BINARY) | functions == set(csp.__all__)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", REAL)
@testing.numpy_cuarray_allclose(rtol=RTOL, atol=ATOL, scipy_name="scp")
def test_unary_on_every_real_dtype(xp, scp, name, dtype):
    return getattr(scp.special, name)(xp.asarray(_data(name, (4, 9), dtype)))


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize(
    "dtypes",
    [
        ("float64", "float64"),
        ("float32", "float32"),
        ("float32", "int8"),
        ("int32", "float16"),
        ("bool", "uint8"),
        ("float16", "float16"),
    ],
)
@testing.numpy_cuarray_allclose(rtol=RTOL, atol=ATOL, scipy_name="scp")
def test_binary_on_mixed_dtypes_and_broadcasting(xp, scp, name, dtypes):
    x = np.abs(make_data((3, 1, 5), dtypes[0], 1))
    y = make_data((4, 5), dtypes[1], 2)
    return getattr(scp.special, name)(xp.asarray(x), xp.asarray(y))


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@testing.numpy_cuarray_allclose(rtol=RTOL, atol=ATOL, scipy_name="scp")
def test_unary_special_values(xp, scp, name, dtype):
    with np.errstate(all="ignore"):
        a = np.array(EDGES, dtype=dtype)
    return getattr(scp.special, name)(xp.asarray(a))


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@testing.numpy_cuarray_allclose(rtol=RTOL, atol=ATOL, scipy_name="scp")
def test_binary_special_values(xp, scp, name, dtype):
    with np.errstate(all="ignore"):
        e = np.array(EDGES[:12], dtype=dtype)
    x, y = np.meshgrid(e, e)  # every pair
    return getattr(scp.special, name)(xp.asarray(x), xp.asarray(y))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_signs_of_zero_are_scipys(dtype):
    # allclose ignores the sign of a zero: compare the signs where SciPy's result is zero.
    with np.errstate(all="ignore"):
        a = np.array(EDGES + [-0.0, 0.0], dtype=dtype)
        pairs = np.meshgrid(a[:12], a[:12])
    for name in UNARY + BINARY:
        args = [a] if name in UNARY else pairs
        with np.errstate(all="ignore"):
            want = getattr(scipy.special, name)(*args)
        got = cp.asnumpy(getattr(csp, name)(*map(cp.asarray, args)))
        zero = want == 0
        np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]), err_msg=name)


def test_special_values_differ_from_cudas_own():
    # Where CUDA's functions give limits and SciPy's give NaN or -inf: a test that a plain libdevice call fails.
    x = cp.asarray([np.inf, -np.inf])
    for name in ("i0", "i1", "j0", "j1", "y0", "y1"):
        assert np.isnan(cp.asnumpy(getattr(csp, name)(x))).all(), name
    assert cp.asnumpy(csp.gammaln(cp.asarray([-np.inf])))[0] == -np.inf
    assert not np.signbit(cp.asnumpy(csp.erfinv(cp.asarray([-0.0]))))[0]


@pytest.mark.parametrize("name", ["erf", "gammaln", "erfinv", "xlogy"])
@pytest.mark.parametrize(
    "shape, view",
    [((), None), ((0,), None), ((0, 3), None), ((1, 7), None), ((6, 8), np.s_[::2, ::-3]), ((5, 4), "T")],
)
@testing.numpy_cuarray_allclose(rtol=RTOL, atol=ATOL, scipy_name="scp")
def test_layouts(xp, scp, name, shape, view):
    a = xp.asarray(_data(name, shape, "float32"))
    if view == "T":
        a = a.T
    elif view is not None:
        a = a[view]
    f = getattr(scp.special, name)
    return f(a, a[..., ::-1] if a.ndim else a) if f.nin == 2 else f(a)


@pytest.mark.parametrize(
    "args",
    [
        ("f", 2.0),
        ("f", 2),
        ("b", 2),
        ("b", 2.0),
        ("e", 1),
        ("i", 1.5),
        ("f", np.float64(2)),
        ("f", np.float32(2)),
    ],
)
@pytest.mark.parametrize("name", ["xlogy", "rel_entr"])
@testing.numpy_cuarray_allclose(rtol=RTOL, atol=ATOL, scipy_name="scp")
def test_python_numbers_take_scipys_loop(xp, scp, name, args):
    # Both list ff first (SciPy 1.18): a float32 array with a Python number stays float32, an int8 array with a
    # Python float takes ff too (a weak float), and a float32 array with a float64 scalar takes dd.
    dtype, number = args
    return getattr(scp.special, name)(xp.asarray(np.abs(make_data(6, dtype, 3))), number)


@pytest.mark.parametrize("dtype", [None, "float32", "float64"])
@testing.numpy_cuarray_allclose(rtol=RTOL, atol=ATOL, scipy_name="scp")
def test_dtype_argument(xp, scp, dtype):
    return scp.special.erf(xp.asarray(make_data(7, "float64") / 8), dtype=dtype)


def test_out_is_written_and_returned_and_shares_no_memory():
    a = make_data((3, 4), "float64") / 8
    d = cp.asarray(a)
    out = cp.empty((3, 4), dtype=np.float32)
    r = csp.expit(d, out=out)
    assert r is out
    np.testing.assert_allclose(cp.asnumpy(out), scipy.special.expit(a).astype(np.float32), rtol=1e-6)
    fresh = csp.expit(d)
    assert not cp.shares_memory(fresh, d) and fresh.dtype == np.float64
    with pytest.raises(TypeError, match="Cannot cast ufunc 'expit' output"):
        csp.expit(d, out=cp.empty((3, 4), dtype=np.int32))


@pytest.mark.parametrize("name", ["erf", "gamma", "xlogy", "erfinv"])
def test_complex_inputs_raise_typeerror(name):
    # SciPy computes some of these on complex numbers; cuarray, as CuPy, has real loops only.
    f = getattr(csp, name)
    z = cp.asarray([0.5 + 0.5j])
    with pytest.raises(TypeError, match=f"ufunc '{name}' not supported for the input types"):
        f(*[z] * f.nin)


@testing.numpy_cuarray_raises(scipy_name="scp", accept_error=TypeError)
def test_casting_no_refuses_a_cast_as_scipy(xp, scp):
    return scp.special.erf(xp.asarray(np.arange(3, dtype=np.int32)), casting="no")


def test_fuse_matches_eager():
    x = cp.asarray(make_data((5, 6), "float32") / 8)

    def f(v):
        return csp.erf(v) * csp.expit(v) + csp.xlogy(v, v * v + 1.0)

    eager = f(x)
    fused = cp.fuse(f)(x)
    assert fused.dtype == eager.dtype == np.float32
    # fuse's kernel may contract a multiply and an add into one FMA, as CuPy's does: within rounding.
    np.testing.assert_allclose(cp.asnumpy(fused), cp.asnumpy(eager), rtol=1e-6)
    np.testing.assert_array_equal(cp.asnumpy(cp.fuse(csp.erf)(x)), cp.asnumpy(csp.erf(x)))


# ---------------------------------------------------------------- softmax, log_softmax, logsumexp

SOFT_DATA = [
    ("float64", (4, 5)),
    ("float32", (3, 1, 6)),
    ("float16", (2, 7)),
    ("int32", (3, 4)),
    ("bool", (2, 3)),
    ("float64", ()),
    ("float64", (1, 4)),
]


def _soft(dtype, shape, specials, axis):
    """Data for the softmax family, and `axis` made one SciPy takes for its shape."""
    if axis is not None and len(shape) < 2:
        axis = None if len(shape) == 0 else 0
    a = make_data(shape, dtype, 4)
    if dtype == "float16":
        a = a / 8
    if specials and a.ndim == 2 and a.size and a.dtype.kind == "f":
        a = a.copy()
        a[0, 0] = np.inf
        a[-1, -1] = -np.inf
        if a.shape[0] > 2:
            a[1, :] = -np.inf
    return a, axis


@pytest.mark.parametrize("func", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype, shape", [d for d in SOFT_DATA if d[0] != "bool"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, -1)])
@pytest.mark.parametrize("specials", [False, True])
@testing.numpy_cuarray_allclose(rtol={np.float16: 2e-3, "default": 1e-6}, atol=1e-6, scipy_name="scp")
def test_softmax_and_log_softmax(xp, scp, func, dtype, shape, axis, specials):
    a, axis = _soft(dtype, shape, specials, axis)
    with np.errstate(all="ignore"):
        return getattr(scp.special, func)(xp.asarray(a), axis=axis)


@pytest.mark.parametrize("dtype, shape", SOFT_DATA + [("float64", (0,)), ("float32", (3, 0))])
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("specials", [False, True])
@testing.numpy_cuarray_allclose(rtol={np.float16: 2e-3, "default": 1e-6}, atol=1e-6, scipy_name="scp")
def test_logsumexp(xp, scp, dtype, shape, axis, keepdims, specials):
    a, axis = _soft(dtype, shape, specials, axis)
    if a.size == 0 and a.ndim > 1 and axis is None:
        axis = -1  # SciPy's IndexError (test_logsumexp_of_empty_over_several_axes)
    with np.errstate(all="ignore"):
        return scp.special.logsumexp(xp.asarray(a), axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("b_kind", ["positive", "mixed", "zeros_hide_inf", "broadcast", "scalar"])
@pytest.mark.parametrize("return_sign", [False, True])
@pytest.mark.parametrize("axis", [None, 1])
@testing.numpy_cuarray_allclose(rtol=1e-6, atol=1e-6, scipy_name="scp")
def test_logsumexp_weights_and_signs(xp, scp, b_kind, return_sign, axis):
    a = make_data((3, 5), "float64", 5) / 4
    b = {
        "positive": np.abs(make_data((3, 5), "float64", 6)),
        "mixed": make_data((3, 5), "float64", 7),
        "zeros_hide_inf": np.where(np.arange(15).reshape(3, 5) % 4 == 0, 0.0, 1.0),
        "broadcast": make_data((5,), "float32", 8),
        "scalar": 2.0,
    }[b_kind]
    if b_kind == "zeros_hide_inf":
        a = a.copy()
        a[0, 0] = np.inf
        a[2, 4] = np.nan
    bx = xp.asarray(b) if isinstance(b, np.ndarray) else b
    with np.errstate(all="ignore"):
        return scp.special.logsumexp(xp.asarray(a), axis=axis, b=bx, return_sign=return_sign)


@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp_of_empty_over_several_axes(keepdims):
    # SciPy 1.18 raises IndexError here (its empty-input shape arithmetic indexes a 1-d array with a tuple);
    # cuarray gives the empty sum's logarithm, -inf, as SciPy does over one axis.
    r = csp.logsumexp(cp.zeros((3, 0), dtype=np.float32), keepdims=keepdims)
    assert r.dtype == np.float32 and r.shape == ((1, 1) if keepdims else ())
    assert cp.asnumpy(r).ravel()[0] == -np.inf


@pytest.mark.parametrize(
    "a_kind, b_kind", [("f32", 2.0), (2.0, "f32"), (1, "f16"), ("i8", 2.0), ("f16", 3), (True, "f32")]
)
@testing.numpy_cuarray_allclose(rtol=1e-3, scipy_name="scp")
def test_logsumexp_python_numbers_are_weak(xp, scp, a_kind, b_kind):
    arrays = {"f32": np.float32, "f16": np.float16, "i8": np.int8}

    def arg(k):
        return xp.asarray(np.arange(1, 4, dtype=arrays[k])) if isinstance(k, str) else k

    return scp.special.logsumexp(arg(a_kind), b=arg(b_kind))


def test_logsumexp_of_complex_is_not_supported():
    with pytest.raises(NotImplementedError, match="real inputs"):
        csp.logsumexp(cp.asarray([1j]))


@pytest.mark.parametrize("func", ["softmax", "log_softmax", "logsumexp"])
def test_composites_take_device_arrays(func):
    # Also SciPy's TypeError for bool input to softmax (x - max on bools).
    if func != "logsumexp":
        with pytest.raises(TypeError, match="boolean subtract"):
            getattr(csp, func)(cp.asarray([True, False]))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        getattr(csp, func)(np.ones(3))
    r = getattr(csp, func)(cp.ones(3))
    assert isinstance(r, cp.ndarray)


@pytest.mark.parametrize(
    "points",
    [
        np.linspace(-12.25, 12.25, 4001),  # both signs; the grid avoids the poles
        1.4616321449683622
        + np.linspace(-0.5, 0.5, 401),  # about the positive root (its series and around it)
        -0.5040830082644554 + np.linspace(-0.3, 0.3, 401),  # about the first negative root
        np.geomspace(1e-300, 1e300, 301),
        -np.geomspace(1e-12, 1e6, 301) - 0.25,
        np.array(
            [3e307, np.finfo(np.float64).max, 1e-310, 5e-324, 1e-18, 1e-17, 2e-17]
        ),  # overflow, subnormals
    ],
    ids=["grid", "positive-root", "negative-root", "magnitudes", "negative-magnitudes", "extremes"],
)
@pytest.mark.parametrize("name", ["psi", "rgamma", "gammasgn", "i0e", "i1e"])
@testing.numpy_cuarray_allclose(rtol=1e-11, atol=1e-12, scipy_name="scp")
def test_gamma_and_scaled_bessel_family_over_their_domains(xp, scp, name, points):
    x = points if name != "i1e" else np.concatenate([points, -points, [500.0, 500.5, 1e4, -1e4]])
    return getattr(scp.special, name)(xp.asarray(x))


# ---------------------------------------------------------------- zeta, polygamma, beta, incomplete gamma, K
# Host emulations of these device functions were compared with SciPy and mpmath on 1e5 points a range
# (Notes [Bessel K], [Zeta], [Beta], [Incomplete gamma] in kernels/special.cuh): where SciPy is itself within
# a few ulps, rtol 1e-13 leaves room for CUDA's libdevice functions (a few ulps each). Wider tolerances below
# are SciPy's own error, measured against mpmath.

_TINY = np.array([1e-310, 5e-324, 1e-300, 1e-20, 1e-8, 2.2e-16])
_POS = np.concatenate([np.geomspace(1e-300, 1e300, 241), np.linspace(0.05, 60, 240), _TINY])


@pytest.mark.parametrize("name", ["k0", "k1", "k0e", "k1e"])
@pytest.mark.parametrize(
    "points",
    [_POS, np.linspace(0.9, 1.1, 201), np.array([700.0, 705.0, 745.0, 746.0, 1e4, np.finfo(np.float64).max])],
    ids=["magnitudes", "series-to-integral", "underflow"],
)
@testing.numpy_cuarray_allclose(rtol=1e-13, atol=1e-320, scipy_name="scp")  # atol: subnormal results
def test_bessel_k_over_its_domain(xp, scp, name, points):
    x = np.concatenate([points, -points[:5], [0.0, -0.0, np.inf, -np.inf, np.nan]])
    return getattr(scp.special, name)(xp.asarray(x))


# SciPy's reflection for negative x loses about |x| ulps (204 at x = -250 against mpmath; cuarray's is within
# a few), and more near the trivial zeros, where its relative error grows as 1/distance (36000 ulps at
# -10.00003): rtol 1e-12, off the zeros by 0.05.
def _off_trivial_zeros(x):
    return x[np.abs(x / 2 - np.round(x / 2)) > 0.025]


@pytest.mark.parametrize(
    "points, rtol",
    [
        (1 + np.geomspace(1e-15, 1e3, 200), 1e-13),
        (np.linspace(0, 1, 201)[:-1], 1e-13),
        (-np.geomspace(1e-300, 1, 201), 1e-13),
        (np.array([-1.0, -2, -3, -4, -5, -20, -21, -1e300, -(2.0**53) - 2, 1e300, 1e-300]), 1e-13),
        (_off_trivial_zeros(-np.linspace(1.01, 30.3, 300)), 1e-12),
        (_off_trivial_zeros(-np.linspace(30.3, 262.7, 300)), 1e-12),
    ],
    ids=["above-the-pole", "below-the-pole", "near-zero", "integers", "negative", "very-negative"],
)
@pytest.mark.parametrize("name", ["zeta", "zetac"])
def test_riemann_zeta_and_zetac(name, points, rtol):
    with np.errstate(all="ignore"):
        want = getattr(scipy.special, name)(points)
    got = cp.asnumpy(getattr(csp, name)(cp.asarray(points)))
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0, err_msg=name)
    np.testing.assert_array_equal(np.signbit(got[want == 0]), np.signbit(want[want == 0]))


@pytest.mark.parametrize(
    "x, q",
    [
        (1 + np.geomspace(1e-10, 60, 40)[:, None], np.geomspace(1e-3, 1e12, 50)),
        (np.array([2.0, 3, 4, 5, 8])[:, None], -np.linspace(0.05, 20.05, 41)),  # integer x, negative q
        (np.array(EDGES[:12] + [1.5, 30.0])[:, None], np.array(EDGES[:12] + [-3.0, 1e8, 2e8, 1e300])),
    ],
    ids=["positive-q", "negative-q", "edges"],
)
@testing.numpy_cuarray_allclose(rtol=1e-12, atol=0, scipy_name="scp")
def test_hurwitz_zeta(xp, scp, x, q):
    # rtol 1e-12 for the sums with negative q, which cancel near q's poles in both.
    with np.errstate(all="ignore"):
        return scp.special.zeta(xp.asarray(x), xp.asarray(q))


@pytest.mark.parametrize("dtype", REAL)
@testing.numpy_cuarray_allclose(rtol=RTOL, atol=ATOL, scipy_name="scp")
def test_zeta_on_every_real_dtype(xp, scp, dtype):
    a = np.abs(make_data((4, 9), dtype)) + (dtype != "bool")
    return scp.special.zeta(xp.asarray(a)), scp.special.zeta(xp.asarray(a), xp.asarray(a[0]))


@pytest.mark.parametrize(
    "n, x",
    [
        (np.arange(6)[:, None], np.concatenate([np.geomspace(1e-3, 1e4, 60), -np.linspace(0.1, 9.9, 40)])),
        (np.array([0.0, 1.0, 2.5, -1.0, np.nan]), np.array([0.5, 2.0, 3.0, 4.0, 5.0])),  # non-integer n: NaN
        (np.array(3), np.array(1.5)),  # 0-d, as SciPy's array(...)
        (np.arange(3, dtype=np.int32)[:, None], np.array(EDGES[:12], dtype=np.float32)),
        (np.array([1, 2], dtype=np.float32), np.array([0.5, 7.0], dtype=np.float32)),  # float32 throughout
        (np.zeros((0, 3), dtype=np.int64), np.ones(3)),
    ],
    ids=["orders", "non-integer-n", "0-d", "int32-float32", "float32", "empty"],
)
@testing.numpy_cuarray_allclose(rtol={np.float32: 1e-5, "default": 1e-12}, atol=0, scipy_name="scp")
def test_polygamma(xp, scp, n, x):
    # rtol 1e-12: for negative x both sum zeta(n + 1, x)'s terms directly, which cancel near the poles.
    with np.errstate(all="ignore"):
        return scp.special.polygamma(xp.asarray(n), xp.asarray(x))


def test_zeta_and_polygamma_take_python_numbers_and_out():
    r = csp.polygamma(1, 2.0)
    assert isinstance(r, cp.ndarray) and r.shape == () and r.dtype == np.float64
    np.testing.assert_allclose(cp.asnumpy(r), scipy.special.polygamma(1, 2.0), rtol=1e-14)
    np.testing.assert_allclose(cp.asnumpy(csp.zeta(2.0)), np.pi**2 / 6, rtol=1e-15)
    out = cp.empty(3, dtype=np.float64)
    assert csp.zeta(cp.asarray([2.0, 3.0, 4.0]), 1.0, out=out) is out
    np.testing.assert_allclose(cp.asnumpy(out), scipy.special.zeta([2.0, 3.0, 4.0], 1.0), rtol=1e-14)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        csp.polygamma(np.ones(2), cp.ones(2))


@pytest.mark.parametrize(
    "n, x",
    [
        (np.int64(1), 2.0),
        (1, np.float64(2.0)),
        (np.float32(1), np.float32(2.0)),  # float32 throughout, as SciPy's asarray keeps it
        (np.int8(2), np.float16(0.5)),
        (np.int64(0), np.float64(3.0)),
        (np.uint8(3), 2),
        (True, np.float32(1.5)),
    ],
    ids=repr,
)
def test_polygamma_takes_numpy_scalars(n, x):
    # SciPy's polygamma takes any array_like: NumPy scalars are 0-d arrays of their own dtype there.
    want = scipy.special.polygamma(n, x)
    got = csp.polygamma(n, x)
    assert isinstance(got, cp.ndarray) and got.shape == () and got.dtype == want.dtype
    np.testing.assert_allclose(cp.asnumpy(got), want, rtol=1e-6 if want.dtype == np.float32 else 1e-14)
    xs = np.array([x, x])  # a NumPy scalar n beside a device array
    np.testing.assert_allclose(
        cp.asnumpy(csp.polygamma(n, cp.asarray(xs))), scipy.special.polygamma(n, xs), rtol=1e-6
    )


def test_softmax_and_logsumexp_take_numpy_scalars():
    x = np.float32(3.0)
    for name in ("softmax", "log_softmax", "logsumexp"):
        want, got = getattr(scipy.special, name)(x), getattr(csp, name)(x)
        assert got.shape == () and got.dtype == want.dtype, name
        np.testing.assert_allclose(cp.asnumpy(got), want, rtol=1e-6, err_msg=name)
    want, got = scipy.special.logsumexp(x, b=np.float64(2.0)), csp.logsumexp(x, b=np.float64(2.0))
    assert got.dtype == want.dtype == np.float64
    np.testing.assert_allclose(cp.asnumpy(got), want, rtol=1e-15)


_AB = np.geomspace(1e-3, 150.0, 60)


@pytest.mark.parametrize(
    "a, b, rtol",
    [
        (_AB[:, None], _AB, 5e-13),  # Gamma(a) Gamma(b) / Gamma(a + b), both (2e-13 apart at 1e-54)
        (
            -np.linspace(0.05, 60.05, 61)[:, None],
            np.linspace(0.3, 0.3 + 2.17 * 40, 41),  # a + b at least 0.07 from the poles
            1e-12,
        ),  # negative a: one sign change
        (np.geomspace(150.0, 1e5, 40)[:, None], np.geomspace(1e-3, 1e5, 50), 1e-8),
        (
            np.array([1e7, 3e9, 1e300])[:, None],
            np.array([-0.5, 1e-300, 2.5, -7.5, 0.25]),
            1e-12,
        ),  # asymptotic
        (np.array(EDGES[:12] + [-3.0, -1e10])[:, None], np.array(EDGES[:12] + [-3.0, -1e10]), 1e-12),
    ],
    ids=["positive", "negative", "large", "asymptotic", "edges"],
)
@pytest.mark.parametrize("name", ["beta", "betaln"])
def test_beta_and_betaln(name, a, b, rtol):
    # Past a + b = 171.6 SciPy subtracts log-gammas: its error grows as |log Gamma| ulps (2e-10 at 1e5, where
    # cuarray's Stirling form is within 500 ulps of mpmath): rtol 1e-8 there (test_beta_of_one_is_exact).
    with np.errstate(all="ignore"):
        want = getattr(scipy.special, name)(a, b)
    got = cp.asnumpy(getattr(csp, name)(cp.asarray(a), cp.asarray(b)))
    # betaln near 0 (beta near 1) takes SciPy's absolute error, not a relative one.
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol if name == "betaln" else 0, err_msg=name)
    np.testing.assert_array_equal(np.signbit(got[want == 0]), np.signbit(want[want == 0]))


def test_beta_of_one_is_exact():
    # beta(1, b) = 1/b and betaln(1, b) = -log(b): where SciPy's log-gamma difference is 1.4e-13 off at b = 200.5.
    b = np.geomspace(200.0, 1e12, 50)
    np.testing.assert_allclose(cp.asnumpy(csp.beta(1.0, cp.asarray(b))), 1 / b, rtol=1e-14)
    np.testing.assert_allclose(cp.asnumpy(csp.betaln(1.0, cp.asarray(b))), -np.log(b), rtol=1e-14)


_A = np.geomspace(1e-3, 20.0, 40)
_LARGE_A = np.geomspace(20.0, 1e7, 30)


@pytest.mark.parametrize(
    "a, x, rtol",
    [
        (_A[:, None], np.geomspace(1e-3, 60.0, 50), 1e-12),
        (
            _LARGE_A[:, None],
            _LARGE_A[:, None] * (1 + np.linspace(-3, 3, 25) / np.sqrt(_LARGE_A[:, None])),
            1e-12,
        ),
        (_LARGE_A[:19, None], _LARGE_A[:19, None] * np.geomspace(0.05, 20, 25), 1e-9),  # a up to 1e5
        (np.array(EDGES[:12] + [1e-300, 1e300])[:, None], np.array(EDGES[:12] + [1e-300, 1e300]), 1e-13),
    ],
    ids=["small-a", "large-a-near-diagonal", "large-a-tails", "edges"],
)
@pytest.mark.parametrize("name", ["gammainc", "gammaincc"])
def test_incomplete_gamma(name, a, x, rtol):
    # SciPy's prefactor exp(a log x - x - lgamma(a)) carries the rounding of its exponent (7000 ulps in the far
    # tails of a = 1e4, where cuarray's Stirling form is within 800 of mpmath): rtol 1e-9 there. Near the
    # diagonal both use Temme's expansion (SciPy within 260 ulps of mpmath, cuarray 11).
    with np.errstate(all="ignore"):
        want = getattr(scipy.special, name)(a, x)
    got = cp.asnumpy(getattr(csp, name)(cp.asarray(a), cp.asarray(x)))
    np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-300, err_msg=name)


def test_incomplete_gammas_add_to_one():
    a = cp.asarray(np.geomspace(1e-3, 1e6, 40)[:, None])
    x = a * cp.asarray(np.geomspace(0.1, 10, 30))
    total = cp.asnumpy(csp.gammainc(a, x) + csp.gammaincc(a, x))
    np.testing.assert_allclose(total, 1.0, rtol=0, atol=8e-16)  # four ulps of 1


def test_incomplete_gamma_of_a_subnormal_a_is_never_minus_zero():
    # Q(a, x) ~ a E1(x) underflows for a of a few 1e-324: SciPy gives +0, and cuarray's terms cancelled to -0
    # there (Note [Incomplete gamma]). SciPy's own Q for a = 1e-320 past x = 0.6 is negative (-6e-321): hence
    # the absolute tolerance.
    a = np.array([5e-324, 1e-323, 1.5e-323, 1e-320, 1e-310])[:, None]
    x = np.array([0.0, 1e-300, 0.3, 0.5, 0.5615, 0.625, 0.8, 1.0, 1.09])
    for name in ("gammainc", "gammaincc"):
        got = cp.asnumpy(getattr(csp, name)(cp.asarray(a), cp.asarray(x)))
        assert not np.signbit(got).any(), (name, got)
    got = cp.asnumpy(csp.gammaincc(cp.asarray(a), cp.asarray(x)))
    np.testing.assert_allclose(got, scipy.special.gammaincc(a, x), rtol=0, atol=1e-300)
    assert got[0, 3] == 0.0 and not np.signbit(csp.gammaincc(5e-324, 0.5).get())  # the probe's case


def test_incomplete_gamma_of_a_tiny_a():
    # As a -> 0, P(a, x) -> 1 and Q(a, x) = a E1(x) to a relative a log(x)^2 (mpmath's gammainc agrees to 30
    # digits). Gamma(a) overflows below a = 5.6e-309, where P was 0 (SciPy's is 0 for x <= 1) and Q past x = 1.1
    # was 0 (Note [Incomplete gamma]). E1 from mpmath; the atol is three ulps of a subnormal Q.
    a = np.array([5e-324, 1e-320, 1e-310, 5e-309, 1e-305, 9e-301])[:, None]
    x = np.array([5e-324, 1e-300, 0.5, 1.0, 2.0, 30.0])
    e1 = np.array([743.8628562564797, 690.1983122333122, 0.5597735947761608, 0.21938393439552029])
    e1 = np.append(e1, [0.04890051070806112, 3.0215520106888124e-15])
    p = cp.asnumpy(csp.gammainc(cp.asarray(a), cp.asarray(x)))
    q = cp.asnumpy(csp.gammaincc(cp.asarray(a), cp.asarray(x)))
    np.testing.assert_array_equal(p, np.ones((6, 6)))
    np.testing.assert_allclose(q, a * e1, rtol=1e-14, atol=1.5e-323)
    assert not np.signbit(q).any()


@pytest.mark.parametrize("name", ["gammainc", "beta", "k0e", "zetac"])
@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (2, 1, 3)])
@testing.numpy_cuarray_allclose(rtol=RTOL, atol=ATOL, scipy_name="scp")
def test_new_functions_on_0d_empty_and_broadcast_inputs(xp, scp, name, shape):
    f = getattr(scp.special, name)
    a = xp.asarray(np.abs(make_data(shape, "float64", 3)) + 0.5)
    return (
        f(a, xp.asarray(np.float32([1.5, 2.5, 4.0]))[: a.shape[-1] if a.ndim else 1]) if f.nin == 2 else f(a)
    )


# ---- from a review of the device formulas against SciPy and mpmath (host emulation) ----


def test_gammainc_of_very_large_a_just_off_the_diagonal():
    # Past a = 50625 the series below the diagonal needs more than its 4000 terms where |x - a| / a < 0.02:
    # Temme's expansion serves there (mpmath's values, 30 digits).
    a = np.array([1e8, 1e10])
    x = np.array([1e8 - 4.6e4, 1e10 - 4.6e5])
    want = np.array([2.1056486712389221e-6, 2.1117733235028108e-6])
    np.testing.assert_allclose(cp.asnumpy(csp.gammainc(cp.asarray(a), cp.asarray(x))), want, rtol=1e-10)
    np.testing.assert_allclose(cp.asnumpy(csp.gammaincc(cp.asarray(a), cp.asarray(x))), 1 - want, rtol=1e-15)


def test_beta_at_poles_of_a_plus_b_past_the_gamma_range_is_a_signed_zero():
    a = np.array([0.5, -100.5, -2.5, 1.5, -0.5])
    b = np.array([-200.5, -100.5, -171.5, -300.5, -199.5])
    want = scipy.special.beta(a, b)
    got = cp.asnumpy(csp.beta(cp.asarray(a), cp.asarray(b)))
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    np.testing.assert_array_equal(cp.asnumpy(csp.betaln(cp.asarray(a), cp.asarray(b))), np.full(5, -np.inf))


def test_zeta_of_negative_subnormals():
    x = np.array([-5e-324, -1e-323, -1e-315, -4e-309, -1e-300, -1e-4])
    np.testing.assert_allclose(cp.asnumpy(csp.zeta(cp.asarray(x))), scipy.special.zeta(x), rtol=1e-15)
    np.testing.assert_allclose(cp.asnumpy(csp.zetac(cp.asarray(x))), scipy.special.zetac(x), rtol=1e-15)


def test_hurwitz_zeta_far_below_zero_is_not_computed():
    # one thread would sum 2^24 terms and more: NaN (docs/numerical-differences.md)
    got = cp.asnumpy(csp.zeta(cp.asarray([2.0, 3.0]), cp.asarray([-1e12 + 0.5, -(2.0**25) + 0.25])))
    assert np.isnan(got).all()
