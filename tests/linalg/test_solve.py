"""det, slogdet, inv, solve, lstsq, matrix_power, matrix_rank, pinv, tensorsolve and tensorinv against NumPy:
every dtype (integers computed in float64), stacks and broadcasting, singular matrices, NumPy's errors."""

import os
import sys

import cuarray as cp
import numpy as np
import pytest
from conftest import make_data
from cuarray import testing

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from linalghelpers import INEXACT, assert_rel, host, random, same_error, tol, well_conditioned

pytestmark = pytest.mark.gpu

ids = [t.name for t in INEXACT]
SQUARE = [(4, 4), (3, 5, 5), (2, 2, 3, 3), (1, 1), (0, 0), (2, 0, 0), (64, 64)]


def _dtype_of(got, want):
    __tracebackhide__ = True
    assert isinstance(got, cp.ndarray)
    assert got.dtype == np.asarray(want).dtype, f"dtype {got.dtype} != {np.asarray(want).dtype}"
    assert got.shape == np.shape(want), f"shape {got.shape} != {np.shape(want)}"


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("shape", SQUARE, ids=str)
def test_det_and_slogdet(dtype, shape):
    n = shape[-1]  # scaled so that determinants stay far from overflow in single precision
    a = (well_conditioned(shape, dtype) / n).astype(dtype) if n else np.zeros(shape, dtype)
    got, want = cp.linalg.det(cp.asarray(a)), np.linalg.det(a)
    _dtype_of(got, want)
    np.testing.assert_allclose(host(got), want, rtol=tol(dtype, 100))
    sign, logdet = cp.linalg.slogdet(cp.asarray(a))
    nsign, nlogdet = np.linalg.slogdet(a)
    _dtype_of(sign, nsign)
    _dtype_of(logdet, nlogdet)
    np.testing.assert_allclose(host(sign), nsign, rtol=tol(dtype, 100), atol=tol(dtype, 100))
    np.testing.assert_allclose(host(logdet), nlogdet, rtol=tol(dtype, 100), atol=tol(dtype, 100))


@pytest.mark.parametrize("dtype", ["int32", "bool", "int64"])
def test_det_of_integers_is_float64(dtype):
    a = make_data((4, 4), dtype, 3)
    got, want = cp.linalg.det(cp.asarray(a)), np.linalg.det(a)
    _dtype_of(got, want)
    np.testing.assert_allclose(host(got), want, rtol=1e-10, atol=1e-8)


def test_det_of_singular_and_permuted_matrices():
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    assert host(cp.linalg.det(cp.asarray(singular))) == 0.0
    sign, logdet = cp.linalg.slogdet(cp.asarray(singular))
    assert host(sign) == 0.0 and host(logdet) == -np.inf
    p = np.eye(5)[[3, 0, 4, 1, 2]]  # an odd-or-even permutation: the pivots' parity decides the sign
    assert host(cp.linalg.det(cp.asarray(p))) == pytest.approx(np.linalg.det(p))
    c = np.diag([1j, 2.0, -1.0]).astype(np.complex128)
    np.testing.assert_allclose(host(cp.linalg.det(cp.asarray(c))), np.linalg.det(c))
    np.testing.assert_allclose(host(cp.linalg.slogdet(cp.asarray(c))[0]), np.linalg.slogdet(c)[0])


def test_det_lesson_size_float32():
    a = random((512, 512), "float32", 4)
    sign, logdet = cp.linalg.slogdet(cp.asarray(a))
    nsign, nlogdet = np.linalg.slogdet(a.astype(np.float64))
    assert host(sign) == nsign
    assert host(logdet) == pytest.approx(nlogdet, rel=1e-4)


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("shape", SQUARE, ids=str)
def test_inv(dtype, shape):
    a = well_conditioned(shape, dtype) if shape[-1] else np.zeros(shape, dtype)
    got, want = cp.linalg.inv(cp.asarray(a)), np.linalg.inv(a)
    _dtype_of(got, want)
    if a.size:
        assert_rel(got, want, tol(dtype, 100))
        n = shape[-1]
        assert_rel(a @ host(got), np.broadcast_to(np.eye(n), a.shape), tol(dtype, 100))


