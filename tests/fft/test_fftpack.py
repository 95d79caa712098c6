"""cuarray.scipy.fftpack against scipy.fftpack: every function over dtypes, lengths (cropped, padded),
axes, non-contiguous and negative-stride inputs, fftpack's real packed format, plans as `plan=`, and
errors."""

import cuarray as cp
import numpy as np
import pytest
import scipy.fftpack
from conftest import make_data
from cuarray import testing
from cuarray.scipy import fftpack

gpu = pytest.mark.gpu
TOL = {"rtol": 1e-4, "atol": {np.dtype(np.complex128): 1e-9, np.dtype(np.float64): 1e-9, "default": 2e-2}}


def _x(xp, shape, dtype, layout="C"):
    a = xp.asarray(make_data(shape, dtype))
    if layout == "F":
        a = xp.asfortranarray(a)
    elif layout == "reversed":
        a = a[::-1]
    elif layout == "strided":
        a = xp.asarray(make_data(shape[:-1] + (2 * shape[-1],), dtype))[..., ::2]
    return a


@gpu
@pytest.mark.parametrize("func", ["fft", "ifft"])
@pytest.mark.parametrize(
    "shape,n,axis", [((9,), None, -1), ((10,), 5, -1), ((10, 9), 15, 0), ((10, 9), None, 0)]
)
@pytest.mark.parametrize("layout", ["C", "F", "reversed", "strided"])
@testing.for_all_dtypes()
@testing.numpy_cuarray_allclose(**TOL, scipy_name="scp", contiguous_check=False)
def test_fft_ifft(xp, scp, dtype, func, shape, n, axis, layout):
    x = _x(xp, shape, dtype, layout)
    before = x.copy()
    out = getattr(scp.fftpack, func)(x, n=n, axis=axis)
    testing.assert_array_equal(x, before)  # the input is left as it is
    return out


@gpu
@pytest.mark.parametrize("func", ["fft", "ifft", "rfft", "irfft"])
@testing.numpy_cuarray_raises(scipy_name="scp", accept_error=ValueError)
def test_zero_points(xp, scp, func):
    getattr(scp.fftpack, func)(_x(xp, (4,), np.float64), n=0)


@gpu
@pytest.mark.parametrize("func", ["fftn", "ifftn"])
@pytest.mark.parametrize(
    "shape,s,axes",
    [
        ((3, 4), None, None),
        ((2, 3, 4), (1, 5, 3), None),
        ((2, 3, 4), None, (0, 2)),
        ((2, 3, 4, 5), None, None),
    ],
)
@pytest.mark.parametrize("layout", ["C", "F", "reversed"])
@testing.for_all_dtypes()
@testing.numpy_cuarray_allclose(**TOL, scipy_name="scp", contiguous_check=False)
def test_fftn_ifftn(xp, scp, dtype, func, shape, s, axes, layout):
    return getattr(scp.fftpack, func)(_x(xp, shape, dtype, layout), shape=s, axes=axes)


@gpu
@pytest.mark.parametrize("func", ["fft2", "ifft2"])
@pytest.mark.parametrize(
    "shape,s,axes", [((3, 4), None, (-2, -1)), ((2, 3, 4), (5, 2), (0, 2)), ((4, 1), None, (1, 0))]
)
@testing.for_dtypes([np.float32, np.complex64, np.complex128, np.int16])
@testing.numpy_cuarray_allclose(**TOL, scipy_name="scp", contiguous_check=False)
def test_fft2_ifft2(xp, scp, dtype, func, shape, s, axes):
    return getattr(scp.fftpack, func)(_x(xp, shape, dtype), shape=s, axes=axes)


@gpu
@pytest.mark.parametrize("func", ["rfft", "irfft"])
@pytest.mark.parametrize(
    "shape,n,axis", [((9,), None, -1), ((10,), None, -1), ((10, 9), 15, 0), ((10, 9), 4, 1), ((3, 6), 1, -1)]
)
@pytest.mark.parametrize("layout", ["C", "reversed"])
@testing.for_all_dtypes(no_complex=True)
@testing.numpy_cuarray_allclose(**TOL, scipy_name="scp", contiguous_check=False)
def test_rfft_irfft_packed(xp, scp, dtype, func, shape, n, axis, layout):
    return getattr(scp.fftpack, func)(_x(xp, shape, dtype, layout), n=n, axis=axis)


@gpu
@testing.for_complex_dtypes()
@testing.numpy_cuarray_raises(scipy_name="scp", accept_error=TypeError)
def test_rfft_refuses_complex(xp, scp, dtype):
    scp.fftpack.rfft(_x(xp, (6,), dtype))


@gpu
@pytest.mark.parametrize("n", [None, 6, 13])
def test_rfft_irfft_round_trip(n):
    a = make_data((4, 10), np.float64)
    x = cp.asarray(a)
    testing.assert_allclose(
        fftpack.irfft(fftpack.rfft(x, n=n), n=n), np.fft.irfft(np.fft.rfft(a, n=n), n=n), atol=1e-9
    )


@gpu
@pytest.mark.parametrize("shape,n,axis", [((9,), None, -1), ((10, 9), 15, 0), ((10, 9), 4, 1)])
@testing.for_complex_dtypes()
@testing.numpy_cuarray_allclose(**TOL, scipy_name="scp", contiguous_check=False)
def test_fft_with_plan(xp, scp, dtype, shape, n, axis):
    x = _x(xp, shape, dtype)
    if xp is np:
        return scp.fftpack.fft(x, n=n, axis=axis), scp.fftpack.ifft(x, n=n, axis=axis)
    plan = fftpack.get_fft_plan(x, shape=n, axes=axis)
    return fftpack.fft(x, n=n, axis=axis, plan=plan), fftpack.ifft(x, n=n, axis=axis, plan=plan)


