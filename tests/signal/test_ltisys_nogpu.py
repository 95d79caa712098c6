"""cuarray.scipy.signal's linear time-invariant systems (lti, dlti, TransferFunction, ZerosPolesGain, StateSpace),
their simulations (lsim, impulse, step, dlsim, dimpulse, dstep), frequency responses (freqresp, bode, dfreqresp,
dbode), cont2discrete and place_poles without a device: SciPy's names and signatures; the systems' construction
and errors; and every case of CASES (CuPy's tests' systems and more), with NumPy standing in for cuarray in the
modules that run on the device (the `numpy_device` fixture), against SciPy: the logic of the device code (the
state recursion's scan, the interpolation, shapes and dtypes) without a device. test_ltisys.py runs CASES on the
device; the host maths (the matrix exponential, cont2discrete's and place_poles's `_name` functions) is in
test_lti_host_maths_nogpu.py."""

import itertools
import math
import warnings

import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from cuarray.scipy.signal import _dltisys, _iir_forms, _lsim, _ltisys
from signal_asserts import SCIPY_1_18, assert_host, assert_scipy_signatures, integers_as_float64, same_error

FUNCTIONS = [
    "bode",
    "cont2discrete",
    "dbode",
    "dfreqresp",
    "dimpulse",
    "dlsim",
    "dstep",
    "freqresp",
    "impulse",
    "lsim",
    "place_poles",
    "step",
]
CLASSES = ["StateSpace", "TransferFunction", "ZerosPolesGain", "dlti", "lti"]


def test_names_and_signatures():
    assert_scipy_signatures(sig, ss, FUNCTIONS)
    assert set(CLASSES) <= set(sig.__all__)
    for name in CLASSES:
        assert isinstance(getattr(sig, name), type)


@pytest.fixture
def numpy_device(monkeypatch):
    """NumPy in cuarray's place in the modules that build device arrays: their `_cp`, `device_input` and the
    device copy of the host results, so their code runs on host arrays."""
    for module in (_ltisys, _lsim, _dltisys):
        monkeypatch.setattr(module, "_cp", np)
        monkeypatch.setattr(module, "device_input", np.asarray)
    monkeypatch.setattr(_ltisys, "ndarray", np.ndarray)
    monkeypatch.setattr(_iir_forms, "_to_device", np.asarray)


# ---------------------------------------------------------------- the cases, shared with test_ltisys.py
# Each takes the signal module (scipy.signal or cuarray.scipy.signal) and the array module its inputs are made
# with (NumPy, or cuarray on the device), and returns a tuple of arrays.

A_BUTTER = [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [-1.0, -2.0, -2.0]]  # companion([1, 2, 2, 1]).T
DLTI_ABCD = (
    [[0.9, 0.1], [-0.2, 0.9]],
    [[0.4, 0.1, -0.1], [0.0, 0.05, 0.0]],
    [[0.1, 0.3]],
    [[0.0, -0.1, 0.0]],
)
C2D_ABCD = (
    [[1.0, 0.0], [0.0, 1.0]],
    [[0.5], [0.5]],
    [[0.75, 1.0], [1.0, 1.0], [1.0, 0.25]],
    [[0.0], [0.0], [-0.33]],
)
INVARIANT_SYSTEMS = [
    (([1, 1], [1, 1.5, 1]), 0.25),
    (([1, 2], [1, 1.5, 3, 1]), 0.5),
    ((0.1, [1, 1, 2, 1]), 0.5),
]


def _abcd(xp, matrices):
    return tuple(xp.asarray(m) for m in matrices)


def _dlti_input(xp):
    return xp.hstack((xp.linspace(0, 4.0, num=5)[:, None], xp.full((5, 1), 0.01), xp.full((5, 1), -0.002)))


def _matrices(system):
    return (system.A, system.B, system.C, system.D)


def _num_den(system):
    return (system.num, system.den)


def _zeros_poles(system):
    return (system.zeros, system.poles)


def _zpk_arrays(xp, zpk):
    """cont2discrete's (zeros, poles, gain, dt), the gain as an array (a host scalar in both libraries)."""
    return (zpk[0], zpk[1], xp.asarray(zpk[2]))


