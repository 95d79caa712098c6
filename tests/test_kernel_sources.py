"""Every generated kernel compiles with NVRTC for sm_90. Needs NVRTC, not a GPU, so it runs in CI."""

import concurrent.futures
import functools
import itertools
import os
import threading

import cuarray
import numpy
import pytest
from conftest import ALL_DTYPES
from cuarray import _core

S = _core.jit.sources
DTYPES = [t.name for t in ALL_DTYPES]
try:
    import ml_dtypes  # noqa: F401

    DTYPES.append("bfloat16")
except ImportError:
    pass


def _headers():
    return _core.jit.headers()


# NVRTC defines this macro only under -minimal, which every compile tries first (it is faster): a generated
# kernel that needed the full language would be compiled twice.
MINIMAL_ONLY = "#ifndef __CUDACC_RTC_MINIMAL__\n#error compiled without -minimal\n#endif\n"


# Note [Compiling the generated kernels in tests]
# Compiling every generated kernel for sm_90 is most of what the suite does without a GPU, so each kernel is
# compiled once per process however many tests generate it: a test's kernels are deduplicated, and those an
# earlier test of the process compiled are not compiled again. The rest are split into one program per CPU
# that this process has to itself (the CPUs over pytest-xdist's workers), compiled on a thread pool:
# jit.compile releases the GIL, and NVRTC compiles separate programs concurrently. No more programs than
# that: each program parses the headers again, and code that kernels share (functions NVVM does not inline)
# is compiled once per program, so every further split costs CPU time. A program that fails is compiled again
# kernel by kernel, so that the error names the kernel at fault and shows its own source. What the tests
# check is unchanged: every kernel in a compiled cubin.
#
# Note [Fast compilation of the test kernels]
# The tests compile with NVRTC's --Ofast-compile=mid (CUDA 12.8 and later), which costs much less than a full
# compile. Every stage still runs: the front end (the generated C++ against the kernel headers, template
# instantiation, static_asserts), NVVM's code generation for sm_90, and ptxas, which assembles the inline PTX
# of the headers (half-precision conversions, the Philox transforms, the sort's predicates) and checks each
# kernel's resources (static shared memory) against sm_90's limits. What the option drops is optimization
# work, which changes how fast a kernel runs; the library's own compiles keep the full optimization, and the
# GPU tests compile and run those, so a fault that only the optimizer brings out is theirs to find. PTX for
# compute_90 alone would cost less again, but it skips ptxas and with it those checks (NVRTC accepts bad
# inline PTX and too much shared memory there), so the tests keep cubins.
_KERNELS_PER_PROGRAM = 12  # the fewest worth a program of their own
_compiled = {}  # kernel source -> the cubin it was compiled into
_compiled_lock = threading.Lock()
_pool = None


