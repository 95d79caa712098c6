"""cuarray.scipy.signal's IIR design and filtering without a device: the host maths of the designs, conversions,
frequency responses and steady states (the private `_name` functions the public ones run before moving their
results to the device) match SciPy's in value, order and dtype; the public functions raise SciPy's errors before
any device work; the filtering kernels compile for sm_90; names and signatures are SciPy's."""

import inspect
import itertools
import warnings
from functools import partial

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
import signal_asserts
from cuarray.scipy.signal import _iir_design as design
from cuarray.scipy.signal import _iir_forms as forms
from cuarray.scipy.signal import _lfilter as filtering
from cuarray.scipy.signal._lfilter_past import past_lfilter_zi, past_sosfilt_zi
from signal_asserts import assert_rounds_every_operation, kernel_sources, same_error
from test_kernel_sources import _compile_together

pytestmark = pytest.mark.nogpu

NAMES = [
    "BadCoefficients",
    "bilinear_zpk",
    "buttap",
    "butter",
    "cheb1ap",
    "cheb2ap",
    "cheby1",
    "cheby2",
    "filtfilt",
    "freqz",
    "freqz_sos",
    "iirfilter",
    "lfilter",
    "lfilter_zi",
    "lfiltic",
    "lp2bp_zpk",
    "lp2bs_zpk",
    "lp2hp_zpk",
    "lp2lp_zpk",
    "sos2tf",
    "sos2zpk",
    "sosfilt",
    "sosfilt_zi",
    "sosfiltfilt",
    "sosfreqz",
    "tf2sos",
    "tf2zpk",
    "zpk2sos",
    "zpk2tf",
]


# Host results: SciPy's structure, dtypes (a 0-d gain `k` aside: compared alone) and values.
assert_host = partial(signal_asserts.assert_host, scalar_dtype=False)


def agree(ours, scipys, tol=1e-10):
    """ours() is scipys() (assert_host), or raises as it does."""
    __tracebackhide__ = True
    try:
        expected = scipys()
    except Exception:  # noqa: BLE001 (SciPy fails on some inputs; ours must fail alike)
        same_error(ours, scipys)
        return
    assert_host(ours(), expected, tol)


def test_names_and_signatures():
    """SciPy's names, parameters and defaults (SciPy's prototypes' xp and device keywords aside; lfiltic also
    has CuPy's axis)."""
    assert set(NAMES) <= set(sig.__all__)
    for name in NAMES:
        ours = getattr(sig, name)
        assert ours.__name__ == name
        if name == "BadCoefficients":
            assert issubclass(ours, UserWarning)
            continue
        theirs = inspect.signature(getattr(ss, name)).parameters
        mine = inspect.signature(ours).parameters
        expected = [(p.name, p.default, p.kind) for n, p in theirs.items() if n not in ("xp", "device")]
        if name in ("freqz_sos", "sosfreqz"):  # SciPy's sosfreqz is freqz_sos(*args, **kwargs)
            expected = [
                (p.name, p.default, p.kind) for p in inspect.signature(ss.freqz_sos).parameters.values()
            ]
        if name == "lfiltic":
            expected.append(("axis", -1, inspect.Parameter.POSITIONAL_OR_KEYWORD))
        assert [(p.name, p.default, p.kind) for p in mine.values()] == expected, name


@pytest.mark.parametrize("N", range(13))
def test_prototypes(N):
    assert_host(design._buttap(N), ss.buttap(N))
    for rp in (0.1, 1.0, 3.0):
        assert_host(design._cheb1ap(N, rp), ss.cheb1ap(N, rp))
    for rs in (20, 40.0, 80):
        assert_host(design._cheb2ap(N, rs), ss.cheb2ap(N, rs))


WN = {
    "lowpass": [0.05, 0.3, 0.9],
    "highpass": [0.1, 0.45, 0.8],
    "bandpass": [[0.1, 0.3], [0.2, 0.8]],
    "bandstop": [[0.1, 0.3], [0.45, 0.55]],
}


