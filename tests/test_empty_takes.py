"""take, put, choose, compress and searchsorted where an operand or the result is empty, against NumPy: an index
that is never read is never checked (Note [Empty takes] in python/cuarray/_indexing.py), and NumPy's errors for
indices into empty axes and arrays, in every mode, with host and device indices."""

import itertools
import math

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same

MODES = ("raise", "wrap", "clip")
SHAPES = [(0,), (3,), (0, 3), (3, 0), (2, 0, 3), (0, 0), (1, 0, 0), (2, 3)]
INDICES = [
    np.array([], np.int64),
    np.full((2, 0), 7),
    np.array([5]),
    np.array([0]),
    np.array([-1, 1]),
    np.array(0),
    np.array(9),
    np.array([[3, -4]]),
]


def _outcome(f, xp):
    try:
        return f(xp), None
    except Exception as e:  # noqa: BLE001 - compared with NumPy's
        return None, e


def _same_outcome(f, *, message=True):
    """f(numpy) and f(cuarray) return the same array (or None), or raise the same exception type; with
    `message`, the same message too (out-of-bounds messages may name another bad index of the same array)."""
    __tracebackhide__ = True
    expected, np_error = _outcome(f, np)
    got, cp_error = _outcome(f, cp)
    if np_error is not None or cp_error is not None:
        assert type(cp_error) is type(np_error), f"numpy: {np_error!r}, cuarray: {cp_error!r}"
        if message and "out of bounds" not in str(np_error):
            assert str(cp_error) == str(np_error)
        elif message:
            assert "out of bounds" in str(cp_error), cp_error
        return
    if expected is None:
        assert got is None
    else:
        assert_same(got, expected)


def _numpy_loops_forever(shape, idx, axis, mode):
    """NumPy's wrap loops forever on an empty axis whose empty result still has positions to visit (the axes
    after `axis` hold no element)."""
    if axis is None:
        shape, axis = (math.prod(shape),), 0
    visited = math.prod(shape[:axis]) * idx.size != 0
    return mode == "wrap" and shape[axis] == 0 and visited and math.prod(shape[axis + 1 :]) == 0


TAKE_CASES = [
    (shape, idx, axis)
    for shape, idx in itertools.product(SHAPES, INDICES)
    for axis in [None, *range(len(shape))]
]


@pytest.mark.gpu
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("where", ["host", "device"])
@pytest.mark.parametrize("shape, idx, axis", TAKE_CASES, ids=range(len(TAKE_CASES)))
def test_take_empty_operands_match_numpy(shape, idx, axis, mode, where):
    def f(xp):
        a = xp.arange(math.prod(shape), dtype=xp.float32).reshape(shape)
        i = xp.asarray(idx) if where == "device" and xp is cp else idx
        return xp.take(a, i, axis=axis, mode=mode)

    if _numpy_loops_forever(shape, idx, axis, mode):
        a = np.zeros(shape, np.float32)
        expected = np.take(a, idx, axis=axis, mode="clip")  # the empty result, or clip's IndexError
        i = cp.asarray(idx) if where == "device" else idx
        assert_same(cp.take(cp.asarray(a), i, axis=axis, mode=mode), expected)
        return
    _same_outcome(f)


@pytest.mark.gpu
def test_take_reads_no_index_of_an_empty_result():
    # The index is far out of range, but no element of the result needs it.
    a = np.zeros((0, 3), np.int16)
    for mode, i in itertools.product(MODES, ([5], [[-7], [9]])):
        expected = np.take(a, i, axis=1, mode=mode)
        assert_same(cp.take(cp.asarray(a), i, axis=1, mode=mode), expected)
        assert_same(cp.take(cp.asarray(a), cp.asarray(i), axis=1, mode=mode), expected)
    assert_same(cp.arange(3).take(cp.asarray([], cp.int64)), np.arange(3).take(np.array([], np.int64)))
    assert_same(cp.take(cp.arange(3), np.full((2, 0), 99)), np.take(np.arange(3), np.full((2, 0), 99)))
    # An empty index of any integer dtype, and an empty list (float64 to NumPy, but it indexes nothing).
    for dtype in (np.int8, np.uint16, np.int32, np.uint64):
        assert_same(cp.take(cp.arange(3.0), cp.zeros(0, dtype)), np.take(np.arange(3.0), np.zeros(0, dtype)))
    assert_same(cp.take(cp.arange(3.0), []), np.take(np.arange(3.0), []))


