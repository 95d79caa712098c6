"""CuPy's and cupyx's small helpers: who, the error modes (seterr, geterr, errstate), allow_synchronize, rsqrt and
the scatter operations."""

import contextlib
import contextvars
import sys
import types

__all__ = [
    "allow_synchronize",
    "errstate",
    "geterr",
    "rsqrt",
    "scatter_add",
    "scatter_max",
    "scatter_min",
    "seterr",
    "who",
]


def who(vardict=None):
    """Prints the name, shape, bytes and dtype of every cuarray array in `vardict` (default: the caller's
    globals), as CuPy's (and NumPy 1's) who do; an array under several names counts once in the total."""
    from cuarray._ndarray import ndarray

    if vardict is None:
        vardict = sys._getframe(1).f_globals
    rows, first_name, total = [], {}, 0
    for name in sorted(vardict):
        var = vardict[name]
        if not isinstance(var, ndarray):
            continue
        if id(var) in first_name:
            label = f"{name} ({first_name[id(var)]})"
        else:
            first_name[id(var)] = label = name
            total += var.nbytes
        rows.append((label, " x ".join(map(str, var.shape)), str(var.nbytes), var.dtype.name))
    if rows:
        widths = [max(10, *(len(r[i]) for r in rows)) for i in range(3)]
        header = "Name {} Shape {} Bytes {} Type".format(*(" " * w for w in widths))
        print(f"{header}\n{'=' * (len(header) + 5)}\n")
        for label, shape, nbytes, dtype in rows:
            print(
                f"{label} {' ' * (widths[0] - len(label) + 4)} {shape} {' ' * (widths[1] - len(shape) + 5)} "
                f"{nbytes} {' ' * (widths[2] - len(nbytes) + 5)} {dtype}"
            )
    print(f"\nUpper bound on total bytes  =       {total}")


_ERR_VALUES = ("ignore", "warn", "raise", "call", "print", "log")
_FP_ERRORS = ("divide", "over", "under", "invalid")

# Note [Error modes]
# NumPy's floating-point error modes (and cupyx's `linalg` one) as seterr, geterr and errstate set and read
# them, per thread and context as NumPy keeps its own (a ContextVar). They are recorded and reported only:
# GPU elementwise operations raise no flags, so they give NumPy's values (inf, NaN) without its warnings
# whatever the modes, as CuPy's do; linalg errors raise LinAlgError where NumPy's do.
_MODES = contextvars.ContextVar(
    "cuarray_error_modes",
    default=types.MappingProxyType(
        {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn", "linalg": "ignore"}
    ),
)


def geterr():
    """NumPy's geterr: the floating-point error modes seterr and errstate set (Note [Error modes])."""
    return {k: v for k, v in _MODES.get().items() if k != "linalg"}


def seterr(all=None, divide=None, over=None, under=None, invalid=None, *, linalg=None):
    """NumPy's seterr (and cupyx's `linalg`): sets the error modes given, `all` for the four floating-point
    ones not named, and returns the old floating-point modes (Note [Error modes])."""
    old = geterr()
    _MODES.set(_modes(all, {"divide": divide, "over": over, "under": under, "invalid": invalid}, linalg))
    return old


def _modes(all, given, linalg, who=None):
    """The current modes with `given` (and `all`, `linalg`) applied, checked with NumPy's error (errstate:
    naming itself)."""
    new = dict(_MODES.get())
    for name in _FP_ERRORS:
        mode = given[name] if given[name] is not None else all
        if mode is None:
            continue
        if mode not in _ERR_VALUES:
            if who is None:
                raise ValueError(f"invalid error mode {mode!r}")
            raise ValueError(
                f"invalid value {mode!r} for {who}'s {name}: expected one of {', '.join(map(repr, _ERR_VALUES))} "
                "or None"
            )
        new[name] = mode
    if linalg is not None:
        if linalg not in ("ignore", "raise"):
            raise ValueError(f"linalg must be 'ignore', 'raise' or None, got {linalg!r}")
        new["linalg"] = linalg
    return new


class errstate(contextlib.ContextDecorator):  # NumPy's and cupyx's name
    """NumPy's errstate (all, divide, over, under, invalid, call) and cupyx's `linalg`: the error modes given,
    while the block runs (Note [Error modes]). Usable as a context manager or a decorator."""

    def __init__(self, *, call=None, all=None, divide=None, over=None, under=None, invalid=None, linalg=None):
        given = {"divide": divide, "over": over, "under": under, "invalid": invalid}
        _modes(all, given, linalg, "errstate")  # bad modes raise here (NumPy's errstate: when entered)
        if call is not None and not callable(call) and not hasattr(call, "write"):
            raise ValueError("call must be a callable or an object with a write method")
        self.call = call
        self._settings = (all, given, linalg)
        self.kwargs = {k: v for k, v in (("all", all), *given.items(), ("linalg", linalg)) if v is not None}
        self._tokens = []

    def __enter__(self):
        self._tokens.append(_MODES.set(_modes(*self._settings)))
        return self

    def __exit__(self, *exc):
        _MODES.reset(self._tokens.pop())
        return False


@contextlib.contextmanager
def allow_synchronize(allow):
    """cupyx.allow_synchronize: accepted for compatibility, and checked to be a bool; synchronizations are not
    detected (every one is allowed)."""
    if not isinstance(allow, bool):
        raise TypeError(f"allow must be a bool, got {type(allow).__name__}")
    yield


def rsqrt(x, out=None, dtype=None):
    """cupyx.rsqrt: the reciprocal square root, 1 / sqrt(x), of each element, in sqrt's result type, computed
    as ``reciprocal(sqrt(x))``: within an ulp or two of CUDA's rsqrt, which CuPy calls."""
    from cuarray import _ufuncs

    return _ufuncs.reciprocal(_ufuncs.sqrt(x, dtype=dtype), out=out)


def scatter_add(a, slices, value):
    """cupyx.scatter_add: adds `value` (broadcast, cast to a's dtype) into ``a[slices]`` in place, each
    repeated index once per occurrence: ``add.at`` (Note [ufunc.at])."""
    _scatter("add", a, slices, value)


def scatter_max(a, slices, value):
    """cupyx.scatter_max: ``a[slices]`` becomes its maximum with `value` in place, every occurrence of a
    repeated index counting: ``maximum.at``."""
    _scatter("maximum", a, slices, value)


def scatter_min(a, slices, value):
    """cupyx.scatter_min: ``a[slices]`` becomes its minimum with `value` in place, every occurrence of a
    repeated index counting: ``minimum.at``."""
    _scatter("minimum", a, slices, value)


def _scatter(name, a, slices, value):
    from cuarray import _ufuncs
    from cuarray._core import ndarray
    from cuarray._transfer import asarray

    if not isinstance(a, ndarray):
        op = name.replace("imum", "")
        raise TypeError(f"scatter_{op}: the array must be cuarray.ndarray, not {type(a).__name__}")
    value = asarray(value)
    if value.dtype != a.dtype:  # CuPy casts the values to the array's type
        value = value.astype(a.dtype)
    getattr(_ufuncs, name).at(a, slices, value)
