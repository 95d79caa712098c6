"""Peak finding, median and Savitzky-Golay filters and FFT resampling on the device against scipy.signal:
argrelmin, argrelmax, argrelextrema, find_peaks (every condition), peak_prominences, peak_widths, medfilt,
medfilt2d, savgol_coeffs, savgol_filter (every mode) and resample; dtypes, odd sizes, axes, non-contiguous
inputs, SciPy's warnings and errors."""

import warnings
from functools import partial

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from conftest import make_data
from signal_asserts import assert_device

pytestmark = pytest.mark.gpu


def scipy_and_ours(f_scipy, f_ours):
    """Both results, and the PeakPropertyWarning messages each gave."""
    out = []
    for f in (f_scipy, f_ours):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = f()
        out.append((r, sorted({str(m.message) for m in w if str(m.message).startswith("some peaks have")})))
    return out


def signals():
    """Signals with plateaus, equal peaks, NaN, a rising end and the short lengths SciPy special-cases."""
    rng = np.random.default_rng(7)
    yield "empty", np.zeros(0)
    yield "one", np.ones(1)
    yield "two", np.array([0.0, 1.0])
    yield "three", np.array([0.0, 1.0, 0.0])
    yield "noise", rng.standard_normal(501)
    yield "levels", rng.integers(0, 4, 200).astype(float)
    yield "plateaus", np.repeat(rng.integers(0, 6, 80), rng.integers(1, 5, 80)).astype(float)
    x = rng.integers(0, 5, 150).astype(float)
    x[rng.integers(0, 150, 20)] = np.nan
    yield "nan", x
    yield "edge plateau", np.array([0.0, 2, 2, 2, 1, 3, 3])
    yield "sine", np.sin(np.linspace(0, 30, 1000)) + np.linspace(0, 2, 1000)


SIGNALS = list(signals())


# ---------------------------------------------------------------- argrelmin, argrelmax, argrelextrema


@pytest.mark.parametrize("func", ["argrelmin", "argrelmax"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "uint8", "int64"])
@pytest.mark.parametrize("mode", ["clip", "wrap"])
def test_argrel_1d(func, dtype, mode):
    for n in (0, 1, 2, 3, 8, 101):
        a = make_data(n, dtype, n)
        for order in (1, 2, 5):
            expected = getattr(ss, func)(a, order=order, mode=mode)
            assert_device(getattr(sig, func)(cp.asarray(a), order=order, mode=mode), expected)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2])
def test_argrel_nd_axes_and_layouts(axis):
    a = make_data((6, 7, 5), "int16", 3) % 5  # small values: equal neighbours are common
    d = cp.asarray(a)
    for order in (1, 3):
        for mode in ("clip", "wrap"):
            assert_device(sig.argrelmax(d, axis, order, mode), ss.argrelmax(a, axis, order, mode))
            assert_device(sig.argrelmin(d, axis, order, mode), ss.argrelmin(a, axis, order, mode))
    view, host = d[::-1, 1::2], a[::-1, 1::2]
    if -view.ndim <= axis < view.ndim:
        assert_device(sig.argrelmax(view, axis), ss.argrelmax(host, axis))


def test_argrelextrema_comparators_and_nan():
    a = np.array([1.0, np.nan, 3.0, 3.0, 1.0, 2.0, 2.0, 0.0])
    d = cp.asarray(a)
    for comparator, ours in ((np.greater_equal, cp.greater_equal), (np.less_equal, cp.less_equal)):
        expected = ss.argrelextrema(a, comparator)
        assert_device(sig.argrelextrema(d, ours), expected)
        assert_device(sig.argrelextrema(d, comparator), expected)  # NumPy's ufunc on device arrays
    assert_device(sig.argrelmax(d), ss.argrelmax(a))


def test_argrel_errors():
    d = cp.asarray(np.array([2, 1, 2, 3, 2, 0, 1, 0]))
    for order in (0, 1.5, "2"):
        with pytest.raises(ValueError, match="^Order must be an int >= 1$"):
            sig.argrelmax(d, order=order)
    with pytest.raises(ValueError, match="clipmode must be one of 'clip', 'raise', or 'wrap'"):
        sig.argrelmin(d, mode="foo")
    with pytest.raises(IndexError):
        sig.argrelmax(d, mode="raise")  # SciPy's take(mode='raise') past the ends
    with pytest.raises(IndexError):
        sig.argrelmax(d, axis=1)
    with pytest.raises(IndexError):
        sig.argrelmax(cp.asarray(np.array(3.0)))
    assert_device(sig.argrelmax(d[:0], mode="raise"), ss.argrelmax(np.zeros(0), mode="raise"))


