"""CuPy's memory API beyond the arrays' own pool: pools over an allocator (SingleDeviceMemoryPool, MemoryPool,
PinnedMemoryPool), MemoryPointer's copies and memset, malloc_async and MemoryAsyncPool, managed memory's
prefetch and advise, cuda.runtime's raw calls and device attributes, and Device comparisons."""

import ctypes
import gc
import pickle
import threading
import weakref

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same

gpu = pytest.mark.gpu
memory = cp.cuda.memory
pinned_memory = cp.cuda.pinned_memory
UNIT = memory._allocation_unit_size


@pytest.fixture(autouse=True)
def default_allocator():
    yield
    cp.cuda.set_allocator(cp.get_default_memory_pool().malloc)


# ---- without a device -------------------------------------------------------------------------------------


class FakePinned(pinned_memory.PinnedMemory):
    """Pinned memory at made-up addresses (CuPy's tests subclass PinnedMemory so)."""

    next_ptr = 1 << 20

    def __init__(self, size):
        self.ptr = FakePinned.next_ptr
        FakePinned.next_ptr += size + UNIT
        self.size = size


def fake_alloc(size):
    return pinned_memory.PinnedMemoryPointer(FakePinned(size), 0)


def test_pinned_memory_is_a_class_to_subclass():
    p = fake_alloc(64)
    assert isinstance(p, pinned_memory.PinnedMemoryPointer) and isinstance(p.mem, pinned_memory.PinnedMemory)
    q = p + 16
    assert isinstance(q, pinned_memory.PinnedMemoryPointer) and int(q) == p.ptr + 16 and (16 + p).ptr == q.ptr
    assert (q - 16).ptr == p.ptr and q.size() == 48
    with pytest.raises(ValueError, match="past the end"):
        pinned_memory.PinnedMemoryPointer(p.mem, 65)


def test_pinned_pool_over_an_allocator_caches_splits_and_merges():
    pool = pinned_memory.PinnedMemoryPool(fake_alloc)
    assert (pool.n_free_blocks(), pool.used_bytes(), pool.total_bytes()) == (0, 0, 0)
    p = pool.malloc(4 * UNIT)
    ptr = p.ptr
    assert isinstance(p.mem, pinned_memory.PooledPinnedMemory) and p.mem.size == 4 * UNIT
    assert (pool.used_bytes(), pool.free_bytes(), pool.total_bytes()) == (4 * UNIT, 0, 4 * UNIT)
    del p
    assert (pool.n_free_blocks(), pool.used_bytes(), pool.free_bytes()) == (1, 0, 4 * UNIT)
    head, tail = pool.malloc(2 * UNIT - 5), pool.malloc(2 * UNIT)  # rounded up: one split allocation
    assert (head.ptr, tail.ptr) == (ptr, ptr + 2 * UNIT) and pool.total_bytes() == 4 * UNIT
    tail_ptr = tail.ptr
    del tail
    pool.free_all_blocks()  # a split allocation stays while part of it is in use
    assert pool.malloc(2 * UNIT).ptr == tail_ptr
    del head
    gc.collect()
    assert pool.n_free_blocks() == 1 and pool.malloc(4 * UNIT).ptr == ptr  # merged back into one
    assert pool.malloc(8 * UNIT).ptr != ptr  # too large for the cache: new memory
    pool.free_all_blocks()
    assert (pool.n_free_blocks(), pool.total_bytes()) == (0, 0)


def test_pinned_pool_free_is_idempotent_and_zero_sizes_are_not_pooled():
    pool = pinned_memory.PinnedMemoryPool(fake_alloc)
    mem = pool.malloc(1).mem
    mem.free()
    mem.free()
    assert pool.n_free_blocks() == 1 and pool.used_bytes() == 0
    del mem
    assert pool.n_free_blocks() == 1


