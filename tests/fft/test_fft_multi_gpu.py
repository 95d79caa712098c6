"""Multi-GPU cuFFT (CuPy's cupy.fft.config.use_multi_gpus / set_cufft_gpus and Plan1d(..., devices=)): the
switches and the plan's argument checks without a GPU; on two GPUs, 1-D complex transforms against NumPy, the
plan's devices and work areas, its place in every device's cache, and CuPy's errors."""

import contextlib
import contextvars
import gc
import os
import threading

import cuarray as cp
import numpy as np
import pytest
from conftest import describe, make_data, run_python
from cuarray.cuda import cufft
from cuarray.fft import config
from cuarray.scipy import fftpack

multi_gpu = pytest.mark.multi_gpu
GPU_ORDERS = [[0, 1], [1, 0]]


@contextlib.contextmanager
def gpus(devices):
    """Multi-GPU transforms over `devices` in this context, restored afterwards."""
    used, chosen = config._use_multi_gpus.get(), config._devices.get()
    config.use_multi_gpus = True
    config.set_cufft_gpus(devices)
    try:
        yield
    finally:
        config._use_multi_gpus.set(used)
        config._devices.set(chosen)


@pytest.fixture
def caches():
    """The caches of devices 0 and 1 of this thread, emptied, with room for two plans; restored afterwards."""
    got = []
    for d in (0, 1):
        with cp.cuda.Device(d):
            c = config.get_plan_cache()
            got.append((c, c.get_size()))
            c.clear()
            c.set_memsize(-1)
            c.set_size(2)
    yield [c for c, _ in got]
    for c, size in got:
        c.clear()
        c.set_size(size)
        c.set_memsize(-1)


def assert_close(got, expected):
    __tracebackhide__ = True
    assert isinstance(got, cp.ndarray)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    tol = 2e-5 if expected.dtype == np.complex64 else 1e-11
    scale = max(1.0, float(np.abs(expected).max()) if expected.size else 1.0)
    np.testing.assert_allclose(cp.asnumpy(got), expected, rtol=0, atol=tol * scale)


# ------------------------------------------------------------------------------------------------
# The switches and the plan's checks (no device needed)
# ------------------------------------------------------------------------------------------------


def test_switches_are_cupys_and_per_context():
    def run():
        assert config.use_multi_gpus is False and config.devices is None
        config.set_cufft_gpus(2)
        assert config._devices.get() == (0, 1) and config.devices is None  # not used until switched on
        config.use_multi_gpus = 1
        assert config.use_multi_gpus is True and config.devices == (0, 1)
        config.set_cufft_gpus([1, 0])
        assert config.devices == (1, 0)
        config.set_cufft_gpus((2, 3, 0))
        assert config.devices == (2, 3, 0)
        for bad, match in [
            (1, "at least 2"),
            ([0], "at least 2"),
            ([], "at least 2"),
            ("01", "int or a list"),
        ]:
            with pytest.raises(ValueError, match=match):
                config.set_cufft_gpus(bad)
        assert config.devices == (2, 3, 0)
        seen = []
        t = threading.Thread(target=lambda: seen.append((config.use_multi_gpus, config.devices)))
        t.start()
        t.join()
        assert seen == [(False, None)]  # a new thread starts from the defaults, as CuPy's context variables
        config.use_multi_gpus = False
        assert config.devices is None

    contextvars.copy_context().run(run)
    assert config.use_multi_gpus is False and config.devices is None


