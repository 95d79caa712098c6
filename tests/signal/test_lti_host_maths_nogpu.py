"""The host maths of cuarray.scipy.signal's linear time-invariant systems without a device, against SciPy: the
matrix exponential (SciPy 1.18.1's expm written with NumPy, its overflows and C's complex arithmetic),
cont2discrete and place_poles (YT, KNV0): values, dtypes, errors and warnings. The systems and simulations are
tested in test_ltisys_nogpu.py and, on the device, in test_ltisys.py."""

import math
import warnings

import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.linalg
import scipy.signal as ss
from cuarray.scipy.signal import _lti_conversion, _place_poles
from signal_asserts import SCIPY_1_18, assert_host
from test_ltisys_nogpu import C2D_ABCD, _random_system

# ---------------------------------------------------------------- the matrix exponential


def _random_matrices():
    rng = np.random.default_rng(1)
    for trial in range(400):
        n = int(rng.integers(2, 9))
        scale = 10.0 ** rng.uniform(-4, 2)
        dtype = [np.float64, np.complex128, np.float32, np.complex64][trial % 4]
        a = rng.standard_normal((n, n)) * scale
        if np.dtype(dtype).kind == "c":
            a = a + 1j * rng.standard_normal((n, n)) * scale
        shape = trial // 4 % 4
        a = (a, np.triu(a), np.tril(a), np.where(rng.random((n, n)) < 0.5, 0, a))[shape]
        yield a.astype(dtype)


def _assert_expm_close(got, expected, tol):
    """The dtype and shape of `expected`, and each real part (a complex entry's two) NaN and infinite (with its
    sign) where expected's is, and within tol times the largest finite |part| (at least 1) elsewhere."""
    __tracebackhide__ = True
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got.dtype, expected.dtype)
    got, expected = (np.stack((x.real, x.imag)) if x.dtype.kind == "c" else x for x in (got, expected))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    infinite = np.isinf(expected)
    np.testing.assert_array_equal(np.isinf(got), infinite)
    np.testing.assert_array_equal(got[infinite], expected[infinite])
    finite = np.isfinite(expected)
    scale = max(1.0, float(np.max(np.abs(expected[finite]), initial=0.0)))
    np.testing.assert_allclose(got[finite], expected[finite], rtol=0, atol=tol * scale)


def _triangular(a):
    return not np.tril(a, -1).any() or not np.triu(a, 1).any()


def test_expm_matches_scipy():
    """SciPy's values, dtypes, NaN and infinities, for every Pade order and scaling SciPy picks (Note [SciPy's
    expm])."""
    compared = 0
    for a in _random_matrices():
        with np.errstate(all="ignore"):  # SciPy 1.17's NumPy code warns of its overflows
            got, expected = _lti_conversion._expm(a), scipy.linalg.expm(a)
        if not SCIPY_1_18 and _triangular(a) and not np.isfinite(expected).all():
            continue  # NaN where SciPy 1.18 (and _expm) have infinities: test_expm_overflow_as_scipy_1_18
        # Squaring s times multiplies rounding errors by up to 2^s: SciPy's own accuracy for these norms.
        tol = 1e-4 if a.dtype in (np.float32, np.complex64) else 1e-10
        _assert_expm_close(got, expected, tol)
        compared += 1
        if np.isfinite(got).all():  # a triangular exponential is exactly so (Note [SciPy's expm])
            if not np.tril(a, -1).any():
                assert not np.tril(got, -1).any()
            if not np.triu(a, 1).any():
                assert not np.triu(got, 1).any()
    assert compared >= 399


def _complex(real, imag, dtype):
    """A complex array of these parts (real + 1j * imag would turn an infinite imag's real part to NaN)."""
    out = np.empty(np.shape(real), dtype)
    out.real, out.imag = real, imag
    return out


