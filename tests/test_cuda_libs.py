"""cuarray._cuda_libs: how cuda-pathfinder's answers become the paths, or the reasons, the core gets
(Note [Finding the CUDA libraries] in cpp/cuarray/lib/library.h). A stand-in cuda.pathfinder answers here; the
real one, with NVIDIA's wheels and no toolkit, runs in .ci/run and tests/pip_layout_check.sh."""

import subprocess
import sys
import types

import pytest
from cuarray import _cuda_libs


class Loaded:
    def __init__(self, abs_path, found_via):
        self.abs_path, self.found_via = abs_path, found_via


@pytest.fixture
def pathfinder(monkeypatch):
    """A stand-in cuda.pathfinder whose load_nvidia_dynamic_lib answers from `answers` (a path or an error)."""
    answers = {}

    def load(stem):
        answer = answers[stem]
        if isinstance(answer, Exception):
            raise answer
        return answer

    module = types.SimpleNamespace(load_nvidia_dynamic_lib=load)
    cuda = types.ModuleType("cuda")
    cuda.pathfinder = module
    monkeypatch.setitem(sys.modules, "cuda", cuda)
    monkeypatch.setitem(sys.modules, "cuda.pathfinder", module)
    monkeypatch.setattr(_cuda_libs, "found_via", {})
    return answers


def test_a_wheel_s_library_is_returned_and_its_origin_reported(pathfinder):
    path = "/env/site-packages/nvidia/cu13/lib/libnvrtc.so.13"
    pathfinder["nvrtc"] = Loaded(path, "site-packages")
    assert _cuda_libs.locate("nvrtc") == (path, "")
    assert _cuda_libs.origin("nvrtc", path) == f"{path} (found by cuda-pathfinder: site-packages)"
    assert _cuda_libs.origin("cufft", "/usr/lib/libcufft.so.12") == "/usr/lib/libcufft.so.12"


@pytest.mark.parametrize(
    "stem, path",
    [
        ("cublas", "/usr/local/cuda-12/lib64/libcublas.so.12"),
        ("cusolver", "/opt/conda/lib/libcusolver.so.11"),
    ],
)
def test_another_cuda_major_is_refused(pathfinder, stem, path):
    pathfinder[stem] = Loaded(path, "system-search")
    got, why = _cuda_libs.locate(stem)
    assert got == "" and path in why and "CUDA 13" in why
    assert stem not in _cuda_libs.found_via


def test_not_found_gives_the_first_line_of_the_reason(pathfinder):
    pathfinder["cufft"] = RuntimeError('Failure finding "libcufft.so": not found\nlong attachment')
    reason = 'Failure finding "libcufft.so": not found'
    assert _cuda_libs.locate("cufft") == ("", f"cuda-pathfinder did not find it ({reason})")
    pathfinder["cufft"] = RuntimeError()
    assert _cuda_libs.locate("cufft") == ("", "cuda-pathfinder did not find it (RuntimeError)")


def test_without_cuda_pathfinder(monkeypatch):
    monkeypatch.setitem(sys.modules, "cuda", None)  # importing it raises ImportError
    monkeypatch.setitem(sys.modules, "cuda.pathfinder", None)
    assert _cuda_libs.locate("nvrtc") == (
        "",
        "cuda-pathfinder, which finds NVIDIA's pip wheels, is not installed",
    )


def test_import_does_not_import_cuda_pathfinder():
    code = "import sys, cuarray; print('cuda.pathfinder' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
