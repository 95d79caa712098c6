"""Elementwise operations on every memory layout: broadcasting (size-1 axes, 0-d, zero-size), non-contiguous,
negative-stride and zero-stride (broadcast_to) views, misaligned offsets, many dimensions, large arrays; and
bfloat16 (ml_dtypes) in ufuncs, astype and transfers."""

import os
import sys

import cuarray as cp
import numpy as np
import pytest
from conftest import LAYOUT_NAMES, LAYOUTS, NONEMPTY_LAYOUTS, make_data, make_pair, make_pair_with_base

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mathhelpers import BFLOAT16, assert_close, assert_results, np_call

pytestmark = pytest.mark.gpu

# A representative subset of ufuncs: (name, dtype).
LAYOUT_UFUNCS = [
    ("add", "int16"),
    ("multiply", "float32"),
    ("subtract", "complex64"),
    ("maximum", "float64"),
    ("less", "int64"),
    ("logical_and", "bool"),
    ("bitwise_xor", "uint8"),
    ("copysign", "float32"),
    ("divmod", "int32"),
    ("sqrt", "float64"),
    ("exp", "float16"),
]


def _call(name, *arrays):
    expected = np_call(getattr(np, name), *arrays)
    got = getattr(cp, name)(*[cp.asarray(a) if isinstance(a, np.ndarray) else a for a in arrays])
    return got, expected


def _kw(name):
    return {"factor": 2.0} if name in ("sqrt", "exp") else {}


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
@pytest.mark.parametrize("name,dtype", LAYOUT_UFUNCS, ids=[f"{n}-{d}" for n, d in LAYOUT_UFUNCS])
def test_ufunc_on_layout(name, dtype, layout):
    """Every input a view with `layout` (the same strides as NumPy's view)."""
    nin = getattr(np, name).nin
    xs, ns = [], []
    for k in range(nin):
        x, a = make_pair(layout, dtype, seed=k)
        xs.append(x)
        ns.append(a)
    if name == "divmod":  # the divisor: the same layout, without zeros
        shape, view = LAYOUTS[layout]
        base = make_data(shape, dtype, seed=1)
        base[base == 0] = 1
        ns[1], xs[1] = view(base), view(cp.asarray(base))
    expected = np_call(getattr(np, name), *ns)
    got = getattr(cp, name)(*xs)
    assert_results(got, expected, **_kw(name))


@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS)
@pytest.mark.parametrize("name,dtype", [("add", "float32"), ("less", "int16"), ("arctan2", "float64")])
def test_mixed_layouts(name, dtype, layout):
    """One input with `layout`, the other C-contiguous (and the other way round)."""
    x, a = make_pair(layout, dtype, seed=0)
    b = np.ascontiguousarray(make_pair(layout, dtype, seed=1)[1])
    y = cp.asarray(b)
    for args_np, args_cp in (((a, b), (x, y)), ((b, a), (y, x))):
        assert_results(getattr(cp, name)(*args_cp), np_call(getattr(np, name), *args_np), factor=2.0)


@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS)
def test_out_with_layout(layout):
    """out= a view with the layout's strides; the rest of its base is left alone."""
    x, a = make_pair(layout, "float32", seed=0)
    obase, onbase, o, on = make_pair_with_base(layout, "float32", seed=5)
    r = cp.multiply(x, 3, out=o)
    np.multiply(a, 3, out=on)
    assert r is o
    assert_close(o, on, exact=True)
    assert_close(obase, onbase, exact=True)


# ---- broadcasting -----------------------------------------------------------------------------------------

BROADCAST_SHAPES = [
    ((3, 1), (1, 4)),
    ((3, 4), (4,)),
    ((2, 3, 4), (3, 1)),
    ((), (3, 4)),
    ((3, 4), ()),
    ((1,), (5,)),
    ((5, 1, 1), (1, 1, 6)),
    ((1, 1), (1, 1)),
    ((0, 3), (3,)),
    ((2, 0), (2, 1)),
    ((1, 0), (3, 1)),
    ((0,), (1,)),
    ((4, 1, 3, 1, 2), (5, 3, 1, 1)),
]


