"""The harness of CuPy's own test suite, checked without a GPU or CuPy's sources:

    PYTHONPATH=$PWD/python python3 -m pytest tests/test_cupy_suite_harness.py

the selection of tests, the report's counting and grouping, the shim's names, and the conftest's rules.
"""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks", "cupy_suite")
sys.path.insert(0, HERE)

import suite


def test_select_every_row_once():
    args = suite.select([])
    assert "tests/cupy_tests/core_tests" in args
    assert "tests/cupy_tests/core_tests/fusion_tests" not in args  # inside core_tests
    assert not any(a.startswith("--ignore=tests/cupy_tests/core_tests/fusion_tests") for a in args)
    assert "--ignore=tests/cupy_tests/core_tests/test_cub_reduction.py" in args
    assert "--ignore=tests/cupy_tests/fft_tests/test_callback.py" in args
    # Every row one path, but cuda's 5 files and signal's 12 (fusion is inside core's).
    assert len([a for a in args if not a.startswith("--")]) == len(suite.ROWS) - 1 + 4 + 11
    assert "tests/cupyx_tests/scipy_tests/signal_tests/test_spectral.py" in args


def test_select_core_alone_leaves_fusion_out():
    assert suite.select(["core"]) == [
        "tests/cupy_tests/core_tests",
        "--ignore=tests/cupy_tests/core_tests/fusion_tests",
        "--ignore=tests/cupy_tests/core_tests/test_cub_reduction.py",
        "--ignore=tests/cupy_tests/fft_tests/test_callback.py",
    ]
    assert suite.select(["fusion"])[0] == "tests/cupy_tests/core_tests/fusion_tests"


def test_select_unknown_row():
    with pytest.raises(SystemExit, match="unknown row.*mathh"):
        suite.select(["math", "mathh"])


@pytest.mark.parametrize(
    "message, expected",
    [
        ("TypeError: bad dtype", "TypeError: bad dtype"),
        (
            "AssertionError: \n\nNot equal to tolerance rtol=1e-07, atol=0\n...",
            "AssertionError: Not equal to tolerance rtol=1e-07, atol=0",
        ),
        (
            (
                'AssertionError: Only cupy raises error\n\nTraceback (most recent call last):\n  File "x.py"\n'
                "ValueError: axis 3 is out of bounds\n"
            ),
            "only cupy raises: ValueError: axis 3 is out of bounds",
        ),
        (
            "AssertionError: Only numpy raises error\n\nTraceback:\nnumpy.exceptions.AxisError: axis 2\n",
            "only numpy raises: numpy.exceptions.AxisError: axis 2",
        ),
        (
            (
                "AssertionError: Different types of errors occurred\n\ncupy\nTraceback:\nTypeError: a\n\nnumpy\n"
                "Traceback:\nValueError: b\n"
            ),
            "cupy raises TypeError: a where numpy raises ValueError: b",
        ),
        (
            'failed on setup with "AttributeError: no streamCreate"',
            "AttributeError: no streamCreate (in setup)",
        ),
        (
            "worker 'gw3' crashed while running 'tests/x.py::test_y'",
            "pytest-xdist worker crashed: the per-test timeout, or a fault that ended the process",
        ),
        ("", "(no message)"),
    ],
)
def test_headline(message, expected):
    assert suite.headline(message) == expected


def test_message_of_a_cut_short_failure():
    # junitxml cuts a long message short; the report's E lines hold all of it.
    import xml.etree.ElementTree as ET

    failure = ET.fromstring(
        '<failure message="AssertionError: Only cupy raises error&#10;&#10;Traceback (most recent call last):'
        '&#10;[+3 more lines; full report in element text]">x.py:1: in f\n    g()\n'
        "E   AssertionError: Only cupy raises error\nE   \nE   Traceback (most recent call last):\n"
        'E     File "y.py", line 2, in g\nE   TypeError: cuarray.f takes a cuarray.ndarray</failure>'
    )
    assert suite.headline(suite._message(failure)) == (
        "only cupy raises: TypeError: cuarray.f takes a cuarray.ndarray"
    )
    assert suite._message(ET.fromstring('<failure message="ValueError: v">tb</failure>')) == "ValueError: v"


