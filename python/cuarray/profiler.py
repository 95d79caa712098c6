"""cuarray.profiler.benchmark: CPU and GPU time of a function, printed as CuPy's profiler prints it."""

import math
import time

import numpy

from cuarray import cuda

__all__ = ["benchmark"]


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


def benchmark(func, args=(), kwargs=None, n_repeat=10000, *, name=None, n_warmup=10, max_duration=math.inf,
              devices=None):
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
