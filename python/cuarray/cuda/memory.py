"""The device memory pool (one per device, stream-ordered and caching) and pinned host memory."""

from cuarray import _core
from cuarray._errors import OutOfMemoryError

_cuda = _core.cuda

__all__ = ["MemoryPool", "PinnedMemoryPool", "OutOfMemoryError", "alloc_pinned_memory"]


class MemoryPool:
    """The caching device allocator. Each method acts on the current device's pool."""

    def used_bytes(self):
        """Bytes held by live arrays."""
        return _cuda.pool_used_bytes(_cuda.current_device())

    def total_bytes(self):
        """Bytes the pool holds from the device (in use plus cached)."""
        return _cuda.pool_total_bytes(_cuda.current_device())

    def free_bytes(self):
        """Cached bytes, ready for reuse."""
        return _cuda.pool_free_bytes(_cuda.current_device())

    def free_all_blocks(self, stream=None):
        """Returns every cached block to the device."""
        _cuda.pool_free_all_blocks(_cuda.current_device())

    def set_limit(self, size=None, fraction=None):
        """Caps the bytes arrays may hold on the current device (0 or None: no cap)."""
        if fraction is not None:
            if size is not None:
                raise ValueError("size and fraction cannot be specified at the same time")
            if not 0 <= fraction <= 1:
                raise ValueError(f"fraction must be between 0 and 1, got {fraction}")
            size = int(_cuda.mem_info(_cuda.current_device())[1] * fraction)
        if size is None:
            size = 0
        if size < 0:
            raise ValueError(f"size must be non-negative, got {size}")
        _cuda.pool_set_limit(_cuda.current_device(), int(size))

    def get_limit(self):
        """The current device's pool limit in bytes (0: no limit)."""
        return _cuda.pool_get_limit(_cuda.current_device())


class PinnedMemoryPool:
    """The caching allocator of page-locked host memory."""

    def used_bytes(self):
        """Bytes of pinned host memory in use."""
        return _cuda.pinned_used_bytes()

    def free_bytes(self):
        """Bytes of pinned host memory cached for reuse."""
        return _cuda.pinned_free_bytes()

    def n_free_blocks(self):
        """The number of cached free blocks (0 or 1: the cache is counted as one)."""
        return 0 if _cuda.pinned_free_bytes() == 0 else 1

    def free_all_blocks(self):
        """Gives the cached pinned host memory back to the system."""
        _cuda.pinned_free_all_blocks()


_default_pool = MemoryPool()
_default_pinned_pool = PinnedMemoryPool()


def get_default_memory_pool():
    """The process's device memory pool (CuPy's ``MemoryPool`` API: `used_bytes`, `total_bytes`,
    `free_all_blocks`, `set_limit`, ...)."""
    return _default_pool


def get_default_pinned_memory_pool():
    """The process's pinned host memory pool (`n_free_blocks`, `free_all_blocks`, ...)."""
    return _default_pinned_pool


def alloc_pinned_memory(nbytes):
    """Page-locked host memory of at least `nbytes`, usable with numpy.frombuffer."""
    nbytes = int(nbytes)
    if nbytes < 0:
        raise ValueError(f"nbytes must be non-negative, got {nbytes}")
    return _cuda.alloc_pinned(nbytes)