def test_nodeids_of_a_collection_whose_ids_hold_newlines():
    # cupy.testing.parameterize names a class by its parameters' reprs; an array's spans lines.
    log = [
        "tests/cupy_tests/padding_tests/test_pad.py::TestPad_param_8_{array=array([[0, 1, 2],\n",
        "       [3, 4, 5]]), mode='symmetric'}::test_pad\n",
        "tests/cupy_tests/math_tests/test_misc.py::TestMisc::test_x[1-2]\n",
        "\n",
        "2 tests collected in 1.0s\n",
    ]
    ids = list(suite.nodeids(log))
    assert ids == [
        (
            "tests/cupy_tests/padding_tests/test_pad.py::TestPad_param_8_{array=array([[0, 1, 2], "
            "[3, 4, 5]]), mode='symmetric'}::test_pad"
        ),
        "tests/cupy_tests/math_tests/test_misc.py::TestMisc::test_x[1-2]",
    ]
    assert [suite._row_of(suite._key_of_nodeid(i)[0] + ".") for i in ids] == ["padding", "math"]
    assert suite._key_of_nodeid(ids[1]) == ("tests.cupy_tests.math_tests.test_misc.TestMisc", "test_x[1-2]")


def test_group_key_makes_numbers_alike():
    assert suite._group_key("shapes (2,3) and (4,) at 0x7f00ab") == suite._group_key(
        "shapes (5,6) and (7,) at 0x1"
    )


_JUNIT = (
    '<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">{}</testsuite></testsuites>'
)


def _case(classname, name, body=""):
    return f'<testcase classname="{classname}" name="{name}" time="0.1">{body}</testcase>'


def _write(path, cases, mtime):
    with open(path, "w") as f:
        f.write(_JUNIT.format("".join(cases)))
    os.utime(path, (mtime, mtime))


def test_report_counts(tmp_path):
    m = "tests.cupy_tests.math_tests.test_misc.TestMisc"
    f = "tests.cupy_tests.core_tests.fusion_tests.test_array.TestA"
    _write(
        tmp_path / "junit-a.xml",
        [
            _case(m, "test_pass"),
            _case(m, "test_xpass", '<properties><property name="xpassed" value="1" /></properties>'),
            _case(m, "test_fail", '<failure message="TypeError: no">tb</failure>'),
            _case(m, "test_fail", '<error message="failed on teardown with &quot;X&quot;">tb</error>'),
            _case(m, "test_skip", '<skipped type="pytest.skip" message="s" />'),
            _case(m, "test_xfail", '<skipped type="pytest.xfail" message="x" />'),
            _case(m, "test_later_passes", '<failure message="ValueError: once">tb</failure>'),
            _case(m, "test_renamed"),
            _case(f, "test_f", '<failure message="TypeError: no">tb</failure>'),
            _case(
                "",
                "tests.cupy_tests.math_tests.test_broken",
                '<error message="collection failure">E   AttributeError: module has no attribute x</error>',
            ),
        ],
        1000,
    )
    _write(tmp_path / "junit-b.xml", [_case(m, "test_later_passes")], 2000)
    reference = [
        f"tests/cupy_tests/math_tests/test_misc.py::TestMisc::{n}"
        for n in ("test_pass", "test_xpass", "test_fail", "test_skip", "test_xfail", "test_later_passes")
    ]
    reference += [
        "tests/cupy_tests/math_tests/test_broken.py::TestB::test_1",
        "tests/cupy_tests/math_tests/test_broken.py::TestB::test_2",
        "tests/cupy_tests/core_tests/fusion_tests/test_array.py::TestA::test_f",
        "tests/cupy_tests/fft_tests/test_fft.py::TestFft::test_not_run",
    ]
    (tmp_path / "reference-all.txt").write_text("\n".join(reference) + "\n")

    summary = suite.report(str(tmp_path))
    # math: passed 3 (one xpassed, one passed in the newer file), failed 1, no result 2 (the file that did not
    # import), renamed test left out; fusion apart from core; fft not run.
    assert "| cupy_tests/math_tests | 3 | 1 | 2 | 50.0 | 1 | 1 | 1 | 1 |" in summary
    assert "| cupy_tests/core_tests/fusion_tests | 0 | 1 | 0 | 0.0 | 0 | 0 | 0 | 0 |" in summary
    assert "| cupy_tests/core_tests | not run |" in summary
    assert "| cupy_tests/fft_tests | not run |" in summary
    assert "| **all run** | **3** | **2** | **2** | **42.9** |" in summary
    text = (tmp_path / "report.md").read_text()
    assert "1 test(s) ran that CuPy does not collect" in text
    broken = "| tests.cupy_tests.math_tests.test_broken | E   AttributeError: module has no attribute x |"
    assert broken in text
    assert "| 2 | TypeError: no | math_tests 1, fusion_tests 1 |" in text
    failed = (tmp_path / "failed.txt").read_text().splitlines()
    assert failed == [f"{f}::test_f\tTypeError: no", f"{m}::test_fail\tTypeError: no"]


