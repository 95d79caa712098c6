"""NumPy's behaviour where an audit against NumPy found cuarray's to differ, each compared with NumPy on the same
input: lstsq's rank and rcond in double precision, svd/pinv/matrix_rank with hermitian=True (eigh of the lower
triangle), qr's deprecated modes, norms of empty arrays, norm's axis= as int(axis), einsum's, dot's and
multi_dot's checks of `out` (and einsum's messages for operands whose sizes differ), and tensordot's integer
axes."""

import os
import sys
import warnings

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing
from cuarray._products import _tensordot_axes

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from linalghelpers import INEXACT, assert_rel, host, random, same_error, tol

ids = [t.name for t in INEXACT]
gpu = pytest.mark.gpu


# lstsq: NumPy computes in double precision, with float64's eps in the default rcond, and takes LAPACK's gelsd
# meaning of an rcond outside (0, 1).


@gpu
@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@testing.numpy_cuarray_allclose(rtol=1e-6, contiguous_check=False)
def test_lstsq_rank_uses_float64_eps(xp, dtype):
    a = xp.asarray(np.diag([1.0, 1e-8]).astype(dtype))
    return xp.linalg.lstsq(a, xp.ones(2, dtype))  # x = [1, 1e8], rank 2 for every dtype


@gpu
@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@testing.numpy_cuarray_allclose(rtol=1e-5, atol=1e-6, contiguous_check=False)
def test_lstsq_of_rank_deficient_single_precision(xp, dtype):
    """Rank 1 in double precision; float32's SVD alone would leave singular values of about 1e-7 (rank 3)."""
    a = np.outer(np.arange(1.0, 7.0), np.arange(1.0, 4.0)).astype(dtype)
    return xp.linalg.lstsq(xp.asarray(a), xp.arange(6.0).astype(dtype))


@gpu
@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@testing.numpy_cuarray_allclose(rtol=1e-5, contiguous_check=False)
def test_lstsq_overdetermined_results_in_single_precision(xp, dtype):
    a, b = random((8, 3), dtype, 1), random((8, 2), dtype, 2)
    return xp.linalg.lstsq(xp.asarray(a), xp.asarray(b))


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("rcond", [None, -1, 0, 1e-300, 0.3, 0.5, 1.0, 1.5, np.nan], ids=str)
@pytest.mark.parametrize("diag", [[1.0, 1e-17], [1.0, 1e-16], [1.0, 2e-16], [1.0, 0.5, 0.25]], ids=str)
@testing.numpy_cuarray_allclose(rtol=1e-6, contiguous_check=False)
def test_lstsq_rcond_as_gelsd_takes_it(xp, dtype, rcond, diag):
    """rcond <= 0 or >= 1 is 2**-53 (singular values up to it are dropped), NaN keeps every one."""
    a = xp.asarray(np.diag(diag).astype(dtype))
    return xp.linalg.lstsq(a, xp.ones(len(diag), dtype), rcond=rcond)


# svd, pinv and matrix_rank with hermitian=True: NumPy's eigh of the lower triangle.


def _not_hermitian(shape, dtype, seed=0):
    """Random square matrices whose lower triangle defines a Hermitian matrix unlike the whole (with a real
    diagonal, which is all a Hermitian matrix's diagonal can hold)."""
    a = random(shape, dtype, seed)
    i = np.arange(shape[-1])
    a[..., i, i] = a[..., i, i].real
    return a


