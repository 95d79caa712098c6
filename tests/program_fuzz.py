"""Programs of array operations run on NumPy and on an implementation under test in lock step, compared after
every step (tests/test_fuzz_programs.py draws them).

A program is a list of `Step`s, each one Python statement over the array module `xp` and the names earlier
steps bound (the first steps build the inputs from literals). The same source is executed on both sides, so
the reproduction printed on a failure (`reproduction`) is exactly what was tested. After each step:
- if NumPy raised, the implementation must raise an instance of the same public exception type, and the
  program ends; if only one side raised, that is a failure;
- the new value has NumPy's dtype and shape, and its values by the step's rule in `TOLERANCE`;
- it shares memory with each live value exactly where NumPy's does (np.shares_memory vs the implementation's);
- every live value still equals NumPy's, so a step that must not write its operands did not, and an in-place
  step on a view changed the base as NumPy's did.
Where a value agreed within a tolerance but not bit for bit, the implementation's copy is overwritten with
NumPy's values (`sync`, written into the reproduction too), so that rounding differences of one step never
reach the next one (a comparison or a floor of nearly equal numbers would otherwise tell them apart).

Known differences from NumPy that the comparison allows, each with its reason: `KNOWN DIFFERENCE` in comments.
"""

import builtins
import math
import warnings
from dataclasses import dataclass, field

import numpy as np

# ---------------------------------------------------------------------------------------------------------
# Implementations
# ---------------------------------------------------------------------------------------------------------


@dataclass
class Impl:
    """An array module to compare with NumPy: how to import it, its array type, and how to read one back."""

    module: object
    import_line: str  # binds `cp` in a reproduction
    ndarray: type
    asnumpy: object
    shares_memory: object
    # Reductions of float16 accumulate in float32 (F32_ACCUMULATED), so their error is float32's.
    float16_sums_in_float32: bool = False


def numpy_impl():
    """NumPy compared with itself: exercises the generator and the comparer without a GPU."""
    return Impl(np, "import numpy as cp", np.ndarray, np.asarray, np.shares_memory)


def cuarray_impl():
    import cuarray as cp

    return Impl(cp, "import cuarray as cp", cp.ndarray, cp.asnumpy, cp.shares_memory, True)


# ---------------------------------------------------------------------------------------------------------
# Literals: exact source text for arrays and Python scalars
# ---------------------------------------------------------------------------------------------------------


def scalar_source(v):
    """Source for a Python scalar; `nan` and `inf` are names the program's namespace defines."""
    if isinstance(v, (bool, np.bool_)):
        return repr(bool(v))
    if isinstance(v, (int, np.integer)):
        return repr(int(v))
    if isinstance(v, (complex, np.complexfloating)):
        return f"complex({scalar_source(float(v.real))}, {scalar_source(float(v.imag))})"
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(v)  # shortest text that reads back as the same double (float16/32 values are exact doubles)


def array_literal(a):
    """Source of a NumPy expression giving `a`'s values, dtype and shape exactly (C order)."""
    a = np.asarray(a)
    items = ", ".join(scalar_source(v) for v in a.ravel().tolist())
    src = f"np.array([{items}], dtype=np.{a.dtype.name})"
    return src if a.ndim == 1 else f"{src}.reshape({a.shape!r})"


# ---------------------------------------------------------------------------------------------------------
# Steps and programs
# ---------------------------------------------------------------------------------------------------------


@dataclass
class Step:
    """One statement of a program.

    src: the statement, over `xp`, `np` (literals only), `nan`, `inf` and live names.
    target: the name it binds (None for an in-place step). writes: the live name it writes in place.
    rule: the comparison rule of its result (a key of TOLERANCE). info: what the rule needs (operand names,
    op name, axis, ...).
    """

    src: str
    target: str | None = None
    rule: str = "exact"
    writes: str | None = None
    info: dict = field(default_factory=dict)

    def to_source(self):
        return self.src