def test_inv_of_views_and_integers():
    a = well_conditioned((6, 6), "float64")
    d = cp.asarray(a)
    assert_rel(cp.linalg.inv(d.T), np.linalg.inv(a.T), 1e-12)
    assert_rel(cp.linalg.inv(d[::-1, ::-1]), np.linalg.inv(a[::-1, ::-1]), 1e-12)
    np.testing.assert_array_equal(host(d), a)
    i = np.array([[2, 1], [1, 3]], np.int32)
    got = cp.linalg.inv(cp.asarray(i))
    _dtype_of(got, np.linalg.inv(i))
    assert_rel(got, np.linalg.inv(i), 1e-14)


def test_inv_on_streams():
    a = well_conditioned((100, 100), "float32")
    s1, s2 = cp.cuda.Stream(), cp.cuda.Stream()
    with s1:
        r1 = cp.linalg.inv(cp.asarray(a))
    with s2:
        r2 = cp.linalg.inv(cp.asarray(a))
    s1.synchronize()
    s2.synchronize()
    assert_rel(r1, np.linalg.inv(a.astype(np.float64)), 1e-4)
    assert_rel(r2, np.linalg.inv(a.astype(np.float64)), 1e-4)
    # The results stay right with the checks made later (below).
    b = make_data((100, 3), np.float32)
    e1, e2 = cp.cuda.Event(), cp.cuda.Event()
    with s1:
        x1 = cp.linalg.solve(cp.asarray(a), cp.asarray(b))
        e1.record(s1)
    with s2:
        x2 = cp.linalg.inv(cp.asarray(a)) @ cp.asarray(b)
        e2.record(s2)
    e1.synchronize()
    e2.synchronize()
    expected = np.linalg.solve(a.astype(np.float64), b.astype(np.float64))
    assert_rel(x1, expected, 1e-4)
    assert_rel(x2, expected, 1e-3)


SINGULAR_STACK = np.stack([np.eye(3), 2 * np.eye(3), np.ones((3, 3))])


def _waits():
    """Each way of waiting for the device: it raises the checks of linalg work queued earlier on a stream of
    one's own (Note [Deferred checks])."""

    def event(stream):
        e = cp.cuda.Event()
        e.record(stream)
        e.synchronize()

    return {
        "Stream.synchronize": lambda stream, x: stream.synchronize(),
        "Event.synchronize": lambda stream, x: event(stream),
        "Device.synchronize": lambda stream, x: cp.cuda.Device().synchronize(),
        "get": lambda stream, x: x.get(),
        "item": lambda stream, x: x[0, 0, 0].item(),
    }


@pytest.mark.parametrize("wait", list(_waits()))
@pytest.mark.parametrize("op", ["inv", "solve", "cholesky"])
def test_checks_on_a_stream_of_ones_own_are_raised_at_the_next_wait(op, wait):
    call = {
        "inv": lambda m: cp.linalg.inv(m),
        "solve": lambda m: cp.linalg.solve(m, cp.ones((3, 3, 1))),
        "cholesky": lambda m: cp.linalg.cholesky(m),
    }[op]
    message = "Matrix is not positive definite" if op == "cholesky" else "Singular matrix"
    stream = cp.cuda.Stream()
    with stream:
        m = cp.asarray(SINGULAR_STACK)
        x = call(m)  # returns without waiting for the factorisation
        with pytest.raises(
            np.linalg.LinAlgError, match=message + r" \(cusolverDnX\w+, in work queued earlier"
        ):
            _waits()[wait](stream, x)
        _waits()[wait](stream, x)  # raised once
        # Work that passes its check raises nothing at the wait.
        good = call(cp.asarray(np.stack([2 * np.eye(3)] * 3)))
        _waits()[wait](stream, good)
    # On the null stream the check is made at the call, as NumPy makes it.
    with pytest.raises(np.linalg.LinAlgError, match=f"^{message}$"):
        call(cp.asarray(SINGULAR_STACK))