# ---------------------------------------------------------------- find_peaks


@pytest.mark.parametrize("name,x", SIGNALS, ids=[s[0] for s in SIGNALS])
def test_find_peaks_without_conditions(name, x):
    for dtype in ("float64", "float32", "int16", "uint8"):
        xx = np.nan_to_num(x).astype(dtype) if dtype != "float64" else x
        peaks, props = sig.find_peaks(cp.asarray(xx))
        expected, _ = ss.find_peaks(xx)
        assert_device(peaks, expected)
        assert props == {}


CONDITIONS = [
    {"height": 1.0},
    {"height": (None, 2.0)},
    {"height": (0.5, 3)},
    {"threshold": 0.5},
    {"threshold": (None, None)},
    {"threshold": (0.1, 1.5)},
    {"prominence": 1},
    {"prominence": (None, None), "wlen": 5},
    {"prominence": (0.5, 2.5), "wlen": 20.5},
    {"width": 2},
    {"width": (None, None), "rel_height": 1.0},
    {"width": (1, 4), "rel_height": 0.25, "wlen": 31},
    {"width": 0, "rel_height": 0},  # zero widths: PeakPropertyWarning
    {"plateau_size": 2},
    {"plateau_size": (None, None)},
    {"plateau_size": (1, 3), "height": (None, None)},
    {"distance": 1},
    {"distance": 3},
    {"distance": 7.5, "height": 0},
    {"distance": 25, "prominence": 0.1, "width": (None, None)},
    {
        "height": (None, None),
        "threshold": (None, None),
        "distance": 2,
        "prominence": (None, None),
        "width": (None, None),
        "plateau_size": (None, None),
    },
]


@pytest.mark.parametrize("name,x", SIGNALS, ids=[s[0] for s in SIGNALS])
@pytest.mark.parametrize("kw", CONDITIONS, ids=[str(c) for c in CONDITIONS])
def test_find_peaks_conditions_and_properties(name, x, kw):
    (expected, warned), (got, ours) = scipy_and_ours(
        lambda: ss.find_peaks(x, **kw), lambda: sig.find_peaks(cp.asarray(x), **kw)
    )
    assert_device(got, expected)  # peaks, then the properties dict: keys, order, dtypes, values
    assert ours == warned


def test_find_peaks_borders_per_sample():
    rng = np.random.default_rng(3)
    x = rng.standard_normal(300)
    low, high = rng.uniform(-1, 0.5, 300), rng.uniform(0.5, 3, 300)
    d, dlow, dhigh = cp.asarray(x), cp.asarray(low), cp.asarray(high)
    for key in ("height", "threshold", "prominence", "width", "plateau_size"):
        for ours, theirs in (
            (dlow, low),
            ((dlow, dhigh), (low, high)),
            ((None, dhigh), (None, high)),
            ((0.2, dhigh), (0.2, high)),
        ):
            assert_device(sig.find_peaks(d, **{key: ours}), ss.find_peaks(x, **{key: theirs}))
    # A 2-element device array is an interval, as SciPy's NumPy array is; a 0-d device array is a value.
    assert_device(sig.find_peaks(d, height=cp.asarray([0.5, 1.5])), ss.find_peaks(x, height=[0.5, 1.5]))
    assert_device(sig.find_peaks(d, height=d[5]), ss.find_peaks(x, height=x[5]))


def test_find_peaks_distance_keeps_scipys_peaks_among_equal_heights():
    rng = np.random.default_rng(4)
    for levels in (1, 2, 30):
        x = np.zeros(5001)
        x[1:-1:2] = rng.integers(1, levels + 1, x[1:-1:2].size)
        x[rng.integers(0, 5001, 400)] = 0
        d = cp.asarray(x)
        for distance in (2, 3, 4.5, 11, 200, 10**6, np.nan, np.inf, 1e300):
            assert_device(sig.find_peaks(d, distance=distance), ss.find_peaks(x, distance=distance))


