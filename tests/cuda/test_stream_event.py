"""cuarray.cuda.Stream, Event, get_current_stream and get_elapsed_time."""

import threading

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same

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
