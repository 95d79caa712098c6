"""Importing cuarray: works everywhere (with or without GPU) and loads no CUDA math library."""

import json
import os
import sys

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


@pytest.mark.parametrize("module", sorted(cp._LAZY_MODULES))
def test_lazy_names_are_each_modules_public_names(module):
    # The table in cuarray/__init__.py must list exactly what the module exports: a name left out of it is
    # unreachable as cp.<name>, one too many an AttributeError on first use.
    import importlib

    assert sorted(cp._LAZY_MODULES[module].split()) == sorted(importlib.import_module(module).__all__)


def test_dir_lists_the_lazy_names_without_importing_them():
    proc = run_python(
        code="import sys, cuarray\n"
        "names = dir(cuarray)\n"
        "print(all(n in names for n in ('fft', 'linalg', 'fuse', 'poly1d', 'RawKernel')),"
        " 'cuarray._polynomial' in sys.modules)",
        timeout=120,
    )
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.split() == ["True", "False"]


def test_error_types():
    assert issubclass(cp.cuda.CUDARuntimeError, Exception)
    assert issubclass(cp.cuda.memory.OutOfMemoryError, MemoryError)


needs_maps = pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="needs Linux /proc/self/maps")

# Child code: mapped() lists the files the process has mapped.
MAPPED = (
    "def mapped():\n"
    "    with open('/proc/self/maps') as f:\n"
    "        return sorted({line.split()[-1] for line in f if '/' in line})\n"
)


def _child_json(code):
    proc = run_python(code=code, timeout=120)
    assert proc.returncode == 0, describe(proc)
    return json.loads(proc.stdout.strip().splitlines()[-1])


@needs_maps
def test_no_cuda_math_library_loaded_at_import():
    paths = _child_json("import json, cuarray\n" + MAPPED + "print(json.dumps(mapped()))\n")
    assert paths, "could not read the child's memory map"
    loaded = [p for p in paths if os.path.basename(p).startswith(CUDA_MATH_LIBRARIES)]
    assert not loaded, f"importing cuarray loaded {loaded}"


def _nvrtc(paths):
    return [p for p in paths if "libnvrtc.so" in os.path.basename(p)]


@needs_maps
def test_nvrtc_is_warmed_on_the_first_device_query_not_at_import():
    # Note [Warming NVRTC]: the library warmed must be the one the kernel JIT then uses, not a second copy.
    code = (
        "import ctypes, json, os, cuarray\n"
        "from cuarray import _core\n" + MAPPED + "at_import = mapped()\n"
        "cuarray.cuda.is_available()\n"
        "_core.cuda._finish_threads()\n"
        "try:\n"
        "    ctypes.CDLL('libcuda.so.1')\n"
        "    driver = True\n"
        "except OSError:\n"
        "    driver = False\n"
        "at_first_query = mapped()\n"
        "_core.jit._warm_up()\n"
        "warmed = mapped()\n"
        "used = os.path.realpath(_core.jit.nvrtc_path())\n"
        "from cuarray import _cuda_libs\n"
        "print(json.dumps([driver, at_import, at_first_query, warmed, used, 'nvrtc' in _cuda_libs.found_via]))\n"
    )
    driver, at_import, at_first_query, warmed, used, from_pathfinder = _child_json(code)
    assert _nvrtc(at_import) == [], f"mapped at import: {_nvrtc(at_import)}"
    if from_pathfinder:  # warming looks in the system's places alone (Note [Finding the CUDA libraries])
        assert _nvrtc(at_first_query) == [], f"warming mapped {_nvrtc(at_first_query)}"
        return
    assert _nvrtc(warmed) == [used], f"warming mapped {_nvrtc(warmed)}; the kernel JIT uses {used}"
    assert _nvrtc(at_first_query) == (_nvrtc(warmed) if driver else []), (
        f"driver: {driver}; mapped at the first device query: {_nvrtc(at_first_query)}"
    )


# OpenBLAS, under NumPy, starts its threads as it loads: one, so that the threads counted are cuarray's.
ONE_BLAS_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}

THREADS = """
import json, os, threading
def tasks():
    return len(os.listdir('/proc/self/task'))
import numpy
after_numpy = tasks()
import cuarray
print(json.dumps([after_numpy, tasks(), threading.active_count()]))
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux /proc/self/task")
@pytest.mark.parametrize("env", [ONE_BLAS_THREAD, None], ids=["one_blas_thread", "default"])
def test_import_starts_no_thread(env):
    # Note [Starting CUDA on first use]: a thread at import would make Python warn at every os.fork().
    proc = run_python(code=THREADS, env=env, timeout=120)
    assert proc.returncode == 0, describe(proc)
    after_numpy, after_cuarray, python_threads = json.loads(proc.stdout.strip().splitlines()[-1])
    assert (after_cuarray, python_threads) == (after_numpy, 1)
    if env is not None:
        assert after_cuarray == 1


FORK_WARNING = """
import os, sys, warnings
import cuarray
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    pid = os.fork()
    if pid == 0:
        os._exit(0)
os.waitpid(pid, 0)
print([str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)])
"""


@pytest.mark.skipif(sys.version_info < (3, 12), reason="Python warns at a multi-threaded fork from 3.12 on")
def test_fork_after_import_does_not_warn_of_threads():
    proc = run_python(code=FORK_WARNING, env=ONE_BLAS_THREAD, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.strip().splitlines()[-1] == "[]"


# A child forked after the import tries the GPU, then the parent does: (child's result or error, parent's
# result). `before` runs in the parent before the fork.
FORK = """
import os, warnings, cuarray as cp
{before}
r, w = os.pipe()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    pid = os.fork()
if pid == 0:
    os.close(r)
    try:
        msg = repr((cp.arange(10) + 1).get().tolist())
    except Exception as e:
        msg = type(e).__name__ + ": " + str(e)
    os.write(w, msg.encode())
    os._exit(0)
