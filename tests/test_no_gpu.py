"""Behaviour on a machine without CUDA driver or device (CI): clear errors, never a crash.

Every public callable of cuarray, cuarray.linalg, cuarray.fft, cuarray.random, cuarray.cuda (and its runtime),
cuarray.scipy.signal and cuarray.scipy.special is called once with simple valid arguments. Each appears in one table: it needs a
device (CUDARuntimeError, the same no-device message everywhere), it takes device arrays (a host array gets
CuPy's TypeError before anything touches a device), or it needs no device (it works)."""

import contextlib
import io
import re
import types

import cuarray as cp
import cuarray.cuda.runtime
import cuarray.fft
import cuarray.linalg
import cuarray.random
import cuarray.scipy.fft
import cuarray.scipy.signal
import cuarray.scipy.special
import numpy as np
import pytest
from conftest import describe, run_python
from no_gpu_signal import H1, H2, SIGNAL_NEEDS_DEVICE, SIGNAL_TAKES_DEVICE_ARRAYS

pytestmark = pytest.mark.nogpu

NO_DEVICE = r"(?i)no CUDA driver or device"

MODULES = {
    "": cp,
    "linalg": cp.linalg,
    "fft": cp.fft,
    "random": cp.random,
    "cuda": cp.cuda,
    "cuda.runtime": cp.cuda.runtime,
    "cuda.nvtx": cp.cuda.nvtx,
    "cuda.profiler": cp.cuda.profiler,
    "scipy.signal": cp.scipy.signal,
    "scipy.signal.windows": cp.scipy.signal.windows,
    "scipy.special": cp.scipy.special,
    "scipy.fft": cp.scipy.fft,
    "polynomial.polynomial": cp.polynomial.polynomial,
    "polynomial.polyutils": cp.polynomial.polyutils,
}

KERNEL = 'extern "C" __global__ void k(float* x) { x[0] = 1.0f; }'
_NPY_FILE = io.BytesIO()
np.save(_NPY_FILE, H1)
_NPY = _NPY_FILE.getvalue()  # a .npy file's bytes


def _host_file():
    """A file of a few bytes, for fromfile."""
    import tempfile

    f = tempfile.NamedTemporaryFile(suffix=".bin", delete=False)  # noqa: SIM115  (closed by tofile)
    H1.tofile(f)
    f.close()
    return f.name


# Every ufunc is called with Python scalars (a 0-d device result) and with host arrays (TypeError); these rows
# replace that for ufuncs that take no scalars.
UFUNC_EXCEPTIONS = {"matmul"}