INF, NAN = np.inf, np.nan
# Triangular matrices whose exponentials overflow, and SciPy 1.18.1's: NaN in the other triangle where the
# squarings multiply infinities by its zeros, and C's complex arithmetic's infinities in the first off-diagonal
# (Note [C's complex arithmetic]), where SciPy 1.17 gives 0 and NaN + NaN j.
_C_EXPONENTIAL = _complex(
    [
        [-INF, NAN, NAN],
        [0.0, -4.2081662519831772e-44, 1.9684134955468313e-01],
        [0.0, 0.0, 2.0085536923187668e01],
    ],
    [[INF, INF, NAN], [0.0, -9.1950110118150596e-44, -3.8596343049937865e-03], [0.0, 0.0, 0.0]],
    np.complex128,
)
_D_EXPONENTIAL = np.array([[INF, INF, INF], [NAN, 0.0, 0.01018083081819867], [NAN, NAN, 2.718281828459045]])
EXPM_OVERFLOWS = {
    "complex64": (
        np.array([[100.0 + 3j, 1.0], [0.0, 99.0 - 2j]], dtype=np.complex64),
        _complex([[-INF, INF], [0.0, -INF]], [[INF, INF], [0.0, -INF]], np.complex64),
    ),
    "complex64_nan_part": (
        np.array([[100.0 + 3j, 1.0], [0.0, -99.0 - 2j]], dtype=np.complex64),
        _complex([[-INF, NAN], [0.0, -4.2e-44]], [[INF, INF], [0.0, -9.1e-44]], np.complex64),
    ),
    "complex128_upper": (
        np.array([[1000.0 + 3j, 1.0, 1.0], [0.0, -99.0 - 2j, 1.0], [0.0, 0.0, 3.0]]),
        _C_EXPONENTIAL,
    ),
    "complex128_lower": (
        np.array([[1000.0 + 3j, 0.0, 0.0], [1.0, -99.0 - 2j, 0.0], [1.0, 1.0, 3.0]]),
        np.ascontiguousarray(_C_EXPONENTIAL.T),
    ),
    "complex128_real_overflow": (
        np.array([[1000.0, 0.0], [2.0, 999.0 + 1j]]),
        _complex([[INF, 0.0], [INF, INF]], [[0.0, 0.0], [-INF, INF]], np.complex128),
    ),
    "float64_upper": (np.array([[3000.0, 1.0, 2.0], [0.0, -800.0, 3.0], [0.0, 0.0, 1.0]]), _D_EXPONENTIAL),
    "float64_lower": (
        np.array([[3000.0, 0.0, 0.0], [1.0, -800.0, 0.0], [2.0, 3.0, 1.0]]),
        np.ascontiguousarray(_D_EXPONENTIAL.T),
    ),
    "float32": (
        np.array([[300.0, 1.0], [0.0, -80.0]], dtype=np.float32),
        np.array([[INF, INF], [NAN, 1.8048513e-35]], dtype=np.float32),
    ),
}


@pytest.mark.parametrize("name", list(EXPM_OVERFLOWS))
def test_expm_overflow_as_scipy_1_18(name):
    """SciPy 1.18.1's NaN and infinities (and its values elsewhere) where a triangular matrix's exponential
    overflows; the installed SciPy's too from 1.18 on."""
    a, expected = EXPM_OVERFLOWS[name]
    got = _lti_conversion._expm(a)
    _assert_expm_close(got, expected, 1e-6 if a.dtype == np.float32 else 1e-13)
    if SCIPY_1_18:
        with np.errstate(all="ignore"):
            _assert_expm_close(got, scipy.linalg.expm(a), 1e-6 if a.dtype == np.float32 else 1e-13)


@pytest.mark.parametrize(
    "num,den,expected",
    [
        (complex(INF, INF), 3 + 0j, complex(INF, INF)),  # NumPy: NaN + NaN j
        (complex(INF, INF), -1 + 0j, complex(-INF, -INF)),
        (complex(INF, INF), 1 + 2j, complex(INF, NAN)),  # one part NaN: C keeps it
        (complex(-INF, INF), 2 - 1j, complex(-INF, NAN)),
        (1 + 1j, 0j, complex(INF, INF)),
        (1 + 2j, complex(INF, 0.0), 0j),
        (complex(INF, 0.0), 2 + 0j, complex(INF, NAN)),
    ],
)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_c_quotient(num, den, expected, dtype):
    """C's (Annex G) complex division, worked out by hand from GCC's __divsc3 and __divdc3 (Note [C's complex
    arithmetic]); NumPy's where nothing is recovered."""
    with np.errstate(all="ignore"):
        got = _lti_conversion._c_quotient(np.array([num], dtype), np.array([den], dtype))
    _assert_expm_close(got, np.array([expected], dtype), 0)


