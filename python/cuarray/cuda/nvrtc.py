"""NVRTC, the compiler of every cuarray kernel, as CuPy's cupy.cuda.nvrtc names its facts."""

from cuarray import _core

__all__ = ["getVersion"]


def getVersion():
    """The (major, minor) version of the NVRTC that cuarray loaded (loading it where it is not yet)."""
    version = _core.jit.nvrtc_version()  # major * 1000 + minor * 10
    return version // 1000, version % 1000 // 10