def _random_system(xp, states, inputs, outputs, seed, discrete=False):
    """A random system, stable: its poles left of -1 (inside the circle of radius 1/2 where discrete)."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((states, states))
    a = (
        a / (2 * np.abs(np.linalg.eigvals(a)).max())
        if discrete
        else a - (2 + np.abs(a).sum()) * np.eye(states)
    )
    return tuple(
        xp.asarray(m)
        for m in (
            a,
            rng.standard_normal((states, inputs)),
            rng.standard_normal((outputs, states)),
            rng.standard_normal((outputs, inputs)),
        )
    )


def _lsim_random(s, xp, interp, steps=300):
    rng = np.random.default_rng(5)
    u, t = xp.asarray(rng.standard_normal((steps, 2))), xp.linspace(0, 3, steps)
    return s.lsim(s.lti(*_random_system(xp, 3, 2, 2, 1)), u, t, X0=[1.0, -1.0, 0.5], interp=interp)


def _discrete_approximation(s, xp):
    """CuPy's test_discrete_approx: dlsim of the bilinear discretization approximates lsim's midpoints."""
    a, b, c, d = (xp.asarray([[v]]) for v in (-0.01, 1.0, 1.0, 0.2))
    t = xp.linspace(0, 10.0, 101)
    u1 = xp.sin(2.5 * t)
    _, yout, _ = s.lsim((a, b, c, d), T=t, U=u1, X0=1.0)
    dsys = s.cont2discrete((a, b, c, d), t[1] - t[0], method="bilinear")
    _, yd2, _ = s.dlsim(dsys, u=(0.5 * (u1[:-1] + u1[1:])).reshape(-1, 1), t=t[:-1], x0=1.0)
    return yd2, 0.5 * (yout[:-1] + yout[1:])


def _invariant(kind, system, sample_time):
    """CuPy's TestC2dInvariants: the continuous response at the samples and the discretized system's."""

    def case(s, xp):
        time = xp.arange(10) * sample_time
        sys = s.tf2ss(*system)
        if kind == "impulse":
            return s.impulse(sys, T=time)[1], s.dimpulse(s.cont2discrete(sys, sample_time, "impulse"), n=10)[
                1
            ][0]
        if kind == "step":
            return s.step(sys, T=time)[1], s.dstep(s.cont2discrete(sys, sample_time, "zoh"), n=10)[1][0]
        return s.lsim(sys, T=time, U=time)[1], s.dlsim(s.cont2discrete(sys, sample_time, "foh"), u=time)[1]

    return case


def _c2d(method, dt=0.5, alpha=None, d=None):
    def case(s, xp):
        a, b, c, dd = _abcd(xp, C2D_ABCD)
        return s.cont2discrete((a, b, c, dd if d is None else xp.asarray(d)), dt, method=method, alpha=alpha)[
            :-1
        ]

    return case


CASES = {
    # bode and freqresp (CuPy's Test_bode, Test_freqresp)
    "bode_w": lambda s, xp: s.bode(s.lti([1], [1, 1]), w=[0.1, 1, 10, 100]),
    "bode_n": lambda s, xp: s.bode(s.lti([1], [1, 1]), n=10),
    "bode_integrator": lambda s, xp: s.bode(s.lti([1], [1, 0]), n=2),
    "bode_imaginary_poles": lambda s, xp: s.bode(s.lti([1], [1, 0, 100]), n=2),
    "bode_continuous_phase": lambda s, xp: s.lti([], [-10, -30, -40, -60, -70], 1).bode(
        w=xp.logspace(-3, 40, 100)
    ),
    "bode_state_space": lambda s, xp: s.bode(
        s.lti(xp.asarray(A_BUTTER), [[0.0], [0.0], [1.0]], [[1.0, 0, 0]], 0.0)
    ),
    "freqresp_w": lambda s, xp: s.freqresp(s.lti([1], [1, 1]), w=[0.1, 1, 10]),
    "freqresp_n": lambda s, xp: s.freqresp(s.lti([1], [1, 1]), n=10),
    "freqresp_integrator": lambda s, xp: s.freqresp(s.lti([1], [1, 0]), n=2),
    "freqresp_state_space": lambda s, xp: s.freqresp(
        s.lti(xp.asarray(A_BUTTER), [[0.0], [0.0], [1.0]], [[1.0, 0, 0]], 0.0), n=10
    ),
    "freqresp_zpk": lambda s, xp: s.freqresp(s.lti([], [-1] * 4, [1]), w=[0.1, 1, 10, 100]),
    "freqresp_tuple": lambda s, xp: s.freqresp(([1.0, 3.0], [1.0, 2.0, 5.0]), n=20),
    "freqresp_method": lambda s, xp: s.ZerosPolesGain([-2.0], [-1.0, -3.0], 4.0).freqresp(n=7),
    # lsim (CuPy's TestLsim)
    "lsim_first_order": lambda s, xp: s.lsim(
        s.lti(-1.0, 1.0, 1.0, 0.0), xp.zeros(50), xp.linspace(0, 5), X0=xp.asarray([1.0])
    ),
    "lsim_second_order": lambda s, xp: s.lsim(
        s.lti([1.0], [1.0, 2.0, 1.0]), xp.zeros(1001), xp.linspace(0, 10, 1001), X0=xp.asarray([1.0, 0.0])
    ),
    "lsim_integrator": lambda s, xp: s.lsim(s.lti(0.0, 1.0, 1.0, 0.0), xp.linspace(0, 5), xp.linspace(0, 5)),
    "lsim_two_states": lambda s, xp: s.lsim(
        s.lti(xp.asarray([[-1.0, 0.0], [0.0, -2.0]]), xp.eye(2), xp.asarray([1.0, 0.0]), xp.zeros((1, 2))),
        U=xp.zeros((21, 2)),
        T=xp.linspace(0, 10.0, 21),
        X0=xp.asarray([1.0, 1.0]),
    ),
    "lsim_double_integrator": lambda s, xp: s.lsim(
        s.lti(
            xp.asarray([[0.0, 1.0], [0.0, 0.0]]), xp.asarray([[0.0], [1.0]]), xp.asarray([[2.0, 0.0]]), 0.0
        ),
        xp.ones(50),
        xp.linspace(0, 5),
    ),
    "lsim_jordan_block": lambda s, xp: s.lsim(
        s.lti(
            xp.asarray([[-1.0, 1.0], [0.0, -1.0]]), xp.asarray([[0.0], [1.0]]), xp.asarray([[1.0, 0.0]]), 0.0
        ),
        xp.zeros(50),
        xp.linspace(0, 5),
        X0=xp.asarray([0.0, 1.0]),
    ),
    "lsim_miso": lambda s, xp: s.lsim(
        s.lti(xp.asarray([[-1.0, 0.0], [0.0, -2.0]]), xp.eye(2), xp.asarray([1.0, 0.0]), xp.zeros((1, 2))),
        xp.zeros((101, 2)),
        xp.linspace(0, 5.0, 101),
        X0=xp.asarray([1.0, 1.0]),
    ),
    "lsim_nonzero_initial_time": lambda s, xp: s.lsim(
        s.lti(-1.0, 1.0, 1.0, 0.0), xp.zeros(50), xp.linspace(1, 2), X0=xp.asarray([1.0])
    ),
    "lsim_mimo_linear": lambda s, xp: _lsim_random(s, xp, True),
    "lsim_mimo_hold": lambda s, xp: _lsim_random(s, xp, False),
    "lsim_many_steps": lambda s, xp: _lsim_random(s, xp, True, steps=20001),
    "lsim_one_step": lambda s, xp: s.lsim(
        s.lti(*_random_system(xp, 3, 2, 2, 1)), xp.ones((1, 2)), [0.0], X0=[1, 2, 3]
    ),
    "lsim_none_input": lambda s, xp: s.lsim(
        ([1.0], [1.0, 3.0, 2.0]), None, xp.linspace(0, 4, 40), X0=[1.0, 0.0]
    ),
    "lsim_int_times": lambda s, xp: s.lsim(([1.0], [1.0, 1.0]), xp.ones(10), xp.arange(10)),
    "lsim_method": lambda s, xp: s.TransferFunction([1.0], [1.0, 1.0]).output(
        xp.ones(20), xp.linspace(0, 2, 20)
    ),
    # impulse and step (CuPy's TestImpulse, TestStep)
    "impulse_first_order": lambda s, xp: s.impulse(([1.0], [1.0, 1.0])),
    "impulse_fixed_time": lambda s, xp: s.impulse(([1.0], [1.0, 1.0]), T=xp.linspace(0, 2.0, 21)),
    "impulse_initial": lambda s, xp: s.impulse(([1.0], [1.0, 1.0]), X0=3.0),
    "impulse_initial_array": lambda s, xp: s.impulse(([1.0], [1.0, 1.0]), X0=xp.asarray([3.0])),
    "impulse_integrator": lambda s, xp: s.impulse(([1.0], [1.0, 0.0])),
    "impulse_second_order": lambda s, xp: s.impulse(([1.0], [1.0, 2.0, 1.0])),
    "impulse_N": lambda s, xp: s.lti([1.0], [1.0, 2.0, 1.0]).impulse(N=17),
    "step_first_order": lambda s, xp: s.step(([1.0], [1.0, 1.0])),
    "step_fixed_time": lambda s, xp: s.step(([1.0], [1.0, 1.0]), T=xp.linspace(0, 2.0, 21)),
    "step_initial": lambda s, xp: s.step(([1.0], [1.0, 1.0]), X0=3.0),
    "step_initial_array": lambda s, xp: s.step(([1.0], [1.0, 1.0]), X0=xp.asarray([3.0])),
    "step_integrator": lambda s, xp: s.step(([1.0], [1.0, 0.0])),
    "step_second_order": lambda s, xp: s.step(([1.0], [1.0, 2.0, 1.0])),
    "step_method": lambda s, xp: s.lti([-1.0], [-2.0, -3.0], 6.0).step(N=12),
    # dlsim, dstep, dimpulse (CuPy's TestDLTI)
    "dlsim": lambda s, xp: s.dlsim((*_abcd(xp, DLTI_ABCD), 0.5), _dlti_input(xp), xp.linspace(0, 2.0, num=5)),
    "dlsim_scalar_input": lambda s, xp: s.dlsim((1, 2, 3), 4),
    "dlsim_interpolated": lambda s, xp: s.dlsim(
        (*_abcd(xp, DLTI_ABCD), 0.5), _dlti_input(xp)[xp.asarray([0, 4]), :], xp.asarray([0.0, 2.0])
    ),
    "dlsim_tf": lambda s, xp: s.dlsim(
        (xp.asarray([1.0, -0.1]), xp.asarray([0.3, 1.0, 0.2]), 0.5),
        _dlti_input(xp)[:, 0],
        xp.linspace(0, 2, 5),
    ),
    "dlsim_zpk": lambda s, xp: s.dlsim(
        (xp.asarray([0.5, -0.5]), xp.asarray([1j / math.sqrt(2), -1j / math.sqrt(2)]), 1.0, 0.5),
        _dlti_input(xp)[:, 0],
        xp.linspace(0, 2.0, num=5),
    ),
    "dlsim_trivial": lambda s, xp: s.dlsim((*_abcd(xp, ([[0.0]],) * 4), 1), xp.zeros((5, 1))),
    "dlsim_simple1d": lambda s, xp: s.dlsim(
        (*_abcd(xp, ([[0.5]], [[0.0]], [[1.0]], [[0.0]])), 1), xp.zeros((5, 1)), x0=1
    ),
    "dlsim_simple2d": lambda s, xp: s.dlsim(
        (*_abcd(xp, ([[0.5, 0.0], [0.0, 0.25]], [[0.0], [0.0]], np.eye(2), [[0.0], [0.0]])), 1),
        xp.zeros((5, 1)),
        x0=1,
    ),
    "dlsim_extrapolated": lambda s, xp: s.dlsim(
        (*_abcd(xp, ([[0.5, 0.1], [0.0, 0.3]], np.eye(2), [[1.0, 1.0]], [[0.5, 0.0]])), 0.1),
        xp.asarray([[1.0, 2.0], [3.0, 5.0], [4.0, -1.0]]),
        xp.asarray([0.3, 0.7, 1.55]),
    ),
    "dlsim_long": lambda s, xp: s.dlsim(
        (*_random_system(xp, 4, 2, 3, 2, discrete=True), 0.01),
        xp.sin(xp.linspace(0, 50, 30001)[:, None] * xp.asarray([1.0, 3.0])),
        x0=[1, 0, 0, 1],
    ),
    "dlsim_method": lambda s, xp: s.dlti([1.0], [1.0, -0.5], dt=0.1).output(xp.ones(8), None),
    "dstep": lambda s, xp: s.dstep((*_abcd(xp, DLTI_ABCD), 0.5), n=10),
    "dstep_tf": lambda s, xp: s.dstep(([1.0], [1.0, 1.0], 0.5), n=3),
    "dstep_zpk": lambda s, xp: s.dstep(s.tf2zpk([1.0], [1.0, 1.0]) + (0.5,), n=3),
    "dstep_two_inputs": lambda s, xp: s.dstep(
        (*_abcd(xp, ([[0.5, 0.0], [0.0, 0.75]], np.eye(2), [[1.0, 1.0]], [[0.0, 0.0]])), 1), n=10
    ),
    "dstep_dt": lambda s, xp: s.dstep(([1.0], [1.0, -0.5], 0.1), n=3),
    "dstep_unspecified_dt": lambda s, xp: s.dlti([1.0], [1.0, -0.5]).step(n=5),
    "dimpulse": lambda s, xp: s.dimpulse((*_abcd(xp, DLTI_ABCD), 0.5), n=10),
    "dimpulse_tf": lambda s, xp: s.dimpulse(([1.0], [1.0, 1.0], 0.5), n=3),
    "dimpulse_zpk": lambda s, xp: s.dimpulse(s.tf2zpk([1.0], [1.0, 1.0]) + (0.5,), n=3),
    "dimpulse_initial": lambda s, xp: s.dimpulse(
        (*_abcd(xp, ([[0.5, 0.0], [0.0, 0.75]], np.eye(2), [[1.0, 1.0]], [[0.0, 0.0]])), 1),
        n=10,
        x0=xp.asarray([1.0, 1.0]),
    ),
    "dimpulse_dt": lambda s, xp: s.dimpulse(([1.0], [1.0, -0.5], 0.1), n=3),
    "dimpulse_times": lambda s, xp: s.dlti([1.0], [1.0, -0.5], dt=0.1).impulse(t=xp.linspace(0, 1, 7)),
    # dfreqresp and dbode (CuPy's Test_dfreqresp, Test_bode)
    "dfreqresp_w": lambda s, xp: s.dfreqresp(s.TransferFunction(1, [1, -0.2], dt=0.1), w=[0.1, 1, 10, 100]),
    "dfreqresp_n": lambda s, xp: s.dfreqresp(s.TransferFunction(1, [1, -0.2], dt=0.1), n=10),
    "dfreqresp_pole_one": lambda s, xp: s.dfreqresp(s.TransferFunction([1], [1, -1], dt=0.1), n=2),
    "dfreqresp_state_space": lambda s, xp: s.dfreqresp(
        s.dlti(xp.asarray([[0.5, 0, 0], [1, 0, 0], [0, 1, 0]]), xp.asarray([[1, 0, 0]]).T, [[0, 0, 2]], 0),
        w=10.0 ** np.arange(-3, 0, 0.5),
    ),
    "dfreqresp_tf_like_state_space": lambda s, xp: s.dfreqresp(
        s.dlti([2], [1, -0.5, 0, 0]), w=10.0 ** np.arange(-3, 0, 0.5)
    ),
    "dfreqresp_zpk": lambda s, xp: s.dfreqresp(s.dlti([], [0.2], 0.3), w=[0.1, 1, 10, 100]),
    "dfreqresp_whole": lambda s, xp: s.dlti(0.3, [1, -0.2]).freqresp(n=9, whole=True),
    "dbode_w": lambda s, xp: s.dbode(s.TransferFunction(0.3, [1, -0.2], dt=0.1), w=[0.1, 0.5, 1, math.pi]),
    "dbode_n": lambda s, xp: s.dbode(s.TransferFunction(0.3, [1, -0.2], dt=0.1), n=10),
    "dbode_imaginary_poles": lambda s, xp: s.dbode(s.TransferFunction([1], [1, 0, 100], dt=0.1), n=2),
    "dbode_tuple": lambda s, xp: s.dbode(([1.0, 0.5], [1.0, -0.3, 0.1], 0.25), n=6),
    "dbode_method": lambda s, xp: s.dlti([0.5], [1.0, -0.5], dt=0.2).bode(n=5),
    # z and z^-1 polynomials (CuPy's TestTransferFunctionZConversion)
    "z_same_order": lambda s, xp: (
        s.TransferFunction._z_to_zinv([2, 3, 4], [5, 6, 7])
        + s.TransferFunction._zinv_to_z([2, 3, 4], [5, 6, 7])
    ),
    "z_lower_numerator": lambda s, xp: (
        s.TransferFunction._z_to_zinv([2, 3], [5, 6, 7]) + s.TransferFunction._zinv_to_z([2, 3], [5, 6, 7])
    ),
    "z_higher_numerator": lambda s, xp: (
        s.TransferFunction._z_to_zinv([2, 3, 4], [5, 6]) + s.TransferFunction._zinv_to_z([2, 3, 4], [5, 6])
    ),
    # cont2discrete (CuPy's TestC2D, TestC2dLti, TestC2dInvariants)
    **{
        f"c2d_{m}": _c2d(m)
        for m in ("zoh", "foh", "euler", "forward_diff", "backward_diff", "bilinear", "tustin")
    },
    "c2d_bilinear_third": _c2d("bilinear", dt=1.0 / 3.0),
    "c2d_gbt": _c2d("gbt", alpha=1.0 / 3.0),
    "c2d_impulse": _c2d("impulse", d=np.zeros((3, 1))),
    "c2d_tf": lambda s, xp: s.cont2discrete(
        (xp.asarray([0.25, 0.25, 0.5]), xp.asarray([0.75, 0.75, 1.0])), 0.5
    )[:-1],
    "c2d_zpk": lambda s, xp: _zpk_arrays(
        xp,
        s.cont2discrete(
            (xp.asarray([0.5, -0.5]), xp.asarray([1j / math.sqrt(2), -1j / math.sqrt(2)]), 1.0), 0.5
        ),
    ),
    "c2d_gbt_tf": lambda s, xp: s.cont2discrete(s.ss2tf(-1.0, 1.0, 1.0, 0.5), 1.0, method="gbt", alpha=0.25)[
        :-1
    ],
    "c2d_simo_tf": lambda s, xp: s.cont2discrete(([[1, 0], [1, 1]], [1, 1]), 0.01)[:-1],
    "c2d_multioutput": lambda s, xp: s.cont2discrete(([[1, -3], [1, 5]], [1, 1]), 0.01)[:-1],
    "c2d_multioutput_rows": lambda s, xp: (
        s.cont2discrete(([1, -3], [1, 1]), 0.01)[:-1] + s.cont2discrete(([1, 5], [1, 1]), 0.01)[:-1]
    ),
    "c2d_lti_ss": lambda s, xp: _matrices(
        s.lti(
            xp.asarray([[-0.3, 0.1], [0.2, -0.7]]), xp.asarray([[0], [1]]), xp.asarray([[1, 0]]), 0
        ).to_discrete(0.05)
    ),
    "c2d_lti_tf": lambda s, xp: _num_den(s.lti([0.5, 0.3], [1.0, 0.4]).to_discrete(0.005)),
    "c2d_lti_zpk": lambda s, xp: _zeros_poles(
        s.lti([-1.0], [-2.0, -5.0], 3.0).to_discrete(0.1, method="foh")
    ),
    "c2d_lti_function": lambda s, xp: _num_den(
        s.cont2discrete(s.lti([1.0], [1.0, 3.0, 2.0]), 0.2, method="bilinear")
    ),
    "c2d_discrete_approximation": _discrete_approximation,
    **{
        f"c2d_{kind}_invariant_{i}": _invariant(kind, system, dt)
        for kind in ("impulse", "step", "linear")
        for i, (system, dt) in enumerate(INVARIANT_SYSTEMS)
    },
    # the systems' conversions and properties
    "tf_to_ss": lambda s, xp: _matrices(s.TransferFunction([1.0, 3.0, 3.0], [1.0, 2.0, 1.0]).to_ss()),
    "tf_to_zpk": lambda s, xp: _zeros_poles(s.TransferFunction([1.0, 3.0, 3.0], [1.0, 2.0, 1.0]).to_zpk()),
    "zpk_to_tf": lambda s, xp: _num_den(s.ZerosPolesGain([1, 2], [3, 4], 5).to_tf()),
    "zpk_to_ss": lambda s, xp: _matrices(s.ZerosPolesGain([-1.0], [-2.0, -3.0], 2.0, dt=0.5).to_ss()),
    "ss_to_tf": lambda s, xp: _num_den(s.StateSpace(*_random_system(xp, 3, 1, 1, 4)).to_tf()),
    "ss_to_zpk": lambda s, xp: _zeros_poles(s.StateSpace(*_random_system(xp, 3, 1, 1, 4)).to_zpk()),
    "ss_to_tf_input": lambda s, xp: _num_den(s.StateSpace(*_random_system(xp, 2, 2, 2, 6)).to_tf(input=1)),
    "ss_poles_zeros": lambda s, xp: _zeros_poles(s.StateSpace(1.0, 1.0, 1.0, 1.0, dt=0.05)),
    "tf_poles_zeros": lambda s, xp: _zeros_poles(s.TransferFunction([1, 0], [1, -1], dt=0.05)),
    "tf_from_zpk_class": lambda s, xp: _num_den(s.TransferFunction(s.ZerosPolesGain([1.0], [2.0, 3.0], 4.0))),
    "ss_from_tf_class": lambda s, xp: _matrices(s.StateSpace(s.lti([1.0], [1.0, 1.0, 1.0]))),
    "tf_mimo_numerator": lambda s, xp: _num_den(s.TransferFunction([[1.0, 2.0], [0.0, 1.0]], [1.0, 3.0])),
    # state-space arithmetic
    "ss_mul_ss": lambda s, xp: _matrices(
        s.StateSpace(*_random_system(xp, 2, 1, 1, 7)) * s.StateSpace(*_random_system(xp, 3, 1, 1, 8))
    ),
    "ss_add_ss": lambda s, xp: _matrices(
        s.StateSpace(*_random_system(xp, 2, 2, 1, 7), dt=0.1)
        + s.StateSpace(*_random_system(xp, 1, 2, 1, 8), dt=0.1)
    ),
    "ss_sub_ss": lambda s, xp: _matrices(
        s.StateSpace(*_random_system(xp, 2, 1, 2, 7)) - s.StateSpace(*_random_system(xp, 2, 1, 2, 8))
    ),
    "ss_mul_gain": lambda s, xp: _matrices(
        s.StateSpace(*_random_system(xp, 2, 2, 2, 7)) * xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    ),
    "ss_rmul_gain": lambda s, xp: _matrices(
        xp.asarray([[1.0, 2.0], [3.0, 4.0]]) * s.StateSpace(*_random_system(xp, 2, 2, 2, 7))
    ),
    "ss_mul_scalar": lambda s, xp: _matrices(s.StateSpace(*_random_system(xp, 2, 1, 1, 7)) * 2.5),
    "ss_rmul_scalar": lambda s, xp: _matrices(3 * s.StateSpace(*_random_system(xp, 2, 1, 1, 7))),
    "ss_mul_complex": lambda s, xp: _matrices(s.StateSpace(*_random_system(xp, 2, 1, 1, 7)) * (1 + 2j)),
    "ss_add_scalar": lambda s, xp: _matrices(s.StateSpace(*_random_system(xp, 2, 1, 1, 7)) + 2.0),
    "ss_radd_scalar": lambda s, xp: _matrices(1.5 + s.StateSpace(*_random_system(xp, 2, 1, 1, 7))),
    "ss_rsub_scalar": lambda s, xp: _matrices(1.5 - s.StateSpace(*_random_system(xp, 2, 1, 1, 7))),
    "ss_sub_matrix": lambda s, xp: _matrices(s.StateSpace(*_random_system(xp, 2, 2, 2, 7)) - xp.eye(2)),
    "ss_neg": lambda s, xp: _matrices(-s.StateSpace(*_random_system(xp, 2, 1, 1, 7))),
    "ss_div": lambda s, xp: _matrices(s.StateSpace(*_random_system(xp, 2, 1, 1, 7)) / 4),
    "ss_div_0d": lambda s, xp: _matrices(s.StateSpace(*_random_system(xp, 2, 1, 1, 7)) / xp.asarray(4.0)),
}


# The tuple's last element, or an array's, are scalars in SciPy where they are elsewhere arrays; CASES return arrays.
def _arrays(result):
    return tuple(result) if isinstance(result, tuple) else (result,)


def _flattened(result):
    """Nested tuples (dimpulse's and dstep's outputs) flattened."""
    out = ()
    for r in _arrays(result):
        out += _flattened(r) if isinstance(r, tuple) else (r,)
    return out


# Cases whose integer state-space matrices SciPy 1.17 keeps (1.18 and cuarray make them float64).
INTEGER_MATRICES = {"c2d_lti_ss"}


def scipy_case(name):
    """SciPy's results for CASES[name], flattened (with SciPy 1.18's float64 state-space matrices)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = tuple(np.asarray(e) for e in _flattened(CASES[name](ss, np)))  # _z_to_zinv's lists
    return integers_as_float64(expected) if name in INTEGER_MATRICES else expected


