"""Behaviour on a machine without CUDA driver or device (CI): clear errors, never a crash."""

import cuarray as cp
import numpy as np
import pytest
from conftest import describe, run_python

pytestmark = pytest.mark.nogpu

NO_DEVICE = r"(?i)no CUDA driver or device"

NEEDS_DEVICE = {
    "zeros": lambda: cp.zeros(3),
    "empty": lambda: cp.empty((2, 2)),
    "ones": lambda: cp.ones(3, dtype=np.int32),
    "arange": lambda: cp.arange(10),
    "array_from_list": lambda: cp.array([1, 2, 3]),
    "asarray_from_numpy": lambda: cp.asarray(np.arange(4.0)),
    "Device_use": lambda: cp.cuda.Device(0).use(),
    "getDeviceCount": lambda: cp.cuda.runtime.getDeviceCount(),
    "Stream": lambda: cp.cuda.Stream(),
}


def test_is_available_is_false():
    assert cp.cuda.is_available() is False
    assert cp.cuda.is_available() is False  # and again, after the first answer was cached


@pytest.mark.parametrize("call", list(NEEDS_DEVICE), ids=list(NEEDS_DEVICE))
def test_device_call_raises_cuda_runtime_error(call):
    with pytest.raises(cp.cuda.CUDARuntimeError, match=NO_DEVICE):
        NEEDS_DEVICE[call]()
    # Asking again gives the same answer, not a crash or a different error.
    with pytest.raises(cp.cuda.CUDARuntimeError, match=NO_DEVICE):
        NEEDS_DEVICE[call]()


def test_no_crash_in_fresh_process():
    # The first device call happens in a fresh process, before anything else touched CUDA.
    code = (
        "import cuarray as cp\n"
        "assert cp.cuda.is_available() is False\n"
        "for f in (lambda: cp.zeros(3), lambda: cp.cuda.Device(0).use(),\n"
        "          lambda: cp.cuda.runtime.getDeviceCount(), lambda: cp.arange(5)):\n"
        "    try:\n"
        "        f()\n"
        "    except cp.cuda.CUDARuntimeError as e:\n"
        "        print('raised:', e)\n"
        "    else:\n"
        "        raise SystemExit('no error raised')\n"
        "print('survived')\n"
    )
    proc = run_python(code=code, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.count("raised:") == 4
    assert "survived" in proc.stdout


def test_main_says_no_gpu_in_one_line_and_exits_1():
    proc = run_python("-m", "cuarray", timeout=120)
    assert proc.returncode == 1, describe(proc)
    lines = [ln for ln in (proc.stdout + proc.stderr).splitlines() if ln.strip()]
    assert len(lines) == 1, describe(proc)
    assert "Traceback" not in lines[0]
    assert any(w in lines[0].lower() for w in ("gpu", "cuda", "device")), lines[0]
