"""cuarray.scipy.signal's B-spline and symmetric IIR functions on the device against scipy.signal on the same
inputs: symiirorder1 and sepfir2d (SciPy's values bit for bit: Note [Symmetric IIR filters as SciPy computes
them] in _symiir.py, Note [Mirror-symmetric FIR as SciPy sums it] in _bsplines.py), symiirorder2, cspline1d,
qspline1d, their evaluation, cspline2d, qspline2d, spline_filter and gauss_spline (to rounding); CuPy's test
cases (tests/cupyx_tests/scipy_tests/signal_tests/test_bsplines.py and test_splines.py), dtypes, 1-D and 2-D
signals, edge sizes, layouts, and the errors that need the device to reach. The host parts are tested without a
device in test_bsplines_nogpu.py."""

import itertools
import math
import warnings
from functools import partial

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from signal_asserts import EXACT, assert_device

pytestmark = pytest.mark.gpu

# By result dtype: the splines' starting sums add SciPy's terms in another order (and symiirorder2's start rounds
# its states in two steps, where SciPy's BLAS may fuse them); the B-spline basis is evaluated in closed form;
# exp is the device's.
TOL = {"f": 1e-5, "F": 1e-5, "e": 2e-3, "default": 1e-12}
assert_close = partial(assert_device, default_tol=TOL, contiguous=True)


def data(shape, dtype, seed=0):
    """Random values of unit size in `dtype` (small integers for integer types)."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind in "biu":
        return (rng.integers(0, 7, shape) if dtype.kind != "b" else rng.random(shape) < 0.5).astype(dtype)
    a = rng.uniform(-1, 1, shape) + (1j * rng.uniform(-1, 1, shape) if dtype.kind == "c" else 0)
    return a.astype(dtype)


def agree(name, x, *args, tol=None, view=None):
    """cuarray.scipy.signal's `name` on x (a host array, copied to the device) and args is SciPy's on the same
    (assert_close with `tol`), or raises its exception type and message; True where SciPy gave a result. With
    `view`, ours takes view(x) of the device copy and SciPy a C-contiguous copy of view(x): SciPy 1.17's
    symiirorder1 misreads non-contiguous signals (Note [Symmetric IIR types and arguments] in _symiir.py)."""
    __tracebackhide__ = True
    ours = cp.asarray(x) if view is None else view(cp.asarray(x))
    theirs = x if view is None else np.ascontiguousarray(view(x))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = getattr(ss, name)(theirs, *args)
        except Exception as e:  # noqa: BLE001 (ours must raise it too)
            with pytest.raises(type(e)) as got:
                getattr(sig, name)(ours, *args)
            assert str(got.value) == str(e)
            return False
    assert_close(getattr(sig, name)(ours, *args), expected, tol)
    return True


# ------------------------------------------------------------------------------------------- symiirorder1
SIZES = [11, 20, 32, 51, 64, 120]  # CuPy's test_symiirorder1 and test_symiirorder2's
PRECISIONS = [-1, 2, 1.5, 1.0, 0.5, 0.25, 0.1, 2e-3, 1e-3]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_symiirorder1_cupys_cases_exactly(dtype):
    """CuPy's cases (c0 = 2, z1 = 0.5, errors where SciPy's sums do not converge), SciPy's values bit for bit."""
    ran = 0
    for size, precision in itertools.product(SIZES, PRECISIONS):
        x = data(size, dtype, size)
        ran += agree("symiirorder1", x, 2.0, 0.5, precision, tol=EXACT)
    assert ran > len(SIZES) * len(PRECISIONS) // 2


@pytest.mark.parametrize(
    "dtype", ["float16", "float32", "float64", "complex64", "complex128", "int32", "bool"]
)
def test_symiirorder1_types_and_batches_exactly(dtype):
    """float16 in float32, integers and bool in float64, as SciPy; 2-D signals row by row; edge sizes."""
    for shape, (c0, z1), precision in itertools.product(
        [(2,), (3,), (40,), (1000,), (3, 40), (1, 25), (0, 30), (5, 2)],
        [(2.0, 0.5), (-1.5, -0.3), (1.0, 0.9), (0.7, 0.0)],
        [-1, 0.5, 1e-3],
    ):
        x = data(shape, dtype, len(shape))
        agree("symiirorder1", x, c0, z1, precision, tol=EXACT)


