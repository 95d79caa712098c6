"""Shared fixtures and helpers for the cuarray test suite.

Markers, with the `xp` fixture, from cuarray's pytest plugin (cuarray.pytest_plugin):
  gpu               needs a CUDA device; skipped with a reason where cuarray finds none.
  requires_gpus(n)  needs at least n CUDA devices; skipped with a reason saying how many were found.
This suite's own:
  nogpu      tests the behaviour on a machine without GPU or driver; skipped when a GPU is available.
  multi_gpu  needs at least two CUDA devices: requires_gpus(2).

Test modules import the helpers below with ``from conftest import ...``.

Hypothesis profiles (CUARRAY_HYPOTHESIS_PROFILE): ``ci`` (the default) draws a fixed, derandomized set of
examples, the same on every run; ``gpu-long`` draws twenty times as many, fresh each run (a failure prints the
seed that reproduces it), for runs on a GPU machine.
"""

import os
import subprocess
import sys
import time

import cuarray
import cuarray as cp
import numpy as np
import pytest
from cuarray.testing import _devices
from hypothesis import HealthCheck, settings

# The plugin is opt-in (no pytest11 entry point): named here, and registered once if -p names it too.
pytest_plugins = ["cuarray.pytest_plugin"]

# Make ``from conftest import ...`` work whatever pytest's import mode is; and tests/signal's
# ``from signal_asserts import ...`` (appended: its test files' names must not shadow others').
_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
if os.path.join(_HERE, "signal") not in sys.path:
    sys.path.append(os.path.join(_HERE, "signal"))


# ---------------------------------------------------------------------------------------------
# Hypothesis profiles
# ---------------------------------------------------------------------------------------------

settings.register_profile(
    "ci",
    max_examples=60,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
settings.register_profile(
    "gpu-long", max_examples=1200, deadline=None, print_blob=True, suppress_health_check=list(HealthCheck)
)
settings.load_profile(os.environ.get("CUARRAY_HYPOTHESIS_PROFILE", "ci"))


# ---------------------------------------------------------------------------------------------
# Markers
# ---------------------------------------------------------------------------------------------


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "nogpu: checks the behaviour without GPU or driver; skipped when a GPU is available"
    )
    config.addinivalue_line("markers", "multi_gpu: needs at least two CUDA devices (requires_gpus(2))")


# tests/sanitize.py --minutes sets it: tests that would start later are skipped, so that processes under a
# sanitizer end normally, and write their summaries, before a hard time limit. Their ids go to the file
# CUARRAY_TEST_LATE names, from which the runner starts the next run.
_DEADLINE = float(os.environ.get("CUARRAY_TEST_DEADLINE", "inf"))
_LATE = os.environ.get("CUARRAY_TEST_LATE")


@pytest.hookimpl(tryfirst=True)  # before the marker skips: a late test is listed whatever its markers
def pytest_runtest_setup(item):
    if time.time() > _DEADLINE:
        if _LATE:
            with open(_LATE, "a") as f:
                f.write(item.nodeid + "\n")
        pytest.skip("past CUARRAY_TEST_DEADLINE")


# CUARRAY_TEST_SYNC=1 waits for every device after each test: a kernel's asynchronous fault (an illegal
# address) is then reported at the teardown of the test that launched it, not in whichever later test of the
# same process happens to wait first.
if os.environ.get("CUARRAY_TEST_SYNC"):

    @pytest.fixture(autouse=True)
    def _wait_for_devices_after_each_test():
        yield
        for device in range(_devices.device_count()):
            cp.cuda.Device(device).synchronize()


def pytest_collection_modifyitems(config, items):
    skip_nogpu = pytest.mark.skip(reason="a CUDA device is available; this test checks the no-GPU behaviour")
    for item in items:
        if item.get_closest_marker("multi_gpu") is not None:
            item.add_marker(pytest.mark.requires_gpus(2))
        if item.get_closest_marker("requires_gpus") is not None and item.get_closest_marker("gpu") is None:
            item.add_marker(pytest.mark.gpu)  # `pytest -m gpu` selects every test that needs a device
        if item.get_closest_marker("nogpu") is not None and _devices.device_count() > 0:
            item.add_marker(skip_nogpu)


# ---------------------------------------------------------------------------------------------
# Dtypes and data
# ---------------------------------------------------------------------------------------------

