"""Calls every function NumPy and cuarray share (top level, linalg, fft), every method of the array and every
operator on a grid of inputs, on a GPU, and lists where cuarray's answer differs from NumPy's.

    python tests/namespace_sweep.py [-j 16] [--only name,...] [--out sweep.json]

The grid: twelve dtypes (bool to complex128) holding NaN, infinities, -0.0 and negative values; eight layouts
(C and F order, negative strides, 0-d, empty, a length-1 axis, 1-D, 3-D) on both sides alike; and eleven
argument patterns (f(a), f(a, b), f(a, axis=...), f(a, 2), f(a, 2.5), ...), many of them wrong on purpose. A
method is called on the first argument (ndarray.sum: a.sum(...)), an operator on the arguments in order
(operator.add: a + b, a + 2) and reflected (operator.radd: 2 + a).
Each call is compared for values (to a dtype's tolerance), NaN and infinity positions, dtype and shape, the
exception's type, whether the result is a view of an argument where NumPy's is not (or the reverse), and
whether an argument was written where NumPy's was not. The findings go to --out by function, and a summary by
kind is printed:
- silent: a value, NaN position, dtype or shape differs, a view where NumPy copies, an argument written;
- accepts: NumPy raises and cuarray returns;
- raises: cuarray raises where NumPy returns;
- error type: both raise, with exceptions of unrelated types.
Not every finding is a defect: the order of equal keys in an unstable sort, which of several NaNs a reduction
returns, a function whose result NumPy leaves unspecified (argpartition), FFTs and linalg on NaN or infinity
(docs/numerical-differences.md), and the documented differences (docs/behaviour.md) all show up; read each.
Workers are processes, given every j-th function; a function's calls stop after 60 seconds, and workers still
running after --minutes are stopped (the function they were in is reported as not finished).
"""

import argparse
import builtins
import cmath
import collections
import json
import operator
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

DTYPES = [
    "bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16", "float32", "float64", "complex64",
    "complex128",
]  # fmt: skip
FULL_LAYOUTS = ("float64", "int32", "complex128", "bool")  # the dtypes tried in every layout; the rest in two
# fmt: off
VALUES = np.array([0.5, -2.5, 3.0, np.nan, -0.0, 7.25, np.inf, -1.0, 2.0, -np.inf, 100.0, 1.0, -3.5, 0.0, 4.0, 9.5,
                   -6.0, 1.5, 2.5, -7.0, 8.0, 0.25, 3.5, -0.5])
# Functions that read or write files, take callables, set global state, or answer about types rather than data.
SKIP = {
    "save", "savez", "savez_compressed", "savetxt", "load", "loadtxt", "genfromtxt", "fromfile", "fromregex",
    "frombuffer", "fromstring", "fromiter", "fromfunction", "vectorize", "apply_along_axis", "apply_over_axes",
    "piecewise", "set_printoptions", "get_printoptions", "printoptions", "seterr", "geterr", "errstate",
    "show_config", "show_runtime", "test", "info", "may_share_memory", "shares_memory", "empty", "empty_like",
    "format_float_positional", "format_float_scientific", "array_repr", "array_str", "array2string", "base_repr",
    "binary_repr", "typename", "require", "get_include", "iterable", "isscalar", "ndim", "shape", "size",
    "result_type", "can_cast", "promote_types", "min_scalar_type", "common_type", "mintypecode", "issubdtype",
    "isdtype", "finfo", "iinfo", "from_dlpack",
}
# Methods that write files, pickle, or change flags and fields rather than compute.
METHOD_SKIP = {"dump", "dumps", "tofile", "setflags", "getfield", "setfield", "resize", "to_device"}
OPERATORS = (
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and_", "or_", "xor", "lshift", "rshift",
    "lt", "le", "eq", "ne", "gt", "ge", "neg", "pos", "abs", "invert", "divmod", "iadd", "isub", "imul",
    "itruediv", "ifloordiv", "imod", "ipow", "imatmul", "iand", "ior", "ixor", "ilshift", "irshift",
)
# fmt: on
TOLERANCE = {"float16": 2e-3, "float32": 2e-5, "complex64": 2e-5}