def test_deferred_checks_belong_to_their_thread():
    import threading

    stream = cp.cuda.Stream()
    with stream:
        cp.linalg.inv(cp.asarray(SINGULAR_STACK))
    errors = []

    def other():
        try:
            stream.synchronize()  # this thread queued nothing that failed
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert errors == []
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        stream.synchronize()


def test_cond_of_a_singular_matrix_on_a_stream_of_ones_own():
    # cond needs inv's check at once: the singular matrices get an infinite condition number.
    m = np.stack([np.eye(3), np.ones((3, 3))])
    with cp.cuda.Stream() as stream:
        got = cp.linalg.cond(cp.asarray(m), 1)
        stream.synchronize()
    np.testing.assert_array_equal(got.get(), np.linalg.cond(m, 1))


def test_singular_matrix_errors_match_numpy():
    same_error(lambda xp: xp.linalg.inv(xp.asarray(np.zeros((2, 2)))))
    same_error(lambda xp: xp.linalg.inv(xp.asarray(np.stack([np.eye(2), np.zeros((2, 2))]))))
    same_error(lambda xp: xp.linalg.solve(xp.asarray(np.zeros((2, 2))), xp.asarray(np.ones(2))))
    same_error(lambda xp: xp.linalg.solve(xp.asarray([[1.0, 2.0], [2.0, 4.0]]), xp.asarray(np.ones((2, 3)))))


@pytest.mark.parametrize("fn", ["det", "slogdet", "inv", "matrix_power", "cholesky", "eigh", "eigvalsh"])
def test_square_and_dimension_errors_match_numpy(fn):
    def call(xp, a):
        f = getattr(xp.linalg, fn)
        return f(a, 2) if fn == "matrix_power" else f(a)

    same_error(lambda xp: call(xp, xp.asarray(np.ones((2, 3)))))
    same_error(lambda xp: call(xp, xp.asarray(np.ones((4, 2, 3)))))
    same_error(lambda xp: call(xp, xp.asarray(np.ones(3))))
    if fn != "matrix_power":
        same_error(lambda xp: call(xp, xp.asarray(np.ones((2, 2), np.float16))))


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize(
    "shapes",
    [
        ((4, 4), (4,)),
        ((4, 4), (4, 3)),
        ((3, 4, 4), (4,)),
        ((3, 4, 4), (3, 4, 2)),
        ((3, 4, 4), (4, 2)),
        ((1, 4, 4), (5, 4, 1)),
        ((0, 0), (0,)),
        ((0, 0), (0, 3)),
        ((4, 4), (4, 0)),
    ],
    ids=str,
)
def test_solve(dtype, shapes):
    a = well_conditioned(shapes[0], dtype) if shapes[0][-1] else np.zeros(shapes[0], dtype)
    b = random(shapes[1], dtype, 3)
    got, want = cp.linalg.solve(cp.asarray(a), cp.asarray(b)), np.linalg.solve(a, b)
    _dtype_of(got, want)
    if want.size:
        assert_rel(got, want, tol(dtype, 100))


