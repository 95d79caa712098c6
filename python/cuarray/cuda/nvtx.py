"""cupy.cuda.nvtx's NVTX markers and ranges, which Nsight Systems shows on its timeline: `Mark`/`MarkC` and
`RangePush`/`RangePushC`/`RangePop`. Without a profiler attached each costs a function call and needs no GPU.
cuarray.profiler.time_range is the context-manager form."""

from cuarray import _core

__all__ = ["Mark", "MarkC", "RangePop", "RangePush", "RangePushC", "available"]

available = True  # NVTX3 is compiled in (header-only); it records only while a profiler is attached

# CuPy's colours of `id_color` 0, 1, ... (ARGB): green, blue, yellow, magenta, cyan, red, white.
COLORS = (0xFF00FF00, 0xFF0000FF, 0xFFFFFF00, 0xFFFF00FF, 0xFF00FFFF, 0xFFFF0000, 0xFFFFFFFF)


def color_of(id_color):
    """The ARGB colour of CuPy's `id_color` (-1 or below: the profiler's default, None)."""
    if isinstance(id_color, bool) or not isinstance(id_color, int):
        raise TypeError(f"id_color must be an int, not {type(id_color).__name__}")
    return None if id_color < 0 else COLORS[id_color % len(COLORS)]


def _argb(color):
    if isinstance(color, bool) or not isinstance(color, int):
        raise TypeError(f"color must be an int, not {type(color).__name__}")
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
