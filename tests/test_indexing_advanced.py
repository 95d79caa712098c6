"""Advanced indexing (integer arrays, boolean masks, mixed with slices/None/Ellipsis), assignment through
them, nonzero/argwhere/flatnonzero/where, take/put/compress/take_along_axis, bincount and histogram,
against NumPy. The index-parsing rules and the kernels are checked without a GPU."""

import re
import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import (
    ALL_DTYPES,
    NONEMPTY_LAYOUTS,
    assert_same,
    describe,
    dtype_id,
    make_data,
    make_pair,
    run_python,
)
from cuarray import _core
from cuarray._indexing import _check_value_shape, _checked, _index_values, _is_mask_of_ndim, _parse
from test_kernel_sources import DTYPES, _compile_together

S = _core.jit.sources

# Keys for a (4, 5, 6) array: NumPy's placement rules, negative indices, masks, None and Ellipsis.
B = np.array([True, False, True, True])
M2 = make_data((4, 5), bool, seed=7)
KEYS_3D = [
    [0, 3, -1],
    ([1, 2], [0, -1]),
    (slice(None), [4, 0, 0]),
    (Ellipsis, [5, -6]),
    ([[0, 1], [2, 3]], slice(1, 3), [0, 5]),
    ([0, 1], slice(None), [1, 2]),
    (0, slice(None), [1, 2]),
    (slice(None), 0, [1, 2]),
    ([0], None, [1]),
    (None, [2, 3], slice(None), None),
    (slice(None, None, -1), [1, 1, 1]),
    (B,),
    (B, 2),
    (slice(None), [True, False, True, False, True]),
    (M2,),
    (M2, 2),
    (slice(None), make_data((5, 6), bool, seed=8)),
    (True,),
    (False,),
    (slice(None), True),
    ([1, 2], True),
    (1, [0, 2], True),
    (np.array([], np.intp),),
    ([],),
    (np.int64(2), [1]),
    (np.array(2), [1, 3]),
    (slice(1, 3), [[0], [4]], [[1, 2]]),
]


def _parsed_shape(shape, key):
    """The result shape that _parse's plan gives, computed on the host."""
    basic, entries, insert_at, _ = _parse(shape, key)
    view = np.empty(shape)[basic].shape
    index_shape = np.broadcast_shapes(*[np.shape(e[1]) for e in entries])
    axes = [e[0] for e in entries]
    other = [view[d] for d in range(len(view)) if d not in axes]
    return tuple(other[:insert_at]) + index_shape + tuple(other[insert_at:])


# ---- parsing and kernels (no GPU) ----


@pytest.mark.parametrize("key", KEYS_3D, ids=range(len(KEYS_3D)))
def test_parse_gives_numpy_result_shape(key):
    a = np.empty((4, 5, 6))
    assert _parsed_shape(a.shape, key) == a[key].shape


@pytest.mark.parametrize(
    "key, error, message",
    [
        (([0, 5],), IndexError, "index 5 is out of bounds for axis 0 with size 4"),
        ((slice(None), [-6]), IndexError, "index -6 is out of bounds for axis 1 with size 5"),
        ((None, slice(None), [7]), IndexError, "index 7 is out of bounds for axis 1 with size 5"),
        (
            ([0], [0], [0], [0]),
            IndexError,
            "too many indices for array: array is 3-dimensional, but 4 were indexed",
        ),
        ((np.array([1.0]),), IndexError, "arrays used as indices must be of integer (or boolean) type"),
        (([1.0],), IndexError, "only integers, slices"),
        ((1.5,), IndexError, "only integers, slices"),
        (("a",), IndexError, "only integers, slices"),
        (
            (np.array([True, False]),),
            IndexError,
            (
                "boolean index did not match indexed array along axis 0; size of "
                "axis is 4 but size of corresponding boolean axis is 2"
            ),
        ),
        ((Ellipsis, [0], Ellipsis), IndexError, "an index can only have a single ellipsis"),
    ],
)
def test_parse_errors_match_numpy(key, error, message):
    with pytest.raises(error) as ours:
        _parse((4, 5, 6), key)
    with pytest.raises(error) as numpys:
        np.empty((4, 5, 6))[key]
    assert message in str(ours.value)
    assert message in str(numpys.value) or "only integers" in message


def test_indexing_kernels_compile_for_sm90():
    kernels = []
    for t in DTYPES:
        kernels += [
            S.count_nonzero(t, 1),
            S.write_nonzero(t, 2, "rows"),
            S.write_nonzero(t, 1, "flat"),
            S.write_nonzero(t, 3, "columns"),
        ]
    for size in (1, 2, 4, 8, 16):
        kernels += [
            S.gather(size, 1, 1, "raise", False),
            S.gather(size, 3, 2, "wrap", True),
            S.gather(size, 2, 8, "clip", False),
        ]
    kernels += [S.gather(4, 16, 1, "raise", True), S.index_bounds(), S.bincount(False), S.bincount(True)]
    for t in ("bool", "int8", "int64", "uint64", "float16", "float32", "float64"):
        for bins in ("float16", "float32", "float64"):
            kernels += [S.histogram(t, bins, w, u) for w in (False, True) for u in (False, True)]
    cubin = _compile_together(kernels)
    for _, name in kernels:
        assert name.encode() in cubin