@pytest.mark.parametrize("sa,sb", BROADCAST_SHAPES, ids=[f"{a}-{b}" for a, b in BROADCAST_SHAPES])
def test_broadcasting(sa, sb):
    rng = np.random.default_rng(0)
    a = rng.integers(-50, 50, size=sa).astype(np.float32)
    b = rng.integers(-50, 50, size=sb).astype(np.int16)
    for name in ("add", "multiply", "greater", "arctan2"):
        got, expected = _call(name, a, b)
        assert_results(got, expected, factor=2.0)
        got, expected = _call(name, b, a)
        assert_results(got, expected, factor=2.0)


@pytest.mark.parametrize("sa,sb", [((3,), (4,)), ((2, 3), (3, 2)), ((2, 1, 3), (4, 2)), ((0,), (2,))])
def test_incompatible_shapes_raise_value_error(sa, sb):
    a, b = cp.zeros(sa), cp.zeros(sb)
    with pytest.raises(ValueError):
        np.add(np.zeros(sa), np.zeros(sb))
    with pytest.raises(ValueError):
        cp.add(a, b)
    with pytest.raises(ValueError):
        cp.where(cp.zeros(sa, dtype=bool), a, b)


def test_broadcast_to_zero_stride_inputs():
    row = np.arange(5, dtype=np.float64) - 2.5
    col = np.arange(4, dtype=np.float64).reshape(4, 1)
    xr = cp.broadcast_to(cp.asarray(row), (4, 5))
    xc = cp.broadcast_to(cp.asarray(col), (4, 5))
    assert 0 in xr.strides and 0 in xc.strides
    er, ec = np.broadcast_to(row, (4, 5)), np.broadcast_to(col, (4, 5))
    for name in ("add", "multiply", "maximum", "hypot"):
        got, expected = _call(name, er, ec)
        got = getattr(cp, name)(xr, xc)
        assert_results(got, expected, factor=2.0)
    assert_close(cp.sqrt(cp.abs(xr)), np.sqrt(np.abs(er)), factor=2.0)
    # a reversed zero-stride view
    rev = cp.broadcast_to(cp.asarray(row), (3, 5))[::-1, ::-2]
    erev = np.broadcast_to(row, (3, 5))[::-1, ::-2]
    assert_close(cp.negative(rev), np.negative(erev), exact=True)
    assert_close(rev * rev, erev * erev, exact=True)
    # a 0-d value broadcast to a big shape
    z = cp.broadcast_to(cp.asarray(np.array(2.0)), (100, 100))
    assert_close(z + cp.asarray(np.ones((100, 100))), np.full((100, 100), 3.0), exact=True)


def test_zero_d_arrays():
    a = np.array(2.5, dtype=np.float32)
    b = np.array(-4, dtype=np.int8)
    for name in ("add", "multiply", "less", "maximum", "arctan2"):
        got, expected = _call(name, a, b)
        assert isinstance(got, cp.ndarray) and got.shape == ()
        assert_results(got, np.asarray(expected), factor=2.0)
    for name in ("negative", "sqrt", "isnan", "sign"):
        got = getattr(cp, name)(cp.asarray(a))
        assert isinstance(got, cp.ndarray) and got.shape == ()
        assert_results(got, np.asarray(np_call(getattr(np, name), a)), factor=2.0)
    q, r = cp.divmod(cp.asarray(np.array(7, np.int32)), cp.asarray(np.array(-2, np.int32)))
    assert q.shape == () and r.shape == ()
    assert (int(q), int(r)) == (-4, -1)
    got = cp.where(cp.asarray(np.array(True)), cp.asarray(a), cp.asarray(b))
    assert got.shape == () and got.dtype == np.float32


