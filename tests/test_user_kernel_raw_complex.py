"""Raw complex arguments of ElementwiseKernel hand out Thrust's complex<T> lvalues, as CuPy's CArray<complex<T>> does
(Note [Raw complex elements] in cpp/cuarray/kernels/user_complex.cuh): `x[i].real()`, `conj(x[i])`, `x[i] * 2.0`,
`y[i] += w`, `y[i] = complex<double>(...)`, `&y[i]`, helpers taking a reference, raw inputs and outputs alike. These
bodies did not compile: the elements were the kernels' ca::complex. The sources compile without a GPU; the values,
on contiguous, reversed and strided views, are checked against NumPy on one, and a view whose elements are not
aligned to their size (another library's memory) is refused before the launch."""

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same, dtype_id
from cuarray import _core
from test_kernel_sources import _compile_together

COMPLEX = [np.complex64, np.complex128]

# Bodies of ElementwiseKernel("raw T x, T w", "raw T y"), with NumPy's (y, x) after them from the x, w and y before.
BODIES = [
    ("y[i] = x[i] * 2.0 + x[_ind.size() - 1 - i].real()", lambda x, w, y: (x * 2 + x[::-1].real, x)),
    ("y[i] = conj(x[i]) * w - x[i] / 4 + T(2) * x[i]", lambda x, w, y: (np.conj(x) * w - x / 4 + 2 * x, x)),
    ("y[i] = x[i]; y[i] += w; y[i] *= 2.0; y[i] -= 1; y[i] /= 2", lambda x, w, y: (((x + w) * 2 - 1) / 2, x)),
    ("y[i] += x[i]; y[i] = y[i] * y[i] - 1.5", lambda x, w, y: ((y + x) * (y + x) - 1.5, x)),
    ("y[i].real(x[i].imag()); y[i].imag(-real(x[i]))", lambda x, w, y: (_parts(x.imag, -x.real), x)),
    (
        "y[i] = x[i] == w || x[i] != conj(x[i]) || x[i] == 0.5 ? x[i] : T(0.25, 1)",
        lambda x, w, y: (np.where((x == w) | (x.imag != 0) | (x == 0.5), x, 0.25 + 1j), x),
    ),
    # A raw input the body writes, through the element and through a copy of it.
    ("T t = x[i]; x[i] = w; y[i] = t", lambda x, w, y: (x, w)),
    ("x[i] *= w; y[i] = x[i] - complex<float>(1, 2)", lambda x, w, y: (x * w - (1 + 2j), x * w)),
    # A named copy is a value, as Thrust's: assigning to it leaves the array as it was.
    ("auto v = x[i]; v *= 2.0; v += 1; y[i] = v + x[i]", lambda x, w, y: (x * 2 + 1 + x, x)),
    ("(y[i] = x[i]) += w; x[i].imag(0)", lambda x, w, y: (x + w, x.real.astype(x.dtype))),
    # The element's address, as CuPy's per-part atomicAdd idiom takes it, and a conditional with a real operand.
    (
        (
            "y[i] = x[i].real() > 0 ? x[i] : 0.0; T::value_type* p = reinterpret_cast<T::value_type*>(&y[i]); "
            "atomicAdd(p, w.real()); atomicAdd(p + 1, (T::value_type)1)"
        ),
        lambda x, w, y: (np.where(x.real > 0, x, 0) + w.real + 1j, x),
    ),
    # Thrust's functions, to within their ulps.
    ("y[i] = abs(x[i]) + exp(x[i] / 8) * sqrt(w) - norm(x[i]) + arg(x[i])", None),
]
EXACT = [(b, w) for b, w in BODIES if w is not None]


def _parts(re, im):
    z = np.empty(re.shape, np.result_type(re.dtype, np.complex64))
    z.real, z.imag = re, im
    return z


def _sources(body, dtype, raw_ndim=1):
    k = cp.ElementwiseKernel("raw T x, T w", "raw T y", body, "raw_complex_body")
    t = np.dtype(dtype)
    handle = k._definition((t, t), (t,), {"T": t})
    # The engine's inputs: x, w (iterated, or a scalar), then the raw output y.
    return [
        _core._elementwise_source(
            handle, [t] * 3, [], False, 1, kinds=kinds, raw_ndim=[raw_ndim, 1, raw_ndim]
        )
        for kinds in ([2, 0, 2], [2, 1, 2])
    ]


@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
@pytest.mark.parametrize("body", [b for b, _ in BODIES])
def test_raw_complex_bodies_compile_in_ci(body, dtype):
    assert _compile_together(_sources(body, dtype))[:4] == b"\x7fELF"


