"""Faults leave the process working: interpreter exit while a daemon thread waits (Note [Exit while waiting] in
python/src/gil.h), the libraries after running out of device memory (Note [Memory for other libraries] in
cpp/cuarray/cuda/memory_pool.h), other threads during an allocation's retry, and CUDA graphs' memory (Note [Graph
memory] there). Each case runs in a child process."""

import json
import os
import re
import time

import pytest
from conftest import SPIN_SOURCE, describe, run_python

# A test that fills the GPU's memory, which other workers' tests share: it runs without -n alone.
fills_the_gpu = pytest.mark.skipif(
    "PYTEST_XDIST_WORKER" in os.environ,
    reason="fills the GPU's memory, which other workers' tests share; run it without -n",
)

# ---- interpreter exit while a daemon thread waits -----------------------------------------------

# argv[1]: "held" (the core's wait releases the GIL itself, as every internal wait does) or "released" (called
# without the GIL, as Stream.synchronize is); argv[2]: "plain", or "no_begin_exit" to take away the package's
# exit handler, so that the thread meets the interpreter's end when it asks for the GIL back.
NO_DEVICE_EXIT_CHILD = r"""
import atexit, sys, threading, time
import cuarray as cp

release = sys.argv[1] == "released"
if sys.argv[2] == "no_begin_exit":
    atexit.unregister(cp._core.cuda._begin_exit)
t = threading.Thread(target=cp._core.cuda._wait_seconds, args=(2.0, release), daemon=True)
t.start()
time.sleep(0.2)
print("EXITING", flush=True)
"""


def _assert_clean_exit(proc, started):
    assert proc.returncode == 0, describe(proc)
    assert "terminate called" not in proc.stderr and "Fatal Python error" not in proc.stderr, describe(proc)
    assert "EXITING" in proc.stdout, describe(proc)
    assert time.monotonic() - started < 60


def _child_result(*args, code, timeout, env=None):
    """The JSON line a child (`code` with `args`) prints last, once it has exited cleanly."""
    proc = run_python(*args, code=code, env=env, timeout=timeout)
    assert proc.returncode == 0, describe(proc)
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("gil", ["held", "released"])
@pytest.mark.parametrize("handler", ["plain", "no_begin_exit"])
def test_exit_while_a_daemon_thread_waits_is_clean_without_a_device(gil, handler):
    # Aborted with "terminate called without an active exception": CPython ends such a thread with
    # pthread_exit when it asks for the GIL back, and the forced unwind met a noexcept destructor.
    for _ in range(3):
        started = time.monotonic()
        _assert_clean_exit(run_python(gil, handler, code=NO_DEVICE_EXIT_CHILD, timeout=120), started)


# An exit handler registered before `import cuarray` runs after cuarray's own: it stops and joins a daemon thread
# that waits (through the core's poll, without the GIL) while holding a Python lock, as a library's cleanup does.
ATEXIT_JOIN_CHILD = r"""
import atexit, threading, time
stop, held, state = threading.Event(), threading.Lock(), {}

def shutdown():
    stop.set()
    t.join(timeout=20)
    got = held.acquire(timeout=5)
    print("JOINED", not t.is_alive(), "LOCK", got, "ITERATIONS", state.get("n"), flush=True)

atexit.register(shutdown)
import cuarray as cp

def worker():
    n = 0
    while not stop.is_set():
        with held:
            cp._core.cuda._wait_seconds(0.05, True)
        n += 1
    state["n"] = n

t = threading.Thread(target=worker, daemon=True)
t.start()
time.sleep(0.3)
print("EXITING", flush=True)
"""


def test_an_earlier_exit_handler_can_join_a_thread_that_waits():
    # cuarray's exit handler parked every other thread's wait at once, so the later handler's join timed out and
    # the lock stayed held: such waits now park only once the interpreter finalizes.
    started = time.monotonic()
    proc = run_python(code=ATEXIT_JOIN_CHILD, timeout=120)
    _assert_clean_exit(proc, started)
    line = next((x for x in proc.stdout.splitlines() if x.startswith("JOINED")), "")
    assert line.startswith("JOINED True LOCK True ITERATIONS"), describe(proc)
    assert int(line.split()[-1]) > 0, describe(proc)


