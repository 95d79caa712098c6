"""dot, vdot, inner, outer, tensordot, kron, trace and einsum against NumPy, with NumPy's errors."""

import os
import sys

import cuarray as cp
import numpy as np
import pytest
from conftest import make_data

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from linalghelpers import host, same_error

pytestmark = pytest.mark.gpu

DTYPES = ["float64", "float32", "complex128", "int32", "bool", "float16"]


def _check(got, want):
    __tracebackhide__ = True
    want = np.asarray(want)
    assert isinstance(got, cp.ndarray)
    assert got.dtype == want.dtype, f"dtype {got.dtype} != {want.dtype}"
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(host(got), want)
    elif want.dtype == np.float16:
        np.testing.assert_allclose(host(got).astype(np.float32), want.astype(np.float32), rtol=2e-3, atol=0.1)
    else:
        np.testing.assert_allclose(host(got), want, rtol=1e-6 if want.dtype.char in "fF" else 1e-12)


def _pair(sa, sb, dtype):
    a, b = make_data(sa, dtype, 1), make_data(sb, dtype, 2)
    return a, b, cp.asarray(a), cp.asarray(b)


DOT_SHAPES = [
    ((3,), (3,)),
    ((2, 3), (3,)),
    ((3,), (3, 4)),
    ((2, 3), (3, 4)),
    ((2, 3, 4), (4,)),
    ((4,), (2, 4, 5)),
    ((2, 3, 4), (4, 5)),
    ((2, 3), (5, 3, 4)),
    ((2, 3, 4), (5, 4, 6)),
    ((), (3,)),
    ((2, 2), ()),
    ((0,), (0,)),
    ((2, 0), (0, 3)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", DOT_SHAPES, ids=str)
def test_dot(dtype, shapes):
    a, b, da, db = _pair(*shapes, dtype)
    _check(cp.dot(da, db), np.dot(a, b))
    _check(da.dot(db), a.dot(b))


def test_dot_out_and_its_errors():
    a, b, da, db = _pair((2, 3), (3, 4), "float64")
    out = cp.empty((2, 4))
    assert cp.dot(da, db, out=out) is out
    _check(out, a @ b)
    a3, b3, da3, db3 = _pair((2, 3, 4), (5, 4, 2), "float64")
    out3 = cp.empty((2, 3, 5, 2))
    assert cp.dot(da3, db3, out=out3) is out3
    _check(out3, np.dot(a3, b3))
    same_error(lambda xp: xp.dot(xp.asarray(a), xp.asarray(b), out=xp.empty((2, 4), np.float32)))
    same_error(lambda xp: xp.dot(xp.asarray(a), xp.asarray(b), out=xp.empty((3, 4))))
    same_error(lambda xp: xp.dot(xp.asarray(a), xp.asarray(b), out=xp.empty((4, 2)).T))


@pytest.mark.parametrize("shapes", [((2, 3), (2, 3)), ((3,), (4,)), ((2, 3, 4), (5, 3, 2))], ids=str)
def test_dot_errors_match_numpy(shapes):
    same_error(lambda xp: xp.dot(xp.asarray(np.ones(shapes[0])), xp.asarray(np.ones(shapes[1]))))


@pytest.mark.parametrize("dtype", DTYPES + ["complex64"])
def test_vdot(dtype):
    a, b, da, db = _pair((3, 4), (2, 6), dtype)
    _check(cp.vdot(da, db), np.vdot(a, b))
    _check(cp.vdot(da.T, db), np.vdot(a.T, b))  # flattened in C order of the transposed view
    same_error(lambda xp: xp.vdot(xp.asarray(np.ones(3)), xp.asarray(np.ones(4))))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "shapes", [((3,), (3,)), ((2, 3), (3,)), ((2, 3), (4, 3)), ((2, 3, 4), (5, 4)), ((), (2,))], ids=str
)
def test_inner(dtype, shapes):
    a, b, da, db = _pair(*shapes, dtype)
    _check(cp.inner(da, db), np.inner(a, b))


def test_inner_error_matches_numpy():
    same_error(lambda xp: xp.inner(xp.asarray(np.ones((2, 3))), xp.asarray(np.ones((2, 4)))))


@pytest.mark.parametrize("dtype", DTYPES)
def test_outer(dtype):
    a, b, da, db = _pair((3, 2), (5,), dtype)
    _check(cp.outer(da, db), np.outer(a, b))
    out = cp.empty((6, 5), np.outer(a, b).dtype)
    assert cp.outer(da, db, out=out) is out
    _check(out, np.outer(a, b))


@pytest.mark.parametrize("dtype", ["float64", "complex64", "int64", "bool"])
@pytest.mark.parametrize(
    "case",
    [
        ((2, 3, 4), (3, 4, 5), 2),
        ((2, 3), (3, 2), ([1, 0], [0, 1])),
        ((2, 3), (4, 5), 0),
        ((3, 4), (4, 3), (1, 0)),
        ((2, 3, 4), (4, 3, 2), ([2, 1], [0, 1])),
        ((2, 3), (2, 3), 2),
        ((3, 0), (0, 2), 1),
    ],
    ids=str,
)
def test_tensordot(dtype, case):
    a, b, da, db = _pair(case[0], case[1], dtype)
    _check(cp.tensordot(da, db, case[2]), np.tensordot(a, b, case[2]))


def test_tensordot_errors_match_numpy():
    same_error(
        lambda xp: xp.tensordot(xp.asarray(np.ones((2, 3))), xp.asarray(np.ones((3, 2))), axes=([1, 0], [0]))
    )
    same_error(
        lambda xp: xp.tensordot(xp.asarray(np.ones((2, 3))), xp.asarray(np.ones((2, 3))), axes=([0], [1]))
    )


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "shapes", [((2, 3), (4, 5)), ((2,), (3, 4)), ((2, 2, 2), (3,)), ((), (2,)), ((0, 2), (3,))], ids=str
)
def test_kron(dtype, shapes):
    a, b, da, db = _pair(*shapes, dtype)
    _check(cp.kron(da, db), np.kron(a, b))