def test_arena_pool_limit():
    pool = pinned_memory.PinnedMemoryPool(fake_alloc)
    pool.set_limit(size=6 * UNIT)
    assert pool.get_limit() == 6 * UNIT
    p1, p2 = pool.malloc(5 * UNIT), pool.malloc(UNIT)
    with pytest.raises(memory.OutOfMemoryError):
        pool.malloc(UNIT)
    del p1, p2
    p3 = pool.malloc(6 * UNIT)  # the cached 6 units are given back to make room
    assert pool.total_bytes() == 6 * UNIT
    del p3
    with pytest.raises(ValueError):
        pool.set_limit(size=-1)
    with pytest.raises(ValueError):
        pool.set_limit(size=1, fraction=0.5)


def test_allocators_must_be_callable():
    with pytest.raises(TypeError, match="callable"):
        pinned_memory.PinnedMemoryPool(3)
    with pytest.raises(TypeError, match="callable"):
        memory.SingleDeviceMemoryPool(3)


def test_round_size():
    assert memory._round_size(UNIT - 1) == UNIT == memory._round_size(UNIT)
    assert memory._round_size(UNIT + 1) == 2 * UNIT


def test_out_of_memory_error_takes_cupys_arguments_and_pickles():
    e = memory.OutOfMemoryError(124, 1024, 1024)
    again = pickle.loads(pickle.dumps(e))
    assert e.args == again.args and str(e) == str(again) and "124" in str(e) and "1,024" in str(e)
    assert "limit" not in str(memory.OutOfMemoryError(124, 1024))


def test_runtime_constants_without_a_device():
    rt = cp.cuda.runtime
    assert rt.cudaDevAttrMaxThreadsPerBlock == 1 and rt.cudaDevAttrWarpSize == 10
    assert rt.cudaDevAttrMemoryPoolsSupported == 115 and rt.cudaDevAttrCooperativeLaunch == 95
    assert "cudaDevAttrComputeCapabilityMajor" in rt.__all__


def test_memory_async_pool_handles():
    with pytest.raises(ValueError, match="pool_handles"):
        memory.MemoryAsyncPool(pool_handles=12345)


def test_devices_compare_by_number():
    d0, d1 = cp.cuda.Device(0), cp.cuda.Device(1)  # naming a device does not check that it exists (CuPy's)
    assert d0 < d1 and d0 <= cp.cuda.Device(0) and d1 > d0 and d1 >= cp.cuda.Device(1) and not d1 < d0
    assert d0 != d1 and d0 == cp.cuda.Device(0) and d0 != 0 and d0 != None
    for other in (0, None, object()):
        with pytest.raises(TypeError):
            d0 < other  # noqa: B015
        with pytest.raises(TypeError):
            other >= d0  # noqa: B015


def test_external_stream_is_deprecated_for_from_external():
    with pytest.warns(DeprecationWarning, match="ExternalStream is deprecated. Use Stream.from_external"):
        legacy = cp.cuda.ExternalStream(1)
    assert legacy._core is None and not legacy._ptds


class _HostKeyedPool(memory.SingleDeviceMemoryPool):
    """A pool whose arena key needs no device (the current stream's would), over made-up addresses."""

    @staticmethod
    def _stream_key(stream=None):
        return 0


class _FakeDeviceMemory:
    """Another allocator's memory object, of no class CuPy names."""

    def __init__(self, ptr, size):
        self.ptr, self.size, self.device_id = ptr, size, 0


_next_address = [1 << 32]


def _address(size):
    _next_address[0] += size + UNIT
    return _next_address[0]


def fake_device_alloc(size):
    return memory.MemoryPointer(memory.UnownedMemory(_address(size), size, None, 0), 0)


def test_the_default_pool_is_a_memory_pool():
    pool = cp.get_default_memory_pool()
    assert type(pool) is cp.cuda.MemoryPool is memory.MemoryPool and type(pool).__name__ == "MemoryPool"
    assert isinstance(pool, cp.cuda.memory.MemoryPool) and not hasattr(memory, "_DefaultMemoryPool")
    assert issubclass(memory.PooledMemory, memory.BaseMemory)
    assert not issubclass(memory.PooledMemory, memory.Memory)  # CuPy's is a BaseMemory only


