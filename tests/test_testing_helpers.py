"""cuarray.testing's helpers from CuPy 14.2's cupy.testing: the array factories, the assertions, requirement
checks and marks, parameterize, fix_random and the repeat/retry conditions. The factories and assertions are
checked here with xp=numpy; the gpu-marked tests make and compare cuarray arrays."""

import inspect
import random
import textwrap
import unittest
import warnings

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing
from cuarray.testing import _condition, _devices, _random

pytest_plugins = ["pytester"]


def test_every_name_of_cupy_testing():
    """cupy/testing/__init__.py of CuPy 14.2 exports these 51 names."""
    names = [
        "assert_allclose",
        "assert_array_almost_equal",
        "assert_array_almost_equal_nulp",
        "assert_array_equal",
        "assert_array_less",
        "assert_array_list_equal",
        "assert_array_max_ulp",
        "multi_gpu",
        "slow",
        "assert_warns",
        "numpy_satisfies",
        "NumpyAliasBasicTestBase",
        "NumpyAliasValuesTestBase",
        "AssertFunctionIsCalled",
        "shaped_arange",
        "shaped_linspace",
        "shaped_sparse_random",
        "shaped_random",
        "generate_matrix",
        "shaped_reverse_arange",
        "with_requires",
        "installed",
        "for_all_dtypes",
        "for_all_dtypes_combination",
        "for_CF_orders",
        "for_complex_dtypes",
        "for_contiguous_axes",
        "for_dtypes",
        "for_dtypes_combination",
        "for_float_dtypes",
        "for_int_dtypes",
        "for_int_dtypes_combination",
        "for_orders",
        "for_signed_dtypes",
        "for_signed_dtypes_combination",
        "for_unsigned_dtypes",
        "for_unsigned_dtypes_combination",
        "numpy_cupy_allclose",
        "numpy_cupy_array_almost_equal",
        "numpy_cupy_array_almost_equal_nulp",
        "numpy_cupy_array_equal",
        "numpy_cupy_array_less",
        "numpy_cupy_array_list_equal",
        "numpy_cupy_array_max_ulp",
        "numpy_cupy_equal",
        "numpy_cupy_raises",
        "parameterize",
        "product",
        "product_dict",
        "fix_random",
        "generate_seed",
    ]
    assert len(names) == 51
    assert [n for n in names if not hasattr(testing, n)] == []


# ----------------------------------------------------------------------------------------------------------
# Factories
# ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "factory", ["shaped_arange", "shaped_reverse_arange", "shaped_random", "shaped_linspace"]
)
def test_factories_default_to_cuarray(factory):
    assert inspect.signature(getattr(testing, factory)).parameters["xp"].default is cp


def test_shaped_arange():
    a = testing.shaped_arange((2, 3), np)
    assert a.dtype == np.float32 and a.tolist() == [[1, 2, 3], [4, 5, 6]]
    assert testing.shaped_arange((4,), np, np.bool_).tolist() == [False, True, False, True]
    assert testing.shaped_arange((2,), np, "F").tolist() == [1 + 1j, 2 + 2j]
    assert testing.shaped_arange((2, 3), np, order="F").flags.f_contiguous
    assert testing.shaped_arange((), np, np.int8) == np.int8(1)


def test_shaped_reverse_arange_and_linspace():
    assert testing.shaped_reverse_arange((3,), np, np.int32).tolist() == [3, 2, 1]
    assert testing.shaped_reverse_arange((3,), np, np.bool_).tolist() == [False, True, False]
    assert testing.shaped_linspace(-1, 3, (5,), np, np.float64).tolist() == [-1, 0, 1, 2, 3]
    assert testing.shaped_linspace(-4, 4, (3,), np, np.uint8).tolist() == [0, 2, 4]
    assert testing.shaped_linspace(-4, 4, (2,), np, np.bool_).tolist() == [False, True]


