"""The device memory pool (one per device, stream-ordered and caching), pinned host memory, managed memory,
CuPy's allocator hooks (set_allocator, using_allocator, set_pinned_memory_allocator), and the pointer type of
``x.data``."""

import contextlib
import operator
import threading

from cuarray import _core
from cuarray._errors import OutOfMemoryError
from cuarray.cuda.device import Device

_cuda = _core.cuda

__all__ = [
    "ManagedMemory",
    "Memory",
    "MemoryPointer",
    "MemoryPool",
    "OutOfMemoryError",
    "PinnedMemory",
    "PinnedMemoryPointer",
    "PinnedMemoryPool",
    "UnownedMemory",
    "alloc",
    "alloc_pinned_memory",
    "get_allocator",
    "get_pinned_memory_allocator",
    "malloc_managed",
    "set_allocator",
    "set_pinned_memory_allocator",
    "using_allocator",
]


class _ArrayPointer:
    """A device address (``x.data.ptr``), the device it lives on, and the array whose memory it points into
    (kept alive by it; ``ndarray(shape, dtype, memptr)`` views that memory). ``p + n`` is ``n`` bytes further."""

    __slots__ = ("_owner", "device_id", "ptr")

    def __init__(self, ptr, device_id, owner):
        self.ptr = ptr
        self.device_id = device_id
        self._owner = owner

    @property
    def device(self):
        """The Device the memory is on."""
        return Device(self.device_id)

    def __add__(self, offset):
        try:
            offset = operator.index(offset)
        except TypeError:
            return NotImplemented
        return _ArrayPointer(self.ptr + offset, self.device_id, self._owner)

    __radd__ = __add__

    def __sub__(self, offset):
        try:
            return self + -operator.index(offset)
        except TypeError:
            return NotImplemented

    def __int__(self):
        """The address."""
        return self.ptr

    def __repr__(self):
        return f"<MemoryPointer {self.ptr:#x} on device {self.device_id}>"


# x.data's pointers carry the array they point into (MemoryPointer below carries a Memory, as CuPy's); they
# print and name themselves as CuPy's class does.
_ArrayPointer.__name__ = _ArrayPointer.__qualname__ = "MemoryPointer"


class MemoryPool:
    """The caching device allocator. Each method acts on the current device's pool.

    ``MemoryPool(allocator)`` (CuPy's form for pooling other memory, such as ``malloc_managed``) makes a pool
    whose ``malloc`` takes its memory from `allocator`, without caching it.
    """

    def __init__(self, allocator=None):
        if allocator is not None and not callable(allocator):
            raise TypeError(f"MemoryPool takes a callable allocator or None, got {type(allocator).__name__}")
        self._allocator = allocator

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

    def malloc(self, size):
        """A MemoryPointer to `size` bytes from the current device's pool, ordered on the current stream (from
        the pool's own allocator, if it was given one)."""
        if self._allocator is not None:
            return self._allocator(_size(size))
        return MemoryPointer(Memory._from_core(_cuda.pool_malloc(_size(size))), 0)


class PinnedMemoryPool:
    """The caching allocator of page-locked host memory."""

    def malloc(self, size):
        """A PinnedMemoryPointer to `size` bytes of pinned memory from the pool."""
        return PinnedMemoryPointer(_cuda.alloc_pinned(_size(size)), 0)

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


def _size(nbytes):
    nbytes = operator.index(nbytes)
    if nbytes < 0:
        raise ValueError(f"the size must be non-negative, got {nbytes}")
    return nbytes


# Device memory objects, as CuPy's cupy.cuda.memory names them. `ptr`, `size` and `device_id` are what the rest of
# cuarray reads; a MemoryPointer over any of them can back an array (ndarray(shape, dtype, memptr)).
class BaseMemory:
    """Device memory: `ptr`, `size` in bytes, and `device_id`."""

    __slots__ = ("_keep", "device_id", "ptr", "size")

    @property
    def device(self):
        """The Device the memory is on."""
        from cuarray.cuda.device import Device

        return Device(self.device_id)

    def __int__(self):
        return self.ptr