@pytest.mark.parametrize("output", ["ba", "zpk", "sos"])
@pytest.mark.parametrize("btype", list(WN))
@pytest.mark.parametrize("analog", [False, True])
def test_designs_match_scipy(output, btype, analog):
    """Every zero, pole, section and coefficient in SciPy's order, for orders 1 to 10."""
    for N, wn in itertools.product(range(1, 11), WN[btype]):
        wn = np.asarray(wn) * (10 if analog else 1)
        for ours, theirs, args in [
            (design._butter, ss.butter, (N, wn)),
            (design._cheby1, ss.cheby1, (N, 1.0, wn)),
            (design._cheby2, ss.cheby2, (N, 40, wn)),
        ]:
            try:
                expected = theirs(*args, btype, analog, output)
            except (
                IndexError
            ):  # SciPy's pairing fails for some analog Chebyshev II band filters: so does ours
                with pytest.raises(IndexError):
                    ours(*args, btype, analog, output)
                continue
            assert_host(ours(*args, btype, analog, output), expected)


def test_design_spellings_and_fs():
    for ftype in ["butter", "Butterworth", "cheby1", "chebyshevi", "cheby2", "CHEBYSHEV2"]:
        assert_host(
            design._iirfilter(4, [0.2, 0.4], rp=2, rs=30, ftype=ftype),
            ss.iirfilter(4, [0.2, 0.4], rp=2, rs=30, ftype=ftype),
        )
    for btype in ["l", "lp", "h", "hp", "pass", "bp", "stop", "bs", "bands"]:
        wn = [100, 200] if btype[0] in "bps" else 150
        assert_host(design._butter(3, wn, btype, fs=1000), ss.butter(3, wn, btype, fs=1000))
    assert_host(design._butter(3, 0.25, output="SOS"), ss.butter(3, 0.25, output="SOS"))


def _roots(rng, n):
    pairs = rng.integers(0, n // 2 + 1)
    r = rng.uniform(0.1, 0.99, pairs) * np.exp(1j * rng.uniform(0.05, 3.1, pairs))
    return np.concatenate((r, r.conj(), rng.uniform(-0.99, 0.99, n - 2 * pairs)))[rng.permutation(n)]


def _first_pairing(z, p, k):
    """SciPy's sections of z, p, k by the first of its pairings that does not fail."""
    for pairing in ("nearest", "keep_odd", "minimal"):
        try:
            return ss.zpk2sos(z, p, k, pairing=pairing)
        except (IndexError, ValueError):
            continue
    return ss.zpk2sos(z.real if np.iscomplexobj(z) else z, [], k)  # no poles: still sections


@pytest.mark.parametrize("seed", range(40))
def test_conversions_match_scipy(seed):
    """zpk2sos pairs as SciPy pairs (every pairing, digital and analog; where SciPy's pairing fails, ours fails
    alike), and the other conversions, the transforms and the frequency responses agree with SciPy's."""
    rng = np.random.default_rng(seed)
    z, p, k = _roots(rng, int(rng.integers(0, 7))), _roots(rng, int(rng.integers(0, 9))), rng.uniform(0.1, 3)
    for pairing in [None, "nearest", "keep_odd"]:
        agree(
            lambda pairing=pairing: forms._zpk2sos(z, p, k, pairing=pairing),
            lambda pairing=pairing: ss.zpk2sos(z, p, k, pairing=pairing),
        )
    assert_host(forms._zpk2tf(z, p, k), ss.zpk2tf(z, p, k))
    b, a = ss.zpk2tf(z, p, k)
    sos = _first_pairing(z, p, k)
    assert_host(forms._sos2tf(sos), ss.sos2tf(sos))
    assert_host(forms._sos2zpk(sos), ss.sos2zpk(sos), 1e-8)
    w = rng.uniform(0, 3, 5)
    for worN, whole, nyquist in itertools.product([1, 7, 512, w], [False, True], [False, True]):
        assert_host(
            forms._freqz(b, a, worN, whole, include_nyquist=nyquist),
            ss.freqz(b, a, worN, whole, include_nyquist=nyquist),
            1e-9,
        )
        assert_host(forms._freqz(b, 1, worN, whole, fs=6.0), ss.freqz(b, 1, worN, whole, fs=6.0), 1e-9)
        assert_host(forms._freqz_sos(sos, worN, whole), ss.freqz_sos(sos, worN, whole), 1e-9)
    if len(z) <= len(p):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ss.BadCoefficients)
            assert_host(forms._tf2zpk(b, a), ss.tf2zpk(b, a), 1e-8)
            agree(lambda: forms._tf2sos(b, a), lambda: ss.tf2sos(b, a), 1e-6)
        zz, pp = z * 3 - 2, p * 3 - 2
        agree(lambda: forms._zpk2sos(zz, pp, k, analog=True), lambda: ss.zpk2sos(zz, pp, k, analog=True))
        wo, bw = rng.uniform(0.5, 3), rng.uniform(0.1, 2)
        assert_host(design._lp2lp_zpk(z, p, k, wo), ss.lp2lp_zpk(z, p, k, wo))
        assert_host(design._lp2hp_zpk(z, p, k, wo), ss.lp2hp_zpk(z, p, k, wo))
        assert_host(design._lp2bp_zpk(z, p, k, wo, bw), ss.lp2bp_zpk(z, p, k, wo, bw))
        assert_host(design._lp2bs_zpk(z, p, k, wo, bw), ss.lp2bs_zpk(z, p, k, wo, bw))
        assert_host(design._bilinear_zpk(z, p, k, wo), ss.bilinear_zpk(z, p, k, wo))
    else:
        for ours, theirs in [(design._lp2lp_zpk, ss.lp2lp_zpk), (design._bilinear_zpk, ss.bilinear_zpk)]:
            same_error(
                lambda f=ours: f(z, p, k, 2.0), lambda f=theirs: f(z, p, k, 2.0)
            )  # more zeros than poles


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int64"])
def test_conversion_dtypes(dtype):
    b = np.array([1, 2, 1], dtype)
    a = np.array([4, 1, 1], dtype)
    for worN in (16, np.array([0.1, 0.2], dtype)):
        assert_host(forms._freqz(b, a, worN), ss.freqz(b, a, worN), 1e-5)
        assert_host(forms._freqz(b, 1, worN), ss.freqz(b, 1, worN), 1e-5)
    sos = np.array([[1, 2, 1, 1, 0, 0]], dtype)
    assert_host(forms._sos2tf(sos), ss.sos2tf(sos))
    z, p = np.array([1, 2], dtype), np.array([3], dtype)
    assert_host(forms._zpk2tf(z, p, 2), ss.zpk2tf(z, p, 2))
    assert_host(forms._zpk2tf(z, p, np.float64(2)), ss.zpk2tf(z, p, np.float64(2)))


