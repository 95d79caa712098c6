"""User kernels: cp.ElementwiseKernel (CuPy's parameter syntax, type placeholders, scalars, raw params, out
arrays, broadcasting, size=), cp.RawKernel and cp.RawModule; parameter-parsing errors raise ValueError and
CUDA errors raise CompileException with the NVRTC log; neither ever crashes the process."""

import re

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same, describe, run_python

pytestmark = pytest.mark.gpu

CompileException = cp.cuda.compiler.CompileException


def _f32(vals):
    return np.array(vals, dtype=np.float32)


# ---- ElementwiseKernel --------------------------------------------------------------------------------------


def test_elementwise_concrete_types():
    k = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")
    a = _f32(np.arange(10) * 0.5)
    b = _f32(np.arange(10)[::-1] * 0.25)
    r = k(cp.asarray(a), cp.asarray(b))
    assert_same(r, (a - b) * (a - b))


def test_elementwise_explicit_out_is_returned():
    k = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")
    a, b = _f32([1, 2, 3]), _f32([0.5, 4, -1])
    z = cp.zeros(3, dtype=np.float32)
    r = k(cp.asarray(a), cp.asarray(b), z)
    assert r is z
    assert_same(z, (a - b) ** 2)


def test_elementwise_placeholder_types():
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_t")
    a = _f32([1.5, 2.25, -3])
    r = k(cp.asarray(a), cp.asarray(a))
    assert_same(r, a + a)
    i = np.array([2**40, -5, 7], dtype=np.int64)
    r = k(cp.asarray(i), cp.asarray(i))
    assert_same(r, i + i)  # int64 arithmetic, not through float
    u = np.array([250, 3], dtype=np.uint8)
    assert_same(k(cp.asarray(u), cp.asarray(u)), u + u)  # wraps in uint8


def test_elementwise_python_scalar_takes_type_from_array():
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_t")
    a = _f32([1.5, 2.25, -3])
    r = k(cp.asarray(a), 2.5)
    assert_same(r, a + np.float32(2.5))
    i = np.array([1, 2, 3], dtype=np.int64)
    assert_same(k(cp.asarray(i), 10), i + 10)
    # the scalar first
    assert_same(k(2.5, cp.asarray(a)), np.float32(2.5) + a)


def test_elementwise_numpy_scalar_argument():
    k = cp.ElementwiseKernel("float32 x, float32 a", "float32 z", "z = a * x", "scale")
    a = _f32([1, 2, 3])
    assert_same(k(cp.asarray(a), np.float32(1.5)), a * np.float32(1.5))


def test_elementwise_two_placeholders_and_concrete_output():
    k = cp.ElementwiseKernel("T x, U y", "T z", "z = x + (T)y", "add_cast")
    a = _f32([1.5, 2.5, 3.5])
    i = np.array([1, 2, 3], dtype=np.int16)
    assert_same(k(cp.asarray(a), cp.asarray(i)), a + i.astype(np.float32))
    h = cp.ElementwiseKernel("T x", "float64 z", "z = (double)x * 0.5", "half64")
    assert_same(h(cp.asarray(i)), i.astype(np.float64) * 0.5)


def test_elementwise_output_type_from_placeholder_allocation():
    k = cp.ElementwiseKernel("T x", "T y", "y = x * x", "sq_t")
    for dt in ("int8", "int32", "uint16", "float16", "float64"):
        a = np.array([1, 2, 3, 4], dtype=dt)
        r = k(cp.asarray(a))
        assert r.dtype == a.dtype
        assert_same(r, a * a)


def test_elementwise_multiple_outputs():
    k = cp.ElementwiseKernel("T x", "T a, T b", "a = x + 1; b = x * 2", "two_out")
    x = np.array([1, 5, -3], dtype=np.int32)
    r = k(cp.asarray(x))
    assert isinstance(r, tuple) and len(r) == 2
    assert_same(r[0], x + 1)
    assert_same(r[1], x * 2)


