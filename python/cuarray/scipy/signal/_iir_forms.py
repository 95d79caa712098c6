"""SciPy's conversions between a filter's forms (zpk2tf, tf2zpk, zpk2sos, tf2sos, sos2tf, sos2zpk) and its frequency
response (freqz, freqz_sos / sosfreqz), as host maths on NumPy arrays: the private `_name` functions here take and
return host arrays, and `on_host` makes each public function from one (Note [Filter design on the host])."""

import functools
import math
import operator
import warnings

import numpy

from cuarray._ndarray import ndarray
from cuarray._transfer import asarray as _to_device

# Note [Filter design on the host]
# A filter's coefficients come from a few scalars (an order, one or two frequencies, ripples), and turning them into
# another form is a chain of small serial steps (polynomial roots, sorting and pairing poles with zeros): work for
# the host, in float64 with NumPy, as SciPy does it, so that every zero, pole, section and gain comes out in SciPy's
# order and value and a later filtering gives SciPy's output. The public functions read device arguments back
# (coefficient arrays are a few numbers; host arrays and Python sequences are taken as they are, as SciPy takes
# them) and return device arrays, as CuPy's do; a gain `k` stays a host scalar, the float SciPy and CuPy document,
# which every later conversion reads on the host anyway.


class BadCoefficients(UserWarning):
    """SciPy's warning about badly conditioned filter coefficients (a numerator's leading values near zero)."""


def host(a):
    """A device array's values on the host; anything else as it is (NumPy converts it where it is read)."""
    return a.get() if isinstance(a, ndarray) else a


def device_input(a):
    """A device array as it is; anything else (a Python sequence or scalar, a host array) copied over, as CuPy's
    functions that pass an argument through cupy.asarray take it."""
    return a if isinstance(a, ndarray) else _to_device(a)


def on_device(result):
    """`result` with its NumPy arrays moved to the device (tuples element by element; scalars stay)."""
    if isinstance(result, tuple):
        return tuple(on_device(r) for r in result)
    return _to_device(result) if isinstance(result, numpy.ndarray) else result


def on_host(host_fn, name):
    """The public function `name`: `host_fn` on the host values of its arguments, with device results."""

    @functools.wraps(host_fn)
    def public(*args, **kwargs):
        args = [host(a) for a in args]
        kwargs = {key: host(v) for key, v in kwargs.items()}
        return on_device(host_fn(*args, **kwargs))

    public.__name__ = public.__qualname__ = name
    return public


def atleast_1d(a):
    return numpy.atleast_1d(numpy.asarray(a))


def validate_fs(fs, allow_none=True):
    """SciPy's check of a sampling frequency: None (where allowed) or a scalar, as a float."""
    if fs is None:
        if not allow_none:
            raise ValueError("Sampling frequency can not be none.")
        return None
    if not numpy.isscalar(fs):
        raise ValueError("Sampling frequency fs must be a single scalar.")
    return float(fs)


def _poly(zeros):
    """The monic polynomial with roots `zeros` (1-D, NumPy's poly): 1.0 (0-d) for none, real when the roots come in
    conjugate pairs."""
    zeros = atleast_1d(zeros)
    if zeros.shape[0] == 0:
        return numpy.asarray(1.0, dtype=numpy.real(zeros).dtype)
    a = numpy.ones((1,), dtype=zeros.dtype)
    for zero in zeros:
        a = numpy.convolve(a, numpy.stack((numpy.ones_like(zero), -zero)), mode="full")
    if a.dtype.kind == "c":
        roots = numpy.asarray(zeros, dtype=numpy.complex128)
        if numpy.all(numpy.sort(roots.imag) == numpy.sort(numpy.conj(roots).imag)):
            a = numpy.real(a).copy()
    return a


def _roots(coef):
    return numpy.asarray([], dtype=coef.dtype) if coef.shape[0] < 2 else numpy.roots(coef)