# ---------------------------------------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------------------------------------


class Mismatch(AssertionError):
    """A difference from NumPy. Subclasses per check and step kind (see `mismatch`), so that hypothesis
    reports distinct bugs separately instead of stopping at the first."""


_MISMATCH_TYPES = {}


def mismatch(check, kind, message):
    name = f"Mismatch_{check}_{kind}".replace(".", "_")
    cls = _MISMATCH_TYPES.get(name)
    if cls is None:
        cls = _MISMATCH_TYPES[name] = type(name, (Mismatch,), {})
    return cls(message)


def public_exception_type(exc):
    """The first public class of exc's type: NumPy raises private subclasses (UFuncTypeError,
    _UFuncOutputCastingError, ...) of the builtin types that an implementation is asked to match."""
    import numpy.exceptions as npe

    for cls in type(exc).__mro__:
        if getattr(builtins, cls.__name__, None) is cls or getattr(npe, cls.__name__, None) is cls:
            return cls
    return Exception


def _eps(dt):
    dt = np.dtype(dt)
    return float(np.finfo(dt).eps)


def _real_dtype(dt):
    dt = np.dtype(dt)
    return np.dtype(dt.char.lower()) if dt.kind == "c" else dt


ULPS = {
    "e": 2,
    "f": 16,
    "d": 16,
}  # elementwise functions: NumPy's and CUDA's libraries each err by a few ulps


def close(actual, expected, rtol, atol, skip=None, signed_zeros=False):
    """None if `actual` matches `expected` (same-shaped host arrays): NaN at the same places, infinities equal,
    other elements within atol + rtol * |expected| (complex: the distance of the two numbers); else a text.
    `skip`: a boolean mask of elements not compared (known differences)."""
    e, a = np.asarray(expected), np.asarray(actual)
    if e.dtype.kind in "biu" or (np.all(rtol == 0) and np.all(atol == 0)):
        same = (a == e) | (_isnan(a) & _isnan(e))
        if signed_zeros and e.dtype.kind in "fc":
            same &= _zero_signs(a) == _zero_signs(e)  # a NaN's sign bit is not compared: no rule fixes it
    else:
        nan_a, nan_e = _isnan(a), _isnan(e)
        with np.errstate(all="ignore"):
            diff = np.abs(a.astype(np.complex128) - e.astype(np.complex128))
            tol = atol + rtol * np.abs(e.astype(np.complex128))
            same = (nan_a & nan_e) | (~nan_a & ~nan_e & ((a == e) | (diff <= tol)))
    if skip is not None:
        same |= skip
    if np.all(same):
        return None
    bad = np.argwhere(~np.asarray(same))[:5]
    where = [tuple(int(i) for i in b) for b in bad]
    pick = (lambda x, w: x[w]) if e.ndim else (lambda x, w: x[()])
    lines = [f"  at {w}: numpy {pick(e, w)!r}, got {pick(a, w)!r}" for w in where]
    return f"{int(np.sum(~np.asarray(same)))} of {e.size} elements differ (rtol={rtol:g}):\n" + "\n".join(
        lines
    )


def _isnan(x):
    return np.isnan(x) if x.dtype.kind in "fc" else np.zeros(x.shape, bool)


def _zero_signs(x):
    """The sign bits of the zeros of x (real and imaginary parts apart); other elements count as positive."""

    def signs(r):
        return np.signbit(r) & (r == 0)

    if x.dtype.kind == "c":
        return signs(x.real) * 2 + signs(x.imag)
    return signs(x)


def _abs64(x):
    """|x| in float64, non-finite elements (and NaN) as 0: the magnitude scale of the finite data."""
    m = np.abs(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64))
    return np.where(np.isfinite(m), m, 0.0)


def _operand(env, expr):
    """The NumPy value of an operand: a live name or an expression over live names."""
    return np.asarray(env[expr] if expr in env else eval(expr, dict(env)))