# Calls that need a device: CUDARuntimeError with the no-device message.
NEEDS_DEVICE = {
    **SIGNAL_NEEDS_DEVICE,
    "scipy.fft.fftfreq": lambda: cp.scipy.fft.fftfreq(4),
    "scipy.fft.rfftfreq": lambda: cp.scipy.fft.rfftfreq(4),
    "cuda.profiler.start": lambda: cp.cuda.profiler.start(),
    "cuda.profiler.stop": lambda: cp.cuda.profiler.stop(),
    "cuda.profiler.profile": lambda: cp.cuda.profiler.profile().__enter__(),
    "arange": lambda: cp.arange(3),
    "array": lambda: cp.array([1, 2]),
    "asarray": lambda: cp.asarray(H1),
    "ascontiguousarray": lambda: cp.ascontiguousarray(H2.T),
    "asfortranarray": lambda: cp.asfortranarray(H2),
    "average": lambda: cp.average(H1),  # moves a host array to the device, as CuPy's
    "empty": lambda: cp.empty(3),
    "zeros": lambda: cp.zeros((2, 2)),
    "ones": lambda: cp.ones(3, dtype=np.int32),
    "full": lambda: cp.full(3, 7.0),
    "empty_like": lambda: cp.empty_like(H1),
    "zeros_like": lambda: cp.zeros_like(H1),
    "ones_like": lambda: cp.ones_like(H2),
    "full_like": lambda: cp.full_like(H1, 2),
    "eye": lambda: cp.eye(2),
    "identity": lambda: cp.identity(3),
    "linspace": lambda: cp.linspace(0, 1, 5),
    "indices": lambda: cp.indices((2, 2)),
    "diag": lambda: cp.diag([1.0, 2.0]),
    "poly1d": lambda: cp.poly1d(H1),  # host coefficients are copied over, as CuPy's poly1d does
    "tril_indices_from": lambda: cp.tril_indices_from(H2),  # only the shape is read
    "triu_indices_from": lambda: cp.triu_indices_from(H2),
    "allclose": lambda: cp.allclose(H1, H1),
    "isclose": lambda: cp.isclose(H1, H1),
    "array_equal": lambda: cp.array_equal(H1, H1),
    "array_equiv": lambda: cp.array_equiv(H1, H1),
    "clip": lambda: cp.clip(H1, 0, 1),
    "angle": lambda: cp.angle([1.0, 2.0]),
    "around": lambda: cp.around(H1),
    "round": lambda: cp.round(H1),
    "fix": lambda: cp.fix(H1),
    "real": lambda: cp.real(H1),
    "imag": lambda: cp.imag(H1),
    "nan_to_num": lambda: cp.nan_to_num(H1),
    "copy": lambda: cp.copy(H1),
    "interp": lambda: cp.interp(H1, H1, H1),
    "select": lambda: cp.select([H1 > 1], [H1]),
    "logspace": lambda: cp.logspace(0, 1, 5),
    # cupy.polynomial copies host coefficients and points to the device, as CuPy's does
    "polynomial.polynomial.polyvander": lambda: cp.polynomial.polynomial.polyvander(H1, 2),
    "polynomial.polynomial.polyval": lambda: cp.polynomial.polynomial.polyval(H1, H1),
    "polynomial.polynomial.polyvalfromroots": lambda: cp.polynomial.polynomial.polyvalfromroots(H1, H1),
    "polynomial.polynomial.polycompanion": lambda: cp.polynomial.polynomial.polycompanion(H1),
    "polynomial.polyutils.as_series": lambda: cp.polynomial.polyutils.as_series([H1]),
    "polynomial.polyutils.trimcoef": lambda: cp.polynomial.polyutils.trimcoef(H1),
    "geomspace": lambda: cp.geomspace(1, 10, 5),
    "tri": lambda: cp.tri(3),
    "ravel_multi_index": lambda: cp.ravel_multi_index(([0], [1]), (2, 2)),
    "unravel_index": lambda: cp.unravel_index(1, (2, 2)),
    "ndarray": lambda: cp.ndarray((2, 3)),
    "get_default_memory_pool": lambda: cp.get_default_memory_pool().used_bytes(),
    "fuse": lambda: cp.fuse(lambda x: cp.sin(x) * 2 + 1)(1.5),  # scalars alone: the function runs as is
    "RawKernel": lambda: cp.RawKernel(KERNEL, "k")((1,), (1,), ()),
    "RawModule": lambda: cp.RawModule(code=KERNEL).get_function("k"),
    "random.rand": lambda: cp.random.rand(3),
    "random.randn": lambda: cp.random.randn(2, 2),
    "random.random": lambda: cp.random.random(3),
    "random.random_sample": lambda: cp.random.random_sample(3),
    "random.ranf": lambda: cp.random.ranf(3),
    "random.sample": lambda: cp.random.sample(3),
    "random.standard_normal": lambda: cp.random.standard_normal(3),
    "random.uniform": lambda: cp.random.uniform(size=3),
    "random.normal": lambda: cp.random.normal(size=3),
    "random.exponential": lambda: cp.random.exponential(size=3),
    "random.gamma": lambda: cp.random.gamma(2.0, size=3),
    "random.beta": lambda: cp.random.beta(1.0, 2.0, size=3),
    "random.poisson": lambda: cp.random.poisson(size=3),
    "random.binomial": lambda: cp.random.binomial(5, 0.5, size=3),
    "random.randint": lambda: cp.random.randint(3, size=2),
    "random.random_integers": lambda: cp.random.random_integers(3),
    "random.choice": lambda: cp.random.choice(3),
    "random.permutation": lambda: cp.random.permutation(3),
    "fft.fftfreq": lambda: cp.fft.fftfreq(4),
    "fft.rfftfreq": lambda: cp.fft.rfftfreq(4),
    "cuda.Device": lambda: cp.cuda.Device(0).use(),
    "cuda.malloc_async": lambda: cp.cuda.malloc_async(64),
    "cuda.MemoryAsync": lambda: cp.cuda.MemoryAsync(64, cp.cuda.Stream.null),
    "cuda.MemoryAsyncPool": lambda: cp.cuda.MemoryAsyncPool().used_bytes(),
    "cuda.runtime.deviceGetAttribute": lambda: cp.cuda.runtime.deviceGetAttribute(1, 0),
    "cuda.runtime.deviceCanAccessPeer": lambda: cp.cuda.runtime.deviceCanAccessPeer(0, 1),
    "cuda.runtime.malloc": lambda: cp.cuda.runtime.malloc(64),
    "cuda.runtime.free": lambda: cp.cuda.runtime.free(0),
    "cuda.runtime.memcpy": lambda: cp.cuda.runtime.memcpy(0, 0, 8, 4),
    "cuda.runtime.memcpyAsync": lambda: cp.cuda.runtime.memcpyAsync(0, 0, 8, 4, 0),
    "cuda.runtime.memset": lambda: cp.cuda.runtime.memset(0, 0, 8),
    "cuda.runtime.memsetAsync": lambda: cp.cuda.runtime.memsetAsync(0, 0, 8, 0),
    "cuda.runtime.streamCreate": lambda: cp.cuda.runtime.streamCreate(),
    "cuda.runtime.streamCreateWithFlags": lambda: cp.cuda.runtime.streamCreateWithFlags(1),
    "cuda.runtime.streamDestroy": lambda: cp.cuda.runtime.streamDestroy(0),
    "cuda.runtime.streamQuery": lambda: cp.cuda.runtime.streamQuery(0),
    "cuda.Stream": lambda: cp.cuda.Stream(),
    "cuda.Event": lambda: cp.cuda.Event(),
    "cuda.get_elapsed_time": lambda: cp.cuda.get_elapsed_time(cp.cuda.Event(), cp.cuda.Event()),
    "cuda.alloc_pinned_memory": lambda: cp.cuda.alloc_pinned_memory(64),
    "cuda.get_default_memory_pool": lambda: cp.cuda.get_default_memory_pool().used_bytes(),
    "cuda.runtime.getDeviceCount": lambda: cp.cuda.runtime.getDeviceCount(),
    "cuda.runtime.getDevice": lambda: cp.cuda.runtime.getDevice(),
    "cuda.runtime.setDevice": lambda: cp.cuda.runtime.setDevice(0),
    "cuda.runtime.getDeviceProperties": lambda: cp.cuda.runtime.getDeviceProperties(0),
    "cuda.runtime.memGetInfo": lambda: cp.cuda.runtime.memGetInfo(),
    "cuda.alloc": lambda: cp.cuda.alloc(64),
    "cuda.Memory": lambda: cp.cuda.Memory(64),
    "cuda.ManagedMemory": lambda: cp.cuda.ManagedMemory(64),
    "cuda.malloc_managed": lambda: cp.cuda.malloc_managed(64),
    "cuda.PinnedMemory": lambda: cp.cuda.PinnedMemory(64),
    "cuda.PinnedMemoryPointer": lambda: cp.cuda.PinnedMemoryPointer(cp.cuda.PinnedMemory(64), 0),
    "cuda.get_cublas_handle": lambda: cp.cuda.get_cublas_handle(),
    "cuda.get_device_id": lambda: cp.cuda.get_device_id(),
    "empty_pinned": lambda: cp.empty_pinned(3),
    "zeros_pinned": lambda: cp.zeros_pinned((2, 2)),
    "empty_like_pinned": lambda: cp.empty_like_pinned(H1),
    "zeros_like_pinned": lambda: cp.zeros_like_pinned(H2),
    "tril_indices": lambda: cp.tril_indices(3),
    "triu_indices": lambda: cp.triu_indices(3),
    "diag_indices": lambda: cp.diag_indices(3),
    "mask_indices": lambda: cp.mask_indices(3, cp.triu),
    "fromfunction": lambda: cp.fromfunction(lambda i: i, (3,)),
    **{n: (lambda n=n: getattr(cp, n)(5)) for n in ("bartlett", "blackman", "hamming", "hanning")},
    "kaiser": lambda: cp.kaiser(5, 2.0),
    "asanyarray": lambda: cp.asanyarray(H1),
    "asarray_chkfinite": lambda: cp.asarray_chkfinite(H1),
    "require": lambda: cp.require(H1, requirements="C"),
    "frombuffer": lambda: cp.frombuffer(H1.tobytes()),
    "fromiter": lambda: cp.fromiter(range(3), float),
    "fromstring": lambda: cp.fromstring("1 2", sep=" "),
    "fromfile": lambda: cp.fromfile(_host_file(), np.uint8),
    "load": lambda: cp.load(io.BytesIO(_NPY)),
    "loadtxt": lambda: cp.loadtxt(io.StringIO("1 2")),
    "genfromtxt": lambda: cp.genfromtxt(io.StringIO("1 2")),
    "random.bytes": lambda: cp.random.bytes(4),
    "random.chisquare": lambda: cp.random.chisquare(2.0, 3),
    "random.dirichlet": lambda: cp.random.dirichlet([1.0, 2.0], 3),
    "random.f": lambda: cp.random.f(2.0, 3.0, 3),
    "random.geometric": lambda: cp.random.geometric(0.5, 3),
    "random.gumbel": lambda: cp.random.gumbel(size=3),
    "random.hypergeometric": lambda: cp.random.hypergeometric(5, 5, 3, 3),
    "random.laplace": lambda: cp.random.laplace(size=3),
    "random.logistic": lambda: cp.random.logistic(size=3),
    "random.lognormal": lambda: cp.random.lognormal(size=3),
    "random.logseries": lambda: cp.random.logseries(0.5, 3),
    "random.multinomial": lambda: cp.random.multinomial(5, [0.5, 0.5], 3),
    "random.multivariate_normal": lambda: cp.random.multivariate_normal([0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]]),
    "random.negative_binomial": lambda: cp.random.negative_binomial(2, 0.5, 3),
    "random.noncentral_chisquare": lambda: cp.random.noncentral_chisquare(2.0, 1.0, 3),
    "random.noncentral_f": lambda: cp.random.noncentral_f(2.0, 3.0, 1.0, 3),
    "random.pareto": lambda: cp.random.pareto(2.0, 3),
    "random.power": lambda: cp.random.power(2.0, 3),
    "random.rayleigh": lambda: cp.random.rayleigh(size=3),
    "random.standard_cauchy": lambda: cp.random.standard_cauchy(3),
    "random.standard_exponential": lambda: cp.random.standard_exponential(3),
    "random.standard_gamma": lambda: cp.random.standard_gamma(2.0, 3),
    "random.standard_t": lambda: cp.random.standard_t(3.0, 3),
    "random.triangular": lambda: cp.random.triangular(0.0, 0.5, 1.0, 3),
    "random.vonmises": lambda: cp.random.vonmises(0.0, 1.0, 3),
    "random.wald": lambda: cp.random.wald(1.0, 1.0, 3),
    "random.weibull": lambda: cp.random.weibull(2.0, 3),
    "random.zipf": lambda: cp.random.zipf(2.0, 3),
    "cuda.runtime.deviceSynchronize": lambda: cp.cuda.runtime.deviceSynchronize(),
}


