"""isclose, allclose, array_equal, array_equiv and cuarray.testing against NumPy."""

import cuarray as cp
import numpy as np
import pytest
from conftest import make_data
from cuarray import testing

CASES = [
    (
        np.array([1.0, 1e-9, np.inf, -np.inf, np.nan, 1e10]),
        np.array([1.0 + 1e-6, 0.0, np.inf, np.inf, np.nan, 1.00001e10]),
    ),
    (np.array([1, 2, 3], np.int32), np.array([1, 2, 4], np.int32)),
    (np.array([1 + 1j, np.nan], np.complex64), np.array([1 + 1.000001j, np.nan], np.complex64)),
]


@pytest.mark.gpu
def test_comparing_a_device_result_with_a_host_one_as_lesson_004():
    cpu = make_data((5, 6), "float64")
    gpu = cp.asarray(cpu) * 1.0
    r = np.allclose(gpu, cpu)
    assert isinstance(r, cp.ndarray) and r.shape == () and repr(r) == "array(True)"
    assert bool(cp.allclose(cpu, gpu)) and bool(cp.array_equal(gpu, cpu))
    assert not bool(cp.array_equal(gpu, cpu[:2]))


def test_testing_module_is_importable_without_gpu():
    import cuarray.testing

    cuarray.testing.assert_allclose(np.ones(3), np.ones(3))
    with pytest.raises(AssertionError):
        cuarray.testing.assert_array_equal(np.ones(3), np.zeros(3))
    assert cp.testing is cuarray.testing


@pytest.mark.gpu
@pytest.mark.parametrize("equal_nan", [False, True])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_isclose_allclose_like_numpy(case, equal_nan):
    a, b = CASES[case]
    got = cp.isclose(cp.asarray(a), cp.asarray(b), equal_nan=equal_nan)
    np.testing.assert_array_equal(cp.asnumpy(got), np.isclose(a, b, equal_nan=equal_nan))
    assert cp.allclose(cp.asarray(a), cp.asarray(b), equal_nan=equal_nan) == np.allclose(
        a, b, equal_nan=equal_nan
    )
    assert cp.allclose(cp.asarray(a), cp.asarray(a), equal_nan=True)


@pytest.mark.gpu
def test_isclose_with_scalars_and_broadcasting():
    a = make_data((4, 3), "float32", seed=5)
    np.testing.assert_array_equal(
        cp.asnumpy(cp.isclose(cp.asarray(a), 0.5, atol=0.3)), np.isclose(a, 0.5, atol=0.3)
    )
    row = a[0]
    assert cp.allclose(cp.asarray(a), cp.asarray(row)) == np.allclose(a, row)


@pytest.mark.gpu
def test_array_equal_and_equiv():
    a = cp.asarray(np.array([1.0, np.nan]))
    assert not cp.array_equal(a, a)
    assert cp.array_equal(a, a, equal_nan=True)
    assert not cp.array_equal(cp.zeros(3), cp.zeros(4))
    assert cp.array_equiv(cp.ones((2, 3)), cp.ones(3))
    assert not cp.array_equiv(cp.ones((2, 3)), cp.ones(2))


@pytest.mark.gpu
def test_testing_asserts_take_device_arrays():
    x = cp.arange(5, dtype=cp.float32)
    cp.testing.assert_allclose(x, np.arange(5, dtype=np.float32))
    cp.testing.assert_array_almost_equal(x, x + 1e-8)
    cp.testing.assert_array_less(x, x + 1)
    with pytest.raises(AssertionError):
        cp.testing.assert_array_equal(x, x + 1)


# ---- NumPy 2's rules at the edges (audit_numeric2) ----------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize(
    "a, b, atol",
    [
        (np.array([0.1], np.float32), 0.0, 0.1),
        (np.array([0.3], np.float16), 0.0, 0.3),
        (np.array([0.3, 1.3], np.float16), 1.0, 0.3),
        (np.array([0.1, 0.0], np.float32), 0, 0.1),
    ],
)
def test_isclose_with_python_numbers_compares_in_the_arrays_type(a, b, atol):
    # NumPy computes atol + rtol * |b| of Python numbers in Python (a weak scalar), so a float32 `a` is
    # compared in float32: 0.1f <= 0.1 after rounding both to float32.
    @testing.numpy_cuarray_array_equal()
    def check(xp):
        return xp.isclose(xp.asarray(a), b, rtol=0, atol=atol)

    check()
    assert bool(cp.allclose(cp.asarray(a), b, rtol=0, atol=atol)) == np.allclose(a, b, rtol=0, atol=atol)