os.close(w)
os.waitpid(pid, 0)
print([str(m.message) for m in caught if issubclass(m.category, DeprecationWarning)])
print(os.read(r, 4096).decode() or "child wrote nothing")
try:
    print((cp.arange(4) * 2).get().tolist())
except cp.cuda.CUDARuntimeError as e:
    print(e)
"""


def _fork_outputs(before=""):
    proc = run_python(code=FORK.format(before=before), env=ONE_BLAS_THREAD, timeout=120)
    assert proc.returncode == 0, describe(proc)
    return proc.stdout.strip().splitlines()[-3:]


@pytest.mark.gpu
def test_child_forked_after_import_uses_the_gpu():
    # Note [Starting CUDA on first use]: the import starts nothing, so the child starts CUDA for itself.
    warned, child, parent = _fork_outputs()
    assert warned == "[]"
    assert child == repr(list(range(1, 11))), child
    assert parent == "[0, 2, 4, 6]"


@pytest.mark.gpu
def test_child_forked_after_the_parent_used_the_gpu_is_told_why_cuda_fails():
    _, child, parent = _fork_outputs(before="cp.arange(3).get()")
    assert child.startswith("CUDARuntimeError: ") and "forked after its parent started CUDA" in child, child
    assert "'spawn' or 'forkserver'" in child, child
    assert parent == "[0, 2, 4, 6]"


@pytest.mark.nogpu
def test_child_forked_without_a_driver_gets_the_no_device_error():
    _, child, parent = _fork_outputs()
    assert child.startswith("CUDARuntimeError: ") and "no CUDA driver or device was found" in child, child
    assert "no CUDA driver or device was found" in parent


# The primary context of device 0, asked of the driver itself (cuInit here does not create it).
CONTEXT = """
import ctypes, json
import cuarray as cp
def active():
    driver = ctypes.CDLL("libcuda.so.1")
    device, flags, on = ctypes.c_int(), ctypes.c_uint(), ctypes.c_int()
    assert driver.cuInit(0) == 0 and driver.cuDeviceGet(ctypes.byref(device), 0) == 0
    assert driver.cuDevicePrimaryCtxGetState(device, ctypes.byref(flags), ctypes.byref(on)) == 0
    return on.value
after_import = active()
cp.arange(3).get()
print(json.dumps([after_import, active()]))
"""


@pytest.mark.gpu
def test_import_creates_no_cuda_context():
    assert _child_json(CONTEXT) == [0, 1]


def test_fork_hooks_can_run_any_time():
    # In a child: the exit hook stops automatic fusion and background compiles for the rest of the process.
    code = (
        "from cuarray import _core\n"
        "for _ in range(2):\n"
        "    _core.cuda._finish_threads()\n"
        "    _core.cuda._prepare_fork()\n"
        "print('ok')\n"
    )
    r = run_python(code=code)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


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
        "try:  # a dtype cuarray lacks is still a TypeError, needing no device to find out\n"
        "    cuarray._core.jit.sources.copy_contiguous('object', 'float32', False)\n"
        "except TypeError as e:\n"
        "    print('TypeError', e)\n"
    )
    proc = run_python(code=code, timeout=120)
    assert proc.returncode == 0, describe(proc)
    lines = proc.stdout.strip().splitlines()
    assert lines[-3] == "False"
    assert "ml_dtypes" in lines[-2] and "bfloat16" in lines[-2], lines[-2]
    assert lines[-1].startswith("TypeError cuarray does not support the data type object"), lines[-1]


@pytest.mark.gpu
def test_arrays_import_ml_dtypes_only_for_bfloat16():
    # Importing ml_dtypes cost every process's first array about 5 ms; bfloat16 must still work when ml_dtypes
    # is imported after the first arrays were made.
    pytest.importorskip("ml_dtypes")
    code = (
        "import sys\n"
        "import cuarray as cp\n"
        "a = cp.arange(3, dtype=cp.float32)\n"
        "print(a.get().tolist(), 'ml_dtypes' in sys.modules)\n"
        "import ml_dtypes\n"
        "b = cp.asarray(a.get().astype(ml_dtypes.bfloat16))\n"
        "print(b.dtype, (b + b).get().astype('float32').tolist())\n"
        "print(cp.zeros(2, dtype=cp.bfloat16).get().dtype)\n"
    )
    proc = run_python(code=code, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.strip().splitlines() == [
        "[0.0, 1.0, 2.0] False",
        "bfloat16 [0.0, 2.0, 4.0]",
        "bfloat16",
    ]


def test_typing_gives_cupy_typing_names():
    # cupy.typing's names: NDArray annotates arrays by element type; the others are NumPy's
    import typing

    import cuarray.typing as t
    import numpy as np

    assert t.ArrayLike is np.typing.ArrayLike and t.DTypeLike is np.typing.DTypeLike
    alias = t.NDArray[np.float32]
    assert typing.get_origin(alias) is cp.ndarray
    assert typing.get_args(alias) == (typing.Any, np.dtype[np.float32])
    assert typing.get_origin(cp.ndarray[typing.Any, np.dtype[np.int8]]) is cp.ndarray