@gpu
@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 5, 5), (1, 1), (0, 0)], ids=str)
def test_svd_hermitian_reads_the_lower_triangle(dtype, shape):
    a = _not_hermitian(shape, dtype)
    u, s, vh = cp.linalg.svd(cp.asarray(a), hermitian=True)
    nu, ns, nvh = np.linalg.svd(a, hermitian=True)
    for got, want in ((u, nu), (s, ns), (vh, nvh)):
        assert got.dtype == want.dtype and got.shape == want.shape
    if not a.size:
        return
    np.testing.assert_allclose(host(s), ns, rtol=tol(dtype, 100), atol=tol(dtype, 100))
    # The eigenvectors may differ in sign (phase); the product is NumPy's (the lower triangle's Hermitian matrix).
    assert_rel((host(u) * host(s)[..., None, :]) @ host(vh), (nu * ns[..., None, :]) @ nvh, tol(dtype, 100))
    k = shape[-1]
    uh_u = np.conj(np.swapaxes(host(u), -1, -2)) @ host(u)
    assert_rel(uh_u, np.broadcast_to(np.eye(k), uh_u.shape), tol(dtype, 100))
    s_only = cp.linalg.svd(cp.asarray(a), compute_uv=False, hermitian=True)
    np.testing.assert_allclose(host(s_only), ns, rtol=tol(dtype, 100), atol=tol(dtype, 100))


@gpu
def test_svd_hermitian_order_and_signs_are_numpys():
    """Singular values descending, equal ones with the later eigenvalue first; Vh carries the signs."""
    a = np.diag([1.0, -1.0, 2.0, -0.5])
    a[0, 3] = 7.0  # upper triangle: not read
    u, s, vh = cp.linalg.svd(cp.asarray(a), hermitian=True)
    nu, ns, nvh = np.linalg.svd(a, hermitian=True)
    np.testing.assert_allclose(host(s), ns, rtol=1e-14)
    np.testing.assert_allclose(np.abs(host(u)), np.abs(nu), atol=1e-14)
    # vh[i] is sign(eigenvalue i) * conj(u[:, i]): without the eigenvectors' own signs, NumPy's.
    np.testing.assert_allclose(host(vh) * np.sign(host(u)).T, nvh * np.sign(nu).T, atol=1e-14)


@gpu
@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 5)], ids=str)
@testing.numpy_cuarray_allclose(
    rtol={"float32": 1e-4, "default": 1e-10}, atol={"float32": 1e-5, "default": 1e-12}
)
def test_svdvals_hermitian(xp, dtype, shape):
    return xp.linalg.svd(xp.asarray(_not_hermitian(shape, dtype)), compute_uv=False, hermitian=True)


@gpu
@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 5)], ids=str)
def test_pinv_hermitian(dtype, shape):
    a = _not_hermitian(shape, dtype, 3)
    got, want = cp.linalg.pinv(cp.asarray(a), hermitian=True), np.linalg.pinv(a, hermitian=True)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert_rel(got, want, tol(dtype, 1000))


@gpu
@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@testing.numpy_cuarray_array_equal()
def test_matrix_rank_hermitian(xp, dtype):
    """Lower triangles of Hermitian matrices of rank 1 and 2 under random upper ones (the whole: full rank)."""
    low = np.zeros((2, 4, 4))
    low[0, :2, :2] = [[1, 0], [1, 1]]  # [[1, 1], [1, 1]]: eigenvalues 2 and 0
    low[1, 0, 0], low[1, 1, 1] = 2, 3
    a = (low + np.triu(random((2, 4, 4), dtype, 5), 1)).astype(dtype)
    return xp.linalg.matrix_rank(xp.asarray(a), hermitian=True), xp.linalg.matrix_rank(xp.asarray(a))


@gpu
def test_svd_hermitian_errors_are_numpys():
    same_error(lambda xp: xp.linalg.svd(xp.ones((2, 3)), hermitian=True))
    same_error(lambda xp: xp.linalg.svd(xp.ones(3), hermitian=True))
    same_error(lambda xp: xp.linalg.matrix_rank(xp.ones((2, 3)), hermitian=True))


@gpu
def test_pinv_rtol_none_takes_the_input_dtypes_eps():
    """finfo of a's own dtype: float32's eps for float32 (rank 1 here), and NumPy's error for integers."""
    a = np.diag([1.0, 1e-7]).astype(np.float32)
    np.testing.assert_allclose(host(cp.linalg.pinv(cp.asarray(a), rtol=None)), np.linalg.pinv(a, rtol=None))
    same_error(lambda xp: xp.linalg.pinv(xp.eye(2, dtype=np.int64), rtol=None))


