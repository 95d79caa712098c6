"""cuarray.scipy.signal's order selection, notch and comb designs, analog and zero-pole responses, group delay,
state-space conversions and partial fractions without a device: the host maths (the private `_name` functions the
public ones run before moving their results to the device) matches SciPy's in value, dtype, warnings and errors;
the public functions raise SciPy's errors before any device work; names and signatures are SciPy's. The device
results are tested in test_filter_extras.py."""

import inspect
import warnings

import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from cuarray.scipy.signal import _filter_extras as fx
from cuarray.scipy.signal import _partial_fractions as pf
from signal_asserts import assert_host as shared_assert_host
from signal_asserts import assert_scipy_signatures, integers_as_float64

pytestmark = pytest.mark.nogpu

NAMES = [
    "abcd_normalize",
    "buttord",
    "cheb1ord",
    "cheb2ord",
    "freqs",
    "freqs_zpk",
    "freqz_zpk",
    "group_delay",
    "iircomb",
    "iirnotch",
    "iirpeak",
    "invres",
    "invresz",
    "residue",
    "residuez",
    "ss2zpk",
    "unique_roots",
    "zpk2ss",
]


def assert_host(got, expected, tol=1e-12):
    shared_assert_host(got, expected, tol)


def agree(ours, scipys, tol=1e-12):
    """ours() is scipys(), with the same warnings (category name and text), or raises as it does (type and
    message)."""
    __tracebackhide__ = True
    with warnings.catch_warnings(record=True) as theirs_w:
        warnings.simplefilter("always")
        try:
            expected = scipys()
        except Exception as e:  # noqa: BLE001 (SciPy fails on some inputs; ours must fail alike)
            with pytest.raises(type(e)) as got:
                ours()
            assert str(got.value) == str(e)
            return
    with warnings.catch_warnings(record=True) as ours_w:
        warnings.simplefilter("always")
        got = ours()
    assert [(w.category.__name__, str(w.message)) for w in ours_w] == [
        (w.category.__name__, str(w.message)) for w in theirs_w
    ]
    assert_host(got, expected, tol)


def test_names_and_signatures():
    """SciPy's names, parameters and defaults (SciPy's xp and device keywords aside)."""
    assert_scipy_signatures(sig, ss, NAMES)
    assert set(NAMES) | {"qmf"} <= set(sig.__all__)
    assert list(inspect.signature(sig.qmf).parameters) == ["hk"]  # CuPy's (SciPy 1.12 removed it)


ORDER_SPECS = [
    (0.2, 0.3, 3, 40),  # lowpass
    (0.3, 0.2, 1, 60),  # highpass
    ([0.2, 0.5], [0.14, 0.6], 3, 40),  # bandpass
    ([0.2, 0.5], [0.14, 0.6], 3, 100),
    ([0.14, 0.6], [0.2, 0.5], 3, 40),  # bandstop: the passband edges found by the bounded minimiser
    ([0.1, 0.6], [0.2, 0.5], 3, 150),
    ([0.05, 0.8], [0.3, 0.4], 0.1, 20),
    (0.1, 0.11, 0.5, 80),
    (np.float32(0.2), np.float32(0.3), 3, 40),  # float32 edges stay float32 where SciPy keeps them
    (np.array([0.2, 0.5], np.float32), np.array([0.1, 0.6], np.float32), 1, 30),
    ([2, 5], [1, 6], 3, 40),  # integer edges (with fs below)
    (0.2, 0.3, 0, 40),  # errors: gains
    (0.2, 0.3, 3, 0),
    (0.2, 0.3, 50, 40),
]


@pytest.mark.parametrize("name", ["buttord", "cheb1ord", "cheb2ord"])
@pytest.mark.parametrize("spec", ORDER_SPECS, ids=str)
def test_order_selection_matches_scipy(name, spec):
    ours, theirs = getattr(fx, "_" + name), getattr(ss, name)
    wp, ws, gpass, gstop = spec
    agree(lambda: ours(wp, ws, gpass, gstop), lambda: theirs(wp, ws, gpass, gstop), 1e-9)
    wp, ws = np.asarray(wp), np.asarray(ws)
    for kwargs, scale in [
        ({"fs": 20}, 10),
        ({"fs": 2000.0}, 1000),
        ({"analog": True}, 10),
        ({"analog": True, "fs": 10}, 1),  # an error
        ({"fs": [1, 2]}, 1),  # an error
    ]:
        args = (wp * scale, ws * scale, gpass, gstop)
        agree(lambda: ours(*args, **kwargs), lambda: theirs(*args, **kwargs), 1e-9)  # noqa: B023