def test_elementwise_broadcasting():
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x * 10 + y", "bcast")
    a = np.arange(3, dtype=np.int32).reshape(3, 1)
    b = np.arange(4, dtype=np.int32).reshape(1, 4)
    r = k(cp.asarray(a), cp.asarray(b))
    assert r.shape == (3, 4)
    assert_same(r, a * 10 + b)
    z = cp.zeros((2, 3, 4), dtype=np.int32)
    r = k(cp.asarray(a), cp.asarray(b), z)  # the output broadcasts the inputs further
    assert r is z
    assert_same(z, np.broadcast_to(a * 10 + b, (2, 3, 4)))


def test_elementwise_non_contiguous_inputs_and_reduce_dims():
    src = np.arange(48, dtype=np.float32).reshape(6, 8)
    x = cp.asarray(src)
    for rd in (True, False):
        k = cp.ElementwiseKernel("T x, T y", "T z", "z = x - y", "sub_nc", reduce_dims=rd)
        r = k(x[::2, ::-3], x[1::2, ::-3])
        assert_same(r, src[::2, ::-3] - src[1::2, ::-3])
        r = k(x.T, x.T)
        assert_same(r, src.T - src.T)


def test_elementwise_index_i():
    k = cp.ElementwiseKernel("T x", "T y", "y = x + (T)i", "plus_index")
    a = np.full(1000, 5, dtype=np.int64)
    assert_same(k(cp.asarray(a)), a + np.arange(1000))


def test_elementwise_raw_input_reverses():
    k = cp.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - i - 1]", "reverse")
    for n in (1, 7, 1000):
        a = np.arange(n, dtype=np.float32) * 1.5
        y = cp.empty(n, dtype=np.float32)
        r = k(cp.asarray(a), y)
        assert r is y
        assert_same(y, a[::-1].copy())


def test_elementwise_raw_input_with_size():
    k = cp.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - i - 1]", "reverse_size")
    a = np.arange(10, dtype=np.int32)
    r = k(cp.asarray(a), size=10)
    assert r.shape == (10,) and r.dtype == np.int32
    assert_same(r, a[::-1].copy())


def test_elementwise_only_raw_params_with_size():
    k = cp.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i] * 2", "double_raw")
    a = np.arange(10, dtype=np.float64)
    y = cp.zeros(10, dtype=np.float64)
    k(cp.asarray(a), y, size=10)
    assert_same(y, a * 2)
    y2 = cp.zeros(10, dtype=np.float64)
    k(cp.asarray(a), y2, size=4)  # only the first 4 elements
    e = np.zeros(10)
    e[:4] = a[:4] * 2
    assert_same(y2, e)


def test_elementwise_preamble_and_options():
    k = cp.ElementwiseKernel(
        "float32 x",
        "float32 y",
        "y = sq(x) + FACTOR",
        "pre_opt",
        preamble="__device__ float sq(float v) { return v * v; }",
        options=("-DFACTOR=3",),
    )
    a = _f32([1, 2, -3])
    assert_same(k(cp.asarray(a)), a * a + 3)


def test_elementwise_kernel_reused_across_dtypes_and_shapes():
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x > y ? x : y", "max_t")
    for dt in ("float32", "int16", "float64", "int32"):
        for shape in ((5,), (2, 3), (4, 1, 2)):
            a = (np.arange(np.prod(shape)).reshape(shape) % 4).astype(dt)
            b = (np.arange(np.prod(shape)).reshape(shape)[..., ::-1] % 3).astype(dt)
            assert_same(k(cp.asarray(a), cp.asarray(b)), np.maximum(a, b))


def test_elementwise_zero_size():
    k = cp.ElementwiseKernel("T x", "T y", "y = x * 2", "dbl0")
    r = k(cp.zeros((0, 3), dtype=np.float32))
    assert r.shape == (0, 3) and r.dtype == np.float32


# ---- ElementwiseKernel errors ------------------------------------------------------------------------------------


def _build_and_call(in_params, out_params, operation, args):
    k = cp.ElementwiseKernel(in_params, out_params, operation, "bad_params")
    return k(*args)


