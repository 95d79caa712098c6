"""cuarray.fft and cuarray.scipy.fft against NumPy and SciPy where an audit found them to differ: fftshift and
ifftshift of 0-d arrays, fftfreq and rfftfreq of a spacing `d` that is a device array or a NumPy number,
NumPy's `s` and `axes` of the N-D transforms (sequences alone, and NumPy 2's DeprecationWarnings), `out` of a
higher precision than the input (NumPy's loop precision and its factor's), SciPy's int `s` of dctn and its
kin, and SciPy's checks of `workers`.

The argument checks are functions of plain values (shapes, s, axes, workers), run here against NumPy's and
SciPy's own calls on host arrays without a GPU; the tests of the device functions are marked gpu."""

import os
import warnings
from inspect import signature

import cuarray as cp
import cuarray.fft
import cuarray.scipy.fft
import numpy as np
import pytest
import scipy.fft
from conftest import make_data
from cuarray import testing

gpu = pytest.mark.gpu


def _outcome(call):
    """(result, exception, categories of the warnings raised): what `call()` does, every warning recorded."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result, error = call(), None
        except Exception as e:  # noqa: BLE001 - compared with the other library's
            result, error = None, e
    return result, error, [w.category for w in caught]


def _assert_close(got, want, single):
    """cuarray's `got` has NumPy's (or SciPy's) dtype, shape and values: within double precision's error,
    relative to the largest value, or single precision's where `single`."""
    __tracebackhide__ = True
    want = np.asarray(want)
    assert isinstance(got, cp.ndarray), type(got)
    assert got.dtype == want.dtype, f"dtype {got.dtype} != {want.dtype}"
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    scale = max(1.0, float(np.max(np.abs(want))) if want.size else 1.0)
    np.testing.assert_allclose(cp.asnumpy(got), want, rtol=0, atol=(2e-5 if single else 1e-11) * scale)


# ---- 1. fftshift and ifftshift: NumPy's errors for 0-d arrays ----------------------------------------------

SHIFT_AXES = [None, (), [], 0, -1, 1, (0,), [0, 0], (1, 0), 5, (5,), np.int64(0), True]
SHIFT_AXES += [0.0, (0.0,), np.array(0)]  # no integers: NumPy's TypeError


@pytest.mark.parametrize("func,sign", [("fftshift", 1), ("ifftshift", -1)])
@pytest.mark.parametrize("shape", [(), (5,), (4, 5), (0, 3)])
@pytest.mark.parametrize("axes", SHIFT_AXES, ids=repr)
def test_shift_arguments_as_numpy(func, sign, shape, axes):
    # No GPU: the roll that is cuarray's shift, or its error, against NumPy's shift of a host array.
    a = np.arange(int(np.prod(shape))).reshape(shape)
    want, error, _ = _outcome(lambda: getattr(np.fft, func)(a, axes))
    if error is not None:
        with pytest.raises(type(error)):
            cuarray.fft._roll(shape, axes, sign)
        return
    np.testing.assert_array_equal(np.roll(a, *cuarray.fft._roll(shape, axes, sign)), want)


def test_shift_of_a_0d_array_is_a_value_error_that_says_so():
    with pytest.raises(ValueError, match="ifftshift of a 0-d array"):
        cuarray.fft._roll((), None, -1)


@gpu
@pytest.mark.parametrize("func", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("axes", [None, (), [], 0, -1, (0,)], ids=repr)
@testing.numpy_cuarray_raises()
def test_shift_of_a_0d_array(xp, func, axes):
    return getattr(xp.fft, func)(xp.asarray(3.0), axes)


@gpu
@pytest.mark.parametrize("func", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("axes", [None, (), 1, (1, 0), [0, 0]], ids=repr)
@testing.numpy_cuarray_array_equal()
def test_shifts_of_arrays(xp, func, axes):
    return getattr(xp.fft, func)(xp.asarray(make_data((4, 5), np.int32)), axes)


# ---- 2. fftfreq and rfftfreq: any number-like spacing ------------------------------------------------------

SPACINGS = {
    "float": lambda xp: 0.25,
    "int": lambda xp: 2,
    "numpy_float32": lambda xp: np.float32(0.1),
    "numpy_float16": lambda xp: np.float16(0.1),
    "numpy_0d": lambda xp: np.array(0.5),
    "numpy_0d_float32": lambda xp: np.array(0.1, np.float32),
    "device_0d": lambda xp: xp.asarray(0.1),  # a cuarray 0-d array with xp=cuarray
    "device_0d_float32": lambda xp: xp.asarray(0.1, dtype=np.float32),
    "device_1d": lambda xp: xp.asarray([0.5]),
    "complex": lambda xp: 0.5j,  # NumPy's frequencies are then complex128
}


@gpu
@pytest.mark.parametrize("func", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("n", [4, 5])
@pytest.mark.parametrize("spacing", list(SPACINGS))
@testing.numpy_cuarray_array_equal()
def test_frequencies_of_a_number_like_spacing(xp, func, n, spacing):
    return getattr(xp.fft, func)(n, SPACINGS[spacing](xp))


@gpu
@pytest.mark.parametrize("func", ["fftfreq", "rfftfreq"])
def test_frequencies_of_a_device_spacing_keep_dtype_and_device(func):
    want = getattr(np.fft, func)(5, np.float64(0.1))
    got = getattr(cp.fft, func)(5, cp.asarray(0.1), dtype=np.float32)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(cp.asnumpy(got), want.astype(np.float32))
    got = getattr(cp.fft, func)(5, cp.asarray(0.1), device=0)
    assert got.device.id == 0 and got.dtype == np.float64
    np.testing.assert_array_equal(cp.asnumpy(got), want)


# ---- 3. NumPy's s and axes of the N-D transforms -----------------------------------------------------------

# (s, axes) on a (4, 5, 6) array; each decided by NumPy's _cook_nd_args (its TypeErrors, ValueError and
# DeprecationWarnings), none by the axes' range
S_AXES = [
    (None, None),
    (None, 0),  # an int axes: TypeError
    (3, 0),
    (3, None),  # an int s: TypeError
    (3, (0,)),
    ((3,), 0),
    ((3,), None),  # s without axes: DeprecationWarning
    ((3, 4), None),
    ([], None),
    ((3,), (0,)),
    ((3, None), (0, 1)),  # None in s: DeprecationWarning
    ((None,), (2,)),
    ((3,), (0, 1)),  # ValueError
    (None, (0, 1)),
    (None, (2, 0)),
    (np.array([3]), np.array([0])),
    ((-1, 7), [1, 2]),
]
ND = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]


@pytest.mark.parametrize("s,axes", S_AXES, ids=repr)
def test_nd_s_and_axes_checks_as_numpy(s, axes):
    # No GPU: cuarray's reading of s and axes gives NumPy's errors and warnings (its fftn of a host array).
    _, want, want_warnings = _outcome(lambda: np.fft.fftn(np.ones((4, 5, 6)), s, axes))
    _, got, got_warnings = _outcome(lambda: cuarray.fft._s_and_axes(s, axes))
    assert type(got) is type(want), (got, want)
    assert got_warnings == want_warnings


@gpu
@pytest.mark.parametrize("func", ND)
@pytest.mark.parametrize("s,axes", S_AXES, ids=repr)
def test_nd_s_and_axes_as_numpy(func, s, axes):
    a = make_data((4, 5, 6), np.float64 if func.startswith("rfft") else np.complex128)
    want, want_error, want_warnings = _outcome(lambda: getattr(np.fft, func)(a, s, axes))
    got, got_error, got_warnings = _outcome(lambda: getattr(cp.fft, func)(cp.asarray(a), s, axes))
    assert got_warnings == want_warnings
    if want_error is not None:
        assert isinstance(got_error, type(want_error)), (got_error, want_error)
        return
    assert got_error is None, got_error
    _assert_close(got, want, single=False)


@gpu
def test_nd_deprecation_warnings_point_at_the_caller():
    x = cp.ones((4, 6))
    for func, s in (("fftn", (4,)), ("fft2", (4, None)), ("irfftn", (4,))):
        with pytest.warns(DeprecationWarning) as caught:
            getattr(cp.fft, func)(x, s)
        assert {os.path.realpath(w.filename) for w in caught} == {os.path.realpath(__file__)}


# ---- 4. out of a higher precision than the input: NumPy's loop precision, and its factor's -----------------

# NumPy transforms in the precision its loop resolution picks for the input, the factor and `out` together,
# and its factor keeps the input's precision: an fft of float32 data into complex128 runs in double precision
# but multiplies by a float32 1/n (float16 data: by a float16 1/n).
OUT_1D = {  # func -> (input dtypes, out dtype, number of outputs for n points)
    "fft": (["float16", "float32", "complex64"], "complex128", lambda n: n),
    "ifft": (["float16", "float32", "complex64"], "complex128", lambda n: n),
    "rfft": (["float16", "float32"], "complex128", lambda n: n // 2 + 1),
    "ihfft": (["float16", "float32"], "complex128", lambda n: n // 2 + 1),
    "irfft": (["complex64", "float32"], "float64", lambda n: n),
    "hfft": (["complex64", "float32"], "float64", lambda n: n),
}
OUT_1D_CASES = [(f, d) for f, (dtypes, _, _) in OUT_1D.items() for d in dtypes]


def _numpy_into(func, a, out, **kwargs):
    """NumPy's `func` of `a` into `out` (a skip where the installed NumPy leaves `out` as it was)."""
    if func == "hfft" and np.lib.NumpyVersion(np.__version__) < "2.5.0":
        pytest.skip("NumPy 2.4's hfft leaves `out` as it was")
    getattr(np.fft, func)(a, out=out, **kwargs)


@gpu
@pytest.mark.parametrize("func,in_dtype", OUT_1D_CASES)
@pytest.mark.parametrize("n", [12, 7, 16])  # 12 and 7: 1/n and 1/sqrt(n) round in single and half precision
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_out_of_a_higher_precision_as_numpy(func, in_dtype, n, norm):
    _, out_dtype, outputs = OUT_1D[func]
    rng = np.random.default_rng(7)
    m = n // 2 + 1 if func in ("irfft", "hfft") else n
    a = rng.standard_normal((3, m)) + (1j * rng.standard_normal((3, m)) if "complex" in in_dtype else 0)
    a = a.astype(in_dtype)
    want = np.zeros((3, outputs(n)), out_dtype)
    _numpy_into(func, a, want, n=n, norm=norm)
    alone = getattr(np.fft, func)(a, n=n, norm=norm)  # in a's precision
    single = np.array_equal(want, alone.astype(out_dtype))  # so was NumPy's loop
    got = cp.zeros((3, outputs(n)), out_dtype)
    assert getattr(cp.fft, func)(cp.asarray(a), n=n, norm=norm, out=got) is got
    _assert_close(got, want, single)


@gpu
@pytest.mark.parametrize(
    "func,in_dtype,out_dtype",
    [
        ("fftn", "float32", "complex128"),
        ("ifftn", "float32", "complex128"),
        ("fftn", "complex64", "complex128"),
        ("ifftn", "float16", "complex128"),
        ("rfftn", "float32", "complex128"),
        ("irfftn", "complex64", "float64"),
    ],
)
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_nd_out_of_a_higher_precision_as_numpy(func, in_dtype, out_dtype, norm):
    # NumPy's N-D transforms go axis by axis, each into `out`: the first from the input, the next from `out`
    # (irfftn's first ones without `out`). Where a step ran in single precision, single precision's error.
    rng = np.random.default_rng(8)
    a = rng.standard_normal((6, 10)) + (1j * rng.standard_normal((6, 10)) if "complex" in in_dtype else 0)
    a = a.astype(in_dtype)
    s = {"rfftn": (6, 10), "irfftn": (6, 18)}.get(func, (6, 10))
    shape = {"rfftn": (6, 6)}.get(func, s)
    want = np.zeros(shape, out_dtype)
    _numpy_into(func, a, want, s=s, axes=(0, 1), norm=norm)
    exact = getattr(np.fft, func)(a.astype(np.result_type(a, np.float64)), s=s, axes=(0, 1), norm=norm)
    single = not np.allclose(want, exact, rtol=0, atol=1e-12 * np.abs(exact).max())
    got = cp.zeros(shape, out_dtype)
    assert getattr(cp.fft, func)(cp.asarray(a), s=s, axes=(0, 1), norm=norm, out=got) is got
    _assert_close(got, want, single)


# ---- 5. SciPy's s and axes: an int s, and SciPy's checks ---------------------------------------------------

SCIPY_S_AXES = [
    (None, None),
    (None, 0),
    (5, None),  # an int s: the last axis
    (5, 0),
    (5, -1),
    ((5,), None),
    (np.int64(5), None),
    ((3, 4, 5, 6), None),  # more sizes than axes
    ((3, None), (0, 1)),
    ((3.0,), (0,)),
    (5.0, None),
    (np.array(5), None),  # SciPy takes a number for one axis, not a 0-d array
    ((3,), (0, 1)),
    ((3,), ()),
    ([], None),
    (None, ()),
    (None, (0, 0)),
    (None, (3,)),
    (None, (-4,)),
    (None, 1.0),
    ((0,), (0,)),
    ((-1, 7), (0, 2)),
]


@pytest.mark.parametrize("func,real", [("fftn", False), ("rfftn", True), ("irfftn", True), ("dctn", False)])
@pytest.mark.parametrize("s,axes", SCIPY_S_AXES, ids=repr)
def test_scipy_s_and_axes_checks_as_scipy(func, real, s, axes):
    # No GPU: cuarray.scipy.fft's reading of s and axes against SciPy's call on a host array: the same error
    # and message, or the axes and sizes that give SciPy's result its shape.
    shape = (4, 5, 6)
    want, error, _ = _outcome(lambda: getattr(scipy.fft, func)(np.ones(shape), s=s, axes=axes))
    if error is not None:
        with pytest.raises(type(error)) as got:
            cuarray.scipy.fft._checked_nd(shape, s, axes, real)
        assert str(got.value) == str(error)
        return
    sizes, got_axes = cuarray.scipy.fft._checked_nd(shape, s, axes, real)
    if func in ("fftn", "dctn"):
        expected = list(shape)
        for n, ax in zip(sizes or [], got_axes):
            expected[ax] = n
        assert tuple(expected) == want.shape


@gpu
@pytest.mark.parametrize("func", ["dctn", "idctn", "dstn", "idstn", "fftn", "irfftn", "rfftn", "hfftn"])
@pytest.mark.parametrize("s,axes", [(5, None), (5, 0), (np.int64(7), -1), (None, 1), (3, (0,))], ids=repr)
@testing.numpy_cuarray_allclose(rtol=1e-10, atol=1e-10, scipy_name="scp", contiguous_check=False)
def test_scipy_int_s_and_axes(xp, scp, func, s, axes):
    # (A transform over the first axis keeps CuPy's layout: Note [FFT layouts] in cuarray/fft/_fft.py.)
    return getattr(scp.fft, func)(xp.asarray(make_data((4, 6), np.float64)), s=s, axes=axes)


# ---- 6. SciPy's checks of workers --------------------------------------------------------------------------

CPUS = os.cpu_count()
WORKERS = [None, 1, 2, 64, 2**40, True, np.array(2), -1, -CPUS, np.int64(-1)]  # valid
WORKERS += [0, 0.0, False, np.int64(0), np.array(0), -CPUS - 1, -CPUS - 0.5]  # SciPy's ValueErrors
WORKERS += [1.5, -1.5, 2.0, np.float64(2.0), float("nan"), "a", [1], 1j]  # TypeErrors


@pytest.mark.parametrize("workers", WORKERS, ids=repr)
def test_workers_checks_as_scipy(workers):
    # No GPU: cuarray.scipy.fft's check of workers against SciPy's fft of a host array: SciPy's ValueError
    # (its message too), or a TypeError where SciPy raises one.
    _, error, _ = _outcome(lambda: scipy.fft.fft(np.ones(4), workers=workers))
    if error is None:
        cuarray.scipy.fft._check_workers(workers)
        return
    with pytest.raises(type(error)) as got:
        cuarray.scipy.fft._check_workers(workers)
    if isinstance(error, ValueError):
        assert str(got.value) == str(error)


WORKER_INPUTS = {  # func -> the dtype of its input
    **dict.fromkeys(["fft", "ifft", "fftn", "ifftn", "fft2", "ifft2"], np.complex128),
    **dict.fromkeys(["irfft", "hfft", "irfftn", "hfftn", "irfft2", "hfft2"], np.complex128),
    **dict.fromkeys(["rfft", "ihfft", "rfftn", "ihfftn", "rfft2", "ihfft2"], np.float64),
    **dict.fromkeys(["dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn"], np.float64),
}


def test_every_function_that_takes_workers_is_tested():
    module = cuarray.scipy.fft
    takes = [name for name in module.__all__ if "workers" in signature(getattr(module, name)).parameters]
    assert sorted(takes) == sorted(WORKER_INPUTS)


@gpu
@pytest.mark.parametrize("func", sorted(WORKER_INPUTS))
@pytest.mark.parametrize("workers", [0, -CPUS - 1, 1.5, "a"], ids=repr)
@testing.numpy_cuarray_raises(scipy_name="scp", accept_error=(ValueError, TypeError))
def test_invalid_workers(xp, scp, func, workers):
    return getattr(scp.fft, func)(xp.asarray(make_data((4, 6), WORKER_INPUTS[func])), workers=workers)


@gpu
@pytest.mark.parametrize("func", sorted(WORKER_INPUTS))
@pytest.mark.parametrize("workers", [None, 1, 3, -1, -CPUS], ids=repr)
@testing.numpy_cuarray_allclose(rtol=1e-10, atol=1e-10, scipy_name="scp")
def test_valid_workers_change_nothing(xp, scp, func, workers):
    return getattr(scp.fft, func)(xp.asarray(make_data((4, 6), WORKER_INPUTS[func])), workers=workers)


@gpu
@testing.numpy_cuarray_array_equal(scipy_name="scp")
def test_no_axes_return_the_input_before_the_workers_check(xp, scp):
    # SciPy's dctn and its kin return the input for no axes before they check workers; fftn checks first.
    x = xp.asarray(make_data((4, 6), np.float64))
    assert scp.fft.dctn(x, axes=(), workers=0) is x
    with pytest.raises(ValueError, match="workers must not be zero"):
        scp.fft.fftn(x, axes=(), workers=0)
    return x


@gpu
@pytest.mark.parametrize(
    "kw", [{"shape": 5}, {"shape": (5,)}, {"shape": 5, "axes": 1}, {"shape": (2, 5)}], ids=repr
)
def test_fftpack_shape_is_one_size_per_axis_as_scipy(kw):
    import scipy.fftpack
    from cuarray.scipy import fftpack

    x = np.arange(12.0).reshape(3, 4)
    try:
        want = scipy.fftpack.fftn(x, **kw)
    except ValueError as e:
        with pytest.raises(ValueError, match="have to be of the same length"):
            fftpack.fftn(cp.asarray(x), **kw)
        assert "have to be of the same length" in str(e)
    else:
        np.testing.assert_allclose(fftpack.fftn(cp.asarray(x), **kw).get(), want, rtol=1e-12, atol=1e-12)
