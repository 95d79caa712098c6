"""Calls into the CUDA libraries (cuBLAS, cuSOLVER, cuRAND, cuFFT) and the convolutions: device time
from each library's events. Targets compare cuarray with CuPy measured in the same run."""

from cases_bandwidth import FILL, GIB
from cases_lessons import lesson_gauss
from harness import GPU_LIBS, LIBS, TF32_ENV, Case, at_most, of_ceiling, vs_cupy

MATMUL_N = 8192


def _matmul(dtype, tf32=False):
    def make(lib):
        n = MATMUL_N
        a, b = lib.rand((n, n), dtype, 0, "normal"), lib.rand((n, n), dtype, 1, "normal")
        if lib.name == "torch":  # cuarray and CuPy take TF32 from the environment (TF32_ENV)
            lib.xp.set_float32_matmul_precision("high" if tf32 else "highest")
        return lambda: lib.xp.matmul(a, b)

    return make


def _linalg(func, n, dtype, rhs=False):
    """xp.linalg.<func> of a random n×n matrix (and vector); torch.linalg has the same names."""

    def make(lib):
        a = lib.rand((n, n), dtype, 0, "normal")
        f = getattr(lib.xp.linalg, func)
        if rhs:
            b = lib.rand(n, dtype, 1, "normal")
            return lambda: f(a, b)
        return lambda: f(a)

    return make


def _fft(lib):
    x = lib.rand(1 << 24, "complex64", 0, "normal")
    return lambda: lib.xp.fft.fft(x)


def _randn(lib):
    n = GIB // 4
    if lib.name == "torch":
        return lambda: lib.xp.randn(n, device="cuda")
    if lib.name == "numpy":
        rng = lib.xp.random.default_rng(0)
        return lambda: rng.standard_normal(n, dtype=lib.xp.float32)
    return lambda: lib.xp.random.randn(n, dtype=lib.xp.float32)


def _convolve2d(lib):
    # The lesson's image is mostly zeros; a direct convolution costs the same on random data.
    image = lib.rand((2048, 2048), "float64")
    kernel = lib.asarray(lesson_gauss())
    if lib.name == "torch":  # conv2d correlates: flip the kernel; padding 14 gives mode 'full'
        import torch.nn.functional as F

        img4, k4 = image[None, None], kernel.flip(0, 1)[None, None].contiguous()
        return lambda: F.conv2d(img4, k4, padding=14)
    convolve2d = lib.extra("scipy.signal").convolve2d
    return lambda: convolve2d(image, kernel)  # mode 'full', as the lesson calls it


def _convolve1d(lib):
    x = lib.rand(2048 * 2048, "float64")
    k = lib.asarray(lesson_gauss().diagonal().copy())
    if lib.name == "torch":
        import torch.nn.functional as F

        x3, k3 = x.view(1, 1, -1), k.flip(0).view(1, 1, -1)
        return lambda: F.conv1d(x3, k3, padding=14)
    return lambda: lib.xp.convolve(x, k)  # mode 'full', as np.convolve's default


def _flops(n):
    return 2.0 * n**3


def _call(name, make, unit="ms", **kw):
    return Case(name, "library", make, unit, **kw)


def _mm(name, dtype, target_libs, tf32=False, **kw):
    return _call(
        name,
        _matmul(dtype, tf32),
        "TFLOP/s",
        work=_flops(MATMUL_N),
        target=vs_cupy(0.98),
        libs=target_libs,
        quick_skips=("numpy",),
        **kw,
    )


CASES = [
    _mm("matmul 8192² f32 (TF32 off)", "float32", LIBS),
    _mm("matmul 8192² f32, TF32 on (fresh process)", "float32", GPU_LIBS, tf32=True, env=TF32_ENV),
    _mm("matmul 8192² f64", "float64", LIBS),
    _mm("matmul 8192² f16", "float16", GPU_LIBS),
    _call("linalg.qr 512² f64", _linalg("qr", 512, "float64"), target=vs_cupy(0.95)),
    _call("linalg.qr 2048² f64", _linalg("qr", 2048, "float64"), target=vs_cupy(0.95)),
    _call("linalg.det 512² f32", _linalg("det", 512, "float32"), target=vs_cupy(0.95)),
    _call(
        "linalg.inv 6000² f32", _linalg("inv", 6000, "float32"), target=vs_cupy(0.95), quick_skips=("numpy",)
    ),
    _call(
        "linalg.solve 4096² f64, one right-hand side",
        _linalg("solve", 4096, "float64", rhs=True),
        target=vs_cupy(0.95),
        quick_skips=("numpy",),
    ),
    _call("linalg.svd 2000² f64", _linalg("svd", 2000, "float64"), target=vs_cupy(2.0), only="full"),
    _call(
        "linalg.svd 1000² f64 (quick: 2000² in the full run)",
        _linalg("svd", 1000, "float64"),
        target=vs_cupy(2.0),
        only="quick",
    ),
    _call("fft.fft 2^24 c64", _fft),
    _call(
        "random.randn 2^28 f32",
        _randn,
        "GB/s",
        work=GIB,
        ceiling=FILL,
        target=of_ceiling(0.80),
        quick_skips=("numpy",),
    ),
    _call(
        "scipy.signal.convolve2d 2048² f64 × 15², full",
        _convolve2d,
        target=at_most(0.85),
        quick_skips=("numpy",),
    ),
    _call("convolve 4M × 15 f64, full", _convolve1d, target=at_most(0.2)),
]
