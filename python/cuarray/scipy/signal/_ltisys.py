"""SciPy's linear time-invariant systems: `lti` (continuous) and `dlti` (discrete), each a TransferFunction,
ZerosPolesGain or StateSpace, with the conversions between the three forms, cont2discrete's to_discrete, and the
arithmetic of state-space systems; and their frequency responses (freqresp, bode, dfreqresp, dbode). The systems
hold device arrays, as CuPy's (a ZerosPolesGain's gain as given, a host scalar where a conversion made it), and
their conversions and arithmetic are host maths on those few coefficients (Note [Filter design on the host] in
_iir_forms.py), as are the frequency responses (Note [Frequency responses on the host]). The simulations
(lsim, impulse, step, dlsim, dimpulse, dstep) take a system in any form here and run on its state-space form in
_lsim.py and _dltisys.py."""

import copy
from types import GenericAlias

import numpy

import cuarray as _cp
from cuarray._ndarray import ndarray
from cuarray.scipy.signal._dltisys import dimpulse_ss, dlsim_ss, dstep_ss
from cuarray.scipy.signal._filter_extras import _freqs, _freqs_zpk, _freqz_zpk, abcd_normalize, ss2zpk, zpk2ss
from cuarray.scipy.signal._iir_forms import _freqz, device_input, host, on_device, tf2zpk, zpk2tf
from cuarray.scipy.signal._lsim import impulse_ss, lsim_ss, step_ss
from cuarray.scipy.signal._lti_conversion import _block_diag, cont2discrete
from cuarray.scipy.signal._tf_transforms import normalize, ss2tf, tf2ss


def _atleast_1d(a):
    return _cp.atleast_1d(device_input(a))


def _atleast_2d_or_none(a):
    return None if a is None else _cp.atleast_2d(device_input(a))


class LinearTimeInvariant:
    """The base of `lti` and `dlti`: not meant to be made directly."""

    __class_getitem__ = classmethod(GenericAlias)

    def __new__(cls, *system, **kwargs):
        if cls is LinearTimeInvariant:
            raise NotImplementedError(
                "The LinearTimeInvariant class is not meant to be used directly, use `lti` or `dlti` instead."
            )
        return super().__new__(cls)

    def __init__(self):
        super().__init__()
        self.inputs = None
        self.outputs = None
        self._dt = None

    @property
    def dt(self):
        """The sampling time of the system, None for `lti` systems."""
        return self._dt

    @property
    def _dt_dict(self):
        return {} if self.dt is None else {"dt": self.dt}

    @property
    def zeros(self):
        """Zeros of the system."""
        return self.to_zpk().zeros

    @property
    def poles(self):
        """Poles of the system."""
        return self.to_zpk().poles

    def _as_ss(self):
        """The system as a StateSpace: itself where it is one (no copy)."""
        return self if isinstance(self, StateSpace) else self.to_ss()

    def _as_zpk(self):
        """The system as a ZerosPolesGain: itself where it is one (no copy)."""
        return self if isinstance(self, ZerosPolesGain) else self.to_zpk()

    def _as_tf(self):
        """The system as a TransferFunction: itself where it is one (no copy)."""
        return self if isinstance(self, TransferFunction) else self.to_tf()


class lti(LinearTimeInvariant):
    """A continuous-time system: lti(num, den), lti(zeros, poles, gain) or lti(A, B, C, D) makes a
    TransferFunction, ZerosPolesGain or StateSpace."""

    def __new__(cls, *system):
        if cls is lti:
            forms = {2: TransferFunctionContinuous, 3: ZerosPolesGainContinuous, 4: StateSpaceContinuous}
            if len(system) not in forms:
                raise ValueError("`system` needs to be an instance of `lti` or have 2, 3 or 4 arguments.")
            return object.__new__(forms[len(system)])
        return super().__new__(cls)

    def __init__(self, *system):
        super().__init__(*system)

    def impulse(self, X0=None, T=None, N=None):
        """The impulse response (see `impulse`)."""
        return impulse(self, X0=X0, T=T, N=N)

    def step(self, X0=None, T=None, N=None):
        """The step response (see `step`)."""
        return step(self, X0=X0, T=T, N=N)

    def output(self, U, T, X0=None):
        """The response to the input U (see `lsim`)."""
        return lsim(self, U, T, X0=X0)

    def bode(self, w=None, n=100):
        """Frequencies [rad/s], magnitude [dB] and phase [deg] (see `bode`)."""
        return bode(self, w=w, n=n)

    def freqresp(self, w=None, n=10000):
        """Frequencies [rad/s] and the complex response (see `freqresp`)."""
        return freqresp(self, w=w, n=n)

    def to_discrete(self, dt, method="zoh", alpha=None):
        """The discretized system (see `cont2discrete`)."""
        raise NotImplementedError("to_discrete is not implemented for this system class.")