@pytest.mark.parametrize("name", list(CASES))
def test_case_matches_scipy_with_numpy_for_the_device(numpy_device, name):
    """The code that runs on the device, run on host arrays, gives SciPy's results: values, dtypes and shapes."""
    expected = scipy_case(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _flattened(CASES[name](sig, np))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert isinstance(g, np.ndarray), type(g)
        assert_host(g, e, 1e-10)


# ---------------------------------------------------------------- the systems: construction, errors


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.lti(1),
        lambda s: s.lti(1, 2, 3, 4, 5),
        lambda s: s.dlti(1),
        lambda s: s.dlti(1, 1, 1, 1, 1),
        lambda s: s.lti(1, 2, foo=1),
        lambda s: s.lti(1, 2, dt=0.1),
        lambda s: s._ltisys.LinearTimeInvariant(),
    ],
)
def test_construction_errors(call):
    """Before any device work: SciPy's errors for a wrong number of arguments, keywords lti does not take and
    direct use of the base class."""
    same_error(lambda: call(sig), lambda: call(ss))


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda s: s.dlti(1, 2, dt=0.1, foo=1), "dlti.__new__() got an unexpected keyword argument 'foo'"),
        (
            lambda s: s.StateSpace(1, 2, 3, 4, foo=1),
            "StateSpace.__new__() got an unexpected keyword argument 'foo'",
        ),
        (
            lambda s: s.TransferFunction([1.0], [1.0, 2.0], dt=0.1, foo=1),
            "TransferFunction.__new__() got an unexpected keyword argument 'foo'",
        ),
        (
            lambda s: s.ZerosPolesGain([1.0], [2.0], 3.0, foo=1),
            "ZerosPolesGain.__new__() got an unexpected keyword argument 'foo'",
        ),
        (  # a conversion, which SciPy 1.17 let through
            lambda s: s.StateSpace(s.lti([1.0], [1.0, 2.0]), foo=1),
            "StateSpace.__new__() got an unexpected keyword argument 'foo'",
        ),
    ],
)
def test_unknown_keywords(numpy_device, call, message):
    """SciPy 1.18's TypeError for a keyword other than dt (Note [dt alone] in _ltisys.py; SciPy 1.17 raised it
    from LinearTimeInvariant.__init__), before any device work; the installed SciPy's from 1.18 on."""
    with pytest.raises(TypeError) as got:
        call(sig)
    assert str(got.value) == message
    if SCIPY_1_18:
        same_error(lambda: call(sig), lambda: call(ss))