def test_symiirorder1_complex_z1():
    """A complex z1 with a complex signal: SciPy's values to rounding (NumPy's complex products)."""
    x = data((2, 60), "complex128", 7)
    for z1 in (0.3 + 0.4j, -0.2 - 0.5j):
        assert_close(
            sig.symiirorder1(cp.asarray(x), 1.5 - 0.5j, z1, 1e-4), ss.symiirorder1(x, 1.5 - 0.5j, z1, 1e-4)
        )


# Views of a (40, 90) signal: non-contiguous, negative strides, Fortran order, offsets, transposed.
VIEWS_2D = [
    lambda a: a[:, ::-1],
    lambda a: a[::2, ::2],
    lambda a: a.T.copy().T,
    lambda a: a[1:, 3:],
    lambda a: a[::-1, 1::2],
    lambda a: a.T,
]
VIEWS_1D = [lambda a: a[0, ::-1], lambda a: a[1, ::2], lambda a: a[:, 5], lambda a: a[2, 7:]]


def test_symiirorder1_scalars_and_layouts():
    """Parameters as NumPy scalars and 0-d device arrays; signals of every layout, SciPy's values for a
    contiguous copy bit for bit (SciPy's own symiirorder1 misreads a non-contiguous one)."""
    x = data((40, 90), "float64", 3)
    expected = ss.symiirorder1(x, 2.0, 0.5)
    for c0, z1 in [(np.float64(2.0), np.float64(0.5)), (cp.asarray(2.0), cp.asarray(0.5)), (2, 0.5)]:
        assert_close(sig.symiirorder1(cp.asarray(x), c0, z1), expected, EXACT)
    for view in VIEWS_2D + VIEWS_1D:
        assert agree("symiirorder1", x, 2.0, 0.5, tol=EXACT, view=view)
    xc = data((40, 90), "complex128", 4)
    for view in VIEWS_2D + VIEWS_1D:
        assert agree("symiirorder1", xc, 2.0, 0.5, 1e-6, tol=EXACT, view=view)
    # CuPy's types: a float32 signal stays float32 with NumPy float64 parameters (SciPy 1.17 promotes)
    x32 = x.astype(np.float32)
    got = sig.symiirorder1(cp.asarray(x32), np.float64(2.0), np.float64(0.5))
    assert_close(got, ss.symiirorder1(x32, 2.0, 0.5), EXACT)


