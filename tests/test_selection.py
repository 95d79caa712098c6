"""choose, place, putmask and diagonal against NumPy: dtypes, broadcasting, layouts (writes through views),
0-d and empty arrays, errors."""

import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import (
    ALL_DTYPES,
    NONEMPTY_LAYOUTS,
    SOME_DTYPES,
    assert_same,
    dtype_id,
    make_data,
    make_pair_with_base,
)

gpu = pytest.mark.gpu


# ---- choose -------------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_choose_dtypes(dtype):
    index = np.array([[0, 2, 1, 2], [1, 0, 0, 2]])
    choices = [make_data((2, 4), dtype, seed=s) for s in range(3)]
    assert_same(cp.choose(cp.asarray(index), [cp.asarray(c) for c in choices]), np.choose(index, choices))


@gpu
def test_choose_promotes_and_broadcasts():
    index = np.array([[[0], [1], [2]], [[2], [1], [0]]])  # (2, 3, 1)
    choices = [make_data((4,), "int8", 1), make_data((3, 1), "float32", 2), make_data((), "uint16", 3)]
    got = cp.choose(cp.asarray(index), [cp.asarray(c) for c in choices])
    assert_same(got, np.choose(index, choices))


@gpu
@pytest.mark.parametrize("choices", [[3, 2.5, -1], [True, 2, 3], "int8_and_weak"])
def test_choose_python_scalars_are_weak(choices):
    index = np.array([0, 1, 2, 1])
    if choices == "int8_and_weak":
        base = make_data((4,), "int8")
        want = np.choose(index, [base, 2, 3])
        got = cp.choose(cp.asarray(index), [cp.asarray(base), 2, 3])
    else:
        want, got = np.choose(index, choices), cp.choose(cp.asarray(index), choices)
    assert_same(got, want)


# A Python int out of the choices' dtype: NumPy 2 keeps it weak (the dtype stays int8) and casts it unsafely,
# through int64 or uint64, with no range check: 300 wraps to 44, 2**63 to 0; past 64 bits OverflowError.
_OUT_OF_RANGE = [
    ("int8", 300),
    ("int8", -129),
    ("int8", 2**63),
    ("int8", 2**63 - 1),
    ("uint8", -1),
    ("uint64", -1),
    ("int64", 2**63),
    ("int8", 2**64),
    ("uint64", -(2**63) - 1),
    ("int16", 1.5),
    ("float16", 70000),
    ("float32", 1e300),
    ("int8", [300, 1, 2]),
]


