"""A kernel that faults costs one exception, never a crash: the next synchronizing call raises CUDARuntimeError
with CUDA's status and a sentence saying that the context is unusable and the process must be restarted;
later calls raise the same way and the process still exits normally. A fault poisons the whole CUDA context,
so each case runs in its own process."""

import json

import pytest
from conftest import describe, run_python

pytestmark = pytest.mark.gpu

RESTART = "the CUDA context is now unusable and the process must be restarted"

# kind -> (kernel body, the call that synchronizes, cudaError_t expected)
CASES = {
    "wild_write": ("*(volatile int*)0x10 = 1;", "device", 700),  # cudaErrorIllegalAddress
    "misaligned": ("*(volatile int*)((char*)buf + 1) = 1;", "stream", 716),  # cudaErrorMisalignedAddress
    "trap": ("__trap();", "get", 719),  # cudaErrorLaunchFailure
    "assert": (
        '__assertfail("buf[0] == 12345", "fault.cu", 1, "fault", 1);',
        "event",
        710,
    ),  # cudaErrorAssert
}

CHILD = r"""
import json, sys
import numpy as np
import cuarray as cp

body, sync = sys.argv[1], sys.argv[2]
src = 'extern "C" __global__ void fault(int* buf) { if (buf[0] != 12345) { %s } }' % body
buf = cp.zeros(16, dtype=np.int32)
stream = cp.cuda.Stream(non_blocking=True)
cp.cuda.Device().synchronize()
kernel = cp.RawKernel(src, "fault")
kernel((1,), (1,), (buf,), stream=stream if sync == "stream" else None)

def report(tag, call):
    try:
        call()
    except cp.cuda.CUDARuntimeError as e:
        print(tag, json.dumps({"status": e.status, "message": str(e)}), flush=True)
    except Exception as e:
        print(tag, json.dumps({"other": type(e).__name__, "message": str(e)}), flush=True)
    else:
        print(tag, json.dumps({"raised": False}), flush=True)

def by_event():
    e = cp.cuda.Event()
    e.record()
    e.synchronize()

report("FIRST", {"device": lambda: cp.cuda.Device().synchronize(), "stream": stream.synchronize,
                 "get": buf.get, "event": by_event}[sync])
report("LATER", lambda: (cp.arange(3) + 1).get())
report("AGAIN", lambda: cp.cuda.Device().synchronize())
print("EXIT", flush=True)
"""


def reports(proc):
    out = {}
    for line in proc.stdout.splitlines():
        tag, _, rest = line.partition(" ")
        if tag in ("FIRST", "LATER", "AGAIN"):
            out[tag] = json.loads(rest)
    return out


@pytest.mark.parametrize("kind", list(CASES))
def test_kernel_fault_raises_cuda_runtime_error_saying_restart(kind):
    body, sync, status = CASES[kind]
    proc = run_python(body, sync, code=CHILD, timeout=120)
    assert proc.returncode == 0, f"the process died instead of raising\n{describe(proc)}"
    assert "EXIT" in proc.stdout, describe(proc)
    r = reports(proc)
    first = r["FIRST"]
    assert first.get("status") == status, describe(proc)
    assert RESTART in first["message"], first["message"]
    # The context stays broken: later calls raise the same way, never crash or return wrong values.
    for tag in ("LATER", "AGAIN"):
        assert "status" in r[tag], f"{tag}: {r[tag]}"
        assert RESTART in r[tag]["message"], r[tag]["message"]