class dlti(LinearTimeInvariant):
    """A discrete-time system: dlti(num, den), dlti(zeros, poles, gain) or dlti(A, B, C, D), with the keyword
    dt (the sampling time; True, the default, for an unspecified one)."""

    def __new__(cls, *system, dt=None):  # Note [dt alone]
        if cls is dlti:
            forms = {2: TransferFunctionDiscrete, 3: ZerosPolesGainDiscrete, 4: StateSpaceDiscrete}
            if len(system) not in forms:
                raise ValueError("`system` needs to be an instance of `dlti` or have 2, 3 or 4 arguments.")
            return object.__new__(forms[len(system)])
        return super().__new__(cls)

    def __init__(self, *system, **kwargs):
        dt = kwargs.pop("dt", True)
        super().__init__(*system, **kwargs)
        self.dt = dt

    @property
    def dt(self):
        """The sampling time of the system."""
        return self._dt

    @dt.setter
    def dt(self, dt):
        self._dt = dt

    def impulse(self, x0=None, t=None, n=None):
        """The impulse response (see `dimpulse`)."""
        return dimpulse(self, x0=x0, t=t, n=n)

    def step(self, x0=None, t=None, n=None):
        """The step response (see `dstep`)."""
        return dstep(self, x0=x0, t=t, n=n)

    def output(self, u, t, x0=None):
        """The response to the input u (see `dlsim`)."""
        return dlsim(self, u, t, x0=x0)

    def bode(self, w=None, n=100):
        """Frequencies [rad/s], magnitude [dB] and phase [deg] (see `dbode`)."""
        return dbode(self, w=w, n=n)

    def freqresp(self, w=None, n=10000, whole=False):
        """Frequencies [rad/sample] and the complex response (see `dfreqresp`)."""
        return dfreqresp(self, w=w, n=n, whole=whole)


# Note [dt alone]
# SciPy 1.18 gave the constructors' __new__ (dlti's, TransferFunction's, ZerosPolesGain's and StateSpace's) the
# keyword dt alone, where 1.17 took any keywords there and left the unknown ones to LinearTimeInvariant.__init__:
# an unknown keyword is now Python's TypeError naming the __new__ (dlti.__new__() got an unexpected keyword
# argument 'foo'), also for a conversion (StateSpace(system, foo=1)), which 1.17 let through. lti.__new__ takes no
# keywords in either.


def _new_system(cls, form, conversion, system, dt):
    """The object the constructor of `form` (TransferFunction, ZerosPolesGain or StateSpace) makes: another
    system converted by its method `conversion`; else, where `form` itself is called, an object of its
    continuous subclass where dt is None and of its discrete one otherwise; else one of `cls`."""
    if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
        return getattr(system[0], conversion)()
    if cls is form:
        continuous, discrete = _SUBCLASSES[form]
        cls = continuous if dt is None else discrete
    return object.__new__(cls)