def _zpk2tf(z, p, k):
    """Numerator and denominator from zeros, poles and gain (a 2-D `z` gives one numerator per row)."""
    z, p = numpy.asarray(z), numpy.asarray(p)
    k = numpy.asarray(k, dtype=numpy.result_type(numpy.real(z), numpy.real(p), k))
    if k.dtype.kind in "iub":
        k = k.astype(numpy.float64)
    z, k = numpy.atleast_1d(z), numpy.atleast_1d(k)
    if z.ndim > 1:
        first = _poly(z[0])
        b = numpy.empty((z.shape[0], z.shape[1] + 1), dtype=first.dtype)
        gains = [k[0]] * z.shape[0] if k.shape[0] == 1 else k
        for i in range(z.shape[0]):
            b[i] = numpy.asarray(gains[i], dtype=b.dtype) * _poly(z[i])
    else:
        b = numpy.multiply(k, _poly(z))
    return b, numpy.atleast_1d(_poly(p))


def _align_nums(nums):
    """Numerators as one array, shorter rows of a ragged list padded with leading zeros."""
    try:
        out = numpy.asarray(nums)
        if out.dtype.kind not in "biufc":
            raise ValueError("dtype of numerator is non-numeric")
        return out
    except ValueError:
        rows = [atleast_1d(n) for n in nums]
        out = numpy.zeros((len(rows), max(r.size for r in rows)))
        for i, r in enumerate(rows):
            out[i, -r.size :] = r
        return out


def _normalize(b, a):
    """SciPy's normalize: leading zeros of the denominator trimmed, both divided by its first value, and the
    numerator's leading columns that are all (nearly) zero trimmed with a BadCoefficients warning."""
    den = atleast_1d(a)
    num = numpy.atleast_2d(_align_nums(b))
    if den.ndim != 1:
        raise ValueError("Denominator polynomial must be rank-1 array.")
    if num.ndim > 2:
        raise ValueError("Numerator polynomial must be rank-1 or rank-2 array.")
    if numpy.all(den == 0):
        raise ValueError("Denominator must have at least on nonzero element.")
    den = numpy.trim_zeros(den, "f")
    num, den = num / den[0], den / den[0]
    leading = 0
    for j in range(num.shape[-1]):
        if not numpy.all(numpy.abs(num[:, j]) <= 1e-14):
            break
        leading += 1
    if leading:
        warnings.warn(
            "Badly conditioned filter coefficients (numerator): the results may be meaningless",
            BadCoefficients,
            stacklevel=3,
        )
        num = num[:, min(leading, num.shape[1] - 1) :]
    return (num[0, :] if num.shape[0] == 1 else num), den


def _tf2zpk(b, a):
    """Zeros, poles and gain of the transfer function b/a (positive powers)."""
    b, a = _normalize(b, a)
    dtype = numpy.result_type(a, b)
    if dtype.kind in "biu":
        dtype = numpy.dtype(numpy.float64)
    a, b = a.astype(dtype, copy=False), b.astype(dtype, copy=False)
    k = b[0]
    b = b / b[0]
    return _roots(b), _roots(a), k


def _sos2tf(sos):
    """One transfer function from second-order sections: the products of their numerators and denominators."""
    sos = numpy.asarray(sos)
    dtype = numpy.float64 if sos.dtype.kind in "iu" else sos.dtype
    b = numpy.asarray([1], dtype=dtype)
    a = numpy.asarray([1], dtype=dtype)
    for section in sos:
        b = numpy.convolve(b, _poly1d(section[:3]))
        a = numpy.convolve(a, _poly1d(section[3:]))
    return b, a


def _poly1d(c):
    c = numpy.trim_zeros(atleast_1d(c), "f")
    return c if c.shape[0] else numpy.asarray([0], dtype=c.dtype)


