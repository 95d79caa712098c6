"""The CUDA libraries that NVIDIA's pip wheels or conda put in the environment, found by cuda-pathfinder.

The core looks for NVRTC, cuBLAS, cuSOLVER and cuFFT in the system's places first and calls locate() only when
they lack one (Note [Finding the CUDA libraries] in cpp/cuarray/lib/library.h), the first time the library is
needed: nothing here runs at import, and cuda-pathfinder is imported only then.
"""

import os

# The CUDA 13 sonames cuarray uses; cuda-pathfinder also finds CUDA 12's, which would not do.
_SONAMES = {
    "nvrtc": "libnvrtc.so.13",
    "cublas": "libcublas.so.13",
    "cusolver": "libcusolver.so.12",
    "cufft": "libcufft.so.12",
}

# stem -> where cuda-pathfinder found it ("site-packages", "conda", ...), for show_config().
found_via = {}


def locate(stem):
    """(absolute path, "") of the library `stem` ("nvrtc", "cublas", ...), which cuda-pathfinder loads (with
    the libraries it needs), or ("", why there is none). Never raises: the core reports what is missing."""
    try:
        from cuda import pathfinder
    except ImportError:
        return "", "cuda-pathfinder, which finds NVIDIA's pip wheels, is not installed"
    soname = _SONAMES[stem]
    try:
        lib = pathfinder.load_nvidia_dynamic_lib(stem)
    except Exception as e:  # noqa: BLE001  (its errors differ between versions; any of them means not found)
        reason = (str(e).strip().splitlines() or [type(e).__name__])[0]
        return "", f"cuda-pathfinder did not find it ({reason})"
    if not os.path.basename(lib.abs_path).startswith(soname):
        return "", f"cuda-pathfinder found {lib.abs_path}, not CUDA 13's {soname}"
    found_via[stem] = lib.found_via
    return lib.abs_path, ""


def origin(stem, path):
    """How `path`, where the library `stem` loaded from, was found: for reports."""
    if stem in found_via:
        return f"{path} (found by cuda-pathfinder: {found_via[stem]})"
    return path