@pytest.mark.gpu
def test_take_empty_with_out():
    out = cp.zeros((0, 1), cp.float64)
    assert cp.take(cp.zeros((0, 3)), [5], axis=1, out=out) is out
    with pytest.raises(ValueError, match="output array does not match"):
        cp.take(cp.zeros((0, 3)), [5], axis=1, out=cp.zeros((1, 1)))


@pytest.mark.gpu
@pytest.mark.parametrize("mode", MODES)
def test_take_non_empty_from_empty_axis(mode):
    for where in ("host", "device"):
        i = cp.asarray([0]) if where == "device" else [0]
        with pytest.raises(IndexError, match=r"^cannot do a non-empty take from an empty axes\.$"):
            cp.take(cp.zeros(0), i, mode=mode)
        with pytest.raises(IndexError, match=r"^cannot do a non-empty take from an empty axes\.$"):
            cp.zeros((2, 0)).take(i, axis=1, mode=mode)
        with pytest.raises(IndexError, match=r"^cannot do a non-empty take from an empty axes\.$"):
            cp.take(cp.zeros(0), 0, mode=mode)  # a scalar index


PUT_CASES = list(itertools.product(SHAPES, INDICES, [[], [1.5], [1.0, 2.0]]))


@pytest.mark.gpu
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("where", ["host", "device"])
@pytest.mark.parametrize("shape, idx, values", PUT_CASES, ids=range(len(PUT_CASES)))
def test_put_empty_operands_match_numpy(shape, idx, values, mode, where):
    def f(xp):
        a = xp.arange(math.prod(shape), dtype=xp.float64).reshape(shape)
        i = xp.asarray(idx) if where == "device" and xp is cp else idx
        v = xp.asarray(values, dtype=xp.float64) if where == "device" and xp is cp else values
        xp.put(a, i, v, mode=mode)
        return a

    _same_outcome(f)


@pytest.mark.gpu
def test_put_messages_for_empty_arrays():
    for mode in MODES:
        with pytest.raises(IndexError, match="^cannot replace elements of an empty array$"):
            cp.put(cp.zeros(0), [5], [1.0], mode=mode)
        with pytest.raises(IndexError, match="^cannot replace elements of an empty array$"):
            cp.put(cp.zeros((0, 3)), cp.asarray([0]), [], mode=mode)  # checked before the values' emptiness
        x = cp.arange(3.0)
        cp.put(x, [99], [], mode=mode)  # no values: nothing is written and no index is read
        cp.put(x, [], [1.0], mode=mode)
        assert_same(x, np.arange(3.0))


CHOOSE_CASES = [
    (np.array([5]), [np.zeros(0)]),
    (np.full((0,), 5), [np.zeros(0), np.zeros(0)]),
    (np.array([5, -1]), [np.zeros((0, 2))]),
    (np.full((0, 2), 5), [np.zeros(2)]),
    (np.array([], np.int64), [np.zeros(1)]),
    (np.array([], np.int64), [np.arange(3)]),  # the shapes do not broadcast
    (np.zeros(2, np.int64), [np.zeros(3), np.zeros(3)]),
    (np.zeros(3, np.int64), [np.zeros(3), np.zeros(2)]),
    (np.array([5]), [np.zeros(1)]),
    (np.zeros(0, np.int64), []),
]


@pytest.mark.gpu
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("a, choices", CHOOSE_CASES, ids=range(len(CHOOSE_CASES)))
def test_choose_empty_operands_match_numpy(a, choices, mode):
    def f(xp):
        return xp.choose(xp.asarray(a), [xp.asarray(c) for c in choices], mode=mode)

    _same_outcome(f)


@pytest.mark.gpu
def test_choose_empty_result_with_out():
    out = cp.zeros((0, 2))
    assert cp.choose(cp.asarray([5, -1]), [cp.zeros((0, 2))], out=out) is out
    with pytest.raises(TypeError, match="invalid shape for output array"):
        cp.choose(cp.asarray([5]), [cp.zeros(1)], out=cp.zeros(2))  # before the bad entry, as NumPy


COMPRESS_CASES = [
    ([], (3,), None),
    ([True], (0,), None),
    ([False], (0,), None),
    ([False, True], (1,), None),
    ([False, False, False], (1,), None),
    ([True], (0, 2), 1),
    ([True, True, True], (0, 2), 1),
    ([], (0, 2), 0),
    ([True], (2, 0), 0),
    ([True, False], (0, 2), 1),
    ([False, True], (2, 0), 0),
]


