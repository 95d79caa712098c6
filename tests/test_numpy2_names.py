"""NumPy names CuPy lacks, against NumPy on the same inputs: geomspace, block and histogram_bin_edges (vecdot,
matvec and vecmat: tests/test_vector_products.py)."""

import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, dtype_id, make_data
from cuarray import testing

gpu = pytest.mark.gpu


# ---- geomspace ------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize(
    "start,stop,kwargs",
    [
        (1, 1000, {"num": 4}),
        (1, 1000, {"num": 4, "dtype": int}),  # the ends are set exactly, so the cast gives 1 and 1000
        (1, 2, {"num": 0}),
        (1, 2, {"num": 1}),
        (3.5, 2.0, {"num": 7, "endpoint": False}),
        (-1, -1000, {"num": 4}),  # negative bounds: rotated onto the positive reals and back
        (1j, 1000j, {"num": 4}),
        (-1 + 0j, 1 + 0j, {"num": 5}),  # half a turn in the complex plane
        (1, 10, {"num": 5, "dtype": np.float32}),
        (1, 10, {"num": 5, "dtype": np.complex64}),
        (np.float32(2), np.float32(32), {"num": 5}),  # NumPy computes in float64 all the same
        ([1, 2, 3], [1000, 20, 3], {"num": 4}),
        ([1, 2, 3], [[10], [100]], {"num": 3, "axis": -1}),
        ([-1, 2], [-8, 3], {"num": 4, "axis": 1}),
    ],
)
@testing.numpy_cuarray_allclose(rtol={np.float32: 1e-6, np.complex64: 1e-6, "default": 1e-13}, atol=1e-15)
def test_geomspace_as_numpy(xp, start, stop, kwargs):
    if isinstance(start, list) and xp is cp:
        start = cp.asarray(np.asarray(start))
    if isinstance(stop, list) and xp is cp:
        stop = cp.asarray(np.asarray(stop))
    return xp.geomspace(start, stop, **kwargs)


@gpu
@pytest.mark.parametrize(
    "start,stop,num,error", [(0, 10, 5, ValueError), (1, [10, 0], 5, ValueError), (1, 10, -1, ValueError)]
)
def test_geomspace_errors_as_numpy(start, stop, num, error):
    for xp in (np, cp):
        with pytest.raises(error):
            xp.geomspace(start, xp.asarray(stop) if isinstance(stop, list) else stop, num)


# ---- block ----------------------------------------------------------------------------------------------


def _blocks(xp, layout, dtypes):
    """Nested lists of blocks of `dtypes` (cycled) with the shapes `layout` gives."""
    it = iter(range(100))
    if layout == "rows":  # [[A B], [C]]: a 2-D assembly
        shapes = [[(3, 2), (3, 1)], [(1, 3)]]
    elif layout == "deep":  # a 3-D assembly of 1-D and 2-D blocks
        shapes = [[[(2,), (3,)]], [[(1, 2), (1, 3)]]]
    elif layout == "flat":
        shapes = [(2,), (0,), (3,)]
    else:  # one block, as it is
        shapes = (2, 3)

    def build(s):
        if isinstance(s, list):
            return [build(x) for x in s]
        i = next(it)
        a = make_data(s, dtypes[i % len(dtypes)], i)
        if xp is cp:
            a = cp.asarray(a)
            if a.ndim == 2:  # a transposed, reversed view of a fresh copy: strided blocks
                a = cp.ascontiguousarray(a.T[::-1]).T[:, ::-1]
        elif a.ndim == 2:
            a = np.ascontiguousarray(a.T[::-1]).T[:, ::-1]
        return a

    return build(shapes)


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", ["rows", "deep", "flat", "one"])
@testing.numpy_cuarray_array_equal()
def test_block_as_numpy(xp, layout, dtype):
    return xp.block(_blocks(xp, layout, [dtype]))


