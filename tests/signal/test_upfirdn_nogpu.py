"""cuarray.scipy.signal's upfirdn, resample_poly, decimate, firls and lombscargle without a device:
names and signatures (SciPy 1.17's, with CuPy's positional arguments where SciPy's are keyword-only), SciPy's
errors for bad arguments before any device work, upfirdn's host helpers (output length, filter layout, cval), the
firls system solved on the host against SciPy's, and upfirdn's kernels compiled for sm_90, rounding every
operation as SciPy's loop does."""

import inspect

import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
import scipy.signal._upfirdn as scipy_upfirdn
from cuarray.scipy.signal import _fir_design as fir_design
from cuarray.scipy.signal import _upfirdn as ufd
from signal_asserts import assert_rounds_every_operation, compile_kernel, kernel_sources, same_error

pytestmark = pytest.mark.nogpu

NAMES = ["upfirdn", "resample_poly", "decimate", "firls", "lombscargle"]
# SciPy 1.17's keyword-only arguments that CuPy 14.2 (and cuarray) also take by position.
POSITIONAL = {"firls": {"weight", "fs"}, "lombscargle": {"precenter", "normalize"}}


@pytest.mark.parametrize("name", NAMES)
def test_names_and_signatures(name):
    assert name in sig.__all__ and name in ss.__all__
    ours, theirs = getattr(sig, name), getattr(ss, name)
    assert ours.__name__ == name
    mine = list(inspect.signature(ours).parameters.values())
    scipys = list(inspect.signature(theirs).parameters.values())
    assert [p.name for p in mine] == [p.name for p in scipys]
    for p, q in zip(mine, scipys):
        if p.name == "precenter":  # SciPy's own "not given" sentinel: a warning when given
            assert p.default is np._NoValue
        else:
            assert p.default == q.default, (name, p.name)
        if p.name in POSITIONAL.get(name, ()):
            assert (
                p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and q.kind is inspect.Parameter.KEYWORD_ONLY
            )
        else:
            assert p.kind == q.kind, (name, p.name)


def test_output_len():
    # CuPy's regression value (scipy/gh-17375) and SciPy's formula
    assert ufd._output_len(1001, 10**8, 320, 441) == 72562360
    for args in [(1, 1, 1, 1), (5, 0, 1, 1), (1, 0, 2, 1), (7, 13, 3, 5), (26, 8, 1, 1), (4, 11, 3, 5)]:
        assert ufd._output_len(*args) == scipy_upfirdn._output_len(*args), args


@pytest.mark.parametrize("up", [1, 2, 3, 7])
@pytest.mark.parametrize("n", [1, 2, 5, 10, 26])
def test_filter_layout_is_scipys(up, n):
    h = np.arange(1.0, n + 1)
    np.testing.assert_array_equal(ufd._pad_h(h, up, np), scipy_upfirdn._pad_h(h, up))


def test_cval():
    # SciPy's Cython argument: a complex cval for a real output is a TypeError, the value is cast to the output's type
    for dtype in ("float32", "float64"):
        same_error(
            lambda d=dtype: ufd._cval(1j, np.dtype(d)),
            lambda d=dtype: ss.upfirdn(np.ones(2, d), np.ones(3, d), cval=1j),
        )
    with pytest.raises(TypeError, match="must be real number, not str"):
        ufd._cval("1", np.dtype("float64"))
    assert (
        ufd._cval(1e-50, np.dtype("float32")) == 0
        and ufd._cval(1e-50, np.dtype("float32")).dtype == np.float32
    )
    assert ufd._cval(1 - 2j, np.dtype("complex64")) == np.complex64(1 - 2j)


