"""Ctrl-C during a long kernel (Note [Interruptible waits] in cpp/cuarray/blocking.h): every synchronizing call
(Device, Stream and Event synchronize, device-to-host copies, and the ops that read a count or a flag back: the
bounds check of device indices, boolean masks, nonzero, radix sorts) raises KeyboardInterrupt within a fraction
of a second, and the process stays usable: later work runs once the kernel ends. Each case runs in a child process
that the test sends SIGINT to. Also: waits still end promptly when the work does."""

import os
import re
import signal
import subprocess
import sys
import time

import cuarray as cp
import numpy as np
import pytest
from conftest import SPIN_SOURCE, subprocess_env

# argv[1]: the call to interrupt. Prints READY just before the call, then INTERRUPTED <monotonic time> or
# NOT INTERRUPTED, then AFTER <a later result>.
CHILD = (
    f"SPIN = {SPIN_SOURCE!r}\n"
    + r"""
import sys, time
import numpy as np
import cuarray as cp

which = sys.argv[1]
n = (1 << 20) if which == "get_pinned" else 1000
out = cp.zeros(n, dtype=np.float32)
stream = cp.cuda.Stream(non_blocking=True) if which == "stream" else cp.cuda.Stream.null
kernel = cp.RawKernel(SPIN, "spin_then_write")
idx = cp.arange(0, n, 7)
mask = cp.arange(n) % 3 == 0
keys = cp.arange(4096, dtype=np.float32)[::-1]

# Ops that read a count, a flag or bounds back to the host before they return.
readbacks = {
    "index_bounds": lambda: out[idx],
    "take": lambda: cp.take(out, idx),
    "mask": lambda: out[mask],
    "nonzero": lambda: cp.nonzero(out),
    "radix_sort": lambda: cp.sort(keys),
}
# Load every kernel the calls use now: loading a module waits for the device, uninterruptibly, in the driver.
kernel((1,), (1,), (np.uint64(0), np.uint64(0), out, np.int32(n)), stream=stream)
cp.asnumpy(out[::2]), float(out[-1])
for f in readbacks.values():
    f()
cp.cuda.Device().synchronize()
kernel((64,), (256,), (np.uint64(3_000_000_000), np.uint64(0), out, np.int32(n)), stream=stream)

def pinned_get():
    host = np.frombuffer(cp.cuda.alloc_pinned_memory(out.nbytes), np.float32, n)
    return out.get(out=host)

def event(block):
    e = cp.cuda.Event(block=block)
    e.record(stream)
    e.synchronize()

calls = {
    "device": lambda: cp.cuda.Device().synchronize(),
    "stream": stream.synchronize,
    "null_stream": cp.cuda.Stream.null.synchronize,
    "event": lambda: event(False),
    "blocking_event": lambda: event(True),
    "get": out.get,
    "get_pinned": pinned_get,
    "asnumpy": lambda: cp.asnumpy(out[::2]),
    "scalar": lambda: float(out[-1]),
    **readbacks,
}
try:
    print("READY", flush=True)
    calls[which]()
    print("NOT INTERRUPTED", flush=True)
except KeyboardInterrupt:
    print("INTERRUPTED %.6f" % time.monotonic(), flush=True)
cp.cuda.Device().synchronize()  # the kernel ends
after = (cp.arange(3) + 1).get().tolist()
print("AFTER", after, out[:3].get().tolist(), flush=True)
"""
)


def _default_sigint():
    """In the child, SIGINT's default action, as in a terminal: a shell that starts the test run in the
    background (`cmd &`) leaves SIGINT ignored, and Python then installs no KeyboardInterrupt handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


CALLS = [
    "device",
    "stream",
    "null_stream",
    "event",
    "blocking_event",
    "get",
    "get_pinned",
    "asnumpy",
    "scalar",
    "index_bounds",
    "take",
    "mask",
    "nonzero",
    "radix_sort",
]


def _interrupt_child(code, *args, delay, timeout, ready_lines=1):
    """Runs `code` with `args` in a child, waits for its READY line (the last of `ready_lines` lines), sends
    SIGINT `delay` seconds later; returns (process, the lines before READY, stdout after, stderr, send time)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        env=subprocess_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_sigint,  # noqa: PLW1509 - it only resets SIGINT, taking no lock
    )
    try:
        head = "".join(proc.stdout.readline() for _ in range(ready_lines))
        assert head.splitlines()[-1:] == ["READY"], head + proc.stderr.read()
        time.sleep(delay)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=timeout)
    finally:
        proc.kill()
    return proc, head, out, err, sent


