"""The lessons' own timed cells (../shared/seeds/), timed the way each lesson times them.

Each cell returns the seconds it measured (timer='self'). Names start with the lesson's number:
001 the CuPy notebook, 002 CuPy as a drop-in for NumPy, 003 TF32, 004 the convolution lesson.
The NumPy column runs the same statements on the host where the lesson has a NumPy counterpart.
000 (multi-GPU data transfer) has no timed cell.
"""

import statistics
import time
from functools import lru_cache

import numpy as np
from harness import CUPY_LIKE, TF32_ENV, Case, python_child

WITH_NUMPY = ("cuarray", "cupy", "numpy")


def squared_diff(x, y):
    return (x - y) * (x - y)


def chain_of_ten(x, y):
    """Ten elementwise operations in five lines, as eager code is written: the chain that automatic fusion of
    eager code is measured on, beside the same function under fuse."""
    z = x * 2.0 + y
    z = z * z - x
    z = z / (y + 1.0)
    z = z + 0.5 * x
    return z * y - 3.0


@lru_cache(maxsize=1)
def lesson_gauss():
    """004's 15×15 Gaussian, built as the lesson builds it."""
    x, y = np.meshgrid(np.linspace(-2, 2, 15), np.linspace(-2, 2, 15))
    dst = np.sqrt(x * x + y * y)
    sigma, muu = 1, 0.000
    return np.exp(-((dst - muu) ** 2 / (2.0 * sigma**2)))


@lru_cache(maxsize=1)
def lesson_deltas():
    """004's 2048×2048 image: a single one in the middle of every 16×16 tile."""
    primary_unit = np.zeros((16, 16))
    primary_unit[8, 8] = 1
    return np.tile(primary_unit, (128, 128))


