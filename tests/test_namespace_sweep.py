"""What a differential run over NumPy's namespace found (every function NumPy and cuarray share, twelve dtypes,
eight layouts, eleven argument patterns): linspace and logspace in the type of typed bounds, a 0-d device integer
as a shape, histogram of bools, stacking an empty sequence, roll's 2-D shifts, transpose's empty axes, norm's
axis of a 0-d array, float section counts, union1d and concatenate with a Python number, complex arange
lengths, average over an empty result, 0-d arrays in tril, triu and lexsort; and from the methods and operators:
any negative length as reshape's unknown one, and a number where an array belongs staying 0-d."""

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing

gpu = pytest.mark.gpu

BOUND_TYPES = [np.float16, np.float32, np.float64, np.complex64, np.int8, np.int32]


def _start(xp, form, dtype):
    values = np.array([0.5, 1.0]).astype(dtype)
    return {
        "0-d": lambda: xp.asarray(values[0]),
        "1-d": lambda: xp.asarray(values),
        "scalar": lambda: values[0],
    }[form]()


@gpu
@pytest.mark.parametrize("dtype", BOUND_TYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("form", ["0-d", "1-d", "scalar"])
@pytest.mark.parametrize("stop", [2, 2.5, -1])
@testing.numpy_cuarray_allclose(rtol={np.float16: 1e-3, "default": 1e-6})
def test_linspace_and_logspace_compute_in_the_type_of_typed_bounds(xp, dtype, form, stop):
    # A float32 bound and a Python number give float32 (it was float64): the Python number is weakly typed.
    start = _start(xp, form, dtype)
    return (
        xp.linspace(start, stop, 5),
        xp.logspace(start, stop, 4),
        xp.linspace(stop, start, 3, endpoint=False),
    )


@gpu
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.complex64])
@pytest.mark.parametrize("num", [5, 1])
def test_linspace_step_of_typed_scalar_bounds_is_a_numpy_scalar_of_their_type(dtype, num):
    for form in ("0-d", "scalar"):
        _, step = cp.linspace(_start(cp, form, dtype), 2, num, retstep=True)
        _, want = np.linspace(_start(np, form, dtype), 2, num, retstep=True)
        assert type(step) is type(want)
        np.testing.assert_allclose(step, want, rtol=1e-3)


@gpu
def test_a_0d_device_integer_is_a_dimension():
    n = cp.count_nonzero(cp.asarray([1, 0, 2, 3]))  # NumPy's np.count_nonzero gives an int here
    assert cp.zeros(n).shape == cp.ones(n).shape == cp.empty(n, np.int8).shape == (3,)
    testing.assert_array_equal(cp.full(n, 7), np.full(3, 7))
    assert cp.arange(6).reshape(n, -1).shape == (3, 2)
    assert cp.arange(3).reshape(n).shape == (3,)
    assert cp.zeros((n, n)).shape == (3, 3)
    for bad in (cp.asarray(True), cp.asarray(2.0)):
        for xp in (np, cp):
            with pytest.raises(TypeError):
                xp.zeros(bad.get() if xp is np else bad)


@gpu
@pytest.mark.parametrize("bins", [10, 2, [0, 0.5, 1]])
@testing.numpy_cuarray_allclose()
def test_histogram_of_bools_counts_them_as_uint8(xp, bins):
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        return xp.histogram(xp.asarray([True, False, True, True]), bins)


@pytest.mark.parametrize("name", ["vstack", "hstack", "dstack", "column_stack"])
def test_stacking_an_empty_sequence_raises(name):
    for xp in (np, cp):
        with pytest.raises(ValueError, match="need at least one array to concatenate"):
            getattr(xp, name)([])


@gpu
@pytest.mark.parametrize("name", ["vstack", "hstack", "dstack", "column_stack"])
def test_stacking_an_empty_array_raises_and_a_full_one_stacks_its_rows(name):
    for xp in (np, cp):
        with pytest.raises(ValueError, match="need at least one array to concatenate"):
            getattr(xp, name)(xp.zeros((0, 3)))
    testing.assert_array_equal(
        getattr(cp, name)(cp.arange(6).reshape(2, 3)), getattr(np, name)(np.arange(6).reshape(2, 3))
    )


@gpu
@pytest.mark.parametrize("axis", [None, 0])
def test_roll_refuses_shifts_of_two_dimensions(axis):
    for xp in (np, cp):
        with pytest.raises(ValueError, match="'shift' and 'axis' should be scalars or 1D sequences"):
            xp.roll(xp.arange(6).reshape(2, 3), [[1, 0], [0, 1]], axis)


