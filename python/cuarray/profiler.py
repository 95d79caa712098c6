"""cuarray.profiler: `benchmark` (CPU and GPU time of a function, printed as CuPy's profiler prints it),
`time_range` (NVTX ranges that Nsight Systems shows on its timeline) and `profile` (the span a profiler
started with collection off records)."""

import functools
import math
import time

import numpy

from cuarray import _core, cuda
from cuarray.cuda.nvtx import color_of
from cuarray.cuda.profiler import profile

__all__ = ["benchmark", "profile", "time_range"]


class time_range:
    """Marks a block (``with time_range("step"):``) or every call of a function (``@time_range()``, named after
    the function unless `message` is given) as an NVTX range. `color_id` picks one of a few colours (-1: the
    profiler's default), `argb_color` gives one as 0xAARRGGBB; `sync` synchronizes the current device before
    the range opens and before it closes, so that it spans the GPU work queued inside. Without a profiler
    attached a range costs a function call and needs no GPU."""

    def __init__(self, message=None, color_id=None, argb_color=None, sync=False):
        if color_id is not None and argb_color is not None:
            raise ValueError("Only either color_id or argb_color can be specified")
        if message is not None and not isinstance(message, str):
            raise TypeError(f"message must be a str, not {type(message).__name__}")
        for arg, value in (("color_id", color_id), ("argb_color", argb_color)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"{arg} must be an int, not {type(value).__name__}")
        if argb_color is not None and not 0 <= argb_color <= 0xFFFFFFFF:
            raise ValueError(f"argb_color must be a 32-bit ARGB value (0 to 0xFFFFFFFF), got {argb_color:#x}")
        self.message = message
        self.color_id = -1 if color_id is None else color_id
        self.argb_color = argb_color
        self.sync = sync

    def _argb(self):
        if self.argb_color is not None:
            return self.argb_color
        return color_of(self.color_id)

    def __enter__(self):
        if self.message is None:
            raise ValueError("when used as a context manager, the message argument cannot be None")
        self._push(self.message)
        return self

    def __exit__(self, exc_type, exc_value, tb):
        self._pop()

    def _push(self, message):
        if self.sync:
            cuda.Device().synchronize()
        _core.profiler.range_push(message, self._argb())

    def _pop(self):
        try:
            if self.sync:
                cuda.Device().synchronize()
        finally:
            _core.profiler.range_pop()

    def __call__(self, func):
        if not callable(func):
            raise TypeError(f"time_range decorates functions, not {type(func).__name__} objects")
        message = func.__name__ if self.message is None else self.message

        @functools.wraps(func)
        def ranged(*args, **kwargs):
            self._push(message)
            try:
                return func(*args, **kwargs)
            finally:
                self._pop()

        return ranged


class _PerfCaseResult:
    """Times of one benchmark, in seconds: `cpu_times` (n,) and `gpu_times` (devices, n)."""

    def __init__(self, name, cpu_times, gpu_times, devices):
        self.name = name
        self.cpu_times = numpy.asarray(cpu_times, dtype=numpy.float64)
        self.gpu_times = numpy.asarray(gpu_times, dtype=numpy.float64).reshape(len(devices), -1)
        self.devices = tuple(devices)

    @staticmethod
    def _item(label, seconds):
        us = seconds * 1e6
        text = f"    {label}: {us.mean():9.03f} us"
        if us.size > 1:
            text += f"   +/- {us.std():6.03f} (min: {us.min():9.03f} / max: {us.max():9.03f}) us"
        return text

    def to_str(self, show_gpu=True):
        parts = [self._item("CPU", self.cpu_times)]
        if show_gpu:
            parts += [self._item(f"GPU-{d}", t) for d, t in zip(self.devices, self.gpu_times)]
        return f"{self.name:<20s}:" + " ".join(parts)

    def __str__(self):
        return self.to_str()

    __repr__ = __str__


def benchmark(
    func, args=(), kwargs=None, n_repeat=10000, *, name=None, n_warmup=10, max_duration=math.inf, devices=None
):
    """Runs `func(*args, **kwargs)` `n_warmup` times, then up to `n_repeat` times (stopping once the CPU time
    passes `max_duration` seconds), timing each call on the host and, with events on the current stream, on
    each of `devices` (default: the current device)."""
    kwargs = kwargs or {}
    if name is None:
        name = getattr(func, "__name__", "benchmark")
    if devices is None:
        devices = (cuda.Device().id,)
    for _ in range(n_warmup):
        func(*args, **kwargs)
    starts, ends = {}, {}
    for d in devices:
        with cuda.Device(d):
            starts[d], ends[d] = cuda.Event(), cuda.Event()
    cpu_times, gpu_times = [], [[] for _ in devices]
    spent = 0.0
    # On the current device alone (the usual case) events are recorded without switching devices, so the
    # GPU time holds as little host work as possible around the call.
    here = devices == (cuda.Device().id,)

    def record(events):
        if here:
            events[devices[0]].record()
            return
        for d in devices:
            with cuda.Device(d):
                events[d].record()

    for _ in range(n_repeat):
        record(starts)
        t0 = time.perf_counter()
        func(*args, **kwargs)
        t1 = time.perf_counter()
        record(ends)
        for k, d in enumerate(devices):
            ends[d].synchronize()
            gpu_times[k].append(cuda.get_elapsed_time(starts[d], ends[d]) / 1e3)
        cpu_times.append(t1 - t0)
        spent += t1 - t0
        if spent >= max_duration:
            break
    return _PerfCaseResult(name, cpu_times, gpu_times, devices)
