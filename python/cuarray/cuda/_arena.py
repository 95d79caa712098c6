"""The caching pool that CuPy's pools of another allocator's memory use: ``MemoryPool(allocator)`` and
``MemoryPool()`` objects other than the default pool, ``SingleDeviceMemoryPool`` and ``PinnedMemoryPool``.

Note [Arena pools]
cuarray's default device pool lives in the core (Note [Memory pool stream rule] in
cpp/cuarray/cuda/memory_pool.h). A pool that CuPy code makes itself, over an allocator it names (managed memory,
another library's memory, a mock in a test), is this one: CuPy's design of an arena of chunks per stream. A
request is rounded up to whole units of 512 bytes; a free chunk of the stream's arena that is large enough is
taken (the smallest such) and split, and only when none is does the allocator get asked, for exactly the
rounded size. A freed chunk merges with free neighbours of the same allocation and returns to the arena of the
stream it was allocated on, where stream order makes its reuse safe; free_all_blocks gives back the
allocations no part of which is in use. A limit counts the bytes taken from the allocator; reaching it, or the
allocator's OutOfMemoryError, first frees the cached allocations and retries once. Its memory is handed out as
pointers whose memory object returns the chunk when the last pointer goes (PooledMemory); the pool itself is
held weakly, so a pool dropped while its memory is in use frees nothing early.

Note [Arena keys]
CUDA gives a new stream the handle of one destroyed before, whose work may still be running. Keyed by handle, as
in CuPy, memory freed after a kernel on a stream that was then dropped would go to the next new stream, whose
work could overwrite it while that kernel still read or wrote it (a silent wrong result). So a stream cuarray
made and destroys is keyed by its serial (Stream.serial in cpp/cuarray/cuda/stream.h), which no later stream
has. A stream another library made (Stream.from_external, ExternalStream) is keyed by its handle, as in CuPy:
its owner destroys it, and every wrapper of it must share its arena, or a program that wraps its framework's
stream at each step would never reuse memory. When a new arena is made, the arenas of destroyed streams give
their whole free allocations back to the allocator (whose free waits for the device, for cudaFree) and go
once nothing of theirs is in use.
"""

import bisect
import gc
import operator
import threading
import weakref

from cuarray._errors import OutOfMemoryError

ALLOCATION_UNIT_SIZE = 512


def check_size(nbytes):
    """`nbytes` as an int, refused if negative with CuPy's OverflowError (its allocators take a size_t)."""
    nbytes = operator.index(nbytes)
    if nbytes < 0:
        raise OverflowError(f"can't convert negative value to size_t (a size of {nbytes} bytes)")
    return nbytes


def round_size(size):
    """`size` rounded up to whole allocation units."""
    unit = ALLOCATION_UNIT_SIZE
    return (size + unit - 1) // unit * unit


class Chunk:
    """`size` bytes at `offset` into the allocation `mem`, in the arena of one stream; `prev` and `next` are
    the neighbouring chunks of the same allocation (None at its ends)."""

    __slots__ = ("arena", "in_use", "mem", "next", "offset", "prev", "size")

    def __init__(self, mem, offset, size, arena):
        self.mem = mem
        self.offset = offset
        self.size = size
        self.arena = arena
        self.prev = None
        self.next = None
        self.in_use = False

    def ptr(self):
        return self.mem.ptr + self.offset

    def split(self, size):
        """Keeps the first `size` bytes and returns the rest as a new chunk after this one."""
        tail = Chunk(self.mem, self.offset + size, self.size - size, self.arena)
        self.size = size
        tail.prev, tail.next = self, self.next
        if self.next is not None:
            self.next.prev = tail
        self.next = tail
        return tail

    def merge_next(self):
        """Absorbs the next chunk, which then belongs to no arena."""
        absorbed = self.next
        self.size += absorbed.size
        self.next = absorbed.next
        if absorbed.next is not None:
            absorbed.next.prev = self
        absorbed.arena = absorbed.prev = absorbed.next = None


class Arena:
    """The free chunks of one stream, by size."""

    __slots__ = ("free", "key", "sizes", "used")

    def __init__(self, key):
        self.key = key
        self.free = {}  # size -> [chunk, ...]
        self.sizes = []  # the sizes in `free`, ascending
        self.used = 0  # its chunks in use

    def push(self, chunk):
        chunks = self.free.get(chunk.size)
        if chunks is None:
            chunks = self.free[chunk.size] = []
            bisect.insort(self.sizes, chunk.size)
        chunks.append(chunk)

    def remove(self, chunk):
        chunks = self.free[chunk.size]
        chunks.remove(chunk)
        if not chunks:
            del self.free[chunk.size]
            del self.sizes[bisect.bisect_left(self.sizes, chunk.size)]

    def pop_fit(self, size):
        """The smallest free chunk of at least `size` bytes, taken out; None if there is none."""
        i = bisect.bisect_left(self.sizes, size)
        if i == len(self.sizes):
            return None
        chunk = self.free[self.sizes[i]][-1]
        self.remove(chunk)
        return chunk

    def n_free(self):
        return sum(len(c) for c in self.free.values())


# PooledBlock.free's: one taker of a block's chunk. Reentrant: a garbage collection inside the locked section may
# finalise another block on the same thread.
_take_lock = threading.RLock()


