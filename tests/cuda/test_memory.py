"""The device memory pool, out-of-memory handling, and pinned host memory."""

import gc
import json

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same, describe, mentions_number, run_python

pytestmark = pytest.mark.gpu

MiB = 1 << 20
OOM = cp.cuda.memory.OutOfMemoryError


@pytest.fixture
def pool():
    """The default pool, emptied of cached blocks, with its limit restored afterwards."""
    p = cp.get_default_memory_pool()
    gc.collect()
    cp.cuda.Device().synchronize()
    p.free_all_blocks()
    old = p.get_limit()
    yield p
    p.set_limit(size=old)
    p.free_all_blocks()


def still_works():
    a = np.arange(10, dtype=np.int32)
    assert_same(cp.asarray(a)[::-1].astype(np.float64), a[::-1].astype(np.float64))
    assert_same(cp.arange(5), np.arange(5))


def test_default_pool_is_one_object():
    assert cp.get_default_memory_pool() is cp.get_default_memory_pool()


def test_byte_counters(pool):
    used0 = pool.used_bytes()
    for v in (pool.used_bytes(), pool.total_bytes(), pool.free_bytes()):
        assert type(v) is int and v >= 0
    x = cp.empty(8 * MiB, dtype=np.uint8)
    assert pool.used_bytes() >= used0 + 8 * MiB
    assert pool.total_bytes() >= pool.used_bytes()
    assert pool.free_bytes() == pool.total_bytes() - pool.used_bytes()
    del x


def test_used_bytes_return_after_del(pool):
    used0 = pool.used_bytes()
    arrays = [cp.zeros((1000, 3), dtype=dt) for dt in (np.float64, np.int8, np.complex128)]
    view = arrays[0][::2]
    assert pool.used_bytes() > used0
    del arrays
    assert pool.used_bytes() > used0  # the view keeps its base's memory
    del view
    gc.collect()
    assert pool.used_bytes() == used0


def test_freed_blocks_are_cached_until_free_all_blocks(pool):
    n = 64 * MiB
    x = cp.empty(n, dtype=np.uint8)
    total_with_x = pool.total_bytes()
    del x
    assert pool.free_bytes() >= n  # cached, not returned to the device
    assert pool.total_bytes() == total_with_x
    cp.cuda.Device().synchronize()
    pool.free_all_blocks()
    assert pool.total_bytes() <= total_with_x - n
    still_works()


def test_cached_block_is_reused(pool):
    n = 32 * MiB
    x = cp.empty(n, dtype=np.uint8)
    del x
    total = pool.total_bytes()
    y = cp.empty(n, dtype=np.uint8)  # same size: served from the cache
    assert pool.total_bytes() == total
    del y


def test_large_blocks_are_kept_for_their_stream_and_size(pool):
    """Note [Large blocks]: the last four large blocks freed are kept on the host and handed out again for the
    same stream and size; the oldest goes back as a fifth comes; a stream's go with it; free_all_blocks returns
    them all."""
    base = pool.n_free_blocks()
    x = cp.empty(32 * MiB, dtype=np.uint8)
    ptr = x.data.ptr
    del x
    assert pool.n_free_blocks() == base + 1
    y = cp.empty(32 * MiB, dtype=np.uint8)
    assert y.data.ptr == ptr and pool.n_free_blocks() == base
    arrays = [cp.empty((8 + k) * MiB, dtype=np.uint8) for k in range(6)]
    kept = {a.nbytes: a.data.ptr for a in arrays[2:]}
    del y
    while arrays:
        del arrays[0]  # in the order they were made (a list drops its items last first)
    assert pool.n_free_blocks() == base + 4  # 10 to 13 MiB
    s = cp.cuda.Stream()
    with s:
        z = cp.empty(13 * MiB, dtype=np.uint8)  # another stream: not the kept block of 13 MiB
        assert z.data.ptr != kept[13 * MiB] and pool.n_free_blocks() == base + 4
        z.fill(7)
        assert_same(z[-3:], np.full(3, 7, dtype=np.uint8))
    del z  # kept for s, in place of the block of 10 MiB
    assert pool.n_free_blocks() == base + 4
    w = cp.empty(10 * MiB, dtype=np.uint8)
    assert pool.n_free_blocks() == base + 4  # allocated anew
    w2 = cp.empty(11 * MiB, dtype=np.uint8)
    assert w2.data.ptr == kept[11 * MiB] and pool.n_free_blocks() == base + 3
    del s
    gc.collect()
    assert pool.n_free_blocks() == base + 2  # s's block went with it
    del w, w2
    cp.cuda.Device().synchronize()
    pool.free_all_blocks()
    assert pool.n_free_blocks() == 0
    still_works()


def test_set_and_get_limit(pool):
    pool.set_limit(size=123 * MiB)
    assert pool.get_limit() == 123 * MiB
    pool.set_limit(size=0)
    assert pool.get_limit() == 0  # 0 means no limit, as in CuPy