def test_construction(numpy_device):
    """CuPy's TestDlti, TestStateSpaceDisc, TestTransferFunction and TestZerosPolesGain: the subclass each
    constructor makes, dt, conversions and copies."""
    dt = 0.05
    for args, form in (
        (([1], [-1]), sig.TransferFunction),
        ((np.array([]), np.array([-1]), 1), sig.ZerosPolesGain),
        (
            ([1], [-1], 1, 3),
            sig.StateSpace,
        ),
    ):
        s = sig.dlti(*args, dt=dt)
        assert isinstance(s, form) and isinstance(s, sig.dlti) and not isinstance(s, sig.lti) and s.dt == dt
        c = sig.lti(*args)
        assert isinstance(c, form) and isinstance(c, sig.lti) and not isinstance(c, sig.dlti) and c.dt is None
        assert form(*args, dt=True).dt is True and sig.dlti(*args).dt is True
        for sys in (s, c):
            assert isinstance(sys.to_ss(), sig.StateSpace)
            assert isinstance(sys.to_tf(), sig.TransferFunction)
            assert isinstance(sys.to_zpk(), sig.ZerosPolesGain)
            assert form(sys) is not sys
            assert sys.to_ss().dt == sys.to_tf().dt == sys.to_zpk().dt == sys.dt
            assert type(form(sys)) is type(sys)
    assert sig.StateSpace(1, 1, 1, 1, dt=dt).poles == np.array([1])
    assert sig.StateSpace(1, 1, 1, 1, dt=dt).zeros == np.array([0])
    mimo = sig.StateSpace(*_random_system(np, 3, 2, 4, 9))
    assert (mimo.inputs, mimo.outputs) == (2, 4)
    ours, theirs = (s.TransferFunction([[1.0, 2.0], [0.0, 1.0], [3.0, 4.0]], [1.0, 3.0]) for s in (sig, ss))
    assert (ours.inputs, ours.outputs) == (theirs.inputs, theirs.outputs) == (2, 3)


