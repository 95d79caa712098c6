"""Stream.ptds, ExternalStream and Stream.from_external, the __cuda_stream__ protocol, priorities,
is_non_blocking, and host callbacks (launch_host_func, add_callback)."""

import sys
import threading

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same, describe, run_python

gpu = pytest.mark.gpu


class ForeignStream:
    """Another library's stream, known only by CUDA's stream protocol."""

    def __init__(self, handle, version=0):
        self.handle, self.version = handle, version

    def __cuda_stream__(self):
        return (self.version, self.handle)


# ---- without a device ------------------------------------------------------------------------------------


def test_argument_errors():
    with pytest.raises(ValueError, match="null and ptds"):
        cp.cuda.Stream(null=True, ptds=True)
    with pytest.raises(TypeError):
        cp.cuda.Stream(priority=1.5)
    with pytest.raises(TypeError, match="__cuda_stream__"):
        cp.cuda.Stream.from_external(42)
    with pytest.raises(TypeError, match="version"):  # CuPy's TypeError
        cp.cuda.Stream.from_external(ForeignStream(0, version=3))
    with pytest.raises(TypeError, match="callable"):
        cp.cuda.Stream.null.launch_host_func(5, None)
    with pytest.raises(TypeError, match="callable"):
        cp.cuda.Stream.null.add_callback("f", None)


def test_protocol_forms_of_the_default_streams_need_no_device():
    null = cp.cuda.Stream.from_external(ForeignStream(0))
    assert type(null) is cp.cuda.Stream and null._core is None and not null._ptds  # CuPy 14's: a Stream
    legacy = cp.cuda.ExternalStream(1)
    assert legacy._core is None and not legacy._ptds
    per_thread = cp.cuda.ExternalStream(2)
    assert per_thread._core is None and per_thread._ptds
    again = cp.cuda.Stream.from_external(cp.cuda.Stream.null)  # as CuPy: a new object, the same CUDA stream
    assert (
        again is not cp.cuda.Stream.null and again._core is None and not again._ptds and again.device_id == -1
    )
    assert cp.cuda.Stream.null.__cuda_stream__() == (0, 0)
    assert cp.cuda.Stream.ptds._ptds and repr(cp.cuda.Stream.ptds).startswith("<Stream ptds")


def test_device_ids_of_streams_of_no_particular_device_are_cupys_minus_one():
    # CuPy 14.2: the null and per-thread streams are whichever device is current's, and another library's
    # stream named without its device is of an unknown one; `with` and use() take -1 as the current device.
    assert cp.cuda.Stream.null.device_id == -1 and cp.cuda.Stream(null=True).device_id == -1
    assert cp.cuda.Stream.ptds.device_id == -1 and cp.cuda.Stream(ptds=True).device_id == -1
    with pytest.warns(DeprecationWarning):
        assert cp.cuda.ExternalStream(0).device_id == -1
    with pytest.warns(DeprecationWarning):
        assert cp.cuda.ExternalStream(2).device_id == -1
    with pytest.warns(DeprecationWarning):
        assert cp.cuda.ExternalStream(1, device_id=3).device_id == 3  # as given
    assert cp.cuda.Stream.from_external(ForeignStream(1)).device_id == -1
    assert cp.cuda.Stream.from_external(cp.cuda.Stream.ptds).device_id == -1


def test_from_external_makes_a_stream_not_an_external_stream():
    s = cp.cuda.Stream.from_external(ForeignStream(1))
    assert type(s) is cp.cuda.Stream and not isinstance(s, cp.cuda.ExternalStream)
    assert s == cp.cuda.Stream.null and s is not cp.cuda.Stream.null
    again = cp.cuda.Stream.from_external(s)
    assert type(again) is cp.cuda.Stream and again._foreign_stream_ref is s and again == s


def test_callback_errors_are_reported_as_unraisable():
    reports = []
    old = sys.unraisablehook
    sys.unraisablehook = reports.append
    try:
        cp.cuda.stream._cuda._report_unraisable(ZeroDivisionError("division by zero"))
    finally:
        sys.unraisablehook = old
    assert len(reports) == 1 and isinstance(reports[0].exc_value, ZeroDivisionError)
    assert "host callback" in repr(reports[0].object)


