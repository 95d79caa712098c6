"""lfilter's and sosfilt's initial and final states in CuPy's form, the filter's past inputs and outputs (Note
[CuPy's initial conditions] in _lfilter_past.py), and lfiltic, lfilter_zi and sosfilt_zi that make them. The
reference is SciPy's filter started from SciPy's lfiltic state of the same past, with zf the last inputs and
outputs of the signal, as CuPy's tests judge CuPy's. The host maths alone is tested in test_iir_nogpu.py."""

from functools import partial

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from conftest import make_data
from signal_asserts import EXACT, assert_device

pytestmark = pytest.mark.gpu

# lfilter turns the past into SciPy's delays with products and sums of its own (a tensordot): to rounding.
# sosfilt's kernel makes each section's delays with SciPy lfiltic's operations in its order: exactly.
TOL = {"f": 1e-4, "F": 1e-4, "default": 1e-10}
assert_close = partial(assert_device, default_tol=TOL)


def data(shape, dtype, seed=0):
    a = make_data(shape, dtype, seed)
    return (a / 30).astype(dtype) if a.dtype.kind in "fc" else a


def latest(past, new, k):
    """The last k values along the last axis of `past` (k of them) followed by `new`."""
    return np.concatenate((past, new), axis=-1)[..., past.shape[-1] + new.shape[-1] - k :]


def result_type(coefficients, x, zi):
    """CuPy's: the coefficients' and x's type, zi's joining only for a complex zi or a non-floating type."""
    dtype = np.result_type(*coefficients, x)
    if dtype.kind not in "fc" or (np.asarray(zi).dtype.kind == "c" and dtype.kind != "c"):
        dtype = np.result_type(dtype, zi)
    return dtype


def scipy_lfilter_past(b, a, x, axis, zi):
    """SciPy's lfilter from CuPy's zi (the last len(b) - 1 inputs, then len(a) - 1 outputs, oldest first, along
    axis): each signal's past made SciPy's state by SciPy's lfiltic; (y, zf) with zf CuPy's."""
    b, a = np.atleast_1d(b), np.atleast_1d(a)
    m, n = len(b) - 1, len(a) - 1
    shape = list(x.shape)
    shape[axis] = m + n
    past = np.moveaxis(np.broadcast_to(zi, shape), axis, -1)
    lead = past.shape[:-1]
    states = [ss.lfiltic(b, a, past[i][m:][::-1], past[i][:m][::-1]) for i in np.ndindex(lead)]
    state = np.stack(states).reshape(lead + (max(m, n),))
    y, _ = ss.lfilter(b, a, x, axis=axis, zi=np.moveaxis(state, -1, axis).astype(result_type((b, a), x, zi)))
    xs, ys = np.moveaxis(x, axis, -1), np.moveaxis(y, axis, -1)
    zf = np.concatenate((latest(past[..., :m], xs, m), latest(past[..., m:], ys, n)), axis=-1)
    return y, np.moveaxis(zf.astype(y.dtype), -1, axis)


def scipy_sosfilt_past(sos, x, axis, zi):
    """SciPy's sosfilt from CuPy's zi (each section's x[-2], x[-1], y[-2], y[-1] at axis), section by section:
    each section's past made SciPy's state by SciPy's lfiltic in the result type (which SciPy's sosfilt casts
    everything to); (y, zf) with zf CuPy's."""
    dtype = result_type((sos,), x, zi)
    axis %= x.ndim
    sos = np.asarray(sos).astype(dtype)
    past = np.moveaxis(zi, axis + 1, -1).astype(dtype)  # (section, signals..., 4)
    cur = np.moveaxis(x, axis, -1).astype(dtype)
    zf = np.empty_like(past)
    for s, row in enumerate(sos):
        p = past[s]
        state = np.stack(
            [ss.lfiltic(row[:3], row[3:], p[i][2:][::-1], p[i][:2][::-1]) for i in np.ndindex(p.shape[:-1])]
        )
        out, _ = ss.sosfilt(row[None], cur, zi=state.reshape((1,) + p.shape[:-1] + (2,)))
        zf[s] = np.concatenate((latest(p[..., :2], cur, 2), latest(p[..., 2:], out, 2)), axis=-1)
        cur = out
    return np.moveaxis(cur, -1, axis), np.moveaxis(zf, -1, axis + 1)


FILTERS = {
    "butter4": ss.butter(4, 0.2),
    "long_b_a0": (np.array([1.0, -0.5, 0.25, 0.125]), np.array([2.0, 0.3])),
    "long_a": (np.array([0.5]), np.array([1.0, -0.9, 0.2, 0.1])),  # one b: CuPy's zi is outputs alone
    "fir": (np.array([1.0, 0.5, -0.25, 2.0]), np.array([2.0])),  # one a: inputs alone
    "gain": (np.array([3.0]), np.array([2.0])),  # no state
    "complex_a0": (np.array([1.0, 0.5j, -0.25]), np.array([2.0 - 1.0j, 0.3, 0.1j])),
}
SHAPES = [((50,), -1), ((1,), 0), ((3, 40), -1), ((40, 3), 0), ((2, 30, 3), 1), ((4, 5), -2)]


