"""cuda.set_allocator, get_allocator and using_allocator (CuPy's allocator hooks), malloc_managed, and CuPy's
memory objects (Memory, UnownedMemory, MemoryPointer) backing arrays."""

import gc
import threading
import weakref

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same

gpu = pytest.mark.gpu
memory = cp.cuda.memory


@pytest.fixture(autouse=True)
def default_allocator():
    yield
    cp.cuda.set_allocator(cp.get_default_memory_pool().malloc)


def is_pool(allocator):
    return allocator == cp.get_default_memory_pool().malloc


# ---- without a device: the switches and the argument checks ----------------------------------------------


def test_default_allocator_is_the_pool():
    assert is_pool(cp.cuda.get_allocator())
    assert memory._cuda.thread_user_allocator() == -1


@pytest.mark.parametrize("bad", [3, "pool", object()])
def test_allocators_must_be_callable(bad):
    with pytest.raises(TypeError, match="set_allocator takes a callable"):
        cp.cuda.set_allocator(bad)
    with pytest.raises(TypeError, match="using_allocator takes a callable"), cp.cuda.using_allocator(bad):
        pass
    assert is_pool(cp.cuda.get_allocator())


def test_set_allocator_and_back():
    def mine(n):
        raise AssertionError("not called without a device")

    cp.cuda.set_allocator(mine)
    assert cp.cuda.get_allocator() is mine
    assert memory._cuda.thread_user_allocator() == -1
    # As in CuPy, None is the raw allocator (cudaMalloc, no pool); the default pool's malloc restores the pool.
    cp.cuda.set_allocator(None)
    assert cp.cuda.get_allocator() is memory._malloc
    cp.cuda.set_allocator(cp.get_default_memory_pool().malloc)
    assert is_pool(cp.cuda.get_allocator())
    # A new MemoryPool is a pool of its own (CuPy's), not the default one; get_allocator gives back what was set.
    new_pool = cp.cuda.MemoryPool()
    cp.cuda.set_allocator(new_pool.malloc)
    assert cp.cuda.get_allocator() == new_pool.malloc and not is_pool(cp.cuda.get_allocator())
    # A pool over another allocator (CuPy's MemoryPool(malloc_managed)) is not the default.
    managed_pool = cp.cuda.MemoryPool(cp.cuda.malloc_managed)
    cp.cuda.set_allocator(managed_pool.malloc)
    assert cp.cuda.get_allocator() == managed_pool.malloc
    with pytest.raises(TypeError, match="MemoryPool takes a callable"):
        cp.cuda.MemoryPool(3)


def test_using_allocator_is_per_thread_and_nests():
    def outer(n):
        return None

    def inner(n):
        return None

    seen = {}
    with cp.cuda.using_allocator(outer):
        assert cp.cuda.get_allocator() is outer
        assert memory._cuda.thread_user_allocator() == 1
        with cp.cuda.using_allocator(None):
            assert cp.cuda.get_allocator() is memory._malloc
            assert memory._cuda.thread_user_allocator() == 1
        with cp.cuda.using_allocator(cp.get_default_memory_pool().malloc):
            assert memory._cuda.thread_user_allocator() == 0
        with cp.cuda.using_allocator(inner):
            assert cp.cuda.get_allocator() is inner
        assert cp.cuda.get_allocator() is outer
        t = threading.Thread(
            target=lambda: seen.update(other=(cp.cuda.get_allocator(), memory._cuda.thread_user_allocator()))
        )
        t.start()
        t.join()
        with pytest.raises(ValueError, match="inside `using_allocator` context manager"):
            cp.cuda.set_allocator(inner)
    assert is_pool(seen["other"][0]) and seen["other"][1] == -1
    assert is_pool(cp.cuda.get_allocator())
    assert memory._cuda.thread_user_allocator() == -1


def test_using_allocator_restores_after_an_exception():
    with pytest.raises(KeyError), cp.cuda.using_allocator(lambda n: None):
        raise KeyError
    assert is_pool(cp.cuda.get_allocator())
    assert memory._cuda.thread_user_allocator() == -1


def test_sizes_are_checked_before_the_device():
    # CuPy's OverflowError: its allocators take a size_t
    with pytest.raises(OverflowError, match="negative value to size_t"):
        cp.cuda.alloc(-1)
    with pytest.raises(OverflowError, match="negative value to size_t"):
        cp.cuda.malloc_managed(-8)
    with pytest.raises(TypeError):
        cp.cuda.Memory(2.5)
    with pytest.raises(OverflowError, match="negative value to size_t"):
        cp.cuda.UnownedMemory(0, -1, None, 0)


def test_memory_pointer_arithmetic_without_a_device():
    mem = cp.cuda.UnownedMemory(0x1000, 64, owner=None, device_id=0)
    p = cp.cuda.MemoryPointer(mem, 16)
    assert p.ptr == 0x1010 and p.mem is mem and p.device_id == 0
    assert (p + 8).ptr == 0x1018 and (8 + p).ptr == 0x1018 and (p - 16).ptr == 0x1000
    assert int(p) == 0x1010


# ---- on the device ----------------------------------------------------------------------------------------


class Recorder:
    """An allocator over the pool that records the sizes asked for and which of its objects are alive."""

    def __init__(self):
        self.sizes = []
        self.alive = weakref.WeakSet()

    def __call__(self, nbytes):
        self.sizes.append(nbytes)
        ptr = cp.get_default_memory_pool().malloc(nbytes)
        self.alive.add(ptr)
        return ptr


