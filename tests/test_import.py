"""Importing cuarray: works everywhere (with or without GPU) and loads no CUDA math library."""

import json
import os

import cuarray as cp
import pytest
from conftest import describe, run_python

# The public surface of the foundation issue, by module.
PUBLIC_NAMES = {
    "cuarray": [
        "ndarray",
        "array",
        "asarray",
        "asnumpy",
        "empty",
        "zeros",
        "ones",
        "full",
        "empty_like",
        "zeros_like",
        "ones_like",
        "full_like",
        "arange",
        "linspace",
        "eye",
        "identity",
        "reshape",
        "ravel",
        "transpose",
        "squeeze",
        "expand_dims",
        "broadcast_to",
        "broadcast_arrays",
        "ascontiguousarray",
        "asfortranarray",
        "copyto",
        "get_default_memory_pool",
        "cuda",
    ],
    "cuarray.cuda": [
        "is_available",
        "Device",
        "Stream",
        "Event",
        "runtime",
        "memory",
        "CUDARuntimeError",
        "get_current_stream",
        "get_elapsed_time",
        "alloc_pinned_memory",
        "get_default_pinned_memory_pool",
    ],
    "cuarray.cuda.runtime": [
        "getDeviceCount",
        "getDevice",
        "setDevice",
        "getDeviceProperties",
        "driverGetVersion",
        "runtimeGetVersion",
    ],
    "cuarray.cuda.memory": ["OutOfMemoryError"],
}

CUDA_MATH_LIBRARIES = ("libcublas", "libcusolver", "libcurand", "libcufft")


def test_import_in_fresh_process():
    proc = run_python(code="import cuarray; print('imported', cuarray.__name__)", timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert "imported cuarray" in proc.stdout


@pytest.mark.parametrize("module", sorted(PUBLIC_NAMES))
def test_public_names(module):
    obj = cp
    for part in module.split(".")[1:]:
        obj = getattr(obj, part)
    missing = [n for n in PUBLIC_NAMES[module] if not hasattr(obj, n)]
    assert not missing, f"{module} lacks {missing}"


def test_error_types():
    assert issubclass(cp.cuda.CUDARuntimeError, Exception)
    assert issubclass(cp.cuda.memory.OutOfMemoryError, MemoryError)


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="needs Linux /proc/self/maps")
def test_no_cuda_math_library_loaded_at_import():
    code = (
        "import json, cuarray\n"
        "with open('/proc/self/maps') as f:\n"
        "    maps = f.read()\n"
        "paths = sorted({line.split()[-1] for line in maps.splitlines() if '/' in line})\n"
        "print(json.dumps(paths))\n"
    )
    proc = run_python(code=code, timeout=120)
    assert proc.returncode == 0, describe(proc)
    paths = json.loads(proc.stdout.strip().splitlines()[-1])
    assert paths, "could not read the child's memory map"
    loaded = [p for p in paths if os.path.basename(p).startswith(CUDA_MATH_LIBRARIES)]
    assert not loaded, f"importing cuarray loaded {loaded}"


def test_is_available_never_raises():
    # Must answer on every machine: True with a usable device, False without driver or device.
    first = cp.cuda.is_available()
    assert isinstance(first, bool)
    assert cp.cuda.is_available() is first


def test_bfloat16_without_ml_dtypes_is_a_missing_attribute():
    code = (
        "import sys\n"
        "sys.modules['ml_dtypes'] = None  # as if it were not installed\n"
        "import cuarray\n"
        "print(hasattr(cuarray, 'bfloat16'))\n"
        "try:\n"
        "    cuarray.bfloat16\n"
        "except AttributeError as e:\n"
        "    print(e)\n"
    )
    proc = run_python(code=code, timeout=120)
    assert proc.returncode == 0, describe(proc)
    lines = proc.stdout.strip().splitlines()
    assert lines[-2] == "False"
    assert "ml_dtypes" in lines[-1] and "bfloat16" in lines[-1], lines[-1]
