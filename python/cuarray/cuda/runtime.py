"""CuPy-style thin wrappers over the CUDA runtime (cuarray.cuda.runtime). The functions taking addresses and
stream handles act on integers the caller owns (Note [Raw runtime calls] in cpp/cuarray/cuda/runtime_calls.h).
"""

import operator

from cuarray import _core
from cuarray._errors import CUDARuntimeError

_cuda = _core.cuda

__all__ = [
    "CUDARuntimeError",
    "deviceCanAccessPeer",
    "deviceGetAttribute",
    "deviceSynchronize",
    "driverGetVersion",
    "free",
    "getDevice",
    "getDeviceCount",
    "getDeviceProperties",
    "is_hip",
    "malloc",
    "memGetInfo",
    "memcpy",
    "memcpyAsync",
    "memset",
    "memsetAsync",
    "runtimeGetVersion",
    "setDevice",
    "streamCaptureModeGlobal",
    "streamCaptureModeRelaxed",
    "streamCaptureModeThreadLocal",
    "streamCreate",
    "streamCreateWithFlags",
    "streamDestroy",
    "streamQuery",
]

# cudaDevAttr* (cudaDeviceAttr), for deviceGetAttribute: the enumerators' numbers in the runtime's headers.
for _name, _value in _cuda.device_attribute_numbers().items():
    globals()["cudaDevAttr" + _name] = _value
    __all__.append("cudaDevAttr" + _name)
del _name, _value

# cudaMemcpyKind, for memcpy; the runtime tells host from device memory whatever kind is given.
memcpyHostToHost = 0
memcpyHostToDevice = 1
memcpyDeviceToHost = 2
memcpyDeviceToDevice = 3
memcpyDefault = 4

# cudaStream flags, and cudaStreamQuery's statuses.
streamDefault = 0
streamNonBlocking = 1
cudaSuccess = 0
errorNotReady = 600
errorMemoryAllocation = 2
cudaGraphDebugDotFlagsVerbose = 1 << 0

# cudaMemoryAdvise, for ManagedMemory.advise; cudaCpuDeviceId names the host.
cudaMemAdviseSetReadMostly = 1
cudaMemAdviseUnsetReadMostly = 2
cudaMemAdviseSetPreferredLocation = 3
cudaMemAdviseUnsetPreferredLocation = 4
cudaMemAdviseSetAccessedBy = 5
cudaMemAdviseUnsetAccessedBy = 6
cudaCpuDeviceId = -1

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


is_hip = False  # CuPy's flag for its ROCm builds; cuarray runs on CUDA alone


def deviceSynchronize():
    _cuda.synchronize_device(getDevice())


def memGetInfo():
    return tuple(_cuda.mem_info(getDevice()))


def deviceGetAttribute(attrib, device):
    """The value of device attribute `attrib` (a cudaDevAttr* constant) of `device`."""
    return _cuda.device_attribute(operator.index(attrib), operator.index(device))


def deviceCanAccessPeer(device, peerDevice):
    """1 if `device` can access `peerDevice`'s memory directly (cudaDeviceCanAccessPeer), else 0."""
    return _cuda.device_can_access_peer(operator.index(device), operator.index(peerDevice))


def malloc(size):
    """`size` bytes of device memory on the current device (cudaMalloc): an address to give back with free."""
    return _cuda.raw_malloc(operator.index(size))


def free(ptr):
    """Frees memory from malloc (cudaFree)."""
    _cuda.raw_free(operator.index(ptr))


def streamCreate():
    """A new CUDA stream's handle (cudaStreamCreate); destroy it with streamDestroy."""
    return _cuda.raw_stream_create(0)


def streamCreateWithFlags(flag):
    """A new CUDA stream's handle with `flag` (streamDefault or streamNonBlocking)."""
    return _cuda.raw_stream_create(operator.index(flag))


def streamDestroy(stream):
    """Destroys a stream from streamCreate (cudaStreamDestroy)."""
    _cuda.raw_stream_destroy(operator.index(stream))


def streamQuery(stream):
    """cudaStreamQuery's status: cudaSuccess (0) once the stream's work is done, errorNotReady (600) before."""
    return _cuda.raw_stream_query(operator.index(stream))


def memcpy(dst, src, size, kind):
    """Copies `size` bytes from address `src` to `dst` (host or device) and waits for the copy."""
    _cuda.raw_memcpy(operator.index(dst), operator.index(src), operator.index(size), _current_stream(), True)


def memcpyAsync(dst, src, size, kind, stream):
    """Queues a copy of `size` bytes from `src` to `dst` on the stream handle `stream`."""
    _cuda.raw_memcpy(
        operator.index(dst), operator.index(src), operator.index(size), operator.index(stream), False
    )


def memset(ptr, value, size):
    """Sets `size` bytes at device address `ptr` to `value` and waits for it."""
    _cuda.raw_memset(
        operator.index(ptr), operator.index(value), operator.index(size), _current_stream(), True
    )


def memsetAsync(ptr, value, size, stream):
    """Queues setting `size` bytes at `ptr` to `value` on the stream handle `stream`."""
    _cuda.raw_memset(
        operator.index(ptr), operator.index(value), operator.index(size), operator.index(stream), False
    )


def _current_stream():
    return _cuda.current_stream(_cuda.current_device()).ptr
