"""cuarray.cuda.Device and cuarray.cuda.runtime."""

import re
import threading

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same

pytestmark = pytest.mark.gpu

runtime = cp.cuda.runtime


@pytest.fixture(autouse=True)
def restore_device():
    before = runtime.getDevice()
    yield
    runtime.setDevice(before)


def n_devices():
    return runtime.getDeviceCount()


# ---- runtime ------------------------------------------------------------------------------------


def test_get_device_count():
    n = runtime.getDeviceCount()
    assert type(n) is int
    assert n >= 1


def test_get_and_set_device():
    runtime.setDevice(0)
    d = runtime.getDevice()
    assert type(d) is int
    assert d == 0


def test_set_invalid_device_raises():
    before = runtime.getDevice()
    with pytest.raises(cp.cuda.CUDARuntimeError):
        runtime.setDevice(n_devices())
    assert runtime.getDevice() == before


@pytest.mark.parametrize("dev", [0, -1], ids=["first", "last"])
def test_get_device_properties(dev):
    dev = dev % n_devices()
    props = runtime.getDeviceProperties(dev)
    assert isinstance(props, dict)
    assert isinstance(props["name"], bytes) and props["name"].strip()
    for key in ("totalGlobalMem", "multiProcessorCount", "major", "minor"):
        assert isinstance(props[key], int), key
    assert props["totalGlobalMem"] > 0
    assert props["multiProcessorCount"] > 0
    assert props["major"] >= 3
    assert props["minor"] >= 0
    # CuPy 14.2's keys under CUDA 13 (memPitch is cuarray's as well)
    cupy_keys = {"uuid", "luid", "computeMode", "maxBlocksPerMultiProcessor", "persistingL2CacheMaxSize"}
    cupy_keys |= {"maxTexture2D", "maxSurface3D", "cooperativeLaunch", "concurrentManagedAccess", "tccDriver"}
    assert cupy_keys <= set(props) and len(props) >= 79
    assert isinstance(props["uuid"], bytes) and len(props["uuid"]) == 16
    assert isinstance(props["maxTexture3D"], tuple) and len(props["maxTexture3D"]) == 3


def test_driver_and_runtime_versions():
    drv = runtime.driverGetVersion()
    rt = runtime.runtimeGetVersion()
    for v in (drv, rt):
        assert type(v) is int
        assert v >= 1000  # 1000 * major + 10 * minor, e.g. 12040


# ---- Device -------------------------------------------------------------------------------------


def test_device_id_and_current():
    d = cp.cuda.Device(0)
    assert d.id == 0
    assert type(d.id) is int
    runtime.setDevice(0)
    assert cp.cuda.Device().id == 0


def test_device_repr_and_str():
    d = cp.cuda.Device(0)
    assert repr(d) == "<CUDA Device 0>"
    assert str(d) == "<CUDA Device 0>"


def test_compute_capability():
    for i in range(n_devices()):
        props = runtime.getDeviceProperties(i)
        cc = cp.cuda.Device(i).compute_capability
        assert isinstance(cc, str)
        assert cc == f"{props['major']}{props['minor']}"


def test_mem_info():
    free, total = cp.cuda.Device(0).mem_info
    assert type(free) is int and type(total) is int
    assert 0 < free <= total
    assert total == runtime.getDeviceProperties(0)["totalGlobalMem"]


def test_use_makes_device_current():
    cp.cuda.Device(0).use()
    assert runtime.getDevice() == 0
    assert cp.cuda.Device().id == 0
    x = cp.arange(3)
    assert x.device.id == 0


def test_context_manager_returns_device_and_restores():
    runtime.setDevice(0)
    with cp.cuda.Device(0) as d:
        assert isinstance(d, cp.cuda.Device)
        assert d.id == 0
        assert runtime.getDevice() == 0
    assert runtime.getDevice() == 0


def test_context_manager_restores_after_exception():
    runtime.setDevice(0)
    with pytest.raises(KeyError), cp.cuda.Device(n_devices() - 1):
        raise KeyError("boom")
    assert runtime.getDevice() == 0


def test_synchronize_after_work():
    a = np.arange(1 << 20, dtype=np.float32)
    x = cp.asarray(a)
    y = x[::-1].copy()
    assert cp.cuda.Device().synchronize() is None
    assert_same(y, a[::-1])