def test_bad_take_mode_is_value_error():
    with pytest.raises(ValueError, match="clipmode"):
        cp.take([1, 2], [0], mode="bad")


# ---- getitem (GPU) ----


def _as_device_key(key):
    """The key with its arrays and lists moved to the device."""

    def device(k):
        h = np.asarray(k)
        return cp.asarray(h.astype(np.intp) if h.size == 0 else h)

    items = key if isinstance(key, tuple) else (key,)
    out = tuple(device(k) if isinstance(k, (list, np.ndarray)) else k for k in items)
    return out if isinstance(key, tuple) else out[0]


@pytest.mark.gpu
@pytest.mark.parametrize("key", KEYS_3D, ids=range(len(KEYS_3D)))
@pytest.mark.parametrize("where", ["host", "device"])
def test_getitem_matches_numpy(key, where):
    a = make_data((4, 5, 6), np.int32)
    x = cp.asarray(a)
    k = key if where == "host" else _as_device_key(key)
    assert_same(x[k], a[key])


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_getitem_dtypes(dtype):
    a = make_data((6, 7), dtype)
    x = cp.asarray(a)
    idx = np.array([5, 0, -1, 3, 3])
    assert_same(x[cp.asarray(idx)], a[idx])
    assert_same(x[:, idx], a[:, idx])
    mask = a != a.flat[0]
    assert_same(x[cp.asarray(mask)], a[mask])
    assert_same(x[mask[:, 0]], a[mask[:, 0]])


@pytest.mark.gpu
@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS)
def test_getitem_layouts(layout):
    x, a = make_pair(layout, np.float64)
    idx = [0, -1, 0]
    assert_same(x[idx], a[idx])
    assert_same(x[cp.asarray(a > 0)], a[a > 0])
    if a.ndim >= 2:
        assert_same(x[..., [1, 0]], a[..., [1, 0]])
        assert_same(x[[0, -1], [1, 0]], a[[0, -1], [1, 0]])


@pytest.mark.gpu
def test_getitem_empty_and_large():
    e = np.zeros((0, 3), np.float32)
    assert_same(cp.asarray(e)[[]], e[[]])
    assert_same(cp.asarray(e)[:, [2, 0]], e[:, [2, 0]])
    a = make_data(300_000, np.float32)
    x = cp.asarray(a)
    mask = a > 0
    assert_same(x[cp.asarray(mask)], a[mask])
    idx = np.random.default_rng(0).integers(-300_000, 300_000, 100_000)
    assert_same(x[cp.asarray(idx)], a[idx])


@pytest.mark.gpu
def test_getitem_out_of_bounds_on_device():
    x = cp.arange(5)
    with pytest.raises(IndexError, match="^index 10 is out of bounds for axis 0 with size 5$"):
        x[cp.asarray([0, 10])]
    with pytest.raises(IndexError, match="^index -6 is out of bounds for axis 1 with size 4$"):
        cp.zeros((2, 4))[:, cp.asarray([-6])]
    with pytest.raises(IndexError, match="^index 0 is out of bounds for axis 0 with size 0$"):
        cp.zeros(0)[cp.asarray([0])]
    with pytest.raises(IndexError, match="^index 5 is out of bounds for axis 0 with size 5$"):
        x[[5]]
    with pytest.raises(IndexError, match="shape mismatch"):
        cp.zeros((3, 3))[cp.asarray([0, 1]), cp.asarray([0, 1, 2])]
    with pytest.raises(IndexError, match="integer"):
        x[cp.asarray([1.0])]


@pytest.mark.gpu
def test_basic_indexing_unchanged():
    a = make_data((4, 5), np.int16)
    x = cp.asarray(a)
    v = x[1:3, ::-2]
    assert v.base is x and v.shape == a[1:3, ::-2].shape
    assert_same(x[np.int64(2), -1], a[2, -1])
    assert_same(x[cp.asarray(np.int64(1))], a[1])


# ---- setitem (GPU) ----


@pytest.mark.gpu
@pytest.mark.parametrize("key", KEYS_3D, ids=range(len(KEYS_3D)))
@pytest.mark.parametrize("value", ["scalar", "array"])
def test_setitem_matches_numpy(key, value):
    a = make_data((4, 5, 6), np.float64)
    x = cp.asarray(a)
    shape = a[key].shape
    v = 7.5 if value == "scalar" else np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    # Repeated indices make the winner undefined on the GPU; give them equal values.
    probe = np.zeros(a.shape, np.int64)
    np.add.at(probe, key, 1)
    if value == "array" and probe.max() > 1:
        v = np.full(shape, 3.25)
    a[key] = v
    x[_as_device_key(key)] = cp.asarray(v) if value == "array" else v
    assert_same(x, a)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_setitem_dtypes_and_casts(dtype):
    a = make_data((5, 4), dtype)
    x = cp.asarray(a)
    vals = make_data((3, 4), dtype, seed=5)
    a[[4, 0, 2]] = vals
    x[cp.asarray([4, 0, 2])] = cp.asarray(vals)
    assert_same(x, a)
    mask = make_data((5, 4), bool, seed=9)
    a[mask] = 1
    x[cp.asarray(mask)] = 1
    assert_same(x, a)
    a[mask[:, 0]] = vals[0]
    x[mask[:, 0]] = cp.asarray(vals[0])
    assert_same(x, a)
    if dtype.kind in "iu":
        f = np.array([1.9, -0.0, 2.2])
        a[[0, 1, 2], 0] = f.astype(dtype)
        x[[0, 1, 2], 0] = cp.asarray(f)  # cast to the array's dtype
        assert_same(x, a)


