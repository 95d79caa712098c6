"""cupy.cuda.profiler: `start`/`stop` switch an attached profiler's collection (cudaProfilerStart/Stop) and
`profile` does both around a block (cuarray.profiler.profile is the same). Run under
``nsys profile --capture-range=cudaProfilerApi`` or ``ncu --profile-from-start off`` to record only that
span. Each raises CUDARuntimeError without a GPU."""

import contextlib

from cuarray import _core

__all__ = ["profile", "start", "stop"]


def start():
    """cudaProfilerStart: the attached profiler records from here."""
    _core.profiler.start()


def stop():
    """cudaProfilerStop: the attached profiler stops recording."""
    _core.profiler.stop()


@contextlib.contextmanager
def profile():
    """Collection on for the block and off after it."""
    start()
    try:
        yield
    finally:
        stop()