H1 = np.arange(1.0, 4.0)
ERRORS = {
    # upfirdn's filter and factors, checked before the signal goes to the device
    "upfirdn h 2-D": (sig.upfirdn, ss.upfirdn, ([[1.0, 2.0]], H1), {}),
    "upfirdn h empty": (sig.upfirdn, ss.upfirdn, ([], H1), {}),
    "upfirdn up 0": (sig.upfirdn, ss.upfirdn, ([1.0], H1, 0), {}),
    "upfirdn down 0": (sig.upfirdn, ss.upfirdn, ([1.0], H1, 1, 0), {}),
    "resample_poly up text": (sig.resample_poly, ss.resample_poly, (H1, "yo", 1), {}),
    "resample_poly up fraction": (sig.resample_poly, ss.resample_poly, (H1, 2.5, 1), {}),
    "resample_poly down 0": (sig.resample_poly, ss.resample_poly, (H1, 1, 0), {}),
    "resample_poly cval": (sig.resample_poly, ss.resample_poly, (H1, 2, 1), {"padtype": "mean", "cval": 1.0}),
    "decimate q fraction": (sig.decimate, ss.decimate, (H1,), {"q": 0.5, "n": 1}),
    "decimate n fraction": (sig.decimate, ss.decimate, (H1,), {"q": 2, "n": 0.5}),
    # firls checks everything on the host
    "firls even": (sig.firls, ss.firls, (10, [0.1, 0.2], [0, 0]), {}),
    "firls odd bands": (sig.firls, ss.firls, (11, [0.1, 0.2, 0.4], [0, 0, 0]), {}),
    "firls gains": (sig.firls, ss.firls, (11, [0.1, 0.2, 0.3, 0.4], [0, 0, 0]), {}),
    "firls decreasing": (sig.firls, ss.firls, (11, [0.2, 0.1], [0, 0]), {}),
    "firls empty band": (sig.firls, ss.firls, (11, [0.1, 0.2, 0.3, 0.3], [0] * 4), {}),
    "firls overlap": (sig.firls, ss.firls, (11, [0.1, 0.3, 0.2, 0.4], [0] * 4), {}),
    "firls negative gain": (sig.firls, ss.firls, (11, [0.1, 0.2], [-1, 1]), {}),
    "firls weights": (sig.firls, ss.firls, (11, [0.1, 0.2], [0, 0]), {"weight": [1, 2]}),
    "firls negative weight": (sig.firls, ss.firls, (11, [0.1, 0.2], [0, 0]), {"weight": [-1]}),
    "firls past nyquist": (sig.firls, ss.firls, (11, [0.1, 1.2], [0, 0]), {}),
    "firls fs": (sig.firls, ss.firls, (11, [0.1, 0.2], [0, 0]), {"fs": [1, 2]}),
    "firls negative fs": (sig.firls, ss.firls, (11, [0.1, 0.2], [0, 0]), {"fs": -2}),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors_before_the_device(case):
    ours, scipys, args, kwargs = ERRORS[case]
    same_error(lambda: ours(*args, **kwargs), lambda: scipys(*args, **kwargs))


def test_firls_positional_weight_and_fs():
    # CuPy's firls(numtaps, bands, desired, weight, fs): SciPy's keyword-only arguments by position
    np.testing.assert_allclose(
        fir_design._firls(7, (0, 1, 2, 3, 4, 5), [1, 0, 0, 1, 1, 0], [1, 2, 3], 20),
        ss.firls(7, (0, 1, 2, 3, 4, 5), [1, 0, 0, 1, 1, 0], weight=[1, 2, 3], fs=20),
        rtol=0,
        atol=1e-10 * 8,  # the taps reach 8: their system's solve rounds differently from SciPy's
    )
    same_error(
        lambda: sig.firls(11, [0.1, 0.2], [0, 0], [1, 2]),
        lambda: ss.firls(11, [0.1, 0.2], [0, 0], weight=[1, 2]),
    )


FIRLS = [
    ((11, [0, 0.1, 0.4, 0.5], [1, 1, 0, 0]), {"fs": 1.0}),  # CuPy's test_firls
    ((9, [0, 0.5, 0.55, 1], [1, 1, 0, 0]), {"weight": [1, 2]}),  # Octave's
    ((11, [0, 0.5, 0.5, 1], [1, 1, 0, 0]), {"weight": [1, 2]}),  # MATLAB's
    ((7, (0, 1, 2, 3, 4, 5), [1, 0, 0, 1, 1, 0]), {"fs": 20}),  # linear gains
    ((1, [0, 1], [1, 1]), {}),
    ((31, [0, 0.2, 0.3, 1], [1, 1, 0, 0]), {}),
    ((51, [[0, 0.2], [0.3, 0.6], [0.7, 1]], [[0, 0], [1, 0.5], [0, 0]]), {"weight": [3, 1, 2]}),
    ((15, np.array([0.0, 0.3, 0.5, 1.0]), np.array([1, 1, 0, 0])), {"fs": np.float32(2)}),
]


@pytest.mark.parametrize("case", range(len(FIRLS)))
def test_firls_matches_scipy(case):
    args, kwargs = FIRLS[case]
    got, expected = fir_design._firls(*args, **kwargs), ss.firls(*args, **kwargs)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    # the same system, solved by Cholesky's factors in another order than LAPACK's: rounding (Note [firls' solve])
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-10 * max(1.0, np.abs(expected).max()))


def test_firls_rank_deficient():
    # SciPy's Cholesky solve fails and it falls back to gelsy; here NumPy's lstsq: another minimum-norm solution,
    # the same response (Note [firls' solve]; SciPy's test_rank_deficient compares responses)
    taps = fir_design._firls(101, [0, 0.01, 0.99, 1], [1, 1, 0, 0])
    w, h = ss.freqz(taps, fs=2.0)
    assert (w < 0.01).sum() > 3 and (w > 0.99).sum() > 3
    np.testing.assert_allclose(np.abs(h[w < 0.01]), 1.0, atol=1e-4)
    np.testing.assert_allclose(np.abs(h[w > 0.99]), 0.0, atol=1e-4)
    np.testing.assert_array_equal(taps, taps[::-1])  # linear phase


def test_kernels_compile():
    sources = kernel_sources(ufd)
    assert len(sources) == 4
    for _, _, source, name, options in sources:  # one program each: they share their preamble
        code, is_cubin = compile_kernel(source, name, options, 90)
        assert is_cubin and code[:4] == b"\x7fELF"


def test_kernels_round_every_operation():
    """Compiled with the library's -fmad=false, the PTX rounds each product, sum and quotient to nearest (Note
    [upfirdn as SciPy rounds])."""
    for source in kernel_sources(ufd):
        assert_rounds_every_operation(*source)
