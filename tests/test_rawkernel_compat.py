"""RawKernel and RawModule take CuPy's compile arguments (Note [NVRTC for every backend] in cuarray/_kernel.py):
`jitify` warns as CuPy 14 does and compiles with NVRTC (a failure is a JitifyException), backend='nvcc' compiles
with NVRTC and says so, and user kernels see the CUDA toolkit's headers (cuComplex.h). The tests at the top need
no GPU: they compile for an architecture given, without a device."""

import os
import warnings

import cuarray as cp
import numpy as np
import pytest
from cuarray import _core, _kernel
from cuarray.cuda import compiler

SUM = r"""
extern "C" __global__ void test_sum(const float* x1, const float* x2, float* y, unsigned int n) {
    unsigned int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) y[i] = x1[i] + x2[i];
}
"""

CU_COMPLEX = r"""
#include <cuComplex.h>
extern "C" __global__ void mul_add(const cuFloatComplex* a, const cuFloatComplex* b, cuFloatComplex c,
                                   cuFloatComplex* out, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) out[i] = cuCaddf(cuCmulf(a[i], b[i]), c);
}
extern "C" __global__ void upcast(const cuComplex* a, cuDoubleComplex* out, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) out[i] = cuComplexFloatToDouble(a[i]);
}
"""

BROKEN = "__global__ void i_am_broken() {\n"


# ---- no GPU needed ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make", [lambda **k: cp.RawKernel(SUM, "test_sum", **k), lambda **k: cp.RawModule(code=SUM, **k)]
)
def test_jitify_warns_as_cupy_14(make):
    with pytest.warns(DeprecationWarning, match=r"^jitify=True is deprecated"):
        make(jitify=True)
    with pytest.warns(
        DeprecationWarning, match=r"^The jitify argument is deprecated.*Avoid passing `jitify=False`"
    ):
        make(jitify=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make()  # the default says nothing


@pytest.mark.parametrize(
    "make", [lambda **k: cp.RawKernel(SUM, "test_sum", **k), lambda **k: cp.RawModule(code=SUM, **k)]
)
def test_backends(make):
    with pytest.warns(UserWarning, match="compiled with NVRTC"):
        make(backend="nvcc")
    with pytest.raises(ValueError, match="Invalid backend hipcc"):
        make(backend="hipcc")


def test_jitify_exception_is_a_compile_exception():
    assert issubclass(compiler.JitifyException, compiler.CompileException)
    assert cp.cuda.compiler.JitifyException is _kernel.JitifyException


@pytest.mark.skipif(_kernel._cuda_include_dir() is None, reason="no CUDA toolkit headers found")
def test_cucomplex_header_is_on_the_path():
    binary = _core.jit.compile(CU_COMPLEX, "module", _kernel._user_options(()), 90, [])
    assert len(binary) > 0
    with pytest.raises(compiler.CompileException, match="cuComplex.h"):
        _core.jit.compile(CU_COMPLEX, "module", [], 90, [])  # what a kernel saw before


def test_user_options_come_first():
    options = _kernel._user_options(("-DPRECISION=2",))
    include = _kernel._cuda_include_dir()
    expected = [] if include is None else [f"-I{include}"]
    # CUDA 13 keeps CCCL in include/cccl, which goes first.
    if include is not None and os.path.isdir(os.path.join(include, "cccl")):
        expected.insert(0, f"-I{os.path.join(include, 'cccl')}")
    assert options == ["-DPRECISION=2", *expected]


# ---- GPU ----------------------------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("kwargs", [{}, {"jitify": True}, {"backend": "nvcc"}, {"translate_cucomplex": True}])
def test_cucomplex_kernels_run(kwargs):
    n = 100
    rng = np.random.default_rng(0)
    a = (rng.random(n) + 1j * rng.random(n)).astype(np.complex64)
    b = (rng.random(n) + 1j * rng.random(n)).astype(np.complex64)
    c = np.complex64(0.5 - 2j)
    mod = cp.RawModule(code=CU_COMPLEX, **kwargs)
    out = cp.empty(n, np.complex64)
    mod.get_function("mul_add")((4,), (32,), (cp.asarray(a), cp.asarray(b), c, out, np.int32(n)))
    np.testing.assert_allclose(out.get(), a * b + c, rtol=1e-6)
    wide = cp.empty(n, np.complex128)
    mod.get_function("upcast")((4,), (32,), (cp.asarray(a), wide, np.int32(n)))
    np.testing.assert_array_equal(wide.get(), a.astype(np.complex128))


@pytest.mark.gpu
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize(
    "jitify, error", [(True, compiler.JitifyException), (None, compiler.CompileException)]
)
def test_compile_errors(jitify, error):
    with pytest.raises(error):
        cp.RawModule(code=BROKEN, jitify=jitify).get_function("i_am_broken")
    with pytest.raises(error):
        cp.RawKernel(BROKEN, "i_am_broken", jitify=jitify).compile()


@pytest.mark.gpu
def test_attributes_and_compile():
    kernel = cp.RawKernel(SUM, "test_sum")
    kernel.compile()
    attrs = kernel.attributes
    for name in (
        "binary_version",
        "cache_mode_ca",
        "const_size_bytes",
        "local_size_bytes",
        "max_dynamic_shared_size_bytes",
        "max_threads_per_block",
        "num_regs",
        "preferred_shared_memory_carveout",
        "ptx_version",
        "shared_size_bytes",
    ):
        assert name in attrs
    assert attrs["num_regs"] == kernel.num_regs > 0
    assert attrs["shared_size_bytes"] == 0
    module = cp.RawModule(code=SUM)
    module.compile()
    x = cp.arange(10, dtype=cp.float32)
    y = cp.empty_like(x)
    module.get_function("test_sum")((1,), (10,), (x, x, y, np.uint32(10)))
    np.testing.assert_array_equal(y.get(), 2 * np.arange(10, dtype=np.float32))


@pytest.mark.gpu
def test_module_from_a_compiled_image(tmp_path):
    arch = int(cp.cuda.Device().compute_capability)
    path = tmp_path / "sum.cubin"
    path.write_bytes(_core.jit.compile(SUM, "module", [], arch, []))
    module = cp.RawModule(path=str(path))
    x = cp.arange(10, dtype=cp.float32)
    y = cp.empty_like(x)
    module.get_function("test_sum")((1,), (10,), (x, x, y, np.uint32(10)))
    np.testing.assert_array_equal(y.get(), 2 * np.arange(10, dtype=np.float32))
    assert cp.RawModule(path=str(path)).get_function("test_sum").num_regs > 0  # the same image, loaded once
    bad = tmp_path / "bad.cubin"
    bad.write_bytes(b"not a cubin")
    with pytest.raises(cp.cuda.CUDARuntimeError):
        cp.RawModule(path=str(bad)).get_function("test_sum")