@pytest.mark.parametrize(
    "nx, fft_type, batch, devices, match",
    [
        (64, cufft.CUFFT_R2C, 1, [0, 1], "only C2C and Z2Z"),
        (64, cufft.CUFFT_D2Z, 4, [0, 1], "only C2C and Z2Z"),
        (64, cufft.CUFFT_C2R, 4, "01", "only C2C and Z2Z"),  # CuPy checks the type first
        (64, cufft.CUFFT_C2C, 1, "01", "should be an int or an iterable of int"),
        (64, cufft.CUFFT_C2C, 1, [0, 1.0], "should be an int or an iterable of int"),
        (64, cufft.CUFFT_C2C, 1, [0], "at least 2 GPUs"),
        (64, cufft.CUFFT_Z2Z, 4, 1, "at least 2 GPUs"),
        (64, cufft.CUFFT_C2C, 4, [1, 1], "distinct"),
        (100, cufft.CUFFT_C2C, 1, [0, 1], "must be a power of 2"),
        (64, cufft.CUFFT_C2C, 1, 3, r"must be 2, 4, 8, or 16"),
        (32, cufft.CUFFT_Z2Z, 1, [0, 1], r"For 2 GPUs, the array length must be at least 64 \(you have 32\)"),
        (64, cufft.CUFFT_C2C, 1, list(range(8)), r"For 8 GPUs, the array length must be at least 128"),
        (512, cufft.CUFFT_C2C, 1, 16, r"For 16 GPUs, the array length must be at least 1024"),
    ],
)
def test_plan1d_devices_checked_before_the_device(nx, fft_type, batch, devices, match):
    with pytest.raises(ValueError, match=match):
        cufft.Plan1d(nx, fft_type, batch, devices=devices)


def test_cache_takes_keys_with_devices():
    c = config.get_plan_cache()
    if c.get_size() == 0 or c.get_memsize() == 0:
        pytest.skip("the cache is disabled")
    with pytest.raises(KeyError, match="plan not found"):
        c[(cufft.CUFFT_C2C, (64,), 1, (0, 1))]
    assert c.get((cufft.CUFFT_C2C, (64,), 1, (0, 1))) is None
    with pytest.raises(KeyError, match="plan not found"):
        del c[(cufft.CUFFT_C2C, (64,), 1, (0, 1))]
    with pytest.raises(TypeError, match="devices"):
        c[(cufft.CUFFT_C2C, (64,), 1, (0, 1), 5)]


# ------------------------------------------------------------------------------------------------
# Transforms on two GPUs
# ------------------------------------------------------------------------------------------------


@multi_gpu
@pytest.mark.parametrize("devices", GPU_ORDERS)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("func", ["fft", "ifft"])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize(
    "shape, n, axis",
    [
        ((64,), None, -1),  # one transform: spread over the GPUs, its result reordered
        ((1024,), None, -1),
        ((128,), 64, -1),  # cropped to one transform of 64
        ((32,), 64, -1),  # padded to 64
        ((4, 64), None, -1),  # a batch: whole transforms on each GPU
        ((3, 64), 64, -1),  # a batch that does not split evenly
        ((5, 10), None, -1),
        ((10, 10), None, 0),
        ((10, 5, 10), None, 1),
        ((7, 1, 3), None, 1),  # a length-1 axis: the identity, no plan
        ((0, 10), None, -1),  # nothing to transform
    ],
)
def test_fft_ifft_match_numpy(devices, dtype, func, norm, shape, n, axis):
    a = make_data(shape, dtype, 1)
    with gpus(devices):
        got = getattr(cp.fft, func)(cp.asarray(a), n=n, axis=axis, norm=norm)
    assert_close(got, getattr(np.fft, func)(a, n=n, axis=axis, norm=norm))


@multi_gpu
@pytest.mark.parametrize("devices", GPU_ORDERS)
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_layouts_and_strides_match_numpy(devices, order, axis):
    a = np.asarray(make_data((10, 5, 10), "complex128", 2), order=order)
    x = cp.asarray(a)
    with gpus(devices):
        assert_close(cp.fft.fft(x, axis=axis), np.fft.fft(a, axis=axis))
        assert_close(cp.fft.ifft(x[::-2, :, 1::3], axis=axis), np.fft.ifft(a[::-2, :, 1::3], axis=axis))


@multi_gpu
def test_input_on_the_second_gpu_and_the_current_device_is_kept(caches):
    a = make_data((2, 256), "complex64", 3)
    with gpus([0, 1]):
        with cp.cuda.Device(1):
            x = cp.asarray(a)
            got = cp.fft.fft(x)
            assert cp.cuda.runtime.getDevice() == 1 and got.data.device_id == 1
        assert_close(got, np.fft.fft(a))
        assert cp.cuda.runtime.getDevice() == 0
        with cp.cuda.Device(0):
            assert_close(cp.fft.ifft(cp.asarray(a)), np.fft.ifft(a))
        assert cp.cuda.runtime.getDevice() == 0