def _sos2zpk(sos):
    """Zeros, poles and gain of second-order sections: two zeros and two poles per section (zeros where the
    section is of lower order)."""
    sos = numpy.asarray(sos)
    n = sos.shape[0]
    z = numpy.zeros(2 * n, dtype=numpy.complex128)
    p = numpy.zeros(2 * n, dtype=numpy.complex128)
    k = 1.0
    for s in range(n):
        zs, ps, ks = _tf2zpk(sos[s, :3], sos[s, 3:])
        z[2 * s : 2 * s + zs.shape[0]] = zs
        p[2 * s : 2 * s + ps.shape[0]] = ps
        k *= ks
    return z, p, k


def cplxreal(z, tol=None):
    """SciPy's _cplxreal: the complex values of `z` one per conjugate pair (positive imaginary part, sorted by
    real part, then by imaginary part within a run of equal real parts), and the real values sorted."""
    z = atleast_1d(z)
    if z.size == 0:
        return z, z
    if z.ndim != 1:
        raise ValueError("_cplxreal only accepts 1-D input")
    if tol is None:
        tol = 100 * numpy.finfo((1.0 * z).dtype).eps
    z = z[numpy.lexsort((abs(z.imag), z.real))]
    real = abs(z.imag) <= tol * abs(z)
    zr = z[real].real
    if len(zr) == len(z):
        return numpy.array([]), zr
    z = z[~real]
    zp, zn = z[z.imag > 0], z[z.imag < 0]
    message = "Array contains complex value with no matching conjugate."
    if len(zp) != len(zn):
        raise ValueError(message)
    same_real = numpy.diff(zp.real) <= tol * abs(zp[:-1])
    edges = numpy.diff(numpy.concatenate(([0], same_real, [0])))
    for start, stop in zip(numpy.nonzero(edges > 0)[0], numpy.nonzero(edges < 0)[0] + 1):
        for run in (zp[start:stop], zn[start:stop]):
            run[...] = run[numpy.lexsort([abs(run.imag)])]
    if any(abs(zp - zn.conj()) > tol * abs(zn)):
        raise ValueError(message)
    return (zp + zn.conj()) / 2, zr


def _nearest(fro, to, which):
    """Index of the value of `fro` nearest `to`: of any, of the real ones, or of the complex ones."""
    order = numpy.argsort(numpy.abs(fro - to))
    if which == "any":
        return order[0]
    mask = numpy.isreal(fro[order])
    return order[numpy.nonzero(mask if which == "real" else ~mask)[0][0]]


def _section(z, p):
    """One second-order section (gain 1) from up to two zeros and two poles."""
    sos = numpy.zeros(6)
    b, a = _zpk2tf(z, p, 1)
    sos[3 - len(b) : 3] = b
    sos[6 - len(a) : 6] = a
    return sos