@pytest.mark.gpu
@pytest.mark.parametrize("which", CALLS)
def test_ctrl_c_interrupts_a_wait_for_a_long_kernel(which):
    # READY comes after import, compilation and the launch.
    proc, _, out, err, sent = _interrupt_child(CHILD, which, delay=0.5, timeout=60)
    assert proc.returncode == 0, f"rc={proc.returncode}\n{out}\n{err}"
    lines = out.splitlines()
    interrupted = [ln for ln in lines if ln.startswith("INTERRUPTED")]
    assert interrupted, f"the call was not interrupted:\n{out}\n{err}"
    delay = float(interrupted[0].split()[1]) - sent
    assert delay < 1.0, f"KeyboardInterrupt came {delay:.2f} s after SIGINT"
    assert "AFTER [1, 2, 3] [1.0, 2.0, 3.0]" in out, f"the process is not usable afterwards:\n{out}\n{err}"


NO_DEVICE_CHILD = r"""
import sys, time
import cuarray as cp
try:
    print("READY", flush=True)
    cp._core.cuda._wait_seconds(30)
    print("NOT INTERRUPTED", flush=True)
except KeyboardInterrupt:
    print("INTERRUPTED %.6f" % time.monotonic(), flush=True)
"""


def test_ctrl_c_interrupts_the_core_wait_without_a_device():
    # The same wait loop and hooks as above, polling the clock instead of the device.
    proc, _, out, err, sent = _interrupt_child(NO_DEVICE_CHILD, delay=0.3, timeout=30)
    assert proc.returncode == 0, f"rc={proc.returncode}\n{out}\n{err}"
    assert out.startswith("INTERRUPTED"), out + err
    assert float(out.split()[1]) - sent < 0.5


# A compile through the kernel cache (no device needed) slow enough for SIGINT to come during it; the cache's
# Python calls after the compile (the log handler, the memory-only question) are the first Python code to run.
COMPILE_CHILD = r"""
import signal, tempfile, time
import cuarray as cp
runs = []

def handler(signum, frame):  # counts its runs: one Ctrl-C must run it once
    runs.append(signum)
    raise KeyboardInterrupt

signal.signal(signal.SIGINT, handler)
cp._core.jit.set_cache_dir(tempfile.mkdtemp())
funcs = "\n".join(
    f"__device__ __noinline__ float f{i}(float x) {{ return sinf(x * {i}.5f) + cosf(x - {i}.25f) * x; }}"
    for i in range(80)
)
calls = " + ".join(f"f{i}(v)" for i in range(80))
src = funcs + '\nextern "C" __global__ void heavy(float* p) { float v = p[0]; p[0] = ' + calls + '; }'
print("READY", flush=True)
start = time.monotonic()
try:
    cp._core.jit.cached_binary(src, "heavy", [], 90)
    print("COMPILED %.3f" % (time.monotonic() - start), flush=True)
    time.sleep(2.0)
    print("NOT INTERRUPTED", flush=True)
except KeyboardInterrupt:
    print("INTERRUPTED %.3f" % (time.monotonic() - start), flush=True)
time.sleep(0.5)
print("HANDLER RAN", len(runs), flush=True)
"""


def test_ctrl_c_during_a_compile_is_raised_after_it():
    # Note [Interrupts in quiet calls] (python/src/hooks.h): the SIGINT handler ran inside the kernel log's
    # Python call after the compile, whose error was dropped, and the Ctrl-C was lost.
    proc, _, out, err, _ = _interrupt_child(COMPILE_CHILD, delay=0.2, timeout=120)
    assert proc.returncode == 0, f"rc={proc.returncode}\n{out}\n{err}"
    if out.startswith("COMPILED") and float(out.split()[1]) < 0.3:
        pytest.skip(f"the compile ended before the signal could come during it: {out}")
    assert "INTERRUPTED" in out and "NOT INTERRUPTED" not in out, out + err
    assert "HANDLER RAN 1" in out, out + err  # re-raised, not a second SIGINT


