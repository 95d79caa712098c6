"""Convolution without a device: the plans (which input gives the taps, flips, origins, windows) run through a
NumPy model of the core's correlation kernel and match NumPy and SciPy on every mode, boundary and shape;
the kernels compile for sm_90; argument errors come before any device work."""

import itertools

import cuarray as cp
import numpy as np
import pytest
import scipy.signal as ss
from cuarray import _convolution as conv
from test_kernel_sources import DTYPES, S, _compile_together


def _extend(i, n, boundary):
    """kernels/convolve.cuh's extend(): -1 for a fill position."""
    if boundary == "fill":
        return np.where((i >= 0) & (i < n), i, -1)
    period = n if boundary == "wrap" else 2 * n
    m = np.mod(i, period)
    return np.where(m < n, m, period - 1 - m)


def model_correlate(x, w, origin, shape, boundary="fill", fill=0, padded=True):
    """out[o] = sum over taps t of ext(x)[o + origin + t] * w[t], as the kernels compute it; unpadded, the
    sum runs over the positions inside x alone (the 1-D kernel)."""
    out = np.zeros(shape, dtype=np.result_type(x, w, type(fill)))
    for t in itertools.product(*(range(k) for k in w.shape)):
        idx = [_extend(np.arange(shape[d]) + origin[d] + t[d], x.shape[d], boundary) for d in range(x.ndim)]
        mesh = np.ix_(*idx)
        inside = np.ones(shape, bool)
        for ix in mesh:
            inside = inside & (ix >= 0)
        vals = x[tuple(np.maximum(ix, 0) for ix in mesh)] if x.size else np.zeros(shape, x.dtype)
        with np.errstate(invalid="ignore"):
            out = out + (np.where(inside, vals, fill) * w[t] if padded else np.where(inside, vals * w[t], 0))
    return out


def model_run(plan, in1, in2, boundary="fill", fill=0):
    """cuarray._convolution.run_direct with the model in place of the kernel."""
    x, w = (in2, in1) if plan.swap else (in1, in2)
    if plan.flip:
        w = w[(slice(None, None, -1),) * w.ndim]
    if plan.conj:
        w = np.conj(w)
    out = model_correlate(x, w, plan.origin, plan.shape, boundary, fill, plan.padded)
    if plan.reverse:
        out = out[(slice(None, None, -1),) * out.ndim]
    return np.conj(out) if plan.conj_out else out