def test_shaped_random_is_numpy_s_randomstate():
    a = testing.shaped_random((2, 3), np, np.float64, scale=2, seed=5)
    np.testing.assert_array_equal(a, np.random.RandomState(5).rand(2, 3) * 2)
    assert testing.shaped_random((2, 3), np).dtype == np.float32
    rng = np.random.RandomState(0)
    real, imag = rng.rand(3), rng.rand(3)
    np.testing.assert_array_equal(testing.shaped_random((3,), np, np.complex128), (real + 1j * imag) * 10)
    b = testing.shaped_random((50,), np, np.bool_)
    assert b.dtype == np.bool_ and b.any() and not b.all()
    assert testing.shaped_random((2, 3), np, order="F").flags.f_contiguous


def test_generate_matrix():
    a = testing.generate_matrix((2, 3, 3), np, np.float64, singular_values=[1.0, 2.0, 3.0])
    np.testing.assert_allclose(np.linalg.svd(a, compute_uv=False), [[3, 2, 1]] * 2, rtol=1e-10)
    c = testing.generate_matrix((4, 2), np, np.complex64, singular_values=2.0)
    assert c.dtype == np.complex64 and np.allclose(np.linalg.svd(c, compute_uv=False), 2, rtol=1e-5)
    for args, kwargs, error, text in [
        (((3,), np), {"singular_values": 1.0}, ValueError, "too few axes"),
        (((3, 3), np), {}, TypeError, "singular_values is not given"),
        (((3, 3), np, np.int32), {"singular_values": 1.0}, TypeError, "is not supported"),
        (((3, 3), np), {"singular_values": [1j, 1, 1]}, TypeError, "is not real"),
        (((3, 3), np), {"singular_values": [1.0, -1.0, 1.0]}, ValueError, "negative singular value"),
    ]:
        with pytest.raises(error, match=text):
            testing.generate_matrix(*args, **kwargs)


def test_shaped_sparse_random():
    sparse = pytest.importorskip("scipy.sparse")
    m = testing.shaped_sparse_random((10, 20), sparse, np.float64, density=0.2, format="csr")
    assert m.format == "csr" and m.shape == (10, 20) and m.nnz == 40
    with pytest.raises(NotImplementedError, match="cuarray has no sparse matrices"):
        testing.shaped_sparse_random((3, 3))
    with pytest.raises(ValueError, match="does not have the expected sparse APIs"):
        testing.shaped_sparse_random((3, 3), np)


@pytest.mark.gpu
def test_real_factories_make_cuarray_arrays():
    for a in (
        testing.shaped_arange((2, 3)),
        testing.shaped_random((2, 3)),
        testing.shaped_reverse_arange((2,)),
    ):
        assert isinstance(a, cp.ndarray) and a.dtype == np.float32
    assert testing.shaped_arange((2, 3), order="F").flags.f_contiguous
    testing.assert_array_equal(
        testing.shaped_random((4,), dtype=np.int8), testing.shaped_random((4,), np, np.int8)
    )
    a = testing.generate_matrix((3, 3), singular_values=[1.0, 2.0, 4.0])
    testing.assert_allclose(cp.linalg.svd(a, compute_uv=False), [4.0, 2.0, 1.0], rtol=1e-5)


# ----------------------------------------------------------------------------------------------------------
# Assertions
# ----------------------------------------------------------------------------------------------------------


def test_assert_array_equal_strides_check():
    a = np.ones((2, 3))
    testing.assert_array_equal(a, np.asfortranarray(a))
    with pytest.raises(
        AssertionError, match=r"^Strides are not equal: lesson\n x: \(24, 8\)\n y: \(8, 16\)$"
    ):
        testing.assert_array_equal(a, np.asfortranarray(a), "lesson", strides_check=True)
    testing.assert_array_equal(a, a.copy(), strides_check=True)


def test_ulp_assertions():
    x = np.array([1.0, 2.0], np.float32)
    testing.assert_array_almost_equal_nulp(x, np.nextafter(x, np.float32(3)), nulp=1)
    with pytest.raises(AssertionError, match="ULP"):
        testing.assert_array_almost_equal_nulp(x, x + 1e-3)
    testing.assert_array_max_ulp(x, np.nextafter(x, np.float32(3)))
    with pytest.raises(AssertionError, match="ULP"):
        testing.assert_array_max_ulp(x, x + 1e-3, maxulp=2)


