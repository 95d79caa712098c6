"""Runs the GPU tests under compute-sanitizer, split over several processes, and sums up what the sanitizer found.

    python tests/sanitize.py memcheck [-j 14] [--minutes M] [paths or pytest options ...]
    python tests/sanitize.py racecheck -j 8 tests/test_scan.py tests/test_sort.py

Each shard is one pytest process (no pytest-xdist: its workers are slow to start under the sanitizer), given
every j-th test of the collected list, with its own sanitizer log in --logs. With --minutes, tests that would
start after that time are skipped (CUARRAY_TEST_DEADLINE), so every process still ends normally and writes its
summary; the tests it left are listed in --logs/late.txt, and `@late.txt` as the paths runs just those next.
Exit status 0 only when every shard passed and every summary says 0 errors (or 0 hazards).
"""

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

# Tests that fault or time out on purpose, and the CUDA-graph tests, which memcheck reports falsely (docs/testing.md).
LEFT_OUT = [
    "tests/cuda/test_faults.py",
    "tests/cuda/test_interrupt.py",
    "tests/test_notebooks.py",
    "tests/cuda/test_graph.py",
]
# The sanitizer runs one kernel at a time, so the tests that need two streams' kernels to overlap cannot pass.
DESELECTED = [
    "tests/cuda/test_stream_event.py::test_without_wait_event_the_other_stream_runs_ahead",
    "tests/cuda/test_stream_event.py::test_memory_freed_on_a_busy_stream_is_not_overwritten_early",
]
# memcheck also counts failed CUDA API calls as errors: those the tests cause on purpose (out of memory, a
# missing kernel name), and those of other libraries the interop tests load. cuarray turns a failed call into
# a Python exception, which the tests check; here only the device code's accesses are counted.
# racecheck checks the kernels cuarray compiles, which are all extern "C" (unmangled names). Those of cuBLAS,
# cuSOLVER, cuFFT and cuRAND are NVIDIA's: C++-mangled, or named after the architecture or cuBLAS. Under
# racecheck, cuSOLVER's eigh and svd take minutes a test, and cuBLAS's syr2k and her2k kernels (inside eigh)
# report hazards in code that is not ours to fix.
LIBRARY_KERNELS = ["regex=^_Z", "regex=^(sm[0-9]+|cutlass|ampere|hopper)_", "kns=cublas"]
TOOL_OPTIONS = {
    "memcheck": ["--report-api-errors", "no"],
    "racecheck": [arg for pattern in LIBRARY_KERNELS for arg in ("--kernel-name-exclude", pattern)],
}
SUMMARY = re.compile(r"(ERROR|RACECHECK) SUMMARY: (\d+) (errors?|hazards?)")


def collect(pytest_args, root):
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "gpu", *pytest_args],
        capture_output=True,
        text=True,
        cwd=root,
        check=False,
    )
    ids = [line for line in out.stdout.splitlines() if "::" in line]
    if not ids:
        sys.exit(f"no GPU tests were collected:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    return ids


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("tool", choices=["memcheck", "racecheck"])
    p.add_argument("-j", type=int, default=os.cpu_count(), help="processes (default: one a CPU)")
    p.add_argument("--minutes", type=float, help="skip the tests that would start after this long")
    p.add_argument("--logs", type=Path, default=Path("sanitizer-logs"), help="folder for the logs")
    args, pytest_args = p.parse_known_args()
    root = Path(__file__).resolve().parent.parent
    pytest_args = pytest_args or [str(root / "tests")]
    pytest_args += [f"--ignore={root / f}" for f in LEFT_OUT] + [f"--deselect={d}" for d in DESELECTED]

    ids = collect(pytest_args, root)
    args.logs = args.logs.resolve()
    args.logs.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, CUARRAY_SANITIZER=args.tool)  # tests that loop thousands of times loop fewer
    if args.minutes:
        env["CUARRAY_TEST_DEADLINE"] = str(time.time() + 60 * args.minutes)
    shards = []
    for k in range(min(args.j, len(ids))):
        listing = args.logs / f"shard{k}.txt"
        listing.write_text("\n".join(ids[k :: args.j]) + "\n")
        cmd = [
            "compute-sanitizer",
            "--tool",
            args.tool,
            *TOOL_OPTIONS[args.tool],
            "--log-file",
            str(args.logs / f"shard{k}.{args.tool}.log"),
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            "--tb=short",
            "-rfEs",
            f"@{listing}",
        ]
        late = args.logs / f"shard{k}.late.txt"
        late.unlink(missing_ok=True)
        with open(args.logs / f"shard{k}.pytest.log", "w") as log:
            shards.append(
                subprocess.Popen(
                    cmd,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=dict(env, CUARRAY_TEST_LATE=str(late)),
                    cwd=root,
                )
            )
    print(f"{len(ids)} tests in {len(shards)} shards under {args.tool}; logs in {args.logs}", flush=True)

    ok, late = True, []
    for k, proc in enumerate(shards):
        proc.wait()
        result = (args.logs / f"shard{k}.pytest.log").read_text().strip().splitlines()
        late_file = args.logs / f"shard{k}.late.txt"
        late += late_file.read_text().splitlines() if late_file.exists() else []
        sanitizer_log = args.logs / f"shard{k}.{args.tool}.log"
        found = SUMMARY.findall(sanitizer_log.read_text()) if sanitizer_log.exists() else []
        clean = proc.returncode == 0 and bool(found) and all(n == "0" for _, n, _ in found)
        ok &= clean
        summary = ", ".join(f"{kind} {n} {what}" for kind, n, what in found) or "no sanitizer summary"
        print(f"shard {k}: {result[-1] if result else 'no output'} | {summary}", flush=True)
    (args.logs / "late.txt").write_text("".join(f"{t}\n" for t in late))
    if late:
        print(
            f"{len(late)} tests were not run: they would have started after --minutes. To run them:\n"
            f"    python tests/sanitize.py {args.tool} -j {args.j} @{args.logs / 'late.txt'}"
        )
    print("clean" if ok else "NOT clean: see the shards above and their logs")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
