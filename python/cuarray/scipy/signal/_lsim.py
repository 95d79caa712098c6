"""SciPy's simulation of continuous-time systems: lsim (the response to an input sampled at equal steps), and the
impulse and step responses built on it; and the state recursion x[i] = x[i-1] M + d[i-1] that it and dlsim run on
the device (Note [The state recursion as a scan]). The system's discretization (a matrix exponential of its few
coefficients) is host maths, as SciPy computes it (Note [Filter design on the host] in _iir_forms.py); the time
samples, inputs, states and outputs stay on the device."""

import warnings

import numpy

import cuarray as _cp
from cuarray.scipy.signal._iir_forms import device_input, host
from cuarray.scipy.signal._lti_conversion import _expm

# Note [The state recursion as a scan]
# Simulating a system steps its state: x[i] = x[i-1] M + d[i-1] (rows, M the discrete state matrix transposed and
# d[i] the input's contribution, found for every step at once by one matrix product). SciPy loops over the steps;
# on the device that is a few kernel launches per sample. Unrolled, x[i] = sum over k <= i of y[k] M^(i-k) with
# y[0] = x[0] and y[k] = d[k-1], an inclusive scan that Hillis and Steele's doubling computes in log2(n) passes:
# after the pass with shift s (1, 2, 4, ...) y[i] holds the sum over the 2s terms ending at i, by
# y[i] += y[i-s] M^s. The powers M^s are a few small host products, as SciPy's matrices are. The sums come out
# in another order than SciPy's loop adds them, so the states agree with SciPy's to rounding (both are sums of
# the same terms); where a power overflows (an unstable system simulated for long), 0 * inf would give NaN where
# SciPy's loop gives 0 or inf, and the recursion is stepped one sample at a time instead, as SciPy steps it.


def _as_stored(values, dtype):
    """`values` cast to `dtype` as NumPy's assignment into an array of that type casts them: a complex value
    into a real array keeps its real part, with NumPy's ComplexWarning."""
    if values.dtype.kind == "c" and numpy.dtype(dtype).kind != "c":
        warnings.warn(
            "Casting complex values to real discards the imaginary part", numpy.exceptions.ComplexWarning, 3
        )
        values = values.real
    return values.astype(dtype, copy=False)


def _propagate(first, drive, step):
    """The states x (device, one row per sample) with x[0] = first and x[i] = x[i-1] @ step + drive[i-1]:
    `first` and `step` host arrays, `drive` a device array of one row fewer than x (Note [The state recursion
    as a scan])."""
    n = drive.shape[0] + 1
    dtype = numpy.result_type(first.dtype, drive.dtype, step.dtype)
    step = step.astype(dtype, copy=False)
    powers = []
    power, shift = step, 1
    with numpy.errstate(over="ignore", invalid="ignore"):
        while shift < n:
            powers.append(power)
            shift *= 2
            if shift < n:
                power = power @ power
    y = _cp.concatenate(
        (_cp.asarray(first.astype(dtype)).reshape(1, first.shape[0]), drive.astype(dtype, copy=False))
    )
    if all(numpy.isfinite(p).all() for p in powers):
        shift = 1
        for power in powers:
            y = _cp.concatenate((y[:shift], y[shift:] + y[:-shift] @ _cp.asarray(power)))
            shift *= 2
        return y
    step_d = _cp.asarray(step)
    for i in range(1, n):
        y[i] = y[i - 1] @ step_d + y[i]
    return y


def _no_input(U):
    """SciPy's test for a zero input: None, a Python 0, or all zeros."""
    if U is None or (isinstance(U, (int, float)) and U == 0.0):
        return True
    return not bool(_cp.any(device_input(U)))


