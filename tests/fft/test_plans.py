"""cuarray.fft.config (CuPy 14's cupy.fft.config), the cuFFT plan caches, and plans from
cuarray.scipy.fftpack.get_fft_plan used through `plan=` and `with plan:` (cuarray.cuda.cufft)."""

import contextlib
import io
import threading

import cuarray as cp
import numpy as np
import pytest
from conftest import make_data
from cuarray import testing
from cuarray.cuda import cufft
from cuarray.fft import config
from cuarray.scipy import fftpack

gpu = pytest.mark.gpu


def _shown(func):
    with io.StringIO() as buf, contextlib.redirect_stdout(buf):
        func()
        return buf.getvalue()


@pytest.fixture
def cache():
    """The current device's cache of this thread, emptied, with room for two plans; restored afterwards."""
    c = config.get_plan_cache()
    size, memsize = c.get_size(), c.get_memsize()
    c.clear()
    c.set_memsize(-1)
    c.set_size(2)
    yield c
    c.clear()
    c.set_size(size)
    c.set_memsize(memsize)


# ------------------------------------------------------------------------------------------------
# config: switches (no device needed)
# ------------------------------------------------------------------------------------------------


def test_config_is_fft_config():
    assert cp.fft.config is config
    for name in ("get_plan_cache", "set_plan_cache_size", "clear_plan_cache", "show_plan_cache_info"):
        assert callable(getattr(config, name))


def test_enable_nd_planning_warns_on_read_and_write():
    with pytest.warns(DeprecationWarning, match="enable_nd_planning"):
        old = config.enable_nd_planning
    assert old is True
    try:
        with pytest.warns(DeprecationWarning, match="enable_nd_planning"):
            config.enable_nd_planning = False
        with pytest.warns(DeprecationWarning, match="enable_nd_planning"):
            assert config.enable_nd_planning is False
    finally:
        with pytest.warns(DeprecationWarning, match="enable_nd_planning"):
            config.enable_nd_planning = old


def test_enable_nd_planning_is_per_context():
    seen = []

    def other():
        with pytest.warns(DeprecationWarning):
            seen.append(config.enable_nd_planning)

    with pytest.warns(DeprecationWarning):
        config.enable_nd_planning = False
    try:
        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert seen == [True]  # a new thread starts from the default, as CuPy's context variable
    finally:
        with pytest.warns(DeprecationWarning):
            config.enable_nd_planning = True


def test_callbacks_are_refused():
    with pytest.raises(NotImplementedError, match="callbacks"):
        config.set_cufft_callbacks("load", "store")
    assert config.get_current_callback_manager() is None


def test_no_current_plan_and_cufft_constants():
    assert cufft.get_current_plan() is None
    assert (cufft.CUFFT_C2C, cufft.CUFFT_Z2Z, cufft.CUFFT_R2C, cufft.CUFFT_C2R) == (0x29, 0x69, 0x2A, 0x2C)
    assert (cufft.CUFFT_FORWARD, cufft.CUFFT_INVERSE) == (-1, 1)
    assert cp.cuda.cufft is cufft


# ------------------------------------------------------------------------------------------------
# The plan cache's limits (no device needed: a thread's cache is made without touching one)
# ------------------------------------------------------------------------------------------------


def test_cache_defaults_in_a_new_thread():
    got = []

    def run():
        got.append((config.get_plan_cache_size(), config.get_plan_cache_max_memsize()))
        got.append(config.get_plan_cache().get_curr_size())

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert got == [(16, -1), 0]  # CuPy's defaults


def test_cache_sizes_set_and_shown(cache):
    assert (cache.get_size(), cache.get_memsize(), cache.get_curr_size(), cache.get_curr_memsize()) == (
        2,
        -1,
        0,
        0,
    )
    config.set_plan_cache_size(5)
    config.set_plan_cache_max_memsize(4096)
    assert (config.get_plan_cache_size(), config.get_plan_cache_max_memsize()) == (5, 4096)
    assert (cache.get_size(), cache.get_memsize()) == (5, 4096)
    out = _shown(cache.show_info)
    assert "cache enabled? True" in out
    assert "0 / 5 (counts)" in out and "0 / 4096 (bytes)" in out
    cache.set_memsize(-1)
    assert "0 / (unlimited) (bytes)" in _shown(cache.show_info)
    cache.set_size(0)
    assert "cache enabled? False" in _shown(cache.show_info)
    assert cache.get(("no", "such", "key")) is None  # disabled: finds nothing, raises nothing
    config.clear_plan_cache()
    assert cache.get_curr_size() == 0


