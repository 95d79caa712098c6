"""The public API called with junk (hypothesis, in a child process): any Python exception is fine, a crash is
not. A crash is the child dying by a signal (segfault, abort), which in-process tests could not survive.
Runs everywhere: without a GPU it exercises argument conversion, with one everything behind it. The examples
come from the hypothesis profile (tests/conftest.py): fixed in CI, more and fresh with
CUARRAY_HYPOTHESIS_PROFILE=gpu-long."""

import signal

from conftest import describe, run_python
from hypothesis import settings

CHILD = r"""
import sys, warnings
import numpy as np
import cuarray as cp
import cuarray.fft, cuarray.linalg, cuarray.random, cuarray.scipy.signal
from hypothesis import HealthCheck, given, settings, strategies as st

max_examples, derandomize = int(sys.argv[1]), sys.argv[2] == "1"
warnings.simplefilter("ignore")
gpu = cp.cuda.is_available()


def public(module, names):
    for n in sorted(names):
        f = getattr(module, n, None)
        if n.startswith("_") or not callable(f) or (isinstance(f, type) and issubclass(f, (np.generic, BaseException))):
            continue
        yield f


API = [f for m in (cp, cp.linalg, cp.fft, cp.random, cp.scipy.signal)
       for f in public(m, set(dir(m)) | (set(cp._LAZY) if m is cp else set()))]
API += [cp.cuda.Device, cp.cuda.Stream, cp.cuda.Event, cp.cuda.alloc_pinned_memory, cp.cuda.get_elapsed_time,
        cp.cuda.runtime.setDevice, cp.cuda.runtime.getDeviceProperties, cp.cuda.get_current_stream]
values = [None, True, -1, 0, 1, 2, 3, 7, 2**31, 2**63 - 1, 2**63, 2**70, -(2**63), 1.5, -0.0, float("nan"),
          float("inf"), 1j, "abc", "C", "F", "K", "float32", "i8", b"\x00", (), (2, 3), (3, -1), (-8,), (8, 8), (12,),
          (2**40, 2**40), [1, "x"], [[1, 2], [3]], [0, 1], np.ones(2), np.float32(2.5), np.int64(-3),
          np.array([1, 2], dtype=object), object(), {"a": 1}, np.float32, np.dtype("V8"), slice(None, None, -1),
          Ellipsis]
if gpu:
    arrays = [cp.arange(6).astype(t).reshape(2, 3) for t in ("i1", "i8", "u2", "f2", "f4", "f8", "c8", "?")]
    arrays += [cp.zeros((0, 3)), cp.asarray(5.0), cp.arange(10.0)[::-3], cp.arange(24).reshape(2, 3, 4).T]
    values += arrays
    values += [arrays[5].data, arrays[5].data + 1, arrays[5].data + 8, arrays[5].data - 8, arrays[5].data + 10**6]
    values += [cp.cuda.Stream(), cp.cuda.Stream.null, cp.cuda.Event()]
    # Methods of a few arrays (not __dlpack__: its stream argument is a raw handle, which no one can check).
    for a in arrays[:3] + arrays[-2:]:
        API += [getattr(a, m) for m in ("reshape", "transpose", "astype", "sum", "__getitem__", "__setitem__",
                                        "take", "repeat", "view", "fill", "get", "set", "swapaxes", "squeeze",
                                        "diagonal", "item", "sort", "argsort", "cumsum", "clip", "dot", "round",
                                        "__add__", "__matmul__", "__pow__", "__lshift__", "__truediv__",
                                        "__floordiv__", "__mod__", "__iadd__", "to_device")
                if hasattr(a, m)]
junk = st.sampled_from(values)
keywords = st.sampled_from(["axis", "dtype", "out", "shape", "strides", "memptr", "order", "keepdims", "size", "n",
                            "k", "casting", "stream", "device", "copy"])


@settings(max_examples=max_examples, derandomize=derandomize, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.sampled_from(API), st.lists(junk, max_size=4), st.dictionaries(keywords, junk, max_size=2))
def fuzz(f, args, kwargs):
    try:
        f(*args, **kwargs)
    except Exception:
        pass  # only a crash counts


fuzz()
if gpu:  # and the process is still usable
    cp.cuda.Device(0).use()
    cp.get_default_memory_pool().set_limit(size=0)
    assert int(cp.arange(4).sum()) == 6
print("DONE", flush=True)
"""


def test_public_api_with_junk_arguments_never_crashes():
    profile = settings.default
    # Calls that raise at once are cheap: five times the profile's examples.
    examples = 5 * profile.max_examples
    proc = run_python(str(examples), "1" if profile.derandomize else "0", code=CHILD, timeout=1800)
    if proc.returncode < 0:
        raise AssertionError(f"the child died by {signal.Signals(-proc.returncode).name}\n{describe(proc)}")
    assert proc.returncode == 0 and "DONE" in proc.stdout, describe(proc)