def lsim_ss(sys, U, T, X0=None, interp=True):
    """The response (T, yout, xout) of the continuous-time state-space system `sys` to the input U (one column
    per input; None or 0 for none) at the equally spaced, nonnegative times T, from the state X0 (zeros by
    default); the input is linear between samples (interp=True) or held (interp=False). _ltisys.lsim's."""
    T = _cp.atleast_1d(device_input(T))
    if len(T.shape) != 1:
        raise ValueError("T must be a rank-1 array.")
    A, B = host(sys.A), host(sys.B)
    n_states, n_inputs = A.shape[0], B.shape[1]
    n_steps = T.size
    first = numpy.empty(n_states, A.dtype)
    start = host(T[:2])
    if start[0] == 0:
        first[...] = numpy.zeros(n_states, A.dtype) if X0 is None else host(X0)
    elif start[0] > 0:  # step forward to the first time with zero input
        x0 = numpy.zeros(n_states, A.dtype) if X0 is None else host(X0)
        first[...] = numpy.dot(x0, _expm(numpy.transpose(A) * start[0]))
    else:
        raise ValueError("Initial time must be nonnegative")
    no_input = _no_input(U)
    C_d, D_d = sys.C, sys.D
    if n_steps == 1:
        xout = _cp.asarray(first).reshape(1, -1)
        yout = _cp.squeeze(xout @ C_d.T)
        if not no_input:
            yout = yout + _cp.squeeze(device_input(U) @ D_d.T)
        return T, yout, _cp.squeeze(xout)
    dt = start[1] - start[0]
    if not _cp.allclose(_cp.diff(T), dt.item()):
        raise ValueError("Time steps are not equally spaced.")
    if no_input:  # the state decays by exp(A dt) per step (rows: the transpose)
        drive = _cp.zeros((n_steps - 1, n_states), A.dtype)
        xout = _as_stored(_propagate(first, drive, _expm(A.T * dt)), A.dtype)
        return T, _cp.squeeze(_cp.squeeze(xout @ C_d.T)), _cp.squeeze(xout)
    U = _cp.atleast_1d(device_input(U))
    if U.ndim == 1:
        U = U[:, None]
    if U.shape[0] != n_steps:
        raise ValueError("U must have the same number of rows as elements in T.")
    if U.shape[1] != n_inputs:
        raise ValueError("System does not define that many inputs.")
    if not interp:
        # Zero-order hold: exp([[A dt, B dt], [0, 0]]) maps [x0, u0] to [x(dt), u0]; transposed for rows.
        M = numpy.vstack((numpy.hstack((A * dt, B * dt)), numpy.zeros((n_inputs, n_states + n_inputs))))
        expMT = _expm(M.T)
        Ad, Bd = expMT[:n_states, :n_states], expMT[n_states:, :n_states]
        drive = U[:-1] @ _cp.asarray(Bd)
    else:
        # Linear between samples: exp([[A dt, B dt, 0], [0, 0, I], [0, 0, 0]]) maps [x0, u0, u1 - u0].
        M = numpy.vstack(
            (
                numpy.hstack((A * dt, B * dt, numpy.zeros((n_states, n_inputs)))),
                numpy.hstack((numpy.zeros((n_inputs, n_states + n_inputs)), numpy.identity(n_inputs))),
                numpy.zeros((n_inputs, n_states + 2 * n_inputs)),
            )
        )
        expMT = _expm(M.T)
        Ad = expMT[:n_states, :n_states]
        Bd1 = expMT[n_states + n_inputs :, :n_states]
        Bd0 = expMT[n_states : n_states + n_inputs, :n_states] - Bd1
        drive = U[:-1] @ _cp.asarray(Bd0) + U[1:] @ _cp.asarray(Bd1)
    xout = _as_stored(_propagate(first, drive, Ad), A.dtype)
    yout = _cp.squeeze(xout @ C_d.T) + _cp.squeeze(U @ D_d.T)
    return T, _cp.squeeze(yout), _cp.squeeze(xout)


def _default_response_times(A, n):
    """n times from 0 to 7 time constants of the slowest pole of A (1 where a pole is on the imaginary axis)."""
    r = min(abs(numpy.real(numpy.linalg.eigvals(A))))
    if r == 0.0:
        r = 1.0
    return numpy.linspace(0.0, 7 * (1.0 / r), n)


def _times(sys, T, N):
    if T is None:
        return _cp.asarray(_default_response_times(host(sys.A), 100 if N is None else N))
    return device_input(T)


def impulse_ss(sys, X0=None, T=None, N=None):
    """The impulse response (T, yout) of the continuous-time state-space system `sys` from the state X0 (zeros
    by default), at the times T or at N (100) times spanning its slowest pole. _ltisys.impulse's."""
    # An impulse sets the state to B at time 0; the response is the free one from there.
    X = numpy.squeeze(host(sys.B) if X0 is None else host(sys.B) + host(X0))
    T = _times(sys, T, N)
    _, h, _ = lsim_ss(sys, 0.0, T, X, interp=False)
    return T, h


def step_ss(sys, X0=None, T=None, N=None):
    """The step response (T, yout) of the continuous-time state-space system `sys` from the state X0 (zeros by
    default), at the times T or at N (100) times spanning its slowest pole. _ltisys.step's."""
    T = _times(sys, T, N)
    U = _cp.ones(T.shape, host(sys.A).dtype)
    vals = lsim_ss(sys, U, T, X0=X0, interp=False)
    return vals[0], vals[1]