def test_cache_rejects_bad_sizes(cache):
    with pytest.raises(ValueError, match="invalid input"):
        cache.set_size(-2)
    with pytest.raises(ValueError, match="invalid input"):
        cache.set_memsize(-5)
    assert (cache.get_size(), cache.get_memsize()) == (2, -1)
    with pytest.raises(KeyError, match="plan not found"):
        cache[(cufft.CUFFT_C2C, (8,), 1)]
    with pytest.raises(KeyError, match="plan not found"):
        del cache[(cufft.CUFFT_C2C, (8,), 1)]
    with pytest.raises(TypeError, match="tuple"):
        cache["key"]
    with pytest.raises(TypeError, match="cuFFT plans"):
        cache[(cufft.CUFFT_C2C, (8,), 1)] = "plan"


def test_get_plan_cache_makes_the_thread_s_cache():
    # CuPy: a thread's cache of a device exists once get_plan_cache (or PlanCache()) has been called there.
    made = []

    def run():
        before = cp._core.fft.cache_exists(0)
        config.get_plan_cache()
        made.append((before, cp._core.fft.cache_exists(0)))

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert made == [(False, True)]


@gpu
def test_show_plan_cache_info_marks_caches_a_thread_has_not_made():
    out = []
    t = threading.Thread(target=lambda: out.append(_shown(config.show_plan_cache_info)))
    t.start()
    t.join()
    assert out[0].count("uninitialized") == cp.cuda.runtime.getDeviceCount()


def test_get_fft_plan_errors_before_the_device():
    with pytest.raises(TypeError):
        fftpack.get_fft_plan(np.zeros(4))


# ------------------------------------------------------------------------------------------------
# The plan cache on the device
# ------------------------------------------------------------------------------------------------


def _x(shape, dtype=np.complex64, seed=0):
    return cp.asarray(make_data(shape, dtype, seed))


@gpu
def test_cache_keeps_and_reuses_a_plan(cache):
    a = _x(10)
    cp.fft.fft(a)
    assert cache.get_curr_size() == 1
    key, node = next(iter(cache))
    plan = node.plan
    assert isinstance(plan, cufft.Plan1d) and key == plan.key == (cufft.CUFFT_C2C, (10,), 1)
    assert plan.nx == 10 and plan.batch == 1 and plan.fft_type == cufft.CUFFT_C2C and plan.gpus is None
    cp.fft.fft(a)
    assert cache.get_curr_size() == 1
    assert next(iter(cache))[1].plan is plan
    assert cache[key] is plan and cache.get(key) is plan
    cache.clear()
    assert cache.get_curr_size() == 0


@gpu
def test_cache_evicts_the_least_recently_used(cache):
    cp.fft.fft(_x(10))
    first = next(iter(cache))[1].plan
    cp.fft.fftn(_x((10, 20)))
    assert [type(n.plan) for _, n in cache] == [cufft.PlanNd, cufft.Plan1d]
    cp.fft.fft(_x(10))  # brings the Plan1d to the front
    assert [type(n.plan) for _, n in cache] == [cufft.Plan1d, cufft.PlanNd]
    walk = iter(cache)
    for _ in range(100):  # a look-up between steps steers the walk, as CuPy's linked list does: it never ends
        cache[next(walk)[0]]
    assert len(list(cache)) == 2
    cp.fft.fft(_x(20, np.complex128))
    cp.fft.fft(_x(30, np.complex128))
    assert cache.get_curr_size() == 2
    assert all(node.plan is not first for _, node in cache)
    # An evicted plan that is still held stays usable.
    testing.assert_allclose(
        fftpack.fft(_x(10), plan=first), np.fft.fft(make_data(10, np.complex64)), rtol=1e-5, atol=1e-3
    )


@gpu
def test_cache_counts_work_sizes(cache):
    cp.fft.fft(_x(10, np.float32))
    cp.fft.fft(_x(48))
    assert cache.get_curr_memsize() == sum(node.memsize for _, node in cache)
    assert all(node.memsize == node.plan.work_size for _, node in cache)
    out = _shown(cache.show_info)
    assert "2 / 2 (counts)" in out and f"{cache.get_curr_memsize()} / (unlimited) (bytes)" in out
    nodes = [str(node) for _, node in cache]
    assert "\n".join(nodes) in out and "plan type: Plan1d" in nodes[0]
    key = next(iter(cache))[0]
    del cache[key]
    assert cache.get_curr_size() == 1 and nodes[0] not in _shown(cache.show_info)


