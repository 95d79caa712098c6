"""The device memory pool (one per device, stream-ordered and caching), the pools CuPy code makes over an
allocator of its own, CUDA's stream-ordered allocator (malloc_async, MemoryAsyncPool), managed memory, CuPy's
allocator hooks (set_allocator, using_allocator), and the pointer type of ``x.data``. Pinned host memory is
cuarray.cuda.pinned_memory's."""

import contextlib
import ctypes
import operator
import threading
import weakref

from cuarray import _core
from cuarray._errors import OutOfMemoryError
from cuarray.cuda import _arena
from cuarray.cuda.device import Device

_cuda = _core.cuda

__all__ = [
    "BaseMemory",
    "ManagedMemory",
    "Memory",
    "MemoryAsync",
    "MemoryAsyncPool",
    "MemoryPointer",
    "MemoryPool",
    "OutOfMemoryError",
    "PooledMemory",
    "PythonFunctionAllocator",
    "SingleDeviceMemoryPool",
    "UnownedMemory",
    "alloc",
    "get_allocator",
    "malloc_async",
    "malloc_managed",
    "set_allocator",
    "using_allocator",
]

# CuPy's names for the arena pool's unit (Note [Arena pools] in _arena.py).
_allocation_unit_size = _arena.ALLOCATION_UNIT_SIZE
_round_size = _arena.round_size
_Chunk = _arena.Chunk


def _stream_handle(stream):
    """The cudaStream_t of `stream` (None: the current stream of the current device). A cuarray Stream's is
    read from its core object: handing it to cuarray's own calls shares nothing with other code (Stream.ptr
    would, Note [Launch queue])."""
    if stream is None:
        return _cuda.current_stream(_cuda.current_device()).ptr
    handle = getattr(stream, "_handle", None)
    return handle().ptr if handle is not None else operator.index(stream.ptr)


def _host_address(mem):
    """The address of host memory given as CuPy takes it: an int, a ctypes.c_void_p, or an object with an
    integer `ptr` (a PinnedMemoryPointer)."""
    if isinstance(mem, ctypes.c_void_p):
        return mem.value or 0
    ptr = getattr(mem, "ptr", None)
    try:
        return operator.index(mem if ptr is None else ptr)
    except TypeError:
        raise TypeError(
            f"host memory must be an address (int), a ctypes.c_void_p or a PinnedMemoryPointer, got "
            f"{type(mem).__name__}"
        ) from None


def _check_not_capturing(what):
    if _cuda.current_stream(_cuda.current_device()).is_capturing():
        raise RuntimeError(f"the current stream is capturing, so {what} is disallowed")