def test_conversion_edges():
    k = np.array([2, 3])
    assert_host(forms._zpk2tf([[1, 2], [3, 4]], [0.5], k), ss.zpk2tf([[1, 2], [3, 4]], [0.5], k))
    assert_host(forms._zpk2tf([], [], 2), ss.zpk2tf([], [], 2))
    for analog in (False, True):
        assert_host(forms._zpk2sos([], [], 2, analog=analog), ss.zpk2sos([], [], 2, analog=analog))
    for b in (np.ones((3, 1)), np.ones((3, 2))):  # SciPy's FFT for one column; its error for more
        agree(lambda b=b: forms._freqz(b, 1, 8), lambda b=b: ss.freqz(b, 1, 8))
    assert_host(forms._freqz([1, 2], [1, 0.5], None), ss.freqz([1, 2], [1, 0.5], None))
    assert_host(forms._tf2zpk([1, 2], [0, 1, 0.5]), ss.tf2zpk([1, 2], [0, 1, 0.5]))
    with pytest.warns(sig.BadCoefficients, match="Badly conditioned"):
        ours = forms._tf2zpk([0, 0, 1, 2], [1, 0.5])
    with pytest.warns(ss.BadCoefficients):
        assert_host(ours, ss.tf2zpk([0, 0, 1, 2], [1, 0.5]))


def test_steady_states_match_scipy():
    filters = [
        ss.butter(4, 0.2),
        ss.cheby1(5, 1, 0.3, "high"),
        ([1, 2], [1]),
        ([1], [0, 2, 1]),
        ([1, 2j], [1, 0.5]),
    ]
    filters += [(np.float32([1, 2]), np.float32([1, 0.2])), ([1, 2], [2, 0.2]), ([1, 2], [1, 1])]
    for b, a in filters:
        assert_host(filtering.lfilter_zi_state(b, a), ss.lfilter_zi(b, a))
    for sos in [
        ss.butter(4, 0.2, output="sos"),
        np.float32([[1, 2, 3, 1, 0.5, 0.1]]),
        np.int64([[1, 2, 3, 1, 0, 0]]),
    ]:
        assert_host(filtering.sosfilt_zi_state(sos), ss.sosfilt_zi(sos))
    assert_host(filtering.sosfilt_zi_state(np.zeros((0, 6))), ss.sosfilt_zi(np.zeros((0, 6))))