def test_order_selection_public_errors():
    """Raised on the host before any device array is made."""
    with pytest.raises(ValueError, match="gpass should be larger than 0.0"):
        sig.buttord(0.2, 0.3, 0, 40)
    with pytest.raises(ValueError, match="gpass should be smaller than gstop"):
        sig.cheb1ord(0.2, 0.3, 50, 40)
    with pytest.raises(ValueError, match="fs cannot be specified for an analog filter"):
        sig.cheb2ord(0.2, 0.3, 3, 40, analog=True, fs=10)


@pytest.mark.parametrize("name", ["iirnotch", "iirpeak"])
@pytest.mark.parametrize(
    "w0,Q,fs",
    [(0.1, 30, 2.0), (60, 30, 1000), (0.5, 1, 2.0), (1.0, 10, 2), (0, 10, 2), (1.5, 10, 2), (-1, 3, 2)],
)
def test_notch_and_peak_match_scipy(name, w0, Q, fs):
    agree(lambda: getattr(fx, "_" + name)(w0, Q, fs), lambda: getattr(ss, name)(w0, Q, fs))


@pytest.mark.parametrize(
    "w0,Q,fs", [(20, 30, 1000), (0.1, 3, 2.0), (1000 / 3, 5, 1000), (0, 3, 2), (0.3, 3, 2.0)]
)
@pytest.mark.parametrize("ftype", ["notch", "peak", "NoTch", "bad"])
@pytest.mark.parametrize("pass_zero", [False, True])
def test_comb_matches_scipy(w0, Q, fs, ftype, pass_zero):
    agree(
        lambda: fx._iircomb(w0, Q, ftype, fs, pass_zero=pass_zero),
        lambda: ss.iircomb(w0, Q, ftype, fs, pass_zero=pass_zero),
    )


def test_notch_and_comb_public_errors():
    with pytest.raises(ValueError, match="w0 should be such that 0 < w0 < 1"):
        sig.iirnotch(1.5, 10)
    with pytest.raises(ValueError, match="fs must be divisible by w0"):
        sig.iircomb(0.3, 3)
    with pytest.raises(ValueError, match="Sampling frequency fs must be a single scalar"):
        sig.iirpeak(0.3, 3, [1, 2])


WORNS = [
    8,
    200,
    None,
    1,
    0,
    [1.0, 10.0, 100.0],
    np.array([1, 2, 3]),
    np.linspace(0, 300, 7, dtype=np.float32),
]
ANALOG_BA = {
    "butter": ss.butter(4, 100, analog=True),
    "one": ([1.0], [1.0]),
    "ints": ([1, 2], [1, 3, 2]),
    "float32": (np.array([1, 2], np.float32), np.array([1, 3, 2], np.float32)),
}
ANALOG_ZPK = {
    "cheby1": ss.cheby1(4, 5, 100, analog=True, output="zpk"),
    "empty": ([], [], 1),
    "complex64": tuple(
        np.asarray(v, np.complex64) for v in ss.cheby1(3, 1, 10, analog=True, output="zpk")[:2]
    )
    + (2.0,),
    "k_array": ([1.0], [-2.0, -3.0], [2.0]),
    "k_two": ([1.0], [-2.0, -3.0], [2.0, 3.0]),  # an error
}


def _tol(*arrays):
    """1e-5 where SciPy computes in single precision (or from integers it turns into float32), else 1e-12."""
    return 1e-5 if any(np.asarray(a).dtype.char in "fFil" for a in arrays) else 1e-12


@pytest.mark.parametrize("worN", WORNS, ids=str)
@pytest.mark.parametrize("name", list(ANALOG_BA))
def test_freqs_matches_scipy(worN, name):
    b, a = ANALOG_BA[name]
    agree(lambda: fx._freqs(b, a, worN), lambda: ss.freqs(b, a, worN), _tol(b, worN))


@pytest.mark.parametrize("worN", WORNS, ids=str)
@pytest.mark.parametrize("name", list(ANALOG_ZPK))
def test_freqs_zpk_matches_scipy(worN, name):
    z, p, k = ANALOG_ZPK[name]
    agree(lambda: fx._freqs_zpk(z, p, k, worN), lambda: ss.freqs_zpk(z, p, k, worN), _tol(z, worN))


