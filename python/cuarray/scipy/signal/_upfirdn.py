"""SciPy 1.17's polyphase filtering on device arrays: upfirdn (every extension mode of SciPy's), resample_poly
(`window` as name, tuple or coefficients; every `padtype`) and decimate ('iir', 'fir' or a dlti-like system,
`zero_phase`, `n`). As CuPy's, they take the signal through cupy.asarray: a host array or list is copied to the
device. Filter coefficients may be device arrays, host arrays or Python sequences.

Note [upfirdn as SciPy rounds]
upfirdn runs SciPy's loop (_upfirdn_apply.pyx's _apply_impl and its _extend_left and _extend_right) with one
thread per output sample: the thread finds the sample's input position and filter phase, x_idx = n down // up
and t = n down % up, which SciPy reaches by stepping, and sums the same products in the same order, starting
from zero (a left edge in mode 'constant' with a zero cval skipped, as SciPy skips it; everything else, the
left and right extensions included, added). Each product and sum is rounded on its own (-fmad=false, as in
_lfilter.py's Note [Filtering as SciPy rounds]) and complex values are (real, imaginary) pairs multiplied as
C99's (ac - bd) + (ad + bc)i, so that the values are SciPy's bit for bit for finite inputs. The extensions'
integer factors (an index times a slope) are converted to the value's type first, as C converts them.

Note [Extensions of short signals]
SciPy's 'reflect' and 'antireflect' extensions take a remainder modulo 2 (len(x) - 1), which is zero for a
one-sample signal (the process dies of SIGFPE), and 'smooth' reads x[1] of it (memory past the signal); every
mode but 'constant' reads an empty signal's memory. Those calls raise ValueError here where the filter reaches
past the signal (more taps than `up`); 'line' of one sample divides 0 by 0, NaN, as SciPy's does.
"""

import math
import operator

import numpy

import cuarray as cp
from cuarray.scipy.signal._filtfilt import filtfilt, sosfiltfilt
from cuarray.scipy.signal._fir_design import firwin
from cuarray.scipy.signal._iir_design import _cheby1
from cuarray.scipy.signal._iir_forms import _zpk2sos, host
from cuarray.scipy.signal._kernel_table import PAIR_COMPLEX, KernelTable
from cuarray.scipy.signal._lfilter_past import lfilter, sosfilt

__all__ = ["decimate", "resample_poly", "upfirdn"]

_MODES = (
    "constant",
    "wrap",
    "edge",
    "smooth",
    "symmetric",
    "reflect",
    "antisymmetric",
    "antireflect",
    "line",
)
# SciPy's numbers for them (its MODE enum), which the kernel's switch uses.
_MODE_ENUM = {
    "constant": 0,
    "symmetric": 1,
    "edge": 2,
    "smooth": 3,
    "wrap": 4,
    "reflect": 5,
    "antisymmetric": 6,
    "antireflect": 7,
    "line": 8,
}
# The fewest samples a mode's extension reads without failing (Note [Extensions of short signals]).
_MIN_SAMPLES = {"smooth": 2, "reflect": 2, "antireflect": 2}