# qr's deprecated modes


def _recorded(f):
    """f()'s result and the DeprecationWarnings it gave, as (category, message)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = f()
    return result, [
        (w.category, str(w.message)) for w in caught if issubclass(w.category, DeprecationWarning)
    ]


@gpu
@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("mode", ["full", "f"])
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (2, 5, 3)], ids=str)
def test_qr_full_is_reduced_with_numpys_warning(dtype, mode, shape):
    a = random(shape, dtype)
    (q, r), got = _recorded(lambda: cp.linalg.qr(cp.asarray(a), mode=mode))
    (nq, nr), want = _recorded(lambda: np.linalg.qr(a, mode=mode))
    assert got == want and len(want) == 1 and want[0][0] is DeprecationWarning
    assert q.shape == nq.shape and r.shape == nr.shape and q.dtype == nq.dtype and r.dtype == nr.dtype
    assert_rel(host(q) @ host(r), a, tol(dtype, 10))
    np.testing.assert_allclose(np.abs(host(r)), np.abs(nr), atol=tol(dtype, 100) * np.abs(a).max())


@gpu
@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("mode", ["economic", "e"])
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (2, 5, 3), (0, 3)], ids=str)
def test_qr_economic_is_h_with_numpys_warning(dtype, mode, shape):
    a = random(shape, dtype)
    h, got = _recorded(lambda: cp.linalg.qr(cp.asarray(a), mode=mode))
    nh, want = _recorded(lambda: np.linalg.qr(a, mode=mode))
    assert got == want and len(want) == 1 and want[0][0] is DeprecationWarning
    assert isinstance(h, cp.ndarray) and h.shape == nh.shape and h.dtype == nh.dtype
    assert h.flags.c_contiguous and nh.flags.c_contiguous
    k, scale = min(shape[-2:]), np.abs(a).max(initial=0)
    r = np.triu(host(h)[..., :k, :])  # R on and above the diagonal (the reflectors below): raw's h transposed
    np.testing.assert_allclose(r, host(cp.linalg.qr(cp.asarray(a), mode="r")), atol=tol(dtype) * scale)
    np.testing.assert_allclose(np.abs(r), np.abs(np.triu(nh[..., :k, :])), atol=tol(dtype, 100) * scale)
    raw_h = host(cp.linalg.qr(cp.asarray(a), mode="raw")[0])
    np.testing.assert_allclose(host(h), np.swapaxes(raw_h, -1, -2), atol=tol(dtype) * scale)


@gpu
def test_qr_unknown_mode_is_numpys_error():
    same_error(lambda xp: xp.linalg.qr(xp.ones((2, 2)), mode="economical"))


# Norms of empty arrays: NumPy 2.4 takes max(..., initial=0) for ord inf (vectors), 1, inf, 2 (matrices).

VECTOR_ORDS = [None, 2, np.inf, -np.inf, 0, 1, -1, 3, 0.5]
MATRIX_ORDS = [None, "fro", "nuc", np.inf, -np.inf, 1, -1, 2, -2]


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
@testing.numpy_cuarray_allclose(accept_error=ValueError)
def test_vector_norms_of_empty_arrays(xp, dtype, ord, keepdims):
    with np.errstate(divide="ignore"):  # NumPy's 0 ** (1 / ord) for negative orders
        return (
            xp.linalg.norm(xp.zeros(0, dtype), ord, keepdims=keepdims),
            xp.linalg.vector_norm(xp.zeros(0, dtype), ord=2 if ord is None else ord, keepdims=keepdims),
            xp.linalg.norm(xp.zeros((2, 0), dtype), ord, axis=1, keepdims=keepdims),
            xp.linalg.vector_norm(xp.zeros((3, 0, 2), dtype), ord=2 if ord is None else ord, axis=(1, 0)),
        )


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=str)
@pytest.mark.parametrize("shape", [(2, 0), (0, 2), (0, 0), (3, 2, 0), (3, 0, 2)], ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
@testing.numpy_cuarray_allclose(accept_error=ValueError)
def test_matrix_norms_of_empty_matrices(xp, dtype, ord, shape, keepdims):
    x = xp.zeros(shape, dtype)
    results = [xp.linalg.norm(x, ord, axis=(-2, -1), keepdims=keepdims)]
    results.append(xp.linalg.matrix_norm(x, ord="fro" if ord is None else ord, keepdims=keepdims))
    if len(shape) == 2:
        results.append(xp.linalg.norm(x, ord, keepdims=keepdims))
    return tuple(results)


@gpu
def test_empty_norm_errors_are_numpys():
    same_error(lambda xp: xp.linalg.norm(xp.zeros(0), -np.inf))
    same_error(lambda xp: xp.linalg.norm(xp.zeros((2, 0)), -1))
    same_error(lambda xp: xp.linalg.matrix_norm(xp.zeros((0, 2)), ord=-2))


# norm's and vector_norm's axis= taken as int(axis)

AXES = [1.0, "1", 1.7, True, np.int64(1), -1.0, [1], [0, 1], "x", 2.0, (1.0,), (1,), (0, 1)]


@gpu
@pytest.mark.parametrize("axis", AXES, ids=repr)
@testing.numpy_cuarray_allclose(rtol=1e-12, accept_error=True)
def test_norm_axis_as_numpy_reads_it(xp, axis):
    m = xp.asarray(np.arange(6.0).reshape(2, 3))
    return xp.linalg.norm(m, axis=axis), xp.linalg.norm(m, 1, axis=axis)


@gpu
@pytest.mark.parametrize("axis", AXES, ids=repr)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("ord", [2, np.inf])
@testing.numpy_cuarray_allclose(rtol=1e-12, accept_error=True)
def test_vector_norm_axis_as_numpy_reads_it(xp, axis, keepdims, ord):
    m = xp.asarray(np.arange(6.0).reshape(2, 3))
    return xp.linalg.vector_norm(m, axis=axis, keepdims=keepdims, ord=ord)


@gpu
def test_norm_axis_messages_are_numpys():
    m = np.arange(6.0).reshape(2, 3)
    same_error(lambda xp: xp.linalg.norm(xp.asarray(m), axis=[1]))
    same_error(lambda xp: xp.linalg.norm(xp.asarray(m), axis="x"))
    same_error(lambda xp: xp.linalg.vector_norm(xp.asarray(m), axis=1.0, keepdims=True))
    same_error(lambda xp: xp.linalg.vector_norm(xp.asarray(m), axis=2.0))


# einsum's out: NumPy's number of dimensions, shape and casting checks (Note [einsum's out])

A, B, V = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4), np.arange(3.0)

EINSUM_OUT_ERRORS = [  # (subscripts, operands, out shape, out dtype, exact message)
    ("ij,jk->ik", (A, B), (1, 2, 4), "float64", True),
    ("ij,jk->ik", (A, B), (8,), "float64", True),
    ("i,i->", (V, V), (1,), "float64", True),
    ("i,i", (V, V), (1, 1), "float64", True),
    ("i->i", (V,), (1, 3), "float64", True),
    ("ij->", (A,), (1,), "float64", True),
    ("ij,jk->ik", (A, B), (2, 1), "float64", True),
    ("i->i", (V,), (1,), "float64", True),
    ("ij,jk->ik", (A, B), (2, 5), "float64", False),
    ("ij,jk->ik", (A, B), (4, 2), "float64", False),
    ("ij->j", (A,), (2,), "float64", False),
    ("ij,jk->ik", (A, B), (2, 4), "float32", True),
    ("ij,jk->ik", (A, B), (2, 4), "int64", True),
]


@gpu
@pytest.mark.parametrize("subscripts, operands, shape, dtype, exact", EINSUM_OUT_ERRORS, ids=str)
def test_einsum_out_errors_are_numpys(subscripts, operands, shape, dtype, exact):
    same_error(
        lambda xp: xp.einsum(subscripts, *map(xp.asarray, operands), out=xp.zeros(shape, dtype)), exact=exact
    )


@gpu
@pytest.mark.parametrize("optimize", [False, True])
@pytest.mark.parametrize("out", [None, (2, 4)], ids=str)
def test_einsum_size_mismatch_messages_are_numpys(optimize, out):
    """NumPy's iterator's message (every operand remapped onto its axes, out last), or einsum_path's."""
    for subscripts, shapes in (
        ("ij,jk->ik", ((2, 3), (2, 4))),
        ("ij,jk,kl->il", ((2, 3), (3, 4), (5, 4))),
        ("...i,...i->...i", ((2, 3), (5, 3))),
    ):
        kwargs = {"optimize": optimize}
        if out is not None and subscripts == "ij,jk->ik":
            kwargs["out"] = out

        def f(xp, subscripts=subscripts, shapes=shapes, kwargs=kwargs):
            if "out" in kwargs:
                kwargs = dict(kwargs, out=xp.zeros(kwargs["out"]))
            return xp.einsum(subscripts, *(xp.ones(s) for s in shapes), **kwargs)

        same_error(
            f, exact="..." not in subscripts or not optimize
        )  # einsum_path names the ellipsis a letter