ALL_DTYPES = [
    np.dtype(n)
    for n in (
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    )
]
SIGNED_DTYPES = [d for d in ALL_DTYPES if d.kind == "i"]
UNSIGNED_DTYPES = [d for d in ALL_DTYPES if d.kind == "u"]
INT_DTYPES = SIGNED_DTYPES + UNSIGNED_DTYPES
FLOAT_DTYPES = [d for d in ALL_DTYPES if d.kind == "f"]
COMPLEX_DTYPES = [d for d in ALL_DTYPES if d.kind == "c"]
NUMERIC_DTYPES = [d for d in ALL_DTYPES if d.kind != "b"]
# A few dtypes that cover every kind, for tests where the dtype matters little.
SOME_DTYPES = [np.dtype(n) for n in ("bool", "int8", "uint32", "int64", "float16", "float64", "complex64")]


def dtype_id(dt):
    return np.dtype(dt).name


def make_data(shape, dtype, seed=0):
    """Random NumPy data of `dtype` and `shape`, never all zeros (if not empty).

    Values are small and exactly representable in every dtype of their kind: integers in
    [-60, 60) (unsigned: [0, 120)), floats are multiples of 1/8 in [-30, 30] (exact in float16).
    """
    dtype = np.dtype(dtype)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    rng = np.random.default_rng(seed)
    if dtype.kind == "b":
        a = rng.random(shape) < 0.5
    elif dtype.kind == "i":
        a = rng.integers(-60, 60, size=shape)
    elif dtype.kind == "u":
        a = rng.integers(0, 120, size=shape)
    elif dtype.kind == "f":
        a = np.round(rng.uniform(-30, 30, size=shape) * 8) / 8
    else:
        a = np.round(rng.uniform(-30, 30, size=shape) * 8) / 8 + 1j * (
            np.round(rng.uniform(-30, 30, size=shape) * 8) / 8
        )
    a = np.array(a, dtype=dtype)
    if a.size and not a.any():
        a.flat[0] = 1
    return a


def different_values(a):
    """An array of a's shape and dtype whose every element differs from a's."""
    a = np.asarray(a)
    if a.dtype.kind == "b":
        return np.logical_not(a)
    return (a + np.ones((), dtype=a.dtype)).astype(a.dtype)


_RTOL = {"e": 1e-3, "f": 1e-6, "d": 1e-12, "F": 1e-6, "D": 1e-12}


def assert_same(actual, expected, *, rtol=None, atol=0.0):
    """`actual` is a cuarray.ndarray with expected's dtype, shape and values.

    Integers and bools must be equal; floats and complex within a tight tolerance (NaN equals NaN).
    """
    __tracebackhide__ = True
    assert isinstance(actual, cp.ndarray), f"expected a cuarray.ndarray, got {type(actual)!r}"
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, f"dtype {actual.dtype} != expected {expected.dtype}"
    assert tuple(actual.shape) == expected.shape, f"shape {actual.shape} != expected {expected.shape}"
    got = cp.asnumpy(actual)
    assert type(got) is np.ndarray, f"asnumpy returned {type(got)!r}"
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(got, expected, strict=True)
    else:
        tol = _RTOL[expected.dtype.char] if rtol is None else rtol
        np.testing.assert_allclose(got, expected, rtol=tol, atol=atol, equal_nan=True)


def assert_strides_match(r, e):
    """Strides agree with NumPy's on every axis longer than 1 (the others never affect addressing;
    for empty arrays none do)."""
    __tracebackhide__ = True
    if e.size:
        got = [s for s, n in zip(r.strides, r.shape) if n > 1]
        want = [s for s, n in zip(e.strides, e.shape) if n > 1]
        assert got == want, f"strides {r.strides} != NumPy's {e.strides} for shape {e.shape}"


def mentions_number(text, n):
    """`text` contains the integer n, written plainly or with thousands separators."""
    return any(s in text for s in (str(n), f"{n:,}", f"{n:_}", f"{n:,}".replace(",", " ")))


# ---------------------------------------------------------------------------------------------
# Layouts: the same view applied to a NumPy array and to its cuarray copy
# ---------------------------------------------------------------------------------------------