def test_the_host_callback_thread_ends_with_the_process():
    code = """
from cuarray.cuda import stream
stream._start_host_call_thread()
stream._start_host_call_thread()  # once per process
import threading
print(sum(t.name == "cuarray host callbacks" for t in threading.enumerate()))
"""
    proc = run_python(code=code, timeout=60)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.split() == ["1"]


# ---- on the device ---------------------------------------------------------------------------------------


@gpu
def test_ptds_is_a_stream_of_each_thread():
    a = np.arange(100.0)
    with cp.cuda.Stream.ptds:
        x = cp.asarray(a) * 3
        assert cp.cuda.get_current_stream() is cp.cuda.Stream.ptds
    assert_same(x, a * 3)
    mine = cp.cuda.Stream.ptds.ptr
    assert mine not in (0, 1, 2) and cp.cuda.Stream.ptds.ptr == mine
    other = []
    t = threading.Thread(target=lambda: other.append(cp.cuda.Stream.ptds.ptr))
    t.start()
    t.join()
    assert other[0] != mine
    assert not cp.cuda.Stream.ptds.is_non_blocking
    assert cp.cuda.Stream(ptds=True).ptr == mine


@gpu
def test_priority_and_blocking():
    assert cp.cuda.Stream().priority == 0
    high = cp.cuda.Stream(priority=-1)
    assert high.priority in (-1, 0)  # clamped to the device's range, as CUDA does
    assert cp.cuda.Stream(priority=-1000).priority <= 0
    assert cp.cuda.Stream(non_blocking=True).is_non_blocking
    assert not cp.cuda.Stream().is_non_blocking
    assert not cp.cuda.Stream.null.is_non_blocking


@gpu
def test_external_streams_run_work_and_are_not_destroyed():
    owner = cp.cuda.Stream(non_blocking=True)
    ext = cp.cuda.ExternalStream(owner.ptr)
    assert ext.ptr == owner.ptr and ext.is_non_blocking and ext == owner
    a = np.arange(1000, dtype=np.float32)
    with ext:
        x = cp.asarray(a) + 1
    ext.synchronize()
    assert_same(x, a + 1)
    del ext, x
    # The stream still works for its owner once the wrapper is gone.
    with owner:
        y = cp.asarray(a) * 2
    owner.synchronize()
    assert_same(y, a * 2)
    via_protocol = cp.cuda.Stream.from_external(ForeignStream(owner.ptr))
    assert via_protocol.ptr == owner.ptr and via_protocol.device_id == -1
    assert type(via_protocol) is cp.cuda.Stream
    assert owner.__cuda_stream__() == (0, owner.ptr)
    # Where a stream is accepted, an object with __cuda_stream__ is too.
    e = cp.cuda.Event()
    e.record(ForeignStream(owner.ptr))
    e.synchronize()
    assert e.done


@gpu
def test_device_ids_of_streams_made_on_a_device():
    s = cp.cuda.Stream()
    assert s.device_id == cp.cuda.Device().id == 0
    owner = cp.cuda.Stream(non_blocking=True)
    with pytest.warns(DeprecationWarning):
        named = cp.cuda.ExternalStream(owner.ptr, device_id=0)
    with pytest.warns(DeprecationWarning):
        unknown = cp.cuda.ExternalStream(owner.ptr)
    assert (named.device_id, unknown.device_id) == (0, -1)
    wrapper = cp.cuda.Stream.from_external(owner)
    a = np.arange(100.0)
    try:
        for stream in (cp.cuda.Stream.null, cp.cuda.Stream.ptds, named, unknown, wrapper):
            with stream:  # -1 is the current device: entering is allowed, as in CuPy
                assert cp.cuda.get_current_stream() is stream
                x = cp.asarray(a) * 2
            stream.synchronize()
            assert_same(x, a * 2)
            assert stream.use() is stream and cp.cuda.get_current_stream() is stream
    finally:
        cp.cuda.Stream.null.use()


@gpu
def test_launch_host_func_runs_after_the_work_before_it():
    s = cp.cuda.Stream()
    done = threading.Event()
    seen = []
    with s:
        x = cp.arange(10**6, dtype=np.float64)
        y = x * 2
    s.launch_host_func(lambda arg: (seen.append((arg, threading.get_ident())), done.set()), "payload")
    assert done.wait(30)
    assert seen[0][0] == "payload"
    assert seen[0][1] != threading.get_ident()  # cuarray's host-callback thread
    names = {t.ident: t.name for t in threading.enumerate()}
    assert names.get(seen[0][1]) == "cuarray host callbacks"
    assert_same(y[-3:], np.arange(10**6 - 3, 10**6, dtype=np.float64) * 2)


