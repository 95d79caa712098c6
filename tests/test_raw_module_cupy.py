"""RawKernel and RawModule as CuPy's tests use them: name expressions, NVRTC's warnings through log_stream,
globals, pickling, <cupy/complex.cuh> and translate_cucomplex (Note [User kernel headers] in
cpp/cuarray/jit/kernel_cache.cpp), CUDADriverError, and the kernel cache's settings in cuarray.cuda.compiler
(kernel_cache, CUPY_CACHE_IN_MEMORY: Note [Memory-only compiles] in jit/kernel_cache.h). The tests at the top
need no GPU: they compile for an architecture given, without a device."""

import io
import os
import pickle
import textwrap

import cuarray as cp
import numpy as np
import pytest
from conftest import describe, run_python
from cuarray import _core, _kernel
from cuarray.cuda import compiler

ARCH = 90

TEMPLATE = r"""
#include <cupy/complex.cuh>

template<typename T>
__global__ void my_sqrt(T* input, int N) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < N) {
    input[x] *= input[x];
  }
}

__global__ void my_func(double* input, int N) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < N) {
    input[x] *= input[x];
  }
}
"""
EXPRESSIONS = ["my_sqrt<int>", "my_sqrt<float>", "my_sqrt<complex<double>>", "my_func"]

WARNS = r"""
extern "C" __global__ void test_op(const float* x1, const float* x2, float* y, unsigned int N) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    int j;  // unused: NVRTC warns
    if (tid < N) y[tid] = x1[tid] + x2[tid];
}
"""

# CuPy's translate_cucomplex test source, cut down: every cuComplex function, both precisions, scalars.
CU_COMPLEX = r"""
#include <cuComplex.h>
extern "C" {
__global__ void ops_f(const cuFloatComplex* a, const cuFloatComplex* b, cuComplex s, cuComplex* out,
                      float* absolute, cuDoubleComplex* up, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i >= n) return;
    out[5 * i] = cuCaddf(a[i], b[i]);
    out[5 * i + 1] = cuCsubf(a[i], b[i]);
    out[5 * i + 2] = cuCdivf(a[i], b[i]);
    out[5 * i + 3] = cuConjf(cuCadd(a[i], s));
    out[5 * i + 4] = make_cuFloatComplex(cuCrealf(a[i]), -3. * cuCimagf(a[i]));
    absolute[i] = cuCabsf(a[i]);
    up[i] = cuComplexFloatToDouble(cuCfmaf(a[i], b[i], s));
}
__global__ void ops_d(const cuDoubleComplex* a, const cuDoubleComplex* b, cuDoubleComplex* out,
                      double* absolute, cuComplex* down, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i >= n) return;
    out[3 * i] = cuCmul(a[i], b[i]);
    out[3 * i + 1] = cuCdiv(a[i], b[i]);
    out[3 * i + 2] = cuCfma(a[i], b[i], make_cuDoubleComplex(cuCreal(a[i]), cuCimag(b[i])));
    absolute[i] = cuCabs(cuConj(a[i]));
    down[i] = cuComplexDoubleToFloat(cuCsub(a[i], b[i]));
}
}
"""

CONSTANT = r"""
extern "C" {
__constant__ float some_array[100];
__device__ int counter;
__global__ void multiply_by_const(float* x, int N) {
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    if (id < N) x[id] *= some_array[id];
    if (id == 0) counter += 1;
}
}
"""


# Dynamic parallelism: relocatable device code, linked with the device runtime (Note [Relocatable device code]).
LAUNCHER = r"""
extern "C" {
__global__ void test_kernel_inner(float *arr, int N) {
    unsigned int tid = blockDim.x * blockIdx.x + threadIdx.x;
    if (tid < N) arr[tid] = 1.0;
}
__global__ void test_kernel(float *arr, int N, int inner_blk) {
    unsigned int tid = blockDim.x * blockIdx.x + threadIdx.x;
    if (tid < N / inner_blk) test_kernel_inner<<<1, inner_blk>>>(arr + tid * inner_blk, inner_blk);
}
}
"""


