"""cuarray.scipy.signal's B-spline and symmetric IIR functions without a device: names and signatures (SciPy's;
symiirorder1's first parameter CuPy's); the host plans (the terms of the mirror-symmetric starting sums, where
they stop, the coefficients in the working type) reproduce SciPy's C starting values bit for bit; the kernels'
steps, replayed on the host operation by operation, give SciPy's symiirorder1 and sepfir2d bit for bit and its
symiirorder2, cspline1d and qspline1d to rounding; SciPy's (or CuPy's) errors before any device work; the
kernels compile for sm_90, round every operation and take no more operands than the engine allows; the Python
code run on host arrays of every layout, with each kernel replayed on the memory it is handed (a raw array must be
C-contiguous), gives SciPy's values for a contiguous copy of the signal."""

import inspect
import itertools
import math
import pathlib
import re
import warnings

import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
import scipy.signal._spline as scipy_spline
from cuarray.scipy.signal import _bsplines as bsp
from cuarray.scipy.signal import _symiir as sym
from signal_asserts import assert_rounds_every_operation, compile_kernel, kernel_sources, same_error

pytestmark = pytest.mark.nogpu

NAMES = [
    "cspline1d",
    "cspline1d_eval",
    "cspline2d",
    "gauss_spline",
    "qspline1d",
    "qspline1d_eval",
    "qspline2d",
    "sepfir2d",
    "spline_filter",
    "symiirorder1",
    "symiirorder2",
]


def test_names_and_signatures():
    """SciPy's parameters, defaults and kinds; symiirorder1's first one is CuPy's `input` (SciPy's `signal`)."""
    assert set(NAMES) <= set(sig.__all__)
    for name in NAMES:
        ours = getattr(sig, name)
        assert ours.__name__ == name
        if name == "sepfir2d":  # SciPy's C function has no signature: its docstring's
            assert [p.name for p in inspect.signature(ours).parameters.values()] == ["input", "hrow", "hcol"]
            continue
        expected = [
            (p.name, p.default, p.kind) for p in inspect.signature(getattr(ss, name)).parameters.values()
        ]
        if name == "symiirorder1":
            expected[0] = ("input",) + expected[0][1:]
        assert [(p.name, p.default, p.kind) for p in inspect.signature(ours).parameters.values()] == expected


# ------------------------------------------------------------------------------- the kernels, step by step
class Pair:
    """A complex value as the kernels hold it: two reals of a NumPy type, C99's products (each operation rounded
    on its own, as NumPy's scalars round them)."""

    def __init__(self, re, im):
        self.re, self.im = re, im

    def __add__(self, other):
        return Pair(self.re + other.re, self.im + other.im)

    def __sub__(self, other):
        return Pair(self.re - other.re, self.im - other.im)

    def __mul__(self, other):
        return Pair(self.re * other.re - self.im * other.im, self.re * other.im + self.im * other.re)

    def __rmul__(self, real):  # a real coefficient times a complex value
        return Pair(real * self.re, real * self.im)


def values(a, dtype):
    """The host values of `a` as the kernels hold them in `dtype`: NumPy scalars, complex ones as Pairs."""
    dtype = np.dtype(dtype)
    a = np.asarray(a).astype(dtype)
    if dtype.kind != "c":
        return list(a)
    return [Pair(v.real, v.imag) for v in a]


def as_array(vals, dtype):
    return np.array([complex(v.re, v.im) if isinstance(v, Pair) else v for v in vals], dtype)


def replay_first_order(x, powers, coefficients, dtype):
    """cuarray_symiir1's steps for one signal x (sym_first_order in _symiir.py's preamble)."""
    x, w = values(x, dtype), values(powers, dtype)
    z1, a1, q, c0 = values(coefficients, dtype)
    one, zero = values([1, 0], dtype)
    n, y = len(x), [None] * len(x)
    acc = x[0]
    for k in range(len(w)):
        acc = acc + w[k] * x[k]
    y[0], z = acc, acc * z1
    for t in range(1, n):
        y[t] = z + one * x[t]
        z = zero * x[t] - a1 * y[t]
    last = q * y[n - 1]
    z = last * z1
    for t in range(n - 2, -1, -1):
        v = y[t]
        y[t] = z + c0 * v
        z = zero * v - a1 * y[t]
    y[n - 1] = last
    return as_array(y, dtype)