@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0, 2), (2, 0)])
def test_zero_size(shape):
    a = np.zeros(shape, dtype=np.float32)
    b = np.zeros(shape[-1:], dtype=np.int8)
    x = cp.asarray(a)
    for name in ("sqrt", "negative", "isnan"):
        got = getattr(cp, name)(x)
        assert_results(got, getattr(np, name)(a))
    for name in ("add", "less", "logical_or"):
        got, expected = _call(name, a, b)
        assert_results(got, expected)
    q, r = cp.divmod(x, 2.0)
    assert q.shape == r.shape == shape
    out = cp.zeros(shape, dtype=np.float64)
    assert cp.add(x, 1, out=out) is out
    assert_close(cp.where(cp.asarray(a > 0), x, 1.5), np.where(a > 0, a, 1.5))
    x2 = cp.asarray(a)
    x2 += 1
    assert x2.shape == shape


# ---- strides, offsets, dimensions, sizes ----------------------------------------------------------------------


def test_large_non_contiguous():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((1031, 1029)).astype(np.float32)
    b = rng.standard_normal((1029, 1031)).astype(np.float32)
    xa, xb = cp.asarray(a), cp.asarray(b)
    va, vb = a[::3, ::-2], b.T[::3, ::-2]
    got = cp.add(xa[::3, ::-2], xb.T[::3, ::-2])
    assert_close(got, va + vb, exact=True)
    got = cp.multiply(xa.T, xb)
    assert_close(got, a.T * b, exact=True)
    got = cp.exp(xa[5:-7:2, 3::5])
    assert_close(got, np.exp(a[5:-7:2, 3::5]), factor=2.0)


def test_3d_permuted_large():
    a = np.arange(64 * 80 * 96, dtype=np.int32).reshape(64, 80, 96)
    x = cp.asarray(a)
    va = a.transpose(2, 0, 1)[::-1, 1::3]
    got = cp.bitwise_xor(x.transpose(2, 0, 1)[::-1, 1::3], 0x5A5A)
    assert_close(got, va ^ 0x5A5A)
    got = x.transpose(1, 2, 0) - x.transpose(1, 2, 0)[::-1]
    assert_close(got, a.transpose(1, 2, 0) - a.transpose(1, 2, 0)[::-1])


@pytest.mark.parametrize("offset", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("n", [1, 7, 255, 1023, 1025, 4099])
def test_misaligned_offsets(offset, n):
    """Views starting at odd element offsets (not aligned for vector loads), and odd lengths."""
    a = (np.arange(n + 8) % 120).astype(np.int8)
    f = (np.arange(n + 8) * 0.5).astype(np.float64)
    xa, xf = cp.asarray(a), cp.asarray(f)
    s1, s2 = slice(offset, offset + n), slice(3 - offset % 4, 3 - offset % 4 + n)
    assert_close(cp.add(xa[s1], xa[s2]), a[s1] + a[s2])
    assert_close(cp.multiply(xf[s1], xf[s2]), f[s1] * f[s2], exact=True)
    out = cp.zeros(n + 8, dtype=np.float64)
    cp.subtract(xf[s1], 1.0, out=out[s2])
    e = np.zeros(n + 8)
    e[s2] = f[s1] - 1.0
    assert_close(out, e, exact=True)


@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "float32", "float64", "complex128"])
def test_partial_last_blocks(dtype):
    """Lengths around a contiguous kernel's blocks: the last block takes its threads' elements a group at a time
    and stops at the array's end (Note [Partial blocks]); what lies past the end is left as it was."""
    for n in (1, 255, 257, 1000, 1024, 1025, 2049, 3000, 4095, 4097, 8191, 8193, 12345):
        a = (np.arange(n) % 7).astype(dtype)
        b = (np.arange(n) * 3 % 5).astype(dtype)
        xa, xb = cp.asarray(a), cp.asarray(b)
        base = cp.full(n + 64, 1, dtype=dtype)
        cp.add(xa, xb, out=base[:n])
        expected = np.concatenate([np.add(a, b), np.ones(64, dtype)])
        np.testing.assert_array_equal(base.get(), expected, err_msg=f"n={n}")
        np.testing.assert_array_equal(cp.less(xa, xb).get(), np.less(a, b), err_msg=f"n={n}")