_PREAMBLE = (
    PAIR_COMPLEX
    + r"""
// A value times, or over, an integer that C converts to the value's type.
template <typename T> __device__ __forceinline__ T ufd_times(T a, long long k) { return a * static_cast<T>(k); }
template <typename T>
__device__ __forceinline__ pair_complex<T> ufd_times(pair_complex<T> a, long long k) {
  return {a.re * static_cast<T>(k), a.im * static_cast<T>(k)};
}
template <typename T> __device__ __forceinline__ T ufd_over(T a, long long k) { return a / static_cast<T>(k); }
template <typename T>
__device__ __forceinline__ pair_complex<T> ufd_over(pair_complex<T> a, long long k) {
  return {a.re / static_cast<T>(k), a.im / static_cast<T>(k)};
}
// A contiguous row of real values, or of complex values stored as (real, imaginary) pairs.
template <typename T> struct ufd_real {
  const T* p;
  __device__ __forceinline__ T operator[](long long k) const { return p[k]; }
};
template <typename T> struct ufd_pairs {
  const T* p;
  __device__ __forceinline__ pair_complex<T> operator[](long long k) const { return {p[2 * k], p[2 * k + 1]}; }
};

// SciPy's _extend_left: the value at idx < 0 of the n samples x extended by `mode` (its MODE numbers).
template <typename V, typename R>
__device__ V ufd_left(const R& x, long long idx, long long n, int mode, V cval) {
  switch (mode) {
    case 1:  // symmetric
      if (-idx < n) return x[-idx - 1];
      idx = (-idx - 1) % (2 * n);
      return idx < n ? x[idx] : x[n - 1 - (idx - n)];
    case 5:  // reflect
      if (-idx < n - 1) return x[-idx];
      idx = (-idx - 1) % (2 * (n - 1));
      return idx < n - 1 ? x[idx + 1] : x[n - 2 - (idx - (n - 1))];
    case 4:  // wrap
      idx = (-idx - 1) % n;
      return x[n - idx - 1];
    case 3:  // smooth
      return x[0] + ufd_times(x[1] - x[0], idx);
    case 8:  // line
      return x[0] + ufd_times(ufd_over(x[n - 1] - x[0], n - 1), idx);
    case 6:  // antisymmetric
      if (-idx < n) return -x[-idx - 1];
      idx = (-idx - 1) % (2 * n);
      return idx < n ? -x[idx] : x[n - 1 - (idx - n)];
    case 7: {  // antireflect
      if (-idx < n) return x[0] - (x[-idx] - x[0]);
      const V le = x[0] + ufd_times(x[0] - x[n - 1], (-idx - 1) / (n - 1));
      idx = (-idx - 1) % (2 * (n - 1));
      return idx < n - 1 ? le - (x[idx + 1] - x[0]) : le - (x[n - 1] - x[n - 2 - (idx - (n - 1))]);
    }
    case 2:  // edge
      return x[0];
    default:  // constant
      return cval;
  }
}

// SciPy's _extend_right: the value at idx >= n.
template <typename V, typename R>
__device__ V ufd_right(const R& x, long long idx, long long n, int mode, V cval) {
  switch (mode) {
    case 1:  // symmetric
      if (idx < 2 * n) return x[n - 1 - (idx - n)];
      idx = idx % (2 * n);
      return idx < n ? x[idx] : x[n - 1 - (idx - n)];
    case 5:  // reflect
      if (idx < 2 * n - 1) return x[n - 2 - (idx - n)];
      idx = idx % (2 * (n - 1));
      return idx < n - 1 ? x[idx] : x[n - 1 - (idx - (n - 1))];
    case 4:  // wrap
      return x[idx % n];
    case 3:  // smooth
      return x[n - 1] + ufd_times(x[n - 1] - x[n - 2], idx - n + 1);
    case 8:  // line
      return x[n - 1] + ufd_times(ufd_over(x[n - 1] - x[0], n - 1), idx - n + 1);
    case 2:  // edge
      return x[n - 1];
    case 6:  // antisymmetric
      if (idx < 2 * n) return -x[n - 1 - (idx - n)];
      idx = idx % (2 * n);
      return idx < n ? x[idx] : -x[n - 1 - (idx - n)];
    case 7: {  // antireflect
      if (idx < 2 * n - 1) return x[n - 1] - (x[n - 2 - (idx - n)] - x[n - 1]);
      const V re = x[n - 1] + ufd_times(x[n - 1] - x[0], idx / (n - 1) - 1);
      idx = idx % (2 * (n - 1));
      return idx < n - 1 ? re + (x[idx] - x[0]) : re + (x[n - 1] - x[n - 1 - (idx - (n - 1))]);
    }
    default:  // constant
      return cval;
  }
}

// Output sample `out` of SciPy's _apply_impl (Note [upfirdn as SciPy rounds]): h holds the filter's phases, each
// of `hpp` taps, flipped (_pad_h's layout).
template <typename V, typename R, typename H>
__device__ V ufd_sample(const R& x, const H& h, long long n, long long hpp, long long up, long long down,
                        long long out, int mode, V cval, bool zpad) {
  const long long x_idx = out * down / up;
  long long h_idx = out * down % up * hpp;
  long long k = x_idx - hpp + 1;
  V acc = V();
  if (x_idx < n) {
    if (k < 0) {
      if (zpad) {
        h_idx -= k;
      } else {
        for (; k < 0; ++k) acc = acc + ufd_left(x, k, n, mode, cval) * h[h_idx++];
      }
      k = 0;
    }
    for (; k <= x_idx; ++k) acc = acc + x[k] * h[h_idx++];
  } else {
    for (; k <= x_idx; ++k) {
      const V v = k >= n ? ufd_right(x, k, n, mode, cval) : (k < 0 ? ufd_left(x, k, n, mode, cval) : x[k]);
      acc = acc + v * h[h_idx++];
    }
  }
  return acc;
}
"""
)
_PARAMS = "raw T x, raw T h, int64 n, int64 hpp, int64 up, int64 down, int64 n_out, int32 mode, int32 zpad"
_SOURCES = {
    "cuarray_upfirdn": (
        _PARAMS + ", T cval",
        "raw T y",
        """
        const long long s = i / n_out;
        const ufd_real<T> row{&x[0] + s * n};
        y[i] = ufd_sample(row, ufd_real<T>{&h[0]}, n, hpp, up, down, i - s * n_out, mode, cval, zpad != 0);
        """,
    ),
    # Complex signals, filters and outputs as (real, imaginary) pairs of T; the loop runs over the samples.
    "cuarray_upfirdn_complex": (
        _PARAMS + ", T cre, T cim",
        "raw T y",
        """
        const long long s = i / n_out;
        const ufd_pairs<T> row{&x[0] + 2 * s * n};
        const pair_complex<T> v = ufd_sample(row, ufd_pairs<T>{&h[0]}, n, hpp, up, down, i - s * n_out, mode,
                                            pair_complex<T>{cre, cim}, zpad != 0);
        y[2 * i] = v.re;
        y[2 * i + 1] = v.im;
        """,
    ),
}
_OPTIONS = ("-fmad=false",)  # Note [upfirdn as SciPy rounds]
_kernel = KernelTable(_SOURCES, _OPTIONS, _PREAMBLE)


