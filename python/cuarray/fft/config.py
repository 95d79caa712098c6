"""cuarray.fft.config: CuPy 14's cupy.fft.config: the cuFFT plan caches and the FFT switches.

Each thread has one plan cache per device (cpp/cuarray/lib/cufft.h), made on first use; PlanCache is a view of
the calling thread's cache of one device. A cache holds at most get_size() plans (default 16, -1: no limit)
whose work sizes add up to at most get_memsize() bytes (default -1: no limit); 0 for either disables it.

A multi-GPU plan sits in the caches of all its devices (Note [Multi-GPU plans in the caches] in
cpp/cuarray/lib/cufft.h); its key has its devices as a fourth item.

Note [FFT switches]
enable_nd_planning is deprecated in CuPy 14 (it warns on every read and write, and will always be True); it is
kept per context as CuPy keeps it, and changes nothing here: cuarray always transforms up to three axes in one
plan, which gives the same values as one axis at a time. use_multi_gpus and set_cufft_gpus(gpus) are CuPy's
(per context): with both set, `devices` is the tuple of GPUs and each 1-D transform (fft, ifft, and the 1-D
steps of the others) runs on a multi-GPU plan over them (Note [Multi-GPU cuFFT plans] in
cpp/cuarray/lib/cufft_xt.h), which takes complex transforms alone, as CuPy's: a real 1-D transform (rfft,
irfft, hfft) is CuPy's ValueError then. Transforms of two or three axes keep one device, as CuPy's n-D plans
do. cuFFT callbacks (set_cufft_callbacks) are not supported: they raise NotImplementedError rather than run a
transform without the callbacks the caller asked for.
"""

import contextvars
import sys
import types
import warnings

from cuarray import _core
from cuarray.cuda import device as _device


class _Node:
    """A cached plan as CuPy's cache lists it: its key, the plan, and the bytes it counts."""

    __slots__ = ("key", "memsize", "plan")

    def __init__(self, plan, device):
        self.key = plan.key
        self.plan = plan
        self.memsize = plan._work_size_on(device)

    def __repr__(self):
        kind = "Plan1d" if isinstance(self.plan, _core.fft.Plan1d) else "PlanNd"
        return f"key: {self.key}, plan type: {kind}, memory usage: {self.memsize}"


def _key(key):
    if not (isinstance(key, tuple) and len(key) in (3, 4)):
        raise TypeError(f"a plan cache key is a tuple (fft_type, shape, batch[, devices]), not {key!r}")
    return key[0], list(key[1]), key[2], None if len(key) == 3 else list(key[3])


class PlanCache:
    """The calling thread's cuFFT plan cache of one device (CuPy's cupy.fft._cache.PlanCache). Iterating gives
    (key, node) pairs, most recently used first, without changing the order; node.plan is the plan and
    node.memsize its work size in bytes. cache[key] finds a plan (and makes it the most recent),
    del cache[key] drops it, cache[key] = plan adds one (its own key)."""

    def __init__(self, device=None):
        self._device = _core.cuda.current_device() if device is None else _device.Device(device).id
        self._info()  # CuPy: making a PlanCache initialises the thread's cache of the device

    def _info(self):
        return _core.fft.cache_info(self._device)

    def get_size(self):
        return self._info()[0]

    def set_size(self, size):
        _core.fft.cache_set_size(self._device, size)

    def get_memsize(self):
        return self._info()[1]

    def set_memsize(self, memsize):
        _core.fft.cache_set_memsize(self._device, memsize)

    def get_curr_size(self):
        return self._info()[2]

    def get_curr_memsize(self):
        return self._info()[3]

    def clear(self):
        _core.fft.cache_clear(self._device)

    def _enabled(self):
        size, memsize = self._info()[:2]
        return size != 0 and memsize != 0

    def __getitem__(self, key):
        if not self._enabled():
            return None  # CuPy: a disabled cache finds nothing and raises nothing
        plan = _core.fft.cache_find(self._device, *_key(key))
        if plan is None:
            raise KeyError(f"plan not found for key: {key}")
        return plan

    def get(self, key, default=None):
        try:
            plan = self[key]
        except KeyError:
            return default
        return default if plan is None else plan

    def __setitem__(self, key, plan):
        if not isinstance(plan, _core.fft.Plan):
            raise TypeError(f"a plan cache holds cuFFT plans, not {type(plan).__name__}")
        if tuple(key) != plan.key:
            raise ValueError(f"the key {key!r} is not the plan's key {plan.key!r}")
        _core.fft.cache_insert(self._device, plan)

    def __delitem__(self, key):
        if self._enabled() and not _core.fft.cache_erase(self._device, *_key(key)):
            raise KeyError(f"plan not found for key: {key}")

    def __iter__(self):
        # CuPy's walk of its linked list: each step takes the plan just after the last one given, in the order
        # the cache has then, so a look-up between steps (which moves a plan to the front) steers the walk.
        key = None
        while True:
            plans = _core.fft.cache_plans(self._device)
            keys = [p.key for p in plans]
            at = 0 if key is None else keys.index(key) + 1 if key in keys else len(plans)
            if at >= len(plans):
                return
            node = _Node(plans[at], self._device)
            key = node.key
            yield key, node

    def __len__(self):
        return self.get_curr_size()

    def __repr__(self):
        size, memsize, curr_size, curr_memsize, hits, misses = self._info()
        lines = [
            f"------------------- cuFFT plan cache (device {self._device}) -------------------",
            f"cache enabled? {size != 0 and memsize != 0}",
            f"current / max size   : {curr_size} / {'(unlimited)' if size == -1 else size} (counts)",
            f"current / max memsize: {curr_memsize} / {'(unlimited)' if memsize == -1 else memsize} (bytes)",
            f"hits / misses: {hits} / {misses} (counts)",
            "",
            "cached plans (most recently used first):",
        ]
        return "\n".join(lines + [str(node) for _, node in self]) + "\n"

    def show_info(self):
        print(self)