# Bodies over raw arrays of 0 and 2 dimensions: one index per axis (an array, a braced list), whatever the index.
INDEXED = {
    0: "y[i] = x[i] + x[0] * w; y[0] -= x[5]; y[1].real(x[0].imag())",
    2: "const ptrdiff_t c = x.shape()[1]; ptrdiff_t idx[2] = {i / c, i % c}; "
    "y[idx] = x[{i / c, i % c}] * 2.0; y[idx] += conj(x[idx]); if (i == c - 1) y[{(ptrdiff_t)0, c - 1}].imag(x.strides()[0])",
}


@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
@pytest.mark.parametrize("ndim", [0, 2])
def test_raw_complex_elements_by_index_compile_in_ci(ndim, dtype):
    assert _compile_together(_sources(INDEXED[ndim], dtype, ndim))[:4] == b"\x7fELF"


@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
def test_raw_complex_arrays_are_cupys_carray_of_complex(dtype):
    # A preamble's device functions take CuPy's CArray<complex<T>, N> (T: the placeholder, complex<T> in the body)
    # and read and write its elements as Thrust's.
    preamble = (
        "template <class C> __device__ C first(const CArray<C, 1>& a) { return a[0]; }\n"
        "template <class C> __device__ void twice(CArray<C, 1> a, ptrdiff_t i) { a[i] *= 2; a[i].real(1); }"
    )
    k = cp.ElementwiseKernel(
        "raw T x", "raw T y", "y[i] = first(x) + x[i]; twice(y, i)", "carray", preamble=preamble
    )
    t = np.dtype(dtype)
    handle = k._definition((t,), (t,), {"T": t})
    src, name = _core._elementwise_source(handle, [t, t], [], False, 1, kinds=[2, 2])
    assert _compile_together([(src, name)])[:4] == b"\x7fELF"


def _mixed_precision():
    return cp.ElementwiseKernel(
        "raw complex64 a, raw complex128 b",
        "raw complex64 c",
        "c[i] = a[i] * 0.1; c[i] += b[i]; complex<float> f = b[i]; "
        "if (a[i] == b[i] || b[i] != f) c[i] = a[i] * b[i] + b[i] / a[i]",
        "raw_complex_mixed",
    )


def test_raw_complex_precisions_mix_as_thrusts_in_ci():
    c64, c128 = np.dtype(np.complex64), np.dtype(np.complex128)
    handle = _mixed_precision()._definition((c64, c128), (c64,), {})
    src, name = _core._elementwise_source(handle, [c64, c128, c64], [], False, 1, kinds=[2, 2, 2])
    assert _compile_together([(src, name)])[:4] == b"\x7fELF"


@pytest.mark.parametrize("dtype", ["float64", "int32", "complex64"], ids=dtype_id)
def test_only_complex_raw_arguments_are_wrapped(dtype):
    # Other raw arrays are the engine's ca::Raw as they were: their code and its speed do not change.
    k = cp.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i]", "raw_copy")
    t = np.dtype(dtype)
    src, _ = _core._elementwise_source(
        k._definition((t,), (t,), {"T": t}), [t, t], [], False, 1, kinds=[2, 2]
    )
    wrapped = t.kind == "c"
    assert ("const auto x = ca_user_raw::view(in0);" in src) == wrapped
    assert ("const auto y = ca_user_raw::view(in1);" in src) == wrapped
    assert ("const auto x = in0;" in src) != wrapped


# Views of the float arrays `base` (4n + 2 parts) as n complex numbers, with negative strides and steps; and at an
# offset of one part (aligned only to it, not to the complex type's size: another library's memory alone can be).
VIEWS = {
    "contiguous": lambda base, c, n: base[: 2 * n].view(c),
    "reversed": lambda base, c, n: base[: 2 * n].view(c)[::-1],
    "every_other_reversed": lambda base, c, n: base[: 4 * n].view(c)[::-2],
}
MISALIGNED = {
    "offset": lambda base, c, n: base[1 : 2 * n + 1].view(c),
    "offset_reversed": lambda base, c, n: base[1 : 2 * n + 1].view(c)[::-1],
    "offset_every_other_reversed": lambda base, c, n: base[1 : 4 * n + 1].view(c)[::-2],
}


