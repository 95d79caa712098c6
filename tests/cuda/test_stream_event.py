"""cuarray.cuda.Stream, Event, get_current_stream and get_elapsed_time."""

import threading

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same, spin_then_write

pytestmark = pytest.mark.gpu

cuda = cp.cuda
N = 1 << 22  # enough work (16 MiB of float32) for a stream to be busy for a moment


@pytest.fixture(autouse=True)
def back_to_null_stream():
    yield
    cuda.Stream.null.use()


def test_default_current_stream_is_null():
    assert cuda.get_current_stream() == cuda.Stream.null
    assert isinstance(cuda.Stream.null, cuda.Stream)


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"non_blocking": True}, {"non_blocking": False}],
    ids=["default", "non_blocking", "blocking"],
)
def test_create_stream(kwargs):
    s = cuda.Stream(**kwargs)
    assert isinstance(s, cuda.Stream)
    assert s != cuda.Stream.null
    with s:
        x = cp.arange(10, dtype=np.float32)
    s.synchronize()
    assert_same(x, np.arange(10, dtype=np.float32))


def test_with_stream_makes_it_current_and_restores():
    s1, s2 = cuda.Stream(), cuda.Stream(non_blocking=True)
    assert cuda.get_current_stream() == cuda.Stream.null
    with s1 as entered:
        assert entered == s1
        assert cuda.get_current_stream() == s1
        with s2:
            assert cuda.get_current_stream() == s2
        assert cuda.get_current_stream() == s1
    assert cuda.get_current_stream() == cuda.Stream.null


def test_with_stream_restores_after_exception():
    s = cuda.Stream()
    with pytest.raises(KeyError), s:
        raise KeyError("boom")
    assert cuda.get_current_stream() == cuda.Stream.null


def test_same_stream_entered_by_two_threads_left_in_the_other_order():
    # Each thread gets back its own previous stream (Note [Current stream and with] in cuda/stream.py).
    shared, mine = cuda.Stream(), cuda.Stream(non_blocking=True)
    steps = [threading.Event() for _ in range(4)]
    seen, errors = {}, []

    def other_thread():
        try:
            mine.use()  # this thread's stream before the block
            shared.__enter__()
            steps[0].set()
            assert steps[1].wait(10)  # the main thread has entered too
            shared.__exit__(None, None, None)  # leaves first
            seen["other_after_exit"] = cuda.get_current_stream() == mine
            steps[2].set()
            assert steps[3].wait(10)
            seen["other_at_end"] = cuda.get_current_stream() == mine
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
            for s in steps:
                s.set()

    t = threading.Thread(target=other_thread)
    t.start()
    assert steps[0].wait(10)
    with shared:
        steps[1].set()
        assert steps[2].wait(10)  # the other thread has left its block
        assert cuda.get_current_stream() == shared  # not changed by the other thread's exit
    assert cuda.get_current_stream() == cuda.Stream.null  # not the other thread's previous stream
    steps[3].set()
    t.join()
    assert not errors, errors
    assert seen == {"other_after_exit": True, "other_at_end": True}


def test_same_stream_nested_in_one_thread():
    s, other = cuda.Stream(), cuda.Stream()
    with s:
        with s:
            assert cuda.get_current_stream() == s
            with other:
                with s:
                    assert cuda.get_current_stream() == s
                assert cuda.get_current_stream() == other
            assert cuda.get_current_stream() == s
        assert cuda.get_current_stream() == s
    assert cuda.get_current_stream() == cuda.Stream.null


def test_use_inside_with_lasts_until_the_block_ends():
    # CuPy's test_mix_use_context: leaving a block restores the enclosing block's stream, not one use()d inside.
    s1, s2, s3 = cuda.Stream(), cuda.Stream(), cuda.Stream()
    with s1:
        s2.use()
        assert cuda.get_current_stream() == s2
        with s3:
            assert cuda.get_current_stream() == s3
        assert cuda.get_current_stream() == s1
    assert cuda.get_current_stream() == cuda.Stream.null


def test_use_outside_with_is_restored_after_the_block():
    # CuPy's test_mix_use_context_reset (cupy/cupy#8377).
    s1, s2 = cuda.Stream(), cuda.Stream()
    s1.use()
    with s2:
        assert cuda.get_current_stream() == s2
        with s1:
            assert cuda.get_current_stream() == s1
        assert cuda.get_current_stream() == s2
    assert cuda.get_current_stream() == s1


def test_with_restores_after_exception_in_nested_blocks():
    s1, s2 = cuda.Stream(), cuda.Stream()
    with s1:
        with pytest.raises(ValueError), s2:
            raise ValueError("inner")
        assert cuda.get_current_stream() == s1
        x = cp.arange(10)
    s1.synchronize()
    assert_same(x, np.arange(10))
    assert cuda.get_current_stream() == cuda.Stream.null