@gpu
def test_cache_memsize_limit(cache):
    a = _x((4, 4099), np.complex128)  # a prime length: cuFFT asks for a work area
    cp.fft.fft(a)
    need = next(iter(cache))[1].plan.work_size
    assert need > 0
    cache.clear()
    cache.set_memsize(need - 1)
    with pytest.raises(RuntimeError, match="memsize is too large"):
        cp.fft.fft(a)
    assert cache.get_curr_size() == 0
    cache.set_memsize(need)
    testing.assert_allclose(cp.fft.fft(a), np.fft.fft(cp.asnumpy(a)), rtol=1e-10, atol=1e-6)
    assert cache.get_curr_memsize() == need


@gpu
def test_disabled_cache_still_transforms(cache):
    cache.set_size(0)
    expected = np.fft.fft(make_data(12, np.complex64))
    testing.assert_allclose(cp.fft.fft(_x(12)), expected, rtol=1e-5, atol=1e-3)
    assert cache.get_curr_size() == 0


@gpu
def test_caches_are_per_thread(cache):
    cp.fft.fft(_x(10))
    sizes = []

    def run():
        c = config.get_plan_cache()
        sizes.append(c.get_curr_size())
        cp.fft.fft(_x(10))
        sizes.append(c.get_curr_size())
        c.clear()

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert sizes == [0, 1] and cache.get_curr_size() == 1


# ------------------------------------------------------------------------------------------------
# Plans: plan=, with plan:, and plans that do not fit
# ------------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("n", [None, 5, 10, 15])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_plan_as_context_manager_fft(dtype, n, norm):
    a = make_data(10, dtype)
    x = cp.asarray(a)
    plan = fftpack.get_fft_plan(x, shape=None if n is None else (n,))
    assert isinstance(plan, cufft.Plan1d)
    with plan as p:
        assert p is plan and cufft.get_current_plan() is plan
        got = cp.fft.fft(x, n=n, norm=norm)
        back = cp.fft.ifft(x, n=n, norm=norm)
    assert cufft.get_current_plan() is None
    rtol, atol = (1e-5, 1e-3) if dtype == np.complex64 else (1e-12, 1e-9)
    testing.assert_allclose(got, np.fft.fft(a, n=n, norm=norm), rtol=rtol, atol=atol)
    testing.assert_allclose(back, np.fft.ifft(a, n=n, norm=norm), rtol=rtol, atol=atol)


@gpu
@pytest.mark.parametrize(
    "shape,s,axes",
    [
        ((3, 4), None, None),
        ((3, 4), (1, 5), (-2, -1)),
        ((3, 4), None, (-1, -2)),
        ((3, 4), None, (0,)),
        ((2, 3, 4), None, None),
        ((2, 3, 4), (1, 4, 10), None),
        ((2, 3, 4), None, (0, 1)),
        ((2, 3, 4), None, (-1, -3)),
    ],
)
def test_plan_as_context_manager_fftn(shape, s, axes):
    a = make_data(shape, np.complex128)
    x = cp.asarray(a)
    plan = fftpack.get_fft_plan(x, s, axes)
    with plan:
        got = cp.fft.fftn(x, s=s, axes=axes)
        back = cp.fft.ifftn(x, s=s, axes=axes, norm="ortho")
    testing.assert_allclose(got, np.fft.fftn(a, s=s, axes=axes), rtol=1e-12, atol=1e-9)
    testing.assert_allclose(back, np.fft.ifftn(a, s=s, axes=axes, norm="ortho"), rtol=1e-12, atol=1e-9)


@gpu
@pytest.mark.parametrize("n", [None, 6, 10, 15])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_plan_as_context_manager_rfft_irfft(n, dtype):
    a = make_data((3, 10), dtype)
    x = cp.asarray(a)
    tol = 1e-5 if dtype == np.float32 else 1e-11
    with fftpack.get_fft_plan(x, shape=None if n is None else (n,), axes=-1, value_type="R2C"):
        testing.assert_allclose(cp.fft.rfft(x, n=n), np.fft.rfft(a, n=n), rtol=tol, atol=tol * 100)
    spectrum = np.fft.rfft(a)
    y = cp.asarray(spectrum)
    plan = fftpack.get_fft_plan(y, shape=None if n is None else (n,), axes=-1, value_type="C2R")
    assert isinstance(plan, cufft.Plan1d) and plan.nx == (10 if n is None else n)
    with plan:
        testing.assert_allclose(cp.fft.irfft(y, n=n), np.fft.irfft(spectrum, n=n), rtol=tol, atol=tol * 100)