X3 = np.array([1.0, 2.0, 3.0], dtype=np.float32)


@pytest.mark.parametrize(
    "in_params,out_params",
    [
        ("float32", "float32 y"),  # no name
        ("float32 x", "float32"),
        ("float32 x, float32 x", "float32 y"),  # duplicate name
        ("float32 x", "float32 x"),  # duplicate between inputs and outputs
        ("float32 x y", "float32 z"),  # an unknown keyword before the type
        ("float32 x,", "float32 y"),  # empty parameter
    ],
)
def test_bad_parameter_strings_raise_value_error(in_params, out_params):
    with pytest.raises(ValueError):
        _build_and_call(in_params, out_params, "y = x", [cp.asarray(X3)])


@pytest.mark.parametrize("in_params,out_params", [("notatype x", "float32 y"), ("float32 x", "notatype y")])
def test_unknown_parameter_types_raise_type_error_as_cupy(in_params, out_params):
    with pytest.raises(TypeError, match="unknown type 'notatype'"):
        _build_and_call(in_params, out_params, "y = x", [cp.asarray(X3)])


@pytest.mark.parametrize("args", [(X3.astype(np.float64),), (X3.astype(np.int32),)])
def test_arrays_for_typed_parameters_must_have_their_type_as_in_cupy(args):
    k = cp.ElementwiseKernel("float32 x", "float32 y", "y = x", "typed")
    with pytest.raises(TypeError, match="Type is mismatched. x"):
        k(*(cp.asarray(a) for a in args))
    with pytest.raises(TypeError, match="Type is mismatched. y"):
        k(cp.asarray(X3), cp.zeros(3, np.float64))
    np.testing.assert_array_equal(k(cp.asarray(X3)).get(), X3)
    np.testing.assert_array_equal(
        k(2.5, cp.zeros(3, np.float32)).get(), np.full(3, 2.5, np.float32)
    )  # scalars cast


def test_parameter_name_that_is_no_identifier_raises():
    # rejected when parsed (ValueError) or by NVRTC (CompileException), never a crash
    with pytest.raises((ValueError, CompileException)):
        _build_and_call("float32 1x", "float32 y", "y = 1", [cp.asarray(X3)])


def test_placeholder_output_type_no_input_defines():
    with pytest.raises(ValueError):
        _build_and_call("T x", "U y", "y = x", [cp.asarray(X3)])


def test_compile_error_in_operation_raises_compile_exception():
    k = cp.ElementwiseKernel("float32 x", "float32 y", "y = x + undefined_variable_xyz", "bad_op")
    with pytest.raises(CompileException) as ei:
        k(cp.asarray(X3))
    text = str(ei.value)
    assert "undefined_variable_xyz" in text
    assert "error" in text.lower()


def test_syntax_error_in_operation_raises_compile_exception():
    with pytest.raises(CompileException) as ei:
        k = cp.ElementwiseKernel("float32 x", "float32 y", "y = x +* ;", "bad_syntax")
        k(cp.asarray(X3))
    assert "error" in str(ei.value).lower()
    # the process is fine afterwards
    ok = cp.ElementwiseKernel("float32 x", "float32 y", "y = x + 1", "fine_after")
    assert_same(ok(cp.asarray(X3)), X3 + 1)


# ---- RawKernel ---------------------------------------------------------------------------------------------------

SAXPY = r"""
extern "C" __global__ void saxpy(float a, const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a * x[i] + y[i];
    }
}
"""


@pytest.mark.parametrize("n", [1, 1000, 100_003])
def test_raw_kernel_saxpy(n):
    k = cp.RawKernel(SAXPY, "saxpy")
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = cp.zeros(n, dtype=np.float32)
    block = 128
    grid = (n + block - 1) // block
    k((grid,), (block,), (np.float32(2.5), cp.asarray(x), cp.asarray(y), out, np.int32(n)))
    # The GPU may fuse a * x + y into one rounding: compare with the exact result at float32 precision.
    expected = 2.5 * x.astype(np.float64) + y.astype(np.float64)
    assert out.dtype == np.float32
    np.testing.assert_allclose(cp.asnumpy(out), expected, rtol=1e-6, atol=1e-6)


