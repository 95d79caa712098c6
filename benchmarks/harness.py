"""Timing helpers, the per-library adapter, and the case definition every cases_*.py file uses.

Times are seconds everywhere here; report.py turns them into each case's display unit.
"""

from __future__ import annotations

import functools
import gc
import importlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

LIBS = ("cuarray", "cupy", "torch", "numpy")
LABELS = {"cuarray": "cuarray", "cupy": "CuPy", "torch": "PyTorch", "numpy": "NumPy", "jax": "JAX"}
GPU_LIBS = ("cuarray", "cupy", "torch")
# JAX has jax.numpy's API, not CuPy's or PyTorch's: it runs only the rows that name it (the compiled chains, where
# its column is jax.jit beside cuarray's and CuPy's fuse).
ALL_LIBS = (*LIBS, "jax")
ON_GPU = (*GPU_LIBS, "jax")
CUPY_LIKE = ("cuarray", "cupy")  # one adapter: cuarray implements CuPy's API
TF32_ENV = {"CUARRAY_TF32": "1", "CUPY_TF32": "1"}  # read at first cuBLAS use, hence a fresh process

RUN_PY = Path(__file__).with_name("run.py")
CHILD_MARK = "@@benchmark-result "


# ---------------------------------------------------------------- case definitions


@dataclass(frozen=True)
class Target:
    """A goal from the project's issues, checked against cuarray's figure."""

    kind: str  # 'value': the figure itself; 'ceiling': fraction of the ceiling; 'cupy': speed vs CuPy
    op: str  # '<', '<=' or '>='
    value: float

    def text(self, unit: str, ceiling: str | None) -> str:
        sign = {"<": "<", "<=": "≤", ">=": "≥"}[self.op]
        if self.kind == "ceiling":
            return f"{sign} {self.value:.0%} of {ceiling.split()[0]}"
        if self.kind == "cupy":
            return f"{sign} {self.value:g}× CuPy"
        return f"{sign} {self.value:g} {unit}"

    def check(self, value, fraction, ratio) -> bool | None:
        got = {"value": value, "ceiling": fraction, "cupy": ratio}[self.kind]
        if got is None:
            return None
        return {"<": got < self.value, "<=": got <= self.value, ">=": got >= self.value}[self.op]


def at_most(v, strict=False):
    return Target("value", "<" if strict else "<=", v)


def at_least(v):
    return Target("value", ">=", v)


def of_ceiling(f):
    return Target("ceiling", ">=", f)


def vs_cupy(r):
    return Target("cupy", ">=", r)


@dataclass(frozen=True)
class Case:
    """One benchmark row. make(lib) builds the inputs and returns the zero-argument callable to time."""

    name: str
    group: str
    make: Callable
    unit: str  # 'us', 'ms', 's' (time per call) or 'GB/s', 'TFLOP/s' (work / time)
    timer: str = "event"  # 'wall' | 'event' | 'sync' | 'self' (see TIMERS)
    work: float = 0.0  # bytes or flops per call, for the rate units
    target: Target | None = None
    ceiling: str | None = None  # name of the case whose best rate is 100% for this one
    libs: tuple = LIBS  # libraries with a sensible equivalent; the others show '—'
    quick_skips: tuple = ()  # libraries whose calls take seconds here: skipped under --quick
    only: str | None = None  # 'quick' or 'full': the case runs in that mode only
    env: dict | None = None  # measured in a fresh process with these variables set
    reps: tuple = (3, 7)  # (quick, full) repeats for timer='self'
    warmup: int = 1  # untimed calls before the repeats, for timer='self'


class Skip(Exception):
    """Raised by a case's make(lib) when this machine cannot run it (too few GPUs): the row shows '—' and
    the JSON keeps the reason, as for a library without an equivalent."""


# ---------------------------------------------------------------- inputs


