"""array_repr, array_str and array2string (cuarray._printing), repr() and str() of cuarray arrays, and NumPy's
print options, against NumPy."""

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, LAYOUT_NAMES, dtype_id, make_data, make_pair

gpu = pytest.mark.gpu


@pytest.mark.parametrize("name", ["array_repr", "array_str", "array2string"])
def test_numpy_arrays_refused(name):
    with pytest.raises(TypeError, match="numpy.ndarray"):
        getattr(cp, name)(np.zeros(3))


def test_print_options_are_numpys():
    assert cp.set_printoptions is np.set_printoptions
    assert cp.get_printoptions is np.get_printoptions
    assert cp.printoptions is np.printoptions


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_repr_and_str_are_numpys(layout, dtype):
    x, a = make_pair(layout, dtype)
    assert repr(x) == repr(a) == cp.array_repr(x)
    assert str(x) == str(a) == cp.array_str(x)
    assert cp.array2string(x) == np.array2string(a)


@gpu
@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_line_width": 20},
        {"precision": 2},
        {"suppress_small": True},
        {"max_line_width": 30, "precision": 1, "suppress_small": True},
    ],
    ids=repr,
)
@pytest.mark.parametrize("name", ["array_repr", "array_str"])
def test_repr_str_arguments(name, kwargs):
    a = make_data((3, 5), "float64") * np.array([1e-9, 1.0, 123.456789, -7.0, 0.5])
    x = cp.asarray(a)
    assert getattr(cp, name)(x, **kwargs) == getattr(np, name)(a, **kwargs)
    assert getattr(cp, name)(x[::-1, ::2], **kwargs) == getattr(np, name)(a[::-1, ::2], **kwargs)
    assert getattr(cp, name)(x, 30, 1, True) == getattr(np, name)(a, 30, 1, True)


ARRAY2STRING_KWARGS = [
    {"separator": ", "},
    {"prefix": "x = ", "separator": ","},
    {"suffix": ";"},
    {"threshold": 5, "edgeitems": 1},
    {"sign": "+"},
    {"floatmode": "fixed"},
    {"formatter": {"float_kind": "{:.1f}".format}},
    {"legacy": "1.13"},
    {"max_line_width": 15, "precision": 3},
]


@gpu
@pytest.mark.parametrize("kwargs", ARRAY2STRING_KWARGS, ids="-".join)
def test_array2string_arguments(kwargs):
    a = make_data((4, 6), "float32", seed=3)
    assert cp.array2string(cp.asarray(a), **kwargs) == np.array2string(a, **kwargs)


@gpu
def test_functions_of_python_values_and_numpy_dispatch():
    assert cp.array_repr([1, 2]) == np.array_repr(np.array([1, 2]))
    assert cp.array_str(2.5) == np.array_str(np.array(2.5))
    x = cp.asarray(make_data((2, 3), "int16"))
    assert np.array_repr(x) == repr(x) and np.array_str(x) == str(x)
    assert np.array2string(x) == cp.array2string(x)


@gpu
def test_repr_honours_print_options():
    a = np.array([1.23456789, 2.5, 1e-10])
    x = cp.asarray(a)
    with cp.printoptions(precision=2, suppress=True):
        assert repr(x) == repr(a) == "array([1.23, 2.5 , 0.  ])"
        assert str(x) == str(a) and cp.array2string(x) == np.array2string(a)
    assert repr(x) == repr(a) != "array([1.23, 2.5 , 0.  ])"
    big_a = np.arange(2000)
    big = cp.asarray(big_a)
    with cp.printoptions(threshold=10, edgeitems=2):
        assert repr(big) == repr(big_a) == "array([   0,    1, ..., 1998, 1999], shape=(2000,))"
    saved = cp.get_printoptions()
    try:
        cp.set_printoptions(linewidth=20, sign="+")
        assert repr(x) == repr(a) and str(x) == str(a) and cp.array_repr(x) == np.array_repr(a)
    finally:
        cp.set_printoptions(**saved)
