"""Drawing programs for tests/program_fuzz.py: inputs (every dtype, 0-d, zero-size and length-1 axes, strided,
reversed and transposed views of literal bases, special values) and steps chosen from the NumPy values that
the program holds at that point, so that most steps are valid and some are the error cases.

Values stay where float results are well conditioned (multiples of 1/8 in [-30, 30], or random numbers in
[-10, 10]) unless an input is drawn with special values (NaN, infinities, -0.0, the largest, smallest and
subnormal numbers, integer extremes).

Not drawn, on purpose (cuarray's behaviour there is not compared by this fuzzer):
- writes into NumPy's read-only arrays (broadcast_to and the like): cuarray arrays have no read-only flag;
- full integer indexing without `.copy()`: NumPy gives a scalar copy, cuarray (as CuPy) a 0-d view;
- unstable argsort (NumPy's default kind orders equal elements arbitrarily; only kind="stable" is drawn);
- complex transcendental functions of non-finite numbers (C99 Annex G special cases);
- out=, dtype=, where= arguments of ufuncs and reductions other than out= naming the operand in place;
- floating-point warnings (the GPU raises none);
- bfloat16, object and string dtypes; fusion, streams, user kernels, random, linalg, fft (tested elsewhere);
- in tests/program_fuzz.py: NumPy scalars against cuarray's 0-d arrays (values compared), float16 reductions
  against a float64 reference, reductions and products within the error bounds of another order, orders of
  overflow in products, an integer raised to a negative power (NumPy raises, cuarray cannot from a kernel).
"""

import math
import warnings

import numpy as np
from conftest import ALL_DTYPES
from hypothesis import strategies as st
from program_fuzz import Step, array_literal, scalar_source

DTYPES = ALL_DTYPES
MAX_INPUT_SIZE = 48

# ---------------------------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------------------------


