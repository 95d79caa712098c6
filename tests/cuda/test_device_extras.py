"""Device.pci_bus_id, Device.from_pci_bus_id, Device.attributes, cuda.get_cublas_handle, memoize and clear_memo,
and cuarray.who, errstate and allow_synchronize."""

import re

import cuarray as cp
import numpy as np
import pytest

gpu = pytest.mark.gpu


def test_from_pci_bus_id_takes_a_string():
    with pytest.raises(TypeError, match="str"):
        cp.cuda.Device.from_pci_bus_id(0)


# CuPy 14.2 names these six (CUDA 12's names; 92 to 94 are reserved numbers it asks for all the same).
CUPY_ONLY_ATTRIBUTES = {
    "Reserved92": 92,
    "Reserved93": 93,
    "Reserved94": 94,
    "CooperativeMultiDeviceLaunch": 96,
    "ReservedSharedMemoryPerBlock": 111,
    "MaxTimelineSemaphoreInteropSupported": 114,
}


def test_runtime_names_cupys_attributes():
    for name, number in CUPY_ONLY_ATTRIBUTES.items():
        assert getattr(cp.cuda.runtime, "cudaDevAttr" + name) == number
    assert cp.cuda.runtime.cudaDevAttrTimelineSemaphoreInteropSupported == 114  # CUDA 13's name stays


def test_memoize_and_clear_memo():
    calls = []

    @cp.memoize()
    def square(x, *, plus=0):
        calls.append(x)
        return x * x + plus

    assert square(3) == 9 and square(3) == 9 and calls == [3]
    assert square(3, plus=1) == 10 and calls == [3, 3]
    cp.clear_memo()
    assert square(3) == 9 and calls == [3, 3, 3]
    assert cp.cuda.memoize is cp.memoize and cp.cuda.clear_memo is cp.clear_memo


def test_errstate_checks_its_arguments_and_changes_nothing():
    with cp.errstate(divide="ignore", invalid="raise", linalg="raise") as state:
        assert state.kwargs == {"divide": "ignore", "invalid": "raise", "linalg": "raise"}
    with pytest.raises(ValueError, match="divide"):
        cp.errstate(divide="loud")
    with pytest.raises(ValueError, match="linalg"):
        cp.errstate(linalg="warn")
    with pytest.raises(TypeError):
        cp.errstate("ignore")

    @cp.errstate(all="ignore")
    def f():
        return 5

    assert f() == 5


def test_allow_synchronize():
    with cp.allow_synchronize(False):
        pass
    with pytest.raises(TypeError, match="bool"), cp.allow_synchronize("no"):
        pass


def test_who_without_arrays(capsys):
    cp.who({"x": 1, "y": np.ones(3)})
    assert capsys.readouterr().out == "\nUpper bound on total bytes  =       0\n"


@gpu
def test_who_lists_arrays(capsys):
    a = cp.arange(10, dtype=np.int64)
    b = cp.ones((2, 3), np.float32)
    cp.who({"b": b, "a": a, "same": a, "n": np.ones(2)})
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"Name +Shape +Bytes +Type", lines[0])
    assert set(lines[1]) == {"="}
    rows = [line.split() for line in lines[3:6]]
    assert rows == [
        ["a", "10", "80", "int64"],
        ["b", "2", "x", "3", "24", "float32"],
        ["same", "(a)", "10", "80", "int64"],
    ]
    assert lines[-1] == "Upper bound on total bytes  =       104"


@gpu
def test_pci_bus_id_round_trip():
    d = cp.cuda.Device(0)
    bus = d.pci_bus_id
    assert re.fullmatch(r"[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f]", bus)
    assert cp.cuda.Device.from_pci_bus_id(bus) == d
    props = cp.cuda.runtime.getDeviceProperties(0)
    assert int(bus.split(":")[1], 16) == props["pciBusID"]
    with pytest.raises(cp.cuda.CUDARuntimeError):
        cp.cuda.Device.from_pci_bus_id("not a bus id")


@gpu
def test_attributes():
    attrs = cp.cuda.Device(0).attributes
    props = cp.cuda.runtime.getDeviceProperties(0)
    assert attrs["MaxThreadsPerBlock"] == props["maxThreadsPerBlock"]
    assert attrs["MultiProcessorCount"] == props["multiProcessorCount"]
    assert attrs["ComputeCapabilityMajor"] == props["major"]
    assert attrs["WarpSize"] == 32
    assert all(isinstance(k, str) and isinstance(v, int) for k, v in attrs.items())
    assert len(attrs) > 80
    # The keys CuPy 14.2's dict has on an H200, with cudaDeviceGetAttribute's values.
    assert set(CUPY_ONLY_ATTRIBUTES) <= set(attrs)
    for name, number in CUPY_ONLY_ATTRIBUTES.items():
        assert attrs[name] == cp.cuda.runtime.deviceGetAttribute(number, 0)
    assert attrs["MaxTimelineSemaphoreInteropSupported"] == attrs["TimelineSemaphoreInteropSupported"]
    assert attrs["ReservedSharedMemoryPerBlock"] >= 0


@gpu
def test_cublas_handle():
    h = cp.cuda.get_cublas_handle()
    assert isinstance(h, int) and h != 0
    assert cp.cuda.get_cublas_handle() == h  # one per thread and device
    assert cp.cuda.Device().cublas_handle == h


# ---- CuPy's argument handling of the cuda objects (a probe of both libraries in one process found these) ----


@pytest.mark.parametrize("given, device_id", [("0", 0), (0.0, 0), (True, 1), (np.int64(2), 2)], ids=repr)
def test_device_reads_its_id_as_cupys_int(given, device_id):
    assert cp.cuda.Device(given).id == device_id  # no device is touched


def test_interprocess_event_with_timing_is_cupys_value_error():
    with pytest.raises(ValueError, match="Timing must be disabled for interprocess events"):
        cp.cuda.Event(interprocess=True)


@pytest.mark.parametrize("alloc", [lambda n: cp.cuda.alloc(n), lambda n: cp.cuda.alloc_pinned_memory(n)])
def test_negative_sizes_are_cupys_overflow_error(alloc):
    with pytest.raises(OverflowError, match="can't convert negative value to size_t"):
        alloc(-1)


def test_runtime_names_cupy_programs_check():
    assert cp.cuda.runtime.is_hip is False
    assert "get_local_runtime_version" in cp.cuda.__all__
