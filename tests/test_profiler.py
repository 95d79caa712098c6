"""cuarray.profiler: benchmark (CuPy's output format and the times it returns), time_range and profile."""

import os
import shutil
import subprocess
import textwrap
import types

import cuarray as cp
import numpy as np
import pytest
from conftest import describe, run_python
from cuarray.profiler import _PerfCaseResult


def test_format_matches_cupys():
    r = _PerfCaseResult(
        "squared_diff", np.array([33.9e-6, 31.5e-6, 38.7e-6]), np.array([[39.4e-6, 35.8e-6, 47.1e-6]]), (0,)
    )
    assert str(r) == (
        "squared_diff        :    CPU:    34.700 us   +/-  2.993 (min:    31.500 / max:    38.700) us"
        "     GPU-0:    40.767 us   +/-  4.713 (min:    35.800 / max:    47.100) us"
    )
    one = _PerfCaseResult("f", np.array([1e-6]), np.array([[2e-6]]), (0,))
    assert str(one) == "f                   :    CPU:     1.000 us     GPU-0:     2.000 us"


@pytest.mark.gpu
def test_benchmark_times_cpu_and_gpu():
    x = cp.arange(1 << 20, dtype=cp.float32)
    r = cp.profiler.benchmark(lambda a: a * 2.0 + 1.0, (x,), n_repeat=20, n_warmup=2)
    assert r.name == "<lambda>" and r.cpu_times.shape == (20,) and r.gpu_times.shape == (1, 20)
    assert (r.cpu_times > 0).all() and (r.gpu_times > 0).all()
    assert "GPU-0" in str(r)
    short = cp.profiler.benchmark(lambda: None, n_repeat=1000, max_duration=0.0, name="n")
    assert short.cpu_times.shape == (1,) and short.name == "n"


class RecordedRanges:
    """Stands in for _core.profiler: records the ranges instead of handing them to NVTX."""

    def __init__(self):
        self.calls = []

    def range_push(self, message, argb=None):
        self.calls.append(("push", message, argb))

    def range_pop(self):
        self.calls.append(("pop",))


@pytest.fixture
def ranges(monkeypatch):
    recorded = RecordedRanges()
    monkeypatch.setattr(cp.profiler, "_core", types.SimpleNamespace(profiler=recorded))
    return recorded.calls


def test_time_range_as_context_manager(ranges):
    with cp.profiler.time_range("outer") as r:
        assert isinstance(r, cp.profiler.time_range)
        with cp.profiler.time_range("inner", color_id=0):
            pass
    assert ranges == [("push", "outer", None), ("push", "inner", 0xFF00FF00), ("pop",), ("pop",)]


def test_time_range_colors(ranges):
    for kwargs in ({"color_id": 1}, {"color_id": 8}, {"color_id": -1}, {"argb_color": 0x80123456}):
        with cp.profiler.time_range("r", **kwargs):
            pass
    assert [c[2] for c in ranges if c[0] == "push"] == [0xFF0000FF, 0xFF0000FF, None, 0x80123456]


def test_time_range_closes_on_exceptions(ranges):
    with pytest.raises(KeyError), cp.profiler.time_range("failing"):
        raise KeyError("x")
    assert ranges == [("push", "failing", None), ("pop",)]


def test_time_range_as_decorator(ranges):
    @cp.profiler.time_range()
    def step(a, b=1):
        """Adds."""
        return a + b

    @cp.profiler.time_range("named", argb_color=0xFFFF0000)
    def other():
        raise ValueError("inside")

    assert step(2, b=3) == 5 and step.__name__ == "step" and step.__doc__ == "Adds."
    with pytest.raises(ValueError, match="inside"):
        other()
    assert ranges == [("push", "step", None), ("pop",), ("push", "named", 0xFFFF0000), ("pop",)]

    # One time_range object decorating two functions names each range after its own function.
    def plain():
        pass

    marker = cp.profiler.time_range(color_id=2)
    first, second = marker(lambda: 1), marker(plain)
    ranges.clear()
    first(), second()
    assert [c[1] for c in ranges if c[0] == "push"] == ["<lambda>", "plain"]


def test_time_range_argument_errors():
    with pytest.raises(ValueError, match="Only either color_id or argb_color can be specified"):
        cp.profiler.time_range("r", color_id=1, argb_color=0xFF00FF00)
    with pytest.raises(TypeError, match="message must be a str, not int"):
        cp.profiler.time_range(3)
    with pytest.raises(TypeError, match="color_id must be an int, not str"):
        cp.profiler.time_range("r", color_id="red")
    with pytest.raises(TypeError, match="argb_color must be an int, not float"):
        cp.profiler.time_range("r", argb_color=1.0)
    with pytest.raises(ValueError, match="32-bit ARGB"):
        cp.profiler.time_range("r", argb_color=0x1FFFFFFFF)
    with pytest.raises(ValueError, match="32-bit ARGB"):
        cp.profiler.time_range("r", argb_color=-1)
    with (
        pytest.raises(ValueError, match="as a context manager, the message argument cannot be None"),
        cp.profiler.time_range(),
    ):
        pass
    with pytest.raises(TypeError, match="decorates functions, not int"):
        cp.profiler.time_range("r")(5)


def test_time_range_reaches_nvtx_without_a_gpu():
    """The real NVTX calls: without a profiler attached they do nothing, and need no device."""

    @cp.profiler.time_range(color_id=3)
    def work():
        with cp.profiler.time_range("block", argb_color=0xFF123456):
            return 7

    assert work() == 7
    with cp.profiler.time_range("plain"):
        pass


