"""A failed CUDA graph capture leaves the process working (Note [Failed captures] in cpp/cuarray/cuda/graph.h),
and Stream.is_capturing / done / end_capture raise what CuPy's raise in the same situations.

An open capture of a blocking stream makes every use of the legacy null stream fail, so a regression here would
break every later test: each case runs in its own process, and ends by checking that the null stream, a new
capture and Device.synchronize all work."""

import pytest
from conftest import describe, run_python

pytestmark = pytest.mark.gpu

CHILD = r"""
import sys
import numpy as np
import cuarray as cp

cuda = cp.cuda
INVALIDATED, IMPLICIT, UNSUPPORTED = 901, 906, 900
a = cp.arange(100, dtype=np.float32)
(a + 4, a * 2, a - 1)  # kernels compiled and loaded before any capture
cuda.Device().synchronize()


def expect(status, words, call):
    try:
        call()
    except cuda.CUDARuntimeError as e:
        assert e.status == status, (e.status, str(e))
        for w in words:
            assert w in str(e), (w, str(e))
        return e
    raise AssertionError(f"{call} did not raise")


def null_is_capturing():
    # CuPy's test_null_stream_cannot_capture: the query raises, and leaves the capture intact.
    s = cuda.Stream(non_blocking=False)
    with s:
        s.begin_capture()
        b = a + 4
        assert s.is_capturing()
        expect(IMPLICIT, ["cudaErrorStreamCaptureImplicit"], cuda.Stream.null.is_capturing)
        g = s.end_capture()
    assert not s.is_capturing()
    assert not cuda.Stream.null.is_capturing()
    g.upload()
    g.launch()
    s.synchronize()
    np.testing.assert_array_equal(b.get(), np.arange(100, dtype=np.float32) + 4)


def done_invalidates():
    # CuPy's test_stream_capture_failure4: done reads false, and end_capture raises.
    s = cuda.Stream(non_blocking=True)
    with s:
        s.begin_capture()
        assert s.done is False
        expect(INVALIDATED, ["cudaErrorStreamCaptureInvalidated", "Stream.done"], s.end_capture)
    assert not s.is_capturing()
    s.synchronize()
    assert s.done is True


def synchronize_invalidates():
    # CuPy's test_stream_capture_failure1 and 6.
    s = cuda.Stream(non_blocking=True)
    with s:
        s.begin_capture()
        expect(UNSUPPORTED, ["cudaErrorStreamCaptureUnsupported", "Stream.synchronize"], s.synchronize)
        expect(INVALIDATED, ["cudaErrorStreamCaptureInvalidated"], s.end_capture)
    assert not s.is_capturing()
    s.synchronize()


def end_capture_twice():
    s = cuda.Stream(non_blocking=True)
    s.begin_capture()
    assert s.done is False
    expect(INVALIDATED, ["cudaErrorStreamCaptureInvalidated"], s.end_capture)
    expect(401, ["not capturing"], s.end_capture)  # the reason is reported once
    s.begin_capture()  # a new capture starts clean
    with s:
        c = a * 2
    g = s.end_capture()
    g.launch(s)
    s.synchronize()
    np.testing.assert_array_equal(c.get(), np.arange(100, dtype=np.float32) * 2)


def exception_leaves_with_block(non_blocking):
    s = cuda.Stream(non_blocking=non_blocking)
    try:
        with s:
            s.begin_capture()
            a * 2
            raise KeyError("boom")
    except KeyError:
        pass
    assert cuda.get_current_stream() == cuda.Stream.null
    assert not s.is_capturing()
    assert not cuda.Stream.null.is_capturing()
    expect(INVALIDATED, ["cudaErrorStreamCaptureInvalidated", "KeyError"], s.end_capture)


def exception_leaves_blocking_with_block():
    exception_leaves_with_block(False)


def exception_leaves_non_blocking_with_block():
    exception_leaves_with_block(True)


def nested_with_exception():
    # Only the block of the capturing stream ends its capture; an inner block of another stream does not.
    s, other = cuda.Stream(non_blocking=True), cuda.Stream(non_blocking=True)
    with s:
        s.begin_capture()
        try:
            with other:
                raise ValueError("inner")
        except ValueError:
            pass
        assert s.is_capturing()
        b = a - 1
        g = s.end_capture()
    g.launch(s)
    s.synchronize()
    np.testing.assert_array_equal(b.get(), np.arange(100, dtype=np.float32) - 1)


def left_open_blocking():
    # begin_capture, then the code that should end it never runs (no `with`): the next use of the null stream
    # raises a clear error and ends the capture CUDA invalidated; the use after it works.
    s = cuda.Stream(non_blocking=False)
    s.begin_capture()
    e = expect(IMPLICIT, ["cudaErrorStreamCaptureImplicit", "ended", "non_blocking=True"], lambda: a + 1)
    assert "stream" in str(e)
    assert not s.is_capturing()
    np.testing.assert_array_equal((a + 1).get(), np.arange(100, dtype=np.float32) + 1)
    expect(INVALIDATED, ["cudaErrorStreamCaptureInvalidated", "legacy null stream"], s.end_capture)


def left_open_blocking_null_done():
    s = cuda.Stream(non_blocking=False)
    s.begin_capture()
    assert cuda.Stream.null.done is False  # CuPy's reads false too (cudaStreamQuery fails)
    assert not s.is_capturing()
    expect(INVALIDATED, ["cudaErrorStreamCaptureInvalidated", "Stream.null.done"], s.end_capture)


def left_open_non_blocking():
    # A non-blocking stream's capture does not get in the null stream's way; end_capture still works later.
    s = cuda.Stream(non_blocking=True)
    s.begin_capture()
    with s:
        b = a * 2
    np.testing.assert_array_equal((a + 1).get(), np.arange(100, dtype=np.float32) + 1)
    assert s.is_capturing()
    g = s.end_capture()
    g.launch(s)
    s.synchronize()
    np.testing.assert_array_equal(b.get(), np.arange(100, dtype=np.float32) * 2)


globals()[sys.argv[1]]()

# The process is not poisoned: the null stream, a capture on a fresh blocking stream and the device all work.
np.testing.assert_array_equal((a * 2).get(), np.arange(100, dtype=np.float32) * 2)
fresh = cuda.Stream()
with fresh:
    fresh.begin_capture()
    d = a + 4
    g = fresh.end_capture()
    g.launch()
    fresh.synchronize()
np.testing.assert_array_equal(d.get(), np.arange(100, dtype=np.float32) + 4)
cuda.Device().synchronize()
print("OK", flush=True)
"""

CASES = [
    "null_is_capturing",
    "done_invalidates",
    "synchronize_invalidates",
    "end_capture_twice",
    "exception_leaves_blocking_with_block",
    "exception_leaves_non_blocking_with_block",
    "nested_with_exception",
    "left_open_blocking",
    "left_open_blocking_null_done",
    "left_open_non_blocking",
]


@pytest.mark.parametrize("case", CASES)
def test_capture_fault(case):
    proc = run_python(case, code=CHILD, timeout=180)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("OK"), describe(proc)