def nvrtc(source, options=(), names=()):
    """(binary, is_cubin, lowered names, log) of `source` compiled as RawModule compiles it, for ARCH."""
    return _core.jit.compile(
        source,
        "module",
        _kernel._user_options(list(options)),
        ARCH,
        _core.jit.headers(),
        list(names),
        details=True,
    )


# ---- no GPU needed ------------------------------------------------------------------------------


def test_name_expressions_are_lowered_with_cupy_complex():
    _, _, lowered, _ = nvrtc(TEMPLATE, names=EXPRESSIONS)
    assert lowered[0] == "_Z7my_sqrtIiEvPT_i"
    assert lowered[1] == "_Z7my_sqrtIfEvPT_i"
    assert lowered[2].startswith("_Z7my_sqrtIN") and "complexIdE" in lowered[2]
    assert lowered[3] == "_Z7my_funcPdi"
    assert nvrtc(TEMPLATE)[2] == []


def test_bad_name_expression_is_a_compile_error():
    with pytest.raises(cp.cuda.compiler.CompileException):
        nvrtc(TEMPLATE, names=["my_sqrt<no_such_type>"])


def test_translate_cucomplex_uses_the_bridge():
    translated = _kernel._translated(CU_COMPLEX, True)
    assert "#include <cupy/cuComplex_bridge.h>" in translated and "cuComplex.h>" not in translated
    assert _kernel._translated(" # include < cuComplex.h >\nint x;", True).startswith("#include <cupy/")
    assert _kernel._translated(CU_COMPLEX, False) == CU_COMPLEX
    # complex<T> without an include, as CuPy's headers come first; NVRTC's line numbers stay the user's.
    plain = "__global__ void f(complex<float>* z) { z[0] = conj(z[0]); }\n__global__ void g() { broken }"
    nvrtc(_kernel._translated(plain.split("\n")[0], True))
    with pytest.raises(cp.cuda.compiler.CompileException, match=r"module\.cu\(2\): error"):
        nvrtc(_kernel._translated(plain, True))
    binary, is_cubin, _, _ = nvrtc(translated)
    assert is_cubin and binary
    # Without the translation cuComplex.h's cuCadd takes double2 alone: CuPy's own test needs the bridge.
    with pytest.raises(cp.cuda.compiler.CompileException, match="cuComplex"):
        nvrtc(CU_COMPLEX)


@pytest.mark.parametrize(
    "options",
    [["-dc"], ["-rdc=true"], ["--relocatable-device-code=true"], ["--device-c"], ["-rdc", "true"]],
)
def test_relocatable_code_is_linked_with_the_device_runtime(options):
    binary, is_cubin, _, _ = nvrtc(LAUNCHER, options)
    # An ELF executable (e_type 2), which the driver loads; NVRTC's own output is relocatable (e_type 1).
    assert is_cubin and binary[:4] == b"\x7fELF" and int.from_bytes(binary[16:18], "little") == 2


def test_device_launch_needs_relocatable_code():
    with pytest.raises(cp.cuda.compiler.CompileException, match="device-side kernel launch"):
        nvrtc(LAUNCHER)


def test_the_log_carries_warnings():
    assert "warning" in nvrtc(WARNS)[3]
    assert nvrtc(WARNS.replace("int j;", ""))[3] == ""


def test_compile_using_nvrtc():
    log = io.StringIO()
    binary, mapping = compiler.compile_using_nvrtc(
        TEMPLATE.replace("#include <cupy/complex.cuh>", "") + WARNS,
        arch=ARCH,
        name_expressions=["my_func"],
        log_stream=log,
    )
    assert binary and mapping == {"my_func": "_Z7my_funcPdi"}
    assert "kern.cu" in log.getvalue() and "warning" in log.getvalue()
    assert compiler.compile_using_nvrtc(WARNS, arch=ARCH)[1] is None
    with pytest.warns(DeprecationWarning, match="Avoid passing `jitify=False`"):
        compiler.compile_using_nvrtc("", arch=ARCH, jitify=False)
    with (
        pytest.warns(DeprecationWarning, match="jitify=True is deprecated"),
        pytest.raises(cp.cuda.compiler.JitifyException),
    ):
        compiler.compile_using_nvrtc("__global__ void i_am_broken() {", arch=ARCH, jitify=True)


