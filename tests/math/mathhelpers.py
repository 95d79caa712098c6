"""Shared helpers for the elementwise (ufunc) tests in tests/math.

Imported by the test modules next to it (they put this directory on sys.path first). Not a test module.
"""

import contextlib
import warnings

import cuarray as cp
import numpy as np

try:
    import ml_dtypes

    BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # the GPU machine may not have ml_dtypes: bfloat16 tests skip
    ml_dtypes = None
    BFLOAT16 = None

# NumPy type characters of the dtypes cuarray supports (NumPy's loops on 'g', 'G', 'O', 'm', 'M' are out of scope).
SUPPORTED_CHARS = set("?bBhHiIlLqQefdFD")

# fmt: off
# Ufuncs of the spec, by module-level name. Aliases map to the same NumPy ufunc.
UFUNC_NAMES = [
    "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "remainder", "mod", "fmod",
    "power", "float_power", "negative", "positive", "absolute", "abs", "fabs", "sign", "square", "sqrt",
    "cbrt", "reciprocal", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp",
    "logaddexp2", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "hypot", "sinh", "cosh",
    "tanh", "arcsinh", "arccosh", "arctanh", "degrees", "radians", "deg2rad", "rad2deg", "floor", "ceil",
    "trunc", "rint", "maximum", "minimum", "fmax", "fmin", "isnan", "isinf", "isfinite", "signbit",
    "copysign", "nextafter", "heaviside", "logical_and", "logical_or", "logical_xor", "logical_not",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "invert", "left_shift", "right_shift",
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "conj", "conjugate", "divmod",
    "modf", "frexp", "ldexp", "gcd", "lcm", "bitwise_count"
]

# Plain functions in NumPy (not ufuncs).
FUNCTION_NAMES = ["fix", "around", "round", "clip", "where", "real", "imag", "angle", "nan_to_num"]

# One name per distinct NumPy ufunc (the aliases abs, true_divide, mod, conj, bitwise_not dropped).
ALIASES = {
    "abs": "absolute",
    "true_divide": "divide",
    "mod": "remainder",
    "conj": "conjugate",
    "bitwise_not": "invert",
}
CANONICAL_UFUNCS = [n for n in UFUNC_NAMES if n not in ALIASES]

ARITHMETIC_UFUNCS = [
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "power", "float_power",
    "negative", "positive", "absolute", "fabs", "sign", "square", "reciprocal", "divmod", "gcd", "lcm"
]
MATH_UFUNCS = [
    "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "hypot", "sinh", "cosh", "tanh",
    "arcsinh", "arccosh", "arctanh", "degrees", "radians", "deg2rad", "rad2deg", "floor", "ceil", "trunc",
    "rint", "copysign", "nextafter", "heaviside", "conjugate", "modf", "frexp", "ldexp"
]
COMPARISON_LOGIC_BITWISE_UFUNCS = [
    "maximum", "minimum", "fmax", "fmin", "isnan", "isinf", "isfinite", "signbit", "logical_and",
    "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "invert",
    "left_shift", "right_shift", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "bitwise_count"
]
assert sorted(ARITHMETIC_UFUNCS + MATH_UFUNCS + COMPARISON_LOGIC_BITWISE_UFUNCS) == sorted(CANONICAL_UFUNCS)

TRANSCENDENTAL = {
    "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "hypot", "sinh", "cosh", "tanh",
    "arcsinh", "arccosh", "arctanh", "power", "float_power", "degrees", "radians", "deg2rad", "rad2deg",
    "reciprocal", "divide"
}
# IEEE-exact operations on real floats: the GPU must give bit-identical values (up to the sign of zero,
# checked separately where it matters).
EXACT_REAL = {
    "add", "subtract", "multiply", "negative", "positive", "absolute", "fabs", "copysign", "nextafter",
    "floor", "ceil", "trunc", "rint", "sign", "maximum", "minimum", "fmax", "fmin", "modf", "frexp",
    "ldexp", "heaviside", "conjugate", "square", "fmod"
}
# fmt: on


def dtypes_of(sig):
    """'ff->f' -> ((float32, float32), (float32,))."""
    ins, outs = sig.split("->")
    return tuple(np.dtype(c) for c in ins), tuple(np.dtype(c) for c in outs)


def numpy_loops(name):
    """NumPy's type loops of ufunc `name` on supported dtypes, deduplicated by dtype ('l'/'q' are both int64)."""
    seen, out = set(), []
    for sig in getattr(np, name).types:
        if not set(sig.replace("->", "")) <= SUPPORTED_CHARS:
            continue
        key = dtypes_of(sig)
        if key not in seen:
            seen.add(key)
            out.append(key)
    return out


