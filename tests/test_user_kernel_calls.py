"""ElementwiseKernel and ReductionKernel calls with CuPy's keywords and CuPy's errors: size= only where every
array argument is raw (and required there), block_size=, no_return and return_tuple, output checks, and the
arguments an ElementwiseKernel refuses (a MemoryPointer is a RawKernel argument). The errors raised before any
device work are checked without a GPU."""

import re

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same

# ---- raised before any device work (no GPU needed) ----------------------------------------------------------


def test_wrong_argument_count_message():
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_two")
    with pytest.raises(
        TypeError,
        match=r"^Wrong number of arguments for 'add_two'\. It must be either 2 or 3 "
        r"\(with outputs\), but given 4\.$",
    ):
        k(1, 2, 3, 4)


@pytest.mark.parametrize("block_size", [0, -1, -128])
def test_block_size_must_be_positive(block_size):
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_two")
    with pytest.raises(ValueError, match="^block_size must be greater than zero$"):
        k(1.0, 2.0, block_size=block_size)


def test_unknown_keyword_is_type_error():
    k = cp.ElementwiseKernel("T x", "T y", "y = x", "copy_one")
    with pytest.raises(TypeError, match="^" + re.escape("Wrong arguments {'blocksize': 64}") + "$"):
        k(1.0, blocksize=64)


def test_loop_size_undecided_without_arrays():
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_two")
    with pytest.raises(ValueError, match=r"^Loop size is undecided\."):
        k(1.0, 2.0)


@pytest.mark.parametrize("size", [-2, -100])
def test_negative_size(size):
    k = cp.ElementwiseKernel("raw T x", "T y", "y = x[i]", "copy_raw")
    with pytest.raises(ValueError, match="size must be a non-negative integer"):
        k(1.0, size=size)


def test_invalid_kernel_names():
    with pytest.raises(ValueError, match='^Invalid kernel name: "1"'):
        cp.ElementwiseKernel("T x", "T y", "y = x", "1")
    with pytest.raises(ValueError, match='^Invalid kernel name: "a-b"'):
        cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "a-b")


def test_i_is_no_parameter_name():
    with pytest.raises(ValueError, match="^Can not use 'i' as a parameter name$"):
        cp.ElementwiseKernel("T i", "T y", "y = i", "uses_i")
    with pytest.raises(ValueError, match="^Can not use 'i' as a parameter name$"):
        cp.ElementwiseKernel("T x", "T i", "i = x", "uses_i")


def test_loop_prep_and_after_loop_are_refused_not_ignored():
    with pytest.raises(NotImplementedError, match="loop_prep or after_loop"):
        cp.ElementwiseKernel("T x", "T y", "y = x + c", "prep", loop_prep="float c = 1;")
    with pytest.raises(NotImplementedError, match="loop_prep or after_loop"):
        cp.ElementwiseKernel("T x", "T y", "y = x", "after", after_loop="y = 0;")


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(
            lambda: cp.cuda.MemoryPointer(cp.cuda.UnownedMemory(0, 0, None, 0), 0), id="MemoryPointer"
        ),
        pytest.param(lambda: None, id="None"),
        pytest.param(lambda: [1.0, 2.0], id="list"),
        pytest.param(lambda: "text", id="str"),
    ],
)
def test_unsupported_argument_types(bad):
    k = cp.ElementwiseKernel("T x, float32 y", "float32 z", "z = y", "takes_scalar")
    with pytest.raises(TypeError, match=r"^Unsupported type <class '[\w.]+'>: argument 'x' of takes_scalar"):
        k(bad(), 1.0)


def test_output_argument_must_be_an_array():
    k = cp.ElementwiseKernel("T x", "T y", "y = x", "copy_one")
    with pytest.raises(TypeError, match="^Output arguments type must be cuarray.ndarray"):
        k(1.0, 2.0)


def test_reduction_kernel_loop_size_undecided():
    k = cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "sum_scalar")
    with pytest.raises(ValueError, match=r"^Loop size is undecided\."):
        k(1.0)


# ---- size= (CuPy's rules: raw arrays only, and then required) --------------------------------------------------