# name -> (shape of the C-contiguous base, view to apply to it)
LAYOUTS = {
    "c2d": ((3, 4), lambda a: a),
    "f2d": ((4, 3), lambda a: a.T),
    "strided": ((6, 8), lambda a: a[1::2, ::3]),
    "negative": ((3, 5), lambda a: a[::-1, ::-2]),
    "1d": ((7,), lambda a: a),
    "1d_negative": ((9,), lambda a: a[::-2]),
    "3d_permuted": ((2, 3, 4), lambda a: a.transpose(2, 0, 1)[::-1]),
    "0d": ((), lambda a: a),
    "empty": ((0, 3), lambda a: a),
    "empty_strided": ((4, 6), lambda a: a[2:2, ::2]),
}
LAYOUT_NAMES = list(LAYOUTS)
# Layouts with at least one element and at least one dimension.
NONEMPTY_LAYOUTS = [n for n in LAYOUT_NAMES if n not in ("0d", "empty", "empty_strided")]


def np_layout(layout, dtype, seed=0):
    """(numpy base, numpy view) for `layout`."""
    shape, view = LAYOUTS[layout]
    base = make_data(shape, dtype, seed)
    return base, view(base)


def make_pair(layout, dtype, seed=0):
    """(cuarray view, numpy view): the same values with the same layout on both sides."""
    shape, view = LAYOUTS[layout]
    base = make_data(shape, dtype, seed)
    return view(cp.asarray(base)), view(base)


def make_pair_with_base(layout, dtype, seed=0):
    """(cuarray base, numpy base, cuarray view, numpy view)."""
    shape, view = LAYOUTS[layout]
    base = make_data(shape, dtype, seed)
    xbase = cp.asarray(base)
    return xbase, base, view(xbase), view(base)


def assert_write_through(cp_base, np_base, cp_res, np_res):
    """Write new values into both results, then compare the bases.

    NumPy's base changes exactly when np_res is a view of it, so this checks that cuarray returns a
    view where NumPy does and a copy where NumPy copies.
    """
    __tracebackhide__ = True
    new = different_values(np_res)
    np_res[...] = new
    cp_res[...] = cp.asarray(new)
    assert_same(cp_res, np_res)
    assert_same(cp_base, np_base)


# ---------------------------------------------------------------------------------------------
# A long-running kernel, for tests of waits, interrupts and stream ordering
# ---------------------------------------------------------------------------------------------

# Spins for `ns` nanoseconds of the GPU's global timer, then writes dst[i] = 2 * src[i] (src null: i + 1), i < n.
SPIN_SOURCE = r"""
extern "C" __global__ void spin_then_write(unsigned long long ns, const float* src, float* dst, int n) {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        dst[i] = src ? 2.0f * src[i] : i + 1.0f;
}
"""


def spin_then_write(seconds, dst=None, src=None, stream=None):
    """Launches SPIN_SOURCE's kernel on `stream` (default: the current one); None arrays are null pointers."""
    null = np.uint64(0)
    n = 0 if dst is None else dst.size
    kernel = cp.RawKernel(SPIN_SOURCE, "spin_then_write")
    kernel(
        (max(1, min(64, (n + 255) // 256)),),
        (256,),
        (np.uint64(seconds * 1e9), null if src is None else src, null if dst is None else dst, np.int32(n)),
        stream=stream,
    )


# ---------------------------------------------------------------------------------------------
# Subprocesses
# ---------------------------------------------------------------------------------------------


def subprocess_env(extra=None):
    """This process's environment, such that a child imports the same cuarray; `extra` overrides
    (a value of None removes the variable)."""
    env = dict(os.environ)
    pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(cuarray.__file__)))
    # Only when cuarray was found through a plain sys.path entry (not an editable-install hook).
    if any(os.path.abspath(p or os.getcwd()) == pkg_parent for p in sys.path):
        env["PYTHONPATH"] = os.pathsep.join(
            [pkg_parent] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
        )
    for k, v in (extra or {}).items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = str(v)
    return env


def run_python(*args, code=None, env=None, timeout=300, cwd=None):
    """Run ``python [-c code] *args`` in a child process; returns the CompletedProcess."""
    cmd = [sys.executable]
    if code is not None:
        cmd += ["-c", code]
    cmd += list(args)
    return subprocess.run(
        cmd, capture_output=True, text=True, env=subprocess_env(env), timeout=timeout, cwd=cwd, check=False
    )


def describe(proc):
    """Text for an assertion message about a finished subprocess."""
    return f"rc={proc.returncode}\n--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"
