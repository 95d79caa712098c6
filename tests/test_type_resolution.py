"""The core's type rules against NumPy, without a device: each built-in reduction's row rule
(cpp/cuarray/ops/reductions.def) gives the result dtype NumPy's function gives for every input dtype and
`dtype=`."""

import numpy
import pytest
from conftest import ALL_DTYPES
from cuarray import _core

DTYPES = [t.name for t in ALL_DTYPES]
ONE = {
    "sum": numpy.sum,
    "prod": numpy.prod,
    "nansum": numpy.nansum,
    "nanprod": numpy.nanprod,
    "max": numpy.max,
    "min": numpy.min,
    "argmax": numpy.argmax,
    "argmin": numpy.argmin,
    "any": numpy.any,
    "all": numpy.all,
    "count_nonzero": lambda x: numpy.count_nonzero(x, axis=0),
    "mean": numpy.mean,
    "var": numpy.var,
    "std": numpy.std,
}
FLOATING = {
    "nanmax": numpy.nanmax,
    "nanmin": numpy.nanmin,
    "nanmean": numpy.nanmean,
    "nanvar": numpy.nanvar,
    "nanstd": numpy.nanstd,
    "nanargmax": numpy.nanargmax,
    "nanargmin": numpy.nanargmin,
}


def _result(name, t, dtype=None):
    return _core._reduction_types(name, [numpy.dtype(t)], dtype)[2]


@pytest.mark.parametrize("name", sorted(ONE))
@pytest.mark.parametrize("t", DTYPES)
def test_reduction_result_dtype_is_numpys(name, t):
    x = numpy.ones(3, t)
    assert _result(name, t) == numpy.asarray(ONE[name](x)).dtype


@pytest.mark.parametrize("name", sorted(FLOATING))
@pytest.mark.parametrize("t", ["float16", "float32", "float64", "complex64", "complex128"])
def test_nan_reduction_result_dtype_is_numpys(name, t):
    x = numpy.ones(3, t)
    assert _result(name, t) == numpy.asarray(FLOATING[name](x)).dtype


@pytest.mark.parametrize("name", ["sum", "prod", "nansum", "mean", "var", "std"])
@pytest.mark.parametrize("dtype", ["float32", "int16", "complex128"])
def test_dtype_argument(name, dtype):
    if name in ("var", "std") and dtype == "complex128":
        pytest.skip("NumPy's var of a real array with a complex dtype= is complex; cuarray's is real")
    x = numpy.ones(3, "int8")
    expected = numpy.asarray(getattr(numpy, name)(x, dtype=dtype)).dtype
    assert _result(name, "int8", numpy.dtype(dtype)) == expected


@pytest.mark.parametrize("a", ["bool", "int8", "uint8", "int64", "uint64", "float16", "float32", "complex64"])
@pytest.mark.parametrize("b", ["bool", "int16", "uint32", "float64"])
def test_dot_loop_is_the_promotion(a, b):
    loops, _out_loop, result = _core._reduction_types("dot", [numpy.dtype(a), numpy.dtype(b)], None)
    assert result == numpy.dot(numpy.ones(2, a), numpy.ones(2, b)).dtype
    assert loops == [result, result]


def test_l2norm_is_real_and_float():
    for t, expected in [
        ("int8", "float64"),
        ("float16", "float16"),
        ("float32", "float32"),
        ("complex64", "float32"),
        ("complex128", "float64"),
    ]:
        assert _result("l2norm", t) == numpy.dtype(expected)


def test_mean_of_float16_computes_in_float32():
    loops, out_loop, result = _core._reduction_types("mean", [numpy.dtype("float16")], None)
    assert (loops, out_loop, result) == (
        [numpy.dtype("float32")],
        numpy.dtype("float32"),
        numpy.dtype("float16"),
    )


def test_wrong_input_count_and_unknown_name():
    with pytest.raises(ValueError, match="takes 2 input dtypes"):
        _core._reduction_types("dot", [numpy.dtype("float32")], None)
    with pytest.raises(ValueError, match="no reduction named"):
        _core._reduction_types("nosuch", [numpy.dtype("float32")], None)


def _numpy_loop(u, operands):
    try:
        return u.resolve_dtypes(tuple(operands) + (None,) * u.nout, casting="same_kind")
    except Exception as e:  # noqa: BLE001 - the type of NumPy's refusal is what is compared
        return type(e)


@pytest.mark.parametrize("kind", [int, float, complex])
@pytest.mark.parametrize("t", DTYPES)
def test_ufunc_loops_with_a_python_scalar_are_numpys(kind, t):
    # A Python scalar beside an array is weak (NEP 50) whatever the array's dtype: numpy.dtype('int64') == int
    # must not make the resolver take the pair for two strong operands (ldexp(3, int64 array) is float16).
    from cuarray import _ufuncs

    dt = numpy.dtype(t)
    for name in _core._ufunc_names():
        u = getattr(numpy, name, None)
        if not isinstance(u, numpy.ufunc) or u.nin != 2:
            continue
        for operands in ((kind, dt), (dt, kind)):
            want = _numpy_loop(u, operands)
            try:
                got = _ufuncs._resolve(name, operands, None, "same_kind")
            except Exception as e:  # noqa: BLE001
                got = type(e)
            assert got == want, (name, operands)


@pytest.mark.gpu
def test_ldexp_of_a_python_int_and_an_int64_array_is_float16():
    import cuarray as cp

    got = cp.ldexp(3, cp.arange(3))
    want = numpy.ldexp(3, numpy.arange(3))
    assert got.dtype == want.dtype == numpy.float16 and (got.get() == want).all()