def test_solve_mixed_dtypes_and_errors():
    a = well_conditioned((3, 3), "float32")
    b = np.arange(3)
    got, want = cp.linalg.solve(cp.asarray(a), cp.asarray(b)), np.linalg.solve(a, b)
    _dtype_of(got, want)
    assert_rel(got, want, 1e-10)
    same_error(lambda xp: xp.linalg.solve(xp.asarray(np.eye(2)), xp.asarray(np.ones(3))))
    same_error(lambda xp: xp.linalg.solve(xp.asarray(np.eye(2)), xp.asarray(np.ones((3, 1)))))
    same_error(lambda xp: xp.linalg.solve(xp.asarray(np.stack([np.eye(2)] * 3)), xp.asarray(np.ones((3, 2)))))
    same_error(lambda xp: xp.linalg.solve(xp.asarray(np.ones((2, 3))), xp.asarray(np.ones(2))))


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize(
    "shapes",
    [((8, 3), (8,)), ((8, 3), (8, 2)), ((3, 8), (3,)), ((5, 5), (5, 2)), ((0, 3), (0,)), ((4, 3), (4, 0))],
    ids=str,
)
def test_lstsq(dtype, shapes):
    a, b = random(shapes[0], dtype, 1), random(shapes[1], dtype, 2)
    x, res, rank, s = cp.linalg.lstsq(cp.asarray(a), cp.asarray(b))
    nx, nres, nrank, ns = np.linalg.lstsq(a, b)
    _dtype_of(x, nx)
    _dtype_of(res, nres)
    _dtype_of(s, ns)
    assert rank == nrank and type(rank) is type(nrank) is np.int32  # NumPy's scalar type
    if nx.size:
        assert_rel(x, nx, tol(dtype, 100))
    if nres.size:
        np.testing.assert_allclose(host(res), nres, rtol=tol(dtype, 1000))
    if ns.size:
        np.testing.assert_allclose(host(s), ns, rtol=tol(dtype, 100))


def test_lstsq_rank_deficient_and_errors():
    a = np.outer(np.arange(1.0, 7.0), np.arange(1.0, 4.0))
    b = np.arange(6.0)
    x, res, rank, s = cp.linalg.lstsq(cp.asarray(a), cp.asarray(b))
    nx, nres, nrank, ns = np.linalg.lstsq(a, b)
    assert rank == nrank == 1 and res.shape == nres.shape == (0,)
    assert_rel(x, nx, 1e-10)
    np.testing.assert_allclose(host(s), ns, atol=1e-12 * ns[0])
    for rcond in (-1, 0.5):  # a negative rcond is machine precision, as LAPACK's gelsd takes it
        x, res, rank, s = cp.linalg.lstsq(cp.asarray(a), cp.asarray(b), rcond)
        nx, nres, nrank, ns = np.linalg.lstsq(a, b, rcond)
        assert rank == nrank and type(rank) is np.int32, rcond
        assert_rel(x, nx, 1e-8)
    same_error(lambda xp: xp.linalg.lstsq(xp.asarray(np.ones((2, 2, 2))), xp.asarray(np.ones(2))))
    same_error(lambda xp: xp.linalg.lstsq(xp.asarray(np.ones((3, 2))), xp.asarray(np.ones(2))))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, -1, -2])
def test_matrix_power(n):
    a = well_conditioned((2, 4, 4), "float64") / 4
    got, want = cp.linalg.matrix_power(cp.asarray(a), n), np.linalg.matrix_power(a, n)
    _dtype_of(got, want)
    assert_rel(got, want, 1e-11)


def test_matrix_power_integers_and_errors():
    i = make_data((3, 3), "int64", 2) // 10
    got, want = cp.linalg.matrix_power(cp.asarray(i), 5), np.linalg.matrix_power(i, 5)
    _dtype_of(got, want)
    np.testing.assert_array_equal(host(got), want)
    same_error(lambda xp: xp.linalg.matrix_power(xp.asarray(np.eye(2)), 1.5))
    same_error(lambda xp: xp.linalg.matrix_power(xp.asarray(np.zeros((2, 2))), -1))


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
def test_matrix_rank(dtype):
    full = random((6, 6), dtype, 1)
    low = (random((6, 2), dtype, 2) @ random((2, 5), dtype, 3)).astype(dtype)
    stack = np.stack([full[:, :5], low])
    for a in (full, low, stack, np.zeros((3, 3), dtype)):
        got, want = cp.linalg.matrix_rank(cp.asarray(a)), np.linalg.matrix_rank(a)
        np.testing.assert_array_equal(host(got), want)
    assert cp.linalg.matrix_rank(cp.asarray(low), tol=1e-3) == np.linalg.matrix_rank(low, tol=1e-3)
    assert host(cp.linalg.matrix_rank(cp.asarray(full), rtol=0.5)) == np.linalg.matrix_rank(full, rtol=0.5)
    assert cp.linalg.matrix_rank(cp.asarray(np.zeros(3))) == 0
    assert cp.linalg.matrix_rank(cp.asarray(np.ones(3))) == 1
    same_error(lambda xp: xp.linalg.matrix_rank(xp.asarray(full), tol=1.0, rtol=1.0))


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 5, 3), (0, 3)], ids=str)
def test_pinv(dtype, shape):
    a = random(shape, dtype, 1)
    got, want = cp.linalg.pinv(cp.asarray(a)), np.linalg.pinv(a)
    _dtype_of(got, want)
    if want.size:
        assert_rel(got, want, tol(dtype, 1000))