def test_repr_and_setters(numpy_device):
    for make in (
        lambda s: s.TransferFunction([1.0, 3.0, 3.0], [1.0, 2.0, 1.0], dt=0.1),
        lambda s: s.ZerosPolesGain([1, 2], [3, 4], 5),
        lambda s: s.StateSpace([[1.0, 2.0], [3.0, 4.0]], [[1.0], [2.0]], [[1.0, 0.0]], [[0.0]], dt=True),
    ):
        assert repr(make(sig)) == repr(make(ss))
    ours, theirs = sig.StateSpace(1.0, 1.0, 1.0, 1.0), ss.StateSpace(1.0, 1.0, 1.0, 1.0)
    for system in (ours, theirs):
        system.B = [[1.0, 2.0]]
        system.C = [[1.0], [2.0], [3.0]]
    assert (ours.inputs, ours.outputs) == (theirs.inputs, theirs.outputs) == (2, 3)
    ours, theirs = sig.TransferFunction(1.0, [1.0, 1.0]), ss.TransferFunction(1.0, [1.0, 1.0])
    ours.num, theirs.num = [[1.0], [2.0]], [[1.0], [2.0]]
    assert (ours.inputs, ours.outputs) == (theirs.inputs, theirs.outputs)
    assert sig.ZerosPolesGain([1], [2], 3).gain == 3