def _zpk2sos(z, p, k, pairing=None, *, analog=False):
    """Second-order sections from zeros, poles and gain, paired as SciPy pairs them: the poles nearest the unit
    circle (the imaginary axis, analog) go last, each with its nearest zeros; the gain goes into the first."""
    z, p, k = numpy.asarray(z), numpy.asarray(p), numpy.asarray(k)
    if pairing is None:
        pairing = "minimal" if analog else "nearest"
    pairings = ["nearest", "keep_odd", "minimal"]
    if pairing not in pairings:
        raise ValueError(f"pairing must be one of {pairings}, not {pairing}")
    if analog and pairing != "minimal":
        raise ValueError('for analog zpk2sos conversion, pairing must be "minimal"')
    if len(z) == len(p) == 0:
        return numpy.asarray([[0.0, 0.0, k, 0.0, 0.0, 1.0] if analog else [k, 0.0, 0.0, 1.0, 0.0, 0.0]])
    if pairing != "minimal":  # as many zeros as poles (an even number, 'nearest'), the added ones at 0
        p = numpy.concatenate((p, numpy.zeros(max(len(z) - len(p), 0))))
        z = numpy.concatenate((z, numpy.zeros(max(len(p) - len(z), 0))))
        n_sections = (max(len(p), len(z)) + 1) // 2
        if len(p) % 2 == 1 and pairing == "nearest":
            p, z = numpy.concatenate((p, [0.0])), numpy.concatenate((z, [0.0]))
    else:
        if len(p) < len(z):
            raise ValueError("for analog zpk2sos conversion, must have len(p)>=len(z)")
        n_sections = (len(p) + 1) // 2
    z = numpy.concatenate(cplxreal(z))  # one of each conjugate pair
    p = numpy.concatenate(cplxreal(p))
    if not numpy.isreal(k):
        raise ValueError("k must be real")
    k = k.real

    def worst(q):  # the pole nearest the unit circle (digital) or the imaginary axis (analog)
        return numpy.argmin(numpy.abs(numpy.real(q)) if analog else numpy.abs(1 - numpy.abs(q)))

    def take(values, index):
        return values[index], numpy.delete(values, index)

    sos = numpy.zeros((n_sections, 6))
    for si in range(n_sections - 1, -1, -1):
        p1, p = take(p, worst(p))
        if numpy.isreal(p1) and numpy.isreal(p).sum() == 0:  # the last real pole
            if pairing != "minimal":
                z1, z = take(z, _nearest(z, p1, "real"))
                sos[si] = _section([z1, 0], [p1, 0])
            elif len(z) > 0:
                z1, z = take(z, _nearest(z, p1, "real"))
                sos[si] = _section([z1], [p1])
            else:
                sos[si] = _section([], [p1])
        elif (
            len(p) + 1 == len(z)
            and not numpy.isreal(p1)
            and numpy.isreal(p).sum() == 1
            and numpy.isreal(z).sum() == 1
        ):  # one real pole and one real zero left: this complex pole must take a complex zero
            z1, z = take(z, _nearest(z, p1, "complex"))
            sos[si] = _section([z1, z1.conj()], [p1, p1.conj()])
        else:
            if numpy.isreal(p1):
                real = numpy.flatnonzero(numpy.isreal(p))
                p2, p = take(p, real[worst(p[real])])
            else:
                p2 = p1.conj()
            if len(z) > 0:
                z1, z = take(z, _nearest(z, p1, "any"))
                if not numpy.isreal(z1):
                    sos[si] = _section([z1, z1.conj()], [p1, p2])
                elif len(z) > 0:
                    z2, z = take(z, _nearest(z, p1, "real"))
                    sos[si] = _section([z1, z2], [p1, p2])
                else:
                    sos[si] = _section([z1], [p1, p2])
            else:
                sos[si] = _section([], [p1, p2])
    sos[0][:3] *= k
    return sos


def _tf2sos(b, a, pairing=None, *, analog=False):
    """Second-order sections from a transfer function (through its zeros, poles and gain)."""
    return _zpk2sos(*_tf2zpk(b, a), pairing=pairing, analog=analog)


def _is_int(x):
    if numpy.ndim(x) != 0:
        return False
    try:
        operator.index(x)
    except TypeError:
        return False
    return True


def _polyval(x, c):
    """sum c[j] * x**j (NumPy's polynomial.polyval with tensor=False): c's trailing axes broadcast with x."""
    if c.dtype.kind in "biu":
        c = c.astype(numpy.float64)
    c = numpy.atleast_1d(c)
    dtype = numpy.result_type(c, x)
    if dtype.kind in "biu":
        dtype = numpy.dtype(numpy.float64)
    try:
        y, x = numpy.broadcast_arrays(c[-1].astype(dtype), numpy.asarray(x, dtype=dtype))
    except ValueError:
        raise ValueError("Array shapes are incompatible for broadcasting.") from None
    for i in range(2, c.shape[0] + 1):
        y = c[-i] + y * x
    return y


