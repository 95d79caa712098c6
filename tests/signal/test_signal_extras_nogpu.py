"""cuarray.scipy.signal's correlation_lags, wiener, order_filter, deconvolve, vectorstrength, normalize, bilinear,
lp2lp, lp2hp, lp2bp, lp2bs, tf2ss and ss2tf without a device: SciPy's names and signatures; the host maths of the
transfer-function transforms and state-space conversions (the `_name` functions the public ones run before moving
their results to the device) give SciPy's values, dtypes, errors and warnings; the public functions raise SciPy's
errors, and CuPy's TypeError for host arrays where a device array is required, before any device work."""

import itertools
import warnings

import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from cuarray.scipy.signal import _tf_transforms as tf
from signal_asserts import assert_host, assert_scipy_signatures, integers_as_float64

NAMES = [
    "bilinear",
    "correlation_lags",
    "deconvolve",
    "lp2bp",
    "lp2bs",
    "lp2hp",
    "lp2lp",
    "normalize",
    "order_filter",
    "ss2tf",
    "tf2ss",
    "vectorstrength",
    "wiener",
]


def test_names_and_signatures():
    """SciPy's parameters and defaults (the transforms' `*args, **kwds` in SciPy's delegators aside)."""
    assert_scipy_signatures(sig, ss, NAMES)


def agree(ours, scipys, tol=1e-10):
    """ours() gives scipys()'s result, or raises its exception type with its message; the same warning classes."""
    __tracebackhide__ = True
    with warnings.catch_warnings(record=True) as theirs_w:
        warnings.simplefilter("always")
        try:
            expected, error = scipys(), None
        except Exception as e:  # noqa: BLE001 (SciPy fails on some inputs; ours must fail alike)
            error = e
    with warnings.catch_warnings(record=True) as ours_w:
        warnings.simplefilter("always")
        if error is not None:
            with pytest.raises(type(error)) as got:
                ours()
            assert str(got.value) == str(error)
        else:
            assert_host(ours(), expected, tol)
    assert sorted({w.category.__name__ for w in ours_w}) == sorted({w.category.__name__ for w in theirs_w})


# Transfer functions: CuPy's tests' filters, leading zeros (BadCoefficients), 2-D numerators, ragged and boolean
# numerators (SciPy's odd readings, Note [Numerators SciPy re-reads]), and malformed ones.
BA = [
    ([1], [1, np.sqrt(2), 1]),
    ([0.25059432325190018], [1, 0.59724041654134863, 0.92834805757524175, 0.25059432325190018]),
    ([1], [1, 2, 2, 1]),
    ([1], [1, 1]),
    ([1, 0, 0.17407467530697837], [1, 0.18460575326152251, 0.17407467530697837]),
    ([1, 3, 5], [1, 2, 3]),
    ([2], [1]),
    ([1, 2, 3, 4], [1, 2]),
    ([0, 0, 1, 2], [0, 3, 1, 2]),
    ([1e-16, 1, 2], [1, 2, 3]),
    ([0, 0], [1, 2]),
    ([[1, 2], [3, 4]], [1, 2, 3]),
    ([[0, 2], [0, 4]], [2, 2, 3]),
    ([[1, 2], [3]], [1, 2]),
    ([True, False], [1, 2]),
    ([1, 2], 0),
    ([1, 2], [[1]]),
    ([[[1, 2]]], 1),
    ([1, 2], []),
    (3, 2),
    ([0.3, -0.7, 0.2, 0.9], [0.5, 0.1, 0.8]),
    ([0.6], [0.2, 0.4, 0.9, 0.3, 0.7]),
]
DTYPES = [None, "int32", "float16", "float32", "float64", "complex64", "complex128", "bool"]


def _typed(b, a, dtype):
    """b and a as given (dtype None) or as arrays of `dtype`; None where they make no such array (ragged)."""
    if dtype is None:
        return b, a
    try:
        return np.asarray(b, dtype=dtype), np.asarray(a, dtype=dtype)
    except ValueError:
        return None


TYPED = [
    pytest.param(*_typed(b, a, dtype), dtype, id=f"{i}-{dtype}")
    for (i, (b, a)), dtype in itertools.product(enumerate(BA), DTYPES)
    if _typed(b, a, dtype) is not None
]


def _tol(dtype):
    return {"float16": 1e-2, "float32": 1e-5, "complex64": 1e-5}.get(dtype, 1e-9)


@pytest.mark.parametrize("b,a,dtype", TYPED)
def test_normalize_and_state_space_match_scipy(b, a, dtype):
    agree(lambda: tf._normalize(b, a), lambda: ss.normalize(b, a), _tol(dtype))
    agree(lambda: tf._tf2ss(b, a), lambda: ss.tf2ss(b, a), _tol(dtype))