EINSUM_OUT_OK = [  # (subscripts, operands, out shape, out dtype, kwargs)
    ("ij,jk->ik", (A, B), (2, 4), "float64", {}),
    ("ij,jk->ik", (A, B), (2, 4), "complex128", {}),
    ("ij,jk->ik", (A, B), (2, 4), "float32", {"casting": "same_kind"}),
    ("ij,jk->ik", (A[:1], B), (2, 4), "float64", {}),  # a length-1 result broadcasts into out
    ("i,i->i", (V[:1] + 2, V[:1] + 3), (3,), "float64", {}),
    ("i,i->", (V, V), (), "float64", {}),
    ("ij->ji", (A,), (3, 2), "float64", {}),
    ("ij,jk->ik", (A, B), (1, 2, 4), "float64", {"optimize": True}),  # NumPy's matmul into out broadcasts
]


@gpu
@pytest.mark.parametrize("subscripts, operands, shape, dtype, kwargs", EINSUM_OUT_OK, ids=str)
@testing.numpy_cuarray_allclose()
def test_einsum_out_accepted_as_numpy(xp, subscripts, operands, shape, dtype, kwargs):
    out = xp.zeros(shape, dtype)
    result = xp.einsum(subscripts, *map(xp.asarray, operands), out=out, **kwargs)
    assert result is out
    return out


