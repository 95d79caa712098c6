"""CUDA devices, streams, events and memory (CuPy's cupy.cuda names)."""

from cuarray import _core
from cuarray._errors import CUDARuntimeError, OutOfMemoryError
from cuarray.cuda import compiler, cufft, memory, runtime
from cuarray.cuda._memoize import clear_memo, memoize
from cuarray.cuda.device import Device
from cuarray.cuda.graph import Graph
from cuarray.cuda.memory import (
    BaseMemory,
    ManagedMemory,
    Memory,
    MemoryPointer,
    MemoryPool,
    PinnedMemory,
    PinnedMemoryPointer,
    PinnedMemoryPool,
    UnownedMemory,
    alloc,
    alloc_pinned_memory,
    get_allocator,
    get_default_memory_pool,
    get_default_pinned_memory_pool,
    get_pinned_memory_allocator,
    malloc_managed,
    set_allocator,
    set_pinned_memory_allocator,
    using_allocator,
)
from cuarray.cuda.stream import Event, ExternalStream, Stream, get_current_stream, get_elapsed_time


def is_available():
    """True when a CUDA driver and at least one device are present. Never raises."""
    return _core.cuda.is_available()


def get_cublas_handle():
    """The calling thread's cuBLAS handle (an int) for the current device, bound to the current stream."""
    return _core.cuda.cublas_handle()


def get_device_id():
    """The calling thread's current device."""
    return Device().id


__all__ = [
    "BaseMemory",
    "CUDARuntimeError",
    "Device",
    "Event",
    "ExternalStream",
    "Graph",
    "ManagedMemory",
    "Memory",
    "MemoryPointer",
    "MemoryPool",
    "OutOfMemoryError",
    "PinnedMemory",
    "PinnedMemoryPointer",
    "PinnedMemoryPool",
    "Stream",
    "UnownedMemory",
    "alloc",
    "alloc_pinned_memory",
    "clear_memo",
    "compiler",
    "cufft",
    "get_allocator",
    "get_cublas_handle",
    "get_current_stream",
    "get_default_memory_pool",
    "get_default_pinned_memory_pool",
    "get_device_id",
    "get_elapsed_time",
    "get_pinned_memory_allocator",
    "is_available",
    "malloc_managed",
    "memoize",
    "memory",
    "runtime",
    "set_allocator",
    "set_pinned_memory_allocator",
    "using_allocator",
]
