"""ReductionKernel in CuPy's syntax: against NumPy on several dtypes, axes and keepdims; CI compiles its kernels;
bad definitions and calls raise clear errors."""

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same, dtype_id, make_data
from cuarray import _core
from cuarray._reduction_kernel import create_reduction_func
from test_kernel_sources import _compile_together


def l2norm():
    return cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")


def mean_kernel():
    return cp.ReductionKernel(
        "T x",
        "float64 y",
        "x",
        "a + b",
        "y = a / (_in_ind.size() / _out_ind.size())",
        "0",
        "mean_k",
        reduce_type="float64",
    )


def weighted_sum():
    return cp.ReductionKernel("T x, T w", "T y", "x * w", "a + b", "y = a", "0", "wsum")


@pytest.mark.parametrize("make", [l2norm, mean_kernel, weighted_sum])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=dtype_id)
def test_reduction_kernel_sources_compile_in_ci(make, dtype):
    k = make()
    t = np.dtype(dtype)
    out = np.dtype(np.float64) if make is mean_kernel else t
    handle = k._definition((t,) * k.nin, out, {"T": t})
    for layout, vec, partial in ((0, 4 if t.itemsize == 4 else 2, True), (1, 1, False), (2, 1, False)):
        src = _core._reduction_source(handle, [str(t)] * k.nin, str(out), str(out), layout, vec, partial)
        assert _compile_together([src])[:4] == b"\x7fELF"


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=dtype_id)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_reduction_kernels_match_numpy(dtype, axis):
    a = make_data((37, 65), dtype)
    w = make_data((37, 65), dtype, seed=1)
    x, xw = cp.asarray(a), cp.asarray(w)
    tol = {"rtol": 1e-5} if np.dtype(dtype) == np.float32 else {}
    assert_same(l2norm()(x, axis=axis), np.sqrt((a * a).sum(axis=axis)), **tol)
    assert_same(mean_kernel()(x, axis=axis), a.astype(np.float64).mean(axis=axis), rtol=1e-6)
    assert_same(weighted_sum()(x, xw, axis=axis, keepdims=True), (a * w).sum(axis=axis, keepdims=True), **tol)


@pytest.mark.gpu
@pytest.mark.parametrize("axis, outputs", [(None, 1), (0, 4), (1, 6), ((0, 1), 1)])
def test_indexer_sizes_are_cupys_totals(axis, outputs):
    # CuPy's _in_ind.size() is the number of input elements and _out_ind.size() that of outputs; they were the
    # elements each output reduces and 1 (their quotient, the common use, was already right).
    k = cp.ReductionKernel(
        "T x",
        "int64 y",
        "x",
        "a + b",
        "y = _in_ind.size() * 1000 + _out_ind.size()",
        "0",
        "sizes",
        reduce_type="T",
    )
    got = k(cp.ones((6, 4), dtype=np.float32), axis=axis)
    assert_same(got, np.full(got.shape, 24 * 1000 + outputs, dtype=np.int64))
    assert got.size == outputs


@pytest.mark.gpu
def test_reduction_kernel_out_and_scalar_inputs():
    a = make_data((8, 9), np.float32)
    out = cp.zeros(9, np.float32)
    r = weighted_sum()(cp.asarray(a), np.float32(2), axis=0, out=out)
    assert r is out
    assert_same(out, (a * 2).sum(axis=0), rtol=1e-6)


def accumulate():
    # CuPy's post_map reads the output's parameter as the out= array's element: `y += a` adds to it.
    return cp.ReductionKernel("T x", "T y", "x", "a + b", "y += a", "0", "acc_into")


@pytest.mark.parametrize("dtype", [np.float16, np.int32, np.complex64], ids=dtype_id)
def test_post_map_reading_the_output_compiles_in_ci(dtype):
    k = accumulate()
    t = np.dtype(dtype)
    handle = k._definition((t,), t, {"T": t})
    src = _core._reduction_source(handle, [str(t)], str(t), str(t), 0, 1, True)
    assert "_out_old" in src[0]
    assert _compile_together([src])[:4] == b"\x7fELF"


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int32, np.complex128], ids=dtype_id)
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("shape", [(6, 5), (3, 70000), (70000, 3)])
def test_post_map_adds_to_the_out_array(dtype, axis, shape):
    # The output's parameter was an uninitialised local: `y += a` added the reduction to garbage.
    if np.dtype(dtype) == np.float16 and shape != (6, 5):
        pytest.skip("float16 sums of 70,000 elements overflow")
    a = make_data(shape, dtype)
    start = make_data(np.sum(a, axis=axis).shape, dtype, seed=2)
    out = cp.asarray(start)
    r = accumulate()(cp.asarray(a), axis=axis, out=out)
    assert r is out
    want = (start + a.sum(axis=axis, dtype=dtype)).astype(dtype)
    tol = {"rtol": 2e-2} if np.dtype(dtype) == np.float16 else {"rtol": 1e-5}
    assert_same(out, want, **(tol if np.dtype(dtype).kind in "fc" else {}))


@pytest.mark.gpu
def test_post_map_adds_to_an_out_array_that_is_an_input():
    # The output in an input's memory goes through a temporary, which started uninitialised: `y += a` read garbage
    # (CuPy: 1 + 4 = 5 in each column).
    x = cp.ones((4, 3), dtype=np.float32)
    r = accumulate()(x, axis=0, out=x[0])
    assert_same(r, np.full(3, 5.0, dtype=np.float32))
    assert_same(x[0], np.full(3, 5.0, dtype=np.float32))


