"""How `cupy`, `cupyx` and `cupy_backends` resolve to cuarray when CuPy's own tests run against it.

Note [Names, not copies]
Every `cupy.*` module the tests import is a thin module object that forwards attribute reads and writes to
the cuarray module of the same name (`cupy.linalg` -> `cuarray.linalg`): nothing is copied, so a test that
sets `cupy.random._generator._random_states` (as `cupy.testing.fix_random` does) changes cuarray's state,
and `cupy.ndarray is cuarray.ndarray`. A submodule that importlib binds on its parent stays on the forwarding
module and never reaches cuarray. Files under this folder win over forwarding: `cupy/testing` (CuPy's own,
copied from the sdist by run.sh) and `cupy/_core` (the CuPy internals that cupy.testing and the tests need
to work: `internal.prod` and the accelerator switches; `_gufuncs`, which gives cuarray._gufuncs' `_GUFunc`).

Private names (`cupy._x`) forward only where cuarray keeps the same internals on purpose (PRIVATE below);
any other private module is a stand-in (Note [Stand-ins]). A public CuPy name that cuarray lacks is missing:
the test that uses it fails, which is the measurement.

Note [Stand-ins]
A test file that imports, at its top, a CuPy name that cuarray lacks would fail to import, and every test of
it would go uncounted for one name that a few of them use. So such names are placeholders (Missing): the file
imports, and a test that uses one (calls it, reads from it, tests its truth) fails with NotImplementedError
naming it. They are: every name of a CuPy-internal module (`cupy._x`, `cupy.cuda._x`, `cupy_backends` but
its runtime), every name of the public CuPy modules in STANDINS, and the names in MISSING of modules cuarray
has. STANDINS and MISSING list cuarray's gaps that a test file needs at import; the report's failures show
which tests used them.

Note [Counterparts]
Some private CuPy names that CuPy's tests patch or call have a real counterpart in cuarray under a name of its
own: ALIASES maps each to it, for reading, writing and deleting (so `mock.patch` of the CuPy name changes and
restores cuarray's). `compiler._kernel_cache_backend` is the kernel cache a process compiles into
(`cuarray.cuda.compiler.kernel_cache`, a property: deleting it goes back to CUARRAY_CACHE_DIR's), and
`_compiler_cache.DiskKernelCacheBackend(path)` a disk cache in `path` (`DiskKernelCache`); that cache's
files are cuarray's own, so the tests that read or write CuPy's file format, or count a backend's saves,
still fail. `compiler._get_bool_env_variable` is how cuarray reads its boolean switches of the environment
too, among them CUPY_CACHE_IN_MEMORY at each compile (Note [Memory-only compiles] in jit/kernel_cache.h);
`compiler._get_arch()` is `target_arch()`; `_util.clear_memo` is `cuarray.clear_memo` (cupy.clear_memo).
`_core._scalar.get_typename` is `cuarray.cuda.compiler.get_typename`: the C++ name of a dtype in user kernels.
Of cupyx.scipy.signal's private helpers that its tests import by their module's path, `_upfirdn._output_len`
(upfirdn's output length) is cuarray's function of that name, and `_iir_filter_conversions._cplxreal` (SciPy's
split of roots into conjugate pairs and real values) is `_iir_forms.cplxreal`, which works on the host: it
takes lists and host arrays, and a device array raises TypeError where CuPy's takes it. The other helpers
(`_savitzky_golay._polyder`, say) have none, and stay placeholders: their module is private, so a stand-in.
`cupy_backends.cuda.libs.nvrtc` is `cuarray.cuda.nvrtc` (cupy.cuda.nvrtc), and `cupy.cuda.driver` is
`cuarray.cuda.driver`, which holds CUDADriverError alone: its other names stay placeholders (PARTIAL).
`compiler._empty_file_preprocess_cache` is CuPy's memo of a compile's environment for its cache keys, which
the tests swap for an empty dict (CuPy merely fills it again); cuarray keys kernels by its headers' hash
taken at build time, so it has none, and the name is a FACT: a dict that nothing reads.

Note [Platform facts]
CuPy's tests ask questions of the platform at collection (`cupy.cuda.runtime.is_hip` in skipif decorators,
the compute capability, CUDA's version, whether CUB or cuTENSOR paths exist, where nvcc is). FACTS answers
them as CuPy on the same NVIDIA GPU would, from cuarray where it knows (the runtime's version stands for the
version CuPy was built with), and as "absent" for CuPy's optional code paths that cuarray does not have
(CUB, cuTENSOR): CuPy skips the tests of those where they are absent. cuarray itself lacks these names
(it has `cuda.runtime.is_hip` and `cuda.get_local_runtime_version`, CuPy's public names, of its own).
"""

