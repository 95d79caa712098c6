"""cuarray/fft/_fft.py and cuarray/scipy/fftpack.py run on a host model of what they call, checked against
numpy.fft and scipy.fftpack (test_host_model.py runs this file in a child process: it puts stand-in `cuarray`
modules into sys.modules).

The model: arrays are NumPy's, and cuFFT's transforms are NumPy's over the trailing axes of C-contiguous arrays,
unscaled as cuFFT's are; a C2R input must be Hermitian (cuFFT's contract: Note [C2R inputs]). So this checks the
Python layer's axis moves, layouts (Note [FFT layouts]), crops and pads, scaling, Hermitian inputs, fftpack's
packed format and get_fft_plan's keys, on no GPU; the device tests check the same on cuFFT.
"""

import importlib.util
import math
import os
import sys
import types
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, "..", "..", "python", "cuarray")
sys.path.insert(0, os.path.join(HERE, ".."))
from conftest import make_data

warnings.simplefilter("ignore", DeprecationWarning)  # NumPy 2's, for s without axes and None in s
executed = []


multi_gpus = [None]  # what config._multi_gpus() gives (check_multi_gpu sets it)


def execute(x, out, kind, rank, inverse, plan=None, devices=None):
    assert x.flags.c_contiguous and out.flags.c_contiguous
    assert devices == multi_gpus[0], (devices, multi_gpus[0])  # the binding decides by rank and kind
    axes = tuple(range(x.ndim - rank, x.ndim))
    executed.append((kind, rank, x.shape, out.shape))
    if kind == "c2c":
        out[...] = (
            np.fft.ifftn(x, axes=axes) * math.prod(x.shape[-rank:]) if inverse else np.fft.fftn(x, axes=axes)
        )
    elif kind == "r2c":
        out[...] = np.fft.rfftn(x, axes=axes)
    else:
        real = np.fft.irfftn(x, s=out.shape[-rank:], axes=axes)
        assert np.allclose(np.fft.rfftn(real, axes=axes), x, atol=1e-6 * max(1.0, np.abs(x).max())), (
            "not Hermitian"
        )
        out[...] = real * math.prod(out.shape[-rank:])


def _copyto(dst, src):
    dst[...] = src


def _install():
    ns = types.SimpleNamespace
    fft = ns(
        execute=execute,
        current_plan=lambda: None,
        Plan1d=type("Plan1d", (), {}),
        Plan=type("Plan", (), {}),
        make_plan=lambda t, n, b, devices=None: ("plan", t, tuple(n), b, devices),
    )
    core = ns(_copyto=_copyto, fft=fft, ndarray=np.ndarray)
    cuarray = types.ModuleType("cuarray")
    cuarray.__path__ = []
    cuarray._core = core
    cuarray._creation = ns(empty=np.empty, zeros=np.zeros)
    cuarray._manipulation = ns(moveaxis=np.moveaxis)
    cuarray._transfer = ns(ascontiguousarray=np.ascontiguousarray)
    cuarray._joining = ns(roll=np.roll, flip=np.flip)
    cuarray._ufuncs = ns(
        multiply=np.multiply,
        add=np.add,
        conjugate=np.conjugate,
        _real=lambda x: np.real(x).copy(),
        _imag=lambda x: np.imag(x).copy(),
    )
    package = types.ModuleType("cuarray.fft")
    package.__path__ = []
    package.config = ns(get_plan_cache=lambda: ns(get=lambda key: None), _multi_gpus=lambda: multi_gpus[0])
    cuarray.fft = package
    sys.modules.update({"cuarray": cuarray, "cuarray._core": core, "cuarray.fft": package})
    package._fft = _load("cuarray.fft._fft", os.path.join(PACKAGE, "fft", "_fft.py"))
    return package._fft, _load("cuarray.scipy.fftpack", os.path.join(PACKAGE, "scipy", "fftpack.py"))


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def close(got, expected, what):
    assert got.shape == expected.shape and got.dtype == expected.dtype, (
        what,
        got.shape,
        got.dtype,
        expected.dtype,
    )
    single = expected.dtype in (np.float32, np.complex64) or "float16" in str(what)
    tol = (2e-2 if "float16" in str(what) else 2e-4) if single else 1e-10
    scale = max(1.0, float(np.abs(expected).max()) if expected.size else 1.0)
    np.testing.assert_allclose(got, expected, rtol=0, atol=tol * scale, err_msg=str(what))


ND_CASES = [
    ((3, 4), None, None),
    ((3, 4), None, (-1, -2)),
    ((2, 3, 4), (1, 4, None), None),
    ((2, 3, 4), None, (0, 1)),
    ((2, 3, 4), None, (1, 2)),
    ((2, 3, 4, 5), None, (0, 1, 2)),
    ((2, 3, 4, 5), None, None),
    ((4, 6), None, (0, 0)),
    ((5, 6), (5, 9), None),
    ((3, 1, 4), None, (0, 1, 2)),
    ((6, 4, 2), None, (2, 0)),
    ((4, 6), (4, 1), None),
    ((6, 5), (4, 8, 6), (0, 0, 1)),  # irfftn pads and crops a repeated leading axis in order, first to last
    ((6, 5), (8, 3, 6), (0, 0, 1)),
]
KINDS = [("C2C", "fftn", False), ("C2C", "ifftn", True), ("R2C", "rfftn", False), ("C2R", "irfftn", True)]


