"""CUDA devices, streams, events and memory (CuPy's cupy.cuda names)."""

from cuarray import _core
from cuarray._errors import CUDARuntimeError, OutOfMemoryError
from cuarray.cuda import compiler, memory, runtime
from cuarray.cuda.device import Device
from cuarray.cuda.graph import Graph
from cuarray.cuda.memory import (
    MemoryPointer,
    MemoryPool,
    PinnedMemoryPool,
    alloc_pinned_memory,
    get_default_memory_pool,
    get_default_pinned_memory_pool,
)
from cuarray.cuda.stream import Event, Stream, get_current_stream, get_elapsed_time


def is_available():
    """True when a CUDA driver and at least one device are present. Never raises."""
    return _core.cuda.is_available()


__all__ = ["CUDARuntimeError", "OutOfMemoryError", "Device", "Stream", "Event", "Graph", "MemoryPointer",
           "MemoryPool", "PinnedMemoryPool", "alloc_pinned_memory", "get_default_memory_pool",
           "get_default_pinned_memory_pool", "get_current_stream", "get_elapsed_time", "is_available",
           "runtime", "memory", "compiler"]