# float16 bit patterns: quiet and signalling NaNs of both signs with payloads, infinities, zeros, subnormals,
# the largest finite value, one.
HALF_SPECIALS = np.array(
    [0x7E00, 0xFE00, 0x7C01, 0xFD55, 0x7FFF, 0x7C00, 0xFC00, 0x8000, 0x0001, 0x83FF, 0x7BFF, 0x3C00],
    np.uint16,
).view(np.float16)


@pytest.mark.parametrize(
    "name",
    [
        "add",
        "subtract",
        "negative",
        "positive",
        "absolute",
        "copysign",
        "signbit",
        "maximum",
        "fmin",
        "isnan",
        "sqrt",
        "where",
    ],
)
def test_float16_in_whole_blocks_matches_one_element_at_a_time(name):
    """Whole blocks of a contiguous float16 kernel convert by cvt alone unless a thread's elements hold a NaN
    (Note [Float16 conversions]); a partial block converts each element exactly. Both must give the same bits:
    NaN signs and payloads included, and NaNs made from numbers (inf - inf)."""
    rng = np.random.default_rng(7)
    n = 1 << 16
    x = (rng.standard_normal(n) * 100).astype(np.float16)
    y = (rng.standard_normal(n) * 100).astype(np.float16)
    for a in (x, y):  # specials in some threads' elements only, and a run of them
        a[rng.integers(0, n, 200)] = rng.choice(HALF_SPECIALS, 200)
        a[5000 : 5000 + HALF_SPECIALS.size] = HALF_SPECIALS
    f = getattr(cp, name)
    args = {"negative": 1, "positive": 1, "absolute": 1, "signbit": 1, "isnan": 1, "sqrt": 1}
    inputs = [x, y][: args.get(name, 2)]
    if name == "where":
        inputs = [x > 0, x, y]
    got = f(*map(cp.asarray, inputs))
    whole = got.get()
    # Pieces of 1000 elements run as a single partial block each.
    pieces = np.concatenate(
        [f(*(cp.asarray(a[i : i + 1000]) for a in inputs)).get() for i in range(0, n, 1000)]
    )
    width = np.uint16 if whole.dtype == np.float16 else whole.dtype
    np.testing.assert_array_equal(whole.view(width), pieces.view(width))
    expected = np_call(getattr(np, name), *inputs)
    assert_close(got, expected)
    if name in ("negative", "positive", "absolute", "copysign", "signbit"):  # NaN signs as NumPy's
        np.testing.assert_array_equal(np.signbit(whole), np.signbit(expected))


def test_many_dimensions():
    shape = (2, 1, 3, 2, 1, 2, 3, 2)
    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    perm = (7, 0, 3, 1, 5, 2, 6, 4)
    x = cp.asarray(a)
    va = a.transpose(perm)[::-1, :, ::2]
    got = cp.add(x.transpose(perm)[::-1, :, ::2], 0.5)
    assert_close(got, va + 0.5, exact=True)
    b = np.arange(2, dtype=np.float64).reshape(2, 1, 1, 1, 1) + 1.5
    got = cp.multiply(x, cp.asarray(b))
    assert_close(got, a * b, exact=True)


def test_same_input_twice_and_views_of_one_base():
    a = np.arange(30, dtype=np.float32).reshape(5, 6)
    x = cp.asarray(a)
    assert_close(cp.multiply(x, x), a * a, exact=True)
    assert_close(cp.subtract(x[:, ::2], x[:, 1::2]), a[:, ::2] - a[:, 1::2], exact=True)
    assert_close(cp.add(x[::-1], x), a[::-1] + a, exact=True)


# ---- bfloat16 ---------------------------------------------------------------------------------------------------

needs_bf16 = pytest.mark.skipif(BFLOAT16 is None, reason="ml_dtypes is not installed")


def _bf(vals):
    return np.array(vals, dtype=np.float32).astype(BFLOAT16)


