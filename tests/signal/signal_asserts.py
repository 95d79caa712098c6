"""The comparisons tests/signal's test files share: a device result against SciPy's (assert_device), a host
result against SciPy's (assert_host), the same error as SciPy's (same_error), SciPy's signatures
(assert_scipy_signatures), and the checks of the filtering kernels' sources. A plain module: test files import it as they import conftest's helpers
(``from signal_asserts import assert_device``); conftest puts tests/ on sys.path, and pytest's rootdir-relative
import puts tests/signal/ there for the test files that live in it."""

import inspect
import re
import warnings

import cuarray as cp
import numpy as np
import pytest
import scipy

EXACT = 0

# cuarray follows SciPy 1.18 where it changed a result's dtype (integer state-space matrices become float64;
# float32 and float16 waveform times stay so). Against an older SciPy, the tests expect 1.18's dtypes.
SCIPY_1_18 = tuple(int(p) for p in scipy.__version__.split(".")[:2]) >= (1, 18)


def integers_as_float64(result):
    """`result` (an array or a tuple of them) with integer and bool arrays as float64, as SciPy 1.18 gives them;
    unchanged from SciPy 1.18 on."""
    if SCIPY_1_18:
        return result
    if isinstance(result, tuple):
        return tuple(integers_as_float64(r) for r in result)
    if isinstance(result, np.ndarray) and result.dtype.kind in "biu":  # not a Python 1 or [] (ss2tf's den)
        return result.astype(np.float64)
    return result


def assert_device(
    got,
    expected,
    tol=None,
    *,
    default_tol=EXACT,
    rtol=0.0,
    atol=0.0,
    contiguous=False,
    finite_scale=False,
    angles=None,
):
    """`got` is a device array of SciPy's (or NumPy's) `expected` dtype and shape, with its values; tuples are
    compared element by element, dicts key by key in their order, a Python int as such.

    tol: EXACT (0): the same values, NaN where SciPy's (integer and bool results are always compared so);
      otherwise within tol times the largest |expected| (at least 1), NaN and infinities where SciPy's.
      A dict gives the tolerance by the result's dtype char, "default" for the others; None: `default_tol`.
    rtol, atol: with tol None, NumPy's assert_allclose's instead (exact where both are 0).
    contiguous: C-contiguous where SciPy's result is (results of more than one element).
    finite_scale: tol times the largest finite |expected| (NaN and infinities compared by position only).
    angles: a boolean mask; the values are angles, compared modulo 2 pi where it holds, within tol (absolute).
    """
    __tracebackhide__ = True
    options = {
        "default_tol": default_tol,
        "rtol": rtol,
        "atol": atol,
        "contiguous": contiguous,
        "finite_scale": finite_scale,
    }
    if isinstance(expected, dict):
        assert isinstance(got, dict) and list(got) == list(expected), (list(got), list(expected))
        for key in expected:
            assert_device(got[key], expected[key], tol, **options)
        return
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), type(got)
        for g, e in zip(got, expected):
            assert_device(g, e, tol, **options)
        return
    if type(expected) is int:  # a filter order: SciPy's Python int, not an array
        assert type(got) is int and got == expected, (got, expected)
        return
    expected = np.asarray(expected)
    assert isinstance(got, cp.ndarray), type(got)
    assert got.dtype == expected.dtype, f"dtype {got.dtype} != {expected.dtype}"
    assert got.shape == expected.shape, f"shape {got.shape} != {expected.shape}"
    if contiguous and expected.size > 1:
        assert got.flags.c_contiguous == expected.flags.c_contiguous, "C-contiguity differs from SciPy's"
    host = cp.asnumpy(got)
    if angles is not None:
        if expected.size:
            assert np.all(np.abs((host - expected + np.pi) % (2 * np.pi) - np.pi)[angles] < tol)
        return
    if tol is None and (rtol or atol):
        np.testing.assert_allclose(host, expected, rtol=rtol, atol=atol)
        return
    tol = default_tol if tol is None else tol
    if isinstance(tol, dict):
        tol = tol.get(expected.dtype.char, tol["default"])
    if tol == EXACT or expected.dtype.kind in "biu":
        np.testing.assert_array_equal(host, expected, strict=True)
    elif expected.size:
        magnitudes = np.abs(expected[np.isfinite(expected)] if finite_scale else expected)
        # a NaN makes max() NaN and the scale 1 (the tolerance absolute); finite_scale looks past it
        scale = max(1.0, float(magnitudes.max())) if magnitudes.size else 1.0
        np.testing.assert_allclose(host, expected, rtol=0, atol=tol * scale, equal_nan=True)