def _kernel(input_raw, output_raw):
    """A no-op kernel: input i raw where input_raw[i], output j raw where output_raw[j]."""
    ins = ", ".join(f"{'raw ' if raw else ''}float32 x{k}" for k, raw in enumerate(input_raw))
    outs = ", ".join(f"{'raw ' if raw else ''}float32 y{k}" for k, raw in enumerate(output_raw))
    return cp.ElementwiseKernel(ins, outs, "", "noop")


def _size_not_allowed():
    return pytest.raises(
        ValueError, match=r"^Specified 'size' can be used only if all of the ndarray are 'raw'\.$"
    )


def _size_required():
    return pytest.raises(ValueError, match=r"^Loop size is undecided\.")


@pytest.mark.gpu
@pytest.mark.parametrize("output_raw", [False, True])
def test_size_with_raw_arrays_only(output_raw):
    a, b = cp.asarray([1, 2], np.float32), cp.asarray([3, 4], np.float32)
    k = _kernel((True, True), (output_raw,))
    assert k(a, b, size=2).shape == (2,)
    with _size_required():
        k(a, b)
    k = _kernel((True, False), (output_raw,))
    assert k(a, 7, size=2).shape == (2,)  # raw arrays and scalars: size is needed too
    with _size_required():
        k(a, 7)
    k = _kernel((False, True), (output_raw,))
    assert k(7, a, size=2).shape == (2,)
    with _size_required():
        k(7, a)


@pytest.mark.gpu
@pytest.mark.parametrize("output_raw", [False, True])
@pytest.mark.parametrize("input_raw", [(False, False), (True, False), (False, True)])
def test_size_with_a_non_raw_array(input_raw, output_raw):
    a, b = cp.asarray([1, 2], np.float32), cp.asarray([3, 4], np.float32)
    k = _kernel(input_raw, (output_raw,))
    with _size_not_allowed():
        k(a, b, size=2)
    if not any(input_raw):
        with _size_not_allowed():
            k(a, 7, size=2)
        with _size_not_allowed():
            k(7, a, size=2)
    k3 = _kernel((False, False, True), (output_raw,))
    with _size_not_allowed():
        k3(a, 7, b, size=2)


@pytest.mark.gpu
def test_size_from_a_given_output():
    a, b = cp.asarray([1, 2], np.float32), cp.asarray([3, 4], np.float32)
    k = _kernel((True,), (False,))
    assert k(a, b) is b  # the loop size comes from the non-raw output
    with _size_not_allowed():
        k(a, b, size=2)
    k = _kernel((False,), (False,))
    assert k(7, b) is b
    with _size_not_allowed():
        k(7, b, size=2)
    k = _kernel((), (False,))
    assert k(a) is a
    with _size_not_allowed():
        k(a, size=2)
    k = _kernel((), (True,))
    assert k(a, size=2) is a
    with _size_required():
        k(a)


@pytest.mark.gpu
def test_raw_output_is_allocated_with_size():
    k = cp.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i] * 2", "double_raw")
    x = cp.asarray(np.arange(6, dtype=np.int32))
    y = k(x, size=6)
    assert y.shape == (6,) and y.dtype == np.int32
    assert_same(y, np.arange(6, dtype=np.int32) * 2)
    k = cp.ElementwiseKernel("T x", "raw T y", "y[i] = x", "to_raw")
    with pytest.raises(ValueError, match="^Output array size is Undecided"):
        k(x)


