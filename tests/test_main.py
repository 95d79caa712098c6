"""`python -m cuarray` on a machine with a GPU (the no-GPU case is in test_no_gpu.py)."""

import re

import cuarray as cp
import pytest
from conftest import describe, run_python

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    cache_dir = tmp_path_factory.mktemp("main_cache") / "kernels"
    proc = run_python("-m", "cuarray", env={"CUARRAY_CACHE_DIR": cache_dir}, timeout=300)
    return proc, cache_dir


def test_exits_0(report):
    proc, _ = report
    assert proc.returncode == 0, describe(proc)
    assert "Traceback" not in proc.stdout + proc.stderr


def test_lists_every_gpu_with_memory_and_compute_capability(report):
    proc, _ = report
    out = proc.stdout
    for i in range(cp.cuda.runtime.getDeviceCount()):
        props = cp.cuda.runtime.getDeviceProperties(i)
        name = props["name"].decode()
        assert name in out, f"device {i} ({name}) not listed:\n{out}"
        cc = cp.cuda.Device(i).compute_capability
        assert (f"{props['major']}.{props['minor']}" in out) or (cc in out), out
    assert re.search(r"\d\s*(GiB|GB|MiB|MB)\b", out), f"no memory size in:\n{out}"


def test_prints_versions(report):
    proc, _ = report
    low = proc.stdout.lower()
    for word in ("driver", "runtime", "nvrtc"):
        assert word in low, f"{word!r} missing from:\n{proc.stdout}"


def test_prints_cache_directory(report):
    proc, cache_dir = report
    assert str(cache_dir) in proc.stdout or str(cache_dir.resolve()) in proc.stdout, proc.stdout


def test_runs_self_check_against_numpy(report):
    proc, _ = report
    assert "numpy" in proc.stdout.lower(), proc.stdout


def test_prints_where_each_library_loads_from(report):
    proc, _ = report
    lines = proc.stdout.splitlines()
    start = lines.index("CUDA libraries:")
    rows = {line.split()[0]: line.split()[1] for line in lines[start + 1 : start + 5]}
    assert sorted(rows) == ["NVRTC", "cuBLAS", "cuFFT", "cuSOLVER"], proc.stdout
    for name, path in rows.items():
        stem = {
            "NVRTC": "libnvrtc.so",
            "cuBLAS": "libcublas.so",
            "cuSOLVER": "libcusolver.so",
            "cuFFT": "libcufft.so",
        }
        assert path.startswith("/") and stem[name] in path, proc.stdout