def test_oom_under_limit_then_recovers(pool):
    keep = cp.ones(MiB, dtype=np.uint8)
    used = pool.used_bytes()
    pool.set_limit(size=pool.total_bytes() + 16 * MiB)
    n = 64 * MiB
    with pytest.raises(OOM) as ei:
        cp.empty(n, dtype=np.uint8)
    assert isinstance(ei.value, MemoryError)
    msg = str(ei.value)
    assert mentions_number(msg, n), f"message does not give the requested {n} bytes: {msg}"
    assert mentions_number(msg, used) or mentions_number(msg, pool.total_bytes()), (
        f"message does not give the bytes in use ({used}): {msg}"
    )
    # Nothing leaked, and the process goes on working under the limit.
    assert pool.used_bytes() == used
    small = cp.arange(1000, dtype=np.float32)
    assert_same(small[::7].astype(np.float64), np.arange(1000, dtype=np.float32)[::7].astype(np.float64))
    assert_same(keep[:3], np.ones(3, dtype=np.uint8))
    del small
    pool.set_limit(size=0)
    big = cp.empty(n, dtype=np.uint8)  # fits once the limit is lifted
    assert big.nbytes == n


def test_allocation_releases_cached_blocks_before_failing(pool):
    base = pool.total_bytes()
    pool.set_limit(size=base + 96 * MiB)
    x = cp.empty(64 * MiB, dtype=np.uint8)
    del x  # 64 MiB cached
    y = cp.empty(80 * MiB, dtype=np.uint8)  # needs the cached block given back first
    assert y.nbytes == 80 * MiB
    assert pool.used_bytes() >= 80 * MiB
    y.fill(3)
    assert_same(y[-2:], np.full(2, 3, dtype=np.uint8))


def test_oom_beyond_device_memory_then_recovers(pool):
    pool.set_limit(size=0)
    used = pool.used_bytes()
    with pytest.raises(OOM) as ei:
        cp.empty(10**15)  # 8e15 bytes of float64
    assert isinstance(ei.value, MemoryError)
    assert mentions_number(str(ei.value), 8 * 10**15), str(ei.value)
    assert pool.used_bytes() == used
    still_works()


@pytest.mark.parametrize(
    "make",
    [lambda: cp.zeros((10**8, 10**7), dtype=np.int8), lambda: cp.ones(10**15, dtype=np.complex128)],
    ids=["zeros_2d", "ones_complex"],
)
def test_other_creations_raise_oom(pool, make):
    pool.set_limit(size=0)
    with pytest.raises(MemoryError):
        make()
    still_works()


# ---- CUARRAY_GPU_MEMORY_LIMIT (read at start-up, so in a fresh process) ------------------------

LIMIT_PROBE = """
import json, numpy as np, cuarray as cp
pool = cp.get_default_memory_pool()
out = {"limit": pool.get_limit(), "total": cp.cuda.Device().mem_info[1]}
try:
    big = cp.empty(64 << 20, dtype=np.uint8)
    out["big"] = "ok"
    del big
except cp.cuda.memory.OutOfMemoryError:
    out["big"] = "oom"
out["small"] = cp.asnumpy(cp.arange(10)).tolist()
print(json.dumps(out))
"""


def probe(limit):
    proc = run_python(code=LIMIT_PROBE, env={"CUARRAY_GPU_MEMORY_LIMIT": limit}, timeout=120)
    assert proc.returncode == 0, describe(proc)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_env_limit_in_bytes():
    out = probe(str(32 * MiB))
    assert out["limit"] == 32 * MiB
    assert out["big"] == "oom"
    assert out["small"] == list(range(10))


