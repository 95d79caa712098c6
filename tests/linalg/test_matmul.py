"""matmul and the @ operator against NumPy: every dtype, 1-D/2-D/stacked operands with broadcasting, memory
layouts cuBLAS cannot take directly, out=, dtype=, the operator slots, NumPy's dispatch and NumPy's errors;
TF32 on and off."""

import os
import sys

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, describe, dtype_id, make_data, run_python

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from linalghelpers import assert_rel, host, random, same_error

try:
    import ml_dtypes
except ImportError:  # bfloat16 tests skip
    ml_dtypes = None

pytestmark = pytest.mark.gpu

# (a shape, b shape): vectors, matrices, stacks, broadcasting stacks, and zero-size and k = 0 cases.
SHAPES = [
    ((3,), (3,)),
    ((2, 3), (3,)),
    ((3,), (3, 4)),
    ((2, 3), (3, 4)),
    ((1, 5), (5, 1)),
    ((5, 2, 3), (3, 4)),
    ((2, 3), (5, 3, 4)),
    ((5, 1, 2, 3), (4, 3, 2)),
    ((3,), (2, 3, 4)),
    ((2, 2, 3), (3,)),
    ((0, 3), (3, 4)),
    ((2, 3), (3, 0)),
    ((2, 0), (0, 4)),
    ((0,), (0,)),
    ((0, 2, 3), (3, 4)),
]


def _check(got, want):
    __tracebackhide__ = True
    assert isinstance(got, cp.ndarray)
    assert got.dtype == want.dtype, f"dtype {got.dtype} != {want.dtype}"
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    g = host(got)
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(g, want)
    elif want.dtype == np.float16:
        np.testing.assert_allclose(g.astype(np.float32), want.astype(np.float32), rtol=2e-3, atol=1e-2)
    else:  # make_data's values (multiples of 1/8) multiply and add exactly in float32 and float64
        np.testing.assert_allclose(g, want, rtol=1e-6 if want.dtype.char in "fF" else 1e-13)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_matmul_matches_numpy(dtype, shapes):
    a, b = make_data(shapes[0], dtype, 1), make_data(shapes[1], dtype, 2)
    _check(cp.matmul(cp.asarray(a), cp.asarray(b)), np.matmul(a, b))
    _check(cp.asarray(a) @ cp.asarray(b), a @ b)


@pytest.mark.parametrize(
    "pair",
    [
        ("int8", "uint8"),
        ("float16", "int64"),
        ("complex64", "float64"),
        ("bool", "int8"),
        ("float32", "int32"),
        ("uint64", "int64"),
        ("float16", "float32"),
    ],
    ids=str,
)
def test_mixed_dtypes_promote_as_numpy(pair):
    a, b = make_data((3, 4), pair[0], 1), make_data((4, 2), pair[1], 2)
    _check(cp.asarray(a) @ cp.asarray(b), a @ b)


def _views(x):
    """(name, numpy view, cuarray view) of the same values in layouts cuBLAS takes directly and ones it does not."""
    d = cp.asarray(x)
    yield "c", x, d
    yield "f", np.asfortranarray(x), cp.asfortranarray(d)
    big = np.repeat(np.repeat(x, 2, axis=-2), 3, axis=-1)
    dbig = cp.asarray(big)
    yield "strided", big[..., ::2, ::3], dbig[..., ::2, ::3]
    flipped = np.ascontiguousarray(x[..., ::-1, ::-1])
    dflipped = cp.asarray(flipped)
    yield "negative", flipped[..., ::-1, ::-1], dflipped[..., ::-1, ::-1]
    t = np.ascontiguousarray(np.swapaxes(x, -1, -2))
    yield "transposed", np.swapaxes(t, -1, -2), cp.asarray(t).swapaxes(-1, -2)


