"""Scans, sorting and unique: device time from each library's events. Sorting targets compare cuarray with
CuPy (CUB's radix sort) measured in the same run."""

from cases_bandwidth import COPY, GIB
from harness import Case, of_ceiling, vs_cupy

SORT_N = 100_000_000


def _cumsum(lib):
    x = lib.rand(GIB // 4, "float32")
    if lib.name == "torch":
        return lambda: lib.xp.cumsum(x, 0)
    return lambda: lib.xp.cumsum(x)


def _sort(lib):
    x = lib.rand(SORT_N, "float32")
    return lambda: lib.xp.sort(x)  # torch.sort also returns the indices


def _unique(lib):
    x = lib.rand(SORT_N, "int32")  # uniform values * 1000: many duplicates
    return lambda: lib.xp.unique(x)


CASES = [
    # A scan reads and writes each element once: 2 GiB moved.
    Case(
        "cumsum 1 GiB f32",
        "bandwidth",
        _cumsum,
        "GB/s",
        work=2 * GIB,
        ceiling=COPY,
        target=of_ceiling(0.80),
        quick_skips=("numpy",),
    ),
    Case("sort 100M f32", "library", _sort, "ms", target=vs_cupy(0.83), quick_skips=("numpy",)),
    Case("unique 100M int32", "library", _unique, "ms", target=vs_cupy(0.83), quick_skips=("numpy",)),
]
