"""Fused functions that end in a reduction: compared with their unfused result on several shapes and dtypes;
the kernels compile in CI; unsupported uses raise clear errors."""

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same, dtype_id, make_data
from cuarray import _core
from test_kernel_sources import _compile_together


def squared_diff_sum(x, y):
    return cp.sum((x - y) * (x - y))


def scaled_max(x, s):
    return (x * s).max(axis=-1, keepdims=True)


def sum_of_squares_axis0(x):
    return (x * x).sum(axis=0)


def masked_min(x, y):
    return cp.min(cp.where(x > y, x, y), axis=(0, 2))


def int_prod(x):
    return cp.prod(x + 1, axis=1, dtype=np.int64)


FUNCS = [(squared_diff_sum, 2), (scaled_max, 1), (sum_of_squares_axis0, 1), (masked_min, 2), (int_prod, 1)]


def _args(nargs, shape, dtype, func):
    arrays = [make_data(shape, dtype, seed=k) for k in range(nargs)]
    if func is scaled_max:
        return arrays[:1], [2.5]
    return arrays, []


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.float16], ids=dtype_id)
@pytest.mark.parametrize("func,nargs", FUNCS, ids=[f.__name__ for f, _ in FUNCS])
def test_fused_reduction_kernels_compile_in_ci(func, nargs, dtype):
    fused = cp.fuse(func)
    kinds = tuple([np.dtype(dtype)] * nargs) + ((float,) if func is scaled_max else ())
    if func is masked_min:
        kinds = (np.dtype(dtype), np.dtype(dtype))
    if func is scaled_max:
        kinds = (np.dtype(dtype), float)
    handle = fused._compile(kinds).handle
    for layout, vec, partial in ((0, 2, True), (1, 1, False), (2, 1, False)):
        src = _core._fused_source(handle, layout=layout, vec=vec, partial=partial)
        assert _compile_together([src])[:4] == b"\x7fELF"


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(3, 4, 5), (1000,), (64, 1, 33), (2, 3, 4097)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.float16], ids=dtype_id)
@pytest.mark.parametrize("func,nargs", FUNCS, ids=[f.__name__ for f, _ in FUNCS])
def test_fused_reductions_match_unfused(func, nargs, dtype, shape):
    if (func is masked_min and len(shape) < 3) or (func is int_prod and len(shape) < 2):
        pytest.skip("reduces axes the shape lacks")
    arrays, scalars = _args(nargs, shape, dtype, func)
    args = [cp.asarray(a) for a in arrays] + scalars
    expected = func(*args)
    got = cp.fuse(func)(*args)
    tol = {"rtol": 5e-3, "atol": 0.5} if np.dtype(dtype) == np.float16 else {"rtol": 1e-5}
    assert_same(got, expected.get(), **tol)


@pytest.mark.gpu
def test_fused_reduction_is_compiled_once_per_signature():
    f = cp.fuse(squared_diff_sum)
    x, y = cp.arange(10, dtype=cp.float32), cp.ones(10, dtype=cp.float32)
    assert float(f(x, y)) == float(((cp.arange(10.0) - 1) ** 2).sum())
    f(x, y)
    assert len(f._plans) == 1
    f(x.astype(cp.float64), y)
    assert len(f._plans) == 2


def test_reductions_one_kernel_cannot_end_in_run_op_by_op():
    f4 = (np.dtype(np.float32),)
    assert cp.fuse(lambda x: cp.sum(x) + x)._plan(f4) is None  # a reduced value with an array
    assert cp.fuse(lambda x: cp.sum(x) + 1)._plan(f4) is not None  # with constants alone: the kernel's post
    assert cp.fuse(lambda x: cp.argmax(x * 2))._plan(f4) is None  # a reduction no kernel row maps
    assert cp.fuse(lambda x: (cp.sum(x), cp.max(x)))._plan(f4) is None  # two reductions


@pytest.mark.gpu
def test_fused_reduction_runs_no_python_after_the_first_call():
    f = cp.fuse(squared_diff_sum)
    x, y = cp.arange(10, dtype=cp.float32), cp.ones(10, dtype=cp.float32)
    first = float(f(x, y))

    def refuse(args):
        raise AssertionError("a known signature asked Python for its kernel")

    f._entry = refuse
    assert float(f(x, y)) == first == float(((cp.arange(10.0) - 1) ** 2).sum())
    assert float(f(x[::2], y[1::2])) == float(((cp.arange(0.0, 10.0, 2) - 1) ** 2).sum())


@pytest.mark.gpu
@pytest.mark.parametrize("scalar", [np.float16(1.5), np.float32(0.25), 3, 2.5, np.int8(-2)], ids=repr)
def test_fused_reduction_with_scalar_arguments(scalar):
    x = cp.asarray(make_data((4, 9), np.float16, seed=5))
    assert_same(cp.fuse(scaled_max)(x, scalar), scaled_max(x, scalar).get())
    assert_same(
        cp.fuse(lambda a, s: cp.sum(a * s, axis=0))(x, scalar),
        cp.sum(x * scalar, axis=0).get(),
        rtol=5e-3,
        atol=0.5,
    )


def test_fused_reduction_of_scalars_alone_calls_the_function():
    assert cp.fuse(lambda a: np.sum(a * 2))(3.0) == 6.0