@pytest.mark.gpu
@pytest.mark.parametrize(
    "kw",
    [
        {"atol": [0.1, 0.2, 0.1]},
        {"rtol": (0.01, 0.1, 0.01)},
        {"atol": np.array([0.2, 0.1, 0.2])},
        {"atol": np.float32(0.15)},
    ],
    ids=repr,
)
def test_isclose_with_array_like_tolerances(kw):
    # NumPy's asanyarray of the tolerances: lists and NumPy arrays are arrays (ufuncs take no lists).
    a = np.array([1.0, 2.0, 4.0])
    b = a + 0.15
    np.testing.assert_array_equal(
        cp.isclose(cp.asarray(a), cp.asarray(b), **kw).get(), np.isclose(a, b, **kw)
    )


DATES = np.array(["2020-01-01", "NaT", "2021-06-01"], "M8[D]")
SPANS = np.array([1, "NaT", -3], "m8[s]")


@pytest.mark.gpu
@pytest.mark.parametrize(
    "x, y",
    [
        (DATES, DATES.copy()),
        (DATES, DATES[::-1]),
        (DATES, np.array(["2020-01-01", "2020-01-02", "2021-06-01"], "M8[D]")),
        (SPANS, SPANS.copy()),
        (SPANS, np.array([1, 2, -3], "m8[s]")),
    ],
)
@pytest.mark.parametrize("equal_nan", [False, True])
def test_array_equal_of_datetimes_with_nat(x, y, equal_nan):
    got = cp.array_equal(cp.asarray(x), cp.asarray(y), equal_nan=equal_nan)
    assert isinstance(got, cp.ndarray) and bool(got) == np.array_equal(x, y, equal_nan=equal_nan)
    same = cp.asarray(x)
    assert bool(cp.array_equal(same, same, equal_nan=equal_nan)) == np.array_equal(x, x, equal_nan=equal_nan)
    assert bool(cp.array_equiv(cp.asarray(x), cp.asarray(y))) == np.array_equiv(x, y)


@pytest.mark.gpu
@pytest.mark.parametrize(
    "a1, a2",
    [
        (None, None),
        ("ab", "ab"),
        ("ab", "ac"),
        (["a"], "a"),
        ([[1], [1, 2]], [[1], [1, 2]]),
        ([1, 2], [1, 2]),
    ],
    ids=repr,
)
def test_array_equal_of_values_numpy_holds_as_object_or_string_arrays(a1, a2):
    want_equal, want_equiv = np.array_equal(a1, a2), np.array_equiv(a1, a2)
    got_equal, got_equiv = cp.array_equal(a1, a2), cp.array_equiv(a1, a2)
    assert isinstance(got_equal, cp.ndarray) and bool(got_equal) == want_equal
    assert isinstance(got_equiv, cp.ndarray) and bool(got_equiv) == want_equiv
    assert not bool(cp.array_equal(cp.zeros(()), None))


BAD_TOLERANCES = [{"atol": np.nan}, {"rtol": np.inf}, {"atol": [0.1, np.nan]}, {"rtol": np.float32(-np.inf)}]


@pytest.mark.parametrize("kw", BAD_TOLERANCES, ids=repr)
@pytest.mark.parametrize("name", ["isclose", "allclose"])
def test_a_non_finite_tolerance_raises_under_errstate_as_numpy(name, kw):
    # NumPy 2.4's check, before any work: no GPU needed with Python-number inputs.
    messages = []
    for xp in (np, cp):
        with xp.errstate(invalid="raise"), pytest.raises(FloatingPointError) as got:
            getattr(xp, name)(1.0, 1.0, **kw)
        messages.append(str(got.value))
    assert messages[0] == messages[1]


def test_a_non_finite_tolerance_warns_or_prints_by_the_error_mode(capsys):
    from cuarray import _logic

    with pytest.warns(RuntimeWarning, match="One of rtol or atol is not valid, atol: nan, rtol: 1e-05"):
        _logic._check_tolerances(float("nan"), 1e-05)
    with cp.errstate(invalid="print"):
        _logic._check_tolerances(1e-08, float("inf"))
    assert capsys.readouterr().out == "One of rtol or atol is not valid, atol: 1e-08, rtol: inf\n"
    with cp.errstate(invalid="ignore"):
        _logic._check_tolerances(float("nan"), 1e-05)  # nothing
    _logic._check_tolerances(1e-08, [1e-05, 0.0])  # finite: nothing


@pytest.mark.gpu
def test_a_non_finite_tolerance_warns_and_compares_as_numpy():
    a = np.array([1.0, np.nan])
    for kw in BAD_TOLERANCES:
        with pytest.warns(RuntimeWarning, match="One of rtol or atol is not valid"):
            got = cp.isclose(cp.asarray(a), cp.asarray(a), **kw)
        with pytest.warns(RuntimeWarning, match="One of rtol or atol is not valid"):
            want = np.isclose(a, a, **kw)
        np.testing.assert_array_equal(got.get(), want)