class _PointerOps:
    """CuPy's MemoryPointer copies and fills, on `self.ptr`. The plain forms order the work on the current
    stream and wait for it; the `_async` forms queue it on `stream` (None: the current stream)."""

    __slots__ = ()

    def copy_from_device(self, src, size):
        """Copies `size` bytes from the device memory `src` (a MemoryPointer) here, and waits."""
        _check_not_capturing("a synchronous copy")
        _cuda.raw_memcpy(self.ptr, _device_address(src), _size(size), _stream_handle(None), True)

    def copy_from_device_async(self, src, size, stream=None):
        """Queues a copy of `size` bytes from the device memory `src` here on `stream`."""
        _cuda.raw_memcpy(self.ptr, _device_address(src), _size(size), _stream_handle(stream), False)

    def copy_from_host(self, mem, size):
        """Copies `size` bytes from host memory `mem` (an address or ctypes.c_void_p) here, and waits."""
        _check_not_capturing("a synchronous copy")
        _cuda.raw_memcpy(self.ptr, _host_address(mem), _size(size), _stream_handle(None), True)

    def copy_from_host_async(self, mem, size, stream=None):
        """Queues a copy of `size` bytes from host memory `mem` here on `stream`; `mem` must stay valid (and
        is read asynchronously only if pinned) until the stream gets there."""
        _cuda.raw_memcpy(self.ptr, _host_address(mem), _size(size), _stream_handle(stream), False)

    def copy_from(self, mem, size):
        """copy_from_device for a MemoryPointer `mem`, copy_from_host otherwise."""
        if isinstance(mem, (MemoryPointer, _ArrayPointer)):
            self.copy_from_device(mem, size)
        else:
            self.copy_from_host(mem, size)

    def copy_from_async(self, mem, size, stream=None):
        """copy_from_device_async for a MemoryPointer `mem`, copy_from_host_async otherwise."""
        if isinstance(mem, (MemoryPointer, _ArrayPointer)):
            self.copy_from_device_async(mem, size, stream)
        else:
            self.copy_from_host_async(mem, size, stream)

    def copy_to_host(self, mem, size):
        """Copies `size` bytes from here to host memory `mem`, and waits."""
        _check_not_capturing("a synchronous copy")
        _cuda.raw_memcpy(_host_address(mem), self.ptr, _size(size), _stream_handle(None), True)

    def copy_to_host_async(self, mem, size, stream=None):
        """Queues a copy of `size` bytes from here to host memory `mem` on `stream`."""
        _cuda.raw_memcpy(_host_address(mem), self.ptr, _size(size), _stream_handle(stream), False)

    def memset(self, value, size):
        """Sets `size` bytes from here to the byte `value`, and waits."""
        _check_not_capturing("a synchronous memset")
        _cuda.raw_memset(self.ptr, operator.index(value), _size(size), _stream_handle(None), True)

    def memset_async(self, value, size, stream=None):
        """Queues setting `size` bytes from here to the byte `value` on `stream`."""
        _cuda.raw_memset(self.ptr, operator.index(value), _size(size), _stream_handle(stream), False)


def _device_address(src):
    if not isinstance(src, (MemoryPointer, _ArrayPointer)):
        raise TypeError(f"the source must be a MemoryPointer, got {type(src).__name__}")
    return src.ptr


class _ArrayPointer(_PointerOps):
    """A device address (``x.data.ptr``), the device it lives on, and the array whose memory it points into
    (kept alive by it; ``ndarray(shape, dtype, memptr)`` views that memory). ``p + n`` is ``n`` bytes further."""

    __slots__ = ("_owner", "device_id", "ptr")

    @property
    def mem(self):
        """The whole allocation the array lives in: a PooledMemory for the default pool's, as CuPy's, a Memory
        for other memory (`ptr`, `size`, `device_id`)."""
        allocation = self._owner._allocation
        if allocation is None:
            return UnownedMemory(0, 0, None, self.device_id)
        return _memory_of(allocation)

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
    """CuPy's memory pool: per device, a SingleDeviceMemoryPool over `allocator` (default ``_malloc``,
    cudaMalloc), independent of every other pool (Note [Arena pools] in _arena.py). Each method acts on the
    current device's pool. The process's own pool, get_default_memory_pool(), is a MemoryPool too, over the
    core's stream-ordered pool of each device (_CorePool), with the same methods."""

    _allocator = None  # None only for the default pool: the core's pool serves it (_CorePool)

    def __init__(self, allocator=None):
        if allocator is None:
            allocator = _malloc
        if not callable(allocator):
            raise TypeError(f"MemoryPool takes a callable allocator or None, got {type(allocator).__name__}")
        self._allocator = allocator
        self._pools = {}
        self._lock = threading.Lock()

    @classmethod
    def _over_core(cls):
        """The default pool: the core's pool of each device."""
        pool = cls.__new__(cls)
        pool._pools = {}
        pool._lock = threading.Lock()
        return pool

    def _pool(self, device=None):
        """The pool of `device` (default: the current device), made on first use."""
        if device is None:
            device = _cuda.current_device()
        pool = self._pools.get(device)
        if pool is None:
            with self._lock:
                pool = self._pools.get(device)
                if pool is None and self._allocator is None:
                    pool = self._pools[device] = _CorePool(device)
                elif pool is None:
                    pool = self._pools[device] = SingleDeviceMemoryPool(self._allocator)
        return pool

    def malloc(self, size):
        """A MemoryPointer to at least `size` bytes of the current device, ordered on the current stream."""
        return self._pool().malloc(size)

    def free_all_blocks(self, stream=None):
        """Gives the cached memory (of `stream` only, if given) back to the allocator."""
        self._pool().free_all_blocks(stream)

    def free_all_free(self):
        """free_all_blocks(), under CuPy's old name (deprecated)."""
        _warn_free_all_free()
        self.free_all_blocks()

    def n_free_blocks(self):
        """The number of cached free blocks."""
        return self._pool().n_free_blocks()

    def used_bytes(self):
        """Bytes held by live memory."""
        return self._pool().used_bytes()

    def free_bytes(self):
        """Cached bytes, ready for reuse."""
        return self._pool().free_bytes()

    def total_bytes(self):
        """Bytes the pool holds from its allocator (in use plus cached)."""
        return self._pool().total_bytes()

    def set_limit(self, size=None, fraction=None):
        """Caps the bytes the current device's pool may hold (0 or None: no cap); `fraction` is of the
        device's memory."""
        self._pool().set_limit(size, fraction)

    def get_limit(self):
        """The current device's pool limit in bytes (0: no limit)."""
        return self._pool().get_limit()


