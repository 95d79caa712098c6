"""cuFFT (CuPy's cupy.cuda.cufft names): the library's version, its transform types, and the plans that
cuarray.fft and cuarray.scipy.fftpack use.

A plan is a cuarray._core.fft.Plan (Note [cuFFT plans] in cpp/cuarray/lib/cufft.h): Plan1d for one transformed
dimension, PlanNd for two or three, in cuFFT's basic layout (contiguous transforms, batched over the leading
axes). Make one with cuarray.scipy.fftpack.get_fft_plan (or Plan1d(nx, fft_type, batch)); `with plan:` makes
the calling thread's transforms use it, as CuPy's do. Plan1d(nx, fft_type, batch, devices=gpus) is a
multi-GPU plan (C2C or Z2Z) over `gpus` (an int n for GPUs 0 to n - 1, or a list of device ids): Note
[Multi-GPU cuFFT plans] in cpp/cuarray/lib/cufft_xt.h; its `gpus` is the list of devices (None for others).
"""

from cuarray import _core
from cuarray.cuda import memory as _memory

# cuFFT's transform types and directions (cufftType, CUFFT_FORWARD / CUFFT_INVERSE).
CUFFT_C2C = 0x29
CUFFT_R2C = 0x2A
CUFFT_C2R = 0x2C
CUFFT_Z2Z = 0x69
CUFFT_D2Z = 0x6A
CUFFT_Z2D = 0x6C
CUFFT_FORWARD = -1
CUFFT_INVERSE = 1

Plan1d = _core.fft.Plan1d
PlanNd = _core.fft.PlanNd


def _work_area(plan):
    """CuPy's Plan.work_area. A multi-GPU plan's: a MemoryPointer to its work area on each device of `gpus`
    (None where it needs none), which it owns for its life. A plan on one device has none (None): each
    execution borrows its work area from the pool (Note [cuFFT plans]); `work_size` says how large."""
    if plan.gpus is None:
        return None
    return [
        None if b is None else _memory.MemoryPointer(_memory.Memory._from_core(b), 0)
        for b in plan._work_areas
    ]


_core.fft.Plan.work_area = property(_work_area)


def getVersion():  # CuPy's name
    """The loaded cuFFT's version (major * 1000 + minor * 10 + patch), loading cuFFT if needed."""
    return _core.fft.version()


def get_current_plan():
    """The plan the calling thread's transforms use (set by `with plan:`), or None."""
    return _core.fft.current_plan()


__all__ = [
    "CUFFT_C2C",
    "CUFFT_C2R",
    "CUFFT_D2Z",
    "CUFFT_FORWARD",
    "CUFFT_INVERSE",
    "CUFFT_R2C",
    "CUFFT_Z2D",
    "CUFFT_Z2Z",
    "Plan1d",
    "PlanNd",
    "getVersion",
    "get_current_plan",
]