# dot and multi_dot: out exactly the (last) product's dtype, shape and C-contiguous


@gpu
@pytest.mark.parametrize(
    "out",
    [((1, 3), "float64"), ((3,), "float32"), ((3,), "complex128"), ((), "float64"), ((1,), "float64")],
    ids=str,
)
def test_dot_of_a_0d_operand_takes_only_an_exact_out(out):
    shape, dtype = out
    for a, b in ((np.array(2.0), np.arange(3.0)), (np.arange(3.0), np.array(2.0))):
        same_error(lambda xp, a=a, b=b: xp.dot(xp.asarray(a), xp.asarray(b), out=xp.zeros(shape, dtype)))
    same_error(lambda xp: xp.dot(xp.asarray(2.0), xp.arange(6.0)[::2], out=xp.zeros(6)[::2]))
    same_error(
        lambda xp: xp.dot(xp.asarray(2.0), xp.arange(3.0, dtype=np.float32), out=xp.zeros(3, np.float32))
    )


@gpu
@testing.numpy_cuarray_allclose()
def test_dot_of_a_0d_operand_into_out(xp):
    out = xp.zeros(3)
    assert xp.dot(xp.asarray(2.0), xp.arange(3.0), out=out) is out
    out32 = xp.zeros(3, np.float32)
    xp.dot(xp.asarray(2.0, dtype=np.float32), xp.arange(3.0, dtype=np.float32), out=out32)
    return out, out32


