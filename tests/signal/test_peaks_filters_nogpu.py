"""Peak finding, median and Savitzky-Golay filters and resample without a device: the prominence and width
kernels compile for sm_90 and their bodies, run on the host, give SciPy's values bit for bit; the host parts
(the distance selection, the Savitzky-Golay coefficients, edge fits and boundary extensions) match SciPy; and
argument errors come before any device work."""

import ctypes
import shutil
import subprocess

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.ndimage as ndi
import scipy.signal as ss
from cuarray import _core
from cuarray.scipy.signal import _filters, _peak_finding
from test_kernel_sources import compile_for_test

F8, I8 = np.dtype("float64"), np.dtype("int64")


def _kernel_source(name, in_types, out_types, kinds):
    k = _peak_finding._kernel(name)
    handle = k._definition(tuple(in_types), tuple(out_types), {})
    return _core._elementwise_source(
        handle, in_types, out_types, False, 1, kinds=kinds, raw_ndim=[1] * len(kinds)
    )


def test_peak_kernels_compile_for_sm90():
    for args in (
        ("prominence", [F8, I8, I8], [F8, I8, I8], [2, 0, 1]),
        ("width", [F8, I8, F8, I8, I8, F8], [F8] * 4, [2, 0, 0, 0, 0, 1]),
    ):
        src, name = _kernel_source(*args)
        assert compile_for_test(src, name)[:4] == b"\x7fELF"


# The kernels' bodies as host loops: x is read through operator[] and size() as a raw array is, and
# -ffp-contract=off keeps the host from fusing what __dmul_rn and __dsub_rn keep apart on the device.
_HARNESS = r"""
struct Raw {
    const double* p; long long n;
    long long size() const { return n; }
    double operator[](long long i) const { return p[i]; }
};
static double __dmul_rn(double a, double b) { return a * b; }
static double __dsub_rn(double a, double b) { return a - b; }
extern "C" void prominences(const double* xp, long long nx, const long long* peaks, long long count,
                            long long wlen, double* out_p, long long* out_l, long long* out_r) {
    const Raw x{xp, nx};
    for (long long e = 0; e < count; ++e) {
        const long long peak = peaks[e];
        double prominence; long long left_base, right_base;
        { PROMINENCE }
        out_p[e] = prominence; out_l[e] = left_base; out_r[e] = right_base;
    }
}
extern "C" void widths(const double* xp, long long nx, const long long* peaks, const double* proms,
                       const long long* lefts, const long long* rights, long long count, double rel_height,
                       double* out_w, double* out_h, double* out_l, double* out_r) {
    const Raw x{xp, nx};
    for (long long e = 0; e < count; ++e) {
        const long long peak = peaks[e], left_base = lefts[e], right_base = rights[e];
        const double prominence = proms[e];
        double width, width_height, left_ip, right_ip;
        { WIDTH }
        out_w[e] = width; out_h[e] = width_height; out_l[e] = left_ip; out_r[e] = right_ip;
    }
}
"""


@pytest.fixture(scope="module")
def host_kernels(tmp_path_factory):
    compiler = shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no C++ compiler to run the kernel bodies on the host")
    d = tmp_path_factory.mktemp("peak_kernels")
    source = _HARNESS.replace("PROMINENCE", _peak_finding._PROMINENCE_BODY).replace(
        "WIDTH", _peak_finding._WIDTH_BODY
    )
    (d / "k.cpp").write_text(source)
    subprocess.run(
        [compiler, "-O2", "-ffp-contract=off", "-shared", "-fPIC", "-o", str(d / "k.so"), str(d / "k.cpp")],
        check=True,
    )
    return ctypes.CDLL(str(d / "k.so"))