def test_the_default_pinned_pool_is_a_pinned_memory_pool():
    # CuPy's get_default_pinned_memory_pool() is a PinnedMemoryPool; cuarray's was a private subclass.
    pool = cp.cuda.get_default_pinned_memory_pool()
    assert type(pool) is cp.cuda.PinnedMemoryPool is pinned_memory.PinnedMemoryPool
    assert type(pool).__name__ == "PinnedMemoryPool" and type(pinned_memory.PinnedMemoryPool()) is type(pool)
    assert pool is cp.get_default_pinned_memory_pool()
    assert not hasattr(pinned_memory, "_DefaultPinnedMemoryPool")
    assert pool.get_limit() == 0 and pool.total_bytes() == pool.used_bytes() + pool.free_bytes()
    with pytest.raises(NotImplementedError, match="no limit"):
        pool.set_limit(size=1 << 20)


def test_pooled_memory_has_cupys_free_identity_and_pool():
    pool = _HostKeyedPool(fake_device_alloc)
    p = pool.malloc(3 * UNIT)
    mem = p.mem
    assert type(mem) is memory.PooledMemory and (mem.ptr, mem.size, mem.device_id) == (p.ptr, 3 * UNIT, 0)
    assert mem.identity == "UnownedMemory" and isinstance(mem.pool, weakref.ref) and mem.pool() is pool
    assert pool.used_bytes() == 3 * UNIT
    mem.free()
    assert mem.ptr == 0 and (pool.used_bytes(), pool.n_free_blocks()) == (0, 1)
    mem.free()  # CuPy's: later calls do nothing
    assert (pool.used_bytes(), pool.n_free_blocks()) == (0, 1)
    with pytest.raises(ValueError, match="freed"):  # no array is made on freed memory
        p._owner  # noqa: B018
    q = pool.malloc(3 * UNIT)
    assert q.ptr == p.ptr  # the chunk free() gave back serves again
    del p, mem
    gc.collect()
    assert pool.used_bytes() == 3 * UNIT  # the finalizer of the freed memory did not give q's chunk back
    del q
    assert (pool.used_bytes(), pool.n_free_blocks()) == (0, 1)


def test_pooled_memory_identity_names_the_allocators_memory_class():
    functions = cp.cuda.PythonFunctionAllocator(lambda size, device: _address(size), lambda ptr, device: None)
    pool = _HostKeyedPool(functions.malloc)
    assert pool.malloc(UNIT).mem.identity == "PythonFunctionAllocatorMemory"
    pool = _HostKeyedPool(lambda size: memory.MemoryPointer(_FakeDeviceMemory(_address(size), size), 0))
    assert pool.malloc(UNIT).mem.identity == "<unknown>"
    for cls, name in ((memory.Memory, "Memory"), (memory.ManagedMemory, "ManagedMemory")):
        assert memory._identity(cls.__new__(cls)) == name
    assert memory._identity(memory.MemoryAsync.__new__(memory.MemoryAsync)) == "MemoryAsync"


class _FakeBlock:
    """A block of the core's allocations as the bindings present it (DeviceMemory), at a made-up address."""

    def __init__(self, size, pooled=True):
        self.ptr, self.size, self.device_id, self.pooled = _address(size), size, 0, pooled


def test_the_default_pools_memory_is_pooled_memory_whose_free_gives_up_its_hold():
    block = _FakeBlock(1024)
    held, ptr = weakref.ref(block), block.ptr
    mem = memory._memory_of(block)
    del block
    assert type(mem) is memory.PooledMemory and (mem.ptr, mem.size, mem.device_id) == (ptr, 1024, 0)
    assert mem.identity == "Memory" and mem.pool() is cp.get_default_memory_pool()._pool(0)
    assert held() is not None
    mem.free()
    assert mem.ptr == 0 and held() is None  # the pool's block is this object's no longer
    mem.free()
    del mem
    assert type(memory._memory_of(_FakeBlock(0))) is memory.Memory  # 0 bytes: CuPy's Memory(0)
    assert type(memory._memory_of(_FakeBlock(64, pooled=False))) is memory.Memory  # not the pool's