@pytest.mark.gpu
def test_setitem_mask_array_values_and_errors():
    a = make_data((4, 5), np.int64)
    x = cp.asarray(a)
    mask = a > 0
    n = int(mask.sum())
    a[mask] = np.arange(n)
    x[cp.asarray(mask)] = cp.arange(n)
    assert_same(x, a)
    with pytest.raises(ValueError, match="shape mismatch"):
        x[cp.asarray([0, 1])] = cp.zeros((3, 5), np.int64)
    with pytest.raises(IndexError, match="^index 9 is out of bounds for axis 0 with size 4$"):
        x[cp.asarray([0, 9])] = 0
    assert_same(x, a)  # nothing was written
    with pytest.raises(IndexError, match="boolean index did not match"):
        x[np.ones(3, bool)] = 1


@pytest.mark.gpu
def test_setitem_from_overlapping_source():
    a = make_data(10, np.float32)
    x = cp.asarray(a)
    a[[0, 1, 2]] = a[[2, 1, 0]]
    x[[0, 1, 2]] = x[[2, 1, 0]]
    assert_same(x, a)
    a[[5, 6, 7]] = a[4:7]
    x[[5, 6, 7]] = x[4:7]
    assert_same(x, a)


# ---- nonzero and friends (GPU) ----


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_nonzero_dtypes(dtype):
    a = make_data((3, 7), dtype) * np.array(1, dtype)
    a.flat[::4] = 0
    if dtype.kind in "fc":
        a.flat[1] = np.nan
        a.flat[2] = -0.0
    x = cp.asarray(a)
    for got, expected in zip(cp.nonzero(x), np.nonzero(a)):
        assert_same(got, expected)
    assert_same(cp.flatnonzero(x), np.flatnonzero(a))
    assert_same(cp.argwhere(x), np.argwhere(a))
    for got, expected in zip(x.nonzero(), a.nonzero()):
        assert_same(got, expected)


@pytest.mark.gpu
@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS + ["empty", "empty_strided"])
def test_nonzero_layouts(layout):
    x, a = make_pair(layout, np.int8)
    for got, expected in zip(cp.nonzero(x), np.nonzero(a)):
        assert_same(got, expected)
    assert_same(cp.flatnonzero(x), np.flatnonzero(a))
    assert_same(cp.argwhere(x), np.argwhere(a))
    for got, expected in zip(cp.where(x), np.where(a)):
        assert_same(got, expected)


@pytest.mark.gpu
def test_nonzero_large_and_zero_d():
    a = (np.random.default_rng(1).random((3, 70_001)) < 0.3).astype(np.float32)
    x = cp.asarray(a)
    for got, expected in zip(cp.nonzero(x), np.nonzero(a)):
        assert_same(got, expected)
    assert_same(cp.argwhere(cp.asarray(np.float64(2))), np.argwhere(np.float64(2)))
    assert_same(cp.argwhere(cp.asarray(np.float64(0))), np.argwhere(np.float64(0)))
    assert_same(cp.flatnonzero(cp.asarray(np.int8(3))), np.flatnonzero(np.int8(3)))
    with pytest.raises(ValueError, match="0d"):
        cp.nonzero(cp.asarray(np.int8(3)))
    assert_same(cp.flatnonzero(cp.zeros(5)), np.flatnonzero(np.zeros(5)))


# ---- take, put, compress, take_along_axis (GPU) ----


@pytest.mark.gpu
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take(mode):
    a = make_data((4, 5, 3), np.float32)
    x = cp.asarray(a)
    idx = np.array([[0, 2], [-1, 1]]) if mode == "raise" else np.array([[0, 7], [-9, 2]])
    for axis in (None, 0, 1, -1):
        assert_same(cp.take(x, idx, axis=axis, mode=mode), np.take(a, idx, axis=axis, mode=mode))
        assert_same(cp.take(x, cp.asarray(idx), axis=axis, mode=mode), np.take(a, idx, axis=axis, mode=mode))
        assert_same(x.take(2, axis=axis, mode=mode), a.take(2, axis=axis, mode=mode))
    out = cp.zeros((4, 2, 2, 3), np.float32)
    assert cp.take(x, idx, axis=1, mode=mode, out=out) is out
    assert_same(out, np.take(a, idx, axis=1, mode=mode))


@pytest.mark.gpu
def test_take_errors():
    x = cp.arange(5)
    with pytest.raises(IndexError, match="^index 7 is out of bounds for axis 0 with size 5$"):
        cp.take(x, [7])
    with pytest.raises(IndexError, match="^index 7 is out of bounds for axis 0 with size 5$"):
        cp.take(x, cp.asarray([7]))
    with pytest.raises(IndexError, match="cannot do a non-empty take from an empty axes"):
        cp.take(cp.zeros(0), [0], mode="wrap")
    with pytest.raises(np.exceptions.AxisError):
        cp.take(x, [0], axis=1)


