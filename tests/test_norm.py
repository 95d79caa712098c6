"""linalg.norm against NumPy: vector and matrix orders, axes, keepdims, dtypes, and the errors."""

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same, dtype_id, make_data

pytestmark = pytest.mark.gpu

DTYPES = [np.float32, np.float64, np.complex64, np.complex128, np.int32]
RTOL = {np.float32: 1e-5, np.complex64: 1e-5}


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("ord", [None, 2, 1, 0, np.inf, -np.inf, 3, 0.5, -1])
def test_vector_norms(ord, dtype):
    a = make_data(37, dtype)
    assert_same(cp.linalg.norm(cp.asarray(a), ord), np.linalg.norm(a, ord), rtol=RTOL.get(dtype, 1e-12))
    b = make_data((4, 6), dtype, seed=1)
    for axis in (0, 1, -1):
        for keepdims in (False, True):
            assert_same(
                cp.linalg.norm(cp.asarray(b), ord, axis, keepdims),
                np.linalg.norm(b, ord, axis, keepdims),
                rtol=RTOL.get(dtype, 1e-12),
            )


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("ord", [None, "fro", 1, -1, np.inf, -np.inf])
def test_matrix_norms(ord, dtype):
    a = make_data((5, 7), dtype)
    assert_same(cp.linalg.norm(cp.asarray(a), ord), np.linalg.norm(a, ord), rtol=RTOL.get(dtype, 1e-12))
    b = make_data((3, 4, 5), dtype, seed=2)
    for axis in ((0, 2), (2, 1), (-1, 0)):
        assert_same(
            cp.linalg.norm(cp.asarray(b), ord, axis, True),
            np.linalg.norm(b, ord, axis, True),
            rtol=RTOL.get(dtype, 1e-12),
        )


def test_default_norm_of_any_ndim_and_the_lesson():
    x_cpu = np.array([1, 2, 3])
    l2_gpu = cp.linalg.norm(cp.asarray(x_cpu))
    assert float(l2_gpu) == float(np.linalg.norm(x_cpu))
    assert str(l2_gpu) == str(np.linalg.norm(x_cpu))
    c = make_data((2, 3, 4), np.float64)
    assert_same(cp.linalg.norm(cp.asarray(c)), np.linalg.norm(c))
    assert_same(cp.linalg.norm(cp.asarray(c), keepdims=True), np.linalg.norm(c, keepdims=True))


def test_norm_errors_match_numpy():
    x = cp.ones((2, 3))
    with pytest.raises(ValueError, match="Invalid norm order 'fro' for vectors"):
        cp.linalg.norm(cp.ones(3), "fro")
    with pytest.raises(ValueError, match="Invalid norm order for matrices"):
        cp.linalg.norm(x, 3)
    with pytest.raises(ValueError, match="Improper number of dimensions"):
        cp.linalg.norm(cp.ones((2, 2, 2)), 1)
    with pytest.raises(ValueError, match="Duplicate axes"):
        cp.linalg.norm(x, axis=(1, -1))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.linalg.norm(np.ones(3))
