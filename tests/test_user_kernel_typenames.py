"""The C++ names of dtypes in user kernels (cuarray.cuda.compiler.get_typename, CuPy's
cupy._core._scalar.get_typename) and <cupy/float16.cuh> (Note [User kernel headers] in
cpp/cuarray/jit/kernel_cache.cpp).

Without a device: get_typename's names, headers and errors; NVRTC compiles, through the options RawModule
gives user kernels, CuPy's test_mdspan.py kernels for every dtype and index type by name expressions built from
get_typename, and a kernel using all of float16's interface. With a device: float16 kernels compute as NumPy's
float16 (and cuarray's ufuncs) to the bit, and the mdspan kernels of every dtype add one as NumPy does."""

import cuarray as cp
import numpy as np
import pytest
from cuarray import _core, _kernel, testing
from cuarray.cuda import compiler
from test_raw_module_cupy import ARCH, nvrtc  # RawModule's compile, without a device

ALL_TYPE_CHARS = "?bhilqBHILQefdFD"  # CuPy's test_mdspan.py: every dtype its kernels are instantiated for

CUPY_NAMES = {
    "?": "bool",
    "b": "signed char",
    "h": "short",
    "i": "int",
    "l": "long long",
    "q": "long long",
    "B": "unsigned char",
    "H": "unsigned short",
    "I": "unsigned int",
    "L": "unsigned long long",
    "Q": "unsigned long long",
    "e": "float16",
    "f": "float",
    "d": "double",
    "F": "thrust::complex<float>",
    "D": "thrust::complex<double>",
}


# ---- no GPU needed ------------------------------------------------------------------------------


@pytest.mark.parametrize("char", ALL_TYPE_CHARS)
def test_typenames_are_cupys(char):
    # A type character, a dtype, a scalar type: the same name, CuPy's.
    for spelling in (char, np.dtype(char), np.dtype(char).type):
        assert compiler.get_typename(spelling) == CUPY_NAMES[char]


def test_python_types_and_names():
    assert compiler.get_typename(int) == "long long"
    assert compiler.get_typename(float) == "double"
    assert compiler.get_typename(bool) == "bool"
    assert compiler.get_typename(complex) == "thrust::complex<double>"
    assert compiler.get_typename("float32") == "float"
    assert compiler.get_typename("cudaTextureObject_t") == "cudaTextureObject_t"


def test_type_decls_gets_the_headers_names_need():
    decls = set()
    for char in ALL_TYPE_CHARS:
        compiler.get_typename(char, decls)
    assert decls == {'#include "cupy/float16.cuh"'}
    decls = set()
    compiler.get_typename(np.float32, type_decls=decls)
    assert decls == set()


@pytest.mark.parametrize(
    "dtype", ["M8[s]", "m8[ns]", "V8", [("a", "<i4"), ("b", "<f8")], object, "U3", "S2", np.longdouble]
)
def test_dtypes_no_kernel_computes_on_are_value_errors(dtype):
    with pytest.raises(ValueError, match="Unsupported dtype"):
        compiler.get_typename(dtype)


def test_bad_arguments():
    with pytest.raises(TypeError, match="dtype is None"):
        compiler.get_typename(None)
    with pytest.raises(TypeError):  # numpy.dtype's own error, as CuPy's
        compiler.get_typename("no_such_type")


def mdspan_kernel(name, ndim, layout):
    """CuPy's test_mdspan.py kernel: out = in + T(1) over an mdspan of `ndim` dynamic extents."""
    index = ["i", "j", "k"][:ndim]
    loops = "".join(
        f"for (IndexType {v} = blockIdx.{d} * (IndexType)blockDim.{d} + threadIdx.{d}; {v} < arr_in.extent({n}); "
        f"{v} += gridDim.{d} * blockDim.{d})\n"
        for n, (v, d) in enumerate(zip(index, "xyz"))
    )
    at = ", ".join(index)
    body = f"{loops}arr_out({at}) = arr_in({at}) + T(1);" if ndim else "arr_out() = arr_in() + T(1);"
    extents = ",".join(["IndexType"] + ["cuda::std::dynamic_extent"] * ndim)
    span = f"cuda::std::mdspan<T, cuda::std::extents<{extents}>, cuda::std::{layout}>"
    return f"""
#include <cuda/std/mdspan>
#include <cupy/float16.cuh>
#include <cupy/complex.cuh>

template<typename T, typename IndexType>
__global__ void {name}({span} arr_in, {span} arr_out) {{
{body}
}}
"""


def mdspan_names(name):
    return [
        f"{name}<{compiler.get_typename(np.dtype(c).type)}, {compiler.get_typename(i)}>"
        for c in ALL_TYPE_CHARS
        for i in (np.int32, np.int64)
    ]


