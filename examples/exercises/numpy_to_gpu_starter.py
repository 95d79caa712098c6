"""NumPy to GPU (lessons 001 and 002). Each function should compute on the GPU with cuarray and return a
cuarray array; as written, each one fails or runs on the CPU. Fix them, then check with
    EXERCISE=starter pytest examples/exercises/test_numpy_to_gpu.py
"""

import cuarray as cp
import numpy as np


def square(A_cpu):
    """Lesson 001: the squares of the host array A_cpu, computed on the GPU."""
    # TODO: Fix the code to run on the GPU
    return cp.square(A_cpu)


def dot_of_host_arrays(A_cpu, B_cpu):
    """Lesson 001: the inputs were made by NumPy in host memory; compute their dot product on the GPU."""
    # TODO: Insert cuarray code here
    C_gpu = cp.dot(A_gpu, B_gpu)  # noqa: F821 - the exercise is to define these
    cp.cuda.Device(0).synchronize()
    return C_gpu


def random_svd(size=5000):
    """Lesson 002: the SVD of a random size x size matrix. Returns X, u, s, v with u @ diag(s) @ v == X."""
    X = np.random.randn(size, size)
    u, s, v = np.linalg.svd(X)
    return X, u, s, v
