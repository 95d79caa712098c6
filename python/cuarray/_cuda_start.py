"""Starts CUDA on a thread of its own while NumPy is imported.

Note [Starting CUDA early]
cuInit takes about 0.1 s and creating a context about 0.1 s more (H200), as long as NumPy's import, so
`import cuarray` runs both on a thread begun before NumPy is imported, and the first result comes about
0.2 s sooner. The context is created only where exactly one device is visible: with several, a process may
use any of them, and a context it never used would take memory from that device's other users. The thread
calls the driver alone, which is thread-safe; the runtime later finds the primary context made. This is
done here, through ctypes, because it has to begin before NumPy and the extension are loaded (loading
cuarray._core before NumPy made a later `import ml_dtypes` crash). As in any process that has started
CUDA, a child forked after the import cannot use the GPU: the package waits for the thread before a fork,
so that no lock is inherited held, and marks the child (note_forked_child in cpp/cuarray/cuda/device.h).
"""

import ctypes
import threading

started = False  # cuInit succeeded


def _start():
    global started
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:  # no driver: the first call that needs a device says so
        return
    if driver.cuInit(0) != 0:
        return
    started = True
    count, device, context = ctypes.c_int(), ctypes.c_int(), ctypes.c_void_p()
    if driver.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value == 1:
        if driver.cuDeviceGet(ctypes.byref(device), 0) == 0:
            driver.cuDevicePrimaryCtxRetain(ctypes.byref(context), device)


_thread = threading.Thread(target=_start, name="cuarray-cuda-start", daemon=True)
_thread.start()


def finish():
    """Waits for the start: before a fork, and before the interpreter exits."""
    _thread.join()


def forked_child():
    from cuarray import _core

    _core.cuda._note_forked_child(started)
