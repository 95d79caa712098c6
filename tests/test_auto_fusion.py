"""Automatic fusion of eager elementwise code (Note [Automatic fusion] in cpp/cuarray/ops/auto_fusion.h):
chains of ufunc calls run as one kernel give every result bit for bit as eager execution does, with eager
semantics for held values, in-place updates, views, streams, events, threads, graph capture and errors."""

import inspect
import logging
import textwrap
import threading
import time

import cuarray as cp
import numpy as np
import pytest
from conftest import describe, run_python
from cuarray import _core

pytestmark = pytest.mark.gpu


@pytest.fixture(autouse=True)
def _every_size(request):
    """Small arrays are fused where the program asks (by default only arrays of 2**20 elements are).

    A test that an earlier one in this process shared memory with other code (DLPack, __cuda_array_interface__)
    would see nothing recorded (Note [Launch queue]): it runs in a fresh process instead, and fails if it fails
    there."""
    if not _core._auto_fusion_stats()["may_record"]:
        root = str(request.config.rootpath)
        r = run_python(
            "-m", "pytest", "-q", "-p", "no:cacheprovider", request.node.nodeid, cwd=root, timeout=600
        )
        if r.returncode != 0:
            pytest.fail(describe(r))
        pytest.skip("passed in a fresh process: memory was shared with other code earlier in this one")
    with cp.auto_fuse():
        yield


def chain_of_ten(x, y):
    z = x * 2.0 + y
    z = z * z - x
    z = z / (y + 1.0)
    z = z + 0.5 * x
    return z * y - 3.0


def stats():
    return _core._auto_fusion_stats()