@pytest.mark.gpu
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put(mode):
    a = make_data((3, 4), np.int32)
    x = cp.asarray(a)
    # No two indices land on one element (which value would win is not defined): clip sends -20 to 0.
    ind = [0, 5, -1] if mode == "raise" else [0, 15, -20] if mode == "wrap" else [1, 15, -20]
    np.put(a, ind, [7, 8, 9], mode=mode)
    cp.put(x, ind, [7, 8, 9], mode=mode)
    assert_same(x, a)
    np.put(a, [1, 2, 3, 4], [5, 6], mode=mode)  # values repeat
    x.put(cp.asarray([1, 2, 3, 4]), cp.asarray([5, 6]), mode=mode)
    assert_same(x, a)
    t = make_data((4, 3), np.float64)
    y = cp.asarray(t).T  # not contiguous
    tt = t.T.copy()
    np.put(tt, [0, 11], [1.5, 2.5])
    cp.put(y, [0, 11], [1.5, 2.5])
    assert_same(y, tt)
    with pytest.raises(IndexError, match="out of bounds"):
        cp.put(x, [12], 0)


@pytest.mark.gpu
def test_compress():
    a = make_data((4, 5), np.float64)
    x = cp.asarray(a)
    c = [True, False, True, True]
    assert_same(cp.compress(c, x, axis=0), np.compress(c, a, axis=0))
    assert_same(cp.compress(c[:3], x, axis=1), np.compress(c[:3], a, axis=1))
    assert_same(cp.compress(c, x), np.compress(c, a))
    assert_same(x.compress(cp.asarray(c), axis=0), a.compress(c, axis=0))
    with pytest.raises(IndexError, match="out of bounds"):
        cp.compress([False] * 5 + [True], x, axis=0)


@pytest.mark.gpu
def test_take_and_put_along_axis():
    a = make_data((4, 6), np.float32)
    x = cp.asarray(a)
    for axis in (0, 1):
        order = np.argsort(a, axis=axis, kind="stable")
        assert_same(cp.take_along_axis(x, cp.asarray(order), axis), np.take_along_axis(a, order, axis))
    idx = np.array([[0], [2], [1], [5]])
    np.put_along_axis(a, idx, 9.0, 1)
    cp.put_along_axis(x, cp.asarray(idx), 9.0, 1)
    assert_same(x, a)


# ---- bincount and histogram (GPU) ----


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int16", "int32", "int64", "uint64"])
def test_bincount(dtype):
    x = np.abs(make_data(200, dtype)).astype(dtype)
    w = make_data(200, np.float32, seed=2)
    assert_same(cp.bincount(cp.asarray(x)), np.bincount(x))
    assert_same(cp.bincount(cp.asarray(x), minlength=300), np.bincount(x, minlength=300))
    assert_same(cp.bincount(cp.asarray(x), weights=cp.asarray(w)), np.bincount(x, weights=w))
    assert_same(
        cp.bincount(cp.asarray(x), weights=cp.asarray(x.astype(np.int64))),
        np.bincount(x, weights=x.astype(np.int64)),
    )


@pytest.mark.gpu
def test_bincount_edges_and_errors():
    assert_same(cp.bincount(cp.zeros(0, np.int64)), np.bincount(np.zeros(0, np.int64)))
    assert_same(
        cp.bincount(cp.zeros(0, np.int64), minlength=3), np.bincount(np.zeros(0, np.int64), minlength=3)
    )
    big = np.random.default_rng(0).integers(0, 1000, 1_000_000)
    assert_same(cp.bincount(cp.asarray(big)), np.bincount(big))
    with pytest.raises(ValueError, match="negative"):
        cp.bincount(cp.asarray([1, -1]))
    with pytest.raises(ValueError, match="negative"):  # past int64's range, as NumPy's cast makes it
        np.bincount(np.array([2**63 + 5], np.uint64))
    with pytest.raises(ValueError, match="negative"):
        cp.bincount(cp.asarray(np.array([2**63 + 5], np.uint64)))
    with pytest.raises(ValueError):
        cp.bincount(cp.zeros((2, 2), np.int64))
    with pytest.raises(TypeError):
        cp.bincount(cp.zeros(2, np.float64))
    with pytest.raises(ValueError, match="minlength"):
        cp.bincount(cp.zeros(2, np.int64), minlength=-1)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["int8", "int64", "uint16", "float16", "float32", "float64"])
def test_histogram(dtype):
    a = make_data((30, 40), dtype)
    x = cp.asarray(a)
    for kwargs in (
        {},
        {"bins": 7},
        {"bins": 13, "range": (-10, 25)},
        {"bins": [-40, -3, 0, 0.5, 12, 60]},
        {"bins": 5, "density": True},
        {"bins": 1},
    ):
        counts, edges = cp.histogram(x, **kwargs)
        expected, expected_edges = np.histogram(a, **kwargs)
        assert_same(counts, expected)
        # float16 edges: NumPy's linspace rounds through float16 arithmetic, so they may differ by one ulp.
        assert_same(edges, expected_edges, **({"rtol": 2e-3} if dtype == "float16" else {}))


