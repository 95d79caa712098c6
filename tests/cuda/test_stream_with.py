"""The bookkeeping of `with stream:` and Stream.use() (Note [Current stream and with] in cuarray/cuda/stream.py),
without a device: the core's streams are replaced by stand-ins that record which stream each thread made current.
The same rules are tested on a device in test_stream_event.py."""

import threading
import types

import pytest
from cuarray.cuda import stream as stream_module

Stream = stream_module.Stream


class FakeHandle:
    def __init__(self, name, device, capturing=False):
        self.name, self.device, self.capturing, self.discarded = name, device, capturing, None

    def discard_capture(self, reason):
        self.capturing, self.discarded = False, reason


@pytest.fixture
def core(monkeypatch):
    """A stand-in for _core.cuda: two devices, the calling thread's current device and, per thread and device,
    the handle last made current (what the C++ core would use)."""
    local = threading.local()
    nulls = [FakeHandle("null0", 0), FakeHandle("null1", 1)]

    def current_device():
        return getattr(local, "device", 0)

    def set_device(d):
        local.device = d

    def set_current_stream(h):
        if not hasattr(local, "current"):
            local.current = {}
        local.current[h.device] = h

    def core_current(device=None):
        return getattr(local, "current", {}).get(current_device() if device is None else device, nulls[0])

    fake = types.SimpleNamespace(
        Stream=types.SimpleNamespace(null=lambda d: nulls[d]),
        current_device=current_device,
        set_current_stream=set_current_stream,
    )
    monkeypatch.setattr(stream_module, "_cuda", fake)
    monkeypatch.setattr(stream_module, "_local", threading.local())  # a fresh record for each test
    return types.SimpleNamespace(set_device=set_device, current=core_current)


def make(name, device=0, capturing=False):
    s = Stream.__new__(Stream)
    s._core = FakeHandle(name, device, capturing)
    return s


def current(core, device=None):
    """The stream current for the calling thread, as the Python side and the core each see it."""
    s = stream_module.get_current_stream(device)
    h = core.current(device)
    expected = s._core if s._core is not None else None
    assert h is expected or (expected is None and h.name.startswith("null")), (s, h.name)
    return s


def test_nested_and_reentered(core):
    s, other = make("s"), make("other")
    with s:
        with s:
            assert current(core) is s
            with other:
                with s:
                    assert current(core) is s
                assert current(core) is other
            assert current(core) is s
        assert current(core) is s
    assert current(core) is Stream.null


def test_use_inside_with_lasts_until_the_block_ends(core):
    s1, s2, s3 = make("s1"), make("s2"), make("s3")
    with s1:
        s2.use()
        assert current(core) is s2
        with s3:
            assert current(core) is s3
        assert current(core) is s1
    assert current(core) is Stream.null


def test_use_outside_with_is_restored(core):
    s1, s2 = make("s1"), make("s2")
    s1.use()
    with s2:
        assert current(core) is s2
    assert current(core) is s1


def test_exit_restores_on_the_block_s_device(core):
    s0, s1 = make("s0", 0), make("s1", 1)
    with s0:
        core.set_device(1)
        s1.use()
    assert current(core, 0) is Stream.null
    assert current(core, 1) is s1
    core.set_device(0)


def test_blocks_on_two_devices(core):
    s0, s1 = make("s0", 0), make("s1", 1)
    with s0:
        core.set_device(1)
        with s1:
            assert current(core, 1) is s1 and current(core, 0) is s0
        assert current(core, 1) is Stream.null and current(core, 0) is s0
        core.set_device(0)
    assert current(core, 0) is Stream.null


def test_two_threads_leave_one_stream_in_the_other_order(core):
    shared, mine = make("shared"), make("mine")
    steps = [threading.Event() for _ in range(3)]
    seen, errors = {}, []

    def other_thread():
        try:
            mine.use()
            shared.__enter__()
            steps[0].set()
            assert steps[1].wait(10)
            shared.__exit__(None, None, None)  # leaves first
            seen["other"] = current(core)
            steps[2].set()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
            for s in steps:
                s.set()

    t = threading.Thread(target=other_thread)
    t.start()
    assert steps[0].wait(10)
    with shared:
        steps[1].set()
        assert steps[2].wait(10)
        assert current(core) is shared
    assert current(core) is Stream.null
    t.join()
    assert not errors, errors
    assert seen["other"] is mine


def test_an_exception_ends_the_capture_of_the_block_s_stream(core):
    capturing, other = make("capturing", capturing=True), make("other", capturing=True)
    with pytest.raises(KeyError), capturing:
        raise KeyError("boom")
    assert capturing._core.discarded == "a KeyError leaving its `with stream:` block"
    with other:  # a normal exit leaves a capture alone
        pass
    assert other._core.capturing and other._core.discarded is None
    assert current(core) is Stream.null