def test_bad_definitions_raise():
    with pytest.raises(ValueError, match="exactly one output"):
        cp.ReductionKernel("T x", "T y, T z", "x", "a + b", "y = a", "0", "k")
    with pytest.raises(ValueError, match="placeholder U"):
        cp.ReductionKernel("T x", "U y", "x", "a + b", "y = a", "0", "k")
    with pytest.raises(ValueError, match="identifier"):
        cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "bad name")


def test_bad_calls_raise():
    k = l2norm()
    with pytest.raises(TypeError, match="numpy.ndarray"):
        k(np.ones(3))
    with pytest.raises(TypeError, match="takes 1 or 2 arguments"):
        k()


def int8_sum():
    # CuPy's own test reduction (cupy._core.create_reduction_func): no identity, one loop.
    return create_reduction_func("my_sum", ("b->b",), ("in0", "a + b", "out0 = a", None))


def test_create_reduction_func_sources_compile_in_ci():
    f = int8_sum()
    loop = f._loop(np.dtype(np.int8), None)
    k = f._kernels[loop] = cp.ReductionKernel(
        "int8 in0", "int8 out0", "in0", "a + b", "out0 = a", None, "my_sum"
    )
    t = np.dtype(np.int8)
    handle = k._definition((t,), t, {})
    for layout, vec, partial in ((0, 4, True), (1, 1, False), (2, 1, False)):
        src = _core._reduction_source(handle, ["int8"], "int8", "int8", layout, vec, partial)
        assert "acc_t()" in src[0]  # no identity: value-initialized, as CuPy's
        assert _compile_together([src])[:4] == b"\x7fELF"


def test_create_reduction_func_refusals_before_the_device():
    f = int8_sum()
    with pytest.raises(TypeError, match="Argument 'a' has incorrect type"):
        f(np.array([1, 2, 3], np.int8))
    with pytest.raises(TypeError, match="Wrong type"):
        f._loop(np.dtype(np.float64), None)  # float64 casts safely to no loop's input
    with pytest.raises(TypeError, match="Wrong type"):
        f._loop(np.dtype(np.int8), np.dtype(np.float32))  # no loop gives float32
    assert f._loop(np.dtype(np.bool_), None)[0] == np.int8  # the first loop the input casts to safely
    with pytest.raises(ValueError, match="one type to one type"):
        create_reduction_func("bad", ("bb->b",), ("in0", "a + b", "out0 = a", None))
    with pytest.raises(ValueError, match="no routine"):
        create_reduction_func("bad", ("b->b",))


@pytest.mark.gpu
@pytest.mark.parametrize(
    "shape, axis, trans",
    [
        ((1,), None, None),
        ((7,), None, None),
        ((513,), 0, None),
        ((33, 100), 0, None),
        ((33, 100), 1, None),
        ((2, 4, 5, 3), (1, 2), (3, 2, 1, 0)),
        ((0, 4, 3), (0, 1), (2, 1, 0)),
        ((2, 4, 3), (0, 1, 2), (2, 1, 0)),
    ],
)
@pytest.mark.parametrize("keepdims", [False, True])
def test_create_reduction_func_matches_numpy(shape, axis, trans, keepdims):
    a = make_data(shape, np.int8)
    if trans:
        a = a.transpose(trans)
    x = (
        cp.asarray(a)
        if not trans
        else cp.asarray(np.ascontiguousarray(a.transpose(np.argsort(trans)))).transpose(trans)
    )
    assert_same(int8_sum()(x, axis=axis, keepdims=keepdims), a.sum(axis=axis, keepdims=keepdims, dtype="b"))


@pytest.mark.gpu
def test_create_reduction_func_inputs_out_and_errors():
    f = int8_sum()
    a = make_data((6, 5), np.int8)
    x = cp.asarray(a)

    class CuPyLike:  # CuPy's protocol for array-like wrappers
        def __cupy_get_ndarray__(self):
            return x

    assert_same(f(CuPyLike(), axis=1), a.sum(axis=1, dtype="b"))
    assert_same(f(cp.asarray(a.astype(bool))), a.astype(bool).sum(dtype="b"))  # bool runs the int8 loop
    out = cp.empty(5, np.int8)
    assert f(x, axis=0, out=out) is out
    assert_same(out, a.sum(axis=0, dtype="b"))
    with pytest.raises(ValueError, match="identity"):
        f(cp.empty((0,), np.int8))  # no identity: reducing nothing is an error, as CuPy's
    g = create_reduction_func("fsum", ("f->f",), ("in0", "a + b", "out0 = a", None), 0)
    c = (a + 1j * a).astype(np.complex64)
    with pytest.raises(TypeError, match=r"Wrong type \(complex64\) of arguments for fsum"):
        g(cp.asarray(c))  # complex64 does not cast to the f loop by 'same_kind', as in CuPy
    assert_same(g(cp.asarray(a.astype(np.float32))), a.astype(np.float32).sum())
    assert_same(g(cp.empty((0,), np.float32)), np.float32(0))  # identity 0


@pytest.mark.gpu
def test_reduction_kernel_without_identity():
    # No identity: accumulators start value-initialized (CuPy's acc_t()), and an empty reduction is refused.
    k = cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", None, "my_plain_sum")
    a = make_data((4, 6), np.float32)
    assert_same(k(cp.asarray(a), axis=1), a.sum(axis=1), rtol=1e-6)
    with pytest.raises(ValueError, match="identity"):
        k(cp.empty((0,), np.float32))