def _shim_python(code, tmp_path):
    """Runs `code` with the shim first on the path (and a cupy.testing of its own, as run.sh copies one)."""
    shim = tmp_path / "shim"
    shutil.copytree(os.path.join(HERE, "shim"), shim, ignore=shutil.ignore_patterns("__pycache__"))
    (shim / "cupy" / "testing").mkdir()
    (shim / "cupy" / "testing" / "__init__.py").write_text("")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(shim)] + sys.path[1:]), CUPY_SUITE_SHIM=str(shim))
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )


def test_shim_forwards_to_cuarray(tmp_path):
    out = _shim_python(
        """
        import cupy, cupyx, cuarray
        import cupy.random._generator as g
        from unittest import mock
        from cupy.exceptions import AxisError
        from cupy.cuda import runtime, pinned_memory
        assert cupy.ndarray is cuarray.ndarray and cupy.asnumpy is cuarray.asnumpy
        assert cupy.linalg.norm is cuarray.linalg.norm and cupy.linalg.__name__ == "cupy.linalg"
        assert AxisError is cuarray.exceptions.AxisError
        assert runtime.is_hip is False and cuarray.cuda.runtime.is_hip is False
        assert pinned_memory.PinnedMemoryPool is cuarray.cuda.pinned_memory.PinnedMemoryPool
        assert cupyx.scipy.signal.convolve is cuarray.scipy.signal.convolve
        assert cupyx.errstate is cuarray.errstate
        import cupy._core, cuarray._fusion  # CuPy's fused function class is cuarray's
        assert cupy._core.fusion.Fusion is cuarray._fusion.Fusion and cupy._core.fusion.fuse is cuarray.fuse
        from cupy._indexing import generate  # r_'s base class is cuarray's
        assert generate.AxisConcatenator is cuarray._index_tricks.AxisConcatenator
        import cupy.random._sample as sample  # patching a module function reaches its callers in cuarray
        with mock.patch("cupy.random._sample.randint") as m:
            cupy.random.random_integers(3, 5)
        m.assert_called_with(3, 6, None)
        with mock.patch.object(sample, "random_sample") as m:
            cupy.random.rand(1, 2)
        m.assert_called_once_with(size=(1, 2), dtype=float)
        # A write reaches cuarray (cupy.testing.fix_random swaps the random states so).
        saved = g._random_states
        g._random_states = {"x": 1}
        assert cuarray.random._generator._random_states == {"x": 1}
        g._random_states = saved
        with mock.patch.object(cupy.cuda.driver, "_is_cuda_python", lambda: True):  # a fact stays the shim's
            assert cupy.cuda.driver._is_cuda_python() and not hasattr(cuarray.cuda.driver, "_is_cuda_python")
        assert cupy.cuda.driver._is_cuda_python() is False
        # Submodules bound by importlib stay on the shim; cuarray keeps its own testing.
        assert cuarray.testing.__name__ == "cuarray.testing" and cupy.testing.__name__ == "cupy.testing"
        for missing in ("cupy.nonexistent", "cupyx.jit"):
            try:
                eval(missing)
            except AttributeError as e:
                assert "no attribute" in str(e)
            else:
                raise AssertionError(missing)
        print("ok")
    """,
        tmp_path,
    )
    assert out.stdout.strip() == "ok", out.stderr