def _ptr(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def _host_prominences(lib, x, peaks, wlen):
    n = peaks.size
    out = np.empty(n), np.empty(n, np.int64), np.empty(n, np.int64)
    lib.prominences(
        _ptr(x),
        ctypes.c_longlong(x.size),
        _ptr(peaks),
        ctypes.c_longlong(n),
        ctypes.c_longlong(wlen),
        *map(_ptr, out),
    )
    return out


def _host_widths(lib, x, peaks, rel_height, prom):
    n = peaks.size
    out = tuple(np.empty(n) for _ in range(4))
    lib.widths(
        _ptr(x), ctypes.c_longlong(x.size), _ptr(peaks), *map(_ptr, prom), ctypes.c_longlong(n),
        ctypes.c_double(rel_height), *map(_ptr, out),
    )  # fmt: skip
    return out


def _signals(rng):
    for n in (3, 4, 10, 57, 300):
        yield rng.standard_normal(n)
        yield rng.integers(0, 4, n).astype(float)  # plateaus and equal peaks
        x = rng.integers(0, 5, n).astype(float)
        x[rng.integers(0, n, max(1, n // 6))] = np.nan
        yield x
        yield np.repeat(rng.integers(0, 6, n), rng.integers(1, 4, n))[:n].astype(float)


@pytest.mark.filterwarnings("ignore:some peaks have a")  # SciPy's PeakPropertyWarning for its zero results
def test_kernel_bodies_give_scipys_prominences_and_widths(host_kernels):
    rng = np.random.default_rng(0)
    compared = 0
    for x in _signals(rng):
        found = ss.find_peaks(x)[0].astype(np.int64)
        anywhere = rng.integers(0, x.size, 6).astype(np.int64)  # not maxima: zero prominences, NaN peaks
        for peaks in (found, anywhere):
            for wlen in (None, 2, 3, 4.5, 9, 10**6):
                expected = ss.peak_prominences(x, peaks, wlen)
                got = _host_prominences(host_kernels, x, peaks, _peak_finding._arg_wlen_as_expected(wlen))
                for g, e in zip(got, expected):
                    np.testing.assert_array_equal(g, e)
                for rel in (0.0, 0.3, 0.5, 1.0, 1.7):
                    with np.errstate(all="ignore"):
                        expected_w = ss.peak_widths(x, peaks, rel, prominence_data=expected)
                    for g, e in zip(_host_widths(host_kernels, x, peaks, rel, got), expected_w):
                        np.testing.assert_array_equal(g, e)
                    compared += 1
    assert compared > 500


@pytest.mark.parametrize("levels", [1, 2, 3, 50])
def test_distance_selection_is_scipys(levels):
    # Equal heights (levels=1) are taken in the order of NumPy's default argsort, as SciPy takes them.
    rng = np.random.default_rng(levels)
    for n in (40, 301, 4000):
        x = np.zeros(n)
        x[1:-1:2] = rng.integers(1, 1 + levels, (n - 1) // 2)
        x[rng.integers(0, n, n // 10)] = 0
        peaks = ss.find_peaks(x)[0]
        for distance in (1, 1.5, 2, 3, 4.2, 10, n - 1, n + 9, 1e300, np.inf, np.nan):
            expected = ss.find_peaks(x, distance=distance)[0]
            keep = _peak_finding._distance_keep(peaks, x[peaks], distance, n)
            np.testing.assert_array_equal(peaks[keep], expected, err_msg=f"{n} {distance}")


def _vandermonde_condition(length, order, pos=None, **_):
    """The condition number of savgol_coeffs' least-squares system (x ** k for the window's offsets x)."""
    half, rem = divmod(length, 2)
    pos = (half - 0.5 if rem == 0 else half) if pos is None else pos
    x = np.arange(-pos, length - pos, dtype=np.float64)
    return np.linalg.cond(x ** np.arange(order + 1.0).reshape(-1, 1))


def test_savgol_coefficients_are_scipys():
    # Least-squares fits of up to order 12: their Vandermonde systems are ill-conditioned (cond up to 1.5e16),
    # and two least-squares solvers or LAPACK builds agree only to about eps * cond of the largest coefficient
    # there. On the H200 machine (SciPy 1.18.1, OpenBLAS 0.3.34), NumPy's lstsq (ours) and SciPy's differed by
    # up to 1.9 eps cond(A) of it, among them a coefficient that is 0 in exact arithmetic, -7.8e-10 and 2.2e-10
    # among coefficients of 5e3 (length 9, order 8, deriv 5, delta 0.25). So the tolerance is 10 eps cond(A)
    # of the largest coefficient, at most 1e-2 of it: tight for the well-conditioned systems, and a wrong fit,
    # which changes coefficients by their own size, fails everywhere.
    eps = np.finfo(np.float64).eps
    for length in range(1, 14):
        for order in range(length):
            for deriv in (0, 1, 2, 5):
                for kw in ({}, {"use": "dot"}, {"delta": 0.25}, {"pos": 0}, {"pos": length - 1}):
                    expected = ss.savgol_coeffs(length, order, deriv, **kw)
                    spread = min(10 * eps * _vandermonde_condition(length, order, **kw), 1e-2)
                    np.testing.assert_allclose(
                        _filters._coeffs(length, order, deriv, **kw),
                        expected,
                        rtol=0,
                        atol=spread * max(1.0, np.abs(expected).max()),
                        err_msg=f"{length} {order} {deriv} {kw}",
                    )


def test_savgol_interp_edges_are_scipys_polynomial_fits():
    rng = np.random.default_rng(1)
    for length, order, deriv in [
        (3, 1, 0),
        (5, 2, 0),
        (5, 2, 1),
        (6, 3, 2),
        (9, 4, 1),
        (11, 2, 3),
        (7, 6, 0),
    ]:
        x = rng.standard_normal(20)
        expected = ss.savgol_filter(x, length, order, deriv, delta=0.5)
        half = length // 2
        left = _filters._edge_map(length, order, deriv, 0.5, 0, half) @ x[:length]
        right = _filters._edge_map(length, order, deriv, 0.5, length - half, half) @ x[-length:]
        np.testing.assert_allclose(left, expected[:half], rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(right, expected[len(x) - half :], rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("mode", ["mirror", "nearest", "wrap"])
def test_savgol_extensions_are_ndimages(mode):
    # Windows longer than the signal reflect or wrap more than once, as ndimage's extension does.
    rng = np.random.default_rng(2)
    for n in range(1, 8):
        for length in range(1, 17):
            x, w = rng.standard_normal(n), rng.standard_normal(length)
            ext = x[_filters._extended_index(n, length, mode)]
            got = [sum(w[j] * ext[i + length - 1 - j] for j in range(length)) for i in range(n)]
            np.testing.assert_allclose(got, ndi.convolve1d(x, w, mode=mode), rtol=1e-12, atol=1e-12)


def test_argument_errors_before_any_device_work():
    with pytest.raises(ValueError, match="polyorder must be less than window_length"):
        sig.savgol_coeffs(5, 5)
    with pytest.raises(ValueError, match="pos must be nonnegative"):
        sig.savgol_coeffs(5, 2, pos=5)
    with pytest.raises(ValueError, match="`use` must be 'conv' or 'dot'"):
        sig.savgol_coeffs(5, 2, use="x")
    with pytest.raises(ValueError, match="factorial"):
        sig.savgol_coeffs(5, 2, deriv=-1)
    with pytest.raises(ValueError, match="mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'"):
        sig.savgol_filter(np.ones(5), 3, 1, mode="reflect")
    with pytest.raises(ValueError, match=r"Parameter domain='x' not in \('time', 'freq'\)!"):
        sig.resample(np.ones(5), 3, domain="x")
    with pytest.raises(ValueError, match="`wlen` must be larger than 1, was 1"):
        _peak_finding._arg_wlen_as_expected(1)
    assert _peak_finding._arg_wlen_as_expected(2.5) == 3  # a Python float rounds up, as in SciPy
    assert _peak_finding._arg_wlen_as_expected(np.float32(2.5)) == 2  # other types truncate, as in SciPy
    assert _peak_finding._arg_wlen_as_expected(None) == -1


def test_median_filters_refuse_host_arrays():
    """CuPy's medfilt and medfilt2d hand their input to a rank filter that takes device arrays only."""
    h = np.array([0.0, 2.0, 1.0, 3.0, 0.0])
    for call in (lambda: sig.medfilt(h), lambda: sig.medfilt2d(h.reshape(1, 5))):
        with pytest.raises(TypeError, match=r"^Unsupported type <class 'numpy.ndarray'>$"):
            call()
    with pytest.raises(TypeError, match=r"^Unsupported type <class 'list'>$"):
        sig.medfilt([0.0, 1.0, 0.0])


@pytest.mark.nogpu
def test_host_signals_go_to_the_device():
    """As CuPy's (cupy.asarray), the peak functions, savgol_filter and resample copy a host signal (a NumPy
    array, a list, a scalar) and host peak indices to the device: here, where there is none, that copy fails."""
    h = np.array([0.0, 2.0, 1.0, 3.0, 0.0])
    calls = [
        lambda: sig.argrelmin(h),
        lambda: sig.argrelmax([0.0, 2.0, 1.0], order=2),
        lambda: sig.argrelextrema(h, np.greater),
        lambda: sig.find_peaks(h),
        lambda: sig.find_peaks([0, 1, 0], prominence=(None, None), width=(None, None), wlen=2),
        lambda: sig.peak_prominences(h, np.array([1, 3])),
        lambda: sig.peak_prominences([1, 2, 3], []),
        lambda: sig.peak_widths(h, [1, 3]),
        lambda: sig.peak_widths(3, [0]),
        lambda: sig.savgol_filter(h, 3, 1),
        lambda: sig.savgol_filter([1.0, 2.0, 3.0], 3, 1),
        lambda: sig.resample(h, 3),
        lambda: sig.resample([1.0, 2.0], 3),
    ]
    for call in calls:
        with pytest.raises(cp.cuda.CUDARuntimeError, match=r"(?i)no CUDA driver or device"):
            call()


def test_device_only_peak_arguments_refuse_host_arrays():
    """What CuPy uses as it is stays device-only: peak_widths' prominence_data (with SciPy's TypeError for
    None) and find_peaks' per-sample borders (Note [Host signals])."""
    for value, argument in ((np.ones(1), "prominences"), ([0], "left_bases")):
        with pytest.raises(TypeError, match=r"^Unsupported type <class '(numpy.ndarray|list)'>$"):
            _peak_finding._check_buffer(value, np.float64, "float64_t", argument)
    for argument in ("prominences", "left_bases", "right_bases"):
        with pytest.raises(TypeError, match=rf"^Argument '{argument}' must not be None$"):
            _peak_finding._check_buffer(None, np.intp, "intp_t", argument)
    for interval in (np.zeros(5), (None, np.zeros(5)), (np.zeros(5), 1.0)):
        with pytest.raises(TypeError, match=r"^Unsupported type <class 'numpy.ndarray'>$"):
            _peak_finding._unpack_condition_args(interval, None, None)


def test_peak_property_warning_is_a_runtime_warning():
    assert issubclass(_peak_finding.PeakPropertyWarning, RuntimeWarning)
    assert _peak_finding.PeakPropertyWarning.__name__ == "PeakPropertyWarning"