def _outcome(f):
    """f()'s dtype and values, or its OverflowError; and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            r = f()
            got = (r.dtype, r.tolist())
        except OverflowError as e:
            got = (OverflowError, str(e))
    return got, sorted({(w.category, str(w.message)) for w in caught})


def _numpy_choose(base, value):
    return _outcome(lambda: np.choose(np.array([0, 1, 0]), [np.array([1, 2, 3], dtype=base), value]))


@pytest.mark.parametrize("base,value", _OUT_OF_RANGE, ids=repr)
def test_choose_converts_host_choices_as_numpy(base, value):
    from cuarray._selection import _host_choice, _weak_or_dtype

    dtype = np.result_type(np.dtype(base), _weak_or_dtype(value))
    index, first = np.array([0, 1, 0]), np.array([1, 2, 3], dtype=base)
    assert _outcome(lambda: np.choose(index, [first, _host_choice(value, dtype)])) == _numpy_choose(
        base, value
    )


@gpu
@pytest.mark.parametrize("base,value", _OUT_OF_RANGE, ids=repr)
def test_choose_python_ints_out_of_range(base, value):
    got = _outcome(lambda: cp.choose(cp.asarray([0, 1, 0]), [cp.asarray([1, 2, 3], dtype=base), value]))
    assert got == _numpy_choose(base, value)


@gpu
@pytest.mark.parametrize("mode", ["wrap", "clip"])
@pytest.mark.parametrize("index_dtype", ["int8", "int64", "uint8", "bool"])
def test_choose_modes(mode, index_dtype):
    index = np.array([0, 3, -1, -5, 7, 2, 1], dtype=np.int64).astype(index_dtype)
    choices = make_data((3, 7), "float64")
    assert_same(
        cp.choose(cp.asarray(index), cp.asarray(choices), mode=mode), np.choose(index, choices, mode=mode)
    )


@gpu
@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS)
def test_choose_layouts(layout):
    _, _, x, a = make_pair_with_base(layout, "int64")
    index = np.abs(a) % 3
    choices = [a, -a, np.ones_like(a)]
    got = cp.choose(cp.asarray(index)[...], [x, -x, cp.ones_like(x)])
    assert_same(got, np.choose(index, choices))
    # a non-contiguous index
    assert_same(cp.choose(cp.asarray(index.T.copy()).T, [x, -x, 7]), np.choose(index, [a, -a, 7]))


@gpu
def test_choose_zero_d_and_empty():
    assert_same(cp.choose(1, [5, 6]), np.asarray(np.choose(1, [5, 6])))
    assert_same(
        cp.choose(cp.asarray(0), [cp.arange(3), cp.ones(3)]), np.choose(0, [np.arange(3), np.ones(3)])
    )
    empty = np.zeros((0, 3), np.int64)
    assert_same(
        cp.choose(cp.asarray(empty), [cp.ones(3), cp.zeros(3)]), np.choose(empty, [np.ones(3), np.zeros(3)])
    )


@gpu
def test_choose_out():
    index = np.array([0, 1, 1, 0])
    choices = [[1.5, 2, 3, 4], [5, 6, 7, 8.5]]
    out = cp.zeros(4, np.int8)
    got = cp.choose(cp.asarray(index), choices, out=out)
    assert got is out
    want = np.zeros(4, np.int8)
    np.choose(index, choices, out=want)
    assert_same(out, want)
    with pytest.raises(TypeError, match="invalid shape for output array"):
        cp.choose(cp.asarray(index), choices, out=cp.zeros(3))


@gpu
def test_choose_errors_like_numpy():
    index = cp.asarray([0, 1, 2])
    with pytest.raises(ValueError, match="invalid entry in choice array"):
        cp.choose(index, [[1, 2, 3], [4, 5, 6]])
    with pytest.raises(ValueError, match="invalid entry in choice array"):
        cp.choose(cp.asarray([0, -1, 1]), [[1, 2, 3], [4, 5, 6]])
    with pytest.raises(TypeError, match="according to the rule 'safe'"):
        cp.choose(cp.asarray([0.0, 1.0]), [[1, 2], [3, 4]])
    with pytest.raises(TypeError, match="according to the rule 'safe'"):
        cp.choose(cp.asarray([0, 1], np.uint64), [[1, 2], [3, 4]])
    with pytest.raises(ValueError, match="clipmode"):
        cp.choose(index, [[1, 2, 3]], mode="nope")
    with pytest.raises(ValueError, match="0-length sequence"):
        cp.choose(index, [])
    with pytest.raises(ValueError):
        cp.choose(index, [[1, 2], [3, 4], [5, 6]])  # shapes (3,) and (2,) do not broadcast
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cp.choose(index, [np.array([1, 2, 3]), [3, 4, 5]])


def test_choose_refuses_numpy_arrays():
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cp.choose(np.array([0, 1]), [[1, 2], [3, 4]])


# ---- place and putmask -------------------------------------------------------------------------------------


def _masked(a, seed=0):
    """A mask over a (about half true) of a's size."""
    return np.random.default_rng(seed).random(a.shape) < 0.5


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize(
    ("name", "nvals"),
    [
        ("place", 1),
        ("place", 3),
        ("place", 40),
        ("putmask", 1),
        ("putmask", 3),
        ("putmask", 20),
        ("putmask", 40),
    ],
)
def test_place_and_putmask(name, dtype, nvals):
    a = make_data((4, 5), dtype)
    vals = make_data((nvals,), dtype, seed=2)
    mask = _masked(a)
    x = cp.asarray(a)
    assert getattr(cp, name)(x, cp.asarray(mask), cp.asarray(vals)) is None
    getattr(np, name)(a, mask, vals)
    assert_same(x, a)


@gpu
@pytest.mark.parametrize("name", ["place", "putmask"])
@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS + ["0d", "empty_strided"])
@pytest.mark.parametrize("dtype", SOME_DTYPES, ids=dtype_id)
def test_place_putmask_write_through_views(name, layout, dtype):
    xbase, abase, x, a = make_pair_with_base(layout, dtype)
    mask = _masked(a, seed=3)
    vals = make_data((3,), dtype, seed=4)
    getattr(np, name)(a, mask, vals)
    getattr(cp, name)(x, cp.asarray(mask), cp.asarray(vals))
    assert_same(xbase, abase)