class _Foreign:
    """Another library's array (__cuda_array_interface__) over the memory of `base`, a cuarray array: `hview` of
    `hbase`, NumPy's, where it lies. cuarray's own views of a dtype keep to its itemsize's alignment, but another
    library's array need only keep to its parts'."""

    def __init__(self, base, hbase, hview):
        offset = hview.__array_interface__["data"][0] - hbase.__array_interface__["data"][0]
        self.base = base
        self.__cuda_array_interface__ = {
            "shape": hview.shape,
            "typestr": hview.dtype.str,
            "data": (base.data.ptr + offset, False),
            "strides": hview.strides,
            "version": 3,
        }


def _on_device(view, base, hbase, dtype, n):
    """view(base): cuarray's own view where the offset is a multiple of the itemsize, else another library's."""
    hview = view(hbase, dtype, n)
    offset = hview.__array_interface__["data"][0] - hbase.__array_interface__["data"][0]
    if offset % hview.itemsize == 0:
        return view(base, dtype, n)
    x = cp.asarray(_Foreign(base, hbase, hview))
    assert x.data.ptr % hview.itemsize != 0  # the offset view itself, in place
    return x


def _parts_data(n, dtype, seed):
    # Multiples of 1/8: sums, differences and products of a few are exact in either precision.
    part = np.finfo(dtype).dtype
    return (np.random.default_rng(seed).integers(-40, 40, 4 * n + 2) / 8).astype(part)