def test_find_peaks_non_contiguous_and_large():
    rng = np.random.default_rng(5)
    x = np.cumsum(rng.standard_normal(200_001))
    d = cp.asarray(x)
    for view, host in ((d[::3], x[::3]), (d[::-1], x[::-1])):
        kw = {"prominence": 2, "width": 1, "distance": 5, "wlen": 401}
        assert_device(sig.find_peaks(view, **kw), ss.find_peaks(host, **kw))


def test_find_peaks_errors():
    d = cp.asarray(np.array([0, 1, 0, 3, 1, 2, 2, 0.5, 4, 0]))
    with pytest.raises(ValueError, match="^`distance` must be greater or equal to 1$"):
        sig.find_peaks(d, distance=0.5)
    with pytest.raises(ValueError, match="^array size of lower interval border must match x$"):
        sig.find_peaks(d, height=d[:3])
    with pytest.raises(ValueError, match="^array size of upper interval border must match x$"):
        sig.find_peaks(d, prominence=(None, d[:3]))
    with pytest.raises(ValueError, match="^`x` must be a 1-D array$"):
        sig.find_peaks(d.reshape(2, 5))
    with pytest.raises(ValueError, match="^`x` must be a 1-D array$"):
        sig.find_peaks(d[0])
    with pytest.raises(ValueError, match="^`wlen` must be larger than 1, was 1$"):
        sig.find_peaks(d, prominence=1, wlen=1)
    with pytest.raises(TypeError, match="Unsupported type <class 'numpy.ndarray'>"):
        sig.find_peaks(d, height=np.ones(10))  # a host border


# ---------------------------------------------------------------- peak_prominences, peak_widths


@pytest.mark.parametrize("name,x", SIGNALS, ids=[s[0] for s in SIGNALS])
def test_prominences_and_widths(name, x):
    rng = np.random.default_rng(6)
    d = cp.asarray(x)
    found = ss.find_peaks(x)[0]
    anywhere = rng.integers(0, max(x.size, 1), 7) if x.size else found  # not maxima: prominence 0
    for peaks in (found, anywhere):
        dp = cp.asarray(peaks)
        for wlen in (None, 2, 3, 8.5, 10**6):
            (expected, warned), (got, ours) = scipy_and_ours(
                partial(ss.peak_prominences, x, peaks, wlen), partial(sig.peak_prominences, d, dp, wlen)
            )
            assert_device(got, expected)
            assert ours == warned
            for rel in (0, 0.5, 1.0, 2.0):
                (expected_w, warned), (got_w, ours) = scipy_and_ours(
                    partial(ss.peak_widths, x, peaks, rel, wlen=wlen),
                    partial(sig.peak_widths, d, dp, rel, wlen=wlen),
                )
                assert_device(got_w, expected_w)
                assert ours == warned
                # prominence_data from peak_prominences, as SciPy's users pass it
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    assert_device(sig.peak_widths(d, dp, rel, prominence_data=got), expected_w)


def test_prominences_of_other_dtypes_and_peak_types():
    x = make_data(300, "int16", 8)
    peaks = ss.find_peaks(x)[0]
    for peak_type in ("int64", "int32", "uint32", "uint8"):
        p = peaks[peaks < 256].astype(peak_type) if peak_type == "uint8" else peaks.astype(peak_type)
        assert_device(sig.peak_prominences(cp.asarray(x), cp.asarray(p)), ss.peak_prominences(x, p))
    empty = cp.zeros((0, 3))  # an empty array of any type and shape is no peaks
    assert_device(sig.peak_prominences(cp.asarray(x), empty), ss.peak_prominences(x, np.zeros((0, 3))))
    assert_device(sig.peak_widths(cp.asarray(x), empty), ss.peak_widths(x, np.zeros((0, 3))))