# argv[1]: the wait the daemon thread is in when the main thread ends; argv[2] as above.
GPU_EXIT_CHILD = (
    f"SPIN = {SPIN_SOURCE!r}\n"
    + r"""
import atexit, sys, threading, time
import numpy as np
import cuarray as cp

which = sys.argv[1]
if sys.argv[2] == "no_begin_exit":
    atexit.unregister(cp._core.cuda._begin_exit)
out = cp.zeros(1000, dtype=np.float32)
mask = cp.arange(1000) % 2 == 0
stream = cp.cuda.Stream(non_blocking=True)
kernel = cp.RawKernel(SPIN, "spin_then_write")
calls = {
    "stream": stream.synchronize,
    "event": lambda: (lambda e: (e.record(stream), e.synchronize()))(cp.cuda.Event()),
    "device": lambda: cp.cuda.Device().synchronize(),
    "get": lambda: out.get(stream=stream),
    "mask": lambda: out[mask],
}

waiting = threading.Event()

def worker():
    # On `stream`, so that the main thread's own work is not behind the kernel.
    with stream:
        kernel((1,), (1,), (np.uint64(0), np.uint64(0), out, np.int32(1000)))
        calls[which]()  # loads what the call needs
        kernel((64,), (256,), (np.uint64(2_000_000_000), np.uint64(0), out, np.int32(1000)))
        print("WAITING", flush=True)
        waiting.set()
        while True:
            calls[which]()

t = threading.Thread(target=worker, daemon=True)
t.start()
assert waiting.wait(60)
time.sleep(0.3)
assert (cp.arange(3) + 1).get().tolist() == [1, 2, 3]
print("EXITING", flush=True)
"""
)


@pytest.mark.gpu
@pytest.mark.parametrize(
    "which, handler",
    [
        ("stream", "plain"),
        ("event", "plain"),
        ("device", "plain"),
        ("get", "plain"),
        ("mask", "plain"),
        # Without the exit handler the thread meets the GIL's end: through the call's own release (Stream.synchronize)
        # and through the wait's (a mask's count read back with the GIL held).
        ("stream", "no_begin_exit"),
        ("mask", "no_begin_exit"),
    ],
)
def test_exit_while_a_daemon_thread_waits_for_the_gpu_is_clean(which, handler):
    started = time.monotonic()
    proc = run_python(which, handler, code=GPU_EXIT_CHILD, timeout=120)
    _assert_clean_exit(proc, started)
    assert "WAITING" in proc.stdout, describe(proc)


# The same with a host function: the thread a later exit handler joins waits for what its host function does.
ATEXIT_HOST_FUNC_CHILD = (
    f"SPIN = {SPIN_SOURCE!r}\n"
    + r"""
import atexit, threading, time
import numpy as np
ran = threading.Event()

def shutdown():
    go.set()
    t.join(timeout=30)
    print("JOINED", not t.is_alive(), "RAN", ran.is_set(), flush=True)

atexit.register(shutdown)
import cuarray as cp
go = threading.Event()
s = cp.cuda.Stream(non_blocking=True)
spin = cp.RawKernel(SPIN, "spin_then_write")
z = np.uint64(0)
spin((1,), (1,), (z, z, z, np.int32(0)), stream=s)
s.launch_host_func(lambda arg: None, None)  # (the host-callback thread starts here, not at exit)
s.synchronize()

def worker():
    go.wait()
    spin((1,), (1,), (np.uint64(300_000_000), z, z, np.int32(0)), stream=s)
    s.launch_host_func(lambda arg: ran.set(), None)
    ran.wait(20)

t = threading.Thread(target=worker, daemon=True)
t.start()
print("EXITING", flush=True)
"""
)


