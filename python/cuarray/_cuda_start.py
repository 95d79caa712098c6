"""Starts CUDA on a thread of its own while NumPy is imported.

Note [Starting CUDA early]
cuInit takes about 0.1 s and creating a context about 0.1 s more (H200), as long as NumPy's import, so `import
cuarray` runs both on a thread begun before NumPy is imported, and the first result comes about 0.2 s sooner;
the thread also makes the first device and pinned allocations; where there is a driver, another warms NVRTC once
the extension is loaded (Note [Warming NVRTC]). The context is created only where exactly one
device is visible: with several, a process may use any of them, and a context it never used would take memory
from that device's other users. The thread calls the driver alone, which is thread-safe; the runtime later
finds the primary context made. This is done here, through ctypes, because it has to begin before NumPy and
the extension are loaded (loading cuarray._core before NumPy made a later `import ml_dtypes` crash). As in any
process that has started CUDA, a child forked after the import cannot use the GPU: the package waits for the
threads before a fork, so that no lock is inherited held, and marks the child (note_forked_child in
cpp/cuarray/cuda/device.h).
"""

import ctypes
import sys
import threading

started = False  # cuInit succeeded
_driver_found = False
_driver_looked_for = threading.Event()
_nvrtc_thread = None
_RELEASE_THRESHOLD = 4  # CU_MEMPOOL_ATTR_RELEASE_THRESHOLD
_HOST_ALLOC_PORTABLE = 1  # CU_MEMHOSTALLOC_PORTABLE


def _start():
    global started, _driver_found
    try:
        driver = ctypes.CDLL("libcuda.so.1")
        _driver_found = True
    except OSError:  # no driver: the first call that needs a device says so
        return
    finally:
        _driver_looked_for.set()
    if driver.cuInit(0) != 0:
        return
    started = True
    count, device, context = ctypes.c_int(), ctypes.c_int(), ctypes.c_void_p()
    if driver.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value != 1:
        return
    if driver.cuDeviceGet(ctypes.byref(device), 0) != 0:
        return
    if driver.cuDevicePrimaryCtxRetain(ctypes.byref(context), device) != 0:
        return
    if driver.cuCtxSetCurrent(context) == 0:
        _warm_allocations(driver, device)


def _warm_allocations(driver, device):
    """The first allocation from the device's memory pool maps memory for it (about 12 ms on an H100 host), and
    the first pinned host allocation costs about 1.3 ms more than later ones: both are made here, the pool's with
    the release threshold the package sets (MemoryPool in cpp/cuarray/cuda/memory_pool.cpp), so that the block
    freed stays mapped for the first array."""
    pool, ptr, host = ctypes.c_void_p(), ctypes.c_uint64(), ctypes.c_void_p()
    keep_all = ctypes.c_uint64(2**64 - 1)
    if driver.cuMemHostAlloc(ctypes.byref(host), ctypes.c_size_t(1 << 16), _HOST_ALLOC_PORTABLE) == 0:
        driver.cuMemFreeHost(host)
    if driver.cuDeviceGetDefaultMemPool(ctypes.byref(pool), device) != 0:
        return
    if driver.cuMemPoolSetAttribute(pool, _RELEASE_THRESHOLD, ctypes.byref(keep_all)) != 0:
        return
    if driver.cuMemAllocAsync(ctypes.byref(ptr), ctypes.c_size_t(512), None) == 0:  # on the legacy default stream
        driver.cuMemFreeAsync(ptr, None)


_thread = threading.Thread(target=_start, name="cuarray-cuda-start", daemon=True)
_thread.start()


def warm_nvrtc(warm_up):
    """Note [Warming NVRTC]
    A process's first NVRTC compile costs about 11 ms more than later ones (libnvrtc is 110 MB to load, then
    NVRTC and the ptxas inside it set themselves up), and the first kernel a program needs that is not in the
    disk cache pays it. So where there is a driver, and kernels will run, `warm_up` (jit::warm_up) compiles an
    empty kernel on a thread begun once the extension is loaded. On an H100 host a user's new ElementwiseKernel
    then compiled in 102 ms instead of 122 (medians of 10 fresh processes; a second new kernel took 96 in both),
    and the first result (import, arange, x + 1, get) stayed within 5 ms of its time before. The cost: about
    50 MB more resident memory, shared with the page cache, in a process that never compiles. It runs in C++
    without the GIL: loading the library through ctypes held the GIL for the whole load, stalling the import
    by 6 ms."""
    global _nvrtc_thread

    def warm():
        _driver_looked_for.wait()
        if _driver_found:
            warm_up()

    _nvrtc_thread = threading.Thread(target=warm, name="cuarray-nvrtc-warm", daemon=True)
    _nvrtc_thread.start()


def finish():
    """Waits for the start, and issues the queued kernel launches and stops their worker thread (Note [Launch
    queue] in cpp/cuarray/cuda/launch_queue.h; a later launch starts it again): before a fork, and before the
    interpreter exits."""
    _thread.join()
    if _nvrtc_thread is not None:
        _nvrtc_thread.join()
    core = sys.modules.get("cuarray._core")
    if core is not None:
        core.cuda.stop_launch_worker()


def forked_child():
    from cuarray import _core

    _core.cuda._note_forked_child(started)
