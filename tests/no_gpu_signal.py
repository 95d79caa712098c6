"""test_no_gpu.py's rows for cuarray.scipy.signal (a plain module it imports, as the tests import conftest's
helpers): the signal functions that need a device, and those that refuse host arrays with CuPy's TypeError."""

import warnings

import cuarray as cp
import cuarray.scipy.signal
import numpy as np

H1 = np.arange(1.0, 4.0)  # host values where a device array would go (test_no_gpu.py uses them too)
H2 = np.eye(2) + 1.0

# The arguments of each window function of cuarray.scipy.signal.windows (4 points) past M, where it takes any.
_WINDOW_ARGS = {
    "get_window": ("hann", 4),
    "general_cosine": (4, [0.5, 0.5]),
    "general_hamming": (4, 0.6),
    "kaiser": (4, 3.0),
    "kaiser_bessel_derived": (4, 3.0),
    "gaussian": (4, 1.0),
    "general_gaussian": (4, 1.5, 2.0),
    "chebwin": (4, 60),
}


def _quietly(f, *args):
    """f(*args) with its warnings silenced (a deprecated function's, where the row checks something else)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args)


# Calls that need a device: CUDARuntimeError with the no-device message.
SIGNAL_NEEDS_DEVICE = {
    **{
        f"scipy.signal.windows.{n}": lambda n=n: getattr(cp.scipy.signal.windows, n)(
            *_WINDOW_ARGS.get(n, (4,))
        )
        for n in cp.scipy.signal.windows.__all__
    },
    "scipy.signal.get_window": lambda: cp.scipy.signal.get_window(("kaiser", 2.0), 4),
    "scipy.signal.firwin": lambda: cp.scipy.signal.firwin(5, 0.3),
    "scipy.signal.firwin2": lambda: cp.scipy.signal.firwin2(5, [0, 0.5, 1], [1, 1, 0]),
    "scipy.signal.savgol_coeffs": lambda: cp.scipy.signal.savgol_coeffs(5, 2),  # a device array of them
    # the window is a device array (get_window's, or a host window copied), the verdict a 0-d device array
    "scipy.signal.check_COLA": lambda: cp.scipy.signal.check_COLA("hann", 8, 4),
    "scipy.signal.check_NOLA": lambda: cp.scipy.signal.check_NOLA(np.ones(8), 8, 4),
    # polyphase filtering, least-squares design, Lomb-Scargle: host values copied to the
    # device as CuPy's asarray copies them (firls designs on the host, its taps a device array)
    "scipy.signal.upfirdn": lambda: cp.scipy.signal.upfirdn(H1, H1, 2),
    "scipy.signal.resample_poly": lambda: cp.scipy.signal.resample_poly(H1, 2, 1),
    "scipy.signal.decimate": lambda: cp.scipy.signal.decimate(np.ones(40), 2),
    "scipy.signal.firls": lambda: cp.scipy.signal.firls(5, [0, 0.4, 0.6, 1], [1, 1, 0, 0]),
    "scipy.signal.lombscargle": lambda: cp.scipy.signal.lombscargle(H1, H1, H1),
    # IIR design: host maths (host arguments taken, as SciPy's), device results
    **{
        f"scipy.signal.{n}": (lambda n=n, args=args: getattr(cp.scipy.signal, n)(*args))
        for n, args in {
            "butter": (2, 0.5),
            "cheby1": (2, 1.0, 0.5),
            "cheby2": (2, 40.0, 0.5),
            "iirfilter": (2, 0.5, None, None, "low"),
            "buttap": (2,),
            "cheb1ap": (2, 1.0),
            "cheb2ap": (2, 40.0),
            "bilinear_zpk": ([], [-1.0], 1.0, 2.0),
            "lp2lp_zpk": ([], [-1.0], 1.0),
            "lp2hp_zpk": ([], [-1.0], 1.0),
            "lp2bp_zpk": ([], [-1.0], 1.0),
            "lp2bs_zpk": ([], [-1.0], 1.0),
            "zpk2tf": ([], [0.5], 1.0),
            "tf2zpk": ([1.0], [1.0, -0.5]),
            "zpk2sos": ([], [0.5], 1.0),
            "tf2sos": ([1.0], [1.0, -0.5]),
            "sos2tf": ([[1.0, 0, 0, 1, -0.5, 0]],),
            "sos2zpk": ([[1.0, 0, 0, 1, -0.5, 0]],),
            "freqz": (H1,),
            "freqz_sos": ([[1.0, 0, 0, 1, -0.5, 0]],),
            "sosfreqz": ([[1.0, 0, 0, 1, -0.5, 0]],),
            "lfilter_zi": (H1, [1.0, 0.5]),
            "sosfilt_zi": ([[1.0, 0, 0, 1, -0.5, 0]],),
            "normalize": ([1.0], [2.0, 1.0]),
            "bilinear": ([1.0], [1.0, 1.0]),
            "lp2lp": ([1.0], [1.0, 1.0]),
            "lp2hp": ([1.0], [1.0, 1.0]),
            "lp2bp": ([1.0], [1.0, 1.0]),
            "lp2bs": ([1.0], [1.0, 1.0]),
            "tf2ss": ([1.0], [1.0, 0.5]),
            "ss2tf": ([[0.5]], [[1.0]], [[1.0]], [[0.0]]),
            "buttord": (0.2, 0.3, 3, 40),
            "cheb1ord": (0.2, 0.3, 3, 40),
            "cheb2ord": (0.2, 0.3, 3, 40),
            "iirnotch": (0.1, 30),
            "iirpeak": (0.1, 30),
            "iircomb": (0.1, 30),
            "freqs": ([1.0], [1.0, 1.0], 8),
            "freqs_zpk": ([], [-1.0], 1.0, 8),
            "freqz_zpk": ([], [0.5], 1.0, 8),
            "group_delay": (([1.0], [1.0, -0.5]), 8),
            "zpk2ss": ([], [0.5], 1.0),
            "ss2zpk": ([[0.5]], [[1.0]], [[1.0]], [[0.0]]),
            "abcd_normalize": ([[0.5]], [[1.0]], [[1.0]], [[0.0]]),
            "unique_roots": ([1.0, 2.0],),
            "residue": ([1.0], [1.0, -0.5]),
            "residuez": ([1.0], [1.0, -0.5]),
            "invres": ([1.0], [0.5], []),
            "invresz": ([1.0], [0.5], []),
        }.items()
    },
    # CuPy's deprecation warning, then the device
    "scipy.signal.qmf": lambda: _quietly(cp.scipy.signal.qmf, H1),
    # lags made on the device; deconvolve's and vectorstrength's host values copied over, as CuPy's asarray does
    "scipy.signal.correlation_lags": lambda: cp.scipy.signal.correlation_lags(4, 3),
    "scipy.signal.deconvolve": lambda: cp.scipy.signal.deconvolve([1.0, 3.0, 2.0], [1.0, 1.0]),
    "scipy.signal.vectorstrength": lambda: cp.scipy.signal.vectorstrength([0.5, 1.5], 2.0),
    # waveforms: times copied to the device as CuPy's asarray copies them; unit_impulse and max_len_seq
    # (whose arguments are checked on the host) make device arrays
    **{
        f"scipy.signal.{n}": (lambda n=n, args=args: getattr(cp.scipy.signal, n)(*args))
        for n, args in {
            "chirp": (H1, 1.0, 1.0, 2.0),
            "sawtooth": (H1,),
            "square": (H1,),
            "gausspulse": (H1,),
            "sweep_poly": (H1, [1.0, 2.0]),
            "unit_impulse": (4,),
            "max_len_seq": (4,),
        }.items()
    },
    # Host signals copied to the device, as CuPy's cupy.asarray copies them (Note [Host signals] in
    # scipy/signal/_peak_finding.py)
    **{
        f"scipy.signal.{n}": (lambda n=n, args=args: getattr(cp.scipy.signal, n)(*args))
        for n, args in {
            "detrend": (H2,),
            "argrelmin": (H1,),
            "argrelmax": (H1,),
            "argrelextrema": (H1, np.less),
            "find_peaks": (H1,),
            "peak_prominences": (H1, [1]),
            "peak_widths": (H1, [1]),
            "savgol_filter": (H1, 3, 1),
            "resample": (H1, 5),
            "periodogram": (H1,),
            "welch": (H1,),
            "spectrogram": (H1,),
            "stft": (H1,),
            "csd": (H1, H1),
            "coherence": (H1, H1),
            "istft": (H2,),
            "filtfilt": (H1, H1, H1),
            "sosfiltfilt": ([[1.0, 0, 0, 1, -0.5, 0]], H1),
        }.items()
    },
    # designs whose results are device arrays
    **{
        f"scipy.signal.{n}": (lambda n=n, args=args: getattr(cp.scipy.signal, n)(*args))
        for n, args in {
            "iirdesign": (0.2, 0.3, 1, 40, False, "butter"),
            "band_stop_obj": (0.5, 0, np.array([0.2, 0.3]), np.array([0.1, 0.4]), 1, 40, "butter"),
            "ellip": (2, 1.0, 40.0, 0.5),
            "ellipap": (2, 1.0, 40.0),
            "ellipord": (0.2, 0.3, 3, 40),
            "findfreqs": ([1.0], [1.0, 1.0], 8),
            "gammatone": (440, "iir", None, None, 16000.0),
        }.items()
    },
    # CuPy's deprecated wavelets, computed on the device
    **{
        f"scipy.signal.{n}": (lambda n=n, args=args: _quietly(getattr(cp.scipy.signal, n), *args))
        for n, args in {
            "ricker": (10, 2.0),
            "morlet": (10,),
            "morlet2": (10, 2.0),
            "cwt": (H1, cp.scipy.signal.ricker, [1, 2]),
        }.items()
    },
    "scipy.signal.gauss_spline": lambda: cp.scipy.signal.gauss_spline(H1, 2),
    # linear time-invariant systems: coefficients read on the host, systems and results on the device
    **{
        f"scipy.signal.{n}": (lambda n=n, args=args: getattr(cp.scipy.signal, n)(*args))
        for n, args in {
            "lti": ([1.0], [1.0, 1.0]),
            "dlti": ([1.0], [1.0, 0.5]),
            "TransferFunction": ([1.0], [1.0, 1.0]),
            "ZerosPolesGain": ([], [-1.0], 1.0),
            "StateSpace": ([[-1.0]], [[1.0]], [[1.0]], [[0.0]]),
            "lsim": (([1.0], [1.0, 1.0]), [1.0, 1.0], [0.0, 1.0]),
            "impulse": (([1.0], [1.0, 1.0]),),
            "step": (([1.0], [1.0, 1.0]),),
            "freqresp": (([1.0], [1.0, 1.0]),),
            "bode": (([1.0], [1.0, 1.0]),),
            "dlsim": (([1.0], [1.0, 0.5], 1.0), [1.0, 2.0]),
            "dimpulse": (([1.0], [1.0, 0.5], 1.0),),
            "dstep": (([1.0], [1.0, 0.5], 1.0),),
            "dfreqresp": (([1.0], [1.0, 0.5], 1.0),),
            "dbode": (([1.0], [1.0, 0.5], 1.0),),
            "cont2discrete": (([[-1.0]], [[1.0]], [[1.0]], [[0.0]]), 0.1),
            "place_poles": ([[0.0, 1.0], [0.0, 0.0]], [[0.0], [1.0]], [-1.0, -2.0]),
        }.items()
    },
    # the chirp z-transform: sizes and ranges checked and chirps computed on the host, then copied to the device
    # (host signals too, as CuPy's asarray copies them)
    "scipy.signal.czt": lambda: cp.scipy.signal.czt(H1),
    "scipy.signal.zoom_fft": lambda: cp.scipy.signal.zoom_fft(H1, 0.5),
    "scipy.signal.czt_points": lambda: cp.scipy.signal.czt_points(4),
    "scipy.signal.CZT": lambda: cp.scipy.signal.CZT(3),
    "scipy.signal.ZoomFFT": lambda: cp.scipy.signal.ZoomFFT(3, 0.5),
}

# Functions that take device arrays: given host arrays they raise CuPy's error, naming numpy.ndarray.
SIGNAL_TAKES_DEVICE_ARRAYS = {
    # CuPy's TypeError "Unsupported type <class 'numpy.ndarray'>" (the convolution lesson shows it).
    **{
        f"scipy.signal.{n}": (lambda n=n: getattr(cp.scipy.signal, n)(H1, H1), (TypeError, "numpy\\.ndarray"))
        for n in ("convolve", "correlate", "fftconvolve", "oaconvolve", "choose_conv_method")
    },
    **{
        f"scipy.signal.{n}": (lambda n=n: getattr(cp.scipy.signal, n)(H2, H2), (TypeError, "numpy\\.ndarray"))
        for n in ("convolve2d", "correlate2d")
    },
    # wiener's image and order_filter's array (CuPy's filters refuse host arrays)
    "scipy.signal.wiener": (lambda: cp.scipy.signal.wiener(H2), (TypeError, "numpy\\.ndarray")),
    "scipy.signal.order_filter": (
        lambda: cp.scipy.signal.order_filter(H2, np.ones((3, 3)), 4),
        (TypeError, "numpy\\.ndarray"),
    ),
    # Where CuPy's take device arrays only (CuPy's FFTs and rank filter refuse host arrays; its lfilter and
    # sosfilt convert nothing); the other signal functions copy host signals to the device (NEEDS_DEVICE).
    **{
        f"scipy.signal.{n}": (lambda n=n: getattr(cp.scipy.signal, n)(H2), (TypeError, "numpy\\.ndarray"))
        for n in ("hilbert", "hilbert2", "medfilt", "medfilt2d")
    },
    # Filtering: the signals must be device arrays (the coefficients may be host values).
    **{
        f"scipy.signal.{n}": (
            lambda n=n: getattr(cp.scipy.signal, n)(H1, H1, H1),
            (TypeError, "numpy\\.ndarray"),
        )
        for n in ("lfilter", "lfiltic")
    },
    "scipy.signal.sosfilt": (
        lambda: cp.scipy.signal.sosfilt([[1.0, 0, 0, 1, -0.5, 0]], H1),
        (TypeError, "numpy\\.ndarray"),
    ),
    # B-splines and symmetric IIR filters: signals, images and coefficients must be device arrays, as CuPy's
    # (long enough for SciPy's starting sums to converge, which are checked first)
    **{
        f"scipy.signal.{n}": (
            lambda n=n, args=args: getattr(cp.scipy.signal, n)(*args),
            (TypeError, "numpy\\.ndarray"),
        )
        for n, args in {
            "cspline1d": (H1,),
            "qspline1d": (H1,),
            "cspline1d_eval": (H1, H1),
            "qspline1d_eval": (H1, H1),
            "cspline2d": (np.ones((20, 20)),),
            "qspline2d": (np.ones((20, 20)),),
            "spline_filter": (np.ones((200, 200)),),
            "sepfir2d": (H2, [1.0], [1.0]),
            "symiirorder1": (np.arange(1.0, 41.0), 0.5, 0.1),
            "symiirorder2": (np.arange(1.0, 41.0), 0.5, 0.1),
        }.items()
    },
}