import importlib
import importlib.abc
import importlib.machinery
import os
import sys
import types

SHIM_DIR = os.path.dirname(os.path.abspath(__file__))

# Longest prefix first: CuPy's module name prefix -> the cuarray module that holds its names.
PREFIXES = (
    ("cupy_backends.cuda.libs.nvrtc", "cuarray.cuda.nvrtc"),
    ("cupyx.scipy", "cuarray.scipy"),
    ("cupyx.profiler", "cuarray.profiler"),
    ("cupy_backends.cuda.api", "cuarray.cuda"),
    ("cupy_backends.cuda.stream", "cuarray.cuda.stream"),  # get_default_stream_ptr
    ("cupy", "cuarray"),
)

# CuPy-internal modules whose cuarray namesakes keep the same names on purpose (Note [Names, not copies]).
# cupy.fft._fft: _default_fft_func, _fft and _fftn (Note [FFT layouts] in cuarray/fft/_fft.py).
# cuarray.random._bit_generator holds the very classes cuarray.random exports (BitGenerator, XORWOW, MRG32k3a,
# Philox4x3210), as CuPy's module of that name holds the classes cupy.random exports: the tests that name the
# private path (random._bit_generator.Philox4x3210(seed=...)) get the public object.
# cuarray.random._sample's module functions call each other by module name as CuPy's do (rand calls
# random_sample, random_integers calls randint), which the tests that patch them observe.
PRIVATE = {
    "cupy.random._generator",
    "cupy.random._distributions",
    "cupy.random._sample",
    "cupy.fft._fft",
    "cupy.random._bit_generator",
}


def _compute_capability():
    import cuarray

    try:
        return cuarray.cuda.Device().compute_capability
    except cuarray.cuda.CUDARuntimeError:
        return "0"  # no device: only collection works here, and no test can run


def _nvcc_path():
    # As CuPy finds nvcc: $NVCC, else on PATH, else under $CUDA_PATH; None where there is none.
    import shutil

    cuda_path = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    return (
        os.environ.get("NVCC")
        or shutil.which("nvcc")
        or shutil.which("nvcc", path=os.path.join(cuda_path, "bin"))
    )


def _run_cc(cmd, cwd, backend, log_stream=None):
    # CuPy's helper that its tests call to build cubin and PTX files with nvcc.
    import subprocess

    log = subprocess.check_output(cmd, cwd=cwd, stderr=subprocess.STDOUT, universal_newlines=True)
    if log_stream is not None:
        log_stream.write(log)
    return log


class PerformanceWarning(RuntimeWarning):
    """CuPy's warning of a slow path (cupy._util.PerformanceWarning), which its tests filter and expect by
    name; cuarray issues none, so a test that expects one fails."""


def _runtime_version():
    import cuarray

    return cuarray.cuda.runtime.runtimeGetVersion()


# CuPy's table of the cuSOLVER version (major * 1000 + minor * 100 + patch) each routine its tests ask about
# appeared in; the rest are in every cuSOLVER that CUDA 12 ships.
_CUSOLVER_ADDED = {"geev": 11700}
_CUSOLVER_ALWAYS = (
    "gesvdj",
    "gesvdjBatched",
    "gesvda",
    "potrfBatched",
    "potrsBatched",
    "syevj",
    "gesv",
    "gels",
    "csrlsvqr",
)