@pytest.mark.parametrize("dtype", ["float32", "complex128", "int32", "float16"])
def test_layouts(dtype):
    a, b = make_data((2, 4, 5), dtype, 1), make_data((2, 5, 3), dtype, 2)
    for na, a_np, a_cp in _views(a):
        for nb, b_np, b_cp in _views(b):
            _check(cp.matmul(a_cp, b_cp), np.matmul(a_np, b_np))
    # Broadcast (zero-stride) operands: a row repeated, a stack dimension repeated.
    row = make_data((1, 5), dtype, 3)
    _check(cp.broadcast_to(cp.asarray(row), (4, 5)) @ cp.asarray(b[0]), np.broadcast_to(row, (4, 5)) @ b[0])
    _check(
        cp.broadcast_to(cp.asarray(a[0]), (3, 4, 5)) @ cp.asarray(b[0]),
        np.broadcast_to(a[0], (3, 4, 5)) @ b[0],
    )


@pytest.mark.parametrize("dtype", ["float64", "int16"])
def test_stacks_that_do_not_coalesce(dtype):
    # a's stack strides are (s, 0) and b's (0, s) over the broadcast (3, 2): one strided-batched call per row.
    a, b = make_data((3, 1, 4, 5), dtype, 1), make_data((1, 2, 5, 6), dtype, 2)
    _check(cp.asarray(a) @ cp.asarray(b), a @ b)
    # A permuted stack.
    c = make_data((4, 3, 2, 5), dtype, 3)
    _check(cp.asarray(c).transpose(1, 0, 2, 3) @ cp.asarray(b[0, 0]), c.transpose(1, 0, 2, 3) @ b[0, 0])


def test_large_stacked_float32():
    a, b = random((8, 64, 96), "float32", 1), random((96, 80), "float32", 2)
    assert_rel(cp.asarray(a) @ cp.asarray(b), a.astype(np.float64) @ b.astype(np.float64), 1e-5)


@pytest.mark.parametrize(
    "dtype", ["float32", "float64", "complex64", "complex128", "float16", "int64", "bool"]
)
def test_vector_dot(dtype):
    n = 100_000 if dtype != "float16" else 1000
    a, b = make_data(n, dtype, 1), make_data(n, dtype, 2)
    if dtype == "float16":
        a, b = (a / 16).astype(dtype), (b / 16).astype(dtype)
    got = cp.asarray(a) @ cp.asarray(b)
    want = a @ b
    assert got.shape == () and got.dtype == want.dtype
    if want.dtype.kind in "biu":
        assert host(got) == want
    else:
        ref = a.astype(np.complex128) @ b.astype(np.complex128)
        scale = np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64)
        assert abs(complex(host(got)) - ref) <= (1e-3 if dtype == "float16" else 1e-6) * scale


def test_vector_dot_strided_and_negative():
    x, y = make_data(301, "float64", 1), make_data(301, "float64", 2)
    dx, dy = cp.asarray(x), cp.asarray(y)
    for sx, sy in [
        (slice(None, None, 2), slice(None, None, 2)),
        (slice(None, None, -1), slice(None)),
        (slice(None, None, -3), slice(None, None, 3)),
    ]:
        got = dx[sx][:50] @ dy[sy][:50]
        assert host(got) == pytest.approx(x[sx][:50] @ y[sy][:50], rel=1e-13)
    assert host(cp.broadcast_to(dx[:1], (7,)) @ dy[:7]) == pytest.approx(x[0] * y[:7].sum(), rel=1e-13)


@pytest.mark.skipif(ml_dtypes is None, reason="needs ml_dtypes")
def test_bfloat16_computes_in_float32_as_numpy():
    a = make_data((3, 4), "float32", 1).astype(ml_dtypes.bfloat16)
    b = make_data((4, 2), "float32", 2).astype(ml_dtypes.bfloat16)
    got = cp.asarray(a) @ cp.asarray(b)
    want = a @ b
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_allclose(host(got), want, rtol=1e-6)