class Memory(BaseMemory):
    """`size` bytes of device memory on the current device, from the current device's pool."""

    __slots__ = ()

    def __init__(self, size):
        self._set(_cuda.pool_malloc(_size(size)))

    def _set(self, core):
        self._keep = core
        self.ptr, self.size, self.device_id = core.ptr, core.size, core.device_id

    @classmethod
    def _from_core(cls, core):
        memory = cls.__new__(cls)
        memory._set(core)
        return memory


class ManagedMemory(Memory):
    """`size` bytes of managed (unified) memory (cudaMallocManaged), freed when no array uses it."""

    __slots__ = ()

    def __init__(self, size):
        self._set(_cuda.malloc_managed(_size(size)))


class UnownedMemory(BaseMemory):
    """Device memory that `owner` owns (another library's allocation): kept alive by keeping `owner`."""

    __slots__ = ()

    def __init__(self, ptr, size, owner, device_id=None):
        self.ptr, self.size, self._keep = operator.index(ptr), _size(size), owner
        if device_id is None:
            device_id = _cuda.current_device()
        self.device_id = operator.index(device_id)


class MemoryPointer:
    """CuPy's MemoryPointer: `mem` (a Memory) and a byte offset into it; ``ptr`` is the address, ``p + n`` is `n`
    bytes further. ``cuarray.ndarray(shape, dtype, memptr)`` makes an array of the memory, which it keeps alive.
    """

    __slots__ = ("__weakref__", "_array", "device_id", "mem", "ptr")

    def __init__(self, mem, offset):
        self.mem = mem
        self.ptr = operator.index(mem.ptr) + operator.index(offset)
        device_id = getattr(mem, "device_id", None)
        self.device_id = _cuda.current_device() if device_id is None else device_id
        self._array = None

    @property
    def device(self):
        """The Device the memory is on."""
        from cuarray.cuda.device import Device

        return Device(self.device_id)

    @property
    def _owner(self):
        """A uint8 array over the whole memory, for ndarray(shape, dtype, memptr) (which views its owner)."""
        if self._array is None:
            size = operator.index(self.mem.size)
            self._array = _core._from_cuda_array(self.mem.ptr, (size,), None, "uint8", None, self.mem)
        return self._array

    def __add__(self, offset):
        return MemoryPointer(self.mem, self.ptr - self.mem.ptr + operator.index(offset))

    __radd__ = __add__

    def __sub__(self, offset):
        return self + -operator.index(offset)

    def __int__(self):
        return self.ptr

    def __repr__(self):
        return f"<MemoryPointer {self.ptr:#x} on device {self.device_id}>"


def _malloc(size):
    """The default allocator: the current device's pool (what get_allocator returns while none is set)."""
    return MemoryPointer(Memory._from_core(_cuda.pool_malloc(_size(size))), 0)


def malloc_managed(size):
    """A MemoryPointer to `size` bytes of managed memory: ``set_allocator(malloc_managed)`` puts every array there."""
    return MemoryPointer(ManagedMemory(size), 0)


def alloc(size):
    """A MemoryPointer to `size` bytes from the current allocator (set_allocator, using_allocator)."""
    size = _size(size)
    allocator = get_allocator()
    if _is_default(allocator):
        return MemoryPointer(Memory._from_core(_cuda.alloc(size)), 0)
    return allocator(size)


# Note [User allocator] (cpp/cuarray/cuda/memory_pool.h): the allocator objects live here; the core only knows
# whether this thread's allocations go to _allocate_for_core. The process-wide allocator is `_allocator` (None: the
# pool); using_allocator sets the calling thread's own in `_local.allocator` (None there: the pool too).
_allocator = None
_local = threading.local()


def _is_default(allocator):
    if allocator is None or allocator is _malloc:
        return True
    # MemoryPool().malloc: every MemoryPool object without an allocator of its own is a view of the one pool
    # per device.
    pool = getattr(allocator, "__self__", None)
    return (
        isinstance(pool, MemoryPool)
        and pool._allocator is None
        and getattr(allocator, "__func__", None) is MemoryPool.malloc
    )


