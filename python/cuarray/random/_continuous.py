"""NumPy's continuous distributions, built on the device from the core's samplers (uniform, normal, exponential,
gamma, poisson) by inverse CDFs, ratios and Poisson mixtures, and the helpers the discrete ones share.

Parameters are checked on the host as NumPy checks them (a device array parameter is copied back for that, as
for the core's samplers). Intermediate samples are drawn flat and in float64; the result is cast at the end.
"""

import functools
import math
import warnings

import numpy

import cuarray as cp
from cuarray._core import ndarray
from cuarray.random._sampler import Sampler, _host, out_shape, shape_of

__all__ = ["Continuous", "check", "pick", "quiet", "xp"]

F8 = numpy.dtype(numpy.float64)
I8 = numpy.dtype(numpy.int64)


def quiet(method):
    """Runs `method` with NumPy's floating-point warnings off: parameter arithmetic on host scalars meets the
    IEEE special cases (1/0, log(0)) that the device arrays meet silently."""

    @functools.wraps(method)
    def run(*args, **kwargs):
        with numpy.errstate(all="ignore"):
            return method(*args, **kwargs)

    return run


def check(bad, message, *values):
    """ValueError(message) where bad(*values) holds for any element, the values checked on the host."""
    with numpy.errstate(invalid="ignore"):
        if numpy.any(bad(*(numpy.asarray(_host(v), dtype=numpy.float64) for v in values))):
            raise ValueError(message)


def xp(*values):
    """The module that computes on `values`: cuarray when any is a device array, else NumPy (host scalars)."""
    return cp if any(isinstance(v, ndarray) for v in values) else numpy


def pick(value, index):
    """A parameter at the flat positions `index`: a host scalar is the same everywhere."""
    return value[index] if isinstance(value, ndarray) else value


def _nan_to(value, fill):
    return xp(value).where(xp(value).isnan(value), fill, value)