# argv[1]: "held" or "released" (the GIL during the loop, as _wait_seconds takes it).
STEPS_CHILD = r"""
import sys, time
import cuarray as cp
try:
    print("READY", flush=True)
    cp._core.cuda._wait_seconds(30, sys.argv[1] == "released", step=0.005)
    print("NOT INTERRUPTED", flush=True)
except KeyboardInterrupt:
    print("INTERRUPTED %.6f" % time.monotonic(), flush=True)
"""


@pytest.mark.parametrize("gil", ["held", "released"])
def test_ctrl_c_interrupts_a_loop_of_short_waits_without_a_device(gil):
    # Note [Interrupts between steps] (cpp/cuarray/blocking.h): waits of 5 ms each, as a staged copy waits for its
    # 8 MiB chunks, never reach one wait's 50 ms interrupt check; a Ctrl-C came only after the whole loop.
    proc, _, out, err, sent = _interrupt_child(STEPS_CHILD, gil, delay=0.3, timeout=30)
    assert proc.returncode == 0, f"rc={proc.returncode}\n{out}\n{err}"
    assert out.startswith("INTERRUPTED"), out + err
    assert float(out.split()[1]) - sent < 0.5


# argv[1]: "get", "asarray" or "set": a copy sized to last about 2.5 s at the speed measured first (at most 16 GiB,
# a quarter of the free device memory and of the host's available memory). Prints SIZE, READY just before the
# copy, then INTERRUPTED <monotonic time> or NOT INTERRUPTED <seconds it took>, then AFTER <checks>.
BIG_COPY_CHILD = r"""
import sys, time
import numpy as np
import cuarray as cp

which = sys.argv[1]
avail = next(int(ln.split()[1]) * 1024 for ln in open("/proc/meminfo") if ln.startswith("MemAvailable:"))
probe_n = 1 << 28  # 1 GiB of float32
dev = cp.full(probe_n, 7.0, dtype=np.float32)
host = np.full(probe_n, 5.0, dtype=np.float32)
for _ in range(2):
    t = time.monotonic()
    dev.get() if which == "get" else cp.asarray(host) if which == "asarray" else dev.set(host)
    cp.cuda.Device().synchronize()
    speed = (probe_n * 4) / max(time.monotonic() - t, 1e-3)
del dev, host
free = cp.cuda.Device().mem_info[0]
n = int(min(16 << 30, free // 4, avail // 4, max(1 << 30, speed * 2.5))) // 4
x = cp.full(n, 7.0, dtype=np.float32)
h = np.full(n, 5.0, dtype=np.float32) if which != "get" else None
cp.cuda.Device().synchronize()
print("SIZE %.2f GiB at %.1f GiB/s" % (n * 4 / 2**30, speed / 2**30), flush=True)
calls = {"get": x.get, "asarray": lambda: cp.asarray(h), "set": lambda: x.set(h)}
try:
    print("READY", flush=True)
    t = time.monotonic()
    calls[which]()
    print("NOT INTERRUPTED %.3f" % (time.monotonic() - t), flush=True)
except KeyboardInterrupt:
    print("INTERRUPTED %.6f" % time.monotonic(), flush=True)
cp.cuda.Device().synchronize()
s = cp.cuda.Stream(non_blocking=True)
with s:
    y = cp.arange(1 << 24, dtype=np.int32)
    on_stream = bool((y.get() == np.arange(1 << 24, dtype=np.int32)).all())
ends = x[:1000].get().tolist()[:2] + x[-1000:].get().tolist()[-2:]
small = cp.asarray(np.arange(1 << 22, dtype=np.float64)).get()
print("AFTER", on_stream, bool((small == np.arange(1 << 22)).all()), ends, flush=True)
"""