@pytest.mark.gpu
@pytest.mark.parametrize(
    "view",
    [
        lambda a: a[:, ::2],
        lambda a: a.T,
        lambda a: a[::-1, 1:],
        lambda a: a[:1].reshape(6)[::3],
    ],
    ids=["strided", "transposed", "reversed", "every_third"],
)
def test_raw_arrays_are_indexed_in_c_order(view):
    # Note [Raw arrays as CArray]: x[i] is the view's i-th element in C order, as CuPy's CArray, and a raw
    # output that is a view is written in place.
    h = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = view(cp.asarray(h))
    want = np.ascontiguousarray(view(h)).reshape(-1)
    copy = cp.ElementwiseKernel("raw T x", "T y", "y = x[i]", "copy_raw_c_order")
    assert_same(copy(x, size=x.size), want)
    base = cp.zeros((4, 6), np.float32)
    out = view(base)
    twice = cp.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i] * 2", "twice_raw_c_order")
    assert twice(x, out, size=x.size) is out
    expect = np.zeros((4, 6), np.float32)
    view(expect)[...] = view(h) * 2
    assert_same(base, expect)  # the base holds the view's values, nothing elsewhere
    inplace = cp.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i] + 1", "inplace_raw_c_order")
    inplace(out, out, size=out.size)  # one array as input and output: one copy, read and written
    view(expect)[...] += 1
    assert_same(base, expect)


VIEWS_2D = {
    "contiguous": lambda a: a,
    "fortran": lambda a: a.T.copy().T,
    "transposed": lambda a: a.T,
    "reversed": lambda a: a[::-1, 1:],
    "strided": lambda a: a[:, ::2],
    "broadcast": lambda a: (cp if isinstance(a, cp.ndarray) else np).broadcast_to(a[0, ::-1], (3, 6)),
}


@pytest.mark.gpu
@pytest.mark.parametrize("view", VIEWS_2D.values(), ids=VIEWS_2D.keys())
def test_raw_arrays_are_cupys_carray(view):
    # Note [Raw arrays as CArray]: ndim, size(), shape() and strides() are the array's own (strides in bytes, as
    # ndarray.strides, negative and zero ones too), and x[idx] / x[{j, k}] take one index per axis.
    h = np.arange(24, dtype=np.int32).reshape(4, 6)
    hv = view(h)
    x = view(cp.asarray(h))
    assert x.strides == hv.strides  # the views themselves agree
    meta = cp.ElementwiseKernel(
        "raw T x",
        "int64 y",
        "y = i == 0 ? x.ndim : i == 1 ? x.size() : i < 4 ? x.shape()[i - 2] : x.strides()[i - 4]",
        "carray_meta",
    )
    assert_same(meta(x, size=6), np.array([2, hv.size, *hv.shape, *hv.strides], np.int64))
    by_index = cp.ElementwiseKernel(
        "raw T x",
        "T y, T z",
        "const ptrdiff_t w = x.shape()[1]; ptrdiff_t idx[2] = {i / w, i % w}; y = x[idx]; z = x[{i / w, i % w}]",
        "carray_by_index",
    )
    y, z = by_index(x, cp.empty(hv.shape, np.int32), cp.empty(hv.shape, np.int32))
    assert_same(y, hv.copy())
    assert_same(z, hv.copy())
    base = cp.zeros((4, 6), np.int32)
    out = view(base) if view is not VIEWS_2D["broadcast"] else base[:3, :4]
    expect = np.zeros((4, 6), np.int32)
    e_out = view(expect) if view is not VIEWS_2D["broadcast"] else expect[:3, :4]
    src = x[: e_out.shape[0], : e_out.shape[1]]
    write = cp.ElementwiseKernel(
        "raw T x",
        "raw T y",
        "const ptrdiff_t w = y.shape()[1]; ptrdiff_t idx[2] = {i / w, i % w}; y[idx] = x[idx] * 3",
        "carray_write_by_index",
    )
    assert write(src, out, size=out.size) is out
    e_out[...] = hv[: e_out.shape[0], : e_out.shape[1]] * 3
    assert_same(base, expect)  # the view's elements written where they lie, nothing elsewhere


@pytest.mark.gpu
def test_raw_zero_d_and_three_d_arrays():
    k = cp.ElementwiseKernel("raw T x", "T y", "y = x[i] + (T)(x.ndim + x.size())", "carray_zero_d")
    assert_same(k(cp.asarray(np.float32(2.5)), size=3), np.full(3, 3.5, np.float32))
    h = np.arange(60, dtype=np.float64).reshape(3, 4, 5)[:, ::-2, 1:]
    x = cp.asarray(np.arange(60, dtype=np.float64).reshape(3, 4, 5))[:, ::-2, 1:]
    k3 = cp.ElementwiseKernel(
        "raw T x",
        "T y",
        "const ptrdiff_t* s = x.shape(); ptrdiff_t idx[3] = {i / (s[1] * s[2]), i / s[2] % s[1], i % s[2]}; "
        "y = x[idx] - x[i]",
        "carray_three_d",
    )
    assert_same(k3(x, size=x.size), np.zeros(h.size))