def _ss(s, dt=None, seed=7, states=2):
    return s.StateSpace(*_random_system(np, states, 1, 1, seed), **({} if dt is None else {"dt": dt}))


# Calls that fail in SciPy, each taking the signal module and the array module of its arrays (shared with
# test_ltisys.py).
ERRORS = [
    lambda s, xp: _ss(s) * _ss(s, dt=0.1),
    lambda s, xp: _ss(s, dt=0.1) * _ss(s, dt=0.2),
    lambda s, xp: _ss(s, dt=0.1) + _ss(s, dt=0.2),
    lambda s, xp: _ss(s) + xp.ones((2, 2)),
    lambda s, xp: _ss(s) / _ss(s),
    lambda s, xp: _ss(s) * "a",
    lambda s, xp: _ss(s) + [1.0],
    lambda s, xp: [1.0] - _ss(s),
    lambda s, xp: _ss(s) / xp.ones(2),
    lambda s, xp: s.lsim(s.dlti([1], [1, 1]), [1.0], [0.0]),
    lambda s, xp: s.impulse(s.dlti([1], [1, 1])),
    lambda s, xp: s.step(s.dlti([1], [1, 1])),
    lambda s, xp: s.freqresp(s.dlti([1], [1, 1])),
    lambda s, xp: s.bode(s.dlti([1], [1, 1])),
    lambda s, xp: s.dlsim(s.lti([1], [1, 1]), [1.0, 2.0]),
    lambda s, xp: s.dstep(s.lti([1], [1, 1])),
    lambda s, xp: s.dimpulse(s.lti([1], [1, 1])),
    lambda s, xp: s.dfreqresp(s.lti([1], [1, 1])),
    lambda s, xp: s.dbode(s.lti([1], [1, 1])),
    lambda s, xp: s.freqresp(s.TransferFunction([[1.0, 2.0], [0.0, 1.0]], [1.0, 3.0])),
    lambda s, xp: s.dfreqresp(s.TransferFunction([[1.0, 2.0], [0.0, 1.0]], [1.0, 3.0], dt=0.1)),
    lambda s, xp: s.dfreqresp(s.dlti(*_random_system(np, 2, 1, 2, 3))),
    lambda s, xp: s.lti(s.lti([1], [1, 1])),
    lambda s, xp: s.lsim(([1.0], [1.0, 0.0]), [0.0, 0.0, 1.0, 1.0], [0.0, 1.0, 1.0, 3.0], X0=[1.0]),
    lambda s, xp: s.lsim(([1.0], [1.0, 0.0]), [0.0, 1.0], [[0.0, 1.0]]),
    lambda s, xp: s.lsim(([1.0], [1.0, 0.0]), [1.0, 1.0], [-1.0, 0.0]),
    lambda s, xp: s.lsim(([1.0], [1.0, 0.0]), [1.0, 1.0, 1.0], [0.0, 1.0]),
    lambda s, xp: s.lsim(([1.0], [1.0, 0.0]), np.ones((2, 2)), [0.0, 1.0]),
    lambda s, xp: s.dlsim(([1.0], [1.0, 0.5], 0.1), [1.0, 2.0], t=[0.0, 0.0]),
    lambda s, xp: s.dlsim(([1.0], [1.0, 0.5], 0.1), [1.0, 2.0], t=[0.2, 0.1]),
    lambda s, xp: s.dlsim(([1.0], [1.0, 0.5], 0.1), [1.0, 2.0, 3.0], t=[0.0, 0.1]),
    lambda s, xp: s.dlsim(([1.0], [1.0, 0.5], 0.1), [1.0, np.nan], t=[0.0, 0.1]),
    lambda s, xp: s.lti([1.0], [1.0, 1.0]).to_discrete(0.1, method="gbt"),
    lambda s, xp: s.TransferFunction([1.0], [1.0, 1.0], dt=0.1).to_discrete(0.1),
]