@functools.lru_cache(maxsize=4)
def _host_random(n: int, dtype: str, seed: int, dist: str) -> np.ndarray:
    dt = np.dtype(dtype)
    if dt.kind == "c":  # real and imaginary parts drawn as one float array twice as long
        return _fill(2 * n, dt.char.lower(), seed, dist).view(dt)
    if dt.kind == "f" and dt.itemsize >= 4:
        return _fill(n, dt, seed, dist)
    base = _fill(n, np.float32, seed, dist)
    return (base * 1000).astype(dt) if dt.kind in "iu" else base.astype(dt)


def _fill(n, dtype, seed, dist):
    # Several generators in threads: one would take seconds per GiB.
    out = np.empty(n, dtype)
    chunks = np.array_split(out, min(16, os.cpu_count() or 1))
    seeds = np.random.SeedSequence(seed).spawn(len(chunks))

    def work(ss, chunk):
        rng = np.random.default_rng(ss)
        if dist == "normal":
            rng.standard_normal(out=chunk, dtype=chunk.dtype)
        else:
            rng.random(out=chunk, dtype=chunk.dtype)

    with ThreadPoolExecutor(len(chunks)) as ex:
        list(ex.map(work, seeds, chunks))
    return out


def host_random(shape, dtype="float32", seed=0, dist="uniform") -> np.ndarray:
    """Random host data, cached so that every library times the same inputs. Never write into it."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return _host_random(int(np.prod(shape)), np.dtype(dtype).name, seed, dist).reshape(shape)


# ---------------------------------------------------------------- library adapters


class Lib:
    name: str
    gpu: bool
    xp: object

    @property
    def label(self):
        return LABELS[self.name]

    def rand(self, shape, dtype="float32", seed=0, dist="uniform"):
        return self.asarray(host_random(shape, dtype, seed, dist))


class CupyLike(Lib):
    """cuarray or CuPy: the same API, so one adapter parametrised by the module name."""

    gpu = True

    def __init__(self, name):
        self.name = name
        self.xp = importlib.import_module(name)
        if self.xp.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("no CUDA device")
        self.xp.cuda.Device(0).synchronize()  # create the context now, not inside a measurement

    def extra(self, sub):
        """'scipy.signal' -> cupyx.scipy.signal or cuarray.scipy.signal; likewise 'profiler'."""
        return importlib.import_module(("cupyx." if self.name == "cupy" else "cuarray.") + sub)

    def asarray(self, host):
        return self.xp.asarray(host)

    def empty(self, shape, dtype="float32"):
        return self.xp.empty(shape, dtype=dtype)

    def fuse(self, f):
        return self.xp.fuse(f)

    def sync(self):
        self.xp.cuda.Device().synchronize()

    def event(self):
        return self.xp.cuda.Event()

    def elapsed(self, start, end):
        return self.xp.cuda.get_elapsed_time(start, end) / 1e3

    def free(self):
        self.xp.get_default_memory_pool().free_all_blocks()
        self.xp.get_default_pinned_memory_pool().free_all_blocks()

    def info(self):
        rt = self.xp.cuda.runtime
        return _probe(
            version=lambda: self.xp.__version__,
            device=lambda: _text(rt.getDeviceProperties(0)["name"]),
            cuda_runtime=lambda: _cuda_version(rt.runtimeGetVersion()),
            cuda_driver=lambda: _cuda_version(rt.driverGetVersion()),
            nvrtc=lambda: ".".join(map(str, self.xp.cuda.nvrtc.getVersion())),
        )


class TorchLib(Lib):
    name = "torch"
    gpu = True

    def __init__(self):
        import torch

        if not torch.cuda.is_available():
            raise RuntimeError("torch.cuda.is_available() is False")
        self.xp = torch
        self.device = torch.device("cuda")
        torch.zeros(1, device=self.device)  # create the context now

    def asarray(self, host):
        return self.xp.from_numpy(host).to(self.device)

    def empty(self, shape, dtype="float32"):
        return self.xp.empty(shape, dtype=getattr(self.xp, dtype), device=self.device)

    def sync(self):
        self.xp.cuda.synchronize()

    def event(self):
        return self.xp.cuda.Event(enable_timing=True)

    def elapsed(self, start, end):
        return start.elapsed_time(end) / 1e3

    def free(self):
        self.xp.cuda.empty_cache()

    def info(self):
        t = self.xp
        return _probe(
            version=lambda: t.__version__,
            device=lambda: t.cuda.get_device_name(0),
            cuda_runtime=lambda: t.version.cuda,
        )


class JaxLib(Lib):
    """JAX on its first GPU, for the compiled rows: fuse(f) is jax.jit(f). JAX has no device-wide
    synchronize, and runs a device's work in order: sync() waits for the last result a compiled call made."""

    name = "jax"
    gpu = True

    def __init__(self):
        # JAX takes most of the GPU's memory at its first use unless told not to; the other libraries share it.
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
        import jax

        self.jax, self.xp = jax, jax.numpy
        self.device = jax.devices("gpu")[0]  # RuntimeError where JAX has no GPU backend
        self._last = None
        jax.device_put(np.zeros(1, np.float32), self.device).block_until_ready()  # start the backend now

    def asarray(self, host):
        return self.jax.device_put(host, self.device)

    def empty(self, shape, dtype="float32"):
        return self.jax.device_put(np.empty(shape, dtype), self.device)

    def fuse(self, f):
        compiled = self.jax.jit(f)

        def call(*args):
            self._last = compiled(*args)
            return self._last

        return call

    def sync(self):
        if self._last is not None:
            self._last.block_until_ready()

    def free(self):
        self._last = None

    def info(self):
        return _probe(version=lambda: self.jax.__version__, device=lambda: self.device.device_kind)