def test_prominence_and_width_errors():
    x = np.array([0, 1, 0, 3, 1, 2, 2, 0.5, 4, 0])
    d, p = cp.asarray(x), cp.asarray(np.array([1, 3, 5, 8]))
    with pytest.raises(ValueError, match="^peak 10 is not a valid index for `x`$"):
        sig.peak_prominences(d, p + 2)
    with pytest.raises(ValueError, match="^peak -1 is not a valid index for `x`$"):
        sig.peak_prominences(d, p - 2)
    for bad in (p * 1.0, p.astype(cp.uint64)):
        with pytest.raises(TypeError, match=r"^cannot safely cast `peaks` to dtype\('intp'\)$"):
            sig.peak_prominences(d, bad)
    with pytest.raises(ValueError, match="^`peaks` must be a 1-D array$"):
        sig.peak_prominences(d, p.reshape(2, 2))
    with pytest.raises(ValueError, match="^`wlen` must be larger than 1, was 1$"):
        sig.peak_prominences(d, p, wlen=1)
    with pytest.raises(ValueError, match="^`rel_height` must be greater or equal to 0.0$"):
        sig.peak_widths(d, p, -1)
    with pytest.raises(TypeError, match="must be real number, not str"):
        sig.peak_widths(d, p, "a")
    prom = sig.peak_prominences(d, p)
    with pytest.raises(TypeError):
        sig.peak_widths(d, p, prominence_data=prom[:2])
    with pytest.raises(ValueError, match="Buffer dtype mismatch"):
        sig.peak_widths(d, p, prominence_data=(prom[0].astype(cp.float32), prom[1], prom[2]))
    with pytest.raises(ValueError, match="Buffer dtype mismatch"):
        sig.peak_widths(d, p, prominence_data=(prom[0], prom[1].astype(cp.int32), prom[2]))
    with pytest.raises(ValueError, match="^ndarray is not C-contiguous$"):
        sig.peak_widths(d, p, prominence_data=(cp.repeat(prom[0], 2)[::2], prom[1], prom[2]))
    with pytest.raises(ValueError, match="^arrays in `prominence_data` must have the same shape as `peaks`$"):
        sig.peak_widths(d, p, prominence_data=(prom[0][:2], prom[1], prom[2]))
    with pytest.raises(ValueError, match="^prominence data is invalid for peak 1$"):
        sig.peak_widths(d, p, prominence_data=(prom[0], prom[2], prom[1]))
    with pytest.warns(RuntimeWarning, match="some peaks have a prominence of 0") as record:
        sig.peak_prominences(d, cp.asarray(np.array([0, 1])))
    assert type(record[0].message).__name__ == "PeakPropertyWarning"
    with pytest.warns(RuntimeWarning, match="some peaks have a width of 0"):
        sig.peak_widths(d, p, 0)


def test_host_signals_and_peaks_as_cupys_tests_pass_them():
    """CuPy's peak functions take the signal and the peaks through cupy.asarray (lists, NumPy arrays,
    scalars); its tests pass lists. The results are SciPy's, on the device (Note [Host signals])."""
    plateau = [0, 1, 2, 1, 3, 3, 3, 1, 2, 1, 0]
    for x, peaks in (([1, 2, 3], []), ([], []), (plateau, [5]), (np.array(plateau), np.array([2, 5])),
                     (np.array(plateau, np.float32), (2, 8))):  # fmt: skip
        assert_device(sig.peak_prominences(x, peaks), ss.peak_prominences(x, peaks))
        for rel in (0, 0.25, 2 / 3, 1.0, 3.0):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                assert_device(sig.peak_widths(x, peaks, rel), ss.peak_widths(x, peaks, rel))
    assert_device(sig.peak_widths(cp.asarray([1, 0, 1, 2, 1, 0, -1]), [3], 0.5),
                     ss.peak_widths(np.array([1, 0, 1, 2, 1, 0, -1]), [3], 0.5))  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = sig.find_peaks([0, 1, 1, 1, 0], prominence=(None, None), width=(None, None), wlen=2)
        expected = ss.find_peaks([0, 1, 1, 1, 0], prominence=(None, None), width=(None, None), wlen=2)
    assert_device(got, expected)
    assert_device(sig.find_peaks(plateau, height=1, distance=2), ss.find_peaks(plateau, height=1, distance=2))
    grid = [[1, 2, 2, 3, 2], [2, 1, 2, 2, 3], [3, 2, 1, 2, 2], [2, 3, 2, 1, 2], [1, 2, 3, 2, 1]]
    for data in (grid, np.array(grid), [2, 1, 2, 3, 2, 0, 1, 0]):
        for axis in (0, -1):  # SciPy's argrel functions want an array; CuPy's take a list too
            assert_device(sig.argrelmax(data, axis=axis), ss.argrelmax(np.asarray(data), axis=axis))
            assert_device(sig.argrelmin(data, axis=axis), ss.argrelmin(np.asarray(data), axis=axis))
        assert_device(
            sig.argrelextrema(data, np.greater_equal), ss.argrelextrema(np.asarray(data), np.greater_equal)
        )