def _warn_free_all_free():
    import warnings

    warnings.warn(
        "free_all_free is deprecated. Use free_all_blocks instead.", DeprecationWarning, stacklevel=3
    )


def _device_total():
    return _cuda.mem_info(_cuda.current_device())[1]


class SingleDeviceMemoryPool(_arena.ArenaPool):
    """A caching pool of the current device's memory from `allocator` (nbytes -> MemoryPointer; default
    ``_malloc``), in arenas per stream (Note [Arena pools] in _arena.py)."""

    def __init__(self, allocator=None):
        super().__init__(_malloc if allocator is None else allocator)
        self._device_id = _cuda.current_device()

    @staticmethod
    def _stream_key(stream=None):
        # Note [Arena keys] in _arena.py: a stream cuarray made by its serial, another library's by its handle.
        if stream is None:
            core = _cuda.current_stream(_cuda.current_device())
        else:
            handle = getattr(stream, "_handle", None)
            if handle is None:
                return operator.index(stream.ptr)
            core = handle()
        return ("serial", core.serial) if core.owned else core.ptr

    @staticmethod
    def _key_alive(key):
        return not isinstance(key, tuple) or _cuda.Stream.alive(key[1])

    @staticmethod
    def _pooled(pool, chunk):
        return PooledMemory(pool, chunk)

    @staticmethod
    def _pointer(mem, offset):
        return MemoryPointer(mem, offset)

    @staticmethod
    def _empty():
        return MemoryPointer(Memory(0), 0)

    def free_all_free(self):
        """free_all_blocks(), under CuPy's old name (deprecated)."""
        _warn_free_all_free()
        self.free_all_blocks()

    def set_limit(self, size=None, fraction=None):
        """Caps the bytes taken from the allocator (0 or None: no cap); `fraction` is of the device's memory."""
        super().set_limit(size, fraction, _device_total)