@pytest.mark.parametrize("name", list(FILTERS))
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int16"])
@pytest.mark.parametrize("shape,axis", SHAPES)
def test_lfilter_from_the_past(name, dtype, shape, axis):
    b, a = FILTERS[name]
    x = data(shape, dtype)
    zshape = list(shape)
    zshape[axis] = len(b) + len(a) - 2
    zi = data(zshape, "float64", 1)
    assert_close(
        sig.lfilter(b, a, cp.asarray(x), axis=axis, zi=cp.asarray(zi)), scipy_lfilter_past(b, a, x, axis, zi)
    )


def test_lfilter_states_broadcast_and_are_not_written():
    b, a = FILTERS["butter4"]
    x = data((6, 80), "float64")
    d = cp.asarray(x)
    zi = data((1, 8), "float64", 3)  # broadcast along the other axis
    assert_close(sig.lfilter(b, a, d, zi=cp.asarray(zi)), scipy_lfilter_past(b, a, x, -1, zi))
    assert_close(sig.lfilter(b, a, d.T, axis=0, zi=cp.asarray(zi.T)), scipy_lfilter_past(b, a, x.T, 0, zi.T))
    given = cp.ones((6, 8))
    y, zf = sig.lfilter(b, a, d[:, ::-3], zi=given)
    np.testing.assert_array_equal(cp.asnumpy(given), np.ones((6, 8)))
    assert not cp.shares_memory(zf, given) and zf.flags.c_contiguous and y.flags.c_contiguous
    assert_close((y, zf), scipy_lfilter_past(b, a, x[:, ::-3], -1, np.ones((6, 8))))
    b1, a1 = [1.0, 0.5], [1.0]  # a one-value state as a scalar, for every signal
    assert_close(
        sig.lfilter(b1, a1, d, zi=cp.asarray(0.25)), scipy_lfilter_past(b1, a1, x, -1, np.full((6, 1), 0.25))
    )


@pytest.mark.parametrize("name", ["butter4", "long_b_a0", "long_a", "fir"])
@pytest.mark.parametrize("block", [1, 2, 25])
def test_lfilter_in_blocks_equals_one_call(name, block):
    """zf carries the past from one block to the next (blocks shorter than the past too): the same outputs as
    one call, to the rounding of the state each block starts from, and the same final past exactly."""
    b, a = FILTERS[name]
    x = data((3, 60), "float64")
    zi = cp.asarray(data((3, len(b) + len(a) - 2), "float64", 2))
    whole, zf = sig.lfilter(b, a, cp.asarray(x), zi=zi)
    parts, past = [], zi
    for start in range(0, 60, block):
        y, past = sig.lfilter(b, a, cp.asarray(x[:, start : start + block]), zi=past)
        parts.append(cp.asnumpy(y))
    np.testing.assert_allclose(np.concatenate(parts, axis=1), cp.asnumpy(whole), rtol=0, atol=1e-12)
    np.testing.assert_allclose(cp.asnumpy(past), cp.asnumpy(zf), rtol=0, atol=1e-12)
    assert_close((whole, zf), scipy_lfilter_past(b, a, x, -1, cp.asnumpy(zi)))


def test_lfilter_empty_signal_gives_back_its_past():
    b, a = FILTERS["butter4"]
    zi = data((3, 8), "float64")
    y, zf = sig.lfilter(b, a, cp.zeros((3, 0)), zi=cp.asarray(zi))
    assert y.shape == (3, 0) and y.dtype == np.float64
    assert_device(zf, zi, EXACT)


@pytest.mark.parametrize(
    "b,a,shape,zshape",
    [
        ([1.0, 2.0, 3.0], [1.0, 0.5], (3, 4), (3, 2)),  # SciPy's length, max(len(a), len(b)) - 1, is refused
        ([1.0, 2.0], [1.0, 0.5], (4,), (2, 1)),
        ([1.0, 2.0], [1.0], (3, 4), (3,)),  # read as (1, 3)
        ([1.0, 2.0, 3.0], [1.0], (3, 4), (2, 3, 2)),
    ],
)
def test_lfilter_state_shape_errors(b, a, shape, zshape):
    expected = list(shape)
    expected[-1] = len(b) + len(a) - 2
    with pytest.raises(ValueError, match=rf"expected \({', '.join(map(str, expected))},?\), found"):
        sig.lfilter(b, a, cp.ones(shape), zi=cp.zeros(zshape))


