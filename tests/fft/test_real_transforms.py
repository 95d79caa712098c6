"""The cosine and sine transforms' definition (cuarray/scipy/_realtransforms.py) run on NumPy against
scipy.fft, with or without a GPU: every type, norm, orthogonalize, length, dtype and the inverses. The same
code runs on cuarray in tests/fft/test_scipy_fft.py."""

import itertools

import numpy as np
import pytest
import scipy.fft as sfft
from cuarray.scipy import _realtransforms

CASES = list(
    itertools.product(
        ("dct", "dst"), (1, 2, 3, 4), (None, "ortho", "forward"), (None, True, False), (False, True)
    )
)


def _data(dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((3, 7)) * 3
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal((3, 7))
    return x.astype(dtype)


@pytest.mark.parametrize("kind, type, norm, orthogonalize, inverse", CASES)
def test_on_numpy_as_scipy(kind, type, norm, orthogonalize, inverse):
    for dtype, n in itertools.product(
        ("float16", "float32", "float64", "int32", "complex64", "complex128"), (None, 1, 2, 9)
    ):
        if kind == "dct" and type == 1 and n == 1:
            continue  # test_dct1_of_one_point
        x = _data(dtype, type)
        want = getattr(sfft, ("i" if inverse else "") + kind)(
            x, type, n, 0, norm, orthogonalize=orthogonalize
        )
        fn = _realtransforms.inverse if inverse else _realtransforms.transform
        got = fn(np, np.fft, x, kind, type, n, 0, norm, orthogonalize)
        assert got.dtype == want.dtype and got.shape == want.shape, (dtype, n)
        tol = 1e-4 if want.dtype in (np.float32, np.complex64) else 1e-11
        np.testing.assert_allclose(
            got, want, rtol=tol, atol=tol * max(1.0, np.abs(want).max()), err_msg=f"{dtype} {n}"
        )


def test_dct1_of_one_point():
    with pytest.raises(RuntimeError):  # SciPy's message differs between versions
        sfft.dct(np.ones(1), type=1)
    with pytest.raises(RuntimeError, match="zero-length FFT"):
        _realtransforms.transform(np, np.fft, np.ones(1), "dct", 1, None, -1, None, None)


@pytest.mark.parametrize(
    "kwargs, error", [({"type": 5}, ValueError), ({"n": 0}, ValueError), ({"norm": "x"}, ValueError)]
)
def test_errors_as_scipy(kwargs, error):
    args = {"type": 2, "n": None, "norm": None} | kwargs
    with pytest.raises(error):
        sfft.dct(np.ones(4), **args)
    with pytest.raises(error):
        _realtransforms.transform(
            np, np.fft, np.ones(4), "dct", args["type"], args["n"], -1, args["norm"], None
        )


@pytest.mark.parametrize("kw", [{"n": 2.5}, {"n": np.float64(4)}, {"type": 2.0}], ids=repr)
@pytest.mark.parametrize("kind, inverse", [("dct", False), ("dst", False), ("dct", True), ("dst", True)])
def test_float_n_and_type_are_scipys_type_errors(kind, inverse, kw):
    # SciPy slices with n and passes type to C++: a float is its TypeError, never a truncated size or type;
    # its inverses look the type up in a dict first, where 2.0 is 2.
    if inverse and "type" in kw:
        want = getattr(sfft, "i" + kind)(np.arange(5.0), type=2.0)
        got = _realtransforms.inverse(np, np.fft, np.arange(5.0), kind, 2.0, None, -1, None, None)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
        return
    args = {"type": 2, "n": None} | kw
    with pytest.raises(TypeError):
        getattr(sfft, ("i" if inverse else "") + kind)(np.arange(5.0), **args)
    fn = _realtransforms.inverse if inverse else _realtransforms.transform
    with pytest.raises(TypeError):
        fn(np, np.fft, np.arange(5.0), kind, args["type"], args["n"], -1, None, None)
    want = getattr(sfft, ("i" if inverse else "") + kind)(np.arange(5.0), n=np.int64(4), type=np.int64(2))
    got = fn(np, np.fft, np.arange(5.0), kind, np.int64(2), np.int64(4), -1, None, None)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
