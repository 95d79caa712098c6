"""CUDA graphs: Stream.begin_capture / end_capture / is_capturing and cuarray.cuda.Graph (launch, upload).

Replays are compared with the same operations run eagerly (bit for bit: the same kernels run) and with NumPy.
"""

import gc
from types import SimpleNamespace

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same

cuda = cp.cuda
N = 1000
CAPTURE_UNSUPPORTED = 900  # cudaErrorStreamCaptureUnsupported
CAPTURE_INVALIDATED = 901  # cudaErrorStreamCaptureInvalidated
CAPTURE_IMPLICIT = 906  # cudaErrorStreamCaptureImplicit
ILLEGAL_STATE = 401  # cudaErrorIllegalState
NO_DEVICE = r"(?i)no CUDA driver or device"


def host(seed, n=N):
    return np.random.default_rng(seed).uniform(0.5, 2.0, n).astype(np.float32)


def ops(xp, x, w):
    """Ten small operations: elementwise, a reduction, a broadcast copy into an existing array."""
    y = x * 2 + 1
    y = y - 0.5
    y = y * y
    y = xp.sqrt(y)
    y = y + x
    y = xp.abs(y) / 3
    y = xp.maximum(y, 0.75)
    z = xp.sqrt(y).sum()
    w[...] = z
    return y, z


@pytest.fixture
def stream():
    s = cuda.Stream(non_blocking=True)
    yield s
    if s.is_capturing():  # a failed test must not leave the stream capturing
        try:
            s.end_capture()
        except cuda.CUDARuntimeError:
            pass
    cuda.Stream.null.use()


def capture(stream, fn, *args):
    """Runs fn once eagerly (kernels compiled outside the capture), then captures it: (graph, fn's result)."""
    cuda.Stream.null.synchronize()  # inputs uploaded on the null stream, which a non-blocking stream ignores
    with stream:
        fn(*args)
        stream.begin_capture()
        out = fn(*args)
        graph = stream.end_capture()
    return graph, out


# ---- no device needed --------------------------------------------------------------------------------------------


def test_graph_is_exported_and_not_constructible():
    assert "Graph" in cuda.__all__
    with pytest.raises(NotImplementedError, match="begin_capture"):
        cuda.Graph()


def test_capture_mode_constants():
    assert (
        cuda.runtime.streamCaptureModeGlobal,
        cuda.runtime.streamCaptureModeThreadLocal,
        cuda.runtime.streamCaptureModeRelaxed,
    ) == (0, 1, 2)


@pytest.mark.parametrize("mode", [3, -1, "relaxed"])
def test_bad_capture_mode(mode):
    with pytest.raises(ValueError, match="streamCaptureMode"):
        cuda.Stream.null.begin_capture(mode=mode)


@pytest.mark.nogpu
@pytest.mark.parametrize("call", ["begin_capture", "end_capture", "is_capturing"])
def test_no_device(call):
    with pytest.raises(cuda.CUDARuntimeError, match=NO_DEVICE):
        getattr(cuda.Stream.null, call)()


# ---- capture and replay ------------------------------------------------------------------------------------------


@pytest.mark.gpu
def test_replay_follows_input_changes(stream):
    with stream:
        x = cp.asarray(host(0))
        w = cp.zeros(4, dtype=np.float32)
    graph, (y, z) = capture(stream, ops, cp, x, w)
    assert isinstance(graph, cuda.Graph)
    for seed in range(1, 4):
        h = host(seed)
        with stream:
            x.set(h)
            graph.launch()
            stream.synchronize()
            x_eager, w_eager = cp.asarray(h), cp.zeros(4, dtype=np.float32)
            y_eager, z_eager = ops(cp, x_eager, w_eager)
            stream.synchronize()  # the reads below are on the null stream, which a non-blocking one ignores
        # The same kernels ran: bit-identical to eager cuarray, and close to NumPy.
        np.testing.assert_array_equal(y.get(), y_eager.get())
        np.testing.assert_array_equal(z.get(), z_eager.get())
        np.testing.assert_array_equal(w.get(), w_eager.get())
        w_np = np.zeros(4, dtype=np.float32)
        y_np, _ = ops(np, h, w_np)
        assert_same(y, y_np, rtol=1e-5)
        assert_same(w, w_np, rtol=1e-5)