class Continuous(Sampler):
    """The continuous distributions, and the flat sampling and rejection rounds they and the discrete ones use."""

    def _prepare(self, size, *params):
        """(output shape, params): host scalars as numpy.float64, arrays as flat float64 device arrays of the
        output's size. Samples are then drawn flat (_draw), so no intermediate is a 0-d array whose use as a
        parameter would need a readback."""
        shape, values = self._params(size, params)
        return shape, [numpy.float64(v) if isinstance(v, float) else v.reshape(-1) for v in values]

    def _out_shape(self, size, param_shape):
        """`size`, which the parameters' broadcast shape must broadcast to, or that shape when size is None."""
        return out_shape(shape_of(size), param_shape)

    def _draw(self, dist, shape, *params, dtype=F8):
        return self._sample(dist, (math.prod(shape),), dtype, *params)

    def _open_uniform(self, shape):
        """Uniforms on (0, 1): the cell [0, 2**-53) is taken at its midpoint, so that logs stay finite."""
        return cp.maximum(self._draw("uniform", shape, 0.0, 1.0), 2.0**-54)

    def _rounds(self, count, propose):
        """Values at flat positions [0, count) by rejection: propose(index) gives candidates and their acceptance
        for the positions `index`, and only the rejected positions are drawn again. Each round reads back the
        number of elements still rejected (the compaction index[~ok] sizes the next round)."""
        out = cp.empty(count, F8)
        index = cp.arange(count, dtype=numpy.int64)
        while index.size:
            values, ok = propose(index)
            out[index[ok]] = values[ok]
            index = index[~ok]
        return out

    # ---------------------------------------------------------------- gamma family

    def _standard_gamma(self, k, size, dtype):
        check(lambda k: k < 0, "shape < 0", k)
        return self._sample("gamma", size, dtype, k, 1.0)

    def _chi2_over_df(self, shape, df):
        """chisquare(df) / df, flat."""
        return self._draw("gamma", shape, df / 2, 2 / df)

    @quiet
    def _chisquare(self, df, size, dtype):
        check(lambda d: d <= 0, "df <= 0", df)
        shape, (df,) = self._prepare(size, df)
        return self._draw("gamma", shape, df / 2, 2.0, dtype=dtype).reshape(shape)

    @quiet
    def _f(self, dfnum, dfden, size, dtype):
        check(lambda d: d <= 0, "dfnum <= 0", dfnum)
        check(lambda d: d <= 0, "dfden <= 0", dfden)
        shape, (dfnum, dfden) = self._prepare(size, dfnum, dfden)
        x = self._chi2_over_df(shape, dfnum) / self._chi2_over_df(shape, dfden)
        return x.astype(dtype).reshape(shape)

    @quiet
    def _standard_t(self, df, size, dtype):
        check(lambda d: d <= 0, "df <= 0", df)
        shape, (df,) = self._prepare(size, df)
        z = self._draw("normal", shape, 0.0, 1.0)
        return (z / cp.sqrt(self._chi2_over_df(shape, df))).astype(dtype).reshape(shape)

    def _noncentral_chi2(self, shape, df, nonc):
        """chisquare(df + 2 i) with i ~ poisson(nonc / 2), flat; NaN where nonc is NaN (which the Poisson
        sampler is never given: its rejection loop would not end)."""
        i = self._draw("poisson", shape, _nan_to(nonc / 2, 0.0), dtype=I8)
        x = self._draw("gamma", shape, df / 2 + i, 2.0)
        return cp.where(xp(nonc).isnan(nonc), numpy.nan, x)

    @quiet
    def _noncentral_chisquare(self, df, nonc, size, dtype):
        check(lambda d: d <= 0, "df <= 0", df)
        check(lambda n: n < 0, "nonc < 0", nonc)
        shape, (df, nonc) = self._prepare(size, df, nonc)
        return self._noncentral_chi2(shape, df, nonc).astype(dtype).reshape(shape)

    @quiet
    def _noncentral_f(self, dfnum, dfden, nonc, size, dtype):
        check(lambda d: d <= 0, "dfnum <= 0", dfnum)
        check(lambda d: d <= 0, "dfden <= 0", dfden)
        check(lambda n: n < 0, "nonc < 0", nonc)
        shape, (dfnum, dfden, nonc) = self._prepare(size, dfnum, dfden, nonc)
        x = self._noncentral_chi2(shape, dfnum, nonc) / dfnum / self._chi2_over_df(shape, dfden)
        return x.astype(dtype).reshape(shape)

    def _dirichlet(self, alpha, size, dtype, legacy):
        """Normalised gammas, in logs: log G(a) = log G(a + 1) + log(U) / a, so that gammas of small shapes,
        which underflow to 0, still give their proportions (NumPy's Generator falls back to stick-breaking)."""
        host = numpy.asarray(_host(alpha), dtype=numpy.float64)
        if host.ndim == 0 and (size is None or not self._out_shape(size, ())):
            raise TypeError(f"object of type '{type(alpha).__name__}' has no len()")
        # A scalar alpha with a size (CuPy's reading): every element of `size` draws with that alpha, and the
        # last axis of `size` is normalized, as for `size[-1]` categories of equal alpha.
        if host.ndim > 1:
            raise ValueError("object too deep for desired array")
        if legacy:
            check(lambda a: a <= 0, "alpha <= 0", host)
        else:
            check(lambda a: a < 0, "alpha < 0", host)
        shape = self._out_shape(size, ()) + host.shape
        if math.prod(shape) == 0:
            return cp.zeros(shape, dtype)
        a = cp.broadcast_to(cp.asarray(host), shape).reshape(-1)
        with numpy.errstate(all="ignore"):
            logs = (
                cp.log(self._draw("gamma", shape, a + 1, 1.0))
                + cp.log(self._draw("uniform", shape, 0.0, 1.0)) / a
            )
        logs = logs.reshape(shape)
        top = cp.max(logs, axis=-1, keepdims=True)
        top = cp.where(top == -numpy.inf, 0.0, top)  # every shape 0 (Generator): all zeros, as NumPy's
        e = cp.exp(logs - top)
        total = cp.sum(e, axis=-1, keepdims=True)
        return (e / cp.where(total == 0, 1.0, total)).astype(dtype)

    # ---------------------------------------------------------------- inverse CDFs and transforms

    @quiet
    def _gumbel(self, loc, scale, size, dtype):
        check(lambda s: s < 0, "scale < 0", scale)
        shape, (loc, scale) = self._prepare(size, loc, scale)
        x = loc - scale * cp.log(-cp.log(self._open_uniform(shape)))
        return x.astype(dtype).reshape(shape)

    @quiet
    def _laplace(self, loc, scale, size, dtype):
        check(lambda s: s < 0, "scale < 0", scale)
        shape, (loc, scale) = self._prepare(size, loc, scale)
        u = self._open_uniform(shape)
        x = cp.where(u >= 0.5, loc - scale * cp.log(2.0 - 2.0 * u), loc + scale * cp.log(2.0 * u))
        return x.astype(dtype).reshape(shape)

    @quiet
    def _logistic(self, loc, scale, size, dtype):
        check(lambda s: s < 0, "scale < 0", scale)
        shape, (loc, scale) = self._prepare(size, loc, scale)
        u = self._open_uniform(shape)
        return (loc + scale * cp.log(u / (1.0 - u))).astype(dtype).reshape(shape)

    def _lognormal(self, mean, sigma, size, dtype):
        check(lambda s: s < 0, "sigma < 0", sigma)
        return cp.exp(self._sample("normal", size, dtype, mean, sigma))

    @quiet
    def _rayleigh(self, scale, size, dtype):
        check(lambda s: s < 0, "scale < 0", scale)
        shape, (scale,) = self._prepare(size, scale)
        x = scale * cp.sqrt(2.0 * self._draw("exponential", shape, 1.0))
        return x.astype(dtype).reshape(shape)

    @quiet
    def _weibull(self, a, size, dtype):
        check(lambda a: a < 0, "a < 0", a)
        shape, (a,) = self._prepare(size, a)
        x = cp.where(a == 0, 0.0, self._draw("exponential", shape, 1.0) ** (1 / a))
        return x.astype(dtype).reshape(shape)

    @quiet
    def _pareto(self, a, size, dtype):
        check(lambda a: a <= 0, "a <= 0", a)
        shape, (a,) = self._prepare(size, a)
        return cp.expm1(self._draw("exponential", shape, 1.0) / a).astype(dtype).reshape(shape)

    @quiet
    def _power(self, a, size, dtype):
        check(lambda a: a <= 0, "a <= 0", a)
        shape, (a,) = self._prepare(size, a)
        return (self._draw("uniform", shape, 0.0, 1.0) ** (1 / a)).astype(dtype).reshape(shape)

    def _standard_cauchy(self, size, dtype):
        shape, _ = self._prepare(size)
        return cp.tan(numpy.pi * (self._open_uniform(shape) - 0.5)).astype(dtype).reshape(shape)

    @quiet
    def _triangular(self, left, mode, right, size, dtype):
        check(lambda lo, m: lo > m, "left > mode", left, mode)
        check(lambda m, r: m > r, "mode > right", mode, right)
        check(lambda lo, r: lo == r, "left == right", left, right)
        shape, (left, mode, right) = self._prepare(size, left, mode, right)
        base = right - left
        u = self._draw("uniform", shape, 0.0, 1.0)
        x = cp.where(
            u <= (mode - left) / base,
            left + cp.sqrt(u * (mode - left) * base),
            right - cp.sqrt((1.0 - u) * (right - mode) * base),
        )
        return x.astype(dtype).reshape(shape)

    @quiet
    def _wald(self, mean, scale, size, dtype):
        """Michael, Schucany and Haas's method. The smaller root of the quadratic, mean (b - c) / (b + c) with
        c = sqrt(Y), b = sqrt(4 scale + Y), is written 4 mean scale / (b + c)**2, free of cancellation."""
        check(lambda m: m <= 0, "mean <= 0", mean)
        check(lambda s: s <= 0, "scale <= 0", scale)
        shape, (mean, scale) = self._prepare(size, mean, scale)
        y = mean * cp.square(self._draw("normal", shape, 0.0, 1.0))
        x = 4.0 * mean * scale / cp.square(cp.sqrt(4.0 * scale + y) + cp.sqrt(y))
        u = self._draw("uniform", shape, 0.0, 1.0)
        return cp.where(u <= mean / (mean + x), x, mean * mean / x).astype(dtype).reshape(shape)

    @quiet
    def _vonmises(self, mu, kappa, size, dtype):
        """Best and Fisher's rejection method; uniform for kappa < 1e-8 and a wrapped normal above 1e6, as
        NumPy's. The result is wrapped into [-pi, pi]."""
        check(lambda k: k < 0, "kappa < 0", kappa)
        shape, (mu, kappa) = self._prepare(size, mu, kappa)
        m = xp(kappa)
        r = 1 + m.sqrt(1 + 4 * kappa * kappa)
        rho = (r - m.sqrt(2 * r)) / (2 * kappa)
        s = m.where(kappa < 1e-5, 1 / kappa + kappa, (1 + rho * rho) / (2 * rho))  # rho underflows below 1e-5
        direct = ~(kappa >= 1e-8) | (kappa > 1e6)  # NaN too: no rejection loop for it

        def propose(index):
            k, sk = pick(kappa, index), pick(s, index)
            z = cp.cos(numpy.pi * self._sample("uniform", index.shape, F8, 0.0, 1.0))
            w = (1 + sk * z) / (sk + z)
            y = k * (sk - w)
            v = self._sample("uniform", index.shape, F8, 0.0, 1.0)
            ok = (y * (2 - y) - v >= 0) | (cp.log(y / v) + 1 - y >= 0) | pick(direct, index)
            return w, ok

        count = math.prod(shape)
        # Where no rejection runs, w is unused (replaced below) or must carry a NaN kappa through.
        w = (
            cp.full(count, numpy.nan)
            if isinstance(direct, numpy.bool_) and direct
            else self._rounds(count, propose)
        )
        u = self._draw("uniform", shape, 0.0, 1.0)
        theta = cp.where(u < 0.5, -1.0, 1.0) * cp.arccos(w) + mu
        if bool(m.any(kappa > 1e6)):  # a device kappa: one boolean read back
            theta = cp.where(kappa > 1e6, mu + self._draw("normal", shape, 0.0, 1.0) / m.sqrt(kappa), theta)
        wrapped = cp.fmod(cp.abs(theta) + numpy.pi, 2 * numpy.pi) - numpy.pi
        theta = cp.where(theta < 0, -wrapped, wrapped)
        theta = cp.where(kappa < 1e-8, numpy.pi * (2 * u - 1), theta)
        return theta.astype(dtype).reshape(shape)

    # ---------------------------------------------------------------- multivariate normal

    def _multivariate_normal(self, mean, cov, size, check_valid, tol, method, dtype):
        """mean + z @ factor.T for standard normal z, the factor from cholesky, svd or eigh of cov. With svd or
        eigh, cov is checked to be positive semidefinite within `tol` (one boolean read back) unless
        check_valid is 'ignore'."""
        mean = cp.asarray(mean, dtype=F8)
        cov = cp.asarray(cov, dtype=F8)
        if mean.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if mean.shape[0] != cov.shape[0]:
            raise ValueError("mean and cov must have same length")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        n = mean.shape[0]
        shape = self._out_shape(size, ()) + (n,)
        if method == "cholesky":
            factor = cp.linalg.cholesky(cov)
        else:
            if method == "eigh":
                s, u = cp.linalg.eigh(cov)
                psd = check_valid == "ignore" or not bool(cp.any(s < -tol))
                factor = u * cp.sqrt(cp.abs(s))
            else:
                u, s, vh = cp.linalg.svd(cov)
                psd = check_valid == "ignore" or bool(cp.allclose((vh.T * s) @ vh, cov, rtol=tol, atol=tol))
                factor = (cp.sqrt(s)[:, None] * vh).T
            if not psd:
                if check_valid == "raise":
                    raise ValueError("covariance is not symmetric positive-semidefinite.")
                warnings.warn(
                    "covariance is not symmetric positive-semidefinite.", RuntimeWarning, stacklevel=3
                )
        z = self._draw("normal", shape, 0.0, 1.0).reshape(-1, n)
        return (mean + z @ factor.T).astype(dtype).reshape(shape)
