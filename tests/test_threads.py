"""Threads: eight Python threads, each with its own stream (and device, where there are several), running mixed
ops for thousands of iterations: every result equals NumPy's, with no crash or deadlock. And the GIL is released
around blocking calls (synchronize, device-to-host copies, NVRTC compilation): another thread keeps running
Python code meanwhile."""

import inspect
import json
import os
import threading
import time

import cuarray as cp
import numpy as np
import pytest
from conftest import describe, run_python, spin_then_write

THREADS = 8
# Under compute-sanitizer every kernel runs tens of times slower; tests/sanitize.py sets CUARRAY_SANITIZER.
# Under racecheck an iteration took about 2 s on an H100 (200 ran past 7 minutes); 30 still run every kind of
# op five times on each of the eight threads at once.
ITERATIONS = {None: 2000, "racecheck": 30}.get(os.environ.get("CUARRAY_SANITIZER"), 200)


def _check(got, expected, rtol=1e-5):
    got = got.get() if isinstance(got, cp.ndarray) else np.asarray(got)
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape, (
        got.dtype,
        got.shape,
        expected.dtype,
        expected.shape,
    )
    if expected.dtype.kind in "fc":
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol)
    else:
        np.testing.assert_array_equal(got, expected)


def _iteration(rng, i):
    """One round of mixed ops, each compared with NumPy's result on the same values."""
    n = int(rng.integers(1, 3000))
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.integers(-50, 50, size=n).astype(np.int64)
    x, y = cp.asarray(a), cp.asarray(b)
    kind = i % 6
    if kind == 0:  # elementwise, mixed types, views
        _check(x * 2 + y, a * 2 + b)
        _check(cp.maximum(x[::-1], 0.5), np.maximum(a[::-1], np.float32(0.5)))
    elif kind == 1:  # reductions
        _check(y.sum(), b.sum())
        _check(cp.max(x), a.max())
        _check(cp.argmin(x), a.argmin())
        _check(x.astype(np.float64).mean(), a.astype(np.float64).mean(), rtol=1e-9)
    elif kind == 2:  # copies: casts, strided and transposed
        m = a[: (n // 4) * 4].reshape(-1, 4)
        xm = cp.asarray(m)
        _check(cp.ascontiguousarray(xm.T), np.ascontiguousarray(m.T))
        _check(xm[:, ::-2].astype(np.complex64), m[:, ::-2].astype(np.complex64))
        z = cp.empty_like(y)
        cp.copyto(z, y[::-1])
        _check(z, b[::-1])
    elif kind == 3:  # matrix products: a small tiled one and a cuBLAS one
        p = rng.standard_normal((8, 5)).astype(np.float32)
        q = rng.standard_normal((5, 3)).astype(np.float32)
        _check(cp.asarray(p) @ cp.asarray(q), p @ q, rtol=1e-4)
        r = rng.standard_normal((96, 64))
        _check(cp.asarray(r) @ cp.asarray(r.T), r @ r.T, rtol=1e-9)
    elif kind == 4:  # transfers through pinned staging, and back into an existing host array
        big = rng.standard_normal(int(rng.integers(1, 300_000)))
        _check(cp.asarray(big)[::3], big[::3])
        host = np.empty(n, np.float32)
        assert x.get(out=host) is host
        np.testing.assert_array_equal(host, a)
    else:  # indexing that reads back sizes (one synchronization inside)
        mask = a > 0
        _check(x[cp.asarray(mask)], a[mask])
        _check(cp.sort(y), np.sort(b))


def _worker(k, devices, errors, done):
    try:
        rng = np.random.default_rng(k)
        with cp.cuda.Device(k % devices):
            stream = cp.cuda.Stream(non_blocking=True)
            with stream:
                for i in range(ITERATIONS):
                    _iteration(rng, i + k)
                stream.synchronize()
        done.append(k)
    except BaseException as e:  # noqa: BLE001 - reported by the main thread
        errors.append((k, repr(e)))


@pytest.mark.gpu
def test_threads_with_own_streams_and_devices_agree_with_numpy():
    devices = cp.cuda.runtime.getDeviceCount()
    errors, done = [], []
    threads = [threading.Thread(target=_worker, args=(k, devices, errors, done)) for k in range(THREADS)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 1200
    for t in threads:
        t.join(timeout=max(1.0, deadline - time.monotonic()))
    assert not any(t.is_alive() for t in threads), "a worker thread is stuck (deadlock?)"
    assert not errors, errors
    assert sorted(done) == list(range(THREADS))


# ---- the GIL is released while a thread blocks ------------------------------------------------------------


def longest_pause_while(blocking_call):
    """Runs `blocking_call` in a thread while this thread counts in Python; returns (how long the call took,
    the longest this thread went without running). A call that held the GIL would stall this thread for all
    of its duration."""
    finished = threading.Event()
    t = threading.Thread(target=lambda: (blocking_call(), finished.set()))
    start = last = time.perf_counter()
    longest = 0.0
    t.start()
    while not finished.is_set():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    t.join()
    return time.perf_counter() - start, longest


@pytest.mark.gpu
@pytest.mark.parametrize("call", ["stream_synchronize", "device_synchronize", "event_synchronize", "get"])
def test_blocking_on_the_device_lets_other_threads_run(call):
    stream = cp.cuda.Stream(non_blocking=True)
    x = cp.arange(10)
    with (
        stream
    ):  # the kernels loaded now: loading a module waits for the device (the driver holds the caller)
        (x + 1).get()
        spin_then_write(0.0)
    cp.cuda.Device().synchronize()

    def blocking_call():
        with stream:
            spin_then_write(1.0)
            if call == "stream_synchronize":
                stream.synchronize()
            elif call == "device_synchronize":
                cp.cuda.Device().synchronize()
            elif call == "event_synchronize":
                stream.record().synchronize()
            else:
                (x + 1).get()

    took, longest = longest_pause_while(blocking_call)
    assert took >= 0.9, f"the call returned after {took:.2f} s, before the kernel ended"
    assert longest < 0.2, f"{call} held the GIL: this thread stood still for {longest:.2f} s"


def test_a_core_wait_lets_other_threads_run():
    # The wait loop and hooks of synchronize, polling the clock: runs without a device.
    took, longest = longest_pause_while(lambda: cp._core.cuda._wait_seconds(0.5))
    assert took >= 0.5
    assert longest < 0.1, f"this thread stood still for {longest:.2f} s"


COMPILE = r"""
import json
from cuarray import _core
# About half a second of NVRTC work: a dozen kernels with unrolled math.
src = "\n".join('extern "C" __global__ void k%d(float* x) { for (int i = 0; i < 64; ++i) '
                'x[threadIdx.x * %d + i] = sinf(x[i] * %d.0f) + cosf(x[i + 1]); }' % (i, i + 1, i) for i in range(12))
out = {}
# Through the kernel cache (as every op's first launch compiles), and through jit.compile.
out["cache"] = longest_pause_while(lambda: _core.jit.cached_binary(src, "many", [], 90))
out["compile"] = longest_pause_while(lambda: _core.jit.compile(src + "\n", "many", [], 90, []))
print(json.dumps(out))
"""


def test_nvrtc_compilation_lets_other_threads_run(tmp_path):
    code = "import threading, time\n" + inspect.getsource(longest_pause_while) + COMPILE
    proc = run_python(code=code, env={"CUARRAY_CACHE_DIR": tmp_path}, timeout=300)
    assert proc.returncode == 0, describe(proc)
    for path, (took, longest) in json.loads(proc.stdout.strip().splitlines()[-1]).items():
        assert longest < max(0.1, took / 3), (
            f"{path}: compiling took {took:.2f} s, this thread stood still {longest:.2f} s"
        )