def _deprecated(f, *args):
    """f(*args) without its DeprecationWarning."""
    with pytest.deprecated_call():
        return f(*args)


def _visibly_deprecated(f, *args):
    """f(*args), which warns CuPy's VisibleDeprecationWarning first."""
    with pytest.warns(np.exceptions.VisibleDeprecationWarning):
        return f(*args)


# Functions that take device arrays: given host arrays they raise CuPy's error, naming numpy.ndarray.
_T = (TypeError, r"numpy\.ndarray|<class 'numpy\.ndarray'>|must be cuarray\.ndarray, not ndarray")
TAKES_DEVICE_ARRAYS = {
    "from_dlpack": (lambda: cp.from_dlpack(H1), (BufferError, "host memory")),
    "fromDlpack": (lambda: _visibly_deprecated(cp.fromDlpack, H1), (BufferError, "host memory")),
    "random.shuffle": (lambda: cp.random.shuffle(H1.copy()), _T),
    "matmul": (lambda: cp.matmul(H2, H2), _T),
    "cuda.Graph": (
        lambda: cp.cuda.Graph(),
        (NotImplementedError, "begin_capture"),
    ),  # only a capture makes one
    "random.BitGenerator": (lambda: cp.random.BitGenerator(1), (NotImplementedError, "base class")),
    "row_stack": (lambda: _deprecated(cp.row_stack, [H1, H1]), _T),
    **SIGNAL_TAKES_DEVICE_ARRAYS,
    **{
        f"scipy.fft.{n}": (
            lambda n=n: getattr(cp.scipy.fft, n)(H2 if n[-1] == "2" or n == "get_fft_plan" else H1),
            _T,
        )
        for n in cp.scipy.fft.__all__
        if n not in ("fftfreq", "rfftfreq", "next_fast_len")  # no array argument
    },
    **{
        f"scipy.special.{n}": (lambda n=n: getattr(cp.scipy.special, n)(H1), (TypeError, "numpy\\.ndarray"))
        for n in ("softmax", "log_softmax", "logsumexp")
    },
    "scipy.special.zeta": (lambda: cp.scipy.special.zeta(H1), (TypeError, "numpy\\.ndarray")),
    "scipy.special.polygamma": (lambda: cp.scipy.special.polygamma(1, H1), (TypeError, "numpy\\.ndarray")),
}
_ARRAY_CALLS = {
    "argmax": lambda f: f(H1),
    "argmin": lambda f: f(H1),
    "argpartition": lambda f: f(H1, 1),
    "argsort": lambda f: f(H1),
    "argwhere": lambda f: f(H1),
    "array_split": lambda f: f(H1, 2),
    "atleast_1d": lambda f: f(H1),
    "atleast_2d": lambda f: f(H1),
    "atleast_3d": lambda f: f(H1),
    "bincount": lambda f: f(np.arange(3)),
    "block": lambda f: f([H1, H1]),
    "rsqrt": lambda f: f(H1),
    "scatter_add": lambda f: f(H1, [0], 1.0),
    "scatter_max": lambda f: f(H1, [0], 1.0),
    "scatter_min": lambda f: f(H1, [0], 1.0),
    "broadcast_arrays": lambda f: f(H1, H1),
    "broadcast_to": lambda f: f(H1, (2, 3)),
    "column_stack": lambda f: f([H1, H1]),
    "compress": lambda f: f(H1 > 1, H1),
    "concatenate": lambda f: f([H1, H1]),
    "copyto": lambda f: f(H1.copy(), H1),
    "count_nonzero": lambda f: f(H1),
    "cumprod": lambda f: f(H1),
    "cumsum": lambda f: f(H1),
    "cumulative_prod": lambda f: f(H1),
    "cumulative_sum": lambda f: f(H1),
    "diff": lambda f: f(H1),
    "dot": lambda f: f(H1, H1),
    "dstack": lambda f: f([H1, H1]),
    "einsum": lambda f: f("i->", H1),
    "expand_dims": lambda f: f(H1, 0),
    "flatnonzero": lambda f: f(H1),
    "flip": lambda f: f(H1),
    "fliplr": lambda f: f(H2),
    "flipud": lambda f: f(H2),
    "histogram": lambda f: f(H1),
    "histogram_bin_edges": lambda f: f(H1),
    "isnat": lambda f: f(H1),
    "hstack": lambda f: f([H1, H1]),
    "inner": lambda f: f(H1, H1),
    "kron": lambda f: f(H1, H1),
    "lexsort": lambda f: f(H2),
    "meshgrid": lambda f: f(H1, H1),
    "moveaxis": lambda f: f(H2, 0, 1),
    "nanargmax": lambda f: f(H1),
    "nanargmin": lambda f: f(H1),
    "nancumprod": lambda f: f(H1),
    "nancumsum": lambda f: f(H1),
    "nanmax": lambda f: f(H1),
    "nanmean": lambda f: f(H1),
    "nanmin": lambda f: f(H1),
    "nanprod": lambda f: f(H1),
    "nanstd": lambda f: f(H1),
    "nansum": lambda f: f(H1),
    "nanvar": lambda f: f(H1),
    "nonzero": lambda f: f(H1),
    "outer": lambda f: f(H1, H1),
    "partition": lambda f: f(H1, 1),
    "put": lambda f: f(H1.copy(), [0], [5.0]),
    "put_along_axis": lambda f: f(H1.copy(), np.zeros(1, np.int64), 5.0, 0),
    "ravel": lambda f: f(H2),
    "repeat": lambda f: f(H1, 2),
    "reshape": lambda f: f(H1, (3, 1)),
    "roll": lambda f: f(H1, 1),
    "rot90": lambda f: f(H2),
    "searchsorted": lambda f: f(H1, H1),
    "sort": lambda f: f(H1),
    "sort_complex": lambda f: f(H1),
    "split": lambda f: f(H1, 3),
    "squeeze": lambda f: f(H1[None]),
    "stack": lambda f: f([H1, H1]),
    "swapaxes": lambda f: f(H2, 0, 1),
    "take": lambda f: f(H1, [0]),
    "take_along_axis": lambda f: f(H1, np.zeros(1, np.int64)),
    "tensordot": lambda f: f(H2, H2),
    "tile": lambda f: f(H1, 2),
    "trace": lambda f: f(H2),
    "transpose": lambda f: f(H2),
    "tril": lambda f: f(H2),
    "triu": lambda f: f(H2),
    "unique": lambda f: f(H1),
    "vdot": lambda f: f(H1, H1),
    "vstack": lambda f: f([H1, H1]),
    "where": lambda f: f(H1 > 1),
    "convolve": lambda f: f(H1, H1),
    "correlate": lambda f: f(H1, H1),
    "astype": lambda f: f(H1, np.float32),
    "concat": lambda f: f([H1, H1]),
    "corrcoef": lambda f: f(H2),
    "cov": lambda f: f(H2),
    "cross": lambda f: f(H1, H1),
    "diagflat": lambda f: f(H1),
    "digitize": lambda f: f(H1, H1),
    "extract": lambda f: f(H1 > 1, H1),
    "matrix_transpose": lambda f: f(H2),
    "median": lambda f: f(H1),
    "nanmedian": lambda f: f(H1),
    "nanquantile": lambda f: f(H1, 0.5),
    "nanpercentile": lambda f: f(H1, 50),
    "pad": lambda f: f(H1, 1),
    "percentile": lambda f: f(H1, 50),
    "permute_dims": lambda f: f(H2, (1, 0)),
    "quantile": lambda f: f(H1, 0.5),
    "rollaxis": lambda f: f(H2, 1),
    "unique_all": lambda f: f(H1),
    "unique_counts": lambda f: f(H1),
    "unique_inverse": lambda f: f(H1),
    "unique_values": lambda f: f(H1),
    "unstack": lambda f: f(H2),
    "vecdot": lambda f: f(H1, H1),
    "matvec": lambda f: f(H2, H2[0]),
    "vecmat": lambda f: f(H2[0], H2.T),
    "linalg.cholesky": lambda f: f(H2),
    "linalg.det": lambda f: f(H2),
    "linalg.eigh": lambda f: f(H2),
    "linalg.eigvalsh": lambda f: f(H2),
    "linalg.inv": lambda f: f(H2),
    "linalg.lstsq": lambda f: f(H2, H1[:2]),
    "linalg.matmul": lambda f: f(H2, H2),
    "linalg.matrix_power": lambda f: f(H2, 2),
    "linalg.matrix_rank": lambda f: f(H2),
    "linalg.norm": lambda f: f(H1),
    "linalg.pinv": lambda f: f(H2),
    "linalg.qr": lambda f: f(H2),
    "linalg.slogdet": lambda f: f(H2),
    "linalg.solve": lambda f: f(H2, H1[:2]),
    "linalg.svd": lambda f: f(H2),
    "linalg.tensordot": lambda f: f(H2, H2),
    "linalg.tensorinv": lambda f: f(H2, 1),
    "linalg.tensorsolve": lambda f: f(H2, H1[:2]),
    "linalg.cond": lambda f: f(H2),
    "linalg.cross": lambda f: f(H1, H1),
    "linalg.diagonal": lambda f: f(H2),
    "linalg.matrix_norm": lambda f: f(H2),
    "linalg.matrix_transpose": lambda f: f(H2),
    "linalg.multi_dot": lambda f: f([H2, H2]),
    "linalg.outer": lambda f: f(H1, H1),
    "linalg.svdvals": lambda f: f(H2),
    "linalg.trace": lambda f: f(H2),
    "linalg.vecdot": lambda f: f(H1, H1),
    "linalg.vector_norm": lambda f: f(H1),
    "linalg.eig": lambda f: f(H2),
    "linalg.eigvals": lambda f: f(H2),
    "append": lambda f: f(H1, H1),
    "apply_along_axis": lambda f: f(np.sum, 0, H2),
    "apply_over_axes": lambda f: f(np.sum, H2, [0]),
    "broadcast": lambda f: f(H1, H1),
    "choose": lambda f: f(np.zeros(3, int), [H1]),
    "delete": lambda f: f(H1, 0),
    "diag_indices_from": lambda f: f(H2),
    "diagonal": lambda f: f(H2),
    "dsplit": lambda f: f(np.ones((2, 2, 2)), 2),
    "ediff1d": lambda f: f(H1),
    "fill_diagonal": lambda f: f(H2.copy(), 1),
    "gradient": lambda f: f(H1),
    "histogram2d": lambda f: f(H1, H1),
    "histogramdd": lambda f: f(H2),
    "hsplit": lambda f: f(H1, 3),
    "i0": lambda f: f(H1),
    "insert": lambda f: f(H1, 0, 5.0),
    "intersect1d": lambda f: f(H1, H1),
    "iscomplex": lambda f: f(H1),
    "isfortran": lambda f: f(H2),
    "isin": lambda f: f(H1, H1),
    "isneginf": lambda f: f(H1),
    "isposinf": lambda f: f(H1),
    "isreal": lambda f: f(H1),
    "ix_": lambda f: f(np.arange(2)),
    "may_share_memory": lambda f: f(H1, H1),
    "byte_bounds": lambda f: f(H1),
    "packbits": lambda f: f(H1 > 1),
    "piecewise": lambda f: f(H1, [H1 > 1], [0.0]),
    "place": lambda f: f(H1.copy(), H1 > 1, [0.0]),
    "poly": lambda f: f(H1),
    "polyadd": lambda f: f(H1, H1),
    "polyder": lambda f: f(H1),
    "polydiv": lambda f: f(H1, H1),
    "polyfit": lambda f: f(H1, H1, 1),
    "polyint": lambda f: f(H1),
    "polymul": lambda f: f(H1, H1),
    "polysub": lambda f: f(H1, H1),
    "polyval": lambda f: f(H1, H1),
    "putmask": lambda f: f(H1.copy(), H1 > 1, 0.0),
    "real_if_close": lambda f: f(H1),
    "resize": lambda f: f(H1, 4),
    "roots": lambda f: f(H1),
    "setdiff1d": lambda f: f(H1, H1),
    "setxor1d": lambda f: f(H1, H1),
    "shares_memory": lambda f: f(H1, H1),
    "sinc": lambda f: f(H1),
    "trapezoid": lambda f: f(H1),
    "trim_zeros": lambda f: f(H1),
    "union1d": lambda f: f(H1, H1),
    "unpackbits": lambda f: f(np.ones(2, np.uint8)),
    "unwrap": lambda f: f(H1),
    "vander": lambda f: f(H1),
    "vsplit": lambda f: f(H2, 2),
    **{
        f"fft.{n}": (lambda f: f(H1))
        for n in (
            "fft",
            "ifft",
            "rfft",
            "irfft",
            "hfft",
            "ihfft",
            "fftn",
            "ifftn",
            "rfftn",
            "irfftn",
            "fftshift",
            "ifftshift",
        )
    },
    **{f"fft.{n}": (lambda f: f(H2)) for n in ("fft2", "ifft2", "rfft2", "irfft2")},
}