# Every layout and every rank once (each case instantiates the kernel for all 28 dtype and index type names).
@pytest.mark.parametrize(
    "ndim, layout", [(0, "layout_stride"), (1, "layout_right"), (2, "layout_left"), (3, "layout_stride")]
)
def test_mdspan_kernels_of_every_dtype_compile(layout, ndim):
    name = f"verify_mdspan_{layout}_{ndim}d"
    names = mdspan_names(name)
    _, is_cubin, lowered, _ = nvrtc(mdspan_kernel(name, ndim, layout), ["--std=c++17"], names)
    # l and q (L and Q) are one type, of one name: 14 types by 2 index types.
    assert is_cubin and len(lowered) == len(names) and len(set(lowered)) == len(set(names)) == 28


def test_mdspan_size_static_asserts_hold_for_every_dtype():
    source = mdspan_kernel("check", 2, "layout_stride").replace(
        "{\n",
        "{\n  using mdspan_t = decltype(arr_in);\n"
        '  static_assert(sizeof(mdspan_t) == sizeof(void*) + 4 * sizeof(IndexType), "size");\n'
        '  static_assert(mdspan_t::rank_dynamic() == mdspan_t::rank(), "rank");\n',
        1,
    )
    assert "static_assert" in source
    nvrtc(source, ["--std=c++17"], mdspan_names("check"))
    with pytest.raises(cp.cuda.compiler.CompileException, match="size"):
        nvrtc(source.replace("4 * sizeof", "5 * sizeof"), ["--std=c++17"], mdspan_names("check"))


FLOAT16_API = r"""
#include <cupy/float16.cuh>

__device__ float16 api(float16 a, float16 b, int i) {
  float16 c(true), d(2.0), e(i), f(3u), g(4ll), h(5ull), k(6l), m(7ul);
  a += b; a -= 1.5; a *= 2; a /= c;
  float16 r = nextafter(a, b) + copysign(a, b) + min(a, b) + max(a, b) + fmin(a, b) + fmax(a, b);
  r = r + d + e + f + g + h + k + m;
  int flags = a.iszero() + a.isnan() + a.isinf() + a.isfinite() + a.signbit() + iszero(a) + isnan(a) + isinf(a)
              + isfinite(a) + signbit(a) + (a < b) + (a == b) + (-a > b);
  r = flags;
  r = float16::from_bits(r.to_bits() | float16::nan);
  return r;
}
"""

FLOAT16_HALF = r"""
extern "C" __global__ void interop(float16* x, const __half* h) {
  float16 a(h[0]), b(__half_raw{0x3c00});
  x[0] = __hadd(h[0], h[1]);
  x[1] = a + b;
}
"""


def test_float16_interface_compiles():
    _, is_cubin, _, _ = nvrtc(
        FLOAT16_API + 'extern "C" __global__ void f(float16* x) { x[0] = api(x[1], x[2], 3); }'
    )
    assert is_cubin


def test_float16_brings_cuda_fp16_along():
    if not _kernel._include_options():
        pytest.skip("no CUDA toolkit headers here")
    nvrtc(FLOAT16_API + FLOAT16_HALF)


def test_float16_needs_no_toolkit_headers():
    # Without the toolkit's include directories (none found), float16 is there, without __half.
    source = FLOAT16_API + 'extern "C" __global__ void f(float16* x) { x[0] = api(x[1], x[2], 3); }'
    _, is_cubin, _, _ = _core.jit.compile(source, "module", [], ARCH, _core.jit.headers(), [], details=True)
    assert is_cubin


def test_elementwise_kernels_may_include_float16():
    # An ElementwiseKernel's preamble may include it too; its float16 variables are computed in float.
    k = cp.ElementwiseKernel(
        "T x, T y",
        "T z",
        "float16 h = float16(x) + float16(y); z = h.isnan() ? x : float(nextafter(h, float16(y)))",
        "user_float16",
        preamble="#include <cupy/float16.cuh>",
    )
    t = np.dtype(np.float16)
    handle = k._definition((t, t), (t,), {"T": t})
    source, name = _core._elementwise_source(handle, [t, t], [t], True, 0)
    for options in (["-minimal"], []):  # every library compile tries -minimal first
        assert _core.jit.compile(source, name, options, ARCH, _core.jit.headers())[:4] == b"\x7fELF"


# ---- GPU ----------------------------------------------------------------------------------------