@pytest.mark.parametrize("call", ERRORS)
def test_errors(numpy_device, call):
    """SciPy's error types and messages: mixed or mismatched systems, continuous systems given to the discrete
    functions and back, MIMO frequency responses, bad times and inputs."""
    same_error(lambda: call(sig, np), lambda: call(ss, np))


def test_adding_continuous_and_discrete_systems_fails(numpy_device):
    """SciPy's TypeError (its message names the classes, which live in another module here)."""
    with pytest.raises(TypeError, match="Cannot add <class '[a-z._]*StateSpaceContinuous'> and "):
        _ss(sig) + _ss(sig, dt=0.1)


def test_complex_values_stored_as_real(numpy_device):
    """A complex input to a real system (lsim) and a complex system (dlsim): SciPy's real parts, with NumPy's
    ComplexWarning as SciPy's assignments give it."""
    calls = [
        lambda s: s.lsim(([1.0], [1.0, 1.0]), np.ones(10) * (1 + 1j), np.linspace(0, 1, 10)),
        lambda s: s.dlsim(([[0.5 + 0.5j]], [[1.0]], [[1.0 + 1j]], [[0.0]], 0.1), np.ones(6), x0=[1.0]),
    ]
    for call in calls:
        with pytest.warns(np.exceptions.ComplexWarning):
            expected = call(ss)
        with pytest.warns(np.exceptions.ComplexWarning):
            got = call(sig)
        assert_host(got, expected, 1e-12)