def _values(dtype, n, shift):
    v = np.resize(np.roll(VALUES, shift), n)
    if dtype == "bool":
        return np.nan_to_num(v) > 0.7
    kind = np.dtype(dtype).kind
    if kind in "iu":
        v = np.nan_to_num(v, posinf=5, neginf=-5).astype(np.int64)
        return (np.abs(v) if kind == "u" else v).astype(dtype)
    return (v + 1j * np.roll(v, 3) if kind == "c" else v).astype(dtype)


def _layout(xp, dtype, name, shift):
    def v(n):
        return xp.asarray(_values(dtype, n, shift))

    return {
        "c2": lambda: v(12).reshape(3, 4),
        "f2": lambda: xp.asfortranarray(v(12).reshape(3, 4)),
        "neg": lambda: v(24).reshape(4, 6)[::-1, ::-2],
        "0d": lambda: v(1).reshape(()),
        "empty": lambda: v(0).reshape(0, 3),
        "s1": lambda: v(3).reshape(3, 1),
        "1d": lambda: v(5),
        "3d": lambda: v(24).reshape(2, 3, 4),
    }[name]()


def _cases():
    """(label, args(xp), kwargs): each call builds fresh arguments, since a function may write into them."""
    for dtype in DTYPES:
        names = (
            ("c2", "f2", "neg", "0d", "empty", "s1", "1d", "3d") if dtype in FULL_LAYOUTS else ("c2", "neg")
        )
        for name in names:

            def a(xp, dtype=dtype, name=name):
                return _layout(xp, dtype, name, 0)

            def b(xp, dtype=dtype, name=name):
                return _layout(xp, dtype, name, 5)

            label = f"{dtype}/{name}"
            yield f"{label} f(a)", lambda xp, a=a: (a(xp),), {}
            yield f"{label} f(a,b)", lambda xp, a=a, b=b: (a(xp), b(xp)), {}
            for axis in (0, -1, None):
                yield f"{label} f(a,axis={axis})", lambda xp, a=a: (a(xp),), {"axis": axis}
            yield f"{label} f(a,keepdims)", lambda xp, a=a: (a(xp),), {"keepdims": True}
            for k in (2, 2.5):
                yield f"{label} f(a,{k})", lambda xp, a=a, k=k: (a(xp), k), {}
            if name == "c2":
                yield f"{label} f(a,b_row)", lambda xp, a=a, b=b: (a(xp), b(xp)[0]), {}
                yield f"{label} f(a,-1)", lambda xp, a=a: (a(xp), -1), {}
                yield f"{label} f(a,(1,2))", lambda xp, a=a: (a(xp), (1, 2)), {}
                yield f"{label} f(a,b,c)", lambda xp, a=a, b=b: (a(xp), b(xp), b(xp)[::-1]), {}


def _flat(r):
    if isinstance(r, (tuple, list)):
        return [x for item in r for x in _flat(item)]
    return [r]


