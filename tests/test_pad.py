"""cuarray.pad against numpy.pad: every mode and pad-width form, dtypes, views, 0-d and empty arrays, errors."""

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, assert_same, dtype_id, make_data, make_pair
from cuarray import _pad

gpu = pytest.mark.gpu

# ---- pad widths and argument errors: checked before any device call ------------------------------------------

WIDTHS = [
    0,
    2,
    (1,),
    (1, 3),
    ((2, 1),),
    ((1, 0), (0, 2)),
    [[3], [1]],
    np.array([[1, 2], [3, 0]]),
    np.int8(1),
    {0: 2},
    {1: (0, 3)},
    {-1: 1, 0: (2, 1)},
]


def _numpy_widths(shape, pad_width):
    """The (before, after) pairs numpy.pad reads from pad_width: where the ones of a padded array of ones lie."""
    padded = np.pad(np.ones(shape, np.int8), pad_width)
    pairs = []
    for d, n in enumerate(shape):
        line = np.moveaxis(padded, d, 0).reshape(padded.shape[d], -1).any(axis=1)
        before = int(np.argmax(line))
        pairs.append((before, padded.shape[d] - before - n))
    return pairs


@pytest.mark.parametrize("pad_width", WIDTHS, ids=range(len(WIDTHS)))
def test_pad_widths_are_numpys(pad_width):
    assert _pad._pad_widths(pad_width, 2) == _numpy_widths((3, 4), pad_width)


BAD = [
    ((1.5,), {}),  # float widths
    (np.array([1], np.uint8), {}),  # NumPy takes signed integers only
    (-1, {}),
    (((1, 2), (3, -1)), {}),
    (((1, 2, 3),), {}),
    (((1, 2), (3, 4), (5, 6)), {}),
    ([[[1]]], {}),
    (1, {"mode": "nope"}),
    (1, {"mode": "edge", "constant_values": 1}),
    (1, {"mode": "constant", "stat_length": 1}),
    (1, {"mode": "reflect", "end_values": 1}),
    (1, {"mode": "wrap", "reflect_type": "odd"}),
]


@pytest.mark.parametrize("pad_width,kwargs", BAD, ids=range(len(BAD)))
def test_bad_arguments_raise_numpys_errors_before_touching_the_device(pad_width, kwargs):
    data = [[1, 2, 3], [4, 5, 6]]
    with pytest.raises(Exception) as want:
        np.pad(np.array(data), pad_width, **kwargs)
    with pytest.raises(want.type) as got:
        cp.pad(data, pad_width, **kwargs)  # a list: no array is made before the checks
    assert str(got.value) == str(want.value)


def test_numpy_arrays_are_refused():
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cp.pad(np.ones(3), 1)


def test_dict_widths_must_be_ints_or_pairs():
    with pytest.raises(TypeError, match="pair of ints"):
        cp.pad([[1, 2]], {0: 1.5})


# ---- values against NumPy --------------------------------------------------------------------------------------

MODES = [
    "constant",
    "edge",
    "linear_ramp",
    "maximum",
    "minimum",
    "mean",
    "median",
    "reflect",
    "symmetric",
    "wrap",
]
LAYOUTS = ["c2d", "f2d", "negative", "3d_permuted", "1d"]


def _check(x, a, pad_width, **kwargs):
    want = np.pad(a, pad_width, **kwargs)
    got = cp.pad(x, pad_width, **kwargs)
    assert_same(got, want)
    return got, want


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("mode", MODES)
def test_modes_over_dtypes(mode, dtype):
    if mode in ("mean", "median", "linear_ramp") and dtype.kind == "b":
        pytest.skip("NumPy's statistics and ramps of booleans go through other dtypes")
    if mode == "median" and dtype.kind == "c":
        pytest.skip("NumPy sorts complex medians in a different type")
    x, a = make_pair("c2d", dtype)
    _check(x, a, ((2, 1), (3, 2)), mode=mode)


@gpu
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("mode", MODES)
def test_modes_over_layouts(mode, layout):
    x, a = make_pair(layout, np.float64)
    _check(x, a, 2, mode=mode)


