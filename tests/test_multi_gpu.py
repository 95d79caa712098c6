"""Several GPUs: copies between every pair of them, lesson 000's device switches and its unfixed exercise; and,
without a GPU, the tools that run them on a multi-GPU machine (benchmarks/multi_gpu_check.sh, the peer-copy
benchmark cases, the Dask example's options and benchmarks/dask_scaling.py).

The GPU tests need up to 4 devices and skip, with the count found, where there are fewer.
"""

import importlib
import itertools
import json
import os
import pathlib
import subprocess
import sys
import types

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, LAYOUT_NAMES, describe, make_pair, run_python
from test_interop import _Published

ROOT = pathlib.Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
EXAMPLE = ROOT / "examples" / "dask_multi_gpu.py"
PAIRS = list(itertools.permutations(range(4), 2))


def _benchmark_module(name):
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))


def _pair_params(*extra):
    """(src, dst, *extra) for every ordered pair of 4 GPUs, each needing the GPUs it names."""
    return [
        pytest.param(
            i,
            j,
            *e,
            marks=[pytest.mark.gpu, pytest.mark.requires_gpus(max(i, j) + 1)],
            id=f"{i}to{j}" + "".join(f"-{x}" for x in map(str, e)),
        )
        for (i, j), e in itertools.product(PAIRS, extra or [()])
    ]


# ---- on several GPUs ----------------------------------------------------------------------------


@pytest.mark.parametrize(("src", "dst", "layout"), _pair_params(*[(name,) for name in LAYOUT_NAMES]))
def test_copy_between_every_pair_of_gpus(src, dst, layout):
    with cp.cuda.Device(src):
        c, h = make_pair(layout, np.float64)
    with cp.cuda.Device(dst):
        y = cp.asarray(c)
        assert y.device.id == dst and c.device.id == src
        assert y.shape == h.shape and y.dtype == h.dtype
        assert y.size == 0 or y.data.ptr != c.data.ptr
        np.testing.assert_array_equal(y.get(), h)
    np.testing.assert_array_equal(c.get(), h)  # the source is untouched


@pytest.mark.parametrize(("src", "dst", "dtype"), _pair_params(*[(dt,) for dt in ALL_DTYPES]))
def test_copy_every_dtype_between_every_pair_of_gpus(src, dst, dtype):
    with cp.cuda.Device(src):
        c, h = make_pair("strided", dtype)
    with cp.cuda.Device(dst):
        y = cp.array(c)
        assert y.device.id == dst and y.dtype == dtype
        np.testing.assert_array_equal(y.get(), h)


@pytest.mark.gpu
@pytest.mark.requires_gpus(2)
@pytest.mark.parametrize("offset", [45, 48])
def test_a_kernel_of_one_device_is_never_launched_for_another(offset):
    # Note [Registry keys]: the key of the unaligned int8 fill on device 0 once equalled that of the strided
    # bool copy on device 1, which then filled the first three elements of its result instead of copying.
    with cp.cuda.Device(0):
        x = cp.zeros(120, cp.int8)
        x[offset : offset + 1].fill(5)
        assert x.sum().item() == 5
    with cp.cuda.Device(1):
        c, h = make_pair("strided", "bool")
        np.testing.assert_array_equal(c.copy().get(), h)
        y, g = make_pair("strided", "int8")
        np.testing.assert_array_equal(y.copy().get(), g)


@pytest.mark.gpu
@pytest.mark.requires_gpus(4)
def test_lesson_walkthrough_device_switches():
    proc = run_python(str(BENCHMARKS / "lesson000_multi_gpu.py"), "walkthrough")
    assert proc.returncode == 0, describe(proc)
    assert "PASS: every repr is the lesson's" in proc.stdout, describe(proc)
    assert ">>> x_gpu_3.device\n<CUDA Device 3>\n" in proc.stdout, describe(proc)