@pytest.mark.parametrize("b,a,dtype", TYPED)
def test_frequency_transforms_match_scipy(b, a, dtype):
    tol = _tol(dtype)
    for wo in [1.0, 0.38574256627112119, 2 * np.pi * 5000, 3, [2.0, 1.0]]:
        agree(lambda wo=wo: tf._lp2lp(b, a, wo), lambda wo=wo: ss.lp2lp(b, a, wo), tol)
        agree(lambda wo=wo: tf._lp2hp(b, a, wo), lambda wo=wo: ss.lp2hp(b, a, wo), tol)
    for wo, bw in [
        (1.0, 1.0),
        (2 * np.pi * 4000, 2 * np.pi * 2000),
        (0.417, 0.185),
        (3, 2),
        (np.float32(0.5), 0.25),
    ]:
        agree(lambda wo=wo, bw=bw: tf._lp2bp(b, a, wo, bw), lambda wo=wo, bw=bw: ss.lp2bp(b, a, wo, bw), tol)
        agree(lambda wo=wo, bw=bw: tf._lp2bs(b, a, wo, bw), lambda wo=wo, bw=bw: ss.lp2bs(b, a, wo, bw), tol)
    for fs in [1.0, 0.5, 10, 44100.0, None, [1, 2]]:
        agree(lambda fs=fs: tf._bilinear(b, a, fs), lambda fs=fs: ss.bilinear(b, a, fs))


@pytest.mark.parametrize("lzn,lzd", list(itertools.product(range(4), range(4))))
def test_bilinear_ignores_leading_zeros(lzn, lzd):
    """CuPy's regression test (SciPy gh-6606): leading zeros of b or a change nothing."""
    b = np.pad([0.14879732743343033], (lzn, 0))
    a = np.pad([1, 0.54552236880522209, 0.14879732743343033], (lzd, 0))
    assert_host(tf._bilinear(b, a, 0.5), ss.bilinear(b, a, 0.5))
    assert_host(tf._bilinear(b, a, 0.5), tf._bilinear(b[lzn:], a[lzd:], 0.5), 0)


def test_normalize_matlab_values():
    """CuPy's test: cheby1(8, 0.5, 0.048)'s coefficients before normalize give MATLAB's to 13 decimals."""
    b_in = [1.5543135865293012e-06, 1.2434508692234413e-05, 4.3520780422820447e-05, 8.7041560845640893e-05]
    b_in += [1.0880195105705122e-04, 8.7041560845640975e-05, 4.3520780422820447e-05, 1.2434508692234413e-05]
    b_in += [1.5543135865293012e-06]
    a_in = [7.2269025909127173e04, -5.6242661430467968e05, 1.9182761917308895e06, -3.7451128364682454e06]
    a_in += [4.5776121393762771e06, -3.5869706138592605e06, 1.7596511818472347e06, -4.9409793515707983e05]
    a_in += [6.0799461347219651e04]
    b, a = tf._normalize(b_in, a_in)
    np.testing.assert_array_almost_equal(
        b[:3], [2.150733144728282e-11, 1.720586515782626e-10, 6.022052805239190e-10], 13
    )
    np.testing.assert_array_almost_equal(a[:3], [1.0, -7.782402035027959e00, 2.654354569747454e01], 13)


SS = [
    ([[0, 1, 0], [0, 0, 1], [-3, -4, -2]], [[0], [0], [1]], [[5, 1, 0]], [[0]]),  # all integers
    (  # CuPy's gh-2669 test: 4 states, 1 input, 3 outputs
        [[-1.0, 0.0, 1.0, 0.0], [-1.0, 0.0, 2.0, 0.0], [-4.0, 0.0, 3.0, 0.0], [-8.0, 8.0, 0.0, 4.0]],
        [[0.3], [0.0], [7.0], [0.0]],
        [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [8.0, 8.0, 0.0, 0.0]],
        [[0.0], [0.0], [1.0]],
    ),
    ([[1, 2], [3, 4]], [[1, 0], [0, 1]], [[1, 1]], [[0, 2]]),  # two inputs
    ([], [], [], [[3]]),
    (np.zeros((0, 0)), np.zeros((0, 1)), np.zeros((1, 0)), [[3]]),  # no states: den is SciPy's 1
    (None, None, None, [[3]]),  # SciPy's error: n undefined
    ([[1, 2]], [[1], [0]], [[1, 1]], [[0]]),  # A not square
    ([[1j, 2], [3, 4]], [[1], [0]], [[1, 1]], [[0]]),
    ([[1, 2], [3, 4]], None, [[1, 1]], None),
    ([[1, 2], [3, 4]], [[1], [0]], None, None),
    (np.float32([[1, 2], [3, 4]]), np.float32([[1], [0]]), np.float32([[1, 1]]), np.float32([[0]])),
]