def _specials(dt):
    if dt.kind == "b":
        return [True, False]
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return [info.min, info.max, 0, 1, info.max - 1] + ([-1, info.min + 1] if dt.kind == "i" else [])
    f = np.finfo(dt.char.lower() if dt.kind == "c" else dt)
    large = {2: 1e4, 4: 1e30, 8: 1e300}[f.bits // 8]
    reals = [
        np.nan,
        np.inf,
        -np.inf,
        -0.0,
        0.0,
        float(f.max),
        -float(f.max),
        float(f.tiny),
        float(f.smallest_subnormal),
        large,
        -large,
        1 / 3,
    ]
    if dt.kind == "c":
        return [complex(a, b) for a in reals for b in (0.0, -0.0, 1.0, np.nan, np.inf, -2.5)]
    return reals


def values(shape, dt, seed, regime):
    """NumPy data of shape and dtype: regime 'small' (exact small numbers), 'random' (full precision) or
    'special' (small numbers with a third of the elements special)."""
    rng = np.random.default_rng(seed)
    if dt.kind == "b":
        a = rng.random(shape) < 0.5
    elif dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -60
        a = rng.integers(lo, 60, size=shape)
    else:

        def real():
            if regime == "random":
                return rng.uniform(-10, 10, size=shape)
            return np.round(rng.uniform(-30, 30, size=shape) * 8) / 8

        a = real() + 1j * real() if dt.kind == "c" else real()
    a = np.asarray(a).astype(dt)
    if regime == "special" and a.size:
        sp = _specials(dt)
        for i in np.flatnonzero(rng.random(a.size) < 0.35):
            a.flat[i] = sp[rng.integers(len(sp))]
    return a


# ---------------------------------------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------------------------------------


def _shape(draw, ndim=None):
    ndim = draw(st.integers(0, 4)) if ndim is None else ndim
    dims = [draw(st.sampled_from([1, 2, 3, 4, 5, 0, 1, 2, 3])) for _ in range(ndim)]
    while math.prod(dims) > MAX_INPUT_SIZE:
        dims[dims.index(max(dims))] -= 1
    return tuple(dims)


def _slice_source(start, stop, step):
    s = f"{'' if start is None else start}:{'' if stop is None else stop}"
    return s if step == 1 else f"{s}:{step}"


def input_steps(draw, index, related_shape=None):
    """Steps binding `b<index>` (a literal base) and, where a view is drawn, `x<index>` (the view)."""
    if related_shape is not None and draw(st.booleans()):
        # Broadcasts against the first input: trailing axes of its shape, some set to 1.
        keep = draw(st.integers(0, len(related_shape)))
        shape = tuple(
            1 if draw(st.integers(0, 2)) == 0 else n for n in related_shape[len(related_shape) - keep :]
        )
    else:
        shape = _shape(draw)
    dt = draw(st.sampled_from(DTYPES))
    regime = draw(st.sampled_from(["small", "small", "random", "special"]))
    seed = draw(st.integers(0, 2**16))
    steps_, slices, base_shape = [], [], []
    for n in shape:
        step = draw(st.sampled_from([1, 1, 1, 2, -1, -2, 3]))
        off = draw(st.sampled_from([0, 0, 1]))
        extra = draw(st.sampled_from([0, 0, 1]))
        length = off + max(n - 1, 0) * abs(step) + (1 if n else 0) + extra
        if step > 0:
            start = off
            stop = off + (n - 1) * step + 1 if n else off
        else:
            start = length - 1 - off
            stop = start - (n - 1) * abs(step) - 1 if n else start
            stop = None if stop < 0 else stop
        base_shape.append(length)
        slices.append((start, stop, step))
    perm = None
    if len(shape) > 1 and draw(st.integers(0, 2)) == 0:
        perm = tuple(draw(st.permutations(range(len(shape)))))
    if perm is not None:  # the base holds the axes in the order that the transpose undoes
        inv = np.argsort(perm)
        base_shape = [base_shape[i] for i in inv]
        slices = [slices[i] for i in inv]
    base = values(tuple(base_shape), dt, seed, regime)
    b, x = f"b{index}", f"x{index}"
    steps_.append(Step(f"{b} = xp.asarray({array_literal(base)})", target=b))
    trivial = all(st_ == 0 and sp == n and step == 1 for (st_, sp, step), n in zip(slices, base_shape))
    if trivial and perm is None:
        return steps_, b
    view = b
    if not trivial:
        view += "[" + ", ".join(_slice_source(*s) for s in slices) + "]"
    if perm is not None:
        view += ".T" if list(perm) == list(range(len(perm)))[::-1] else f".transpose{perm}"
    steps_.append(Step(f"{x} = {view}", target=x))
    return steps_, x


# ---------------------------------------------------------------------------------------------------------
# Steps
# ---------------------------------------------------------------------------------------------------------

UNARY_EXACT = [
    "negative",
    "positive",
    "absolute",
    "fabs",
    "sign",
    "square",
    "reciprocal",
    "conjugate",
    "sqrt",
    "floor",
    "ceil",
    "trunc",
    "rint",
    "isnan",
    "isinf",
    "isfinite",
    "signbit",
    "logical_not",
    "invert",
    "spacing",
]
COMPLEX_INEXACT = {
    "absolute",
    "sign",
    "square",
    "reciprocal",
    "sqrt",
    "multiply",
    "divide",
    "power",
    "float_power",
}
UNARY_FUNCS = [
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "cbrt",
    "degrees",
]
PERIODIC = {"sin", "cos", "tan"}
# KNOWN DIFFERENCE: which zero fmax and fmin return for -0.0 against 0.0 is NumPy's loop's choice, and its
# loops differ: a scalar or an array's first elements go through C's fmax (the first argument), the rest
# through SIMD code (the second), by the length, the dtype and the CPU (docs/numerical-differences.md). Their
# zeros are compared without sign.
ZERO_SIGN_FREE = {"fmax", "fmin"}
UNARY_OPERATORS = {"negative": "-{}", "positive": "+{}", "absolute": "abs({})", "invert": "~{}"}
BINARY_EXACT = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "remainder",
    "fmod",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "left_shift",
    "right_shift",
    "copysign",
    "nextafter",
    "heaviside",
    "gcd",
    "lcm",
    "power",
]
BINARY_FUNCS = ["float_power", "arctan2", "hypot", "logaddexp", "logaddexp2"]
BINARY_OPERATORS = {
    "add": "+",
    "subtract": "-",
    "multiply": "*",
    "divide": "/",
    "floor_divide": "//",
    "remainder": "%",
    "power": "**",
    "bitwise_and": "&",
    "bitwise_or": "|",
    "bitwise_xor": "^",
    "left_shift": "<<",
    "right_shift": ">>",
    "equal": "==",
    "not_equal": "!=",
    "less": "<",
    "less_equal": "<=",
    "greater": ">",
    "greater_equal": ">=",
}
INPLACE_OPS = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "remainder",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "left_shift",
    "right_shift",
]
REDUCE_FLOAT = ["sum", "prod", "mean", "var", "std", "nansum", "nanprod", "nanmean", "nanvar", "nanstd"]
REDUCE_VALUE = [
    "min",
    "max",
    "nanmin",
    "nanmax",
    "argmin",
    "argmax",
    "nanargmin",
    "nanargmax",
    "any",
    "all",
    "count_nonzero",
    "ptp",
]
METHODS = {
    "sum",
    "prod",
    "mean",
    "var",
    "std",
    "min",
    "max",
    "argmin",
    "argmax",
    "any",
    "all",
    "cumsum",
    "cumprod",
}
INT_SCALARS = [0, 1, 2, 3, -1, -5, 7, 100, 255, 300, -129, 2**31, 2**63 - 1, 2**64]
FLOAT_SCALARS = [0.5, -2.5, 3.0, 0.1, 1e10, -0.0, float("inf"), float("nan"), 1e300]
COMPLEX_SCALARS = [1j, complex(1.5, -2.0), complex(0.0, -0.0)]