def test_integer_products_wrap_as_numpy():
    a = np.full((3, 300), 100, np.int8)
    b = np.full((300, 2), 77, np.int8)
    _check(cp.asarray(a) @ cp.asarray(b), a @ b)
    u = np.full((2, 1000), 60000, np.uint16)
    _check(cp.asarray(u) @ cp.asarray(u.T), u @ u.T)
    big = np.array([[2**62, 3]], np.int64)
    _check(cp.asarray(big) @ cp.asarray(big.T), big @ big.T)


def test_bool_products_are_or_of_and():
    a = np.array([[True, False, False], [False, False, False]])
    b = np.array([[False, True], [True, True], [False, False]])
    _check(cp.asarray(a) @ cp.asarray(b), a @ b)


def test_out():
    a, b = make_data((3, 4), "float32", 1), make_data((4, 5), "float32", 2)
    da, db = cp.asarray(a), cp.asarray(b)
    want = a @ b
    out = cp.empty((3, 5), np.float32)
    assert cp.matmul(da, db, out=out) is out
    _check(out, want)
    out_f = cp.empty((3, 5), np.float32, order="F")
    assert cp.matmul(da, db, out_f) is out_f
    _check(out_f, want)
    big = cp.zeros((6, 10), np.float32)
    view = big[::2, ::2]
    assert cp.matmul(da, db, out=view) is view
    _check(view, want)
    assert float(cp.abs(big[1::2]).get().sum()) == 0.0  # the rows between were not written
    out64 = cp.empty((3, 5), np.float64)
    cp.matmul(da, db, out=out64)
    _check(out64, want.astype(np.float64))
    stacked = cp.empty((2, 3, 5), np.float32)  # out's extra stack dimension receives the product twice
    cp.matmul(da, db, out=stacked)
    _check(stacked, np.broadcast_to(want, (2, 3, 5)).copy())


def test_out_overlapping_an_input():
    a = make_data((4, 4), "float64", 1)
    b = make_data((4, 4), "float64", 2)
    da = cp.asarray(a)
    cp.matmul(da, cp.asarray(b), out=da)
    _check(da, a @ b)
    d = cp.asarray(a)
    cp.matmul(d.T @ d, d, out=d)  # out is the second operand
    _check(d, (a.T @ a) @ a)
    e = cp.asarray(a)
    cp.matmul(e[:2], e[:, 1:3], out=e[2:, :2])  # out overlaps both operands in part
    want = a.copy()
    want[2:, :2] = a[:2] @ a[:, 1:3]
    _check(e, want)


def test_out_casting_error_matches_numpy():
    err = same_error(
        lambda xp: xp.matmul(
            xp.asarray(np.ones((2, 3))), xp.asarray(np.ones((3, 2))), out=xp.empty((2, 2), np.int32)
        )
    )
    assert isinstance(err, TypeError)


def test_dtype_keyword():
    a, b = make_data((3, 4), "float64", 1), make_data((4, 2), "float64", 2)
    _check(cp.matmul(cp.asarray(a), cp.asarray(b), dtype=np.float32), np.matmul(a, b, dtype=np.float32))
    same_error(lambda xp: xp.matmul(xp.asarray(a), xp.asarray(b), dtype=np.int32))


def test_operator_methods_and_inplace():
    a, b = make_data((3, 3), "int32", 1), make_data((3, 3), "int32", 2)
    da, db = cp.asarray(a), cp.asarray(b)
    _check(da.__matmul__(db), a @ b)
    _check(db.__rmatmul__(da), a @ b)
    x = da.copy()
    x @= db
    _check(x, a @ b)
    v = cp.asarray(a[0])
    v @= db
    _check(v, a[0] @ b)


def test_inplace_errors_match_numpy():
    def shape_change(xp):
        x = xp.asarray(np.ones((2, 3)))
        x @= xp.asarray(np.ones((3, 4)))

    def vector_right(xp):
        x = xp.asarray(np.ones((2, 3)))
        x @= xp.asarray(np.ones(3))

    def cast(xp):
        x = xp.asarray(np.ones((2, 2), np.int64))
        x @= xp.asarray(np.ones((2, 2)))

    same_error(shape_change)
    same_error(vector_right)
    same_error(cast)