def test_shim_placeholders(tmp_path):
    out = _shim_python(
        """
        import _cupy_suite_alias as alias
        import cuarray.linalg
        from cupy._core import _routines_linalg as L, internal
        from cupy._core import _accelerator as acc
        from cupy import _util
        from cupy.cuda import cub
        from cupy.cuda import memory
        assert internal.prod((2, 3, 4)) == 24
        assert acc.get_routine_accelerators() == []
        acc.set_routine_accelerators(["cub"])
        assert acc.get_routine_accelerators() == [acc.ACCELERATOR_CUB]
        try:
            acc.set_routine_accelerators(["nope"])
        except ValueError:
            pass
        else:
            raise AssertionError("unknown accelerator accepted")
        assert _util.ENABLE_SLICE_COPY is False and issubclass(_util.PerformanceWarning, Warning)
        alias.TOUCHED.clear()
        assert L.COMPUTE_TYPE_PEDANTIC == 2 and L.set_compute_type is cuarray.linalg.set_compute_type
        assert alias.TOUCHED == []            # cuarray's own compute types, not placeholders
        c = L.to_compute_type_index           # names may be passed around...
        assert c.__name__ == "to_compute_type_index" and memory._parse_limit_string.__name__ == "_parse_limit_string"
        k = cub.device_reduce()               # ...and called
        for use in (lambda: bool(c), lambda: list(k), lambda: k < 1, lambda: c + 1):
            try:
                use()                         # but a value use raises
            except NotImplementedError as e:
                assert "is CuPy's; cuarray has no counterpart" in str(e)
            else:
                raise AssertionError("a placeholder was used as a value")
        class Derived(L.SomeClass):           # a class body deriving from one imports
            pass
        try:
            Derived()
        except NotImplementedError:
            pass
        else:
            raise AssertionError("made an instance of a missing class")
        assert "cupy._core._routines_linalg.to_compute_type_index" in alias.TOUCHED
        assert "cupy.cuda.cub.device_reduce()" in alias.TOUCHED
        print("ok")
    """,
        tmp_path,
    )
    assert out.stdout.strip() == "ok", out.stderr


def test_shim_counterparts(tmp_path):
    """Note [Counterparts]: CuPy's private kernel-cache names patch cuarray's settings, and restore them."""
    out = _shim_python(
        f"""
        import os
        from unittest import mock
        import _cupy_suite_alias as alias
        import cuarray
        from cupy import _util
        from cupy.cuda import compiler, _compiler_cache, driver
        from cupy_backends.cuda.libs import nvrtc
        before = cuarray.cuda.compiler.kernel_cache
        path = {str(tmp_path / "kernels")!r}
        with mock.patch("cupy.cuda.compiler._kernel_cache_backend", _compiler_cache.DiskKernelCacheBackend(path)):
            assert cuarray._core.jit.cache_dir() == path and os.path.isdir(path)
        assert cuarray.cuda.compiler.kernel_cache == before
        flag = lambda name, default: name == "CUPY_CACHE_IN_MEMORY"
        with mock.patch("cupy.cuda.compiler._get_bool_env_variable", flag):
            assert cuarray.cuda.compiler._cache_in_memory() is True
        assert cuarray.cuda.compiler._cache_in_memory() is False
        assert cuarray.cuda.compiler._bool_env.__module__ == "cuarray.cuda.compiler"
        with mock.patch("cupy.cuda.compiler._empty_file_preprocess_cache", {{}}):
            pass
        _util.clear_memo()
        assert nvrtc.getVersion() == cuarray.cuda.nvrtc.getVersion()
        assert driver.CUDADriverError is cuarray.cuda.driver.CUDADriverError
        from cupy._core._scalar import get_typename  # test_mdspan.py's import
        assert get_typename(cuarray.float16) == "float16" and get_typename("F") == "thrust::complex<float>"
        assert alias.TOUCHED == [], alias.TOUCHED
        driver.CUresult  # a name of cupy.cuda.driver that cuarray lacks: a placeholder
        assert alias.TOUCHED == ["cupy.cuda.driver.CUresult"], alias.TOUCHED
        print("ok")
        """,
        tmp_path,
    )
    assert out.stdout.strip() == "ok", out.stderr


