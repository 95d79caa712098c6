"""Exception types raised by cuarray's core (mapped from C++ in python/src/errors.cpp)."""


class CUDARuntimeError(RuntimeError):
    """A CUDA runtime call failed. ``status`` is the cudaError_t code."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status

    def __reduce__(self):
        return (type(self), (self.status, str(self)))


class CUDADriverError(CUDARuntimeError):
    """Loading a module or finding a kernel or global in it failed (CuPy's cupy.cuda.driver.CUDADriverError,
    which its RawModule raises for these): the message starts with the driver's name of the error
    (``CUDA_ERROR_NOT_FOUND: ...``). A CUDARuntimeError too, as every CUDA error cuarray raises is; ``status``
    is the error's code, which the driver and the runtime share for these errors."""


class OutOfMemoryError(MemoryError):
    """The device memory pool could not satisfy an allocation. CuPy's signature: `size` bytes asked for,
    `total` bytes allocated so far, and the pool's `limit` (0: none); cuarray's own raises pass the message
    in `limit`'s place."""

    def __init__(self, size, total, limit=0):
        if isinstance(limit, str):
            message = limit
        elif limit:
            message = (
                f"Out of memory allocating {size:,} bytes (allocated so far: {total:,} bytes, limit set to: "
                f"{limit:,} bytes)."
            )
        else:
            message = f"Out of memory allocating {size:,} bytes (allocated so far: {total:,} bytes)."
        super().__init__(message)
        self.size = size
        self.total = total
        self._limit = limit

    def __reduce__(self):
        return (type(self), (self.size, self.total, self._limit))


class CompileException(Exception):
    """NVRTC rejected a kernel. The message carries the log and the numbered source lines near the error."""

    def __init__(self, message, source, name, log, options=()):
        self._message = message
        self.source = source
        self.name = name
        self.log = log
        self.options = tuple(options)
        super().__init__(_with_source_excerpt(message, source, log))

    def get_message(self):
        return self._message

    def dump(self, f):
        f.write(
            f"NVRTC compilation error: {self._message}\n-----\nName: {self.name}\nOptions: {' '.join(self.options)}\n"
        )
        f.write("CUDA source:\n")
        for i, line in enumerate(self.source.splitlines(), 1):
            f.write(f"{i:04d} {line}\n")
        f.write("-----\n")

    def __reduce__(self):
        return (type(self), (self._message, self.source, self.name, self.log, self.options))


class JitifyException(CompileException):
    """A kernel asked for with jitify=True failed to compile (CuPy's name for that error; cuarray compiles it
    with NVRTC alone: Note [NVRTC for every backend] in cuarray/_kernel.py)."""


def _with_source_excerpt(message, source, log):
    """Appends the source lines around the first line number that NVRTC's log names."""
    import re

    m = re.search(r"\((\d+)\): (?:catastrophic )?error", log or "")
    if not m or not source:
        return message
    line = int(m.group(1))
    lines = source.splitlines()
    lo, hi = max(1, line - 3), min(len(lines), line + 3)
    excerpt = "\n".join(f"{'>' if i == line else ' '}{i:5d} | {lines[i - 1]}" for i in range(lo, hi + 1))
    return f"{message}\n\nsource near line {line}:\n{excerpt}"