FLOAT16_OPS = r"""
#include <cupy/float16.cuh>
extern "C" __global__ void ops(const float16* a, const float16* b, float16* out, int* flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float16 x = a[i], y = b[i];
  out[10 * i] = x + y;
  out[10 * i + 1] = x - y;
  out[10 * i + 2] = x * y;
  out[10 * i + 3] = x / y;
  out[10 * i + 4] = nextafter(x, y);
  out[10 * i + 5] = copysign(x, y);
  out[10 * i + 6] = fmin(x, y);
  out[10 * i + 7] = fmax(x, y);
  float16 z = x;
  z += y;
  z *= 0.5;
  out[10 * i + 8] = z;
  out[10 * i + 9] = float16(double(x) * 3.0);
  flags[4 * i] = isnan(x);
  flags[4 * i + 1] = isinf(x);
  flags[4 * i + 2] = signbit(x);
  flags[4 * i + 3] = (x < y) + 2 * (x == y);
}
"""


def _float16_operands():
    special = np.array(
        [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 65504, -65504, 6e-8, -6e-8, 1e-5], np.float16
    )
    rng = np.random.default_rng(0)
    a = np.concatenate(
        [np.repeat(special, special.size), (rng.standard_normal(200) * 100).astype(np.float16)]
    )
    b = np.concatenate([np.tile(special, special.size), (rng.standard_normal(200) * 100).astype(np.float16)])
    return a, b


@pytest.mark.gpu
def test_float16_kernels_compute_as_numpy():
    a, b = _float16_operands()
    n = a.size
    out = cp.empty(10 * n, np.float16)
    flags = cp.empty(4 * n, np.int32)
    kernel = cp.RawModule(code=FLOAT16_OPS).get_function("ops")
    kernel(((n + 127) // 128,), (128,), (cp.asarray(a), cp.asarray(b), out, flags, np.int32(n)))
    got = out.get().reshape(n, 10)
    with np.errstate(all="ignore"):
        expected = [
            a + b,
            a - b,
            a * b,
            a / b,
            np.where(a == b, b, np.nextafter(a, b)),  # equal: y, as NumPy 2.5 (2.4's float16 loop gives x)
            np.copysign(a, b),
            np.fmin(a, b),
            np.fmax(a, b),
            ((a + b) * np.float16(0.5)),
            (a.astype(np.float64) * 3.0).astype(np.float16),
        ]
    for column, want in enumerate(expected):
        _assert_same_float16(got[:, column], want, str(column))
    f = flags.get().reshape(n, 4)
    np.testing.assert_array_equal(f[:, 0], np.isnan(a))
    np.testing.assert_array_equal(f[:, 1], np.isinf(a))
    np.testing.assert_array_equal(f[:, 2], np.signbit(a))
    np.testing.assert_array_equal(f[:, 3], (a < b) + 2 * (a == b))
    # The ufuncs agree with the kernel (one mechanism for float16's conversions).
    ca, cb = cp.asarray(a), cp.asarray(b)
    _assert_same_float16(got[:, 0], (ca + cb).get(), "ufunc add")
    _assert_same_float16(got[:, 4], cp.nextafter(ca, cb).get(), "ufunc nextafter")
    _assert_same_float16(got[:, 6], cp.fmin(ca, cb).get(), "ufunc fmin")


def _assert_same_float16(got, want, what):
    """Equal to the bit (signed zeros too), NaN where `want` is NaN: a NaN's payload is the GPU's."""
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan, err_msg=what)
    np.testing.assert_array_equal(got.view(np.uint16)[~nan], want.view(np.uint16)[~nan], err_msg=what)


@pytest.mark.gpu
@pytest.mark.parametrize("index_type", [np.int32, np.int64])
@testing.for_all_dtypes()
def test_mdspan_kernels_add_one_as_numpy(dtype, index_type):
    name = "verify_mdspan_layout_stride_2d"
    module = _mdspan_module(name)
    values = np.arange(64).reshape(4, 16)
    if dtype == np.bool_:
        values = values % 2
    elif np.dtype(dtype).kind in "fc":
        values = values * 0.37 - 5  # sums that round in float16
    host = (values % 50).astype(dtype) if np.dtype(dtype).kind in "iu" else values.astype(dtype)
    a = cp.asarray(host)[::2, ::3]
    out = cp.zeros_like(a)
    kernel = module.get_function(
        f"{name}<{compiler.get_typename(dtype)}, {compiler.get_typename(index_type)}>"
    )
    kernel((1,), (4, 16), (a.mdspan(index_type=index_type), out.mdspan(index_type=index_type)))
    host = host[::2, ::3]
    expected = host + np.ones_like(host)
    np.testing.assert_array_equal(out.get(), expected)


_MODULES = {}


def _mdspan_module(name):
    if name not in _MODULES:
        _MODULES[name] = cp.RawModule(
            code=mdspan_kernel(name, 2, "layout_stride"),
            options=("--std=c++17",),
            name_expressions=mdspan_names(name),
        )
    return _MODULES[name]