# A stand-in for a profiler's NVTX injection library: it prints each range it is handed.
INJECTION = r"""
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>

static int push(const nvtxEventAttributes_t* a) {
  fprintf(stderr, "push %s %d %08x\n", a->message.ascii, (int)a->colorType, a->color);
  return 0;
}
static int pop(void) {
  fprintf(stderr, "pop\n");
  return 0;
}
static void mark(const nvtxEventAttributes_t* a) {
  fprintf(stderr, "mark %s %d %08x\n", a->message.ascii, (int)a->colorType, a->color);
}
int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get) {
  const NvtxExportTableCallbacks* callbacks = (const NvtxExportTableCallbacks*)get(NVTX_ETID_CALLBACKS);
  NvtxFunctionTable table;
  unsigned int size;
  if (!callbacks || !callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size)) return 0;
  *table[NVTX_CBID_CORE_RangePushEx] = (NvtxFunctionPointer)push;
  *table[NVTX_CBID_CORE_RangePop] = (NvtxFunctionPointer)pop;
  *table[NVTX_CBID_CORE_MarkEx] = (NvtxFunctionPointer)mark;
  return 1;
}
"""


def test_time_range_reaches_an_attached_profiler(tmp_path):
    """With an injection library named in NVTX_INJECTION64_PATH (as nsys and ncu do), the ranges arrive with
    their messages and colours; no device needed."""
    roots = (os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME"), "/usr/local/cuda")
    includes = [os.path.join(r, "include") for r in roots if r]
    include = next((i for i in includes if os.path.isfile(os.path.join(i, "nvtx3", "nvToolsExt.h"))), None)
    compiler = shutil.which("cc") or shutil.which("gcc")
    if include is None or compiler is None:
        pytest.skip("needs a C compiler and the CUDA toolkit's nvtx3 headers")
    (tmp_path / "inject.c").write_text(INJECTION)
    library = tmp_path / "libinject.so"
    subprocess.run(
        [compiler, "-shared", "-fPIC", "-I", include, str(tmp_path / "inject.c"), "-o", str(library)],
        check=True,
    )
    code = textwrap.dedent("""
        import cuarray as cp

        @cp.profiler.time_range()
        def step():
            with cp.profiler.time_range("inner", color_id=0):
                pass

        step()
        with cp.profiler.time_range("block", argb_color=0x80123456):
            pass
        cp.cuda.nvtx.RangePush("cupy", 1)
        cp.cuda.nvtx.Mark("here")
        cp.cuda.nvtx.MarkC("there", 0xFF010203)
        cp.cuda.nvtx.RangePop()
        cp.cuda.nvtx.RangePushC("c", 0xFF040506)
        cp.cuda.nvtx.RangePop()
    """)
    proc = run_python(code=code, env={"NVTX_INJECTION64_PATH": str(library)})
    assert proc.returncode == 0, describe(proc)
    assert proc.stderr.splitlines() == [
        "push step 0 00000000",
        "push inner 1 ff00ff00",
        "pop",
        "pop",
        "push block 1 80123456",
        "pop",
        "push cupy 1 ff0000ff",
        "mark here 0 00000000",
        "mark there 1 ff010203",
        "pop",
        "push c 1 ff040506",
        "pop",
    ], describe(proc)


@pytest.mark.nogpu
def test_profile_and_sync_need_a_device():
    with (
        pytest.raises(cp.cuda.CUDARuntimeError, match="no CUDA driver or device"),
        cp.profiler.profile(),
    ):
        pass
    with pytest.raises(cp.cuda.CUDARuntimeError), cp.profiler.time_range("r", sync=True):
        pass


@pytest.mark.gpu
def test_profile_runs_the_block():
    x = cp.arange(1 << 16, dtype=cp.float32)
    with cp.profiler.profile(), cp.profiler.time_range("square", sync=True):
        y = x * x
    assert float(y[3]) == 9.0
    with pytest.raises(ZeroDivisionError), cp.profiler.profile():
        raise ZeroDivisionError
    with cp.profiler.profile():  # collection stopped above: it starts again
        (x + 1).get()


@pytest.mark.gpu
def test_time_range_sync_decorator():
    @cp.profiler.time_range(sync=True)
    def work(a):
        return a + 1

    assert work(cp.arange(4)).get().tolist() == [1, 2, 3, 4]


def test_cuda_nvtx_is_cupys_without_a_device():
    # CuPy's cupy.cuda.nvtx: markers and ranges by colour index or ARGB; no profiler attached, nothing recorded.
    nvtx = cp.cuda.nvtx
    assert nvtx.available is True
    nvtx.Mark("m")
    nvtx.Mark("m", 3)
    nvtx.MarkC("m", 0xFF112233)
    nvtx.RangePush("r", 9)
    nvtx.RangePushC("inner", 0xFF00FF00)
    nvtx.RangePop()
    nvtx.RangePop()
    assert nvtx.color_of(-1) is None and nvtx.color_of(7) == nvtx.color_of(0) == 0xFF00FF00
    with pytest.raises(TypeError, match="message must be a str"):
        nvtx.Mark(b"m")
    with pytest.raises(TypeError, match="id_color must be an int"):
        nvtx.RangePush("r", 1.5)
    with pytest.raises(OverflowError, match="32-bit ARGB"):
        nvtx.MarkC("m", 1 << 32)


@pytest.mark.nogpu
def test_cuda_profiler_is_cuarray_profilers():
    assert cp.cuda.profiler.profile is cp.profiler.profile
    with pytest.raises(cp.cuda.CUDARuntimeError, match="no CUDA driver or device"):
        cp.cuda.profiler.start()
