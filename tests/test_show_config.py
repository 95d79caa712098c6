"""cuarray.show_config(): every row a bug report needs, with and without a driver, device or library."""

import os

import cuarray
import numpy as np
import pytest
from cuarray import _core, _cuda_libs, cuda


def rows(capsys):
    """The printed rows as {key: value}; every line is one `key : value` row."""
    cuarray.show_config()
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(" : " in line for line in lines), lines
    table = dict(line.split(" : ", 1) for line in lines)
    assert len(table) == len(lines), "a key is printed twice"
    return {k.rstrip(): v for k, v in table.items()}


def test_versions_and_paths(capsys):
    r = rows(capsys)
    assert r["cuarray Version"] == cuarray.__version__
    assert r["cuarray Location"] == os.path.dirname(cuarray.__file__)
    assert r["cuarray Extension"] == _core.__file__
    assert r["NumPy Version"] == np.__version__
    assert r["Python Version"].startswith("3.")
    runtime = cuda.runtime.runtimeGetVersion()
    assert (
        r["CUDA Runtime Version"]
        == f"{runtime // 1000}.{runtime % 1000 // 10} ({runtime}, linked statically)"
    )
    assert r["Kernel Cache Directory"] == _core.jit.cache_dir()
    assert r["cuRAND"].startswith("not used")


def test_nvrtc_and_libraries(capsys):
    """Where the toolkit is installed (as where the tests run), each library reports its file and version."""
    r = rows(capsys)
    nvrtc = _core.jit.nvrtc_version()
    assert r["NVRTC Version"] == f"{nvrtc // 1000}.{nvrtc % 1000 // 10}"
    path = r["NVRTC Path"].split(" (found by cuda-pathfinder: ")[0]
    assert os.path.basename(path).startswith("libnvrtc.so") and os.path.isfile(path)
    for lib in _core.libraries.probe():
        assert set(lib) == {"name", "stem", "file", "path", "version", "error"}
        value = r[lib["name"]]
        if lib["path"]:
            v = lib["version"]
            assert (
                value
                == f"{v // 10000}.{v // 100 % 100}.{v % 100} ({_cuda_libs.origin(lib['stem'], lib['path'])})"
            )
            assert os.path.basename(lib["path"]).startswith(lib["file"]) and v > 0 and not lib["error"]
        else:
            assert value.startswith(f"{lib['file']} does not load (") and lib["error"]
    assert [lib["name"] for lib in _core.libraries.probe()] == ["cuBLAS", "cuSOLVER", "cuFFT"]


def test_missing_pieces_are_reported_not_raised(capsys, monkeypatch):
    def fail(*args):
        raise cuda.CUDARuntimeError(0, "NVRTC (libnvrtc.so) was not found")

    monkeypatch.setattr(_core.jit, "nvrtc_version", fail)
    monkeypatch.setattr(_core.jit, "nvrtc_path", fail)
    monkeypatch.setattr(
        _core.libraries,
        "probe",
        lambda: [
            {
                "name": "cuBLAS",
                "stem": "cublas",
                "file": "libcublas.so.13",
                "path": "",
                "version": 0,
                "error": "cannot open shared file",
            }
        ],
    )
    monkeypatch.setattr(cuda.runtime, "driverGetVersion", fail)
    r = rows(capsys)
    assert r["NVRTC Version"] == "unavailable (CUDARuntimeError: NVRTC (libnvrtc.so) was not found)"
    assert r["NVRTC Path"].startswith("unavailable (")
    assert r["cuBLAS"] == "libcublas.so.13 does not load (cannot open shared file)"
    assert r["CUDA Driver Version"].startswith("unavailable (")


def test_environment(capsys, monkeypatch):
    for name in list(os.environ):
        if name.startswith("CUARRAY_") or name in (
            "CUPY_SEED",
            "CUPY_TF32",
            "CUDA_PATH",
            "CUDA_HOME",
            "LD_LIBRARY_PATH",
            "CONDA_PREFIX",
            "CUDA_VISIBLE_DEVICES",
        ):
            monkeypatch.delenv(name)
    assert rows(capsys)["Environment"].startswith("no CUARRAY_*")
    monkeypatch.setenv("CUARRAY_SEED", "7")
    monkeypatch.setenv("CUPY_TF32", "1")
    monkeypatch.setenv("CUDA_PATH", "/opt/cuda")
    monkeypatch.setenv("UNRELATED", "x")
    r = rows(capsys)
    assert r["$CUARRAY_SEED"] == "7" and r["$CUPY_TF32"] == "1" and r["$CUDA_PATH"] == "/opt/cuda"
    assert "Environment" not in r and "$UNRELATED" not in r


@pytest.mark.nogpu
def test_without_a_device(capsys):
    r = rows(capsys)
    assert r["Devices"] == "no CUDA driver or device"
    assert r["CUDA Driver Version"] == "no driver" or r["CUDA Driver Version"][0].isdigit()


def test_device_rows(capsys, monkeypatch):
    """The layout of the device rows, from properties given here (no device needed)."""
    props = {
        "name": b"NVIDIA H100 80GB HBM3",
        "major": 9,
        "minor": 0,
        "totalGlobalMem": 85 * 2**30,
        "pciDomainID": 0,
        "pciBusID": 0x1E,
        "pciDeviceID": 0,
    }

    def properties(i):
        if i == 1:
            raise cuda.CUDARuntimeError(1, "cudaGetDeviceProperties failed")
        return props

    monkeypatch.setattr(cuda, "is_available", lambda: True)
    monkeypatch.setattr(cuda.runtime, "getDeviceCount", lambda: 2)
    monkeypatch.setattr(cuda.runtime, "getDeviceProperties", properties)
    r = rows(capsys)
    assert r["Device Count"] == "2"
    assert r["Device 0 Name"] == "NVIDIA H100 80GB HBM3"
    assert r["Device 0 Compute Capability"] == "9.0 (sm_90)"
    assert r["Device 0 Memory"] == "85.0 GiB"
    assert r["Device 0 PCI Bus ID"] == "0000:1e:00.0"
    assert r["Device 1"] == "unavailable (CUDARuntimeError: cudaGetDeviceProperties failed)"


@pytest.mark.gpu
def test_with_devices(capsys):
    r = rows(capsys)
    count = cuda.runtime.getDeviceCount()
    assert r["Device Count"] == str(count) and r["CUDA Driver Version"][0].isdigit()
    for i in range(count):
        p = cuda.runtime.getDeviceProperties(i)
        assert r[f"Device {i} Name"] == p["name"].decode()
        assert r[f"Device {i} Compute Capability"].startswith(f"{p['major']}.{p['minor']} ")
        assert r[f"Device {i} Memory"].endswith(" GiB")


def test_show_config_is_top_level():
    assert cuarray.show_config is cuarray._config.show_config
    assert cuarray.show_config.__module__ == "cuarray._config"