@pytest.mark.parametrize(
    "z,w,expected",
    [
        (complex(INF, INF), 1 + 0j, complex(INF, INF)),  # NumPy: NaN + NaN j
        (complex(INF, NAN), 2 + 0j, complex(INF, NAN)),  # boxed to 1 + 0j: inf * 0 in the imaginary part
        (complex(-INF, INF), 0.5 - 1j, complex(NAN, INF)),  # one part NaN: C keeps it
        (complex(NAN, NAN), complex(INF, 0.0), complex(NAN, NAN)),  # the NaN factor counts as 0 + 0j
        (2 + 3j, 4 - 1j, 11 + 10j),
    ],
)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_c_product(z, w, expected, dtype):
    """C's (Annex G) complex multiplication, worked out by hand from GCC's __mulsc3 and __muldc3."""
    with np.errstate(all="ignore"):
        got = _lti_conversion._c_product(np.array([z], dtype), np.array([w], dtype))
    _assert_expm_close(got, np.array([expected], dtype), 0)


def test_expm_picks_scipys_pade_structure():
    """The same Pade order and number of squarings as SciPy's C code, read through its private helper (SciPy 1.17;
    1.18's C expm has no Python entry to it, and test_expm_matches_scipy compares the results)."""
    expm_module = pytest.importorskip("scipy.linalg._matfuncs_expm")
    for a in _random_matrices():
        if not (np.tril(a, -1).any() or np.triu(a, 1).any()):
            continue
        powers = np.zeros((5, *a.shape), dtype=a.dtype)
        powers[0] = a
        real = np.float32 if a.dtype in (np.float32, np.complex64) else np.float64
        a2 = a @ a
        with np.errstate(all="ignore"):
            ours = _lti_conversion._pade_structure([a, a2, a2 @ a2, (a2 @ a2) @ a2], real)
        assert tuple(ours) == tuple(expm_module.pick_pade_structure(powers)), a


@pytest.mark.parametrize(
    "a",
    [
        np.zeros((3, 3)),
        np.diag([1.0, -2.0]),
        np.array([[1.0]]),
        np.array(2.0),
        np.array([[0, 1], [0, 0]]),
        np.array([[1, 2], [3, 4]]),
        np.array([[0.0, 50.0], [0.0, -1.0]]),
        np.array([[-3.0, 0.0], [7.0, 2.0]]) * 40,
        np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float16),
        np.zeros((0, 0)),
    ],
)
def test_expm_special_matrices(a):
    """Diagonal, 1 x 1, 0-d, integer, float16, empty and triangular matrices with squarings, as SciPy's."""
    assert_host(_lti_conversion._expm(a), scipy.linalg.expm(a), 1e-12 if a.dtype != np.float16 else 1e-5)


@pytest.mark.parametrize("a", [np.ones(3), np.ones((2, 3))])
def test_expm_errors(a):
    for f in (_lti_conversion._expm, scipy.linalg.expm):
        with pytest.raises(np.linalg.LinAlgError):
            f(a)


# ---------------------------------------------------------------- cont2discrete's host maths


C2D_SYSTEMS = [
    tuple(np.asarray(m) for m in C2D_ABCD),
    _random_system(np, 3, 2, 2, 11),
    (
        np.array([[-0.3, 0.1], [0.2, -0.7]]),
        np.array([[0.0], [1.0]]),
        np.array([[1.0, 0.0]]),
        np.array([[0.0]]),
    ),
    (np.array([0.25, 0.25, 0.5]), np.array([0.75, 0.75, 1.0])),
    (np.array([[1.0, -3.0], [1.0, 5.0]]), np.array([1.0, 1.0])),
    (np.array([0.5, -0.5]), np.array([1j / math.sqrt(2), -1j / math.sqrt(2)]), 1.0),
    (np.array([-1.0]), np.array([-2.0, -5.0, -1.0 + 2j, -1.0 - 2j]), 3.0),
]
C2D_METHODS = [
    ("zoh", None),
    ("foh", None),
    ("gbt", 0.25),
    ("bilinear", None),
    ("tustin", None),
    ("euler", None),
    ("forward_diff", None),
    ("backward_diff", None),
    ("gbt", 0.0),
    ("gbt", 1.0),
]