class TransferFunction(LinearTimeInvariant):
    """A system as the ratio of polynomials num / den (descending powers of s, or of z where discrete):
    TransferFunction(num, den, dt=None) or TransferFunction(system) (a conversion)."""

    def __new__(cls, *system, dt=None):  # Note [dt alone]
        return _new_system(cls, TransferFunction, "to_tf", system, dt)

    def __init__(self, *system, **kwargs):
        if isinstance(system[0], LinearTimeInvariant):  # __new__ converted it
            return
        super().__init__(**kwargs)
        self._num = None
        self._den = None
        self.num, self.den = normalize(*system)

    def __repr__(self):
        return f"{self.__class__.__name__}(\n{self.num!r},\n{self.den!r},\ndt: {self.dt!r}\n)"

    @property
    def num(self):
        """The numerator (one row per output)."""
        return self._num

    @num.setter
    def num(self, num):
        self._num = _atleast_1d(num)
        self.outputs, self.inputs = self._num.shape if self._num.ndim > 1 else (1, 1)

    @property
    def den(self):
        """The denominator."""
        return self._den

    @den.setter
    def den(self, den):
        self._den = _atleast_1d(den)

    def _copy(self, system):
        self.num = system.num
        self.den = system.den

    def to_tf(self):
        """A copy of the system."""
        return copy.deepcopy(self)

    def to_zpk(self):
        """The system as a ZerosPolesGain."""
        return ZerosPolesGain(*tf2zpk(self.num, self.den), **self._dt_dict)

    def to_ss(self):
        """The system as a StateSpace."""
        return StateSpace(*tf2ss(self.num, self.den), **self._dt_dict)

    @staticmethod
    def _z_to_zinv(num, den):
        """num and den in powers of z as polynomials in z^-1 (ascending): the shorter padded with leading zeros."""
        num, den = device_input(num), device_input(den)
        diff = len(num) - len(den)
        if diff > 0:
            den = _cp.hstack((_cp.zeros(diff), den))
        elif diff < 0:
            num = _cp.hstack((_cp.zeros(-diff), num))
        return num, den

    @staticmethod
    def _zinv_to_z(num, den):
        """num and den in powers of z^-1 as polynomials in z: the shorter padded with trailing zeros."""
        num, den = device_input(num), device_input(den)
        diff = len(num) - len(den)
        if diff > 0:
            den = _cp.hstack((den, _cp.zeros(diff)))
        elif diff < 0:
            num = _cp.hstack((num, _cp.zeros(-diff)))
        return num, den


class TransferFunctionContinuous(TransferFunction, lti):
    """A continuous-time TransferFunction."""

    def to_discrete(self, dt, method="zoh", alpha=None):
        """The discretized TransferFunction (see `cont2discrete`)."""
        return TransferFunction(
            *cont2discrete((self.num, self.den), dt, method=method, alpha=alpha)[:-1], dt=dt
        )


class TransferFunctionDiscrete(TransferFunction, dlti):
    """A discrete-time TransferFunction."""


class ZerosPolesGain(LinearTimeInvariant):
    """A system as gain * prod(s - zeros) / prod(s - poles) (z where discrete): ZerosPolesGain(zeros, poles,
    gain, dt=None) or ZerosPolesGain(system) (a conversion)."""

    def __new__(cls, *system, dt=None):  # Note [dt alone]
        return _new_system(cls, ZerosPolesGain, "to_zpk", system, dt)

    def __init__(self, *system, **kwargs):
        if isinstance(system[0], LinearTimeInvariant):  # __new__ converted it
            return
        super().__init__(**kwargs)
        self._zeros = None
        self._poles = None
        self._gain = None
        self.zeros, self.poles, self.gain = system

    def __repr__(self):
        return f"{self.__class__.__name__}(\n{self.zeros!r},\n{self.poles!r},\n{self.gain!r},\ndt: {self.dt!r}\n)"

    @property
    def zeros(self):
        """The zeros (one row per output)."""
        return self._zeros

    @zeros.setter
    def zeros(self, zeros):
        self._zeros = _atleast_1d(zeros)
        self.outputs, self.inputs = self._zeros.shape if self._zeros.ndim > 1 else (1, 1)

    @property
    def poles(self):
        """The poles."""
        return self._poles

    @poles.setter
    def poles(self, poles):
        self._poles = _atleast_1d(poles)

    @property
    def gain(self):
        """The gain, as given."""
        return self._gain

    @gain.setter
    def gain(self, gain):
        self._gain = gain

    def _copy(self, system):
        self.poles = system.poles
        self.zeros = system.zeros
        self.gain = system.gain

    def to_tf(self):
        """The system as a TransferFunction."""
        return TransferFunction(*zpk2tf(self.zeros, self.poles, self.gain), **self._dt_dict)

    def to_zpk(self):
        """A copy of the system."""
        return copy.deepcopy(self)

    def to_ss(self):
        """The system as a StateSpace."""
        return StateSpace(*zpk2ss(self.zeros, self.poles, self.gain), **self._dt_dict)