def _complex_data(n, dtype, seed):
    rng = np.random.default_rng(seed)
    return ((rng.integers(-40, 40, n) + 1j * rng.integers(-40, 40, n)) / 8).astype(dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
@pytest.mark.parametrize("view", VIEWS.values(), ids=VIEWS.keys())
@pytest.mark.parametrize("body,want", EXACT)
def test_raw_complex_elements_match_numpy(body, want, view, dtype):
    n = 37
    hx_base, hy_base, w = _parts_data(n, dtype, 0), _parts_data(n, dtype, 1), _complex_data(n, dtype, 2)
    hx_base[1] = hx_base[3] = 0  # two elements of every view with a real or an imaginary part of 0
    x_base, y_base = cp.asarray(hx_base), cp.asarray(hy_base)
    x, y = _on_device(view, x_base, hx_base, dtype, n), _on_device(view, y_base, hy_base, dtype, n)
    hx, hy = view(hx_base, dtype, n), view(hy_base, dtype, n)
    assert (x.strides, y.dtype) == (hx.strides, hy.dtype)
    k = cp.ElementwiseKernel("raw T x, T w", "raw T y", body, "raw_complex_body")
    assert k(x, cp.asarray(w), y) is y
    want_y, want_x = want(hx.copy(), w, hy.copy())
    hy[...], hx[...] = want_y, want_x  # through the views into the bases, as the kernel wrote
    assert_same(y_base, hy_base)
    assert_same(x_base, hx_base)  # parts outside the views untouched


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
@pytest.mark.parametrize("view", VIEWS.values(), ids=VIEWS.keys())
def test_raw_complex_functions_match_numpy(view, dtype):
    n = 37
    hx_base, w = _parts_data(n, dtype, 3), _complex_data(n, dtype, 4)
    x = _on_device(view, cp.asarray(hx_base), hx_base, dtype, n)
    hx = view(hx_base, dtype, n)
    y = cp.zeros(n, dtype)
    body = next(b for b, want in BODIES if want is None)
    cp.ElementwiseKernel("raw T x, T w", "raw T y", body, "raw_complex_functions")(x, cp.asarray(w), y)
    want = np.abs(hx) + np.exp(hx / 8) * np.sqrt(w) - np.abs(hx) ** 2 + np.angle(hx)
    single = np.dtype(dtype) == np.complex64
    np.testing.assert_allclose(y.get(), want, rtol=1e-5 if single else 1e-12, atol=1e-4 if single else 1e-12)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
def test_raw_complex_elements_by_index_match_numpy(dtype):
    # A transposed raw input and a reversed, strided raw output, read and written one index per axis.
    h = _complex_data(24, dtype, 5).reshape(6, 4)
    out = _complex_data(48, dtype, 6).reshape(4, 12)
    x, base = cp.asarray(h).T, cp.asarray(out)
    y = base[::-1, 1::2]
    k = cp.ElementwiseKernel("raw T x", "raw T y", INDEXED[2], "raw_complex_by_index")
    k(x, y, size=x.size)
    hy = out[::-1, 1::2]
    hy[...] = h.T * 2 + np.conj(h.T)
    hy[0, -1] = hy[0, -1].real + 1j * x.strides[0]
    assert_same(base, out)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
@pytest.mark.parametrize("view", MISALIGNED.values(), ids=MISALIGNED.keys())
@pytest.mark.parametrize("role", ["input", "output"])
def test_raw_complex_arrays_not_aligned_to_their_size_are_refused(role, view, dtype):
    # Thrust's complex<T> is aligned to its size: a kernel would fault on such an element (CuPy's does), and the
    # context with it. The call refuses it before the launch, and the process goes on.
    n = 37
    hbase = _parts_data(n, dtype, 9)
    base = cp.asarray(hbase)
    odd = _on_device(view, base, hbase, dtype, n)
    fine = cp.zeros(n, dtype)
    x, y = (odd, fine) if role == "input" else (fine, odd)
    k = cp.ElementwiseKernel("raw T x, T w", "raw T y", "y[i] = x[i] + w", "raw_complex_misaligned")
    with pytest.raises(ValueError, match="not aligned to their size"):
        k(x, cp.asarray(_complex_data(n, dtype, 2)), y)
    assert_same(base, hbase)  # nothing written
    np.testing.assert_array_equal(fine.get(), np.zeros(n, dtype))
    k(odd.copy(), odd.copy(), fine)  # an aligned copy is taken
    np.testing.assert_array_equal(fine.get(), view(hbase, dtype, n) * 2)


def _by_reference():
    preamble = (
        "template <class C> __device__ void twice(C&& z) { z *= 2.0; }\n"
        "template <class C> __device__ void add_one(C& z) { z += 1; }\n"
        "template <class C> __device__ void lost(C z) { z = C(-7, -7); }"
    )
    return cp.ElementwiseKernel(
        "raw T x", "raw T y", "twice(y[i]); add_one(x[i]); lost(y[i]); lost(x[i])", "refs", preamble=preamble
    )


@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
def test_raw_complex_elements_passed_by_reference_compile_in_ci(dtype):
    t = np.dtype(dtype)
    src, name = _core._elementwise_source(
        _by_reference()._definition((t,), (t,), {"T": t}), [t, t], [], False, 1, kinds=[2, 2]
    )
    assert _compile_together([(src, name)])[:4] == b"\x7fELF"


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
def test_raw_complex_elements_passed_by_reference_are_stored(dtype):
    # A helper taking the element by reference or by forwarding reference writes the array, as with CuPy's
    # thrust::complex<T>& elements; a helper taking a copy does not.
    k = _by_reference()
    hx, hy = _complex_data(40, dtype, 11), _complex_data(40, dtype, 12)
    x, y = cp.asarray(hx), cp.asarray(hy)
    k(x, y, size=40)
    assert_same(y, hy * 2)
    assert_same(x, hx + 1)


def test_digest_of_complex_arrays_compiles_in_ci():
    # cuarray.dask's digest reads a raw T array through x.ptr, T the array's dtype: complex ones too.
    from cuarray import _dask_hooks

    k = cp.ElementwiseKernel(
        "raw T x, U w, uint64 n",
        "raw uint64 h",
        _dask_hooks._DIGEST,
        "cuarray_digest",
        preamble=_dask_hooks._MIX,
    )
    u32, u64 = np.dtype(np.uint32), np.dtype(np.uint64)
    for t in map(np.dtype, COMPLEX):
        handle = k._definition((t, u32, u64), (u64,), {"T": t, "U": u32})
        src, name = _core._elementwise_source(handle, [t, u32, u64, u64], [], False, 1, kinds=[2, 1, 1, 2])
        assert _compile_together([(src, name)])[:4] == b"\x7fELF"


@pytest.mark.gpu
def test_raw_complex_precisions_mix_as_thrusts():
    # complex<float> * 0.1 is computed in double and rounded once, and a complex<double> assigned to a complex64
    # element is rounded to it, as Thrust's complex<float> element in CuPy.
    a = (_complex_data(64, np.complex128, 7) + 0.1j).astype(np.complex64)
    b = _complex_data(64, np.complex128, 8)
    b[::2] += 1e-9  # not a float: the body's branch, in double, for these
    c = cp.zeros(64, np.complex64)
    _mixed_precision()(cp.asarray(a), cp.asarray(b), c, size=64)
    want = (a.astype(np.complex128) * 0.1).astype(np.complex64) + b.astype(np.complex64)
    assert_same(c[1::2], want[1::2])
    a128 = a.astype(np.complex128)
    np.testing.assert_allclose(c[::2].get(), (a128 * b + b / a128)[::2].astype(np.complex64), rtol=1e-6)