@pytest.mark.gpu
def test_histogram_weights_nan_and_errors():
    a = np.random.default_rng(3).normal(size=5000)
    w = np.random.default_rng(4).random(5000)
    for bins in (10, np.linspace(-2, 2, 9)):
        counts, _ = cp.histogram(cp.asarray(a), bins=bins, weights=cp.asarray(w))
        assert_same(counts, np.histogram(a, bins=bins, weights=w)[0], rtol=1e-12)
    wi = np.arange(5000) % 3
    assert_same(cp.histogram(cp.asarray(a), weights=cp.asarray(wi))[0], np.histogram(a, weights=wi)[0])
    same = np.full(10, 3.0)
    assert_same(cp.histogram(cp.asarray(same))[0], np.histogram(same)[0])
    assert_same(cp.histogram(cp.zeros(0))[0], np.histogram(np.zeros(0))[0])
    with_nan = np.array([1.0, np.nan, 2.0])
    assert_same(cp.histogram(cp.asarray(with_nan), range=(0, 3))[0], np.histogram(with_nan, range=(0, 3))[0])
    with pytest.raises(ValueError, match="not finite"):
        cp.histogram(cp.asarray(with_nan))
    with pytest.raises(ValueError, match="monotonically"):
        cp.histogram(cp.asarray(a), bins=[0, 2, 1])
    with pytest.raises(ValueError, match="max must be larger"):
        cp.histogram(cp.asarray(a), range=(1, 0))


@pytest.mark.gpu
@pytest.mark.parametrize(
    "shape, key",
    [((1, 0), [-1]), ((3,), [5]), ((3, 3), (slice(None), [5])), ((3, 3), (Ellipsis, [5])), ((3, 3), (0, [5]))]
    + [((3, 3), (5, [0])), ((3, 3), ([0], 5)), ((3,), 5), ((3,), [True, False]), ((3,), (slice(None), [0]))],
    ids=repr,
)
def test_setitem_errors_come_in_numpys_order(shape, key):
    """NumPy parses the index and checks integer indices, then converts the value, then checks the bounds of
    index arrays: a complex value into integers raises TypeError before an index array's IndexError."""
    a = np.zeros(shape, np.uint32)
    with pytest.raises(Exception) as expected:
        a[key] = 1j
    with pytest.raises(expected.type):
        cp.zeros(shape, np.uint32)[key] = 1j


ALIASED_INDEX_CHILD = """
import cuarray as cp, numpy as np
for n in (10, 1 << 21):
    perm = np.random.default_rng(0).permutation(n)
    # NumPy copies an index that overlaps the array it assigns to: every element is written.
    for xp_assign in (
        lambda xp, a: a.__setitem__(a, 10**12),
        lambda xp, a: xp.put_along_axis(a, a, 10**12, axis=0),
    ):
        h = perm.copy()
        xp_assign(np, h)
        a = cp.asarray(perm)
        xp_assign(cp, a)
        assert np.array_equal(a.get(), h), (n, a.get()[:5], h[:5])
    # put and flat assignment read the index as NumPy's sequential loop does not: only nothing may fault.
    for assign in (lambda a: cp.put(a, a, -(10**12)), lambda a: a.flat.__setitem__(a, 10**12)):
        a = cp.asarray(perm)
        try:
            assign(a)
        except IndexError:
            pass
cp.cuda.Device().synchronize()
print(int(cp.arange(3).sum()), "ALIVE")
"""


@pytest.mark.gpu
def test_an_index_in_the_memory_written_is_read_before_the_writes():
    # a[a] = v: read while other threads write it, the index would name wrong elements and, with values that
    # are no valid index, addresses past the array (a fault that poisons the context).
    proc = run_python(code=ALIASED_INDEX_CHILD, timeout=300)
    assert proc.returncode == 0 and "3 ALIVE" in proc.stdout, describe(proc)


# ---- NumPy's order of index checks, empty broadcasts, uint64 indices (Note [Index errors in NumPy's order]) ----

# (shape, key): NumPy's result shape or its IndexError, from the host plan alone.
KEYS_IN_NUMPYS_ORDER = [
    ((3, 4), ([], [9])),  # an empty broadcast index: no index is read
    ((3, 4), (np.array([[9]]), np.zeros(0, int))),
    ((3, 4), (np.zeros(0, bool), [9])),
    ((3, 4), (False, [9])),
    ((0, 4), (slice(None), [9])),  # only another axis is empty: checked
    ((0, 4), ([], [9])),
    ((3, 4), (5, [9])),  # the integer first, wherever it is
    ((3, 4), ([9], 5)),
    ((3, 4, 5), (5, [0, 1], [0, 1, 2])),
    ((3, 4), (2**63, [0])),  # past int64: NumPy's OverflowError, or IndexError past uint64
    ((3, 4), ([0], -(2**63) - 1)),
    ((3, 4), ([0, 1], [0, 1, 2])),  # the broadcast before the bounds
    ((3, 4), ([9, 9], [0, 1, 2])),
    ((3, 4), (True, [0, 1], [0, 1, 2])),
    ((3, 4), (np.zeros((2, 2), int), [0, 1, 2])),
    ((6,), (np.array([2**64 - 1], np.uint64),)),  # uint64 wraps to intp: -1
    ((6,), ([2**64 - 1],)),
    ((6,), (np.array([2**63], np.uint64),)),
    ((6,), ([7, 9],)),  # the first bad index, in the array's memory order
    ((6,), ([-9, 7],)),
    ((6,), (np.array([[0, 9], [7, 0]]).T,)),
    ((6,), (np.array([[0, 9], [7, 0]])[::-1],)),
]


