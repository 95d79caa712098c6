"""chirp, sawtooth, square, gausspulse, sweep_poly, unit_impulse and max_len_seq on the device against
scipy.signal: SciPy's values, dtypes and shapes for every time dtype SciPy takes, scalars, sequences and host
arrays (copied over, as CuPy's cupy.asarray copies them), odd sizes, 0-d, empty and non-contiguous times, and
SciPy's errors. What needs no device (names, argument errors, the shift-register kernels' bodies run on the host)
is in test_waveforms_nogpu.py. The comparisons are tests/signal/signal_asserts.py's."""

import itertools

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from signal_asserts import EXACT, SCIPY_1_18, assert_device

pytestmark = pytest.mark.gpu

TOL = 1e-12  # float64 results: SciPy's expressions, the same IEEE operations


def _times():
    """(name, host time array): dtypes, layouts and sizes SciPy takes."""
    base = np.linspace(-7.3, 13.1, 101)
    return {
        "float64": base,
        "float32": base.astype(np.float32),
        "float16": np.arange(-6, 7).astype(np.float16),
        "int64": np.arange(-6, 9),
        "int8": np.arange(-6, 9).astype(np.int8),
        "uint8": np.arange(0, 9).astype(np.uint8),
        "2d": np.random.default_rng(0).uniform(-10, 10, (4, 5)),
        "strided": base[::3],
        "negative stride": base[::-1],
        "0-d": np.array(0.7),
        "size 1": np.array([2.5]),
        "empty": np.zeros(0),
    }


def _tol(t, tol64=TOL):
    """float32 and float16 times give SciPy's dtype with terms computed in their own precision, as SciPy's are."""
    kind = np.asarray(t).dtype
    return {2: 2e-3, 4: 2e-5}.get(kind.itemsize, tol64) if kind.kind == "f" else tol64


# ---------------------------------------------------------------- sawtooth and square

WIDTHS = [None, 0, 0.25, 0.5, 1, -0.5, 3.0, np.float32(0.3), np.array(0.3, np.float32)]


@pytest.mark.parametrize("fn", ["sawtooth", "square"])
@pytest.mark.parametrize("width", WIDTHS, ids=repr)
@pytest.mark.parametrize("name", list(_times()))
def test_sawtooth_square_match_scipy(fn, width, name):
    t = _times()[name]
    kw = {} if width is None else {"width" if fn == "sawtooth" else "duty": width}
    expected = getattr(ss, fn)(t, **kw)
    if not SCIPY_1_18:  # Note [Waveform dtypes]: SciPy 1.17 gave float64 for every time
        like = 1 if width is None else width if type(width) in (int, float) else np.asarray(width).dtype
        dtype = np.result_type(t.dtype, like)
        expected = expected.astype(dtype if dtype.kind in "fc" else np.float64)
    assert_device(getattr(sig, fn)(cp.asarray(t), **kw), expected, _tol(t))
    assert_device(getattr(sig, fn)(t, **kw), expected, _tol(t))  # a host array is copied over, as CuPy's


@pytest.mark.parametrize("fn", ["sawtooth", "square"])
def test_sawtooth_square_edges_and_array_widths(fn):
    t = np.array([0.0, 2 * np.pi, -2 * np.pi, np.pi, -np.pi, 1.0, np.nan, np.inf, -np.inf])
    for w in (0.0, 0.5, 1.0, np.nan):
        assert_device(getattr(sig, fn)(cp.asarray(t), w), getattr(ss, fn)(t, w), TOL)
    # a width per element, broadcast against t, and CuPy's tests' negative times
    t2 = np.linspace(0, 20, 12).reshape(3, 4)
    w = np.linspace(-0.2, 1.2, 4)
    assert_device(getattr(sig, fn)(cp.asarray(t2), cp.asarray(w)), getattr(ss, fn)(t2, w), TOL)
    assert_device(getattr(sig, fn)(cp.asarray(t2[:, :1]), w), getattr(ss, fn)(t2[:, :1], w), TOL)
    tn = np.linspace(-2 * np.pi, 2 * np.pi, 500)
    assert_device(getattr(sig, fn)(cp.asarray(tn), 0.5), getattr(ss, fn)(tn, 0.5), TOL)
    # Python scalars and lists: 0-d and 1-d device arrays
    assert_device(getattr(sig, fn)(1.25), getattr(ss, fn)(1.25), TOL)
    assert_device(getattr(sig, fn)([0.5, 4.0], [0.2, 0.9]), getattr(ss, fn)([0.5, 4.0], [0.2, 0.9]), TOL)


