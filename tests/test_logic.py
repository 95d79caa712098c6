"""isclose, allclose, array_equal, array_equiv and cuarray.testing against NumPy."""

import cuarray as cp
import numpy as np
import pytest
from conftest import make_data

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
