"""cuarray.pytest_plugin and cuarray.testing's decorators under pytest itself (pytester, in process).

The number of devices is fixed by monkeypatching cuarray.testing._devices.device_count, so these tests give the
same results on machines with and without GPUs.
"""

from pathlib import Path

import numpy as np
import pytest
from cuarray.testing import _comparison, _devices
from test_testing import HostArray, HostCuarray

pytest_plugins = ["pytester"]

PLUGIN = ("-p", "cuarray.pytest_plugin")


def run(pytester, *args):
    """pytest in this process, without Hypothesis's plugin (importing it again is most of a run's time)."""
    return pytester.runpytest_inprocess("-p", "no:hypothesispytest", *args)


@pytest.fixture
def devices(monkeypatch):
    """devices(n): the tests pytester runs see n CUDA devices."""
    return lambda n: monkeypatch.setattr(_devices, "device_count", lambda: n)


def skip_lines(result):
    return [line for line in result.stdout.lines if line.startswith("SKIPPED")]


def test_markers_are_registered_once(pytester, devices):
    devices(0)
    out = run(pytester, *PLUGIN, "--markers").stdout.str()
    assert out.count("@pytest.mark.gpu:") == 1
    assert out.count("@pytest.mark.requires_gpus(n):") == 1
    pytester.makepyfile("""
        import pytest

        @pytest.mark.gpu
        @pytest.mark.requires_gpus(1)
        def test_marked():
            pass
    """)
    run(pytester, *PLUGIN, "--strict-markers").assert_outcomes(skipped=1)


def test_xp_fixture_ids(pytester, devices):
    devices(0)
    pytester.makepyfile("def test_f(xp):\n    assert xp.__name__ in ('numpy', 'cuarray')\n")
    lines = run(pytester, *PLUGIN, "--collect-only", "-q").stdout.lines
    assert "test_xp_fixture_ids.py::test_f[numpy]" in lines
    assert "test_xp_fixture_ids.py::test_f[cuarray]" in lines


def test_xp_cuarray_case_skips_without_a_gpu(pytester, devices):
    pytester.makepyfile("""
        import cuarray, numpy

        def test_f(xp):
            assert xp is numpy or xp is cuarray
    """)
    devices(0)
    result = run(pytester, *PLUGIN, "-rs")
    result.assert_outcomes(passed=1, skipped=1)
    [line] = skip_lines(result)
    assert line.endswith(": no CUDA device available (cuarray.cuda.is_available() is False)")
    devices(1)
    run(pytester, *PLUGIN).assert_outcomes(passed=2)
    # The cuarray case is marked gpu, so -m selects it.
    run(pytester, *PLUGIN, "-m", "not gpu").assert_outcomes(passed=1, deselected=1)


MARKED = """
    import pytest

    @pytest.mark.gpu
    def test_one():
        pass

    @pytest.mark.requires_gpus(2)
    def test_two():
        pass

    @pytest.mark.requires_gpus(n=3)
    def test_three():
        pass

    @pytest.mark.requires_gpus(2)
    class TestClass:
        @pytest.mark.requires_gpus(1)
        def test_in_class(self):
            pass
"""


def test_markers_skip_saying_how_many_devices_were_found(pytester, devices):
    pytester.makepyfile(MARKED)
    devices(1)
    result = run(pytester, *PLUGIN, "-rs")
    result.assert_outcomes(passed=1, skipped=3)
    text = "\n".join(skip_lines(result))
    assert (
        text.count("needs 2 CUDA devices, found 1") == 2 and text.count("needs 3 CUDA devices, found 1") == 1
    )
    devices(0)
    result = run(pytester, *PLUGIN, "-rs")
    result.assert_outcomes(skipped=4)
    text = "\n".join(skip_lines(result))
    assert "no CUDA device available" in text and "needs 3 CUDA devices, found 0" in text
    devices(3)
    run(pytester, *PLUGIN).assert_outcomes(passed=4)


@pytest.mark.parametrize(
    "mark",
    [
        "requires_gpus()",
        "requires_gpus('2')",
        "requires_gpus(0)",
        "requires_gpus(1, 2)",
        "requires_gpus(count=2)",
    ],
)
def test_bad_requires_gpus_is_a_usage_error(pytester, devices, mark):
    devices(0)
    pytester.makepyfile(f"import pytest\n\n@pytest.mark.{mark}\ndef test_f():\n    pass\n")
    result = run(pytester, *PLUGIN)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "test_f: requires_gpus" in result.stderr.str()


def test_requires_gpus_decorator_needs_no_plugin(pytester, devices):
    devices(1)
    pytester.makepyfile(
        test_functions="""
        from cuarray.testing import requires_gpus

        @requires_gpus(2)
        def test_two():
            pass

        @requires_gpus(1)
        def test_one():
            pass

        @requires_gpus(2)
        class TestTwo:
            def test_method(self):
                pass
    """,
        test_module="""
        from cuarray.testing import requires_gpus

        pytestmark = requires_gpus(4)

        def test_four():
            pass
    """,
    )
    result = run(pytester, "-p", "no:cuarray.pytest_plugin", "-rs")
    result.assert_outcomes(passed=1, skipped=3)
    text = "\n".join(skip_lines(result))
    assert text.count("needs 2 CUDA devices, found 1") == 2 and "needs 4 CUDA devices, found 1" in text