def test_assert_array_list_equal():
    a = [np.arange(3), np.ones(2)]
    testing.assert_array_list_equal(a, [x.copy() for x in a])
    for other, text in [
        (tuple(a), "different types"),
        (a[:1], "List size is different"),
        ([a[0], a[0][:2]], "Arrays are not equal"),
    ]:
        with pytest.raises(AssertionError, match=text):
            testing.assert_array_list_equal(a, other)
    with pytest.raises(AssertionError, match="List or tuple is expected"):
        testing.assert_array_list_equal(np.ones(2), np.ones(2))


def test_assert_warns():
    with testing.assert_warns(DeprecationWarning):
        warnings.warn("old", DeprecationWarning, stacklevel=1)
    with (
        pytest.raises(AssertionError, match="^DeprecationWarning not triggerred$"),
        testing.assert_warns(DeprecationWarning),
    ):
        warnings.warn("other", UserWarning, stacklevel=1)


def test_assert_function_is_called():
    with testing.AssertFunctionIsCalled("numpy.linalg.norm", times_called=2):
        np.linalg.norm(1.0)
        np.linalg.norm(1.0)
    with (
        pytest.raises(AssertionError, match="called 0 times, not 1"),
        testing.AssertFunctionIsCalled("numpy.linalg.norm"),
    ):
        pass


@pytest.mark.gpu
def test_real_assertions_take_device_arrays():
    x = cp.arange(6, dtype=cp.float32).reshape(2, 3)
    testing.assert_array_equal(x, np.arange(6, dtype=np.float32).reshape(2, 3), strides_check=True)
    with pytest.raises(AssertionError, match="Strides are not equal"):
        testing.assert_array_equal(x, np.asfortranarray(x.get()), strides_check=True)
    testing.assert_array_max_ulp(x, x.get())
    testing.assert_array_almost_equal_nulp(x, x)
    testing.assert_array_list_equal([x, x[0]], [x.get(), x.get()[0]])


# ----------------------------------------------------------------------------------------------------------
# Requirements and marks
# ----------------------------------------------------------------------------------------------------------


def test_installed_and_numpy_satisfies():
    assert testing.installed("numpy>=1.0") and not testing.installed("numpy<1.0")
    assert not testing.installed("no-such-distribution-xyz")
    assert testing.installed("numpy>=1.0", "pytest")
    assert testing.numpy_satisfies(">=1.0") and not testing.numpy_satisfies("<1.0")


def test_with_requires():
    mark = testing.with_requires("numpy>=1.0", "no-such-distribution-xyz")
    assert mark.name == "skipif" and mark.args == (True,)
    assert mark.kwargs["reason"] == "requires: numpy>=1.0,no-such-distribution-xyz"
    assert testing.with_requires("numpy>=1.0").args == (False,)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnknownMarkWarning")  # slow is a project's to register
def test_slow_and_multi_gpu(monkeypatch):
    def f():
        pass

    assert [m.name for m in testing.slow(f).pytestmark] == ["slow"]
    monkeypatch.delenv("CUPY_TEST_GPU_LIMIT", raising=False)
    monkeypatch.setattr(_devices, "device_count", lambda: 4)
    marks = {m.name: m for m in testing.multi_gpu(2)(lambda: None).pytestmark}
    assert set(marks) == {"multi_gpu", "skipif"} and marks["skipif"].args == (False,)
    monkeypatch.setenv("CUPY_TEST_GPU_LIMIT", "1")
    skip = next(m for m in testing.multi_gpu(2)(lambda: None).pytestmark if m.name == "skipif")
    assert skip.args == (True,) and skip.kwargs["reason"] == "2 GPUs required"
    monkeypatch.delenv("CUPY_TEST_GPU_LIMIT")
    monkeypatch.setattr(_devices, "device_count", lambda: 1)
    skip = next(m for m in testing.multi_gpu(3)(lambda: None).pytestmark if m.name == "skipif")
    assert skip.args == (True,) and skip.kwargs["reason"] == "needs 3 CUDA devices, found 1"
    with pytest.raises(AssertionError):
        testing.multi_gpu(1)


# ----------------------------------------------------------------------------------------------------------
# parameterize, product, product_dict
# ----------------------------------------------------------------------------------------------------------