@gpu
def test_wrong_plans_raise_cupys_errors():
    x = _x(10)
    with (
        pytest.raises(ValueError, match="Target array size does not match the plan."),
        fftpack.get_fft_plan(_x(50)),
    ):
        cp.fft.fft(x)
    with (
        pytest.raises(ValueError, match="Batch size does not match the plan."),
        fftpack.get_fft_plan(_x((2, 10)), axes=-1),
    ):
        cp.fft.fft(x)
    with (
        pytest.raises(ValueError, match="cuFFT plan dtype mismatch."),
        fftpack.get_fft_plan(_x(10, np.complex128)),
    ):
        cp.fft.fft(x)
    with pytest.raises(ValueError, match="cuFFT plan dtype mismatch."), fftpack.get_fft_plan(_x(10)):
        cp.fft.rfft(_x(10, np.float32))
    with (
        pytest.raises(ValueError, match="The cuFFT plan and a.shape do not match"),
        fftpack.get_fft_plan(_x((6, 8))),
    ):
        cp.fft.fftn(_x((3, 4)))
    with pytest.raises(ValueError, match="at most 3 axes"), fftpack.get_fft_plan(_x((2, 2, 2))):
        cp.fft.fftn(_x((2, 2, 2, 2)))
    plan = fftpack.get_fft_plan(x)
    with (
        pytest.raises(
            RuntimeError, match="Use the cuFFT plan either as a context manager or as an argument."
        ),
        plan,
    ):
        fftpack.fft(x, plan=plan)
    assert cufft.get_current_plan() is None  # the failed call left no plan current


@gpu
def test_get_fft_plan_takes_the_cached_plan_and_makes_uncached_ones(cache):
    x = _x(16)
    cp.fft.fft(x)
    cached = next(iter(cache))[1].plan
    assert fftpack.get_fft_plan(x) is cached
    fresh = fftpack.get_fft_plan(_x(32))
    assert cache.get_curr_size() == 1 and fresh.nx == 32
    cache[fresh.key] = fresh
    assert next(iter(cache))[1].plan is fresh
    with pytest.raises(ValueError, match="not the plan's key"):
        cache[cached.key] = fresh


@gpu
def test_get_fft_plan_errors():
    x = _x((4, 6))
    with pytest.raises(ValueError, match="contiguous"):
        fftpack.get_fft_plan(x[:, ::2])
    with pytest.raises(ValueError, match="Shape and axes have different lengths."):
        fftpack.get_fft_plan(x, shape=(4, 6), axes=(0,))
    with pytest.raises(ValueError, match="1 to 3 axes"):
        fftpack.get_fft_plan(_x((2, 2, 2, 2)))
    with pytest.raises(ValueError, match="value_type"):
        fftpack.get_fft_plan(x, value_type="Z2Z")
    assert isinstance(fftpack.get_fft_plan(x, value_type="C2R"), cufft.PlanNd)
    with pytest.raises(np.exceptions.AxisError):
        fftpack.get_fft_plan(x, axes=2)
    with pytest.raises(ValueError):
        fftpack.get_fft_plan(x, shape=(0,), axes=0)
    assert isinstance(fftpack.get_fft_plan(x), cufft.PlanNd)
    assert fftpack.get_fft_plan(x).shape == (4, 6)


@gpu
def test_plan1d_made_directly():
    plan = cufft.Plan1d(8, cufft.CUFFT_Z2Z, 3)
    assert (plan.nx, plan.batch, plan.fft_type) == (8, 3, cufft.CUFFT_Z2Z)
    a = make_data((3, 8), np.complex128)
    testing.assert_allclose(fftpack.fft(cp.asarray(a), plan=plan), np.fft.fft(a), rtol=1e-12, atol=1e-9)
    with pytest.raises(ValueError, match="unknown cuFFT type"):
        cufft.Plan1d(8, 7, 1)


@gpu
def test_plan_shared_between_threads():
    a = make_data((64, 256), np.complex64)
    x = cp.asarray(a)
    plan = fftpack.get_fft_plan(x, axes=-1)
    cp.cuda.Device().synchronize()
    results, errors = [], []

    def run():
        try:
            with cp.cuda.Stream():
                for _ in range(20):
                    r = fftpack.fft(x, plan=plan)
                results.append(cp.asnumpy(r))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for r in results:
        np.testing.assert_allclose(r, np.fft.fft(a), rtol=1e-4, atol=1e-3)


@gpu
def test_getversion():
    v = cufft.getVersion()
    assert isinstance(v, int) and v >= 10000
