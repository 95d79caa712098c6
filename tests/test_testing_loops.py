"""cuarray.testing's for_* decorators as CuPy 14.2's: a pytest parametrization where pytest can parametrize,
a loop inside one call where it cannot (unittest.TestCase methods, helpers called directly), the dtype
combinations, orders and contiguous axes. No GPU needed: the decorated bodies here compute nothing on a
device, and the comparison decorators run their cuarray half on NumPy (`host_half`)."""

import inspect
import os
import subprocess
import sys
import textwrap
import unittest

import numpy as np
import pytest
import test_testing
from cuarray import testing
from cuarray.testing import _comparison, _devices
from test_testing import HostArray, HostCuarray

pytest_plugins = ["pytester"]

host_half = test_testing.host_half


def collect(decorator, *args, **kwargs):
    """The keyword arguments each call of the decorated body got, calling it directly (the loop)."""
    seen = []
    decorator(lambda *a, **kw: seen.append(kw))(*args, **kwargs)
    return seen


# ----------------------------------------------------------------------------------------------------------
# Loops where a mark cannot work
# ----------------------------------------------------------------------------------------------------------


def test_a_helper_called_directly_loops_over_the_dtypes():
    """CuPy's tests decorate helpers (`@testing.for_dtypes('fdFD') def check_mode(self, array, mode, dtype)`)
    and call them from a test: the mark does nothing there, the loop does it all."""
    seen = []

    @testing.for_dtypes("fdFD")
    def check(self, value, dtype):
        seen.append((value, dtype))

    check(None, 1)
    assert seen == [(1, np.float32), (1, np.float64), (1, np.complex64), (1, np.complex128)]


def test_given_the_argument_it_runs_once():
    seen = []

    @testing.for_all_dtypes()
    def check(x, dtype):
        seen.append(dtype)

    check(1, dtype=np.int8)
    check(1, np.uint8)  # by position too
    assert seen == [np.int8, np.uint8]


def test_stacked_decorators_loop_over_the_product():
    seen = collect(lambda f: testing.for_CF_orders()(testing.for_float_dtypes(no_float16=True)(f)))
    assert len(seen) == 10 and seen[0] == {"dtype": np.float64, "order": None}


def test_combinations_given_in_part_are_a_type_error():
    decorated = testing.for_dtypes_combination([np.int8, np.float32], names=("a", "b"))(lambda a, b: None)
    with pytest.raises(TypeError, match=r"was given \['a'\] but not \['b'\]"):
        decorated(a=np.int8)


def test_for_dtypes_empty_runs_nothing_and_passes():
    ran = []
    decorated = testing.for_dtypes([])(lambda x, dtype: ran.append(dtype))
    assert not hasattr(decorated, "pytestmark") and list(inspect.signature(decorated).parameters) == ["x"]
    decorated(1)
    assert ran == []


def test_a_failing_dtype_is_named_in_the_error():
    @testing.for_dtypes([np.int8, np.float32])
    def check(dtype):
        assert dtype != np.float32, "float32 breaks"

    with pytest.raises(AssertionError, match="float32 breaks") as info:
        check()
    if sys.version_info >= (3, 11):
        assert info.value.__notes__ == ["(with dtype=<class 'numpy.float32'>)"]


def test_skips_in_the_loop():
    """A skipped dtype does not stop the others; where every dtype skipped, the test skips."""
    seen = []

    @testing.for_dtypes([np.int8, np.float32, np.float64])
    def some(dtype):
        if dtype == np.float32:
            pytest.skip("no float32")
        seen.append(dtype)

    some()
    assert seen == [np.int8, np.float64]

    @testing.for_dtypes([np.int8, np.float32])
    def every(dtype):
        raise unittest.SkipTest(f"not {dtype.__name__}")

    with pytest.raises(unittest.SkipTest, match="not int8"):
        every()