# Callables that need no device: they run.
def _use_allocator():
    with cp.cuda.using_allocator(None):  # entered and left: no allocator stays set for later tests
        pass


def _auto_fuse_off():
    with cp.auto_fuse(False):
        return cp.auto_fuse


NO_DEVICE_NEEDED = {
    "scipy.signal.kaiser_beta": lambda: cp.scipy.signal.kaiser_beta(60),
    "scipy.signal.kaiser_atten": lambda: cp.scipy.signal.kaiser_atten(31, 0.1),
    "scipy.signal.kaiserord": lambda: cp.scipy.signal.kaiserord(60, 0.1),
    "scipy.signal.BadCoefficients": lambda: cp.scipy.signal.BadCoefficients("x"),
    "scipy.fft.next_fast_len": lambda: cp.scipy.fft.next_fast_len(13),
    # NVTX records only under a profiler; without one a marker or range is a no-op call
    "cuda.nvtx.Mark": lambda: cp.cuda.nvtx.Mark("m", 1),
    "cuda.nvtx.MarkC": lambda: cp.cuda.nvtx.MarkC("m", 0xFF00FF00),
    "cuda.nvtx.RangePush": lambda: (cp.cuda.nvtx.RangePush("r"), cp.cuda.nvtx.RangePop()),
    "cuda.nvtx.RangePushC": lambda: (cp.cuda.nvtx.RangePushC("r", 0xFF0000FF), cp.cuda.nvtx.RangePop()),
    "cuda.nvtx.RangePop": lambda: (cp.cuda.nvtx.RangePush("r", -1), cp.cuda.nvtx.RangePop()),
    "cuda.nvtx.color_of": lambda: cp.cuda.nvtx.color_of(8),
    "auto_fuse": _auto_fuse_off,  # a thread's setting, set and restored without a device
    # CuPy's top-level names of NumPy's exception classes
    "AxisError": lambda: cp.AxisError(1, 1),
    "ComplexWarning": lambda: cp.ComplexWarning("x"),
    "TooHardError": lambda: cp.TooHardError("x"),
    "VisibleDeprecationWarning": lambda: cp.VisibleDeprecationWarning("x"),
    "asnumpy": lambda: cp.asnumpy(H1),  # host input is returned as NumPy's, as CuPy does
    "array2string": lambda: cp.array2string(H1),  # a NumPy array prints as it is, as in CuPy
    "array_repr": lambda: cp.array_repr(H1),
    "array_str": lambda: cp.array_str(H1),
    "flatiter": lambda: cp.flatiter(H1),
    "geterr": lambda: cp.geterr(),
    "seterr": lambda: cp.seterr(**cp.seterr()),  # recorded modes only (Note [Error modes])
    "get_runtime_info": lambda: str(cp.get_runtime_info()),  # says there is no device, as show_config does
    "GeneralizedUFunc": lambda: cp.GeneralizedUFunc(lambda x: x, "(i)->(i)"),  # a device only when called
    "polynomial.polyutils.trimseq": lambda: cp.polynomial.polyutils.trimseq(
        H1
    ),  # nothing to trim: H1 itself  # the iterator holds its base and reads it only when indexed
    # CuPy's are the array's methods: a host array's answer is NumPy's (Note [Reductions of host arrays])
    "all": lambda: cp.all(H1),
    "amax": lambda: cp.amax(H1),
    "amin": lambda: cp.amin(H1),
    "any": lambda: cp.any(H1),
    "max": lambda: cp.max(H1),
    "mean": lambda: cp.mean(H1),
    "min": lambda: cp.min(H1),
    "prod": lambda: cp.prod(H1),
    "ptp": lambda: cp.ptp(H1),
    "std": lambda: cp.std(H1),
    "sum": lambda: cp.sum(H1),
    "var": lambda: cp.var(H1),
    "get_array_module": lambda: cp.get_array_module(H1),
    "broadcast_shapes": lambda: cp.broadcast_shapes((2, 1), (1, 3)),
    "can_cast": lambda: cp.can_cast(np.int8, np.int16),
    "promote_types": lambda: cp.promote_types(np.int8, np.uint8),
    "result_type": lambda: cp.result_type(np.int8, 1.0),
    "dtype": lambda: cp.dtype("f4"),
    "make_aligned_dtype": lambda: cp.make_aligned_dtype("?,c8"),
    "finfo": lambda: cp.finfo(np.float32),
    "iinfo": lambda: cp.iinfo(np.int8),
    "issubdtype": lambda: cp.issubdtype(np.float32, np.floating),
    "isdtype": lambda: cp.isdtype(np.float32, "real floating"),
    "random.Philox4x3210": lambda: cp.random.Philox4x3210(1),
    "random.XORWOW": lambda: cp.random.XORWOW(1),
    "random.MRG32k3a": lambda: cp.random.MRG32k3a(1),
    "shape": lambda: cp.shape([[1, 2]]),
    "ndim": lambda: cp.ndim([[1, 2]]),
    "size": lambda: cp.size([[1, 2]]),
    "is_available": lambda: cp.is_available(),
    "ufunc": lambda: cp.ufunc("add"),
    "ElementwiseKernel": lambda: cp.ElementwiseKernel("float32 x", "float32 y", "y = x * 2", "double_it"),
    "ReductionKernel": lambda: cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "my_sum"),
    "bfloat16": lambda: cp.bfloat16(1.5),
    "get_default_pinned_memory_pool": lambda: cp.get_default_pinned_memory_pool().used_bytes(),
    "show_config": lambda: cp.show_config(),
    "linalg.LinAlgError": lambda: cp.linalg.LinAlgError("singular"),
    "linalg.EighResult": lambda: cp.linalg.EighResult(1, 2),
    "linalg.QRResult": lambda: cp.linalg.QRResult(1, 2),
    "linalg.SVDResult": lambda: cp.linalg.SVDResult(1, 2, 3),
    "linalg.SlogdetResult": lambda: cp.linalg.SlogdetResult(1, 2),
    "linalg.get_compute_type": lambda: cp.linalg.get_compute_type(np.float32),
    "linalg.set_compute_type": lambda: cp.linalg.set_compute_type(
        np.float64, cp.linalg.get_compute_type(np.float64)
    ),
    "random.seed": lambda: cp.random.seed(1),
    "random.RandomState": lambda: cp.random.RandomState(1),
    "random.Generator": lambda: cp.random.Generator(1),
    "random.default_rng": lambda: cp.random.default_rng(1),
    "random.get_random_state": lambda: cp.random.get_random_state(),
    "random.set_random_state": lambda: cp.random.set_random_state(cp.random.RandomState(2)),
    "random.reset_states": lambda: cp.random.reset_states(),
    "random.environment_seed": lambda: cp.random.environment_seed(),
    "cuda.is_available": lambda: cp.cuda.is_available(),
    "cuda.get_current_stream": lambda: cp.cuda.get_current_stream(),
    "cuda.CUDARuntimeError": lambda: cp.cuda.CUDARuntimeError(100, "no device"),
    "cuda.OutOfMemoryError": lambda: cp.cuda.OutOfMemoryError(1, 2, "out of memory"),
    "cuda.PinnedMemoryPool": lambda: cp.cuda.PinnedMemoryPool(),
    "cuda.get_default_pinned_memory_pool": lambda: cp.cuda.get_default_pinned_memory_pool(),
    "cuda.runtime.CUDARuntimeError": lambda: cp.cuda.runtime.CUDARuntimeError(100, "no device"),
    "cuda.runtime.driverGetVersion": lambda: cp.cuda.runtime.driverGetVersion(),
    "linalg.EigResult": lambda: cp.linalg.EigResult(1, 2),
    "vectorize": lambda: cp.vectorize(lambda x: x + 1),
    "isscalar": lambda: cp.isscalar(1.0),
    "iterable": lambda: cp.iterable([1]),
    "iscomplexobj": lambda: cp.iscomplexobj(H1),  # only the dtype is read
    "isrealobj": lambda: cp.isrealobj(H1),
    "common_type": lambda: cp.common_type(H1),
    "min_scalar_type": lambda: cp.min_scalar_type(10),
    "mintypecode": lambda: cp.mintypecode("f"),
    "typename": lambda: cp.typename("f"),
    "base_repr": lambda: cp.base_repr(5, 3),
    "binary_repr": lambda: cp.binary_repr(5),
    "format_float_positional": lambda: cp.format_float_positional(1.5),
    "format_float_scientific": lambda: cp.format_float_scientific(1.5),
    "get_printoptions": lambda: cp.get_printoptions(),
    "set_printoptions": lambda: cp.set_printoptions(precision=np.get_printoptions()["precision"]),
    "printoptions": lambda: cp.printoptions(precision=3),
    "ndindex": lambda: list(cp.ndindex(2, 2)),
    # Writers take host arrays as they are (numpy.savez(f, a=host, b=device) comes here with both).
    "save": lambda: cp.save(io.BytesIO(), H1),
    "savez": lambda: cp.savez(io.BytesIO(), H1),
    "savez_compressed": lambda: cp.savez_compressed(io.BytesIO(), H1),
    "savetxt": lambda: cp.savetxt(io.StringIO(), H1),
    "cuda.runtime.runtimeGetVersion": lambda: cp.cuda.runtime.runtimeGetVersion(),
    "cuda.get_local_runtime_version": lambda: cp.cuda.get_local_runtime_version(),
    "cuda.get_allocator": lambda: cp.cuda.get_allocator(),
    "cuda.set_allocator": lambda: cp.cuda.set_allocator(cp.get_default_memory_pool().malloc),
    "cuda.using_allocator": _use_allocator,
    # A pool of its own, empty until used; an allocator of Python functions calls them only on malloc.
    "cuda.MemoryPool": lambda: cp.cuda.MemoryPool().used_bytes(),
    "cuda.PythonFunctionAllocator": lambda: cp.cuda.PythonFunctionAllocator(
        lambda n, d: 0, lambda p, d: None
    ),
    "cuda.get_pinned_memory_allocator": lambda: cp.cuda.get_pinned_memory_allocator(),
    "cuda.set_pinned_memory_allocator": lambda: cp.cuda.set_pinned_memory_allocator(None),
    "cuda.UnownedMemory": lambda: cp.cuda.UnownedMemory(0, 0, None, 0),
    # CuPy's (mem, offset) constructor and pointer arithmetic.
    "cuda.MemoryPointer": lambda: cp.cuda.MemoryPointer(cp.cuda.UnownedMemory(0, 0, None, 0), 0) + 8,
    "cuda.BaseMemory": lambda: cp.cuda.BaseMemory(),
    "cuda.ExternalStream": lambda: cp.cuda.ExternalStream(1),  # the legacy null stream, as protocols spell it
    "cuda.memoize": lambda: cp.cuda.memoize()(abs),
    "cuda.clear_memo": lambda: cp.cuda.clear_memo(),
    "memoize": lambda: cp.memoize(True)(abs),
    "clear_memo": lambda: cp.clear_memo(),
    "errstate": lambda: cp.errstate(all="ignore"),
    "allow_synchronize": lambda: cp.allow_synchronize(True).__enter__(),
    "who": lambda: cp.who({}),
}
OPTIONAL = {"show_config", "bfloat16"}  # public where present (bfloat16: with ml_dtypes)