@pytest.mark.parametrize("system", C2D_SYSTEMS, ids=lambda s: f"{len(s)}-arrays")
@pytest.mark.parametrize("method,alpha", C2D_METHODS)
@pytest.mark.parametrize("dt", [0.5, 0.01, 2.0])
def test_cont2discrete_host_matches_scipy(system, method, alpha, dt):
    """SciPy's arrays and dt, or its error (I - dt A / 2 is singular for A = I and dt = 2)."""
    try:
        expected = ss.cont2discrete(system, dt, method=method, alpha=alpha)
    except np.linalg.LinAlgError:  # NumPy's solve words it otherwise
        with pytest.raises(np.linalg.LinAlgError):
            _lti_conversion._cont2discrete(system, dt, method=method, alpha=alpha)
        return
    got = _lti_conversion._cont2discrete(system, dt, method=method, alpha=alpha)
    assert got[-1] == expected[-1]
    # Zeros are roots of the discretized numerator, as ill-conditioned as close roots are for short steps.
    assert_host(got[:-1], expected[:-1], 1e-6 if len(system) == 3 else 1e-10, scalar_dtype=False)


def test_cont2discrete_impulse_method():
    system = _random_system(np, 3, 1, 2, 12)
    system = system[:3] + (np.zeros((2, 1)),)
    assert_host(
        _lti_conversion._cont2discrete(system, 0.3, "impulse"), ss.cont2discrete(system, 0.3, "impulse")
    )


@pytest.mark.parametrize(
    "system,dt,method,alpha",
    [
        (tuple(np.asarray(m) for m in C2D_ABCD), 0.5, "gbt", None),
        (tuple(np.asarray(m) for m in C2D_ABCD), 0.5, "gbt", 1.5),
        (tuple(np.asarray(m) for m in C2D_ABCD), 0.5, "gbt", -0.1),
        (tuple(np.asarray(m) for m in C2D_ABCD), 0.5, "impulse", None),  # D is not zero
        (tuple(np.asarray(m) for m in C2D_ABCD), 0.5, "foo", None),
        (([1.0], [1.0, 2.0]), 0.5, "foo", None),
        ((np.eye(2),), 0.5, "zoh", None),
        (tuple(np.eye(2) for _ in range(5)), 0.5, "zoh", None),
        (([1.0, 2.0, 3.0], [1.0, 2.0]), 0.5, "zoh", None),  # improper
    ],
)
def test_cont2discrete_errors(system, dt, method, alpha):
    """SciPy's errors, raised by the host maths before any device work (the public function's too)."""
    with pytest.raises(ValueError) as expected:
        ss.cont2discrete(system, dt, method=method, alpha=alpha)
    for f in (_lti_conversion._cont2discrete, sig.cont2discrete):
        with pytest.raises(ValueError) as got:
            f(system, dt, method=method, alpha=alpha)
        assert str(got.value) == str(expected.value)


# ---------------------------------------------------------------- place_poles's host maths

# CuPy's TestPlacePoles's matrices (from SciPy's tests), written out by rows.
PP_A = np.array([[1.380, -0.2077, 6.715, -5.676], [-0.5814, -4.290, 0, 0.6750], [1.067, 4.273, -6.654, 5.893],
                 [0.0480, 4.273, 1.343, -2.104]])  # fmt: skip
PP_B = np.array([0, 5.679, 1.136, 1.136, 0, 0, -3.146, 0]).reshape(4, 2)
PP_B_SQUARE = np.array([0, 5.679, 1.136, 1.136, 0, 0, -3.146, 0, 1, 2, 3, 4, 5, 6, 7, 8]).reshape(4, 4)
CAR_A = np.array([[0, 7, 0, 0], [0, 0, 0, 7 / 3.0], [0, 0, 0, 0], [0, 0, 0, 0]])
CAR_B = np.array([[0, 0], [0, 0], [1, 0], [0, 1]])
BIG_A6 = np.array([[-2148, -2902, -2267, -598, -1722, -1829], [-165, -283, -2546, -167, -754, -2285],
                   [-543, -1700, -584, -2978, -925, -1300], [-1583, -984, -386, -2650, -764, -897],
                   [-517, -1598, 2, -1709, -291, -338], [-153, -1804, -1106, -1168, -867, -2297]])  # fmt: skip