@pytest.mark.gpu
def test_raw_broadcast_input_is_read_as_its_elements():
    x = cp.broadcast_to(cp.arange(3, dtype=cp.int32), (2, 3))
    k = cp.ElementwiseKernel("raw T x", "T y", "y = x[i]", "copy_raw_broadcast")
    assert_same(k(x, size=6), np.tile(np.arange(3, dtype=np.int32), 2))


@pytest.mark.gpu
def test_out_shape_is_mismatched():
    k = cp.ElementwiseKernel("T x", "T y", "y += x", "acc")
    with pytest.raises(ValueError, match="^Out shape is mismatched"):
        k(cp.arange(12).reshape(3, 4), cp.arange(4))


@pytest.mark.gpu
def test_size_zero():
    k = cp.ElementwiseKernel("raw T x", "T y", "y = x[i]", "copy_raw")
    y = k(cp.arange(3.0), size=0)
    assert y.shape == (0,) and y.dtype == np.float64


# ---- block_size= ---------------------------------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize("block_size", [1, 32, 33, 96, 128, 256, 1000, 1024])
@pytest.mark.parametrize("layout", ["contiguous", "strided", "broadcast", "index"])
def test_block_size_gives_the_same_result(block_size, layout):
    a = np.arange(3 * 1031, dtype=np.float32).reshape(3, 1031) * 0.5
    x = cp.asarray(a)
    if layout == "contiguous":
        k = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_bs")
        r, expected = k(x, np.float32(1), block_size=block_size), a + np.float32(1)
    elif layout == "strided":
        k = cp.ElementwiseKernel("T x, T y", "T z", "z = x * y", "mul_bs")
        r = k(x[:, ::-2][:, :515], x[:, 1::2], block_size=block_size)
        expected = a[:, ::-2][:, :515] * a[:, 1::2]
    elif layout == "broadcast":
        k = cp.ElementwiseKernel("T x, T y", "T z", "z = x - y", "sub_bs")
        r, expected = k(x.T, x[:, 0], block_size=block_size), a.T - a[:, 0]
    else:
        k = cp.ElementwiseKernel("T x", "T z", "z = x + (T)i", "index_bs")
        r, expected = k(x, block_size=block_size), a + np.arange(a.size, dtype=np.float32).reshape(a.shape)
    assert_same(r, expected)


@pytest.mark.gpu
def test_block_size_with_raw_arrays_and_size():
    k = cp.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[_ind.size() - 1 - i]", "reverse_bs")
    a = np.arange(5000, dtype=np.int64)
    y = cp.zeros(5000, np.int64)
    k(cp.asarray(a), y, size=5000, block_size=64)
    assert_same(y, a[::-1].copy())


@pytest.mark.gpu
def test_block_size_over_the_kernel_limit_raises_and_the_process_goes_on():
    k = cp.ElementwiseKernel("T x", "T y", "y = x * 2", "dbl_bs")
    x = cp.arange(10.0)
    with pytest.raises(ValueError, match="block_size=2048 is more than the"):
        k(x, block_size=2048)
    assert_same(k(x, block_size=1024), np.arange(10.0) * 2)
    assert_same(x + 1, np.arange(10.0) + 1)


# ---- what a call returns ---------------------------------------------------------------------------------------


@pytest.mark.gpu
def test_no_return_and_return_tuple():
    x = cp.arange(4.0)
    k = cp.ElementwiseKernel("T x", "T y", "y = x + 1", "inc_none", no_return=True)
    y = cp.zeros(4)
    assert k(x, y) is None
    assert_same(y, np.arange(4.0) + 1)
    k = cp.ElementwiseKernel("T x", "T y", "y = x + 1", "inc_tuple", return_tuple=True)
    r = k(x)
    assert type(r) is tuple and len(r) == 1
    assert_same(r[0], np.arange(4.0) + 1)
    k = cp.ElementwiseKernel("T x", "T y, T z", "y = x + 1; z = x - 1", "two_out")
    y, z = k(x)
    assert_same(y, np.arange(4.0) + 1)
    assert_same(z, np.arange(4.0) - 1)