def test_raw_kernel_attributes():
    k = cp.RawKernel(SAXPY, "saxpy", options=("-lineinfo",), backend="nvrtc")
    assert type(k.max_threads_per_block) is int and 0 < k.max_threads_per_block <= 1024
    assert type(k.num_regs) is int and k.num_regs > 0


def test_raw_kernel_double_and_int64_args():
    src = r"""
    extern "C" __global__ void axpb(const double* x, double* y, double a, long long b, unsigned int n) {
        unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = a * x[i] + (double)b;
    }
    """
    k = cp.RawKernel(src, "axpb")
    x = np.linspace(-1, 1, 333)
    y = cp.zeros(333)
    k((3,), (128,), (cp.asarray(x), y, np.float64(0.5), np.int64(2**40), np.uint32(333)))
    assert_same(y, 0.5 * x + float(2**40))


def test_raw_kernel_2d_grid():
    src = r"""
    extern "C" __global__ void add2d(const int* a, const int* b, int* c, int rows, int cols) {
        int r = blockIdx.y * blockDim.y + threadIdx.y;
        int col = blockIdx.x * blockDim.x + threadIdx.x;
        if (r < rows && col < cols) c[r * cols + col] = a[r * cols + col] * 1000 + b[r * cols + col];
    }
    """
    k = cp.RawKernel(src, "add2d")
    a = np.arange(37 * 51, dtype=np.int32).reshape(37, 51)
    b = (a % 7).astype(np.int32)
    c = cp.zeros((37, 51), dtype=np.int32)
    k((4, 3), (16, 16), (cp.asarray(a), cp.asarray(b), c, np.int32(37), np.int32(51)))
    assert_same(c, a * 1000 + b)


def test_raw_kernel_dynamic_shared_memory_and_stream():
    src = r"""
    extern "C" __global__ void block_reverse(const float* x, float* y) {
        extern __shared__ float buf[];
        int t = threadIdx.x;
        int base = blockIdx.x * blockDim.x;
        buf[t] = x[base + t];
        __syncthreads();
        y[base + t] = buf[blockDim.x - 1 - t];
    }
    """
    k = cp.RawKernel(src, "block_reverse")
    block, nblocks = 256, 8
    x = np.arange(block * nblocks, dtype=np.float32)
    y = cp.zeros(block * nblocks, dtype=np.float32)
    s = cp.cuda.Stream(non_blocking=True)
    k((nblocks,), (block,), (cp.asarray(x), y), shared_mem=block * 4, stream=s)
    s.synchronize()
    assert_same(y, x.reshape(nblocks, block)[:, ::-1].ravel())


def test_raw_kernel_compile_error_has_log_and_numbered_source():
    src = (
        'extern "C" __global__ void broken(float* x) {\n'
        "    int i = threadIdx.x;\n"
        "    float before_line = 1.0f;\n"
        "    x[i] = undefined_name_abc + before_line;\n"
        "    x[i] += 2.0f;\n"
        "}\n"
    )
    y = cp.zeros(4, dtype=np.float32)
    with pytest.raises(CompileException) as ei:
        k = cp.RawKernel(src, "broken")
        k((1,), (4,), (y,))
    text = str(ei.value)
    assert "undefined_name_abc" in text and "error" in text.lower()
    lines = text.splitlines()
    # the offending source line appears with its number (4), and so do its neighbours
    numbered = [ln for ln in lines if "x[i] = undefined_name_abc + before_line;" in ln]
    assert any(re.search(r"\b4\b", ln) for ln in numbered), text
    assert any("float before_line = 1.0f;" in ln and re.search(r"\b3\b", ln) for ln in lines), text
    assert any("x[i] += 2.0f;" in ln and re.search(r"\b5\b", ln) for ln in lines), text


# ---- RawModule ---------------------------------------------------------------------------------------------------