def test_kernel_cache_setting(tmp_path):
    before = compiler.kernel_cache
    assert isinstance(before, compiler.DiskKernelCache)
    where = tmp_path / "made" / "here"
    cache = compiler.DiskKernelCache(where)
    assert where.is_dir() and cache.cache_dir == str(where)  # made, as CuPy's backend makes its directory
    try:
        compiler.kernel_cache = cache
        assert compiler.kernel_cache == cache and _core.jit.cache_dir() == str(where)
        compiler.kernel_cache = None  # memory only
        assert compiler.kernel_cache is None and _core.jit.cache_dir() == ""
        with pytest.raises(TypeError, match="DiskKernelCache or None"):
            compiler.kernel_cache = str(where)
    finally:
        del compiler.kernel_cache
    assert compiler.kernel_cache == before


@pytest.mark.parametrize(
    "value, expected", [(None, False), ("", False), ("1", True), ("0", False), ("2", False), ("yes", False)]
)
def test_cache_in_memory_switch(monkeypatch, value, expected):
    for name in ("CUARRAY_CACHE_IN_MEMORY", "CUPY_CACHE_IN_MEMORY"):
        monkeypatch.delenv("CUARRAY_CACHE_IN_MEMORY", raising=False)
        monkeypatch.delenv("CUPY_CACHE_IN_MEMORY", raising=False)
        if value is not None:
            monkeypatch.setenv(name, value)
        assert compiler._cache_in_memory() is expected
    # Read through the module's _bool_env at each call: a replacement of it is what decides.
    monkeypatch.setattr(compiler, "_bool_env", lambda name, default: name == "CUPY_CACHE_IN_MEMORY")
    assert compiler._cache_in_memory() is True


def test_memory_only_compiles_write_nothing(tmp_path, monkeypatch):
    """The core asks at each kernel not in memory (Note [Memory-only compiles]); cached_binary is that path
    without a device."""
    monkeypatch.delenv("CUARRAY_CACHE_IN_MEMORY", raising=False)
    monkeypatch.delenv("CUPY_CACHE_IN_MEMORY", raising=False)
    source = WARNS + "\n// memory-only " + str(tmp_path)
    try:
        compiler.kernel_cache = compiler.DiskKernelCache(tmp_path)
        monkeypatch.setenv("CUPY_CACHE_IN_MEMORY", "1")
        assert _core.jit.cached_binary(source, "test_op", [], ARCH)[1] is False
        assert os.listdir(tmp_path) == []
        monkeypatch.setenv("CUPY_CACHE_IN_MEMORY", "0")
        assert _core.jit.cached_binary(source, "test_op", [], ARCH)[1] is False
        assert len(os.listdir(tmp_path)) == 1
        assert _core.jit.cached_binary(source, "test_op", [], ARCH)[1] is True  # read back
        monkeypatch.setenv("CUPY_CACHE_IN_MEMORY", "1")
        assert _core.jit.cached_binary(source, "test_op", [], ARCH)[1] is False  # not read either
    finally:
        del compiler.kernel_cache


def test_pickles_without_the_compiled_kernel():
    kernel = cp.RawKernel(WARNS, "test_op", options=("-DX=1",), enable_cooperative_groups=True)
    kernel._function = object()  # stands for a compiled kernel, which must not be pickled
    back = pickle.loads(pickle.dumps(kernel))
    assert (back.code, back.name, back.options, back.enable_cooperative_groups) == (
        WARNS,
        "test_op",
        ("-DX=1",),
        True,
    )
    assert back._function is None
    module = cp.RawModule(code=TEMPLATE, name_expressions=EXPRESSIONS, translate_cucomplex=True)
    module._module = object()
    back = pickle.loads(pickle.dumps(module))
    assert back._module is None and back.name_expressions == tuple(EXPRESSIONS) and back.translate_cucomplex


def test_module_argument_errors(tmp_path):
    with pytest.raises(TypeError):
        cp.RawModule()
    with pytest.raises(TypeError):
        cp.RawModule(code=WARNS, path="x.cubin")
    with pytest.raises(ValueError, match="nvrtc"):  # before backend='nvcc''s warning, as in CuPy
        cp.RawModule(code=TEMPLATE, backend="nvcc", name_expressions=["my_func"])
    missing = cp.RawModule(path=str(tmp_path / "missing.cubin"))  # loaded at first use, as in CuPy
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="CUDA_ERROR_FILE_NOT_FOUND") as e:
        missing.get_function("f")
    assert isinstance(e.value, cp.cuda.CUDARuntimeError) and e.value.status == 301