def test_comparison_inside_the_loop(host_half):
    """CuPy's usual stacking, called without pytest's arguments: each dtype runs both halves."""
    seen = []

    @testing.for_float_dtypes()
    @testing.numpy_cupy_allclose()
    def check(xp, dtype):
        seen.append((xp is np, dtype))
        return testing.shaped_arange((2, 3), xp, dtype).sum(axis=0)

    check()
    assert seen == [(b, t) for t in (np.float64, np.float32, np.float16) for b in (False, True)]


# ----------------------------------------------------------------------------------------------------------
# Under pytest: marks on plain tests, loops on unittest.TestCase methods
# ----------------------------------------------------------------------------------------------------------

CUPY_STYLE = """
    import unittest
    import numpy
    import pytest
    from cuarray import testing


    class TestU(unittest.TestCase):
        @testing.for_float_dtypes()
        def test_float(self, dtype):
            assert dtype in (numpy.float16, numpy.float32, numpy.float64)

        @testing.for_all_dtypes(name='t')
        @testing.numpy_cupy_allclose()
        def test_sum(self, xp, t):
            return testing.shaped_arange((2, 3), xp, t).sum(axis=0)

        def test_helper(self):
            self.check(3)

        @testing.for_dtypes('fdFD')
        def check(self, value, dtype):
            assert value == 3 and dtype in (numpy.float32, numpy.float64, numpy.complex64, numpy.complex128)


    class TestPlain:
        @testing.for_CF_orders()
        @testing.for_signed_dtypes()
        @testing.numpy_cupy_array_equal()
        def test_copy(self, xp, dtype, order):
            return testing.shaped_reverse_arange((2, 3), xp, dtype).copy(order=order)


    @pytest.mark.parametrize('shape', [(2, 3), (2, 3, 4)])
    @pytest.mark.parametrize('order', ['C', 'F'])
    @testing.for_contiguous_axes()
    @testing.for_dtypes_combination([numpy.int8, numpy.float32], names=('a', 'b'), full=True)
    def test_axes(axis, shape, order, a, b):
        assert (axis[-1] == len(shape) - 1) if order == 'C' else (axis[0] == 0)
"""


def test_cupy_style_file_under_pytest(pytester, monkeypatch):
    monkeypatch.setattr(_devices, "device_count", lambda: 1)
    monkeypatch.setattr(_comparison, "_cuarray_half", lambda: (HostCuarray("cuarray"), "scipy", HostArray))
    pytester.makepyfile(textwrap.dedent(CUPY_STYLE))
    result = pytester.runpytest_inprocess("-p", "no:hypothesispytest", "-v")
    # 3 TestCase methods (each looping inside), 5 orders x 5 types, 2 shapes x 2 orders x 4 combinations.
    result.assert_outcomes(passed=3 + 25 + 16)
    out = result.stdout.str()
    assert (
        "TestPlain::test_copy[int8-None] PASSED" in out and "TestPlain::test_copy[longlong-f] PASSED" in out
    )
    assert "test_axes[int8-float32-C-shape1] PASSED" in out


# ----------------------------------------------------------------------------------------------------------
# Combinations
# ----------------------------------------------------------------------------------------------------------

TYPES = [np.float32, np.int8, np.uint8]


def test_full_combination_is_the_product():
    seen = collect(testing.for_dtypes_combination(TYPES, names=("a", "b"), full=True))
    assert [(s["a"], s["b"]) for s in seen] == [(a, b) for a in TYPES for b in TYPES]
    mark = testing.for_dtypes_combination(["f", "b"], names=("a", "b"), full=True)(
        lambda a, b: None
    ).pytestmark[-1]
    assert mark.args[0] == ("a", "b") and mark.kwargs["ids"] == [
        "float32-float32",
        "float32-int8",
        "int8-float32",
        "int8-int8",
    ]