@pytest.mark.gpu
def test_host_functions_still_run_for_an_earlier_exit_handler():
    # cuarray's exit handler stopped serving host functions, so a thread that an earlier-registered handler
    # joined waited for a host function that never ran.
    started = time.monotonic()
    proc = run_python(code=ATEXIT_HOST_FUNC_CHILD, timeout=120)
    _assert_clean_exit(proc, started)
    assert "JOINED True RAN True" in proc.stdout, describe(proc)


# ---- a kernel loaded while a host function waits behind device work ----------------------------

# argv[1]: "launch_host_func" or "add_callback"; argv[2]: "raw" (a RawKernel's first launch), "ufunc" (a ufunc
# loop's first use), "matmul" or "fft" (cuBLAS's or cuFFT's first kernel, inputs made beforehand so that the
# library's load is the first). The load comes while the host function still waits behind a spinning kernel.
LOAD_BEHIND_HOST_FUNC_CHILD = (
    f"SPIN = {SPIN_SOURCE!r}\n"
    + r"""
import sys, time
import numpy as np
import cuarray as cp

s = cp.cuda.Stream(non_blocking=True)
spin = cp.RawKernel(SPIN, "spin_then_write")
z = np.uint64(0)
spin((1,), (1,), (z, z, z, np.int32(0)), stream=s)
a = cp.full((4, 4), 3.0, dtype=cp.float32)
b = cp.full((4, 4), 3.5, dtype=cp.float32)
c = cp.full(6, 7.0, dtype=cp.complex128)
s.synchronize()
cp.cuda.Device().synchronize()
ran = []
spin((1,), (1,), (np.uint64(1_000_000_000), z, z, np.int32(0)), stream=s)
if sys.argv[1] == "launch_host_func":
    s.launch_host_func(lambda arg: ran.append(arg), 7)
else:
    s.add_callback(lambda stream, status, arg: ran.append(arg), 7)
t0 = time.monotonic()
if sys.argv[2] == "raw":
    src = 'extern "C" __global__ void fresh_%d(int* p) { p[0] = 41 + 1; }' % time.time_ns()
    p = cp.zeros(1, dtype=cp.int32)
    cp.RawKernel(src, src.split()[4].split("(")[0])((1,), (1,), (p,))
    value = int(p[0])
elif sys.argv[2] == "matmul":
    value = int((a @ b)[0, 0])
elif sys.argv[2] == "fft":
    value = int(cp.fft.fft(c)[0].real)
else:
    value = int((cp.arange(3, dtype=cp.uint16) * np.uint16(21))[2])
s.synchronize()
print("DONE", value, ran, round(time.monotonic() - t0, 2), flush=True)
"""
)


@pytest.mark.gpu
@pytest.mark.parametrize("how", ["launch_host_func", "add_callback"])
@pytest.mark.parametrize("kernel", ["raw", "ufunc", "matmul", "fft"])
def test_a_kernel_loads_while_a_host_function_waits_behind_device_work(how, kernel):
    # Hung: the load waited for the device to be idle holding Python's lock, which the host function needed
    # (Note [Loading waits for the device] in cpp/cuarray/jit/kernel_cache.cpp; for the libraries' kernels,
    # Note [Library calls wait for the device] in cpp/cuarray/lib/library.h). On an H200 the fft cases hung before
    # that Note; cuBLAS's first GEMM did not wait there, so "matmul" guards what its next version may do.
    proc = run_python(how, kernel, code=LOAD_BEHIND_HOST_FUNC_CHILD, timeout=60)
    assert proc.returncode == 0, describe(proc)
    assert "DONE 42 [7]" in proc.stdout, describe(proc)


# ---- the libraries after running out of device memory ------------------------------------------