class ZerosPolesGainContinuous(ZerosPolesGain, lti):
    """A continuous-time ZerosPolesGain."""

    def to_discrete(self, dt, method="zoh", alpha=None):
        """The discretized ZerosPolesGain (see `cont2discrete`)."""
        zpk = (self.zeros, self.poles, self.gain)
        return ZerosPolesGain(*cont2discrete(zpk, dt, method=method, alpha=alpha)[:-1], dt=dt)


class ZerosPolesGainDiscrete(ZerosPolesGain, dlti):
    """A discrete-time ZerosPolesGain."""


# Note [State-space arithmetic on the host]
# SciPy's StateSpace systems add, subtract, multiply (a series connection, or a scalar or matrix gain) and divide by
# scalars. The matrices are a system's few coefficients: the interconnections are built on the host with NumPy, as
# SciPy builds them (np.dot, so a Python scalar gain works where CuPy's `@` refuses it), in the operands' common
# type, and the result holds device arrays again. The operands are those CuPy takes: systems, device arrays and
# scalars; NumPy arrays are neither (__array_ufunc__ = None makes NumPy's operators defer to these).
class StateSpace(LinearTimeInvariant):
    """A system as dx/dt = A x + B u, y = C x + D u (x[k+1] = A x[k] + B u[k] where discrete):
    StateSpace(A, B, C, D, dt=None) or StateSpace(system) (a conversion)."""

    __array_priority__ = 100.0
    __array_ufunc__ = None

    def __new__(cls, *system, dt=None):  # Note [dt alone]
        return _new_system(cls, StateSpace, "to_ss", system, dt)

    def __init__(self, *system, **kwargs):
        if isinstance(system[0], LinearTimeInvariant):  # __new__ converted it
            return
        super().__init__(**kwargs)
        self._A = None
        self._B = None
        self._C = None
        self._D = None
        self.A, self.B, self.C, self.D = abcd_normalize(*system)

    def __repr__(self):
        matrices = ",\n".join(repr(m) for m in (self.A, self.B, self.C, self.D))
        return f"{self.__class__.__name__}(\n{matrices},\ndt: {self.dt!r}\n)"

    def _check_binop_other(self, other):
        return isinstance(other, (StateSpace, ndarray, float, complex, numpy.number, int))

    def _host_matrices(self):
        return tuple(host(m) for m in (self.A, self.B, self.C, self.D))

    def _made(self, a, b, c, d):
        """The system of these host matrices, in their common type, with this one's dt."""
        dtype = numpy.result_type(a.dtype, b.dtype, c.dtype, d.dtype)
        return StateSpace(*(numpy.asarray(m, dtype=dtype) for m in (a, b, c, d)), **self._dt_dict)

    def __mul__(self, other):
        """self * other: `other` (a system, applied first, or a gain on the input) followed by self."""
        if not self._check_binop_other(other):
            return NotImplemented
        a1, b1, c1, d1 = self._host_matrices()
        if isinstance(other, StateSpace):
            if type(other) is not type(self):  # no mix of continuous and discrete systems
                return NotImplemented
            if self.dt != other.dt:
                raise TypeError("Cannot multiply systems with different `dt`.")
            a2, b2, c2, d2 = other._host_matrices()
            # The input drives system 2, whose output drives system 1.
            top = numpy.hstack((a1, numpy.dot(b1, c2)))
            a = numpy.vstack((top, numpy.hstack((numpy.zeros((a2.shape[0], a1.shape[0])), a2))))
            b = numpy.vstack((numpy.dot(b1, d2), b2))
            c = numpy.hstack((c1, numpy.dot(d1, c2)))
            d = numpy.dot(d1, d2)
        else:
            other = host(other)
            a, b, c, d = a1, numpy.dot(b1, other), c1, numpy.dot(d1, other)
        return self._made(a, b, c, d)

    def __rmul__(self, other):
        """other * self for a gain `other` on the output."""
        if not self._check_binop_other(other) or isinstance(other, StateSpace):
            return NotImplemented
        a, b, c, d = self._host_matrices()
        other = host(other)
        return self._made(a, b, numpy.dot(other, c), numpy.dot(other, d))

    def __neg__(self):
        return StateSpace(self.A, self.B, -self.C, -self.D, **self._dt_dict)

    def __add__(self, other):
        """The parallel connection of two systems, or a static gain added to the feedthrough."""
        if not self._check_binop_other(other):
            return NotImplemented
        a1, b1, c1, d1 = self._host_matrices()
        if isinstance(other, StateSpace):
            if type(other) is not type(self):
                raise TypeError(f"Cannot add {type(self)} and {type(other)}")
            if self.dt != other.dt:
                raise TypeError("Cannot add systems with different `dt`.")
            a2, b2, c2, d2 = other._host_matrices()
            a, b, c, d = _block_diag(a1, a2), numpy.vstack((b1, b2)), numpy.hstack((c1, c2)), d1 + d2
        else:
            other = numpy.atleast_2d(host(other))
            if d1.shape != other.shape:
                raise ValueError(
                    f"Cannot add systems with incompatible dimensions ({d1.shape} and {other.shape})"
                )
            a, b, c, d = a1, b1, c1, d1 + other
        return self._made(a, b, c, d)

    def __sub__(self, other):
        if not self._check_binop_other(other):
            return NotImplemented
        return self.__add__(-other)

    def __radd__(self, other):
        if not self._check_binop_other(other):
            return NotImplemented
        return self.__add__(other)

    def __rsub__(self, other):
        if not self._check_binop_other(other):
            return NotImplemented
        return (-self).__add__(other)

    def __truediv__(self, other):
        """Division by a scalar."""
        if not self._check_binop_other(other) or isinstance(other, StateSpace):
            return NotImplemented
        if isinstance(other, ndarray) and other.ndim > 0:  # ambiguous: refused, as SciPy refuses it
            raise ValueError("Cannot divide StateSpace by non-scalar numpy arrays")
        return self.__mul__(1 / other)

    @property
    def A(self):
        """The state matrix."""
        return self._A

    @A.setter
    def A(self, A):
        self._A = _atleast_2d_or_none(A)

    @property
    def B(self):
        """The input matrix."""
        return self._B

    @B.setter
    def B(self, B):
        self._B = _atleast_2d_or_none(B)
        self.inputs = self.B.shape[-1]

    @property
    def C(self):
        """The output matrix."""
        return self._C

    @C.setter
    def C(self, C):
        self._C = _atleast_2d_or_none(C)
        self.outputs = self.C.shape[0]

    @property
    def D(self):
        """The feedthrough matrix."""
        return self._D

    @D.setter
    def D(self, D):
        self._D = _atleast_2d_or_none(D)

    def _copy(self, system):
        self.A = system.A
        self.B = system.B
        self.C = system.C
        self.D = system.D

    def to_tf(self, **kwargs):
        """The system as a TransferFunction (keywords go to ss2tf)."""
        return TransferFunction(*ss2tf(self._A, self._B, self._C, self._D, **kwargs), **self._dt_dict)

    def to_zpk(self, **kwargs):
        """The system as a ZerosPolesGain (keywords go to ss2zpk)."""
        return ZerosPolesGain(*ss2zpk(self._A, self._B, self._C, self._D, **kwargs), **self._dt_dict)

    def to_ss(self):
        """A copy of the system."""
        return copy.deepcopy(self)


