"""Caches whose keys could stand for more than one value: each test makes two requests that a too-narrow key
would answer alike, and checks that the second gets its own answer."""

import ctypes
import textwrap

import cuarray
import numpy
import pytest
from conftest import describe, run_python

S = cuarray._core.jit.sources


# Note [Dtype-like cache keys] in python/src/convert.cpp: NumPy scalars are dtype-likes (numpy.float32(1) means
# float32) that compare and hash equal across types, so they must never be keys of the dtype cache.
SCALAR_DTYPE_LIKES = [
    numpy.float32(1),
    numpy.float64(1),
    numpy.int8(1),
    numpy.uint16(1),
    numpy.complex64(1),
    numpy.bool_(True),
    numpy.int64(0),
    numpy.float16(0),
    numpy.bool_(False),
]


def _kernel_type(dtype_like):
    """The element type the core makes of `dtype_like`: the suffix of the arange kernel it names."""
    return S.arange(dtype_like, False)[1].removeprefix("arange_")


def test_scalar_dtype_likes_are_told_apart():
    # Each value once after the others: a cached earlier scalar equal to it must not answer for it.
    for _ in range(2):
        for s in SCALAR_DTYPE_LIKES:
            assert _kernel_type(s) == s.dtype.name, s


def test_scalar_dtype_like_in_a_fresh_process():
    # The first request of the process is the one a cache would keep.
    code = textwrap.dedent(
        """
        import numpy
        from cuarray import _core
        S = _core.jit.sources
        names = [S.arange(t, False)[1] for t in (numpy.float32(1), numpy.float64(1), numpy.int16(1))]
        print(" ".join(names))
        try:
            S.arange(1.0, False)
        except TypeError:
            print("TypeError")
        """
    )
    proc = run_python(code=code)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.split() == ["arange_float32", "arange_float64", "arange_int16", "TypeError"]


@pytest.mark.parametrize(
    "dtype_like", ["float32", numpy.float32, numpy.dtype("float32"), "f4", float, "int8"]
)
def test_dtype_likes_still_resolve(dtype_like):
    expected = numpy.dtype(dtype_like).name
    for _ in range(2):  # the second from the cache
        assert _kernel_type(dtype_like) == expected


@pytest.mark.gpu
def test_zeros_with_scalar_dtype_likes():
    a = cuarray.zeros(3, dtype=numpy.float32(1))
    b = cuarray.zeros(3, dtype=numpy.float64(1))
    c = cuarray.zeros(3, dtype=numpy.int8(1))
    assert (a.dtype, b.dtype, c.dtype) == (numpy.float32, numpy.float64, numpy.int8)
    assert b.get().dtype == numpy.zeros(3, dtype=numpy.float64(1)).dtype


# Note [Handed-out handles] in cpp/cuarray/lib/cublas.h: a program that calls cuBLAS or cuSOLVER with the handle
# cuarray hands out binds it to its own stream; cuarray's next op must run on the current stream all the same.


def _loaded_library(stem):
    """ctypes' view of the library `stem` ('cublas', 'cusolver') as cuarray loads it: the same file, so the same
    copy in the process."""
    (path,) = [lib["path"] for lib in cuarray._core.libraries.probe() if lib["stem"] == stem]
    assert path, stem
    return ctypes.CDLL(path)


def _bound_stream(get_stream, handle):
    stream = ctypes.c_void_p()
    assert get_stream(ctypes.c_void_p(handle), ctypes.byref(stream)) == 0
    return stream.value or 0


@pytest.mark.gpu
def test_cublas_handle_is_bound_again_after_a_program_binds_its_own_stream():
    rng = numpy.random.default_rng(0)
    a_np = rng.standard_normal((300, 300), dtype=numpy.float32)  # past the small-product kernel: cuBLAS
    a = cuarray.asarray(a_np)
    a @ a
    handle = cuarray.cuda.get_cublas_handle()
    lib = _loaded_library("cublas")
    other = cuarray.cuda.Stream(non_blocking=True)
    assert lib.cublasSetStream_v2(ctypes.c_void_p(handle), ctypes.c_void_p(other.ptr)) == 0
    r = a @ a
    assert _bound_stream(lib.cublasGetStream_v2, handle) == cuarray.cuda.get_current_stream().ptr
    numpy.testing.assert_allclose(r.get(), a_np @ a_np, rtol=1e-4, atol=1e-3)


@pytest.mark.gpu
def test_cusolver_handle_is_bound_again_after_a_program_binds_its_own_stream():
    rng = numpy.random.default_rng(1)
    a_np = rng.standard_normal((8, 8)) + 8 * numpy.eye(8)
    a = cuarray.asarray(a_np)
    cuarray.linalg.inv(a)
    handle = cuarray.cuda.Device().cusolver_handle
    lib = _loaded_library("cusolver")
    other = cuarray.cuda.Stream(non_blocking=True)
    assert lib.cusolverDnSetStream(ctypes.c_void_p(handle), ctypes.c_void_p(other.ptr)) == 0
    r = cuarray.linalg.inv(a)
    assert _bound_stream(lib.cusolverDnGetStream, handle) == cuarray.cuda.get_current_stream().ptr
    numpy.testing.assert_allclose(r.get(), numpy.linalg.inv(a_np), rtol=1e-10, atol=1e-12)