# ---- on the device ----------------------------------------------------------------------------------------


@gpu
def test_device_get_attribute_matches_device_attributes():
    attrs = cp.cuda.Device().attributes
    assert attrs
    for name, value in attrs.items():
        assert cp.cuda.runtime.deviceGetAttribute(getattr(cp.cuda.runtime, "cudaDevAttr" + name), 0) == value
    with pytest.raises(cp.cuda.CUDARuntimeError, match="cudaDeviceGetAttribute"):
        cp.cuda.runtime.deviceGetAttribute(100000, 0)
    with pytest.raises(cp.cuda.CUDARuntimeError):
        cp.cuda.runtime.deviceGetAttribute(1, cp.cuda.runtime.getDeviceCount())


@gpu
def test_device_can_access_peer():
    n = cp.cuda.runtime.getDeviceCount()
    for d in range(n):
        for p in range(n):
            v = cp.cuda.runtime.deviceCanAccessPeer(d, p)
            assert v in (0, 1) and (d != p or v == 0)  # CUDA answers 0 for a device and itself
    with pytest.raises(cp.cuda.CUDARuntimeError, match="invalid device ordinal"):
        cp.cuda.runtime.deviceCanAccessPeer(0, n)


def host_bytes(values):
    a = np.ascontiguousarray(values)
    return a, ctypes.c_void_p(a.ctypes.data)


@gpu
@pytest.mark.parametrize("address", ["c_void_p", "int"])
@pytest.mark.parametrize("stream", [None, "new"])
def test_memory_pointer_copies(address, stream):
    src, src_p = host_bytes(np.arange(40, dtype=np.int32) * 7 - 3)
    out = np.zeros_like(src)
    out_p = ctypes.c_void_p(out.ctypes.data)
    if address == "int":
        src_p, out_p = src_p.value, out_p.value
    a, b = cp.cuda.alloc(src.nbytes), cp.cuda.alloc(src.nbytes)
    if stream is None:
        a.copy_from(src_p, src.nbytes)
        b.copy_from(a, src.nbytes)  # device to device
        (b + 8).copy_to_host(out_p, src.nbytes - 8)
        np.testing.assert_array_equal(out[:-2], src[2:])
    else:
        s = cp.cuda.Stream()
        a.copy_from_async(src_p, src.nbytes, stream=s)
        b.copy_from_async(a, src.nbytes, stream=s)
        b.copy_to_host_async(out_p, src.nbytes, stream=s)
        s.synchronize()
        np.testing.assert_array_equal(out, src)
    # Through arrays: x.data is a MemoryPointer with the same methods, and its `mem` is the whole allocation.
    x = cp.zeros(40, np.int32)
    x.data.copy_from_device(b, src.nbytes)
    assert_same(x, src)
    assert x.data.mem.size >= src.nbytes and x.data.mem.ptr <= x.data.ptr
    x.data.copy_from_host(host_bytes(np.full(3, 9, np.int32))[1], 12)
    assert_same(x[:4], np.array([9, 9, 9, src[3]], np.int32))


@gpu
def test_memory_pointer_memset():
    p = cp.cuda.alloc(64)
    p.memset(0, 64)
    (p + 3).memset(0xAB, 5)
    s = cp.cuda.Stream()
    (p + 20).memset_async(7, 4, stream=s)
    s.synchronize()
    x = cp.ndarray((64,), np.uint8, p)
    expected = np.zeros(64, np.uint8)
    expected[3:8] = 0xAB
    expected[20:24] = 7
    assert_same(x, expected)


@gpu
def test_copy_errors():
    p = cp.cuda.alloc(16)
    with pytest.raises(TypeError, match="MemoryPointer"):
        p.copy_from_device(12345, 4)
    with pytest.raises(TypeError, match="host memory"):
        p.copy_from_host("abc", 4)
    with pytest.raises(OverflowError, match="negative value to size_t"):  # CuPy's: a size_t
        p.copy_from_host(0, -1)