MODULE = r"""
extern "C" __global__ void add_one(int* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1;
}
extern "C" __global__ void scale(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * SCALE;
}
"""


def test_raw_module_two_functions():
    mod = cp.RawModule(code=MODULE, options=("-DSCALE=3.0f",))
    add_one = mod.get_function("add_one")
    scale = mod.get_function("scale")
    a = np.arange(300, dtype=np.int32)
    x = cp.asarray(a)
    add_one((3,), (128,), (x, np.int32(300)))
    add_one((3,), (128,), (x, np.int32(100)))  # only the first 100 again
    e = a + 1
    e[:100] += 1
    assert_same(x, e)
    f = np.linspace(0, 1, 50).astype(np.float32)
    out = cp.zeros(50, dtype=np.float32)
    scale((1,), (64,), (cp.asarray(f), out, np.int32(50)))
    assert_same(out, f * np.float32(3.0))
    assert scale.max_threads_per_block > 0 and scale.num_regs > 0


def test_raw_module_missing_function_raises():
    mod = cp.RawModule(code=MODULE, options=("-DSCALE=2.0f",))
    with pytest.raises(Exception):  # noqa: B017 - any error, as long as the process survives
        mod.get_function("no_such_function")
    assert mod.get_function("add_one") is not None


def test_raw_module_compile_error():
    with pytest.raises(CompileException) as ei:
        mod = cp.RawModule(code=MODULE)  # SCALE undefined
        mod.get_function("scale")
    assert "SCALE" in str(ei.value)


# ---- errors never crash the process --------------------------------------------------------------------------

CHILD = r"""
import numpy as np, cuarray as cp
CE = cp.cuda.compiler.CompileException
x = cp.asarray(np.arange(4, dtype=np.float32))
caught = []
def expect(exc, fn):
    try:
        fn()
    except exc as e:
        caught.append(type(e).__name__)
        return
    raise SystemExit("no " + exc.__name__ + " raised")
expect(ValueError, lambda: cp.ElementwiseKernel("float32", "float32 y", "y = 1", "k1")(x))
expect(ValueError, lambda: cp.ElementwiseKernel("float32 x, float32 x", "float32 y", "y = x", "k2")(x, x))
expect(TypeError, lambda: cp.ElementwiseKernel("notatype x", "float32 y", "y = x", "k3")(x))
expect(ValueError, lambda: cp.ElementwiseKernel("T x", "U y", "y = x", "k4")(x))
expect(CE, lambda: cp.ElementwiseKernel("float32 x", "float32 y", "y = x +* ;", "k5")(x))
expect(CE, lambda: cp.ElementwiseKernel("float32 x", "float32 y", "y = x;", "k6", preamble="#error boom")(x))
expect(CE, lambda: cp.RawKernel('extern "C" __global__ void f(float* x) { x[0] = ; }', "f")((1,), (1,), (x,)))
expect(CE, lambda: cp.RawModule(code="this is not CUDA").get_function("f"))
expect(Exception, lambda: cp.RawKernel('extern "C" __global__ void g(float* x) { }', "g", options=("--no-such-option",))((1,), (1,), (x,)))
k = cp.ElementwiseKernel("float32 x", "float32 y", "y = x * 2", "k_ok")
assert cp.asnumpy(k(x)).tolist() == [0.0, 2.0, 4.0, 6.0]
print("ALIVE", len(caught))
"""


def test_errors_never_crash_the_process():
    proc = run_python(code=CHILD, timeout=300)
    assert proc.returncode == 0, describe(proc)
    assert "ALIVE 9" in proc.stdout, describe(proc)