def test_host_argument_errors_are_scipys():
    """CuPy's TestPeakProminences and TestPeakWidths::test_exceptions, with host arguments: SciPy's errors."""
    cases = [
        (lambda m: m.peak_prominences([[0, 1, 1, 0]], [1, 2]), ValueError, "^`x` must be a 1-D array$"),
        (lambda m: m.peak_prominences([0, 1, 1, 0], [[1, 2]]), ValueError, "^`peaks` must be a 1-D array$"),
        (lambda m: m.peak_prominences(3, [0]), ValueError, "^`x` must be a 1-D array$"),
        (lambda m: m.peak_prominences([], [0]), ValueError, "^peak 0 is not a valid index for `x`$"),
        (lambda m: m.peak_prominences([1, 0, 2], [-100]), ValueError, "^peak -100 is not a valid index"),
        (lambda m: m.peak_prominences([1, 0, 2], [3]), ValueError, "^peak 3 is not a valid index"),
        (lambda m: m.peak_prominences(np.arange(10), [3, 5], wlen=1), ValueError, "^`wlen` must be larger"),
        (lambda m: m.peak_prominences([1, 2, 1], [1.0]), TypeError, r"^cannot safely cast `peaks`"),
        (lambda m: m.peak_widths(np.zeros((3, 4)), np.ones(3)), ValueError, "^`x` must be a 1-D array$"),
        (lambda m: m.peak_widths(3, [0]), ValueError, "^`x` must be a 1-D array$"),
        (lambda m: m.peak_widths(np.arange(10), np.ones((3, 2), np.intp)), ValueError, "^`peaks` must be a 1-D"),
        (lambda m: m.peak_widths(np.arange(10), 3), ValueError, "^`peaks` must be a 1-D array$"),
        (lambda m: m.peak_widths(np.arange(10), [8, 11]), ValueError, "^peak 11 is not a valid index"),
        (lambda m: m.peak_widths([], [1, 2]), ValueError, "^peak 1 is not a valid index"),
        (lambda m: m.peak_widths([0, 1, 0, 1, 0], [1, 3], rel_height=-1), ValueError, "^`rel_height` must"),
        (lambda m: m.peak_widths([1, 2, 1], [1], prominence_data=(None, None, None)), TypeError,
         "^Argument 'prominences' must not be None$"),
    ]  # fmt: skip
    for call, exc, match in cases:
        with pytest.raises(exc, match=match):
            call(ss)
        with pytest.raises(exc, match=match):
            call(sig)


def test_mismatching_prominence_data_with_a_host_peak_list():
    """CuPy's TestPeakWidths::test_mismatching_prominence_data: device prominence data, the peaks a list."""
    x = cp.asarray([0, 1, 0])
    for i, (prominences, left_bases, right_bases) in enumerate(
        [((1.0,), (-1,), (2,)), ((1.0,), (0,), (3,)), ((1.0,), (2,), (0,)), ((1.0, 1.0), (0, 0), (2, 2)),
         ((1.0, 1.0), (0,), (2,)), ((1.0,), (0, 0), (2,)), ((1.0,), (0,), (2, 2))]
    ):  # fmt: skip
        data = (
            cp.asarray(prominences, cp.float64),
            cp.asarray(left_bases, cp.intp),
            cp.asarray(right_bases, cp.intp),
        )
        match = (
            "^prominence data is invalid for peak 1$" if i < 3 else "^arrays in `prominence_data` must have"
        )
        with pytest.raises(ValueError, match=match):
            sig.peak_widths(x, [1], prominence_data=data)


def test_host_prominence_data_stays_refused():
    """CuPy hands prominence_data to its kernel as it is: it must be device arrays (a host border of find_peaks
    is refused likewise: test_find_peaks_errors)."""
    x = cp.asarray([0.0, 1.0, 0.0])
    host = (np.ones(1), np.zeros(1, np.intp), np.full(1, 2, np.intp))
    with pytest.raises(TypeError, match=r"^Unsupported type <class 'numpy.ndarray'>$"):
        sig.peak_widths(x, [1], prominence_data=host)
    with pytest.raises(TypeError, match=r"^Unsupported type <class 'list'>$"):
        sig.peak_widths(x, [1], prominence_data=([1.0], [0], [2]))


