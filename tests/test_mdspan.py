"""ndarray.mdspan (CuPy 14): an array as a ``cuda::std::mdspan`` RawKernel argument (Note [mdspan arguments] in
cpp/cuarray/jit/mdspan.h).

Without a device: the bytes an mdspan holds (through _core._mdspan_of, an mdspan of an address), CuPy's checks
and cuarray's further ones, how an mdspan fits a parameter of each layout's size (_core._pack_kernel_args), and
that libcu++'s mdspan has the sizes and mapping layout those bytes assume (NVRTC, with the include paths user
kernels get). With a device: kernels copy views of every kind through an mdspan of each layout and index type,
and the results are NumPy's copies of the same views."""

import functools
import json
import pathlib
import struct

import cuarray as cp
import numpy as np
import pytest
from conftest import describe, run_python
from cuarray import _core, _kernel, testing

ADDRESS = 0x7F0000001000
INDEX_TYPES = [np.int32, np.int64]
LAYOUTS = ["layout_stride", "layout_right", "layout_left"]


def _expected_bytes(view, index_type, address=ADDRESS):
    code = "i" if index_type is np.int32 else "q"
    steps = [s // view.itemsize for s in view.strides]
    return struct.pack(f"<Q{2 * view.ndim}{code}", address, *view.shape, *steps)


def _mdspan_of(view, index_type, allow_unsafe=False):
    """The mdspan of a NumPy view's layout, at ADDRESS: what ndarray.mdspan builds for a device array of it."""
    return _core._mdspan_of(ADDRESS, view.itemsize, view.shape, view.strides, index_type, allow_unsafe)


def _views(xp, dtype):
    """name -> (view, whether it needs allow_unsafe): every kind of layout, built alike on both sides."""
    base = np.arange(8 * 10 * 12) % 97
    base = (base % 2 if dtype == np.bool_ else base).astype(dtype)
    a = xp.asarray(base)
    a3 = a.reshape(8, 10, 12)
    a2 = a[:200].reshape(10, 20)
    return {
        "0d": (xp.asarray(base[7]), False),
        "0d_from_slice": (a[2], False),
        "1d": (a[:100], False),
        "1d_step3": (a[:100:3], False),
        "1d_size1": (a[5:6], False),
        "1d_reversed": (a[:100][::-1], True),
        "1d_broadcast": (xp.broadcast_to(a[3:4], (10,)), True),
        "2d_c": (a2, False),
        "2d_f": (xp.asfortranarray(a2), False),
        "2d_transposed": (a2.T, False),
        "2d_sliced": (a2[::2, ::3], False),
        "2d_reversed_axis0": (a2[::-1, :], True),
        "2d_reversed_both": (a2[::-3, ::-2], True),
        "2d_broadcast_axis0": (xp.broadcast_to(a2[:1], (3, 20)), True),
        "2d_broadcast_axis1": (xp.broadcast_to(a2[:, :1], (10, 6)), True),
        "2d_broadcast_both": (xp.broadcast_to(a2[:1, :1], (3, 4)), True),
        "2d_size1_axes": (a2[2:3, 4:5], False),
        "2d_zero_size": (a2[:0], True),
        "3d_c": (a3, False),
        "3d_f": (xp.asfortranarray(a3), False),
        "3d_sliced": (a3[::2, ::2, ::3], False),
        "3d_mixed": (a3[::-2, 1:, ::-3].transpose(2, 0, 1), True),
    }


VIEW_NAMES = list(_views(np, np.int8))


# ---- the bytes (no device) -----------------------------------------------------------------------------------


@pytest.mark.parametrize("index_type", INDEX_TYPES, ids=["int32", "int64"])
@pytest.mark.parametrize("name", VIEW_NAMES)
@pytest.mark.parametrize(
    "dtype", [np.int8, np.float16, np.float32, np.complex128], ids=lambda t: np.dtype(t).name
)
def test_bytes_are_pointer_extents_and_element_strides(name, index_type, dtype):
    view, unsafe = _views(np, dtype)[name]
    m = _mdspan_of(view, index_type, allow_unsafe=unsafe)
    assert _core._mdspan_bytes(m) == _expected_bytes(view, index_type)
    assert (m.ndim, m.index_size) == (view.ndim, np.dtype(index_type).itemsize)


@pytest.mark.parametrize("index_type", INDEX_TYPES, ids=["int32", "int64"])
@pytest.mark.parametrize("ndim", [0, 1, 2, 3, 5])
def test_parameter_sizes(index_type, ndim):
    view = np.empty((2,) * ndim)
    m = _mdspan_of(view, index_type)
    size = np.dtype(index_type).itemsize
    full = 8 + 2 * ndim * size
    prefix = -(-(8 + ndim * size) // 8) * 8  # the pointer and the extents, padded to the pointer's alignment
    whole = _expected_bytes(view, index_type)
    assert _core._pack_kernel_args("k", [full], [m]) == [whole]
    assert _core._pack_kernel_args("k", [prefix], [m]) == [whole[:prefix]]
    for wrong in {4, 16, 24, 32, 40, 64} - {full, prefix}:
        with pytest.raises(
            TypeError, match=rf"cuarray mdspan \(for a {ndim}-d mdspan parameter with int{8 * size} "
        ):
            _core._pack_kernel_args("k", [wrong], [m])


@pytest.mark.parametrize(
    "view", [np.empty((4, 6)), np.empty((4, 6), order="F"), np.empty((1, 6)), np.empty((4, 6))[1:3]]
)
def test_contiguous_arrays_fit_layout_right_and_left(view):
    m = _mdspan_of(view, np.int64)
    assert _core._pack_kernel_args("k", [24], [m]) == [_expected_bytes(view, np.int64)[:24]]


@pytest.mark.parametrize(
    "view, unsafe",
    [
        (np.empty((4, 6))[:, ::2], False),
        (np.empty((4, 6)).T[::2], False),
        (np.empty((4, 6))[::-1], True),
        (np.broadcast_to(np.empty(6), (4, 6)), True),
    ],
)
def test_layout_right_or_left_refuses_other_layouts(view, unsafe):
    m = _mdspan_of(view, np.int64, allow_unsafe=unsafe)
    with pytest.raises(
        TypeError, match=r"argument 1: the parameter is 24 bytes, a layout_right or layout_left"
    ):
        _core._pack_kernel_args("k", [8, 24], [np.int64(0), m])
    assert len(_core._pack_kernel_args("k", [40], [m])[0]) == 40  # layout_stride addresses it


# ---- the checks (no device) ----------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [np.int16, np.uint32, np.uint64, np.float64, int, "int32", None, 4])
def test_index_type_must_be_int32_or_int64(bad):
    with pytest.raises(
        ValueError, match=r"Unsupported index_type: .*\. Must be cuarray.int32 or cuarray.int64\."
    ):
        _mdspan_of(np.empty(3), bad)


def test_index_type_may_be_given_as_a_dtype():
    assert _mdspan_of(np.empty(3), np.dtype(np.int32)).index_size == 4


@pytest.mark.parametrize(
    "shape, message",
    [((0,), "0-th dimension has size zero"), ((0, 5), "0-th"), ((5, 0), "1-th"), ((0, 0, 5), "0-th")],
)
def test_size_zero_needs_allow_unsafe(shape, message):
    view = np.empty(shape, np.float32)
    for index_type in INDEX_TYPES:
        with pytest.raises(RuntimeError, match=message):
            _mdspan_of(view, index_type)
        assert _core._mdspan_bytes(_mdspan_of(view, index_type, True)) == _expected_bytes(view, index_type)


@pytest.mark.parametrize(
    "view, axis",
    [
        (np.broadcast_to(np.empty(1), (10,)), 0),
        (np.broadcast_to(np.empty((1, 3)), (5, 3)), 0),
        (np.empty(10)[::-1], 0),
        (np.empty((4, 5))[:, ::-1], 1),
        (np.empty((4, 5))[::-1, ::-1], 0),
    ],
)
def test_zero_and_negative_strides_need_allow_unsafe(view, axis):
    with pytest.raises(RuntimeError, match=f"^{axis}-th dimension has non-positive stride$"):
        _mdspan_of(view, np.int64)
    assert _core._mdspan_bytes(_mdspan_of(view, np.int64, True)) == _expected_bytes(view, np.int64)


def test_size_is_checked_before_extents_and_extents_before_strides():
    with pytest.raises(ValueError, match="exceeds int32 maximum"):
        _core._mdspan_of(ADDRESS, 1, (2**31, 1), (-1, 1), np.int32)
    with pytest.raises(RuntimeError, match="1-th dimension has size zero"):
        _core._mdspan_of(ADDRESS, 1, (3, 0), (-1, 1), np.int32)


def test_int32_size_limit():
    with pytest.raises(ValueError, match=r"Array size 2147483648 exceeds int32 maximum \(2147483647\)"):
        _core._mdspan_of(ADDRESS, 1, (2**31,), (1,), np.int32)
    assert _core._mdspan_of(ADDRESS, 1, (2**31,), (1,), np.int64).index_size == 8
    assert _core._mdspan_of(ADDRESS, 1, (2**31 - 1,), (1,), np.int32).index_size == 4


@pytest.mark.parametrize(
    "shape, strides, what",
    [
        ((2,), (2**31,), "Stride \\(in elements\\) of dimension 0 2147483648"),  # a[::2**31] of 2**32 bytes
        (
            (2, 3),
            (2**30 + 8, 2**30),
            "Largest element offset 3221225480",
        ),  # each stride fits, the last element's offset does not
        ((0, 2**31), (1, 1), "Extent of dimension 1 2147483648"),  # an empty array, allowed unsafe
    ],
)
def test_int32_indices_must_reach_every_element(shape, strides, what):
    # CuPy checks only the size, and truncates these to int32: the kernel reads other elements.
    with pytest.raises(ValueError, match=what + r" exceeds int32 maximum .*index_type=cuarray.int64"):
        _core._mdspan_of(ADDRESS, 1, shape, strides, np.int32, True)
    _core._mdspan_of(ADDRESS, 1, shape, strides, np.int64, True)


def test_strides_must_be_whole_elements():
    # A field of a packed structured array: 12-byte strides over 8-byte elements (CuPy floors them to 1).
    view = np.zeros(4, dtype=[("a", "f8"), ("b", "i4")])["a"]
    with pytest.raises(
        ValueError, match="dimension 0's stride of 12 bytes is not a multiple of the itemsize 8"
    ):
        _mdspan_of(view, np.int64)


# ---- libcu++'s mdspan, through the include paths user kernels get (NVRTC, no device) -------------------------


def _mdspan_type(t, index, ndim, layout):
    extents = ", ".join([index] + ["cuda::std::dynamic_extent"] * ndim)
    return f"cuda::std::mdspan<{t}, cuda::std::extents<{extents}>, cuda::std::{layout}>"


def _mapping_check(index_type, index, ndim):
    """C++ that asserts, at compile time, that layout_stride's mapping of an mdspan holds the extents and then
    the strides as _mdspan_of packs them after the pointer (bit_cast in a constant expression: the mapping
    holds no pointer)."""
    view = np.empty((3, 5, 7, 9)[:ndim], np.float32)[(slice(None, None, 2),) * ndim]  # distinct numbers
    packed = _core._mdspan_bytes(_mdspan_of(view, index_type))[8:]
    numbers = struct.unpack(f"<{2 * ndim}{'i' if index_type is np.int32 else 'q'}", packed)
    mapping = f"cuda::std::layout_stride::mapping<cuda::std::extents<{index}{', cuda::std::dynamic_extent' * ndim}>>"
    raw = f"Raw_{ndim}_{index.replace(' ', '_')}"
    extents = ", ".join(map(str, numbers[:ndim]))
    strides = ", ".join(map(str, numbers[ndim:]))
    return (
        f"struct {raw} {{ {index} n[{2 * ndim}]; }};\n"
        f"constexpr {raw} {raw.lower()} = cuda::std::bit_cast<{raw}>({mapping}(\n"
        f"    typename {mapping}::extents_type({extents}), cuda::std::array<{index}, {ndim}>{{{strides}}}));\n"
        + "".join(
            f'static_assert({raw.lower()}.n[{k}] == {v}, "{raw}: number {k}");\n'
            for k, v in enumerate(numbers)
        )
    )


def test_libcudacxx_mdspan_is_laid_out_as_the_bytes():
    """Every mdspan type has one of the two sizes an mdspan argument fits (Note [mdspan arguments]), and the
    mapping's numbers are in the packed order."""
    lines = ["#include <cuda/std/mdspan>", "#include <cuda/std/bit>", "#include <cuda/std/array>"]
    for index_type, index in [(np.int32, "int"), (np.int64, "long long")]:
        for ndim in range(4):
            m = _mdspan_of(np.empty((2,) * ndim), index_type)
            full = len(_core._mdspan_bytes(m))
            prefix = -(-(8 + ndim * m.index_size) // 8) * 8
            for layout in LAYOUTS:
                size = full if layout == "layout_stride" else prefix
                t = _mdspan_type("float", index, ndim, layout)
                lines.append(f'static_assert(sizeof({t}) == {size}, "{layout} {index} {ndim}-d");')
            if ndim:
                lines.append(_mapping_check(index_type, index, ndim))
    _core.jit.compile("\n".join(lines) + "\n", "mdspan_layout", _kernel._user_options(()), 90, [])


# ---- on a device ---------------------------------------------------------------------------------------------

# Elements are copied as unsigned integers of their size, so that every dtype's bits (NaN payloads, bool bytes)
# come through as they are.
_ELEMENT = {
    1: "unsigned char",
    2: "unsigned short",
    4: "unsigned int",
    8: "unsigned long long",
    16: "Bytes16",
}


def _copy_source(ndim, layout, index, element):
    """extern "C" copy_<...>(in, out): out (a C-contiguous layout_right mdspan) = in (of `layout`), one thread
    per element in a grid-stride loop over out's elements."""
    dims = [f"i{k}" for k in range(ndim)]
    unravel = "".join(
        f"    const {index} i{k} = rest % out.extent({k}); rest /= out.extent({k});\n"
        for k in reversed(range(ndim))
    )
    name = f"copy_{ndim}_{layout}_{index.replace(' ', '_')}_{element.replace(' ', '_')}"
    return name, (
        f'extern "C" __global__ void {name}({_mdspan_type(element, index, ndim, layout)} in,\n'
        f"    {_mdspan_type(element, index, ndim, 'layout_right')} out) {{\n"
        f"  for ({index} k = blockIdx.x * ({index})blockDim.x + threadIdx.x; k < ({index})out.size();\n"
        f"       k += ({index})(gridDim.x * blockDim.x)) {{\n"
        f"    {index} rest = k;\n{unravel}"
        f"    (void)rest;\n"
        f"    out({', '.join(dims)}) = in({', '.join(dims)});\n"
        f"  }}\n}}\n"
    )


def _copy_code():
    parts = ["#include <cuda/std/mdspan>", "struct __align__(16) Bytes16 { unsigned long long lo, hi; };"]
    for ndim in range(4):
        for layout in LAYOUTS:
            for index in ("int", "long long"):
                for element in _ELEMENT.values():
                    parts.append(_copy_source(ndim, layout, index, element)[1])
    return "\n".join(parts)


def _add1_code():
    """CuPy's test kernels, as in its test_mdspan.py: out(i, j) = in(i, j) + 1 in each layout."""
    code = "#include <cuda/std/mdspan>\n"
    for t in ("float", "double"):
        for layout in LAYOUTS:
            m = _mdspan_type(t, "long long", 2, layout)
            code += (
                f'extern "C" __global__ void add1_{t}_{layout}({m} in, {m} out) {{\n'
                "  for (long long i = threadIdx.x; i < in.extent(0); i += blockDim.x)\n"
                "    for (long long j = threadIdx.y; j < in.extent(1); j += blockDim.y) out(i, j) = in(i, j) + 1;\n}\n"
            )
    return code


@functools.cache
def _copy_module():
    return cp.RawModule(code=_copy_code())


@pytest.mark.parametrize("code", [_copy_code, _add1_code])
def test_the_device_tests_kernels_compile(code):
    # What the tests below launch, compiled for sm_90 as user kernels are (no device needed).
    assert _core.jit.compile(code(), "mdspan_kernels", _kernel._user_options(()), 90, [])


def _copy(view, layout, index_type, allow_unsafe):
    index = "int" if index_type is np.int32 else "long long"
    name, _ = _copy_source(view.ndim, layout, index, _ELEMENT[view.itemsize])
    out = cp.empty(view.shape, view.dtype)
    kernel = _copy_module().get_function(name)
    kernel(
        (4,),
        (64,),
        (
            view.mdspan(index_type=index_type, allow_unsafe=allow_unsafe),
            out.mdspan(index_type=index_type, allow_unsafe=allow_unsafe),
        ),
    )
    return out


@pytest.mark.gpu
@pytest.mark.parametrize("index_type", INDEX_TYPES, ids=["int32", "int64"])
@pytest.mark.parametrize("name", VIEW_NAMES)
@testing.for_all_dtypes()
@testing.numpy_cuarray_array_equal()
def test_layout_stride_reads_every_view(xp, dtype, name, index_type):
    view, unsafe = _views(xp, dtype)[name]
    if xp is np:
        return np.array(view)  # a copy that keeps 0-d arrays 0-d
    return _copy(view, "layout_stride", index_type, unsafe)


@pytest.mark.gpu
@pytest.mark.parametrize("index_type", INDEX_TYPES, ids=["int32", "int64"])
@pytest.mark.parametrize(
    "name, layout",
    [
        ("0d", "layout_right"),
        ("0d", "layout_left"),
        ("1d", "layout_right"),
        ("1d", "layout_left"),
        ("1d_size1", "layout_left"),
        ("2d_c", "layout_right"),
        ("2d_f", "layout_left"),
        ("2d_transposed", "layout_left"),
        ("2d_size1_axes", "layout_right"),
        ("3d_c", "layout_right"),
        ("3d_f", "layout_left"),
    ],
)
@testing.for_dtypes([np.bool_, np.int8, np.float16, np.float32, np.float64, np.complex128])
@testing.numpy_cuarray_array_equal()
def test_layout_right_and_left_read_their_contiguous_arrays(xp, dtype, name, layout, index_type):
    view, _ = _views(xp, dtype)[name]
    if xp is np:
        return np.array(view)
    return _copy(view, layout, index_type, False)


# Launches with wrong mdspans run in a child process, so that one that slipped through (a driver that cannot
# tell parameter sizes launches unchecked) cannot take the suite down.
WRONG_MDSPANS = r"""
import json
import numpy as np
import cuarray as cp
import test_mdspan as t

out = {}
def kernel_of(layout):
    return t._copy_module().get_function(t._copy_source(2, layout, "long long", "unsigned int")[0])


a = cp.zeros((6, 8), np.float32)
target = cp.zeros((3, 4), np.float32).mdspan(index_type=np.int64)
cases = {  # (the kernel's layout, the mdspan)
    "sliced": ("layout_right", a[::2, ::2].mdspan(index_type=np.int64)),
    "transposed_sliced": ("layout_left", a.T[::2, ::2].mdspan(index_type=np.int64)),
    "reversed": ("layout_right", a[::-2, :4].mdspan(index_type=np.int64, allow_unsafe=True)),
    "int32": ("layout_stride", a[:3, :4].mdspan(index_type=np.int32)),
    "rank1": ("layout_stride", a[0].mdspan(index_type=np.int64)),
    "rank3": ("layout_stride", a.reshape(2, 3, 8).mdspan(index_type=np.int64)),
}
for case, (layout, m) in cases.items():
    try:
        kernel_of(layout)((1,), (32,), (m, target))
        out[case] = "launched"
    except Exception as e:
        out[case] = type(e).__name__ + ": " + str(e)
print("RESULT", json.dumps(out), flush=True)
"""


@pytest.mark.gpu
def test_wrong_mdspans_raise_before_the_launch():
    proc = run_python(code=WRONG_MDSPANS, cwd=str(pathlib.Path(__file__).parent), timeout=300)
    assert proc.returncode == 0, f"the process died instead of raising\n{describe(proc)}"
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT "))
    out = json.loads(line[len("RESULT ") :])
    layout = (
        "argument 0: the parameter is 24 bytes, a layout_right or layout_left mdspan of rank 2, which cannot"
    )
    size = "argument 0: a cuarray mdspan (for a {}-d mdspan parameter with int{} indices"
    expect = {
        "sliced": layout,
        "transposed_sliced": layout,
        "reversed": layout,
        "int32": size.format(2, 32),
        "rank1": size.format(1, 64),
        "rank3": size.format(3, 64),
    }
    for case, words in expect.items():
        assert out[case].startswith("TypeError: RawKernel ") and words in out[case], f"{case}: {out[case]}"


@pytest.mark.gpu
def test_values_as_cupys_tests_compute_them():
    """CuPy's kernels (_add1_code) on C, F and sliced arrays, float and double."""
    mod = cp.RawModule(code=_add1_code())
    for dtype, t in ((np.float32, "float"), (np.float64, "double")):
        host = np.arange(4 * 8, dtype=dtype).reshape(4, 8)
        for order, layout in (
            ("C", "layout_stride"),
            ("F", "layout_stride"),
            ("C", "layout_right"),
            ("F", "layout_left"),
        ):
            a = cp.asarray(np.asarray(host, order=order), order=order)
            out = cp.zeros_like(a)
            mod.get_function(f"add1_{t}_{layout}")(
                (1,), (4, 8), (a.mdspan(index_type=np.int64), out.mdspan(index_type=np.int64))
            )
            testing.assert_array_equal(out, host + 1)
        a = cp.asarray(np.zeros((4, 16), dtype))
        a[::2, ::3] = cp.asarray(host[:2, :6])
        out = cp.zeros_like(a)
        v, w = a[::2, ::3], out[::2, ::3]
        mod.get_function(f"add1_{t}_layout_stride")(
            (1,), (4, 8), (v.mdspan(index_type=np.int64), w.mdspan(index_type=np.int64))
        )
        testing.assert_array_equal(w, host[:2, :6] + 1)
        testing.assert_array_equal(out[1::2], 0)  # nothing outside the view written


@pytest.mark.gpu
def test_method_checks():
    a = cp.arange(10, dtype=np.float32)
    assert repr(a.mdspan(index_type=np.int64)).startswith("<cuarray mdspan (for a 1-d mdspan parameter")
    with pytest.raises(TypeError):
        a.mdspan(np.int64)  # index_type is keyword-only, as in CuPy
    with pytest.raises(TypeError):
        a.mdspan()
    with pytest.raises(ValueError, match="Unsupported index_type"):
        a.mdspan(index_type=np.uint64)
    with pytest.raises(RuntimeError, match="0-th dimension has non-positive stride"):
        a[::-1].mdspan(index_type=np.int32)
    with pytest.raises(RuntimeError, match="0-th dimension has size zero"):
        a[:0].mdspan(index_type=np.int32)
    assert a[::-1].mdspan(index_type=np.int32, allow_unsafe=1).ndim == 1  # any truth value, as CuPy's bint


@pytest.mark.gpu
def test_mdspan_keeps_its_array_alive():
    host = np.arange(1000, dtype=np.int64)
    a = cp.asarray(host)
    m = a[::2].mdspan(index_type=np.int64)
    del a
    others = [cp.full(1000, -1, np.int64) for _ in range(8)]  # would reuse a freed block
    out = cp.empty(500, np.int64)
    name, _ = _copy_source(1, "layout_stride", "long long", "unsigned long long")
    _copy_module().get_function(name)((2,), (128,), (m, out.mdspan(index_type=np.int64)))
    testing.assert_array_equal(out, host[::2])
    del others


@pytest.mark.gpu
def test_elementwise_kernel_does_not_take_an_mdspan():
    # As in CuPy, whose ElementwiseKernel takes arrays and scalars only.
    k = cp.ElementwiseKernel("T x", "T y", "y = x", "copy_it")
    a = cp.arange(4, dtype=np.float32)
    with pytest.raises(TypeError, match="Unsupported type"):
        k(a.mdspan(index_type=np.int64))


@pytest.mark.multi_gpu
def test_mdspan_of_another_device_is_refused_before_the_launch():
    name, _ = _copy_source(1, "layout_stride", "long long", "unsigned int")
    with cp.cuda.Device(1):
        a = cp.arange(4, dtype=np.float32)
        m = a.mdspan(index_type=np.int64)
    out = cp.empty(4, np.float32)
    with pytest.raises(ValueError, match="the array is on device 1 but the current device is 0"):
        _copy_module().get_function(name)((1,), (4,), (m, out.mdspan(index_type=np.int64)))