class StateSpaceContinuous(StateSpace, lti):
    """A continuous-time StateSpace."""

    def to_discrete(self, dt, method="zoh", alpha=None):
        """The discretized StateSpace (see `cont2discrete`)."""
        abcd = (self.A, self.B, self.C, self.D)
        return StateSpace(*cont2discrete(abcd, dt, method=method, alpha=alpha)[:-1], dt=dt)


class StateSpaceDiscrete(StateSpace, dlti):
    """A discrete-time StateSpace."""


_SUBCLASSES = {
    TransferFunction: (TransferFunctionContinuous, TransferFunctionDiscrete),
    ZerosPolesGain: (ZerosPolesGainContinuous, ZerosPolesGainDiscrete),
    StateSpace: (StateSpaceContinuous, StateSpaceDiscrete),
}


# ---- frequency responses ------------------------------------------------------------------------------------
# Note [Frequency responses on the host]
# freqs, freqs_zpk, freqz and freqz_zpk evaluate a system's few coefficients on the host (Note [Filter design on
# the host] in _iir_forms.py); bode's and dbode's magnitude and unwrapped phase of their results are computed there
# too, with NumPy as SciPy computes them (an infinite response at a pole gives SciPy's inf and NaN), and the results
# move to the device once.


def _freqresp(system, w, n):
    """freqresp's (w, H) on the host."""
    if isinstance(system, lti):
        sys = system if isinstance(system, (TransferFunction, ZerosPolesGain)) else system._as_zpk()
    elif isinstance(system, dlti):
        raise AttributeError("freqresp can only be used with continuous-time systems.")  # noqa: TRY004  (SciPy's)
    else:
        sys = lti(*system)._as_zpk()
    if sys.inputs != 1 or sys.outputs != 1:
        raise ValueError("freqresp() requires a SISO (single input, single output) system.")
    worN = n if w is None else host(w)
    if isinstance(sys, TransferFunction):
        # num is 2-D with one row where the system came from a state-space one
        return _freqs(host(sys.num).ravel(), host(sys.den), worN=worN)
    return _freqs_zpk(host(sys.zeros), host(sys.poles), host(sys.gain), worN=worN)


