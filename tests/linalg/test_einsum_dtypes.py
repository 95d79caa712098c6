"""einsum's result dtypes against NumPy: one operand without summation is a view in the operand's own dtype
whatever dtype= says (Note [A view ignores dtype=] in cuarray/_einsum.py); sums cast to dtype=; length-0
dimensions broadcast against length-1 ones."""

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing

pytestmark = pytest.mark.gpu

UNARY = [
    ("ij", (2, 3)),
    ("...", (2, 3)),
    ("ji", (2, 3)),
    ("ij->ji", (1, 3)),
    ("ii->i", (3, 3)),
    ("ijkj->kij", (2, 3, 2, 3)),
    ("ij->", (2, 3)),
    ("ij->i", (2, 3)),
    ("ii", (3, 3)),
    ("i->", (0,)),
    ("ij->j", (0, 3)),
    ("...i->...", (2, 1, 3)),
]
DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.float16, np.float32, np.float64, np.complex64]


def _arange(xp, shape, dtype):
    a = np.arange(1, 1 + int(np.prod(shape))).reshape(shape) % 5
    return xp.asarray(a.astype(dtype))


@pytest.mark.parametrize("subscripts, shape", UNARY, ids=[u[0] or "empty" for u in UNARY])
@pytest.mark.parametrize("dtype_a", DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize(
    "dtype_out",
    [None, np.int64, np.float32, np.float64, np.complex128],
    ids=lambda t: "none" if t is None else np.dtype(t).name,
)
@testing.numpy_cuarray_allclose(rtol={"float16": 1e-2, "default": 1e-6}, contiguous_check=False)
def test_unary_dtype(xp, subscripts, shape, dtype_a, dtype_out):
    if dtype_out is not None and not np.can_cast(dtype_a, dtype_out):
        pytest.skip("not a safe cast")
    return xp.einsum(subscripts, _arange(xp, shape, dtype_a), dtype=dtype_out)


@pytest.mark.parametrize("subscripts", ["ij", "ji", "ii->i"])
def test_unary_view_shares_memory_and_skips_casting(subscripts):
    a = cp.ones((3, 3), dtype=np.float64)
    v = cp.einsum(subscripts, a, dtype=np.int8)  # NumPy: a view, no cast, no casting check
    assert v.dtype == np.float64
    assert cp.shares_memory(v, a)


def test_unary_sum_still_checks_casting():
    with pytest.raises(TypeError, match="could not be cast"):
        cp.einsum("ij->i", cp.ones((2, 3)), dtype=np.int8)


def test_unary_with_out_casts():
    out = cp.empty((3, 2), dtype=np.float32)
    r = cp.einsum("ij->ji", cp.ones((2, 3), dtype=np.float16), out=out, dtype=np.float32)
    assert r is out and r.dtype == np.float32


@testing.for_dtypes([np.int8, np.float32, np.float64, np.complex64])
@testing.numpy_cuarray_allclose()
def test_scalar_operand(xp, dtype):
    return xp.asarray(xp.einsum("->", 2, dtype=dtype)), xp.asarray(xp.einsum("", 2.0, dtype=dtype))


@pytest.mark.parametrize(
    "subscripts, shapes",
    [
        ("ij,i", [(0, 1), (1,)]),
        ("ij...,ji...->i...", [(1, 2, 0), (2, 1, 1)]),
        ("i...,i,...i->...i", [(1, 1, 1), (0,), (1, 1, 1)]),
    ],
)
@testing.numpy_cuarray_allclose()
def test_zero_length_broadcasts_against_one(xp, subscripts, shapes):
    return xp.einsum(subscripts, *[_arange(xp, s, np.float64) for s in shapes])


def _both(call):
    """call(xp) on NumPy and cuarray: the same TypeError/ValueError type, or the same dtype and values."""
    try:
        want = call(np)
    except (TypeError, ValueError) as e:
        with pytest.raises(TypeError if isinstance(e, TypeError) else ValueError):
            call(cp)
        return
    got = call(cp)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(cp.asnumpy(got), want, rtol=1e-6)


M = np.arange(12.0).reshape(3, 4)


@pytest.mark.parametrize("optimize", [False, True, "greedy"])
@pytest.mark.parametrize(
    "subscripts,shape", [("...i->", (3, 4)), ("...i->i", (2, 3, 4)), ("...ij->j", (2, 3, 4))]
)
def test_an_ellipsis_left_out_of_the_output_sums_with_optimize(optimize, subscripts, shape):
    # NumPy's einsum_path names the ellipsis dimensions with letters, which an output without '...' sums;
    # without optimize NumPy's iterator raises ValueError.
    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    _both(lambda xp: xp.einsum(subscripts, xp.asarray(a), optimize=optimize))


@pytest.mark.parametrize("optimize", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.complex64])
@pytest.mark.parametrize("subscripts", ["ij,jk->ik", "ij,ij->i", "i,j->ij"])
def test_dtype_and_out_casts_with_and_without_optimize(optimize, dtype, subscripts):
    # Through einsum_path NumPy's matmuls and multiplies cast the operands same_kind and the result is
    # assigned into out; its one iterator (no optimize) casts safely.
    a, b = {"ij,jk->ik": (M[:, :3], M), "ij,ij->i": (M, M), "i,j->ij": (M[0], M[1])}[subscripts]
    _both(lambda xp: xp.einsum(subscripts, xp.asarray(a), xp.asarray(b), optimize=optimize, dtype=dtype))
    shape = np.einsum(subscripts, a, b).shape

    def into_out(xp):
        out = xp.zeros(shape, dtype)
        r = xp.einsum(subscripts, xp.asarray(a), xp.asarray(b), optimize=optimize, out=out)
        assert r is out
        return out

    if (
        dtype != np.int8
    ):  # (NumPy's last step into an int8 out is a matmul, a multiply or an assignment, by case)
        _both(into_out)