def _shape_or_error(f):
    try:
        return f()
    except (IndexError, OverflowError) as e:
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("shape, key", KEYS_IN_NUMPYS_ORDER, ids=range(len(KEYS_IN_NUMPYS_ORDER)))
def test_parse_checks_in_numpys_order(shape, key):
    ours = _shape_or_error(lambda: _parsed_shape(shape, key))
    assert ours == _shape_or_error(lambda: np.empty(shape)[key].shape)


def test_host_uint64_indices_wrap_as_numpys_cast():
    entries = _parse((6,), (np.array([2**64 - 1, 2**64 - 6], np.uint64),))[1]
    assert entries[0][1].tolist() == [-1, -6]
    assert _index_values(np.array([2**64 - 1], np.uint64), "same_kind").tolist() == [-1]  # take's
    with pytest.raises(IndexError) as numpys:
        np.take(np.arange(6), np.array([2**63], np.uint64))
    with pytest.raises(IndexError, match=f"^{re.escape(str(numpys.value))}$"):
        _checked(_index_values(np.array([2**63], np.uint64), "same_kind"), 6, 0, "raise", True)


@pytest.mark.parametrize(
    "idx, axis, numpy_call",
    [
        (np.array([[0, 9], [7, 0]]).T, 0, lambda i: np.take(np.arange(6), i)),  # C order for take
        (np.array([7, 9]), None, lambda i: np.arange(6).flat[i]),  # a flat iterator names no axis
        (np.array([[0, -9], [7, 0]]).T, None, lambda i: np.arange(6).flat.__setitem__(i, 0)),
    ],
)
def test_take_put_and_flat_check_host_indices_as_numpy(idx, axis, numpy_call):
    with pytest.raises(IndexError) as numpys:
        numpy_call(idx)
    with pytest.raises(IndexError) as ours:
        _checked(idx, 6, axis, "raise", True)
    assert str(ours.value) == str(numpys.value) or axis == 0 and "axis 0" in str(numpys.value)


def test_value_shape_check_as_numpy():
    with pytest.raises(ValueError) as numpys:
        np.zeros((3, 4))[[9], [0]] = np.ones((2, 2))  # NumPy checks the value before the index bounds
    with pytest.raises(ValueError, match=f"^{re.escape(str(numpys.value))}$"):
        _check_value_shape((2, 2), (1,))
    _check_value_shape((1, 1, 2), (2,))  # leading length-1 axes drop
    _check_value_shape((), (0, 4))


def test_single_full_mask_is_recognised_as_numpy():
    assert _is_mask_of_ndim(True, 0) and _is_mask_of_ndim(np.bool_(False), 0)
    assert _is_mask_of_ndim(np.ones((3, 4), bool), 2) and _is_mask_of_ndim([True] * 6, 1)
    assert not _is_mask_of_ndim(np.ones(3, bool), 2) and not _is_mask_of_ndim([0, 1], 1)
    assert not _is_mask_of_ndim(True, 1)


def test_flat_has_numpys_setter_and_key_errors():
    assert cp.ndarray.flat.fset is not None  # a.flat = v, as NumPy's (CuPy's flat is read-only)
    with pytest.raises(IndexError) as numpys:
        np.arange(3).flat[np.array([1.0])]
    with pytest.raises(IndexError, match=f"^{re.escape(str(numpys.value))}$"):
        cp.flatiter(None)._flat_key(np.array([1.0]))


# ---- the same on the device (GPU) ----


def _outcome(f, xp):
    """("ok", result on the host) or (exception type, message) of f(xp)."""
    try:
        r = f(xp)
    except Exception as e:  # noqa: BLE001 - the error is the outcome
        return type(e).__name__, str(e)
    return "ok", cp.asnumpy(r) if isinstance(r, cp.ndarray) else r


def _assert_same_outcome(f):
    want, got = _outcome(f, np), _outcome(f, cp)
    assert want[0] == got[0], (want, got)
    if want[0] == "ok" and isinstance(want[1], np.ndarray):
        assert got[1].dtype == want[1].dtype and got[1].shape == want[1].shape
        np.testing.assert_array_equal(got[1], want[1])
    else:
        assert got[1] == want[1]


def _on(xp, key):
    """The key with its host arrays and lists moved to xp (cuarray: the device)."""

    def move(k):
        if xp is np or not isinstance(k, (list, np.ndarray)):
            return k
        h = np.asarray(k)
        return cp.asarray(h.astype(np.intp) if h.size == 0 and h.dtype.kind == "f" else h)

    return tuple(move(k) for k in key)


@pytest.mark.gpu
@pytest.mark.parametrize("where", ["host", "device"])
@pytest.mark.parametrize("shape, key", KEYS_IN_NUMPYS_ORDER[:-2], ids=range(len(KEYS_IN_NUMPYS_ORDER) - 2))
def test_getitem_checks_in_numpys_order(shape, key, where):
    a = np.arange(int(np.prod(shape))).reshape(shape)
    _assert_same_outcome(lambda xp: xp.asarray(a)[key if where == "host" or xp is np else _on(xp, key)])


