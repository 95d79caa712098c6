"""cuarray.fft against numpy.fft: every function, dtype rule, n/s padding and truncation, axis choice, norm,
non-contiguous inputs, plan reuse across shapes, threads and streams; and NumPy's errors."""

import threading
import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import make_data

gpu = pytest.mark.gpu

REAL_DTYPES = ["bool", "int8", "int32", "uint16", "int64", "float16", "float32", "float64"]
ALL_DTYPES = REAL_DTYPES + ["complex64", "complex128"]


def assert_fft_close(got, expected):
    """Same dtype and shape as NumPy's result; values within the precision's error, relative to the largest."""
    __tracebackhide__ = True
    expected = np.asarray(expected)
    assert isinstance(got, cp.ndarray)
    assert got.dtype == expected.dtype, f"dtype {got.dtype} != NumPy's {expected.dtype}"
    assert got.shape == expected.shape, f"shape {got.shape} != NumPy's {expected.shape}"
    host = cp.asnumpy(got)
    single = expected.dtype in (np.float32, np.complex64, np.float16)
    tol = {np.dtype(np.float16): 2e-2}.get(expected.dtype, 2e-5 if single else 1e-11)
    scale = max(1.0, float(np.max(np.abs(expected.astype(np.complex128)))) if expected.size else 1.0)
    np.testing.assert_allclose(
        host.astype(np.complex128), expected.astype(np.complex128), rtol=0, atol=tol * scale
    )


def _data(shape, dtype, seed=0):
    a = make_data(shape, dtype, seed)
    return cp.asarray(a), a