def test_the_index_is_cupys_ptrdiff_t_in_c_order():
    # CuPy's `i` is a ptrdiff_t (i * i past 46340 must not overflow an int) and the C-order element index,
    # whatever the operands' memory order; `_ind.size()` is a ptrdiff_t too.
    square = cp.ElementwiseKernel("", "int64 y", "y = i * i + 0 * _ind.size()", "index_square")
    y = cp.empty(100_000, np.int64)
    square(y)
    np.testing.assert_array_equal(cp.asnumpy(y), np.arange(100_000, dtype=np.int64) ** 2)
    a = cp.arange(6.0).reshape(2, 3)
    gather = cp.ElementwiseKernel("T x", "raw T y", "y[i] = x", "index_gather")
    y = cp.zeros(6)
    gather(a.T, y)
    np.testing.assert_array_equal(cp.asnumpy(y), np.arange(6.0).reshape(2, 3).T.ravel())
    index = cp.ElementwiseKernel("", "int64 y", "y = i", "index_value")
    out = cp.empty((2, 3), np.int64, order="F")
    index(out)
    np.testing.assert_array_equal(cp.asnumpy(out), np.arange(6).reshape(2, 3))


def test_a_body_reads_the_outputs_element_as_cupys():
    # CuPy binds an output parameter to the array's element: `y += x` adds to what y held, and a body that
    # sets y only where a condition holds leaves the other elements as they were (Note [Outputs a body reads]).
    x = np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], np.float32)
    acc = cp.ElementwiseKernel("T x", "T y", "y += x", "reads_accumulate")
    where_positive = cp.ElementwiseKernel("T x", "T y", "if (x > 0) y = x", "reads_conditional")
    for order in ("C", "F"):
        y = cp.full((2, 3), 10.0, np.float32, order=order)
        assert acc(cp.asarray(x), y) is y
        assert_same(y, x + 10)
        y = cp.full((2, 3), -1.0, np.float32, order=order)
        where_positive(cp.asarray(x), y)
        assert_same(y, np.where(x > 0, x, -1).astype(np.float32))
    # a non-contiguous out, a broadcast input, and two outputs of which one only is read
    base = cp.full((2, 6), 7.0, np.float32)
    acc(cp.asarray(x[0]), base[:, ::2])
    want = np.full((2, 6), 7.0, np.float32)
    want[:, ::2] += x[0]
    assert_same(base, want)
    two = cp.ElementwiseKernel("T x", "T y, T z", "y = x; z *= x", "reads_second")
    y, z = cp.zeros(3, np.float32), cp.full(3, 2.0, np.float32)
    two(cp.asarray(x[1]), y, z)
    assert_same(y, x[1])
    assert_same(z, 2 * x[1])
    # an out that partly overlaps the input goes through a temporary that starts as the out's values
    a = cp.arange(6, dtype=np.float32)
    acc(a[1:], a[:-1])
    h = np.arange(6, dtype=np.float32)
    assert_same(a, np.concatenate([h[:-1] + h[1:], h[-1:]]))
    # a body that only assigns keeps the fast contiguous class and its values
    double = cp.ElementwiseKernel("T x", "T y", "y = x * 2", "reads_nothing")
    assert not double._reads_outputs
    assert_same(double(cp.asarray(x)), x * 2)


def test_raw_kernel_launches_at_least_one_block_and_thread_as_cupy():
    # CuPy clamps each grid and block dimension to at least 1: a grid computed for n = 0 launches one block,
    # which the kernel's bounds check leaves idle, and a block of 0 threads launches one thread.
    k = cp.RawKernel(SAXPY, "saxpy")
    out = cp.full(4, 7.0, np.float32)
    x = cp.ones(4, np.float32)
    k((0,), (128,), (np.float32(2.0), x, x, out, np.int32(0)))
    k((0, 0), (-3,), (np.float32(2.0), x, x, out, np.int32(0)))
    assert_same(out, np.full(4, 7.0, np.float32))
    k((1,), (0,), (np.float32(2.0), x, x, out, np.int32(4)))  # one thread: element 0 only
    assert_same(out, np.array([3.0, 7.0, 7.0, 7.0], np.float32))
    with pytest.raises(TypeError):
        k((1.5,), (1,), (np.float32(2.0), x, x, out, np.int32(0)))
    with pytest.raises(ValueError, match="32 bits"):
        k((2**40,), (1,), (np.float32(2.0), x, x, out, np.int32(0)))
