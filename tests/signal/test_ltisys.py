"""cuarray.scipy.signal's linear time-invariant systems on the device against scipy.signal: every case of
test_ltisys_nogpu.CASES (CuPy's tests of lti, dlti, lsim, impulse, step, dlsim, dimpulse, dstep, freqresp, bode,
dfreqresp, dbode, cont2discrete and the systems' conversions and arithmetic, and more) with device inputs gives
SciPy's values, dtypes and shapes as device arrays; SciPy's errors; place_poles; the systems' attributes as device
arrays; the state recursion's one-step fallback and long simulations. The host maths alone, and the same cases
with NumPy standing in for the device, are tested without a device in test_ltisys_nogpu.py."""

import warnings
from functools import partial

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
import signal_asserts
from test_lti_host_maths_nogpu import PLACE_POLES_CASES, _poles_close
from test_ltisys_nogpu import CASES, ERRORS, _flattened, _random_system, same_error, scipy_case

pytestmark = pytest.mark.gpu

# Device arrays of SciPy's dtypes and shapes (tuples element by element), values within 1e-10 of the largest
# finite expected value, infinities and NaN where SciPy's.
assert_device = partial(signal_asserts.assert_device, default_tol=1e-10, finite_scale=True)


@pytest.mark.parametrize("name", list(CASES))
def test_case_matches_scipy(name):
    expected = scipy_case(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _flattened(CASES[name](sig, cp))
    assert_device(got, expected)


@pytest.mark.parametrize("call", ERRORS)
def test_errors(call):
    """SciPy's error types and messages, with device arrays where an operand is an array."""
    same_error(lambda: call(sig, cp), lambda: call(ss, np))


def test_numpy_arrays_are_no_state_space_operands():
    """As CuPy's: a system combines with device arrays and scalars, not with NumPy arrays."""
    system = sig.StateSpace(*_random_system(np, 2, 2, 2, 7))
    with pytest.raises(TypeError):
        system * np.eye(2)
    with pytest.raises(TypeError):
        system + np.eye(2)


def test_systems_hold_device_arrays():
    """num, den, zeros, poles, A, B, C and D are device arrays, however given; a gain stays as given (a host
    scalar where a conversion made it); dt as given."""
    tf = sig.TransferFunction([1.0, 3.0, 3.0], np.array([1.0, 2.0, 1.0]), dt=0.5)
    zpk = sig.ZerosPolesGain(cp.asarray([1.0]), [2.0, 3.0], cp.asarray(4.0))
    ss_ = sig.StateSpace(cp.eye(2), [[1.0], [0.0]], np.array([[1.0, 1.0]]), 0.0)
    for array in (tf.num, tf.den, zpk.zeros, zpk.poles, ss_.A, ss_.B, ss_.C, ss_.D):
        assert isinstance(array, cp.ndarray)
    assert isinstance(zpk.gain, cp.ndarray) and zpk.gain.ndim == 0
    converted = tf.to_zpk()
    assert isinstance(converted.zeros, cp.ndarray) and isinstance(converted.poles, cp.ndarray)
    assert not isinstance(converted.gain, cp.ndarray) and converted.dt == 0.5
    for system in (tf.to_ss(), zpk.to_ss(), ss_.to_tf(), ss_.to_zpk(), ss_.to_ss(), tf.to_tf()):
        for value in vars(system).values():
            assert not isinstance(value, np.ndarray)
    copied = ss_.to_ss()
    assert copied is not ss_ and copied.A is not ss_.A
    copied.A[0, 0] = 5.0
    assert float(ss_.A[0, 0]) == 1.0


def test_dlti_like_cupys_tests():
    """CuPy's TestDlti and TestStateSpaceDisc / TestTransferFunction / TestZerosPolesGain, on the device."""
    dt = 0.05
    s = sig.dlti([1], [-1], dt=dt)
    assert isinstance(s, sig.TransferFunction) and isinstance(s, sig.dlti) and not isinstance(s, sig.lti)
    s = sig.dlti(cp.array([]), cp.array([-1]), 1, dt=dt)
    assert isinstance(s, sig.ZerosPolesGain) and s.dt == dt
    s = sig.dlti([1], [-1], 1, 3, dt=dt)
    assert isinstance(s, sig.StateSpace) and s.dt == dt
    sig.StateSpace(
        cp.array([[1, 2], [3, 4]]), cp.array([[1], [2]]), cp.array([[1, 0]]), cp.array([[0]]), dt=dt
    )
    sig.TransferFunction(cp.array([1]), cp.array([2]), dt=dt)
    sig.ZerosPolesGain(cp.array([1]), cp.array([2]), 1, dt=dt)
    for system in (sig.StateSpace(1, 2, 3, 4, dt=dt), sig.TransferFunction([1, 0], [1, -1], dt=dt),
                   sig.ZerosPolesGain(1, 2, 3, dt=dt)):  # fmt: skip
        assert isinstance(system.to_ss(), sig.StateSpace)
        assert isinstance(system.to_tf(), sig.TransferFunction)
        assert isinstance(system.to_zpk(), sig.ZerosPolesGain)
        assert type(system)(system) is not system
    assert sig.StateSpace(1, 1, 1, 1, dt=dt).poles == cp.array([1])
    assert sig.StateSpace(1, 1, 1, 1, dt=dt).zeros == cp.array([0])
    assert sig.TransferFunction([1, 0], [1, -1], dt=dt).poles == cp.array([1])
    assert sig.TransferFunction([1, 0], [1, -1], dt=dt).zeros == cp.array([0])


def test_cont2discrete_device_arrays():
    """Device arrays in, device arrays out (the gain a host scalar), dt returned as given: a device scalar too."""
    a, b, c, d = (cp.asarray(m) for m in ([[-1.0, 0.5], [0.0, -2.0]], [[1.0], [0.5]], [[1.0, 1.0]], [[0.0]]))
    dt = cp.asarray(0.1)
    result = sig.cont2discrete((a, b, c, d), dt, method="foh")
    assert result[-1] is dt
    expected = ss.cont2discrete(tuple(cp.asnumpy(m) for m in (a, b, c, d)), 0.1, method="foh")
    assert_device(result[:-1], expected[:-1])
    z, p, k, dt_out = sig.cont2discrete((cp.asarray([-1.0]), cp.asarray([-2.0, -3.0]), 2.0), 0.1)
    ez, ep, ek, _ = ss.cont2discrete(([-1.0], [-2.0, -3.0], 2.0), 0.1)
    assert_device((z, p), (ez, ep))
    assert not isinstance(k, cp.ndarray) and k == pytest.approx(ek, rel=1e-12) and dt_out == 0.1


@pytest.mark.parametrize("name", ["real_YT", "complex", "one_real_pole", "square_B_complex", "one_column_B"])
def test_place_poles_on_device(name):
    """Device inputs: SciPy's computed and requested poles as device arrays, a gain placing them, SciPy's
    rtol and number of sweeps as host scalars."""
    A, B, poles, kwargs = PLACE_POLES_CASES[name]
    got = sig.place_poles(cp.asarray(A), cp.asarray(B), cp.asarray(poles), **kwargs)
    expected = ss.place_poles(A, B, poles, **kwargs)
    for field in ("gain_matrix", "computed_poles", "requested_poles", "X"):
        assert isinstance(getattr(got, field), cp.ndarray)
        assert getattr(got, field).dtype == getattr(expected, field).dtype
    _poles_close(cp.asnumpy(got.computed_poles), expected.computed_poles, 1e-8)
    _poles_close(np.linalg.eigvals(A - B @ cp.asnumpy(got.gain_matrix)), poles, 1e-5)
    assert_device(got.requested_poles, expected.requested_poles, signal_asserts.EXACT)
    assert not isinstance(got.rtol, cp.ndarray) and not isinstance(got.nb_iter, cp.ndarray)


def test_complex_values_stored_as_real():
    """SciPy's real parts, with NumPy's ComplexWarning, for a complex input (lsim) and a complex system
    (dlsim)."""
    calls = [
        lambda s, xp: s.lsim(([1.0], [1.0, 1.0]), xp.ones(10) * (1 + 1j), xp.linspace(0, 1, 10)),
        lambda s, xp: s.dlsim(([[0.5 + 0.5j]], [[1.0]], [[1.0 + 1j]], [[0.0]], 0.1), xp.ones(6), x0=[1.0]),
    ]
    for call in calls:
        with pytest.warns(np.exceptions.ComplexWarning):
            expected = call(ss, np)
        with pytest.warns(np.exceptions.ComplexWarning):
            got = call(sig, cp)
        assert_device(got, expected)


def test_unstable_recursion_steps_one_sample_at_a_time():
    """A power of the state matrix overflows: the recursion steps sample by sample on the device, as SciPy's, 0
    and not NaN in the decoupled state (Note [The state recursion as a scan])."""
    system = (np.diag([2.0, 0.5]), np.array([[0.0], [1.0]]), np.eye(2), np.zeros((2, 1)), 1.0)
    got = sig.dlsim(system, cp.ones(1200), x0=[0.0, 1.0])
    with np.errstate(over="ignore"):
        expected = ss.dlsim(system, np.ones(1200), x0=[0.0, 1.0])
    assert not bool(cp.isnan(got[2]).any())
    assert_device(got, expected)


@pytest.mark.parametrize("steps", [2, 3, 1023, 1024, 1025, 200001])
def test_long_simulations(steps):
    """The scan over many samples (log2 of them passes) agrees with SciPy's loop: lsim of a lightly damped
    oscillator and dlsim of a random stable system."""
    t = np.linspace(0, steps / 100, steps)
    u = np.sin(1.1 * t)
    oscillator = ([[0.0, 1.0], [-1.0, -0.01]], [[0.0], [1.0]], [[1.0, 0.0]], 0.0)
    assert_device(sig.lsim(oscillator, cp.asarray(u), cp.asarray(t)), ss.lsim(oscillator, u, t), 1e-9)
    system = (*_random_system(np, 4, 2, 3, 2, discrete=True), 0.01)
    u2 = np.stack((u, np.cos(3 * t)), axis=1)
    assert_device(
        sig.dlsim(system, cp.asarray(u2), x0=[1, 0, 0, 1]), ss.dlsim(system, u2, x0=[1, 0, 0, 1]), 1e-9
    )


@pytest.mark.parametrize("dtype", ["float32", "int64", "float64"])
def test_time_dtypes(dtype):
    """lsim returns T as given (its dtype kept); the states follow the system's type, as SciPy's."""
    t = np.arange(12).astype(dtype) * (0.25 if dtype != "int64" else 1)
    expected = ss.lsim(([1.0], [1.0, 2.0, 1.0]), np.ones(12), t)
    assert_device(sig.lsim(([1.0], [1.0, 2.0, 1.0]), cp.ones(12), cp.asarray(t)), expected)