# Before each check, fills the device with arrays until OutOfMemoryError and drops them (so that each library
# meets a pool holding the device's memory, not one an earlier check's retry emptied); prints one JSON line of
# {name: "ok" | error text}.
OOM_CHILD = r"""
import gc, json
import numpy as np
import cuarray as cp

rng = np.random.default_rng(0)
a = rng.standard_normal((64, 64))
spd = a @ a.T + 64 * np.eye(64)
signal = rng.standard_normal(1024)

def fill_and_release():
    kept = []
    chunk = 1 << 30
    while chunk >= 1 << 20:
        try:
            kept.append(cp.empty(chunk, dtype=np.uint8))
        except cp.cuda.memory.OutOfMemoryError:
            chunk //= 2
    print("FILLED", sum(k.nbytes for k in kept) >> 20, "MiB", flush=True)
    del kept
    gc.collect()

checks = {
    "fft": lambda: np.allclose(cp.fft.fft(cp.asarray(signal)).get(), np.fft.fft(signal)),
    "rfft2": lambda: np.allclose(cp.fft.rfft2(cp.asarray(a)).get(), np.fft.rfft2(a)),
    "solve": lambda: np.allclose(cp.linalg.solve(cp.asarray(spd), cp.asarray(signal[:64])).get(),
                                 np.linalg.solve(spd, signal[:64])),
    "inv": lambda: np.allclose(cp.linalg.inv(cp.asarray(spd)).get(), np.linalg.inv(spd)),
    "eigh": lambda: np.allclose(cp.linalg.eigh(cp.asarray(spd))[0].get(), np.linalg.eigh(spd)[0]),
    "svd": lambda: np.allclose(cp.linalg.svd(cp.asarray(a), compute_uv=False).get(),
                               np.linalg.svd(a, compute_uv=False)),
    "cholesky": lambda: np.allclose(cp.linalg.cholesky(cp.asarray(spd)).get(), np.linalg.cholesky(spd)),
    "matmul": lambda: np.allclose((cp.asarray(a) @ cp.asarray(a)).get(), a @ a),
    "random": lambda: abs(float(cp.random.default_rng(1).standard_normal(100_000).mean())) < 0.05,
    # x * 2 is exact, so a contracted multiply-add rounds as NumPy's two operations do.
    "new_kernel": lambda: cp.ElementwiseKernel("float64 x", "float64 y", "y = x * 2 + 0.25", "oom_new")(
        cp.asarray(signal)).get().tolist() == (signal * 2 + 0.25).tolist(),
    "sort": lambda: (cp.sort(cp.asarray(signal)).get() == np.sort(signal)).all(),
}
results = {}
for name, check in checks.items():
    fill_and_release()
    try:
        results[name] = "ok" if check() else "wrong result"
    except Exception as e:
        results[name] = f"{type(e).__name__}: {e}"
print(json.dumps(results), flush=True)
"""


@pytest.mark.gpu
@fills_the_gpu
def test_every_library_works_after_out_of_memory_and_release():
    # After OutOfMemoryError and the release of every array, cuFFT plans and cuSOLVER handles failed
    # (CUFFT_INTERNAL_ERROR, CUSOLVER_STATUS_NOT_INITIALIZED): the pool kept the memory they allocate.
    # Without a memory limit: under one the pool never takes the device's memory from the libraries.
    results = _child_result(code=OOM_CHILD, env={"CUARRAY_GPU_MEMORY_LIMIT": None}, timeout=300)
    failed = {k: v for k, v in results.items() if v != "ok"}
    assert not failed, f"after running out of memory: {failed}"


# ---- an allocation's retry lets other threads run -----------------------------------------------

