"""cuarray.fuse: generated kernels compile (no GPU needed), bad constructs get clear errors, and fused
results equal the unfused ones on the GPU."""

import cuarray as cp
import numpy as np
import pytest
from conftest import make_data
from cuarray import _core
from test_kernel_sources import compile_for_test


def squared_diff(x, y):
    return (x - y) * (x - y)


def mixed(x, s, t):
    return cp.where(x > 0, cp.exp(x) * s, x.astype(np.float16) + 2), cp.sqrt(abs(x)) + t


def integer_ops(a, b):
    return (a // 3) % b + (a << 1) - (b & 7)


SIGNATURES = [
    (squared_diff, (np.dtype("float32"), np.dtype("float32"))),
    (squared_diff, (np.dtype("int64"), np.dtype("float16"))),
    (squared_diff, (np.dtype("complex64"), float)),
    (mixed, (np.dtype("float32"), float, np.dtype("float64"))),
    (integer_ops, (np.dtype("int32"), np.dtype("int8"))),
]


@pytest.mark.parametrize("func,kinds", SIGNATURES, ids=lambda v: getattr(v, "__name__", None) or str(v))
def test_fused_kernels_compile_for_sm90(func, kinds):
    handle = cp.fuse(func)._compile(kinds).handle
    for contiguous, ndim, tiled in ((True, 0, 0), (False, 2, 0), (False, 3, 1)):
        src, name = _core._fused_source(handle, contiguous, ndim, tiled)
        assert compile_for_test(src, name)[:4] == b"\x7fELF"


def test_result_types_follow_numpy():
    compiled = cp.fuse(mixed)._compile((np.dtype("float32"), float, np.dtype("float64")))
    assert compiled.tuple_result and compiled.out_types == (np.dtype("float32"), np.dtype("float64"))
    assert cp.fuse(squared_diff)._compile((np.dtype("int8"), int)).out_types == (np.dtype("int8"),)
    assert cp.fuse(squared_diff)._compile((np.dtype("int32"), float)).out_types == (np.dtype("float64"),)


def test_decorator_forms():
    assert cp.fuse(squared_diff).name == "squared_diff"
    assert cp.fuse(kernel_name="sd")(squared_diff).name == "sd"
    assert cp.fuse()(squared_diff).__name__ == "squared_diff"
    with pytest.raises(TypeError):
        cp.fuse(squared_diff, squared_diff)


def test_control_flow_on_values_names_the_line():
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(TypeError, match=r"control flow.*test_fusion\.py:\d+.*Python scalars"):
        cp.fuse(f)._plan((np.dtype("float32"),))


def test_unsupported_method_runs_op_by_op():
    assert cp.fuse(lambda x: x.cumsum())._plan((np.dtype("float32"),)) is None
    assert cp.fuse(lambda x: 3)._plan((np.dtype("float32"),)) is None


def test_numpy_arguments_call_the_function():
    np.testing.assert_array_equal(cp.fuse(squared_diff)(np.zeros(3), np.ones(3)), np.ones(3))


def test_keyword_arguments_are_refused():
    with pytest.raises(TypeError, match=r"fused function squared_diff\(\) takes positional arguments only"):
        cp.fuse(squared_diff)(1.0, y=2.0)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "float16"])
@pytest.mark.parametrize("shape", [(1000,), (7, 33), (0,), ()])
def test_fused_equals_unfused(dtype, shape):
    x = cp.asarray(make_data(shape, dtype, seed=1))
    y = cp.asarray(make_data(shape, dtype, seed=2))
    fused = cp.fuse(squared_diff)
    np.testing.assert_array_equal(cp.asnumpy(fused(x, y)), cp.asnumpy(squared_diff(x, y)))
    assert fused(x, y).dtype == squared_diff(x, y).dtype


@pytest.mark.gpu
def test_fused_broadcasting_scalars_and_tuples():
    x = cp.asarray(make_data((4, 5), "float32", seed=3))
    t = cp.asarray(make_data((5,), "float64", seed=4))
    a, b = cp.fuse(mixed)(x, 1.5, t)
    ea, eb = mixed(x, 1.5, t)
    np.testing.assert_allclose(cp.asnumpy(a), cp.asnumpy(ea), rtol=1e-6)
    np.testing.assert_allclose(cp.asnumpy(b), cp.asnumpy(eb), rtol=1e-12)
    assert (a.dtype, b.dtype, b.shape) == (ea.dtype, eb.dtype, (4, 5))


@pytest.mark.gpu
def test_fused_lesson_squared_diff():
    x = cp.arange(10000)
    y = cp.arange(10000)[::-1]
    np.testing.assert_array_equal(cp.fuse(squared_diff)(x, y).get(), squared_diff(x, y).get())


def _sum11(a, b, c, d, e, f, g, h, i, j, k):
    return a + b + c + d + e + f + g + h + i + j + k


def _sum12(a, b, c, d, e, f, g, h, i, j, k, m):
    return a + b + c + d + e + f + g + h + i + j + k + m


@pytest.mark.gpu
def test_fused_arguments_up_to_the_kernel_limit():
    # 11 arrays and the result: 12 operands, the most one kernel takes; with 12 arrays, the function runs op by
    # op.
    xs = [cp.arange(5, dtype=np.float32) * (n + 1) for n in range(12)]
    np.testing.assert_array_equal(cp.fuse(_sum11)(*xs[:11]).get(), _sum11(*xs[:11]).get())
    kinds = (np.dtype(np.float32),) * 12
    assert cp.fuse(_sum11)._plan(kinds[:11]) is not None and cp.fuse(_sum12)._plan(kinds) is None
    np.testing.assert_array_equal(cp.fuse(_sum12)(*xs).get(), _sum12(*xs).get())