@pytest.mark.gpu
@pytest.mark.parametrize(
    "key, value",
    [
        (([], [9]), 1),
        ((np.array([[9]]), np.zeros(0, int)), 1),
        ((np.zeros(0, bool), [9]), 1),
        (([], [9]), [1.0, 2.0]),  # the value's shape is still checked
        (([9], [0]), [1.0, 2.0, 3.0]),  # the value's shape before the bounds
        (([0, 1], [0, 1, 2]), 1j),  # the value's conversion before the broadcast
        (([9], [0]), 1j),
        ((5, [9]), 1j),  # the integers before the value
        ((np.array([2**64 - 2], np.uint64),), 9.0),
        ((np.array([2**63], np.uint64),), 9.0),
    ],
    ids=repr,
)
@pytest.mark.parametrize("where", ["host", "device"])
def test_setitem_checks_in_numpys_order(key, value, where):
    def assign(xp):
        m = xp.arange(12.0).reshape(3, 4) if len(key) > 1 else xp.arange(6.0)
        m[key if where == "host" or xp is np else _on(xp, key)] = value
        return m

    _assert_same_outcome(assign)


@pytest.mark.gpu
def test_device_index_errors_name_numpys_first_bad_index():
    cases = [
        lambda xp: xp.arange(6)[xp.asarray([7, 9])],
        lambda xp: xp.arange(6)[xp.asarray([-9, 7])],
        lambda xp: xp.take(xp.arange(6), xp.asarray([-9, 7])),
        lambda xp: xp.arange(6).__setitem__(xp.asarray([7, 8]), 0),
        lambda xp: xp.arange(6)[xp.asarray(np.array([[0, 9], [7, 0]])).T],  # memory order: 9
        lambda xp: xp.arange(6)[xp.asarray(np.array([[0, 9], [7, 0]]))[::-1]],  # each axis forward: 7
        lambda xp: xp.take(xp.arange(6), xp.asarray(np.array([[0, 9], [7, 0]])).T),  # take: C order, 7
        lambda xp: xp.arange(6).flat[[7]],  # flat: "for size 6"
        lambda xp: xp.arange(6).flat[xp.asarray([6])],
        lambda xp: xp.arange(6).flat.__setitem__([7, 9], 1),
        lambda xp: xp.arange(6).flat.__setitem__(xp.asarray([7, 9]), 1),
        lambda xp: xp.arange(6)[xp.asarray(np.array([2**64 - 1], np.uint64))],
        lambda xp: xp.arange(12).reshape(3, 4)[xp.asarray([0, 1]), xp.asarray([0, 1, 2])],
    ]
    for f in cases:
        _assert_same_outcome(f)


@pytest.mark.gpu
@pytest.mark.parametrize(
    "value",
    [lambda xp: [[1.0]], lambda xp: xp.ones((1, 6)), lambda xp: xp.ones((3, 1)), lambda xp: xp.zeros((1, 0))],
    ids=["list", "row", "column", "empty"],
)
@pytest.mark.parametrize(
    "shape, mask",
    [
        ((3, 4), lambda xp, a: a > 5),
        ((3, 4), lambda xp, a: (a > 100,)),
        ((6,), lambda xp, a: [True] * 6),
        ((), lambda xp, a: xp.asarray(np.array(True))),
        ((), lambda xp, a: True),
        ((3, 4), lambda xp, a: (a > 5, Ellipsis)),  # not a single mask: assigned
    ],
    ids=range(6),
)
def test_one_full_mask_takes_values_of_at_most_one_dimension(shape, mask, value):
    def assign(xp):
        a = xp.asarray(np.arange(float(np.prod(shape))).reshape(shape))
        a[mask(xp, a)] = value(xp)
        return a

    _assert_same_outcome(assign)


C2 = np.array([1 + 1j, 2 - 1j])

COMPLEX_SCATTERS = {
    "setitem": lambda xp, a: a.__setitem__([0, 1], xp.asarray(C2)),
    "device index": lambda xp, a: a.__setitem__(xp.asarray([1, 0]), xp.asarray(C2)),
    "mask": lambda xp, a: a.__setitem__(xp.asarray(np.arange(6) % 3 == 0), xp.asarray(C2)),
    "put": lambda xp, a: xp.put(a, [0, 1], xp.asarray(C2)),
    "put repeated": lambda xp, a: xp.put(a, [0, 1, 2, 3], xp.asarray(C2)),
    "flat": lambda xp, a: a.flat.__setitem__([0, 1], xp.asarray(C2)),
    "flat setter": lambda xp, a: setattr(a, "flat", xp.asarray(C2)),
    "put_along_axis": lambda xp, a: xp.put_along_axis(a, xp.asarray([0, 1]), xp.asarray(C2), axis=0),
    "add.at": lambda xp, a: xp.add.at(a, [0, 0, 1], xp.asarray(np.array([1 + 1j, 2 - 1j, 3j]))),
    "multiply.at": lambda xp, a: xp.multiply.at(a, [2, 2], xp.asarray(np.array([1j, 1j]))),
}