@gpu
def test_arrays_take_their_memory_from_the_allocator():
    rec = Recorder()
    cp.cuda.set_allocator(rec)
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = cp.asarray(a)
    y = (x * 2)[:, ::-2]
    z = cp.zeros((3, 5), np.int16)
    assert 96 in rec.sizes and 30 in rec.sizes
    assert len(rec.alive) >= 3
    assert_same(y, (a * 2)[:, ::-2])
    assert_same(z, np.zeros((3, 5), np.int16))
    assert_same(x.sum(axis=0), a.sum(axis=0))
    cp.cuda.set_allocator(cp.get_default_memory_pool().malloc)
    del x, y, z
    gc.collect()
    cp.cuda.Device().synchronize()
    assert len(rec.alive) == 0  # every object the allocator gave went once its array did


@gpu
def test_memory_stays_alive_while_a_view_uses_it():
    rec = Recorder()
    with cp.cuda.using_allocator(rec):
        x = cp.arange(1000, dtype=np.float64)
    view = x[10:20]
    del x
    gc.collect()
    assert len(rec.alive) == 1
    assert_same(view, np.arange(10, 20, dtype=np.float64))
    del view
    gc.collect()
    assert len(rec.alive) == 0


@gpu
def test_allocator_errors_propagate_and_leave_the_process_working():
    def failing(nbytes):
        raise MemoryError(f"no room for {nbytes}")

    cp.cuda.set_allocator(failing)
    with pytest.raises(MemoryError, match="no room for 800"):
        cp.ones(100)
    cp.cuda.set_allocator(lambda n: object())
    with pytest.raises(TypeError, match="integer `ptr`"):
        cp.ones(100)
    cp.cuda.set_allocator(lambda n: cp.cuda.MemoryPointer(cp.cuda.UnownedMemory(0, n, None, 0), 0))
    with pytest.raises(ValueError, match="null pointer"):
        cp.ones(100)
    cp.cuda.set_allocator(cp.get_default_memory_pool().malloc)
    assert_same(cp.ones(100) + 1, np.full(100, 2.0))


@gpu
def test_using_allocator_affects_only_its_thread():
    rec = Recorder()
    sizes_from_thread = []

    def work():
        before = len(rec.sizes)
        cp.ones(1234, np.uint8)
        sizes_from_thread.append(len(rec.sizes) - before)

    with cp.cuda.using_allocator(rec):
        t = threading.Thread(target=work)
        t.start()
        t.join()
        cp.ones(777, np.uint8)
    assert sizes_from_thread == [0]
    assert 777 in rec.sizes and 1234 not in rec.sizes


@gpu
@pytest.mark.parametrize("allocator", ["malloc_managed", "pool of malloc_managed"])
def test_managed_memory_allocator(allocator):
    if allocator == "malloc_managed":
        cp.cuda.set_allocator(cp.cuda.malloc_managed)
    else:
        cp.cuda.set_allocator(cp.cuda.MemoryPool(cp.cuda.malloc_managed).malloc)
    a = np.linspace(0, 1, 1000)
    x = cp.asarray(a)
    assert_same(cp.sqrt(x), np.sqrt(a))
    assert_same(cp.zeros(17), np.zeros(17))
    assert_same(x[::-3].copy(), a[::-3])
    p = cp.cuda.malloc_managed(64)
    assert isinstance(p.mem, cp.cuda.ManagedMemory) and p.mem.size == 64 and p.ptr != 0


@gpu
def test_ndarray_over_memory_pointers():
    p = cp.cuda.alloc(8 * 10)
    x = cp.ndarray((10,), np.float64, p)
    x[...] = cp.arange(10.0)
    assert_same(x, np.arange(10.0))
    y = cp.ndarray((4,), np.float64, p + 16)  # an offset into the memory
    assert_same(y, np.arange(2.0, 6.0))
    # Another library's memory, kept alive by its owner: here a cuarray array.
    owner = cp.arange(6, dtype=np.int32)
    mem = cp.cuda.UnownedMemory(owner.data.ptr, owner.nbytes, owner)
    assert mem.device_id == 0
    z = cp.ndarray((2, 3), np.int32, cp.cuda.MemoryPointer(mem, 0))
    del owner, mem
    gc.collect()
    assert_same(z, np.arange(6, dtype=np.int32).reshape(2, 3))
    with pytest.raises(ValueError):
        cp.ndarray((p.mem.size // 8 + 1,), np.float64, p)  # past the end of the memory


@pytest.mark.multi_gpu
def test_unowned_memory_finds_the_device_of_its_pointer():
    # No device_id: the device the runtime places the memory on, as CuPy's (not the current device).
    with cp.cuda.Device(1):
        owner = cp.arange(6, dtype=np.int32)
        managed = cp.cuda.malloc_managed(64)
    with cp.cuda.Device(0):
        assert cp.cuda.UnownedMemory(owner.data.ptr, owner.nbytes, owner).device_id == 1
        assert cp.cuda.UnownedMemory(managed.ptr, 64, managed).device_id == 1
        assert cp.cuda.UnownedMemory(owner.data.ptr, owner.nbytes, owner, device_id=0).device_id == 0


@gpu
def test_memory_pool_malloc_and_alloc():
    pool = cp.get_default_memory_pool()
    before = pool.used_bytes()
    p = pool.malloc(4096)
    # The default pool's memory is CuPy's PooledMemory, a BaseMemory beside Memory (not a subclass of it).
    assert isinstance(p, cp.cuda.MemoryPointer) and type(p.mem) is cp.cuda.memory.PooledMemory
    assert isinstance(p.mem, cp.cuda.memory.BaseMemory) and not isinstance(p.mem, cp.cuda.Memory)
    assert p.mem.size == 4096 and p.device_id == 0 and pool.used_bytes() >= before + 4096
    del p
    gc.collect()
    assert pool.used_bytes() == before