def replay_second_order(x, terms, counts, heads, section, dtype):
    """cuarray_symiir2's steps for one signal x (sym_second_order); real coefficients, real or complex x."""
    real = np.dtype(np.dtype(dtype).char.lower()).type
    x, w = values(x, dtype), [real(v) for v in terms]
    cs, s4, s5 = (real(v) for v in section)
    a3, a2, zero = -s5, -s4, real(0)
    (k1, k2, k3, k4), (p0, p1), n = counts, heads, len(x)
    y, at = [None] * n, 2
    y0 = w[0] * x[0]
    for k in range(k1):
        y0 = y0 + w[at + k] * x[k]
    at += k1
    y1 = w[0] * x[p0]
    y1 = y1 + w[1] * x[p1]
    for k in range(k2):
        y1 = y1 + w[at + k] * x[k]
    at += k2
    y[0], y[1] = y0, y1

    def section_pass(first, last, step, source, z0, z1):
        for t in range(first, last, step):
            cur = source[t]
            y[t] = cs * cur + z0
            z0 = zero * cur - s4 * y[t] + z1
            z1 = zero * cur - s5 * y[t]

    section_pass(2, n, 1, x, a3 * y0 + a2 * y1, a3 * y1)
    e0 = e1 = values([0], dtype)[0]
    for k in range(k3):
        e0 = e0 + w[at + k] * x[n - 1 - k]
    at += k3
    for k in range(k4):
        e1 = e1 + w[at + k] * x[n - 1 - k]
    section_pass(n - 3, -1, -1, list(y), a3 * e0 + a2 * e1, a3 * e1)
    y[n - 1], y[n - 2] = e0, e1
    return as_array(y, dtype)


def signal(n, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n) + (1j * rng.standard_normal(n) if np.dtype(dtype).kind == "c" else 0)
    return x.astype(dtype)


PRECISIONS = [-1.0, 2.0, 1.0, 0.5, 0.1, 2e-3, 1e-3]  # CuPy's test_symiirorder1 and test_symiirorder2's
SIZES = [2, 3, 11, 20, 51, 120]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_symiirorder1_start_is_scipys(dtype):
    """The powers of z1 that the plan keeps, added to x[0] in order, are SciPy's symiirorder1_ic bit for bit;
    where SciPy's sum does not stop, the plan raises its error."""
    for n, precision, z1 in itertools.product(SIZES, PRECISIONS, [0.5, -0.3, 0.9]):
        x = signal(n, dtype, n)
        try:
            expected = scipy_spline.symiirorder1_ic(x, z1, precision)[0, 0]
        except ValueError as e:
            with pytest.raises(ValueError, match=str(e)):
                sym.iir1_plan(x.dtype, 2.0, z1, precision, n)
            continue
        work, powers, _ = sym.iir1_plan(x.dtype, 2.0, z1, precision, n)
        xs, ws = values(x, work), values(powers, work)
        acc = xs[0]
        for k in range(len(ws)):
            acc = acc + ws[k] * xs[k]
        assert as_array([acc], work)[0] == expected, (n, precision, z1)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_symiirorder2_starts_are_scipys(dtype):
    """The four sums of the plan's terms, in order, are SciPy's symiirorder2_ic_fwd and _bwd bit for bit."""
    cases = [(0.5, 0.0), (0.5, math.pi), (0.3, 1.1), (-0.6, 2.0), (0.9, 0.4), (0.2, 3.0)]
    for n, precision, (r, omega) in itertools.product(SIZES, PRECISIONS, cases):
        x = signal(n, dtype, n)
        try:
            fwd = scipy_spline.symiirorder2_ic_fwd(x, r, omega, precision)[0]
            if n == 2:  # the causal start exists; SciPy's symiirorder2 fails after it (its sosfilt)
                with pytest.raises(ValueError, match="cannot reshape"):
                    sym.iir2_plan(x.dtype, r, omega, precision, n)
                continue
            bwd = scipy_spline.symiirorder2_ic_bwd(x, r, omega, precision)[0]
        except ValueError as e:
            with pytest.raises(ValueError, match=str(e)):
                sym.iir2_plan(x.dtype, r, omega, precision, n)
            continue
        _, terms, (k1, k2, k3, k4), _ = sym.iir2_plan(x.dtype, r, omega, precision, n)
        t = np.dtype(dtype).type
        hc0, hc1, rest = terms[0], terms[1], terms[2:]
        sums = [hc0 * x[0], hc0 * x[1] + hc1 * x[0], t(0), t(0)]
        for s, (count, reverse) in enumerate([(k1, False), (k2, False), (k3, True), (k4, True)]):
            for k in range(count):
                sums[s] = sums[s] + rest[k] * x[n - 1 - k if reverse else k]
            rest = rest[count:]
        np.testing.assert_array_equal(np.array(sums, dtype), np.concatenate([fwd, bwd]), strict=True)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128", "int16"])