@pytest.mark.parametrize(
    "shapes",
    [((2, 3), (2, 3)), ((3,), (4,)), ((2, 2, 3), (3, 3, 4)), ((5, 3, 4), (2, 4, 1)), ((3,), (3, 2, 4))],
    ids=str,
)
def test_shape_errors_match_numpy(shapes):
    same_error(lambda xp: xp.matmul(xp.asarray(np.ones(shapes[0])), xp.asarray(np.ones(shapes[1]))))


@pytest.mark.parametrize("scalar", [2, 2.5, np.float32(2)], ids=repr)
def test_scalar_operands_match_numpy(scalar):
    same_error(lambda xp: xp.matmul(xp.asarray(np.ones((2, 2))), scalar))
    same_error(lambda xp: xp.matmul(scalar, xp.asarray(np.ones((2, 2)))))
    same_error(lambda xp: xp.asarray(np.ones((2, 2))) @ scalar)
    same_error(lambda xp: scalar @ xp.asarray(np.ones((2, 2))))


def test_out_shape_errors_match_numpy():
    a, b = np.ones((2, 3)), np.ones((3, 4))
    for out_shape in [(3, 4), (2, 5), (4,)]:
        same_error(lambda xp, shape=out_shape: xp.matmul(xp.asarray(a), xp.asarray(b), out=xp.empty(shape)))
    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        cp.matmul(cp.ones((2, 3, 4)), cp.ones((4, 5)), out=cp.empty((1, 3, 5)))


def test_host_arrays_and_lists_are_refused():
    d = cp.ones((2, 2))
    with pytest.raises(TypeError, match="asarray"):
        cp.matmul(d, np.ones((2, 2)))
    with pytest.raises(TypeError, match="asarray"):
        d @ np.ones((2, 2))
    with pytest.raises(TypeError):
        d @ [[1, 2], [3, 4]]
    with pytest.raises(TypeError, match="asarray"):  # with axes= too
        cp.matmul(d, np.ones((2, 2)), axes=[(0, 1), (0, 1), (0, 1)])


def test_numpy_matmul_dispatches_to_cuarray():
    a, b = make_data((3, 4), "float64", 1), make_data((4, 2), "float64", 2)
    da, db = cp.asarray(a), cp.asarray(b)
    _check(np.matmul(da, db), a @ b)
    out = cp.empty((3, 2))
    assert np.matmul(da, db, out=out) is out
    _check(out, a @ b)


def test_on_a_non_default_stream():
    a, b = make_data((64, 64), "float32", 1), make_data((64, 64), "float32", 2)
    with cp.cuda.Stream() as s:
        da, db = cp.asarray(a), cp.asarray(b)
        c = da @ db
        d = da[0] @ db[:, 0]
        s.synchronize()
    _check(c, a @ b)
    _check(d, a[0] @ b[:, 0])
    _check(cp.asarray(a) @ cp.asarray(b), a @ b)  # and back on the null stream


TF32_CHILD = """
import json
import numpy as np
import cuarray as cp
rng = np.random.default_rng(0)
a = rng.standard_normal((512, 512)).astype(np.float32)
b = rng.standard_normal((512, 512)).astype(np.float32)
got = (cp.asarray(a) @ cp.asarray(b)).get().astype(np.float64)
want = a.astype(np.float64) @ b.astype(np.float64)
print(json.dumps({"tf32": cp._core.linalg.tf32(), "err": float(np.linalg.norm(got - want) / np.linalg.norm(want))}))
"""