@pytest.mark.gpu
@pytest.mark.skipif(
    "PYTEST_XDIST_WORKER" in os.environ,
    reason="timing, and gigabytes of device and host memory; run it without -n",
)
@pytest.mark.parametrize("which", ["get", "asarray", "set"])
def test_ctrl_c_interrupts_a_large_transfer(which):
    # Each 8 MiB chunk of a staged copy waits well under 50 ms, so Ctrl-C came only after the whole copy (seconds
    # for gigabytes): the chunk loops check between chunks (Note [Interrupts between steps] in blocking.h).
    proc, head, out, err, sent = _interrupt_child(
        BIG_COPY_CHILD, which, delay=0.3, timeout=120, ready_lines=2
    )
    size = head.splitlines()[0] + "\n"
    done = [ln for ln in out.splitlines() if ln.startswith("NOT INTERRUPTED")]
    if done and float(done[0].split()[2]) < 0.4:  # the signal then came after the copy, anywhere
        pytest.skip(f"the copy ended before the signal ({size.strip()}; {done[0]})")
    assert proc.returncode == 0, f"rc={proc.returncode}\n{size}{out}\n{err}"
    interrupted = [ln for ln in out.splitlines() if ln.startswith("INTERRUPTED")]
    assert interrupted, f"the copy was not interrupted ({size.strip()}):\n{out}\n{err}"
    delay = float(interrupted[0].split()[1]) - sent
    assert delay < 0.25, f"KeyboardInterrupt came {delay:.2f} s after SIGINT ({size.strip()})"
    # The device array holds what it held (set: its first chunks written, its last ones not yet), and copies (on
    # another stream, and through the same staging slots, whose DMAs the interrupt left pending) work.
    ends = "[5.0, 5.0, 7.0, 7.0]" if which == "set" else "[7.0, 7.0, 7.0, 7.0]"
    assert f"AFTER True True {ends}" in out, f"the process is not usable afterwards:\n{out}\n{err}"


@pytest.mark.gpu
def test_synchronize_on_an_idle_stream_stays_cheap():
    s = cp.cuda.Stream(non_blocking=True)
    for sync in (s.synchronize, cp.cuda.Stream.null.synchronize, cp.cuda.Device().synchronize):
        sync()
        times = []
        for _ in range(2000):
            t = time.perf_counter()
            sync()
            times.append(time.perf_counter() - t)
        assert np.median(times) < 20e-6, f"{sync}: median {np.median(times) * 1e6:.1f} us on an idle stream"


# argv[1]: the kernel's length in ms. Prints the kernel's true end (what a busy loop on Stream.done sees: the
# spinning kernel's own length depends on the GPU's timer, which ticks coarsely on some hosts) and how much
# later synchronize returned, both in seconds, each the best of fifteen.
LATENESS_CHILD = (
    f"SPIN = {SPIN_SOURCE!r}\n"
    + r"""
import sys, time
import numpy as np
import cuarray as cp

kernel = cp.RawKernel(SPIN, "spin_then_write")
null = cp.cuda.Stream.null
seconds = float(sys.argv[1]) / 1e3

def busy_wait():
    while not null.done:
        pass

def returns_after(wait):
    kernel((1,), (256,), (np.uint64(seconds * 1e9), np.uint64(0), np.uint64(0), np.int32(0)))
    t = time.perf_counter()
    wait()
    return time.perf_counter() - t

returns_after(null.synchronize)
end = min(returns_after(busy_wait) for _ in range(15))
late = min(returns_after(null.synchronize) for _ in range(15)) - end
print(end, late)
"""
)


