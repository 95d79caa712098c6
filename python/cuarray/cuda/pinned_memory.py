"""Page-locked host memory, as CuPy's cupy.cuda.pinned_memory has it: PinnedMemory, PinnedMemoryPointer,
PinnedMemoryPool, alloc_pinned_memory and set_pinned_memory_allocator."""

import operator

from cuarray import _core
from cuarray.cuda import _arena

_cuda = _core.cuda

__all__ = [
    "PinnedMemory",
    "PinnedMemoryPointer",
    "PinnedMemoryPool",
    "PooledPinnedMemory",
    "alloc_pinned_memory",
    "get_default_pinned_memory_pool",
    "get_pinned_memory_allocator",
    "set_pinned_memory_allocator",
]


_size = _arena.check_size


class PinnedMemory:
    """`size` bytes of page-locked host memory (`ptr`, `size`), from cuarray's pinned pool and given back to it
    when dropped. `flags` is accepted for CuPy's signature: the memory is always portable (usable with every
    device). Other allocators subclass it, setting `ptr` and `size` themselves."""

    def __init__(self, size, flags=0):
        size = _size(size)
        if size == 0:  # nothing to allocate: a null pointer, as CuPy's
            self._keep, self.ptr, self.size = None, 0, 0
            return
        self._keep = _cuda.alloc_pinned(size)
        self.ptr, self.size = self._keep.ptr, self._keep.size

    def __int__(self):
        return self.ptr


class PinnedMemoryPointer(_cuda.PinnedMemoryPointer):
    """A pointer into page-locked host memory (`mem`, a PinnedMemory) at a byte offset; ``p + n`` is `n` bytes
    further. Supports the buffer protocol, so numpy.frombuffer reads it."""

    def __init__(self, mem, offset):
        super().__init__(mem, offset)

    def __add__(self, offset):
        return PinnedMemoryPointer(self.mem, self.offset + operator.index(offset))

    __radd__ = __add__

    def __sub__(self, offset):
        return self + -operator.index(offset)

    def __int__(self):
        return self.ptr


class PooledPinnedMemory(_arena.PooledBlock, PinnedMemory):
    """Pinned memory of a PinnedMemoryPool: returned to the pool by free() or when the last pointer goes."""

    def __init__(self, pool, chunk):
        self._init_block(pool, chunk)


def _malloc(size):
    """CuPy's allocator of pinned memory: a PinnedMemoryPointer to a new PinnedMemory of `size` bytes."""
    return PinnedMemoryPointer(PinnedMemory(size), 0)


class _ArenaPinnedPool(_arena.ArenaPool):
    """The caching pool of a PinnedMemoryPool over an allocator (Note [Arena pools] in _arena.py)."""

    @staticmethod
    def _stream_key(stream=None):
        return 0  # host memory: one arena

    @staticmethod
    def _pooled(pool, chunk):
        return PooledPinnedMemory(pool, chunk)

    @staticmethod
    def _pointer(mem, offset):
        return PinnedMemoryPointer(mem, offset)

    @staticmethod
    def _empty():
        return PinnedMemoryPointer(PinnedMemory(0), 0)


class _CorePinnedPool:
    """The default pool's share: cuarray's pinned host memory pool in the core, which also stages copies between
    host and device."""

    __slots__ = ()

    def malloc(self, size):
        return _malloc(size)

    def used_bytes(self):
        return _cuda.pinned_used_bytes()

    def free_bytes(self):
        return _cuda.pinned_free_bytes()

    def total_bytes(self):
        return self.used_bytes() + self.free_bytes()

    def n_free_blocks(self):
        return 0 if _cuda.pinned_free_bytes() == 0 else 1  # the cache is counted as one block

    def free_all_blocks(self, stream=None):
        _cuda.pinned_free_all_blocks()

    def set_limit(self, size=None, fraction=None, total=None):
        raise NotImplementedError("cuarray's pinned memory pool has no limit")

    def get_limit(self):
        return 0


class PinnedMemoryPool:
    """CuPy's caching pool of pinned memory from `allocator` (nbytes -> PinnedMemoryPointer; default
    ``_malloc``), independent of every other pool (Note [Arena pools] in _arena.py). The process's own pool,
    get_default_pinned_memory_pool(), is a PinnedMemoryPool too, as in CuPy: over cuarray's pinned pool in the
    core, which has no limit (set_limit raises NotImplementedError) and counts its cache as one block."""

    def __init__(self, allocator=None):
        self._pool = _ArenaPinnedPool(_malloc if allocator is None else allocator)

    @classmethod
    def _over_core(cls):
        """The default pool: the core's pinned pool."""
        pool = cls.__new__(cls)
        pool._pool = _CorePinnedPool()
        return pool

    def malloc(self, size):
        """A PinnedMemoryPointer to at least `size` bytes of pinned memory from the pool."""
        return self._pool.malloc(size)

    def free_all_blocks(self, stream=None):
        """Gives the cached pinned memory back (to the allocator, or to the system for the default pool)."""
        self._pool.free_all_blocks(stream)

    def n_free_blocks(self):
        """The number of cached free blocks."""
        return self._pool.n_free_blocks()

    def used_bytes(self):
        """Bytes of pinned memory in use."""
        return self._pool.used_bytes()

    def free_bytes(self):
        """Bytes of pinned memory cached for reuse."""
        return self._pool.free_bytes()

    def total_bytes(self):
        """Bytes of pinned memory held (in use plus cached)."""
        return self._pool.total_bytes()

    def set_limit(self, size=None, fraction=None, total=None):
        """Caps the bytes taken from the allocator (0 or None: no cap); `fraction` is of `total()`."""
        self._pool.set_limit(size, fraction, total)

    def get_limit(self):
        """The cap in bytes (0: none)."""
        return self._pool.get_limit()


_default_pinned_pool = PinnedMemoryPool._over_core()


def get_default_pinned_memory_pool():
    """The process's pinned host memory pool (`n_free_blocks`, `free_all_blocks`, ...)."""
    return _default_pinned_pool


_pinned_allocator = _malloc


def set_pinned_memory_allocator(allocator=None):
    """Makes `allocator` (nbytes -> a PinnedMemoryPointer) serve alloc_pinned_memory and empty_pinned; None
    restores the default pool. Transfers between host and device keep using cuarray's own pinned buffers."""
    if allocator is not None and not callable(allocator):
        raise TypeError(
            f"set_pinned_memory_allocator takes a callable or None, got {type(allocator).__name__}"
        )
    global _pinned_allocator
    _pinned_allocator = _malloc if allocator is None else allocator


def get_pinned_memory_allocator():
    """The allocator set by set_pinned_memory_allocator (``_malloc``, cuarray's pinned pool, when none is)."""
    return _pinned_allocator


def alloc_pinned_memory(size):
    """A PinnedMemoryPointer to at least `size` bytes of page-locked host memory, usable with numpy.frombuffer."""
    return _pinned_allocator(_size(size))