@pytest.mark.multi_gpu
def test_with_restores_the_stream_of_its_own_device():
    s0 = cuda.Stream()
    try:
        with s0:
            cuda.Device(1).use()
            s1 = cuda.Stream()
            s1.use()
        assert cuda.get_current_stream(0) == cuda.Stream.null
        assert cuda.get_current_stream(1) == s1  # use() on the other device is kept
    finally:
        cuda.Stream.null.use()
        cuda.Device(0).use()
        cuda.Stream.null.use()


@pytest.mark.multi_gpu
def test_a_stream_of_another_device_is_refused_as_cupy_does():
    with cuda.Device(0):
        s0 = cuda.Stream()
    with cuda.Device(1):
        with (
            pytest.raises(
                RuntimeError, match=r"created on \(0\) does not match with the current device \(1\)"
            ),
            s0,
        ):
            pass
        with pytest.raises(RuntimeError, match="does not match"):
            s0.use()
        assert cuda.get_current_stream() == cuda.Stream.null  # nothing changed on either device
        with cuda.Stream.null, cuda.Stream.ptds:  # the current device's own default streams
            pass
    assert cuda.get_current_stream(0) == cuda.Stream.null
    with s0:  # on its own device
        assert cuda.get_current_stream() == s0


@pytest.mark.gpu
def test_device_use_returns_the_device():
    d = cuda.Device(0)
    assert d.use() is d
    assert cuda.Device().id == 0


def test_use():
    s = cuda.Stream()
    s.use()
    assert cuda.get_current_stream() == s
    cuda.Stream.null.use()
    assert cuda.get_current_stream() == cuda.Stream.null


def test_synchronize_and_done():
    s = cuda.Stream(non_blocking=True)
    a = np.arange(N, dtype=np.float32)
    with s:
        x = cp.asarray(a)
        y = x[::-1].astype(np.float64)
    assert s.synchronize() is None
    assert s.done is True
    assert_same(y, a[::-1].astype(np.float64))
    cuda.Stream.null.synchronize()
    assert cuda.Stream.null.done is True


def test_stream_record_returns_event():
    s = cuda.Stream()
    with s:
        cp.arange(N, dtype=np.float32)
    e = s.record()
    assert isinstance(e, cuda.Event)
    e.synchronize()
    assert e.done is True


def test_stream_record_given_event_returns_it():
    s = cuda.Stream()
    e = cuda.Event()
    assert s.record(e) is e
    s.synchronize()
    assert e.done is True


def test_wait_event_orders_work_across_streams():
    a = np.arange(N, dtype=np.float32)
    s1, s2 = cuda.Stream(non_blocking=True), cuda.Stream(non_blocking=True)
    with s1:
        x = cp.asarray(a)
        x2 = x.astype(np.float64)[::-1]
    e = s1.record()
    assert s2.wait_event(e) is None
    with s2:
        y = x2.astype(np.complex64)
    s2.synchronize()
    assert_same(y, a.astype(np.float64)[::-1].astype(np.complex64))


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"block": True}, {"disable_timing": True}, {"block": False, "disable_timing": False}],
    ids=["default", "block", "no_timing", "explicit"],
)
def test_event_record_synchronize_done(kwargs):
    e = cuda.Event(**kwargs)
    x = cp.arange(N, dtype=np.int32)
    e.record()
    assert e.synchronize() is None
    assert e.done is True
    assert_same(x[-3:], np.arange(N - 3, N, dtype=np.int32))


def test_event_record_on_given_stream():
    s = cuda.Stream(non_blocking=True)
    e = cuda.Event()
    with s:
        x = cp.ones(N, dtype=np.float32)
    e.record(stream=s)
    e.synchronize()
    assert e.done is True
    assert_same(x[:4], np.ones(4, dtype=np.float32))


def test_elapsed_time():
    e1, e2 = cuda.Event(), cuda.Event()
    e1.record()
    x = cp.arange(N, dtype=np.float64)
    x.astype(np.float32)
    e2.record()
    e2.synchronize()
    t = cuda.get_elapsed_time(e1, e2)
    assert isinstance(t, float)
    assert t >= 0.0
    assert np.isfinite(t)


def test_elapsed_time_on_a_stream():
    s = cuda.Stream()
    e1 = s.record()
    with s:
        cp.zeros(N, dtype=np.complex128)
    e2 = s.record()
    s.synchronize()
    t = cuda.get_elapsed_time(e1, e2)
    assert isinstance(t, float) and t >= 0.0


def test_get_and_asnumpy_on_a_stream():
    s = cuda.Stream(non_blocking=True)
    a = np.arange(1000, dtype=np.int16)
    with s:
        x = cp.asarray(a)[::3]
    np.testing.assert_array_equal(cp.asnumpy(x, stream=s), a[::3])
    np.testing.assert_array_equal(x.get(stream=s), a[::3])