@pytest.mark.parametrize(
    "env, on",
    [({}, False), ({"CUARRAY_TF32": "1"}, True), ({"CUPY_TF32": "1"}, True), ({"CUARRAY_TF32": "0"}, False)],
    ids=str,
)
def test_tf32_from_environment(env, on):
    import json

    full = {"CUARRAY_TF32": None, "CUPY_TF32": None, **env}
    proc = run_python(code=TF32_CHILD, env=full, timeout=300)
    assert proc.returncode == 0, describe(proc)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["tf32"] is on
    if on:  # TF32 keeps 10 mantissa bits of each input: errors near 1e-4
        assert 3e-5 < result["err"] < 1e-2, result
    else:  # full float32: errors near 1e-7
        assert result["err"] < 3e-6, result


COMPUTE_TYPES_MATMUL_CHILD = """
import json
import numpy as np
import cuarray as cp
rng = np.random.default_rng(0)
a = rng.standard_normal((512, 512)).astype(np.float32)
b = rng.standard_normal((512, 512)).astype(np.float32)
want = a.astype(np.float64) @ b.astype(np.float64)
err = {}
for name in ("DEFAULT", "TF32", "PEDANTIC", "TBD"):
    cp.linalg.set_compute_type(np.float32, getattr(cp.linalg, "COMPUTE_TYPE_" + name))
    got = (cp.asarray(a) @ cp.asarray(b)).get().astype(np.float64)
    err[name] = float(np.linalg.norm(got - want) / np.linalg.norm(want))
print(json.dumps(err))
"""


def test_compute_type_switches_matmul_at_run_time():
    """set_compute_type changes how the next float32 product computes (Note [Compute types]): TF32 loses
    precision, DEFAULT and PEDANTIC compute in full float32, TBD goes back to the environment's choice."""
    import json

    proc = run_python(
        code=COMPUTE_TYPES_MATMUL_CHILD, env={"CUARRAY_TF32": None, "CUPY_TF32": None}, timeout=300
    )
    assert proc.returncode == 0, describe(proc)
    err = json.loads(proc.stdout.strip().splitlines()[-1])
    assert 3e-5 < err["TF32"] < 1e-2, err
    assert err["DEFAULT"] < 3e-6 and err["PEDANTIC"] < 3e-6 and err["TBD"] < 3e-6, err


@pytest.fixture
def compute_type_restored():
    saved = {t: cp.linalg.get_compute_type(t) for t in (np.float16, np.float32, np.float64)}
    yield
    for t, c in saved.items():
        cp.linalg.set_compute_type(t, c)


@pytest.mark.parametrize("compute_type", ["DEFAULT", "PEDANTIC", "TF32", "FP32", "BF16"])
@pytest.mark.parametrize(
    "dtypes",
    [
        ("float16", "float16"),
        ("float32", "float32"),
        ("float32", "complex64"),
        ("float64", "float64"),
        ("float32", "complex128"),
        ("complex128", "complex128"),
    ],
    ids=str,
)
@pytest.mark.parametrize(
    "shapes", [((100, 200), (200, 300)), ((3, 20, 30), (30, 10)), ((8, 8), (8, 8))], ids=str
)
def test_matmul_under_each_compute_type(compute_type, dtypes, shapes, compute_type_restored):
    """CuPy's TestMatmul*ComputeTypes: every compute type gives NumPy's result, to TF32's precision where
    TF32 is allowed, for cuBLAS's products and the small-product kernel alike."""
    value = getattr(cp.linalg, "COMPUTE_TYPE_" + compute_type)
    for t in (np.float16, np.float32, np.float64):
        cp.linalg.set_compute_type(t, value)
    a, b = make_data(shapes[0], dtypes[0], 1) / 8, make_data(shapes[1], dtypes[1], 2) / 8
    got, want = cp.asarray(a) @ cp.asarray(b), a @ b
    assert got.dtype == want.dtype
    low = compute_type == "TF32" or np.dtype(dtypes[0]) == np.float16
    single = want.dtype in (np.float32, np.complex64)
    tol = 2e-2 if np.dtype(dtypes[0]) == np.float16 else 1e-3 if low and single else 1e-5 if single else 1e-12
    scale = np.abs(want).max()
    np.testing.assert_allclose(host(got), want, rtol=0, atol=tol * scale)
