"""The device memory pool (one per device, stream-ordered and caching), pinned host memory, and MemoryPointer
(a device address, as ``x.data``)."""

import operator

from cuarray import _core
from cuarray._errors import OutOfMemoryError
from cuarray.cuda.device import Device

_cuda = _core.cuda

__all__ = ["MemoryPointer", "MemoryPool", "PinnedMemoryPool", "OutOfMemoryError", "alloc_pinned_memory"]


class MemoryPointer:
    """A device address (``x.data.ptr``), the device it lives on, and the array whose memory it points into
    (kept alive by it; ``ndarray(shape, dtype, memptr)`` views that memory). ``p + n`` is ``n`` bytes further."""

    __slots__ = ("ptr", "device_id", "_owner")

    def __init__(self, ptr, device_id, owner):
        self.ptr = ptr
        self.device_id = device_id
        self._owner = owner

    @property
    def device(self):
        return Device(self.device_id)

    def __add__(self, offset):
        try:
            offset = operator.index(offset)
        except TypeError:
            return NotImplemented
        return MemoryPointer(self.ptr + offset, self.device_id, self._owner)

    __radd__ = __add__

    def __sub__(self, offset):
        try:
            return self + -operator.index(offset)
        except TypeError:
            return NotImplemented

    def __int__(self):
        return self.ptr

    def __repr__(self):
        return f"<MemoryPointer {self.ptr:#x} on device {self.device_id}>"


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
        return _cuda.pool_get_limit(_cuda.current_device())


class PinnedMemoryPool:
    """The caching allocator of page-locked host memory."""

    def used_bytes(self):
        return _cuda.pinned_used_bytes()

    def free_bytes(self):
        return _cuda.pinned_free_bytes()

    def n_free_blocks(self):
        return 0 if _cuda.pinned_free_bytes() == 0 else 1

    def free_all_blocks(self):
        _cuda.pinned_free_all_blocks()


_default_pool = MemoryPool()
_default_pinned_pool = PinnedMemoryPool()


def get_default_memory_pool():
    return _default_pool


def get_default_pinned_memory_pool():
    return _default_pinned_pool


def alloc_pinned_memory(nbytes):
    """Page-locked host memory of at least `nbytes`, usable with numpy.frombuffer."""
    nbytes = int(nbytes)
    if nbytes < 0:
        raise ValueError(f"nbytes must be non-negative, got {nbytes}")
    return _cuda.alloc_pinned(nbytes)