def loop_id(loop):
    ins, outs = loop
    return "".join(d.char for d in ins) + "->" + "".join(d.char for d in outs)


@contextlib.contextmanager
def quiet():
    """NumPy's floating-point and cast warnings off (cuarray need not emit them)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def np_call(fn, *args, **kwargs):
    with quiet():
        return fn(*args, **kwargs)


EXC_KINDS = (OverflowError, TypeError, ValueError, ZeroDivisionError)


def outcome(fn, *args, **kwargs):
    """('ok', result) or ('raise', builtin exception class) for fn(*args, **kwargs)."""
    try:
        with quiet():
            return "ok", fn(*args, **kwargs)
    except EXC_KINDS as e:
        return "raise", next(k for k in EXC_KINDS if isinstance(e, k))


# ---------------------------------------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------------------------------------

_RTOL = {"e": 2e-3, "f": 1e-6, "d": 1e-12, "F": 1e-6, "D": 1e-12}


def rtol_for(dtype, factor=1.0):
    dtype = np.dtype(dtype)
    if BFLOAT16 is not None and dtype == BFLOAT16:
        return 1.6e-2 * factor
    return _RTOL[dtype.char] * factor


def _smallest_subnormal(dtype):
    if BFLOAT16 is not None and dtype == BFLOAT16:
        return ml_dtypes.finfo(BFLOAT16).smallest_subnormal
    return np.finfo(dtype).smallest_subnormal


def to_host(actual):
    __tracebackhide__ = True
    assert isinstance(actual, cp.ndarray), f"expected a cuarray.ndarray, got {type(actual)!r}"
    got = cp.asnumpy(actual)
    assert isinstance(got, np.ndarray)
    return got


def assert_close(actual, expected, *, rtol=None, factor=1.0, exact=False, zero_signs=False):
    """`actual` (cuarray) has expected's dtype, shape and values.

    Integers and bools exactly; floats with a dtype-dependent rtol (times `factor`, plus 4 subnormal ulp),
    or bit-exactly up to the sign of zero when `exact`; NaN positions and infinities must match; `zero_signs` also checks the
    sign of every expected zero (real and imaginary parts).
    """
    __tracebackhide__ = True
    expected = np.asarray(expected)
    got = to_host(actual)
    assert got.dtype == expected.dtype, f"dtype {got.dtype} != expected {expected.dtype}"
    assert got.shape == expected.shape, f"shape {got.shape} != expected {expected.shape}"
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(got, expected, strict=True)
        return
    if BFLOAT16 is not None and expected.dtype == BFLOAT16:
        g, e = got.astype(np.float32), expected.astype(np.float32)
    else:
        g, e = got, expected
    if exact:
        np.testing.assert_array_equal(g, e)
    else:
        tol = rtol_for(expected.dtype, factor) if rtol is None else rtol
        # a few ulp, for results in the subnormal range too (where an ulp is an absolute amount)
        atol = 4 * float(_smallest_subnormal(expected.dtype))
        np.testing.assert_allclose(g, e, rtol=tol, atol=atol, equal_nan=True)
    if zero_signs:
        assert_zero_signs(g, e)


def assert_zero_signs(got, expected):
    __tracebackhide__ = True
    parts = (
        [(got, expected)]
        if expected.dtype.kind != "c"
        else [(got.real, expected.real), (got.imag, expected.imag)]
    )
    for g, e in parts:
        mask = e == 0
        if mask.any():
            np.testing.assert_array_equal(
                np.signbit(g[mask]), np.signbit(e[mask]), err_msg="signs of zero differ"
            )


def assert_results(actual, expected, **kw):
    """Like assert_close, for a single result or a tuple of results (multi-output ufuncs)."""
    __tracebackhide__ = True
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple), f"expected a tuple of {len(expected)} arrays, got {type(actual)!r}"
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected):
            assert_close(a, e, **kw)
    else:
        assert_close(actual, expected, **kw)


def tolerance_kw(name, dtypes):
    """assert_close keyword arguments for ufunc `name` computed on input dtypes `dtypes`."""
    complex_in = any(d.kind == "c" for d in dtypes)
    if name in EXACT_REAL and not complex_in:
        return {"exact": True}
    if name in TRANSCENDENTAL:
        return {"factor": 10.0 if complex_in else 2.0}
    return {"factor": 4.0 if complex_in else 1.0}


# ---------------------------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------------------------


def _rng(seed):
    return np.random.default_rng(seed)


def base_values(dtype, n, seed):
    """Values like conftest.make_data: ints in [-60, 60) ([0, 120) unsigned), floats multiples of 1/8 in
    [-30, 30], complex with both parts so; bool random. 1-D of length n."""
    dtype = np.dtype(dtype)
    r = _rng(seed)
    if dtype.kind == "b":
        a = r.random(n) < 0.5
        a[: min(n, 2)] = [True, False][: min(n, 2)]
        return a
    if dtype.kind == "i":
        return r.integers(-60, 60, size=n).astype(dtype)
    if dtype.kind == "u":
        return r.integers(0, 120, size=n).astype(dtype)
    re = np.round(r.uniform(-30, 30, size=n) * 8) / 8
    if dtype.kind == "c":
        im = np.round(r.uniform(-30, 30, size=n) * 8) / 8
        return (re + 1j * im).astype(dtype)
    return re.astype(dtype)


def _float_domain(x, domain):
    """Maps multiples of 1/8 in [-30, 30] into a function's domain, keeping values exact in float16."""
    if domain == "pos":
        return np.abs(x) + 0.125
    if domain == "unit":  # (-1, 1)
        return x / 32
    if domain == "ge1":
        return np.abs(x) + 1
    if domain == "gt_m1":
        return np.abs(x) - 0.875
    if domain == "small":  # [-7.5, 7.5]
        return x / 4
    if domain == "tiny":  # [-0.9375, 0.9375]
        return x / 32
    if domain == "nonzero":
        return np.where(x == 0, 0.5, x)
    return x


