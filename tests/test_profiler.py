"""cuarray.profiler.benchmark: CuPy's output format and the times it returns."""

import numpy as np
import pytest

import cuarray as cp
from cuarray.profiler import _PerfCaseResult


def test_format_matches_cupys():
    r = _PerfCaseResult("squared_diff", np.array([33.9e-6, 31.5e-6, 38.7e-6]), np.array([[39.4e-6, 35.8e-6, 47.1e-6]]),
                        (0,))
    assert str(r) == ("squared_diff        :    CPU:    34.700 us   +/-  2.993 (min:    31.500 / max:    38.700) us"
                      "     GPU-0:    40.767 us   +/-  4.713 (min:    35.800 / max:    47.100) us")
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