def test_lfilter_zi_is_the_steady_past():
    """CuPy's lfilter_zi: inputs of one, outputs of the DC gain (float64, complex128 for complex filters); from
    it (times x[0]) a constant signal stays at its steady value, zf equals zi, and SciPy's lfiltic of that past
    is SciPy's lfilter_zi."""
    for b, a in [FILTERS["butter4"], FILTERS["long_b_a0"], FILTERS["long_a"], ([1.0, 2j], [1.0, 0.5])]:
        zi = sig.lfilter_zi(cp.asarray(b), cp.asarray(a))
        m = len(b) - 1
        gain = np.sum(b) / np.sum(a)
        expected = np.concatenate((np.ones(m), np.full(len(a) - 1, gain)))
        assert_close(zi, expected.astype(np.result_type(np.float64, np.asarray(b), np.asarray(a))), 1e-14)
        state = ss.lfiltic(b, a, cp.asnumpy(zi)[m:][::-1], cp.asnumpy(zi)[:m][::-1])
        np.testing.assert_allclose(state, ss.lfilter_zi(b, a), rtol=1e-12, atol=1e-12)
        x = np.full(30, 0.75)
        y, zf = sig.lfilter(b, a, cp.asarray(x), zi=zi * 0.75)
        np.testing.assert_allclose(cp.asnumpy(y), np.full(30, 0.75 * gain), rtol=1e-12)
        np.testing.assert_allclose(cp.asnumpy(zf), cp.asnumpy(zi) * 0.75, rtol=1e-12)
    assert sig.lfilter_zi(np.float32([1, 2]), np.float32([1, 0.5])).dtype == np.float64  # as CuPy's
    assert sig.lfilter_zi([3.0], [2.0]).shape == (0,)


@pytest.mark.parametrize(
    "b,a,y,x",
    [
        ([1.0, 2.0], [1.0, 0.5], [1.0], None),
        ([1, 2], [1, 0.5], [1], [2]),
        (np.float32([1, 2]), np.float32([1, 0.5]), np.float32([1]), np.float32([2])),
        ([1.0, 2, 3], [2, 0.5], [1.0, 2, 3, 4], [1.0, 2, 3]),  # more values than the order: the latest read
        ([1.0, 2, 3], [1.0], [1.0], [4.0]),  # fewer: zeros before them
        ([1.0, 2j], [1, 0.5, 0.25], [1.0 + 1j], [1.0, 2.0, 3.0]),
        (*ss.butter(5, 0.3), [1.0, -1, 2, 0.5, 3, 9, 9], [0.3, 0.2]),
    ],
)
def test_lfiltic_gives_the_past_oldest_first(b, a, y, x):
    """lfiltic takes SciPy's arguments (latest first) and gives CuPy's zi: float64 at least, as CuPy's; SciPy's
    lfiltic of that past is SciPy's lfiltic of the same arguments."""
    b, a, y = np.atleast_1d(b), np.atleast_1d(a), np.asarray(y)
    x = None if x is None else np.asarray(x)
    m, n = len(b) - 1, len(a) - 1

    def oldest_first(values, k):
        padded = np.concatenate((values, np.zeros(max(k - len(values), 0))))[:k]
        return padded[::-1]

    dtype = np.result_type(np.float64, y, *([] if x is None else [x]))
    expected = np.concatenate((oldest_first(np.zeros(0) if x is None else x, m), oldest_first(y, n))).astype(
        dtype
    )
    got = sig.lfiltic(b, a, cp.asarray(y), None if x is None else cp.asarray(x))
    assert_device(got, expected, EXACT)
    past = cp.asnumpy(got)
    np.testing.assert_allclose(
        ss.lfiltic(b, a, past[m:][::-1], past[:m][::-1]), ss.lfiltic(b, a, y, x), rtol=1e-12
    )


def test_lfiltic_along_an_axis_and_errors():
    b, a = ss.butter(3, 0.3)
    y, x = data((4, 5), "float64"), data((2, 5), "float64", 1)
    expected = np.concatenate((np.zeros((1, 5)), x[::-1], y[:3][::-1]))
    assert_device(sig.lfiltic(b, a, cp.asarray(y), cp.asarray(x), axis=0), expected, EXACT)
    assert_device(sig.lfiltic(b, a, cp.asarray(y.T), cp.asarray(x.T)), expected.T.copy(), EXACT)
    with pytest.raises(ValueError, match="First `a` filter coefficient must be non-zero."):
        sig.lfiltic([1.0], [0.0, 1.0], cp.ones(2))
    with pytest.raises(ValueError, match="There must be at least one `a` coefficient."):
        sig.lfiltic([1.0], [], cp.ones(2))
    with pytest.raises(ValueError, match="Filter coefficients `a` must be 1-D."):
        sig.lfiltic([1.0], [[1.0]], cp.ones(2))
    with pytest.raises(ValueError, match="same shape"):
        sig.lfiltic(b, a, cp.ones((4, 5)), cp.ones((2, 3)), axis=0)


