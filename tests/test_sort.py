"""sort, argsort (stable: equal to NumPy's kind='stable'), partition, argpartition, lexsort, sort_complex,
searchsorted and unique against NumPy: every dtype, both sort kernels (rows up to 2048 elements sort in
shared memory, longer ones by radix), axes, layouts, NaNs, -0.0, duplicates. The kernels compile without
a GPU."""

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, LAYOUT_NAMES, assert_same, dtype_id, make_data, make_pair
from cuarray import _core
from test_kernel_sources import DTYPES, _compile_together

S = _core.jit.sources
SIZES = [1, 2, 7, 100, 2048, 2049, 10_000, 70_001]  # 2048: the largest shared-memory sort


def assert_bits_equal(got, expected):
    """Same values bit for bit (so -0.0 and 0.0, and NaN payloads, count as different)."""
    assert_same(got, expected)
    g, e = cp.asnumpy(got), np.asarray(expected)
    assert g.tobytes() == e.tobytes()


def sort_data(n, dtype, seed=0):
    """Values with many duplicates, and NaNs, infinities and signed zeros for floats."""
    dtype = np.dtype(dtype)
    a = make_data(n, dtype, seed)
    if dtype.kind in "fc" and n >= 8:
        rng = np.random.default_rng(seed + 1)
        special = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0]
        pos = rng.choice(n, size=max(1, n // 8), replace=False)
        a[pos] = rng.choice(special, size=pos.size)
        if dtype.kind == "c":
            a.imag[rng.choice(n, size=max(1, n // 10), replace=False)] = np.nan
            a.real[rng.choice(n, size=max(1, n // 10), replace=False)] = -0.0
    return a


# ---- kernels compile (no GPU) ----


def test_sort_kernels_compile_for_sm90():
    kernels = [S.radix_offsets()]
    for t in DTYPES:
        kernels += [
            S.segment_sort(t, True, False),
            S.segment_sort(t, False, True),
            S.radix_histogram(t),
            S.radix_pass(t, False, False),
            S.radix_pass(t, True, True),
            S.radix_pass(t, True, False),
            S.searchsorted(t, False),
            S.searchsorted(t, True),
        ]
    cubin = _compile_together(kernels)
    for _, name in kernels:
        assert name.encode() in cubin


def test_sort_argument_errors_need_no_device():
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cp.sort(np.arange(3))
    with pytest.raises(ValueError, match="search side"):
        cp.searchsorted([1, 2], 1, side="middle")


# ---- sort and argsort (GPU) ----


@pytest.mark.gpu
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_sort_and_stable_argsort(dtype, n):
    a = sort_data(n, dtype)
    x = cp.asarray(a)
    assert_same(cp.sort(x), np.sort(a, kind="stable"))
    assert_same(cp.argsort(x), np.argsort(a, kind="stable"))  # every cuarray sort is stable
    assert_same(cp.argsort(x, kind="stable"), np.argsort(a, kind="stable"))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8", "complex128"])
def test_radix_rows_of_many_tiles(dtype):
    """Rows of more than one look-back window of tiles, and several such rows."""
    a = sort_data(400_003, dtype, seed=6)
    x = cp.asarray(a)
    assert_same(cp.sort(x), np.sort(a, kind="stable"))
    assert_same(cp.argsort(x), np.argsort(a, kind="stable"))
    b = a[: 3 * 100_001].reshape(3, 100_001)
    assert_same(cp.argsort(cp.asarray(b), axis=1), np.argsort(b, axis=1, kind="stable"))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "float16", "float32", "float64", "complex64"])
def test_values_keep_their_bits(dtype):
    """-0.0 and 0.0 tie (NumPy's stable order keeps them as they came); NaNs keep their payload and sign."""
    n = 5000
    a = sort_data(n, dtype, seed=4)
    assert_bits_equal(cp.sort(cp.asarray(a)), np.sort(a, kind="stable"))
    z = np.array([0.0, -0.0, 1.0, -0.0, 0.0, -1.0] * 3, dtype if np.dtype(dtype).kind == "f" else np.float32)
    assert_bits_equal(cp.sort(cp.asarray(z)), np.sort(z, kind="stable"))
    assert_same(cp.argsort(cp.asarray(z)), np.argsort(z, kind="stable"))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["int64", "uint64", "int32", "uint8", "float64"])
def test_extreme_values(dtype):
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else np.finfo(dtype)
    base = np.array([info.max, info.min, 0, 1, info.max - 1, info.min + 1, 3, 3], dtype)
    for n in (8, 3001):
        a = np.resize(base, n)
        np.random.default_rng(n).shuffle(a)
        assert_same(cp.sort(cp.asarray(a)), np.sort(a))
        assert_same(cp.argsort(cp.asarray(a)), np.argsort(a, kind="stable"))


@pytest.mark.gpu
@pytest.mark.parametrize("n", [100, 5000])
def test_all_equal_and_presorted(n):
    for a in (
        np.full(n, 7, np.int32),
        np.arange(n, dtype=np.int64),
        np.arange(n, dtype=np.float32)[::-1].copy(),
        np.repeat(np.array([1 << 40, 5], np.int64), n // 2),
    ):
        assert_same(cp.sort(cp.asarray(a)), np.sort(a))
        assert_same(cp.argsort(cp.asarray(a)), np.argsort(a, kind="stable"))


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(3, 5), (4, 2049), (2, 3, 5000), (10_000, 7), (3000, 1), (1, 3000)])
@pytest.mark.parametrize("dtype", ["int16", "float32", "complex128"])
def test_sort_axes(shape, dtype):
    a = sort_data(int(np.prod(shape)), dtype).reshape(shape)
    x = cp.asarray(a)
    for axis in [None] + list(range(-len(shape), len(shape))):
        assert_same(cp.sort(x, axis=axis), np.sort(a, axis=axis, kind="stable"))
        assert_same(cp.argsort(x, axis=axis), np.argsort(a, axis=axis, kind="stable"))


@pytest.mark.gpu
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_sort_layouts(layout):
    x, a = make_pair(layout, np.float64)
    if a.ndim == 0:
        with pytest.raises(np.exceptions.AxisError):
            cp.sort(x)
        assert_same(cp.sort(x, axis=None), np.sort(a, axis=None))
        return
    for axis in range(a.ndim):
        assert_same(cp.sort(x, axis=axis), np.sort(a, axis=axis))
        assert_same(cp.argsort(x, axis=axis), np.argsort(a, axis=axis, kind="stable"))


@pytest.mark.gpu
def test_sort_in_place_method():
    a = sort_data(3000, np.float32).reshape(30, 100)
    x = cp.asarray(a)
    x.sort(axis=0)
    a.sort(axis=0)
    assert_same(x, a)
    view = x[:, ::-3]
    view.sort()
    a[:, ::-3].sort()
    assert_same(x, a)
    assert_same(x.argsort(axis=None), a.argsort(axis=None, kind="stable"))


@pytest.mark.gpu
def test_sort_bool_and_kind_errors():
    a = make_data(5000, bool)
    assert_same(cp.sort(cp.asarray(a)), np.sort(a))
    with pytest.raises(ValueError):
        cp.sort(cp.asarray(a), kind="bogus")
    with pytest.raises(np.exceptions.AxisError):
        cp.sort(cp.asarray(a), axis=1)


@pytest.mark.gpu
def test_partition():
    a = sort_data(1000, np.float64).reshape(10, 100)
    x = cp.asarray(a)
    for kth in (0, 50, -1, [3, 90]):
        p = cp.partition(x, kth).get()
        e = np.partition(a, kth)
        kths = np.atleast_1d(kth) % 100
        np.testing.assert_array_equal(p[:, kths], e[:, kths])
        ap = cp.argpartition(x, kth, axis=1).get()
        np.testing.assert_array_equal(np.take_along_axis(a, ap, 1)[:, kths], e[:, kths])
    y = x.copy()
    y.partition(5)
    np.testing.assert_array_equal(y.get()[:, 5], np.partition(a, 5)[:, 5])
    with pytest.raises(ValueError, match=r"kth\(=100\) out of bounds \(100\)"):
        cp.partition(x, 100)


@pytest.mark.gpu
@pytest.mark.parametrize("n", [10, 20000])
def test_partition_in_place_of_a_view_writes_through(n):
    # CuPy raises NotImplementedError for a non-contiguous ndarray.partition; NumPy partitions the view.
    a = sort_data(2 * n, np.float64)
    x = cp.asarray(a)
    view = x[::-2]
    view.partition(2)
    got, before = x.get()[::-2], a[::-2]
    np.testing.assert_array_equal(got[2], np.partition(before, 2)[2])
    assert not (got[:2] > got[2]).any() and not (got[3:] < got[2]).any()
    np.testing.assert_array_equal(np.sort(got), np.sort(before))
    np.testing.assert_array_equal(x.get()[-2::-2], a[-2::-2])  # the other elements are untouched


@pytest.mark.gpu
def test_lexsort_of_keys_with_more_axes():
    # CuPy raises NotImplementedError for keys of three or more dimensions; NumPy sorts along the last axis.
    keys = make_data(200, np.int8).reshape(2, 10, 10) % 3
    assert_same(cp.lexsort(cp.asarray(keys)), np.lexsort(keys))
    assert_same(cp.lexsort(cp.asarray(keys), axis=0), np.lexsort(keys, axis=0))
    keys4 = make_data(120, np.float32, seed=5).reshape(3, 2, 4, 5)
    assert_same(cp.lexsort(cp.asarray(keys4)), np.lexsort(keys4))


@pytest.mark.gpu
def test_lexsort_and_sort_complex():
    k1 = make_data(500, np.int8)
    k2 = make_data(500, np.float32, seed=3)
    assert_same(cp.lexsort((cp.asarray(k1), cp.asarray(k2))), np.lexsort((k1, k2)))
    keys = np.stack([k1.astype(np.int32), (k2 > 0).astype(np.int32)])
    assert_same(cp.lexsort(cp.asarray(keys)), np.lexsort(keys))
    assert_same(cp.sort_complex(cp.asarray(k1)), np.sort_complex(k1))
    c = sort_data(50, np.complex64)
    assert_same(cp.sort_complex(cp.asarray(c)), np.sort_complex(c))


# ---- searchsorted ----


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["int8", "uint32", "int64", "float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(dtype, side):
    a = np.sort(sort_data(300, dtype, seed=2))
    v = sort_data(40, dtype, seed=5)
    x = cp.asarray(a)
    assert_same(cp.searchsorted(x, cp.asarray(v), side=side), np.searchsorted(a, v, side=side))
    assert_same(
        x.searchsorted(cp.asarray(v.reshape(5, 8)), side=side), a.searchsorted(v.reshape(5, 8), side=side)
    )
    perm = np.random.default_rng(0).permutation(300)
    shuffled = a[perm]
    sorter = np.argsort(shuffled, kind="stable")
    assert_same(
        cp.searchsorted(cp.asarray(shuffled), cp.asarray(v), side=side, sorter=cp.asarray(sorter)),
        np.searchsorted(shuffled, v, side=side, sorter=sorter),
    )


@pytest.mark.gpu
def test_searchsorted_scalars_and_promotion():
    a = np.array([1, 2, 2, 3], np.int32)
    x = cp.asarray(a)
    for v in (2, 2.5, -1, 10):
        for side in ("left", "right"):
            got = cp.searchsorted(x, v, side=side)
            assert got.shape == () and int(got) == np.searchsorted(a, v, side=side)
    assert_same(cp.searchsorted(x, cp.asarray([1.5, 2.0])), np.searchsorted(a, np.array([1.5, 2.0])))
    assert_same(cp.searchsorted(cp.zeros(0), cp.asarray([1.0])), np.searchsorted(np.zeros(0), [1.0]))


@pytest.mark.parametrize("side", ["left", "right"])
def test_search_type_orders_as_numpy(side):
    # No device: searchsorted compares in search_type's type; NumPy's answers in that type are NumPy's own.
    from cuarray._sorting import search_type

    values = [0, 1, -1, 2, 3, 255, 256, 300, -129, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, -(2**63)]
    values += [0.0, 0.1, 0.5, -0.5, 2.5, 1e10, 65520.0, 3.4e38, 1e300, np.inf, -np.inf, np.nan, True, False]
    values += [np.float32(0.1), np.float16(0.1), np.int8(-1), np.uint8(200), 1 + 1j, 0.5 + 0j]
    for dtype in [
        "bool",
        "int8",
        "uint8",
        "int16",
        "int32",
        "int64",
        "uint64",
        "float16",
        "float32",
        "float64",
    ]:
        with np.errstate(
            all="ignore"
        ):  # the data wrap and saturate in the narrow types, the same on both sides
            a = np.sort(
                np.array([0, 1, 2, 3, 100, 200, 250, 2**40, 2**63 + 1, 0.1, 0.5, 2.5, -1, -3.5]).astype(dtype)
            )
        for v in values + [np.complex64(1 + 1j)] * (dtype.startswith("f")):
            host = np.asarray(v)
            with np.errstate(all="ignore"):
                t = search_type(a.dtype, host)
                got = np.searchsorted(a.astype(t), host.astype(t), side=side)
            assert got == np.searchsorted(a, v, side=side), (dtype, v, t)


@pytest.mark.gpu
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_compares_a_python_number_as_numpy(side):
    # NumPy compares a Python number as int64 or float64: 300 is past every uint8 (it was cast to 44), -1
    # before them (it was 255), and 0.1 is below float32's 0.1.
    cases = [
        (np.array([1, 3, 250], np.uint8), [300, -1, 256, 3, 2.5, True]),
        (np.array([-3, 0, 100], np.int8), [200, -129, 100, -3.5]),
        (np.array([0.1, 0.2, 0.5], np.float32), [0.1, 0.2, 0.5, np.float64(0.1), np.float32(0.1), np.nan]),
        (np.array([0.1, 0.5], np.float16), [0.1, 0.5, 65520.0]),
        (np.array([0, 2**63 + 1], np.uint64), [-1, 2**63 + 1, 2**64 - 1]),
        (np.array([False, True]), [1, 2, 0.5]),
        (np.array([1 + 1j, 2 + 0j], np.complex64), [2, 1 + 1j, 0.1]),
    ]
    for a, values in cases:
        for v in values:
            got = cp.searchsorted(cp.asarray(a), v, side=side)
            assert int(got) == np.searchsorted(a, v, side=side), (a.dtype, v)


# ---- unique ----


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("n", [0, 1, 50, 5000])
def test_unique(dtype, n):
    a = sort_data(n, dtype, seed=6)
    if np.dtype(dtype).kind == "c":  # NumPy's unique of complex NaNs depends on its algorithm: keep them out
        a = np.where(np.isnan(a), 1 + 1j, a).astype(dtype)
    x = cp.asarray(a)
    assert_same(cp.unique(x), np.unique(a))
    got = cp.unique(x, return_index=True, return_inverse=True, return_counts=True)
    expected = np.unique(a, return_index=True, return_inverse=True, return_counts=True)
    for g, e in zip(got, expected):
        assert_same(g, e)


@pytest.mark.gpu
def test_unique_shapes_and_nans():
    a = make_data((6, 7), np.int32) % 5
    x = cp.asarray(a)
    for g, e in zip(cp.unique(x, return_inverse=True), np.unique(a, return_inverse=True)):
        assert_same(g, e)
    f = np.array([np.nan, 1.0, np.nan, -0.0, 0.0, 1.0])
    assert_same(cp.unique(cp.asarray(f)), np.unique(f))
    assert_same(cp.unique(cp.asarray(f), equal_nan=False), np.unique(f, equal_nan=False))
    assert_same(cp.unique(cp.asarray(np.float32(3))), np.unique(np.float32(3)))
    big = np.random.default_rng(2).integers(0, 50_000, 300_000).astype(np.int32)
    assert_same(cp.unique(cp.asarray(big)), np.unique(big))
    assert_same(cp.unique(x, axis=0), np.unique(a, axis=0))  # more in test_setops.py