def test_nvrtc_version():
    major, minor = cp.cuda.nvrtc.getVersion()
    assert major * 1000 + minor * 10 == _core.jit.nvrtc_version() and major >= 12


# ---- GPU ----------------------------------------------------------------------------------------


@pytest.mark.gpu
def test_template_kernels_by_name_expression():
    module = cp.RawModule(code=TEMPLATE, name_expressions=EXPRESSIONS)
    for expression, dtype in zip(EXPRESSIONS, (np.int32, np.float32, np.complex128, np.float64)):
        host = (
            (np.arange(10) + 1j * np.arange(10)).astype(dtype)
            if dtype == np.complex128
            else np.arange(10, dtype=dtype)
        )
        x = cp.asarray(host)
        module.get_function(expression)((1,), (10,), (x, np.int32(10)))
        np.testing.assert_array_equal(x.get(), host * host)
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="named symbol not found"):
        module.get_function("my_sqrt<double>")  # not among the expressions
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="CUDA_ERROR_NOT_FOUND"):
        cp.RawModule(code=TEMPLATE).get_function("my_sqrt<int>")


@pytest.mark.gpu
def test_name_expressions_from_the_disk_cache(tmp_path):
    """A fresh process finds the module and its lowered names in the disk cache."""
    code = textwrap.dedent(
        f"""
        import cuarray as cp, numpy as np
        from cuarray import _core
        source = {TEMPLATE!r} + "// {tmp_path}"
        module = cp.RawModule(code=source, name_expressions=["my_sqrt<float>", "my_func"])
        x = cp.arange(4, dtype=cp.float32)
        module.get_function("my_sqrt<float>")((1,), (4,), (x, np.int32(4)))
        assert x.tolist() == [0, 1, 4, 9], x
        print(_core.jit.cache_stats()["disk_hits"] > 0)
        """
    )
    env = {"CUARRAY_CACHE_DIR": str(tmp_path)}
    first = run_python(code=code, env=env)
    second = run_python(code=code, env=env)
    assert first.returncode == 0 and second.returncode == 0, describe(first) + describe(second)
    assert second.stdout.split()[-1] == "True"


@pytest.mark.gpu
@pytest.mark.parametrize("make", ["kernel", "module"])
def test_compile_log_stream_even_when_cached(make):
    for _ in range(2):  # the second is in every cache, and is compiled again for its log
        log = io.StringIO()
        if make == "kernel":
            raw = cp.RawKernel(WARNS, "test_op")
            raw.compile(log_stream=log)
        else:
            raw = cp.RawModule(code=WARNS)
            raw.compile(log_stream=log)
            raw = raw.get_function("test_op")
        assert "warning" in log.getvalue()
        x = cp.arange(8, dtype=cp.float32)
        y = cp.empty_like(x)
        raw((1,), (8,), (x, x, y, np.uint32(8)))
        np.testing.assert_array_equal(y.get(), 2 * np.arange(8, dtype=np.float32))


@pytest.mark.gpu
def test_get_global():
    module = cp.RawModule(code=CONSTANT)
    memptr = module.get_global("some_array")
    assert isinstance(memptr, cp.cuda.MemoryPointer) and memptr.ptr != 0
    constant = cp.ndarray((100,), cp.float32, memptr)
    data = cp.arange(100, dtype=cp.float32)
    constant[...] = data
    out = cp.ones(100, dtype=cp.float32)
    module.get_function("multiply_by_const")((1,), (100,), (out, np.int32(100)))
    np.testing.assert_array_equal(out.get(), np.arange(100, dtype=np.float32))
    assert cp.ndarray((1,), cp.int32, module.get_global("counter")).get()[0] >= 1
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="CUDA_ERROR_NOT_FOUND"):
        module.get_global("no_such_global")