def _threads():
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    return max(1, cpus // max(workers, 1))


@functools.cache
def _fast_compile():
    return ["--Ofast-compile=mid"] if _core.jit.nvrtc_version() >= 12080 else []


def compile_for_test(source, name):
    """`source` compiled for sm_90 as the tests compile generated kernels (Note [Fast compilation of the test
    kernels]); returns the cubin."""
    try:
        return _core.jit.compile(MINIMAL_ONLY + source, name, _fast_compile(), 90, _headers())
    except cuarray.cuda.compiler.CompileException as e:
        # A failed -minimal compile is retried without it, where MINIMAL_ONLY's #error hides the real error.
        if "compiled without -minimal" not in e.log:
            raise
        _core.jit.compile(source, name, _fast_compile(), 90, _headers())  # raises the source's own error
        raise  # it compiles, but only with the full language


def _compile_program(kernels):
    try:
        cubin = compile_for_test("\n".join(s for s, _ in kernels), "test")
    except cuarray.cuda.compiler.CompileException:
        if len(kernels) == 1:
            raise
        for source, name in kernels:  # raises the first kernel's own error
            compile_for_test(source, name)
        raise  # the kernels compile alone but not together: the program's error says why
    with _compiled_lock:
        _compiled.update((s, cubin) for s, _ in kernels)
    return cubin


def _compile_together(kernels):
    """Compiles `kernels` ((source, name) pairs with unique names, in programs that include the headers once)
    unless this process compiled them already (Note [Compiling the generated kernels in tests]); returns the
    cubins that hold them, joined (each starts with its ELF header)."""
    global _pool
    unique = list(dict.fromkeys(kernels))
    names = [n for _, n in unique]
    assert len(set(names)) == len(names), "kernel names must be unique"
    with _compiled_lock:
        done = list(dict.fromkeys(c for c in (_compiled.get(s) for s, _ in unique) if c is not None))
        todo = [k for k in unique if k[0] not in _compiled]
    programs = max(1, min(_threads(), len(todo) // _KERNELS_PER_PROGRAM))
    chunks = [todo[i::programs] for i in range(programs)] if todo else []
    if len(chunks) <= 1:
        cubins = [_compile_program(c) for c in chunks]
    else:
        with _compiled_lock:
            if _pool is None:
                _pool = concurrent.futures.ThreadPoolExecutor(_threads(), thread_name_prefix="nvrtc")
        cubins = [f.result() for f in [_pool.submit(_compile_program, c) for c in chunks]]
    return b"".join(cubins + done)


PAIRS = list(itertools.product(DTYPES, DTYPES))
SOLVER_DTYPES = ["float32", "float64", "complex64", "complex128"]
GROUPS = {
    "copy_contiguous": lambda: [S.copy_contiguous(a, b, w) for a, b in PAIRS for w in (False, True)],
    "copy_strided": lambda: [
        S.copy_strided(a, b, nd, w) for a, b in PAIRS for nd, w in ((1, False), (3, True))
    ],
    "copy_transpose": lambda: (
        [S.copy_transpose(a, b, False) for a, b in PAIRS] + [S.copy_transpose(a, a, True) for a in DTYPES]
    ),
    "fill": lambda: (
        [S.fill_contiguous(a, w, al) for a in DTYPES for w in (False, True) for al in (False, True)]
        + [S.fill_strided(a, nd, w) for a in DTYPES for nd, w in ((1, False), (4, True))]
    ),
    "creation": lambda: (
        [S.arange(a, w) for a in DTYPES if not a.startswith("complex") for w in (False, True)]
        + [S.linspace(a, w) for a in DTYPES for w in (False, True)]
        + [S.eye(a, w) for a in DTYPES for w in (False, True)]
        + [S.zero_blocks()]
    ),
    # Bool operands are read as bytes (Note [Reading bools]): the kernels that read them, beside a number type.
    "bool_reads": lambda: (
        [S.count_nonzero(a, nd) for a in ("bool", "int8") for nd in (1, 3)]
        + [S.write_nonzero(a, 2, "rows") for a in ("bool", "float32")]
        + [
            S.scan_tiles(a, out, False, False, 1, vector)
            for a, out in (("bool", "int64"), ("int8", "int64"))
            for vector in (False, True)
        ]
        + [S.scan_rows("bool", "int64", False, False, 2)]
    ),
    # maximum.accumulate and minimum.accumulate: scans with NumPy's maximum and minimum, in every dtype.
    "running_extremes": lambda: (
        [
            S.scan_tiles(a, a, op, False, 1, vector)
            for a in DTYPES
            for op in ("max", "min")
            for vector in (False, True)
        ]
        + [S.scan_rows(a, a, op, False, 2) for a in DTYPES for op in ("max", "min")]
    ),
    "linalg": lambda: (
        [S.matmul_integer(a, w) for a in DTYPES if a == "bool" or "int" in a for w in (False, True)]
        + [S.matmul_small(a) for a in SOLVER_DTYPES]
        + [S.lu_slogdet(a) for a in SOLVER_DTYPES]
        + [
            S.nonfinite_results(a, y)
            for a in SOLVER_DTYPES
            for y in sorted({a, numpy.empty(0, a).real.dtype.name})
        ]
        + [S.zero_triangle(a, w) for a in SOLVER_DTYPES for w in (False, True)]
    ),
}


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_generated_kernels_compile_for_sm90(group):
    kernels = GROUPS[group]()
    cubin = _compile_together(kernels)
    assert cubin[:4] == b"\x7fELF"
    for _, name in kernels:
        assert name.encode() in cubin, f"{name} missing from the compiled program"


def test_compile_error_is_compile_exception_with_log_and_source():
    src = 'extern "C" __global__ void broken(float* x) {\n  x[0] = undefined_name;\n}\n'
    with pytest.raises(cuarray.cuda.compiler.CompileException) as info:
        _core.jit.compile(src, "broken", [], 90, [])
    msg = str(info.value)
    assert "undefined_name" in info.value.log
    assert "broken" in msg and "undefined_name" in msg
    assert "    2 | " in msg or ">    2 |" in msg


def test_a_failing_program_names_the_kernel_at_fault():
    """A program of many kernels that fails is compiled again kernel by kernel (Note [Compiling the generated
    kernels in tests]): the error names the broken kernel and shows its own source, not the program's."""
    good = [
        (f'extern "C" __global__ void batch_ok_{i}(int* x) {{ x[{i}] = {i}; }}\n', f"batch_ok_{i}")
        for i in range(3)
    ]
    bad = ('extern "C" __global__ void batch_broken(int* x) {\n  x[0] = undefined_name;\n}\n', "batch_broken")
    with pytest.raises(cuarray.cuda.compiler.CompileException) as info:
        _compile_program(good + [bad] + good[:1])
    assert info.value.name == "batch_broken"
    assert "batch_broken" in str(info.value) and "undefined_name" in info.value.log
    assert "batch_ok_" not in info.value.source
    assert not any(s in _compiled for s, _ in good + [bad])


def test_a_generated_kernel_that_needs_the_full_language_fails():
    """Generated kernels must compile under -minimal: one that compiles only without it fails, saying so."""
    src = (
        'extern "C" __global__ void needs_full(cudaTextureObject_t t, float* y) {\n'
        "  y[0] = tex1Dfetch<float>(t, 0);\n}\n"
    )
    with pytest.raises(cuarray.cuda.compiler.CompileException, match="compiled without -minimal"):
        compile_for_test(src, "needs_full")


@pytest.mark.parametrize(
    "body,error",
    [
        (
            "__shared__ float s[16384]; s[threadIdx.x] = y[0]; __syncthreads(); y[0] = s[threadIdx.x ^ 1];",
            "too much shared data",
        ),  # 64 KiB of static shared memory, past sm_90's 48 KiB
        ('float r; asm("sqrt.bogus.f32 %0, %1;" : "=f"(r) : "f"(y[0])); y[0] = r;', "bogus"),
    ],
)
def test_the_test_compiles_run_ptxas(body, error):
    """Note [Fast compilation of the test kernels]: the tests' compiles still reach ptxas, which alone rejects
    these (NVRTC's PTX for compute_90 accepts both)."""
    src = f'extern "C" __global__ void needs_ptxas(float* y) {{ {body} }}\n'
    with pytest.raises(cuarray.cuda.compiler.CompileException, match=error) as info:
        compile_for_test(src, "needs_ptxas")
    assert "ptxas" in info.value.log


def test_kernels_compile_with_minimal_language():
    src = MINIMAL_ONLY + 'extern "C" __global__ void k() {}\n'
    assert _core.jit.compile(src, "k", [], 90, [])[:4] == b"\x7fELF"


def test_source_that_needs_the_full_language_is_compiled_without_minimal():
    # Textures and the runtime API's types are left out under -minimal; a user's kernel may use them.
    src = (
        'extern "C" __global__ void k(cudaTextureObject_t t, float* y) {\n'
        "  cudaError_t e = cudaSuccess;\n  y[0] = tex1Dfetch<float>(t, 0) + e;\n}\n"
    )
    assert _core.jit.compile(src, "k", [], 90, [])[:4] == b"\x7fELF"


@pytest.mark.parametrize(
    "dtype,header",
    [
        ("float32", "elementwise"),
        ("float16", "elementwise"),
        ("int64", "elementwise"),
        ("complex64", "ufunc"),
        ("complex128", "ufunc"),
    ],
)
def test_user_kernels_include_what_their_types_need(dtype, header):
    """A user's ElementwiseKernel of real types includes the kernels' support alone, which compiles faster; one of
    complex numbers also gets their arithmetic (Note [Kernel headers] in cpp/cuarray/ops/elementwise.cpp)."""
    k = cuarray.ElementwiseKernel("T x, T y", "T z", "z = x * y + x", "user_fma")
    t = numpy.dtype(dtype)
    handle = k._definition((t, t), (t,), {"T": t})
    for contiguous, ndim in ((True, 0), (False, 2)):
        src, name = _core._elementwise_source(handle, [t, t], [t], contiguous, ndim)
        assert src.startswith(f'#include "cuarray/{header}.cuh"\n')
        assert compile_for_test(src, name)[:4] == b"\x7fELF"


def test_kernel_names_encode_dtypes():
    assert S.copy_strided("float32", "int8", 2, False)[1] == "copy_strided_float32_int8_2"
    assert S.copy_contiguous(numpy.float64, numpy.bool_, True)[1] == "copy_contiguous_float64_bool_w"


def test_unknown_dtype_is_type_error():
    with pytest.raises(TypeError):
        S.fill_contiguous("not-a-dtype", False, True)
    with pytest.raises(TypeError):
        S.fill_contiguous(numpy.dtype("U3"), False, True)


@pytest.mark.parametrize("kinds,ndim", [((2, 0, 1, 2), 2), ((2, 1, 1, 2), 1), ((2, 0, 0, 2), 3)])
def test_user_kernel_variants_with_raw_and_scalar_operands_compile(kinds, ndim):
    """Raw arrays are passed whole and scalars by value; with neither arrays nor iterated outputs left, the loop
    has no strided operands at all (Note [Elementwise loops] in kernels/elementwise.cuh)."""
    k = cuarray.ElementwiseKernel(
        "raw T x, T y, float32 s", "raw T z", "z[i] = x[_ind.size() - i - 1] * s + y", "rev_scale"
    )
    t = numpy.dtype("float32")
    handle = k._definition((t, t, t), (t,), {"T": t})
    # The engine's inputs: x, y, s, then the raw output z; no output is iterated.
    src, name = _core._elementwise_source(handle, [t] * 4, [], False, ndim, kinds=list(kinds))
    assert "ca::Raw<float, 1> in0" in src and ("float in2_s" in src) == (kinds[2] == 1)
    assert compile_for_test(src, name)[:4] == b"\x7fELF"


@pytest.mark.parametrize("ndim", [0, 1, 2, 3, 64])
def test_raw_arrays_have_cupys_carray_members(ndim):
    """A raw array is CuPy's CArray (Note [Raw arrays as CArray] in _kernel.py): ndim, size(), shape() and
    strides() as ptrdiff_t, x[i] in C order, x[idx] by one index per axis (an array, or a braced list), and the
    CArray<T, N> name for device functions of the preamble; for every dimension count, 0 and NumPy's 64 too."""
    body = (
        "ptrdiff_t idx[x.ndim > 0 ? x.ndim : 1] = {}; const ptrdiff_t* s = x.shape(); "
        "const ptrdiff_t* st = x.strides(); y[i] = first(x) + x[i] + x[idx] + (T)(x.size() + x.ndim); "
        "if (x.ndim > 0) y[i] += (T)(s[0] + st[0]);"
    )
    if ndim == 0:
        body = "y[i] = first(x) + x[i] + (T)(x.size() + x.ndim + (x.shape() == nullptr));"
    elif ndim == 2:
        body += " y[i] += x[{i % s[0], (ptrdiff_t)0}];"
    preamble = f"template <class T> __device__ T first(const CArray<T, {ndim}>& a) {{ return a[0]; }}"
    k = cuarray.ElementwiseKernel("raw T x", "raw T y", body, f"carray_members_{ndim}", preamble=preamble)
    t = numpy.dtype("float64")
    handle = k._definition((t,), (t,), {"T": t})
    src, name = _core._elementwise_source(handle, [t, t], [], False, 1, kinds=[2, 2], raw_ndim=[ndim, 1])
    assert f"ca::Raw<double, {ndim}>& in0" in src and f"_r{ndim}float64_r1float64" in name
    assert compile_for_test(src, name)[:4] == b"\x7fELF"


def test_user_kernels_have_cupys_math_constants():
    # Note [CuPy's kernel prelude]: M_PI always, the toolkit's CUDART_* constants where its headers are found.
    from cuarray._kernel import _include_options

    body = "y = sin(2 * M_PI * x) + (x > CUDART_INF ? CUDART_PI : 0) + (float)CUDART_INF_F * 0"
    k = cuarray.ElementwiseKernel(
        "T x", "T y", body if _include_options() else body.split(" +")[0], "prelude"
    )
    t = numpy.dtype("float64")
    handle = k._definition((t,), (t,), {"T": t})
    src, name = _core._elementwise_source(handle, [t], [t], False, 1)
    assert "math_constants.h" in src and "M_PI" in src
    options = [*_fast_compile(), *_include_options()]
    assert _core.jit.compile(src, name, options, 90, _headers())[:4] == b"\x7fELF"


@pytest.mark.parametrize("dtype", ["float16", "int8", "complex128"])
@pytest.mark.parametrize("contiguous,ndim,tiled", [(True, 0, 0), (False, 2, 0), (False, 3, 1)])
def test_user_kernel_variants_with_a_scalar_compile(dtype, contiguous, ndim, tiled):
    if tiled and dtype == "complex128":
        pytest.skip("64 x 64 tiles of complex128 exceed a block's shared memory; launches take 32 x 32 there")
    k = cuarray.ElementwiseKernel("T x, T y", "T z", "z = x * y + x", "user_axpy")
    t = numpy.dtype(dtype)
    handle = k._definition((t, t), (t,), {"T": t})
    src, name = _core._elementwise_source(handle, [t, t], [t], contiguous, ndim, tiled, kinds=[0, 1])
    assert "in1_s" in src
    assert compile_for_test(src, name)[:4] == b"\x7fELF"


def test_unknown_definition_handle_is_index_error():
    with pytest.raises(IndexError):
        _core._elementwise_source(2**40, ["float32"], ["float32"], True, 0)
    with pytest.raises(IndexError):
        _core._fused_source(2**40)
