"""`cupyx` for CuPy's own test suite: the cupyx names that cuarray keeps at its top level, and cupyx.scipy and
cupyx.profiler as cuarray.scipy and cuarray.profiler (PREFIXES in _cupy_suite_alias.py). Any other cupyx
name is missing."""

import _cupy_suite_alias
import cuarray as _cuarray

_cupy_suite_alias.install()

# cupyx's top-level names (cupyx/__init__.py of CuPy 14.2) that are functions or classes, not modules.
_TOP_LEVEL = (
    "rsqrt",
    "get_runtime_info",
    "scatter_add",
    "scatter_max",
    "scatter_min",
    "errstate",
    "geterr",
    "seterr",
    "allow_synchronize",
    "DeviceSynchronized",
    "empty_pinned",
    "empty_like_pinned",
    "zeros_pinned",
    "zeros_like_pinned",
    "GeneralizedUFunc",
)


def __getattr__(name):
    if name in _TOP_LEVEL:
        try:
            return getattr(_cuarray, name)
        except AttributeError:
            pass
    elif name in ("scipy", "profiler"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'cupyx' has no attribute '{name}' (cuarray has no counterpart)")
