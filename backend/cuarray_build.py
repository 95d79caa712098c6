"""cuarray's build backend: scikit-build-core's, plus NVIDIA's CUDA wheels as build requirements when no CUDA
toolkit is installed (Note [Building without a CUDA toolkit] in cmake/cuda_wheels.cmake).

A machine with a toolkit downloads nothing more; with pip's --no-build-isolation no requirement is installed at
all, and CMake uses whichever CUDA it finds.
"""

import os
import shutil

from scikit_build_core import build as _build
from scikit_build_core.build import (  # noqa: F401  (the rest of the backend's interface, unchanged)
    build_editable,
    build_sdist,
    build_wheel,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

# The headers and static runtime the core compiles against: CUDA's runtime, C runtime, CCCL, NVTX and profiler
# API, and NVRTC's and the math libraries' headers (whose wheels hold the libraries too).
CUDA_WHEELS = ["cuda-toolkit[cudart,crt,cccl,nvtx,profiler,nvrtc,cublas,cusolver,cufft]==13.*"]
_HEADER = os.path.join("include", "cuda_runtime_api.h")


def has_cuda_toolkit():
    """Whether CMake's FindCUDAToolkit would find a toolkit: CUDAToolkit_ROOT, CUDA_PATH or CUDA_HOME, nvcc on
    PATH, or /usr/local/cuda."""
    roots = [os.environ.get(v, "") for v in ("CUDAToolkit_ROOT", "CUDA_PATH", "CUDA_HOME")]
    nvcc = shutil.which("nvcc")
    if nvcc:
        roots.append(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))))
    roots.append("/usr/local/cuda")
    return any(root and os.path.isfile(os.path.join(root, _HEADER)) for root in roots)


def _cuda_wheels():
    return [] if has_cuda_toolkit() else CUDA_WHEELS


def get_requires_for_build_wheel(config_settings=None):
    return _build.get_requires_for_build_wheel(config_settings) + _cuda_wheels()


def get_requires_for_build_editable(config_settings=None):
    return _build.get_requires_for_build_editable(config_settings) + _cuda_wheels()
