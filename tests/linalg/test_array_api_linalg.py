"""The array API's linalg functions (matrix_norm, vector_norm, svdvals, outer, diagonal, trace, matrix_transpose,
vecdot, cross) and NumPy's multi_dot and cond against numpy.linalg: dtypes, stacks, views, NumPy's errors."""

import os
import sys

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same, make_data

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from linalghelpers import INEXACT, assert_rel, random, same_error, tol, well_conditioned

pytestmark = pytest.mark.gpu

ids = [t.name for t in INEXACT]


@pytest.mark.parametrize("dtype", INEXACT + [np.dtype("int32"), np.dtype("float16")], ids=lambda t: t.name)
@pytest.mark.parametrize("ord", [2, 1, 0, np.inf, -np.inf, 3, -1.5])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2), (2, 0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_vector_norm(dtype, ord, axis, keepdims):
    a = make_data((3, 4, 5), dtype) / (16 if dtype == np.float16 else 1)  # float16 sums of cubes stay finite
    x = cp.asarray(a)[:, ::-1]
    a = a[:, ::-1]
    want = np.linalg.vector_norm(a, axis=axis, keepdims=keepdims, ord=ord)
    got = cp.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert_rel(got, want, 2e-3 if dtype == np.float16 else tol(np.result_type(want.dtype, np.float32), 10))


def test_vector_norm_errors_are_numpys():
    same_error(lambda xp: xp.linalg.vector_norm(xp.ones((2, 3)), axis=(0, 0)))
    same_error(lambda xp: xp.linalg.vector_norm(xp.ones((2, 3)), axis=2))
    same_error(lambda xp: xp.linalg.vector_norm(xp.ones(3), ord="fro"))


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm(dtype, ord, keepdims):
    a = random((2, 4, 3), dtype)
    want = np.linalg.matrix_norm(a, keepdims=keepdims, ord=ord)
    got = cp.linalg.matrix_norm(cp.asarray(a), keepdims=keepdims, ord=ord)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert_rel(got, want, tol(dtype, 10))


def test_matrix_norm_errors_are_numpys():
    same_error(lambda xp: xp.linalg.matrix_norm(xp.ones(3)))
    same_error(lambda xp: xp.linalg.matrix_norm(xp.ones((2, 2)), ord=3))


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5), (1, 1), (0, 3)], ids=str)
def test_svdvals(dtype, shape):
    a = random(shape, dtype)
    want = np.linalg.svdvals(a)
    got = cp.linalg.svdvals(cp.asarray(a))
    assert got.dtype == want.dtype and got.shape == want.shape
    assert_rel(got, want, tol(dtype, 10))
    same_error(lambda xp: xp.linalg.svdvals(xp.ones(3)))


def test_outer_diagonal_trace_matrix_transpose():
    a, b = make_data((4,), np.float32), make_data((3,), np.int16, seed=1)
    x, y = cp.asarray(a), cp.asarray(b)
    assert_same(cp.linalg.outer(x, y), np.linalg.outer(a, b))
    same_error(lambda xp: xp.linalg.outer(xp.ones((2, 2)), xp.ones(3)))
    m = make_data((2, 4, 5), np.int32)
    z = cp.asarray(m)
    for offset in (-2, 0, 1, 7):
        assert_same(cp.linalg.diagonal(z, offset=offset), np.linalg.diagonal(m, offset=offset))
        assert_same(cp.linalg.trace(z, offset=offset), np.linalg.trace(m, offset=offset))
    assert cp.linalg.diagonal(z).base is not None  # a view
    assert_same(cp.linalg.trace(z, dtype=np.float32), np.linalg.trace(m, dtype=np.float32))
    assert_same(cp.linalg.matrix_transpose(z), np.linalg.matrix_transpose(m))
    same_error(lambda xp: xp.linalg.diagonal(xp.ones(3)))