@pytest.mark.parametrize("bad", [99, "count"])
def test_invalid_ordinal(bad):
    n = n_devices()
    bad = n if bad == "count" else bad
    before = runtime.getDevice()
    with pytest.raises(cp.cuda.CUDARuntimeError) as ei:
        cp.cuda.Device(bad).use()
    msg = str(ei.value)
    assert re.search(rf"\b{bad}\b", msg), msg
    assert re.search(rf"\b{n}\b", msg), f"message does not give the number of devices ({n}): {msg}"
    # The failure changed nothing.
    assert runtime.getDevice() == before
    assert_same(cp.arange(3), np.arange(3))


def test_invalid_ordinal_raises_at_construction_or_use():
    # Device(99) must fail no later than its first use; a `with` block is a use.
    with pytest.raises(cp.cuda.CUDARuntimeError, match=r"\b99\b"), cp.cuda.Device(99):
        pass


def test_array_device_attribute():
    x = cp.zeros(4)
    assert isinstance(x.device, cp.cuda.Device)
    assert x.device.id == cp.cuda.Device().id
    assert repr(x.device) == f"<CUDA Device {x.device.id}>"
    v = x[1:]
    assert v.device.id == x.device.id


def test_current_device_seen_by_new_thread_is_default():
    seen = {}

    def worker():
        seen["id"] = cp.cuda.Device().id
        seen["x"] = cp.asnumpy(cp.arange(4))

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen["id"] == 0
    np.testing.assert_array_equal(seen["x"], np.arange(4))


# ---- several devices ----------------------------------------------------------------------------


@pytest.mark.multi_gpu
def test_use_and_arrays_follow_current_device():
    cp.cuda.Device(1).use()
    assert runtime.getDevice() == 1
    assert cp.cuda.Device().id == 1
    x = cp.array([1, 2, 3, 4, 5])
    assert x.device.id == 1
    assert repr(x.device) == "<CUDA Device 1>"
    assert_same(x, np.array([1, 2, 3, 4, 5]))
    cp.cuda.Device(0).use()
    y = cp.arange(3)
    assert y.device.id == 0
    assert x.device.id == 1


@pytest.mark.multi_gpu
def test_context_manager_restores_previous_device():
    runtime.setDevice(1)
    with cp.cuda.Device(0):
        assert runtime.getDevice() == 0
        x = cp.arange(5)
        with cp.cuda.Device(1):
            assert runtime.getDevice() == 1
            y = cp.arange(5)
        assert runtime.getDevice() == 0
    assert runtime.getDevice() == 1
    assert x.device.id == 0 and y.device.id == 1
    assert_same(x, np.arange(5))
    assert_same(y, np.arange(5))


@pytest.mark.multi_gpu
def test_same_device_entered_by_two_threads_left_in_the_other_order():
    d0 = cp.cuda.Device(0)
    steps = [threading.Event() for _ in range(3)]
    seen, errors = {}, []

    def other_thread():
        try:
            runtime.setDevice(1)  # this thread's device before the block
            d0.__enter__()
            steps[0].set()
            assert steps[1].wait(10)  # the main thread has entered too
            d0.__exit__(None, None, None)  # leaves first
            seen["other"] = runtime.getDevice()
            steps[2].set()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
            for s in steps:
                s.set()

    runtime.setDevice(0)
    t = threading.Thread(target=other_thread)
    t.start()
    assert steps[0].wait(10)
    with d0:
        steps[1].set()
        assert steps[2].wait(10)
        assert runtime.getDevice() == 0
    assert runtime.getDevice() == 0  # its own previous device, not the other thread's
    t.join()
    assert not errors, errors
    assert seen == {"other": 1}


@pytest.mark.multi_gpu
def test_current_device_is_per_thread():
    runtime.setDevice(0)
    ready, go_on = threading.Event(), threading.Event()
    seen = {}

    def worker():
        seen["start"] = runtime.getDevice()
        cp.cuda.Device(1).use()
        seen["after_use"] = runtime.getDevice()
        seen["x_dev"] = cp.arange(3).device.id
        ready.set()
        go_on.wait(10)
        seen["end"] = runtime.getDevice()

    t = threading.Thread(target=worker)
    t.start()
    assert ready.wait(10)
    assert runtime.getDevice() == 0  # the other thread's use() did not change ours
    assert cp.arange(3).device.id == 0
    go_on.set()
    t.join()
    assert seen == {"start": 0, "after_use": 1, "x_dev": 1, "end": 1}


@pytest.mark.multi_gpu
def test_each_device_has_its_own_properties():
    for i in range(n_devices()):
        d = cp.cuda.Device(i)
        assert d.id == i
        assert repr(d) == f"<CUDA Device {i}>"
        free, total = d.mem_info
        assert 0 < free <= total
        assert total == runtime.getDeviceProperties(i)["totalGlobalMem"]
