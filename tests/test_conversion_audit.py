"""Host values as NumPy converts them, against NumPy on the same inputs: values assigned to elements and slices
(Python numbers, NumPy scalars, strings, sequences and NumPy arrays), fill, item's arguments, astype's copy
and subok, subclasses of int and float as operands; and NumPy 2.5's descending sorts, unique's NaN of complex
values, and searchsorted's side."""

import enum
import inspect
import warnings

import cuarray as cp
import numpy as np
import pytest
from cuarray import _sorting

gpu = pytest.mark.gpu
nan = float("nan")


def outcome(f):
    """f()'s result as a host array (with its dtype), or its exception type and message; NumPy's warnings are
    errors, so a warning NumPy gives must be given by cuarray too."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            r = f()
        except Exception as e:  # noqa: BLE001 (the exception is what is compared)
            return type(e)
    return cp.asnumpy(r) if isinstance(r, cp.ndarray) else r


def same(a, b):
    if isinstance(a, type) or isinstance(b, type):
        return a is b or (isinstance(a, type) and isinstance(b, type) and issubclass(b, a))
    if isinstance(a, np.ndarray):
        return (
            a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
        )
    return type(a) is type(b) and (a == b or (np.isnan(a) and np.isnan(b)))


def assigned(xp, dtype, key, value):
    a = xp.zeros(3, dtype)
    a[key] = value
    return a


# Each: (dtype, key, value). NumPy converts every value that is not a NumPy array by the element type's own
# rules (Note [Assigned values]).
ASSIGNMENTS = [
    ("int8", 0, 300),
    ("int8", 0, np.int64(300)),
    ("int8", 0, np.uint8(200)),
    ("uint8", 0, np.int8(-1)),
    ("int8", 0, np.float64(1e10)),
    ("int32", 0, np.float32(nan)),
    ("int32", 0, np.float64(np.inf)),
    ("int8", 0, np.array(300)),
    ("int8", 0, "7"),
    ("int8", 0, b"7"),
    ("int8", 0, "x"),
    ("float64", 0, "1.5"),
    ("complex128", 0, "1+2j"),
    ("float64", 0, np.complex128(1 + 1j)),
    ("bool", 0, np.float64(0.5)),
    ("int8", slice(0, 2), [300, 1]),
    ("uint8", slice(0, 2), [-1, 2]),
    ("uint8", slice(0, 2), [-1.0, 2]),
    ("int8", slice(0, 2), [1.5, 2]),
    ("float64", slice(0, 2), [1j, 2]),
    ("int32", slice(0, 2), [nan, 1]),
    ("int8", slice(0, 2), (np.int64(300), 1)),
    ("int8", slice(0, 2), [np.int8(5), np.uint64(300)]),
    ("int64", slice(0, 2), [2**63, 0]),
    ("uint64", slice(0, 2), [2**64 - 1, 0]),
    ("uint64", slice(0, 2), [2**64 - 1, -1]),
    ("int8", slice(0, 2), ["7", 1]),
    ("bool", slice(0, 2), ["", "x"]),
    ("float64", slice(0, 2), [None, 1]),
    ("int8", slice(0, 2), np.array([300, 1])),
    ("int8", slice(0, 2), [np.array(300), 1]),
    ("int16", slice(0, 2), np.array([1, 2], np.uint64)),
    ("complex128", slice(0, 2), ["1+2j", 1]),
    ("int8", slice(None), np.int64(300)),
    ("int8", slice(None), "7"),
    ("int8", [0, 1], np.int64(300)),  # fancy indices cast a NumPy scalar unsafely, as NumPy's do
    ("int8", np.array([True, False, True]), np.int64(300)),
]


@gpu
@pytest.mark.parametrize("dtype, key, value", ASSIGNMENTS, ids=repr)
def test_assigned_values_convert_as_numpy(dtype, key, value):
    want = outcome(lambda: assigned(np, dtype, key, value))
    got = outcome(lambda: assigned(cp, dtype, key, value))
    assert same(want, got), (want, got)


@gpu
@pytest.mark.parametrize("value", [np.int64(300), np.float32(nan), 300, "7", np.int8(-1)], ids=repr)
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32"])
def test_fill_converts_as_numpy(dtype, value):
    def fill(xp):
        a = xp.zeros(2, dtype)
        a.fill(value)
        return a

    want, got = outcome(lambda: fill(np)), outcome(lambda: fill(cp))
    assert same(want, got), (want, got)


@gpu
def test_assigned_strings_and_datetimes_still_parse():
    a = cp.zeros(2, "datetime64[D]")
    a[0] = "2020-01-02"
    a[1:] = np.array(["2021-03-04"], "datetime64[s]")
    assert a.get().tolist() == np.array(["2020-01-02", "2021-03-04"], "datetime64[D]").tolist()


ITEM_ARGS = [
    (),
    (True,),
    (0, 0, 0),
    ((0, 0, 0),),
    ((1,),),
    (5,),
    (-12,),
    (12,),
    (2, 3),
    ((2, 3),),
    (2, 4),
    (1.0,),
]


@gpu
@pytest.mark.parametrize("args", ITEM_ARGS, ids=repr)
@pytest.mark.parametrize("shape", [(3, 4), (1,), ()])
def test_item_arguments_as_numpy(shape, args):
    a = np.arange(float(np.prod(shape, dtype=int))).reshape(shape) - 4.5
    want = outcome(lambda: a.item(*args))
    got = outcome(lambda: cp.asarray(a).item(*args))
    assert same(want, got), (want, got)


@gpu
@pytest.mark.parametrize("copy", [True, False, "yes", "", None, 0, np.True_, [1]], ids=repr)
def test_astype_reads_copy_by_its_truth(copy):
    h, a = np.arange(3.0), cp.arange(3.0)
    assert (a.astype(float, copy=copy) is a) == (h.astype(float, copy=copy) is h) == (not copy)


@gpu
@pytest.mark.parametrize("subok", ["yes", None, [1]], ids=repr)
def test_astype_reads_subok_as_an_integer(subok):
    with pytest.raises(TypeError):
        np.arange(3.0).astype(float, subok=subok)
    with pytest.raises(TypeError):
        cp.arange(3.0).astype(float, subok=subok)


class PyInt(int):
    pass


class PyFloat(float):
    pass


class Color(enum.IntEnum):
    RED = 300


@gpu
@pytest.mark.parametrize(
    "make",
    [
        lambda xp: xp.asarray(np.array([1, -1, 127], np.int8)) + PyInt(300),
        lambda xp: xp.asarray(np.array([1, 255], np.uint8)) + PyInt(-1),
        lambda xp: xp.asarray(np.array([1.5], np.float32)) * PyFloat(1.5),
        lambda xp: xp.asarray(np.array([1, 2], np.int8)) == Color.RED,
        lambda xp: xp.add(xp.asarray(np.array([3], np.int16)), PyInt(2)),
    ],
)
def test_int_and_float_subclasses_are_strong_operands(make):
    want, got = outcome(lambda: make(np)), outcome(lambda: make(cp))
    assert same(want, got), (want, got)


# ---- descending sorts (NumPy 2.5: largest first, NaNs still last, equal elements in their original order) ----


def descending_order(a):
    """NumPy 2.5's descending stable argsort of a 1-D array, computed without its `descending`: the ascending
    stable argsort of -a (floats, complex) or ~a (integers, bools)."""
    key = -a if a.dtype.kind in "fc" else ~a
    return np.argsort(key, kind="stable")


DESC_DATA = {
    "float64": np.array([3.0, nan, 1.0, -0.0, 0.0, nan, 1.0, -np.inf, 2.0, np.inf]),
    "float16": np.array([2.0, nan, 1.0, -0.0, 0.0, 65504, -2.0, -np.inf, 6e-8, nan], np.float16),
    "complex128": np.array(
        [1 + 1j, complex(nan, 0), complex(1, nan), 0j, 1 - 1j, complex(nan, nan), complex(nan, 1)]
        + [complex(0, nan), complex(-np.inf, 0), complex(np.inf, np.inf), 1 + 1j]
    ),
    "int8": np.array([3, -128, 127, 0, 3, -1, 0], np.int8),
    "uint64": np.array([2**63 + 5, 1, 2**64 - 1, 0, 1], np.uint64),
    "bool": np.array([True, False, True, False, False]),
}


@gpu
@pytest.mark.parametrize("dtype", list(DESC_DATA))
def test_descending_sorts_as_numpy_2_5(dtype):
    a = DESC_DATA[dtype]
    order = descending_order(a)
    if "descending" in inspect.signature(np.argsort).parameters:  # NumPy 2.5 and later
        np.testing.assert_array_equal(np.argsort(a, descending=True, stable=True), order)
    x = cp.asarray(a)
    np.testing.assert_array_equal(cp.argsort(x, descending=True).get(), order)
    got = cp.sort(x, descending=True).get()
    want = a[order]
    np.testing.assert_array_equal(got, want)
    assert got.flags.c_contiguous
    if a.dtype.kind in "fc":
        np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real))
    y = cp.asarray(a)
    y.sort(descending=True)
    np.testing.assert_array_equal(y.get(), want)


@gpu
def test_descending_sorts_along_axes():
    a = np.array([[3.0, nan, 1.0, 1.0], [nan, 0.0, -0.0, 5.0], [2.0, 2.0, nan, nan]])
    for axis in (0, 1, -1, None):
        flat = a.ravel() if axis is None else a
        ax = -1 if axis is None else axis
        order = np.argsort(-flat, axis=ax, kind="stable")
        np.testing.assert_array_equal(cp.argsort(cp.asarray(a), axis=axis, descending=True).get(), order)
        np.testing.assert_array_equal(
            cp.sort(cp.asarray(a), axis=axis, descending=True).get(), np.take_along_axis(flat, order, ax)
        )


@pytest.mark.parametrize("kind", ["stable", "quicksort"])
@pytest.mark.parametrize("descending", [True, False])
def test_kind_with_descending_is_refused(kind, descending):
    with pytest.raises(ValueError, match="can't be provided at the same time"):
        _sorting._check(kind, None, None, descending)
    assert _sorting._check(None, None, None, descending) is descending


@gpu
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_unique_of_complex_keeps_numpys_nan(dtype):
    a = np.array([1 + 1j, complex(nan, 0), complex(1, nan), 0j, complex(nan, 2), 1 + 1j], dtype)
    for b in (a, a[::-1], a[[0, 3, 2, 1]]):
        want = np.unique(b)
        got = cp.unique(cp.asarray(b)).get()
        np.testing.assert_array_equal(got.real, want.real)
        np.testing.assert_array_equal(got.imag, want.imag)
        # with indices or counts NumPy sorts, keeping the first NaN in sorted order
        w, wi = np.unique(b, return_index=True)
        g, gi = (r.get() for r in cp.unique(cp.asarray(b), return_index=True))
        np.testing.assert_array_equal(g.real, w.real)
        np.testing.assert_array_equal(g.imag, w.imag)
        np.testing.assert_array_equal(gi, wi)


@pytest.mark.parametrize("side", [None, 1, "x", "L"], ids=repr)
def test_searchsorted_side_checks_as_numpy(side):
    with pytest.raises(Exception) as want:
        np.searchsorted([1, 2, 3], 2, side=side)
    with pytest.raises(want.type):
        cp.searchsorted(None, 2, side=side)  # the side is checked before the arrays


@gpu
def test_descending_sorts_of_bfloat16():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    a = np.array([1.5, np.nan, -2.0, 0.0, 3.0], ml_dtypes.bfloat16)
    order = np.argsort(-a.astype(np.float32), kind="stable")
    np.testing.assert_array_equal(cp.argsort(cp.asarray(a), descending=True).get(), order)
    np.testing.assert_array_equal(
        cp.sort(cp.asarray(a), descending=True).get().astype(np.float32), a[order].astype(np.float32)
    )


@gpu
@pytest.mark.parametrize("side", [b"left", b"right"])
def test_searchsorted_reads_a_bytes_side_as_numpy(side):
    want = np.searchsorted(np.array([1, 2, 3]), 2, side=side)
    assert int(cp.searchsorted(cp.asarray([1, 2, 3]), 2, side=side)) == want
