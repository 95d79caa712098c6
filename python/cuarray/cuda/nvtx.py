"""cupy.cuda.nvtx's NVTX markers and ranges, which Nsight Systems shows on its timeline: `Mark`/`MarkC` and
`RangePush`/`RangePushC`/`RangePop`. Without a profiler attached each costs a function call and needs no GPU.
cuarray.profiler.time_range is the context-manager form."""

import operator

from cuarray import _core

__all__ = ["Mark", "MarkC", "RangePop", "RangePush", "RangePushC", "available"]

available = True  # NVTX3 is compiled in (header-only); it records only while a profiler is attached

# CuPy's colours of `id_color` 0, 1, ... (ARGB): green, blue, yellow, magenta, cyan, red, white.
COLORS = (0xFF00FF00, 0xFF0000FF, 0xFFFFFF00, 0xFFFF00FF, 0xFF00FFFF, 0xFFFF0000, 0xFFFFFFFF)


def _integer(value, name):
    """An int from anything with __index__ (NumPy integers too), as CuPy's typed parameters take it."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None


def color_of(id_color):
    """The ARGB colour of CuPy's `id_color` (-1 or below: the profiler's default, None)."""
    id_color = _integer(id_color, "id_color")
    return None if id_color < 0 else COLORS[id_color % len(COLORS)]


def _argb(color):
    color = _integer(color, "color")
    if not 0 <= color <= 0xFFFFFFFF:
        raise OverflowError(f"color must be a 32-bit ARGB value (0 to 0xFFFFFFFF), got {color:#x}")
    return color


def _message(message):
    if not isinstance(message, str):
        raise TypeError(f"message must be a str, not {type(message).__name__}")
    return message


def Mark(message, id_color=-1):
    """An instantaneous marker named `message`, in colour `id_color` of CuPy's table (-1: default)."""
    _core.profiler.mark(_message(message), color_of(id_color))


def MarkC(message, color=0):
    """An instantaneous marker named `message`, in the ARGB colour `color` (0xAARRGGBB)."""
    _core.profiler.mark(_message(message), _argb(color))


def RangePush(message, id_color=-1):
    """Opens a nested range named `message` on this thread, in colour `id_color` of CuPy's table."""
    _core.profiler.range_push(_message(message), color_of(id_color))


def RangePushC(message, color=0):
    """Opens a nested range named `message` on this thread, in the ARGB colour `color`."""
    _core.profiler.range_push(_message(message), _argb(color))


def RangePop():
    """Closes this thread's innermost range."""
    _core.profiler.range_pop()
