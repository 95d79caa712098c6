"""Per-call overhead on small arrays (1000 float32 elements): Python wall time in a loop.

At this size the GPU work is nothing; what is measured is what the library spends on the host per call,
the figure the lessons' small cells are made of.
"""

from cases_lessons import chain_of_ten, squared_diff
from harness import CUPY_LIKE, GPU_LIBS, LIBS, Case, at_most, host_random

N = 1000


def _pair(lib):
    return lib.rand(N, seed=0), lib.rand(N, seed=1)


def _add(lib):
    a, b = _pair(lib)
    return lambda: a + b


def _axpy(lib):
    a, b = _pair(lib)
    return lambda: a * 2.0 + b


def _sum(lib):
    a, _ = _pair(lib)
    return a.sum


def _zeros(lib):
    # As users write it: float64 for NumPy/CuPy/cuarray, float32 in PyTorch (each one's default).
    if lib.name == "torch":
        return lambda: lib.xp.zeros(N, device="cuda")
    return lambda: lib.xp.zeros(N)


def _asarray(lib):
    host = host_random(1024)  # 4 KB
    if lib.name == "torch":
        return lambda: lib.xp.as_tensor(host, device="cuda")
    return lambda: lib.xp.asarray(host)


def _asnumpy(lib):
    dev = lib.rand(1024)
    if lib.name == "torch":
        return lambda: dev.cpu().numpy()
    return lambda: lib.xp.asnumpy(dev)


def _slice(lib):
    a, _ = _pair(lib)
    return lambda: a[1:-1]


def _reshape(lib):
    a, _ = _pair(lib)
    return lambda: a.reshape(25, 40)


def _fused(lib):
    a, b = _pair(lib)
    f = lib.xp.fuse(squared_diff)
    return lambda: f(a, b)


def _chain(fused):
    def make(lib):
        x, y = _pair(lib)
        f = lib.fuse(chain_of_ten) if fused else chain_of_ten
        return lambda: f(x, y)

    return make


def _matmul64(lib):
    a, b = lib.rand((64, 64), seed=0), lib.rand((64, 64), seed=1)
    return lambda: a @ b


def _ten_ops(x, y):
    """Ten small elementwise operations: what one replay of a CUDA graph stands in for."""
    t = x * 2.0
    t = t + y
    t = t - 1.0
    t = t * t
    t = t / 3.0
    t = t + x
    t = abs(t)
    t = t * 0.5
    t = t - y
    return t + 1.0


def _ten_ops_eager(lib):
    x, y = _pair(lib)
    return lambda: _ten_ops(x, y)


def _ten_ops_graph(lib):
    x, y = _pair(lib)
    stream = lib.xp.cuda.Stream(non_blocking=True)
    with stream:
        _ten_ops(x, y)  # kernels compiled before the capture
        stream.begin_capture()
        out = _ten_ops(x, y)
        graph = stream.end_capture()

    def replay():
        graph.launch(stream)

    replay.keep = (x, y, out)  # the graph reads and writes these by address
    return replay


def _launch_floor(lib):
    """One launch of an empty kernel on the default stream through CuPy's thin driver binding: the host cost
    below which no library's per-op time can go on this machine."""
    cupy = lib.xp
    kernel = cupy.RawKernel('extern "C" __global__ void noop() {}', "noop")
    kernel((1,), (32,), ())
    function, stream = kernel.kernel.ptr, cupy.cuda.get_current_stream().ptr
    launch = cupy.cuda.driver.launchKernel

    def once():
        launch(function, 1, 1, 1, 32, 1, 1, 0, stream, 0, 0)

    once.keep = kernel  # owns the module the function lives in
    return once


def _readback_floor(lib):
    """A 4 KB device-to-host copy into pinned memory and a stream synchronize, through CuPy's thin runtime
    binding: the floor of an asnumpy of 4 KB."""
    cupy = lib.xp
    runtime = cupy.cuda.runtime
    src, pinned = cupy.zeros(1024, cupy.float32), cupy.cuda.alloc_pinned_memory(4096)
    stream = cupy.cuda.get_current_stream().ptr

    def readback():
        runtime.memcpyAsync(pinned.ptr, src.data.ptr, 4096, runtime.memcpyDeviceToHost, stream)
        runtime.streamSynchronize(stream)

    return readback


def _case(name, make, target=None, libs=LIBS, env=None):
    return Case(name, "overhead", make, "us", timer="wall", target=target, libs=libs, env=env)


CASES = [
    _case("a + b", _add, at_most(3.0)),
    _case("a * 2.0 + b", _axpy, at_most(6.0)),
    _case("a.sum()", _sum, at_most(4.0)),
    _case("zeros(1000)", _zeros, at_most(2.0, strict=True)),
    _case("asarray 4 KB host->device", _asarray, at_most(6.0, strict=True), libs=GPU_LIBS),
    _case("asnumpy 4 KB device->host", _asnumpy, at_most(6.0, strict=True), libs=GPU_LIBS),
    _case("slice view a[1:-1]", _slice, at_most(1.0, strict=True)),
    _case("reshape(25, 40) view", _reshape),
    _case("fused (x-y)*(x-y)", _fused, at_most(3.0), libs=CUPY_LIKE),
    _case("matmul 64x64 f32", _matmul64, at_most(6.0)),
    _case("10 elementwise ops, eager", _ten_ops_eager),
    _case("10 elementwise ops, one CUDA graph launch", _ten_ops_graph, libs=CUPY_LIKE),
    _case("chain of 10 ops in 5 lines, eager", _chain(False)),
    _case("chain of 10 ops in 5 lines, fuse", _chain(True), libs=(*CUPY_LIKE, "jax")),
    # cuarray fuses eager chains by itself: of arrays of 2^20 elements and more always, of smaller ones while their
    # chains are three ops or longer (docs/behaviour.md); CUARRAY_AUTO_FUSE=large fuses the large ones alone, as
    # cuarray did before. The chain is fused from its second run on, once its kernel is compiled.
    _case(
        "chain of 10 ops in 5 lines, eager, CUARRAY_AUTO_FUSE=large",
        _chain(False),
        libs=("cuarray",),
        env={"CUARRAY_AUTO_FUSE": "large"},
    ),
    _case("a + b, CUARRAY_AUTO_FUSE=1", _add, libs=("cuarray",), env={"CUARRAY_AUTO_FUSE": "1"}),
    _case("floor: empty kernel launch (CuPy's cuLaunchKernel binding)", _launch_floor, libs=("cupy",)),
    _case("floor: 4 KB device->host copy + sync (CuPy's runtime binding)", _readback_floor, libs=("cupy",)),
]