def test_cupy_steady_pasts_are_scipys_steady_states():
    """CuPy's lfilter_zi and sosfilt_zi give the past of the steady step response (Note [CuPy's initial
    conditions]): SciPy's lfiltic of that past is SciPy's steady state; float64 or complex128 for lfilter_zi,
    sos's type for sosfilt_zi, as CuPy's."""
    for b, a in [
        ss.butter(4, 0.2),
        ss.cheby1(5, 1, 0.3, "high"),
        ([1, 2], [1]),
        ([1], [2, 1]),
        ([1, 2j], [1, 0.5]),
    ]:
        past = past_lfilter_zi(b, a)
        m = len(b) - 1
        assert past.shape == (len(b) + len(a) - 2,)
        assert past.dtype == np.result_type(np.float64, np.asarray(b), np.asarray(a))
        np.testing.assert_allclose(
            ss.lfiltic(b, a, past[m:][::-1], past[:m][::-1]), ss.lfilter_zi(b, a), atol=1e-12
        )
    assert past_lfilter_zi(np.float32([1, 2]), np.float32([1, 0.5])).dtype == np.float64
    assert past_lfilter_zi([3], [2]).shape == (0,)  # CuPy's; SciPy's raises
    for sos in [
        ss.butter(6, 0.2, output="sos"),
        np.float32([[1, 2, 3, 1, 0.5, 0.1]]),
        np.int64([[1, 2, 3, 1, 0, 0]]),
    ]:
        past = past_sosfilt_zi(sos)
        assert past.shape == (len(sos), 4) and past.dtype == (
            np.float64 if sos.dtype.kind == "i" else sos.dtype
        )
        for s, row in enumerate(np.asarray(sos, np.float64)):
            state = ss.lfiltic(row[:3], row[3:], past[s, 2:][::-1], past[s, :2][::-1])
            np.testing.assert_allclose(state, ss.sosfilt_zi(sos)[s], rtol=1e-6)


DESIGN_ERRORS = [
    {"N": 4, "Wn": 0.2, "ftype": "foo"},
    {"N": 4, "Wn": 0.2, "btype": "foo"},
    {"N": 4, "Wn": 0.2, "output": "foo"},
    {"N": 4, "Wn": -0.2, "btype": "low"},
    {"N": 4, "Wn": [0.4, 0.2]},
    {"N": 4, "Wn": 1.2, "btype": "low"},
    {"N": 4, "Wn": 300, "btype": "low", "fs": 500},
    {"N": 4, "Wn": 0.2, "btype": "low", "fs": 500, "analog": True},
    {"N": 4, "Wn": 0.2, "btype": "low", "fs": [1, 2]},
    {"N": 4, "Wn": 0.2, "ftype": "cheby1"},
    {"N": 4, "Wn": 0.2, "ftype": "cheby2"},
    {"N": 4, "Wn": 0.2, "rp": -1, "ftype": "cheby1"},
    {"N": 4, "Wn": 0.2, "rs": -1, "ftype": "cheby2"},
    {"N": 4, "Wn": [0.2, 0.3], "btype": "low"},
    {"N": 4, "Wn": 0.2, "btype": "bandpass"},
    {"N": -1, "Wn": 0.2, "btype": "low"},
    {"N": 2.5, "Wn": 0.2, "btype": "low"},
]


@pytest.mark.parametrize("kwargs", DESIGN_ERRORS, ids=str)
def test_design_errors(kwargs):
    """The public functions raise SciPy's errors before any device work."""
    same_error(lambda: sig.iirfilter(**kwargs), lambda: ss.iirfilter(**kwargs))


def test_bessel_is_not_implemented():
    """Bessel filters raise NotImplementedError once SciPy's checks pass (elliptic ones are designed: tested in
    test_filter_design_nogpu.py)."""
    for ftype in ("bessel", "bessel_phase", "bessel_delay", "bessel_mag"):
        with pytest.raises(NotImplementedError, match="not implemented in cuarray"):
            sig.iirfilter(4, 0.2, rp=1, rs=40, btype="low", ftype=ftype)
    with pytest.raises(ValueError, match="must be 0 < Wn < 1"):
        sig.iirfilter(4, 1.5, btype="low", ftype="butter")