@gpu
@pytest.mark.parametrize("func", ["fft", "ifft"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_c2c_dtypes(func, dtype):
    x, a = _data((3, 16), dtype)
    assert_fft_close(getattr(cp.fft, func)(x), getattr(np.fft, func)(a))


@gpu
@pytest.mark.parametrize("dtype", REAL_DTYPES)
def test_rfft_dtypes(dtype):
    x, a = _data((2, 15), dtype)
    assert_fft_close(cp.fft.rfft(x), np.fft.rfft(a))
    assert_fft_close(cp.fft.ihfft(x), np.fft.ihfft(a))


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("n", [None, 7, 8, 20])
def test_irfft_and_hfft(dtype, n):
    # Random complex input is not Hermitian: NumPy ignores the imaginary parts of the zero and Nyquist terms.
    x, a = _data((3, 9), dtype)
    assert_fft_close(cp.fft.irfft(x, n), np.fft.irfft(a, n))
    assert_fft_close(cp.fft.hfft(x, n), np.fft.hfft(a, n))


@gpu
@pytest.mark.parametrize("func", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_norms(func, norm):
    x, a = _data((4, 12), "float64" if func in ("rfft", "ihfft") else "complex128")
    assert_fft_close(getattr(cp.fft, func)(x, norm=norm), getattr(np.fft, func)(a, norm=norm))


@gpu
@pytest.mark.parametrize("func", ["fft", "ifft", "rfft", "irfft"])
@pytest.mark.parametrize("n", [1, 5, 16, 17, 100])
@pytest.mark.parametrize("axis", [0, 1, -1, -3])
def test_n_and_axis(func, n, axis):
    x, a = _data((6, 10, 4), "float32" if func == "rfft" else "complex64")
    assert_fft_close(getattr(cp.fft, func)(x, n, axis), getattr(np.fft, func)(a, n, axis))


@gpu
@pytest.mark.parametrize("layout", ["transposed", "strided", "negative"])
@pytest.mark.parametrize("func", ["fft", "rfft", "irfft", "fft2", "rfftn", "irfftn"])
def test_non_contiguous_inputs(layout, func):
    base, host_base = _data((12, 10), "float64" if func.startswith("rfft") else "complex128")
    view = {
        "transposed": lambda v: v.T,
        "strided": lambda v: v[::2, 1::3],
        "negative": lambda v: v[::-1, ::-2],
    }[layout]
    before = cp.asnumpy(base)
    assert_fft_close(getattr(cp.fft, func)(view(base)), getattr(np.fft, func)(view(host_base)))
    np.testing.assert_array_equal(cp.asnumpy(base), before)  # inputs are never overwritten


@gpu
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
@pytest.mark.parametrize("n", [None, 7, 64, 8192])
def test_strided_inputs_truncated_or_padded(dtype, n):
    """A 1-D view with strides (every other element, reversed, every third), truncated or zero-padded to n:
    NumPy's values, and exactly those of its contiguous copy (the transform runs on the same contiguous buffer).
    A minimum_phase built on fft(h, n_fft) once gave other taps for a strided h than for a contiguous one."""
    base, host = _data((62,), dtype)
    for view in (lambda v: v[::2], lambda v: v[::-1], lambda v: v[1::3]):
        got = cp.fft.fft(view(base), n)
        assert_fft_close(got, np.fft.fft(view(host), n))
        copy = cp.fft.fft(cp.ascontiguousarray(view(base)), n)
        np.testing.assert_array_equal(cp.asnumpy(got), cp.asnumpy(copy))
        np.testing.assert_array_equal(cp.asnumpy(base), host)


@gpu
def test_inputs_are_not_overwritten_when_contiguous():
    for func, dtype in [
        ("fft", "complex64"),
        ("rfft", "float32"),
        ("irfft", "complex128"),
        ("hfft", "complex64"),
        ("ifftn", "complex128"),
        ("irfftn", "complex64"),
    ]:
        x, a = _data((8, 6), dtype)
        getattr(cp.fft, func)(x)
        np.testing.assert_array_equal(cp.asnumpy(x), a)


NDCASES = [
    ((5, 6), None, None),
    ((5, 6), (8, 4), None),
    ((4, 5, 6), None, (0, 2)),
    ((4, 5, 6), (3, 7), (2, 0)),
    ((3, 4, 5), None, None),
    ((2, 3, 4, 5), None, None),  # four axes: two cuFFT plans
    ((2, 3, 4, 5, 2), (4, 3, 2, 5, 3), None),
    ((3, 4, 5), (-1, 6), (1, 2)),  # -1: the input's own size
    ((4, 6), None, (0, 0)),  # a repeated axis is transformed twice
    ((4, 1, 6), None, None),  # length-1 axes are identities cuFFT does not plan
    ((5, 1), None, None),
    ((1, 5), (1, 1), None),
]


@gpu
@pytest.mark.parametrize("func", ["fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize("shape,s,axes", NDCASES)
def test_nd(func, shape, s, axes):
    x, a = _data(shape, "float64" if func == "rfftn" else "complex128")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # NumPy's and cuarray's: s without axes
        try:
            expected = getattr(np.fft, func)(a, s, axes)
        except ValueError:  # irfftn of a last axis of length 1: zero output points
            with pytest.raises(ValueError, match="Invalid number of FFT data points"):
                getattr(cp.fft, func)(x, s, axes)
            return
        assert_fft_close(getattr(cp.fft, func)(x, s, axes), expected)


@gpu
@pytest.mark.parametrize("func", ["fft2", "ifft2", "rfft2", "irfft2"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int16"])
def test_2d(func, dtype):
    if func == "rfft2" and dtype.startswith("complex"):
        pytest.skip("complex input to a real transform")
    x, a = _data((3, 8, 10), dtype)
    assert_fft_close(getattr(cp.fft, func)(x), getattr(np.fft, func)(a))
    assert_fft_close(
        getattr(cp.fft, func)(x, s=(5, 6), axes=(0, 2)), getattr(np.fft, func)(a, s=(5, 6), axes=(0, 2))
    )


@gpu
def test_round_trips_and_large_size():
    x, a = _data(1 << 20, "complex64")
    assert_fft_close(cp.fft.ifft(cp.fft.fft(x)), a)
    r, ra = _data((16, 1000), "float64")
    assert_fft_close(cp.fft.irfft(cp.fft.rfft(r), 1000), ra)
    assert_fft_close(cp.fft.irfftn(cp.fft.rfftn(r), r.shape), ra)
    big, big_host = _data(1 << 24, "complex64")
    got = cp.asnumpy(cp.fft.fft(big))
    expected = np.fft.fft(big_host)
    np.testing.assert_allclose(got[:1000], expected[:1000], atol=2e-5 * np.abs(expected).max())


@gpu
def test_empty_batches():
    x = cp.zeros((0, 8), np.complex64)
    assert cp.fft.fft(x).shape == (0, 8)
    assert cp.fft.rfft(cp.zeros((3, 0, 8))).shape == (3, 0, 5)
    assert cp.fft.irfft(cp.zeros((0, 5), np.complex128)).shape == (0, 8)


@gpu
def test_many_shapes_evict_plans():
    # More shapes than the plan cache holds (lib/cufft.h's kMaxPlans), then the first ones again.
    for n in list(range(2, 40)) + [2, 3, 4]:
        x, a = _data((3, n), "complex128", seed=n)
        assert_fft_close(cp.fft.fft(x), np.fft.fft(a))


@gpu
def test_threads_and_streams():
    x, a = _data((64, 256), "complex64")
    expected = np.fft.fft(a)
    results, errors = {}, []

    def work(i):
        try:
            with cp.cuda.Stream() as s:
                for _ in range(20):
                    out = cp.fft.fft(x)
                s.synchronize()
            results[i] = cp.asnumpy(out)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for got in results.values():
        np.testing.assert_allclose(got, expected, atol=2e-5 * np.abs(expected).max())


@gpu
def test_numpy_dispatch():
    x, a = _data(32, "float64")
    got = np.fft.rfft(x)
    assert isinstance(got, cp.ndarray)
    assert_fft_close(got, np.fft.rfft(a))


@gpu
@pytest.mark.parametrize("n", [1, 2, 7, 8])
@pytest.mark.parametrize("d", [1.0, 0.25])
def test_frequencies(n, d):
    assert_fft_close(cp.fft.fftfreq(n, d), np.fft.fftfreq(n, d))
    assert_fft_close(cp.fft.rfftfreq(n, d), np.fft.rfftfreq(n, d))


@gpu
@pytest.mark.parametrize(
    "shape,axes", [((7,), None), ((4, 5), None), ((4, 5), 1), ((4, 5, 6), (0, 2)), ((6,), 0)]
)
def test_shifts(shape, axes):
    x, a = _data(shape, "int32")
    np.testing.assert_array_equal(cp.asnumpy(cp.fft.fftshift(x, axes)), np.fft.fftshift(a, axes))
    np.testing.assert_array_equal(cp.asnumpy(cp.fft.ifftshift(x, axes)), np.fft.ifftshift(a, axes))
    np.testing.assert_array_equal(cp.asnumpy(cp.fft.ifftshift(cp.fft.fftshift(x, axes), axes)), a)


# ---------------------------------------------------------------- errors (raised before any device work)


ERRORS = {
    "n_zero": (
        lambda x: cp.fft.fft(x, n=0),
        ValueError,
        r"Invalid number of FFT data points \(0\) specified\.",
    ),
    "n_negative": (
        lambda x: cp.fft.ifft(x, n=-3),
        ValueError,
        r"Invalid number of FFT data points \(-3\) specified\.",
    ),
    "irfft_n_zero": (lambda x: cp.fft.irfft(x, 0), ValueError, r"Invalid number of FFT data points \(0\)"),
    "irfft_one_point": (
        lambda x: cp.fft.irfft(x[:, :1]),
        ValueError,
        r"Invalid number of FFT data points \(0\)",
    ),
    "n_float": (lambda x: cp.fft.fft(x, n=2.5), TypeError, "integer"),
    "axis": (lambda x: cp.fft.fft(x, axis=2), np.exceptions.AxisError, "axis 2 is out of bounds"),
    "axis_negative": (lambda x: cp.fft.rfft(x, axis=-3), np.exceptions.AxisError, "out of bounds"),
    "axes_nd": (lambda x: cp.fft.fftn(x, axes=(0, 5)), np.exceptions.AxisError, "out of bounds"),
    "norm": (
        lambda x: cp.fft.fft(x, norm="bad"),
        ValueError,
        'Invalid norm value bad; should be "backward","ortho" or "forward"',
    ),
    "norm_hfft": (lambda x: cp.fft.hfft(x, norm="bad"), ValueError, "Invalid norm value"),
    "s_axes": (
        lambda x: cp.fft.fftn(x, s=(2, 3), axes=(0,)),
        ValueError,
        "Shape and axes have different lengths",
    ),
    "s_zero": (lambda x: cp.fft.fft2(x, s=(0, 3)), ValueError, r"Invalid number of FFT data points \(0\)"),
    "rfft_complex": (lambda x: cp.fft.rfft(x.astype(np.complex64)), TypeError, "real input"),
    "zero_d": (lambda x: cp.fft.fft(x[0, 0]), IndexError, "out of bounds"),
    "empty_axis": (lambda x: cp.fft.fft(x[:, :0]), ValueError, r"Invalid number of FFT data points \(0\)"),
}


@gpu
@pytest.mark.parametrize("case", list(ERRORS))
def test_errors(case):
    call, exc, match = ERRORS[case]
    with pytest.raises(exc, match=match):
        call(cp.ones((3, 4)))


def test_axis_error_is_an_index_error_as_numpy_raises():
    assert issubclass(np.exceptions.AxisError, IndexError) and issubclass(np.exceptions.AxisError, ValueError)
    with pytest.raises(IndexError):
        np.fft.fft(np.ones(4), axis=1)


@pytest.mark.parametrize(
    "func",
    [
        "fft",
        "ifft",
        "rfft",
        "irfft",
        "hfft",
        "ihfft",
        "fft2",
        "ifft2",
        "rfft2",
        "irfft2",
        "fftn",
        "ifftn",
        "rfftn",
        "irfftn",
        "fftshift",
        "ifftshift",
    ],
)
def test_host_arrays_are_unsupported(func):
    with pytest.raises(TypeError, match=r"^Unsupported type <class 'numpy.ndarray'>$"):
        getattr(cp.fft, func)(np.ones((4, 4)))


def test_import_does_not_load_cufft():
    from conftest import describe, run_python

    code = (
        "import cuarray as cp\nimport cuarray.fft\nmaps = open('/proc/self/maps').read()\n"
        "print('libcufft' in maps)\n"
    )
    proc = run_python(code=code)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.strip() == "False"


# Note [FFT layouts]: n-D complex transforms over the axes as the input lays them out keep its layout, as
# NumPy's results do; _default_fft_func (CuPy's name) says which calls those are.
LAYOUT_CASES = [
    ((3, 4), None, None),
    ((3, 4), None, (-1, -2)),
    ((2, 3, 4), (1, 4, None), None),
    ((2, 3, 4), (1, 4, 10), None),
    ((2, 3, 4), None, (-1, -2, -3)),
    ((2, 3, 4), None, (0, 1)),
    ((2, 3, 4), None, (1, 2)),
    ((2, 3, 4, 5), None, (-3, -2, -1)),
    ((2, 3, 4, 5), None, (0, 1, 2)),
]


@gpu
@pytest.mark.parametrize("shape,s,axes", LAYOUT_CASES)
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("func", ["fftn", "ifftn"])
@pytest.mark.parametrize("dtype", ["float16", "int32", "complex64", "complex128"])
def test_nd_transforms_keep_the_layout(shape, s, axes, order, func, dtype):
    from cuarray.fft import _fft

    a = np.asarray(make_data(shape, dtype), order=order)
    x = cp.asfortranarray(cp.asarray(a)) if order == "F" else cp.asarray(a)
    assert x.flags.f_contiguous == a.flags.f_contiguous and x.flags.c_contiguous == a.flags.c_contiguous
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # NumPy 2's (and cuarray's): None in s
        expected = getattr(np.fft, func)(a, s=s, axes=axes)
        got = getattr(cp.fft, func)(x, s=s, axes=axes)
    assert_fft_close(got, expected)
    kind = _fft._default_fft_func(x, s=s, axes=axes)
    sorted_axes = sorted(ax % len(shape) for ax in (axes or range(len(shape))))
    trailing = sorted_axes == list(range(len(shape) - len(sorted_axes), len(shape)))
    leading = sorted_axes == list(range(len(sorted_axes)))
    assert (kind is _fft._fftn) == (trailing if order == "C" else leading)
    if kind is _fft._fftn:
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == (
            expected.flags.c_contiguous,
            expected.flags.f_contiguous,
        )


@gpu
def test_default_fft_func_cases():
    from cuarray.fft import _fft

    a = cp.ones((16, 16, 16))
    f = cp.asfortranarray(a)
    assert _fft._default_fft_func(a, axes=(1, 2)) is _fft._fftn
    assert _fft._default_fft_func(a, axes=(0, 1)) is _fft._fft  # moved: the result is a view
    assert _fft._default_fft_func(f, axes=(0, 1)) is _fft._fftn
    assert _fft._default_fft_func(a, axes=(2,)) is _fft._fft
    assert _fft._default_fft_func(a, axes=(0, 2)) is _fft._fft
    assert _fft._default_fft_func(cp.ones((2, 4, 6, 8))) is _fft._fft
    assert _fft._default_fft_func(a, axes=(1, 2), value_type="R2C") is _fft._fftn
    assert _fft._default_fft_func(a, axes=(2, 1), value_type="R2C") is _fft._fft
    assert _fft._default_fft_func(f, axes=(0, 1), value_type="R2C") is _fft._fft
    with pytest.raises(ValueError, match="n-dimensional cuFFT plan could not be created"):
        _fft._fftn(a, None, (0, 1), None, -1)
    expected = np.fft.fftn(np.ones((16, 16, 16)), axes=(1, 2))
    assert_fft_close(_fft._fftn(a, None, (1, 2), None, -1), expected)
    assert_fft_close(
        _fft._fft(a, None, (1, 2), "ortho", 1), np.fft.ifftn(np.ones((16, 16, 16)), axes=(1, 2), norm="ortho")
    )


@gpu
@pytest.mark.parametrize("s", [(3, None), (None, None), (-1, 5), (None, 7)])
def test_none_in_s_is_the_axis_default(s):
    a = make_data((3, 4), np.complex128)
    x = cp.asarray(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for func in ("fftn", "ifftn", "irfftn"):
            assert_fft_close(
                getattr(cp.fft, func)(x, s=s, axes=(0, 1)), getattr(np.fft, func)(a, s=s, axes=(0, 1))
            )
        real = make_data((3, 4), np.float64)
        assert_fft_close(
            cp.fft.rfftn(cp.asarray(real), s=s, axes=(0, 1)), np.fft.rfftn(real, s=s, axes=(0, 1))
        )


# Note [C2R inputs]: one C2R transform over up to three axes, its input made Hermitian first, gives NumPy's
# irfftn of any complex input (whose zero- and Nyquist-frequency columns need not be Hermitian).
@gpu
@pytest.mark.parametrize(
    "shape,s,axes",
    [
        ((4, 6), None, None),  # even n: the zero and Nyquist columns
        ((5, 6), (5, 9), None),  # odd n: the zero column alone
        ((3, 4, 5), None, None),
        ((3, 4, 5), (2, 6, 7), None),
        ((2, 3, 4, 5), None, None),  # four axes: the first is a complex transform
        ((3, 1, 4), None, (0, 1, 2)),  # a length-1 axis cuFFT does not plan
        ((6, 4, 2), None, (2, 0)),  # moved axes
        ((4, 6), (4, 1), None),  # one output point: complex transforms and a real part
    ],
)
@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float16", "float64"])
def test_irfftn_of_non_hermitian_inputs(shape, s, axes, dtype):
    x, a = _data(shape, dtype, seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # NumPy's: s without axes
        for norm in (None, "ortho"):
            assert_fft_close(cp.fft.irfftn(x, s, axes, norm), np.fft.irfftn(a, s, axes, norm))


@gpu
def test_irfftn_plan_is_one_nd_c2r_plan():
    from cuarray.cuda import cufft
    from cuarray.scipy import fftpack

    x, a = _data((5, 4, 6), "complex128", seed=4)
    plan = fftpack.get_fft_plan(x, value_type="C2R")
    assert isinstance(plan, cufft.PlanNd) and plan.shape == (5, 4, 10) and plan.fft_type == cufft.CUFFT_Z2D
    with plan:
        assert_fft_close(cp.fft.irfftn(x), np.fft.irfftn(a))
    plan = fftpack.get_fft_plan(x, shape=(4, 7), axes=(1, 2), value_type="C2R")
    assert plan.shape == (4, 7) and plan.batch == 5
    with plan:
        assert_fft_close(cp.fft.irfftn(x, (4, 7), (1, 2)), np.fft.irfftn(a, (4, 7), (1, 2)))
    with pytest.raises(ValueError, match="The cuFFT plan and a.shape do not match"), plan:
        cp.fft.irfftn(x, (4, 8), (1, 2))


OUT_CALLS = {  # name -> (function arguments beyond a, the input's kind)
    "fft": ({}, "c"),
    "ifft": ({"n": 12}, "c"),
    "rfft": ({"n": 9}, "f"),
    "irfft": ({}, "c"),
    "hfft": ({}, "c"),
    "ihfft": ({}, "f"),
    "fftn": ({}, "c"),
    "ifft2": ({"s": (3, 7)}, "c"),
    "rfftn": ({"axes": (0, 1)}, "f"),
    "irfftn": ({"s": (5, 6)}, "c"),
    "rfft2": ({}, "f"),
    "irfft2": ({}, "c"),
}


def _out_case(func, in_dtype, out_dtype):
    kwargs, kind = OUT_CALLS[func]
    complex_ = kind == "c" and np.dtype(in_dtype).kind == "c"  # a real in_dtype makes real data of it
    a = make_data((4, 10), np.complex128 if complex_ else np.float64).astype(in_dtype)
    # the shape of a real input's result: NumPy refuses complex input to rfft and ihfft, with or without out
    shape = getattr(np.fft, func)(a.real if kind == "f" else a, **kwargs).shape
    return a, kwargs, np.zeros(shape, out_dtype)


@gpu
@pytest.mark.parametrize("func", list(OUT_CALLS))
@pytest.mark.parametrize(
    "in_dtype,out_dtype",
    [
        ("float64", "complex128"),
        ("float32", "complex128"),  # NumPy transforms in out's precision: double
        ("float64", "complex64"),
        ("complex64", "complex64"),
        ("float64", "float64"),  # a complex result into a real out: NumPy's TypeError
        ("float32", "float32"),
        ("int16", "complex128"),
        ("float64", "int64"),
    ],
)
def test_out_as_numpy(func, in_dtype, out_dtype):
    # Note [FFT out=]: the result lands in out (NumPy 2.5's hfft too), with NumPy's precision and errors.
    a, kwargs, want_out = _out_case(func, in_dtype, out_dtype)
    x, got_out = cp.asarray(a), cp.asarray(want_out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        try:
            want = getattr(np.fft, func)(a, out=want_out, **kwargs)
        except (TypeError, ValueError) as e:
            with pytest.raises(type(e)) as got:
                getattr(cp.fft, func)(x, out=got_out, **kwargs)
            assert "Cannot cast" not in str(e) or str(got.value) == str(e)
            return
        got = getattr(cp.fft, func)(x, out=got_out, **kwargs)
    assert (got is got_out) == (want is want_out)
    single = np.dtype(in_dtype) in (np.float32, np.complex64)  # NumPy may transform it in single precision
    _assert_out_close(got, want, single)
    _assert_out_close(got_out, want_out, single)


def _assert_out_close(got, want, single):
    """Same dtype, shape and values, within single precision's error where the transform may have run in it."""
    __tracebackhide__ = True
    assert got.dtype == want.dtype and got.shape == want.shape
    if not single or want.dtype in (np.float32, np.complex64):
        return assert_fft_close(got, want)
    scale = max(1.0, float(np.max(np.abs(want))) if want.size else 1.0)
    np.testing.assert_allclose(cp.asnumpy(got), want, rtol=0, atol=2e-5 * scale)


@gpu
def test_out_errors_as_numpy():
    x = cp.asarray(make_data((4, 6), np.complex128))
    for out in (cp.zeros(5, np.complex128), cp.zeros((1, 4, 6), np.complex128)):
        with pytest.raises(ValueError, match="output array has wrong shape"):
            cp.fft.fft(x, out=out)
    with pytest.raises(TypeError, match="return arrays must be of ArrayType"):
        cp.fft.fft(x, out=np.zeros((4, 6), np.complex128))
    # NumPy transforms axis by axis into out: an `s` resizing an axis but the first transformed is a ValueError
    with pytest.raises(ValueError):
        np.fft.fftn(np.ones((4, 6)), s=(8, 3), out=np.zeros((8, 3), complex))
    with pytest.raises(ValueError, match="output array has wrong shape"):
        cp.fft.fftn(cp.ones((4, 6)), s=(8, 3), out=cp.zeros((8, 3), complex))
    out = cp.zeros((4, 3), complex)
    assert cp.fft.fftn(cp.ones((4, 6)), s=(4, 3), out=out) is out
    assert_fft_close(out, np.fft.fftn(np.ones((4, 6)), s=(4, 3)))
    # no axes, no transform: NumPy returns the input and leaves out as it was
    assert cp.fft.fftn(x, axes=(), out=cp.zeros((4, 6), complex)) is x


@gpu
def test_out_may_be_the_input():
    a = make_data((3, 8), np.complex128)
    x = cp.asarray(a)
    assert cp.fft.fft(x, out=x) is x
    assert_fft_close(x, np.fft.fft(a))
    y = cp.asarray(a)[:, ::-1]  # a view with negative strides, written through
    base = y.base
    cp.fft.ifft(y, out=y)
    assert_fft_close(y, np.fft.ifft(a[:, ::-1]))
    assert base is not None


@gpu
@pytest.mark.parametrize(
    "func,in_dtype,out_dtype,norm",
    [
        ("fft", "complex64", "complex128", None),  # no factor: the loop of out's precision, double
        ("ifft", "complex64", "complex128", None),  # a float32 factor: single
        ("ifft", "complex64", "complex128", "forward"),  # no factor: double
        ("rfft", "float32", "complex128", None),
        ("rfft", "float32", "complex128", "ortho"),
        ("irfft", "complex64", "float64", None),
        ("irfft", "complex64", "float64", "forward"),
        ("ihfft", "float32", "complex128", None),
        ("fftn", "complex64", "complex128", None),
        ("ifftn", "float32", "complex128", None),  # single on the first axis, double on the next
    ],
)
def test_out_precision_is_numpys(func, in_dtype, out_dtype, norm):
    # The error against the exact (double) transform tells the precision each ran in: NumPy's and cuarray's agree
    a = make_data((6, 16), in_dtype) + (
        1e-6 if in_dtype == "float32" else 1e-6j
    )  # what single precision loses
    a = a.astype(in_dtype)
    exact = getattr(np.fft, func)(
        a.astype(np.complex128 if in_dtype == "complex64" else np.float64), norm=norm
    )
    want_out = np.zeros(exact.shape, out_dtype)
    got_out = cp.asarray(want_out)
    getattr(np.fft, func)(a, norm=norm, out=want_out)
    getattr(cp.fft, func)(cp.asarray(a), norm=norm, out=got_out)
    scale = float(np.max(np.abs(exact)))
    numpy_single = np.max(np.abs(want_out - exact)) > 1e-10 * scale
    ours_single = np.max(np.abs(cp.asnumpy(got_out) - exact)) > 1e-10 * scale
    assert ours_single == numpy_single
    _assert_out_close(got_out, want_out, numpy_single)


@pytest.mark.parametrize("func", ["fft", "ifft", "rfft", "irfft", "rfft odd"])
@pytest.mark.parametrize("in_dtype", ["float32", "complex64", "float64", "complex128", "int16", "float16"])
@pytest.mark.parametrize("out_dtype", ["complex128", "complex64", "float64", "float32", "int64"])
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_out_probe_agrees_with_numpy_on_data(func, in_dtype, out_dtype, norm):
    # No GPU: Note [FFT out=]'s probe against NumPy's own call on other data, of 64 points (where every norm's
    # factor is exact even in float16): the same error, or the same precision.
    from cuarray.fft import _loop_is_single

    rng = np.random.default_rng(5)
    func, odd = func.split()[0], func.endswith("odd")  # an odd rfft's errors name NumPy's rfft_n_odd
    size = {"irfft": 33, "rfft": 63 if odd else 64}.get(func, 64)  # irfft: 64 points out
    a = (rng.random(size) * 4 + 1e-3 + (1j * rng.random(size) if "complex" in in_dtype else 0)).astype(
        in_dtype
    )
    transform = getattr(np.fft, func)
    out = np.zeros({"rfft": size // 2 + 1}.get(func, 64), out_dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        try:
            transform(a, norm=norm, out=out)
        except TypeError as e:
            with pytest.raises(type(e)) as got:
                _loop_is_single(func, a.dtype, norm, np.dtype(out_dtype), odd)
            assert str(got.value) == str(e)
            return
        single = _loop_is_single(func, a.dtype, norm, np.dtype(out_dtype), odd)
    if odd:  # 63 points: the factor of ortho and forward is not exact in single precision
        return
    exact = transform(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64), norm=norm)
    if np.dtype(out_dtype) in (np.float16, np.float32, np.complex64):
        assert single  # rounded to single precision, whatever the loop
    else:
        assert single == bool(np.abs(out - exact).max() > 1e-12 * np.abs(exact).max())


@gpu
@pytest.mark.parametrize("func", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_s_longer_than_the_axes_is_numpys_axis_error(func):
    # s names the last len(s) axes: one more than the array has is NumPy's AxisError, never a repeated axis.
    x, a = _data((4, 6), "float64")
    with pytest.raises(np.exceptions.AxisError):
        getattr(np.fft, func)(a, s=(3, 4, 5))
    with pytest.raises(np.exceptions.AxisError):
        getattr(cp.fft, func)(x, s=(3, 4, 5))