def _freqz(b, a=1, worN=512, whole=False, fs=2 * math.pi, include_nyquist=False):
    """SciPy's freqz without `plot`: (w, h), by an FFT of b for an integer worN where a is a scalar, else by
    evaluating both polynomials at exp(-jw)."""
    b, a = numpy.asarray(b), numpy.asarray(a)
    if a.dtype.kind in "biu":
        a = a.astype(numpy.float64)
    dtype = numpy.result_type(b, a)
    real = dtype if dtype.kind == "f" else {"F": numpy.float32, "D": numpy.float64}.get(dtype.char)
    if real is None:
        raise ValueError(f"Unknown dtype {dtype}.")
    b, a = numpy.atleast_1d(b), numpy.atleast_1d(a)
    fs = validate_fs(fs, allow_none=False)
    worN = 512 if worN is None else worN
    h = None
    if _is_int(worN):
        n = operator.index(worN)
        if n < 0:
            raise ValueError(f"worN must be nonnegative, got {n}")
        w = numpy.linspace(0, 2 * math.pi if whole else math.pi, n, endpoint=include_nyquist and not whole)
        w = w.astype(real)
        n_fft = n if whole else 2 * (n - 1) if include_nyquist else 2 * n
        if a.size == 1 and (b.ndim == 1 or b.shape[-1] == 1) and n_fft >= b.shape[0] and n_fft > 0:
            rfft = b.dtype.kind == "f" and a.dtype.kind == "f"
            h = (numpy.fft.rfft if rfft else numpy.fft.fft)(b, n=n_fft, axis=0)
            h = (h[: min(n, h.shape[0])] / a).astype(h.dtype, copy=False)  # SciPy's in-place h /= a
            # The negative frequencies: conjugates, less DC (and Nyquist for an even n_fft).
            if rfft and whole:
                h = numpy.concatenate((h, numpy.conj(h[1 : None if n_fft % 2 else -1][::-1])))
            if b.ndim > 1:
                h = numpy.moveaxis(h[..., 0], 0, -1)
    else:
        if isinstance(worN, complex):
            worN = worN.real
        w = numpy.atleast_1d(numpy.asarray(worN, dtype=dtype))
        if w.dtype.kind in "biu":
            w = w.astype(numpy.float64)
        w = 2 * math.pi * w / fs
    if h is None:
        zm1 = numpy.exp(-1j * w)
        h = _polyval(zm1, b) / _polyval(zm1, a)
    return w * (fs / (2 * math.pi)), h


def validate_sos(sos):
    """SciPy's checks of second-order sections: (n_sections, 6) with every a0 one."""
    sos = numpy.atleast_2d(numpy.asarray(sos))
    if sos.ndim != 2:
        raise ValueError("sos array must be 2D")
    n_sections, m = sos.shape
    if m != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    if not numpy.all(sos[:, 3] == 1):
        raise ValueError("sos[:, 3] should be all ones")
    return sos, n_sections


def _freqz_sos(sos, worN=512, whole=False, fs=2 * math.pi):
    """The frequency response of second-order sections: the product of theirs."""
    fs = validate_fs(fs, allow_none=False)
    sos, n_sections = validate_sos(sos)
    if n_sections == 0:
        raise ValueError("Cannot compute frequencies with no sections")
    h = 1.0
    for row in sos:
        w, rowh = _freqz(row[:3], row[3:], worN=worN, whole=whole, fs=fs)
        h = h * rowh
    return w, h


zpk2tf = on_host(_zpk2tf, "zpk2tf")
tf2zpk = on_host(_tf2zpk, "tf2zpk")
zpk2sos = on_host(_zpk2sos, "zpk2sos")
tf2sos = on_host(_tf2sos, "tf2sos")
sos2tf = on_host(_sos2tf, "sos2tf")
sos2zpk = on_host(_sos2zpk, "sos2zpk")
freqz_sos = on_host(_freqz_sos, "freqz_sos")
sosfreqz = on_host(_freqz_sos, "sosfreqz")  # SciPy's older name of freqz_sos, the one CuPy has


def freqz(b, a=1, worN=512, whole=False, plot=None, fs=2 * math.pi, include_nyquist=False):
    """The frequency response (w, h) of the digital filter b/a at worN points (or the frequencies worN), as
    device arrays; `plot`, when given, is called with them."""
    w, h = on_device(_freqz(host(b), host(a), host(worN), whole, fs, include_nyquist))
    if plot is not None:
        plot(w, h)
    return w, h