def _output_len(len_h, in_len, up, down):
    """The number of output samples: ceil(((in_len - 1) up + len_h) / down), in integers (SciPy's)."""
    return (((in_len - 1) * up + len_h) - 1) // down + 1


def _pad_h(h, up, xp):
    """The filter's phases, each flipped, one after the other (SciPy's _pad_h): h padded with zeros to a multiple
    of `up` taps, read as a (taps / up, up) matrix, transposed and reversed along its rows."""
    h_full = xp.zeros(len(h) + (-len(h) % up), h.dtype)
    h_full[: len(h)] = h
    return xp.ascontiguousarray(h_full.reshape(-1, up).T[:, ::-1]).reshape(-1)


def _cval(cval, dtype):
    """cval in the output's type, as SciPy's Cython argument takes it (a complex one for a real type refused)."""
    if cval is None or isinstance(cval, (str, bytes)) or (dtype.kind != "c" and numpy.iscomplexobj(cval)):
        raise TypeError(f"must be real number, not {type(cval).__name__}")
    return dtype.type(cval)


def upfirdn(h, x, up=1, down=1, axis=-1, mode="constant", cval=0):
    """`x` upsampled by `up` (zeros inserted), filtered with the FIR filter `h` and downsampled by `down`, along
    `axis`; values past the ends of `x` come from the extension `mode` (SciPy's, `cval` for 'constant'). The
    result type is that of h, x and float32."""
    if isinstance(h, cp.ndarray):
        xp = cp
    else:
        h, xp = numpy.asarray(h), numpy
    if h.ndim != 1 or h.size == 0:
        raise ValueError("h must be 1-D with non-zero length")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("Both up and down must be >= 1")
    x = cp.asarray(x)
    dtype = numpy.result_type(h.dtype, x.dtype, numpy.float32)
    n = x.shape[axis]  # SciPy's IndexError for an axis out of range
    n_out = _output_len(len(h), n, up, down)
    if n_out < 0:
        raise ValueError("negative dimensions are not allowed")
    axis %= x.ndim
    mode = mode.lower()
    if mode not in _MODE_ENUM:
        raise ValueError(f"Unknown mode: {mode}")
    cval = _cval(cval, dtype)
    taps = _pad_h(h.astype(dtype), up, xp)
    hpp = len(taps) // up  # taps per phase
    if mode != "constant" and hpp > 1 and n < _MIN_SAMPLES.get(mode, 1):  # Note [Extensions of short signals]
        raise ValueError(f"mode '{mode}' cannot extend a signal of {n} samples")
    rows = cp.ascontiguousarray(cp.moveaxis(x, axis, -1), dtype=dtype)
    shape = rows.shape[:-1]
    y = cp.empty(shape + (n_out,), dtype)
    if y.size:
        real = numpy.dtype(dtype.char.lower())
        pairs = dtype.kind == "c"

        def flat(a):  # complex values as (real, imaginary) pairs: a view of their memory
            return a.reshape(-1).view(real) if pairs else a.reshape(-1)

        zpad = int(mode == "constant" and cval == 0)
        scalars = (cval.real, cval.imag) if pairs else (cval,)
        name = "cuarray_upfirdn_complex" if pairs else "cuarray_upfirdn"
        signal = flat(rows) if n else cp.zeros(2, real)  # an empty signal is never read: a stand-in
        args = (signal, flat(cp.asarray(taps)), n, hpp, up, down, n_out, _MODE_ENUM[mode], zpad)
        _kernel(name)(*args, *scalars, flat(y), size=y.size)
    return cp.ascontiguousarray(cp.moveaxis(y, -1, axis))