class _CorePool:
    """One device's share of the default pool: the core's stream-ordered pool (Note [Memory pool stream rule] in
    cpp/cuarray/cuda/memory_pool.h), with SingleDeviceMemoryPool's methods. The `pool` of its PooledMemory."""

    __slots__ = ("__weakref__", "_device_id", "_ref")

    def __init__(self, device):
        self._device_id = device
        self._ref = weakref.ref(self)

    def malloc(self, size):
        """A MemoryPointer to `size` bytes from the pool, on the current device and ordered on the current
        stream."""
        core = _cuda.pool_malloc(_size(size))
        return MemoryPointer(PooledMemory._from_core(core, self) if core.size else Memory._from_core(core), 0)

    def used_bytes(self):
        """Bytes held by live arrays."""
        return _cuda.pool_used_bytes(self._device_id)

    def total_bytes(self):
        """Bytes the pool holds from the device (in use plus cached)."""
        return _cuda.pool_total_bytes(self._device_id)

    def free_bytes(self):
        """Cached bytes, ready for reuse."""
        return _cuda.pool_free_bytes(self._device_id)

    def free_all_blocks(self, stream=None):
        """Returns every cached block to the device, and the memory that graphs no longer use."""
        _cuda.pool_free_all_blocks(self._device_id)

    def free_all_free(self):
        """free_all_blocks(), under CuPy's old name (deprecated)."""
        _warn_free_all_free()
        self.free_all_blocks()

    def n_free_blocks(self):
        """The number of cached free blocks."""
        return _cuda.pool_free_blocks(self._device_id)

    def set_limit(self, size=None, fraction=None):
        """Caps the bytes arrays may hold on the device (0 or None: no cap); `fraction` is of its memory."""
        limit = _arena.limit_bytes(size, fraction, lambda: _cuda.mem_info(self._device_id)[1])
        _cuda.pool_set_limit(self._device_id, limit)

    def get_limit(self):
        """The pool's limit in bytes (0: no limit)."""
        return _cuda.pool_get_limit(self._device_id)


_default_pool = MemoryPool._over_core()


def get_default_memory_pool():
    """The process's device memory pool (CuPy's ``MemoryPool`` API: `used_bytes`, `total_bytes`,
    `free_all_blocks`, `set_limit`, ...)."""
    return _default_pool


_size = _arena.check_size


# Device memory objects, as CuPy's cupy.cuda.memory names them. `ptr`, `size` and `device_id` are what the rest of
# cuarray reads; a MemoryPointer over any of them can back an array (ndarray(shape, dtype, memptr)).
class BaseMemory:
    """Device memory: `ptr`, `size` in bytes, and `device_id`."""

    __slots__ = ("__weakref__", "_keep", "device_id", "ptr", "size")

    @property
    def device(self):
        """The Device the memory is on."""
        return Device(self.device_id)

    def __int__(self):
        return self.ptr


class Memory(BaseMemory):
    """`size` bytes of device memory on the current device straight from cudaMalloc (CuPy's Memory), freed
    when dropped."""

    __slots__ = ()

    def __init__(self, size):
        self._set(_cuda.malloc_unpooled(_size(size)))

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

    def prefetch(self, stream, *, device_id=None):
        """Queues migrating the memory to `device_id` (default: its own device; -1: the host) on `stream`."""
        device_id = self.device_id if device_id is None else operator.index(device_id)
        _cuda.raw_mem_prefetch(self.ptr, self.size, device_id, _stream_handle(stream))

    def advise(self, advise, dev):
        """Gives CUDA the usage hint `advise` (runtime.cudaMemAdvise*) for this memory on Device `dev`."""
        _cuda.raw_mem_advise(self.ptr, self.size, operator.index(advise), Device(dev).id)


class MemoryAsync(BaseMemory):
    """`size` bytes from CUDA's stream-ordered allocator (Note [Async pool] in cpp/cuarray/cuda/async_pool.h),
    allocated on `stream` and freed there when dropped; `stream_ref` is a weak reference to that stream."""

    __slots__ = ("stream_ref",)

    def __init__(self, size, stream):
        with _current_stream_as(stream):
            core = _cuda.malloc_async(_size(size))
        self._keep = core
        self.ptr, self.size, self.device_id = core.ptr, core.size, core.device_id
        self.stream_ref = weakref.ref(stream)


@contextlib.contextmanager
def _current_stream_as(stream):
    from cuarray.cuda.stream import get_current_stream

    if stream is get_current_stream():
        yield
        return
    with stream:
        yield


