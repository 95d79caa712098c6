"""tests/sanitize.py, the sharded compute-sanitizer runner, with a stand-in for compute-sanitizer that runs the
program and writes the summary it is told to. Needs no GPU."""

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "sanitize.py"
FILE = "tests/cuda/test_stream_event.py"

STAND_IN = """#!/bin/sh
while [ "${1#--}" != "$1" ]; do
  [ "$1" = --log-file ] && log=$2
  shift 2
done
"$@"; rc=$?
echo "========= CUARRAY_SANITIZER=$CUARRAY_SANITIZER ERROR SUMMARY: ${FAKE_ERRORS:-0} errors" > "$log"
exit $rc
"""


def _run(tmp_path, errors=0, *args, shards=3):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    tool = bin_dir / "compute-sanitizer"
    tool.write_text(STAND_IN)
    tool.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", FAKE_ERRORS=str(errors))
    logs = tmp_path / "logs"
    out = subprocess.run(
        [sys.executable, str(RUNNER), "memcheck", "-j", str(shards), "--logs", str(logs), *args, FILE],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    return out, logs


@functools.cache  # the same for every test: one pytest process collects it
def _collected():
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "gpu", FILE],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    return {line for line in out.stdout.splitlines() if "::" in line}


def test_shards_cover_every_test_once_but_the_deselected(tmp_path):
    out, logs = _run(tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip().endswith("clean")
    listed = [line for k in range(3) for line in (logs / f"shard{k}.txt").read_text().split()]
    assert len(listed) == len(set(listed))
    assert any("test_memory_freed_on_a_busy_stream" in i for i in _collected())
    assert set(listed) == {i for i in _collected() if "busy_stream" not in i and "runs_ahead" not in i}
    assert "shard 2:" in out.stdout and "ERROR 0 errors" in out.stdout
    assert "CUARRAY_SANITIZER=memcheck " in (logs / "shard0.memcheck.log").read_text()


def test_errors_in_a_summary_fail_the_run(tmp_path):
    out, _ = _run(tmp_path, errors=2, shards=2)
    assert out.returncode == 1
    assert "ERROR 2 errors" in out.stdout and "NOT clean" in out.stdout


def test_the_tests_left_at_the_deadline_are_listed_for_the_next_run(tmp_path):
    out, logs = _run(tmp_path, 0, "--minutes", "1e-9", shards=2)
    late = (logs / "late.txt").read_text().splitlines()
    assert sorted(late) == sorted(i for i in _collected() if "busy_stream" not in i and "runs_ahead" not in i)
    assert f"{len(late)} tests were not run" in out.stdout and f"@{logs / 'late.txt'}" in out.stdout
    again = subprocess.run(
        [
            sys.executable,
            str(RUNNER),
            "memcheck",
            "-j",
            "2",
            "--logs",
            str(tmp_path / "again"),
            f"@{logs / 'late.txt'}",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
        env=dict(os.environ, PATH=f"{tmp_path / 'bin'}:{os.environ['PATH']}"),
    )
    assert again.returncode == 0 and f"{len(late)} tests in 2 shards" in again.stdout, (
        again.stdout + again.stderr
    )
    assert (tmp_path / "again" / "late.txt").read_text() == "" and "not run" not in again.stdout


@pytest.mark.parametrize("deadline, skipped", [("0", True), (None, False)])
def test_tests_after_the_deadline_are_skipped(deadline, skipped):
    env = {k: v for k, v in os.environ.items() if k != "CUARRAY_TEST_DEADLINE"}
    if deadline is not None:
        env["CUARRAY_TEST_DEADLINE"] = deadline
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rs",
            "-p",
            "no:cacheprovider",
            "tests/test_import.py::test_error_types",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert ("past CUARRAY_TEST_DEADLINE" in out.stdout) == skipped, out.stdout
    assert ("1 skipped" if skipped else "1 passed") in out.stdout