_DOMAINS = {
    "sqrt": "pos",
    "log": "pos",
    "log2": "pos",
    "log10": "pos",
    "log1p": "gt_m1",
    "arcsin": "unit",
    "arccos": "unit",
    "arctanh": "unit",
    "arccosh": "ge1",
    "exp": "small",
    "exp2": "small",
    "expm1": "small",
    "sinh": "small",
    "cosh": "small",
    "tanh": "small",
    "tan": "tiny",
    "reciprocal": "nonzero",
}


def _with_specials(x, dtype):
    """Puts nan, inf, -inf and -0.0 in the first elements of a real float array (nan in both parts for
    complex)."""
    x = x.copy()
    if dtype.kind == "f":
        x[:5] = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0], dtype=dtype)
    elif dtype.kind == "c":
        x[:4] = np.array(
            [complex(np.nan, 1), complex(1, np.nan), complex(np.inf, 0), complex(0, -np.inf)], dtype
        )
    return x


def make_inputs(name, dtypes, n=37, seed=0):
    """NumPy inputs (1-D, length n) for ufunc `name` on input dtypes `dtypes`, inside the function's domain
    so that results are finite and comparable across implementations (special values are tested apart)."""
    dtypes = [np.dtype(d) for d in dtypes]
    xs = [base_values(d, n, seed + 7 * i) for i, d in enumerate(dtypes)]
    out = []
    for i, (x, d) in enumerate(zip(xs, dtypes)):
        k = d.kind
        if name in ("divide", "floor_divide", "remainder", "fmod", "divmod") and i == 1:
            x = np.where(x == 0, np.ones((), d), x) if k != "b" else np.ones(n, bool)
        elif name == "power" or name == "float_power":
            x = _power_input(i, d, n, seed)
        elif name in ("left_shift", "right_shift") and i == 1:
            x = _rng(seed + 1).integers(0, 8 * d.itemsize, size=n).astype(d)
        elif name in ("gcd", "lcm"):
            lo = 0 if k == "u" else -10
            x = _rng(seed + i).integers(lo, 11, size=n).astype(d)
        elif name == "ldexp" and i == 1:
            x = _rng(seed + 1).integers(-4, 5, size=n).astype(d)
        elif name == "reciprocal" and k in "iu":
            x = np.where(x == 0, np.ones((), d), x)
        elif k == "c" and name in TRANSCENDENTAL | {"sign"}:
            x = (x / 8).astype(d)
            if name in ("log", "log2", "log10", "sqrt", "reciprocal", "sign", "arctanh", "arccosh"):
                x = np.where(x == 0, np.asarray(0.5 + 0.25j, d), x)
        elif k == "f":
            x = _float_domain(x, _DOMAINS.get(name, "")).astype(d)
            if name in (
                "isnan",
                "isinf",
                "isfinite",
                "signbit",
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
                "logical_not",
                "copysign",
                "nextafter",
            ):
                x = _with_specials(x, d) if i == 0 else x
        elif k == "c" and name in ("isnan", "isinf", "isfinite", "logical_not", "logical_and", "logical_or"):
            x = _with_specials(x, d) if i == 0 else x
        if name == "heaviside" and i == 0:
            x = x.copy()
            x[5:8] = 0
        if (
            name
            in (
                "equal",
                "not_equal",
                "less",
                "less_equal",
                "greater",
                "greater_equal",
                "maximum",
                "minimum",
                "fmax",
                "fmin",
                "nextafter",
                "logical_and",
                "logical_or",
                "logical_xor",
            )
            and i == 1
        ):
            # some positions equal to the first input (and zeros, for the logical functions)
            x = x.copy()
            with quiet():
                same = out[0][10:14].astype(d)
                if (same.astype(out[0].dtype) == out[0][10:14]).all():
                    x[10:14] = same
            x[14:16] = 0
        if name.startswith("logical_"):
            x = x.copy()
            x[16:18] = 0  # zeros in every input at the same positions
        out.append(np.asarray(x, dtype=d))
    return out