class Gen:
    """Draws steps over the live NumPy values of `runner`."""

    def __init__(self, draw, runner):
        self.draw, self.runner, self.count = draw, runner, 0

    def pick(self, seq):
        return self.draw(st.sampled_from(list(seq)))

    def chance(self, p):
        return self.draw(st.integers(0, 99)) < 100 * p

    def new_name(self):
        self.count += 1
        return f"v{self.count}"

    def val(self, name):
        return self.runner.n_env[name]

    def arrays(self, pred=None):
        names = [k for k in self.runner.live() if isinstance(self.val(k), np.ndarray)]
        return [k for k in names if pred is None or pred(self.val(k))]

    def writable(self):
        return self.arrays(
            lambda v: v.flags.writeable and 0 not in [s for s, n in zip(v.strides, v.shape) if n > 1]
        )

    def scalar(self, dt=None, other_kinds=0.3):
        """A Python scalar: mostly of dt's kind and in its range; else of any kind, or out of range."""
        kind = self.pick("iifcb") if dt is None or self.chance(other_kinds) else dt.kind
        pool = {
            "i": INT_SCALARS,
            "u": INT_SCALARS,
            "f": FLOAT_SCALARS,
            "c": COMPLEX_SCALARS,
            "b": [True, False],
        }[kind]
        if kind in "iu" and self.chance(0.85):
            pool = [0, 1, 2, 3, 7] if dt is None or dt.kind != "i" else [0, 1, 2, 3, -1, -5, 7]
        return scalar_source(self.pick(pool))

    def axis(self, ndim, tuples=True):
        r = self.draw(st.integers(0, 19))
        if ndim == 0:
            return self.pick(["None"] * 6 + ["()", "0"])
        if r < 4:
            return "None"
        if r < 14:
            return str(self.draw(st.integers(-ndim, ndim - 1)))
        if r < 19 and not (tuples and ndim > 1):
            return str(self.draw(st.integers(-ndim, ndim - 1)))
        if r < 19:
            k = self.draw(st.integers(1, ndim))
            axes = self.draw(st.permutations(range(ndim)))[:k]
            return "(" + ", ".join(str(a - ndim if self.chance(0.3) else a) for a in axes) + ",)"
        return self.pick([str(ndim), str(-ndim - 1), "(0, 0)" if ndim else "0"])  # the error cases

    # -- elementwise --------------------------------------------------------------------------------------

    def unary(self):
        a = self.pick(self.arrays())
        x = self.val(a)
        names = UNARY_EXACT + UNARY_FUNCS
        if self.chance(0.9):
            names = [n for n in names if works(f"np.{n}(a)", x.dtype)] or names
        name = self.pick(names)
        rule = "exact"
        if name in UNARY_FUNCS or (x.dtype.kind == "c" and name in COMPLEX_INEXACT):
            rule = "ulp"
            if x.dtype.kind == "c" and not np.all(np.isfinite(x)):
                return None  # complex functions of infinities and NaNs: C99 Annex G, not compared
        t = self.new_name()
        if name in UNARY_OPERATORS and self.chance(0.4):
            expr = UNARY_OPERATORS[name].format(a)
        else:
            expr = f"xp.{name}({a})"
        return Step(
            f"{t} = {expr}", t, rule, info={"kind": name, "operands": [a], "periodic": name in PERIODIC}
        )

    def binary(self):
        a = self.pick(self.arrays())
        x = self.val(a)
        names = BINARY_EXACT + BINARY_FUNCS
        if self.chance(0.9):
            names = [n for n in names if works(f"np.{n}(a, a)", x.dtype)] or names
        name = self.pick(names)
        r = self.draw(st.integers(0, 5))
        if r < 2:  # two arrays that broadcast (or, now and then, do not)
            others = self.arrays(lambda v: _broadcasts(v.shape, x.shape)) if self.chance(0.9) else []
            b = self.pick(others or [a])
            operands, names = (a, b) if self.chance(0.5) else (b, a), [a, b]
        elif r < 3:  # with a broadcastable slice of itself
            b = f"{a}[..., :1]" if x.ndim else a
            operands, names = (a, b), [a]
        else:  # with a Python scalar on either side
            s = self.scalar(x.dtype)
            operands, names = ((a, s) if self.chance(0.6) else (s, a)), [a]
        kinds = {self.val(n).dtype.kind for n in names} | {_scalar_kind(o) for o in operands}
        rule = "value" if name in ZERO_SIGN_FREE else "exact"
        if (
            name in BINARY_FUNCS
            or (name == "power" and kinds & set("fc"))
            or ("c" in kinds and name in COMPLEX_INEXACT)
        ):
            rule = "ulp"
            if (
                "c" in kinds
                and not all(_finite_operand(self.val(n)) for n in names)
                or ("c" in kinds and any(o in ("nan", "inf", "-inf") for o in operands))
            ):
                return None
        t = self.new_name()
        if name in BINARY_OPERATORS and self.chance(0.5):
            expr = f"{operands[0]} {BINARY_OPERATORS[name]} {operands[1]}"
        else:
            expr = f"xp.{name}({operands[0]}, {operands[1]})"
        info = {"kind": name, "operands": names}
        if name in ("power", "float_power") and "c" in kinds:
            info["exp_log"] = operands
        return Step(f"{t} = {expr}", t, rule, info=info)

    def inplace(self, target=None):
        targets = self.writable()
        if not targets:
            return None
        t = target if target in targets else self.pick(targets)
        x = self.val(t)
        names = INPLACE_OPS
        if self.chance(0.9):
            names = [n for n in names if works(f"a {BINARY_OPERATORS[n]}= a", x.dtype)] or names
        name = self.pick(names)
        op = BINARY_OPERATORS[name]
        strict = self.chance(0.9)  # else any operand: casting errors (same_kind) are compared too
        if self.chance(0.5):
            src = self.scalar(x.dtype, 0.0 if strict else 0.5)
        else:
            src = self.pick(
                self.arrays(
                    lambda v: (
                        _broadcasts(v.shape, x.shape)
                        and np.broadcast_shapes(v.shape, x.shape) == x.shape
                        and (not strict or np.can_cast(v.dtype, x.dtype, "same_kind"))
                    )
                )
                or [t]
            )
        key = self.basic_key(x.shape) if self.chance(0.4) and x.ndim else None
        if (
            key
            and _selects_one(x, key)
            and (not strict or src in self.arrays() or not works(f"a {op}= a", x.dtype))
        ):
            # KNOWN DIFFERENCE (as CuPy): `x[i, j] += y` on one element works on a 0-d view in place, with
            # the ufunc's same_kind casting and output shape check, where NumPy computes with a scalar and
            # assigns the result back (unsafely cast; an error of its own for a result of shape (1,)). So an op
            # whose result does not cast back (`/=` on integers) raises only in cuarray and CuPy.
            key = None
        target = f"{t}[{key}]" if key else t
        rule = "ulp" if x.dtype.kind == "c" and name in COMPLEX_INEXACT else "exact"
        if self.chance(0.2) and key is None:
            stmt = f"xp.{name}({t}, {src}, out={t})"
        else:
            stmt = f"{target} {op}= {src}"
        return Step(stmt, None, rule, writes=t, info={"kind": "inplace_" + name, "operands": [t]})

    def astype(self):
        a = self.pick(self.arrays())
        dt = self.pick(DTYPES)
        t = self.new_name()
        form = self.draw(st.integers(0, 3))
        if form == 0:
            expr = f"{a}.astype(np.{dt.name}, copy=False)"
        elif form == 1:
            expr = f"xp.asarray({a}, dtype=np.{dt.name})"
        else:
            expr = f"{a}.astype(np.{dt.name})"
        return Step(f"{t} = {expr}", t, info={"kind": "astype", "operands": [a]})

    # -- reductions, scans, products ----------------------------------------------------------------------

    def reduce(self):
        a = self.pick(self.arrays())
        x = self.val(a)
        name = self.pick(REDUCE_FLOAT + REDUCE_VALUE)
        tuples = name not in ("argmin", "argmax", "nanargmin", "nanargmax")
        axis = self.axis(x.ndim, tuples)
        keep = self.chance(0.3)
        args = [f"axis={axis}"] if axis != "None" or self.chance(0.5) else []
        if keep:
            args.append("keepdims=True")
        info = {"kind": name, "operands": [a], "op": name, "keepdims": keep}
        try:
            info["axis"] = eval(axis)
        except Exception:  # noqa: BLE001
            info["axis"] = None
        if name in ("var", "std", "nanvar", "nanstd") and self.chance(0.5):
            ddof = self.pick([1, 1, 2])
            args.append(f"ddof={ddof}")
            info["ddof"] = ddof
        t = self.new_name()
        if name in METHODS and self.chance(0.5):
            expr = f"{a}.{name}({', '.join(args)})"
        else:
            expr = f"xp.{name}({', '.join([a] + args)})"
        return Step(f"{t} = {expr}", t, "reduce" if name in REDUCE_FLOAT else "value", info=info)

    def scan(self):
        a = self.pick(self.arrays())
        x = self.val(a)
        name = self.pick(["cumsum", "cumprod", "nancumsum", "nancumprod"])
        axis = self.pick(
            ["None"] + [str(i) for i in range(-x.ndim, x.ndim)] + ([str(x.ndim)] if x.ndim else [])
        )
        t = self.new_name()
        expr = (
            f"{a}.{name}(axis={axis})"
            if name in METHODS and self.chance(0.5)
            else f"xp.{name}({a}, axis={axis})"
        )
        return Step(
            f"{t} = {expr}",
            t,
            "scan",
            info={"kind": name, "operands": [a], "op": name, "axis": None if axis == "None" else int(axis)},
        )

    def matmul(self):
        cands = self.arrays(lambda v: v.ndim >= 1)
        if not cands:
            return None
        a = self.pick(cands if self.chance(0.95) else self.arrays())
        x = self.val(a)
        if x.ndim >= 2 and self.chance(0.5):
            b = f"xp.swapaxes({a}, -1, -2)"
        else:
            fits = self.arrays(
                lambda v: (
                    v.ndim >= 1
                    and x.ndim >= 1
                    and v.shape[-2 if v.ndim > 1 else 0] == x.shape[-1]
                    and _broadcasts(v.shape[:-2], x.shape[:-2])
                )
            )
            b = self.pick(fits or [f"xp.swapaxes({a}, -1, -2)" if x.ndim >= 2 else a])
        t = self.new_name()
        expr = f"{a} @ {b}" if self.chance(0.5) else f"xp.matmul({a}, {b})"
        return Step(f"{t} = {expr}", t, "matmul", info={"kind": "matmul", "operands": [a, b], "op": "matmul"})

    # -- sorting, selection, indexing -------------------------------------------------------------------

    def sort(self):
        a = self.pick(self.arrays())
        x = self.val(a)
        axis = self.pick(
            ["None"] + [str(i) for i in range(-x.ndim, x.ndim)] * 2 if x.ndim else ["None", "-1"]
        )
        form = self.draw(st.integers(0, 2))
        if form == 2 and a in self.writable() and axis != "None":
            return Step(f"{a}.sort(axis={axis})", None, "value", writes=a, info={"kind": "sort_inplace"})
        t = self.new_name()
        if form == 1:
            return Step(f"{t} = xp.argsort({a}, axis={axis}, kind='stable')", t, info={"kind": "argsort"})
        return Step(f"{t} = xp.sort({a}, axis={axis})", t, "value", info={"kind": "sort"})

    def basic_key(self, shape):
        parts = []
        for n in shape[: self.draw(st.integers(1, max(len(shape), 1)))]:
            r = self.draw(st.integers(0, 39))
            if r < 8 and n:
                parts.append(str(self.draw(st.integers(-n, n - 1))))
            elif r < 9:
                parts.append(str(self.pick([n, -n - 1])))  # out of range
            elif r < 13:
                parts.append("None")
            elif r < 17:
                parts.append("...")
            else:
                start = self.pick(["", "0", "1", "-1", str(n), "-2"])
                stop = self.pick(["", "", "2", "-1", str(n + 1)])
                step = self.pick(["", "", "2", "-1", "-2", "3"])
                parts.append(f"{start}:{stop}" + (f":{step}" if step else ""))
        if parts.count("...") > 1:
            parts = [p for p in parts if p != "..."] + ["..."]
        return ", ".join(parts)

    def getitem(self):
        a = self.pick(self.arrays())
        x = self.val(a)
        r = self.draw(st.integers(0, 5))
        if r < 2 or x.ndim == 0:
            key = self.basic_key(x.shape) if x.ndim else self.pick(["...", "None", "()"])
        elif r < 4:
            key = self.int_array_key(x.shape)
        else:
            key = self.mask_key(a, x)
        t = self.new_name()
        expr = f"{a}[{key}]"
        try:
            zero_d = np.ndim(x[eval(key, dict(self.runner.n_env))]) == 0
        except Exception:  # noqa: BLE001 - NumPy raises at run time; the comparison covers it
            zero_d = False
        if zero_d:
            expr += ".copy()"  # NumPy gives a scalar copy, cuarray a 0-d view (see the module docstring)
        return Step(f"{t} = {expr}", t, info={"kind": "getitem"})

    def int_array_key(self, shape):
        n = shape[0]
        wide = self.chance(0.05)  # an out-of-range index
        idx = (
            [
                self.draw(st.integers(-n - 1 if wide else -n, n if wide else n - 1))
                for _ in range(self.draw(st.integers(0, 5)))
            ]
            if n or wide
            else []
        )
        lit = (
            f"xp.asarray(np.array({idx!r}, dtype=np.{self.pick(['int64', 'int32', 'uint8'])}))"
            if self.chance(0.5) and all(i >= 0 for i in idx)
            else repr(idx)
        )
        if len(shape) > 1 and shape[1] and self.chance(0.4):
            idx2 = [self.draw(st.integers(0, shape[1] - 1)) for _ in idx]
            return f"{lit}, {idx2!r}" if self.chance(0.5) else f":, {idx2!r}"
        return lit

    def mask_key(self, a, x):
        same = self.arrays(lambda v: v.dtype == np.bool_ and v.shape == x.shape)
        if same and self.chance(0.4):
            return self.pick(same)
        if x.dtype.kind in "iufb" and self.chance(0.5):
            return f"{a} > {self.pick(['0', '1', '-1'])}"
        k = self.draw(st.integers(1, max(x.ndim, 1)))
        mask = np.asarray(
            self.draw(
                st.lists(st.booleans(), min_size=math.prod(x.shape[:k]), max_size=math.prod(x.shape[:k]))
            )
        ).reshape(x.shape[:k])
        return f"xp.asarray({array_literal(mask)})"

    def setitem(self):
        targets = self.writable()
        if not targets:
            return None
        t = self.pick(targets)
        x = self.val(t)
        r = self.draw(st.integers(0, 5))
        if x.ndim == 0:
            key = "..."
        elif r < 3:
            key = self.basic_key(x.shape)
        elif r < 5:
            key = self.int_array_key(x.shape)
        else:
            key = self.mask_key(t, x)
        try:
            sub = np.asarray(x[eval(key, dict(self.runner.n_env))]).shape
        except Exception:  # noqa: BLE001
            sub = ()
        v = self.draw(st.integers(0, 3))
        # KNOWN DIFFERENCE: where an integer index repeats, which of several values lands is not defined in
        # cuarray (NumPy: the last); integer-array keys get a scalar, which lands the same everywhere.
        if v == 0 or 3 <= r < 5:
            value = self.scalar(x.dtype)
        elif v == 1 and x.ndim and x.shape[0] > 1 and key.startswith(":") is False and self.chance(0.5):
            value = f"{t}[::-1][{key}]" if "xp.asarray" not in key else self.scalar(x.dtype)  # overlaps t
        else:
            # KNOWN DIFFERENCE: a boolean-mask assignment whose value overlaps the target. cuarray reads the whole
            # value first, as NumPy does for basic and integer-array keys; NumPy's mask path reads it while it
            # writes (b[b > 1] = b[::-2] sees its own writes), which no parallel kernel reproduces.
            fits = self.arrays(
                lambda u: (
                    _broadcasts(u.shape, sub)
                    and np.broadcast_shapes(u.shape, sub) == sub
                    and not (r == 5 and np.shares_memory(u, x))
                )
            )
            value = self.pick(fits) if fits else self.scalar(x.dtype)
        # KNOWN DIFFERENCE (as CuPy): `x[i] += y` on one element is in place on a 0-d view (see inplace()).
        aug = self.chance(0.2) and not _selects_one(x, key)
        stmt = f"{t}[{key}] {'+' if aug else ''}= {value}"
        return Step(stmt, None, writes=t, info={"kind": "setitem"})

    def take(self):
        a = self.pick(self.arrays())
        x = self.val(a)
        axis = self.pick(["None"] + [str(i) for i in range(-x.ndim, x.ndim)])
        n = x.size if axis == "None" else x.shape[int(axis)]
        wide = self.chance(0.1)  # out of range (IndexError unless mode= wraps or clips)
        idx = [
            self.draw(st.integers(-n - 2 if wide else -n, n + 1 if wide else max(n - 1, 0)))
            for _ in range(self.draw(st.integers(0, 4)))
        ]
        ind = repr(idx) if self.chance(0.6) else (str(idx[0]) if idx else "0")
        # KNOWN DIFFERENCE: NumPy's take with mode='wrap' along an empty axis never returns where the result is
        # empty through another axis (its wrap loop subtracts the axis length, 0, until the index is below it);
        # cuarray returns the empty result, as mode='clip' does in both.
        mode = self.pick(["", "", ", mode='wrap'", ", mode='clip'"] if n else ["", ", mode='clip'"])
        t = self.new_name()
        return Step(f"{t} = xp.take({a}, {ind}, axis={axis}{mode})", t, info={"kind": "take"})

    def where(self):
        a = self.pick(self.arrays())
        x = self.val(a)
        conds = self.arrays(lambda v: v.dtype == np.bool_ and _broadcasts(v.shape, x.shape))
        cond = self.pick(conds) if conds and self.chance(0.5) else (f"{a} != 0" if x.dtype.kind != "b" else a)
        cshape = self.val(cond).shape if cond in conds else x.shape
        others = self.arrays(lambda v: _broadcasts(v.shape, x.shape) and _broadcasts(v.shape, cshape))
        other = self.pick(others) if others and self.chance(0.6) else self.scalar(x.dtype)
        t = self.new_name()
        return Step(f"{t} = xp.where({cond}, {a}, {other})", t, info={"kind": "where"})

    # -- shapes, joining, copies --------------------------------------------------------------------------

    def reshape(self):
        a = self.pick(self.arrays())
        x = self.val(a)
        t = self.new_name()
        forms = [
            "ravel",
            "flatten",
            "copy",
            "T",
            "transpose",
            "squeeze",
            "expand",
            "swap",
            "contig",
            "flip",
            "reshape",
            "reshape",
            "reshape",
            "ravelF",
            "copyF",
        ]
        f = self.pick(forms)
        nd = x.ndim
        if f == "reshape":
            shape = self.new_shape(x.size)
            order = self.pick(["", "", "", ", order='F'"])
            expr = f"{a}.reshape({shape}{order})" if self.chance(0.7) else f"xp.reshape({a}, {shape}{order})"
        elif f in ("ravel", "flatten", "copy", "squeeze"):
            expr = f"{a}.{f}()"
        elif f == "ravelF":
            expr = f"xp.ravel({a}, order={self.pick(['F', 'K', 'A'])!r})"
        elif f == "copyF":
            expr = f"{a}.copy(order={self.pick(['F', 'K', 'A'])!r})"
        elif f == "T":
            expr = f"{a}.T"
        elif f == "transpose":
            expr = f"{a}.transpose({tuple(self.draw(st.permutations(range(nd))))})"
        elif f == "expand":
            expr = f"xp.expand_dims({a}, {self.draw(st.integers(-nd - 1, nd))})"
        elif f == "swap" and nd:
            expr = f"{a}.swapaxes({self.draw(st.integers(-nd, nd - 1))}, {self.draw(st.integers(0, nd - 1))})"
        elif f == "flip" and nd:
            expr = f"xp.flip({a}, axis={self.draw(st.integers(-nd, nd - 1))})"
        else:
            expr = f"xp.ascontiguousarray({a})"
        return Step(f"{t} = {expr}", t, info={"kind": f, "operands": [a], "layout_dependent": True})

    def new_shape(self, size):
        divs = [d for d in range(1, size + 1) if size % d == 0] or [1]
        r = self.draw(st.integers(0, 5))
        if r == 0:
            return f"({size},)"
        if r == 1:
            return "-1"
        if r == 2:
            d = self.pick(divs)
            return f"({d}, -1)"
        if r == 3:
            d = self.pick(divs)
            e = self.pick([k for k in divs if (size // d) % k == 0] or [1])
            return f"({d}, {e}, {size // d // e if size else 0})"
        if r == 4:
            return f"(1, {size}, 1)"
        return f"({size + 1},)" if self.chance(0.5) else "(-1, -1)"  # the error cases

    def join(self):
        a = self.pick(self.arrays())
        x = self.val(a)
        f = self.pick(["concatenate", "concatenate", "stack", "vstack", "hstack"])
        t = self.new_name()
        if f == "concatenate":
            axis = self.pick(["0", "-1", "None"] + [str(i) for i in range(x.ndim)])
            if axis == "None":
                others = self.arrays()
            else:
                ax = int(axis) % max(x.ndim, 1)
                others = self.arrays(
                    lambda v: (
                        v.ndim == x.ndim
                        and all(n == m for i, (n, m) in enumerate(zip(v.shape, x.shape)) if i != ax)
                    )
                )
            b = self.pick(others or [a])
            return Step(f"{t} = xp.concatenate([{a}, {b}], axis={axis})", t, info={"kind": f})
        if f == "stack":
            others = self.arrays(lambda v: v.shape == x.shape)
            b = self.pick(others or [a])
            axis = self.draw(st.integers(-x.ndim - 1, x.ndim))
            return Step(f"{t} = xp.stack([{a}, {b}, {a}], axis={axis})", t, info={"kind": f})
        others = self.arrays(lambda v: v.shape == x.shape) if self.chance(0.9) else self.arrays()
        b = self.pick(others or [a])
        return Step(f"{t} = xp.{f}([{a}, {b}])", t, info={"kind": f})

    def tile_repeat(self):
        a = self.pick(self.arrays())
        x = self.val(a)
        t = self.new_name()
        if self.chance(0.5):
            reps = self.pick(["1", "2", "(1, 1)", "(2, 1)", "(1, 2, 1)", "0", "(1,) * 3", "3"])
            return Step(f"{t} = xp.tile({a}, {reps})", t, info={"kind": "tile"})
        axis = self.pick(["None"] + [str(i) for i in range(-x.ndim, x.ndim)])
        n = x.size if axis == "None" else x.shape[int(axis)]
        r = self.pick(["1", "2", "0", "3"])
        if self.chance(0.3):
            r = repr([self.draw(st.integers(0, 2)) for _ in range(n)])
        expr = f"{a}.repeat({r}, axis={axis})" if self.chance(0.5) else f"xp.repeat({a}, {r}, axis={axis})"
        return Step(f"{t} = {expr}", t, info={"kind": "repeat"})

    def view_then_inplace(self):
        """`v = a[...]` (a view), then an in-place step on it: the base must change as NumPy's does."""
        targets = self.writable()
        if not targets:
            return None
        a = self.pick(targets)
        x = self.val(a)
        key = self.basic_key(x.shape) if x.ndim else "..."
        if _selects_one(x, key):
            return None  # NumPy gives a scalar copy there, cuarray a 0-d view (see the module docstring)
        t = self.new_name()
        return [Step(f"{t} = {a}[{key}]", t, info={"kind": "getitem"}), ("inplace", t)]


FOCUS = {
    "elementwise": ["unary", "binary", "binary", "inplace", "astype"],
    "reductions": ["reduce", "reduce", "reduce", "scan", "matmul", "binary", "unary"],
    "indexing": ["getitem", "getitem", "setitem", "setitem", "view_then_inplace", "take", "where", "sort"],
    "shapes": ["reshape", "reshape", "join", "tile_repeat", "astype", "view_then_inplace", "binary"],
}
FOCUS["mixed"] = sorted({k for v in FOCUS.values() for k in v})


_VALID = {}


def works(src, *dtypes):
    """Whether NumPy runs `src` (over a, b: one-element arrays of `dtypes`) without raising: used to draw
    mostly valid steps, leaving a share of error cases."""
    key = (src,) + dtypes
    if key not in _VALID:
        env = {
            "np": np,
            "a": np.ones(1, dtypes[0]),
            "b": np.ones(1, dtypes[-1]),
            "nan": np.nan,
            "inf": np.inf,
        }
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(src, env)  # noqa: S102 - a probe of NumPy on one-element arrays
            _VALID[key] = True
        except Exception:  # noqa: BLE001
            _VALID[key] = False
    return _VALID[key]


def _selects_one(x, key):
    """Whether x[key] is one element (a 0-d result); False for a key that raises."""
    try:
        return np.ndim(eval(f"_x[{key}]", {"_x": x})) == 0
    except Exception:  # noqa: BLE001 - keys are drawn to raise too
        return False


def _broadcasts(s, t):
    try:
        np.broadcast_shapes(s, t)
        return True
    except ValueError:
        return False


def _scalar_kind(src):
    if src.startswith("complex"):
        return "c"
    if src in ("True", "False"):
        return "b"
    if src in ("nan", "inf", "-inf") or "." in src or "e" in src:
        return "f"
    return "i" if src.lstrip("-").isdigit() else ""


def _finite_operand(v):
    return v.dtype.kind not in "fc" or bool(np.all(np.isfinite(v)))


def run_program(data, runner, focus, n_steps=None):
    """Draws inputs and 3-8 steps (of the kinds FOCUS[focus] lists) and runs them with `runner`."""
    draw = data.draw
    first_shape = None
    for i in range(draw(st.integers(1, 3))):
        steps, name = input_steps(draw, i, first_shape)
        for s in steps:
            if not runner.run(s):
                return
        if first_shape is None:
            first_shape = runner.n_env[name].shape
    gen = Gen(draw, runner)
    n = draw(st.integers(3, 8)) if n_steps is None else n_steps
    done = attempts = 0
    while done < n and attempts < 4 * n:  # a kind with nothing to work on (no writable array) draws None
        attempts += 1
        kind = draw(st.sampled_from(FOCUS[focus]), label="step kind")
        pending = [kind]
        while pending:
            k = pending.pop(0)
            out = getattr(gen, k)() if isinstance(k, str) else getattr(gen, k[0])(*k[1:])
            if out is None:
                break
            if isinstance(out, list):
                out, more = out[0], out[1:]
                pending = list(more) + pending
            done += 1
            if not runner.run(out):
                return