def test_pinv_rank_deficient_and_rtol():
    low = np.outer(np.arange(1.0, 5.0), np.arange(1.0, 4.0))
    assert_rel(cp.linalg.pinv(cp.asarray(low)), np.linalg.pinv(low), 1e-10)
    assert_rel(cp.linalg.pinv(cp.asarray(low), rtol=None), np.linalg.pinv(low, rtol=None), 1e-10)
    same_error(lambda xp: xp.linalg.pinv(xp.asarray(low), rcond=0.1, rtol=0.1))


def test_tensorsolve_and_tensorinv():
    a = well_conditioned((6, 6), "float64").reshape(6, 2, 3)
    b = random((6,), "float64", 2)
    got, want = cp.linalg.tensorsolve(cp.asarray(a), cp.asarray(b)), np.linalg.tensorsolve(a, b)
    _dtype_of(got, want)
    assert_rel(got, want, 1e-11)
    a2 = well_conditioned((24, 24), "float64").reshape(4, 6, 8, 3)
    got, want = cp.linalg.tensorinv(cp.asarray(a2), 2), np.linalg.tensorinv(a2, 2)
    _dtype_of(got, want)
    assert_rel(got, want, 1e-11)
    a3 = well_conditioned((6, 6), "float64").reshape(2, 3, 6)
    got, want = (
        cp.linalg.tensorsolve(cp.asarray(a3), cp.asarray(b), axes=(0, 1)),
        np.linalg.tensorsolve(a3, b, axes=(0, 1)),
    )
    assert_rel(got, want, 1e-11)
    same_error(lambda xp: xp.linalg.tensorsolve(xp.asarray(np.ones((2, 3))), xp.asarray(np.ones(2))))
    same_error(lambda xp: xp.linalg.tensorinv(xp.asarray(np.ones((2, 3))), ind=1))
    same_error(lambda xp: xp.linalg.tensorinv(xp.asarray(np.ones((2, 2))), ind=0))


@testing.for_all_dtypes()
@testing.numpy_cuarray_array_equal()
def test_matrix_power_0_is_the_identity_in_every_dtype(xp, dtype):
    return xp.linalg.matrix_power(xp.ones((2, 3, 3), dtype), 0)


@pytest.mark.parametrize("shape", [(0, 2, 3), (2, 0), (3, 0, 4), (0, 0)], ids=str)
@testing.for_dtypes([np.int32, np.float32, np.float64, np.complex64])
@testing.numpy_cuarray_allclose()
def test_pinv_empty_dtypes(xp, shape, dtype):
    """NumPy keeps an empty matrix's dtype, but an empty stack of non-empty ones takes the SVD's."""
    return xp.linalg.pinv(xp.zeros(shape, dtype))


@pytest.mark.parametrize(
    "a", [[1, 2], [0, 0], [0.0, np.nan], 3.0, [[1, 2], [2, 4]], [[0, 0], [0, 0]]], ids=str
)
@pytest.mark.parametrize("tol", [None, 1])
def test_matrix_rank_is_a_device_scalar(a, tol):
    """NumPy's rank (a Python int below 2-D), as a 0-d int64 device array for every input, as CuPy's."""
    got, want = cp.linalg.matrix_rank(cp.asarray(a), tol=tol), np.linalg.matrix_rank(np.asarray(a), tol=tol)
    assert isinstance(got, cp.ndarray) and got.shape == () and got.dtype == np.int64
    assert int(got) == int(want)