@gpu
@pytest.mark.parametrize(
    "shape,s,axes", [((3, 4), None, None), ((2, 3, 4), (2, 5), (0, 1)), ((2, 3, 4), None, None)]
)
@testing.for_complex_dtypes()
@testing.numpy_cuarray_allclose(**TOL, scipy_name="scp", contiguous_check=False)
def test_fftn_with_plan(xp, scp, dtype, shape, s, axes):
    x = _x(xp, shape, dtype)
    if xp is np:
        return scp.fftpack.fftn(x, shape=s, axes=axes), scp.fftpack.ifftn(x, shape=s, axes=axes)
    plan = fftpack.get_fft_plan(x, shape=s, axes=axes)
    assert isinstance(plan, cp.cuda.cufft.PlanNd)
    with plan:
        assert cp.cuda.cufft.get_current_plan() is plan
        out = fftpack.fftn(x, shape=s, axes=axes)
    assert cp.cuda.cufft.get_current_plan() is None
    return out, fftpack.ifftn(x, shape=s, axes=axes, plan=plan)


@gpu
@pytest.mark.parametrize("n", [None, 7, 16])
@testing.for_dtypes([np.float32, np.float64])
@testing.numpy_cuarray_allclose(**TOL, scipy_name="scp", contiguous_check=False)
def test_rfft_with_plan(xp, scp, dtype, n):
    x = _x(xp, (3, 12), dtype)
    if xp is np:
        return scp.fftpack.rfft(x, n=n)
    return fftpack.rfft(x, n=n, plan=fftpack.get_fft_plan(x, shape=n, axes=-1, value_type="R2C"))


@gpu
def test_plan_that_does_not_fit():
    x = cp.asarray(make_data((4, 8), np.complex64))
    plan = fftpack.get_fft_plan(x[:2], axes=-1)
    with pytest.raises(ValueError, match="Batch size does not match the plan."):
        fftpack.fft(x, plan=plan)
    with pytest.raises(ValueError, match="Target array size does not match the plan."):
        fftpack.fft(x, n=4, plan=plan)
    with pytest.raises(RuntimeError, match="either as a context manager or as an argument"), plan:
        fftpack.fft(x[:2], plan=plan)


def test_non_arrays_are_refused():
    for func in (fftpack.fft, fftpack.ifft, fftpack.rfft, fftpack.irfft):
        with pytest.raises(TypeError):
            func(np.zeros(4))
    with pytest.raises(TypeError):
        fftpack.fftn([1.0, 2.0])


# Note [fftpack arguments]: SciPy's errors for a 0-d x, a 0-d shape or axes, out-of-range axes and sizes.
_X = {"0-d": (), "1-d": (4,), "2-d": (2, 3), "empty": (0, 3)}
_ARGUMENT_CASES = [
    (func, x, kw)
    for func in ("fft", "ifft", "rfft", "irfft")
    for x in ("0-d", "1-d", "empty")
    for kw in ({}, {"n": 0}, {"n": 2}, {"axis": 0}, {"axis": 5}, {"axis": -3}, {"n": 2, "axis": 3})
] + [
    (func, x, kw)
    for func in ("fftn", "ifftn", "fft2", "ifft2")
    for x in _X
    for kw in (
        {},
        {"shape": 1},
        {"shape": np.array(3)},
        {"shape": np.array(3), "axes": 0},
        {"axes": np.array(0)},
        {"shape": (2, 3)},
        {"axes": (0, 0)},
        {"axes": 5},
        {"shape": (0, 3)},
        {"shape": (2.0, 3)},
        {"shape": (3, 4), "axes": (0,)},
    )
]


def _scipy(func, x, kw):
    """scipy.fftpack's result, or the type and message of its error."""
    try:
        return getattr(scipy.fftpack, func)(x, **kw), None
    except (IndexError, TypeError, ValueError) as e:
        return None, (type(e), str(e))


@pytest.mark.parametrize(
    "func,x,kw",
    [c for c in _ARGUMENT_CASES if _scipy(c[0], np.ones(_X[c[1]]), c[2])[1] is not None],
    ids=repr,
)
def test_argument_errors_are_scipys(monkeypatch, func, x, kw):
    # The arguments are checked before any device work: a NumPy array stands in for the device array here.
    from cuarray.fft import _fft

    monkeypatch.setattr(_fft, "check_array", lambda a: a)
    x = np.ones(_X[x])
    error = _scipy(func, x, kw)[1]
    with pytest.raises(error[0]) as info:
        getattr(fftpack, func)(x, **kw)
    assert (type(info.value), str(info.value)) == error


@gpu
@pytest.mark.parametrize("func,x,kw", _ARGUMENT_CASES, ids=repr)
def test_argument_errors_on_the_device(func, x, kw):
    x = np.ones(_X[x])
    want, error = _scipy(func, x, kw)
    if error is None:
        testing.assert_allclose(getattr(fftpack, func)(cp.asarray(x), **kw), want, atol=1e-12)
        return
    with pytest.raises(error[0]) as info:
        getattr(fftpack, func)(cp.asarray(x), **kw)
    assert (type(info.value), str(info.value)) == error


@gpu
@pytest.mark.parametrize("func", ["fftn", "ifftn"])
def test_no_axes_return_x_itself(func):
    # SciPy's: no axes, no transform, not even to complex (a 0-d x has none).
    x = cp.asarray(3.0)
    assert getattr(fftpack, func)(x) is x
    y = cp.ones((2, 3), np.float32)
    assert getattr(fftpack, func)(y, axes=()) is y and getattr(fftpack, func)(y, shape=(5,), axes=()) is y
