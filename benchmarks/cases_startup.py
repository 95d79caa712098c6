"""Start-up costs, each measured inside a fresh interpreter (timer='self', one child per repeat)."""

import random
import tempfile
import uuid

from harness import CUPY_LIKE, GPU_LIBS, LIBS, Case, at_most, python_child

IMPORT = """
import json, time
t0 = time.perf_counter()
import {mod}
print(json.dumps(time.perf_counter() - t0))
"""

FIRST_RESULT = """
import json, time
t0 = time.perf_counter()
import {mod} as cp
x = cp.arange(10)
(x + 1).get()
print(json.dumps(time.perf_counter() - t0))
"""

FIRST_RESULT_TORCH = """
import json, time
t0 = time.perf_counter()
import torch
x = torch.arange(10, device='cuda')
(x + 1).cpu()
print(json.dumps(time.perf_counter() - t0))
"""

# The context is created and the input copied first, so that only the new kernel is timed.
COMPILE = """
import json, time
import numpy as np
import {mod} as cp
x = cp.asarray(np.arange(1000, dtype=np.float32))
cp.cuda.Device().synchronize()
kernel = cp.ElementwiseKernel('float32 x', 'float32 y', 'y = x * 2.0f + {const}f', 'bench_{tag}')
t0 = time.perf_counter()
kernel(x)
cp.cuda.Device().synchronize()
print(json.dumps(time.perf_counter() - t0))
"""


def _import(lib):
    return lambda: python_child(IMPORT.format(mod=lib.name))


def _first_result(lib):
    code = FIRST_RESULT_TORCH if lib.name == "torch" else FIRST_RESULT.format(mod=lib.name)
    return lambda: python_child(code)  # with the user's kernel disk cache, warmed by the first run


def _compile(from_disk):
    """A kernel body no process has seen, in an empty cache directory; from_disk: a second process
    finds it there."""

    def make(lib):
        def once():
            code = COMPILE.format(mod=lib.name, const=random.random(), tag=uuid.uuid4().hex[:12])
            with tempfile.TemporaryDirectory() as cache:
                env = {f"{lib.name.upper()}_CACHE_DIR": cache}  # CUARRAY_CACHE_DIR, CUPY_CACHE_DIR
                cold = python_child(code, env)
                return python_child(code, env) if from_disk else cold

        return once

    return make


def _case(name, make, unit, target, libs, warmup, reps):
    # PyTorch's import alone takes seconds: left out of --quick runs.
    return Case(
        name,
        "startup",
        make,
        unit,
        timer="self",
        target=target,
        libs=libs,
        warmup=warmup,
        reps=reps,
        quick_skips=("torch",),
    )


CASES = [
    _case("import (fresh process)", _import, "s", at_most(0.15, strict=True), LIBS, 1, (2, 7)),
    _case(
        "first result: import, arange(10), (x + 1).get()",
        _first_result,
        "s",
        at_most(0.35),
        GPU_LIBS,
        1,
        (2, 5),
    ),
    _case("new ElementwiseKernel, cold compile", _compile(False), "ms", at_most(60), CUPY_LIKE, 0, (2, 5)),
    _case(
        "same kernel from the disk cache, new process",
        _compile(True),
        "ms",
        at_most(1.0),
        CUPY_LIKE,
        0,
        (2, 5),
    ),
]
