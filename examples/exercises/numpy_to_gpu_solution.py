"""NumPy to GPU (lessons 001 and 002), solved: copy host arrays with cp.asarray, or make the data on the GPU
with cp's functions of NumPy's names."""

import cuarray as cp


def square(A_cpu):
    """Lesson 001: the squares of the host array A_cpu, computed on the GPU."""
    A_gpu = cp.asarray(A_cpu)
    return cp.square(A_gpu)


def dot_of_host_arrays(A_cpu, B_cpu):
    """Lesson 001: the inputs were made by NumPy in host memory; compute their dot product on the GPU."""
    A_gpu = cp.asarray(A_cpu)
    B_gpu = cp.asarray(B_cpu)
    C_gpu = cp.dot(A_gpu, B_gpu)
    cp.cuda.Device(0).synchronize()
    return C_gpu


def random_svd(size=5000):
    """Lesson 002: the SVD of a random size x size matrix. Returns X, u, s, v with u @ diag(s) @ v == X."""
    X = cp.random.randn(size, size)
    u, s, v = cp.linalg.svd(X)
    return X, u, s, v