def test_unstable_recursion_steps_one_sample_at_a_time(numpy_device):
    """A power of the state matrix overflows: the recursion is stepped as SciPy steps it, 0 (not NaN) in the
    decoupled state (Note [The state recursion as a scan])."""
    system = (np.diag([2.0, 0.5]), np.array([[0.0], [1.0]]), np.eye(2), np.zeros((2, 1)), 1.0)
    got = sig.dlsim(system, np.ones(3000), x0=[0.0, 1.0])
    with np.errstate(over="ignore"):
        expected = ss.dlsim(system, np.ones(3000), x0=[0.0, 1.0])
    assert not np.isnan(got[2]).any()
    assert_host(got, expected, 1e-12)


def test_propagate_scan_and_steps_agree():
    """The scan's doubling gives the one-at-a-time recursion's states, for every length up to past a power of 2
    (NumPy arrays stand in for device ones)."""
    rng = np.random.default_rng(4)
    step = rng.standard_normal((3, 3)) * 0.4
    first = rng.standard_normal(3)
    for n, dtype in itertools.product([1, 2, 3, 4, 5, 8, 9, 17, 33], [np.float64, np.complex128]):
        drive = rng.standard_normal((n - 1, 3)).astype(dtype)
        expected = np.empty((n, 3), dtype)
        expected[0] = first
        for i in range(1, n):
            expected[i] = expected[i - 1] @ step + drive[i - 1]
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(_lsim, "_cp", np)
            got = _lsim._propagate(first, drive, step)
        assert_host(got, expected, 1e-13)