def _compare(n, c, cp):
    ns, cs = _flat(n), _flat(c)
    if len(ns) != len(cs):
        return f"{len(ns)} results vs {len(cs)}"
    for i, (a, b) in enumerate(zip(ns, cs)):
        if not isinstance(a, (np.ndarray, np.generic)) and not isinstance(b, cp.ndarray):
            both_nan = (
                isinstance(a, (float, complex)) and type(a) is type(b) and cmath.isnan(a) and cmath.isnan(b)
            )
            if type(a) is not type(b) or (a != b and not both_nan):
                return f"[{i}] {a!r} vs {b!r}"
            continue
        a, b = np.asarray(a), (b.get() if isinstance(b, cp.ndarray) else np.asarray(b))
        if a.dtype != b.dtype or a.shape != b.shape:
            return f"[{i}] {a.dtype}{a.shape} vs {b.dtype}{b.shape}"
        if a.dtype.kind in "fc":
            nan_a, nan_b, inf_a, inf_b = np.isnan(a), np.isnan(b), np.isinf(a), np.isinf(b)
            if not np.array_equal(nan_a, nan_b):
                return f"[{i}] NaN positions differ"
            if not np.array_equal(inf_a, inf_b) or not np.array_equal(a[inf_a], b[inf_b], equal_nan=True):
                return f"[{i}] infinities differ"
            ok, tol = ~(nan_a | inf_a), TOLERANCE.get(a.dtype.name, 1e-11)
            if not np.allclose(a[ok], b[ok], rtol=tol, atol=tol):
                return f"[{i}] values differ"
        elif a.dtype.kind in "biuSUV" and not np.array_equal(a, b):
            return f"[{i}] values differ"
    return None


def _views(n, c, n_args, c_args, cp):
    found = []
    for i, (a, b) in enumerate(zip(_flat(n), _flat(c))):
        if isinstance(a, np.ndarray) and isinstance(b, cp.ndarray) and a.size:
            for k, (x, y) in enumerate(zip(n_args, c_args)):
                if isinstance(x, np.ndarray) and isinstance(y, cp.ndarray) and x.size:
                    on_host, on_device = np.shares_memory(a, x), bool(cp.shares_memory(b, y))
                    if on_device and not on_host:
                        found.append(f"[{i}] a view of argument {k} where NumPy copies")
                    elif on_host and not on_device:
                        found.append(f"[{i}] a copy of argument {k} where NumPy's is a view")
    return found


def _call(f, args, kw, cp):
    try:
        r = f(*args, **kw)
        if isinstance(r, cp.ndarray):
            r.get()
        return r, None
    except TimeoutError:
        raise
    except Exception as e:  # noqa: BLE001  (any exception is an answer to compare)
        return None, e


def _check(fn, fc, make, kw, cp):
    n_args, c_args = list(make(np)), list(make(cp))
    before = [x.copy() if isinstance(x, np.ndarray) else None for x in n_args]
    n, n_err = _call(fn, n_args, kw, cp)
    c, c_err = _call(fc, c_args, kw, cp)
    if n_err is not None and c_err is None:
        return f"accepts: NumPy raises {type(n_err).__name__}({str(n_err)[:80]}), cuarray returns"
    if n_err is None and c_err is not None:
        return f"raises: cuarray raises {type(c_err).__name__}({str(c_err)[:120]})"
    if n_err is not None:
        if isinstance(c_err, type(n_err)) or isinstance(n_err, type(c_err)):
            return None
        return f"error type: NumPy {type(n_err).__name__}({str(n_err)[:60]}), cuarray {type(c_err).__name__}({str(c_err)[:80]})"
    found = [m for m in [_compare(n, c, cp)] if m] + _views(n, c, n_args, c_args, cp)
    for k, (x, y, old) in enumerate(zip(n_args, c_args, before)):
        if old is not None and isinstance(y, cp.ndarray):
            nan = x.dtype.kind in "fc"
            written = (
                not np.array_equal(x, old, equal_nan=nan),
                not np.array_equal(y.get(), old, equal_nan=nan),
            )
            if written[0] != written[1]:
                found.append(f"argument {k} written: NumPy {written[0]}, cuarray {written[1]}")
    return "silent: " + "; ".join(found) if found else None


def _method(name):
    def call(self, *args, **kwargs):
        return getattr(self, name)(*args, **kwargs)

    return call


def _reflected(op):
    def call(a, *args, **kwargs):
        return op(*args, a, **kwargs) if args else op(a, **kwargs)

    return call