@gpu
def test_later_work_on_the_stream_waits_for_the_host_function():
    s = cp.cuda.Stream()
    release = threading.Event()
    with s:
        cp.ones(10)  # the kernel loaded before the host function blocks (Note [Host callbacks])
    s.synchronize()
    s.launch_host_func(lambda arg: release.wait(30), None)
    with s:
        x = cp.ones(10)
    e = s.record()
    assert not e.done  # held back by the host function
    release.set()
    s.synchronize()
    assert e.done
    assert_same(x, np.ones(10))


@gpu
def test_add_callback_gets_the_stream_and_the_status():
    s = cp.cuda.Stream()
    done = threading.Event()
    seen = []

    def callback(stream, error, arg):
        seen.append((stream, error, arg))
        done.set()

    with s:
        cp.ones(1000).sum()
    s.add_callback(callback, 7)
    assert done.wait(30)
    assert seen == [(s, 0, 7)]


@gpu
def test_a_callback_that_raises_is_reported_and_the_process_goes_on():
    s = cp.cuda.Stream()
    done = threading.Event()
    reports = []
    old = sys.unraisablehook
    sys.unraisablehook = lambda r: (reports.append(r.exc_value), done.set())
    try:
        s.launch_host_func(lambda arg: 1 / 0, None)
        assert done.wait(30)
    finally:
        sys.unraisablehook = old
    assert isinstance(reports[0], ZeroDivisionError)
    assert_same(cp.arange(3) + 1, np.arange(3) + 1)


@gpu
def test_callbacks_pending_at_exit_do_not_hang_or_crash():
    code = """
import time, cuarray as cp
s = cp.cuda.Stream()
x = cp.ones(1 << 24)
for _ in range(20):
    x = x * 1.0000001
s.launch_host_func(lambda arg: time.sleep(0.5), None)
s.add_callback(lambda st, err, arg: print("callback", err, flush=True), None)
print("queued", flush=True)
"""
    proc = run_python(code=code, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert "queued" in proc.stdout


@gpu
def test_a_captured_host_function_runs_at_every_launch_of_its_graph():
    # Once a crash: the first launch's run freed the function that the graph's later launches call.
    code = """
import gc, weakref, cuarray as cp
s = cp.cuda.Stream(non_blocking=True)
counter = {"count": 0}
class Arg(dict):
    pass
arg = Arg(delta=1)
def callback(x):
    counter["count"] += x["delta"]
with s:
    s.begin_capture()
    s.launch_host_func(callback, arg)
    g = s.end_capture()
alive = weakref.ref(arg)
del callback, arg
gc.collect()
for n in range(1, 6):
    g.launch(stream=s) if n % 2 else g.launch()
    cp.cuda.get_current_stream().synchronize()
    s.synchronize()
    assert counter["count"] == n, (n, counter)
assert alive() is not None  # the graph keeps its function and argument
del g
gc.collect()
cp.cuda.Device().synchronize()
import time
for _ in range(100):  # released on cuarray's host-callback thread once the last launch is done
    if alive() is None:
        break
    time.sleep(0.05)
print("released", alive() is None, counter["count"])
"""
    proc = run_python(code=code, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert "released True 5" in proc.stdout, describe(proc)


@gpu
def test_host_functions_of_a_failed_or_unlaunched_capture_never_run():
    code = """
import gc, weakref, cuarray as cp
s = cp.cuda.Stream(non_blocking=True)
ran = []
class Arg:
    pass
a, b = Arg(), Arg()
s.begin_capture()
s.launch_host_func(ran.append, a)
g = s.end_capture()
del g
s.begin_capture()
s.launch_host_func(ran.append, b)
try:
    s.synchronize()  # ends the capture with an error
except cp.cuda.runtime.CUDARuntimeError:
    pass
try:
    s.end_capture()
except cp.cuda.runtime.CUDARuntimeError:
    pass
wa, wb = weakref.ref(a), weakref.ref(b)
del a, b
gc.collect()
s.synchronize()
import time
for _ in range(100):
    if wa() is None and wb() is None:
        break
    time.sleep(0.05)
print("ran", len(ran), "released", wa() is None, wb() is None)
"""
    proc = run_python(code=code, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert "ran 0 released True True" in proc.stdout, describe(proc)