def resample_poly(x, up, down, axis=0, window=("kaiser", 5.0), padtype="constant", cval=None):
    """`x` resampled along `axis` by up / down: upsampled, filtered with a linear-phase low-pass FIR filter
    (designed with `window`, or given as coefficients) and downsampled, with the signal's ends extended by
    `padtype` (an upfirdn mode, or 'mean', 'median', 'minimum', 'maximum': that value taken off first)."""
    if up != int(up):
        raise ValueError("up must be an integer")
    if down != int(down):
        raise ValueError("down must be an integer")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("up and down must be >= 1")
    if cval is not None and padtype != "constant":
        raise ValueError("cval has no effect when padtype is ", padtype)
    x = cp.asarray(x)
    g = math.gcd(up, down)
    up //= g
    down //= g
    if up == down == 1:
        return x.copy(order="K")  # SciPy's asarray(x, copy=True)
    n_in = x.shape[axis]
    n_out = n_in * up
    n_out = n_out // down + bool(n_out % down)

    if isinstance(window, (list, numpy.ndarray, cp.ndarray)):
        h = cp.array(window, copy=True)
        if h.ndim > 1:
            raise ValueError("window must be 1-D")
        half_len = (h.size - 1) // 2
    else:  # a linear-phase low-pass filter, in the signal's precision where that is floating
        max_rate = max(up, down)
        half_len = 10 * max_rate
        h = firwin(2 * half_len + 1, 1.0 / max_rate, window=window)
        if x.dtype.kind in "fc":
            h = h.astype(x.dtype)
    h *= up

    # Pad the filter with zeros so that the output samples fall on its centre.
    n_pre_pad = down - half_len % down
    n_post_pad = 0
    n_pre_remove = (half_len + n_pre_pad) // down
    while _output_len(h.shape[0] + n_pre_pad + n_post_pad, n_in, up, down) < n_out + n_pre_remove:
        n_post_pad += 1
    h = cp.concatenate((cp.zeros(n_pre_pad, h.dtype), h, cp.zeros(n_post_pad, h.dtype)))

    backgrounds = {"mean": cp.mean, "median": cp.median, "minimum": cp.min, "maximum": cp.max}
    kwargs = {"mode": "constant", "cval": 0}
    if padtype in backgrounds:
        background = backgrounds[padtype](x, axis=axis, keepdims=True)
        x = x - background
    elif padtype in _MODES:
        kwargs = {"mode": padtype}
        if padtype == "constant":
            kwargs["cval"] = 0 if cval is None else cval
    else:
        raise ValueError("padtype must be one of: maximum, mean, median, minimum, " + ", ".join(_MODES))

    y = upfirdn(h, x, up, down, axis=axis, **kwargs)
    keep = [slice(None)] * x.ndim
    keep[axis] = slice(n_pre_remove, n_pre_remove + n_out)
    y_keep = y[tuple(keep)]
    if padtype in backgrounds:
        y_keep += background
    return y_keep


