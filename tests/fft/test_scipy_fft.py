"""cuarray.scipy.fft against scipy.fft on the same inputs: every transform, SciPy's dtypes (float16 in single
precision), n/s/axes/norm, its errors (unique axes, s and axes of one length), plans, the uarray backend of
scipy.fft.set_backend, and next_fast_len."""

import cuarray as cp
import cuarray.scipy.fft as cfft
import numpy as np
import pytest
import scipy.fft as sfft
from conftest import make_data
from scipy._lib._uarray import BackendNotImplementedError

gpu = pytest.mark.gpu

REAL = ["bool", "int8", "int64", "float16", "float32", "float64"]
ALL = REAL + ["complex64", "complex128"]
ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_D = [
    "fftn",
    "ifftn",
    "rfftn",
    "irfftn",
    "hfftn",
    "ihfftn",
    "fft2",
    "ifft2",
    "rfft2",
    "irfft2",
    "hfft2",
    "ihfft2",
]
REAL_ONLY = {"rfft", "ihfft", "rfftn", "ihfftn", "rfft2", "ihfft2"}


def assert_close(got, expected):
    __tracebackhide__ = True
    expected = np.asarray(expected)
    assert isinstance(got, cp.ndarray), type(got)
    assert got.dtype == expected.dtype, f"dtype {got.dtype} != SciPy's {expected.dtype}"
    assert got.shape == expected.shape, f"shape {got.shape} != SciPy's {expected.shape}"
    single = expected.dtype in (np.float32, np.complex64)
    scale = max(1.0, float(np.max(np.abs(expected))) if expected.size else 1.0)
    np.testing.assert_allclose(
        cp.asnumpy(got).astype(np.complex128),
        expected.astype(np.complex128),
        rtol=0,
        atol=(2e-5 if single else 1e-11) * scale,
    )


def _pair(shape, dtype, seed=0):
    a = make_data(shape, dtype, seed)
    return cp.asarray(a), a


@gpu
@pytest.mark.parametrize("func", ONE_D)
@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize(
    "n, axis, norm", [(None, -1, None), (7, 0, "ortho"), (20, -1, "forward"), (1, 1, None)]
)
def test_one_dimensional(func, dtype, n, axis, norm):
    if func in REAL_ONLY and dtype.startswith("complex"):
        pytest.skip("a real transform of complex input: test_real_transforms_refuse_complex")
    x, a = _pair((5, 12), dtype)
    assert_close(getattr(cfft, func)(x, n, axis, norm), getattr(sfft, func)(a, n, axis, norm))


@gpu
@pytest.mark.parametrize("func", N_D)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "complex64", "complex128"])
@pytest.mark.parametrize(
    "s, axes, norm",
    [(None, None, None), ((6, 8), (0, 2), "ortho"), (None, (1, 0), "forward"), ((5,), (-1,), None)],
)
def test_n_dimensional(func, dtype, s, axes, norm):
    if func in REAL_ONLY and dtype.startswith("complex"):
        pytest.skip("a real transform of complex input: test_real_transforms_refuse_complex")
    if func.endswith("2") and axes is not None and len(axes) != 2:
        axes, s = (-2, -1), None
    elif func.endswith("2") and axes is None:
        axes = (-2, -1)
    x, a = _pair((4, 6, 10), dtype)
    assert_close(getattr(cfft, func)(x, s, axes, norm), getattr(sfft, func)(a, s, axes, norm))


@gpu
@pytest.mark.parametrize("func", ["fft", "rfft", "fftn", "irfftn"])
def test_non_contiguous_and_negative_strides(func):
    x, a = _pair((8, 12), "float64")
    x, a = x[::-2, 1::3], a[::-2, 1::3]
    assert_close(getattr(cfft, func)(x), getattr(sfft, func)(a))


@gpu
@pytest.mark.parametrize("func", ["fft", "ifftn", "irfft"])
def test_input_is_left_as_it_is(func):
    x, _ = _pair((4, 8), "complex64")
    before = cp.asnumpy(x).copy()
    r = getattr(cfft, func)(x, overwrite_x=True, workers=4)
    np.testing.assert_array_equal(cp.asnumpy(x), before)
    assert not cp.shares_memory(r, x)


@gpu
@pytest.mark.parametrize("func", sorted(REAL_ONLY))
def test_real_transforms_refuse_complex(func):
    x, a = _pair((4, 6), "complex128")
    with pytest.raises(TypeError):
        getattr(sfft, func)(a)
    with pytest.raises(TypeError):
        getattr(cfft, func)(x)


@gpu
@pytest.mark.parametrize(
    "call, error",
    [
        (lambda m, x: m.fftn(x, axes=(0, 0)), ValueError),
        (lambda m, x: m.fftn(x, s=(4,), axes=(0, 1)), ValueError),
        (lambda m, x: m.rfftn(x, axes=()), ValueError),
        (lambda m, x: m.irfftn(x, axes=()), ValueError),
        (lambda m, x: m.fft(x, n=0), ValueError),
        (lambda m, x: m.fft(x, norm="bad"), ValueError),
        (lambda m, x: m.fft(x, axis=2), IndexError),
        (lambda m, x: m.fftn(x, s=(3, 4, 5)), ValueError),  # s longer than x has axes
        (lambda m, x: m.rfftn(x, s=()), ValueError),
        (lambda m, x: m.hfftn(x[0, 0]), ValueError),  # 0-d: no axis to transform
        (lambda m, x: m.hfftn(x, s=(4, None)), ValueError),
    ],
)
def test_scipys_errors(call, error):
    x, a = _pair((4, 4), "float64")
    with pytest.raises(error):
        call(sfft, a)
    with pytest.raises(error):
        call(cfft, x)