def test_sampled_combination_gives_each_name_each_type(monkeypatch):
    monkeypatch.delenv("CUPY_TEST_FULL_COMBINATION", raising=False)
    seen = collect(testing.for_dtypes_combination(TYPES, names=("a", "b", "c")))
    assert len(seen) <= 2 * len(TYPES) < len(TYPES) ** 3
    for name in "abc":
        assert {s[name] for s in seen} == set(TYPES)
    assert len({tuple(s.values()) for s in seen}) == len(seen)
    monkeypatch.setenv("CUPY_TEST_FULL_COMBINATION", "1")
    assert len(collect(testing.for_dtypes_combination(TYPES, names=("a", "b", "c")))) == 27


def test_sampled_combination_is_the_same_in_every_process():
    """pytest-xdist's workers each collect the tests: their parametrizations must agree."""
    code = (
        "import numpy as np; from cuarray import testing\n"
        "d = testing.for_all_dtypes_combination(names=('x', 'y'))(lambda x, y: None)\n"
        "print(d.pytestmark[-1].kwargs['ids'])"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    env.pop("CUPY_TEST_FULL_COMBINATION", None)
    outs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**env, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outs) == 1 and "float64-" in outs.pop()


def test_named_combinations():
    seen = collect(
        testing.for_all_dtypes_combination(no_float16=True, no_bool=True, no_complex=True, full=True)
    )
    assert len(seen) == 12 and set(seen[0]) == {"dtyes"}  # CuPy's default name, misspelt as CuPy spells it
    seen = collect(testing.for_all_dtypes_combination(names=("x", "y"), full=True))
    assert len(seen) == 16 * 16
    assert {s["dtype"] for s in collect(testing.for_signed_dtypes_combination())} == {
        np.dtype(c).type for c in "bhilq"
    }
    assert {s["d"] for s in collect(testing.for_unsigned_dtypes_combination(names=("d",)))} == {
        np.dtype(c).type for c in "BHILQ"
    }
    assert len(collect(testing.for_int_dtypes_combination(names=("a", "b"), full=True))) == 11 * 11
    assert len(collect(testing.for_int_dtypes_combination(names=("a", "b"), no_bool=True, full=True))) == 100
    assert len(collect(testing.for_float_dtypes_combination(names=("a", "b"), full=True))) == 9
    assert len(collect(testing.for_complex_dtypes_combination(names=("a", "b"), full=True))) == 4
    assert collect(testing.for_dtypes_combination(["f"], names=("a", "b"))) == [
        {"a": np.float32, "b": np.float32}
    ]


# ----------------------------------------------------------------------------------------------------------
# Orders and contiguous axes
# ----------------------------------------------------------------------------------------------------------


def test_for_orders():
    assert collect(testing.for_orders(["C", "F"], name="o")) == [{"o": "C"}, {"o": "F"}]
    assert [s["order"] for s in collect(testing.for_CF_orders())] == [None, "C", "F", "c", "f"]
    mark = testing.for_CF_orders()(lambda order: None).pytestmark[-1]
    assert mark.args[0] == "order" and mark.kwargs["ids"] == ["None", "C", "F", "c", "f"]


def test_for_contiguous_axes():
    seen = []

    @testing.for_contiguous_axes()
    def body(self, shape, order, axis):
        seen.append(axis)

    assert list(inspect.signature(body).parameters) == ["self", "shape", "order"]
    body(None, shape=(1, 2, 3), order="C")
    body(None, shape=(1, 2, 3), order="f")
    assert seen == [(0, 1, 2), (1, 2), (2,), (0,), (0, 1), (0, 1, 2)]
    with pytest.raises(ValueError, match="Please specify the array order"):
        body(None, shape=(2,), order=None)

    class Params:  # testing.parameterize's attributes stand in for the keywords
        shape, order = (4, 5), "F"

    seen.clear()
    testing.for_contiguous_axes(name="axes")(lambda self, axes: seen.append(axes))(Params())
    assert seen == [(0,), (0, 1)]