def get_plan_cache():
    """The calling thread's plan cache for the current device (made on first use)."""
    return PlanCache()


def get_plan_cache_size():
    return get_plan_cache().get_size()


def set_plan_cache_size(size):
    get_plan_cache().set_size(size)


def get_plan_cache_max_memsize():
    return get_plan_cache().get_memsize()


def set_plan_cache_max_memsize(size):
    get_plan_cache().set_memsize(size)


def clear_plan_cache():
    get_plan_cache().clear()


def show_plan_cache_info():
    """Prints the calling thread's plan cache of every device ('uninitialized' for those it has not made)."""
    for dev in range(_core.cuda.device_count()):
        if _core.fft.cache_exists(dev):
            PlanCache(dev).show_info()
        else:
            print(f"uninitialized cuFFT plan cache (device {dev})\n")


def get_current_callback_manager():
    """None: cuarray has no cuFFT callbacks (Note [FFT switches])."""
    return


def set_cufft_callbacks(*args, **kwargs):
    raise NotImplementedError(
        "cuFFT callbacks are not supported: CuPy builds them from user C++ code with nvcc (or as cuFFT LTO "
        "callbacks), while cuarray compiles its kernels with NVRTC alone"
    )


def set_cufft_gpus(gpus):
    """Sets the GPUs of multi-GPU transforms (in the current context; used while use_multi_gpus is True): an
    int n means GPUs 0 to n - 1, else a list or tuple of device ids, at least two (Note [FFT switches])."""
    if isinstance(gpus, int):
        devices = list(range(gpus))
    elif isinstance(gpus, (list, tuple)):
        devices = gpus
    else:
        raise ValueError("gpus must be an int or a list or tuple of int.")  # noqa: TRY004 - CuPy's type
    if len(devices) <= 1:
        raise ValueError("Must use at least 2 GPUs.")
    _devices.set(tuple(devices))


def _multi_gpus():
    """The devices a 1-D transform spreads over now (a list), or None (Note [FFT switches])."""
    if not _use_multi_gpus.get():
        return None
    devices = _devices.get()
    return None if devices is None else list(devices)


_enable_nd_planning = contextvars.ContextVar("cuarray.fft.config.enable_nd_planning", default=True)
_use_multi_gpus = contextvars.ContextVar("cuarray.fft.config.use_multi_gpus", default=False)
_devices = contextvars.ContextVar("cuarray.fft.config.devices", default=None)
_ND_WARNING = "enable_nd_planning is deprecated as of CuPy 14 and will always be True in the future."


class _ConfigModule(types.ModuleType):
    """This module, with CuPy's properties (Note [FFT switches])."""

    @property
    def enable_nd_planning(self):
        warnings.warn(_ND_WARNING, DeprecationWarning, stacklevel=2)
        return _enable_nd_planning.get()

    @enable_nd_planning.setter
    def enable_nd_planning(self, value):
        warnings.warn(_ND_WARNING, DeprecationWarning, stacklevel=2)
        _enable_nd_planning.set(value)

    @property
    def use_multi_gpus(self):
        return _use_multi_gpus.get()

    @use_multi_gpus.setter
    def use_multi_gpus(self, value):
        _use_multi_gpus.set(bool(value))

    @property
    def devices(self):
        """The GPUs of set_cufft_gpus while use_multi_gpus is True, else None."""
        return _devices.get() if _use_multi_gpus.get() else None


sys.modules[__name__].__class__ = _ConfigModule

__all__ = [
    "PlanCache",
    "clear_plan_cache",
    "get_current_callback_manager",
    "get_plan_cache",
    "get_plan_cache_max_memsize",
    "get_plan_cache_size",
    "set_cufft_callbacks",
    "set_cufft_gpus",
    "set_plan_cache_max_memsize",
    "set_plan_cache_size",
    "show_plan_cache_info",
]
