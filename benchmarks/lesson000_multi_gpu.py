"""Lesson 000 (multi-GPU) on this machine, checked against the lesson's own output.

    python benchmarks/lesson000_multi_gpu.py solution      # the exercise's solution prints the lesson's output
    python benchmarks/lesson000_multi_gpu.py starter       # the unfixed script fails with a Python exception
    python benchmarks/lesson000_multi_gpu.py walkthrough   # Device(1).use(), with Device(3), asarray: reprs

Each part prints what it ran and what differed, and exits 0 when it matches the lesson, 1 when it does not
(or when the machine has fewer GPUs than the part needs: 3 for the exercise, 4 for the walk-through).
The scripts run in child processes, so a crash shows as a signal, never as this process dying.
"""

import argparse
import difflib
import importlib.util
import re
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "examples" / "exercises"


def expected_output():
    """The output the lesson shows for the fixed data-transfer script, as the exercise's test holds it."""
    spec = importlib.util.spec_from_file_location("test_data_transfer", EXERCISES / "test_data_transfer.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.EXPECTED_OUTPUT


# The walk-through's statements as the lesson writes them, each with the repr the lesson shows for it.
WALKTHROUGH = [
    ("x_gpu = cp.array([1, 2, 3])", None),
    ("x_gpu.device", "<CUDA Device 0>"),
    ("cp.cuda.Device(1).use()", None),
    ("x_gpu_1 = cp.array([1, 2, 3, 4, 5])", None),
    ("x_gpu_1.device", "<CUDA Device 1>"),
    ("cp.cuda.Device(0).use()", None),
    ("with cp.cuda.Device(3):\n    x_gpu_3 = cp.array([1, 2, 3, 4, 5])", None),
    ("x_gpu_0 = cp.array([1, 2, 3, 4, 5])", None),
    ("x_gpu_0.device", "<CUDA Device 0>"),
    ("x_gpu_3.device", "<CUDA Device 3>"),
    ("with cp.cuda.Device(1):\n    doubled = cp.asarray(x_gpu_0) * 2  # moves x_gpu_0 to GPU 1", None),
    ("doubled", "array([ 2,  4,  6,  8, 10])"),
    ("doubled.device", "<CUDA Device 1>"),
    ("x_cpu = np.array([1, 1, 1])", None),
    ("x_gpu = cp.asarray(x_cpu)", None),
    ("x_gpu", "array([1, 1, 1])"),
    ("x_gpu.device", "<CUDA Device 0>"),
]

# Python's own exception line ends a traceback; a crash ends with a signal instead.
EXCEPTION_LINE = re.compile(r"^(?:[\w.]+\.)?(\w+(?:Error|Exception)): (.*)$")


def run(args, timeout=120):
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=timeout, check=False, cwd=ROOT
    )


def describe_exit(rc):
    if rc < 0:
        return f"killed by {signal.Signals(-rc).name}"
    return f"exit status {rc}"


def device_count():
    proc = run(["-c", "import cuarray; print(cuarray.cuda.runtime.getDeviceCount())"])
    if proc.returncode:
        print(f"cuarray finds no GPU: {(proc.stderr.strip().splitlines() or ['?'])[-1]}")
        return 0
    return int(proc.stdout.split()[-1])


def solution():
    path = EXERCISES / "data_transfer_solution.py"
    print(f"$ python {path.relative_to(ROOT)}")
    proc = run([str(path)])
    print(proc.stdout + proc.stderr, end="")
    if proc.returncode:
        print(f"FAIL: the solution ended with {describe_exit(proc.returncode)}")
        return 1
    expected = expected_output()
    if proc.stdout != expected:
        diff = difflib.unified_diff(
            expected.splitlines(True), proc.stdout.splitlines(True), "lesson", "solution"
        )
        print("FAIL: the output differs from the lesson's:\n" + "".join(diff))
        return 1
    print("PASS: the solution's output is exactly the lesson's")
    return 0


def starter():
    path = EXERCISES / "data_transfer_starter.py"
    print(f"$ python {path.relative_to(ROOT)}")
    proc = run([str(path)])
    print(proc.stdout + proc.stderr, end="")
    last = (proc.stderr.strip().splitlines() or [""])[-1]
    match = EXCEPTION_LINE.match(last)
    if proc.returncode != 1 or match is None:
        print(f"FAIL: the unfixed script ended with {describe_exit(proc.returncode)}, not a Python exception")
        return 1
    if not re.search(r"device 0\b", match.group(2)) or not re.search(r"device (is )?1\b", match.group(2)):
        print(f"FAIL: the exception does not name devices 0 and 1: {last}")
        return 1
    print(f"PASS: the unfixed script stops with {match.group(1)} naming the devices")
    return 0


def walkthrough():
    import cuarray as cp
    import numpy as np

    namespace, failed = {"cp": cp, "np": np}, 0
    for source, expected in WALKTHROUGH:
        print(">>> " + source.replace("\n", "\n... "))
        if expected is None:
            exec(source, namespace)  # noqa: S102 - the lesson's statements, as written
            continue
        got = repr(eval(source, namespace))
        print(got)
        if got != expected:
            print(f"    MISMATCH: the lesson shows {expected}")
            failed += 1
    print(f"FAIL: {failed} of the lesson's reprs differ" if failed else "PASS: every repr is the lesson's")
    return 1 if failed else 0


PARTS = {"solution": (solution, 3), "starter": (starter, 3), "walkthrough": (walkthrough, 4)}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("part", choices=list(PARTS))
    part, needed = PARTS[p.parse_args(argv).part]
    found = device_count()
    if found < needed:
        print(f"FAIL: this part needs {needed} GPUs; cuarray finds {found}")
        return 1
    return part()


if __name__ == "__main__":
    sys.exit(main())
