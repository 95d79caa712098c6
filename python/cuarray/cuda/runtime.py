"""CuPy-style thin wrappers over the CUDA runtime (cuarray.cuda.runtime)."""

import operator

from cuarray import _core
from cuarray._errors import CUDARuntimeError

_cuda = _core.cuda

__all__ = [
    "CUDARuntimeError",
    "deviceSynchronize",
    "driverGetVersion",
    "getDevice",
    "getDeviceCount",
    "getDeviceProperties",
    "memGetInfo",
    "runtimeGetVersion",
    "setDevice",
    "streamCaptureModeGlobal",
    "streamCaptureModeRelaxed",
    "streamCaptureModeThreadLocal",
]

# cudaStreamCaptureMode, for Stream.begin_capture(mode=...)
streamCaptureModeGlobal = 0
streamCaptureModeThreadLocal = 1
streamCaptureModeRelaxed = 2


def getDeviceCount():
    return _cuda.device_count()


def getDevice():
    _cuda.check_device(_cuda.current_device())
    return _cuda.current_device()


def setDevice(device):
    _cuda.set_device(operator.index(device))


def getDeviceProperties(device):
    return _cuda.device_properties(operator.index(device))


def driverGetVersion():
    return _cuda.driver_version()


def runtimeGetVersion():
    return _cuda.runtime_version()


def deviceSynchronize():
    _cuda.synchronize_device(getDevice())


def memGetInfo():
    return tuple(_cuda.mem_info(getDevice()))