def test_shim_signal_helpers(tmp_path):
    """The private cupyx.scipy.signal helpers CuPy's signal tests import by their module's path: those with a
    counterpart in cuarray are it (Note [Counterparts]); the others, and cupyx.scipy.ndimage, which cuarray
    lacks, are placeholders, so that the files import (Note [Stand-ins])."""
    out = _shim_python(
        """
        import _cupy_suite_alias as alias
        from cuarray.scipy.signal import _iir_forms, _upfirdn
        from cupyx.scipy.signal._upfirdn import _output_len  # test_upfirdn.py's
        from cupyx.scipy.signal._iir_filter_conversions import _cplxreal  # test_iir_filter_conversion.py's
        assert _output_len is _upfirdn._output_len and _cplxreal is _iir_forms.cplxreal
        assert _output_len(1001, 10**8, 320, 441) == 72562360
        zc, zr = _cplxreal([1 + 3j, 1 - 3j, 2.0])
        assert zc.tolist() == [1 + 3j] and zr.tolist() == [2.0]
        assert alias.TOUCHED == [], alias.TOUCHED
        from cupyx.scipy.ndimage import convolve1d  # test_savitzky_golay.py's
        from cupyx.scipy.signal._savitzky_golay import _polyder
        import cupyx.scipy.signal._savitzky_golay as savgol
        assert isinstance(savgol, alias.Standin) and isinstance(_polyder, alias.Missing)
        assert set(alias.TOUCHED) == {
            "cupyx.scipy.ndimage.convolve1d", "cupyx.scipy.signal._savitzky_golay._polyder"
        }, alias.TOUCHED
        try:
            _polyder([1, 2], 1)[0]
        except NotImplementedError as e:
            assert "_polyder" in str(e)
        else:
            raise AssertionError("a placeholder was used as a value")
        print("ok")
        """,
        tmp_path,
    )
    assert out.stdout.strip() == "ok", out.stderr


def test_conftest_rules(tmp_path):
    """A test that touched a placeholder fails whatever it asserts; an xpass passes and is marked; only the
    named classes of a file in CUPY_SUITE_ONLY run; and a `cupy` that is not the shim stops the run."""
    work = tmp_path / "work"
    shutil.copytree(os.path.join(HERE, "shim"), work / "shim", ignore=shutil.ignore_patterns("__pycache__"))
    (work / "shim" / "cupy" / "testing").mkdir()
    (work / "shim" / "cupy" / "testing" / "__init__.py").write_text("")
    shutil.copy(os.path.join(HERE, "conftest.py"), work / "conftest.py")
    (work / "pytest.ini").write_text("[pytest]\n")
    tests = work / "tests" / "cupy_tests" / "x_tests"
    tests.mkdir(parents=True)
    (work / "tests" / "cupy_tests" / "__init__.py").write_text("")
    (tests / "__init__.py").write_text("")
    (tests / "test_rules.py").write_text(
        textwrap.dedent("""
        import pytest
        from cupy._core import _routines_linalg as L
        USED_AT_IMPORT = L.COMPUTE_TYPE_DEFAULT

        def test_touches():
            L.something

        def test_clean():
            assert USED_AT_IMPORT is not None

        @pytest.mark.xfail(reason="CuPy differs from NumPy here")
        def test_xpass():
            pass
    """)
    )
    (tests / "test_only.py").write_text(
        textwrap.dedent("""
        class TestKept:
            def test_a(self):
                pass

        class TestDropped:
            def test_b(self):
                pass
    """)
    )
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(work / "shim")] + sys.path[1:]),
        CUPY_SUITE_SHIM=str(work / "shim"),
        CUPY_SUITE_MODE="cuarray",
        CUPY_SUITE_ONLY="tests/cupy_tests/x_tests/test_only.py::TestKept,tests/other.py::TestZ",
    )
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-o",
        "xfail_strict=false",
        f"--junitxml={work / 'j.xml'}",
        "tests",
    ]
    out = subprocess.run(cmd, check=False, env=env, cwd=work, capture_output=True, text=True, timeout=300)
    assert "1 failed, 2 passed, 1 deselected, 1 xpassed" in out.stdout, out.stdout + out.stderr
    assert "used CuPy names that cuarray lacks (cupy._core._routines_linalg.something)" in out.stdout
    junit = (work / "j.xml").read_text()
    assert '<property name="xpassed" value="1" />' in junit

    env["PYTHONPATH"] = os.pathsep.join(sys.path[1:])  # no shim: `import cupy` finds none, or CuPy
    out = subprocess.run(cmd, check=False, env=env, cwd=work, capture_output=True, text=True, timeout=300)
    assert out.returncode != 0 and (
        "No module named 'cupy'" in out.stdout + out.stderr or "not the shim" in out.stdout + out.stderr
    )


def test_run_sh_refuses_what_is_not_a_sdist(tmp_path):
    out = subprocess.run(
        ["bash", os.path.join(HERE, "run.sh"), str(tmp_path), str(tmp_path / "out")],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "is not an unpacked CuPy sdist" in out.stderr


def test_run_sh_usage():
    out = subprocess.run(
        ["bash", os.path.join(HERE, "run.sh")], check=False, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2 and "run.sh SDIST OUTDIR [ROW ...]" in out.stderr
    assert "set -euo" not in out.stderr