@pytest.mark.parametrize("dtype", ["float32", "complex128", "int64"])
def test_linalg_vecdot(dtype):
    a, b = make_data((3, 4), dtype), make_data((4,), dtype, seed=2)
    assert_same(cp.linalg.vecdot(cp.asarray(a), cp.asarray(b)), np.linalg.vecdot(a, b))
    assert_same(
        cp.linalg.vecdot(cp.asarray(a.T), cp.asarray(b)[:, None], axis=0),
        np.linalg.vecdot(a.T, b[:, None], axis=0),
    )


@pytest.mark.parametrize(
    "shapes",
    [
        [(3, 4), (4, 5)],
        [(2, 3), (3, 4), (4, 2)],
        [(10, 2), (2, 30), (30, 3), (3, 7)],
        [(4,), (4, 6), (6, 3), (3,)],
        [(4,), (4, 2), (2, 5)],
        [(6, 3), (3, 2), (2,)],
        [(5, 1), (1, 40), (40, 2), (2, 9), (9, 3)],
    ],
    ids=str,
)
@pytest.mark.parametrize("dtype", ["float64", "complex64"])
def test_multi_dot(shapes, dtype):
    arrays = [random(s, dtype, seed=i) for i, s in enumerate(shapes)]
    want = np.linalg.multi_dot(arrays)
    got = cp.linalg.multi_dot([cp.asarray(a) for a in arrays])
    assert got.dtype == want.dtype and got.shape == np.shape(want)
    assert_rel(got, want, tol(dtype, 10))


def test_multi_dot_out_and_errors():
    arrays = [random(s, np.float64, seed=i) for i, s in enumerate([(2, 3), (3, 4), (4, 5)])]
    out = cp.empty((2, 5))
    got = cp.linalg.multi_dot([cp.asarray(a) for a in arrays], out=out)
    assert got is out
    assert_rel(out, np.linalg.multi_dot(arrays), 1e-12)
    same_error(lambda xp: xp.linalg.multi_dot([xp.ones((2, 2))]))
    same_error(lambda xp: xp.linalg.multi_dot([xp.ones((2, 2)), xp.ones((2, 2, 2)), xp.ones((2, 2))]))


@pytest.mark.parametrize("dtype", INEXACT + [np.dtype("int64")], ids=lambda t: t.name)
@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, np.inf, -np.inf, "fro", "nuc"])
def test_cond(dtype, p):
    a = (
        well_conditioned((3, 4, 4), dtype)
        if dtype.kind != "i"
        else make_data((4, 4), dtype) + 20 * np.eye(4, dtype=dtype)
    )
    want = np.linalg.cond(a, p)
    got = cp.linalg.cond(cp.asarray(a), p)
    assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)
    assert_rel(got, want, tol(np.result_type(want, np.float32), 100))


@pytest.mark.parametrize("p", [None, 1, np.inf, "fro"])
def test_cond_of_singular_and_nan_matrices(p):
    a = np.stack([np.eye(3), np.ones((3, 3))])
    with np.errstate(all="ignore"):
        want = np.linalg.cond(a, p)
    got = cp.linalg.cond(cp.asarray(a), p).get()
    assert got[0] == pytest.approx(want[0])
    assert want[1] > 1e15 and (np.isinf(got[1]) or got[1] > 1e15)
    if p is not None:  # NumPy's SVD refuses NaNs; its inverse gives NaN, which stays NaN here
        a[1, 0, 0] = np.nan
        with np.errstate(all="ignore"):
            want = np.linalg.cond(a, p)
        got = cp.linalg.cond(cp.asarray(a), p).get()
        assert np.isnan(got[1]) and np.isnan(want[1])


def test_cond_errors_are_numpys():
    same_error(lambda xp: xp.linalg.cond(xp.ones((0, 3))))
    same_error(lambda xp: xp.linalg.cond(xp.ones(3)))
    same_error(lambda xp: xp.linalg.cond(xp.ones((2, 3)), 1))