def test_plugin_named_twice_registers_once(pytester, devices):
    """A conftest's pytest_plugins and -p name the same plugin."""
    devices(0)
    pytester.makeconftest('pytest_plugins = ["cuarray.pytest_plugin"]\n')
    pytester.makepyfile("import pytest\n\n@pytest.mark.gpu\ndef test_f():\n    pass\n")
    for args in ((), PLUGIN):
        result = run(pytester, *args, "-rs", "--strict-markers")
        result.assert_outcomes(skipped=1)
        assert len(skip_lines(result)) == 1
    out = run(pytester, *PLUGIN, "--markers").stdout.str()
    assert out.count("@pytest.mark.gpu:") == 1


def test_plugin_is_opt_in():
    """No pytest11 entry point: installing cuarray adds nothing to other projects' pytest runs."""
    tomllib = pytest.importorskip("tomllib")
    root = Path(__file__).resolve().parents[1]
    with open(root / "pyproject.toml", "rb") as f:
        entry_points = tomllib.load(f)["project"].get("entry-points", {})
    assert "pytest11" not in entry_points, entry_points.get("pytest11")


def test_project_markers_use_the_plugin(pytester, devices):
    """tests/conftest.py's multi_gpu (requires_gpus(2)) and nogpu, beside the plugin's markers."""
    pytester.syspathinsert()
    pytester.makepyfile(
        project_markers="from conftest import pytest_collection_modifyitems, pytest_configure\n"
    )
    pytester.makepyfile("""
        import pytest

        @pytest.mark.multi_gpu
        def test_multi():
            pass

        @pytest.mark.nogpu
        def test_nogpu():
            pass

        @pytest.mark.gpu
        @pytest.mark.multi_gpu
        def test_both():
            pass
    """)
    args = ("-p", "project_markers", *PLUGIN, "-rs", "--strict-markers")
    devices(1)
    result = run(pytester, *args)
    result.assert_outcomes(skipped=3)
    text = "\n".join(skip_lines(result))
    assert text.count("needs 2 CUDA devices, found 1") == 2 and "a CUDA device is available" in text
    devices(0)
    result = run(pytester, *args)
    result.assert_outcomes(passed=1, skipped=2)
    assert "\n".join(skip_lines(result)).count("needs 2 CUDA devices, found 0") == 2


DECORATED = """
    import numpy
    from cuarray import testing

    @testing.for_float_dtypes(no_float16=True)
    @testing.numpy_cuarray_allclose()
    def test_same(xp, dtype):
        return xp.arange(4, dtype=dtype) * 2

    @testing.numpy_cuarray_allclose()
    def test_differs(xp):
        return xp.arange(3.0) + (0 if xp is numpy else 1e-3)

    @testing.numpy_cuarray_raises()
    def test_raises(xp):
        xp.zeros(2).reshape(3)

    class TestInClass:
        @testing.numpy_cuarray_array_equal()
        @testing.for_dtypes([numpy.int8, numpy.uint16])
        def test_method(self, xp, dtype):
            return xp.ones(2, dtype=dtype)
"""


def test_decorated_tests_under_pytest(pytester, devices, monkeypatch):
    """The comparison decorators as a tutorial's tests use them: dtype ids, and a failure naming both results
    (the cuarray half runs on the host here)."""
    pytester.makepyfile(DECORATED)
    devices(1)
    monkeypatch.setattr(_comparison, "_cuarray_half", lambda: (HostCuarray("cuarray"), "scipy", HostArray))
    result = run(pytester, "-v")
    result.assert_outcomes(passed=5, failed=1)
    out = result.stdout.str()
    for test in (
        "test_same[float32] PASSED",
        "test_same[float64] PASSED",
        "TestInClass::test_method[int8] PASSED",
        "TestInClass::test_method[uint16] PASSED",
        "test_differs FAILED",
    ):
        assert test in out
    assert (
        "numpy_cuarray_allclose: the result with xp=cuarray (ACTUAL below) is not close to the one with "
        "xp=numpy (DESIRED)" in out
    )
    assert "xp=cuarray: array([1.000e-03, 1.001e+00, 2.001e+00])" in out
    assert "xp=numpy:   array([0., 1., 2.])" in out


def test_decorated_tests_skip_without_a_gpu(pytester, devices):
    pytester.makepyfile(DECORATED)
    devices(0)
    result = run(pytester, "-rs")
    result.assert_outcomes(skipped=6)
    assert (
        "no CUDA device available (cuarray.cuda.is_available() is False); numpy_cuarray_allclose ran neither "
        "the numpy nor the cuarray half" in result.stdout.str()
    )


def test_host_half_stand_in_matches_numpy():
    """The stand-in the decorator tests use computes exactly what NumPy does."""
    fake = HostCuarray("cuarray")
    got = fake.arange(6.0).reshape(2, 3).T
    assert type(got) is HostArray and np.array_equal(got.get(), np.arange(6.0).reshape(2, 3).T)


def test_project_conftest_loads_the_plugin():
    import conftest

    assert conftest.pytest_plugins == ["cuarray.pytest_plugin"]