@gpu
def test_transpose_with_empty_axes():
    for xp in (np, cp):
        with pytest.raises(ValueError, match="axes don't match array"):
            xp.zeros((2, 3)).transpose(())
        with pytest.raises(ValueError, match="axes don't match array"):
            xp.transpose(xp.zeros(3), ())
        assert xp.asarray(1.0).transpose(()).shape == xp.permute_dims(xp.asarray(1.0), ()).shape == ()
    assert cp.zeros((2, 3)).transpose().shape == (3, 2)


@gpu
@pytest.mark.parametrize("axis", [0, -1, (0,)])
def test_norm_of_a_0d_array_has_no_axis(axis):
    for xp in (np, cp):
        with pytest.raises(np.exceptions.AxisError):
            xp.linalg.norm(xp.asarray(3.0), axis=axis)
    testing.assert_allclose(cp.linalg.norm(cp.asarray([3.0, 4.0]), axis=0), 5.0)


@gpu
@testing.numpy_cuarray_array_equal()
def test_section_counts_are_read_with_int(xp):
    a = xp.arange(12).reshape(2, 6)
    splits = (
        xp.array_split(xp.arange(7), 2.5),
        xp.split(xp.arange(6), 3.0),
        xp.hsplit(a, 3.0),
        xp.vsplit(a, 2.0),
    )
    return tuple(part for parts in splits for part in parts)  # the comparison takes a tuple of arrays


@gpu
def test_unequal_float_sections_raise():
    for xp in (np, cp):
        with pytest.raises(ValueError, match="array split does not result in an equal division"):
            xp.split(xp.arange(6), 2.5)


@gpu
@testing.numpy_cuarray_array_equal()
def test_union1d_with_a_python_number_keeps_the_array_type(xp):
    return (
        xp.union1d(xp.asarray([1, 3], dtype=np.int8), 2),
        xp.union1d(2.5, xp.asarray([1, 3], dtype=np.float32)),
        xp.union1d(xp.asarray([1, 3], dtype=np.uint8), True),
        xp.union1d(xp.asarray([1, 3], dtype=np.int8), xp.asarray([2])),
        xp.union1d(xp.asarray([1, 3], dtype=np.uint8), 2),
        xp.union1d(xp.asarray([1, 3], dtype=np.uint8), -1),  # NumPy's astype: 255
        xp.union1d(xp.asarray([1, 3], dtype=np.uint8), 300),  # 44
        xp.union1d(xp.asarray([1, 3], dtype=np.uint64), 2),
        xp.union1d(2, 3),
    )


@gpu
@testing.numpy_cuarray_array_equal()
def test_concatenate_reads_a_python_number_weakly_typed(xp):
    u8, f32 = xp.asarray([1, 3], dtype=np.uint8), xp.asarray([0.5], dtype=np.float32)
    return (
        xp.concatenate((u8, 2), axis=None),  # uint8
        xp.concatenate((u8, -1), axis=None),  # astype's 255
        xp.concatenate((u8, 300), axis=None),  # 44
        xp.concatenate((2, u8), axis=None),
        xp.concatenate((u8, 2.5), axis=None),  # float64
        xp.concatenate((u8, True), axis=None),
        xp.concatenate((f32, 2.0, 1), axis=None),  # float32
        xp.concatenate((f32, 1j), axis=None),  # complex64
        xp.concatenate((u8, [2]), axis=None),  # a list is int64
        xp.concatenate((1, 2.0), axis=None),
        # with dtype or out, the number takes their type: 300 stays 300 in int64, wraps in uint8
        xp.concatenate((u8, 300), axis=None, dtype=np.int64),
        xp.concatenate((u8, 300), axis=None, dtype=np.uint8),
        xp.concatenate((u8, -1), axis=None, dtype=np.int8),
        xp.concatenate((u8, 300), axis=None, out=xp.empty(3, np.int16)),
        xp.concatenate((u8, 300), axis=None, out=xp.empty(3, np.uint8)),
        xp.concatenate((u8, 2.5), axis=None, dtype=np.float16),
        xp.concatenate((u8, 2.5), axis=None, dtype=np.uint8, casting="unsafe"),
    )


