"""The launch queue (Note [Launch queue] in cpp/cuarray/cuda/launch_queue.h): kernels are issued by a worker
thread, and everything else that touches a stream comes after the launches queued before it.

Each ordering check queues many small in-place updates (issuing them takes the worker about a millisecond)
and at once hands the array to another kind of work. Work that did not wait for the queue would run before
some of the updates and see a smaller count. The checks run in a fresh process: once a process has shared
memory with another library, its launches are no longer queued."""

import cuarray as cp
import numpy as np
import pytest
from conftest import describe, run_python

pytestmark = pytest.mark.gpu

STEPS = 300

CHECKS = f"""
import threading
import time
import cuarray as cp
import numpy as np

STEPS = {STEPS}
counts = cp._core.cuda._launch_counts


def counted(n=256, dtype=np.float32):
    x = cp.zeros(n, dtype=dtype)
    for _ in range(STEPS):
        x += 1
    return x


# Whether the worker issued launches since `by_worker`. It starts at a loop's second launch; on a loaded
# machine it may first run after the loop, so loops are queued until it does (or 30 s have passed: a loop
# issued by its caller takes about a millisecond, and a woken thread may wait longer for a core).
def worker_took_part(by_worker):
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if counts()[1] > by_worker:
            return True
        counted()
    return counts()[1] > by_worker


def check(name, ok):
    if not ok:
        raise SystemExit("failed: " + name)


# Whether a loop queues most of its launches (the first ones are issued at once). Until the woken worker first
# runs, launches are issued by their caller, so on a loaded machine a few loops may pass before one is queued.
def loop_queued():
    end = time.monotonic() + 30
    while time.monotonic() < end:
        queued = counts()[0]
        counted()
        if counts()[0] - queued >= STEPS // 2:
            return True
    return False


queued, by_worker, replayed = counts()
check("a loop of small ops is queued", loop_queued())
x = counted()
check("the worker issued some of them", worker_took_part(by_worker))
check("runs of them were replayed as graphs", counts()[2] > replayed)
check("in order", (x.get() == STEPS).all())
two = cp.zeros(256, np.int64)
for i in range(STEPS):  # a run of two kernels, alternating
    x += 1
    two += i
check("two kernels", (x.get() == 2 * STEPS).all() and (two.get() == STEPS * (STEPS - 1) // 2).all())
s1, s2 = cp.cuda.Stream(non_blocking=True), cp.cuda.Stream(non_blocking=True)
with s1:
    x1 = cp.zeros(256, np.float32)
with s2:
    x2 = cp.zeros(256, np.float32)
cp.cuda.Device().synchronize()
for _ in range(STEPS):  # runs of one launch per stream, then of several
    with s1:
        x1 += 1
    with s2:
        x2 += 1
with s1:
    for _ in range(STEPS):
        x1 += 1
with s2:
    for _ in range(STEPS):
        x2 += 1
cp.cuda.Device().synchronize()
check("two streams", (x1.get() == 2 * STEPS).all() and (x2.get() == 2 * STEPS).all())

check("asnumpy", (cp.asnumpy(counted()) == STEPS).all())
check("float of a reduction", float(counted().max()) == STEPS)
host = np.empty(256, np.float32)
counted().get(out=host)
check("get(out=)", (host == STEPS).all())
y = cp.zeros(256, np.float32)
cp.copyto(y, counted())
check("copyto", (y.get() == STEPS).all())

m = counted(512 * 512, np.float64).reshape(512, 512)
check("cuBLAS", (cp.asnumpy(m @ cp.eye(512)) == STEPS).all())
f = cp.fft.fft(counted(1024, np.complex64))
check("cuFFT", complex(f[0]) == 1024 * STEPS and float(abs(f[1:]).max()) == 0)
a = cp.eye(64) * 2
check("cuSOLVER", np.allclose(cp.asnumpy(cp.linalg.solve(a, counted(64, np.float64))), STEPS / 2))

x = counted()
e = cp.cuda.Event()
e.record()
e.synchronize()
check("event", e.done and (cp.asnumpy(x) == STEPS).all())
x = counted()
cp.cuda.get_current_stream().synchronize()
check("stream synchronize", cp.cuda.get_current_stream().done)
x = counted()
cp.cuda.Device().synchronize()
check("device synchronize", (x.get() == STEPS).all())

kernel = cp.RawKernel(
    'extern "C" __global__ void copy(const float* x, float* y, int n) {{'
    " int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = x[i]; }}",
    "copy",
)
x = counted()
y = cp.zeros(256, np.float32)
kernel((1,), (256,), (x, y, np.int32(256)))
check("RawKernel", (y.get() == STEPS).all())

s = cp.cuda.Stream(non_blocking=True)
with s:
    x = counted()
del s  # its handle is destroyed only after the queued launches were issued
cp.cuda.Device().synchronize()
check("dropped stream", (x.get() == STEPS).all())

s = cp.cuda.Stream(non_blocking=True)
with s:
    x = counted()
    s.begin_capture()
    x += 1
    graph = s.end_capture()
    graph.launch()
    s.synchronize()
check("capture", (x.get() == STEPS + 1).all())

results = [None] * 8


def work(i):
    with cp.cuda.Stream(non_blocking=True):
        results[i] = counted().get()


threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join(timeout=60)
check("threads", all(r is not None and (r == STEPS).all() for r in results))

# As before a fork: the queue is drained and the worker joined; later launches start it again.
x = counted()
cp._core.cuda.stop_launch_worker()
check("stopped", (x.get() == STEPS).all())
by_worker = counts()[1]
check("restarted", worker_took_part(by_worker))

# Sharing memory with other code issues every later launch at once.
x = counted()
check("data.ptr", x.data.ptr != 0)
queued, by_worker, _ = counts()
check("shared", (counted().get() == STEPS).all() and counts()[:2] == (queued, by_worker))
print("ok")
"""


def test_work_after_queued_launches_sees_them():
    proc = run_python(code=CHECKS, timeout=240)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), describe(proc)


def counted(n=256):
    x = cp.zeros(n, dtype=np.float32)
    for _ in range(STEPS):
        x += 1
    return x


def test_other_libraries_see_the_queued_work():
    torch = pytest.importorskip("torch")
    assert (torch.as_tensor(counted(), device="cuda") == STEPS).all()
    assert (torch.from_dlpack(counted()) == STEPS).all()
    t = torch.zeros(256, device="cuda")
    x = cp.from_dlpack(t)
    for _ in range(STEPS):
        x += 1
    assert (t == STEPS).all()  # torch's kernel runs after cuarray's, on the shared stream