@gpu
@pytest.mark.parametrize("dtypes", [("int8", "uint8"), ("int8", "uint8", "float16"), ("bool", "complex64")])
@testing.numpy_cuarray_array_equal()
def test_block_promotes_as_numpy(xp, dtypes):
    return xp.block(_blocks(xp, "rows", [np.dtype(t) for t in dtypes]))


@gpu
@pytest.mark.parametrize("dtypes", [("int8", "uint8", "float16"), ("uint8", "int8", "bool")])
@testing.numpy_cuarray_array_equal()
def test_block_of_many_elements_promotes_as_numpy(xp, dtypes):
    # Note [block's dtype]: past 2 * 512 * 512 elements times the depth, NumPy promotes all blocks at once
    a, b, c = (xp.ones(s, t) for s, t in zip([(600, 400), (600, 100), (1, 500)], dtypes))
    return xp.block([[a, b], [c]])


@gpu
@testing.numpy_cuarray_array_equal()
def test_block_of_numbers_types_them_as_numpy(xp):
    return xp.block([[1, 2.5], [True, 3]]), xp.block([xp.ones(2, np.int8), 7]), xp.block(5)


@gpu
def test_block_results_are_new_arrays():
    a = cp.arange(6.0).reshape(2, 3)
    for r in (cp.block(a), cp.block([a]), cp.block([[a]])):
        assert not cp.shares_memory(r, a)
        np.testing.assert_array_equal(r.get().reshape(2, 3), a.get())


@gpu
@pytest.mark.parametrize(
    "arrays,error",
    [
        ("()", TypeError),
        ("[(1, 2)]", TypeError),
        ("[]", ValueError),
        ("[[]]", ValueError),
        ("[[1], 2]", ValueError),
        ("[1, [2]]", ValueError),
        ("[[1, [2]], [3, []]]", ValueError),
        ("[[xp.ones((2, 2))], [xp.ones(3)]]", ValueError),  # shapes that do not join
    ],
)
def test_block_errors_as_numpy(arrays, error):
    messages = []
    for xp in (np, cp):
        with pytest.raises(error) as got:
            xp.block(eval(arrays, {"xp": xp}))
        messages.append(str(got.value))
    if "concatenation axis" not in messages[0]:
        assert messages[0] == messages[1]


# ---- histogram_bin_edges --------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d.kind != "c"], ids=dtype_id)
@pytest.mark.parametrize(
    "bins,range_", [(10, None), (3, (-5, 5)), (1, None), ([-10, 0, 2.5, 20], None), ([1, 2, 3], None)]
)
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_histogram_bin_edges_as_numpy(xp, dtype, bins, range_):
    a = xp.asarray(make_data((4, 5), dtype))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's bool-to-uint8 warning, checked below
        return xp.histogram_bin_edges(a, bins if np.ndim(bins) == 0 else xp.asarray(bins), range_)


@gpu
@testing.numpy_cuarray_allclose()
def test_histogram_bin_edges_of_empty_and_constant_data(xp):
    return xp.histogram_bin_edges(xp.zeros(0), 4), xp.histogram_bin_edges(xp.full(3, 2.0), 4)


@gpu
def test_histogram_bin_edges_agree_with_histogram_and_errors_as_numpy():
    a = make_data((50,), np.float32)
    x = cp.asarray(a)
    np.testing.assert_array_equal(cp.histogram_bin_edges(x, 7).get(), cp.histogram(x, 7)[1].get())
    edges = cp.asarray([0.0, 1.0, 5.0])
    assert cp.histogram_bin_edges(x, edges) is edges  # NumPy returns asarray(bins): the array itself
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        cp.histogram_bin_edges(cp.ones(3, bool))
    for xp, data in ((np, a), (cp, x)):
        for kwargs, error in (
            ({"bins": 0}, ValueError),
            ({"bins": [3, 1]}, ValueError),
            ({"bins": [[1, 2]]}, ValueError),
            ({"range": (2, 1)}, ValueError),
            ({"weights": xp.ones(3)}, ValueError),
        ):
            with pytest.raises(error):
                xp.histogram_bin_edges(data, **kwargs)
        with pytest.raises(ValueError, match="not finite"):
            xp.histogram_bin_edges(xp.asarray([1.0, np.nan]))


