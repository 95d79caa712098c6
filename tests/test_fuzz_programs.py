"""Differential fuzzing of PROGRAMS: 3-8 steps (ufuncs with arrays and Python scalars, reductions with axes and
keepdims, scans, matmul, sorting, indexing and assignment, in-place operators on views, reshapes, joins,
tile/repeat, astype) on inputs of every dtype, 0-d, zero-size and length-1 axes, strided, reversed and
transposed views, broadcasting, NaN/inf/-0.0/extremes; run on NumPy and on cuarray in lock step and compared
after every step: dtype, shape, values (NaN positions exactly; tolerances per dtype and op), exception types,
memory sharing of each result with every live array, and every live array unchanged unless written.
tests/program_fuzz.py runs and compares, tests/program_steps.py draws; both say what is left out and why
(`KNOWN DIFFERENCE`). A failure prints a runnable reproduction: the program with its inputs as literals.

Without a GPU the same machinery runs with NumPy on both sides, and against deliberately wrong
implementations that it must catch. On a GPU (each focus is one test, so that one bug does not hide others):

    pytest -m gpu tests/test_fuzz_programs.py                                   # fixed examples, ~1 minute
    CUARRAY_HYPOTHESIS_PROFILE=gpu-long pytest -m gpu tests/test_fuzz_programs.py  # 20x the examples, fresh
    CUARRAY_FUZZ_MINUTES=5 pytest -m gpu tests/test_fuzz_programs.py          # fresh examples for 5 minutes
                                                                                # in all, split among the tests
CUARRAY_FUZZ_EXAMPLES=n sets the number of examples of each test instead of the profile's. A failing test
shrinks each distinct failure (hypothesis stops shrinking after 5 minutes) and prints each one's reproduction;
CUARRAY_FUZZ_NO_SHRINK=1 reports the failures as drawn, for runs with a hard time limit.
CUARRAY_FUZZ_STALL=dir: a program still running after 60 s writes every thread's stack to dir/stall-<focus>-<pid>.txt
(and again each minute), and each step is written to dir/program-<focus>-<pid>.txt before it runs, so that a run cut
by its time limit shows where a slow or stuck program was and what it ran.
"""

import contextlib
import faulthandler
import io
import os
import sys
import time
import warnings

import numpy as np
import pytest
from conftest import run_python
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from program_fuzz import Impl, Mismatch, Runner, Step, array_literal, cuarray_impl, numpy_impl
from program_steps import FOCUS, run_program

FOCI = list(FOCUS)


def check_programs(impl, focus, **overrides):
    """Runs the profile's (or the overridden) number of programs of `focus` against `impl`."""
    if os.environ.get("CUARRAY_FUZZ_EXAMPLES"):
        overrides.setdefault("max_examples", int(os.environ["CUARRAY_FUZZ_EXAMPLES"]))
    if os.environ.get("CUARRAY_FUZZ_NO_SHRINK"):
        overrides.setdefault("phases", [Phase.explicit, Phase.reuse, Phase.generate])

    @settings(settings.default, **overrides)
    @given(st.data())
    def programs(data):
        runner = Runner(impl)
        with _stall_watch(focus, runner):
            run_program(data, runner, focus)

    programs()


@contextlib.contextmanager
def _stall_watch(focus, runner=None, seconds=60):
    """Under CUARRAY_FUZZ_STALL, the stacks of a program that runs longer than `seconds`, to a file per focus,
    and the program's steps so far to program-<focus>-<pid>.txt (written before each step runs, because a
    step stuck in C code holding the GIL lets no Python code write it after)."""
    folder = os.environ.get("CUARRAY_FUZZ_STALL")
    if not folder:
        yield
        return
    tag = f"{focus}-{os.getpid()}.txt"
    with (
        open(os.path.join(folder, "stall-" + tag), "a") as out,
        open(os.path.join(folder, "program-" + tag), "w") as echo,
    ):
        if runner is not None:
            runner.echo = echo
        faulthandler.dump_traceback_later(seconds, repeat=True, file=out)
        try:
            yield
        finally:
            faulthandler.cancel_dump_traceback_later()