def _resolve(qualname):
    module, _, name = qualname.rpartition(".")
    return getattr(MODULES[module], name)


def _ufuncs():
    """Qualified names of the ufuncs of the walked modules."""
    return sorted(
        f"{prefix}.{n}" if prefix else n
        for prefix, module in MODULES.items()
        for n in dir(module)
        if isinstance(getattr(module, n), cp.ufunc) and n not in UFUNC_EXCEPTIONS and not n.startswith("_")
    )


def public_callables():
    """Qualified names (relative to cuarray) of every public callable of the walked modules, lazy ones included."""
    names = set()
    for prefix, module in MODULES.items():
        listed = set(dir(module)) | (set(cp._LAZY) if module is cp else set())
        for n in listed:
            if n.startswith("_"):
                continue
            if not hasattr(
                module, n
            ):  # an optional name whose package is missing (bfloat16 without ml_dtypes)
                continue
            obj = getattr(module, n)
            if isinstance(obj, types.ModuleType) or not callable(obj):
                continue
            if isinstance(obj, type) and issubclass(obj, np.generic) and n != "bfloat16":
                continue  # NumPy's scalar types, re-exported
            names.add(f"{prefix}.{n}" if prefix else n)
    return names


def test_every_public_callable_is_in_one_table():
    tables = [
        set(NEEDS_DEVICE),
        set(TAKES_DEVICE_ARRAYS) | set(_ARRAY_CALLS),
        set(NO_DEVICE_NEEDED),
        set(_ufuncs()),
    ]
    listed = set().union(*tables)
    assert sum(len(t) for t in tables) == len(listed), "a name is in two tables"
    public = public_callables()
    missing = sorted(public - listed)
    assert not missing, (
        "public callables with no row in tests/test_no_gpu.py (add each to NEEDS_DEVICE, "
        f"_ARRAY_CALLS or NO_DEVICE_NEEDED): {missing}"
    )
    stale = sorted(listed - public - OPTIONAL)
    assert not stale, f"rows for names that are not public (any more): {stale}"