# A thread allocates past the memory limit while a long kernel runs on another stream (the retry waits for the
# device); the main thread counts loop iterations meanwhile. Prints JSON: the counts during the failing
# allocation, and how long it took.
RETRY_CHILD = (
    f"SPIN = {SPIN_SOURCE!r}\n"
    + r"""
import json, threading, time
import numpy as np
import cuarray as cp

kernel = cp.RawKernel(SPIN, "spin_then_write")
other = cp.cuda.Stream(non_blocking=True)
kernel((1,), (1,), (np.uint64(0), np.uint64(0), np.uint64(0), np.int32(0)), stream=other)
pool = cp.get_default_memory_pool()
pool.set_limit(size=pool.used_bytes() + (64 << 20))
cp.cuda.Device().synchronize()
kernel((1,), (1,), (np.uint64(2_000_000_000), np.uint64(0), np.uint64(0), np.int32(0)), stream=other)

span = {}
def allocate():
    span["start"] = time.monotonic()
    try:
        cp.empty(1 << 30, dtype=np.uint8)
        span["result"] = "allocated"
    except cp.cuda.memory.OutOfMemoryError:
        span["result"] = "oom"
    span["end"] = time.monotonic()

t = threading.Thread(target=allocate)
ticks = []
t.start()
while t.is_alive():
    ticks.append(time.monotonic())
    sum(range(100))
t.join()
during = [x for x in ticks if span["start"] <= x <= span["end"]]
gaps = np.diff(during).max() if len(during) > 1 else span["end"] - span["start"]
print(json.dumps({"result": span["result"], "seconds": span["end"] - span["start"], "ticks": len(during),
                  "longest_gap": float(gaps)}), flush=True)
"""
)


@pytest.mark.gpu
def test_failing_allocation_lets_other_threads_run_while_it_waits_for_the_device():
    # The retry waited for the device holding the GIL: the main thread stopped for as long as the kernel ran.
    out = _child_result(code=RETRY_CHILD, timeout=120)
    assert out["result"] == "oom", out
    assert out["seconds"] > 1.0, f"the allocation did not wait for the kernel on the other stream: {out}"
    assert out["ticks"] > 1000, f"the main thread barely ran during the allocation: {out}"
    # The switch interval is 5 ms; the wait gives the GIL back at least every 50 ms.
    assert out["longest_gap"] < 0.2, f"the main thread stopped for {out['longest_gap']:.3f} s: {out}"


# ---- CUDA graphs and device memory (Note [Graph memory] in cpp/cuarray/cuda/memory_pool.h) -----

# argv[1]: "launch" or "upload" (then launch). A graph whose allocation takes 30% of the free memory, captured and
# never run; the device filled with arrays, so that the first launch cannot map that memory; the arrays dropped
# (their memory still cached by the pool); the launch again, with no free_all_blocks. Prints one JSON line.
GRAPH_OOM_CHILD = r"""
import gc, json, sys
import numpy as np
import cuarray as cp

OOM = cp.cuda.memory.OutOfMemoryError
x = cp.ones(int(cp.cuda.Device().mem_info[0] * 0.3) // 4, dtype=np.float32)
s = cp.cuda.Stream(non_blocking=True)
(x[:10] * 2.0).get()
cp.cuda.Device().synchronize()
with s:
    s.begin_capture()
    y = x * 2.0
    g = s.end_capture()

def run():
    if sys.argv[1] == "upload":
        g.upload(s)
    g.launch(s)
    s.synchronize()
    return "ran"

def attempt():
    try:
        return run()
    except Exception as e:
        return f"{type(e).__name__}: {e}"

hog, chunk = [], 1 << 34
while chunk >= 1 << 20:
    try:
        hog.append(cp.empty(chunk, dtype=np.uint8))
    except OOM:
        chunk //= 2
full = attempt()
del hog
gc.collect()
after = attempt()
with s:
    values = [float(y[0]), float(y[-1])] if after == "ran" else []
print(json.dumps({"full": full, "after": after, "values": values}), flush=True)
"""


@pytest.mark.gpu
@fills_the_gpu
@pytest.mark.parametrize("how", ["launch", "upload"])
def test_a_graph_runs_after_out_of_memory_and_release(how):
    # The launch failed until the program called free_all_blocks: the graph's allocation needs memory at launch,
    # and the pool kept what the dropped arrays had held. Without a memory limit, which graphs do not see.
    out = _child_result(how, code=GRAPH_OOM_CHILD, env={"CUARRAY_GPU_MEMORY_LIMIT": None}, timeout=300)
    assert out["full"].startswith("CUDARuntimeError") and "cudaErrorMemoryAllocation" in out["full"], out
    assert out["after"] == "ran", out
    assert out["values"] == [2.0, 2.0], out