BIG_B6 = np.array([[-108, -374, -524, -1285, -1232], [-161, -1204, -672, -637, -15], [-483, -23, -931, -780, -1245],
                   [-1129, -1290, -1502, -952, -1374], [-62, -964, -930, -939, -792],
                   [-756, -1437, -491, -1543, -686]])  # fmt: skip
A5 = np.array([0, 7, 0, 0, 0, 0, 0, 7 / 3.0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 9]).reshape(5, 5)
B5 = np.array([0, 0, 0, 0, 1, 0, 0, 1, 2, 3]).reshape(5, 2)


def _big():
    big_a, big_b = np.ones((11, 11)) - np.eye(11), np.ones((11, 10)) - np.diag([1] * 10, 1)[:, 1:]
    big_a[:6, :6], big_b[:6, :5] = BIG_A6, BIG_B6
    return big_a[:-1, :-1], big_b[:-1, :-1]


PLACE_POLES_CASES = {
    "real_KNV0": (PP_A, PP_B, np.array([-0.2, -0.5, -5.0566, -8.6659]), {"method": "KNV0"}),
    "real_YT": (PP_A, PP_B, np.array([-0.2, -0.5, -5.0566, -8.6659]), {}),
    "real_repeated": (PP_A, PP_B, np.array([2, 2, 3, 3]), {}),
    "complex": (CAR_A, CAR_B, np.array([-3, -1, -2 - 1j, -2 + 1j]), {}),
    "complex_near_tie": (CAR_A, CAR_B, np.array([0 - 1e-6j, 0 + 1e-6j, -10, 10]), {"maxiter": 1000}),
    "complex_null_update": (
        BIG_A6,
        BIG_B6,
        np.array([-25 - 29j, -25 + 29j, 31 - 42j, 31 + 42j, 33 - 41j, 33 + 41j]),
        {},
    ),
    "real_10": (*_big(), np.arange(-10.0, -101.0, -10.0), {}),
    "complex_10": (
        *_big(),
        np.array(
            [
                -10 + 10j,
                -20 + 20j,
                -30 + 30j,
                -40 + 40j,
                -50 + 50j,
                -10 - 10j,
                -20 - 20j,
                -30 - 30j,
                -40 - 40j,
                -50 - 50j,
            ]
        ),
        {},
    ),
    "one_real_pole": (A5, B5, np.array([-2, -3 + 1j, -3 - 1j, -1 + 1j, -1 - 1j]), {}),
    "odd_real_poles": (A5, B5, np.array([-2, -3, -4, -1 + 1j, -1 - 1j]), {}),
    "square_B": (PP_A, PP_B_SQUARE, np.array([-0.2, -0.5, -5.0566, -8.6659]), {}),
    "square_B_complex": (PP_A, PP_B_SQUARE, np.array([-2 + 1j, -2 - 1j, -3, -2]), {}),
    "one_column_B": (PP_A, PP_B_SQUARE[:, :1], np.array([-2 + 1j, -2 - 1j, -3, -2]), {}),
    "negative_rtol": (PP_A, PP_B, np.array([-0.2, -0.5, -5.0566, -8.6659]), {"rtol": -1, "maxiter": 3}),
}


def _poles_close(got, expected, tol):
    """The same poles as multisets: each expected pole within tol (relative) of its own got one."""
    left = list(np.asarray(got, dtype=complex))
    assert len(left) == len(expected)
    for pole in np.asarray(expected, dtype=complex):
        nearest = int(np.argmin([abs(g - pole) for g in left]))
        assert abs(left.pop(nearest) - pole) <= tol * max(1.0, abs(pole)), (got, expected)


