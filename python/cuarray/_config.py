"""cuarray.show_config() and get_runtime_info(): what a bug report needs, in CuPy's layout (one ``key : value``
row each)."""

import os
import platform
import sys

__all__ = ["get_runtime_info", "show_config"]

# Variables cuarray reads besides its own CUARRAY_*: CuPy's names for the same settings, where NVRTC and the
# CUDA libraries are looked for, and which devices the driver shows.
_ENVIRONMENT = (
    "CUPY_SEED",
    "CUPY_TF32",
    "CUPY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION",
    "CUPY_CUDA_ARRAY_INTERFACE_SYNC",
    "CUDA_PATH",
    "CUDA_HOME",
    "LD_LIBRARY_PATH",
    "CONDA_PREFIX",
    "CUDA_VISIBLE_DEVICES",
)


def _cuda_version(v):
    """13000 -> '13.0' (CUDA's major * 1000 + minor * 10)."""
    return f"{v // 1000}.{v % 1000 // 10}"


def _attempt(f):
    """f()'s value, or the text of the error it raised: a report prints what it can."""
    try:
        return f()
    except Exception as e:  # noqa: BLE001
        return f"unavailable ({type(e).__name__}: {e})"


def _module_rows():
    import numpy

    import cuarray
    from cuarray import _core

    rows = [
        ("OS", platform.platform()),
        ("Python Version", sys.version.split()[0]),
        ("cuarray Version", cuarray.__version__),
        ("cuarray Location", os.path.dirname(cuarray.__file__)),
        ("cuarray Extension", _core.__file__),
        ("NumPy Version", numpy.__version__),
    ]
    for name, module in (("SciPy", "scipy"), ("ml_dtypes", "ml_dtypes")):
        try:
            rows.append((f"{name} Version", __import__(module).__version__))
        except ImportError:
            rows.append((f"{name} Version", "not installed"))
    return rows


def _cuda_rows():
    from cuarray import _core, _cuda_libs, cuda

    def driver():
        v = cuda.runtime.driverGetVersion()
        return f"{_cuda_version(v)} ({v})" if v else "no driver"

    def libraries():
        out = []
        for lib in _core.libraries.probe():
            if lib["path"]:
                v = lib["version"]
                where = _cuda_libs.origin(lib["stem"], lib["path"])
                out.append((lib["name"], f"{v // 10000}.{v // 100 % 100}.{v % 100} ({where})"))
            else:
                out.append((lib["name"], f"{lib['file']} does not load ({lib['error']})"))
        return out

    runtime = cuda.runtime.runtimeGetVersion()
    rows = [
        ("CUDA Runtime Version", f"{_cuda_version(runtime)} ({runtime}, linked statically)"),
        ("CUDA Driver Version", _attempt(driver)),
        ("NVRTC Version", _attempt(lambda: _cuda_version(_core.jit.nvrtc_version()))),
        ("NVRTC Path", _attempt(lambda: _cuda_libs.origin("nvrtc", _core.jit.nvrtc_path()))),
    ]
    probed = _attempt(libraries)
    rows += probed if isinstance(probed, list) else [("CUDA Libraries", probed)]
    rows.append(("cuRAND", "not used (cuarray.random runs its own Philox kernels)"))
    rows.append(("Kernel Cache Directory", _attempt(_core.jit.cache_dir)))
    return rows


def _environment_rows():
    names = sorted(n for n in os.environ if n.startswith("CUARRAY_")) + [
        n for n in _ENVIRONMENT if n in os.environ
    ]
    if not names:
        return [("Environment", "no CUARRAY_* or other variable that affects cuarray is set")]
    return [(f"${n}", os.environ[n]) for n in names]


def _device_rows():
    from cuarray import cuda

    if not cuda.is_available():
        return [("Devices", "no CUDA driver or device")]
    count = cuda.runtime.getDeviceCount()
    rows = [("Device Count", str(count))]
    for i in range(count):
        p = _attempt(lambda i=i: cuda.runtime.getDeviceProperties(i))
        if isinstance(p, str):
            rows.append((f"Device {i}", p))
            continue
        rows += [
            (f"Device {i} Name", p["name"].decode()),
            (f"Device {i} Compute Capability", f"{p['major']}.{p['minor']} (sm_{p['major']}{p['minor']})"),
            (f"Device {i} Memory", f"{p['totalGlobalMem'] / 2**30:.1f} GiB"),
            (
                f"Device {i} PCI Bus ID",
                f"{p['pciDomainID']:04x}:{p['pciBusID']:02x}:{p['pciDeviceID']:02x}.0",
            ),
        ]
    return rows


def show_config():
    """Prints cuarray's, Python's and NumPy's versions and locations, the CUDA runtime, driver, NVRTC and
    libraries cuarray would use (with their files), the kernel cache, the environment variables that affect
    cuarray, and each device. Never raises for a missing driver, device or library: it says so instead."""
    print(get_runtime_info())


class _RuntimeInfo:
    """What show_config prints, as a string (str() of it), as cupyx.get_runtime_info's object is."""

    def __init__(self, full):
        rows = _module_rows() + _cuda_rows() + _environment_rows()
        if full:
            devices = _attempt(_device_rows)
            rows += devices if isinstance(devices, list) else [("Devices", devices)]
        width = max(len(k) for k, _ in rows) + 1
        self._text = "\n".join(f"{k:<{width}}: {v}" for k, v in rows)

    def __str__(self):
        return self._text

    def __repr__(self):
        return self._text


def get_runtime_info(*, full=True):
    """cupyx.get_runtime_info: the rows show_config prints, as an object whose str() is their text; without
    `full`, no rows for the devices."""
    return _RuntimeInfo(full)