def wait_for_compiles(timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        s = stats()
        if s["compiles_finished"] == s["compiles_started"]:
            return
        time.sleep(0.01)
    raise AssertionError("background compiles did not finish")


def fused(f, *args):
    """f(*args) once its chains run as one kernel (a chain runs op by op until it recurs and its kernel is
    compiled; a first call that compiles the ops' own kernels flushes its chain in pieces). Returns the result
    and how many chains of that call ran as one kernel."""
    for _ in range(8):  # the kernel asked for at a flush is loaded or compiled from the next op on
        before = stats()["fused_chains"]
        r = f(*args)
        cp.cuda.Device().synchronize()
        if stats()["fused_chains"] > before:
            break
        del r
        wait_for_compiles()
    before = stats()["fused_chains"]
    r = f(*args)
    cp.cuda.Device().synchronize()
    return r, stats()["fused_chains"] - before


def eager(f, *args):
    with cp.auto_fuse(False):
        r = f(*args)
        cp.cuda.Device().synchronize()
    return r


def same_bits(a, b):
    a, b = cp.asnumpy(a), cp.asnumpy(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes(), (
        f"differ at {np.flatnonzero(a.view(np.uint8) != b.view(np.uint8))[:10]}"
    )


def data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(dtype)
    if dtype.kind in "iu":
        return rng.integers(1, 50, shape).astype(dtype)
    v = rng.standard_normal(shape) * 3
    if dtype.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("n", [1000, 1 << 20])
def test_chain_of_ten_is_one_kernel_bit_for_bit(dtype, n):
    x, y = (cp.asarray(data(n, dtype, s)) for s in (1, 2))
    y = abs(y) + 1  # no division by zero
    got, kernels = fused(chain_of_ten, x, y)
    assert kernels == 1, f"{stats()}"
    same_bits(got, eager(chain_of_ten, x, y))
    want = chain_of_ten(cp.asnumpy(x), cp.asnumpy(y))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(cp.asnumpy(got), want, rtol=1e-2 if dtype == "float16" else 1e-5, atol=1e-2)


def mixed(a, b, s):
    c = a * s - b  # a Python scalar, in the loop type
    d = (c > 0) & (b < 3)  # bool values
    e = c + d  # bool promoted back
    return e * e, d


@pytest.mark.parametrize(
    "da,db",
    [
        ("float32", "float32"),
        ("int32", "float64"),
        ("int64", "int64"),
        ("int8", "uint8"),
        ("float16", "int16"),
    ],
)
def test_mixed_dtypes_and_held_values(da, db):
    a, b = cp.asarray(data((7, 33), da, 3)), cp.asarray(data((7, 33), db, 4))
    (g1, g2), kernels = fused(mixed, a, b, 3)
    assert kernels == 1
    e1, e2 = eager(mixed, a, b, 3)
    same_bits(g1, e1)
    same_bits(g2, e2)
    n1, n2 = mixed(cp.asnumpy(a), cp.asnumpy(b), 3)
    assert g1.dtype == n1.dtype and g2.dtype == n2.dtype


def test_chains_taking_turns_each_run_their_own_kernel():
    """Chains that take turns in a loop each run as their own kernel, bit for bit as eagerly (a flush remembers the
    last chain's kernel, and must not hand it to the next); the last two differ only in a Python scalar's value,
    which their one kernel takes as an argument."""
    x, y = cp.asarray(data(1000, "float32", 7)), cp.asarray(data(1000, "float32", 8))
    y = abs(y) + 1
    programs = [
        chain_of_ten,
        lambda a, b: (a - b) * (a - b) + 1.0,
        lambda a, b: (a * 2.0 + b) * a - b,
        lambda a, b: (a * 3.0 + b) * a - b,
    ]
    want = [eager(f, x, y) for f in programs]
    for f in programs:
        assert fused(f, x, y)[1] == 1, f"{stats()}"
    compiles = stats()["compiles_started"]
    before = stats()["fused_chains"]
    for _ in range(5):
        for f, w in zip(programs, want):
            same_bits(f(x, y), w)
    assert stats()["fused_chains"] - before == 5 * len(programs), f"{stats()}"
    assert stats()["compiles_started"] == compiles
    assert not (cp.asnumpy(want[2]) == cp.asnumpy(want[3])).all()


def test_held_intermediates_are_written():
    x, y = cp.asarray(data(500, "float32", 5)), cp.asarray(data(500, "float32", 6))

    def f(x, y):
        t = x * 2.0
        u = t + y
        w = u * u - t
        return t, u, w

    got, kernels = fused(f, x, y)
    assert kernels == 1
    for g, e in zip(got, eager(f, x, y)):
        same_bits(g, e)


def test_dropped_intermediates_are_not_written_and_memory_is_eager():
    n = 1 << 22
    x, y = cp.ones(n, cp.float32), cp.full(n, 2.0, cp.float32)
    fused(chain_of_ten, x, y)
    pool = cp.get_default_memory_pool()
    cp.cuda.Device().synchronize()
    eager_z = eager(chain_of_ten, x, y)
    del eager_z
    base = pool.used_bytes()
    before = stats()
    z = chain_of_ten(x, y)  # pending, and held; the chain keeps its dropped intermediates' memory
    # The result alone: counting runs the chain, which gives the intermediates' memory back (Note [Automatic
    # fusion]), so the count is eager code's.
    assert pool.used_bytes() == base + 4 * n
    after = stats()
    assert after["fused_chains"] - before["fused_chains"] == 1
    assert after["written"] - before["written"] == 1
    same_bits(z, eager(chain_of_ten, x, y))


def test_in_place_updates_and_views_keep_program_order():
    def f(x, y):
        z = x * 2.0
        x += 1  # out=: runs after z was computed from the old x
        w = z + x
        v = w[::2]  # another view of a pending value: the chain is flushed first
        u = v * 3.0
        w[1] = -7.0  # a write into a value the chain computed
        r = w - y
        return z, w, u, r

    for dt in ("float32", "int64"):
        xs, ys = data(64, dt, 7), data(64, dt, 8)
        y = cp.asarray(ys)
        for _ in range(2):
            f(cp.asarray(xs), y)
            _core._flush_recorded()
            wait_for_compiles()
        x, xe, xn = cp.asarray(xs), cp.asarray(xs), xs.copy()
        got = f(x, y)
        want = eager(f, xe, y)
        ref = f(xn, ys)
        for g, e, n in zip(got, want, ref):
            same_bits(g, e)
            np.testing.assert_array_equal(cp.asnumpy(g), n)
        same_bits(x, xe)
        np.testing.assert_array_equal(cp.asnumpy(x), xn)


@pytest.mark.parametrize(
    "shapes",
    [((3, 1), (1, 4)), ((), ()), ((1,), (5,)), ((4, 5), (5,)), ((2, 3, 4), (2, 1, 4))],
    ids=str,
)
def test_broadcasting_and_zero_d(shapes):
    a, b = cp.asarray(data(shapes[0], "float64", 9)), cp.asarray(data(shapes[1], "float64", 10))
    got, _ = fused(
        chain_of_ten, a, abs(b) + 1
    )  # a step of another shape than the chain's starts a chain of its own
    same_bits(got, eager(chain_of_ten, a, abs(b) + 1))
    np.testing.assert_allclose(
        cp.asnumpy(got), chain_of_ten(cp.asnumpy(a), abs(cp.asnumpy(b)) + 1), rtol=1e-12
    )


def test_strided_negative_and_fortran_inputs():
    base = cp.asarray(data((40, 30), "float32", 11))
    for x, y in [
        (base[::-1, ::2], base[:, ::-2]),
        (base.T, base.T.copy()),
        (cp.asfortranarray(base), base),
    ]:
        got, kernels = fused(chain_of_ten, x, abs(y) + 1)
        assert kernels == 1
        same_bits(got, eager(chain_of_ten, x, abs(y) + 1))


def test_zero_size_and_errors_are_raised_by_their_statement():
    x = cp.ones(10, cp.float32)
    e = cp.ones(0, cp.float32)
    assert (e * 2 + e).shape == (0,)
    z = x * 2.0
    with pytest.raises(ValueError):
        z + cp.ones(3, cp.float32)  # the broadcast error, at once
    with pytest.raises(TypeError):
        z + "a"  # no loop
    w = z + 1.0  # the chain goes on
    np.testing.assert_array_equal(cp.asnumpy(w), np.full(10, 3.0, np.float32))


def test_streams_events_and_threads():
    x, y = cp.asarray(data(4096, "float32", 12)), cp.asarray(abs(data(4096, "float32", 13)) + 1)
    want = cp.asnumpy(eager(chain_of_ten, x, y))
    s1, s2 = cp.cuda.Stream(non_blocking=True), cp.cuda.Stream(non_blocking=True)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    with s1:
        start.record()
        r1 = chain_of_ten(x, y)
        end.record()
    with s2:
        r2 = chain_of_ten(x, y)
    end.synchronize()
    assert cp.cuda.get_elapsed_time(start, end) >= 0
    np.testing.assert_array_equal(cp.asnumpy(r1), want)
    s2.synchronize()
    np.testing.assert_array_equal(cp.asnumpy(r2), want)

    results, errors = {}, []

    def work(k):
        try:
            with cp.cuda.Stream(non_blocking=True) as s:
                for _ in range(20):
                    r = chain_of_ten(x, y)
                s.synchronize()
                results[k] = cp.asnumpy(r)
        except Exception as e:  # noqa: BLE001 - any failure of a thread is reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for r in results.values():
        np.testing.assert_array_equal(r, want)


def test_graph_capture_records_what_runs():
    x, y = cp.asarray(data(1000, "float32", 14)), cp.asarray(abs(data(1000, "float32", 15)) + 1)
    fused(chain_of_ten, x, y)
    want = cp.asnumpy(eager(chain_of_ten, x, y))
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        pending = x * 3.0  # recorded before the capture: issued before it begins, not captured
        s.begin_capture()
        r = chain_of_ten(x, y)
        g = s.end_capture()
        g.launch()
        s.synchronize()
    np.testing.assert_array_equal(cp.asnumpy(r), want)
    np.testing.assert_array_equal(cp.asnumpy(pending), cp.asnumpy(x) * np.float32(3))


def test_switch_and_log(caplog):
    x, y = cp.ones(100, cp.float32), cp.ones(100, cp.float32)
    with cp.auto_fuse(False):
        assert _core._auto_fuse_min_size() is None
        before = stats()["recorded"]
        chain_of_ten(x, y)
        assert stats()["recorded"] == before
    assert _core._auto_fuse_min_size() == 1

    def g(x, y):  # a chain of its own, so that its first fused run is logged here
        return (x - y) * (x + y) - 7.0  # subtract, add, multiply, subtract

    with caplog.at_level(logging.DEBUG, logger="cuarray.fusion"):
        fused(g, x, y)  # flushed by a wait that let go of Python's lock: reported at the next call
        x + 1
    messages = [r.getMessage() for r in caplog.records]
    assert any("fused 4 ufunc calls (subtract, add, multiply, subtract)" in m for m in messages), messages


def run(code, env=None):
    return run_python(code=textwrap.dedent(code), env=env)


def test_environment_switch_turns_it_off():
    r = run(
        """
        import cuarray as cp
        from cuarray import _core
        x = cp.ones(10)
        y = x * 2 + x
        assert _core._auto_fuse_min_size() is None
        assert _core._auto_fusion_stats()["recorded"] == 0
        print(float(y.sum()))
        """,
        {"CUARRAY_AUTO_FUSE": "0"},
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "30.0"


SMALL_BY_DEFAULT = (
    """
import time
import cuarray as cp
import numpy as np
from cuarray import _core

stats = _core._auto_fusion_stats
"""
    + inspect.getsource(chain_of_ten)
    + """
x = cp.arange(1000, dtype=cp.float32) / 7
y = x + 1
with cp.auto_fuse(False):
    want = chain_of_ten(x, y).get().view(np.uint32)
"""
)


def test_long_chains_of_small_arrays_are_fused_by_default():
    """Note [Recording small arrays]: a loop of ten-op chains on 1000 elements runs fused without being asked, bit
    for bit as eagerly, and recording is not paused while it does."""
    r = run(
        SMALL_BY_DEFAULT
        + """
def step():
    return chain_of_ten(x, y).get().view(np.uint32)


deadline = time.time() + 120
while stats()["fused_chains"] < 50 and time.time() < deadline:  # until its kernel is compiled
    step()
before = stats()
for _ in range(200):
    assert (step() == want).all()
after = stats()
assert after["fused_chains"] - before["fused_chains"] == 200, (before, after)
assert after["small_pauses"] == before["small_pauses"], (before, after)
print("ok")
""",
        {"CUARRAY_AUTO_FUSE": ""},
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_lone_small_ops_go_back_to_eager_runs_by_default():
    """Note [Recording small arrays]: a loop of lone ops on small arrays records a few, then runs the next 2048
    small ops eagerly, then tries recording again; values are the same throughout."""
    r = run(
        SMALL_BY_DEFAULT
        + """
want = (x + y).get()
for _ in range(20):  # each flush (as an older z is dropped) runs a chain of two: a loss
    z = x + y
s = stats()
assert s["small_pauses"] >= 1 and s["recorded"] >= 8, s
recorded = s["recorded"]
for _ in range(1000):
    z = x + y
assert stats()["recorded"] == recorded, stats()  # paused
for _ in range(2000):
    z = x + y
assert stats()["recorded"] > recorded, stats()  # tried again
assert (z.get() == want).all()
print("ok")
""",
        {"CUARRAY_AUTO_FUSE": ""},
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_a_pause_ends_when_the_program_goes_on_to_long_chains():
    """Note [Recording small arrays]: after lone ops paused recording, a loop of three-op chains ends the pause
    within a few dozen ops and runs fused; a loop of two-op chains does not end it; a loop that reads like long
    chains but records none ends pauses ever more rarely."""
    r = run(
        SMALL_BY_DEFAULT
        + """
def squared_diff(a, b):
    return (a - b) * (a - b)


want = ((x.get() - y.get()) ** 2).view(np.uint32)
deadline = time.time() + 120
with cp.auto_fuse():  # its kernel first, so that the pause alone stands between the loop and fused runs
    while stats()["fused_chains"] == 0 and time.time() < deadline:
        squared_diff(x, y).get()
for _ in range(20):
    z = x + y
before = stats()
assert before["small_pauses"] >= 1, before
for _ in range(100):
    assert (squared_diff(x, y).get().view(np.uint32) == want).all()
after = stats()
assert after["fused_chains"] - before["fused_chains"] >= 50, (before, after)
for _ in range(20):
    z = x + y
paused = stats()
assert paused["small_pauses"] > after["small_pauses"], paused
for _ in range(300):
    z = x * 2.0 + y
assert stats()["recorded"] == paused["recorded"], stats()


def broken(a, b):  # reads like a chain of four; exp is not recorded, so each chain recorded has one step
    t = cp.exp(a - b)
    return cp.exp(t * t)


with cp.auto_fuse(False):
    want = broken(x, y).get().view(np.uint32)
for _ in range(3000):
    z = broken(x, y)
late = stats()
# Early ends back off: a few hundred of its 12000 ops recorded, not a quarter of them.
assert late["recorded"] - paused["recorded"] < 600, (paused, late)
assert (z.get().view(np.uint32) == want).all()
print("ok")
""",
        {"CUARRAY_AUTO_FUSE": ""},
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_short_benchmark_loops_run_fused_once_the_kernel_is_ready(tmp_path):
    """Note [Recording small arrays]: while a chain's kernel compiles (here from an empty kernel cache, behind the
    compiles of 24 other chains, so for many waits of small ops), its op-by-op runs, and the chains cut short
    where a wait ends, do not pause recording; the lessons' ten-call benchmark of `squared_diff` then runs fused,
    with the values of eager code."""
    r = run(
        SMALL_BY_DEFAULT
        + """
from cuarray.profiler import benchmark


def squared_diff(x, y):
    return (x - y) * (x - y)


# Large arrays, which are always recorded and never judged: the first run of each chain compiles its ops' kernels
# (and is flushed in pieces), the third queues its own kernel.
chains = (lambda a: (a + a) * a - a, lambda a: (a - a) * a + a, lambda a: (a * a + a) - a)
for dtype in ("float32", "float64", "int32", "int64", "int16", "uint16", "int8", "uint8"):
    a = cp.ones(1 << 20, dtype)
    for chain in chains:
        for _ in range(3):
            r = chain(a)
            del r
assert stats()["compiles_started"] >= 24, stats()
x = cp.arange(10000)
y = cp.arange(10000)[::-1]
with cp.auto_fuse(False):
    want = squared_diff(x, y).get()
deadline = time.time() + 120
while stats()["fused_chains"] == 0 and time.time() < deadline:
    benchmark(squared_diff, (x, y), n_repeat=10)
before = stats()
assert before["fused_chains"] > 0 and before["small_pauses"] == 0, before
benchmark(squared_diff, (x, y), n_repeat=10)
after = stats()
assert after["fused_chains"] - before["fused_chains"] == 20, (before, after)  # 10 warm-up calls, 10 timed
assert after["small_pauses"] == 0, after
assert (squared_diff(x, y).get() == want).all()
print("ok")
""",
        {"CUARRAY_AUTO_FUSE": "", "CUARRAY_CACHE_DIR": str(tmp_path)},
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_a_kernel_in_the_disk_cache_runs_the_lessons_benchmark_fused(tmp_path):
    """Note [Background compiles]: a later process finds the chain's kernel in the disk cache and loads it at the
    op after the chain's second run, without a background compile, so every call of the lesson's benchmark after
    the first two warm-up calls runs fused (before, the calls passed while the compiling thread waited for Python's
    lock to read the kernel)."""
    code = (
        SMALL_BY_DEFAULT
        + """
from cuarray.profiler import benchmark


def squared_diff(x, y):
    return (x - y) * (x - y)


x = cp.arange(10000)
y = cp.arange(10000)[::-1]
with cp.auto_fuse(False):
    want = squared_diff(x, y).get()
FIRST
before = stats()
benchmark(squared_diff, (x, y), n_repeat=10)
after = stats()
assert (squared_diff(x, y).get() == want).all()
print(after["fused_chains"] - before["fused_chains"], after["compiles_started"] - before["compiles_started"])
"""
    )
    env = {
        "CUARRAY_AUTO_FUSE": "",
        "CUARRAY_CACHE_DIR": str(tmp_path),
        "CUARRAY_CACHE_IN_MEMORY": None,
        "CUPY_CACHE_IN_MEMORY": None,
    }
    # The first process compiles the chain's kernel into the empty cache (and its ops' kernels).
    warm = "deadline = time.time() + 120\nwhile stats()['fused_chains'] == 0 and time.time() < deadline:\n"
    warm += (
        "    squared_diff(x, y)\n    cp.cuda.Device().synchronize()\nassert stats()['fused_chains'], stats()"
    )
    r = run(code.replace("FIRST", warm), env)
    assert r.returncode == 0, r.stderr
    r = run(code.replace("FIRST", ""), env)
    assert r.returncode == 0, r.stderr
    # 10 warm-up calls and 10 timed: the first two run op by op (a chain seen once, then the run that asks for its
    # kernel), the other 18 fused.
    assert r.stdout.split() == ["18", "0"], r.stdout
    # Damaged files are passed over: the chain's kernel is compiled again, in the background, with eager values.
    for f in tmp_path.rglob("*.bin"):
        f.write_bytes(f.read_bytes()[: f.stat().st_size // 2])
    r = run(code.replace("FIRST", ""), env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[1] == "1", r.stdout


def test_the_kernel_log_runs_outside_a_flush(tmp_path):
    """Note [Handlers held in a flush]: a kernel compiled inside a flush (an op run op by op in a layout its loop
    was not prepared with) is logged at the next recorded op, not under the chain's lock. A log handler that waits
    for another thread's cuarray call (which needs that lock) finishes instead of waiting forever."""
    r = run(
        """
import faulthandler, logging, threading
import cuarray as cp
import numpy as np
from cuarray import _core

x = cp.arange(1000, dtype=cp.float32)
y = x + 1
seen = {}

class Handler(logging.Handler):
    def handle(self, record):  # without the handler's lock, which a record of the other thread would wait for
        m = record.getMessage()
        key = "kernel" if "compiled kernel" in m else None
        if key is None or key in seen or threading.current_thread() is not threading.main_thread():
            return
        t = threading.Thread(target=lambda: (y * 3).get(), daemon=True)
        t.start()
        t.join(timeout=20)
        seen[key] = not t.is_alive()
        if t.is_alive():
            faulthandler.dump_traceback()

logging.getLogger("cuarray").setLevel(logging.DEBUG)
with cp.auto_fuse():
    (x * 2.0 + y).get()  # the loops of multiply and add, prepared for contiguous operands
    (y * 3).get()
    logging.getLogger("cuarray").addHandler(Handler())
    xs = cp.arange(2000, dtype=cp.float32)[::2]
    before = _core._auto_fusion_stats()["recorded"]
    got = (xs * 2.0 + y).get()  # multiply's strided kernel is compiled inside the flush
    print("recorded", _core._auto_fusion_stats()["recorded"] - before, "seen", sorted(seen))
    got2 = (xs * 2.0 + y).get()
    print("seen", sorted(seen))  # at got2's first op
assert (got == np.arange(1000, dtype=np.float32) * 5 + 1).all() and (got2 == got).all()
print(seen)
""",
        {"CUARRAY_CACHE_DIR": str(tmp_path), "CUARRAY_CACHE_IN_MEMORY": None, "CUPY_CACHE_IN_MEMORY": None},
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "recorded 2 seen []",
        "seen ['kernel']",
        "{'kernel': True}",
    ], r.stdout


def test_no_compile_thread_starts_once_exit_has_begun(tmp_path):
    """A kernel the last flush before exit asked for is not compiled on a thread started during teardown (by an op
    in a later exit handler or a finaliser): that thread would report its compile to Python's log as Python goes
    away. Its chain runs op by op, with eager values."""
    r = run(
        SMALL_BY_DEFAULT
        + """
with cp.auto_fuse(False):
    chain_of_ten(x, y).get()  # the ops' own kernels, compiled eagerly
with cp.auto_fuse():
    for _ in range(2):  # the chain's second flush asks for its kernel; the next op would start its compile
        chain_of_ten(x, y).get()
before = stats()["compiles_started"]
_core.cuda._finish_threads()  # what the exit handler runs
with cp.auto_fuse():
    assert (chain_of_ten(x, y).get().view(np.uint32) == want).all()
time.sleep(0.2)
print(before, stats()["compiles_started"])
""",
        {"CUARRAY_CACHE_DIR": str(tmp_path), "CUARRAY_CACHE_IN_MEMORY": None, "CUPY_CACHE_IN_MEMORY": None},
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0", "0"], r.stdout


def test_large_setting_records_large_arrays_alone():
    r = run(
        SMALL_BY_DEFAULT
        + """
for _ in range(50):
    r = chain_of_ten(x, y)
assert stats()["recorded"] == 0, stats()
assert (r.get().view(np.uint32) == want).all()
big = cp.ones(1 << 20, cp.float32)
r = big * 2.0 + big
assert stats()["recorded"] == 2 and float(r[5]) == 3.0, stats()
print("ok")
""",
        {"CUARRAY_AUTO_FUSE": "large"},
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_out_of_memory_in_the_middle_of_a_chain():
    r = run(
        """
        import cuarray as cp, numpy as np
        n = 1 << 24
        x = cp.ones(n, cp.float32)
        z = x * 2.0
        hog = []
        try:
            while True:
                hog.append(cp.empty(n, cp.float32))
        except cp.cuda.memory.OutOfMemoryError:
            pass
        try:
            w = z + x  # no memory for its output: raised here, by its own statement
            raise SystemExit("no error")
        except cp.cuda.memory.OutOfMemoryError:
            pass
        del hog
        w = z + x
        assert float(w[5]) == 3.0 and float(z[7]) == 2.0
        print("ok")
        """,
        {"CUARRAY_GPU_MEMORY_LIMIT": "2000000000"},
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


# A chain seen once runs op by op, its dropped intermediate `t` written into the memory `t` had: issuing the chain
# allocates nothing, and an allocation that needs t's memory runs the chain first. Run with fusion off too (the
# control: eager code), under a pool limit of 256 MiB.
DROPPED_UNDER_A_LIMIT = """
import cuarray as cp, numpy as np
from cuarray import _core

pool = cp.get_default_memory_pool()
limit = pool.get_limit()
n = 1 << 22  # 16 MiB of float32: a large block (Note [Large blocks])
nbytes = 4 * n
x = cp.ones(n, dtype=cp.float32)
base = pool.used_bytes()


def pending():
    global t, u
    t = x * 2.0
    u = t + 1.0
    del t  # with fusion: dead, and its memory stays with the pending chain
    for k in range(6):  # other large blocks dropped: t's would not be in the pool's host-side cache
        cp.empty((5 << 20) + k * 4096, dtype=cp.uint8)


# The pool full even with t's memory held: the chain must run in the memory it has.
pending()
full = cp.empty(limit - base - 2 * nbytes, dtype=cp.uint8)
assert np.all(u.get() == 3.0), np.unique(u.get())
del full, u
# All the memory eager code leaves (u exists, t is gone): the allocation runs the chain, which gives t's back.
pending()
hog = cp.empty(limit - base - nbytes, dtype=cp.uint8)
assert np.all(u.get() == 3.0), np.unique(u.get())
del hog
assert np.all(u.get() == 3.0)
assert pool.used_bytes() == base + nbytes  # x and u
recorded = _core._auto_fusion_stats()["recorded"]
assert (recorded >= 4) == (_core._auto_fuse_min_size() is not None), recorded
print("ok")
"""


@pytest.mark.parametrize("fuse", ["0", "1"])
def test_a_dropped_intermediate_needs_no_memory_when_its_chain_runs(fuse):
    r = run(DROPPED_UNDER_A_LIMIT, {"CUARRAY_AUTO_FUSE": fuse, "CUARRAY_GPU_MEMORY_LIMIT": str(256 << 20)})
    assert r.returncode == 0 and r.stdout.strip() == "ok", describe(r)


# A user allocator that raises once the program allocates nothing more: dropping an intermediate and issuing its
# chain never call it (fusion keeps t's memory instead of asking for a temporary), and t's memory object is dropped
# in Python outside the flush: its finaliser may itself use cuarray.
ALLOCATOR_NOT_CALLED_BY_A_FLUSH = """
import cuarray as cp, numpy as np
from cuarray import _core

pool = cp.get_default_memory_pool()
armed = [False]
asked = []
finalised = []


class Refused(Exception):
    pass


class Memory:
    def __init__(self, nbytes):
        self.mem = pool.malloc(nbytes)
        self.ptr = self.mem.ptr

    def __del__(self):
        with cp.cuda.using_allocator(pool.malloc):
            finalised.append(float((cp.arange(4, dtype=cp.float32) * 2.0 + 1.0).sum()))


def alloc(nbytes):
    if armed[0]:
        asked.append(nbytes)
        raise Refused(f"allocator refused {nbytes} bytes")
    return Memory(nbytes)


cp.cuda.set_allocator(alloc)
n = 1 << 20
x = cp.ones(n, dtype=cp.float32)
base = pool.used_bytes()
t = x * 2.0
u = t + 1.0
armed[0] = True
del t
assert np.all(u.get() == 3.0), np.unique(u.get())
armed[0] = False
assert not asked, asked
assert pool.used_bytes() == base + 4 * n  # t's memory object was dropped
assert finalised == [16.0], finalised
assert np.all(u.get() == 3.0)
cp.cuda.set_allocator(pool.malloc)
del x, u
assert finalised == [16.0] * 3, finalised
recorded = _core._auto_fusion_stats()["recorded"]
assert (recorded >= 2) == (_core._auto_fuse_min_size() is not None), recorded
print("ok")
"""


@pytest.mark.parametrize("fuse", ["0", "1"])
def test_a_flush_never_calls_the_user_allocator(fuse):
    r = run(ALLOCATOR_NOT_CALLED_BY_A_FLUSH, {"CUARRAY_AUTO_FUSE": fuse})
    assert r.returncode == 0 and r.stdout.strip() == "ok", describe(r)
    assert "Exception ignored" not in r.stderr, r.stderr


# A user allocator with room for what eager code holds: x and u, once t is dropped, and one more array. A pending
# chain still holds t's memory, so the allocator refuses once; the chain then runs, gives t's memory back, and the
# allocator is asked again (it was not, and the allocation failed where eager code's succeeds).
ALLOCATOR_RETRIED_AFTER_THE_CHAIN = """
import cuarray as cp, numpy as np

pool = cp.get_default_memory_pool()
n = 1 << 20
held = {}
refused = []


def alloc(nbytes):
    if sum(held.values()) + nbytes > 3 * 4 * n:
        refused.append(nbytes)
        raise MemoryError(f"over the budget: {nbytes} bytes")
    mem = pool.malloc(nbytes)
    held[mem.ptr] = nbytes
    return cp.cuda.MemoryPointer(cp.cuda.UnownedMemory(mem.ptr, nbytes, _Release(mem)), 0)


class _Release:
    def __init__(self, mem):
        self.mem = mem

    def __del__(self):
        held.pop(self.mem.ptr)


cp.cuda.set_allocator(alloc)
x = cp.ones(n, dtype=cp.float32)
t = x * 2.0
u = t + 1.0
del t
z = cp.empty_like(x)  # x, u and z: what eager code holds
z[...] = u
assert np.all(z.get() == 3.0), np.unique(z.get())
cp.cuda.set_allocator(pool.malloc)
print("ok", len(refused))
"""


@pytest.mark.parametrize("fuse", ["0", "1"])
def test_a_user_allocator_is_asked_again_after_the_pending_chain_runs(fuse):
    r = run(ALLOCATOR_RETRIED_AFTER_THE_CHAIN, {"CUARRAY_AUTO_FUSE": fuse})
    assert r.returncode == 0 and r.stdout.startswith("ok"), describe(r)


def test_exit_and_sharing_with_pending_chains():
    r = run(
        """
        import cuarray as cp
        from cuarray import _core
        x = cp.arange(10, dtype=cp.float32)
        y = x * 3 + 1          # pending
        held = y * y            # pending
        d = y.__cuda_array_interface__  # shared: flushed, and recorded no more
        z = held + 1
        assert _core._auto_fusion_stats()["recorded"] == 3
        assert float(z[2]) == 50.0
        """,
        {"CUARRAY_AUTO_FUSE": "1"},
    )
    assert r.returncode == 0, r.stderr
    r = run(
        """
        import cuarray as cp
        x = cp.arange(1 << 20, dtype=cp.float32)
        for _ in range(3):
            w = x * 5 + 2
            v = w - x
        t = v * 2  # left pending at exit
        """,
        {"CUARRAY_AUTO_FUSE": "1"},
    )
    assert r.returncode == 0, r.stderr


def test_random_programs_lazy_equals_eager():
    """A small differential fuzz: random chains over a few arrays, some values held and some dropped, run fused,
    one kernel per operator, and on NumPy."""
    rng = np.random.default_rng(1234)
    binary = ["+", "-", "*", "/", "max", "min", "<", "=="]
    for trial in range(30):
        dt = rng.choice(["float32", "float64", "int32", "float16", "complex64"])
        shape = [(17,), (4, 9), (3, 1, 5)][trial % 3]
        xs = [cp.asarray(data(shape, dt, 100 * trial + k)) for k in range(3)]
        prog = []
        for k in range(int(rng.integers(2, 12))):
            op = str(rng.choice(binary))
            if dt == "complex64" and op in ("max", "min", "<", "/", "*"):
                op = "+"
            prog.append(
                (op, int(rng.integers(0, 3 + k)), int(rng.integers(0, 3 + k)), bool(rng.random() < 0.3))
            )

        def program(xs, xp=cp, prog=prog):
            vals = list(xs)
            held = []
            for op, i, j, keep in prog:
                a, b = vals[i], vals[j]
                if op == "-" and a.dtype == bool and b.dtype == bool:
                    op = "+"  # NumPy refuses bool subtraction
                if op == "max":
                    v = xp.maximum(a, b)
                elif op == "min":
                    v = xp.minimum(a, b)
                elif op == "<":
                    v = a < b
                elif op == "==":
                    v = a == b
                elif op == "/":
                    v = a / (abs(b) + 1)
                elif op == "+":
                    v = a + b
                elif op == "-":
                    v = a - b
                else:
                    v = a * b
                vals.append(v)
                if keep:
                    held.append(v)
            return held + [vals[-1]]

        got, _ = fused(program, xs)
        want = eager(program, xs)
        ref = program([cp.asnumpy(x) for x in xs], np)
        tol = {"float16": 1e-2, "float32": 1e-5, "complex64": 1e-5}.get(dt, 1e-12)
        for g, w, n in zip(got, want, ref):
            same_bits(g, w)
            assert g.dtype == n.dtype
            np.testing.assert_allclose(cp.asnumpy(g), n, rtol=tol, atol=0)


def test_readers_see_finished_values():
    r = run(
        """
        import cuarray as cp, numpy as np
        x = cp.arange(1024, dtype=cp.float32)
        z = x * 2.0 + 1.0
        assert float(z[3]) == 7.0 and z[5].item() == 11.0
        w = x * 3.0 - 1.0
        expected = np.arange(1024, dtype=np.float32) * np.float32(3) - np.float32(1)
        assert str(w) == str(expected) and repr(w) == repr(expected)
        v = x * x + 2.0
        shared = cp.from_dlpack(v)  # DLPack shares the memory: flushed, and nothing is recorded from then on
        np.testing.assert_array_equal(cp.asnumpy(shared), np.arange(1024, dtype=np.float32) ** 2 + 2)
        print("ok")
        """,
        {"CUARRAY_AUTO_FUSE": "1"},
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


@pytest.mark.multi_gpu
def test_chains_on_two_devices():
    with cp.cuda.Device(1):
        x1 = cp.arange(1000, dtype=cp.float32)
        z1 = x1 * 2.0 + 1.0  # pending on device 1
    x0 = cp.arange(1000, dtype=cp.float32)
    z0 = x0 * 3.0 - 1.0  # another device: device 1's chain is issued first, on its own device and stream
    with cp.cuda.Device(1):
        w1 = z1 * z1 - x1
    want = np.arange(1000, dtype=np.float32)
    np.testing.assert_array_equal(cp.asnumpy(z0), want * 3 - 1)
    np.testing.assert_array_equal(cp.asnumpy(w1), (want * 2 + 1) ** 2 - want)
    assert w1.device.id == 1 and z0.device.id == 0