@pytest.mark.parametrize("fn", ["sawtooth", "square"])
def test_sawtooth_square_refuse_what_numpy_refuses(fn):
    with pytest.raises(TypeError):  # SciPy's t - t: NumPy refuses a boolean subtract
        getattr(sig, fn)(cp.asarray([True, False]))
    with pytest.raises(TypeError, match="remainder"):
        getattr(sig, fn)(cp.asarray([1j, 2.0]))


# ---------------------------------------------------------------- gausspulse

GAUSS_KW = [
    {},
    {"fc": 5},
    {"fc": 5.0, "bw": 1, "bwr": -3},
    {"fc": np.float32(7)},
    {"retquad": True},
    {"retenv": True},
    {"retquad": True, "retenv": True, "fc": 3},
]


@pytest.mark.parametrize("kw", GAUSS_KW, ids=repr)
@pytest.mark.parametrize("name", list(_times()))
def test_gausspulse_matches_scipy(kw, name):
    t = _times()[name]
    if "fc" not in kw:
        t = t * 1e-3  # the default 1 kHz pulse lasts milliseconds
    assert_device(sig.gausspulse(cp.asarray(t), **kw), ss.gausspulse(t, **kw), _tol(t, 1e-10))


def test_gausspulse_complex_scalar_and_sequence_times():
    t = np.array([0.1 + 0.2j, -0.3j, 0.25])
    assert_device(
        sig.gausspulse(cp.asarray(t), fc=2, retquad=True), ss.gausspulse(t, fc=2, retquad=True), 1e-10
    )
    assert_device(sig.gausspulse(1e-4), ss.gausspulse(np.asarray(1e-4)), 1e-10)
    # SciPy's multiplies a NumPy scalar by the list (a TypeError); CuPy's takes it through cupy.asarray
    assert_device(sig.gausspulse([1e-4, 2e-4]), ss.gausspulse(np.array([1e-4, 2e-4])), 1e-10)


# ---------------------------------------------------------------- chirp

METHODS = ["linear", "quadratic", "logarithmic", "hyperbolic"]  # the short names: test_chirp_method_names
# the hyperbolic sweeps' singular times (f1 t1 / (f1 - f0)) fall between the samples: a NaN phase there gives
# NaNs whose complex parts need not match NumPy's
FREQS = [(10.0, 3.0, 20.0), (10, 3, 20), (6, 10, 1.5), (5, 2, 5), (-3, 2, -6), (2.5, 0.5, 0.3)]
CHIRP_KW = [{}, {"phi": 30}, {"vertex_zero": False}, {"complex": True}, {"phi": np.float32(45)}]


def _chirp_times():
    t = {k: v for k, v in _times().items() if k not in ("float16", "uint8", "size 1")}
    t["float64"] = t["strided"] = np.linspace(-1, 1, 11)  # CuPy's tests' times, where phases stay moderate
    # (a logarithmic sweep at t = -7 has a phase near 1e14, whose cosine not even NumPy's two pow loops agree on)
    t["negative stride"] = np.linspace(-1, 1, 11)[::-1]
    t["float32"] = np.linspace(-1, 1, 37, dtype=np.float32)
    t["2d"] = np.linspace(0, 3, 20).reshape(4, 5)
    t["int8"] = np.arange(-3, 4).astype(np.int8)
    t["int64"] = np.arange(-3, 4)
    return t


@pytest.mark.parametrize("kw", CHIRP_KW, ids=repr)
@pytest.mark.parametrize("freqs", FREQS, ids=repr)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", list(_chirp_times()))
def test_chirp_matches_scipy(kw, freqs, method, name):
    t = _chirp_times()[name]
    f0, t1, f1 = freqs
    try:
        expected = ss.chirp(t, f0, t1, f1, method, **kw)
    except ValueError as e:
        with pytest.raises(ValueError, match=str(e)[:30]):
            sig.chirp(cp.asarray(t), f0, t1, f1, method, **kw)
        return
    # float32 times: SciPy's float32 phase, then float64 (np.deg2rad(phi) is a float64 NumPy scalar)
    assert_device(sig.chirp(cp.asarray(t), f0, t1, f1, method, **kw), expected, _tol(t, 1e-9) * 10)