SINGLE = [np.float32, np.complex64]


@pytest.mark.parametrize("dtype", SINGLE, ids=["float32", "complex64"])
def test_thresholds_of_single_precision_are_numpys(dtype):
    # Note [Thresholded SVDs in double precision]: a rank-deficient single-precision matrix's zero singular
    # values are cut as NumPy cuts them (its SVD is in double precision); in single precision pinv kept them
    # (entries of 1e12) and matrix_rank with a small tol counted them.
    low = np.outer(np.arange(1.0, 5.0), np.arange(1.0, 4.0)).astype(dtype)  # rank 1
    sym = np.outer([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]).astype(dtype)
    for a, hermitian in ((low, False), (sym, True), (sym, False)):
        got, want = cp.linalg.pinv(cp.asarray(a), hermitian=hermitian), np.linalg.pinv(a, hermitian=hermitian)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(host(got), want, rtol=1e-4, atol=1e-6)
        for kw in ({}, {"tol": 1e-10}, {"rtol": 1e-10}):
            r = cp.linalg.matrix_rank(cp.asarray(a), hermitian=hermitian, **kw)
            assert int(r) == np.linalg.matrix_rank(a, hermitian=hermitian, **kw) == 1, kw
    singular = np.array([[1.0, 2.0], [2.0, 4.0]], dtype)
    same_error(lambda xp: xp.linalg.cond(xp.asarray(singular), "nuc"))  # the SVD of inv's NaNs, in both
    for p in (None, 2, -2, 1, -1, np.inf, -np.inf, "fro"):
        got, want = cp.linalg.cond(cp.asarray(singular), p), np.linalg.cond(singular, p)
        assert got.dtype == want.dtype, p
        g = host(got)
        if p == -2:  # s.min / s.max: float32's SVD left it near 1e-7
            assert g < 1e-12 and want < 1e-12, (g, want)
        else:
            assert (np.isinf(want) and np.isinf(g)) or (g > 1e15) == (want > 1e15), (p, g, want)
    got, want = cp.linalg.norm(cp.asarray(singular), -2), np.linalg.norm(singular, -2)
    assert got.dtype == want.dtype and abs(float(host(got))) < 1e-12 and abs(want) < 1e-12


def test_det_of_singular_matrices_is_plus_zero():
    # NumPy's sign of a matrix with a zero pivot is +0, whatever the other pivots' signs and the row swaps.
    for rows in (
        [[1.0, 2.0], [2.0, 4.0]],
        [[-1.0, 0.0], [0.0, 0.0]],
        [[0.0, 0.0, 1.0], [0.0, 0.0, 2.0], [1.0, 2.0, 3.0]],
    ):
        for dtype in (np.float32, np.float64, np.complex64, np.complex128):
            a = np.array(rows, dtype)
            d, (s, ld) = cp.linalg.det(cp.asarray(a)), cp.linalg.slogdet(cp.asarray(a))
            nd, (ns, nld) = np.linalg.det(a), np.linalg.slogdet(a)
            testing.assert_array_equal(d, nd, strict=True)
            assert not np.signbit(host(d).real) and not np.signbit(nd.real)
            testing.assert_array_equal(s, ns, strict=True)
            assert np.signbit(host(s).real) == np.signbit(ns.real)
            assert host(ld) == nld == -np.inf


def test_inner_and_cross_errors_are_numpys():
    for b in ((6, 7, 5), (2, 5), (5,), (3, 4, 6, 5)):
        same_error(lambda xp, b=b: xp.inner(xp.ones((2, 3)), xp.ones(b)))
    same_error(lambda xp: xp.cross(xp.asarray(1.0), xp.ones(3)))
    same_error(lambda xp: xp.cross(xp.ones(3), xp.asarray(1.0), axisa=5))