# Note [Freeing pooled memory]
# CuPy's PooledMemory.free() hands the memory back to its pool at once and sets `ptr` to 0, even while an array
# made on it (ndarray(shape, dtype, memptr)) still reads and writes it: the next allocation gets the same bytes,
# and once the pool gives them back to the device the array's kernels fault. cuarray's free() sets `ptr` to 0 and
# hands the memory back at once unless such an array was made on it; then the memory goes back when the object
# goes, after its last array and pointer. An object the default pool's arrays report (x.data.mem) is one of
# several owners of the array's memory, so its free() only gives up its own hold. free() is idempotent, and the
# finalizer never hands back twice (PooledBlock.free for an arena pool's chunk; one reference for the core's).
class PooledMemory(_arena.PooledBlock, BaseMemory):
    """Memory of a pool: a SingleDeviceMemoryPool's chunk, or the default pool's block. `pool` is a weak
    reference to the pool (CuPy's), `identity` the name of the memory class under it (CuPy's: 'Memory' for
    cudaMalloc's and the default pool's, 'ManagedMemory', 'MemoryAsync', ...). Returned to the pool by free() or
    when the last pointer to it goes (Note [Freeing pooled memory])."""

    __slots__ = ("_chunk", "_in_arrays", "_pool", "identity")

    def __init__(self, pool, chunk):
        self._init_block(pool, chunk)
        self._keep = None
        self.device_id = pool._device_id
        self.identity = _identity(chunk.mem)
        self._in_arrays = False

    @classmethod
    def _from_core(cls, core, pool):
        """The default pool's block `core` (a DeviceMemory of the _CorePool `pool`)."""
        memory = cls.__new__(cls)
        memory._keep, memory._chunk, memory._pool = core, None, pool._ref
        memory.ptr, memory.size, memory.device_id = core.ptr, core.size, core.device_id
        memory.identity, memory._in_arrays = "Memory", False
        return memory

    @property
    def pool(self):
        """A weak reference to the pool (call it for the pool; None once the pool is gone)."""
        return self._pool

    def free(self):
        """Returns the memory to its pool and sets `ptr` to 0; later calls do nothing. Memory that an array made
        on it still uses goes back when that array goes (Note [Freeing pooled memory])."""
        self.ptr = 0
        if not self._in_arrays:
            self._release()

    def _release(self):
        self._keep = None
        super().free()  # an arena pool's chunk, once (PooledBlock.free); nothing for the default pool's block

    def __del__(self):
        self._release()


def _identity(mem):
    """CuPy's PooledMemory.identity of a pool whose allocator gave `mem`."""
    for cls, name in (
        (ManagedMemory, "ManagedMemory"),
        (Memory, "Memory"),
        (MemoryAsync, "MemoryAsync"),
        (UnownedMemory, "UnownedMemory"),
        (_FunctionMemory, "PythonFunctionAllocatorMemory"),
    ):
        if isinstance(mem, cls):
            return name
    return "<unknown>"


def _memory_of(core):
    """The memory object of the core's allocation `core`, as CuPy's: a PooledMemory for a block of the default
    pool, a Memory for other memory (cudaMalloc's, managed, another allocator's) and for 0 bytes."""
    if core.pooled and core.size:
        return PooledMemory._from_core(core, _default_pool._pool(core.device_id))
    return Memory._from_core(core)


class UnownedMemory(BaseMemory):
    """Device memory that `owner` owns (another library's allocation): kept alive by keeping `owner`."""

    __slots__ = ()

    def __init__(self, ptr, size, owner, device_id=None):
        self.ptr, self.size, self._keep = operator.index(ptr), _size(size), owner
        if device_id is None:
            if self.ptr == 0:
                raise RuntimeError("UnownedMemory requires explicit device ID for a null pointer.")
            # The device the runtime says the memory is on (cudaPointerGetAttributes), as CuPy's; memory it does
            # not place on a device (plain host memory) counts as the current device's.
            device_id = _cuda.raw_pointer_device(self.ptr)
            if device_id < 0:
                device_id = _cuda.current_device()
        self.device_id = operator.index(device_id)