@pytest.mark.parametrize(
    "names",
    [
        ("linear", "lin", "li"),
        ("quadratic", "quad", "q"),
        ("logarithmic", "log", "lo"),
        ("hyperbolic", "hyp"),
    ],
)
def test_chirp_method_names(names):
    t = np.linspace(-1, 1, 11)
    for name in names:
        assert_device(
            sig.chirp(cp.asarray(t), 2.0, 1.5, 3.0, name), ss.chirp(t, 2.0, 1.5, 3.0, names[0]), 1e-9
        )


def test_chirp_scalar_times_as_cupys_tests():
    for method, f0, f1 in [
        ("linear", 1, 2),
        ("quadratic", 1, 2),
        ("logarithmic", 1, 2),
        ("hyperbolic", 10, 1),
    ]:
        for t in (0, 0.0, 0.3):
            assert_device(
                sig.chirp(t, f0, 1.0, f1, method), np.asarray(ss.chirp(t, f0, 1.0, f1, method)), 1e-12
            )
    assert_device(
        sig.chirp([0.1, 0.2], 1, 1, 2, phi=cp.asarray(10.0)), ss.chirp([0.1, 0.2], 1, 1, 2, phi=10.0), TOL
    )


# ---------------------------------------------------------------- sweep_poly

POLYS = {
    "quad": [1.0, 0.0, 1.0],
    "const": [2.0],
    "linear": [-1.0, 10.0],
    "cubic": [2.0, 1.0, 0.0, -2.0],
    "int": [3, 1],
    "float32": np.array([2.0, 1.0, 0.0, -2.0], np.float32),
    "complex": [1j, 2.0],
    "leading zeros": [0.0, 0.0, 1.0],
}


@pytest.mark.parametrize("phi", [0, 30.0])
@pytest.mark.parametrize("poly", list(POLYS))
@pytest.mark.parametrize("name", [n for n in _times() if n not in ("float64", "strided", "negative stride")])
def test_sweep_poly_matches_scipy(phi, poly, name):
    t = _times()[name]
    p = POLYS[poly]
    expected = ss.sweep_poly(t, p, phi)
    tol = 1e-9 if np.asarray(t).dtype.itemsize > 2 else 1e-3  # float16 times: a large phase in few digits
    assert_device(sig.sweep_poly(cp.asarray(t), p, phi), expected, tol)
    assert_device(sig.sweep_poly(cp.asarray(t), cp.asarray(p), phi), expected, tol)


def test_sweep_poly_poly1d_and_cupys_tests():
    t = np.linspace(0, 3.0, 10000)
    for c in ([1.0, 0.0, 1.0], [2.0], [-1.0, 10.0], [1.0, 0.0, -2.0], [2.0, 1.0, 0.0, -2.0]):
        expected = ss.sweep_poly(t, np.poly1d(c))
        assert_device(sig.sweep_poly(cp.asarray(t), cp.poly1d(c)), expected, 1e-9)
        assert_device(sig.sweep_poly(cp.asarray(t), np.poly1d(c)), expected, 1e-9)
    tn = np.linspace(0, 3.0, 101)[::-2]
    assert_device(sig.sweep_poly(cp.asarray(tn), [1.0, 2.0]), ss.sweep_poly(tn, [1.0, 2.0]), 1e-10)


# ---------------------------------------------------------------- unit_impulse

IMPULSES = [
    ((7,), {}),
    (((3, 3),), {}),
    ((10, 3), {}),
    (((3, 3), (1, 1)), {}),
    (((4, 4), 2), {}),
    (((3, 3), "mid"), {}),
    ((9, "mid"), {}),
    (((2, 3, 4), "mid"), {}),
    ((5, 3), {"dtype": int}),
    (((5, 2), (3, 1)), {"dtype": complex}),
    ((5, -1), {"dtype": bool}),
    ((4, None, np.float32), {}),
    (((3, 3), (1,)), {}),  # one index for a 2-D shape: SciPy's out[idx] = 1 sets a row
    ((np.int64(6), 2), {}),
    ((1,), {}),
]


@pytest.mark.parametrize("args,kw", IMPULSES, ids=repr)
def test_unit_impulse_matches_scipy(args, kw):
    assert_device(sig.unit_impulse(*args, **kw), ss.unit_impulse(*args, **kw), EXACT)


def test_unit_impulse_index_out_of_range():
    with pytest.raises(IndexError):
        sig.unit_impulse(5, 5)


# ---------------------------------------------------------------- max_len_seq