@pytest.mark.gpu
def test_capture_records_without_running(stream):
    x = cp.asarray(host(0))
    w = cp.zeros(4, dtype=np.float32)
    with stream:
        ops(cp, x, cp.zeros(4, dtype=np.float32))  # kernels compiled before the capture
        stream.begin_capture()
        assert stream.is_capturing()
        ops(cp, x, w)
        graph = stream.end_capture()
    assert not stream.is_capturing()
    assert_same(w, np.zeros(4, dtype=np.float32))  # nothing ran yet
    graph.launch(stream)
    stream.synchronize()
    assert w.get()[0] > 0


@pytest.mark.gpu
def test_empty_capture(stream):
    stream.begin_capture()
    graph = stream.end_capture()
    graph.upload(stream)
    graph.launch(stream)
    stream.synchronize()


@pytest.mark.gpu
@pytest.mark.parametrize("mode", [0, 1, 2], ids=["global", "thread_local", "relaxed"])
def test_capture_modes(stream, mode):
    x = cp.asarray(host(0))
    with stream:
        x * 3 + 1  # compiled and loaded before the capture: the strict modes refuse module loads
        stream.begin_capture(mode=mode)
        y = x * 3 + 1
        graph = stream.end_capture()
        graph.launch()
        assert_same(y, host(0) * np.float32(3) + np.float32(1))


@pytest.mark.gpu
def test_kernels_compiled_during_capture(stream):
    x = cp.asarray(np.arange(N, dtype=np.int16))
    with stream:
        stream.begin_capture()
        y = (x * np.int16(3)) ^ np.int16(0x55)  # a kernel this test suite compiles nowhere else
        graph = stream.end_capture()
        graph.launch()
        assert_same(y, (np.arange(N, dtype=np.int16) * np.int16(3)) ^ np.int16(0x55))


@pytest.mark.gpu
def test_upload_then_launch(stream):
    x = cp.asarray(host(0))
    graph, y = capture(stream, lambda a: a + 1, x)
    graph.upload(stream)
    graph.upload()  # the current stream
    graph.launch(stream)
    stream.synchronize()
    assert_same(y, host(0) + np.float32(1))


# ---- memory ------------------------------------------------------------------------------------------------------


@pytest.mark.gpu
def test_many_replays_do_not_grow_the_pool(stream):
    pool = cp.get_default_memory_pool()
    with stream:
        x = cp.asarray(host(0))
        w = cp.zeros(4, dtype=np.float32)
    gc.collect()  # earlier tests' garbage must not be freed between the two readings
    before = pool.used_bytes()
    graph, (y, z) = capture(stream, ops, cp, x, w)
    gc.collect()
    # Only the outputs still referenced hold memory: the capture's temporaries were freed inside the graph.
    held = pool.used_bytes() - before
    assert y.nbytes <= held < 3 * y.nbytes
    for _ in range(300):
        graph.launch(stream)
    stream.synchronize()
    assert pool.used_bytes() - before == held
    assert_same(y, ops(np, host(0), np.zeros(4, dtype=np.float32))[0], rtol=1e-5)
    del graph, y, z
    gc.collect()
    assert pool.used_bytes() == before


@pytest.mark.gpu
def test_outputs_outlive_the_graph(stream):
    x = cp.asarray(host(0))
    graph, y = capture(stream, lambda a: a * 4, x)
    graph.launch(stream)
    stream.synchronize()
    del graph
    gc.collect()
    assert_same(y, host(0) * np.float32(4))
    with stream:
        assert_same(y + 1, host(0) * np.float32(4) + np.float32(1))


@pytest.mark.gpu
def test_outputs_dropped_before_and_between_launches(stream):
    pool = cp.get_default_memory_pool()
    x = cp.asarray(host(0))
    before = pool.used_bytes()
    graph, (a, b) = capture(stream, lambda v: (v + 1, v * 2), x)
    del a  # never launched: its memory never existed
    graph.launch(stream)
    del b  # freed after the launch that made it
    for _ in range(5):
        graph.launch(stream)  # each launch recreates both; the Graph frees them when it dies
    stream.synchronize()
    del graph
    gc.collect()
    assert pool.used_bytes() == before
    with stream:
        assert_same(x * 2, host(0) * np.float32(2))  # the pool still works