def freqresp(system, w=None, n=10000):
    """The frequency response (w, H) of a continuous-time SISO system (an `lti`, or its 2, 3 or 4 arrays) at the
    frequencies w [rad/s], or at n frequencies spanning its poles and zeros."""
    return on_device(_freqresp(system, w, n))


def bode(system, w=None, n=100):
    """Frequencies [rad/s], magnitude [dB] and unwrapped phase [deg] of a continuous-time SISO system."""
    w, y = _freqresp(system, w, n)
    with numpy.errstate(divide="ignore", invalid="ignore"):
        mag = 20.0 * numpy.log10(abs(y))
        phase = numpy.unwrap(numpy.arctan2(y.imag, y.real)) * 180.0 / numpy.pi
    return on_device((w, mag, phase))


def _as_dlti(system, name):
    if isinstance(system, dlti):
        return system
    if isinstance(system, lti):
        raise AttributeError(f"{name} can only be used with discrete-time systems.")  # noqa: TRY004  (SciPy's)
    return dlti(*system[:-1], dt=system[-1])


def _dfreqresp(system, w, n, whole):
    """dfreqresp's (w, H) on the host."""
    system = _as_dlti(system, "dfreqresp")
    if isinstance(system, StateSpace):
        system = system._as_tf()
    if not isinstance(system, (TransferFunction, ZerosPolesGain)):
        raise ValueError("Unknown system type")  # noqa: TRY004  (SciPy's type)
    if system.inputs != 1 or system.outputs != 1:
        raise ValueError("dfreqresp requires a SISO (single input, single output) system.")
    worN = n if w is None else host(w)
    if isinstance(system, TransferFunction):
        # polynomials in z to polynomials in z^-1, as freqz reads them: the shorter padded with leading zeros
        num, den = host(system.num).ravel(), host(system.den)
        diff = len(num) - len(den)
        if diff > 0:
            den = numpy.hstack((numpy.zeros(diff), den))
        elif diff < 0:
            num = numpy.hstack((numpy.zeros(-diff), num))
        return _freqz(num, den, worN=worN, whole=whole)
    return _freqz_zpk(host(system.zeros), host(system.poles), host(system.gain), worN=worN, whole=whole)


