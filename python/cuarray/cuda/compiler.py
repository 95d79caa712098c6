"""Kernel compilation (cuarray.cuda.compiler): its errors, its log, and compiling a program's kernels before a
timed run.

Every kernel is CUDA C++ that NVRTC compiles the first time a process needs it; the process then keeps it in
memory, and the disk cache (``CUARRAY_CACHE_DIR``, by default ``~/.cache/cuarray/kernels``) keeps it for later
processes. A kernel's first use in a process costs a compile (tens of milliseconds) or, once it is on disk, a
load (under a millisecond); later uses cost nothing more.

- Logging: ``logging.getLogger("cuarray")`` at DEBUG level (``logging.basicConfig(level=logging.DEBUG)``, or
  ``logging.getLogger("cuarray").setLevel(logging.DEBUG)`` with a handler) reports each compile and each load
  from the disk cache: the kernel's name, the start of its key (the start of its file's name in the cache
  directory) and the milliseconds it took. Kernels found in memory, every later use, are not reported, so the
  log costs nothing on that path (Note [Kernel cache log] in cpp/cuarray/jit/kernel_cache.h).
- ``warmup(func, *args, **kwargs)`` runs ``func`` once so that a timed run after it compiles nothing.
"""

import sys

from cuarray import _core
from cuarray._errors import CompileException, JitifyException
from cuarray.cuda.device import Device

__all__ = ["CompileException", "JitifyException", "warmup"]


def warmup(func, *args, **kwargs):
    """Calls ``func(*args, **kwargs)`` once and waits for the current device, so that the kernels it needs are
    compiled (or loaded from the disk cache) before a timed run; returns ``{"compiled": n, "from_disk": n}``,
    how many kernels that took (counted for the whole process: kernels other threads needed meanwhile too).

    Running a function once is all a warm-up is: the kernels stay in memory for the process, and in the disk
    cache for later processes, whose first use of each then costs a load instead of a compile. Inputs of other
    dtypes, numbers of dimensions or memory layouts (contiguous or not) may need other kernels: warm up with
    inputs like the timed run's.
    """
    before = _core.jit.cache_stats()
    func(*args, **kwargs)
    Device().synchronize()
    after = _core.jit.cache_stats()
    return {
        "compiled": after["compiles"] - before["compiles"],
        "from_disk": after["disk_hits"] - before["disk_hits"],
    }


def _log_kernel(name, key, compiled, ms):
    """The core's report of a kernel compiled or loaded from the disk cache (never of one found in memory)."""
    logging = sys.modules.get("logging")
    if logging is None:  # never imported: no logger can have been configured
        return
    logger = logging.getLogger("cuarray")
    if not logger.isEnabledFor(logging.DEBUG):
        return
    if compiled:
        logger.debug("compiled kernel %s (key %s) in %.1f ms", name, key, ms)
    else:
        logger.debug("loaded kernel %s (key %s) from the disk cache in %.2f ms", name, key, ms)