@gpu
@pytest.mark.parametrize("mode", ["reflect", "symmetric", "wrap", "edge"])
@pytest.mark.parametrize("pad_width", [7, (0, 11), ((9, 2), (1, 13))])
def test_pads_longer_than_the_data_repeat(mode, pad_width):
    x, a = make_pair("c2d", np.int32)  # 3 x 4
    _check(x, a, pad_width, mode=mode)
    for n in (1, 2, 3):
        b = make_data((n,), np.float32)
        _check(cp.asarray(b), b, pad_width if np.ndim(pad_width) < 2 else pad_width[0], mode=mode)


@gpu
@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "complex128", "bool"])
def test_odd_reflections(mode, dtype):
    x, a = make_pair("c2d", dtype)
    _check(x, a, ((5, 2), (9, 1)), mode=mode, reflect_type="odd")
    _check(x[:1], a[:1], 2, mode=mode, reflect_type="odd")


@gpu
@pytest.mark.parametrize("pad_width", WIDTHS, ids=range(len(WIDTHS)))
@pytest.mark.parametrize("mode", ["constant", "wrap", "mean"])
def test_width_forms(pad_width, mode):
    x, a = make_pair("c2d", np.float32)
    _check(x, a, pad_width, mode=mode)


@gpu
@pytest.mark.parametrize("values", [7, (1, -2), ((1, 2), (3, 4)), [[5], [6]], 2.75, np.float32(-1.5)])
@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64"])
def test_constant_values(values, dtype):
    x, a = make_pair("negative", dtype)
    _check(x, a, ((1, 2), (2, 1)), mode="constant", constant_values=values)


@gpu
def test_constant_values_from_a_device_scalar():
    x, a = make_pair("c2d", np.float64)
    got = cp.pad(x, 1, constant_values=cp.asarray(4.5))
    assert_same(got, np.pad(a, 1, constant_values=4.5))


@gpu
@pytest.mark.parametrize("end_values", [0, (5, -3), ((1, 2), (-4, 8))])
@pytest.mark.parametrize("dtype", ["int64", "uint16", "float32", "float64", "complex128"])
def test_linear_ramp(end_values, dtype):
    x, a = make_pair("c2d", dtype)
    if dtype == "uint16":
        x, a = x + 10, a + 10  # ramps that stay non-negative
    _check(x, a, ((4, 2), (3, 5)), mode="linear_ramp", end_values=end_values)


@gpu
@pytest.mark.parametrize("first", [0, 5])
def test_linear_ramp_rounds_as_linspace(first):
    # NumPy's linspace divides the steps before multiplying when any lane's step is zero (the lane whose edge
    # equals the end value), which floors 7/10 * 90 to 62 where 7 * 9.0 gives 63.
    a = np.array([[first, 90]])
    _check(cp.asarray(a), a, ((10, 0), (0, 0)), mode="linear_ramp")


@gpu
@pytest.mark.parametrize("stat_length", [None, 1, 2, (1, 3), ((2, 1), (4, 2)), 100])
@pytest.mark.parametrize("mode", ["maximum", "minimum", "mean", "median"])
@pytest.mark.parametrize("dtype", ["int8", "uint32", "float32", "float64"])
def test_stat_length(stat_length, mode, dtype):
    x, a = make_pair("strided", dtype)
    _check(x, a, ((3, 2), (1, 4)), mode=mode, stat_length=stat_length)


@gpu
def test_stat_length_zero():
    x, a = make_pair("1d", np.float64)
    with pytest.raises(ValueError, match="stat_length of 0 yields no value for padding"):
        cp.pad(x, 2, mode="maximum", stat_length=0)
    with pytest.warns(RuntimeWarning):
        got = cp.pad(x, 2, mode="mean", stat_length=(0, 2))
    with pytest.warns(RuntimeWarning):
        want = np.pad(a, 2, mode="mean", stat_length=(0, 2))
    assert_same(got, want)