ALT_TAPS = {1: [1], 2: [1], 3: [2], 4: [3], 5: [4, 3, 2], 6: [5, 4, 1], 7: [4], 8: [7, 5, 3]}


@pytest.mark.parametrize("taps", [None, "custom", "coinciding"])
@pytest.mark.parametrize("state", [None, "random"])
@pytest.mark.parametrize("nbits", list(range(1, 17)) + [20])
def test_max_len_seq_matches_scipy(nbits, state, taps):
    if taps is None and nbits == 1:
        return  # no default taps (the error is tested without a device)
    rng = np.random.default_rng(nbits)
    taps = {None: None, "custom": ALT_TAPS.get(nbits, [nbits - 1]), "coinciding": [0, nbits, nbits - 1, 1]}[
        taps
    ]
    if state is not None:
        state = rng.integers(0, 2, nbits) * rng.uniform(0.5, 2, nbits)  # cast to bool, as SciPy's
        state[0] = 1
    for length in (None, 0, 1, 5, 2**nbits + 3):
        expected = ss.max_len_seq(nbits, state=state, length=length, taps=taps)
        assert_device(sig.max_len_seq(nbits, state=state, length=length, taps=taps), expected, EXACT)
        if state is not None:  # device state and taps, as CuPy's take them
            dtaps = None if taps is None else cp.asarray(taps)
            got = sig.max_len_seq(nbits, state=cp.asarray(state), length=length, taps=dtaps)
            assert_device(got, expected, EXACT)


@pytest.mark.parametrize(
    "nbits,taps", [(64, [63, 2]), (64, [64, 0, 5]), (65, [64, 20]), (70, [69, 3, 70, 0]), (100, [37])]
)
def test_max_len_seq_long_registers(nbits, taps):
    """64 bits in one integer; longer registers in SciPy's ring buffer (Note [Maximum length sequences])."""
    state = np.random.default_rng(nbits).integers(0, 2, nbits)
    state[3] = 1
    for length in (0, 1, 300, 1001):
        expected = ss.max_len_seq(nbits, state=state, length=length, taps=taps)
        assert_device(sig.max_len_seq(nbits, state=state, length=length, taps=taps), expected, EXACT)


@pytest.mark.parametrize("nbits", range(2, 8))
def test_max_len_seq_runs_chain_through_the_state(nbits):
    """CuPy's test: a sequence made in pieces, each starting from the last one's state, is the whole sequence,
    and its circular autocorrelation is 2**nbits - 1 at lag 0 and -1 elsewhere."""
    whole = ss.max_len_seq(nbits)[0]
    for n in (1, 2 ** (nbits - 1)):
        m1, s1 = sig.max_len_seq(nbits, length=n)
        m2, s2 = sig.max_len_seq(nbits, state=s1, length=1)
        m3, _ = sig.max_len_seq(nbits, state=s2, length=2**nbits - 1 - n - 1)
        assert_device(cp.concatenate((m1, m2, m3)), whole, EXACT)
    m = 2.0 * sig.max_len_seq(nbits)[0] - 1.0
    corr = cp.asnumpy(cp.real(cp.fft.ifft(cp.fft.fft(m) * cp.conj(cp.fft.fft(m)))))
    np.testing.assert_allclose(corr, [2**nbits - 1] + [-1] * (2**nbits - 2), atol=1e-9)


def test_max_len_seq_device_arguments_checked_as_scipys():
    with pytest.raises(ValueError, match="must not be all zeros"):
        sig.max_len_seq(10, state=cp.zeros(10))
    with pytest.raises(ValueError, match="1-D array of size nbits"):
        sig.max_len_seq(10, state=cp.ones(3))
    with pytest.raises(ValueError, match="taps must be non-empty"):
        sig.max_len_seq(10, taps=cp.asarray([-1, 1]))


def test_results_are_fresh_device_arrays():
    """The state passed in is not changed (SciPy's copies it), and a sequence with no elements is empty."""
    state = cp.asarray([1, 0, 1, 1], dtype=np.int8)
    seq, final = sig.max_len_seq(4, state=state, length=7)
    assert cp.asnumpy(state).tolist() == [1, 0, 1, 1]
    assert final.dtype == np.int8 and seq.dtype == np.int8
    assert sig.max_len_seq(10, length=0)[0].size == 0
    for fn, args in itertools.product([sig.sawtooth, sig.square], [(np.zeros(0),)]):
        assert fn(*args).shape == (0,)
