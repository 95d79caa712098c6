"""cuarray.polynomial (cupy.polynomial's names) against numpy.polynomial on the same inputs: values, dtypes,
shapes and errors of polyvander, polyval, polyvalfromroots, polycompanion, as_series, trimseq and trimcoef."""

import cuarray as cp
import numpy as np
import pytest
from conftest import make_data
from cuarray import testing

gpu = pytest.mark.gpu

DTYPES = [
    np.dtype(t) for t in ("bool", "int8", "int64", "uint16", "float16", "float32", "float64", "complex128")
]
TOL = {"rtol": {np.float16: 1e-3, np.float32: 1e-6, "default": 1e-14}, "atol": 0}


def _x(xp, shape, dtype, seed=0):
    a = make_data(shape, dtype, seed)
    if a.dtype.kind in "fc":
        a = a / 8  # values near 1, so that high powers stay finite in float16
    return xp.asarray(a)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape,deg", [((5,), 3), ((), 2), ((2, 3), 1), ((0,), 2), ((4,), 0)])
@testing.numpy_cuarray_allclose(**TOL, contiguous_check=False)
def test_polyvander(xp, dtype, shape, deg):
    return xp.polynomial.polynomial.polyvander(_x(xp, shape, dtype), deg)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize(
    "x_shape,c_shape,tensor",
    [((5,), (4,), True), ((2, 3), (3,), True), ((), (4,), True), ((3,), (4, 2), True), ((2,), (3, 2), False)],
)
@testing.numpy_cuarray_allclose(**TOL)
def test_polyval(xp, dtype, x_shape, c_shape, tensor):
    return xp.polynomial.polynomial.polyval(_x(xp, x_shape, dtype), _x(xp, c_shape, dtype, 1), tensor)


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-14)
def test_polyval_of_numbers_and_lists(xp):
    P = xp.polynomial.polynomial
    return (
        P.polyval([1.0, 2.0], [1, 2, 3]),
        P.polyval(xp.asarray(0.5), [1, -1]),
        P.polyval(2, xp.asarray([1, 2])),
    )


@gpu
@pytest.mark.parametrize("x", [2.0, 3, True, 1j], ids=repr)
@pytest.mark.parametrize("dtype", ["float16", "float32", "complex64"])
@testing.numpy_cuarray_allclose(rtol=1e-3)
def test_polyval_of_a_python_number_keeps_the_coefficients_type(xp, x, dtype):
    # NumPy's c[-1] + x*0: x*0 of a Python number is a Python number, weak, so float32 coefficients give a
    # float32 value (type_check compares the dtypes).
    return xp.polynomial.polynomial.polyval(x, xp.asarray(np.array([0.5, -1.25, 3.0], dtype)))


@gpu
@pytest.mark.parametrize("dtype", DTYPES[1:], ids=str)
@pytest.mark.parametrize(
    "x_shape,r_shape,tensor",
    [((5,), (3,), True), ((2, 3), (2,), True), ((3,), (2, 3), False), ((), (4,), True)],
)
@testing.numpy_cuarray_allclose(**TOL)
def test_polyvalfromroots(xp, dtype, x_shape, r_shape, tensor):
    x, r = _x(xp, x_shape, dtype), _x(xp, r_shape, dtype, 1)
    return xp.polynomial.polynomial.polyvalfromroots(x, r, tensor)


@gpu
@pytest.mark.parametrize("coefficients", [[2, 4], [1.0, -3.0, 0.5, 2.0], [1j, 2, 3 + 1j], [1, 2, 3, 0, 0]])
@testing.numpy_cuarray_allclose(rtol=1e-14)
def test_polycompanion(xp, coefficients):
    return xp.polynomial.polynomial.polycompanion(xp.asarray(np.array(coefficients)))


@gpu
@testing.numpy_cuarray_allclose(rtol=0)
def test_series_helpers(xp):
    pu = xp.polynomial.polyutils
    a, b = pu.as_series([xp.asarray([1, 2, 0, 0]), xp.asarray([3.0, 0.0])])
    c, d = pu.as_series([xp.asarray([1, 2, 0]), xp.asarray(np.array([1.0, 0.0], np.float32))], trim=False)
    e = pu.as_series([xp.asarray([0, 0, 0])])[0]
    trimmed = [pu.trimseq(xp.asarray(v)) for v in ([1.0, 0.0, 0.0], [0.0, 0.0], [1.0, 2.0], [0.0])]
    coef = [
        pu.trimcoef(xp.asarray(v), tol)
        for v, tol in (([1.0, 1e-3, 1e-5], 1e-4), ([1e-5, 1e-6], 1e-3), ([2, 0], 0))
    ]
    return a, b, c, d, e, *trimmed, *coef


@gpu
def test_errors_as_numpy():
    cases = [
        ("polynomial", "polyvander", lambda xp: (xp.ones(3), -1), ValueError),
        ("polynomial", "polyvander", lambda xp: (xp.ones(3), 2.5), TypeError),
        ("polynomial", "polyvalfromroots", lambda xp: (xp.ones((2, 2)), xp.ones((2, 2)), False), ValueError),
        ("polynomial", "polycompanion", lambda xp: (xp.ones(1),), ValueError),
        (
            "polynomial",
            "polycompanion",
            lambda xp: (xp.asarray([1.0, 0.0]),),
            ValueError,
        ),  # trims to degree 0
        ("polyutils", "as_series", lambda xp: ([xp.ones(0)],), ValueError),
        ("polyutils", "as_series", lambda xp: ([xp.ones((2, 2))],), ValueError),
        ("polyutils", "as_series", lambda xp: ([xp.ones(2, bool)],), ValueError),
        ("polyutils", "trimcoef", lambda xp: (xp.ones(2), -1), ValueError),
    ]
    for module, name, args, error in cases:
        messages = []
        for xp in (np, cp):
            with pytest.raises(error) as got:
                getattr(getattr(xp.polynomial, module), name)(*args(xp))
            messages.append(str(got.value))
        assert messages[0] == messages[1], (name, messages)


@gpu
def test_results_are_new_arrays_and_views_as_numpy():
    x = cp.arange(4.0)
    c = cp.asarray([1.0, 2.0, 3.0])
    assert not cp.shares_memory(cp.polynomial.polynomial.polyval(x, c), x)
    [s] = cp.polynomial.polyutils.as_series([c])
    assert not cp.shares_memory(s, c)  # as_series copies, as NumPy's
    assert cp.polynomial.polyutils.trimseq(c) is c  # nothing to trim: the same array, as NumPy's
    np_v, cp_v = (
        np.polynomial.polynomial.polyvander(np.arange(4.0), 2),
        cp.polynomial.polynomial.polyvander(x, 2),
    )
    assert cp_v.strides == np_v.strides  # the transposed Vandermonde layout NumPy returns