def _complex(rng, shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


@pytest.mark.parametrize("kind", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_numpy_plans(kind, mode):
    rng = np.random.default_rng(0)
    for n, m in itertools.product(range(1, 8), repeat=2):
        a, v = _complex(rng, n), _complex(rng, m)
        expected = getattr(np, kind)(a, v, mode)
        got = model_run(conv.plan_numpy(kind, n, m, mode), a, v)
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12, err_msg=f"{kind} {n} {m} {mode}")


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_scipy_nd_plans(mode):
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(150):
        nd = int(rng.integers(1, 4))
        s1, s2 = tuple(rng.integers(1, 6, nd)), tuple(rng.integers(1, 6, nd))
        a, b = _complex(rng, s1), _complex(rng, s2)
        try:
            expected = ss.convolve(a, b, mode, method="direct")
        except ValueError:
            with pytest.raises(ValueError, match="at least as large"):
                conv.plan_scipy(s1, s2, mode)
            continue
        np.testing.assert_allclose(
            model_run(conv.plan_scipy(s1, s2, mode), a, b), expected, rtol=1e-12, atol=1e-12
        )
        # correlate(in1, in2) is convolve(in1, in2 reversed and conjugated)
        b_rc = np.conj(b[(slice(None, None, -1),) * nd])
        np.testing.assert_allclose(
            model_run(conv.plan_scipy(s1, s2, mode), a, b_rc),
            ss.correlate(a, b, mode, method="direct"),
            rtol=1e-12,
            atol=1e-12,
        )
        checked += 1
    assert checked > 50


def _specials(out):
    return np.isnan(out), np.isinf(out) * np.sign(out)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("where", ["in1", "in2"])
def test_nan_and_inf_reach_the_outputs_they_reach_in_scipy(mode, where):
    # Note [Padding times taps]: the plan's roles and its `padded` make NaN and infinities land where SciPy's
    # direct sums put them (overlap alone in its NumPy 1-D path, every output for in2's in its N-D sums).
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(120):
        nd = int(rng.integers(1, 4))
        s1, s2 = tuple(rng.integers(1, 6, nd)), tuple(rng.integers(1, 6, nd))
        a, b = rng.standard_normal(s1), rng.standard_normal(s2)
        c = a if where == "in1" else b
        c[(0,) * nd], c[(-1,) * nd] = np.nan, -np.inf
        for kind in ("convolve", "correlate"):
            try:
                expected = getattr(ss, kind)(a, b, mode, method="direct")
            except ValueError:
                continue
            taps = b[(slice(None, None, -1),) * nd] if kind == "correlate" else b
            got = model_run(conv.plan_scipy(s1, s2, mode), a, taps)
            for g, e in zip(_specials(got), _specials(expected)):
                np.testing.assert_array_equal(g, e, err_msg=f"{kind} {s1} {s2} {mode}")
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("kind", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_numpy_nan_and_inf_reach_only_their_sums(kind, mode):
    rng = np.random.default_rng(4)
    for n, m in itertools.product(range(1, 7), repeat=2):
        for which in (0, 1):
            a, v = rng.standard_normal(n), rng.standard_normal(m)
            (a, v)[which][0], (a, v)[which][-1] = np.inf, np.nan
            with np.errstate(invalid="ignore"):
                expected = getattr(np, kind)(a, v, mode)
            got = model_run(conv.plan_numpy(kind, n, m, mode), a, v)
            for g, e in zip(_specials(got), _specials(expected)):
                np.testing.assert_array_equal(g, e, err_msg=f"{n} {m} {which}")


@pytest.mark.parametrize("kind", ["convolve", "correlate"])
@pytest.mark.parametrize("boundary", ["fill", "wrap", "symm"])
def test_scipy_2d_plans(kind, boundary):
    rng = np.random.default_rng(2)
    f = getattr(ss, kind + "2d")
    for _ in range(60):
        s1, s2 = tuple(rng.integers(1, 8, 2)), tuple(rng.integers(1, 8, 2))
        a, b = _complex(rng, s1), _complex(rng, s2)
        for mode in ("full", "same", "valid"):
            try:
                expected = f(a, b, mode, boundary, 0.5 - 0.25j)
            except ValueError:
                continue
            got = model_run(conv.plan_scipy_2d(kind, s1, s2, mode), a, b, boundary, 0.5 - 0.25j)
            np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12, err_msg=f"{s1} {s2} {mode}")


def test_symmetric_extension_beyond_one_period():
    # Kernels larger than the image reflect more than once: index -1 -> 0, n -> n - 1, period 2n.
    assert list(_extend(np.arange(-7, 10), 3, "symm")) == [0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2]
    assert list(_extend(np.arange(-4, 6), 3, "wrap")) == [2, 0, 1, 2, 0, 1, 2, 0, 1, 2]


def test_next_fast_len():
    smooth = [n for n in range(1, 3000) if all(p in (2, 3, 5, 7) for p in _factors(n))]
    for n in range(1, 2900):
        assert conv.next_fast_len(n) == min(s for s in smooth if s >= n)


def _factors(n):
    out, p = [], 2
    while n > 1:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out


def test_correlate_kernels_compile_for_sm90():
    kernels = [S.correlate2d(t) for t in DTYPES] + [S.correlate1d(t) for t in DTYPES]
    kernels += [S.correlate_nd(t, 3) for t in DTYPES]  # 1-D and 2-D inputs take the tiled kernels
    kernels += [S.correlate_nd("float64", nd) for nd in (4, 5, 6, 7, 8)]
    cubin = _compile_together(kernels)
    for _, name in kernels:
        assert name.encode() in cubin


def test_host_arrays_are_unsupported_types():
    import cuarray.scipy.signal as sig

    a = np.ones((4, 4))
    # CuPy's TypeError, for cupyx.scipy.signal's functions as for cuarray.convolve and correlate.
    for f in (
        sig.convolve2d,
        sig.correlate2d,
        sig.convolve,
        sig.correlate,
        sig.fftconvolve,
        sig.oaconvolve,
        sig.choose_conv_method,
    ):
        with pytest.raises(TypeError, match=r"^Unsupported type <class 'numpy.ndarray'>$"):
            f(a, a)
        with pytest.raises(TypeError, match=r"^Unsupported type <class 'list'>$"):
            f([[1.0]], [[1.0]])
    with pytest.raises(TypeError, match=r"^Unsupported type <class 'numpy.ndarray'>$"):
        cp.convolve(np.ones(4), np.ones(2))
    with pytest.raises(TypeError, match=r"^Unsupported type <class 'list'>$"):
        cp.correlate([1, 2], [1])