def _ufunc_with_scalars(name):
    f = _resolve(name)
    return f(*[3] * f.nin)


@pytest.mark.parametrize("name", sorted(NEEDS_DEVICE))
def test_needs_device_raises_cuda_runtime_error(name):
    for _ in range(2):  # asking again gives the same answer, not a crash or another error
        with pytest.raises(cp.cuda.CUDARuntimeError, match=NO_DEVICE):
            NEEDS_DEVICE[name]()


@pytest.mark.parametrize("name", _ufuncs())
def test_ufunc_needs_a_device_for_scalars_and_rejects_host_arrays(name):
    with pytest.raises(cp.cuda.CUDARuntimeError, match=NO_DEVICE):
        _ufunc_with_scalars(name)
    f = _resolve(name)
    with pytest.raises(TypeError, match=_T[1]):
        f(*[H1] * f.nin)


def test_the_no_device_message_is_the_same_everywhere():
    calls = list(NEEDS_DEVICE.values()) + [lambda n=n: _ufunc_with_scalars(n) for n in _ufuncs()]
    messages = set()
    for call in calls:
        with pytest.raises(cp.cuda.CUDARuntimeError) as ei:
            call()
        messages.add(str(ei.value))
    assert len(messages) == 1, messages
    (message,) = messages
    assert re.search(NO_DEVICE, message) and "Traceback" not in message