@gpu
def test_single_device_pool_arenas_follow_streams():
    pool = memory.SingleDeviceMemoryPool()
    p1 = pool.malloc(4 * UNIT)
    ptr1 = p1.ptr
    assert isinstance(p1.mem, memory.PooledMemory) and pool.used_bytes() == 4 * UNIT
    del p1
    s = cp.cuda.Stream()
    with s:
        p2 = pool.malloc(4 * UNIT)  # another stream's arena: not the block freed on the null stream
    assert p2.ptr != ptr1 and pool.free_bytes() == 4 * UNIT and pool.total_bytes() == 8 * UNIT
    p3 = pool.malloc(4 * UNIT)
    assert p3.ptr == ptr1
    # The memory works: an array over all of it (4 * UNIT bytes).
    x = cp.ndarray((UNIT // 2,), np.float64, p3)
    x[...] = cp.arange(UNIT // 2, dtype=np.float64)
    assert_same(x, np.arange(UNIT // 2, dtype=np.float64))
    del x, p2, p3
    gc.collect()
    pool.free_all_blocks(stream=s)
    assert pool.total_bytes() == 4 * UNIT
    pool.free_all_blocks()
    assert (pool.total_bytes(), pool.n_free_blocks()) == (0, 0)
    assert isinstance(pool.malloc(0).mem, memory.Memory) and not isinstance(
        pool.malloc(0).mem, memory.PooledMemory
    )


@gpu
def test_single_device_pool_gives_a_dropped_streams_memory_to_no_later_stream():
    # Note [Arena keys]: CUDA may give a new stream the handle of a destroyed one whose work still runs, so the
    # dropped stream's cached memory must go back to the allocator, never to the next stream's arena.
    pool = memory.SingleDeviceMemoryPool()
    s1 = cp.cuda.Stream()
    serial = s1._handle().serial
    with s1:
        p = pool.malloc(4 * UNIT)
    del p
    assert (pool.free_bytes(), pool.n_free_blocks()) == (4 * UNIT, 1)
    del s1
    gc.collect()
    assert not cp._core.cuda.Stream.alive(serial)  # nothing else held the stream
    s2 = cp.cuda.Stream()
    with s2:
        p2 = pool.malloc(4 * UNIT)
    assert list(pool._arenas) == [("serial", s2._handle().serial)]
    assert (pool.total_bytes(), pool.free_bytes(), pool.n_free_blocks()) == (4 * UNIT, 0, 0)
    ptr = p2.ptr
    del p2
    with s2:  # a live stream's freed memory is reused by it, as before
        assert pool.malloc(4 * UNIT).ptr == ptr
    # A dropped stream whose memory is still in use: its arena stays until that memory is freed and given back.
    s3 = cp.cuda.Stream()
    with s3:
        p3 = pool.malloc(2 * UNIT)
    del s3
    gc.collect()
    with cp.cuda.Stream():
        pool.malloc(UNIT)
    assert pool.used_bytes() == 2 * UNIT and len(pool._arenas) == 3
    del p3
    pool.free_all_blocks()
    assert (pool.total_bytes(), list(pool._arenas)) == (0, [("serial", s2._handle().serial)])


@gpu
def test_single_device_pool_shares_one_arena_among_wrappers_of_another_librarys_stream():
    # Note [Arena keys]: every wrapper of one foreign stream reuses the memory freed on it, as in CuPy.
    handle = cp.cuda.runtime.streamCreate()
    try:
        pool = memory.SingleDeviceMemoryPool()
        ptrs = []
        for _ in range(3):
            with cp.cuda.Stream.from_external(_ForeignStream(handle)):
                p = pool.malloc(4 * UNIT)
                ptrs.append(p.ptr)
                del p
        assert ptrs[0] == ptrs[1] == ptrs[2] and pool.total_bytes() == 4 * UNIT
        assert list(pool._arenas) == [handle]
        pool.free_all_blocks()
    finally:
        cp.cuda.Device().synchronize()
        cp.cuda.runtime.streamDestroy(handle)


class _ForeignStream:
    """A stream of another library, as CUDA's stream protocol presents it."""

    def __init__(self, handle):
        self.handle = handle

    def __cuda_stream__(self):
        return (0, self.handle)


@gpu
@pytest.mark.parametrize("allocator", ["_malloc", "malloc_managed"])
def test_memory_pool_over_an_allocator_serves_arrays(allocator):
    pool = memory.MemoryPool(getattr(memory, allocator))
    default_used = cp.get_default_memory_pool().used_bytes()
    assert (pool.used_bytes(), pool.free_bytes(), pool.total_bytes(), pool.n_free_blocks()) == (0, 0, 0, 0)
    cp.cuda.set_allocator(pool.malloc)
    assert cp.cuda.get_allocator() == pool.malloc
    a = np.linspace(-1, 1, 1000)
    x = cp.asarray(a)
    assert x.data.mem.size == a.nbytes and pool.used_bytes() == memory._round_size(a.nbytes)
    assert cp.get_default_memory_pool().used_bytes() == default_used
    assert_same(cp.sin(x), np.sin(a))
    del x
    gc.collect()
    cp.cuda.Device().synchronize()
    assert (
        pool.used_bytes() == 0 and pool.free_bytes() == pool.total_bytes() > 0 and pool.n_free_blocks() >= 1
    )
    pool.free_all_blocks()
    assert pool.total_bytes() == 0


@gpu
def test_set_allocator_none_is_cudamalloc_outside_the_pool():
    pool = cp.get_default_memory_pool()
    cp.cuda.set_allocator(None)
    assert cp.cuda.get_allocator() is memory._malloc
    used = pool.used_bytes()
    x = cp.arange(128, dtype=np.int64)
    assert pool.used_bytes() == used and x.data.mem.size == 1024
    assert_same(x * 2, np.arange(128, dtype=np.int64) * 2)


@gpu
def test_default_pool_counts_cached_blocks():
    pool = cp.get_default_memory_pool()
    pool.free_all_blocks()
    assert pool.n_free_blocks() == 0
    x = cp.empty(1000)
    del x
    assert pool.n_free_blocks() >= 1
    pool.free_all_blocks()
    assert pool.n_free_blocks() == 0


def skip_without_memory_pools():
    if not cp.cuda.runtime.deviceGetAttribute(cp.cuda.runtime.cudaDevAttrMemoryPoolsSupported, 0):
        pytest.skip("the device has no stream-ordered memory pools")


@gpu
def test_malloc_async_serves_arrays_on_their_stream():
    skip_without_memory_pools()
    default_used = cp.get_default_memory_pool().used_bytes()
    cp.cuda.set_allocator(memory.malloc_async)
    s = cp.cuda.Stream()
    with s:
        p = memory.alloc(100)
        assert isinstance(p.mem, memory.MemoryAsync) and p.mem.stream_ref() is s
        x = cp.arange(1000, dtype=np.float32)
        assert_same(x + 1, np.arange(1000, dtype=np.float32) + 1)
    assert cp.get_default_memory_pool().used_bytes() == default_used
    del s
    gc.collect()
    del p, x  # freed on their stream, kept alive by the memory
    cp.cuda.Device().synchronize()


@gpu
def test_memory_async_pool_counts_and_limit():
    skip_without_memory_pools()
    pool = memory.MemoryAsyncPool()
    pool.free_all_blocks()
    used = pool.used_bytes()
    p1 = pool.malloc(2 * UNIT)
    assert pool.used_bytes() == used + 2 * UNIT and isinstance(p1.mem, memory.MemoryAsync)
    assert pool.free_bytes() == pool.total_bytes() - pool.used_bytes()
    p2 = pool.malloc(100)  # rounded up
    assert pool.used_bytes() == used + 3 * UNIT
    del p1, p2
    cp.cuda.get_current_stream().synchronize()
    assert pool.used_bytes() == used
    assert pool.get_limit() == 2**64 - 1
    pool.set_limit(size=1024)
    assert pool.get_limit() == 1024
    pool.set_limit(fraction=0.5)
    assert pool.get_limit() == cp.cuda.runtime.memGetInfo()[1] // 2
    pool.set_limit(size=0)
    assert pool.get_limit() == 2**64 - 1
    with pytest.raises(NotImplementedError):
        pool.n_free_blocks()


@gpu
def test_managed_memory_prefetch_and_advise():
    p = memory.malloc_managed(1 << 16)
    p.mem.prefetch(cp.cuda.get_current_stream())
    p.mem.prefetch(cp.cuda.Stream(), device_id=0)
    p.mem.advise(cp.cuda.runtime.cudaMemAdviseSetReadMostly, cp.cuda.Device(0))
    with pytest.raises(cp.cuda.CUDARuntimeError):
        p.mem.prefetch(cp.cuda.Stream(), device_id=10**8)
    with pytest.raises(cp.cuda.CUDARuntimeError):
        p.mem.advise(-1, cp.cuda.Device(0))
    x = cp.ndarray((1 << 13,), np.float64, p)
    x[...] = 2.5
    assert_same(x.sum(), np.float64(2.5 * (1 << 13)))


@gpu
def test_runtime_raw_calls():
    rt = cp.cuda.runtime
    ptr = rt.malloc(256)
    src, src_p = host_bytes(np.arange(64, dtype=np.float32))
    rt.memcpy(ptr, src_p.value, 256, rt.memcpyHostToDevice)
    stream = rt.streamCreate()
    try:
        out = np.zeros(64, np.float32)
        rt.memsetAsync(ptr, 0, 16, stream)
        rt.memcpyAsync(out.ctypes.data, ptr, 256, rt.memcpyDeviceToHost, stream)
        with pytest.warns(DeprecationWarning, match="ExternalStream is deprecated"):
            ext = cp.cuda.ExternalStream(stream)
        ext.synchronize()
        del ext  # before the stream goes
        assert rt.streamQuery(stream) == 0
        expected = src.copy()
        expected[:4] = 0
        np.testing.assert_array_equal(out, expected)
        assert cp.cuda.device.from_pointer(ptr).id == 0
    finally:
        rt.streamDestroy(stream)
        rt.free(ptr)


@gpu
def test_device_of_out_of_range_number_raises_on_use():
    n = cp.cuda.runtime.getDeviceCount()
    d = cp.cuda.Device(n)
    with pytest.raises(cp.cuda.CUDARuntimeError, match="invalid device ordinal"):
        d.use()
    with pytest.raises(cp.cuda.CUDARuntimeError, match="invalid device ordinal"), d:
        pass
    assert cp.cuda.Device().id == 0
    assert_same(cp.arange(3), np.arange(3))


@gpu
def test_null_streams_compare_equal():
    assert cp.cuda.Stream.null == cp.cuda.Stream(null=True)
    assert cp.cuda.Stream(ptds=True) == cp.cuda.Stream.ptds
    assert cp.cuda.Stream.null != cp.cuda.Stream.ptds and cp.cuda.Stream() != cp.cuda.Stream()


@gpu
@pytest.mark.parametrize("name", ["cublas", "cusolver"])
def test_library_handles_are_per_thread(name):
    get = getattr(cp.cuda.device, f"get_{name}_handle")
    handles = [get(), None, None]

    def other_thread():
        cp.cuda.Device().use()
        handles[1], handles[2] = get(), get()

    t = threading.Thread(target=other_thread)
    t.start()
    t.join()
    assert handles[0] and handles[0] != handles[1] and handles[1] == handles[2]
    assert getattr(cp.cuda.Device(), f"{name}_handle") == handles[0]


@gpu
def test_the_default_pools_memory_is_cupys_pooled_memory():
    pool = cp.get_default_memory_pool()
    p = cp.cuda.alloc(16)
    assert type(p.mem) is memory.PooledMemory and p.mem.identity == "Memory" and p.mem.size >= 16
    assert p.mem.pool().used_bytes() == pool.used_bytes() and p.mem.pool().get_limit() == pool.get_limit()
    assert type(pool.malloc(100).mem) is memory.PooledMemory
    x = cp.arange(10.0)
    assert type(x.data.mem) is memory.PooledMemory and x.data.mem.ptr <= x.data.ptr
    assert type(cp.cuda.alloc(0).mem) is memory.Memory and type(pool.malloc(0).mem) is memory.Memory
    cp.cuda.set_allocator(None)  # cudaMalloc without a pool: CuPy's Memory (the fixture restores the pool)
    assert type(cp.cuda.alloc(16).mem) is memory.Memory and type(cp.arange(4.0).data.mem) is memory.Memory
    managed = memory.SingleDeviceMemoryPool(memory.malloc_managed).malloc(UNIT).mem
    assert type(managed) is memory.PooledMemory and managed.identity == "ManagedMemory"
    assert memory.SingleDeviceMemoryPool().malloc(UNIT).mem.identity == "Memory"


@gpu
def test_the_default_pinned_pool_serves_pinned_memory():
    pool = cp.cuda.get_default_pinned_memory_pool()
    pool.free_all_blocks()
    before = pool.used_bytes()  # pinned buffers other code still holds
    p = pool.malloc(1000)
    assert isinstance(p, pinned_memory.PinnedMemoryPointer) and isinstance(p.mem, pinned_memory.PinnedMemory)
    assert p.mem.size >= 1000 and pool.used_bytes() >= before + 1000
    del p
    gc.collect()
    assert pool.used_bytes() == before and pool.free_bytes() > 0 and pool.n_free_blocks() == 1
    pool.free_all_blocks()
    assert (pool.used_bytes(), pool.free_bytes(), pool.n_free_blocks()) == (before, 0, 0)
    p = pool.malloc(1000)
    host = np.frombuffer(p, np.uint8, 1000)
    host[:] = 7
    assert_same(cp.asarray(host), np.full(1000, 7, np.uint8))


@gpu
def test_free_gives_the_default_pools_memory_back_at_once():
    pool = cp.get_default_memory_pool()
    gc.collect()
    before = pool.used_bytes()
    p = pool.malloc(1 << 20)
    assert pool.used_bytes() >= before + (1 << 20)
    p.mem.free()
    assert p.mem.ptr == 0 and pool.used_bytes() == before
    p.mem.free()
    with pytest.raises(ValueError, match="freed"):
        cp.ndarray((4,), np.float32, memptr=p)
    del p
    gc.collect()
    assert pool.used_bytes() == before


@gpu
@pytest.mark.parametrize(
    "make_pool", [cp.get_default_memory_pool, memory.SingleDeviceMemoryPool], ids=["default", "own"]
)
def test_free_leaves_memory_an_array_uses_with_the_array(make_pool):
    # Note [Freeing pooled memory]: CuPy would hand the bytes to the next allocation while x still uses them.
    pool = make_pool()
    gc.collect()
    before = pool.used_bytes()
    p = pool.malloc(8 * UNIT)
    a = np.arange(UNIT, dtype=np.float64)
    x = cp.ndarray((UNIT,), np.float64, memptr=p)
    x[...] = cp.asarray(a)
    p.mem.free()
    assert p.mem.ptr == 0 and pool.used_bytes() == before + 8 * UNIT  # still x's
    others = [pool.malloc(8 * UNIT) for _ in range(4)]
    assert p.ptr not in [q.ptr for q in others]
    for q in others:
        q.memset(0xFF, 8 * UNIT)
    assert_same(x, a)
    del others, q, x, p  # q: the loop's last pointer
    gc.collect()
    assert pool.used_bytes() == before


@gpu
def test_free_of_an_arrays_memory_object_leaves_the_array_its_memory():
    a = np.arange(1000.0)
    x = cp.asarray(a)
    m = x.data.mem
    m.free()
    m.free()
    assert m.ptr == 0
    y = cp.full_like(x, -1.0)  # would take x's bytes had they gone back
    assert_same(x, a)
    assert_same(y, np.full_like(a, -1.0))