BF_VALUES = [1.5, -2.25, 3.0, 0.5, 100.0, -0.0, 0.0078125, 7.0, -65.5, 1e30]


@needs_bf16
def test_bfloat16_transfers():
    a = _bf(BF_VALUES)
    x = cp.asarray(a)
    assert x.dtype == BFLOAT16
    back = cp.asnumpy(x)
    assert back.dtype == BFLOAT16
    assert back.tobytes() == a.tobytes()
    m = _bf(np.arange(24) * 0.25 - 3).reshape(4, 6)
    xm = cp.asarray(m)
    assert cp.asnumpy(xm[::-1, 1::2]).tobytes() == np.ascontiguousarray(m[::-1, 1::2]).tobytes()
    assert cp.asnumpy(cp.asarray(m.T)).tobytes() == np.ascontiguousarray(m.T).tobytes()
    s = np.array([np.nan, np.inf, -np.inf], dtype=np.float32).astype(BFLOAT16)
    got = cp.asnumpy(cp.asarray(s)).astype(np.float32)
    assert np.isnan(got[0]) and got[1] == np.inf and got[2] == -np.inf


@needs_bf16
@pytest.mark.parametrize("other", ["float32", "float64", "float16", "int32", "int8", "uint8", "bool"])
def test_bfloat16_astype(other):
    vals = [1.5, 2.0, 3.0, 0.0, 100.0, 7.0, 0.5]
    if np.dtype(other).kind != "u":
        vals += [-2.0, -7.25]  # float -> unsigned of a negative value is undefined: not for uint8
    a = _bf(vals)
    x = cp.asarray(a)
    with np.errstate(all="ignore"):
        expected = a.astype(other)
    assert_close(x.astype(other), expected, exact=True)
    src = expected
    assert_close(cp.asarray(src).astype(BFLOAT16), src.astype(BFLOAT16), exact=True)


@needs_bf16
def test_bfloat16_astype_rounds_to_nearest_even():
    f = np.array(
        [1.0 + 2**-8, 1.0 + 3 * 2**-8, 1.0 + 2**-9, -(1.0 + 2**-8), 3.4e38, 1.00390625], dtype=np.float32
    )
    assert_close(cp.asarray(f).astype(BFLOAT16), f.astype(BFLOAT16), exact=True)


BF_BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "less",
    "equal",
    "greater_equal",
    "copysign",
    "arctan2",
]
BF_UNARY = [
    "negative",
    "absolute",
    "sqrt",
    "exp",
    "log",
    "sin",
    "tanh",
    "floor",
    "rint",
    "isnan",
    "signbit",
    "square",
]


@needs_bf16
@pytest.mark.parametrize("name", BF_BINARY)
def test_bfloat16_binary_ufuncs(name):
    a = _bf(np.arange(-12, 12) * 0.375 + 0.125)
    b = _bf((np.arange(24) % 7 - 3) * 1.25 + 0.5)
    got, expected = _call(name, a, b)
    assert_results(got, expected, factor=2.0)


@needs_bf16
@pytest.mark.parametrize("name", BF_UNARY)
def test_bfloat16_unary_ufuncs(name):
    a = _bf(np.arange(1, 25) * 0.375)
    if name not in ("sqrt", "log"):
        a = _bf(np.arange(-12, 12) * 0.375 + 0.125)
    got, expected = _call(name, a)
    assert_results(got, expected, factor=2.0)


@needs_bf16
def test_bfloat16_promotion():
    a = _bf([1.5, -2.25, 3.0])
    x = cp.asarray(a)
    for other in ("float32", "float16", "float64", "int8", "uint8", "bool", "complex64"):
        b = np.array([1, 0, 1], dtype=other)
        got, expected = _call("add", a, b)
        assert_results(got, expected)
        got, expected = _call("multiply", b, a)
        assert_results(got, expected)
    assert_results(x * 2, a * 2)  # a Python int keeps bfloat16
    assert (x * 2).dtype == BFLOAT16
    assert_results(x + np.float32(1), a + np.float32(1))