class MemoryPointer(_PointerOps):
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
        return Device(self.device_id)

    @property
    def _owner(self):
        """A uint8 array over the whole memory, for ndarray(shape, dtype, memptr) (which views its owner)."""
        if self._array is None:
            mem = self.mem
            size = operator.index(mem.size)
            if isinstance(mem, PooledMemory):
                if mem.ptr == 0 and size:
                    raise ValueError("the memory was freed (free() was called): no array can be made on it")
                mem._in_arrays = True  # Note [Freeing pooled memory]
            self._array = _core._from_cuda_array(mem.ptr, (size,), None, "uint8", None, False, mem)
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


class PythonFunctionAllocator:
    """CuPy's allocator of two Python functions: ``malloc_func(size, device_id)`` returns an address, and
    ``free_func(ptr, device_id)`` frees it once the memory is dropped. ``set_allocator(a.malloc)`` uses it."""

    def __init__(self, malloc_func, free_func):
        if not (callable(malloc_func) and callable(free_func)):
            raise TypeError(
                "PythonFunctionAllocator takes two callables: malloc_func(size, device_id) and "
                "free_func(ptr, device_id)"
            )
        self._malloc_func, self._free_func = malloc_func, free_func

    def malloc(self, size):
        """A MemoryPointer to `size` bytes from malloc_func, given back to free_func when dropped."""
        size = _size(size)
        device = _cuda.current_device()
        ptr = operator.index(self._malloc_func(size, device))
        return MemoryPointer(_FunctionMemory(ptr, size, device, self._free_func), 0)


class _FunctionMemory(BaseMemory):
    """Memory from a PythonFunctionAllocator, which its free function gives back when dropped."""

    __slots__ = ("_free",)

    def __init__(self, ptr, size, device_id, free):
        self.ptr, self.size, self.device_id, self._keep, self._free = ptr, size, device_id, None, free

    def __del__(self):
        self._free(self.ptr, self.device_id)


def _malloc(size):
    """CuPy's raw allocator: `size` bytes from cudaMalloc, outside every pool (set_allocator(None) leaves arrays
    to it)."""
    return MemoryPointer(Memory(size), 0)


def malloc_managed(size):
    """A MemoryPointer to `size` bytes of managed memory: ``set_allocator(malloc_managed)`` puts every array there."""
    return MemoryPointer(ManagedMemory(size), 0)


def malloc_async(size):
    """A MemoryPointer to `size` bytes from CUDA's stream-ordered allocator, allocated and freed on the current
    stream: ``set_allocator(malloc_async)`` puts every array there (Note [Async pool] in
    cpp/cuarray/cuda/async_pool.h)."""
    from cuarray.cuda.stream import get_current_stream

    return MemoryPointer(MemoryAsync(size, get_current_stream()), 0)


class MemoryAsyncPool:
    """CuPy's pool over CUDA's stream-ordered allocator (Note [Async pool] in cpp/cuarray/cuda/async_pool.h):
    `malloc` is malloc_async; the counts and the limit (CUDA's release threshold, a soft limit) are those of
    the current device's stream-ordered pool. `pool_handles` must be 'current' or 'default': both name that
    pool."""

    def __init__(self, pool_handles="current"):
        if pool_handles not in ("current", "default"):
            raise ValueError(
                f"pool_handles must be 'current' or 'default' (cuarray's stream-ordered pool of each device), "
                f"got {pool_handles!r}"
            )

    def malloc(self, size):
        """A MemoryPointer to at least `size` bytes (rounded up to 512), ordered on the current stream."""
        size = _size(size)
        rounded = _round_size(size)
        total = self.total_bytes()
        if total - self.used_bytes() < rounded:
            limit = self.get_limit()
            if max(limit, total) < total + rounded:
                raise OutOfMemoryError(size, total, limit)
        try:
            return malloc_async(rounded)
        except OutOfMemoryError:
            from cuarray.cuda.stream import get_current_stream

            get_current_stream().synchronize()  # frees of other streams become visible
            return malloc_async(rounded)

    def free_all_blocks(self, stream=None):
        """Waits for `stream` (None: the current stream), then gives the pool's unused memory back."""
        from cuarray.cuda.stream import get_current_stream

        (get_current_stream() if stream is None else stream).synchronize()
        _cuda.async_pool_trim(_cuda.current_device())

    def n_free_blocks(self):
        """Not known for CUDA's pool: NotImplementedError, as in CuPy."""
        raise NotImplementedError("This function is not supported in MemoryAsyncPool")

    def used_bytes(self):
        """Bytes in use from the current device's stream-ordered pool."""
        return _cuda.async_pool_used_bytes(_cuda.current_device())

    def total_bytes(self):
        """Bytes the current device's stream-ordered pool holds from the device."""
        return _cuda.async_pool_reserved_bytes(_cuda.current_device())

    def free_bytes(self):
        """Bytes held but not in use."""
        return self.total_bytes() - self.used_bytes()

    def set_limit(self, size=None, fraction=None):
        """Sets the pool's release threshold (a soft limit; 0 or None: none, 2**64 - 1)."""
        limit = _arena.limit_bytes(size, fraction, _device_total)
        _cuda.async_pool_set_release_threshold(_cuda.current_device(), limit or 2**64 - 1)

    def get_limit(self):
        """The release threshold in bytes (2**64 - 1: none)."""
        return _cuda.async_pool_release_threshold(_cuda.current_device())