@gpu
@pytest.mark.parametrize("name", ["place", "putmask"])
def test_place_putmask_masks_and_host_values(name):
    a = make_data((3, 4), "int32")
    x = cp.asarray(a)
    mask = (a % 3).ravel()  # ints of a's size, other shape: nonzero is true, in C order
    getattr(np, name)(a, mask, [1.7, -2.2, 300])  # Python values: converted as NumPy converts them
    getattr(cp, name)(x, cp.asarray(mask), [1.7, -2.2, 300])
    assert_same(x, a)
    getattr(np, name)(a, a > 0, 5)
    getattr(cp, name)(x, x > 0, 5)
    assert_same(x, a)


@gpu
@pytest.mark.parametrize("name", ["place", "putmask"])
def test_place_putmask_values_that_alias_the_array(name):
    a = np.arange(12, dtype=np.float32)
    x = cp.asarray(a)
    getattr(np, name)(a, a > 4, a[::-1])
    getattr(cp, name)(x, x > 4, x[::-1])
    assert_same(x, a)


@gpu
def test_place_putmask_safe_casts_of_arrays():
    a = make_data((4,), "int8")
    x = cp.asarray(a)
    cp.putmask(x, cp.asarray([True, False, True, False]), cp.asarray([5], np.int8))
    cp.place(x, cp.asarray([True, False, True, False]), cp.asarray([True]))
    np.putmask(a, [True, False, True, False], np.array([5], np.int8))
    np.place(a, np.array([True, False, True, False]), np.array([True]))
    assert_same(x, a)
    for name in ("place", "putmask"):
        with pytest.raises(
            TypeError, match="Cannot cast array data from dtype\\('int64'\\) to dtype\\('int8'\\)"
        ):
            getattr(cp, name)(x, cp.ones(4, bool), cp.asarray([1, 2]))
        with pytest.raises(TypeError, match="Cannot cast scalar from dtype\\('float64'\\)"):
            getattr(cp, name)(x, cp.ones(4, bool), cp.asarray(1.5))


@gpu
def test_place_putmask_empty_values():
    a = make_data((5,), "float64")
    x = cp.asarray(a)
    cp.putmask(x, x > 0, [])  # nothing to put: NumPy leaves `a` alone
    cp.place(x, cp.zeros(5, bool), [])
    assert_same(x, a)
    with pytest.raises(ValueError, match="Cannot insert from an empty array!"):
        cp.place(x, cp.ones(5, bool), [])


@gpu
def test_place_putmask_errors_like_numpy():
    x = cp.arange(6)
    for name in ("place", "putmask"):
        with pytest.raises(ValueError, match=f"{name}: mask and data must be the same size"):
            getattr(cp, name)(x, cp.ones(5, bool), [1])
    with pytest.raises(TypeError, match="float"):
        cp.place(cp.zeros(3), cp.ones(3, bool), [1 + 2j])
    with pytest.raises(OverflowError):
        cp.putmask(cp.zeros(3, np.uint8), cp.ones(3, bool), [300])


def test_place_putmask_need_device_arrays():
    with pytest.raises(TypeError, match="place\\(\\) argument 1 must be cuarray.ndarray, not list"):
        cp.place([1, 2], [True, False], [3])
    with pytest.raises(TypeError, match="putmask: first argument must be an array"):
        cp.putmask([1, 2], [True, False], 3)


# ---- diagonal ----------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("offset", [0, 1, -2, 5, -7])
@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (0, 2), (-1, 1)])
def test_diagonal(offset, axes):
    a = make_data((3, 4, 5), "complex128")
    x = cp.asarray(a)
    assert_same(cp.diagonal(x, offset, *axes), np.diagonal(a, offset, *axes))
    assert_same(
        cp.diagonal(x[::-1, :, ::2], offset=offset, axis1=axes[0], axis2=axes[1]),
        np.diagonal(a[::-1, :, ::2], offset=offset, axis1=axes[0], axis2=axes[1]),
    )


@gpu
def test_diagonal_of_a_list_and_errors():
    assert_same(cp.diagonal([[1, 2], [3, 4]]), np.diagonal([[1, 2], [3, 4]]))
    with pytest.raises(ValueError, match="at least two dimensions"):
        cp.diagonal(cp.ones(3))
    with pytest.raises(ValueError, match="axis1 and axis2 cannot be the same"):
        cp.diagonal(cp.ones((2, 2)), 0, 1, -1)
    with pytest.raises(np.exceptions.AxisError):
        cp.diagonal(cp.ones((2, 2)), 0, 0, 2)


def test_diagonal_refuses_numpy_arrays():
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cp.diagonal(np.ones((2, 2)))