def _wide(x):
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


# Reductions whose float16 data the implementation accumulates in float32 (docs/features.md: "float16 accumulates in
# float32"): their error is float32's. The others may round in float16 as NumPy does.
F32_ACCUMULATED = {"sum", "nansum", "mean", "nanmean", "cumsum", "nancumsum", "matmul"}


def expected_for(step, n_env, result, f16_sums_in_f32=True):
    """(expected values, rtol, atol, skip mask, signed_zeros) for step's result, by its rule."""
    rule, info = step.rule, step.info
    res = np.asarray(result)
    if info.get("kind") == "astype" and res.dtype.kind in "biu":
        # KNOWN DIFFERENCE: a float NaN, infinity or value outside the integer type's range has no value there;
        # C leaves the conversion undefined and NumPy warns "invalid value encountered in cast" and gives what
        # its CPU's instruction gives. Such elements are not compared.
        src = np.asarray(_operand(n_env, info["operands"][0]))
        if src.dtype.kind in "fc" and res.dtype.kind != "b":
            x = np.real(src).astype(np.float64)
            lim = np.iinfo(res.dtype)
            with np.errstate(invalid="ignore"):
                skip = ~np.isfinite(x) | (x <= float(lim.min) - 1) | (x >= float(lim.max) + 1)
            return res, 0.0, 0.0, np.broadcast_to(skip, res.shape), rule == "exact"
    if res.dtype.kind in "biu" or rule in ("exact", "value"):
        return res, 0.0, 0.0, None, rule == "exact"
    rdt = _real_dtype(res.dtype)
    eps, sub = _eps(rdt), float(np.finfo(rdt).smallest_subnormal)
    if rule == "ulp":  # elementwise functions
        k = ULPS[rdt.char]
        scale = 0.0
        if info.get("periodic"):  # sin(x) near a multiple of pi: the error is relative to |x|, not to sin(x)
            scale = max([1.0] + [float(_abs64(_operand(n_env, o)).max(initial=0)) for o in info["operands"]])
        # KNOWN DIFFERENCE: results that round to the largest finite value on one side may overflow on the
        # other; both are clipped to the finite range (a NaN or an infinity of the other sign still differs).
        big = float(np.finfo(rdt).max)
        clipped = _clip_complex(res, big)
        rtol = k * eps
        if info.get("exp_log"):
            # KNOWN DIFFERENCE: complex z ** w is exp(w log z) on both sides, the product rounded in another
            # order: the error is relative to |w log z| (an ulp of the exponent is that much of the result).
            z, w = (_wide(_operand(n_env, o)) for o in info["exp_log"])
            with np.errstate(all="ignore"):
                m = np.abs(w) * (np.abs(np.log(np.abs(z))) + np.pi)
            rtol *= 1 + float(np.max(np.where(np.isfinite(m), m, 0.0), initial=0.0))
        return clipped, rtol, k * sub + k * eps * scale, None, False
    x = _operand(n_env, info["operands"][0])
    acc_eps = (
        _eps(np.float32) if rdt == np.float16 and f16_sums_in_f32 and info["op"] in F32_ACCUMULATED else eps
    )
    op = info["op"]
    # KNOWN DIFFERENCE: parallel reductions add in another order than NumPy's pairwise sums: values agree
    # within the error bounds of both orders (about n * eps * sum|x| for n terms; products n * eps relative).
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if rule == "reduce":
            axis, keep = info.get("axis"), info.get("keepdims", False)
            kw = {"axis": axis, "keepdims": keep}
            if "ddof" in info:
                kw["ddof"] = info["ddof"]
            ref = np.asarray(getattr(np, op)(_wide(x), **kw))
            n = max(x.size // max(res.size, 1), 1)  # elements reduced into each result
            mag = _abs64(x)
            if op in ("sum", "nansum", "mean", "nanmean"):
                s = np.sum(mag, axis=axis, keepdims=keep)
                if op in ("mean", "nanmean"):
                    s = s / n
                atol = 2 * (n + 1) * acc_eps * s
                # Order-dependent overflow: partial sums may exceed the range where the total does not.
                skip = np.sum(mag, axis=axis, keepdims=keep) > float(np.finfo(rdt).max) / 4
            elif op in ("var", "std", "nanvar", "nanstd"):
                dof = max(n - info.get("ddof", 0), 1)
                s2 = np.sum(mag * mag, axis=axis, keepdims=keep) / dof
                atol = 4 * (n + 2) * acc_eps * s2
                if op.endswith("std"):
                    atol = np.sqrt(atol)
                skip = s2 * n > float(np.finfo(rdt).max) / 4
            else:  # prod, nanprod
                atol = 0.0
                skip = _product_may_overflow(x, rdt, axis, keep, cumulative=False)
            rtol = 2 * (n + 1) * acc_eps if op in ("prod", "nanprod") else 4 * eps
        elif rule == "scan":
            axis = info.get("axis")
            xs = x.ravel() if axis is None else x
            ax = 0 if axis is None else axis
            ref = np.asarray(getattr(np, op)(_wide(xs), axis=ax))
            count = np.cumsum(np.ones(xs.shape), axis=ax) if xs.ndim else np.ones(())
            if op in ("cumsum", "nancumsum"):
                atol = 2 * (count + 1) * acc_eps * np.cumsum(_abs64(xs), axis=ax)
                skip = np.cumsum(_abs64(xs), axis=ax) > float(np.finfo(rdt).max) / 4
                rtol = 4 * eps
            else:
                atol, rtol = 0.0, 2 * (count + 1) * acc_eps
                skip = _product_may_overflow(xs, rdt, ax, True, cumulative=True)
        elif rule == "matmul":
            y = _operand(n_env, info["operands"][1])
            ref = np.asarray(np.matmul(_wide(x), _wide(y)))
            s = np.matmul(_abs64(x), _abs64(y))
            k = x.shape[-1] if x.ndim else 1
            atol, rtol = 2 * (k + 1) * acc_eps * s, 4 * eps
            skip = s > float(np.finfo(rdt).max) / 4
            if res.dtype.kind == "c":
                # KNOWN DIFFERENCE: where an infinity enters a complex product (a + bi)(c + di), terms such as
                # inf * 0 give NaN in one BLAS's grouping of the four real products and not in another's
                # (neither recovers infinities as C99's Annex G does), so such elements are not compared.
                fx, fy = (np.where(np.isfinite(v), 0.0, 1.0) for v in (x, y))
                skip = skip | (np.matmul(fx, np.ones_like(fy)) + np.matmul(np.ones_like(fx), fy) > 0)
        else:
            raise ValueError(f"unknown rule {rule!r}")
        # KNOWN DIFFERENCE (float16 only): NumPy's own float16 reductions round partial sums in float16 where
        # cuarray accumulates in float32, so float16 is compared with the float64 reference. Other types are
        # compared with NumPy's result, within the error bounds of both summation orders.
        ref = ref.astype(res.dtype) if rdt == np.float16 else res
    return ref, rtol, np.asarray(atol) + 4 * sub, np.asarray(skip), False


def _clip_complex(a, big):
    if a.dtype.kind == "c":
        return np.clip(a.real, -big, big) + 1j * np.clip(a.imag, -big, big)
    return np.clip(a, -big, big)


def _product_may_overflow(x, rdt, axis, keepdims, cumulative):
    """KNOWN DIFFERENCE: a product whose partial products can leave the finite (normal) range gives inf, 0
    or NaN (inf * 0) depending on the order of multiplication; such elements are not compared. Complex
    products with non-finite factors are skipped too (their NaN and infinity parts depend on the order)."""
    fin = np.finfo(rdt)
    m = np.abs(_wide(x))
    finite = np.isfinite(m)
    logs = np.log(np.where(finite & (m > 0), m, 1.0))
    ax = axis if axis is not None else None
    if cumulative:
        hi = np.cumsum(np.where(logs > 0, logs, 0.0), axis=ax)
        lo = np.cumsum(np.where(logs < 0, logs, 0.0), axis=ax)
        nonfinite = np.cumsum(~finite, axis=ax) > 0
    else:
        hi = np.sum(np.where(logs > 0, logs, 0.0), axis=ax, keepdims=keepdims)
        lo = np.sum(np.where(logs < 0, logs, 0.0), axis=ax, keepdims=keepdims)
        nonfinite = np.any(~finite, axis=ax, keepdims=keepdims)
    skip = (hi > math.log(float(fin.max)) - 1) | (lo < math.log(float(fin.tiny)) + 1)
    if x.dtype.kind == "c":
        skip |= nonfinite
    return skip


def compare_value(step, name, n_val, c_val, impl, n_env):
    """Raises a Mismatch where c_val (the implementation's) differs from n_val (NumPy's); returns whether
    they are bit for bit equal (else the caller copies NumPy's values over)."""
    kind = step.info.get("kind", step.rule)
    if not isinstance(c_val, impl.ndarray):
        raise mismatch(
            "type", kind, f"{name}: numpy gives {type(n_val).__name__}, got {type(c_val).__name__}"
        )
    if c_val.dtype != n_val.dtype:
        raise mismatch("dtype", kind, f"{name}: dtype {c_val.dtype}, numpy {n_val.dtype}")
    if tuple(c_val.shape) != n_val.shape:
        raise mismatch("shape", kind, f"{name}: shape {tuple(c_val.shape)}, numpy {n_val.shape}")
    got = np.asarray(impl.asnumpy(c_val))
    if name == step.target or (step.writes is not None and _shares(n_val, n_env[step.writes])):
        expected, rtol, atol, skip, signed = expected_for(step, n_env, n_val, impl.float16_sums_in_float32)
        if step.rule == "ulp" and got.dtype.kind in "fc":
            got = _clip_complex(got, float(np.finfo(_real_dtype(got.dtype)).max))
    else:  # not written by this step: unchanged since the last step, where the two were made equal
        expected, rtol, atol, skip, signed = n_val, 0.0, 0.0, None, True
    err = close(got, expected, rtol, atol, skip, signed)
    if err:
        e = mismatch("values", kind, f"{name}: {err}")
        e.tol = (float(np.max(rtol)), float(np.max(atol, initial=0.0)))
        raise e
    # Bit for bit (signs of zeros and NaN payloads too), else the caller copies NumPy's values over.
    return np.asarray(impl.asnumpy(c_val)).tobytes() == np.asarray(n_val).tobytes()


def _shares(a, b):
    return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.shares_memory(a, b)


# ---------------------------------------------------------------------------------------------------------
# Running a program
# ---------------------------------------------------------------------------------------------------------


def _namespace(module):
    return {"xp": module, "np": np, "nan": float("nan"), "inf": float("inf")}


def _exec(src, env):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        # Warnings are not compared: NumPy's RuntimeWarnings (overflow, invalid, divide by zero) come from
        # the CPU's floating-point flags, which GPU kernels do not raise.
        warnings.simplefilter("ignore")
        exec(src, env)  # noqa: S102 - the program is source, so that the reproduction is what ran


# KNOWN DIFFERENCE: NumPy raises ValueError for an integer raised to a negative integer power; a kernel
# cannot raise, and cuarray gives the truncated exact power (cpp/cuarray/kernels/math_int.cuh). The program
# ends there as if both had raised.
def _allowed_numpy_only_error(step, exc):
    return isinstance(exc, ValueError) and "negative integer powers" in str(exc)


class Runner:
    """Runs steps on NumPy and on `impl` in lock step; `run(step)` returns False once the program ended
    (both raised). Failures raise Mismatch with the reproduction appended."""

    def __init__(self, impl):
        self.impl = impl
        self.n_env = _namespace(np)
        self.c_env = _namespace(impl.module)
        self.steps = []
        self.syncs = {}  # step index -> names overwritten with NumPy's values after it

    def live(self):
        return [k for k in self.n_env if k not in ("xp", "np", "nan", "inf") and not k.startswith("__")]

    echo = None  # a file each step's source is written to before it runs (the fuzz's stall reports)

    def run(self, step):
        self.steps.append(step)
        if self.echo is not None:
            self.echo.write(step.src + "\n")
            self.echo.flush()
        try:
            self._run(step)
        except Mismatch as e:
            repro = reproduction(
                self.steps, self.syncs, self.impl.import_line, e.args[0], getattr(e, "tol", (0.0, 0.0))
            )
            e.reproduction = repro
            e.args = (f"{e.args[0]}\n\nReproduction (paste into a file and run it):\n{repro}",)
            raise
        return not self.ended

    ended = False

    def _run(self, step):
        kind = step.info.get("kind", step.rule)
        n_exc = c_exc = None
        try:
            _exec(step.src, self.n_env)
        except Exception as e:  # noqa: BLE001 - its type is what is compared
            n_exc = e
        try:
            _exec(step.src, self.c_env)
        except Exception as e:  # noqa: BLE001
            c_exc = e
        if n_exc is not None:
            self.ended = True
            if c_exc is None and _allowed_numpy_only_error(step, n_exc):
                return
            want = public_exception_type(n_exc)
            if c_exc is None:
                raise mismatch("raises", kind, f"numpy raised {type(n_exc).__name__}: {n_exc}; no error")
            if not isinstance(c_exc, want):
                raise mismatch(
                    "error_type",
                    kind,
                    f"numpy raised {type(n_exc).__name__} ({want.__name__}): "
                    f"{n_exc}; got {type(c_exc).__name__}: {c_exc}",
                )
            return
        if c_exc is not None:
            raise mismatch("error", kind, f"numpy gave a result; got {type(c_exc).__name__}: {c_exc}")
        names = self.live()
        t = step.target
        if t is not None and isinstance(self.n_env[t], (np.generic, int, float, complex)):
            # KNOWN DIFFERENCE: NumPy gives a scalar (full reductions, ufuncs of 0-d arrays), cuarray a 0-d
            # array, as CuPy does. The values are compared; NumPy's side continues with a 0-d array, so that
            # both sides hold arrays (the reproduction says so).
            c = self.c_env[t]
            if not (
                (isinstance(c, self.impl.ndarray) and c.ndim == 0)
                or (self.impl.ndarray is np.ndarray and isinstance(c, (np.generic, int, float, complex)))
            ):
                raise mismatch("type", kind, f"{t}: numpy gives a scalar, got {type(c).__name__}")
            step.info["scalar"] = True
            _exec(f"{t} = xp.asarray({t})", self.n_env)
            _exec(f"{t} = xp.asarray({t})", self.c_env)
        # KNOWN DIFFERENCE: the memory layout of a new array is NumPy's own choice, which no function promises;
        # cuarray follows it for ufuncs and joins (Note [Layout of new arrays]), but not everywhere. Whether a
        # reshape, ravel or ascontiguousarray then copies follows that layout, so sharing is compared only where
        # the operand's layout is the same on both sides.
        same_layout = True
        if step.info.get("layout_dependent"):
            n_op, c_op = self.n_env[step.info["operands"][0]], self.c_env[step.info["operands"][0]]
            same_layout = all(
                bool(n_op.flags[f]) == bool(c_op.flags[f]) for f in ("C_CONTIGUOUS", "F_CONTIGUOUS")
            )
        if t is not None and same_layout:
            for other in names:
                if other == t:
                    continue
                a, b = self.n_env[t], self.n_env[other]
                # (Where NumPy returns the operand itself, astype(copy=False) say, a view of it will do.)
                want = bool(np.shares_memory(a, b))
                got = bool(self.impl.shares_memory(self.c_env[t], self.c_env[other]))
                if want != got:
                    raise mismatch(
                        "shares_memory", kind, f"shares_memory({t}, {other}): numpy {want}, got {got}"
                    )
        synced = []
        for name in names:
            n_val, c_val = self.n_env[name], self.c_env[name]
            if not compare_value(step, name, n_val, c_val, self.impl, self.n_env):
                synced.append(name)
        for name in synced:
            _exec(
                f"{name}[...] = xp.asarray(_numpy_values)",
                {**self.c_env, "_numpy_values": np.array(self.n_env[name])},
            )
        if synced:
            self.syncs[len(self.steps) - 1] = synced

    def reproduction(self):
        return reproduction(self.steps, self.syncs, self.impl.import_line)


def reproduction(steps, syncs, import_line, message="", tol=(0.0, 0.0)):
    """A self-contained script: the program as a function of the array module, run with NumPy and with the
    implementation; the last step's result (or error) of each printed, then compared as the test did."""
    body = []
    last = len(steps) - 1
    for i, s in enumerate(steps):
        if i == last:
            body += [
                "    try:",
                f"        {s.to_source()}  # the step that differs",
                "    except Exception as e:",
                "        print(xp.__name__, 'raises', type(e).__name__, e)",
                "        return {'raised': e}",
            ]
        else:
            body.append(f"    {s.to_source()}")
        if s.info.get("scalar"):
            body.append(f"    {s.target} = xp.asarray({s.target})  # numpy gives a scalar here")
        for name in syncs.get(i, ()):
            body.append(
                f"    sync(xp, {name!r}, {name})  # agreed within tolerance; go on from numpy's values"
            )
    t = steps[last].target or steps[last].writes
    comment = "\n".join("# " + line for line in message.splitlines()[:12])
    return f"""{comment}
import builtins

import numpy as np
import numpy.exceptions
{import_line}

nan, inf = float("nan"), float("inf")
numpy_values = {{}}
to_numpy = getattr(cp, "asnumpy", np.asarray)


def sync(xp, name, value):
    if xp is np:
        numpy_values[name] = np.array(value)
    else:
        value[...] = cp.asarray(numpy_values[name])


def public(e):
    return next(k for k in type(e).__mro__
                if getattr(builtins, k.__name__, None) is k or getattr(numpy.exceptions, k.__name__, None) is k)


def program(xp):
{chr(10).join(body)}
    return locals()


n, c = program(np), program(cp)
assert ("raised" in n) == ("raised" in c), "only one of them raised"
if "raised" in n:
    assert isinstance(c["raised"], public(n["raised"])), "not the same type of exception"
else:
    name = {t!r}
    print("numpy:  ", repr(n[name]))
    print("cuarray:", repr(c[name]))
    for other in n:
        if other not in ("xp", name) and hasattr(n[other], "shape"):
            shared = np.shares_memory(n[name], n[other]), cp.shares_memory(c[name], c[other])
            assert shared[0] == shared[1], f"shares_memory({{name}}, {{other}}): numpy, cuarray: {{shared}}"
    for other in n:
        if other != "xp" and hasattr(n[other], "shape"):
            got, want = to_numpy(c[other]), np.asarray(n[other])
            assert got.dtype == want.dtype and got.shape == want.shape, (other, got.dtype, got.shape)
            tol = {tol!r} if other == name else (0.0, 0.0)
            np.testing.assert_allclose(got, want, rtol=tol[0], atol=tol[1], equal_nan=True, err_msg=other)
            if want.dtype.kind == "f" and tol == (0.0, 0.0):
                np.testing.assert_array_equal(np.signbit(got), np.signbit(want), err_msg=other + ": signs")
"""
