"""CUDA's stream protocol (`__cuda_stream__`) and Stream.from_external, as CuPy's."""

import cuarray as cp
import pytest


class _Protocol:
    def __init__(self, answer):
        self.answer = answer

    def __cuda_stream__(self):
        return self.answer


@pytest.mark.parametrize(
    "answer, match",
    [
        (123, "must return a 2-tuple"),
        ((0,), "must return a 2-tuple"),
        (("not_an_int", 0), r"must return \(int, int\)"),
        ((0, "not_an_int"), r"must return \(int, int\)"),
        ((1, 12345), "unsupported version"),
        ((-1, 12345), "unsupported version"),
    ],
)
def test_from_external_refuses_bad_answers_with_type_error(answer, match):
    with pytest.raises(TypeError, match=match):
        cp.cuda.Stream.from_external(_Protocol(answer))


def test_from_external_without_the_protocol():
    with pytest.raises(TypeError, match="does not implement"):
        cp.cuda.Stream.from_external(object())


@pytest.mark.gpu
def test_stream_speaks_the_protocol():
    s = cp.cuda.Stream()
    version, ptr = s.__cuda_stream__()
    assert (version, ptr) == (0, s.ptr) and isinstance(ptr, int) and ptr != 0
    assert cp.cuda.Stream.null.__cuda_stream__() == (0, cp.cuda.Stream.null.ptr)


@pytest.mark.gpu
def test_from_external_of_a_protocol_object():
    real = cp.cuda.Stream()
    mock = _Protocol((0, real.ptr))
    s = cp.cuda.Stream.from_external(mock)
    assert s.ptr == real.ptr and s.device_id == -1 and s._foreign_stream_ref is mock
    assert type(s) is cp.cuda.Stream  # CuPy 14's: a Stream, not an ExternalStream
    with s:
        x = cp.arange(10) * 2
    s.synchronize()
    assert x.sum().item() == 90


@pytest.mark.gpu
def test_from_external_of_a_stream_is_the_same_cuda_stream():
    original = cp.cuda.Stream()
    s = cp.cuda.Stream.from_external(original)
    assert s is not original and s.device_id == -1 and s._foreign_stream_ref is original
    assert type(s) is cp.cuda.Stream and s == original
    assert s.ptr == original.ptr
    with s:
        y = cp.ones(1000).sum()
    s.synchronize()
    assert y.item() == 1000.0


_OUTLIVE = """
import gc
import cuarray as cp

class P:
    def __init__(self, ptr):
        self.ptr = ptr
    def __cuda_stream__(self):
        return (0, self.ptr)

real = cp.cuda.Stream()
s = cp.cuda.Stream.from_external(P(real.ptr))
with s:
    x = cp.arange(100000) * 2
s.synchronize()
del x        # its memory is now cached for the wrapper's stream
del real     # the owner destroys its stream while the wrapper lives on
gc.collect()
del s        # the wrapper goes last: the handle it names is gone
gc.collect()
print(int(cp.arange(5).sum()))
"""


@pytest.mark.gpu
def test_a_wrapper_may_outlive_the_stream_it_names():
    from conftest import describe, run_python

    proc = run_python(code=_OUTLIVE, timeout=120)
    assert proc.returncode == 0 and proc.stdout.split() == ["10"], describe(proc)