# argv[1]: "free_all_blocks" or "retry". A graph whose allocation takes 45% of the free memory runs once; the graph
# and its output are dropped; then free_all_blocks (or nothing: the failing allocation's own retry) and an array of
# 80% of the free memory. Prints one JSON line.
GRAPH_TRIM_CHILD = r"""
import gc, json, sys
import numpy as np
import cuarray as cp

dev = cp.cuda.Device().id
reserved = cp._core.cuda._graph_reserved_bytes
free0 = cp.cuda.Device().mem_info[0]
n = int(free0 * 0.45) // 4
s = cp.cuda.Stream(non_blocking=True)
cp.ones(10, dtype=np.float32).get()
with s:
    s.begin_capture()
    y = cp.ones(n, dtype=np.float32)
    g = s.end_capture()
g.launch(s)
s.synchronize()
ok = float(y[n - 1]) == 1.0
while_alive = reserved(dev)
del y, g
gc.collect()
s.synchronize()
if sys.argv[1] == "free_all_blocks":
    cp.get_default_memory_pool().free_all_blocks()
trimmed = reserved(dev)
try:
    big = cp.empty(int(free0 * 0.8), dtype=np.uint8)
    got = "allocated"
    del big
except cp.cuda.memory.OutOfMemoryError as e:
    got = str(e)
print(json.dumps({"ok": ok, "graph_bytes": n * 4, "while_alive": while_alive, "trimmed": trimmed, "got": got,
                  "finally": reserved(dev)}), flush=True)
"""


@pytest.mark.gpu
@fills_the_gpu
@pytest.mark.parametrize("how", ["free_all_blocks", "retry"])
def test_a_dead_graphs_memory_goes_back_to_the_device(how):
    # CUDA keeps a graph allocation's memory in its graph memory pool after the graph and its output are gone, and
    # nothing trimmed that pool: a large array then raised OutOfMemoryError with nothing alive.
    out = _child_result(how, code=GRAPH_TRIM_CHILD, env={"CUARRAY_GPU_MEMORY_LIMIT": None}, timeout=300)
    assert out["ok"], out
    assert out["while_alive"] >= out["graph_bytes"], out
    if how == "free_all_blocks":
        assert out["trimmed"] < out["graph_bytes"], out
    assert out["got"] == "allocated", out
    assert out["finally"] < out["graph_bytes"], out


def _code_without_comments(path):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, path)) as f:
        text = f.read()
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL))


def test_graph_launches_retry_and_free_all_blocks_trims_graph_memory():
    # No device needed: the source keeps Note [Graph memory] (cpp/cuarray/cuda/memory_pool.h). A launch or upload
    # that maps a graph's allocations is retried after the pool gives its memory back, and free_all_blocks (so also
    # the failing allocation's retry and give_back_cached_memory) trims the device's graph memory.
    graph = _code_without_comments("cpp/cuarray/cuda/graph.cpp")
    for call in ("cudaGraphLaunch(", "cudaGraphUpload("):
        at = [m.start() for m in re.finditer(re.escape(call), graph)]
        assert at, f"{call} not found in graph.cpp"
        for i in at:
            assert "retry_with_memory(" in graph[max(0, i - 1000) : i], f"{call} at {i} is not retried"
    pool = _code_without_comments("cpp/cuarray/cuda/memory_pool.cpp")
    body = pool[pool.index("void MemoryPool::free_all_blocks()") :]
    body = body[: body.index("\n}\n")]
    assert "cudaDeviceGraphMemTrim(device_)" in body
    give_back = pool[pool.index("bool give_back_cached_memory()") :]
    give_back = give_back[: give_back.index("\n}\n")]
    assert give_back.count("graph_reserved_bytes(") == 2, (
        "the graph memory trimmed must count as memory given back"
    )