class NumpyLib(Lib):
    name = "numpy"
    gpu = False
    xp = np

    def extra(self, sub):
        return importlib.import_module(sub)  # scipy.signal

    def asarray(self, host):
        return host  # no copy: cases never write into their inputs

    def empty(self, shape, dtype="float32"):
        return np.empty(shape, dtype)

    def sync(self):
        pass

    def free(self):
        pass

    def info(self):
        return {"version": np.__version__}


def _probe(**getters):
    """Each version query on its own: a library still growing may lack some."""
    out = {}
    for key, get in getters.items():
        try:
            out[key] = get()
        except Exception:  # noqa: BLE001 - a missing query only leaves a blank in the header
            out[key] = None
    return out


def _text(s):
    return s.decode() if isinstance(s, bytes) else str(s)


def _cuda_version(v):
    return f"{v // 1000}.{v % 1000 // 10}"


def load_libs(names):
    """Imports the requested libraries; returns ({name: Lib}, {name: why it is missing})."""
    makers = {
        "cuarray": lambda: CupyLike("cuarray"),
        "cupy": lambda: CupyLike("cupy"),
        "torch": TorchLib,
        "numpy": NumpyLib,
        "jax": JaxLib,
    }
    libs, missing = {}, {}
    for name in names:
        try:
            libs[name] = makers[name]()
        except Exception as e:  # noqa: BLE001 - not installed, or no device: skip, never fail
            missing[name] = f"{type(e).__name__}: {e}"
    return libs, missing


# ---------------------------------------------------------------- timers


@dataclass(frozen=True)
class Budget:
    """How long one (case, library) measurement may take, and its bounds on repeats."""

    quick: bool
    seconds: float
    min_reps: int
    max_reps: int
    batches: int  # wall-loop batches

    def reps(self, one_call):
        if one_call >= self.seconds:
            return 1
        return max(self.min_reps, min(self.max_reps, int(self.seconds / max(one_call, 1e-9))))


QUICK = Budget(True, 0.25, 3, 30, 7)
FULL = Budget(False, 1.0, 5, 100, 21)


def _repeat(once, budget):
    first = once()
    return [first] + [once() for _ in range(budget.reps(first) - 1)]


def time_wall(fn, lib, budget, case):
    """Per-call host time: perf_counter around a batch of calls, synchronised at the end of each batch."""

    def batch(n):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        lib.sync()
        return (time.perf_counter() - t0) / n

    batch(20)  # warm-up: compilation, pools, caches
    per_call = batch(10)
    n = max(10, min(100_000, int(budget.seconds / budget.batches / per_call)))
    return [batch(n) for _ in range(budget.batches)]