@pytest.mark.gpu
@pytest.mark.requires_gpus(3)
def test_unfixed_data_transfer_script_raises_naming_the_devices():
    proc = run_python(str(ROOT / "examples" / "exercises" / "data_transfer_starter.py"))
    assert proc.returncode == 1, describe(proc)
    assert proc.stdout == "<CUDA Device 0> done\n", describe(proc)
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("ValueError: ") and "on device 0 but the current device is 1" in last, describe(
        proc
    )


@pytest.mark.gpu
@pytest.mark.requires_gpus(3)
def test_lesson_checks_pass_for_the_exercise():
    for part in ("solution", "starter"):
        proc = run_python(str(BENCHMARKS / "lesson000_multi_gpu.py"), part)
        assert proc.returncode == 0 and "\nPASS: " in proc.stdout, describe(proc)


# ---- no GPU needed: the tools -------------------------------------------------------------------


def test_check_script_keeps_going_and_fails_when_out_of_time(tmp_path):
    """With no time budget every step fails without running; the summary lists each, and the status is 1."""
    env = {**os.environ, "CHECK_BUDGET_S": "0", "OUT": str(tmp_path)}
    proc = subprocess.run(
        ["bash", str(BENCHMARKS / "multi_gpu_check.sh")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1, describe(proc)
    summary = proc.stdout.split("==================== summary")[1].splitlines()
    verdicts = [line for line in summary if line.startswith(("PASS", "FAIL"))]
    assert len(verdicts) == 9 and all(line.startswith("FAIL   [") for line in verdicts), describe(proc)
    assert proc.stdout.count("(no time left in the check's budget)") == 9, describe(proc)
    assert (tmp_path / "multi_gpu_check").is_dir(), describe(proc)


def test_check_script_is_valid_bash():
    proc = subprocess.run(
        ["bash", "-n", str(BENCHMARKS / "multi_gpu_check.sh")], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr


def test_peer_copy_cases_cover_every_ordered_pair():
    cases = _benchmark_module("cases_multi_gpu")
    n = cases.visible_gpus()
    names = [c.name for c in cases.CASES]
    expected = [f"peer copy GPU {i}->{j} 1 GiB" for i, j in itertools.permutations(range(n), 2)]
    assert names == (expected or ["peer copy GPU 0->1 1 GiB"])
    assert all(c.group == "multigpu" and c.unit == "GB/s" and c.work == 2**30 for c in cases.CASES)


def test_peer_copy_case_skips_below_two_gpus():
    cases = _benchmark_module("cases_multi_gpu")
    harness = _benchmark_module("harness")
    runtime = types.SimpleNamespace(getDeviceCount=lambda: 1)
    lib = types.SimpleNamespace(
        xp=types.SimpleNamespace(cuda=types.SimpleNamespace(runtime=runtime)),
        label="cuarray",
        name="cuarray",
        free=lambda: None,
    )
    got = harness.run_one(cases._case(0, 1), lib, harness.QUICK)
    assert got == {"skipped": "peer copies need 2 GPUs; cuarray sees 1"}


def test_dask_example_rejects_bad_options():
    for args, message in (
        (["--gpus", "0"], "--gpus must be at least 1, got 0"),
        (["--repeats", "0"], "--repeats must be at least 1, got 0"),
        (["--gram-rows", "-1"], "--gram-rows must be 0 (no timing) or more, got -1"),
    ):
        proc = run_python(str(EXAMPLE), *args)
        assert proc.returncode == 2 and message in proc.stderr, describe(proc)


def test_dask_example_says_what_is_missing():
    code = (
        "import runpy, sys\nsys.modules['distributed'] = None\nsys.argv = ['dask_multi_gpu.py']\n"
        f"runpy.run_path({str(EXAMPLE)!r}, run_name='__main__')"
    )
    proc = run_python(code=code)
    assert proc.returncode == 2, describe(proc)
    assert "cannot import: " in proc.stderr and "distributed (" in proc.stderr, describe(proc)
    assert 'pip install --no-index --find-links .whl/dask "dask[array]" distributed' in proc.stderr, describe(
        proc
    )


def _run(gpus, median, why=None, rows=8):
    return {
        "gpus": gpus,
        "why": why,
        "record": None
        if median is None
        else {"median_s": median, "tflops": 40.0 * rows / 8 / median, "rows": rows, "cols": 4, "blocks": 2},
    }


def test_dask_scaling_table_and_goal():
    scaling = _benchmark_module("dask_scaling")
    rows = [_run(1, 2.0), _run(2, 1.0), _run(4, 0.55)]
    table = scaling.table(rows).splitlines()
    assert table[2] == "| 1 | 8 | 2.000 | 20.0 | 1.00× | 100% | equal |"
    assert table[3] == "| 2 | 8 | 1.000 | 40.0 | 2.00× | 100% | equal |"
    assert table[4] == "| 4 | 8 | 0.550 | 72.7 | 3.64× | 91% | equal |"
    assert scaling.goal_line(rows).endswith("3.64× PASS")
    weak = [_run(1, 2.0), _run(4, 2.2, rows=32)]  # 4 times the rows in 1.1 times the time: throughput counts
    assert scaling.table(weak).splitlines()[3] == "| 4 | 32 | 2.200 | 72.7 | 3.64× | 91% | equal |"
    assert scaling.goal_line(weak).endswith("3.64× PASS")
    rows[2] = _run(4, 0.8)
    assert scaling.goal_line(rows).endswith("2.50× FAIL")
    rows[2] = _run(4, None, "skipped: needs 4 GPUs, found 2")
    assert scaling.table(rows).splitlines()[4] == "| 4 | — | — | — | — | — | skipped: needs 4 GPUs, found 2 |"
    assert scaling.goal_line(rows).endswith("not measured")
    rows[1] = _run(2, 1.0, "exit status 1: MISMATCH")
    assert scaling.table(rows).splitlines()[3].endswith("| FAIL: exit status 1: MISMATCH |")


def test_dask_scaling_arguments():
    scaling = _benchmark_module("dask_scaling")
    args = scaling.parse_args(["--gpus-list", "1,2", "--", "--gram-rows", "1024"])
    assert args.counts == [1, 2] and args.example_args == ["--gram-rows", "1024"]
    with pytest.raises(SystemExit):
        scaling.parse_args(["--gpus-list", "one"])
    with pytest.raises(SystemExit):
        scaling.parse_args(["--gpus-list", "0,2"])


def test_dask_scaling_reads_the_example_timing_line(tmp_path, monkeypatch):
    scaling = _benchmark_module("dask_scaling")
    fake = tmp_path / "example.py"
    record = {"gpus": 2, "median_s": 0.5}
    fake.write_text(
        f"import sys\nprint('ok')\nprint('@@gram ' + {json.dumps(json.dumps(record))})\n"
        "sys.exit(int('--fail' in sys.argv))\n"
    )
    monkeypatch.setattr(scaling, "EXAMPLE", fake)
    assert scaling.run_example(2, [], 30) == (record, None)
    got, why = scaling.run_example(2, ["--fail"], 30)
    assert got == record and why.startswith("exit status 1")


def test_lesson_check_recognises_exceptions_and_crashes():
    lesson = _benchmark_module("lesson000_multi_gpu")
    line = "ValueError: __pow__: the array is on device 0 but the current device is 1; move it"
    assert lesson.EXCEPTION_LINE.match(line).group(1) == "ValueError"
    assert lesson.EXCEPTION_LINE.match("Segmentation fault (core dumped)") is None
    assert lesson.describe_exit(-11) == "killed by SIGSEGV" and lesson.describe_exit(1) == "exit status 1"
    assert lesson.expected_output().endswith("CPU:  [  0   3  14  39  84 155 258 399 584 819]\n")


# ---- copies between two GPUs: ndarray.copy, copyto, assignment, deepcopy (Note [Copies between devices]) --


@pytest.mark.multi_gpu
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_copy_method_copies_to_the_current_device(order, layout):
    with cp.cuda.Device(0):
        c, h = make_pair(layout, np.float32)
    with cp.cuda.Device(1):
        y = c.copy(order)
        assert y.device.id == 1 and c.device.id == 0
        want = h.copy(order)
        assert y.shape == want.shape and y.dtype == want.dtype
        if order != "K":
            assert (y.flags.c_contiguous, y.flags.f_contiguous) == (
                want.flags.c_contiguous,
                want.flags.f_contiguous,
            )
        np.testing.assert_array_equal(y.get(), want)


@pytest.mark.multi_gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_copyto_and_assignment_between_devices(dtype):
    h = np.arange(24).reshape(2, 3, 4).astype(dtype)
    with cp.cuda.Device(0):
        a = cp.asarray(h)
        src = a.swapaxes(0, 1)  # not contiguous
    with cp.cuda.Device(1):
        b = cp.empty((2, 3, 4), dtype)
        dst = cp.empty_like(src)
        cp.copyto(dst, src)
        assert dst.device.id == 1
        np.testing.assert_array_equal(dst.get(), h.swapaxes(0, 1))
    with cp.cuda.Device(0):  # the destination on another device than the current one, as CuPy allows
        cp.copyto(b, a)
        np.testing.assert_array_equal(b.get(), h)
    with cp.cuda.Device(1):
        b[...] = 0  # a fill is not a copy: on the array's device
    with cp.cuda.Device(0):
        b[1] = a[0]  # a slice assigned from another device, broadcast rules as NumPy's
        b[0, :, ::2] = a[1, :, 1::2]
    want = np.zeros_like(h)
    want[1] = h[0]
    want[0, :, ::2] = h[1, :, 1::2]
    np.testing.assert_array_equal(b.get(), want)
    np.testing.assert_array_equal(a.get(), h)  # the source is untouched


@pytest.mark.multi_gpu
@pytest.mark.parametrize("shape", [(), (0,), (1,), (0, 0, 2), (2, 3)])
def test_deepcopy_stays_on_the_array_device(shape):
    import copy

    with cp.cuda.Device(0):
        h = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
        a = cp.asarray(h)
    with cp.cuda.Device(1):
        d = copy.deepcopy(a)
        c = copy.copy(a)
    assert (
        d.device.id == 0 and c.device.id == 1
    )  # CuPy's: deepcopy keeps the device, copy() takes the current
    assert d.size == 0 or d.data.ptr != a.data.ptr
    np.testing.assert_array_equal(d.get(), h)
    np.testing.assert_array_equal(c.get(), h)


@pytest.mark.multi_gpu
def test_cast_between_devices():
    with cp.cuda.Device(0):
        a = cp.arange(10, dtype=cp.int32)[::3]
    with cp.cuda.Device(1):
        f = a.astype(cp.float64)
        assert f.device.id == 1 and f.dtype == np.float64
        np.testing.assert_array_equal(f.get(), np.arange(10)[::3].astype(np.float64))


@pytest.mark.gpu
@pytest.mark.requires_gpus(2)
@pytest.mark.parametrize("make", ["asarray", "array", "asarray_device"])
def test_another_librarys_array_on_another_gpu_is_copied_to_the_current_one(make):
    # CuPy's asarray and array of an interface on another GPU copy it to the current device; a view there would
    # make every later operation under the current device refuse it.
    with cp.cuda.Device(1):
        src = cp.arange(12, dtype=cp.float32).reshape(3, 4)[:, ::2]
        foreign = _Published(src, src.__cuda_array_interface__)  # another library's array
    with cp.cuda.Device(0):
        if make == "asarray":
            y = cp.asarray(foreign)
        elif make == "array":
            y = cp.array(foreign, copy=None)
        else:
            y = cp.asarray(foreign, device=0)
        assert y.device.id == 0 and y._ptr != src._ptr
        np.testing.assert_array_equal((y + 1).get(), src.get() + 1)
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            cp.asarray(foreign, copy=False, device=0)
        assert cp.asarray(foreign, copy=False).device.id == 1  # never a copy: the view, on its own device
    with cp.cuda.Device(1):
        v = cp.asarray(foreign)  # on the current device: the view itself
        assert v.device.id == 1 and v._ptr == src._ptr
