"""CuPy's and cupyx's small helpers: who, errstate, allow_synchronize and the scatter operations."""

import contextlib
import sys

__all__ = ["allow_synchronize", "errstate", "rsqrt", "scatter_add", "scatter_max", "scatter_min", "who"]


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


class errstate(contextlib.ContextDecorator):  # NumPy's and cupyx's name
    """Accepts numpy.errstate's keywords (all, divide, over, under, invalid, call) and cupyx's `linalg`, and
    checks them; it changes nothing. Floating-point errors on the GPU raise no flags, so elementwise results are
    NumPy's values (inf, NaN) without its warnings, as in CuPy; linalg errors raise LinAlgError where NumPy's
    do. Usable as a context manager or a decorator."""

    def __init__(self, *, call=None, all=None, divide=None, over=None, under=None, invalid=None, linalg=None):
        for name, value in (
            ("all", all),
            ("divide", divide),
            ("over", over),
            ("under", under),
            ("invalid", invalid),
        ):
            if value is not None and value not in _ERR_VALUES:
                raise ValueError(
                    f"invalid value {value!r} for errstate's {name}: expected one of "
                    f"{', '.join(map(repr, _ERR_VALUES))} or None"
                )
        if linalg is not None and linalg not in ("ignore", "raise"):
            raise ValueError(f"linalg must be 'ignore', 'raise' or None, got {linalg!r}")
        if call is not None and not callable(call) and not hasattr(call, "write"):
            raise ValueError("call must be a callable or an object with a write method")
        self.call = call
        self.kwargs = {
            k: v
            for k, v in (
                ("all", all),
                ("divide", divide),
                ("over", over),
                ("under", under),
                ("invalid", invalid),
                ("linalg", linalg),
            )
            if v is not None
        }

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@contextlib.contextmanager
def allow_synchronize(allow):
    """cupyx.allow_synchronize: accepted for compatibility, and checked to be a bool; synchronizations are not
    detected (every one is allowed)."""
    if not isinstance(allow, bool):
        raise TypeError(f"allow must be a bool, got {type(allow).__name__}")
    yield


def rsqrt(x, out=None, dtype=None):
    """cupyx.rsqrt: the reciprocal square root, 1 / sqrt(x), of each element (sqrt's types: integers give
    float64), computed as ``reciprocal(sqrt(x))``, so within an ulp or two of CUDA's rsqrt that CuPy calls."""
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