@multi_gpu
def test_transform_on_a_user_stream_sees_the_input_written_there():
    a = make_data((8, 4096), "complex128", 4)
    with gpus([1, 0]):
        s = cp.cuda.Stream(non_blocking=True)
        with s:
            x = cp.zeros(a.shape, a.dtype)
            x[...] = cp.asarray(a)
            got = cp.fft.fft(x)
            again = cp.fft.ifft(got)
        s.synchronize()
    assert_close(got, np.fft.fft(a))
    assert_close(again, a)


@multi_gpu
def test_real_transforms_are_cupys_value_error_and_nd_ones_keep_one_device(caches):
    a = make_data((4, 64), "complex64", 5)
    x = cp.asarray(a)
    with gpus([0, 1]):
        for call in (lambda: cp.fft.rfft(x.real), lambda: cp.fft.irfft(x), lambda: cp.fft.hfft(x)):
            with pytest.raises(ValueError, match="only C2C and Z2Z"):
                call()
        assert_close(cp.fft.fft2(x), np.fft.fft2(a))  # one plan over two axes, on device 0
        plans = [node.plan for _, node in caches[0]]
        assert plans and all(p.gpus is None for p in plans)
        assert caches[1].get_curr_size() == 0


@multi_gpu
def test_plan_has_its_devices_and_owns_its_work_areas(caches):
    with gpus([1, 0]):
        cp.fft.fft(cp.asarray(make_data((128,), "complex64", 0)))
    plan = next(iter(caches[0]))[1].plan
    assert isinstance(plan, cufft.Plan1d)
    assert plan.gpus == [1, 0] and plan.nx == 128 and plan.batch == 1 and plan.fft_type == cufft.CUFFT_C2C
    assert plan.key == (cufft.CUFFT_C2C, (128,), 1, (1, 0))
    areas = plan.work_area
    assert isinstance(areas, list) and len(areas) == 2
    for dev, area in zip(plan.gpus, areas):
        if area is not None:
            assert area.device_id == dev and area.mem.size >= plan._work_size_on(dev)
    assert plan.work_size == plan._work_size_on(0) + plan._work_size_on(1)
    single = cufft.Plan1d(128, cufft.CUFFT_C2C, 1)
    assert single.gpus is None and single.work_area is None


@multi_gpu
def test_plan_is_in_both_devices_caches_and_leaves_them_together(caches):
    c0, c1 = caches
    with cp.cuda.Device(0):
        cp.fft.fft(cp.asarray(make_data((10,), "complex64", 0)))
    assert (c0.get_curr_size(), c1.get_curr_size()) == (1, 0)
    with gpus([0, 1]):
        cp.fft.fft(cp.asarray(make_data((128,), "complex64", 0)))
    assert (c0.get_curr_size(), c1.get_curr_size()) == (2, 1)
    (k0, n0), (k1, n1) = next(iter(c0)), next(iter(c1))
    assert k0 == k1 and n0.plan is n1.plan and n0.plan.gpus == [0, 1]
    assert n0.memsize == n0.plan._work_size_on(0) and n1.memsize == n0.plan._work_size_on(1)
    assert c1.get_curr_memsize() == n1.memsize > 0
    plan = n0.plan

    with cp.cuda.Device(1):  # device 1's own plans push the multi-GPU plan out of both caches
        cp.fft.fft(cp.asarray(make_data((30,), "complex128", 0)))
        assert next(iter(c1))[1].plan is not plan and next(iter(c0))[1].plan is plan
        with gpus([0, 1]):  # a hit on device 1 makes it the most recent on both
            cp.fft.fft(cp.asarray(make_data((128,), "complex64", 0)))
        assert next(iter(c0))[1].plan is plan and next(iter(c1))[1].plan is plan
        cp.fft.fft(cp.asarray(make_data((30,), "complex128", 0)))
        cp.fft.fftn(cp.asarray(make_data((40, 40), "complex64", 0)))
    assert all(node.plan is not plan for _, node in c0) and all(node.plan is not plan for _, node in c1)
    assert (c0.get_curr_size(), c1.get_curr_size()) == (1, 2)

    with gpus([0, 1]):
        cp.fft.fft(cp.asarray(make_data((128,), "complex64", 0)))
    key = next(iter(c1))[0]
    del c1[key]  # deleting it from one cache deletes it from both
    assert all(k != key for k, _ in c0) and c1.get_curr_memsize() == sum(n.memsize for _, n in c1)