DIGITAL_ZPK = {
    "cheby1": ss.cheby1(4, 5, 0.5, output="zpk"),
    "one": ([0.5], [0.5], 1.0),
    "float32": (np.array([0.5], np.float32), np.array([0.5j, -0.5j], np.complex64), 2.0),
    "ints": ([1], [0], 2),  # SciPy's float32 frequencies
}


@pytest.mark.parametrize(
    "worN", [8, None, 0, [0.1, 0.2], np.array([0, 1, 2]), np.array([0.1, 0.3], np.float32)]
)
@pytest.mark.parametrize("whole", [False, True])
@pytest.mark.parametrize("fs", [2 * np.pi, 1000.0, None])
@pytest.mark.parametrize("name", list(DIGITAL_ZPK))
def test_freqz_zpk_matches_scipy(worN, whole, fs, name):
    z, p, k = DIGITAL_ZPK[name]
    agree(
        lambda: fx._freqz_zpk(z, p, k, worN, whole, fs),
        lambda: ss.freqz_zpk(z, p, k, worN, whole, fs),
        _tol(p, worN),
    )


SYSTEMS = {
    "one": (1, 1),
    "butter": ss.butter(6, 0.3),
    "fir": ([1, 2, 3], 1),
    "complex_a": ([1.0], [1, -0.5j]),
    "float32": tuple(c.astype(np.float32) for c in ss.butter(3, 0.3)),
    "zero_at_dc": ([1, -1], [1]),  # singular at w = 0: SciPy's warning and a 0
    "zero_at_nyquist": ([1, 1], [1]),
}


@pytest.mark.parametrize("name", list(SYSTEMS))
@pytest.mark.parametrize("w", [512, None, 8, 1, [0.1, 1.0], np.array([0, 0.5]), 0.5, np.array([np.pi]), 0])
@pytest.mark.parametrize("whole", [False, True])
def test_group_delay_matches_scipy(name, w, whole):
    system = SYSTEMS[name]
    agree(lambda: fx._group_delay(system, w, whole), lambda: ss.group_delay(system, w, whole), 1e-9)
    agree(
        lambda: fx._group_delay(system, w, whole, 96000),
        lambda: ss.group_delay(system, w, whole, 96000),
        1e-9,
    )


def test_group_delay_public_errors_and_warnings():
    with pytest.raises(ValueError, match="Sampling frequency can not be none"):
        sig.group_delay((1, 1), fs=None)
    with (
        np.errstate(divide="ignore", invalid="ignore"),
        pytest.warns(UserWarning, match=r"singular at frequencies \[0.000\]"),
    ):
        fx._group_delay(([1, -1], [1]), 4)


ZPKS = [([], [0.5], 1.0), ([1, 2], [3, 4, 5], 2.0), ([-1j, 1j], [-0.5 + 0.2j, -0.5 - 0.2j, -1], 3)]
ZPKS += [ss.cheby1(4, 5, 0.5, output="zpk"), ([], [], 2.0), ([1.0], [2.0], 1.0)]


@pytest.mark.parametrize("zpk", ZPKS, ids=str)
def test_state_space_conversions_match_scipy(zpk):
    agree(lambda: fx._zpk2ss(*zpk), lambda: ss.zpk2ss(*zpk))
    if len(zpk[1]):
        abcd = ss.zpk2ss(*zpk)
        agree(lambda: fx._ss2zpk(*abcd), lambda: ss.ss2zpk(*abcd), 1e-8)
        agree(lambda: fx._ss2zpk(*abcd, input=1), lambda: ss.ss2zpk(*abcd, input=1))  # an error


@pytest.mark.parametrize(
    "abcd",
    [
        (None, None, None, None),
        ([[1.0]], None, None, None),
        ([[1.0]], [[1.0]], None, None),
        ([[1.0]], [[1.0]], [[1]], None),
        (None, [[1.0], [2.0]], None, [[1.0]]),
        ([[1, 2], [3, 4]], [1, 2], None, [[1.0]]),
        (np.eye(2), [[1.0, 0], [0, 1]], [[1.0, 2.0]], [[0.0, 1.0]]),
    ],
    ids=str,
)
def test_abcd_normalize_matches_scipy(abcd):
    agree(lambda: fx._abcd_normalize(*abcd), lambda: integers_as_float64(ss.abcd_normalize(*abcd)))