@pytest.mark.parametrize("name", list(PLACE_POLES_CASES))
def test_place_poles_host_matches_scipy(name):
    """CuPy's TestPlacePoles's systems: SciPy's computed and requested poles, and the gain's defining property
    (the gain itself is one of many for a system of several inputs, which QRs of other LAPACK builds than
    SciPy's, as NumPy's, can steer YT's sweeps to: test_place_poles_is_scipys_algorithm compares it)."""
    A, B, poles, kwargs = PLACE_POLES_CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _place_poles._place_poles(A, B, poles, **kwargs)
        expected = ss.place_poles(A, B, poles, **kwargs)
    _poles_close(got.computed_poles, expected.computed_poles, 1e-6)
    assert_host(got.requested_poles, expected.requested_poles, 0)
    assert got.gain_matrix.shape == expected.gain_matrix.shape and got.gain_matrix.dtype == np.float64
    assert got.X.shape == expected.X.shape and got.X.dtype == expected.X.dtype
    _poles_close(np.linalg.eigvals(A - B @ got.gain_matrix), poles, 1e-5)


@pytest.mark.parametrize("name", list(PLACE_POLES_CASES))
def test_place_poles_is_scipys_algorithm(name, monkeypatch):
    """With SciPy's QR replaced by NumPy's (the one cuarray's host maths calls), SciPy's place_poles gives the
    same gain, transfer matrix, poles, rtol and number of sweeps, to the bit: the same algorithm."""
    scipy_ltisys = pytest.importorskip("scipy.signal._ltisys")
    if not hasattr(scipy_ltisys, "s_qr"):
        pytest.skip("this SciPy's place_poles calls no s_qr")
    monkeypatch.setattr(scipy_ltisys, "s_qr", lambda a, mode="full": np.linalg.qr(a, mode="complete"))
    A, B, poles, kwargs = PLACE_POLES_CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _place_poles._place_poles(A, B, poles, **kwargs)
        expected = ss.place_poles(A, B, poles, **kwargs)
    for field in ("gain_matrix", "computed_poles", "requested_poles", "X"):
        np.testing.assert_array_equal(getattr(got, field), getattr(expected, field), strict=True)
    np.testing.assert_array_equal(got.rtol, expected.rtol)
    np.testing.assert_array_equal(got.nb_iter, expected.nb_iter)


def test_place_poles_warns_without_convergence():
    args = (PP_A, PP_B, np.array([-0.2, -0.5, -5.0566, -8.6659]))
    with pytest.warns(UserWarning, match="Convergence was not reached after maxiter iterations"):
        _place_poles._place_poles(*args, rtol=1e-20, maxiter=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a nonpositive rtol asks for maxiter sweeps: no warning
        _place_poles._place_poles(*args, rtol=0, maxiter=2)


@pytest.mark.parametrize(
    "A,B,poles,kwargs",
    [
        (CAR_A, CAR_B, np.array([-2.1, -2.2, -2.3, -2.4]), {"method": "foo"}),
        (CAR_A, CAR_B, np.array([-2.1, -2.2, -2.3, -2.4]).reshape(4, 1), {}),
        (CAR_A[:, :, None], CAR_B, np.array([-2.1, -2.2, -2.3, -2.4]), {}),
        (CAR_A, CAR_B[:, :, None], np.array([-2.1, -2.2, -2.3, -2.4]), {}),
        (CAR_A, CAR_B, np.array([-2.1, -2.2, -2.3, -2.4, -3]), {}),
        (CAR_A, CAR_B, np.array([-2.1, -2.2, -2.3]), {}),
        (CAR_A, CAR_B, np.array([-2.1, -2.2, -2.2, -2.2]), {}),
        (CAR_A[:, :3], CAR_B, np.array([-2.1, -2.2, -2.3]), {}),
        (CAR_A, CAR_B, np.array([-2.1, -2.2, -2 + 1j, -2 + 1j]), {}),
        (CAR_A, CAR_B, np.array([-2.1, -2.2, -2 + 1j, -2 - 1j]), {"method": "KNV0"}),
        (CAR_A, CAR_B, np.array([-2.1, -2.2, -2.3, -2.4]), {"maxiter": 0}),
        (CAR_A, CAR_B, np.array([-2.1, -2.2, -2.3, -2.4]), {"rtol": 2}),
    ],
)
def test_place_poles_errors(A, B, poles, kwargs):
    """CuPy's test_errors and SciPy's other checks: the same ValueError and message, before any device work."""
    with pytest.raises(ValueError) as expected:
        ss.place_poles(A, B, poles, **kwargs)
    for f in (_place_poles._place_poles, sig.place_poles):
        with pytest.raises(ValueError) as got:
            f(A, B, poles, **kwargs)
        assert str(got.value) == str(expected.value)