@pytest.mark.gpu
def test_reduction_kernel_keywords():
    k = cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "sum_kw")
    a = np.arange(12.0).reshape(3, 4)
    x = cp.asarray(a)
    assert_same(k(x, axis=1), a.sum(axis=1))
    assert_same(k(x, axis=0, keepdims=True), a.sum(axis=0, keepdims=True))
    out = cp.zeros(3)
    assert k(x, axis=1, out=out) is out
    assert_same(out, a.sum(axis=1))
    with cp.cuda.Stream() as s:
        assert_same(k(x, axis=(0, 1), stream=s), a.sum())
    with pytest.raises(ValueError, match="cannot specify 'out' as both a positional and keyword argument"):
        k(x, cp.zeros(()), out=cp.zeros(()))
    with pytest.raises(TypeError):
        k(x, axes=0)


# ---- the kernels of the calls above compile (NVRTC, no GPU needed) ------------------------------------------


@pytest.mark.parametrize(
    "input_raw, output_raw, kinds, outputs, contiguous, ndim",
    [
        ((), (False,), [], 1, True, 0),  # no inputs: the loop size comes from the output
        ((), (False,), [], 1, False, 1),
        ((), (True,), [2], 0, False, 1),  # nothing iterated at all: a raw output and size=
        ((True, True), (True,), [2, 2, 2], 0, False, 1),
        ((True, False), (False,), [2, 1], 1, False, 1),  # a raw array and a scalar
    ],
)
def test_no_op_kernels_compile(input_raw, output_raw, kinds, outputs, contiguous, ndim):
    from test_kernel_sources import MINIMAL_ONLY, _headers

    k = _kernel(input_raw, output_raw)
    t = np.dtype(np.float32)
    handle = k._definition((t,) * len(input_raw), (t,) * len(output_raw), {})
    src, name = cp._core._elementwise_source(
        handle, [t] * len(kinds), [t] * outputs, contiguous, ndim, kinds=kinds
    )
    assert cp._core.jit.compile(MINIMAL_ONLY + src, name, [], 90, _headers())[:4] == b"\x7fELF"


# ---- pointers: a MemoryPointer (x.data, cuarray.cuda.alloc) is a RawKernel argument, as in CuPy ----------------

FILL = r"""
extern "C" __global__ void fill(float* p, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}
"""


@pytest.mark.gpu
def test_raw_kernel_takes_memory_pointers():
    k = cp.RawKernel(FILL, "fill")
    x = cp.zeros(8, np.float32)
    k((1,), (8,), (x.data, np.float32(2), np.int32(4)))
    k((1,), (8,), (x.data + 16, np.float32(3), np.int32(4)))  # 4 floats further
    assert_same(x, np.array([2, 2, 2, 2, 3, 3, 3, 3], np.float32))
    mem = cp.cuda.alloc(32)  # a cuarray.cuda.MemoryPointer, not an array's
    assert isinstance(mem, cp.cuda.MemoryPointer)
    k((1,), (8,), (mem, np.float32(5), np.int32(8)))
    f = cp.RawModule(code=FILL).get_function("fill")
    f((1,), (8,), (mem + 4, np.float32(6), np.int32(1)))
    y = cp.ndarray((8,), np.float32, mem)
    assert_same(y, np.array([5, 6, 5, 5, 5, 5, 5, 5], np.float32))


@pytest.mark.gpu
def test_elementwise_kernel_refuses_memory_pointers():
    k = cp.ElementwiseKernel("T x", "T y", "y = x", "copy_ptr")
    x = cp.arange(4.0)
    for ptr in (x.data, cp.cuda.alloc(32)):
        with pytest.raises(TypeError, match="^Unsupported type <class '[\\w.]+'>: argument 'x' of copy_ptr"):
            k(ptr, cp.zeros(4))
