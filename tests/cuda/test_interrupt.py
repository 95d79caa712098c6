"""Ctrl-C during a long kernel (Note [Interruptible waits] in cpp/cuarray/blocking.h): every synchronizing call
(Device, Stream and Event synchronize, device-to-host copies) raises KeyboardInterrupt within a fraction of a
second, and the process stays usable: later work runs once the kernel ends. Each case runs in a child process
that the test sends SIGINT to. Also: waits still end promptly when the work does."""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from conftest import SPIN_SOURCE, subprocess_env

import cuarray as cp

# argv[1]: the call to interrupt. Prints READY just before the call, then INTERRUPTED <monotonic time> or
# NOT INTERRUPTED, then AFTER <a later result>.
CHILD = r"""
import sys, time
import numpy as np
import cuarray as cp

SPIN = %r
which = sys.argv[1]
n = (1 << 20) if which == "get_pinned" else 1000
out = cp.zeros(n, dtype=np.float32)
stream = cp.cuda.Stream(non_blocking=True) if which == "stream" else cp.cuda.Stream.null
kernel = cp.RawKernel(SPIN, "spin_then_write")
# Load every kernel the calls use now: loading a module waits for the device, uninterruptibly, in the driver.
kernel((1,), (1,), (np.uint64(0), np.uint64(0), out, np.int32(n)), stream=stream)
cp.asnumpy(out[::2]), float(out[-1])
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
}
try:
    print("READY", flush=True)
    calls[which]()
    print("NOT INTERRUPTED", flush=True)
except KeyboardInterrupt:
    print("INTERRUPTED %%.6f" %% time.monotonic(), flush=True)
cp.cuda.Device().synchronize()  # the kernel ends
after = (cp.arange(3) + 1).get().tolist()
print("AFTER", after, out[:3].get().tolist(), flush=True)
""" % SPIN_SOURCE


def _default_sigint():
    """In the child, SIGINT's default action, as in a terminal: a shell that starts the test run in the
    background (`cmd &`) leaves SIGINT ignored, and Python then installs no KeyboardInterrupt handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


CALLS = ["device", "stream", "null_stream", "event", "blocking_event", "get", "get_pinned", "asnumpy", "scalar"]


@pytest.mark.gpu
@pytest.mark.parametrize("which", CALLS)
def test_ctrl_c_interrupts_a_wait_for_a_long_kernel(which):
    proc = subprocess.Popen([sys.executable, "-c", CHILD, which], env=subprocess_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint)
    try:
        line = proc.stdout.readline()  # after import, compilation and the launch
        assert line.strip() == "READY", line + proc.stderr.read()
        time.sleep(0.5)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
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
    proc = subprocess.Popen([sys.executable, "-c", NO_DEVICE_CHILD], env=subprocess_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint)
    try:
        assert proc.stdout.readline().strip() == "READY"
        time.sleep(0.3)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, f"rc={proc.returncode}\n{out}\n{err}"
    assert out.startswith("INTERRUPTED"), out + err
    assert float(out.split()[1]) - sent < 0.5


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
LATENESS_CHILD = r"""
import sys, time
import numpy as np
import cuarray as cp

kernel = cp.RawKernel(%r, "spin_then_write")
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
""" % SPIN_SOURCE


@pytest.mark.gpu
@pytest.mark.skipif("PYTEST_XDIST_WORKER" in os.environ,
                    reason="timing: other workers' kernels share the GPU's time slices; run it without -n")
@pytest.mark.parametrize("ms", [0.05, 0.5, 2, 20])
def test_synchronize_returns_soon_after_the_work_ends(ms):
    # Polling adds at most ~1/16 of the wait (and 1 ms) after the first millisecond of spinning. Measured in a
    # child process: a thread that another test left running Python code in this one would hold the GIL for
    # up to its switch interval (5 ms) when the wait wants it back.
    out = subprocess.run([sys.executable, "-c", LATENESS_CHILD, str(ms)], capture_output=True, text=True,
                         env=subprocess_env(), timeout=120)
    assert out.returncode == 0, out.stderr
    end, late = map(float, out.stdout.split())
    assert late < 0.2e-3 + end / 10, f"synchronize returned {late * 1e3:.3f} ms after the {end * 1e3:.3f} ms kernel ended"
