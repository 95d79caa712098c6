"""SciPy's simulation of discrete-time systems: dlsim (the response to an input), and the impulse and step
responses built on it (dimpulse, dstep). The inputs, states and outputs are device arrays, the state recursion the
device scan lsim runs (Note [The state recursion as a scan] in _lsim.py); an input given at other times than the
system's samples is interpolated linearly on the device, as SciPy's make_interp_spline(k=1) interpolates it."""

import numpy

import cuarray as _cp
from cuarray.scipy.signal._iir_forms import device_input, host
from cuarray.scipy.signal._lsim import _as_stored, _propagate


def _float_samples(a):
    """a as SciPy's spline fitting reads it: float64, or complex128 for complex values."""
    return a.astype(numpy.complex128 if a.dtype.kind == "c" else numpy.float64, copy=False)


# Note [Linear interpolation as SciPy's spline]
# dlsim samples an input given at the times t at the system's own times by make_interp_spline(t, u, k=1): a
# piecewise linear function through the points, continued past the ends by the first and last pieces, NaN where t
# has a single point. Its checks come first, in SciPy's order (finite values, matching lengths, no repeated and
# only increasing times). Each value is u[j] w (t[j+1] - x) + u[j+1] w (x - t[j]) with w = 1 / (t[j+1] - t[j]) and
# t[j] <= x < t[j+1] (the last piece for x at or past the last time), as de Boor's recursion evaluates it.
def _interp_linear(t, u, x):
    """The values at the times x (device) of the piecewise linear function through (t, u) (device; u one row per
    time), as SciPy's make_interp_spline(t, u, k=1)(x) (Note [Linear interpolation as SciPy's spline])."""
    t, u = _float_samples(t), _float_samples(u)
    if not (bool(_cp.isfinite(t).all()) and bool(_cp.isfinite(u).all())):
        raise ValueError("Array must not contain infs or nans.")
    if t.size != u.shape[0]:
        raise ValueError(f"Shapes of x {t.shape} and y {u.shape} are incompatible")
    if bool(_cp.any(t[1:] == t[:-1])):
        raise ValueError("Expect x to not have duplicates")
    if t.ndim != 1 or bool(_cp.any(t[1:] < t[:-1])):
        raise ValueError("Expect x to be a 1D strictly increasing sequence.")
    if t.size == 1:
        return _cp.full((x.shape[0],) + u.shape[1:], numpy.nan, dtype=u.dtype)
    j = _cp.clip(_cp.searchsorted(t, x, side="right") - 1, 0, t.size - 2)
    left, right = t[j], t[j + 1]
    w = 1.0 / (right - left)
    return u[j] * (w * (right - x))[:, None] + u[j + 1] * (w * (x - left))[:, None]


def dlsim_ss(system, u, t=None, x0=None, with_states=True):
    """The response (tout, yout[, xout]) of the discrete-time state-space system `system` to the input u (one
    column per input), given at the system's samples or at the times t (then interpolated linearly), from the
    state x0 (zeros by default); xout where `with_states`. _ltisys.dlsim's."""
    A, B, C, D = (host(m) for m in (system.A, system.B, system.C, system.D))
    u = _cp.atleast_1d(device_input(u))
    if u.ndim == 1:
        u = _cp.atleast_2d(u).T
    if t is None:
        out_samples = len(u)
        stoptime = (out_samples - 1) * system.dt
    else:
        t = device_input(t)
        stoptime = numpy.asarray(host(t[-1]))[()]
        out_samples = int(numpy.floor(stoptime / system.dt)) + 1
    tout = _cp.linspace(0.0, stoptime, num=out_samples)
    # SciPy's states and outputs are float64 arrays: its steps store real parts (Note [The state recursion as a
    # scan]'s recursion in real terms, since Re(A x) = Re(A) x for a real x).
    first = numpy.zeros(A.shape[1])
    if x0 is not None:
        first[...] = host(x0)
    u_dt = u if t is None else _interp_linear(t, u, tout)
    step = numpy.transpose(A)
    drive = u_dt[: out_samples - 1] @ _cp.asarray(B.T)
    if step.dtype.kind == "c" or drive.dtype.kind == "c":
        step, drive = _as_stored(step, numpy.float64), _as_stored(drive, numpy.float64)
    xout = _propagate(first, drive, step).astype(numpy.float64, copy=False)
    yout = _as_stored(xout @ _cp.asarray(C.T) + u_dt[:out_samples] @ _cp.asarray(D.T), numpy.float64)
    return (tout, yout, xout) if with_states else (tout, yout)


def _responses(system, x0, t, n, excite):
    """(tout, one output per input) of the discrete-time state-space `system`: dlsim of the inputs `excite(u, i)`
    sets, for each input i in turn."""
    if n is None:
        n = 100
    t = numpy.linspace(0, n * system.dt, n, endpoint=False) if t is None else host(t)
    t = numpy.asarray(t)
    t_d = _cp.asarray(t)
    yout, tout = (), None
    for i in range(system.inputs):
        u = _cp.zeros((t.shape[0], system.inputs))
        excite(u, i)
        tout, y = dlsim_ss(system, u, t=t_d, x0=x0, with_states=False)
        yout += (y,)
    return tout, yout


def _impulse(u, i):
    u[0, i] = 1.0


def _step(u, i):
    u[:, i] = 1.0


def dimpulse_ss(system, x0=None, t=None, n=None):
    """The impulse response (tout, yout) of the discrete-time state-space `system`, one output array per input,
    at the times t or at n (100) samples. _ltisys.dimpulse's."""
    return _responses(system, x0, t, n, _impulse)


def dstep_ss(system, x0=None, t=None, n=None):
    """The step response (tout, yout) of the discrete-time state-space `system`, one output array per input, at
    the times t or at n (100) samples. _ltisys.dstep's."""
    return _responses(system, x0, t, n, _step)