@gpu
@pytest.mark.parametrize("mode", ["constant", "empty", "edge", "wrap", "reflect", "mean"])
def test_zero_d_and_empty_arrays(mode):
    z = make_data((), np.float32)
    got = cp.pad(cp.asarray(z), 3, mode=mode)
    assert got.shape == () and got.get() == z
    e = np.zeros((0, 3), np.float32)
    if mode in ("constant", "empty"):
        got = cp.pad(cp.asarray(e), 2, mode=mode)
        assert got.shape == (4, 7)
        if mode == "constant":
            assert_same(got, np.pad(e, 2))
    else:
        with pytest.raises(
            ValueError, match="can't extend empty axis 0 using modes other than 'constant' or 'empty'"
        ):
            cp.pad(cp.asarray(e), 2, mode=mode)
        assert_same(
            cp.pad(cp.asarray(e), ((0, 0), (1, 2)), mode=mode), np.pad(e, ((0, 0), (1, 2)), mode=mode)
        )


@gpu
def test_empty_mode_keeps_the_data():
    x, a = make_pair("c2d", np.int16)
    got = cp.pad(x, ((1, 2), (3, 1)), mode="empty")
    assert got.shape == (6, 8) and got.dtype == np.int16
    assert_same(got[1:4, 3:7], a)


@gpu
def test_fortran_input_gives_fortran_output():
    x, a = make_pair("f2d", np.float32)
    got = cp.pad(x, 1, mode="edge")
    assert got.flags.f_contiguous == np.pad(a, 1, mode="edge").flags.f_contiguous


@gpu
def test_callable_mode():
    def pad_with(vector, pad_width, iaxis, kwargs):
        value = kwargs.get("padder", 10)
        vector[: pad_width[0]] = value
        if pad_width[1]:
            vector[-pad_width[1] :] = value

    a = np.arange(6).reshape(2, 3)
    _check(cp.asarray(a), a, 2, mode=pad_with)
    _check(cp.asarray(a), a, (1, 2), mode=pad_with, padder=-1)


@gpu
def test_numpy_pad_dispatches_to_cuarray():
    x, a = make_pair("c2d", np.float32)
    got = np.pad(x, ((1, 2), (0, 3)), mode="reflect")
    assert isinstance(got, cp.ndarray)
    assert_same(got, np.pad(a, ((1, 2), (0, 3)), mode="reflect"))


@gpu
def test_lists_are_padded():
    assert_same(cp.pad([1, 2, 3], (2, 1), mode="symmetric"), np.pad([1, 2, 3], (2, 1), mode="symmetric"))


@gpu
def test_rollaxis():
    x, a = make_pair("3d_permuted", np.float32)
    for axis in range(-3, 3):
        for start in range(-3, 4):
            assert_same(cp.rollaxis(x, axis, start), np.rollaxis(a, axis, start))
    with pytest.raises(
        np.exceptions.AxisError, match="'start' arg requires -3 <= start < 4, but 5 was passed in"
    ):
        cp.rollaxis(x, 0, 5)
    with pytest.raises(np.exceptions.AxisError):
        cp.rollaxis(x, 3)
    assert cp.rollaxis(x, 1, 2).base is not None  # a view


@gpu
@pytest.mark.parametrize(
    "values",
    [[[-1, 2], [3, 4]], [[300, 2], [3, 4]], -1, (300, 2), [[1 + 2j, 0], [0, 0]], [[5], [-6]]],
    ids=repr,
)
@pytest.mark.parametrize("dtype", ["uint8", "float64"])
def test_constant_values_out_of_the_dtypes_range_as_numpy(values, dtype):
    # NumPy writes one value, or one per side, as NumPy scalars (a value out of range wraps), and a pair per axis
    # as Python numbers (out of range: OverflowError; complex into real: TypeError).
    a = np.arange(4, dtype=dtype).reshape(2, 2)
    try:
        want = np.pad(a, 1, constant_values=values)
    except (OverflowError, TypeError) as e:
        with pytest.raises(type(e)):
            cp.pad(cp.asarray(a), 1, constant_values=values)
        return
    assert_same(cp.pad(cp.asarray(a), 1, constant_values=values), want)