def ipython_timeit(stmt, sync, number=None, repeat=7):
    """%timeit as IPython runs it: loops per run by autorange (unless -n), mean over 7 runs. Each run
    ends with a synchronize, so the GPU work its loop queued is counted (what a long %timeit sees)."""

    def run(n):
        t0 = time.perf_counter()
        for _ in range(n):
            stmt()
        sync()
        return time.perf_counter() - t0

    if number is None:  # 1, 2, 5, 10, 20, ... until one run takes 0.2 s, as timeit's autorange
        i, number = 0, 1
        while run(number) < 0.2:
            i += 1
            number = (1, 2, 5)[i % 3] * 10 ** (i // 3)
    return statistics.mean(run(number) / number for _ in range(repeat))


def _timed(lib, stmt):
    """perf_counter around the statements and a synchronize, the lessons' usual cell."""

    def cell():
        t0 = time.perf_counter()
        stmt()
        lib.sync()  # cp.cuda.Device().synchronize(); nothing for NumPy
        return time.perf_counter() - t0

    return cell


# ---------------------------------------------------------------- 001: the CuPy notebook


def _qr_timeit(lib):
    xp = lib.xp
    A = xp.random.randn(512, 512)
    xp.linalg.qr(A)  # the lesson's cell before the %timeit
    return lambda: ipython_timeit(lambda: (xp.linalg.qr(A), lib.sync()), lib.sync, number=5)


def _matmul4096(lib):
    xp = lib.xp
    A = xp.random.uniform(low=-1.0, high=1.0, size=(4096, 4096)).astype(xp.float32)
    B = xp.random.uniform(low=-1.0, high=1.0, size=(4096, 4096)).astype(xp.float32)
    xp.matmul(A, B)  # the lesson's "exclude one-time JIT overhead"
    return _timed(lib, lambda: xp.matmul(A, B))


DET_LOOP = """
import json, time
import numpy as np
import {mod} as cp
times = []
for _ in range(5):
    A = cp.random.randn(512, 512).astype(np.float32)
    t0 = time.perf_counter()
    cp.linalg.det(A)
    cp.cuda.Device().synchronize()
    times.append(time.perf_counter() - t0)
    del A
print(json.dumps(times))
"""


def _det_first(lib):
    # The lesson's first iteration (1.56 s there) pays for loading cuSOLVER: only a fresh process shows it.
    return lambda: python_child(DET_LOOP.format(mod=lib.name))[0]


def _det_later(lib):
    xp = lib.xp

    def cell():
        times = []
        for _ in range(5):
            A = xp.random.randn(512, 512).astype(np.float32)
            t0 = time.perf_counter()
            xp.linalg.det(A)
            lib.sync()
            times.append(time.perf_counter() - t0)
        return statistics.median(times[1:])

    return cell


def _qr_sweep(size):
    def make(lib):
        xp = lib.xp
        A = xp.random.uniform(low=-1.0, high=1.0, size=(size, size)).astype(xp.float32)
        xp.linalg.qr(A)  # "exclude potential one-time JIT overhead"
        return _timed(lib, lambda: xp.linalg.qr(A))

    return make


def _profiled(fused, clock):
    """cupyx.profiler.benchmark / cuarray.profiler.benchmark of the lesson's pair, n_repeat=10."""

    def make(lib):
        xp = lib.xp
        benchmark = lib.extra("profiler").benchmark
        func = xp.fuse(squared_diff) if fused else squared_diff
        x = xp.arange(10000)
        y = xp.arange(10000)[::-1]

        def cell():
            r = benchmark(func, (x, y), n_repeat=10, name="squared_diff")
            return float(np.mean(r.gpu_times[0] if clock == "GPU" else r.cpu_times))

        return cell

    return make


def _rand_dot(lib):
    xp, size = lib.xp, int(1e8)

    def stmt():
        A = xp.random.rand(size).astype(xp.float32)
        B = xp.random.rand(size).astype(xp.float32)
        xp.dot(A, B)

    return _timed(lib, stmt)


def _host_rand_asarray_dot(lib):
    xp, size = lib.xp, int(1e8)

    def stmt():
        A_cpu = np.random.rand(size).astype(np.float32)
        B_cpu = np.random.rand(size).astype(np.float32)
        xp.dot(xp.asarray(A_cpu), xp.asarray(B_cpu))

    return _timed(lib, stmt)


def _inv_pair(streams):
    def make(lib):
        xp = lib.xp
        A = xp.random.rand(6000, 6000).astype(xp.float32)

        def one_stream():
            t0 = time.perf_counter()
            xp.linalg.inv(A)
            xp.linalg.inv(A)
            xp.cuda.Stream.null.synchronize()
            return time.perf_counter() - t0

        def two_streams():
            t0 = time.perf_counter()
            stream1, stream2 = xp.cuda.Stream(), xp.cuda.Stream()
            event1, event2 = xp.cuda.Event(), xp.cuda.Event()
            with stream1:
                C1 = xp.linalg.inv(A)  # noqa: F841 - kept alive until its stream is done
                event1.record(stream1)
            with stream2:
                C2 = xp.linalg.inv(A)  # noqa: F841
                event2.record(stream2)
            event1.synchronize()
            event2.synchronize()
            return time.perf_counter() - t0

        return two_streams if streams else one_stream

    return make


# ---------------------------------------------------------------- 002, 003: drop-in NumPy, TF32


def _matmul10000(lib):
    xp = lib.xp
    X = xp.random.randn(10000, 10000)
    return _timed(lib, lambda: xp.matmul(X, X))


def _svd5000(lib):
    xp = lib.xp
    X = xp.random.randn(5000, 5000)
    return _timed(lib, lambda: xp.linalg.svd(X))


def _matmul15000(lib):
    xp, N = lib.xp, 15000
    X = xp.random.randn(N, N, dtype=xp.float32)
    Y = xp.random.randn(N, N, dtype=xp.float32)
    xp.matmul(X, Y)  # "compile the kernel"

    def cell():  # the lesson's loop: min over 3 runs of 10 synchronised matmuls
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            for _ in range(10):
                xp.matmul(X, Y)
                xp.cuda.Device(0).synchronize()
            times.append(time.perf_counter() - t0)
        return min(times)

    return cell


# ---------------------------------------------------------------- 004: convolution


def _convolve2d_timeit(lib):
    convolve2d = lib.extra("scipy.signal").convolve2d
    deltas, gauss = lib.asarray(lesson_deltas()), lib.asarray(lesson_gauss())
    convolve2d(deltas, gauss)
    return lambda: ipython_timeit(lambda: convolve2d(deltas, gauss), lib.sync)


def _transfer_compute_transferback(lib):
    xp = lib.xp
    convolve2d = lib.extra("scipy.signal").convolve2d
    deltas, gauss = lesson_deltas(), lesson_gauss()

    def transfer_compute_transferback():
        deltas_gpu = xp.asarray(deltas)
        gauss_gpu = xp.asarray(gauss)
        convolved_image_using_GPU = convolve2d(deltas_gpu, gauss_gpu)
        xp.asnumpy(convolved_image_using_GPU)

    transfer_compute_transferback()
    return lambda: ipython_timeit(transfer_compute_transferback, lib.sync)


def _np_convolve_timeit(lib):
    # np.convolve itself, on device arrays: NumPy hands the call to the library (__array_function__).
    deltas_1d = lib.asarray(lesson_deltas().ravel())
    gauss_1d = lib.asarray(lesson_gauss().diagonal())
    np.convolve(deltas_1d, gauss_1d)
    return lambda: ipython_timeit(lambda: np.convolve(deltas_1d, gauss_1d), lib.sync)


def _cell(name, make, unit="ms", libs=CUPY_LIKE, **kw):
    return Case(name, "lessons", make, unit, timer="self", libs=libs, **kw)


CASES = [
    _cell("001 qr 512² f64: %timeit -n 5 (qr + sync)", _qr_timeit, libs=WITH_NUMPY, warmup=0, reps=(1, 3)),
    _cell("001 matmul 4096² f32 (perf_counter + sync)", _matmul4096, libs=WITH_NUMPY),
    _cell("001 det 512² f32 loop, first call in a fresh process", _det_first, "s", warmup=0, reps=(1, 3)),
    _cell("001 det 512² f32 loop, later calls (median)", _det_later, libs=WITH_NUMPY),
    *[
        _cell(f"001 qr {n}² f32, one call after warm-up", _qr_sweep(n), libs=WITH_NUMPY)
        for n in (64, 128, 256, 512, 1024, 2048)
    ],
    _cell("001 squared_diff 10000: profiler.benchmark GPU", _profiled(False, "GPU"), "us", warmup=0),
    _cell("001 squared_diff 10000: profiler.benchmark CPU", _profiled(False, "CPU"), "us", warmup=0),
    _cell("001 fused_squared_diff 10000: profiler.benchmark GPU", _profiled(True, "GPU"), "us", warmup=0),
    _cell("001 fused_squared_diff 10000: profiler.benchmark CPU", _profiled(True, "CPU"), "us", warmup=0),
    _cell(
        "001 rand 1e8 + astype + dot on the device",
        _rand_dot,
        libs=WITH_NUMPY,
        quick_skips=("numpy",),
        reps=(3, 3),
    ),
    _cell("001 host rand 1e8 + asarray + dot", _host_rand_asarray_dot, "s", warmup=0, reps=(1, 3)),
    _cell("001 inv 6000² f32 twice, one stream", _inv_pair(False)),
    _cell("001 inv 6000² f32 twice, two streams + events", _inv_pair(True)),
    _cell(
        "002 matmul 10000² f64 (randn)", _matmul10000, libs=WITH_NUMPY, quick_skips=("numpy",), reps=(3, 3)
    ),
    _cell("002 svd 5000² f64, one call", _svd5000, "s", warmup=0, reps=(1, 1), only="full"),
    _cell(
        "003 matmul 15000² f32 ×10, CUPY_TF32=1 (min of 3)",
        _matmul15000,
        "s",
        warmup=0,
        reps=(1, 1),
        env=TF32_ENV,
    ),
    _cell(
        "003 matmul 15000² f32 ×10, CUPY_TF32=0 (min of 3)",
        _matmul15000,
        "s",
        warmup=0,
        reps=(1, 1),
        only="full",
    ),
    # One %timeit each: it is already the mean of 7 runs of at least 0.2 s.
    _cell(
        "004 %timeit convolve2d 2048² f64 × 15² Gaussian",
        _convolve2d_timeit,
        libs=WITH_NUMPY,
        quick_skips=("numpy",),
        warmup=0,
        reps=(1, 1),
    ),
    _cell(
        "004 %timeit asarray + convolve2d + asnumpy", _transfer_compute_transferback, warmup=0, reps=(1, 1)
    ),
    _cell(
        "004 %timeit np.convolve(device arrays) 4M × 15 f64",
        _np_convolve_timeit,
        libs=WITH_NUMPY,
        warmup=0,
        reps=(1, 1),
    ),
]