@pytest.mark.gpu
@pytest.mark.parametrize("name", list(COMPLEX_SCATTERS))
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_])
def test_scattering_complex_into_real_warns_once(name, dtype):
    # NumPy warns ComplexWarning once per call and keeps the real parts (into bool: no warning, nonzero).
    results = []
    for xp in (np, cp):
        a = xp.asarray(np.arange(6).astype(dtype))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            COMPLEX_SCATTERS[name](xp, a)
        count = sum(issubclass(w.category, np.exceptions.ComplexWarning) for w in caught)
        results.append((cp.asnumpy(a) if xp is cp else a, count))
    np.testing.assert_array_equal(results[1][0], results[0][0], strict=True)
    assert results[1][1] == results[0][1]


MANY_INDEX_ARRAYS = [
    lambda xp, a: a % 7 == 0,  # a mask of 9 dimensions
    lambda xp, a: ([0],) * 9,
    lambda xp, a: ([1, 0], [0], [1], [0, 1], [1, 1], [0, 0], [1, 0], [1], [-1, -2]),
    lambda xp, a: (xp.asarray([1, 0]),) * 5 + ([0, 1],) * 4,
    lambda xp, a: ([[1], [0]],) * 9,
    lambda xp, a: ([],) * 9,
]


@pytest.mark.gpu
@pytest.mark.parametrize("key", MANY_INDEX_ARRAYS, ids=range(len(MANY_INDEX_ARRAYS)))
@pytest.mark.parametrize("layout", ["c", "transposed"])
def test_more_than_eight_index_arrays(key, layout):
    def view(base):
        return base if layout == "c" else base.transpose(8, 7, 6, 5, 4, 3, 2, 1, 0)

    x9 = np.arange(512).reshape((2,) * 9)
    _assert_same_outcome(lambda xp: view(xp.asarray(x9))[key(xp, view(xp.asarray(x9)))])

    def assign(xp):
        base = xp.array(x9)
        a = view(base)
        shape = a[key(xp, a)].shape
        a[key(xp, a)] = xp.asarray(np.arange(int(np.prod(shape))).reshape(shape) + 1000)
        return base  # written through the view

    _assert_same_outcome(assign)


@pytest.mark.gpu
def test_more_than_eight_index_arrays_with_slices_and_errors():
    x10 = np.arange(3 * 2**9).reshape((3,) + (2,) * 9)
    keys = [
        (slice(None),) + ([1, 0],) * 9,
        (slice(1, None),) + ([[1], [0]],) * 8 + (slice(None),),
        ([0, 2], slice(None)) + ([1, 0],) * 8,  # split: the index dimensions go first
        (True,) * 3 + ([1, 0],) * 7 + (slice(None),),
        ([2, -3],) + ([1, 0],) * 9,
        ([3],) + ([1, 0],) * 9,
    ]
    for key in keys:
        _assert_same_outcome(lambda xp, key=key: xp.asarray(x10)[key])
        _assert_same_outcome(lambda xp, key=key: xp.asarray(x10)[_on(xp, key)])

        def assign(xp, key=key):
            a = xp.asarray(x10)
            a[_on(xp, key)] = -1
            return a

        _assert_same_outcome(assign)
    _assert_same_outcome(lambda xp: xp.arange(12).reshape(3, 4)[(True,) * 9])


@pytest.mark.gpu
@pytest.mark.parametrize(
    "value",
    [[7.0, 8.0], 3, [], np.arange(20), [[1, 2], [3, 4]], "dev", 1j],
    ids=repr,
)
@pytest.mark.parametrize("layout", ["c", "f"])
def test_flat_setter_as_numpy(value, layout):
    def assign(xp):
        a = xp.asarray(np.arange(12).reshape(3, 4))
        if layout == "f":
            a = a.T.copy().T
        a.flat = xp.asarray(np.array([5, 6, 7])) if isinstance(value, str) else value
        return a

    _assert_same_outcome(assign)


@pytest.mark.gpu
@pytest.mark.parametrize(
    "shape, key, value",
    [
        ((6,), slice(None), [[1.0] * 6]),
        ((), Ellipsis, [8.0]),
        ((), (), [8.0]),
        ((), None, [[4.0]]),
        ((3, 4), 0, [[1.0, 2.0, 3.0, 4.0]]),
        ((6,), 0, [7.0]),
        ((3, 4), (0, 0), [7.0]),
        ((6,), slice(None), [[[1.0]]]),
        ((6,), slice(None), [[]]),
        # NumPy takes these: arrays drop leading length-1 axes, a sequence as deep as the view
        ((6,), slice(None), np.ones((1, 6))),
        ((), Ellipsis, np.array([8.0])),
        ((3, 4), 0, [7.0]),
        ((6,), slice(0, 1), [7.0]),
        ((3, 4), 0, np.array([[7.0]])),
    ],
    ids=repr,
)
def test_basic_assignment_refuses_deeper_sequences(shape, key, value):
    def assign(xp):
        a = xp.zeros(shape)
        a[key] = value
        return a

    _assert_same_outcome(assign)


@pytest.mark.gpu
def test_flat_element_takes_a_scalar():
    for value in ([7], np.array([7]), "dev", np.array(7), 7):

        def assign(xp, value=value):
            a = xp.arange(6)
            a.flat[3] = xp.asarray(np.array([7])) if isinstance(value, str) else value
            return a

        _assert_same_outcome(assign)