def assert_host(got, expected, tol=1e-10, *, scalar_dtype=True):
    """A host result of SciPy's structure (tuples element by element; a Python int or list the same object
    type and value), dtypes and shapes, its values within `tol` of the largest (at least 1). scalar_dtype=False:
    a 0-d result's dtype is not compared (a gain `k` SciPy forms in another type)."""
    __tracebackhide__ = True
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_host(g, e, tol, scalar_dtype=scalar_dtype)
        return
    if isinstance(expected, (int, list)):  # ss2tf's denominator 1 or [] where A has no states
        assert type(got) is type(expected) and got == expected
        return
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if scalar_dtype or expected.ndim:
        assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    if expected.size:
        scale = max(1.0, float(np.max(np.abs(expected))))
        np.testing.assert_allclose(got, expected, rtol=0, atol=tol * scale)


def same_error(ours, theirs):
    """ours() raises what theirs() (SciPy) raises: the same type and message (their warnings aside)."""
    __tracebackhide__ = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as expected:
            theirs()
        with pytest.raises(type(expected.value)) as got:
            ours()
    assert type(got.value) is type(expected.value)
    assert str(got.value) == str(expected.value)


def assert_scipy_signatures(ours, theirs, names):
    """Each of `names` is in `ours` (cuarray.scipy.signal) under that name, with the parameters, defaults and kinds
    of its namesake in `theirs` (scipy.signal), SciPy's array-API keywords (xp, device) aside."""
    __tracebackhide__ = True
    assert set(names) <= set(ours.__all__)
    for name in names:
        f = getattr(ours, name)
        assert f.__name__ == name
        expected = [
            (p.name, p.default, p.kind)
            for n, p in inspect.signature(getattr(theirs, name)).parameters.items()
            if n not in ("xp", "device")
        ]
        assert [(p.name, p.default, p.kind) for p in inspect.signature(f).parameters.values()] == expected, (
            name
        )


# ---------------------------------------------------------------- the filtering kernels' sources


def kernel_sources(module):
    """(kernel, dtype, source, name, options) of each kernel in `module`'s _SOURCES (made by its _kernel), for
    float32 and float64 (complex values as pairs of those), its outputs raw arrays of that type."""
    from cuarray import _core

    sources = []
    for name in module._SOURCES:
        kernel = module._kernel(name)
        outputs = len(kernel.out_params)
        for dtype in ("float32", "float64"):
            t = np.dtype(dtype)
            in_types = tuple(t if p.placeholder else p.dtype for p in kernel.in_params)
            handle = kernel._definition(in_types, (t,) * outputs, {"T": t})
            kinds = [2 if p.raw else 1 for p in kernel.in_params] + [2] * outputs
            source, kernel_name = _core._elementwise_source(
                handle, [*in_types, *(t,) * outputs], [], False, 1, kinds=kinds, raw_ndim=[1] * len(kinds)
            )
            sources.append((name, dtype, source, kernel_name, kernel.options))
    return sources


def compile_kernel(source, name, options, arch):
    """(code, is_cubin): NVRTC's result for `arch` with the library's handling of the kernel's options."""
    from cuarray import _core
    from cuarray._kernel import _user_options

    code, is_cubin, _, _ = _core.jit.compile(
        source, name, _user_options(options), arch, _core.jit.headers(), details=True
    )
    return code, is_cubin


def assert_rounds_every_operation(kernel, dtype, source, name, options):
    """Compiled as the library compiles it (with -fmad=false), the kernel's PTX has no fused multiply-add and
    rounds each product, sum and quotient to nearest, as SciPy's loops do; compiled without the option, NVRTC
    fuses in the kernel's type (so the check sees what it looks for). Returns the PTX's floating-point operations."""
    __tracebackhide__ = True
    assert "-fmad=false" in options
    # 91 is no architecture NVRTC compiles to binary code for, so it returns PTX for compute_90 (target_arch)
    code, is_cubin = compile_kernel(source, name, options, 91)
    assert not is_cubin
    arithmetic = set(re.findall(r"\b(?:fma|mad|mul|add|sub|div)\.[a-z0-9.]*f(?:32|64)\b", code.decode()))
    rounded = all(re.fullmatch(r"(mul|add|sub|div)\.rn\.f(32|64)", op) for op in arithmetic)
    assert arithmetic and rounded, (kernel, dtype, arithmetic)
    fused, _ = compile_kernel(source, name, (), 91)
    assert re.search(rf"\bfma\.rn\.f{dtype[-2:]}\b", fused.decode()), (kernel, dtype)
    return arithmetic