@multi_gpu
@pytest.mark.parametrize("devices", GPU_ORDERS)
def test_plan_too_large_for_one_cache_is_cached_nowhere(caches, devices):
    caches[1].set_memsize(1)
    with gpus(devices), pytest.raises(RuntimeError, match="plan memsize is too large for device 1"):
        cp.fft.fft(cp.asarray(make_data((128,), "complex64", 0)))
    assert caches[0].get_curr_size() == 0 and caches[1].get_curr_size() == 0


@multi_gpu
def test_plans_from_get_fft_plan_and_cupys_plan_errors():
    a = make_data((128,), "complex128", 6)
    x = cp.asarray(a)
    with gpus([0, 1]):
        plan = fftpack.get_fft_plan(x, shape=(64,))
        assert isinstance(plan, cufft.Plan1d) and plan.gpus == [0, 1]
        with plan:
            assert_close(cp.fft.fft(x, n=64), np.fft.fft(a, n=64))
        wrong = fftpack.get_fft_plan(cp.asarray(make_data((256,), "complex128", 0)))
        with pytest.raises(ValueError, match="Target array size does not match the plan."), wrong:
            cp.fft.fft(x)
        single = cufft.Plan1d(128, cufft.CUFFT_Z2Z, 1)
        with pytest.raises(ValueError, match="Unclear if multiple GPUs are to be used or not."), single:
            cp.fft.fft(x)
    with pytest.raises(ValueError, match="Unclear if multiple GPUs are to be used or not."):
        fftpack.fft(x, plan=cufft.Plan1d(128, cufft.CUFFT_Z2Z, 1, devices=[0, 1]))
    direct = cufft.Plan1d(128, cufft.CUFFT_Z2Z, 1, devices=2)
    with gpus([1, 0]), direct:  # the plan's devices are used, whatever the switches name
        assert_close(cp.fft.ifft(x), np.fft.ifft(a))


@multi_gpu
def test_plans_freed_and_threads_sharing_one():
    a = make_data((6, 512), "complex64", 7)
    plan = cufft.Plan1d(512, cufft.CUFFT_C2C, 6, devices=[0, 1])
    errors, results = [], []

    def run(plan):
        try:
            with gpus([0, 1]), plan:
                for _ in range(5):
                    results.append(cp.asnumpy(cp.fft.fft(cp.asarray(a))))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(plan,)) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 15
    for r in results:
        np.testing.assert_allclose(r, np.fft.fft(a), rtol=0, atol=2e-5 * np.abs(np.fft.fft(a)).max())
    del plan
    gc.collect()
    assert cp.cuda.runtime.getDevice() == 0


@multi_gpu
@pytest.mark.skipif(
    bool(os.environ.get("PYTEST_XDIST_WORKER")),
    reason="reads the GPUs' free memory, which other test processes change: run it without -n",
)
@pytest.mark.parametrize("devices", GPU_ORDERS)
def test_dropped_plan_frees_its_memory_on_every_device(devices):
    def free():
        out = []
        for d in (0, 1):
            with cp.cuda.Device(d):
                out.append(cp.cuda.runtime.memGetInfo()[0])
        return out

    plan = cufft.Plan1d(1 << 22, cufft.CUFFT_Z2Z, 4, devices=devices)  # 256 MiB of buffers over two GPUs
    held = free()
    del plan
    gc.collect()
    assert all(after - before >= 100 << 20 for before, after in zip(held, free()))
    assert cp.cuda.runtime.getDevice() == 0


@multi_gpu
def test_interpreter_exit_with_cached_and_held_plans():
    code = """
import cuarray as cp
from cuarray.cuda import cufft
from cuarray.fft import config
config.use_multi_gpus = True
config.set_cufft_gpus([1, 0])
x = cp.arange(4 * 64, dtype=cp.complex64).reshape(4, 64)
y = cp.fft.fft(x)
held = cufft.Plan1d(128, cufft.CUFFT_Z2Z, 1, devices=[0, 1])
print(float(abs(y).sum()) > 0)
"""
    proc = run_python(code=code, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "True", describe(proc)