@pytest.mark.gpu
@pytest.mark.skipif(
    "PYTEST_XDIST_WORKER" in os.environ,
    reason="timing: other workers' kernels share the GPU's time slices; run it without -n",
)
@pytest.mark.parametrize("ms", [0.05, 0.5, 2, 20])
def test_synchronize_returns_soon_after_the_work_ends(ms):
    # Polling adds at most ~1/16 of the wait (and 1 ms) after the first millisecond of spinning. Measured in a
    # child process: a thread that another test left running Python code in this one would hold the GIL for
    # up to its switch interval (5 ms) when the wait wants it back.
    out = subprocess.run(
        [sys.executable, "-c", LATENESS_CHILD, str(ms)],
        capture_output=True,
        check=False,
        text=True,
        env=subprocess_env(),
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    end, late = map(float, out.stdout.split())
    assert late < 0.2e-3 + end / 10, (
        f"synchronize returned {late * 1e3:.3f} ms after the {end * 1e3:.3f} ms kernel ended"
    )


# ---- every wait goes through the one interruptible wait (no device needed) ----------------------

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Calls that block the host until the device is done, and copies into host memory that block (to pageable
# memory) or whose wait could not be abandoned (into memory of the caller's).
BLOCKING_CALLS = {
    "stream/event/device synchronize": r"\bcu(da)?(Stream|Event|Device|Ctx|Thread)Synchronize\b",
    "synchronous memcpy": r"\bcu(da)?Memcpy(2D|3D|Peer|ToSymbol|FromSymbol|DtoH|HtoD)?\s*\(",
    "copy to the host": r"\bcudaMemcpy(DeviceToHost|Default)\b",
    "free that synchronizes": r"\bcu(da)?(Free|FreeHost|MemFree|MemFreeHost)\s*\(",
}

# (file, kind) -> how many there may be, and why each is not the interruptible wait.
ALLOWED_BLOCKING = {
    # finish_readback: the DMA into the caller's pinned memory, after an interruptible wait for the work before it.
    (
        "cpp/cuarray/cuda/stream.cpp",
        "stream/event/device synchronize",
    ): 2,  # and wait_for_device: other libraries' streams, after waiting for cuarray's
    # A wrapper of another library's stream, destroyed with memory cached for it: the device idles before the
    # memory goes back, since the stream it was ordered on may already be gone (a destructor cannot be interrupted).
    ("cpp/cuarray/cuda/memory_pool.cpp", "stream/event/device synchronize"): 1,
    # Thread exit: the pinned buffers of pending deferred checks go back only after their copies land.
    ("cpp/cuarray/cuda/deferred_checks.cpp", "stream/event/device synchronize"): 1,
    # copy_to_host: into the caller's pinned memory (then finish_readback), and into the staging slots.
    ("cpp/cuarray/ops/transfer.cpp", "copy to the host"): 2,
    # Infos::snapshot: into its own pinned buffer, waited for interruptibly and kept alive if abandoned.
    ("cpp/cuarray/ops/matrix_stack.cpp", "copy to the host"): 1,
    # pinned_free_all_blocks: an explicit request to give pinned memory back.
    ("cpp/cuarray/cuda/pinned_memory.cpp", "free that synchronizes"): 1,
    # malloc_managed's memory: cudaFree when the last array using it goes (CuPy's ManagedMemory frees it so too).
    ("cpp/cuarray/cuda/memory_pool.cpp", "free that synchronizes"): 1,
    # CuPy's raw calls on the caller's memory (Note [Raw runtime calls]): runtime.memcpy and MemoryPointer's
    # copies in either direction (the work before them waited for interruptibly), and runtime.free.
    ("cpp/cuarray/cuda/runtime_calls.cpp", "copy to the host"): 1,
    ("cpp/cuarray/cuda/runtime_calls.cpp", "free that synchronizes"): 1,
    # Multi-GPU cuFFT: the Xt API runs on cuFFT's own streams, which cuarray cannot see; each device idles before
    # and after an execution, and the plan's buffers are reused only then, so the wait cannot be abandoned.
    ("cpp/cuarray/lib/cufft_xt.cpp", "stream/event/device synchronize"): 1,
}


def _code_without_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    return re.sub(r"//[^\n]*", "", text)


def test_the_core_and_bindings_wait_for_the_device_only_through_the_interruptible_wait():
    # Note [Interruptible waits] (cpp/cuarray/blocking.h): a Ctrl-C during a bounds check of device indices
    # or a boolean mask came 2.7 s late when an op read its count back with cudaMemcpyAsync into pageable
    # memory (which blocks in the driver, holding the GIL). New blocking calls go through cuda::wait,
    # wait_until, ops::read_back or copy_to_host, or are listed above with the reason.
    found = {}
    for top in ("cpp/cuarray", "python/src"):
        for dirpath, _, files in os.walk(os.path.join(_ROOT, top)):
            for name in files:
                if not name.endswith((".cpp", ".h")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, _ROOT)
                with open(path) as f:
                    code = _code_without_comments(f.read())
                for kind, pattern in BLOCKING_CALLS.items():
                    n = len(re.findall(pattern, code))
                    if n:
                        found[(rel, kind)] = n
    assert found, "no source files found"
    unexpected = {k: n for k, n in found.items() if n > ALLOWED_BLOCKING.get(k, 0)}
    assert not unexpected, (
        f"blocking CUDA calls outside the interruptible wait: {unexpected}; read results back with "
        "ops::read_back and wait with cuda::wait (or list the call in ALLOWED_BLOCKING with the reason)"
    )
    stale = {k: n for k, n in ALLOWED_BLOCKING.items() if found.get(k, 0) < n}
    assert not stale, f"ALLOWED_BLOCKING lists calls that are gone: {stale}; lower the counts"