@pytest.mark.gpu
def test_arrays_freed_during_capture_are_held_back(stream):
    pool = cp.get_default_memory_pool()
    x = cp.asarray(host(0))
    with stream:
        small = cp.ones(N, dtype=np.float32)
        big = cp.ones(1 << 21, dtype=np.float32)  # 8 MiB: too large for the pool's host cache
        x + 1
        before = pool.used_bytes()
        stream.begin_capture()
        del small, big  # neither can be freed inside the capture
        y = x + 1
        assert pool.used_bytes() >= before
        graph = stream.end_capture()  # not invalidated by the frees
        gc.collect()
        assert pool.used_bytes() < before
        graph.launch()
        again = cp.ones(1 << 21, dtype=np.float32)
        assert_same(y, host(0) + np.float32(1))
        assert float(again.sum()) == 1 << 21


# ---- streams -----------------------------------------------------------------------------------------------------


@pytest.mark.gpu
def test_launch_on_other_streams(stream):
    x = cp.asarray(host(0))
    graph, y = capture(stream, lambda a: cp.sqrt(a) * 2, x)
    other = cuda.Stream()
    for k, s in enumerate([stream, other, cuda.Stream.null, other, stream]):
        h = host(10 + k)
        with s:
            x.set(h)
            if k % 2:
                graph.launch()  # the current stream
            else:
                graph.launch(stream=s)
            s.synchronize()
        assert_same(y, np.sqrt(h) * np.float32(2), rtol=1e-6)


@pytest.mark.gpu
def test_launch_into_a_capturing_stream_raises(stream):
    x = cp.asarray(host(0))
    graph, _ = capture(stream, lambda a: a + 1, x)
    other = cuda.Stream(non_blocking=True)
    other.begin_capture()
    with pytest.raises(cuda.CUDARuntimeError, match="capturing"):
        graph.launch(other)
    other.end_capture()


@pytest.mark.gpu
def test_debug_dot_str(stream):
    # cudaGraphDebugDotPrint's Graphviz text: the captured kernel's name, more with the verbose flag.
    x = cp.asarray(host(0))
    graph, _ = capture(stream, cp.sin, x)
    dot = graph.debug_dot_str()
    verbose = graph.debug_dot_str(cuda.runtime.cudaGraphDebugDotFlagsVerbose)
    assert "digraph" in dot and "sin" in dot and "sin" in verbose
    assert dot != verbose


@pytest.mark.multi_gpu
def test_launch_on_another_device_raises(stream):
    x = cp.asarray(host(0))
    graph, _ = capture(stream, lambda a: a + 1, x)
    with cuda.Device(1):
        s1 = cuda.Stream()
        with pytest.raises(cuda.CUDARuntimeError, match="device 0.*device 1"):
            graph.launch(s1)
        with pytest.raises(cuda.CUDARuntimeError, match="device 0.*device 1"):
            graph.upload(s1)


# ---- what can be captured ----------------------------------------------------------------------------------------