def alloc(size):
    """A MemoryPointer to `size` bytes from the current allocator (set_allocator, using_allocator)."""
    size = _size(size)
    allocator = get_allocator()
    if _is_default(allocator):
        return MemoryPointer(_memory_of(_cuda.alloc(size)), 0)
    return allocator(size)


# Note [User allocator] (cpp/cuarray/cuda/memory_pool.h): the allocator objects live here; the core only knows
# whether this thread's allocations go to _allocate_for_core. The process-wide allocator is `_allocator` (the
# default pool's malloc until set_allocator); using_allocator sets the calling thread's own in `_local.allocator`.
# As in CuPy, None given to either is `_malloc` (no pool).
_allocator = _default_pool.malloc
_local = threading.local()


def _is_default(allocator):
    """Whether `allocator` is the default pool's malloc, which the core serves without calling Python."""
    return getattr(allocator, "__self__", None) is _default_pool and allocator == _default_pool.malloc


def _checked_allocator(allocator, name):
    if allocator is None:
        return _malloc
    if not callable(allocator):
        raise TypeError(
            f"{name} takes a callable allocator(nbytes) -> MemoryPointer or None, got {type(allocator).__name__}"
        )
    return allocator


def set_allocator(allocator=None):
    """Makes `allocator` (a callable: nbytes -> an object with an integer ``ptr``, such as a MemoryPointer) allocate
    the device memory of every new array, in every thread outside ``using_allocator``; None is ``_malloc``
    (cudaMalloc, no pool), and ``get_default_memory_pool().malloc`` restores the pool. The object returned stays
    alive while an array uses the memory, and frees it when dropped (its library's rule). Exceptions of the
    allocator propagate."""
    allocator = _checked_allocator(allocator, "set_allocator")
    if getattr(_local, "depth", 0):
        raise ValueError("Can't change the global allocator inside `using_allocator` context manager")
    global _allocator
    _allocator = allocator
    _cuda.use_user_allocator(not _is_default(allocator))


def get_allocator():
    """The allocator new arrays use in this thread: what set_allocator or using_allocator was given (None as
    ``_malloc``), the default pool's ``malloc`` before either."""
    if getattr(_local, "depth", 0):
        return _local.allocator
    return _allocator


@contextlib.contextmanager
def using_allocator(allocator=None):
    """Within the block, new arrays of the calling thread take their memory from `allocator` (None: ``_malloc``,
    no pool)."""
    allocator = _checked_allocator(allocator, "using_allocator")
    previous = (getattr(_local, "allocator", None), _cuda.thread_user_allocator())
    _local.allocator = allocator
    _local.depth = getattr(_local, "depth", 0) + 1
    _cuda.use_thread_user_allocator(0 if _is_default(allocator) else 1)
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