RTYPES = ["avg", "mean", "min", "minimum", "max", "maximum", "bad"]
ROOTS = {
    "real": np.array([-1.0, -0.5, 0.3, 1.2, 10.0]),
    "real_repeat": np.array([-1.0, -0.95, -0.89, -0.8, 0.5, 1.0, 1.05]),
    "complex_repeat": np.array(
        [-1.0, -1.0 + 0.05j, -0.95 + 0.15j, -0.90 + 0.15j, 0.0, 0.5 + 0.5j, 0.45 + 0.55j]
    ),
    "gh_4915": np.roots(np.convolve(np.ones(5), np.ones(5))),
    "extra": np.array([1, 1 + 2e-9, 1e-9 + 1j]),
    "random": np.random.RandomState(1234).rand(100) + 1j * np.random.RandomState(1234).rand(100),
    "empty": np.array([]),
    "ints": np.array([1, 2, 2, 3]),
    "float32": np.array([1, 1, 2], np.float32),
}


@pytest.mark.parametrize("name", list(ROOTS))
@pytest.mark.parametrize("tol", [1e-3, 1e-1, 2])
@pytest.mark.parametrize("rtype", RTYPES)
def test_unique_roots_matches_scipy(name, tol, rtype):
    p = ROOTS[name]
    agree(lambda: pf._unique_roots(p, tol, rtype), lambda: ss.unique_roots(p, tol, rtype))


BA = [
    ([1, 0, 1], [1, 0, -1]),
    ([1, 2, 3], [1, -3, 3, -1]),  # a triple pole
    ([1.0], [1, 1]),
    ([0, 0, 1, 2], [0, 1, 3, 2]),  # leading zeros
    ([1, 2, 3, 4, 5], [1, 2]),  # a direct polynomial
    ([2j, 1], [1, 0.5 + 0.5j, 1j]),
    ([], [1, 2]),
    ([1, 2], []),
    ([0], [0, 0]),
    ([1], [1, 4, 6, 4, 1]),
    ([3], [2]),  # no poles
    ([1, 1, 0, 0], [1, -1.5, 0.5, 0]),  # trailing zeros
    ([1, 0.2], [0, 1, 0.3]),  # residuez: a zero first coefficient
]


@pytest.mark.parametrize("ba", BA, ids=str)
@pytest.mark.parametrize("rtype", ["avg", "min", "max", "bad"])
def test_residues_match_scipy(ba, rtype):
    b, a = ba
    agree(lambda: pf._residue(b, a, 1e-3, rtype), lambda: ss.residue(b, a, 1e-3, rtype), 1e-8)
    agree(lambda: pf._residuez(b, a, 1e-3, rtype), lambda: ss.residuez(b, a, 1e-3, rtype), 1e-8)


RPK = [
    ([1, 1], [1, -1], [1]),
    ([1, 2, 3], [1, 1, 1], []),  # a triple pole
    ([1, 2], [0.5 + 0.5j, 0.5 - 0.5j], [0, 2, 3]),
    ([3, 4], [1, 1.0001], []),  # two poles within tol: one group
    ([1j], [2], [1j]),
    ([], [], []),  # an error
]


@pytest.mark.parametrize("rpk", RPK, ids=str)
@pytest.mark.parametrize("rtype", ["avg", "min", "max", "bad"])
def test_inverse_residues_match_scipy(rpk, rtype):
    r, p, k = rpk
    agree(lambda: pf._invres(r, p, k, 1e-3, rtype), lambda: ss.invres(r, p, k, 1e-3, rtype), 1e-9)
    agree(lambda: pf._invresz(r, p, k, 1e-3, rtype), lambda: ss.invresz(r, p, k, 1e-3, rtype), 1e-9)


def test_partial_fraction_public_errors():
    with pytest.raises(ValueError, match="Denominator `a` is zero"):
        sig.residue([1, 2], [0, 0])
    with pytest.raises(ValueError, match="First coefficient of determinant `a` must be non-zero"):
        sig.residuez([1], [0, 1])
    with pytest.raises(ValueError, match="`rtype` must be one of"):
        sig.unique_roots([1.0, 2.0], rtype="median")


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "complex128"])
def test_qmf_host_maths(dtype):
    """Old SciPy's (and CuPy's) qmf: hk reversed with every other value negated, in hk's dtype."""
    hk = np.asarray([1, 2, 3, 4, 5], dtype=dtype)
    got = fx._qmf(hk)
    assert got.dtype == hk.dtype
    np.testing.assert_array_equal(got, np.asarray([5, -4, 3, -2, 1], dtype=dtype))