@pytest.mark.gpu
def test_cucomplex_bridge_computes_as_the_ufuncs():
    module = cp.RawModule(code=CU_COMPLEX, translate_cucomplex=True)
    rng = np.random.default_rng(0)
    n = 50
    for dtype in (np.complex64, np.complex128):
        a = cp.asarray((rng.random(n) + 1j * rng.random(n)).astype(dtype))
        b = cp.asarray((rng.random(n) + 1j * rng.random(n)).astype(dtype))
        if dtype == np.complex64:
            s = np.complex64(2 + 3j)
            out = cp.empty(5 * n, dtype)
            absolute = cp.empty(n, np.float32)
            up = cp.empty(n, np.complex128)
            module.get_function("ops_f")((1,), (n,), (a, b, s, out, absolute, up, np.int32(n)))
            got = out.reshape(n, 5)
            assert (got[:, 0] == a + b).all() and (got[:, 1] == a - b).all() and (got[:, 2] == a / b).all()
            assert (got[:, 3] == cp.conj(a + s)).all()
            assert (absolute == cp.abs(a)).all()
            assert cp.allclose(up, (a * b + s).astype(np.complex128))
            np.testing.assert_array_equal(
                got[:, 4].get(), (a.real - 3j * a.imag.astype(np.float64)).get().astype(dtype)
            )
        else:
            out = cp.empty(3 * n, dtype)
            absolute = cp.empty(n, np.float64)
            down = cp.empty(n, np.complex64)
            module.get_function("ops_d")((1,), (n,), (a, b, out, absolute, down, np.int32(n)))
            got = out.reshape(n, 3)
            assert cp.allclose(got[:, 0], a * b) and (got[:, 1] == a / b).all()
            assert cp.allclose(got[:, 2], a * b + (a.real + 1j * b.imag))
            assert (absolute == cp.abs(a)).all()
            assert (down == (a - b).astype(np.complex64)).all()


@pytest.mark.gpu
@pytest.mark.parametrize("what", ["kernel", "module", "module_kernel"])
def test_pickled_kernels_run_in_another_process(tmp_path, what):
    source = WARNS.replace("int j;", "")
    if what == "kernel":
        raw = cp.RawKernel(source, "test_op", enable_cooperative_groups=True)
    else:
        raw = cp.RawModule(code=source, enable_cooperative_groups=True)
        if what == "module_kernel":
            raw = raw.get_function("test_op")  # compiled before pickling
    (tmp_path / "raw.pkl").write_bytes(pickle.dumps(raw))
    code = textwrap.dedent(
        f"""
        import pickle
        import cuarray as cp, numpy as np
        raw = pickle.loads(open({str(tmp_path / "raw.pkl")!r}, "rb").read())
        if {what == "module"}:
            raw = raw.get_function("test_op")
        x = cp.arange(10, dtype=cp.float32)
        y = cp.empty_like(x)
        raw((1,), (10,), (x, x, y, np.uint32(10)))
        assert (y.get() == 2 * np.arange(10)).all() and raw.enable_cooperative_groups
        print("ok")
        """
    )
    proc = run_python(code=code)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", describe(proc)


@pytest.mark.gpu
def test_memory_only_compiles_in_a_process(tmp_path):
    code = textwrap.dedent(
        f"""
        import cuarray as cp
        cp.RawModule(code={WARNS!r} + "// {tmp_path}").get_function("test_op")
        (cp.arange(3, dtype=cp.float64) * 3.5).sum()
        """
    )
    proc = run_python(code=code, env={"CUARRAY_CACHE_DIR": str(tmp_path), "CUPY_CACHE_IN_MEMORY": "1"})
    assert proc.returncode == 0, describe(proc)
    assert os.listdir(tmp_path) == []


@pytest.mark.gpu
def test_dynamic_parallelism():
    kernel = cp.RawKernel(LAUNCHER, "test_kernel", options=("-dc",))
    x = cp.zeros(169, dtype=cp.float32)
    kernel((1,), (13,), (x, np.int32(169), np.int32(13)))
    assert (x == 1.0).all()


@pytest.mark.gpu
def test_target_arch():
    arch = compiler.target_arch()
    assert isinstance(arch, str) and int(arch) <= int(cp.cuda.Device().compute_capability)