@gpu
@pytest.mark.parametrize(
    "dtype,values",
    [("float16", [0.1, 0.7, 2.3, 9.9, 3.3]), ("int8", [-100, 100, 3, -7]), ("uint64", [0, 2**63 + 2**40, 5])],
)
@testing.numpy_cuarray_allclose(rtol=0)
def test_histogram_edges_from_data_as_numpy(xp, dtype, values):
    # the data's extent in its own type: float16 edges are spaced in float16, integer widths do not overflow
    a = xp.asarray(np.array(values, dtype))
    counts, edges = xp.histogram(a, 7)
    return counts, edges, xp.histogram_bin_edges(a, 3)


@gpu
def test_histogram_of_complex_data_is_refused_as_in_cupy():
    for f in (cp.histogram, cp.histogram_bin_edges):
        with pytest.raises(NotImplementedError, match="complex input is not supported"):
            f(cp.ones(3, np.complex64))


@gpu
@pytest.mark.parametrize(
    "dtype,range_",
    [
        ("float32", (np.float64(0), np.float64(4))),  # NumPy scalars in range: float64 edges
        ("float32", (np.int64(0), np.int64(4))),
        ("float32", (0, 4)),  # Python numbers are weak: float32 edges
        ("int8", (np.float32(0), np.float32(4))),  # float32 edges for int8 data
        ("int8", (np.float16(-1), np.float16(3))),
        ("float16", None),
    ],
)
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_histogram_edge_dtype_from_range_and_data_as_numpy(xp, dtype, range_):
    a = xp.asarray(make_data((40,), dtype) / 10 if dtype.startswith("float") else make_data((40,), dtype) % 4)
    counts, edges = xp.histogram(a, 6, range_)
    return counts, edges, xp.histogram_bin_edges(a, 5, range_)


@gpu
def test_too_many_bins_for_the_data_range_as_numpy():
    for xp in (np, cp):
        a = xp.asarray(np.array([1, 1.001], np.float16))
        for f in (xp.histogram, xp.histogram_bin_edges):
            with pytest.raises(ValueError, match="Too many bins for data range"):
                f(a, 1000)


# ---- array(ndmax=) --------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize(
    "obj, kwargs",
    [
        ([[1, 2], [3, 4]], {"ndmax": 2}),
        ([[1, 2], [3, 4]], {"ndmax": 3}),
        ([[1, 2], [3, 4]], {"ndmax": 1}),  # nested deeper than ndmax: ValueError
        ([1, 2], {"ndmax": 0}),
        (5, {"ndmax": 0}),
        ([[1.5]], {"ndmax": 2, "ndmin": 2}),
        ([[1, 2]], {"ndmax": 1, "ndmin": 2}),  # ndmin above ndmax: ValueError
        ([1], {"ndmax": 65}),
        ([1], {"ndmax": -1}),
        (range(3), {"ndmax": 0}),
        ([np.arange(2), np.arange(2)], {"ndmax": 1}),  # arrays inside a list count
        ([(1, 2), (3, 4)], {"ndmax": 2, "dtype": np.float32}),
    ],
)
@testing.numpy_cuarray_array_equal(accept_error=ValueError)
def test_array_ndmax_as_numpy(xp, obj, kwargs):
    return xp.array(obj, **kwargs)


@gpu
@pytest.mark.parametrize("make", [lambda xp: xp.ones((2, 2)), lambda xp: np.ones((2, 2))])
def test_array_ndmax_leaves_arrays_their_dimensions(make):
    # NumPy bounds only the dimensions it finds in sequences: a (2, 2) array stays (2, 2) under ndmax=1.
    assert np.array(np.ones((2, 2)), ndmax=1).shape == (2, 2)
    r = cp.array(make(cp), ndmax=1)
    assert r.shape == (2, 2) and isinstance(r, cp.ndarray)