SOS = {
    "butter4": ss.butter(4, 0.2, output="sos"),
    "cheby2_stop": ss.cheby2(5, 40, [0.2, 0.5], "bandstop", output="sos"),
}


@pytest.mark.parametrize("name", list(SOS))
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int16"])
@pytest.mark.parametrize("sos_dtype", ["float64", "float32"])
@pytest.mark.parametrize("shape,axis", SHAPES)
def test_sosfilt_from_the_past(name, dtype, sos_dtype, shape, axis):
    """Each section's delays made from its past as SciPy's lfiltic makes them: SciPy's values exactly."""
    sos = SOS[name].astype(sos_dtype)
    x = data(shape, dtype)
    zshape = [len(sos), *shape]
    zshape[axis % len(shape) + 1] = 4
    zi = data(zshape, "float32", 1)
    got = sig.sosfilt(cp.asarray(sos), cp.asarray(x), axis=axis, zi=cp.asarray(zi))
    assert_device(got, scipy_sosfilt_past(sos, x, axis, zi), EXACT)


@pytest.mark.parametrize("block", [1, 2, 50])
def test_sosfilt_in_blocks(block):
    """zf carries the past from one block to the next (blocks shorter than the past too): each block remakes its
    delays from the past, so the outputs are one call's to rounding."""
    sos = SOS["cheby2_stop"]
    x = data((5, 120), "float64")
    d = cp.asarray(x)
    zi = data((len(sos), 5, 4), "float64", 2)
    whole, zf = sig.sosfilt(sos, d, zi=cp.asarray(zi))
    assert_device((whole, zf), scipy_sosfilt_past(sos, x, -1, zi), EXACT)
    parts, past = [], cp.asarray(zi)
    for start in range(0, 120, block):
        y, past = sig.sosfilt(sos, d[:, start : start + block], zi=past)
        parts.append(y)
    np.testing.assert_allclose(
        cp.asnumpy(cp.concatenate(parts, axis=1)), cp.asnumpy(whole), rtol=0, atol=1e-12
    )
    np.testing.assert_allclose(cp.asnumpy(past), cp.asnumpy(zf), rtol=0, atol=1e-12)
    y, zf = sig.sosfilt(sos, d[:, ::-2].T, axis=0, zi=cp.asarray(zi.transpose(0, 2, 1)))
    assert_device((y, zf), scipy_sosfilt_past(sos, x[:, ::-2].T, 0, zi.transpose(0, 2, 1)), EXACT)
    y, zf = sig.sosfilt(sos, d[:, :0], zi=cp.asarray(zi))
    assert y.shape == (5, 0)
    assert_device(zf, zi, EXACT)


def test_sosfilt_zi_is_the_steady_past():
    """CuPy's sosfilt_zi: each section's input the gains before it, its output that times its own; from it a
    constant signal stays constant and zf equals zi (CuPy's test of its own); SciPy's lfiltic of each section's
    past is SciPy's sosfilt_zi."""
    sos = ss.butter(6, 0.2, output="sos")
    zi = sig.sosfilt_zi(sos)
    assert zi.shape == (3, 4) and zi.dtype == np.float64
    past = cp.asnumpy(zi)
    for s, row in enumerate(sos):
        state = ss.lfiltic(row[:3], row[3:], past[s, 2:][::-1], past[s, :2][::-1])
        np.testing.assert_allclose(state, ss.sosfilt_zi(sos)[s], rtol=1e-12, atol=1e-12)
    y, zf = sig.sosfilt(sos, cp.ones(40), zi=zi)
    np.testing.assert_allclose(cp.asnumpy(zf), past, rtol=1e-12)
    np.testing.assert_allclose(cp.asnumpy(y), np.full(40, past[-1, -1]), rtol=1e-12)
    assert sig.sosfilt_zi(sos.astype(np.float32)).dtype == np.float32


def test_sosfilt_state_errors():
    sos = SOS["butter4"]
    with pytest.raises(ValueError, match=r"zi must have shape \(2, 3, 4\), got \(2, 3, 2\)"):
        sig.sosfilt(sos, cp.ones((3, 4)), zi=cp.zeros((2, 3, 2)))
    with pytest.raises(ValueError, match=r"zi must have shape \(2, 4, 4\), got \(2, 3, 4\)"):
        sig.sosfilt(sos, cp.ones((3, 4)), axis=0, zi=cp.zeros((2, 3, 4)))
    with pytest.raises(NotImplementedError, match="input type 'int64' not supported"):
        sig.sosfilt(np.int64([[1, 2, 3, 1, 0, 0]]), cp.ones(4, np.int64), zi=cp.zeros((1, 4), np.int64))
