"""NumPy-to-GPU conversions (lessons 001 and 002): each function of numpy_to_gpu_*.py must compute on the GPU
and return a cuarray array with NumPy's values."""

import cuarray as cp
import numpy as np
import pytest


def call(func, *args):
    """func(*args); an exception fails the test with what the exercise asks for."""
    try:
        return func(*args)
    except Exception as error:  # noqa: BLE001 - any failure is the student's to fix
        pytest.fail(
            f"{func.__name__}{args if len(str(args)) < 80 else '(...)'} raised {type(error).__name__}: "
            f"{error}\nHint: cuarray functions take device arrays; copy host arrays with cp.asarray(x) first.",
            pytrace=False,
        )


def assert_on_gpu(value, what):
    assert isinstance(value, cp.ndarray), (
        f"{what} is a {type(value).__module__}.{type(value).__name__}, so it was computed on the CPU; it should be a "
        "cuarray.ndarray. Hint: use cp's function of the same name (cp.random.randn, cp.linalg.svd, ...) or copy "
        "the input with cp.asarray."
    )


@pytest.mark.gpu
def test_square(load_exercise):
    A_cpu = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
    result = call(load_exercise("numpy_to_gpu").square, A_cpu)
    assert_on_gpu(result, "square(A_cpu)")
    assert result.dtype == np.int32
    np.testing.assert_array_equal(cp.asnumpy(result), [[1, 4, 9], [16, 25, 36]])


@pytest.mark.gpu
def test_dot_of_host_arrays(load_exercise):
    rng = np.random.default_rng(0)
    A_cpu, B_cpu = rng.random(100_000, dtype=np.float32), rng.random(100_000, dtype=np.float32)
    result = call(load_exercise("numpy_to_gpu").dot_of_host_arrays, A_cpu, B_cpu)
    assert_on_gpu(result, "dot_of_host_arrays(A_cpu, B_cpu)")
    assert result.shape == () and result.dtype == np.float32
    np.testing.assert_allclose(float(result), np.dot(A_cpu.astype(np.float64), B_cpu), rtol=1e-4)


@pytest.mark.gpu
def test_random_svd(load_exercise):
    X, u, s, v = call(load_exercise("numpy_to_gpu").random_svd, 64)
    for name, value in zip("Xusv", (X, u, s, v)):
        assert_on_gpu(value, f"random_svd(64) returned {name} that")
    assert X.shape == (64, 64) and X.dtype == np.float64
    X_host = cp.asnumpy(X)
    assert X_host.std() > 0.5, "X should hold random normal numbers"
    np.testing.assert_allclose(cp.asnumpy(s), np.linalg.svd(X_host, compute_uv=False), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(cp.asnumpy((u * s) @ v), X_host, atol=1e-10)