def _checked_allocator(allocator, name):
    if allocator is not None and not callable(allocator):
        raise TypeError(
            f"{name} takes a callable allocator(nbytes) -> MemoryPointer or None, got "
            f"{type(allocator).__name__}"
        )
    return None if _is_default(allocator) else allocator


def set_allocator(allocator=None):
    """Makes `allocator` (a callable: nbytes -> an object with an integer ``ptr``, such as a MemoryPointer) allocate
    the device memory of every new array, in every thread outside ``using_allocator``; None (or
    ``get_default_memory_pool().malloc``) restores the pool. The object returned stays alive while an array uses
    the memory, and frees it when dropped (its library's rule). Exceptions of the allocator propagate."""
    allocator = _checked_allocator(allocator, "set_allocator")
    if getattr(_local, "depth", 0):
        raise ValueError("Can't change the global allocator inside `using_allocator` context manager")
    global _allocator
    _allocator = allocator
    _cuda.use_user_allocator(allocator is not None)


def get_allocator():
    """The allocator new arrays use in this thread (the pool's ``_malloc`` when none is set)."""
    if getattr(_local, "depth", 0):
        allocator = _local.allocator
    else:
        allocator = _allocator
    return _malloc if allocator is None else allocator


@contextlib.contextmanager
def using_allocator(allocator=None):
    """Within the block, new arrays of the calling thread take their memory from `allocator` (None: the pool)."""
    allocator = _checked_allocator(allocator, "using_allocator")
    previous = (getattr(_local, "allocator", None), _cuda.thread_user_allocator())
    _local.allocator = allocator
    _local.depth = getattr(_local, "depth", 0) + 1
    _cuda.use_thread_user_allocator(0 if allocator is None else 1)
    try:
        yield
    finally:
        _local.allocator = previous[0]
        _local.depth -= 1
        _cuda.use_thread_user_allocator(previous[1])


def _allocate_for_core(nbytes):
    """The core's call for an allocation while a user allocator is set: the allocator's object, checked."""
    allocator = get_allocator()
    memory = allocator(nbytes)
    try:
        ptr = operator.index(memory.ptr)
    except (AttributeError, TypeError):
        raise TypeError(
            f"the allocator {allocator!r} must return an object with an integer `ptr` (a MemoryPointer), "
            f"got {type(memory).__name__}"
        ) from None
    if ptr == 0 and nbytes:
        raise ValueError(f"the allocator {allocator!r} returned a null pointer for {nbytes} bytes")
    return memory


# Pinned host memory (CuPy's cupy.cuda.pinned_memory names).
class PinnedMemoryPointer(_cuda.PinnedMemoryPointer):
    """A pointer into page-locked host memory (PinnedMemory) at a byte offset; supports the buffer protocol, so
    numpy.frombuffer reads it."""

    def __init__(self, mem, offset):
        super().__init__(mem, offset)


def PinnedMemory(size, flags=0):  # CuPy's class name
    """`size` bytes of page-locked host memory, from the pinned pool (`flags` is accepted for CuPy's signature;
    the memory is always portable: usable with every device)."""
    return _cuda.alloc_pinned(_size(size))


def _pinned_malloc(size):
    return PinnedMemoryPointer(_cuda.alloc_pinned(_size(size)), 0)


_pinned_allocator = _pinned_malloc


def set_pinned_memory_allocator(allocator=None):
    """Makes `allocator` (nbytes -> a PinnedMemoryPointer) serve alloc_pinned_memory and empty_pinned; None
    restores the default pool. Transfers between host and device keep using cuarray's own pinned buffers."""
    if allocator is not None and not callable(allocator):
        raise TypeError(
            f"set_pinned_memory_allocator takes a callable or None, got {type(allocator).__name__}"
        )
    global _pinned_allocator
    _pinned_allocator = _pinned_malloc if allocator is None else allocator


def get_pinned_memory_allocator():
    """The allocator set by set_pinned_memory_allocator (None: cuarray's pinned pool)."""
    return _pinned_allocator


def alloc_pinned_memory(size):
    """A PinnedMemoryPointer to at least `size` bytes of page-locked host memory, usable with numpy.frombuffer."""
    return _pinned_allocator(_size(size))