# ---------------------------------------------------------------------------------------------------------
# Without a GPU: the harness itself
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("focus", FOCI)
def test_numpy_against_itself_passes_and_reproductions_run(focus):
    """NumPy on both sides: every check passes, and the reproduction of each whole program is Python that
    runs (with NumPy standing in for cuarray) and passes its own checks."""

    @settings(settings.default, max_examples=max(10, settings.default.max_examples // 2))
    @given(st.data())
    def programs(data):
        runner = Runner(numpy_impl())
        run_program(data, runner, focus)
        src = runner.reproduction()
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            exec(compile(src, "<reproduction>", "exec"), {"__name__": "__main__"})  # noqa: S102

    programs()


def test_literals_round_trip_exactly():
    nan, inf = float("nan"), float("inf")
    for a in [
        np.array([nan, -0.0, inf, -inf, 1e-45, 3.4028235e38], dtype=np.float32),
        np.array([complex(nan, -0.0), complex(-inf, 1.5)], dtype=np.complex64),
        np.array([6e-08, 65504.0, -0.0], dtype=np.float16),
        np.array(2**64 - 1, dtype=np.uint64),
        np.zeros((0, 3), np.int8),
        np.array([[True, False]]),
        np.arange(24, dtype=np.int64).reshape(2, 3, 4),
    ]:
        b = eval(array_literal(a), {"np": np, "nan": nan, "inf": inf})
        assert b.dtype == a.dtype and b.shape == a.shape and b.tobytes() == a.tobytes()


FAKE = '''
"""NumPy with one deliberate bug (BUG below), standing in for cuarray in tests/test_fuzz_programs.py."""
import numpy as _np
from numpy import *  # noqa: F403
from numpy import exceptions  # noqa: F401

ndarray, asnumpy, shares_memory = _np.ndarray, _np.asarray, _np.shares_memory
BUG = {bug!r}


def tile(A, reps):
    r = _np.tile(A, reps)
    if BUG == "tile_view" and r.shape == _np.shape(A):
        return A[...]  # a view where NumPy documents a new array
    return r


def sin(x, *args, **kwargs):
    r = _np.sin(x, *args, **kwargs)
    if BUG == "nan_flip":
        r = _np.where(_np.isnan(r), 0, r)[()]  # a NaN became a number
    return r


def sort(a, axis=-1, **kwargs):
    if BUG == "sort_in_place" and isinstance(a, _np.ndarray) and axis is not None:
        a.sort(axis=axis, **kwargs)  # writes its operand
        return a.copy()
    return _np.sort(a, axis, **kwargs)


def concatenate(arrays, axis=0, **kwargs):
    if BUG == "no_error":
        try:
            return _np.concatenate(arrays, axis, **kwargs)
        except ValueError:
            return _np.zeros(0)  # NumPy raises
    return _np.concatenate(arrays, axis, **kwargs)
'''


def _fake_impl(tmp_path, bug):
    (tmp_path / "fakecp.py").write_text(FAKE.format(bug=bug))
    sys.path.insert(0, str(tmp_path))
    try:
        sys.modules.pop("fakecp", None)
        import fakecp
    finally:
        sys.path.remove(str(tmp_path))
    return Impl(fakecp, "import fakecp as cp", np.ndarray, np.asarray, np.shares_memory)


# Hand-written programs, one per deliberate bug, and the check that must catch it.
BUGS = {
    "tile_view": (
        ["b0 = xp.asarray(np.array([1.5, 2.0, -0.0], dtype=np.float32))", "v1 = xp.tile(b0, 1)"],
        "shares_memory",
    ),
    "nan_flip": (
        ["b0 = xp.asarray(np.array([inf, 1.0, nan], dtype=np.float64))", "x0 = b0[::-1]", "v1 = xp.sin(x0)"],
        "values",
    ),
    "sort_in_place": (
        ["b0 = xp.asarray(np.array([[3, 1], [2, 0]], dtype=np.int16))", "v1 = xp.sort(b0, axis=1)"],
        "values",
    ),
    "no_error": (
        ["b0 = xp.asarray(np.array([1, 2], dtype=np.uint8))", "v1 = xp.concatenate([b0, b0[None]])"],
        "raises",
    ),
}


@pytest.mark.parametrize("bug", list(BUGS))
def test_deliberate_bugs_are_caught_with_a_reproduction_that_runs(tmp_path, bug):
    impl = _fake_impl(tmp_path, bug)
    lines, check = BUGS[bug]
    # NumPy against itself: the same program passes.
    ok = Runner(numpy_impl())
    for src in lines:
        ok.run(
            Step(
                src,
                target=src.split(" = ")[0],
                rule="ulp" if "sin" in src else "exact",
                info={"operands": ["x0"], "periodic": True},
            )
        )
    runner = Runner(impl)
    with pytest.raises(Mismatch) as info:
        for src in lines:
            runner.run(
                Step(
                    src,
                    target=src.split(" = ")[0],
                    rule="ulp" if "sin" in src else "exact",
                    info={"operands": ["x0"], "periodic": True},
                )
            )
    assert type(info.value).__name__.startswith(f"Mismatch_{check}_"), info.value
    repro = info.value.reproduction
    assert "Reproduction" in str(info.value) and repro in str(info.value)
    compile(repro, "<reproduction>", "exec")
    # Run as a script beside the fake module: it shows the bug by failing its own check.
    (tmp_path / "repro.py").write_text(repro)
    proc = run_python(str(tmp_path / "repro.py"), cwd=str(tmp_path))
    assert proc.returncode == 1 and "AssertionError" in proc.stderr, proc.stdout + proc.stderr
    # With the fake replaced by NumPy itself, the same script passes.
    (tmp_path / "repro_ok.py").write_text(repro.replace("import fakecp as cp", "import numpy as cp"))
    proc = run_python(str(tmp_path / "repro_ok.py"), cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("focus", ["shapes", "mixed"])
def test_drawn_programs_find_a_tile_that_returns_a_view(tmp_path, focus):
    """The generator, not only a hand-written program, reaches the bug within a few hundred examples (it stops at the first)."""
    impl = _fake_impl(tmp_path, "tile_view")
    with pytest.raises(Mismatch) as info:
        check_programs(
            impl,
            focus,
            max_examples=max(400, settings.default.max_examples),
            derandomize=True,
            report_multiple_bugs=False,
            phases=[Phase.generate],
        )  # shrinking is not tested here
    assert "Reproduction" in str(info.value)


# ---------------------------------------------------------------------------------------------------------
# On a GPU: cuarray against NumPy
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize("focus", FOCI)
def test_cuarray_programs_match_numpy(focus):
    impl = cuarray_impl()
    minutes = float(os.environ.get("CUARRAY_FUZZ_MINUTES", "0") or 0)
    if not minutes:
        check_programs(impl, focus)
        return
    # Fresh examples until this test's share of the time is spent (hypothesis has no time limit itself).
    deadline = time.monotonic() + 60 * minutes / len(FOCI)
    while time.monotonic() < deadline:
        check_programs(impl, focus, max_examples=25, derandomize=False, database=None, print_blob=True)


def test_a_stalled_program_leaves_its_stacks(tmp_path, monkeypatch):
    monkeypatch.setenv("CUARRAY_FUZZ_STALL", str(tmp_path))
    runner = Runner(numpy_impl())
    with _stall_watch("elementwise", runner, seconds=0.1):
        runner.run(Step("a = np.arange(3)", "a"))
        time.sleep(0.5)
    (report,) = tmp_path.glob("stall-elementwise-*.txt")
    assert "test_a_stalled_program_leaves_its_stacks" in report.read_text()
    (program,) = tmp_path.glob("program-elementwise-*.txt")
    assert program.read_text() == "a = np.arange(3)\n"