def dfreqresp(system, w=None, n=10000, whole=False):
    """The frequency response (w, H) of a discrete-time SISO system (a `dlti`, or its 2, 3 or 4 arrays and dt) at
    the frequencies w [rad/sample], or at n frequencies of [0, pi) ([0, 2 pi) where whole)."""
    return on_device(_dfreqresp(system, w, n, whole))


def dbode(system, w=None, n=100):
    """Frequencies [rad/time unit], magnitude [dB] and unwrapped phase [deg] of a discrete-time SISO system."""
    w, y = _dfreqresp(system, w, n, False)
    dt = system.dt if isinstance(system, dlti) else system[-1]
    with numpy.errstate(divide="ignore", invalid="ignore"):
        mag = 20.0 * numpy.log10(abs(y))
        phase = numpy.rad2deg(numpy.unwrap(numpy.angle(y)))
    return on_device((w / host(dt), mag, phase))


# ---------------------------------------------------------------- simulations of a system in any form
# The recursions are _lsim's and _dltisys's, on state-space systems; these take the system as the user gives it.


def _continuous_ss(system, name):
    """The state-space form of a continuous-time system: an lti's, or lti(*system)'s for its 2, 3 or 4 arrays."""
    if isinstance(system, lti):
        return system._as_ss()
    if isinstance(system, dlti):
        raise AttributeError(f"{name} can only be used with continuous-time systems.")  # noqa: TRY004  (SciPy's)
    return lti(*system)._as_ss()


def _discrete(system, name):
    """A discrete-time system: a dlti as it is, or dlti(*system[:-1], dt=system[-1]) for its arrays and dt."""
    if isinstance(system, lti):
        raise AttributeError(f"{name} can only be used with discrete-time dlti systems.")  # noqa: TRY004  (SciPy's type)
    if not isinstance(system, dlti):
        system = dlti(*system[:-1], dt=system[-1])
    return system


def lsim(system, U, T, X0=None, interp=True):
    """The response (T, yout, xout) of a continuous-time system (an `lti`, or its 2, 3 or 4 arrays) to the input
    U (one column per input; None or 0 for none) at the equally spaced, nonnegative times T, from the state X0
    (zeros by default); the input is linear between samples (interp=True) or held (interp=False)."""
    return lsim_ss(_continuous_ss(system, "lsim"), U, T, X0, interp)


def impulse(system, X0=None, T=None, N=None):
    """The impulse response (T, yout) of a continuous-time system from the state X0 (zeros by default), at the
    times T or at N (100) times spanning its slowest pole."""
    return impulse_ss(_continuous_ss(system, "impulse"), X0, T, N)


def step(system, X0=None, T=None, N=None):
    """The step response (T, yout) of a continuous-time system from the state X0 (zeros by default), at the
    times T or at N (100) times spanning its slowest pole."""
    return step_ss(_continuous_ss(system, "step"), X0, T, N)


def dlsim(system, u, t=None, x0=None):
    """The response (tout, yout[, xout]) of a discrete-time system (a `dlti`, or its 2, 3 or 4 arrays and dt) to
    the input u (one column per input), given at the system's samples or at the times t (then interpolated
    linearly), from the state x0 (zeros by default); xout only for a StateSpace system."""
    system = _discrete(system, "dlsim")
    return dlsim_ss(system._as_ss(), u, t, x0, with_states=isinstance(system, StateSpace))


def dimpulse(system, x0=None, t=None, n=None):
    """The impulse response (tout, yout) of a discrete-time system, one output array per input, at the times t
    or at n (100) samples."""
    return dimpulse_ss(_discrete(system, "dimpulse")._as_ss(), x0, t, n)


def dstep(system, x0=None, t=None, n=None):
    """The step response (tout, yout) of a discrete-time system, one output array per input, at the times t or
    at n (100) samples."""
    return dstep_ss(_discrete(system, "dstep")._as_ss(), x0, t, n)


__all__ = [
    "StateSpace",
    "TransferFunction",
    "ZerosPolesGain",
    "bode",
    "dbode",
    "dfreqresp",
    "dimpulse",
    "dlsim",
    "dlti",
    "dstep",
    "freqresp",
    "impulse",
    "lsim",
    "lti",
    "step",
]