# ---------------------------------------------------------------- medfilt, medfilt2d


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "uint8", "int32", "uint64", "int64"])
@pytest.mark.parametrize(
    "shape,kernel",
    [
        ((1,), 3),
        ((2,), None),
        ((31,), 5),
        ((31,), 1),
        ((40,), 11),
        ((7, 9), None),
        ((7, 9), 5),
        ((7, 9), [3, 1]),
        ((7, 9), (1, 7)),
        ((1, 6), 3),
        ((4, 5, 6), None),
        ((4, 5, 6), [1, 3, 5]),
    ],
)
def test_medfilt(dtype, shape, kernel):
    a = make_data(shape, dtype, 9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # kernel larger than the volume: checked below
        assert_device(sig.medfilt(cp.asarray(a), kernel), ss.medfilt(a, kernel))
        if len(shape) == 2:
            assert_device(sig.medfilt2d(cp.asarray(a), kernel), ss.medfilt2d(a, kernel))


def test_medfilt_layouts_large_and_empty():
    rng = np.random.default_rng(10)
    a = rng.standard_normal((300, 257))
    d = cp.asarray(a)
    assert_device(sig.medfilt(d[::-2, 1::3], [5, 3]), ss.medfilt(a[::-2, 1::3], [5, 3]))
    assert_device(sig.medfilt2d(d.T, 7), ss.medfilt2d(np.ascontiguousarray(a.T), 7))
    big = rng.integers(0, 1000, 3_000_000).astype(np.int32)
    assert_device(sig.medfilt(cp.asarray(big), 21), ss.medfilt(big, 21))  # more than one block of windows
    for shape in ((0,), (0, 3), (3, 0)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            assert_device(sig.medfilt(cp.zeros(shape)), ss.medfilt(np.zeros(shape)))
    assert_device(sig.medfilt2d(cp.zeros((0, 3))), ss.medfilt2d(np.zeros((0, 3))))
    with pytest.warns(UserWarning, match="kernel_size exceeds volume extent"):
        assert_device(sig.medfilt(cp.asarray(np.array(5.0))), ss.medfilt(np.array(5.0)))


def test_medfilt_errors():
    d = cp.asarray(np.arange(12.0).reshape(3, 4))
    for kernel in (2, 0, [3, 4]):
        with pytest.raises(ValueError, match=r"^Each element of kernel_size should be odd\.$"):
            sig.medfilt(d, kernel)
        with pytest.raises(ValueError, match=r"^Each element of kernel_size should be odd\.$"):
            sig.medfilt2d(d, kernel)
    with pytest.raises(IndexError):
        sig.medfilt(d, [3])
    with pytest.raises(RuntimeError, match="sequence argument must have length equal to input rank"):
        sig.medfilt(d, [3, 3, 3])
    with pytest.raises(TypeError):
        sig.medfilt(d, [3, 1.0])
    with pytest.raises(ValueError, match="^Size must be a length two sequence$"):
        sig.medfilt2d(d, [3])
    for dtype in ("float16", "bool", "complex64"):
        with pytest.raises(ValueError, match=f"^dtype={dtype} is not supported by medfilt$"):
            sig.medfilt(d.astype(dtype))
        with pytest.raises(ValueError, match=f"^dtype={dtype} is not supported by medfilt$"):
            sig.medfilt2d(d.astype(dtype))
    with pytest.raises(ValueError, match="^object of too small depth for desired array$"):
        sig.medfilt2d(d[0])
    with pytest.raises(ValueError, match="^object too deep for desired array$"):
        sig.medfilt2d(d.reshape(1, 3, 4))
    # other types go through medfilt, whatever their number of dimensions, as in SciPy
    ints = np.arange(7) % 3
    assert_device(sig.medfilt2d(cp.asarray(ints)), ss.medfilt2d(ints))


# ---------------------------------------------------------------- savgol_coeffs, savgol_filter


def test_savgol_coeffs():
    for length in (1, 2, 5, 8, 11):
        for order in range(min(length, 5)):
            for deriv in (0, 1, 3):
                for kw in ({}, {"use": "dot"}, {"delta": 0.5}, {"pos": length - 1}):
                    expected = ss.savgol_coeffs(length, order, deriv, **kw)
                    assert_device(
                        sig.savgol_coeffs(length, order, deriv, **kw), expected, rtol=1e-9, atol=1e-11
                    )


MODES = ["mirror", "constant", "nearest", "wrap", "interp"]
TOL = {"float64": (1e-9, 1e-10), "float32": (2e-5, 2e-5)}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int16", "float16"])
def test_savgol_filter_modes(mode, dtype):
    rng = np.random.default_rng(11)
    rtol, atol = TOL.get(dtype, TOL["float64"])
    for n in (1, 3, 7, 50):
        x = (rng.standard_normal(n) * 10).astype(dtype)
        for length, order in ((1, 0), (3, 1), (5, 2), (6, 3), (9, 4), (15, 2)):
            if mode == "interp" and length > n:
                continue
            for deriv in (0, 1, 2):
                expected = ss.savgol_filter(x, length, order, deriv, delta=0.5, mode=mode, cval=1.5)
                got = sig.savgol_filter(cp.asarray(x), length, order, deriv, delta=0.5, mode=mode, cval=1.5)
                scale = max(1.0, float(np.max(np.abs(expected))))
                assert_device(got, expected, rtol=rtol, atol=atol * scale)


@pytest.mark.parametrize("mode", MODES)
def test_savgol_device_delta(mode):
    """A device spacing (CuPy's test_sg_filter_interp_edges passes t[1] - t[0]) is read back, as CuPy's device
    arithmetic takes it: SciPy's result for that spacing."""
    t = np.linspace(-5, 5, 21)
    x = np.array([t, 3 * t**2, t**3 - t])
    delta = cp.linspace(-5, 5, 21)[1] - cp.linspace(-5, 5, 21)[0]
    for deriv in (0, 1, 2):
        expected = ss.savgol_filter(x, 7, 3, deriv=deriv, delta=t[1] - t[0], mode=mode)
        got = sig.savgol_filter(cp.asarray(x), 7, 3, deriv=deriv, delta=delta, mode=mode)
        assert_device(got, expected, rtol=1e-9, atol=1e-9)
        expected = ss.savgol_coeffs(7, 3, deriv, delta=t[1] - t[0])
        assert_device(sig.savgol_coeffs(7, 3, deriv, delta=delta), expected, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2])
@pytest.mark.parametrize("mode", MODES)
def test_savgol_filter_axes_and_layouts(axis, mode):
    a = make_data((8, 9, 10), "float64", 12)
    d = cp.asarray(a)
    expected = ss.savgol_filter(a, 5, 2, axis=axis, mode=mode)
    assert_device(sig.savgol_filter(d, 5, 2, axis=axis, mode=mode), expected, rtol=1e-9, atol=1e-9)
    view, host = d[::-1, 1::2, ::3], a[::-1, 1::2, ::3]
    if mode != "interp" or host.shape[axis] >= 5:
        expected = ss.savgol_filter(host, 5, 2, axis=axis, mode=mode)
        assert_device(sig.savgol_filter(view, 5, 2, axis=axis, mode=mode), expected, rtol=1e-9, atol=1e-9)


def test_savgol_filter_errors():
    d = cp.asarray(np.arange(8.0))
    with pytest.raises(
        ValueError, match="^mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'.$"
    ):
        sig.savgol_filter(d, 5, 2, mode="foo")
    with pytest.raises(ValueError, match="^If mode is 'interp', window_length must be less than or equal"):
        sig.savgol_filter(d, 9, 2)
    with pytest.raises(ValueError, match="^polyorder must be less than window_length.$"):
        sig.savgol_filter(d, 5, 5)
    with pytest.raises(IndexError):
        sig.savgol_filter(d, 5, 2, axis=1)
    with pytest.raises(np.exceptions.AxisError):
        sig.savgol_filter(d, 5, 2, axis=1, mode="nearest")
    with pytest.raises(TypeError, match="must be real number, not str"):
        sig.savgol_filter(d, 5, 2, mode="constant", cval="a")
    assert_device(sig.savgol_filter(cp.zeros((3, 0)), 3, 0, mode="nearest"), np.zeros((3, 0)))


# ---------------------------------------------------------------- resample

RESAMPLE_TOL = {"float64": 1e-12, "complex128": 1e-12, "float32": 1e-5, "complex64": 1e-5, "float16": 1e-5}


@pytest.mark.parametrize(
    "dtype", ["float64", "float32", "float16", "complex128", "complex64", "int16", "uint8", "bool"]
)
@pytest.mark.parametrize("domain", ["time", "freq"])
def test_resample_dtypes_and_sizes(dtype, domain):
    tol = RESAMPLE_TOL.get(dtype, 1e-12)
    for n in (1, 2, 5, 8, 9, 16):
        x = make_data(n, dtype, n)
        for num in (1, 2, 3, 4, 8, 9, 17, 32):
            try:
                expected = ss.resample(x, num, domain=domain)
            except TypeError:  # a spectrum of integers or bools halved in place (SciPy's error, and ours)
                with pytest.raises(TypeError):
                    sig.resample(cp.asarray(x), num, domain=domain)
                continue
            scale = max(1.0, float(np.max(np.abs(expected))))
            assert_device(sig.resample(cp.asarray(x), num, domain=domain), expected, rtol=0, atol=tol * scale)


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "complex64"])
def test_resample_windows(dtype):
    tol = RESAMPLE_TOL[dtype]
    rng = np.random.default_rng(13)
    for n in (4, 7, 16):
        x = make_data(n, dtype, n)
        w = rng.uniform(0.2, 1.0, n)
        windows = [
            (cp.asarray(w), w),
            (cp.asarray(w.astype(np.float32)), w.astype(np.float32)),
            (lambda f: 1 - abs(f), lambda f: 1 - abs(f)),
            ("hann", "hann"),
            (("kaiser", 4.0), ("kaiser", 4.0)),
        ]
        for ours, theirs in windows:
            for num in (3, 8, 21):
                expected = ss.resample(x, num, window=theirs)
                scale = max(1.0, float(np.max(np.abs(expected))))
                got = sig.resample(cp.asarray(x), num, window=ours)
                assert_device(got, expected, rtol=0, atol=tol * scale)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_resample_axes_layouts_and_t(axis):
    a = make_data((6, 5, 8), "float64", 14)
    d = cp.asarray(a)
    for num in (3, 11):
        assert_device(sig.resample(d, num, axis=axis), ss.resample(a, num, axis=axis), atol=1e-10)
        host = a[::-1, :, 1::2]
        assert_device(
            sig.resample(d[::-1, :, 1::2], num, axis=axis), ss.resample(host, num, axis=axis), atol=1e-10
        )
    t = np.arange(8) * 0.25
    got, new_t = sig.resample(cp.asarray(a[0, 0]), 5, t=cp.asarray(t))
    expected, expected_t = ss.resample(a[0, 0], 5, t=t)
    assert_device(got, expected, atol=1e-10)
    assert_device(new_t, expected_t, atol=1e-15)
    _, list_t = sig.resample(cp.asarray(a[0, 0]), 5, t=[0, 2])
    assert_device(list_t, ss.resample(a[0, 0], 5, t=[0, 2])[1], atol=1e-15)


def test_resample_errors():
    d = cp.asarray(np.arange(8.0))
    with pytest.raises(ValueError, match=r"^Parameter domain='x' not in \('time', 'freq'\)!$"):
        sig.resample(d, 5, domain="x")
    with pytest.raises(ZeroDivisionError):
        sig.resample(d, 0)
    with pytest.raises(TypeError, match="slice indices must be integers"):
        sig.resample(d, 2.5)
    with pytest.raises(ValueError, match="invalid number of data points"):
        sig.resample(d, -1)
    with pytest.raises(ValueError, match="invalid number of data points"):
        sig.resample(d[:0], 5)
    with pytest.raises(ValueError, match=r"window length is not equal to number of frequency bins"):
        sig.resample(d, 5, window=cp.ones(7))
    with pytest.raises(TypeError, match="Unsupported type <class 'numpy.ndarray'>"):
        sig.resample(d, 5, window=np.ones(8))
    with pytest.raises(IndexError):
        sig.resample(d[0], 5)
    with pytest.raises(np.exceptions.AxisError):
        sig.resample(cp.ones((3, 4)), 5, axis=2)