@pytest.mark.parametrize("dtype", DTYPES + ["uint8", "int8"])
@pytest.mark.parametrize(
    "case", [((3, 3), ()), ((3, 4), (1,)), ((2, 3, 4), (0, 1, 2)), ((3, 4), (-1,)), ((2, 0), ())], ids=str
)
def test_trace(dtype, case):
    a = make_data(case[0], dtype, 1)
    _check(cp.trace(cp.asarray(a), *case[1]), np.trace(a, *case[1]))
    _check(cp.asarray(a).trace(*case[1]), a.trace(*case[1]))


def test_trace_dtype_and_out():
    a = make_data((4, 4), "int8", 1)
    _check(cp.trace(cp.asarray(a), dtype=np.float32), np.trace(a, dtype=np.float32))
    out = cp.empty((), np.int64)
    assert cp.trace(cp.asarray(a), out=out) is out
    _check(out, np.trace(a))


EINSUM = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ii", [(3, 3)]),
    ("ii->i", [(3, 3)]),
    ("ij->ji", [(2, 3)]),
    ("i,i", [(3,), (3,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("...ij,...jk", [(5, 2, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ij,ij->ij", [(1, 3), (2, 3)]),
    ("i,i->i", [(3,), (1,)]),
    ("ijk->", [(2, 3, 4)]),
    ("ijk->k", [(2, 3, 4)]),
    ("iij->j", [(3, 3, 2)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ij,ik,jk->", [(2, 3), (2, 4), (3, 4)]),
    ("i,j,i->ij", [(1,), (2,), (3,)]),
    ("i...j,j...->...i", [(2, 3, 4, 5), (5, 4)]),
    ("...,...", [(2,), (3, 2)]),
    ("ab,cd->abcd", [(2, 3), (4, 5)]),
    ("Ba", [(2, 3)]),
    ("ijij->ij", [(2, 3, 2, 3)]),
    ("ij,jk->", [(0, 3), (3, 4)]),
    ("ij,jk->ik", [(2, 0), (0, 4)]),
    ("i,ij->j", [(3,), (3, 1)]),
    ("ij,i->", [(3, 4), (1,)]),
    ("i", [(3,)]),
    ("", [()]),
    ("ij->", [(2, 3)]),
]


@pytest.mark.parametrize("dtype", ["float64", "complex64", "int16", "bool"])
@pytest.mark.parametrize("case", EINSUM, ids=lambda c: c[0] or "empty")
def test_einsum(dtype, case):
    subscripts, shapes = case
    ops = [make_data(s, dtype, i + 1) for i, s in enumerate(shapes)]
    _check(cp.einsum(subscripts, *[cp.asarray(o) for o in ops]), np.einsum(subscripts, *ops))


def test_einsum_interleaved_out_dtype_and_views():
    a, b = make_data((2, 3), "float64", 1), make_data((3,), "float64", 2)
    da, db = cp.asarray(a), cp.asarray(b)
    _check(cp.einsum(da, [0, 1], db, [1], [0]), np.einsum(a, [0, 1], b, [1], [0]))
    _check(
        cp.einsum("ij,j->i", da, db, dtype=np.float32, casting="same_kind"),
        np.einsum("ij,j->i", a, b, dtype=np.float32, casting="same_kind"),
    )
    out = cp.empty(2)
    assert cp.einsum("ij,j->i", da, db, out=out) is out
    _check(out, np.einsum("ij,j->i", a, b))
    t = cp.einsum("ij->ji", da)  # a pure transpose is a view, as in NumPy
    t[0, 0] = 100.0
    assert float(da[0, 0].get()) == 100.0
    d = cp.einsum("ii->i", cp.asarray(make_data((3, 3), "float64", 3)))
    _check(d, np.diagonal(make_data((3, 3), "float64", 3)))


@pytest.mark.parametrize(
    "subscripts, shapes",
    [("i,i", [(3,), (4,)]), ("ii", [(2, 3)]), ("i", [(2, 3)]), ("ij,jk->ik", [(2, 3), (4, 5)])],
    ids=str,
)
def test_einsum_errors_match_numpy(subscripts, shapes):
    exact = subscripts in ("ii", "i")  # broadcast failures are worded differently
    same_error(lambda xp: xp.einsum(subscripts, *[xp.asarray(np.ones(s)) for s in shapes]), exact=exact)
    same_error(lambda xp: xp.einsum("i->", xp.asarray(np.ones(3)), dtype=np.int32))