def _functions(cp):
    for prefix, host, device in (("", np, cp), ("linalg.", np.linalg, cp.linalg), ("fft.", np.fft, cp.fft)):
        for name in sorted(dir(host)):
            f = getattr(host, name, None)
            if name.startswith("_") or name in SKIP or not hasattr(device, name) or not callable(f):
                continue
            if not isinstance(f, type):  # classes (dtypes, ndarray) are not functions
                yield prefix + name, f, getattr(device, name)
    # The array's methods, called on the first argument, and the operators, on both sides of a number.
    for name in sorted(dir(np.ndarray)):
        if not name.startswith("_") and name not in METHOD_SKIP and callable(getattr(cp.ndarray, name, None)):
            yield "ndarray." + name, _method(name), _method(name)
    for name in OPERATORS:
        op = getattr(operator, name) if hasattr(operator, name) else getattr(builtins, name)
        yield "operator." + name, op, op
        if name not in ("neg", "pos", "abs", "invert") and not name.startswith("i"):
            yield "operator.r" + name.rstrip("_"), _reflected(op), _reflected(op)


def _on_alarm(*_):
    raise TimeoutError


def worker(index, count, only, out):
    import cuarray as cp

    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    signal.signal(signal.SIGALRM, _on_alarm)
    found = {}
    for i, (name, fn, fc) in enumerate(_functions(cp)):
        if i % count != index or (
            only and not any(name == o or o.endswith(".") and name.startswith(o) for o in only)
        ):
            continue
        # Marked before it starts: a call the alarm cannot stop (NumPy's LAPACK on NaN can spin) leaves the mark.
        found[name] = ["all calls: not finished when the worker was stopped"]
        Path(out).write_text(json.dumps(found))
        rows = []
        signal.alarm(60)
        try:
            for label, make, kw in _cases():
                try:
                    m = _check(fn, fc, make, kw, cp)
                except TimeoutError:
                    raise
                except Exception as e:  # noqa: BLE001  (a failure of the comparison itself, reported)
                    m = f"sweep error: {type(e).__name__}: {str(e)[:80]}"
                if m:
                    rows.append(f"{label}: {m}")
        except TimeoutError:
            rows.append("all calls: timeout: 60 s")
        signal.alarm(0)
        found[name] = rows
        Path(out).write_text(json.dumps(found))  # after every function: a killed worker keeps what it did


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-j", type=int, default=8, help="worker processes")
    p.add_argument(
        "--only",
        default="",
        help="comma-separated names (linalg.norm, ndarray.sum, operator.radd), or prefixes (ndarray.)",
    )
    p.add_argument("--out", default="namespace_sweep.json")
    p.add_argument("--minutes", type=float, default=10, help="after this, workers still running are stopped")
    p.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args()
    only = set(filter(None, args.only.split(",")))
    if args.worker:
        return worker(int(args.worker[0]), int(args.worker[1]), only, args.worker[2])
    with tempfile.TemporaryDirectory() as tmp:
        parts = [Path(tmp) / f"{i}.json" for i in range(args.j)]
        cmd = [sys.executable, __file__, "--only", args.only]
        procs = [
            subprocess.Popen(cmd + ["--worker", str(i), str(args.j), str(part)])
            for i, part in enumerate(parts)
        ]
        deadline = time.monotonic() + 60 * args.minutes
        for proc in procs:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        found = {}
        for part in parts:
            found.update(json.loads(part.read_text()) if part.exists() else {})
    Path(args.out).write_text(json.dumps({k: v for k, v in sorted(found.items()) if v}, indent=1))
    kinds = collections.defaultdict(lambda: collections.defaultdict(int))
    for name, rows in found.items():
        for row in rows:
            kinds[row.split(": ", 2)[1]][name] += 1
    print(
        f"{len(found)} functions, {sum(1 for v in found.values() if v)} with findings (details: {args.out})"
    )
    for kind, names in sorted(kinds.items()):
        print(f"{kind}: {sum(names.values())} calls in {len(names)} functions: " + ", ".join(sorted(names)))


if __name__ == "__main__":
    main()