def test_symiirorder1_steps_give_scipys_values(dtype):
    """The kernel's steps from the plan give SciPy's symiirorder1 bit for bit (float16 in float32 with float16
    coefficients, integers in float64), and its type."""
    for n, precision, (c0, z1) in itertools.product(
        SIZES, PRECISIONS, [(2.0, 0.5), (-1.5, -0.3), (1.0, 0.9)]
    ):
        x = signal(n, dtype, n) if dtype != "int16" else np.arange(n, dtype=dtype) % 7
        try:
            expected = ss.symiirorder1(x, c0, z1, precision)
        except ValueError:
            continue  # the plan's errors: test_symiirorder1_start_is_scipys
        work, powers, coefficients = sym.iir1_plan(x.dtype, c0, z1, precision, n)
        got = replay_first_order(x.astype(work), powers, coefficients, work)
        np.testing.assert_array_equal(got, expected, strict=True)


def test_symiirorder2_steps_give_scipys_values():
    """To the rounding of SciPy's starting states (its BLAS matmul may fuse them): most results exactly."""
    exact = total = 0
    cases = [(0.5, 0.0), (0.5, math.pi), (0.3, 1.1), (-0.6, 2.0), (0.9, 0.4)]
    for dtype, n, precision, (r, omega) in itertools.product(
        ["float32", "float64"], SIZES, PRECISIONS, cases
    ):
        x = signal(n, dtype, n)
        try:
            expected = ss.symiirorder2(x, r, omega, precision)
        except ValueError:
            continue
        work, terms, counts, section = sym.iir2_plan(x.dtype, r, omega, precision, n)
        got = replay_second_order(x, terms, counts, (1, 0), section, work)
        assert got.dtype == expected.dtype
        scale = max(1.0, np.abs(expected).max())
        np.testing.assert_allclose(got, expected, rtol=0, atol=64 * np.finfo(work).eps * scale)
        exact += np.array_equal(got, expected)
        total += 1
    assert total > 100 and exact > total // 2, (exact, total)


@pytest.mark.parametrize("dtype", ["float64", "complex128", "float32", "int64"])
def test_spline_coefficients_steps_give_scipys_values(dtype):
    """cspline1d and qspline1d (smoothing 0: symiirorder1's steps over every sample; cspline1d smoothed:
    symiirorder2's) from their plans, against SciPy's: one sample exactly, the rest to rounding."""
    work = np.complex128 if dtype == "complex128" else np.float64
    for n in [1, 2, 3, 5, 10, 64]:
        x = signal(n, dtype, n) if dtype != "int64" else np.arange(n, dtype=dtype) - 3
        for scipys, zi, gain in [
            (ss.cspline1d, -2 + math.sqrt(3), 6.0),
            (ss.qspline1d, -3 + 2 * math.sqrt(2), 8.0),
        ]:
            expected = scipys(x)
            powers, coefficients = bsp.first_order_plan(zi, n)
            got = replay_first_order(x, powers, coefficients, work) * (gain if n > 1 else 1)
            assert got.dtype == expected.dtype
            if n == 1:
                np.testing.assert_array_equal(got, expected, strict=True)
            np.testing.assert_allclose(got, expected, rtol=0, atol=1e-14 * max(1, np.abs(expected).max()))
        for lamb in [0.5, 1.0, 8.0]:
            if n < 3:
                same_error(
                    lambda lamb=lamb, n=n: bsp.smoothing_plan(lamb, n),
                    lambda lamb=lamb, x=x: ss.cspline1d(x, lamb),
                )
                continue
            expected = ss.cspline1d(x, lamb)
            terms, counts, heads, section = bsp.smoothing_plan(lamb, n)
            got = replay_second_order(x, terms, counts, heads, section, work)
            assert got.dtype == expected.dtype
            np.testing.assert_allclose(got, expected, rtol=0, atol=1e-13 * max(1, np.abs(expected).max()))