def _cusolver_check_availability(name):
    # As CuPy answers on CUDA (cupyx.cusolver.check_availability), from the cuSOLVER cuarray loads.
    if name in _CUSOLVER_ALWAYS:
        return True
    if name not in _CUSOLVER_ADDED:
        raise ValueError(f"No available version information specified for {name}")
    import cuarray

    v = cuarray._core.linalg.library_versions()["cusolver"]  # major * 10000 + minor * 100 + patch
    return (v // 10000) * 1000 + (v // 100 % 100) * 100 + v % 100 >= _CUSOLVER_ADDED[name]


# Note [Platform facts]: names the shim adds to a module, as CuPy on an NVIDIA GPU has them.
FACTS = {
    "cupy.cuda": {"get_nvcc_path": _nvcc_path},
    "cupy.cuda.compiler": {"_run_cc": _run_cc, "_empty_file_preprocess_cache": {}},  # Note [Counterparts]
    "cupy.cuda.device": {"get_compute_capability": _compute_capability},
    "cupy.cuda.cub": {"available": False},  # cuarray has no CUB code path to switch to
    "cupy.cuda.cutensor": {"available": False},  # nor a cuTENSOR one
    "cupy.cuda.driver": {"get_build_version": _runtime_version, "_is_cuda_python": lambda: False},
    # CuPy's default (CUPY_EXPERIMENTAL_SLICE_COPY unset), and its warning class, which marks name.
    "cupy._util": {"ENABLE_SLICE_COPY": False, "PerformanceWarning": PerformanceWarning},
    "cupyx.cusolver": {"check_availability": _cusolver_check_availability},
    "cupy_backends.cuda.api.runtime": {"is_hip": False},
    "cupy_backends.cuda.api.driver": {"get_build_version": _runtime_version},
}

# Note [Stand-ins]: the CuPy names that cuarray lacks made since the conftest last cleared it.
TOUCHED = []

# Note [Stand-ins]: public CuPy modules that cuarray lacks and that test files import at their top.
STANDINS = {
    "cupy.cuda.driver",
    "cupy.cuda.texture",
    "cupy.cuda.cub",
    "cupy.cuda.cutensor",
    "cupy.cublas",
    "cupyx.cusolver",
    "cupyx.scipy.sparse",  # cupy.testing imports it for every comparison; used only with sp_name
    "cupyx.scipy.ndimage",  # test_savitzky_golay.py's reference filter (convolve1d)
}

# Note [Stand-ins]: names of modules cuarray has that test files read at their top; CuPy's name -> names.
MISSING = {}

# Note [Counterparts]: public CuPy modules that cuarray has in part; the names it lacks are placeholders.
PARTIAL = {"cupy.cuda.driver", "cupy_backends.cuda.api.driver"}

# Note [Counterparts]: CuPy's private name -> (cuarray module, the name of its counterpart there).
ALIASES = {
    "cupy.cuda.compiler._kernel_cache_backend": ("cuarray.cuda.compiler", "kernel_cache"),
    "cupy.cuda.compiler._get_bool_env_variable": ("cuarray.cuda.compiler", "_bool_env"),
    "cupy.cuda.compiler._get_arch": ("cuarray.cuda.compiler", "target_arch"),
    "cupy.cuda._compiler_cache.DiskKernelCacheBackend": ("cuarray.cuda.compiler", "DiskKernelCache"),
    "cupy._util.clear_memo": ("cuarray", "clear_memo"),
    "cupy._core._scalar.get_typename": ("cuarray.cuda.compiler", "get_typename"),
    "cupyx.scipy.signal._upfirdn._output_len": ("cuarray.scipy.signal._upfirdn", "_output_len"),
    "cupyx.scipy.signal._iir_filter_conversions._cplxreal": ("cuarray.scipy.signal._iir_forms", "cplxreal"),
}


def _alias(child):
    """The module and name of `child`'s counterpart (Note [Counterparts]), or None."""
    where = ALIASES.get(child)
    return None if where is None else (importlib.import_module(where[0]), where[1])


class Missing:
    """A CuPy name that cuarray lacks (Note [Stand-ins]). Reading an attribute of it or calling it gives
    another Missing, so that a module or class body that merely names it still imports; using it as a value
    (truth, iteration, comparison, numbers, `with`) raises NotImplementedError. Every Missing made is noted
    in TOUCHED, and the conftest fails a test that made one, whatever it asserts."""

    __slots__ = ("_name",)

    def __init__(self, name):
        object.__setattr__(self, "_name", name)
        TOUCHED.append(name)

    def _fail(self, *args, **kwargs):
        raise NotImplementedError(
            f"{object.__getattribute__(self, '_name')} is CuPy's; cuarray has no "
            "counterpart (a placeholder of benchmarks/cupy_suite's shim)"
        )

    __bool__ = __iter__ = __len__ = __getitem__ = __index__ = __int__ = __float__ = __enter__ = _fail
    __lt__ = __le__ = __gt__ = __ge__ = __add__ = __sub__ = __mul__ = __truediv__ = __contains__ = _fail

    def __call__(self, *args, **kwargs):
        return Missing(f"{object.__getattribute__(self, '_name')}()")

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Missing(f"{object.__getattribute__(self, '_name')}.{name}")

    def __mro_entries__(self, bases):
        # A test class deriving from a CuPy class that cuarray lacks: it is defined, and fails when made.
        name = object.__getattribute__(self, "_name")
        return (type(name.rpartition(".")[2], (_MissingBase,), {"_missing": name}),)

    @property
    def __name__(self):
        # What cupy.testing.parameterize and pytest name a parameter by: test ids then match CuPy's own.
        return object.__getattribute__(self, "_name").rpartition(".")[2]

    def __repr__(self):
        return f"<missing {object.__getattribute__(self, '_name')}>"


class _MissingBase:
    def __new__(cls, *args, **kwargs):
        Missing(cls._missing)._fail()


class Standin(types.ModuleType):
    """A CuPy module that cuarray lacks: its facts, and Missing for any other name (Note [Stand-ins])."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        child = f"{self.__name__}.{name}"
        alias = _alias(child)
        if alias is not None:
            return getattr(*alias)
        if any(child == prefix for prefix, _ in PREFIXES):  # a module cuarray has, below a CuPy internal one
            return importlib.import_module(child)
        return Missing(child)


class Forwarding(types.ModuleType):
    """A module whose missing attributes are read from, and whose attributes are written to, `_target`."""

    def __getattr__(self, name):
        target = self.__dict__["_target"]
        alias = _alias(f"{self.__name__}.{name}")
        if alias is not None:
            return getattr(*alias)
        try:
            value = getattr(target, name)
        except AttributeError:
            child = f"{self.__name__}.{name}"
            own = os.path.join(SHIM_DIR, *child.split("."))
            if (
                child in STANDINS
                or child in FACTS
                or os.path.exists(own)
                or os.path.exists(own + ".py")
                or any(a.startswith(child + ".") for a in ALIASES)  # a CuPy module holding a counterpart
            ):
                return importlib.import_module(child)
            if (
                self.__name__ in PARTIAL or name in MISSING.get(self.__name__, ()) or name.startswith("_")
            ) and not name.startswith("__"):
                return Missing(child)  # a public name cuarray lacks, or a CuPy-private helper
            raise AttributeError(
                f"module '{self.__name__}' has no attribute '{name}' (cuarray's '{target.__name__}' has none)"
            ) from None
        if isinstance(value, types.ModuleType) and value.__name__.startswith(target.__name__ + "."):
            # A submodule: the forwarding module of the same CuPy name (which importlib then binds here).
            try:
                return importlib.import_module(self.__name__ + value.__name__[len(target.__name__) :])
            except ImportError as e:
                raise AttributeError(f"module '{self.__name__}' has no attribute '{name}' ({e})") from None
        return value

    def __setattr__(self, name, value):
        # importlib binds submodules and sets dunders on the module itself, and a fact stays the shim's
        # (a test may patch one); everything else is a test changing state, which must reach cuarray.
        alias = _alias(f"{self.__name__}.{name}")
        if alias is not None:
            setattr(*alias, value)
        elif (
            name.startswith("__")
            or name in self.__dict__
            or (isinstance(value, types.ModuleType) and value.__name__.startswith(self.__name__ + "."))
        ):
            self.__dict__[name] = value
        else:
            setattr(self.__dict__["_target"], name, value)

    def __delattr__(self, name):
        alias = _alias(f"{self.__name__}.{name}")
        if alias is not None:
            delattr(*alias)
        elif name in self.__dict__:
            del self.__dict__[name]
        else:
            delattr(self.__dict__["_target"], name)

    def __dir__(self):
        return sorted(set(self.__dict__) | set(dir(self.__dict__["_target"])))


def forward(module, target_name):
    """Makes `module` (a shim package's own module object) forward to cuarray's `target_name`."""
    module.__class__ = Forwarding
    module.__dict__["_target"] = importlib.import_module(target_name)
    module.__dict__.update(FACTS.get(module.__name__, {}))


def _target_for(fullname):
    for prefix, target in PREFIXES:
        if fullname == prefix or fullname.startswith(prefix + "."):
            return target + fullname[len(prefix) :]
    return None


def _resolve(target_name):
    """cuarray's module `target_name`, or a module reached by attributes (cuarray.exceptions is numpy's)."""
    try:
        return importlib.import_module(target_name)
    except ModuleNotFoundError:
        parent, _, last = target_name.rpartition(".")
        try:
            value = getattr(importlib.import_module(parent), last)
        except (ImportError, AttributeError):
            return None
        return value if isinstance(value, types.ModuleType) else None


class _Loader(importlib.abc.Loader):
    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        module = Forwarding(spec.name)
        module.__dict__["_target"] = self.target
        module.__dict__.update(FACTS.get(spec.name, {}))
        return module

    def exec_module(self, module):
        pass


class _StandinLoader(importlib.abc.Loader):
    def create_module(self, spec):
        module = Standin(
            spec.name,
            f"Stand-in for CuPy's {spec.name}, which cuarray lacks "
            "(Note [Stand-ins] in _cupy_suite_alias.py).",
        )
        module.__dict__.update(FACTS.get(spec.name, {}))
        return module

    def exec_module(self, module):
        pass


class Finder(importlib.abc.MetaPathFinder):
    """Resolves `cupy.*` names that no file under SHIM_DIR provides to forwarding modules or stand-ins."""

    def find_spec(self, fullname, path=None, target=None):
        root = fullname.partition(".")[0]
        if root not in ("cupy", "cupyx", "cupy_backends"):
            return None
        own = os.path.join(SHIM_DIR, *fullname.split("."))
        if os.path.isdir(own) or os.path.exists(own + ".py"):
            return None  # a file of the shim: the ordinary path finder loads it
        target_name = _target_for(fullname)
        private = fullname not in PRIVATE and any(part.startswith("_") for part in fullname.split("."))
        module = None if private or target_name is None else _resolve(target_name)
        if module is None and (fullname in STANDINS or private or root == "cupy_backends"):
            # Note [Names, not copies], Note [Stand-ins]: CuPy internals, and modules cuarray lacks.
            return importlib.machinery.ModuleSpec(fullname, _StandinLoader(), is_package=True)
        if module is None:
            return None
        spec = importlib.machinery.ModuleSpec(fullname, _Loader(module), is_package=True)
        # Shim files below a forwarding package (cupy/cuda/...) are found through its path.
        spec.submodule_search_locations = [own] if os.path.isdir(own) else []
        return spec


def install():
    if not any(isinstance(f, Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, Finder())