def test_product_and_product_dict():
    assert testing.product({"b": [1, 2], "a": ["x"]}) == [{"a": "x", "b": 1}, {"a": "x", "b": 2}]
    assert testing.product_dict([{"a": 1}], [{"b": 2}, {"b": 3}]) == [{"a": 1, "b": 2}, {"a": 1, "b": 3}]


PARAMETERIZED = """
    import unittest
    from cuarray import testing

    @testing.parameterize(*testing.product({'n': [1, 2], 'order': ['C', 'F']}))
    class TestPlain:
        def test_attrs(self):
            assert self.n in (1, 2) and self.order in ('C', 'F')

    @testing.parameterize({'k': 3, 'f': abs}, {'k': -4, 'f': abs})
    class TestCase(unittest.TestCase):
        def test_attrs(self):
            assert self.f(self.k) in (3, 4)

    def test_the_original_testcase_is_gone():
        assert TestCase is None
"""


def test_parameterize_under_pytest(pytester):
    pytester.makepyfile(textwrap.dedent(PARAMETERIZED))
    result = pytester.runpytest_inprocess("-p", "no:hypothesispytest", "-v")
    result.assert_outcomes(passed=7)
    out = result.stdout.str()
    assert "TestPlain::test_attrs[_param_0_{n=1, order='C'}] PASSED" in out
    assert "TestCase_param_1_{f=abs, k=-4}::test_attrs PASSED" in out


def test_parameterize_twice_is_an_error():
    once = testing.parameterize({"a": 1})(type("TestX", (), {}))
    with pytest.raises(RuntimeError, match="twice"):
        testing.parameterize({"b": 1})(once)


# ----------------------------------------------------------------------------------------------------------
# fix_random and the repeat/retry conditions
# ----------------------------------------------------------------------------------------------------------


def test_fix_random_on_a_function_seeds_and_restores(monkeypatch):
    monkeypatch.setattr(_devices, "device_count", lambda: 0)  # cuarray's own state needs a device
    np.random.seed(7)
    random.seed(7)
    before = np.random.get_state()[1].copy(), random.getstate()
    drawn = []

    @testing.fix_random()
    def test_body():
        drawn.append((np.random.rand(), random.random(), testing.generate_seed()))

    test_body()
    test_body()
    assert drawn[0] == drawn[1]
    assert drawn[0][0] == np.random.RandomState(100).rand()
    assert np.array_equal(np.random.get_state()[1], before[0]) and random.getstate() == before[1]
    with pytest.raises(AssertionError, match="random is not set up"):
        testing.generate_seed()
    with pytest.raises(ValueError, match="Can't apply fix_random"):
        testing.fix_random()(lambda: None)


def test_fix_random_on_a_testcase(monkeypatch):
    monkeypatch.setattr(_devices, "device_count", lambda: 0)
    seen = []

    @testing.fix_random()
    class TestRandom(unittest.TestCase):
        def test_a(self):
            seen.append(np.random.rand())

    for _ in range(2):
        result = unittest.TestResult()
        TestRandom("test_a").run(result)
        assert result.wasSuccessful(), result.failures + result.errors
    assert seen[0] == seen[1] and _random._depth == 0


@pytest.mark.gpu
def test_real_fix_random_seeds_cuarray():
    drawn = []

    @testing.fix_random()
    def test_body():
        drawn.append(cp.random.rand(3).get())

    test_body()
    test_body()
    np.testing.assert_array_equal(drawn[0], drawn[1])


def test_repeat_and_retry():
    calls = []

    @_condition.retry(3)
    def flaky():
        calls.append(1)
        assert len(calls) == 2

    flaky()
    assert len(calls) == 2

    @_condition.repeat(3)
    def once_bad():
        calls.append(1)
        assert len(calls) != 2

    calls.clear()
    with pytest.raises(AssertionError, match="Fail: 1, Success: 1"):
        once_bad()

    @_condition.repeat_with_success_at_least(5, 2)
    def skipped():
        pytest.skip("not here")

    with pytest.raises(pytest.skip.Exception):
        skipped()


def test_numpy_alias_bases():
    class TestAbs(testing.NumpyAliasBasicTestBase, testing.NumpyAliasValuesTestBase):
        func = "isscalar"
        args = (3,)

    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(TestAbs).run(result)
    assert result.testsRun == 3 and not result.errors, result.errors