CONVERSION_ERRORS = [
    ("zpk2sos", ([1], [2], 1), {"pairing": "foo"}),
    ("zpk2sos", ([1], [2], 1), {"pairing": "nearest", "analog": True}),
    ("zpk2sos", ([1, 2], [2], 1), {"analog": True}),
    ("zpk2sos", ([1j], [2], 1), {}),
    ("zpk2sos", ([1], [2], 1j), {}),
    ("tf2zpk", ([1], [0, 0]), {}),
    ("lp2lp_zpk", ([1, 2], [3], 1), {}),
    ("bilinear_zpk", ([1, 2], [3], 1, 2.0), {}),
    ("bilinear_zpk", ([1], [3], 1, None), {}),
    ("buttap", (-1,), {}),
    ("cheb2ap", (1.5, 40), {}),
    ("freqz", ([1], [1], -1), {}),
    ("freqz", ([1], [1], 3), {"fs": None}),
    ("freqz", ([1], [1], 3), {"fs": [1, 2]}),
    ("freqz_sos", (np.zeros((2, 5)),), {}),
    ("freqz_sos", (np.zeros((2, 2, 6)),), {}),
    ("freqz_sos", ([[1, 2, 3, 2, 0, 0]],), {}),
    ("freqz_sos", (np.zeros((0, 6)),), {}),
    ("lfilter_zi", ([[1, 2]], [1, 0.5]), {}),
    ("lfilter_zi", ([1, 2], [[1, 0.5]]), {}),
    ("lfilter_zi", ([1, 2], []), {}),
    ("lfilter_zi", ([1, 2], [1, -1]), {}),
    ("sosfilt_zi", ([1, 2, 3, 1, 0.5, 0.1],), {}),
]


@pytest.mark.parametrize("name,args,kwargs", CONVERSION_ERRORS, ids=lambda v: str(v))
def test_conversion_errors(name, args, kwargs):
    same_error(lambda: getattr(sig, name)(*args, **kwargs), lambda: getattr(ss, name)(*args, **kwargs))


def test_host_signals_are_refused():
    """lfilter, lfiltic and sosfilt take device signals (the coefficients may be host values); CuPy's convert
    nothing either."""
    x = np.ones(8)
    sos = ss.butter(2, 0.3, output="sos")
    for call in [
        lambda: sig.lfilter([1.0], [1.0, 0.5], x),
        lambda: sig.lfiltic([1.0], [1.0, 0.5], x),
        lambda: sig.sosfilt(sos, x),
        lambda: sig.sosfilt(sos, [1.0, 2.0]),
    ]:
        with pytest.raises(TypeError, match="Unsupported type"):
            call()


def test_filtfilt_takes_host_signals_to_the_device():
    """As CuPy's (cupy.asarray), filtfilt and sosfiltfilt copy a host signal to the device: here, where there is
    none, that fails. sosfiltfilt checks its sections first, as CuPy's and SciPy's."""
    sos = ss.butter(2, 0.3, output="sos")
    for x in (np.ones(20), [1.0] * 20):
        for call in (
            lambda x=x: sig.filtfilt([1.0], [1.0, 0.5], x),
            lambda x=x: sig.filtfilt([1.0], [1.0, 0.5], x, method="gust"),
            lambda x=x: sig.sosfiltfilt(sos, x),
        ):
            with pytest.raises(cp.cuda.CUDARuntimeError, match=r"(?i)no CUDA driver or device"):
                call()
    with pytest.raises(ValueError, match=r"^sos array must be shape \(n_sections, 6\)$"):
        sig.sosfiltfilt(np.ones((2, 5)), np.ones(20))


def test_filtering_kernels_compile():
    """The six kernels, for every type they run in."""
    sources = kernel_sources(filtering)
    assert len(sources) == 12
    assert _compile_together([(s, n) for _, _, s, n, _ in sources])[:4] == b"\x7fELF"


def test_filtering_kernels_round_every_operation():
    """Compiled as the library compiles them, the kernels' PTX rounds each product, sum and quotient to nearest
    (IEEE's, as SciPy's loops do: Note [Filtering as SciPy rounds] in _lfilter.py)."""
    for kernel, dtype, source, name, options in kernel_sources(filtering):
        arithmetic = assert_rounds_every_operation(kernel, dtype, source, name, options)
        if kernel == "cuarray_lfilter_complex":  # its division by |a[0]|^2: IEEE's, not an approximation
            assert f"div.rn.f{dtype[-2:]}" in arithmetic