@needs_bf16
@pytest.mark.parametrize("layout", ["f2d", "strided", "negative", "0d", "empty"])
def test_bfloat16_layouts(layout):
    shape, view = LAYOUTS[layout]
    base = (np.arange(int(np.prod(shape))).reshape(shape) * 0.25 - 1).astype(np.float32).astype(BFLOAT16)
    a = view(base)
    x = view(cp.asarray(base))
    assert_results(cp.add(x, x), np.add(a, a))
    assert_results(cp.multiply(x, 3), np.multiply(a, 3))
    assert_close(x.astype(np.float32), a.astype(np.float32), exact=True)


# ---- inputs whose unit stride is not the output's: the tiled class (Note [Layout classes]) ----------------

TILED_CASES = {
    # name: (input shape, view of the input matching the output's shape)
    "2d_exact": ((64, 128), lambda a: a.T),
    "2d_ragged": ((67, 45), lambda a: a.T),
    "2d_flipped": ((50, 33), lambda a: a.T[::-1, ::2]),
    "3d_batched": ((5, 40, 70), lambda a: a.transpose(0, 2, 1)),
    "3d_reversed": ((20, 6, 30), lambda a: a.transpose(2, 1, 0)),
    "4d_middle": ((3, 17, 4, 19), lambda a: a.transpose(0, 3, 2, 1)),
    "many_batches": ((70000, 16, 16), lambda a: a.transpose(0, 2, 1)),
}


@pytest.mark.parametrize("case", sorted(TILED_CASES))
@pytest.mark.parametrize("dtype", ["float32", "float16", "complex128", "int8"])
def test_transposed_input(case, dtype):
    shape, view = TILED_CASES[case]
    a = view(make_data(shape, dtype, seed=1))
    b = make_data(a.shape, dtype, seed=2)
    x, y = view(cp.asarray(make_data(shape, dtype, seed=1))), cp.asarray(b)
    assert_results(cp.add(x, y), np.add(a, b))
    assert_results(cp.subtract(y, x), np.subtract(b, a))
    assert_results(x * 3, a * np.asarray(3, dtype))


def test_transposed_inputs_mixed_types_and_broadcasting():
    a0, c0 = make_data((48, 80), "float16", seed=3), make_data((48, 80), "complex64", seed=5)
    a, c = a0.T, c0.T  # (80, 48): tiled inputs of two types
    b = make_data((80, 48), "float64", seed=4)  # read directly
    col = make_data((80, 1), "float32", seed=6)  # broadcast along the output's unit stride
    x, z = cp.asarray(a0).T, cp.asarray(c0).T
    y, w = cp.asarray(b), cp.asarray(col)
    assert_results((x + y) * z - w, (a + b) * c - col)
    assert_results(cp.where(y > 0, x, z), np.where(b > 0, a, c))


def test_transposed_input_into_out_and_in_place():
    a = make_data((90, 70), "float32", seed=7)
    x = cp.asarray(a)
    out = cp.zeros((70, 90), np.float32)
    cp.multiply(x.T, 2, out=out)
    assert_results(out, a.T * 2)
    y = cp.asarray(np.ascontiguousarray(a.T))
    y += x.T
    assert_results(y, a.T + a.T)
    # An output that is itself transposed takes the strided class; the values are the same.
    o = cp.zeros((90, 70), np.float32)
    cp.add(x, y.T, out=o.T.T)
    assert_results(o, a + (a.T + a.T).T)


def test_transposed_input_in_user_kernels():
    a = make_data((40, 72), "float32", seed=8)
    b = make_data((72, 40), "float32", seed=9)
    x, y = cp.asarray(a), cp.asarray(b)
    k = cp.ElementwiseKernel("float32 p, float32 q", "float32 r", "r = p * q + 1.0f", "tiled_user")
    assert_results(k(x.T, y), a.T * b + 1)
    fused = cp.fuse(lambda p, q: p * q + 1)
    assert_results(fused(x.T, y), a.T * b + 1)
