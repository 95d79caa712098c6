"""packbits and unpackbits against NumPy: input dtypes, axes, bit orders, counts, layouts, 0-d and empty
arrays, errors."""

import re

import cuarray as cp
import numpy as np
import pytest
from conftest import INT_DTYPES, LAYOUT_NAMES, assert_same, dtype_id, make_data, make_pair

gpu = pytest.mark.gpu

SHAPES_AXES = [
    ((17,), None),
    ((17,), 0),
    ((3, 10), None),
    ((3, 10), 0),
    ((3, 10), 1),
    ((2, 3, 9), -1),
    ((2, 16, 3), 1),
    ((4, 2, 8), 0),
    ((5,), -1),
]


@gpu
@pytest.mark.parametrize("shape,axis", SHAPES_AXES, ids=range(len(SHAPES_AXES)))
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits(shape, axis, bitorder):
    a = make_data(shape, "bool", seed=sum(shape))
    assert_same(
        cp.packbits(cp.asarray(a), axis=axis, bitorder=bitorder), np.packbits(a, axis=axis, bitorder=bitorder)
    )


@gpu
@pytest.mark.parametrize("dtype", ["bool"] + INT_DTYPES, ids=dtype_id)
def test_packbits_takes_nonzero_as_one(dtype):
    a = make_data((4, 11), dtype)
    a[0, :3] = 0
    assert_same(cp.packbits(cp.asarray(a), axis=1), np.packbits(a, axis=1))
    assert_same(cp.packbits(cp.asarray(a)), np.packbits(a))


@gpu
def test_packbits_lists():
    bits = [1, 0, 1, 1, 0, 0, 0, 1, 1]
    assert_same(cp.packbits(bits), np.packbits(bits))
    assert_same(cp.packbits(bits, bitorder="little"), np.packbits(bits, bitorder="little"))


@gpu
def test_packbits_errors_like_numpy():
    with pytest.raises(TypeError, match="Expected an input array of integer or boolean data type"):
        cp.packbits(cp.ones(3))
    with pytest.raises(TypeError, match="Expected an input array of integer or boolean data type"):
        cp.packbits(cp.ones(3, np.complex64))
    with pytest.raises(TypeError):
        cp.packbits(cp.ones(3, bool), bitorder=None)
    with pytest.raises(np.exceptions.AxisError):
        cp.packbits(cp.ones((2, 3), bool), axis=2)
    with pytest.raises(np.exceptions.AxisError):
        cp.packbits(cp.ones((), bool), axis=1)
    with pytest.raises(TypeError):
        cp.packbits(cp.ones(3, bool), axis=1.0)


COUNTS = [None, 0, 3, 8, 13, 16, 20, -1, -5, -16]


@gpu
@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("shape,axis", [((2,), None), ((3, 2), 1), ((2, 2), 0), ((2, 3, 2), -1)])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_unpackbits(count, shape, axis, bitorder):
    a = make_data(shape, "uint8", seed=3) * 2 + 1  # odd values up to 239: most bits vary
    assert_same(
        cp.unpackbits(cp.asarray(a), axis=axis, count=count, bitorder=bitorder),
        np.unpackbits(a, axis=axis, count=count, bitorder=bitorder),
    )


@gpu
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_packbits_and_unpackbits_layouts(layout, axis):
    x, a = make_pair(layout, "int16")
    assert_same(cp.packbits(x, axis=axis), np.packbits(a, axis=axis))
    x, a = make_pair(layout, "uint8")
    assert_same(cp.unpackbits(x, axis=axis), np.unpackbits(a, axis=axis))
    assert_same(
        cp.unpackbits(x, axis=axis, count=-3 if a.size else 0),
        np.unpackbits(a, axis=axis, count=-3 if a.size else 0),
    )


@gpu
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_unpack_inverts_pack(bitorder):
    a = make_data((3, 21), "bool", seed=5)
    x = cp.asarray(a)
    packed = cp.packbits(x, axis=1, bitorder=bitorder)
    assert_same(cp.unpackbits(packed, axis=1, count=21, bitorder=bitorder), a.astype(np.uint8))
    every = cp.asarray(np.arange(256, dtype=np.uint8))
    assert_same(
        cp.packbits(cp.unpackbits(every, bitorder=bitorder), bitorder=bitorder),
        np.arange(256, dtype=np.uint8),
    )


@gpu
def test_unpackbits_errors_like_numpy():
    with pytest.raises(TypeError, match="Expected an input array of unsigned byte data type"):
        cp.unpackbits(cp.ones(3, np.int8))
    with pytest.raises(TypeError, match="Expected an input array of unsigned byte data type"):
        cp.unpackbits([1, 2])
    with pytest.raises(ValueError, match="-count larger than number of elements"):
        cp.unpackbits(cp.ones(2, np.uint8), count=-17)
    with pytest.raises(TypeError):
        cp.unpackbits(cp.ones(2, np.uint8), count=2.5)
    with pytest.raises(ValueError, match="'order' must be"):
        cp.unpackbits(cp.ones(2, np.uint8), bitorder="x")
    with pytest.raises(np.exceptions.AxisError):
        cp.unpackbits(cp.ones((2, 2), np.uint8), axis=-3)


def test_bits_refuse_numpy_arrays():
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cp.packbits(np.ones(3, bool))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cp.unpackbits(np.ones(3, np.uint8))


@gpu
@pytest.mark.parametrize(
    "bitorder", ["big", "little", "l", "b", "bigger", "little-endian", "bx", "x", "", "L"]
)
@pytest.mark.parametrize("func", ["packbits", "unpackbits"])
def test_bitorder_words_are_the_running_numpys(func, bitorder):
    # Which words name an order differs between NumPy versions: cuarray takes those the running NumPy takes,
    # with its errors.
    a = np.array([[1, 0, 1, 1, 0, 0, 0, 1, 1], [0, 1, 1, 0, 1, 0, 0, 0, 1]], np.uint8)
    try:
        want = getattr(np, func)(a, axis=1, bitorder=bitorder)
    except ValueError as e:
        with pytest.raises(ValueError, match=f"^{re.escape(str(e))}$"):
            getattr(cp, func)(cp.asarray(a), axis=1, bitorder=bitorder)
        return
    assert_same(getattr(cp, func)(cp.asarray(a), axis=1, bitorder=bitorder), want)