@pytest.mark.parametrize("name", sorted(set(TAKES_DEVICE_ARRAYS) | set(_ARRAY_CALLS)))
def test_takes_device_arrays_rejects_host_arrays(name):
    if name in TAKES_DEVICE_ARRAYS:
        call, (exc, match) = TAKES_DEVICE_ARRAYS[name]
    else:
        f = _resolve(name)
        call, (exc, match) = (lambda: _ARRAY_CALLS[name](f)), _T
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("name", sorted(NO_DEVICE_NEEDED))
def test_needs_no_device(name):
    if name in OPTIONAL and not hasattr(cp, name):
        pytest.skip(f"cuarray.{name} does not exist in this build")
    with contextlib.redirect_stdout(io.StringIO()):
        NO_DEVICE_NEEDED[name]()


def test_is_available_is_false():
    assert cp.cuda.is_available() is False
    assert cp.cuda.is_available() is False  # and again, after the first answer was cached


@pytest.mark.skipif(not hasattr(cp, "show_config"), reason="cuarray.show_config does not exist in this build")
def test_show_config_says_there_is_no_device():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cp.show_config()
    assert re.search(NO_DEVICE, out.getvalue()), out.getvalue()


def test_no_crash_in_fresh_process():
    # The first device call happens in a fresh process, before anything else touched CUDA.
    code = (
        "import cuarray as cp\n"
        "assert cp.cuda.is_available() is False\n"
        "for f in (lambda: cp.zeros(3), lambda: cp.cuda.Device(0).use(),\n"
        "          lambda: cp.cuda.runtime.getDeviceCount(), lambda: cp.arange(5)):\n"
        "    try:\n"
        "        f()\n"
        "    except cp.cuda.CUDARuntimeError as e:\n"
        "        print('raised:', e)\n"
        "    else:\n"
        "        raise SystemExit('no error raised')\n"
        "print('survived')\n"
    )
    proc = run_python(code=code, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.count("raised:") == 4
    assert "survived" in proc.stdout


def test_main_says_no_gpu_in_one_line_and_exits_1():
    proc = run_python("-m", "cuarray", timeout=120)
    assert proc.returncode == 1, describe(proc)
    lines = [ln for ln in (proc.stdout + proc.stderr).splitlines() if ln.strip()]
    assert len(lines) == 1, describe(proc)
    assert "Traceback" not in lines[0]
    assert any(w in lines[0].lower() for w in ("gpu", "cuda", "device")), lines[0]


def test_ndarray_methods_called_as_functions_check_their_array():
    # x[k] and len(x) run C slots (Note [Attribute slots]); the methods called as functions check `self`.
    calls = [
        lambda: cp.ndarray.__getitem__(object(), 0),
        lambda: cp.ndarray.__setitem__(3, 0, 1),
        lambda: cp.ndarray.__len__("abc"),
    ]
    for call in calls:
        with pytest.raises(TypeError, match="needs a cuarray.ndarray"):
            call()
    for name in ("shape", "dtype", "ndim", "size"):
        assert type(vars(cp.ndarray)[name]).__name__ == "getset_descriptor" and vars(cp.ndarray)[name].__doc__


class _Sub(cp.ndarray):
    pass


@pytest.mark.parametrize("cls", [cp.ndarray, _Sub])
@pytest.mark.parametrize(
    "use",
    [
        lambda x: x[0],
        lambda x: x.__setitem__(0, 1),
        lambda x: len(x),
        lambda x: x.shape,
        lambda x: x.strides,
        lambda x: x.dtype,
        lambda x: x.size,
        lambda x: x.nbytes,
        lambda x: x + 1,
        lambda x: x**2,
        lambda x: cp.add(x, 1),
        lambda x: x.astype(int),
        lambda x: x.reshape(1),
        lambda x: x.T,
        lambda x: x.get(),
        lambda x: x.__cuda_array_interface__,
    ],
)
def test_an_array_never_initialised_raises_type_error(cls, use):
    # ndarray.__new__ without __init__ has no value (Note [Uninitialised arrays]): every read refuses it, where
    # it used to read unconstructed memory (a garbage shape, or a crash).
    x = cls.__new__(cls)
    with pytest.raises(
        TypeError, match=f"this {cls.__name__} was made by ndarray.__new__ and never initialised"
    ):
        use(x)


def test_a_pooled_block_freed_by_two_threads_at_once_goes_back_once():
    # Two threads freeing one block must not both hand its chunk back (the pool would give the memory to two later
    # allocations). Reading the chunk is slowed here, so that without the take lock both threads would read it.
    import threading
    import time
    import weakref

    from cuarray.cuda import _arena

    class Pool:
        def __init__(self):
            self.freed = []

        def _free(self, chunk):
            self.freed.append(chunk)

    class SlowBlock(_arena.PooledBlock):
        __slots__ = ("__weakref__", "_c", "_pool", "ptr", "size")

        @property
        def _chunk(self):
            value = self._c
            time.sleep(0.05)
            return value

        @_chunk.setter
        def _chunk(self, value):
            self._c = value

    pool = Pool()
    block = SlowBlock()
    block._c, block._pool = "chunk", weakref.ref(pool)
    threads = [threading.Thread(target=block.free) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    block.free()
    assert pool.freed == ["chunk"]


@pytest.mark.parametrize(
    "call",
    [
        lambda m: cp.add(m, 1),
        lambda m: cp.sum(m),
        lambda m: cp.matmul(m, m),
        lambda m: cp.ndarray.__getitem__(m, 0),
        lambda m: cp.ndarray.__len__(m),
    ],
)
def test_an_object_claiming_the_ndarray_class_is_no_array(call):
    # A Mock(spec=ndarray) passes isinstance() through its __class__, but holds no array: the core checks the type
    # itself, and refuses the object with a TypeError (it was read as an array, a RuntimeError or worse).
    from unittest import mock

    m = mock.Mock(spec=cp.ndarray)
    assert isinstance(m, cp.ndarray)
    with pytest.raises(TypeError):
        call(m)