def test_current_stream_is_per_thread():
    s_main, s_thread = cuda.Stream(), cuda.Stream()
    ready, go_on = threading.Event(), threading.Event()
    seen = {}

    def worker():
        seen["start"] = cuda.get_current_stream() == cuda.Stream.null
        s_thread.use()
        seen["after_use"] = cuda.get_current_stream() == s_thread
        ready.set()
        go_on.wait(10)
        seen["end"] = cuda.get_current_stream() == s_thread
        cuda.Stream.null.use()

    with s_main:
        t = threading.Thread(target=worker)
        t.start()
        assert ready.wait(10)
        assert cuda.get_current_stream() == s_main  # not s_thread
        go_on.set()
        t.join()
        assert cuda.get_current_stream() == s_main
    assert seen == {"start": True, "after_use": True, "end": True}


def test_work_in_threads_on_their_own_streams():
    results, errors = {}, []

    def worker(i):
        try:
            s = cuda.Stream(non_blocking=True)
            with s:
                x = cp.arange(i, i + 1000, dtype=np.int64)[::-1].copy()
                assert cuda.get_current_stream() == s
            s.synchronize()
            results[i] = cp.asnumpy(x)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for i in range(4):
        np.testing.assert_array_equal(results[i], np.arange(i, i + 1000)[::-1])


# ---- ordering against a kernel that is still running ------------------------------------------------------

BUSY = 0.3  # seconds: the other stream's work is certainly done before the kernel ends


@pytest.mark.parametrize("n", [1000, 1 << 20], ids=["host_cached_block", "cuda_pool_block"])
def test_memory_freed_on_a_busy_stream_is_not_overwritten_early(n):
    # Note [Memory pool stream rule]: a kernel on A still reads `src` after it is freed; an array allocated
    # for B at once (same size, so the same block if the pool broke the rule) and written must not change
    # what A reads.
    values = np.arange(n, dtype=np.float32) % 1000
    # The fill kernel is compiled or loaded now: doing it for the first time below could outlast A's kernel.
    cp.empty(1, dtype=np.float32).fill(-7.0)
    a, b = cuda.Stream(non_blocking=True), cuda.Stream(non_blocking=True)
    with a:
        src = cp.asarray(values)
        out = cp.zeros(n, dtype=np.float32)
        a.synchronize()
        spin_then_write(BUSY, out, src, a)
        del src
    with b:
        others = [cp.empty(n, dtype=np.float32) for _ in range(3)]
        for o in others:
            o.fill(-7.0)
        assert a.done is False, "the kernel on A ended before the test could overlap it"
    b.synchronize()
    a.synchronize()
    assert_same(out, 2 * values)
    for o in others:
        assert_same(o, np.full(n, -7.0, dtype=np.float32))


def test_wait_event_orders_work_after_a_running_kernel():
    n = 4096
    a, b = cuda.Stream(non_blocking=True), cuda.Stream(non_blocking=True)
    with a:
        x = cp.zeros(n, dtype=np.float32)
        a.synchronize()
        spin_then_write(BUSY, x, stream=a)
        e = a.record()
    assert e.done is False and a.done is False
    b.wait_event(e)
    with b:
        y = x * 2  # must see A's writes
    b.synchronize()
    assert e.done is True and a.done is True
    assert_same(y, 2 * (np.arange(n, dtype=np.float32) + 1))


def test_without_wait_event_the_other_stream_runs_ahead():
    # The control for the test above: without the wait, B reads x before A's kernel writes it, so a
    # wait_event that did nothing would fail there.
    n = 4096
    a, b = cuda.Stream(non_blocking=True), cuda.Stream(non_blocking=True)
    with a:
        x = cp.zeros(n, dtype=np.float32)
        a.synchronize()
        spin_then_write(BUSY, x, stream=a)
    with b:
        y = x * 2
    b.synchronize()
    assert a.done is False
    a.synchronize()
    assert_same(y, np.zeros(n, dtype=np.float32))


def test_event_waits_only_for_work_recorded_before_it():
    a = cuda.Stream(non_blocking=True)
    with a:
        x = cp.zeros(16, dtype=np.float32)
        before = a.record()
        spin_then_write(BUSY, x, stream=a)
        after = a.record()
    before.synchronize()  # returns at once: nothing was queued before it
    assert after.done is False
    after.synchronize()
    assert after.done is True
    assert cuda.get_elapsed_time(before, after) >= 0.29e3
    assert_same(x, np.arange(1, 17, dtype=np.float32))


@pytest.mark.multi_gpu
def test_wait_event_across_devices():
    # A stream of device 1 that waits for an event of device 0 finishes only after device 0's kernel. Whether
    # an event recorded behind such a wait reads as done meanwhile is the driver's business: on a pair of H200s
    # it sometimes does, with CuPy's events as with ours, while synchronizing it still waits. Only the order
    # counts.
    with cuda.Device(0):
        a = cuda.Stream(non_blocking=True)
        with a:
            x = cp.zeros(16, dtype=np.float32)
            a.synchronize()
            spin_then_write(BUSY, x, stream=a)
            e = a.record()
    with cuda.Device(1):
        b = cuda.Stream(non_blocking=True)
        b.wait_event(e)
        f = b.record()
        f.synchronize()
    assert a.done is True
    assert_same(x, np.arange(1, 17, dtype=np.float32))