@pytest.mark.parametrize("A,B,C,D", SS)
@pytest.mark.parametrize("which", [0, 1, -1])
def test_ss2tf_matches_scipy(A, B, C, D, which):
    agree(lambda: tf._ss2tf(A, B, C, D, which), lambda: integers_as_float64(ss.ss2tf(A, B, C, D, which)))


@pytest.mark.parametrize(
    "num,den",
    [
        ([1.0, 3.0, 5.0], [1.0, 2.0, 3.0]),
        (2, 1),
        ([[5], [2]], 1),
        ([[1, 2], [1, 1]], [1, 2]),
        ([[1, 0, 1], [1, 1, 1]], [1, 1, 1]),
        ([[1, 2, 3], [1, 2, 3]], [1, 2, 3, 4]),
    ],
)
def test_state_space_round_trips(num, den):
    """CuPy's tests (SciPy gh-5753, gh-5760): tf2ss, and ss2tf of it, as SciPy's."""
    agree(lambda: tf._tf2ss(num, den), lambda: ss.tf2ss(num, den))
    agree(lambda: tf._ss2tf(*tf._tf2ss(num, den)), lambda: ss.ss2tf(*ss.tf2ss(num, den)), 1e-12)


@pytest.mark.parametrize(
    "call,exc,match",
    [
        (lambda: sig.normalize([1, 2], 0), ValueError, "Denominator must have at least on nonzero element"),
        (lambda: sig.normalize([1, 2], [[1]]), ValueError, "Denominator polynomial must be rank-1 array"),
        (
            lambda: sig.normalize([[[1, 2]]], 1),
            ValueError,
            "Numerator polynomial must be rank-1 or rank-2 array",
        ),
        (lambda: sig.normalize([[1, 2], [3]], 1), ValueError, "inhomogeneous"),
        (lambda: sig.bilinear([1], [1, 2], None), ValueError, "Sampling frequency can not be none"),
        (lambda: sig.bilinear([1], [1, 2], [1, 2]), ValueError, "fs must be a single scalar"),
        (
            lambda: sig.bilinear([[1]], [1, 2]),
            ValueError,
            r"Parameter b is not a 1d array since b.shape=\(1, 1\)",
        ),
        (
            lambda: sig.bilinear([1], [[1, 2]]),
            ValueError,
            r"Parameter a is not a 1d array since a.shape=\(1, 2\)",
        ),
        (lambda: sig.lp2lp([1], 0), ValueError, "at least on nonzero"),
        (lambda: sig.lp2hp([1], [0, 0]), ValueError, "at least on nonzero"),
        (lambda: sig.lp2bp([1], [[1, 2]]), ValueError, "setting an array element with a sequence"),
        (lambda: sig.lp2bs([1], []), ValueError, "at least on nonzero"),
        (
            lambda: sig.tf2ss([1, 2, 3], [1, 2]),
            ValueError,
            "Improper transfer function. `num` is longer than `den`.",
        ),
        (
            lambda: sig.ss2tf([[1, 2]], [[1], [0]], [[1, 1]], [[0]]),
            ValueError,
            r"Parameter A has shape \(1, 2\)",
        ),
        (lambda: sig.ss2tf(None, None, None, [[3]]), ValueError, "Dimension n is undefined"),
        (
            lambda: sig.ss2tf([[1]], [[1]], [[1]], [[0]], 1),
            ValueError,
            "System does not have the input specified.",
        ),
        (lambda: sig.correlation_lags(3, 4, "middle"), ValueError, "Mode middle is invalid"),
        # device arrays required (CuPy's TypeError), before any other check
        (lambda: sig.wiener(np.ones(5)), TypeError, r"numpy\.ndarray"),
        (lambda: sig.wiener([1.0, 2.0, 3.0]), TypeError, "list"),
        (lambda: sig.order_filter(np.ones(5), np.ones(3), 1), TypeError, r"numpy\.ndarray"),
        (lambda: sig.order_filter(np.ones(5), np.ones(4), 1), TypeError, r"numpy\.ndarray"),
    ],
)
def test_errors_before_device_work(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_badly_conditioned_numerator_warns():
    with pytest.warns(sig.BadCoefficients, match="Badly conditioned filter coefficients"):
        num, den = tf._normalize([1e-16, 1, 2], [2, 4])
    assert_host((num, den), (np.array([0.5, 1.0]), np.array([1.0, 2.0])))