class PooledBlock:
    """The memory of one chunk handed out by an arena pool: `ptr`, `size`, and `free()`, which returns it (once)
    to the pool; dropping the last reference frees it too."""

    __slots__ = ()

    def _init_block(self, pool, chunk):
        self.ptr = chunk.ptr()
        self.size = chunk.size
        self._chunk = chunk
        self._pool = weakref.ref(pool)

    def free(self):
        """Returns the memory to its pool; later calls do nothing."""
        # Taken under a lock: two threads freeing one block must not both hand its chunk back, which would give
        # the same memory to two later allocations. (At interpreter exit the lock may be gone with the module.)
        lock = _take_lock
        if lock is not None:
            lock.acquire()
        try:
            chunk = getattr(self, "_chunk", None)  # None too where construction failed
            self._chunk = None
        finally:
            if lock is not None:
                lock.release()
        if chunk is None:
            return
        pool = self._pool()
        if pool is not None:
            pool._free(chunk)

    def __del__(self):
        self.free()


class ArenaPool:
    """Note [Arena pools]. Subclasses say how memory is wrapped: `_pooled(pool, chunk)` the PooledBlock,
    `_pointer(mem, offset)` the pointer type, `_empty()` the pointer for a request of 0 bytes, and
    `_stream_key(stream=None)` the key of `stream`'s arena (None: the current stream's, which serves a
    request) and `_key_alive(key)` whether that stream may still allocate (Note [Arena keys])."""

    def __init__(self, allocator):
        if not callable(allocator):
            raise TypeError(
                f"allocator must be callable: nbytes -> a memory pointer, got {type(allocator).__name__}"
            )
        self._allocator = allocator
        self._arenas = {}  # stream key -> Arena (Note [Arena keys])
        self._lock = threading.RLock()
        self._used = 0
        self._total = 0
        self._limit = 0

    @staticmethod
    def _key_alive(key):
        return True

    def _arena(self, key):
        arena = self._arenas.get(key)
        if arena is None:
            self._drop_dead_arenas()
            arena = self._arenas[key] = Arena(key)
        return arena

    def _drop_dead_arenas(self):
        """Note [Arena keys]: the arenas of destroyed streams give back their whole free allocations, and go
        once nothing of theirs is in use."""
        for key, arena in list(self._arenas.items()):
            if self._key_alive(key):
                continue
            self._give_back(arena)
            if arena.used == 0 and not arena.free:
                del self._arenas[key]

    def _give_back(self, arena):
        """Returns `arena`'s free chunks that are whole allocations to the allocator."""
        for size in list(arena.sizes):
            for chunk in list(arena.free.get(size, ())):
                if chunk.prev is None and chunk.next is None:
                    arena.remove(chunk)
                    self._total -= chunk.size
                    chunk.mem = None

    def malloc(self, size):
        """A pointer to at least `size` bytes, cached memory of the current stream's arena where some fits."""
        size = check_size(size)
        if size == 0:
            return self._empty()
        size = round_size(size)
        with self._lock:
            arena = self._arena(self._stream_key())
            chunk = arena.pop_fit(size)
            if chunk is None:
                chunk = Chunk(self._allocate(size), 0, size, arena)
                self._total += size
            elif chunk.size > size:
                arena.push(chunk.split(size))
            chunk.in_use = True
            arena.used += 1
            self._used += size
        return self._pointer(self._pooled(self, chunk), 0)

    def _allocate(self, size):
        """The allocator's memory object for `size` new bytes, after freeing the cache if the limit or the
        allocator asks for it (Note [Arena pools])."""
        for attempt in range(2):
            if attempt:
                self.free_all_blocks()
                gc.collect()
            if self._limit and self._total + size > self._limit:
                continue
            try:
                return self._allocator(size).mem
            except OutOfMemoryError:
                if attempt:
                    raise
        raise OutOfMemoryError(size, self._total, self._limit)

    def _free(self, chunk):
        with self._lock:
            if not chunk.in_use:
                return
            chunk.in_use = False
            self._used -= chunk.size
            arena = chunk.arena
            arena.used -= 1
            nxt = chunk.next
            if nxt is not None and not nxt.in_use and nxt.arena is arena:
                arena.remove(nxt)
                chunk.merge_next()
            prev = chunk.prev
            if prev is not None and not prev.in_use and prev.arena is arena:
                arena.remove(prev)
                prev.merge_next()
                chunk = prev
            arena.push(chunk)

    def free_all_blocks(self, stream=None):
        """Gives back the cached allocations of `stream`'s arena (every arena for None) no part of which is in
        use."""
        with self._lock:
            if stream is None:
                arenas = list(self._arenas.values())
            else:
                arena = self._arenas.get(self._stream_key(stream))
                arenas = [] if arena is None else [arena]
            for arena in arenas:
                self._give_back(arena)
            self._drop_dead_arenas()

    def n_free_blocks(self):
        """The number of free chunks cached."""
        with self._lock:
            return sum(arena.n_free() for arena in self._arenas.values())

    def used_bytes(self):
        """Bytes handed out and not yet freed."""
        return self._used

    def free_bytes(self):
        """Bytes cached for reuse."""
        return self._total - self._used

    def total_bytes(self):
        """Bytes taken from the allocator and not given back."""
        return self._total

    def set_limit(self, size=None, fraction=None, total=None):
        """Caps the bytes taken from the allocator (0 or None: no cap); `fraction` is of `total()`."""
        self._limit = limit_bytes(size, fraction, total)

    def get_limit(self):
        """The cap in bytes (0: none)."""
        return self._limit


def limit_bytes(size, fraction, total):
    """The byte limit of set_limit(size=, fraction=), CuPy's rules: not both; a fraction from 0 to 1 of
    `total()`; None or 0 for no limit."""
    if fraction is not None:
        if size is not None:
            raise ValueError("size and fraction cannot be specified at the same time")
        if not 0 <= fraction <= 1:
            raise ValueError(f"memory limit fraction out of range: {fraction}")
        return int(total() * fraction)
    if size is None:
        return 0
    size = int(size) if isinstance(size, float) else operator.index(size)  # CuPy takes float sizes too
    if size < 0:
        raise ValueError(f"memory limit size out of range: {size}")
    return size
