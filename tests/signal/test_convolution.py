"""Convolution on the device against NumPy and SciPy: cp.convolve / cp.correlate (and np.convolve on device
arrays), cuarray.scipy.signal's convolve, correlate, convolve2d, correlate2d, fftconvolve, oaconvolve and
choose_conv_method; every mode, boundary and dtype, odd sizes, non-contiguous inputs, and the errors."""

import math
from functools import partial

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from conftest import make_data
from cuarray import testing
from signal_asserts import assert_device

pytestmark = pytest.mark.gpu

MODES = ["full", "same", "valid"]


# Same dtype and shape; integers and bools exact, floats within the precision (by result dtype) relative to the
# largest value (sums are formed in another order than NumPy's and SciPy's).
CONV_TOL = {"e": 1e-2, "f": 1e-5, "F": 1e-5, "default": 1e-12}
assert_conv = partial(assert_device, default_tol=CONV_TOL)


def pair(shape, dtype, seed=0):
    a = make_data(shape, dtype, seed)
    return cp.asarray(a), a


# ---------------------------------------------------------------- NumPy's convolve and correlate

NP_DTYPES = [
    "bool",
    "int8",
    "int32",
    "uint8",
    "int64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]


@pytest.mark.parametrize("func", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", MODES + [0, 1, 2])
@pytest.mark.parametrize("n,m", [(10, 3), (3, 10), (7, 7), (1, 5), (5, 1), (1, 1), (16, 4), (4, 16)])
def test_numpy_modes_and_lengths(func, mode, n, m):
    (x, a), (y, v) = pair(n, "complex128", 1), pair(m, "complex128", 2)
    assert_conv(getattr(cp, func)(x, y, mode), getattr(np, func)(a, v, mode))


@pytest.mark.parametrize("func", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n,m", [(2, 2), (5, 3), (3, 5), (2500, 7), (7, 2500), (3000, 300)])
@pytest.mark.parametrize("where", ["taps", "data", "both"])
def test_numpy_nan_and_inf_reach_only_the_sums_they_are_in(func, mode, n, m, where):
    # NumPy sums over the overlap alone: a NaN or an infinity at one end of either input reaches only the
    # outputs whose sums include it (the positions outside the data are no zeros that 0 * NaN would spoil).
    a, v = np.linspace(-1, 1, n), np.linspace(0.5, 2, m)
    if where in ("taps", "both"):
        v[0], v[-1] = np.inf, np.nan
    if where in ("data", "both"):
        a[0], a[-1] = np.nan, -np.inf
    # NaN and infinities where NumPy's and SciPy's are, the finite values close (assert_device)
    assert_conv(
        getattr(cp, func)(cp.asarray(a), cp.asarray(v), mode),
        getattr(np, func)(a, v, mode),
        1e-9,
        finite_scale=True,
    )
    # SciPy's 1-D direct sums are NumPy's, except 'same' with in2 the longer (its N-D sums: below)
    got = getattr(sig, func)(cp.asarray(a), cp.asarray(v), mode, method="direct")
    assert_conv(got, getattr(ss, func)(a, v, mode, method="direct"), 1e-9, finite_scale=True)


def test_2d_fill_multiplies_the_fill_value_as_scipy():
    # SciPy's 2-D sums take the fill value as data: 0 * NaN spreads a NaN tap to every output it overlaps.
    image, taps = np.arange(6.0).reshape(2, 3), np.array([[1.0, np.nan]])
    for func in ("convolve2d", "correlate2d"):
        assert_conv(
            getattr(sig, func)(cp.asarray(image), cp.asarray(taps)),
            getattr(ss, func)(image, taps),
            1e-9,
            finite_scale=True,
        )


@pytest.mark.parametrize("func", ["convolve", "correlate"])
@pytest.mark.parametrize("dtype", NP_DTYPES)
def test_numpy_dtypes(func, dtype):
    (x, a), (y, v) = pair(37, dtype, 3), pair(6, dtype, 4)
    for mode in MODES:
        assert_conv(getattr(cp, func)(x, y, mode), getattr(np, func)(a, v, mode))


def test_numpy_mixed_dtypes_and_wrapping():
    (x, a), (y, v) = pair(20, "int8", 5), pair(4, "float32", 6)
    assert_conv(cp.convolve(x, y), np.convolve(a, v))
    big = np.array([100, 100], np.int8)  # int8 sums wrap as NumPy's do: 200 -> -56, 400 -> -112
    assert_conv(
        cp.convolve(cp.asarray(big), cp.asarray(np.array([2, 2], np.int8))),
        np.convolve(big, np.array([2, 2], np.int8)),
    )


@pytest.mark.parametrize("layout", ["strided", "negative"])
def test_numpy_non_contiguous(layout):
    (x, a), (y, v) = pair(41, "float64", 7), pair(9, "float64", 8)
    view = (lambda t: t[1::3]) if layout == "strided" else (lambda t: t[::-2])
    assert_conv(cp.convolve(view(x), view(y)), np.convolve(view(a), view(v)))
    assert_conv(cp.correlate(view(y), view(x), "full"), np.correlate(view(v), view(a), "full"))


def test_numpy_zero_d_inputs():
    assert_conv(cp.convolve(cp.asarray(3.0), cp.asarray([1.0, 2.0])), np.convolve(3.0, [1.0, 2.0]))


@pytest.mark.parametrize("func", ["convolve", "correlate"])
@pytest.mark.parametrize("dtype", ["float64", "complex64"])
@pytest.mark.parametrize("n,m", [(200000, 3000), (3000, 200000)])
def test_numpy_long_kernels_use_fft(func, dtype, n, m):
    (x, a), (y, v) = pair(n, dtype, 9), pair(m, dtype, 10)
    for mode in MODES:
        assert_conv(
            getattr(cp, func)(x, y, mode),
            getattr(np, func)(a, v, mode),
            tol=1e-4 if dtype == "complex64" else 1e-10,
        )


def test_numpy_long_integer_kernels_stay_exact():
    (x, a), (y, v) = pair(100000, "int64", 11), pair(2000, "int64", 12)
    assert_conv(cp.convolve(x, y), np.convolve(a, v))


def test_lesson_np_convolve_on_device_arrays():
    deltas = np.zeros((2048, 2048))
    deltas[8::16, 8::16] = 1
    xx, yy = np.meshgrid(np.linspace(-2, 2, 15), np.linspace(-2, 2, 15))
    gauss = np.exp(-((np.sqrt(xx * xx + yy * yy)) ** 2 / 2.0))
    deltas_1d, gauss_1d = deltas.ravel(), gauss.diagonal()
    got = np.convolve(cp.asarray(deltas_1d), cp.asarray(gauss_1d))  # NumPy hands the call to cuarray
    assert isinstance(got, cp.ndarray)
    assert_conv(got, np.convolve(deltas_1d, gauss_1d))


NP_ERRORS = {
    "empty_a": (lambda: cp.convolve(cp.zeros(0), cp.ones(3)), ValueError, "a cannot be empty"),
    "empty_v": (lambda: cp.convolve(cp.ones(3), cp.zeros(0)), ValueError, "v cannot be empty"),
    "empty_first": (
        lambda: cp.correlate(cp.zeros(0), cp.ones(3)),
        ValueError,
        "first array argument cannot be empty",
    ),
    "empty_second": (
        lambda: cp.correlate(cp.ones(3), cp.zeros(0)),
        ValueError,
        "second array argument cannot be empty",
    ),
    "two_d": (
        lambda: cp.convolve(cp.ones((2, 2)), cp.ones(2)),
        ValueError,
        "object too deep for desired array",
    ),
    "correlate_0d": (
        lambda: cp.correlate(cp.asarray(1.0), cp.ones(1)),
        ValueError,
        "object of too small depth for desired array",
    ),
    "correlate_0d_second": (
        lambda: cp.correlate(cp.ones(3), cp.asarray(1.0), "full"),
        ValueError,
        "object of too small depth for desired array",
    ),
    "mode": (
        lambda: cp.convolve(cp.ones(3), cp.ones(2), "bad"),
        ValueError,
        r"mode must be one of 'valid', 'same', or 'full' \(got 'bad'\)",
    ),
    "int_mode": (
        lambda: cp.correlate(cp.ones(3), cp.ones(2), 3),
        ValueError,
        "integer convolve/correlate mode must be 0, 1, or 2",
    ),
    "numpy_mixed": (
        lambda: np.convolve(cp.ones(3), np.ones(2)),
        TypeError,
        r"Unsupported type <class 'numpy.ndarray'>",
    ),
}


@pytest.mark.parametrize("case", list(NP_ERRORS))
def test_numpy_errors(case):
    call, exc, match = NP_ERRORS[case]
    with pytest.raises(exc, match=match):
        call()


def test_numpy_raises_the_same():
    for call in (
        lambda: np.convolve([], [1.0]),
        lambda: np.convolve(np.ones((2, 2)), np.ones(2)),
        lambda: np.convolve([1.0], [1.0], "bad"),
        lambda: np.correlate([1.0], [1.0], 3),
    ):
        with pytest.raises(ValueError):
            call()


# ---------------------------------------------------------------- scipy.signal.convolve / correlate (N-D)

SCIPY_DTYPES = ["bool", "int16", "int64", "uint8", "float32", "float64", "complex64", "complex128"]
ND_SHAPES = [
    ((20,), (5,)),
    ((5,), (20,)),
    ((9, 11), (3, 4)),
    ((3, 4), (9, 11)),
    ((6, 7, 8), (2, 3, 4)),
    ((5, 4, 3, 2), (2, 2, 2, 2)),
    ((8, 9), (8, 2)),
]


@pytest.mark.parametrize("func", ["convolve", "correlate"])
@pytest.mark.parametrize("method", ["direct", "fft", "auto"])
@pytest.mark.parametrize("shapes", ND_SHAPES, ids=str)
def test_scipy_nd(func, method, shapes):
    (x, a), (y, b) = pair(shapes[0], "complex128", 13), pair(shapes[1], "complex128", 14)
    for mode in MODES:
        try:
            expected = getattr(ss, func)(a, b, mode, method="direct")
        except ValueError:
            with pytest.raises(ValueError, match="at least as large"):
                getattr(sig, func)(x, y, mode, method)
            continue
        assert_conv(getattr(sig, func)(x, y, mode, method), expected, tol=1e-10)


@pytest.mark.parametrize("func", ["convolve", "correlate"])
@pytest.mark.parametrize("dtype", SCIPY_DTYPES)
def test_scipy_nd_dtypes(func, dtype):
    (x, a), (y, b) = pair((13, 10), dtype, 15), pair((4, 3), dtype, 16)
    for mode in MODES:
        if dtype == "bool":  # SciPy's N-D direct sums have no bool loop: both raise ValueError
            with pytest.raises(ValueError, match="Unsupported type"):
                getattr(ss, func)(a, b, mode, method="direct")
            with pytest.raises(ValueError, match="does not support bool inputs"):
                getattr(sig, func)(x, y, mode, "direct")
            continue
        assert_conv(getattr(sig, func)(x, y, mode, "direct"), getattr(ss, func)(a, b, mode, method="direct"))
        if dtype != "bool":  # SciPy rounds integer FFT results back to the integer type
            assert_conv(
                getattr(sig, func)(x, y, mode, "fft"), getattr(ss, func)(a, b, mode, method="fft"), tol=1e-4
            )


def test_scipy_nd_edges():
    assert_conv(sig.convolve(cp.zeros((0, 3)), cp.ones((2, 2))), np.array([]))
    with pytest.raises(ValueError, match="^v cannot be empty$"):  # SciPy's 1-D sums are NumPy's
        sig.correlate(cp.ones(3), cp.zeros(0))
    assert_conv(sig.convolve(cp.asarray(2.0), cp.asarray(3.0)), ss.convolve(np.array(2.0), np.array(3.0)))
    (x, a), (y, b) = pair((40, 30), "float32", 17), pair((40, 30), "float32", 18)
    assert_conv(sig.convolve(x, y), ss.convolve(a, b))  # large kernel: auto may pick the FFT
    assert sig.convolve(x, y, method="fft").dtype == np.float32


@pytest.mark.parametrize("func", ["convolve", "correlate"])
@pytest.mark.parametrize("shapes", ND_SHAPES + [((3, 4, 5), (4, 2, 6)), ((4, 5, 6), (2, 2, 2))], ids=str)
@pytest.mark.parametrize("where", ["in1", "in2"])
def test_scipy_direct_nan_and_inf_land_where_scipy_puts_them(func, shapes, where):
    # SciPy's N-D sums (every ndim > 1, and 1-D 'same' with in2 the longer) multiply their zero padding by
    # in2: a NaN or an infinity of in2 reaches every output. Note [Padding times taps].
    a, b = np.linspace(-1, 1, math.prod(shapes[0])), np.linspace(0.5, 2, math.prod(shapes[1]))
    a, b = a.reshape(shapes[0]), b.reshape(shapes[1])
    c = a if where == "in1" else b
    c[(0,) * c.ndim], c[(-1,) * c.ndim] = np.nan, -np.inf
    for mode in MODES:
        try:
            expected = getattr(ss, func)(a, b, mode, method="direct")
        except ValueError:
            continue
        assert_conv(
            getattr(sig, func)(cp.asarray(a), cp.asarray(b), mode, "direct"),
            expected,
            1e-9,
            finite_scale=True,
        )


SCIPY_ERRORS = {
    "ndim": (
        lambda: sig.convolve(cp.ones((3, 3)), cp.ones(2)),
        "volume and kernel should have the same dimensionality",
    ),
    "mode": (
        lambda: sig.convolve(cp.ones(3), cp.ones(2), "bad"),
        "Acceptable mode flags are 'valid', 'same', or 'full'",
    ),
    "method": (
        lambda: sig.convolve(cp.ones(3), cp.ones(2), method="bad"),
        "Acceptable method flags are 'auto', 'direct', or 'fft'",
    ),
    "valid": (
        lambda: sig.convolve(cp.ones((3, 3)), cp.ones((2, 4)), "valid"),
        "at least as large as the other",
    ),
    "corr_ndim": (lambda: sig.correlate(cp.ones((3, 3)), cp.ones(2)), "same dimensionality"),
    "fft_ndim": (lambda: sig.fftconvolve(cp.ones((3, 3)), cp.ones(2)), "same dimensionality"),
    "fft_mode": (lambda: sig.fftconvolve(cp.ones(3), cp.ones(2), "bad"), "acceptable mode flags"),
    "fft_valid": (lambda: sig.fftconvolve(cp.ones((3, 3)), cp.ones((2, 4)), "valid"), "at least as large"),
    "fft_shapes": (lambda: sig.fftconvolve(cp.ones((3, 4)), cp.ones((2, 3)), axes=0), "incompatible shapes"),
    "fft_no_axes": (
        lambda: sig.fftconvolve(cp.ones((3, 3)), cp.ones((3, 3)), axes=[]),
        "axes cannot be empty",
    ),
    "oa_no_axes": (lambda: sig.oaconvolve(cp.ones((3, 3)), cp.ones((3, 3)), axes=[]), "axes cannot be empty"),
    "fft_float_axes": (
        lambda: sig.fftconvolve(cp.ones((3, 3)), cp.ones((3, 3)), axes=1.0),
        "^axes must be a scalar or iterable of integers$",
    ),
    "fft_axes_range": (
        lambda: sig.fftconvolve(cp.ones((3, 3)), cp.ones((3, 3)), axes=5),
        "^axes exceeds dimensionality of input$",
    ),
    "fft_axes_repeated": (
        lambda: sig.fftconvolve(cp.ones((3, 3)), cp.ones((3, 3)), axes=[0, -2]),
        "^all axes must be unique$",
    ),
}


@pytest.mark.parametrize("case", list(SCIPY_ERRORS))
def test_scipy_errors(case):
    call, match = SCIPY_ERRORS[case]
    with pytest.raises(ValueError, match=match):
        call()


# ---------------------------------------------------------------- convolve2d / correlate2d

BOUNDARIES = ["fill", "wrap", "symm", "circular", "symmetric"]
SHAPES_2D = [
    ((37, 70), (3, 5)),
    ((37, 70), (4, 6)),
    ((6, 5), (9, 11)),
    ((50, 40), (20, 35)),
    ((64, 64), (1, 1)),
    ((1, 33), (1, 4)),
    ((2, 3), (17, 40)),
]


@pytest.mark.parametrize("func", ["convolve2d", "correlate2d"])
@pytest.mark.parametrize("boundary", BOUNDARIES)
@pytest.mark.parametrize("shapes", SHAPES_2D, ids=str)
def test_2d_modes_boundaries_shapes(func, boundary, shapes):
    (x, a), (y, b) = pair(shapes[0], "complex128", 19), pair(shapes[1], "complex128", 20)
    for mode in MODES:
        try:
            expected = getattr(ss, func)(a, b, mode, boundary, 0.5 - 1.5j)
        except ValueError:
            with pytest.raises(ValueError, match="at least as large"):
                getattr(sig, func)(x, y, mode, boundary, 0.5 - 1.5j)
            continue
        assert_conv(getattr(sig, func)(x, y, mode, boundary, 0.5 - 1.5j), expected, tol=1e-11)


@pytest.mark.parametrize("func", ["convolve2d", "correlate2d"])
@pytest.mark.parametrize(
    "dtypes",
    [
        ("int8", "int8"),
        ("int32", "int32"),
        ("uint16", "int8"),
        ("int64", "int64"),
        ("float32", "float32"),
        ("float32", "float64"),
        ("float64", "float64"),
        ("complex64", "complex64"),
        ("float64", "complex128"),
        ("int16", "float32"),
    ],
)
def test_2d_dtypes(func, dtypes):
    (x, a), (y, b) = pair((23, 31), dtypes[0], 21), pair((5, 4), dtypes[1], 22)
    for mode in MODES:
        for boundary, fill in (("fill", 0), ("fill", 2), ("wrap", 0), ("symm", 0)):
            assert_conv(
                getattr(sig, func)(x, y, mode, boundary, fill), getattr(ss, func)(a, b, mode, boundary, fill)
            )


@pytest.mark.parametrize("layout", ["transposed", "strided", "negative"])
def test_2d_non_contiguous(layout):
    (x, a), (y, b) = pair((30, 24), "float64", 23), pair((7, 6), "float64", 24)
    view = {
        "transposed": lambda t: t.T,
        "strided": lambda t: t[::2, 1::2],
        "negative": lambda t: t[::-1, ::-3],
    }[layout]
    for func in ("convolve2d", "correlate2d"):
        assert_conv(
            getattr(sig, func)(view(x), view(y), "same", "symm"),
            getattr(ss, func)(view(a), view(b), "same", "symm"),
        )


def test_2d_empty_image_with_fill():
    # SciPy's result for an empty image is the fill value times the kernel's sum.
    got = sig.convolve2d(cp.ones((0, 3)), cp.ones((2, 2)), fillvalue=1.5)
    assert_conv(got, ss.convolve2d(np.ones((0, 3)), np.ones((2, 2)), fillvalue=1.5))
    with pytest.raises(ValueError, match="non-empty"):
        sig.convolve2d(cp.ones((0, 3)), cp.ones((2, 2)), boundary="wrap")


def test_lesson_convolve2d():
    deltas = np.zeros((2048, 2048))
    deltas[8::16, 8::16] = 1
    xx, yy = np.meshgrid(np.linspace(-2, 2, 15), np.linspace(-2, 2, 15))
    gauss = np.exp(-((np.sqrt(xx * xx + yy * yy) - 0.0) ** 2 / (2.0 * 1**2)))
    expected = ss.convolve2d(deltas, gauss)
    got = sig.convolve2d(cp.asarray(deltas), cp.asarray(gauss))
    assert_conv(got, expected)
    assert np.allclose(cp.asnumpy(got), expected)


ERRORS_2D = {
    "ndim": (
        lambda: sig.convolve2d(cp.ones(3), cp.ones((2, 2))),
        ValueError,
        "convolve2d inputs must both be 2-D arrays",
    ),
    "corr_ndim": (
        lambda: sig.correlate2d(cp.ones((3, 3)), cp.ones(2)),
        ValueError,
        "correlate2d inputs must both be 2-D arrays",
    ),
    "mode": (
        lambda: sig.convolve2d(cp.ones((3, 3)), cp.ones((2, 2)), "bad"),
        ValueError,
        "Acceptable mode flags are 'valid', 'same', or 'full'.",
    ),
    "boundary": (
        lambda: sig.convolve2d(cp.ones((3, 3)), cp.ones((2, 2)), boundary="bad"),
        ValueError,
        r"Acceptable boundary flags are 'fill', 'circular' \(or 'wrap'\), and 'symmetric' \(or 'symm'\).",
    ),
    "bool": (
        lambda: sig.convolve2d(cp.ones((3, 3), bool), cp.ones((2, 2), bool)),
        ValueError,
        "convolve2d not available for this type.",
    ),
    "float16": (
        lambda: sig.convolve2d(cp.ones((3, 3), np.float16), cp.ones((2, 2), np.float16)),
        ValueError,
        "not available for this type",
    ),
    "fill_size": (
        lambda: sig.convolve2d(cp.ones((3, 3)), cp.ones((2, 2)), fillvalue=np.array([1, 2])),
        ValueError,
        "`fillvalue` must be scalar or an array with one element.",
    ),
    "fill_complex": (
        lambda: sig.convolve2d(cp.ones((3, 3)), cp.ones((2, 2)), fillvalue=1j),
        ValueError,
        "could not cast `fillvalue` directly to the output type",
    ),
    "fill_range": (
        lambda: sig.convolve2d(cp.ones((3, 3), np.int8), cp.ones((2, 2), np.int8), fillvalue=300),
        ValueError,
        "could not cast `fillvalue`",
    ),
    "valid": (
        lambda: sig.convolve2d(cp.ones((3, 3)), cp.ones((2, 4)), "valid"),
        ValueError,
        "at least as large",
    ),
    "numpy": (
        lambda: sig.convolve2d(np.ones((3, 3)), np.ones((2, 2))),
        TypeError,
        r"^Unsupported type <class 'numpy.ndarray'>$",
    ),
    "numpy_kernel": (
        lambda: sig.convolve2d(cp.ones((3, 3)), np.ones((2, 2))),
        TypeError,
        r"^Unsupported type <class 'numpy.ndarray'>$",
    ),
}


@pytest.mark.parametrize("case", list(ERRORS_2D))
def test_2d_errors(case):
    call, exc, match = ERRORS_2D[case]
    with pytest.raises(exc, match=match):
        call()


def test_scipy_raises_the_same_for_2d():
    for call in (
        lambda: ss.convolve2d(np.ones(3), np.ones((2, 2))),
        lambda: ss.convolve2d(np.ones((3, 3)), np.ones((2, 2)), "bad"),
        lambda: ss.convolve2d(np.ones((3, 3), bool), np.ones((2, 2), bool)),
        lambda: ss.convolve2d(np.ones((3, 3)), np.ones((2, 2)), fillvalue=np.array([1, 2])),
        lambda: ss.convolve2d(np.ones((3, 3)), np.ones((2, 2)), fillvalue=1j),
    ):
        with pytest.raises(ValueError):
            call()


# ---------------------------------------------------------------- FFT convolution and the method choice


@pytest.mark.parametrize("func", ["fftconvolve", "oaconvolve"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int32"])
def test_fftconvolve(func, dtype):
    (x, a), (y, b) = pair((30, 41), dtype, 25), pair((7, 12), dtype, 26)
    for mode in MODES:
        tol = 1e-4 if dtype in ("float32", "complex64") else 1e-10
        assert_conv(getattr(sig, func)(x, y, mode), getattr(ss, func)(a, b, mode), tol=tol)


@pytest.mark.parametrize("axes", [0, 1, -1, (0,), (1, 0)])
def test_fftconvolve_axes_broadcast(axes):
    (x, a), (y, b) = (
        pair((9, 12), "float64", 27),
        pair((1, 12) if axes in (0, (0,)) else (9, 1), "float64", 28),
    )
    for mode in MODES:
        try:
            expected = ss.fftconvolve(a, b, mode, axes=axes)
        except ValueError:
            continue
        assert_conv(sig.fftconvolve(x, y, mode, axes=axes), expected, tol=1e-10)


def test_choose_conv_method():
    assert sig.choose_conv_method(cp.ones(1000, np.int32), cp.ones(1000, np.int32)) == "direct"
    assert sig.choose_conv_method(cp.ones(100, np.uint8), cp.ones(5)) == "direct"
    assert sig.choose_conv_method(cp.ones(100, bool), cp.ones(5, bool)) == "direct"
    # cupyx's rule: every 1-D floating or complex pair takes the FFT, however short.
    for dtype in (np.float16, np.float32, np.float64, np.complex64, np.complex128):
        assert sig.choose_conv_method(cp.ones(100, dtype), cp.ones(5)) == "fft"
        assert sig.choose_conv_method(cp.ones(3), cp.ones(2, dtype), mode="valid") == "fft"
    assert sig.choose_conv_method(cp.ones(10**6), cp.ones(10**5)) == "fft"
    # cupyx's: other dimensions (0-D, N-D, mixed) raise NotImplementedError, whatever the dtype.
    for shapes in [((2048, 2048), (15, 15)), ((4, 4), (2, 2)), ((), (5,)), ((3, 4, 5), (1, 2))]:
        for dtype in (bool, np.int32, np.float64):
            with pytest.raises(NotImplementedError, match="only 1-D inputs"):
                sig.choose_conv_method(cp.ones(shapes[0], dtype), cp.ones(shapes[1], dtype))


@pytest.mark.parametrize("func", ["convolve", "correlate"])
@pytest.mark.parametrize("dtype", ["bool", "float16"])
@pytest.mark.parametrize("shape", [(5, 10), (3, 4, 10)], ids=str)
def test_scipy_direct_nd_unsupported_types(func, dtype, shape):
    a, b = np.ones(shape, dtype), np.ones((3,) * len(shape), dtype)
    with pytest.raises(ValueError, match="Unsupported type"):
        getattr(ss, func)(a, b, method="direct")
    with pytest.raises(ValueError, match=f"does not support {dtype} inputs"):
        getattr(sig, func)(cp.asarray(a), cp.asarray(b), method="direct")
    # 1-D 'same' with in2 the longer takes SciPy's N-D sums, which raise too.
    with pytest.raises(ValueError, match="Unsupported type"):
        getattr(ss, func)(np.ones(3, dtype), np.ones(10, dtype), "same", method="direct")
    with pytest.raises(ValueError, match=f"does not support {dtype} inputs"):
        getattr(sig, func)(cp.ones(3, dtype), cp.ones(10, dtype), "same", "direct")
    # 1-D and mixed-type inputs (promoted past bool and float16) are SciPy's too.
    assert_conv(
        getattr(sig, func)(cp.ones(10, dtype), cp.ones(3, dtype), method="direct"),
        getattr(ss, func)(np.ones(10, dtype), np.ones(3, dtype), method="direct"),
    )
    assert_conv(
        getattr(sig, func)(cp.asarray(a), cp.asarray(b).astype(np.float32), method="direct"),
        getattr(ss, func)(a, b.astype(np.float32), method="direct"),
    )


FFT_CASES = [
    ((5, 10), (4, 4), None),
    ((3, 4, 10), (10, 10, 10), None),
    ((1,), (7,), None),
    ((3,), (1,), None),
    ((5, 4), (3, 1), None),
    ((1, 1), (2, 4), None),
    ((5, 1, 1), (1, 4, 1), None),
    ((5, 1), (1, 4), None),
    ((1, 4), (2, 4), (0,)),
    ((2, 5, 5), (2, 1, 3), (1, 2)),
]


@pytest.mark.parametrize("func", ["fftconvolve", "oaconvolve"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shapes", FFT_CASES, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_fft_methods_shapes_and_c_contiguous(func, mode, shapes, dtype):
    """cupyx returns every FFT-method result C-contiguous; shapes where an input has length 1 on an axis
    still get SciPy's mode applied (the product is cut to 'same' or 'valid')."""
    s1, s2, axes = shapes
    a, b = make_data(s1, dtype, 3), make_data(s2, dtype, 4)
    try:
        expected = getattr(ss, func)(a, b, mode, axes=axes)
    except ValueError:
        with pytest.raises(ValueError):
            getattr(sig, func)(cp.asarray(a), cp.asarray(b), mode, axes=axes)
        return
    got = getattr(sig, func)(cp.asarray(a), cp.asarray(b), mode, axes=axes)
    assert_conv(got, expected, tol=1e-4)
    assert got.flags.c_contiguous


@pytest.mark.parametrize("func", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", MODES)
def test_fft_method_c_contiguous(func, mode):
    # 'valid' needs one input at least as large as the other on every axis (SciPy raises otherwise)
    shape2 = (2, 3, 4) if mode == "valid" else (4, 4, 4)
    a, b = make_data((3, 4, 10), "float64", 5), make_data(shape2, "float64", 6)
    got = getattr(sig, func)(cp.asarray(a), cp.asarray(b), mode, method="fft")
    assert_conv(got, getattr(ss, func)(a, b, mode, method="fft"), tol=1e-10)
    assert got.flags.c_contiguous


@pytest.mark.parametrize("mode", MODES)
@testing.numpy_cuarray_allclose()
def test_numpy_convolve_takes_0d(xp, mode):
    """np.convolve makes 0-d inputs 1-D; np.correlate refuses them (test_numpy_errors)."""
    return xp.convolve(xp.asarray(2.0), xp.asarray([1.0, 3.0]), mode), xp.convolve(
        xp.asarray(2.0), xp.asarray(4.0), mode
    )


@pytest.mark.parametrize("func", ["convolve", "correlate"])
def test_numpy_long_inputs_with_nan_keep_numpys_nan_positions(func):
    # Long enough for the FFT route (Note [NumPy's convolve through FFTs]): a NaN or an infinity must reach
    # only the outputs whose window covers it, as in NumPy's direct sum, not every output.
    a = np.random.default_rng(0).standard_normal(1 << 20)
    v = np.random.default_rng(1).standard_normal(600)
    a[1000], a[500_000] = np.nan, np.inf
    got = getattr(cp, func)(cp.asarray(a), cp.asarray(v), mode="same")
    want = getattr(np, func)(a, v, mode="same")
    host = cp.asnumpy(got)
    np.testing.assert_array_equal(np.isnan(host), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(host), np.isinf(want))
    finite = np.isfinite(want)
    np.testing.assert_allclose(host[finite], want[finite], rtol=0, atol=1e-9 * np.abs(want[finite]).max())


def test_2d_outputs_taller_than_one_launch_as_scipy():
    # More than 65535 blocks of rows (audio laid out as samples x channels): the rows run in bands.
    x = np.random.default_rng(0).standard_normal((2_200_000, 2)).astype(np.float32)
    w = np.array([[0.25, 0.5], [0.5, -1.0], [1.0, 0.125]], np.float32)
    for mode in ("full", "same", "valid"):
        for boundary in ("fill", "wrap", "symm"):
            got = sig.convolve2d(cp.asarray(x), cp.asarray(w), mode=mode, boundary=boundary)
            assert_conv(got, ss.convolve2d(x, w, mode=mode, boundary=boundary))


def test_2d_fill_value_as_scipy_reads_it():
    # SciPy casts the fill into the output's type as NumPy's array(fill, dtype) does (an int64 fill stays
    # exact; 1.5 into an integer output is 1) and reads it only for boundary='fill'.
    x, w = np.arange(6, dtype=np.int64).reshape(2, 3), np.ones((2, 2), np.int64)
    for fill in (2**62 + 1, 1.5, np.array([3]), True):
        assert_conv(
            sig.convolve2d(cp.asarray(x), cp.asarray(w), fillvalue=fill), ss.convolve2d(x, w, fillvalue=fill)
        )
    for fill in ([1, 2], 1j):
        assert_conv(
            sig.convolve2d(cp.asarray(x), cp.asarray(w), boundary="wrap", fillvalue=fill),
            ss.convolve2d(x, w, boundary="wrap", fillvalue=fill),
        )
    for fill in (np.nan, None, 1 + 0j):
        with pytest.raises(ValueError) as want:
            ss.convolve2d(x, w, fillvalue=fill)
        with pytest.raises(ValueError) as got:
            sig.convolve2d(cp.asarray(x), cp.asarray(w), fillvalue=fill)
        assert str(got.value) == str(want.value)
    u8 = cp.asarray(x.astype(np.uint8)), cp.asarray(w.astype(np.uint8))
    assert_conv(
        sig.convolve2d(*u8, fillvalue=np.int64(3)), ss.convolve2d(*(t.get() for t in u8), fillvalue=3)
    )
    for fill in (np.array([3]), np.array(1.5)):  # an array's type must cast safely
        with pytest.raises(ValueError, match="could not cast `fillvalue`"):
            sig.convolve2d(*u8, fillvalue=fill)
    with pytest.raises(ValueError, match="^`fillvalue` cannot be an empty array.$"):
        sig.convolve2d(cp.asarray(x), cp.asarray(w), fillvalue=[])


@pytest.mark.parametrize("mode", [True, False, None, b"full", 1.0, "f", "FULL", "x", "", np.int64(5)])
@pytest.mark.parametrize("func", ["convolve", "correlate"])
def test_numpy_mode_errors_are_numpys(func, mode):
    # A bool or a non-integer mode is NumPy's TypeError; an abbreviation ('f', 'FULL') has its own message.
    with pytest.raises(Exception) as want:
        getattr(np, func)(np.ones(3), np.ones(2), mode)
    with pytest.raises(type(want.value)) as got:
        getattr(cp, func)(cp.ones(3), cp.ones(2), mode)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("func", ["convolve", "correlate"])
@pytest.mark.parametrize("method", ["auto", "direct"])  # (SciPy's fft method raises an IndexError of its own)
def test_scipy_1d_empty_inputs_raise_as_scipy(func, method):
    for a, v in ((np.ones(5), np.zeros(0)), (np.zeros(0), np.ones(3))):
        with pytest.raises(ValueError) as want:
            getattr(ss, func)(a, v, "full", method)
        with pytest.raises(ValueError) as got:
            getattr(sig, func)(cp.asarray(a), cp.asarray(v), "full", method)
        assert str(got.value) == str(want.value)