def check_nd(F):
    for shape, s, axes in ND_CASES:
        for order in "CF":
            for dtype in ["float16", "int32", "complex64", "complex128"]:
                a = np.asarray(make_data(shape, dtype, 5), order=order)
                for value_type, func, inverse in KINDS:
                    if value_type == "R2C" and dtype.startswith("complex"):
                        continue
                    for norm in [None, "ortho", "forward"]:
                        what = (shape, s, axes, order, dtype, func, norm)
                        expected = getattr(np.fft, func)(a, s=s, axes=axes, norm=norm)
                        got = F.transform_nd(a, s, axes, norm, value_type, inverse, None)
                        close(got, expected, what)
                        if F._default_fft_func(a, s=s, axes=axes, value_type=value_type) is F._fftn:
                            flags = (expected.flags.c_contiguous, expected.flags.f_contiguous)
                            assert (got.flags.c_contiguous, got.flags.f_contiguous) == flags, what


def check_fftpack(P):
    import scipy.fftpack as sf

    for shape, n, axis in [
        ((9,), None, -1),
        ((10,), None, -1),
        ((10, 9), 15, 0),
        ((10, 9), 4, 1),
        ((3, 7), 2, -1),
    ]:
        for dtype in ["float16", "int8", "float64", "complex64"]:
            a = make_data(shape, dtype, 2)[::-1]
            for func in ["fft", "ifft", "rfft", "irfft"]:
                if func in ("rfft", "irfft") and dtype.startswith("complex"):
                    continue
                what = ("fftpack", func, shape, n, axis, dtype)
                close(getattr(P, func)(a, n=n, axis=axis), getattr(sf, func)(a, n=n, axis=axis), what)


def transform_key(F, a, s, axes, value_type):
    """(sizes, batch) of the last cuFFT transform the call makes."""
    F.transform_nd(a, s, axes, None, value_type, value_type == "C2R", None)
    _, rank, in_shape, out_shape = executed[-1]
    real = out_shape if value_type == "C2R" else in_shape
    return tuple(v for v in real[-rank:] if v != 1), math.prod(in_shape[:-rank])


def check_plan_keys(F, P):
    cases = [((3, 4), None, None), ((3, 4), (1, 5), (-2, -1)), ((3, 4), None, (-1, -2)), ((3, 4), None, (0,))]
    cases += [((2, 3, 4), None, (0, 1)), ((2, 3, 4), None, (-1, -3)), ((2, 3, 4), (1, 4, 10), None)]
    for shape, s, axes in cases:
        for value_type in ["C2C", "R2C", "C2R"]:
            for order in "CF":
                dtype = "float64" if value_type == "R2C" else "complex128"
                a = np.asarray(make_data(shape, dtype, 0), order=order)
                plan = P.get_fft_plan(a, s, axes, value_type=value_type)
                assert plan[2:4] == transform_key(F, a, s, axes, value_type), (
                    shape,
                    s,
                    axes,
                    value_type,
                    order,
                )


def check_multi_gpu(F, P):
    """With cupy.fft.config's devices set, every execution is handed them (the core spreads the 1-D complex
    ones over them), the values are NumPy's, and get_fft_plan's 1-D plans are multi-GPU ones."""
    multi_gpus[0] = [1, 0]
    try:
        for shape, n, axis in [
            ((64,), None, -1),
            ((4, 64), 64, -1),
            ((10, 5, 10), None, 1),
            ((0, 10), None, 0),
        ]:
            for order in "CF":
                a = np.asarray(make_data(shape, "complex64", 3), order=order)
                for inverse, func in [(False, "fft"), (True, "ifft")]:
                    m = a.shape[axis] if n is None else n
                    if m == 0:
                        continue
                    what = ("multi-GPU", shape, n, axis, order, func)
                    got = F.c2c(a, [m], [axis % a.ndim], None, inverse)
                    close(got, getattr(np.fft, func)(a, n=n, axis=axis), what)
        a = make_data((4, 64), "complex128", 0)
        assert P.get_fft_plan(a, axes=-1) == ("plan", 0x69, (64,), 4, [1, 0])
        assert P.get_fft_plan(a)[-1] is None  # n-D plans keep one device, as CuPy's
        assert P.get_fft_plan(make_data((4, 64), "float64", 0), axes=0, value_type="R2C")[-1] == [1, 0]
    finally:
        multi_gpus[0] = None


if __name__ == "__main__":
    F, P = _install()
    check_nd(F)
    check_fftpack(P)
    check_plan_keys(F, P)
    check_multi_gpu(F, P)
    print("ok")
