"""CUDA devices, streams, events and memory (CuPy's cupy.cuda names)."""

from cuarray import _core
from cuarray._errors import CUDARuntimeError, OutOfMemoryError
from cuarray.cuda import compiler, cufft, driver, memory, nvrtc, nvtx, pinned_memory, profiler, runtime
from cuarray.cuda._memoize import clear_memo, memoize
from cuarray.cuda.device import Device, get_cublas_handle, get_device_id
from cuarray.cuda.graph import Graph
from cuarray.cuda.memory import (
    BaseMemory,
    ManagedMemory,
    Memory,
    MemoryAsync,
    MemoryAsyncPool,
    MemoryPointer,
    MemoryPool,
    PythonFunctionAllocator,
    UnownedMemory,
    alloc,
    get_allocator,
    get_default_memory_pool,
    malloc_async,
    malloc_managed,
    set_allocator,
    using_allocator,
)
from cuarray.cuda.pinned_memory import (
    PinnedMemory,
    PinnedMemoryPointer,
    PinnedMemoryPool,
    alloc_pinned_memory,
    get_default_pinned_memory_pool,
    get_pinned_memory_allocator,
    set_pinned_memory_allocator,
)
from cuarray.cuda.stream import Event, ExternalStream, Stream, get_current_stream, get_elapsed_time


def get_local_runtime_version():
    """CuPy's: the version of the CUDA runtime in use, as an int (cuarray's is linked in: the one it was built
    with)."""
    return runtime.runtimeGetVersion()


def is_available():
    """True when a CUDA driver and at least one device are present. Never raises."""
    return _core.cuda.is_available()


__all__ = [
    "BaseMemory",
    "CUDARuntimeError",
    "Device",
    "Event",
    "ExternalStream",
    "Graph",
    "ManagedMemory",
    "Memory",
    "MemoryAsync",
    "MemoryAsyncPool",
    "MemoryPointer",
    "MemoryPool",
    "OutOfMemoryError",
    "PinnedMemory",
    "PinnedMemoryPointer",
    "PinnedMemoryPool",
    "PythonFunctionAllocator",
    "Stream",
    "UnownedMemory",
    "alloc",
    "alloc_pinned_memory",
    "clear_memo",
    "compiler",
    "cufft",
    "driver",
    "get_allocator",
    "get_cublas_handle",
    "get_current_stream",
    "get_default_memory_pool",
    "get_default_pinned_memory_pool",
    "get_device_id",
    "get_elapsed_time",
    "get_local_runtime_version",
    "get_pinned_memory_allocator",
    "is_available",
    "malloc_async",
    "malloc_managed",
    "memoize",
    "memory",
    "nvrtc",
    "nvtx",
    "pinned_memory",
    "profiler",
    "runtime",
    "set_allocator",
    "set_pinned_memory_allocator",
    "using_allocator",
]
