"""NumPy's functions and ufuncs called with cuarray arrays run on the GPU or refuse clearly."""

import cuarray as cp
import numpy as np
import pytest

pytestmark = pytest.mark.gpu


def test_numpy_ufunc_on_device_array_returns_device_array():
    x = cp.asarray(np.array([[1, 2, 3], [4, 5, 6]], np.int32))
    y = np.square(x)
    assert isinstance(y, cp.ndarray) and y.dtype == np.int32
    np.testing.assert_array_equal(y.get(), np.array([[1, 4, 9], [16, 25, 36]], np.int32))
    z = np.add(np.float32(1), cp.asarray(np.ones(3, np.float32)))
    assert isinstance(z, cp.ndarray) and z.dtype == np.float32


def test_numpy_functions_dispatch_to_cuarray():
    x = cp.arange(6, dtype=cp.float64)
    r = np.reshape(x, (2, 3))
    assert isinstance(r, cp.ndarray) and r.shape == (2, 3)
    assert bool(np.allclose(x, x)) is True
    assert isinstance(np.where(x > 2, x, 0.0), cp.ndarray)
    c = np.concatenate([x, x])
    assert isinstance(c, cp.ndarray) and c.shape == (12,)


def test_function_cuarray_lacks_is_a_type_error_naming_it():
    x = cp.arange(3)
    with pytest.raises(TypeError, match="busday_count"):
        np.busday_count(x, x)


def test_mixing_numpy_and_device_arrays_is_a_type_error():
    with pytest.raises(TypeError, match="numpy"):
        np.add(np.ones(3), cp.ones(3))
    with pytest.raises(TypeError, match="numpy"):
        cp.ones(3) + np.ones(3)