def _power_input(i, d, n, seed):
    r = _rng(seed + 11 * i + 3)
    k = d.kind
    if k == "b":
        return r.random(n) < 0.5
    if i == 1:  # exponent
        if k in "iu":
            return r.integers(0, 5, size=n).astype(d)
        if k == "f":  # integral exponents in [-3, 3] for the negative bases, quarters elsewhere
            e = r.integers(-12, 13, size=n) / 4
            e[::2] = np.round(e[::2])
            return e.astype(d)
        return (r.integers(-8, 9, size=n) / 4 + 1j * r.integers(-4, 5, size=n) / 4).astype(d)
    if k == "i":
        return r.integers(-3, 4, size=n).astype(d)
    if k == "u":
        return r.integers(0, 5, size=n).astype(d)
    if k == "f":
        b = r.integers(1, 13, size=n) / 4  # (0, 3]
        b[::2] = -b[::2]  # negative bases meet the integral exponents
        return b.astype(d)
    b = r.integers(-8, 9, size=n) / 4 + 1j * r.integers(-8, 9, size=n) / 4
    return np.where(b == 0, 0.5 + 0.5j, b).astype(d)


def check_loop(name, loop, n=37):
    """Calls cp.<name> and np.<name> on inputs of the loop's dtypes; returns None if they agree, else a
    message."""
    ins, outs = loop
    xs = make_inputs(name, ins, n=n)
    expected = np_call(getattr(np, name), *xs)
    exp_tuple = expected if isinstance(expected, tuple) else (expected,)
    if tuple(np.asarray(e).dtype for e in exp_tuple) != outs:  # NumPy itself picked another loop
        return None
    try:
        got = getattr(cp, name)(*[cp.asarray(x) for x in xs])
        assert_results(got, expected, **tolerance_kw(name, ins))
    except Exception as e:  # noqa: BLE001 - collected and reported per loop
        return f"{loop_id(loop)}: {type(e).__name__}: {str(e)[:600]}"
    return None


def run_loops(name):
    __tracebackhide__ = True
    loops = numpy_loops(name)
    assert loops, f"NumPy has no supported loop for {name}"
    failures = [m for m in (check_loop(name, lp) for lp in loops) if m]
    assert not failures, f"{len(failures)} of {len(loops)} loops of {name} differ from NumPy:\n" + "\n".join(
        failures
    )


def special_values(dtype):
    """Real special and ordinary values in `dtype`: nan, +-inf, +-0, +-1, +-0.5, 2, +-100, a huge value."""
    dtype = np.dtype(dtype)
    huge = {"e": 6e4, "f": 1e30, "d": 1e300}[dtype.char]
    vals = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 100.0, -100.0, huge, -huge]
    return np.array(vals, dtype=dtype)


def compare_with_numpy(fn_np, fn_cp, np_args, cp_args, what, **kw):
    """None if cuarray matches NumPy (result, or the type of the exception raised), else a message."""
    kind, expected = outcome(fn_np, *np_args)
    try:
        if kind == "raise":
            try:
                got = fn_cp(*cp_args)
            except expected:
                return None
            except Exception as e:  # noqa: BLE001
                return f"{what}: raised {type(e).__name__} ({e}), NumPy raises {expected.__name__}"
            return f"{what}: returned {getattr(got, 'dtype', type(got))}, NumPy raises {expected.__name__}"
        got = fn_cp(*cp_args)
        assert_results(got, expected, **kw)
    except Exception as e:  # noqa: BLE001
        return f"{what}: {type(e).__name__}: {str(e)[:300]}"
    return None


def report(failures, total):
    """Fails with every differing case listed."""
    __tracebackhide__ = True
    assert not failures, f"{len(failures)} of {total} cases differ from NumPy:\n" + "\n".join(failures)