def test_env_limit_as_percentage():
    out = probe("50%")
    assert abs(out["limit"] - out["total"] // 2) <= MiB, out
    assert out["big"] == "ok"
    assert out["small"] == list(range(10))


def test_env_limit_unset_means_no_limit():
    out = probe(None)
    assert out["limit"] == 0 or out["limit"] >= out["total"], out  # 0: no limit, as in CuPy
    assert out["big"] == "ok"
    assert out["small"] == list(range(10))


# ---- several devices ----------------------------------------------------------------------------


@pytest.mark.multi_gpu
def test_pool_accounts_per_device(pool):
    with cp.cuda.Device(0):
        used0 = pool.used_bytes()
    with cp.cuda.Device(1):
        used1 = pool.used_bytes()
        x = cp.empty(16 * MiB, dtype=np.uint8)
        assert pool.used_bytes() >= used1 + 16 * MiB
    with cp.cuda.Device(0):
        assert pool.used_bytes() == used0
    del x
    with cp.cuda.Device(1):
        assert pool.used_bytes() == used1


# ---- pinned host memory -------------------------------------------------------------------------


def test_pinned_memory_round_trip():
    n = 1 << 16
    mem = cp.cuda.alloc_pinned_memory(n * 4)
    host = np.frombuffer(mem, np.float32, n)
    assert host.shape == (n,)
    host[:] = np.arange(n, dtype=np.float32)
    x = cp.asarray(host)
    assert_same(x, np.arange(n, dtype=np.float32))
    # Device -> pinned buffer, through `out=`.
    y = cp.arange(n, dtype=np.float32)[::-1]
    res = cp.asnumpy(y, out=host)
    assert res is host
    np.testing.assert_array_equal(host, np.arange(n, dtype=np.float32)[::-1])
    z = cp.full(n, 2.5, dtype=np.float32)
    assert z.get(out=host) is host
    np.testing.assert_array_equal(host, np.full(n, 2.5, dtype=np.float32))


def test_pinned_memory_other_dtypes():
    n = 1000
    mem = cp.cuda.alloc_pinned_memory(n * 16)
    host = np.frombuffer(mem, np.complex128, n)
    a = (np.arange(n) + 1j * np.arange(n)[::-1]).astype(np.complex128)
    host[:] = a
    assert_same(cp.asarray(host), a)


def test_default_pinned_memory_pool():
    p = cp.cuda.get_default_pinned_memory_pool()
    assert p is not None
    assert cp.cuda.get_default_pinned_memory_pool() is p
    if hasattr(cp, "get_default_pinned_memory_pool"):  # CuPy's top-level name
        assert cp.get_default_pinned_memory_pool() is p


def test_small_copies_stage_through_small_pinned_slots():
    # Pinning an 8 MiB slot takes milliseconds: the first readbacks of a process (item(), a small get()) each
    # paid that, one slot per copy, when small copies shared the large slots.
    pool = cp.cuda.get_default_pinned_memory_pool()
    pool.free_all_blocks()
    base = pool.used_bytes()
    x = np.arange(1000, dtype=np.float64)
    d = cp.asarray(x)
    for k in range(6):  # more copies than there are slots, both ways
        np.testing.assert_array_equal(cp.asnumpy(d + k), x + k)
        d = cp.asarray(x + k + 1) - k - 1
    staged = pool.used_bytes() - base
    assert 0 < staged <= 4 * (64 << 10), staged
    big = np.arange(2 << 20, dtype=np.float32)  # 8 MiB: the large slots
    np.testing.assert_array_equal(cp.asnumpy(cp.asarray(big)), big)
    assert pool.used_bytes() - base >= staged + (8 << 20)
    pool.free_all_blocks()
    assert pool.used_bytes() == base


def test_pinned_free_all_blocks_returns_the_staging_buffers():
    # Pageable copies stage through pinned slots kept between copies; free_all_blocks gives those back too
    # (so that a leak checker sees no pinned memory of ours at exit), and the next copy allocates them again.
    pool = cp.cuda.get_default_pinned_memory_pool()
    x = np.arange(3 << 20, dtype=np.float32)  # 12 MiB: two slots each way
    d = cp.asarray(x)
    pool.free_all_blocks()
    base = pool.used_bytes()  # pinned buffers other code still holds
    np.testing.assert_array_equal(cp.asnumpy(d), x)
    assert pool.used_bytes() > base
    pool.free_all_blocks()
    assert pool.used_bytes() == base and pool.free_bytes() == 0
    np.testing.assert_array_equal(cp.asnumpy(d * 2), x * 2)
    np.testing.assert_array_equal(cp.asnumpy(cp.asarray(x + 1)), x + 1)


@pytest.mark.parametrize("clean", [True, False])
def test_default_pool_from_eight_threads_with_collections_and_frees(clean):
    """CuPy's threaded stress test of the pool: eight threads allocate blocks of random sizes, some held in
    reference cycles, while the threads run the garbage collector and free_all_blocks now and then."""
    code = f"""
import concurrent.futures, gc, random, cuarray as cp
from cuarray.cuda.memory import alloc
def allocations():
    held = [alloc(random.randint(1, 50_000)) for _ in range(random.randint(1, 50))]
    first = [None, alloc(random.randint(1, 50_000))]
    node = first
    for _ in range(2, 50):
        node = [node, alloc(random.randint(1, 50_000))]
    first[0] = node  # a cycle: only the collector frees it
    return held
def work():
    for i in range(150):
        allocations()
        if {clean}:
            if i % 10 == 0:
                gc.collect()
            elif i % 10 == 5:
                cp.get_default_memory_pool().free_all_blocks()
        allocations()
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    for f in [pool.submit(work) for _ in range(8)]:
        f.result()
gc.collect()
cp.get_default_memory_pool().free_all_blocks()
print("used", cp.get_default_memory_pool().used_bytes())
"""
    proc = run_python(code=code, timeout=240)
    assert proc.returncode == 0, describe(proc)
    assert "used 0" in proc.stdout, describe(proc)