def replay_sepfir2d(image, hrow, hcol):
    """cuarray_sepfir2d's sums, rows then columns (bsp_mirror_fir), with each product and sum rounded."""
    dtype = image.dtype

    def fir(line, h):
        n, taps, out = len(line), len(h), []
        xs, hs = values(line, dtype), values(h, dtype)
        for p in range(n):
            acc = values([0], dtype)[0]
            for j in range(taps):
                q = (p + taps // 2 - j) % (2 * n)
                q = 2 * n - 1 - q if q >= n else q
                acc = acc + hs[j] * xs[q]
            out.append(acc)
        return as_array(out, dtype)

    rows = np.array([fir(row, hrow) for row in image], dtype).reshape(image.shape)
    return np.array([fir(col, hcol) for col in rows.T], dtype).T.reshape(image.shape)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int8", "int32", "bool"])
def test_sepfir2d_steps_give_scipys_values(dtype):
    """SciPy's values bit for bit, in the result type of sepfir2d_dtype (SciPy's for every type it takes)."""
    for shape, taps in [
        ((6, 7), (3, 1)),
        ((5, 9), (5, 3)),
        ((9, 5), (1, 5)),
        ((4, 4), (3, 3)),
        ((1, 1), (1, 1)),
    ]:
        image = signal(shape[0] * shape[1], dtype, 3).reshape(shape)
        hrow, hcol = signal(taps[0], dtype, 4), signal(taps[1], dtype, 5)
        expected = ss.sepfir2d(image, hrow, hcol)
        result_type = bsp.sepfir2d_dtype(image.dtype)
        assert expected.dtype == result_type
        got = replay_sepfir2d(image.astype(result_type), hrow.astype(result_type), hcol.astype(result_type))
        np.testing.assert_array_equal(got, expected, strict=True)


def test_result_types():
    for dtype in [
        "float16",
        "float32",
        "float64",
        "complex64",
        "complex128",
        "int8",
        "uint16",
        "int32",
        "bool",
    ]:
        image = np.ones((2, 2), dtype)
        assert bsp.sepfir2d_dtype(image.dtype) == ss.sepfir2d(image, image[0, :1], image[0, :1]).dtype
        x = np.ones(30, dtype)
        work = sym.iir1_plan(x.dtype, 2.0, 0.5, 0.1, 30)[0]
        assert work == ss.symiirorder1(x, 2.0, 0.5, 0.1).dtype
        if dtype[0] != "c":
            assert sym.iir2_plan(x.dtype, 0.5, 0.3, 0.1, 30)[0] == ss.symiirorder2(x, 0.5, 0.3, 0.1).dtype


# ---------------------------------------------------------------------------------------------------- errors
X40 = np.linspace(0.0, 1.0, 40)
ERRORS = {
    "symiirorder1 z1 1": (sig.symiirorder1, ss.symiirorder1, (X40, 2.0, 1.0)),
    "symiirorder1 z1 -1.5": (sig.symiirorder1, ss.symiirorder1, (X40, 2.0, -1.5)),
    "symiirorder1 3-D": (sig.symiirorder1, ss.symiirorder1, (np.ones((2, 2, 4)), 2.0, 0.5)),
    "symiirorder1 0-D": (sig.symiirorder1, ss.symiirorder1, (np.float64(1.0), 2.0, 0.5)),
    "symiirorder1 empty": (sig.symiirorder1, ss.symiirorder1, (np.ones(0), 2.0, 0.5, 0.9)),
    "symiirorder1 one sample": (sig.symiirorder1, ss.symiirorder1, (np.ones(1), 2.0, 0.5, 0.9)),
    "symiirorder1 short": (sig.symiirorder1, ss.symiirorder1, (X40[:20], 2.0, 0.5)),
    "symiirorder1 rows short": (sig.symiirorder1, ss.symiirorder1, (np.ones((3, 20)), 2.0, 0.5)),
    "symiirorder1 complex c0": (sig.symiirorder1, ss.symiirorder1, (X40, 2.0 + 1j, 0.5)),
    "symiirorder2 r 1": (sig.symiirorder2, ss.symiirorder2, (X40, 1.0, 0.5)),
    "symiirorder2 3-D": (sig.symiirorder2, ss.symiirorder2, (np.ones((2, 2, 4)), 0.5, 0.5)),
    "symiirorder2 0-D": (sig.symiirorder2, ss.symiirorder2, (np.float64(1.0), 0.5, 0.5)),
    "symiirorder2 complex": (sig.symiirorder2, ss.symiirorder2, (X40 + 1j, 0.5, 0.5)),
    "symiirorder2 complex64": (sig.symiirorder2, ss.symiirorder2, (X40.astype("F"), 0.5, 0.5)),
    "symiirorder2 two samples": (sig.symiirorder2, ss.symiirorder2, (np.ones(2), 0.1, 0.3, 0.9)),
    "symiirorder2 short": (sig.symiirorder2, ss.symiirorder2, (X40[:10], 0.5, 0.5)),
    "symiirorder2 r -2": (sig.symiirorder2, ss.symiirorder2, (X40, -2.0, 0.3)),
    "cspline1d 0-D": (sig.cspline1d, ss.cspline1d, (np.float64(3.0),)),
    "cspline1d empty": (sig.cspline1d, ss.cspline1d, (np.ones(0),)),
    "cspline1d small lamb": (sig.cspline1d, ss.cspline1d, (X40, 0.001)),
    "cspline1d negative lamb": (sig.cspline1d, ss.cspline1d, (X40, -1.0)),
    "cspline1d 0-D lamb": (sig.cspline1d, ss.cspline1d, (np.float64(3.0), 1.0)),
    "cspline1d 0-D small lamb": (sig.cspline1d, ss.cspline1d, (np.float64(3.0), 0.001)),
    "cspline1d one sample lamb": (sig.cspline1d, ss.cspline1d, (np.ones(1), 1.0)),
    "cspline1d two samples lamb": (sig.cspline1d, ss.cspline1d, (np.ones(2), 1.0)),
    "qspline1d lamb": (sig.qspline1d, ss.qspline1d, (X40, 1.0)),
    "qspline1d empty": (sig.qspline1d, ss.qspline1d, (np.ones(0),)),
    "cspline1d_eval empty": (sig.cspline1d_eval, ss.cspline1d_eval, (np.ones(0), np.zeros(1))),
    "qspline1d_eval empty": (sig.qspline1d_eval, ss.qspline1d_eval, (np.ones(0), np.zeros(1))),
    "cspline2d short rows": (sig.cspline2d, ss.cspline2d, (np.ones((30, 5)),)),
    "cspline2d one sample": (sig.cspline2d, ss.cspline2d, (np.ones(1),)),
    "cspline2d smoothing short": (sig.cspline2d, ss.cspline2d, (np.ones((5, 6)), 1.0)),
    "cspline2d complex smoothing": (sig.cspline2d, ss.cspline2d, (np.ones((30, 30), "F"), 1.0)),
    "qspline2d lamb": (sig.qspline2d, ss.qspline2d, (np.ones((30, 30)), 1.0)),
    "qspline2d short columns": (sig.qspline2d, ss.qspline2d, (np.ones((5, 30)),)),
    "spline_filter int": (sig.spline_filter, ss.spline_filter, (np.ones((30, 30), "i"),)),
    "spline_filter float16": (sig.spline_filter, ss.spline_filter, (np.ones((30, 30), "e"),)),
    "spline_filter one sample": (sig.spline_filter, ss.spline_filter, (np.array([0.0]), 0)),
    "sepfir2d 1-D": (sig.sepfir2d, ss.sepfir2d, (np.ones(5), [1.0], [1.0])),
    "sepfir2d 3-D": (sig.sepfir2d, ss.sepfir2d, (np.ones((2, 5, 5)), [1.0], [1.0])),
    "gauss_spline n -1": (sig.gauss_spline, ss.gauss_spline, (X40, -1)),
    "gauss_spline n -2": (sig.gauss_spline, ss.gauss_spline, (X40, -2)),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_scipys_errors_before_the_device(case):
    ours, scipys, args = ERRORS[case]
    same_error(lambda: ours(*args), lambda: scipys(*args))


def test_cupys_errors():
    """CuPy's message for bad FIR filters (SciPy's: 'hrow and hcol must be odd length', or its conversion's);
    CuPy's TypeError for a complex z1 with a real signal (SciPy 1.17 warns and gives a complex result); CuPy's
    TypeError for host arrays where SciPy's checks pass."""
    image = np.ones((5, 5))
    for hrow, hcol in [([1.0, 2.0], [1.0]), ([1.0], np.ones((1, 3))), (1.0, [1.0]), ([], [1.0])]:
        with pytest.raises(ValueError, match="hrow and hcol must be 1 dimensional and odd length"):
            sig.sepfir2d(image, hrow, hcol)
    with pytest.raises(TypeError, match="float"):
        sig.symiirorder1(X40, 2.0, 0.5 + 0.1j)
    with pytest.raises(TypeError, match="Unsupported type"):
        sig.symiirorder1(X40, 2.0, 0.5, 0.1)
    with pytest.raises(TypeError, match="Unsupported type"):
        sig.sepfir2d(image, [1.0], [1.0])
    for function in (sig.cspline1d, sig.qspline1d, sig.cspline2d, sig.qspline2d, sig.spline_filter):
        with pytest.raises(TypeError, match="Unsupported type"):
            function(
                np.ones((30, 30)) if function in (sig.cspline2d, sig.qspline2d, sig.spline_filter) else X40
            )
    with pytest.raises(TypeError, match="Unsupported type"):
        sig.cspline1d_eval(X40, [0.5])
    with pytest.raises(ValueError, match="rank-1"):  # SciPy's fails to broadcast, or broadcasts
        sig.cspline1d(np.ones((5, 5)))


def test_precision_defaults():
    """SciPy's C defaults outside (0, 1], in the working real type (CuPy's symiirorder1 takes finfo's resolution)."""
    for precision, real, expected in [
        (-1.0, "float32", 1e-6),
        (0.0, "float64", 1e-11),
        (1.5, "float64", 1e-11),
        (1.0, "float32", 1.0),
        (0.25, "float64", 0.25),
    ]:
        got = sym._precision(precision, np.dtype(real))
        assert got.dtype == real and got == np.dtype(real).type(expected)
    for dtype, expected in [("float32", 1e-3), ("complex64", 1e-3), ("float64", 1e-6), ("int32", 1e-6)]:
        assert bsp._precision_2d(np.ones(1, dtype), -1.0) == expected
        assert bsp._precision_2d(np.ones(1, dtype), 1.0) == expected
        assert bsp._precision_2d(np.ones(1, dtype), 0.5) == 0.5


# --------------------------------------------------------------------------------------------------- kernels
@pytest.mark.parametrize("module", [sym, bsp], ids=["symiir", "bsplines"])
def test_kernels_compile(module):
    sources = kernel_sources(module)
    assert len(sources) == 2 * len(module._SOURCES)
    for _, _, source, name, options in sources:
        code, is_cubin = compile_kernel(source, name, options, 90)
        assert is_cubin and code[:4] == b"\x7fELF"


@pytest.mark.parametrize("module", [sym, bsp], ids=["symiir", "bsplines"])
def test_kernels_round_every_operation(module):
    """Compiled with -fmad=false, the PTX rounds each product and sum on its own, as SciPy's C loops do."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for source in kernel_sources(module):
            assert_rounds_every_operation(*source)


def max_operands():
    """The engine's kMaxOperands: the most inputs and outputs, raw arrays and scalars included, that an
    elementwise kernel takes (checked in cpp/cuarray/ops/elementwise.cpp when it is launched, so on a device only;
    the Python layer does not expose it)."""
    header = pathlib.Path(__file__).resolve().parents[2] / "cpp" / "cuarray" / "ops" / "elementwise.h"
    match = re.search(r"constexpr int kMaxOperands = (\d+);", header.read_text())
    assert match, f"kMaxOperands not found in {header}"
    return int(match.group(1))


@pytest.mark.parametrize("module", [sym, bsp], ids=["symiir", "bsplines"])
def test_kernels_take_at_most_the_engines_operands(module):
    limit = max_operands()
    assert limit >= 6
    for name in module._SOURCES:
        kernel = module._kernel(name)
        assert len(kernel.in_params) + len(kernel.out_params) <= limit, name


# ----------------------------------------------------------------------- layouts: the kernels on host memory
class HostKernel:
    """A kernel of _symiir.py or _bsplines.py run on the host for the arrays that the Python code hands it: the
    arguments checked as the engine checks them (their number, at most kMaxOperands; raw arrays' dtypes, T bound
    by the first raw one), every raw array C-contiguous and 1-D (the bodies reach elements from &x[0]: Note
    [Kernel operands and layouts] in _symiir.py), then each thread i replayed with its body's indexing of that
    flat memory, the outputs written into the array passed."""

    def __init__(self, name, kernel):
        self.name, self.params = name, kernel.in_params + kernel.out_params

    def __call__(self, *args, size):
        assert len(args) == len(self.params) <= max_operands(), self.name
        bound, t = {}, None
        for p, a in zip(self.params, args):
            if p.raw:
                assert isinstance(a, np.ndarray) and a.ndim == 1, (self.name, p.name, type(a))
                assert a.flags.c_contiguous, (self.name, p.name, a.strides)
                t = a.dtype if t is None and p.placeholder else t
                assert a.dtype == (t if p.placeholder else p.dtype), (self.name, p.name, a.dtype)
            elif p.dtype == np.int64:
                a = int(a)
            bound[p.name] = a
        values_type = np.result_type(t, np.complex64) if self.name.endswith("_complex") else t
        thread = _THREADS[self.name.removesuffix("_complex")]
        for i in range(size):
            thread(i, bound, values_type)


def gather(flat, at, dtype):
    """The values at element indices `at` of flat memory: complex ones from their (real, imaginary) pairs."""
    if np.dtype(dtype).kind != "c":
        return flat[at]
    out = np.empty(len(at), dtype)
    out.real, out.imag = flat[2 * at], flat[2 * at + 1]
    return out


def scatter(flat, at, vals):
    if vals.dtype.kind != "c":
        flat[at] = vals
    else:
        flat[2 * at], flat[2 * at + 1] = vals.real, vals.imag


def first_order_thread(i, a, dtype):
    """cuarray_symiir1's body: signal i time-major, `signals` apart, from element i."""
    at = i + a["signals"] * np.arange(a["n"])
    x = gather(a["x"], at, dtype)
    powers, coefficients = gather(a["w"], np.arange(a["terms"]), dtype), gather(a["c"], np.arange(4), dtype)
    scatter(a["y"], at, replay_first_order(x, powers, coefficients, dtype))


def second_order_thread(i, a, dtype):
    """cuarray_symiir2's body: w holds cs, s4, s5, then hc0, hc1 and the terms; plan the counts, then p0, p1."""
    at = i + a["signals"] * np.arange(a["n"])
    w, plan = a["w"], a["plan"]
    y = replay_second_order(gather(a["x"], at, dtype), w[3:], plan[:4], plan[4:6], w[:3], dtype)
    scatter(a["y"], at, y)


def sepfir2d_thread(i, a, dtype):
    """cuarray_sepfir2d's body: output element i from the line through it, `stride` apart (bsp_mirror_fir)."""
    taps, length, stride = a["taps"], a["length"], a["stride"]
    p = (i // stride) % length
    line = values(gather(a["x"], i - p * stride + stride * np.arange(length), dtype), dtype)
    h = values(gather(a["h"], np.arange(taps), dtype), dtype)
    acc = values([0], dtype)[0]
    for j in range(taps):
        q = (p + taps // 2 - j) % (2 * length)
        acc = acc + h[j] * line[2 * length - 1 - q if q >= length else q]
    scatter(a["y"], np.array([i]), as_array([acc], dtype))


_THREADS = {
    "cuarray_symiir1": first_order_thread,
    "cuarray_symiir2": second_order_thread,
    "cuarray_sepfir2d": sepfir2d_thread,
}


@pytest.fixture
def kernels_on_host(monkeypatch):
    """The modules' Python code on NumPy arrays (whose views, copies and flags cuarray's follow), each kernel a
    HostKernel."""
    for module in (sym, bsp):
        monkeypatch.setattr(module, "cp", np)
        monkeypatch.setattr(module, "require_device", lambda a: None)
        monkeypatch.setattr(module, "_kernel", lambda name, make=module._kernel: HostKernel(name, make(name)))


VIEWS_2D = {
    "reversed rows": lambda a: a[:, ::-1],
    "every other": lambda a: a[::2, ::2],
    "Fortran order": np.asfortranarray,
    "offset": lambda a: a[1:, 3:],
    "reversed, strided": lambda a: a[::-1, 1::3],
    "transposed": lambda a: a.T,
}
VIEWS_1D = {
    "reversed": lambda a: a[0, ::-1],
    "strided": lambda a: a[1, ::2],
    "column": lambda a: a[:, 5],
    "offset": lambda a: a[2, 7:],
}


def agree_on_host(ours, theirs, view, x, exact):
    """ours on view(x) (the host kernels) is theirs (SciPy's) on a C-contiguous copy of it: its values (exactly
    or to rounding), dtype, shape and contiguity, or its error; True where SciPy gave a result. A copy, as SciPy
    1.17's symiirorder1 misreads a non-contiguous signal (Note [Symmetric IIR types and arguments])."""
    __tracebackhide__ = True
    signal, copy = view(x), np.ascontiguousarray(view(x))
    try:
        expected = theirs(copy)
    except Exception as e:  # noqa: BLE001 (ours must raise it too)
        with pytest.raises(type(e), match=re.escape(str(e))):
            ours(signal)
        return False
    got = ours(signal)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert got.flags.c_contiguous
    if exact:
        np.testing.assert_array_equal(got, expected, strict=True)
    else:
        tol = 1e-5 if expected.dtype.char in "fF" else 1e-12
        np.testing.assert_allclose(got, expected, rtol=0, atol=tol * max(1.0, np.abs(expected).max()))
    return True


@pytest.mark.parametrize("view", list(VIEWS_2D))
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
def test_layouts_2d(kernels_on_host, view, dtype):
    """symiirorder1 (exactly), symiirorder2, cspline2d, qspline2d, spline_filter and sepfir2d (exactly) on views
    of every layout; complex signals through the complex kernels."""
    view = VIEWS_2D[view]
    x = signal(30 * 48, dtype, 2).reshape(30, 48)
    ran = agree_on_host(
        lambda v: sig.symiirorder1(v, 2.0, 0.5, 1e-4),
        lambda v: ss.symiirorder1(v, 2.0, 0.5, 1e-4),
        view,
        x,
        True,
    )
    ran += agree_on_host(
        lambda v: sig.sepfir2d(v, [1.0, 2.0, 3.0], [0.5, 2.0, 1.0, 4.0, -1.0]),
        lambda v: ss.sepfir2d(v, [1.0, 2.0, 3.0], [0.5, 2.0, 1.0, 4.0, -1.0]),
        view,
        x,
        True,
    )
    if dtype[0] != "c":
        ran += agree_on_host(
            lambda v: sig.symiirorder2(v, 0.5, 0.3, 1e-4),
            lambda v: ss.symiirorder2(v, 0.5, 0.3, 1e-4),
            view,
            x,
            False,
        )
        for lamb in (0.0, 0.1):
            ran += agree_on_host(
                lambda v, lamb=lamb: sig.cspline2d(v, lamb, 1e-3),
                lambda v, lamb=lamb: ss.cspline2d(v, lamb, 1e-3),
                view,
                x,
                False,
            )
        ran += agree_on_host(sig.qspline2d, ss.qspline2d, view, x, False)
        ran += agree_on_host(
            lambda v: sig.spline_filter(v, 0.1), lambda v: ss.spline_filter(v, 0.1), view, x, False
        )
    assert ran == (2 if dtype[0] == "c" else 7)


@pytest.mark.parametrize("view", list(VIEWS_1D))
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_layouts_1d(kernels_on_host, view, dtype):
    """symiirorder1, symiirorder2, cspline1d (smoothed or not) and qspline1d on 1-D views of every layout."""
    view = VIEWS_1D[view]
    x = signal(30 * 48, dtype, 3).reshape(30, 48)
    ran = agree_on_host(
        lambda v: sig.symiirorder1(v, 2.0, 0.5, 1e-4),
        lambda v: ss.symiirorder1(v, 2.0, 0.5, 1e-4),
        view,
        x,
        True,
    )
    for lamb in (0.0, 2.0):
        ran += agree_on_host(
            lambda v, lamb=lamb: sig.cspline1d(v, lamb),
            lambda v, lamb=lamb: ss.cspline1d(v, lamb),
            view,
            x,
            False,
        )
    ran += agree_on_host(sig.qspline1d, ss.qspline1d, view, x, False)
    if dtype[0] != "c":
        ran += agree_on_host(
            lambda v: sig.symiirorder2(v, 0.5, 0.3, 1e-4),
            lambda v: ss.symiirorder2(v, 0.5, 0.3, 1e-4),
            view,
            x,
            False,
        )
    assert ran == (4 if dtype[0] == "c" else 5)