@pytest.mark.gpu
@pytest.mark.parametrize("condition, shape, axis", COMPRESS_CASES, ids=range(len(COMPRESS_CASES)))
def test_compress_empty_operands_match_numpy(condition, shape, axis):
    def f(xp):
        return xp.compress(xp.asarray(condition, dtype=bool), xp.zeros(shape, xp.int32), axis=axis)

    _same_outcome(f)


@pytest.mark.gpu
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_empty_operands_match_numpy(side):
    for a, v, sorter in [
        (np.zeros(0), np.array([1.0, 2.0]), None),
        (np.zeros(3), np.array([]), None),
        (np.zeros(0), np.array([]), None),
        (np.zeros(0), np.array([1.0]), np.array([], np.int64)),
        (np.zeros(0), np.zeros((2, 0)), None),
        (np.arange(3.0), np.zeros((0, 4)), np.array([0, 1, 2])),
    ]:

        def f(xp, a=a, v=v, sorter=sorter):
            s = None if sorter is None else xp.asarray(sorter)
            return xp.searchsorted(xp.asarray(a), xp.asarray(v), side=side, sorter=s)

        _same_outcome(f)
    assert_same(cp.searchsorted(cp.zeros(0), 1.0), np.searchsorted(np.zeros(0), 1.0))
    with pytest.raises(ValueError, match="sorter.size must equal a.size"):
        cp.searchsorted(cp.zeros(3), cp.asarray([1.0]), sorter=cp.asarray([0, 1]))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "complex128"])
def test_empty_takes_keep_the_dtype(dtype):
    a = np.zeros((0, 3), dtype)
    assert_same(cp.take(cp.asarray(a), [7], axis=1), np.take(a, [7], axis=1))
    assert_same(
        cp.take(cp.asarray(a), cp.asarray([7]), axis=1, mode="clip"), np.take(a, [7], axis=1, mode="clip")
    )
    assert_same(
        cp.take_along_axis(cp.asarray(a), cp.full((0, 1), 9), 1), np.take_along_axis(a, np.full((0, 1), 9), 1)
    )


INDEX_CONVERSIONS = [
    [1.7],
    [True, False],
    1.7,
    np.float64(1.7),
    np.array([True]),
    [2**70],
    ["1"],
    [1 + 0j],
    np.array([1], np.uint32),
    np.array([1.0]),
    np.array([], np.float64),
    [],
    [[]],
    np.array([2], np.uint64),
]


@pytest.mark.gpu
@pytest.mark.parametrize("indices", INDEX_CONVERSIONS, ids=range(len(INDEX_CONVERSIONS)))
@pytest.mark.parametrize("where", ["host", "device"])
def test_take_and_put_convert_indices_as_numpy(indices, where):
    # Objects that are not arrays are converted to intp by force; arrays must cast, by 'same_kind' for take
    # and 'safe' for put.
    if where == "device" and not isinstance(indices, np.ndarray):
        pytest.skip("only arrays have a device form")

    def index(xp):
        return xp.asarray(indices) if where == "device" and xp is cp else indices

    _same_outcome(lambda xp: xp.take(xp.arange(3.0) * 10, index(xp)))

    def put(xp):
        a = xp.arange(3.0) * 10
        xp.put(a, index(xp), 5.0)
        return a

    _same_outcome(put)


@pytest.mark.gpu
def test_method_forms_share_the_rules():
    a = np.zeros((0, 3), np.float32)
    x = cp.asarray(a)
    assert_same(x.take([5], axis=1), a.take([5], axis=1))
    assert_same(x.compress([True, False, True, True], axis=1), a.compress([True, False, True, True], axis=1))
    assert_same(cp.asarray([5, -1]).choose([cp.zeros((0, 2))]), np.array([5, -1]).choose([np.zeros((0, 2))]))
    y = cp.arange(3.0)
    y.put([7], [])
    assert_same(y, np.arange(3.0))
    with pytest.raises(IndexError, match="^cannot replace elements of an empty array$"):
        x.put([0], [1.0])
    assert_same(cp.zeros(0).searchsorted(cp.asarray([1.0, 2.0])), np.zeros(0).searchsorted([1.0, 2.0]))