@gpu
@pytest.mark.parametrize("func", ["fftn", "ifftn"])
@pytest.mark.parametrize("kwargs", [{"axes": ()}, {"s": ()}])
def test_no_axes_return_the_input_itself(func, kwargs):
    x, a = _pair((3, 4), "float16")
    assert getattr(sfft, func)(a, **kwargs) is a
    assert getattr(cfft, func)(x, **kwargs) is x


@gpu
def test_host_arrays_raise_cupys_typeerror():
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cfft.fft(np.ones(4))


@gpu
def test_plans_given_and_current():
    x, a = _pair((3, 16), "complex64")
    plan = cfft.get_fft_plan(x, axes=(-1,))
    assert_close(cfft.fft(x, plan=plan), sfft.fft(a))
    with plan:
        assert_close(cfft.fft(x), sfft.fft(a))
    plan2 = cfft.get_fft_plan(x, axes=(0, 1))
    assert_close(cfft.fftn(x, plan=plan2), sfft.fftn(a))


@gpu
def test_scipy_fft_set_backend_runs_on_the_device():
    x, a = _pair((4, 8), "float32")
    with sfft.set_backend(cfft):
        r = sfft.fft(x)
        r2 = sfft.irfftn(x, s=(4, 6))
    assert isinstance(r, cp.ndarray) and isinstance(r2, cp.ndarray)
    assert_close(r, sfft.fft(a))
    assert_close(r2, sfft.irfftn(a, s=(4, 6)))
    with sfft.set_backend(cfft, coerce=True):
        r3 = sfft.fft(a)  # a host array, copied to the device
    assert isinstance(r3, cp.ndarray)
    assert_close(r3, sfft.fft(a))
    with (
        sfft.set_backend(cfft, only=True),
        pytest.raises(BackendNotImplementedError, match="No selected backends"),
    ):
        sfft.fht(x, 1.0, 0.5)  # no fht here: NotImplemented, as in CuPy's backend
    with sfft.set_backend(cfft):
        assert_close(sfft.dct(x, type=3), sfft.dct(a, type=3))


@gpu
def test_frequencies_and_shifts_are_numpys():
    assert_close(cfft.fftfreq(8, 0.5), sfft.fftfreq(8, 0.5))
    assert_close(cfft.rfftfreq(9), sfft.rfftfreq(9))
    x, a = _pair((4, 5), "float64")
    assert_close(cfft.fftshift(x), sfft.fftshift(a))
    assert_close(cfft.ifftshift(x, axes=0), sfft.ifftshift(a, axes=0))


def test_next_fast_len_is_the_next_7_smooth_length():
    def smooth(n):
        for p in (2, 3, 5, 7):
            while n % p == 0:
                n //= p
        return n == 1

    for target in list(range(1, 600)) + [1021, 4097, 10007]:
        got = cfft.next_fast_len(target)
        assert got >= target and smooth(got) and not any(smooth(m) for m in range(target, got)), target
        if smooth(sfft.next_fast_len(target)):  # where SciPy's 11-smooth length is also 7-smooth
            assert got == sfft.next_fast_len(target)
    assert cfft.next_fast_len(121) == 125 and cfft.next_fast_len(121, real=True) == 125
    assert cfft.next_fast_len(0) == sfft.next_fast_len(0) == 0
    for bad, error in ((-1, ValueError), (3.5, TypeError)):
        with pytest.raises(error):
            sfft.next_fast_len(bad)
        with pytest.raises(error):
            cfft.next_fast_len(bad)


@gpu
@pytest.mark.parametrize("func", ["dct", "idct", "dst", "idst"])
@pytest.mark.parametrize("type", [1, 2, 3, 4])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "complex64", "complex128"])
def test_cosine_and_sine_transforms(func, type, norm, dtype):
    x, a = _pair((4, 9), dtype)
    for n, axis in ((None, -1), (5, 0), (12, 1)):
        assert_close(getattr(cfft, func)(x, type, n, axis, norm), getattr(sfft, func)(a, type, n, axis, norm))
    assert_close(
        getattr(cfft, func)(x, type, norm=norm, orthogonalize=True),
        getattr(sfft, func)(a, type, norm=norm, orthogonalize=True),
    )


@gpu
@pytest.mark.parametrize("func", ["dctn", "idctn", "dstn", "idstn"])
@pytest.mark.parametrize("s, axes", [(None, None), ((3, 5), (0, 2)), (None, (-1,)), ((6,), None)])
def test_cosine_and_sine_transforms_n_d(func, s, axes):
    x, a = _pair((4, 3, 6), "float32")
    assert_close(getattr(cfft, func)(x, 2, s, axes, "ortho"), getattr(sfft, func)(a, 2, s, axes, "ortho"))
    assert_close(getattr(cfft, func)(x[:, ::-1], 4, s, axes), getattr(sfft, func)(a[:, ::-1], 4, s, axes))
    assert getattr(cfft, func)(x, axes=()) is x
    with pytest.raises(ValueError):
        getattr(cfft, func)(x, axes=(0, 0))