def time_event(fn, lib, budget, case):
    """Device time between two of the library's own events around one call; NumPy and JAX (no events): wall
    time of a call and a synchronize."""
    if not lib.gpu or not hasattr(lib, "event"):
        return time_sync(fn, lib, budget, case)
    start, end = lib.event(), lib.event()

    def once():
        start.record()
        fn()
        end.record()
        end.synchronize()
        return lib.elapsed(start, end)

    once()  # warm-up: compilation, library handles, plans, workspaces
    return _repeat(once, budget)


def time_sync(fn, lib, budget, case):
    """Wall time of one call followed by a synchronize: for calls the host takes part in (transfers)."""

    def once():
        t0 = time.perf_counter()
        fn()
        lib.sync()
        return time.perf_counter() - t0

    once()
    return _repeat(once, budget)


def time_self(fn, lib, budget, case):
    """fn measures itself (a lesson's own timing, a child process) and returns seconds."""
    for _ in range(case.warmup):
        fn()
    return [fn() for _ in range(case.reps[0 if budget.quick else 1])]


TIMERS = {"wall": time_wall, "event": time_event, "sync": time_sync, "self": time_self}


# ---------------------------------------------------------------- running cases


def run_one(case, lib, budget):
    """Times one case in one library: {'times': [s, ...]} or {'error': '...'}; never raises."""
    try:
        fn = case.make(lib)
        out = {"times": TIMERS[case.timer](fn, lib, budget, case)}
        del fn
    except Skip as e:
        out = {"skipped": str(e)}
    except Exception as e:  # noqa: BLE001 - a missing feature is 'n/a', never the end of the run
        out = {"error": f"{type(e).__name__}: {e}"[:400]}
    # Here the exception and its frames are gone, so the case's arrays can go back to the device.
    gc.collect()
    try:
        lib.free()
    except Exception as e:  # noqa: BLE001 - a pool without free_all_blocks yet: say so once, go on
        if lib.name not in _free_warned:
            _free_warned.add(lib.name)
            print(f"warning: {lib.label} cannot free its pools: {type(e).__name__}: {e}", file=sys.stderr)
    return out


_free_warned = set()


def run_in_child(case, lib_name, budget):
    """Runs one (case, library) in a fresh `run.py --child` process with case.env set."""
    cmd = [sys.executable, str(RUN_PY), "--child", case.name, "--libs", lib_name]
    cmd += ["--quick"] if budget.quick else []
    try:
        proc = subprocess.run(
            cmd, env={**os.environ, **case.env}, check=False, capture_output=True, text=True, timeout=600
        )
    except subprocess.TimeoutExpired:
        return {"error": "child process timed out after 600 s"}
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith(CHILD_MARK):
            return json.loads(line[len(CHILD_MARK) :])
    return {"error": f"child exited {proc.returncode}: {_last_line(proc.stderr)}"}


def run_case(case, libs, budget, in_child=False):
    """{library: {'times': [...]} | {'error': str} | {'skipped': str}} for every loaded library."""
    out = {}
    for name, lib in libs.items():
        if name not in case.libs:
            out[name] = {"skipped": "no equivalent"}
        elif budget.quick and name in case.quick_skips:
            out[name] = {"skipped": f"{name} takes seconds here: skipped under --quick"}
        elif case.env and not in_child:
            out[name] = run_in_child(case, name, budget)
        else:
            out[name] = run_one(case, lib, budget)
    return out


def python_child(code, env=None, timeout=300):
    """Runs code in a fresh interpreter; returns the JSON value its last line of output prints."""
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **(env or {})},
        check=False,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if proc.returncode:
        raise RuntimeError(f"child exited {proc.returncode}: {_last_line(proc.stderr)}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _last_line(text):
    """The exception line that ends a traceback."""
    lines = text.strip().splitlines()
    return lines[-1][:300] if lines else "(no output)"