# ------------------------------------------------------------------------------------------- symiirorder2
@pytest.mark.parametrize("omega", ["zero", "pi", "random"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_symiirorder2_cupys_cases(dtype, omega):
    """CuPy's cases: r uniform in [0, 1), omega 0, pi or random (CuPy 14.2 xfails 'zero' and 'random' against
    SciPy 1.15 and later; these follow SciPy's)."""
    rng = np.random.default_rng(5)
    ran = 0
    for size, precision in itertools.product(SIZES, PRECISIONS):
        r = rng.uniform(0, 1)
        w = {"zero": 0.0, "pi": np.pi, "random": rng.uniform(0, 2 * np.pi)}[omega]
        x = data(size, dtype, size)
        ran += agree("symiirorder2", x, r, w, precision)
    assert ran > 0


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int16"])
def test_symiirorder2_types_and_batches(dtype):
    for shape, (r, omega), precision in itertools.product(
        [(2,), (3,), (4,), (50,), (1000,), (3, 50), (0, 50)],
        [(0.5, 0.0), (0.5, np.pi), (0.3, 1.1), (-0.6, 2.0), (0.9, 0.4)],
        [-1, 0.5, 1e-3],
    ):
        x = data(shape, dtype, len(shape))
        agree("symiirorder2", x, r, omega, precision)
    x = data(60, dtype)
    r, omega = cp.asarray(0.4), cp.asarray(0.8)  # 0-d device arrays, as CuPy's test passes them
    assert_close(sig.symiirorder2(cp.asarray(x), r, omega), ss.symiirorder2(x, 0.4, 0.8))


# ------------------------------------------------------------------------------------------------ sepfir2d
@pytest.mark.parametrize(
    "dtype", ["float16", "float32", "float64", "complex64", "complex128", "int8", "int32", "uint16", "bool"]
)
def test_sepfir2d_cupys_cases_exactly(dtype):
    """CuPy's TestSepFIR2d: every dtype, the filters of the image's type, SciPy's values bit for bit."""
    for shape, n_row, n_col in itertools.product([(256, 256), (4, 512), (512, 3)], [1, 3], [1, 3]):
        image, hrow, hcol = data(shape, dtype, 1), data(n_row, dtype, 2), data(n_col, dtype, 3)
        expected = ss.sepfir2d(image, hrow, hcol)
        assert_close(sig.sepfir2d(cp.asarray(image), cp.asarray(hrow), cp.asarray(hcol)), expected, EXACT)


def test_sepfir2d_filters_and_layouts():
    image = data((9, 13), "float64", 4)
    for n_row, n_col in [(5, 7), (9, 1), (1, 9), (13, 9)]:
        hrow, hcol = data(n_row, "float64", 5), data(n_col, "float64", 6)
        expected = ss.sepfir2d(image, hrow, hcol)
        for h_row, h_col in [(hrow, hcol), (list(hrow), list(hcol)), (cp.asarray(hrow), hcol)]:
            assert_close(sig.sepfir2d(cp.asarray(image), h_row, h_col), expected, EXACT)
        view = cp.asarray(np.asfortranarray(image))[::-1, ::-1]
        assert_close(sig.sepfir2d(view, hrow, hcol), ss.sepfir2d(image[::-1, ::-1], hrow, hcol), EXACT)
    assert_close(sig.sepfir2d(cp.zeros((0, 5)), [1.0], [1.0]), ss.sepfir2d(np.zeros((0, 5)), [1.0], [1.0]))


def test_sepfir2d_long_filters_reflect_again():
    """A filter longer than the image (SciPy reads past it): the reflections repeat, as ndimage's 'reflect'."""
    from scipy import ndimage

    image, hrow, hcol = data((3, 4), "float64", 7), data(11, "float64", 8), data(9, "float64", 9)
    expected = ndimage.convolve1d(
        ndimage.convolve1d(image, hrow, axis=1, mode="reflect"), hcol, 0, mode="reflect"
    )
    assert_close(sig.sepfir2d(cp.asarray(image), hrow, hcol), expected)


# ----------------------------------------------------------------------------------- cspline1d, qspline1d
Y = [4.216, 6.864, 3.514, 6.203, 6.759, 7.433, 7.874, 5.879, 1.396, 4.094]  # CuPy's test signal
NEWX = np.arange(-6.0, 13.0, 0.5)


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex64", "complex128", "int64"])
def test_spline_coefficients(dtype):
    """CuPy's cases and more: float64 (complex128) coefficients for every type, as SciPy's."""
    for n in [1, 2, 3, 5, 10, 64, 1000]:
        x = data(n, dtype, n)
        for lamb in [0.0, 0.5, 1.0, 8.0]:
            agree("cspline1d", x, lamb)
        agree("qspline1d", x)
    for f in (sig.cspline1d, sig.qspline1d):  # CuPy's zero and [1, 2, 3, 4, 5]
        assert_close(f(cp.asarray([0])), getattr(ss, f.__name__)(np.asarray([0])))
        assert_close(f(cp.asarray([1.0, 2, 3, 4, 5])), getattr(ss, f.__name__)(np.asarray([1.0, 2, 3, 4, 5])))
    assert_close(
        sig.cspline1d(cp.asarray([1.0, 2, 3, 4, 5]), 1), ss.cspline1d(np.asarray([1.0, 2, 3, 4, 5]), 1)
    )
    with pytest.raises(ValueError):
        sig.qspline1d(cp.asarray([1.0, 2, 3, 4, 5]), 1)


def test_spline_evaluation_cupys_cases():
    for evaluate, coefficients in [(sig.cspline1d_eval, sig.cspline1d), (sig.qspline1d_eval, sig.qspline1d)]:
        name = evaluate.__name__
        expected = getattr(ss, name)(
            getattr(ss, coefficients.__name__)(np.asarray(Y)), list(NEWX), dx=1, x0=-3
        )
        assert_close(evaluate(coefficients(cp.asarray(Y)), list(NEWX), dx=1, x0=-3), expected)
        assert_close(
            evaluate(cp.asarray([0.0, 0]), cp.asarray([0.0])), getattr(ss, name)(np.zeros(2), np.zeros(1))
        )
        with pytest.raises(ValueError, match="Spline coefficients 'cj' must not be empty."):
            evaluate(cp.asarray([], dtype=np.float64), cp.asarray([0.0]))


@pytest.mark.parametrize("name", ["cspline1d_eval", "qspline1d_eval"])
def test_spline_evaluation(name):
    """Points far past the ends (many reflections), at the knots and half-way, NaN; 0-d and 2-D points; the
    coefficients' type (cspline1d_eval) or the points' (qspline1d_eval); dx and x0."""
    ours, theirs = getattr(sig, name), getattr(ss, name)
    rng = np.random.default_rng(3)
    for n in [2, 3, 10, 100]:
        cj = rng.standard_normal(n)
        points = np.concatenate([rng.uniform(-5 * n, 6 * n, 200), np.arange(-2 * n, 3 * n) / 2.0, [np.nan]])
        for dx, x0 in [(1.0, 0), (0.5, 1.5), (2, -3)]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected = theirs(cj, points, dx=dx, x0=x0)
            assert_close(ours(cp.asarray(cj), cp.asarray(points), dx=dx, x0=x0), expected)
        assert_close(ours(cp.asarray(cj), 1.25), theirs(cj, np.asarray(1.25)))
        assert_close(
            ours(cp.asarray(cj), cp.asarray(points[:6].reshape(2, 3))), theirs(cj, points[:6].reshape(2, 3))
        )
        assert_close(ours(cp.asarray(cj), cp.zeros(0)), theirs(cj, np.zeros(0)))
    cj, points = rng.standard_normal(8), rng.uniform(-20, 30, 50)
    for cj_type, points_type in [("float32", "float64"), ("float64", "float32"), ("complex128", "float64")]:
        c, p = cj.astype(cj_type), points.astype(points_type)
        if name == "qspline1d_eval" and cj_type == "complex128":
            with pytest.raises(TypeError):  # SciPy's UFuncTypeError: complex sums into the points' type
                ours(cp.asarray(c), cp.asarray(p))
            continue
        assert_close(ours(cp.asarray(c), cp.asarray(p)), theirs(c, p))
    # one coefficient: its constant spline (SciPy recurses without end off the knot)
    assert_close(ours(cp.asarray([2.5]), cp.asarray([0.0])), theirs(np.asarray([2.5]), np.asarray([0.0])))
    np.testing.assert_allclose(cp.asnumpy(ours(cp.asarray([2.5]), cp.asarray([-3.0, 0.25, 7.5]))), 2.5)


# ----------------------------------------------------------------------------- cspline2d, qspline2d, filter
def image(shape, dtype, seed=181819142):
    return np.random.RandomState(seed).random_sample(shape).astype(dtype)  # CuPy's shaped_random(scale=1)


@pytest.mark.parametrize("lamb", [0.0, -1.0, 1 / 144.0, 8.0, 0.5])
def test_cspline2d(lamb):
    """CuPy's test_cspline2d_iir1 (lamb -1) and _iir2 (lamb 8, which CuPy xfails against SciPy 1.15 and later)."""
    x = image((71, 73), np.float64)
    assert_close(sig.cspline2d(cp.asarray(x), lamb), ss.cspline2d(x, lamb))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128", "int32"])
def test_spline2d_types_and_shapes(dtype):
    for shape in [(30, 31), (40,), (12, 13, 14), (30, 5), (1, 40)]:
        x = image(shape, "float64", len(shape)).astype(dtype)
        for lamb, precision in [(0.0, -1.0), (0.0, 0.5), (2.0, -1.0), (0.0, 0.0)]:
            agree("cspline2d", x, lamb, precision)
        agree("qspline2d", x)


def test_qspline2d_cupys_case():
    x = image((71, 73), np.float64)
    assert_close(sig.qspline2d(cp.asarray(x)), ss.qspline2d(x))
    with pytest.raises(ValueError, match="lambda must be negative or zero"):
        sig.qspline2d(cp.asarray(x), 1.0)


def test_spline_filter_cupys_cases():
    data_ = 10 * (1 - 2 * np.random.RandomState(12457).random_sample((12, 12)))
    assert_close(sig.spline_filter(cp.asarray(data_), 0), ss.spline_filter(data_, 0))
    rng = np.random.RandomState(12457)
    complex_ = 10 * (1 + 1j - 2 * (rng.rand(7, 7) + rng.rand(7, 7) * 1j))
    assert_close(sig.spline_filter(cp.asarray(complex_), 0), ss.spline_filter(complex_, 0))
    with pytest.raises(ValueError):
        sig.spline_filter(cp.asarray([0.0]), 0)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_spline_filter(dtype):
    """The default smoothing (symiirorder2) and none; complex images as CuPy's, real and imaginary parts apart:
    SciPy's values where SciPy computes them (smoothing up to 1/144), else each part's SciPy filtering."""
    x = image((40, 41), "float64", 9) + (1j * image((40, 41), "float64", 10) if dtype[0] == "c" else 0)
    x = x.astype(dtype)
    for lmbda in [0.0, 5.0, 0.1]:
        if dtype[0] == "c" and lmbda > 1 / 144:
            part = x.astype(np.complex64)
            expected = (ss.spline_filter(part.real, lmbda) + 1j * ss.spline_filter(part.imag, lmbda)).astype(
                dtype
            )
        else:
            expected = ss.spline_filter(x, lmbda)
        assert_close(sig.spline_filter(cp.asarray(x), lmbda), expected)
    with pytest.raises(TypeError, match="Invalid data type for Iin"):
        sig.spline_filter(cp.ones((30, 30), np.int32))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_layouts(dtype):
    """Signals and images of every layout (the kernels take contiguous copies: Note [Kernel operands and
    layouts] in _symiir.py): SciPy's values for a contiguous copy."""
    x = image((40, 90), "float64", 12).astype(dtype)
    if dtype[0] == "c":
        x = x + 1j * image((40, 90), "float64", 13)
    for view in VIEWS_2D:
        assert agree("sepfir2d", x, [1.0, 2.0, 3.0], [0.5, 2.0, 1.0, 4.0, -1.0], tol=EXACT, view=view)
        if dtype[0] != "c":
            assert agree("symiirorder2", x, 0.5, 0.3, 1e-4, view=view)
            for lamb in (0.0, 0.1):
                assert agree("cspline2d", x, lamb, 1e-3, view=view)
            assert agree("qspline2d", x, view=view)
            assert agree("spline_filter", x, 0.1, view=view)
    for view in VIEWS_1D:
        for lamb in (0.0, 2.0):
            assert agree("cspline1d", x, lamb, view=view)
        assert agree("qspline1d", x, view=view)
        if dtype[0] != "c":
            assert agree("symiirorder2", x, 0.5, 0.3, 1e-4, view=view)


# ------------------------------------------------------------------------------------------------ gauss_spline
def test_gauss_spline():
    """CuPy's cases (a scalar knot, a list), SciPy's types (float32 and float16 kept, integers to float64)."""
    assert_close(sig.gauss_spline(0.0, 0), np.asarray(ss.gauss_spline(0.0, 0)))
    assert_close(sig.gauss_spline([-1.0, 0.0, -1.0], 3), ss.gauss_spline([-1.0, 0.0, -1.0], 3))
    knots = np.linspace(-3, 3, 61)
    for dtype, n in itertools.product(
        ["float16", "float32", "float64", "complex64", "int32", "bool"], [0, 1, 3, 2.5]
    ):
        x = knots.astype(dtype)
        assert_close(sig.gauss_spline(cp.asarray(x), n), ss.gauss_spline(x, n))
    assert_close(sig.gauss_spline(knots, cp.asarray(3)), ss.gauss_spline(knots, 3))


def test_cupy_names():
    assert all(
        hasattr(sig, name) for name in ["cspline1d", "qspline1d", "symiirorder1", "symiirorder2", "sepfir2d"]
    )
    assert not math.isnan(float(sig.gauss_spline(0.5, 2)))
