"""Array creation: empty/zeros/ones/full (and *_like), arange, linspace, eye, identity."""

import cuarray as cp
import numpy as np
import pytest
from conftest import (
    ALL_DTYPES,
    LAYOUT_NAMES,
    SOME_DTYPES,
    assert_same,
    describe,
    dtype_id,
    make_pair,
    run_python,
)

pytestmark = pytest.mark.gpu

SHAPES = [3, (3,), (2, 3), (), (0,), (2, 0, 3), (1, 1, 1), np.int64(4), [2, 3], (np.int32(2), 5)]
SHAPE_IDS = [repr(s) for s in SHAPES]


# ---- empty / zeros / ones / full ----------------------------------------------------------------


@pytest.mark.parametrize("fn", ["empty", "zeros", "ones"])
@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_default_dtype_is_float64(fn, shape):
    x = getattr(cp, fn)(shape)
    e = getattr(np, fn)(shape)
    assert x.dtype == np.float64
    if fn == "empty":
        assert isinstance(x, cp.ndarray) and x.shape == e.shape and x.dtype == e.dtype
    else:
        assert_same(x, e)


@pytest.mark.parametrize("fn", ["empty", "zeros", "ones"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("order", ["C", "F"])
def test_dtype_and_order(fn, dtype, order):
    shape = (3, 4, 2)
    x = getattr(cp, fn)(shape, dtype=dtype, order=order)
    e = getattr(np, fn)(shape, dtype=dtype, order=order)
    assert x.shape == e.shape and x.dtype == e.dtype and x.strides == e.strides
    assert x.flags.c_contiguous == e.flags.c_contiguous
    assert x.flags.f_contiguous == e.flags.f_contiguous
    assert x.flags.owndata and x.base is None
    if fn != "empty":
        assert_same(x, e)


@pytest.mark.parametrize(
    "spec",
    ["f4", "int16", np.uint8, float, int, bool, complex, np.dtype("c8")],
    ids=lambda s: getattr(s, "__name__", str(s)),
)
def test_dtype_specifiers(spec):
    assert_same(cp.zeros(3, dtype=spec), np.zeros(3, dtype=spec))
    assert_same(cp.ones((2, 2), spec), np.ones((2, 2), spec))


@pytest.mark.parametrize("nbytes", [8, 4000, 8192, 65536, 65537, 1 << 20])
def test_zeros_on_reused_memory(nbytes):
    """Small zeros come from blocks zeroed in batches (Note [Zeroed blocks]): dirty blocks of the same size
    first, then more zeros than one batch, on the default stream and on another one."""
    pool = cp.get_default_memory_pool()
    n = nbytes // 8 or 1
    for stream in (None, cp.cuda.Stream(non_blocking=True)):
        with stream if stream is not None else cp.cuda.Stream.null:
            used = pool.used_bytes()
            dirty = [cp.full(n, 7.5) for _ in range(80)]
            del dirty
            zs = [cp.zeros(n) for _ in range(70)] + [cp.zeros((n, 1), dtype=np.float64, order="F")]
            host = cp.asnumpy(cp.stack([z.ravel() for z in zs]))
            assert not host.any()
            for k in range(5):
                zs[k] += 1  # written blocks go back to the ordinary cache, never to the zeroed stock
            del zs
            zs = [cp.zeros(n) for _ in range(40)]
            assert not cp.asnumpy(cp.stack(zs)).any()
            del zs
            assert pool.used_bytes() == used


def test_zeros_stock_is_returned_by_free_all_blocks():
    code = (
        "import cuarray as cp\n"
        "pool = cp.get_default_memory_pool()\n"
        "z = cp.zeros(100)\n"
        "del z\n"
        "held = pool.total_bytes()\n"
        "pool.free_all_blocks()\n"
        "print(held, pool.total_bytes(), pool.used_bytes(), cp.zeros(100).get().any())\n"
    )
    proc = run_python(code=code, timeout=120)
    assert proc.returncode == 0, describe(proc)
    held, total, used, nonzero = proc.stdout.split()
    assert int(held) > 0 and int(total) == 0 and int(used) == 0 and nonzero == "False", proc.stdout


def test_empty_is_writable():
    x = cp.empty((4, 5), dtype=np.int32)
    x[...] = 3
    assert_same(x, np.full((4, 5), 3, dtype=np.int32))


FULL_VALUES = [
    1.5,
    7,
    True,
    False,
    1 + 2j,
    -3,
    np.float32(1.5),
    np.int8(-4),
    np.uint16(9),
    np.complex64(2 - 1j),
    np.float16(0.25),
    0,
    np.nan,
    np.inf,
]


@pytest.mark.parametrize("value", FULL_VALUES, ids=repr)
def test_full_infers_dtype_like_numpy(value):
    assert_same(cp.full(3, value), np.full(3, value))
    assert_same(cp.full((2, 3), value), np.full((2, 3), value))


def test_full_examples_from_spec():
    assert cp.full(3, 1.5).dtype == np.float64
    assert cp.full(3, 7).dtype == np.int64
    assert_same(cp.full(3, 7), np.array([7, 7, 7]))


@pytest.mark.parametrize("value", [7, 2.5, True, np.float32(3.25), 1 - 1j], ids=repr)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_full_with_dtype(dtype, value):
    if np.dtype(dtype).kind != "c" and isinstance(value, complex):
        pytest.skip("complex -> real is tested through astype")
    assert_same(cp.full((2, 3), value, dtype=dtype), np.full((2, 3), value, dtype=dtype))


def test_full_order_f():
    x = cp.full((3, 4), 2, dtype=np.int16, order="F")
    assert x.flags.f_contiguous and not x.flags.c_contiguous
    assert_same(x, np.full((3, 4), 2, dtype=np.int16))


# ---- *_like ---------------------------------------------------------------------------------------

LIKE = ["empty_like", "zeros_like", "ones_like", "full_like"]


def _like(mod, fn, a, **kw):
    if fn == "full_like":
        return getattr(mod, fn)(a, 5, **kw)
    return getattr(mod, fn)(a, **kw)


@pytest.mark.parametrize("fn", LIKE)
@pytest.mark.parametrize("dtype", SOME_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_like(layout, dtype, fn):
    x, a = make_pair(layout, dtype)
    r, e = _like(cp, fn, x), _like(np, fn, a)
    assert isinstance(r, cp.ndarray)
    assert r.shape == e.shape and r.dtype == e.dtype
    assert r.flags.c_contiguous == e.flags.c_contiguous  # order='K' keeps the layout
    assert r.flags.f_contiguous == e.flags.f_contiguous
    assert r.flags.owndata and r.base is None
    if fn != "empty_like":
        assert_same(r, e)


@pytest.mark.parametrize("fn", LIKE)
@pytest.mark.parametrize(
    "kw",
    [
        {"dtype": np.float32},
        {"dtype": np.complex128},
        {"shape": (2, 5)},
        {"shape": 4, "dtype": np.int8},
        {"shape": ()},
        {"dtype": bool},
    ],
    ids=str,
)
@pytest.mark.parametrize("layout", ["c2d", "f2d", "negative", "0d"])
def test_like_dtype_and_shape(layout, kw, fn):
    x, a = make_pair(layout, np.int32)
    r, e = _like(cp, fn, x, **kw), _like(np, fn, a, **kw)
    assert r.shape == e.shape and r.dtype == e.dtype
    if fn != "empty_like":
        assert_same(r, e)


@pytest.mark.parametrize("value", [2.5, -1, True, 1 + 1j], ids=repr)
@pytest.mark.parametrize("dtype", [np.int16, np.uint8, np.float32, np.bool_, np.complex64], ids=dtype_id)
def test_full_like_casts_value_to_dtype_of_input(dtype, value):
    if isinstance(value, complex) and np.dtype(dtype).kind != "c":
        pytest.skip("complex -> real is tested through astype")
    if value == -1 and np.dtype(dtype).kind == "u":
        pytest.skip("out of range for unsigned")
    x, a = make_pair("c2d", dtype)
    assert_same(cp.full_like(x, value), np.full_like(a, value))


# ---- arange -------------------------------------------------------------------------------------

ARANGE_CASES = [
    (10,),
    (0,),
    (-3,),
    (1,),
    (2, 10),
    (10, 2),
    (-5, -1),
    (0, 10, 3),
    (10, 0, -3),
    (10, 0, 3),
    (3, 10, 100),
    (-2, 2, 1),
    (2**40, 2**40 + 3),
    (0, 1, 0.1),
    (1.5,),
    (0, 5, 0.5),
    (-1.5, 2.5, 0.7),
    (0, 0.3, 0.1),
    (1, 1.3, 0.1),
    (5, 1, -0.5),
    (0.5, 4),
    (2, 3.5),
    (0, 1e-3, 1e-4),
    (1.0, 0.0),
    (-0.5,),
]


@pytest.mark.parametrize("args", ARANGE_CASES, ids=repr)
def test_arange_length_and_dtype(args):
    e = np.arange(*args)
    r = cp.arange(*args)
    assert r.dtype == e.dtype
    assert r.shape == e.shape
    assert_same(r, e, atol=1e-12)


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d.kind != "b"], ids=dtype_id)
@pytest.mark.parametrize("args", [(5,), (1, 11, 2), (10, 0, -3)], ids=repr)
def test_arange_with_dtype(args, dtype):
    if np.dtype(dtype).kind == "u" and args[-1] < 0:
        pytest.skip("negative step with an unsigned dtype")
    e = np.arange(*args, dtype=dtype)
    assert_same(cp.arange(*args, dtype=dtype), e)


def test_arange_of_0d_arrays_reads_them_in_their_type():
    # A reduction's 0-d result as a bound: NumPy computes the length and the values in its type (float32 here),
    # where a Python float gives another length for 82 of these 199 stops.
    for k in range(1, 200):
        stop = np.float32(k / 10)
        want = np.arange(0, np.asarray(stop), 0.1)
        got = cp.arange(0, cp.asarray(stop), 0.1)
        assert got.shape == want.shape, (k, got.shape, want.shape)
    lo, hi = np.float32(0.1), np.float32(0.5)
    want = np.arange(np.asarray(lo), np.asarray(hi), 0.1)
    got = cp.arange(cp.asarray(lo), cp.asarray(hi), 0.1)
    assert_same(got, want, atol=1e-12)  # float32 bounds: 0.20000000298..., not 0.2000000014...
    assert cp.arange(cp.asarray(np.uint64(3))).dtype == np.arange(np.asarray(np.uint64(3))).dtype
    # An empty result adds no step to the start (a uint8 start and step -1 would not add), as NumPy's.
    assert_same(cp.arange(cp.asarray(np.uint8(5)), 2, -1), np.arange(np.asarray(np.uint8(5)), 2, -1))
    for dtype in (float, int):  # NumPy converts a 0-d complex start with float() or int()
        with pytest.raises(TypeError) as want:
            np.arange(np.asarray(1 + 0j), 5, dtype=dtype)
        with pytest.raises(TypeError) as got:
            cp.arange(cp.asarray(1 + 0j), 5, dtype=dtype)
        assert str(got.value) == str(want.value)


def test_arange_keywords():
    assert_same(cp.arange(start=2, stop=9, step=3), np.arange(start=2, stop=9, step=3))
    assert_same(cp.arange(3, 9, dtype=np.float32), np.arange(3, 9, dtype=np.float32))


@pytest.mark.parametrize("args", [(0, 10, 0), (0.0, 1.0, 0.0), (5, 1, 0)], ids=repr)
def test_arange_step_zero_raises_like_numpy(args):
    with pytest.raises(Exception) as np_err:
        np.arange(*args)
    with pytest.raises(type(np_err.value)):
        cp.arange(*args)


# ---- linspace -----------------------------------------------------------------------------------

LINSPACE_CASES = [
    ((0, 1), {}),
    ((0, 1, 5), {}),
    ((0, 1), {"num": 0}),
    ((0, 1), {"num": 1}),
    ((1, 0, 5), {}),
    ((-5, 5, 7), {}),
    ((0, 10, 5), {"endpoint": False}),
    ((2, 2, 3), {}),
    ((0, 1, 1), {"endpoint": False}),
    ((-1, 1, 1001), {}),
    ((0, 1, 5), {"dtype": np.float32}),
    ((0, 10, 4), {"dtype": np.int32}),
    ((-5, 5, 7), {"dtype": np.int64}),
    ((0, 3, 4), {"dtype": np.complex128}),
    ((1e-3, 1e3, 6), {}),
    ((0, 1, 5), {"dtype": np.float16}),
    ((0, 100, 7), {"dtype": np.uint8, "endpoint": False}),
]


@pytest.mark.parametrize("args, kw", LINSPACE_CASES, ids=[f"{a}-{k}" for a, k in LINSPACE_CASES])
def test_linspace(args, kw):
    assert_same(cp.linspace(*args, **kw), np.linspace(*args, **kw), atol=1e-12)


@pytest.mark.parametrize("args, kw", LINSPACE_CASES, ids=[f"{a}-{k}" for a, k in LINSPACE_CASES])
def test_linspace_retstep(args, kw):
    r, rstep = cp.linspace(*args, retstep=True, **kw)
    e, estep = np.linspace(*args, retstep=True, **kw)
    assert_same(r, e, atol=1e-12)
    assert isinstance(rstep, (float, np.floating, complex, np.complexfloating))
    if np.isnan(estep):
        assert np.isnan(rstep)
    else:
        assert rstep == pytest.approx(estep, rel=1e-12)


def test_linspace_of_complex_bounds_into_real_types():
    # NumPy computes the complex values and casts them: bool reads both parts, real types warn and keep the real
    # parts, integer types are refused by its floor. The kernel read the real parts alone.
    for stop in (1j, 1 + 1j, 2 - 3j):
        assert_same(cp.linspace(0, stop, 3, dtype=bool), np.linspace(0, stop, 3, dtype=bool))
        with pytest.warns(np.exceptions.ComplexWarning):
            want = np.linspace(0, stop, 3, dtype=np.float32)
        with pytest.warns(np.exceptions.ComplexWarning):
            got = cp.linspace(0, stop, 3, dtype=np.float32)
        assert_same(got, want)
        for dtype in (int, np.uint8):
            with pytest.raises(TypeError) as want_error:
                np.linspace(0, stop, 3, dtype=dtype)
            with pytest.raises(TypeError) as got_error:
                cp.linspace(0, stop, 3, dtype=dtype)
            assert str(got_error.value) == str(want_error.value)


def test_linspace_negative_num_raises():
    with pytest.raises(ValueError):
        cp.linspace(0, 1, -1)


# ---- eye / identity -----------------------------------------------------------------------------

EYE_CASES = [
    ((3,), {}),
    ((3, 4), {}),
    ((4, 3), {}),
    ((4,), {"k": 1}),
    ((4,), {"k": -2}),
    ((3, 5), {"k": 2}),
    ((3,), {"k": 5}),
    ((3,), {"k": -5}),
    ((0,), {}),
    ((1,), {}),
    ((2, 0), {}),
    ((3,), {"M": 2}),
    ((3,), {"dtype": np.int32}),
    ((4,), {"k": 1, "dtype": np.complex64}),
    ((3,), {"dtype": bool}),
]


@pytest.mark.parametrize("args, kw", EYE_CASES, ids=[f"{a}-{k}" for a, k in EYE_CASES])
def test_eye(args, kw):
    assert_same(cp.eye(*args, **kw), np.eye(*args, **kw))


@pytest.mark.parametrize("dtype", [None] + ALL_DTYPES, ids=lambda d: "default" if d is None else dtype_id(d))
@pytest.mark.parametrize("n", [0, 1, 4])
def test_identity(n, dtype):
    assert_same(cp.identity(n, dtype=dtype), np.identity(n, dtype=dtype))
    if dtype is None:
        assert_same(cp.identity(n), np.identity(n))