@gpu
def test_concatenate_casts_a_python_number_by_the_casting_rule():
    for xp in (np, cp):
        with pytest.raises(TypeError, match="same_kind"):
            xp.concatenate((xp.asarray([1], dtype=np.uint8), 2.5), axis=None, dtype=np.uint8)
        with pytest.raises(ValueError, match="zero-dimensional"):
            xp.concatenate((2, xp.asarray([1])))


@gpu
@testing.numpy_cuarray_array_equal()
def test_any_negative_length_is_the_unknown_one(xp):
    a = xp.arange(6)
    b = a.reshape(2, 3).copy()
    b.shape = (-3, 2)
    return a.reshape(-7), a.reshape(2, -5), xp.reshape(a, (-2, 3)), xp.ones(1).reshape(-7), b


@gpu
def test_two_unknown_lengths_raise():
    for xp in (np, cp):
        with pytest.raises(ValueError, match="can only specify one unknown dimension"):
            xp.arange(6).reshape(-1, -2)


@gpu
def test_a_number_for_an_array_is_0d():
    # A Python number where an array belongs is a 0-d array, as NumPy's asarray makes it (it was made 1-D).
    for xp in (np, cp):
        with pytest.raises(ValueError, match="condition must be a 1-d array"):
            xp.arange(4).compress(2)
        with pytest.raises(ValueError, match="condition must be a 1-d array"):
            xp.compress(True, xp.arange(4))
        with pytest.raises(ValueError, match="Calling nonzero on 0d arrays is not allowed"):
            xp.nonzero(5)


@gpu
@testing.numpy_cuarray_array_equal()
def test_numbers_in_index_functions(xp):
    a = xp.arange(12).reshape(3, 4)
    return (
        xp.argwhere(5),
        xp.argwhere(0),
        xp.flatnonzero(5),
        xp.take(a, 2),
        xp.take(a, 1, axis=1),
        xp.extract(1, a[0]),
        xp.ravel_multi_index((xp.asarray([1, 2]), 3), (4, 5)),
        xp.take(7, [0, 0]),
    )


COMPLEX_RANGES = [
    (0.5 - 1j, 2),
    (0.5 + 1j, 2),
    (0, 3 + 2j),
    (0, 4 + 0j),
    (0, 3 + 9j, 1 + 1j),
    (1j, 3 + 3j, 1 + 1j),
    (0, 5, 1 + 1j),
    (0, 4, 1, np.complex64),
    (0.5, 3, 0.5, np.complex64),
    (0.25 + 0.5j, 9 + 40j, 0.75 + 3j, np.complex64),
]


@gpu
@pytest.mark.parametrize("args", COMPLEX_RANGES, ids=str)
@testing.numpy_cuarray_array_equal()
def test_complex_arange_length_and_imaginary_parts(xp, args):
    # NumPy's length is the shorter of the real and imaginary parts' ranges, and both parts step.
    return xp.arange(*args)


@gpu
def test_average_over_an_empty_result_divides_zero_by_zero():
    for xp in (np, cp):
        with pytest.raises(ZeroDivisionError):
            xp.average(xp.zeros((0, 3)), axis=-1)


@gpu
@pytest.mark.parametrize("name", ["tril", "triu", "lexsort"])
def test_0d_arrays_in_tril_triu_and_lexsort_are_type_errors(name):
    for xp in (np, cp):
        with pytest.raises(TypeError):
            getattr(xp, name)(xp.asarray(1.0))


def test_linspace_type_rule_without_a_device():
    from cuarray._creation import _bounds_type

    assert _bounds_type(np.float32(0), 2) == np.float32
    assert _bounds_type(np.array([0, 1], np.float16), 2.5) == np.float16
    assert _bounds_type(np.complex64(1), -1) == np.complex64
    assert _bounds_type(np.int8(1), 2) == np.float64
    assert _bounds_type(0, 2) == _bounds_type([0, 1], 2) == np.float64
    assert _bounds_type(np.float32(0), np.float64(1)) == np.float64


@gpu
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("axis", [0, -1])
@testing.numpy_cuarray_array_equal()
def test_unique_sub_arrays_with_nan_in_numpys_order(xp, dtype, axis):
    # NumPy sorts the sub-arrays as records: a float16 field puts NaN first, the other float types last.
    a = np.array([[0.5, np.nan, 3.0, np.nan], [0.5, np.nan, 3.0, np.nan], [1.0, 2.0, np.nan, 4.0]], dtype)
    a = xp.asarray(a if axis == -1 else a.T)
    return xp.unique(a, axis=axis, return_index=True, return_inverse=True, return_counts=True)