@pytest.mark.gpu
def test_fused_functions_and_raw_kernels(stream):
    twice = cp.RawKernel(
        r"""
        extern "C" __global__ void twice(const float* x, float* y, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) y[i] = 2.0f * x[i];
        }""",
        "twice",
    )

    @cp.fuse()
    def axpy(a, b):
        return a * 3 + b

    @cp.fuse()
    def sum_of_squares(a):
        return cp.sum(a * a)

    x = cp.asarray(host(0))
    out = cp.empty(N, dtype=np.float32)

    def work():
        t = axpy(x, x)
        twice(((N + 127) // 128,), (128,), (t, out, np.int32(N)))
        return sum_of_squares(out)

    graph, total = capture(stream, work)
    h = host(5)
    with stream:
        x.set(h)
        graph.launch()
        expected = 2 * (h * np.float32(3) + h)
        assert_same(out, expected, rtol=1e-6)
        np.testing.assert_allclose(float(total), float(np.sum(expected.astype(np.float64) ** 2)), rtol=1e-5)


@pytest.mark.gpu
def test_copies_between_device_arrays(stream):
    a = cp.asarray(host(0))
    b = cp.empty(N, dtype=np.float32)
    c = cp.empty(N, dtype=np.float32)

    def work():
        b[...] = a  # a device-to-device copy
        cp.copyto(c, a[::-1])  # a strided copy kernel
        return a.copy(), a.astype(np.float64), a.reshape(20, 50).T.copy()

    graph, (d, e, f) = capture(stream, work)
    h = host(7)
    with stream:
        a.set(h)
        graph.launch()
        assert_same(b, h)
        assert_same(c, h[::-1])
        assert_same(d, h)
        assert_same(e, h.astype(np.float64))
        assert_same(f, h.reshape(20, 50).T.copy())


# ---- errors ------------------------------------------------------------------------------------------------------


@pytest.mark.gpu
def test_null_stream_cannot_capture():
    with pytest.raises(RuntimeError, match="null stream") as e:
        cuda.Stream.null.begin_capture()
    assert isinstance(e.value, cuda.CUDARuntimeError)
    assert not cuda.Stream.null.is_capturing()
    with pytest.raises(cuda.CUDARuntimeError, match="not capturing"):
        cuda.Stream.null.end_capture()


@pytest.mark.gpu
def test_end_capture_without_begin(stream):
    with pytest.raises(cuda.CUDARuntimeError, match=r"not capturing \(cudaErrorIllegalState\)") as e:
        stream.end_capture()
    assert e.value.status == ILLEGAL_STATE
    assert not stream.is_capturing()


@pytest.mark.gpu
def test_begin_capture_twice(stream):
    stream.begin_capture()
    with pytest.raises(cuda.CUDARuntimeError, match=r"already capturing \(cudaErrorIllegalState\)"):
        stream.begin_capture()
    assert stream.is_capturing()
    stream.end_capture()
    assert not stream.is_capturing()


def _inputs(stream):
    """The arrays the operations below use, made and used once before any capture (libraries and kernels
    loaded)."""
    with stream:  # made on the stream that uses them: a non-blocking stream does not wait for the null one
        c = SimpleNamespace(
            stream=stream,
            a=cp.asarray(host(0)),
            idx=cp.asarray(np.array([0, 3, 5])),
            spd=cp.asarray(np.eye(3) * 2.0),
            long_row=cp.asarray(np.arange(5000, 0, -1).astype(np.float32)),
        )
        cp.linalg.cholesky(c.spd)
        cp.linalg.svd(c.spd)
        cp.sort(c.long_row)
        c.a[c.idx]
        c.a[c.a > 1]
    return c


# Operations that wait for the device or use host memory, each with words its error must contain.
HOST_WAITS = {
    "get": (lambda c: c.a.get(), "device-to-host copy"),
    "asnumpy": (lambda c: cp.asnumpy(c.a), "device-to-host copy"),
    "float": (lambda c: float(c.a[0]), "device-to-host copy"),
    "repr": (lambda c: repr(c.a), "device-to-host copy"),
    "asarray": (lambda c: cp.asarray(np.ones(3)), "host-to-device copy"),
    "set": (lambda c: c.a.set(host(1)), "host-to-device copy"),
    "boolean_mask": (lambda c: c.a[c.a > 1], "nonzero"),
    "nonzero": (lambda c: cp.nonzero(c.a), "nonzero"),
    "device_index": (lambda c: c.a[c.idx], "bounds check"),
    "take": (lambda c: cp.take(c.a, c.idx), "bounds check"),
    "cholesky": (lambda c: cp.linalg.cholesky(c.spd), "linalg"),
    "svd": (
        lambda c: cp.linalg.svd(c.spd),
        "cuSOLVER",
    ),  # refused before cuSOLVER runs (it would fail inside)
    "radix_sort": (lambda c: cp.sort(c.long_row), "2048"),
    "stream_synchronize": (lambda c: c.stream.synchronize(), "Stream.synchronize"),
    "device_synchronize": (lambda c: cuda.Device().synchronize(), "Device.synchronize"),
    "free_all_blocks": (lambda c: cp.get_default_memory_pool().free_all_blocks(), "free_all_blocks"),
}


@pytest.mark.gpu
@pytest.mark.parametrize("name", HOST_WAITS)
def test_host_waits_during_capture_raise_and_end_it(stream, name):
    op, words = HOST_WAITS[name]
    c = _inputs(stream)
    x = cp.asarray(host(0))
    with stream:
        stream.begin_capture()
        y = x * 2  # work captured before the error is discarded with the capture
        with pytest.raises(cuda.CUDARuntimeError, match="capturing a CUDA graph") as e:
            op(c)
        del y  # made by the discarded capture: it never had memory
    assert words in str(e.value)
    assert "capture was ended" in str(e.value)
    assert "cudaErrorStreamCaptureUnsupported" in str(e.value)  # as CuPy's message names it
    assert e.value.status == CAPTURE_UNSUPPORTED
    assert not stream.is_capturing()
    # As in CuPy, the end_capture that follows says the capture was invalidated (Note [Failed captures]).
    with pytest.raises(cuda.CUDARuntimeError, match="cudaErrorStreamCaptureInvalidated") as e:
        stream.end_capture()
    assert e.value.status == CAPTURE_INVALIDATED
    assert words in str(e.value)
    with pytest.raises(cuda.CUDARuntimeError, match="not capturing"):
        stream.end_capture()
    with stream:  # the stream and the process are usable again
        assert_same(x * 2, host(0) * np.float32(2))
        graph, y = capture(stream, lambda a: a - 1, x)
        graph.launch()
        assert_same(y, host(0) - np.float32(1))


@pytest.mark.gpu
def test_device_synchronize_ends_a_capture_on_another_stream(stream):
    x = cp.asarray(host(0))
    stream.begin_capture()
    with pytest.raises(cuda.CUDARuntimeError, match="Device.synchronize"):
        cuda.Device().synchronize()
    assert not stream.is_capturing()
    cuda.Device().synchronize()
    assert_same(x + 1, host(0) + np.float32(1))


@pytest.mark.gpu
def test_capture_invalidated_by_cuda_ends_cleanly():
    # A blocking stream captures; work on the legacy null stream would wait for it, which CUDA refuses and
    # which invalidates the capture: the capture is ended there, and end_capture says so.
    blocking = cuda.Stream()
    x = cp.asarray(host(0))
    x + 1
    blocking.begin_capture()
    with pytest.raises(cuda.CUDARuntimeError, match="cudaErrorStreamCaptureImplicit") as e:
        x + 1  # on the null stream
    assert e.value.status == CAPTURE_IMPLICIT
    assert not blocking.is_capturing()
    assert_same(x + 3, host(0) + np.float32(3))  # the null stream works again
    with pytest.raises(cuda.CUDARuntimeError, match="invalidated") as e:
        blocking.end_capture()
    assert e.value.status == CAPTURE_INVALIDATED
    assert not blocking.is_capturing()
    with blocking:
        assert_same(x + 2, host(0) + np.float32(2))


@pytest.mark.gpu
def test_end_capture_of_a_stream_that_joined_another_capture():
    # CuPy's test_stream_capture_failure2: a stream that waits on an event of a capture joins it; ending the
    # capture there is CUDA's cudaErrorStreamCaptureUnmatched, which invalidates the capture it joined.
    s1, s2 = cp.cuda.Stream(non_blocking=True), cp.cuda.Stream(non_blocking=True)
    a = cp.arange(100.0)
    e = cp.cuda.Event()
    with s1:
        with pytest.raises(cp.cuda.CUDARuntimeError, match="cudaErrorIllegalState"):
            s2.end_capture()
        s1.begin_capture()
        e.record(s1)
        s2.wait_event(e)
        with s2:
            a *= 3  # in place: captured, never run
        with pytest.raises(cp.cuda.CUDARuntimeError, match="cudaErrorStreamCaptureUnmatched"):
            s2.end_capture()
        with pytest.raises(cp.cuda.CUDARuntimeError, match="cudaErrorStreamCaptureInvalidated"):
            s1.end_capture()
    assert not s1.is_capturing() and not s2.is_capturing()
    s1.synchronize()
    s2.synchronize()
    np.testing.assert_array_equal(a.get(), np.arange(100.0))


def _transfers_work():
    """Round trips of every staging size, more of them than there are staging slots."""
    for n in (3, 5000, 3 << 20):
        for k in range(6):
            h = np.arange(n, dtype=np.float32) + k
            np.testing.assert_array_equal(cp.asarray(h).get(), h)


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["boolean_mask", "get", "asarray", "stream_synchronize"])
def test_a_joined_stream_refuses_host_waits_and_ends_the_capture(name):
    # CuPy's test_stream_capture_failure3: s2 joins s1's capture through an event, then does something a graph
    # cannot record. It raises, the capture is over for both streams, and the process works on (Note [Joined
    # streams]); before, s2 was not known to capture and its staging copy poisoned the transfers after it.
    op, words = HOST_WAITS[name]
    s1, s2 = cuda.Stream(non_blocking=True), cuda.Stream(non_blocking=True)
    c = _inputs(s2)
    e = cuda.Event()
    with s1:
        s1.begin_capture()
        e.record(s1)
        assert not s2.is_capturing()
        s2.wait_event(e)
        assert s2.is_capturing()
        with s2, pytest.raises(cuda.CUDARuntimeError, match="is capturing a CUDA graph") as err:
            op(c)
        assert words in str(err.value)
        assert not s1.is_capturing() and not s2.is_capturing()
        with pytest.raises(cuda.CUDARuntimeError, match="cudaErrorStreamCaptureInvalidated") as err:
            s1.end_capture()
        # Work recorded on s2 (a kernel, an allocation) left it unjoined.
        if name in ("boolean_mask", "asarray"):
            assert "cudaErrorStreamCaptureUnjoined" in str(err.value)  # as CuPy's end_capture says
    s1.synchronize()
    s2.synchronize()
    _transfers_work()
    with s2:
        _transfers_work()


@pytest.mark.gpu
def test_fork_join_capture_replays():
    # Work forked to s2 and joined back is recorded into s1's graph; arrays made on s2 during the capture get
    # graph memory, also the temporaries dropped while capturing.
    s1, s2 = cuda.Stream(non_blocking=True), cuda.Stream(non_blocking=True)
    x = cp.asarray(host(0))
    cuda.Stream.null.synchronize()
    fork, join = cuda.Event(), cuda.Event()

    def body():
        fork.record(s1)
        s2.wait_event(fork)
        with s2:
            t = x * 3
            y = t - 1  # t dies here, during the capture, on the joined stream
            del t
            y = cp.sqrt(y)
        join.record(s2)
        s1.wait_event(join)
        with s1:
            return y * 2 + x

    with s1:
        body()  # kernels compiled outside the capture
        s1.synchronize()
        s1.begin_capture()
        z = body()
        assert s2.is_capturing()
        graph = s1.end_capture()
    assert not s2.is_capturing()
    expected = np.sqrt(host(0) * np.float32(3) - np.float32(1)) * np.float32(2) + host(0)
    for _ in range(3):
        graph.launch(s1)
        s1.synchronize()
        np.testing.assert_allclose(z.get(), expected, rtol=1e-6)
    del graph, z
    gc.collect()
    _transfers_work()


@pytest.mark.gpu
def test_discarding_from_a_joined_stream_ends_the_origin_capture():
    # An exception leaving `with s2:` of a joined stream ends the capture it joined (Note [Failed captures]).
    s1, s2 = cuda.Stream(non_blocking=True), cuda.Stream(non_blocking=True)
    x = cp.asarray(host(0))
    e = cuda.Event()
    with s1:
        s1.begin_capture()
        e.record(s1)
        s2.wait_event(e)
        with pytest.raises(ZeroDivisionError), s2:
            x + 1
            raise ZeroDivisionError
        assert not s1.is_capturing() and not s2.is_capturing()
        with pytest.raises(cuda.CUDARuntimeError, match="cudaErrorStreamCaptureInvalidated"):
            s1.end_capture()
    with s2:
        assert_same(x + 1, host(0) + np.float32(1))
    _transfers_work()
