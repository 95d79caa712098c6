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
- ``kernel_cache``: the disk cache kernels are compiled into and loaded from, a ``DiskKernelCache``, or None
  where kernels are kept in memory only; ``kernel_cache = DiskKernelCache(path)`` moves it for the process,
  ``del kernel_cache`` goes back to ``CUARRAY_CACHE_DIR``'s. Where ``CUARRAY_CACHE_IN_MEMORY`` (or CuPy's
  ``CUPY_CACHE_IN_MEMORY``) is 1, kernels compiled meanwhile neither read nor write the disk cache: as CuPy
  reads its switch, it is read at each compile, so a program may set it while it runs.
- ``get_typename(dtype)``: the C++ type name a RawKernel's or RawModule's code spells a dtype with (``float``,
  ``long long``, ``float16`` of ``<cupy/float16.cuh>``, ``thrust::complex<double>`` of ``<cupy/complex.cuh>``),
  as CuPy's ``cupy._core._scalar.get_typename``, for building name expressions such as ``f"add<{name}>"``.
- ``target_arch()``: the compute capability (``"90"``) that NVRTC compiles the current device's kernels for.
"""

import os
import sys
import types
import warnings

from cuarray import _core
from cuarray._errors import CompileException, JitifyException
from cuarray._kernel_types import get_typename
from cuarray.cuda.device import Device

__all__ = [
    "CompileException",
    "DiskKernelCache",
    "JitifyException",
    "compile_using_nvrtc",
    "get_typename",
    "target_arch",
    "warmup",
]


class DiskKernelCache:
    """The disk cache of compiled kernels in directory `cache_dir` (by default ``CUARRAY_CACHE_DIR``'s, else
    ``~/.cache/cuarray/kernels``), which is made if missing, as CuPy's ``DiskKernelCacheBackend`` makes its
    directory. ``cuarray.cuda.compiler.kernel_cache = DiskKernelCache(path)`` compiles into and loads from
    `path` from then on. Its files are cuarray's own (Note [Kernel cache key] in jit/kernel_cache.h)."""

    def __init__(self, cache_dir=None):
        if cache_dir is None:
            cache_dir = os.environ.get("CUARRAY_CACHE_DIR") or os.path.expanduser("~/.cache/cuarray/kernels")
        cache_dir = os.fspath(cache_dir)
        os.makedirs(cache_dir, exist_ok=True)
        self.cache_dir = cache_dir

    def __repr__(self):
        return f"DiskKernelCache({self.cache_dir!r})"

    def __eq__(self, other):
        return isinstance(other, DiskKernelCache) and other.cache_dir == self.cache_dir

    def __hash__(self):
        return hash(self.cache_dir)


def _bool_env(name, default):
    """A boolean switch of the environment, read as CuPy reads its own: unset or empty is `default`, else
    whether it is the integer 1."""
    value = os.environ.get(name)
    if not value:
        return default
    try:
        return int(value) == 1
    except ValueError:
        return False


def _cache_in_memory():
    """Whether a kernel compiled now skips the disk cache (Note [Memory-only compiles] in jit/kernel_cache.h):
    called by the core at each kernel not in memory. Reads `_bool_env` from this module at each call."""
    return _bool_env("CUARRAY_CACHE_IN_MEMORY", False) or _bool_env("CUPY_CACHE_IN_MEMORY", False)


_JITIFY_TRUE = (
    "jitify=True is deprecated (CuPy 14 stages it for removal): cuarray compiles with NVRTC alone, as with "
    "jitify=False"
)
_JITIFY_FALSE = (
    "The jitify argument is deprecated and staged for removal (CuPy 14). Avoid passing `jitify=False` to "
    "silence this warning."
)


def _check_compile_arguments(backend, jitify):
    """CuPy's checks and warnings for `backend` and `jitify` (Note [NVRTC for every backend] in
    cuarray/_kernel.py)."""
    if jitify is not None:
        warnings.warn(_JITIFY_TRUE if jitify else _JITIFY_FALSE, DeprecationWarning, stacklevel=3)
    if backend == "nvcc":
        warnings.warn(
            "cuarray compiles kernels with NVRTC only: backend='nvcc' is compiled with NVRTC (host code and "
            "nvcc-only options are not accepted there)",
            UserWarning,
            stacklevel=3,
        )
    elif backend != "nvrtc":
        raise ValueError(f"Invalid backend {backend}")


def compile_using_nvrtc(
    source,
    options=(),
    arch=None,
    filename="kern.cu",
    name_expressions=None,
    log_stream=None,
    cache_in_memory=False,
    jitify=None,
    method=None,
):
    """CuPy's: compiles `source` with NVRTC (and the kernels' headers) for compute capability `arch` (by default
    ``target_arch()``) without the kernel cache; returns ``(binary, mapping)``: a cubin (PTX where this NVRTC
    cannot generate code for `arch`) and ``{name expression: lowered name}``, or None without
    `name_expressions`. NVRTC's messages go to `log_stream`; a failure is a CompileException (JitifyException
    with `jitify`, which warns as CuPy 14 does; NVRTC compiles alone). `filename` names the program in errors;
    `cache_in_memory` changes nothing here (nothing is cached)."""
    _check_compile_arguments("nvrtc", jitify)
    if method is not None:
        raise NotImplementedError(
            f"compile_using_nvrtc: method={method!r} (LTO IR) is not supported by cuarray"
        )
    arch = int(target_arch() if arch is None else arch)
    name = os.path.splitext(os.path.basename(filename))[0] or "kern"
    expressions = list(name_expressions or ())
    try:
        binary, _, lowered, log = _core.jit.compile(
            source,
            name,
            [*options, "--device-as-default-execution-space"],
            arch,
            _core.jit.headers(),
            expressions,
            details=True,
        )
    except CompileException as e:
        if not jitify:
            raise
        raise JitifyException(e.get_message(), e.source, e.name, e.log, e.options) from None
    if log_stream is not None:
        log_stream.write(log)
    return binary, (dict(zip(expressions, lowered)) if name_expressions is not None else None)


def target_arch():
    """The compute capability, as CuPy spells it (``"90"``), that NVRTC compiles kernels for on the current
    device: the device's own, or the newest this NVRTC knows where the device is newer."""
    return str(_core.jit.target_arch(int(Device().compute_capability)))


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


def _log_fusion(message):
    """The core's report of a chain of ufunc calls fused automatically (Note [Automatic fusion])."""
    logging = sys.modules.get("logging")
    if logging is None:
        return
    logger = logging.getLogger("cuarray.fusion")
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug("%s", message)


class _CompilerModule(types.ModuleType):
    """This module, with the kernel cache as a property (set and deleted as a module attribute)."""

    @property
    def kernel_cache(self):
        directory = _core.jit.cache_dir()
        if not directory:
            return None
        cache = DiskKernelCache.__new__(DiskKernelCache)  # the directory is the core's, made when written to
        cache.cache_dir = directory
        return cache

    @kernel_cache.setter
    def kernel_cache(self, cache):
        if cache is None:
            _core.jit.set_cache_dir("")
        elif isinstance(cache, DiskKernelCache):
            _core.jit.set_cache_dir(cache.cache_dir)
        else:
            raise TypeError(
                f"kernel_cache must be a cuarray.cuda.compiler.DiskKernelCache or None, not {type(cache).__name__}"
            )

    @kernel_cache.deleter
    def kernel_cache(self):
        _core.jit.reset_cache_dir()


sys.modules[__name__].__class__ = _CompilerModule