# Note [decimate's systems]
# SciPy's decimate also takes a dlti instance as its filter. cuarray has no dlti of its own; an object with
# dlti's conversions (_as_zpk and _as_tf, and a `dt`, which SciPy's continuous lti lacks) is taken as one, so
# SciPy's dlti objects work, their coefficients read on the host.
def _is_dlti(ftype):
    return all(hasattr(ftype, a) for a in ("_as_zpk", "_as_tf")) and getattr(ftype, "dt", None) is not None


def decimate(x, q, n=None, ftype="iir", axis=-1, zero_phase=True):
    """`x` downsampled by `q` along `axis` after an anti-aliasing filter: an order-`n` (8) Chebyshev type I IIR
    filter ('iir'), an FIR filter of n + 1 (20 q + 1) taps ('fir'), or a dlti system (Note [decimate's
    systems]); run forwards and backwards (zero_phase), or forwards only."""
    q = operator.index(q)
    if n is not None:
        n = operator.index(n)
    x = cp.asarray(x)
    result_type = x.dtype
    if result_type.kind not in "fc" or result_type == numpy.float16:
        result_type = numpy.dtype(numpy.float64)  # integers and float16 upcast to float64, as SciPy's

    if isinstance(ftype, str) and ftype == "fir":
        if n is None:
            n = 2 * 10 * q  # half_len = 10 q: a reasonable cutoff for the sinc-like response
        b = firwin(n + 1, 1.0 / q, window="hamming").astype(result_type)  # b / a with a = 1: b itself
    elif isinstance(ftype, str) and ftype == "iir":
        iir_use_sos = True
        if n is None:
            n = 8
        sos = _cheby1(n, 0.05, 0.8 / q, output="sos").astype(result_type)
    elif _is_dlti(ftype):
        system = ftype._as_zpk()
        poles = numpy.asarray(host(system.poles))
        if poles.shape[0] == 0:  # FIR
            system = ftype._as_tf()
            b = numpy.asarray(host(system.num)) / numpy.asarray(host(system.den))
            ftype = "fir"
        elif numpy.iscomplex(poles).any() or numpy.iscomplex(host(system.gain)):
            iir_use_sos = False  # sosfilt and sosfiltfilt take no complex coefficients
            system = ftype._as_tf()
            b, a = host(system.num), host(system.den)
        else:
            iir_use_sos = True
            sos = _zpk2sos(host(system.zeros), poles, host(system.gain)).astype(result_type)
    else:
        raise ValueError("invalid ftype")

    sl = [slice(None)] * x.ndim
    if isinstance(ftype, str) and ftype == "fir":
        if zero_phase:
            y = resample_poly(x, 1, q, axis=axis, window=b)
        else:
            # upfirdn computes only the samples kept: q times fewer than lfilter would
            n_out = x.shape[axis] // q + bool(x.shape[axis] % q)
            y = upfirdn(b, x, up=1, down=q, axis=axis)
            sl[axis] = slice(None, n_out, None)
    else:
        if zero_phase:
            y = sosfiltfilt(sos, x, axis=axis) if iir_use_sos else filtfilt(b, a, x, axis=axis)
        else:
            y = sosfilt(sos, x, axis=axis) if iir_use_sos else lfilter(b, a, x, axis=axis)
        sl[axis] = slice(None, None, q)
    return y[tuple(sl)]
