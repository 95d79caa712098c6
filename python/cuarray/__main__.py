"""``python -m cuarray``: the GPUs and versions, a self-check against NumPy and a small speed comparison.

``python -m cuarray cache`` shows the kernel cache; ``python -m cuarray cache clear`` empties it;
``python -m cuarray --help`` says so.
"""

import os
import sys
import time

USAGE = """\
usage: python -m cuarray [cache [clear]]

  (no arguments)  list the GPUs with their memory and compute capability, the CUDA driver, runtime and NVRTC
                  versions and the kernel cache directory; check a few results against NumPy; measure a device
                  copy and a host-to-device transfer (exits 1 without a GPU or if a check fails)
  cache           show the kernel cache: its directory, number of kernels and size
  cache clear     empty the kernel cache
  -h, --help      show this help and exit

The kernel cache directory is $CUARRAY_CACHE_DIR, by default ~/.cache/cuarray/kernels.
"""


def _cache(clear):
    from cuarray import _core

    directory = _core.jit.cache_dir()
    files = [os.path.join(directory, f) for f in os.listdir(directory)] if os.path.isdir(directory) else []
    files = [f for f in files if f.endswith(".bin")]
    if clear:
        for f in files:
            os.remove(f)
        print(f"Removed {len(files)} kernels from {directory}")
        return 0
    size = sum(os.path.getsize(f) for f in files)
    print(f"Kernel cache directory: {directory}")
    print(f"Kernels: {len(files)}")
    print(f"Size: {size / 1e6:.2f} MB")
    return 0


def _self_check(cp, np):
    """Small computations compared with NumPy; returns the names of those that differ."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((64, 33))
    checks = {
        "transfer": lambda: (cp.asnumpy(cp.asarray(a)), a),
        "arange": lambda: (cp.arange(10, dtype=cp.float32).get(), np.arange(10, dtype=np.float32)),
        "linspace": lambda: (cp.linspace(0, 1, 7).get(), np.linspace(0, 1, 7)),
        "transpose copy": lambda: (cp.ascontiguousarray(cp.asarray(a).T).get(), np.ascontiguousarray(a.T)),
        "astype": lambda: (cp.asarray(a).astype(cp.int32).get(), a.astype(np.int32)),
        "slicing": lambda: (cp.asarray(a)[::-2, 3:9].get(), a[::-2, 3:9]),
        "eye": lambda: (cp.eye(5, 4, k=1).get(), np.eye(5, 4, k=1)),
    }
    failed = []
    for name, f in checks.items():
        got, want = f()
        ok = got.shape == want.shape and got.dtype == want.dtype and np.array_equal(got, want)
        print(f"  {name:<16} {'ok' if ok else 'MISMATCH'}")
        if not ok:
            failed.append(name)
    return failed


def _speed(cp, np):
    n = 1 << 26
    x = cp.arange(n, dtype=cp.float32)
    host = np.arange(n, dtype=np.float32)
    y = cp.empty_like(x)
    cp.cuda.Device().synchronize()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for _ in range(10):
        cp.copyto(y, x)
    stop.record()
    stop.synchronize()
    gbs = 10 * 2 * x.nbytes / (cp.cuda.get_elapsed_time(start, stop) / 1e3) / 1e9
    t = time.perf_counter()
    for _ in range(3):
        cp.asarray(host)
    cp.cuda.Device().synchronize()
    h2d = 3 * host.nbytes / (time.perf_counter() - t) / 1e9
    t = time.perf_counter()
    for _ in range(3):
        host.copy()
    cpu = 3 * 2 * host.nbytes / (time.perf_counter() - t) / 1e9
    print(f"  device copy, 256 MiB float32:   {gbs:8.1f} GB/s (NumPy copy on the host: {cpu:.1f} GB/s)")
    print(f"  host to device, 256 MiB:        {h2d:8.1f} GB/s")


def _print_libraries(core):
    """Where NVRTC and the math libraries load from (each is loaded to say so)."""
    from cuarray import _cuda_libs

    print("CUDA libraries:")
    print(f"  {'NVRTC':<9} {_cuda_libs.origin('nvrtc', core.jit.nvrtc_path())}")
    for lib in core.libraries.probe():
        where = _cuda_libs.origin(lib["stem"], lib["path"]) if lib["path"] else f"not loaded: {lib['error']}"
        print(f"  {lib['name']:<9} {where}")


def main(argv):
    if "-h" in argv or "--help" in argv:
        print(USAGE, end="")
        return 0
    if argv in (["cache"], ["cache", "clear"]):
        return _cache(clear=len(argv) == 2)
    if argv:
        print(
            f"python -m cuarray: unrecognized arguments: {' '.join(argv)}\n\n{USAGE}", end="", file=sys.stderr
        )
        return 2
    import numpy as np

    import cuarray as cp
    from cuarray import _core

    if not cp.cuda.is_available():
        print("cuarray: no CUDA driver or GPU was found on this machine; cuarray needs an NVIDIA GPU to run.")
        return 1
    print(f"cuarray {cp.__version__} (NumPy {np.__version__})")
    for i in range(cp.cuda.runtime.getDeviceCount()):
        p = cp.cuda.runtime.getDeviceProperties(i)
        free, total = cp.cuda.Device(i).mem_info
        print(
            f"GPU {i}: {p['name'].decode()}, {total / 2**30:.1f} GiB ({free / 2**30:.1f} free), "
            f"compute capability {p['major']}.{p['minor']}, {p['multiProcessorCount']} SMs"
        )

    def version(v):
        return f"{v // 1000}.{v % 1000 // 10}"

    print(
        f"CUDA driver {version(cp.cuda.runtime.driverGetVersion())}, "
        f"runtime {version(cp.cuda.runtime.runtimeGetVersion())}, NVRTC {version(_core.jit.nvrtc_version())}"
    )
    _print_libraries(_core)
    print(f"Kernel cache: {_core.jit.cache_dir()}")
    print("Self-check against NumPy:")
    failed = _self_check(cp, np)
    print("Speed:")
    _speed(cp, np)
    if failed:
        print(f"FAILED: {', '.join(failed)}")
        return 1
    print("All checks passed.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