@gpu
def test_dot_out_check_order_is_numpys():
    """The number of dimensions, dtype and layout first ('not acceptable'), then the shape."""
    a, b = np.ones((2, 3)), np.ones((3, 4))
    same_error(lambda xp: xp.dot(xp.asarray(a), xp.asarray(b), out=xp.zeros(8)))
    same_error(lambda xp: xp.dot(xp.asarray(a), xp.asarray(b), out=xp.zeros((4, 2))))
    same_error(lambda xp: xp.dot(xp.asarray(a), xp.asarray(b), out=xp.zeros((2, 5), np.float32)))


@gpu
@pytest.mark.parametrize(
    "shapes, out_shape",
    [
        (((3,), (3, 4), (4, 2)), (1, 2)),
        (((2, 3), (3, 4), (4,)), (2, 1)),
        (((3,), (3, 4), (4, 5), (5,)), (1, 1)),
        (((2, 3), (3, 4), (4, 5), (5, 2)), (2, 2)),
    ],
    ids=str,
)
def test_multi_dot_out_is_the_last_products(shapes, out_shape):
    arrays = [random(s, "float64", i) for i, s in enumerate(shapes)]
    out, nout = cp.zeros(out_shape), np.zeros(out_shape)
    got = cp.linalg.multi_dot([cp.asarray(x) for x in arrays], out=out)
    want = np.linalg.multi_dot(arrays, out=nout)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(host(got), want, rtol=1e-12)
    np.testing.assert_allclose(host(out), nout, rtol=1e-12)  # the result is (a view of) out
    if np.ndim(want):
        assert np.shares_memory(want, nout)
        got[...] = 7.0
        assert (host(out) == 7.0).all()
    wrong = (out_shape[0] * out_shape[1],)
    same_error(lambda xp: xp.linalg.multi_dot([xp.asarray(x) for x in arrays], out=xp.zeros(wrong)))


# tensordot's integer axes: N <= 0 an outer product, N past a's or b's dimensions an IndexError

TENSORDOT_AXES = [-1, -2, 0, 1, 2, 3, 4, True, np.int64(1), ([1], [0]), (1, 0), ([], []), ([1, 1], [0, 0])]
TENSORDOT_MORE = [([5], [0]), ([-5], [0]), ([1.0], [0]), ([1], [0, 1]), ([0, -1], [1, 0]), 1.0]


@pytest.mark.parametrize("axes", TENSORDOT_AXES + TENSORDOT_MORE, ids=repr)
@pytest.mark.parametrize("shapes", [((2, 3), (3, 4, 5)), ((3, 4, 5), (2, 3)), ((3,), (3,))], ids=str)
def test_tensordot_axes_read_as_numpy(axes, shapes):
    """No device: the axes cuarray sums over (or its error) against NumPy's result shape (or error)."""
    a, b = np.ones(shapes[0]), np.ones(shapes[1])
    try:
        want = np.tensordot(a, b, axes).shape
    except Exception as e:  # noqa: BLE001 - compared with cuarray's
        with pytest.raises(type(e)) as got:
            _tensordot_axes(axes, a, b)
        assert str(got.value) == str(e)
        return
    a_axes, b_axes = _tensordot_axes(axes, a, b)
    free = [n for d, n in enumerate(a.shape) if d not in a_axes] + [
        n for d, n in enumerate(b.shape) if d not in b_axes
    ]
    assert tuple(free) == want
    assert [a.shape[d] for d in a_axes] == [b.shape[d] for d in b_axes]


@gpu
@pytest.mark.parametrize("axes", [-1, -3, 0, 1], ids=str)
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_tensordot_integer_axes(xp, axes, dtype):
    m, t = random((2, 3), dtype, 1), random((3, 4, 2), dtype, 2)
    return xp.tensordot(xp.asarray(m), xp.asarray(t), axes)


@gpu
def test_tensordot_errors_are_numpys():
    m, t = np.ones((2, 3)), np.ones((3, 4, 5))
    same_error(lambda xp: xp.tensordot(xp.asarray(m), xp.asarray(t), 3))
    same_error(lambda xp: xp.tensordot(xp.asarray(m), xp.asarray(t), ([1, 1], [0, 0])))
