"""Interop with other libraries on the GPU: PyTorch, CuPy, Numba and JAX consuming cuarray arrays and being read
by cuarray (DLPack and __cuda_array_interface__, zero-copy, dtypes, layouts, stream hand-off, lifetimes). The
protocols themselves, without another library, are in test_interop.py."""

import gc
import os

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, LAYOUT_NAMES, LAYOUTS, dtype_id, make_data, make_pair
from test_interop import _N, NONNEGATIVE_LAYOUTS, _slow_fill, used_strides

# ---- PyTorch ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def torch():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA device")
    return torch


def _torch_dtype(torch, dtype):
    if not hasattr(torch, dtype.name):
        pytest.skip(f"this PyTorch has no {dtype.name}")
    return getattr(torch, dtype.name)


def _torch_to_numpy(t):
    return t.detach().cpu().numpy()


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", NONNEGATIVE_LAYOUTS)
def test_torch_from_cuarray(torch, layout, dtype):
    x, a = make_pair(layout, dtype)
    assert torch.from_dlpack(x).dtype == _torch_dtype(torch, dtype)
    t = torch.from_dlpack(x)
    assert tuple(t.shape) == a.shape
    if a.size:
        assert t.data_ptr() == x.data.ptr
        assert tuple(t.stride()) == tuple(s // a.itemsize for s in x.strides)
    np.testing.assert_array_equal(_torch_to_numpy(t), a)
    if a.size:
        t.zero_()
        assert not x.any()


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("route", ["from_dlpack", "asarray_cai"])
def test_cuarray_from_torch(torch, route, dtype):
    a = make_data((4, 6), dtype)
    base = torch.from_numpy(a).cuda()
    for t, expected in [
        (base, a),
        (base[:, 1::2], a[:, 1::2]),
        (base.T, a.T),
        (base[2], a[2]),
        (base[0, 0], a[0, 0]),
        (base[:0], a[:0]),
    ]:
        x = cp.from_dlpack(t) if route == "from_dlpack" else cp.asarray(t)
        assert x.shape == expected.shape and x.dtype == dtype
        if expected.size:
            assert x.data.ptr == t.data_ptr()
            assert used_strides(x) == [s * a.itemsize for s, n in zip(t.stride(), t.shape) if n > 1]
        np.testing.assert_array_equal(x.get(), expected)
    x = cp.from_dlpack(base) if route == "from_dlpack" else cp.asarray(base)
    x[...] = x[::-1].copy()
    np.testing.assert_array_equal(_torch_to_numpy(base), a[::-1])


@pytest.mark.gpu
def test_torch_bfloat16(torch):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    a = make_data((3, 5), np.float32).astype(ml_dtypes.bfloat16)
    x = cp.asarray(a)
    t = torch.from_dlpack(x)
    assert t.dtype == torch.bfloat16 and t.data_ptr() == x.data.ptr
    np.testing.assert_array_equal(_torch_to_numpy(t.float()), a.astype(np.float32))
    y = cp.from_dlpack(t * 2)
    assert y.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(y.get().astype(np.float32), a.astype(np.float32) * 2)
    z = cp.asarray(t)  # PyTorch's __cuda_array_interface__ has no bfloat16: asarray goes through DLPack
    assert z.dtype == ml_dtypes.bfloat16 and z.data.ptr == t.data_ptr()


@pytest.mark.gpu
def test_torch_legacy_capsules(torch):
    from torch.utils import dlpack

    x = cp.arange(10, dtype=np.int64)
    t = dlpack.from_dlpack(x.__dlpack__())
    assert t.data_ptr() == x.data.ptr
    y = cp.from_dlpack(dlpack.to_dlpack(t))
    assert y.data.ptr == x.data.ptr
    np.testing.assert_array_equal(y.get(), np.arange(10))


@pytest.mark.gpu
@pytest.mark.parametrize("route", ["from_dlpack", "asarray_cai"])
def test_torch_tensor_deleted_before_the_view(torch, route):
    t = torch.arange(1 << 20, device="cuda", dtype=torch.float32)
    x = (cp.from_dlpack(t) if route == "from_dlpack" else cp.asarray(t))[1::3]
    del t
    gc.collect()
    torch.cuda.empty_cache()
    junk = [torch.full((1 << 20,), -1.0, device="cuda") for _ in range(4)]
    np.testing.assert_array_equal(x.get(), np.arange(1, 1 << 20, 3, dtype=np.float32))
    del junk


@pytest.mark.gpu
def test_cuarray_deleted_before_the_torch_view(torch):
    x = cp.arange(1 << 18, dtype=np.float32)
    t = torch.from_dlpack(x)
    del x
    gc.collect()
    junk = [cp.full(1 << 18, -1.0, dtype=np.float32) for _ in range(4)]
    np.testing.assert_array_equal(_torch_to_numpy(t), np.arange(1 << 18, dtype=np.float32))
    del junk


@pytest.mark.gpu
def test_stream_hand_off_cuarray_to_torch(torch):
    s = cp.cuda.Stream(non_blocking=True)
    ts = torch.cuda.Stream()
    for _ in range(3):
        with s:
            x = cp.zeros(_N, dtype=np.float32)
            _slow_fill(x, 50)
            with torch.cuda.stream(ts):
                t = torch.from_dlpack(x)  # torch passes ts; cuarray's current stream is s
                least = t.min()
        ts.synchronize()  # PyTorch's streams do not block: item() on its default stream would not wait for ts
        assert least.item() == 50.0


@pytest.mark.gpu
@pytest.mark.parametrize("route", ["from_dlpack", "asarray_cai"])
def test_stream_hand_off_torch_to_cuarray(torch, route):
    s = cp.cuda.Stream(non_blocking=True)
    ts = torch.cuda.Stream()
    for _ in range(3):
        with torch.cuda.stream(ts):
            t = torch.zeros(_N, device="cuda")
            for _ in range(50):
                t += 1
            with s:
                x = cp.from_dlpack(t) if route == "from_dlpack" else cp.asarray(t)
                least = float(x.min())
        assert least == 50.0


@pytest.mark.multi_gpu
def test_import_stays_on_the_producers_device(torch):
    t = torch.arange(5, device="cuda:1", dtype=torch.float32)
    with cp.cuda.Device(0):
        for x in (cp.from_dlpack(t), cp.asarray(t)):
            assert x.device.id == 1
            with x.device:
                np.testing.assert_array_equal(x.get(), np.arange(5, dtype=np.float32))
        y = cp.array(t)  # a copy is made on the current device, as for cuarray arrays
        assert y.device.id == 0
        np.testing.assert_array_equal(y.get(), np.arange(5, dtype=np.float32))


@pytest.mark.gpu
def test_asarray_copy_and_dtype_on_foreign_arrays(torch):
    t = torch.arange(6, device="cuda", dtype=torch.int32)
    x = cp.array(t)
    assert x.data.ptr != t.data_ptr()
    y = cp.asarray(t, dtype=np.float64)
    assert y.dtype == np.float64
    np.testing.assert_array_equal(y.get(), np.arange(6.0))
    z = cp.array(t, copy=False, ndmin=3)
    assert z.shape == (1, 1, 6) and z.data.ptr == t.data_ptr()


# ---- CuPy ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cupy():
    cupy = pytest.importorskip("cupy")
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("CuPy sees no CUDA device")
    except Exception as e:  # noqa: BLE001 - CuPy's own CUDA errors
        pytest.skip(f"CuPy cannot use the GPU: {e}")
    return cupy


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
@pytest.mark.parametrize("route", ["asarray_cai", "from_dlpack"])
def test_cupy_from_cuarray(cupy, route, layout, dtype):
    x, a = make_pair(layout, dtype)
    c = cupy.asarray(x) if route == "asarray_cai" else cupy.from_dlpack(x)
    assert c.shape == a.shape and c.dtype == a.dtype
    if a.size:
        assert c.data.ptr == x.data.ptr
        assert [s for s, n in zip(c.strides, c.shape) if n > 1] == [
            s for s, n in zip(x.strides, x.shape) if n > 1
        ]
    np.testing.assert_array_equal(cupy.asnumpy(c), a)
    if a.size:
        c[...] = 0
        assert not x.any()


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
@pytest.mark.parametrize("route", ["asarray_cai", "from_dlpack"])
def test_cuarray_from_cupy(cupy, route, layout, dtype):
    shape, view = LAYOUTS[layout]
    base = make_data(shape, dtype)
    c, a = view(cupy.asarray(base)), view(base)
    x = cp.asarray(c) if route == "asarray_cai" else cp.from_dlpack(c)
    assert x.shape == a.shape and x.dtype == a.dtype
    if a.size:
        assert x.data.ptr == c.data.ptr
        assert x.strides == c.strides
    np.testing.assert_array_equal(x.get(), a)
    if a.size:
        x[...] = 0
        assert not c.any()


@pytest.mark.gpu
def test_cupy_array_deleted_before_the_view(cupy):
    c = cupy.arange(1 << 20, dtype=cupy.float32)
    x = cp.asarray(c)[::-1]
    y = cp.from_dlpack(c)[5:]
    del c
    gc.collect()
    cupy.get_default_memory_pool().free_all_blocks()
    junk = [cupy.full(1 << 20, -1.0, dtype=cupy.float32) for _ in range(4)]
    np.testing.assert_array_equal(x.get(), np.arange(1 << 20, dtype=np.float32)[::-1])
    np.testing.assert_array_equal(y.get(), np.arange(5, 1 << 20, dtype=np.float32))
    del junk


@pytest.mark.gpu
def test_asarray_of_a_cupy_void_array(cupy):
    c = cupy.asarray(np.frombuffer(np.arange(3, dtype=np.int64).tobytes(), "V8"))
    x = cp.asarray(c)
    assert x.dtype == np.dtype("V8") and x.data.ptr == c.data.ptr
    assert x.get().tobytes() == np.arange(3, dtype=np.int64).tobytes()


@pytest.mark.gpu
def test_stream_hand_off_cuarray_to_cupy(cupy):
    s = cp.cuda.Stream(non_blocking=True)
    cs = cupy.cuda.Stream(non_blocking=True)
    for route in ("asarray_cai", "from_dlpack"):
        with s:
            x = cp.zeros(_N, dtype=np.float32)
            _slow_fill(x, 50)
            with cs:  # CuPy waits on the CAI stream, or passes cs to __dlpack__
                c = cupy.asarray(x) if route == "asarray_cai" else cupy.from_dlpack(x)
                least = float(c.min())
        assert least == 50.0, route


# ---- Numba --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def numba_cuda():
    numba = pytest.importorskip("numba")
    from numba import cuda

    if not cuda.is_available():
        pytest.skip("Numba sees no CUDA device")
    return numba.cuda


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_numba_from_cuarray(numba_cuda, layout, dtype):
    x, a = make_pair(layout, dtype)
    d = numba_cuda.as_cuda_array(x)
    assert d.shape == a.shape and d.dtype == a.dtype
    if a.size:
        assert d.device_ctypes_pointer.value == x.data.ptr
        assert d.strides == x.strides
    if a.flags.c_contiguous or a.flags.f_contiguous:
        np.testing.assert_array_equal(d.copy_to_host(), a)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_cuarray_from_numba(numba_cuda, dtype):
    a = make_data((5, 4), dtype)
    d = numba_cuda.to_device(a)
    # Numba's d.T compiles a copy kernel; a transposed view over the same memory needs none.
    transposed = numba_cuda.cudadrv.devicearray.DeviceNDArray(
        a.T.shape, a.T.strides, a.dtype, gpu_data=d.gpu_data
    )
    for view, expected in [(d, a), (d[1::2, ::-1], a[1::2, ::-1]), (transposed, a.T), (d[3], a[3])]:
        x = cp.asarray(view)
        assert x.data.ptr == view.device_ctypes_pointer.value
        assert x.strides == view.strides
        np.testing.assert_array_equal(x.get(), expected)
    x = cp.asarray(d)
    x[...] = 0
    assert not d.copy_to_host().any()
    del d
    gc.collect()
    np.testing.assert_array_equal(x.get(), np.zeros_like(a))


# ---- JAX ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def jax():
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # leave the GPU's memory to the others
    jax = pytest.importorskip("jax")
    try:
        jax.devices("gpu")
    except RuntimeError as e:
        pytest.skip(f"JAX has no GPU: {e}")
    return jax


# JAX's default (32-bit) types; 64-bit ones need jax_enable_x64, which would change the process for others.
JAX_DTYPES = [
    np.dtype(n) for n in ("bool", "int8", "int32", "uint8", "uint32", "float16", "float32", "complex64")
]


def _jax_pointer(j):
    return j.unsafe_buffer_pointer()


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", JAX_DTYPES, ids=dtype_id)
def test_jax_from_cuarray(jax, dtype):
    x, a = make_pair("c2d", dtype)
    j = jax.numpy.from_dlpack(x)
    assert j.shape == a.shape and j.dtype == a.dtype
    assert _jax_pointer(j) == x.data.ptr
    np.testing.assert_array_equal(np.asarray(j), a)
    del x
    gc.collect()
    junk = [cp.full(a.shape, 0, dtype=dtype) for _ in range(4)]
    np.testing.assert_array_equal(np.asarray(j), a)  # the capsule keeps the memory alive
    del junk


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", JAX_DTYPES, ids=dtype_id)
def test_cuarray_from_jax(jax, dtype):
    a = make_data((3, 8), dtype)
    j = jax.device_put(a, jax.devices("gpu")[0])
    x = cp.from_dlpack(j)
    assert x.shape == a.shape and x.dtype == a.dtype and x.flags.c_contiguous
    assert x.data.ptr == _jax_pointer(j)
    np.testing.assert_array_equal(x.get(), a)
    del j
    gc.collect()
    np.testing.assert_array_equal(x.get(), a)


@pytest.mark.gpu
def test_jax_bfloat16(jax):
    a = make_data((4, 4), np.float32).astype(jax.numpy.bfloat16)
    x = cp.asarray(a)
    j = jax.numpy.from_dlpack(x)
    assert j.dtype == jax.numpy.bfloat16
    np.testing.assert_array_equal(np.asarray(j).astype(np.float32), a.astype(np.float32))
    y = cp.from_dlpack(j + 1)
    np.testing.assert_array_equal(y.get().astype(np.float32), a.astype(np.float32) + 1)
