"""NumPy's discrete distributions on the device: geometric by inversion, negative_binomial as a gamma-Poisson
mixture, multinomial by successive conditional binomials, zipf, logseries and hypergeometric (Stadlober's
HRUA) by rounds of rejection that redraw only the rejected elements; and bytes."""

import math
import operator

import numpy

import cuarray as cp
from cuarray.random._continuous import F8, I8, Continuous, check, pick, quiet, xp
from cuarray.random._sampler import _host

__all__ = ["Distributions"]

_INT64_TOP = (
    2.0**63 - 1024
)  # the largest float64 below 2**63: integer results are clamped to it before the cast
_POISSON_LAM_MAX = 9.223372006484771e18  # NumPy's, as in _sampler's poisson
_LOG_FACTORIALS = numpy.array([math.lgamma(k + 1.0) for k in range(128)])


def _to_int(x, dtype):
    return cp.minimum(x, _INT64_TOP).astype(dtype)


def _log_factorial(k):
    """log(k!) for integer-valued k >= 0: a table below 128, Stirling's series above (error below 1e-17)."""
    if not isinstance(k, cp.ndarray):
        return numpy.float64(math.lgamma(k + 1.0))
    table = cp.take(cp.asarray(_LOG_FACTORIALS), cp.minimum(k, 127.0).astype(numpy.int64))
    big = cp.maximum(k, 128.0)
    inv2 = 1.0 / (big * big)
    series = (
        (big + 0.5) * cp.log(big)
        - big
        + 0.5 * math.log(2 * math.pi)
        + (1 / 12 - inv2 * (1 / 360 - inv2 / 1260)) / big
    )
    return cp.where(k < 128, table, series)


def _counts(value):
    """A count parameter as NumPy takes it: int64, a float truncated, NaN an error."""
    host = numpy.asarray(_host(value))
    if host.dtype.kind == "f" and numpy.any(numpy.isnan(host)):
        raise ValueError("cannot convert float NaN to integer")
    return host.astype(numpy.int64)


class Distributions(Continuous):
    """All of the distributions: the continuous ones and the discrete ones below."""

    @quiet
    def _geometric(self, p, size, dtype):
        check(lambda p: ~(p > 0) | (p > 1), "p <= 0, p > 1 or p contains NaNs", p)
        shape, (p,) = self._prepare(size, p)
        x = cp.ceil(self._draw("exponential", shape, 1.0) / -xp(p).log1p(-p))
        return _to_int(cp.maximum(x, 1.0), dtype).reshape(shape)

    @quiet
    def _negative_binomial(self, n, p, size, dtype, legacy):
        if not legacy:
            check(numpy.isnan, "n must not be NaN", n)
        check(lambda n: n <= 0, "n <= 0", n)
        if legacy:
            check(lambda p: ~(p >= 0) | (p > 1), "p < 0, p > 1 or p is NaN", p)
        else:
            check(lambda p: ~(p > 0) | (p > 1), "p <= 0, p > 1 or p contains NaNs", p)
            check(
                lambda n, p: (1 - p) / p * (n + 10 * numpy.sqrt(n)) > _POISSON_LAM_MAX,
                "n too large or p too small, see Generator.negative_binomial Notes",
                n,
                p,
            )
        shape, (n, p) = self._prepare(size, n, p)
        lam = self._draw("gamma", shape, n, (1 - p) / p)
        # A NaN n (the legacy API takes it) gives 0, as NumPy's; the Poisson sampler's loop never ends on NaN.
        lam = cp.where(cp.isnan(lam), 0.0, lam)
        return self._draw("poisson", shape, lam, dtype=dtype).reshape(shape)

    @quiet
    def _zipf(self, a, size, dtype):
        """Devroye's rejection method, as NumPy's; a >= 1025 gives 1 (all of the mass in float64)."""
        check(lambda a: ~(a > 1), "a <= 1 or a is NaN", a)
        shape, (a,) = self._prepare(size, a)
        am1 = a - 1
        b = 2.0**am1

        def propose(index):
            e, bi, ai = pick(am1, index), pick(b, index), pick(a, index)
            u = 1.0 - self._sample("uniform", index.shape, F8, 0.0, 1.0)
            v = self._sample("uniform", index.shape, F8, 0.0, 1.0)
            x = cp.floor(u ** (-1 / e))
            t = (1 + 1 / x) ** e
            ok = (x >= 1) & (x <= _INT64_TOP) & (v * x * (t - 1) / (bi - 1) <= t / bi)
            return cp.where(ai >= 1025, 1.0, x), ok | (ai >= 1025)

        return _to_int(self._rounds(math.prod(shape), propose), dtype).reshape(shape)

    @quiet
    def _logseries(self, p, size, dtype):
        """Kemp's second accelerated generator (LK), as NumPy's; its rare rejections are redrawn in rounds."""
        check(lambda p: ~((p >= 0) & (p < 1)), "p < 0, p >= 1 or p is NaN", p)
        shape, (p,) = self._prepare(size, p)
        r = xp(p).log1p(-p)

        def propose(index):
            pi = pick(p, index)
            v = self._sample("uniform", index.shape, F8, 0.0, 1.0)
            q = -cp.expm1(pick(r, index) * self._sample("uniform", index.shape, F8, 0.0, 1.0))
            k = cp.floor(1 + cp.log(v) / cp.log(q))
            tail = (v < pi) & (v <= q * q)
            x = cp.where(tail, k, cp.where((v >= pi) | (v >= q), 1.0, 2.0))
            return x, ~tail | ((k >= 1) & (k <= _INT64_TOP) & (v > 0))

        return _to_int(self._rounds(math.prod(shape), propose), dtype).reshape(shape)

    @quiet
    def _hypergeometric(self, ngood, nbad, nsample, size, dtype, legacy):
        """Stadlober's ratio-of-uniforms method HRUA (valid for every log-concave law, so for all parameters),
        on the smaller of the two colours and of the sample and its complement, as NumPy's."""
        good, bad, sample = _counts(ngood), _counts(nbad), _counts(nsample)
        if numpy.any(good < 0):
            raise ValueError("ngood < 0")
        if numpy.any(bad < 0):
            raise ValueError("nbad < 0")
        if legacy and numpy.any(sample < 1):
            raise ValueError("nsample < 1 or nsample is NaN")
        if not legacy:
            if numpy.any(sample < 0):
                raise ValueError("nsample < 0")
            if numpy.any(good >= 10**9) or numpy.any(bad >= 10**9):
                raise ValueError("both ngood and nbad must be less than 1000000000")
        if numpy.any(good + bad < sample):
            raise ValueError("ngood + nbad < nsample")
        shape, (good, bad, sample) = self._prepare(size, good, bad, sample)
        m_ = xp(good, bad, sample)
        pop = good + bad
        n = m_.minimum(sample, pop - sample)
        # The colours' module, not the sample's: host scalars stay scalars, which pick() takes whole.
        lo, hi = xp(good, bad).minimum(good, bad), xp(good, bad).maximum(good, bad)
        mean = n * lo / m_.maximum(pop, 1)
        var = (pop - n) * mean * hi / m_.maximum(pop, 1) / m_.maximum(pop - 1, 1)
        c = m_.sqrt(var + 0.5)
        a, h = mean + 0.5, 1.7155277699214135 * c + 0.8989161620588988
        mode = m_.floor((n + 1) * (lo + 1) / (pop + 2))
        g = (
            _log_factorial(mode)
            + _log_factorial(lo - mode)
            + _log_factorial(n - mode)
            + _log_factorial(hi - n + mode)
        )
        top = m_.minimum(m_.minimum(n, lo) + 1, m_.floor(a + 16 * c))
        fixed = (n == 0) | (lo == 0)  # a single value, 0: no rejection loop

        def propose(index):
            ni, li, hi_ = pick(n, index), pick(lo, index), pick(hi, index)
            u = self._sample("uniform", index.shape, F8, 0.0, 1.0)
            x = (
                pick(a, index)
                + pick(h, index) * (self._sample("uniform", index.shape, F8, 0.0, 1.0) - 0.5) / u
            )
            inside = (x >= 0) & (x < pick(top, index))
            k = cp.where(inside, cp.floor(x), 0.0)
            t = pick(g, index) - (
                _log_factorial(k)
                + _log_factorial(li - k)
                + _log_factorial(ni - k)
                + _log_factorial(hi_ - ni + k)
            )
            ok = inside & ((u * (4 - u) - 3 <= t) | ((u * (u - t) < 1) & (2 * cp.log(u) <= t)))
            fixed_i = pick(fixed, index)
            return cp.where(fixed_i, 0.0, k), ok | fixed_i

        count = math.prod(shape)
        k = cp.zeros(count, F8) if isinstance(fixed, numpy.bool_) and fixed else self._rounds(count, propose)
        k = cp.where(good > bad, n - k, k)
        k = cp.where(n < sample, good - k, k)
        return k.astype(dtype).reshape(shape)

    def _multinomial(self, n, pvals, size, legacy):
        """Successive conditional binomials: count j is binomial(what is left, p_j / the mass left), the last
        count what remains; a loop over the categories, each step over all samples at once."""
        pv = numpy.asarray(_host(pvals), dtype=numpy.float64)
        if legacy:
            if pv.ndim == 0:
                raise TypeError("pvals must be a 1-d sequence")
            if pv.ndim > 1:
                raise ValueError("object too deep for desired array")
            if numpy.ndim(n) != 0:
                raise TypeError("an integer is required")
        elif pv.ndim == 0 or pv.shape[-1] == 0:
            raise ValueError(
                "pvals must have at least 1 dimension and the last dimension of pvals must be greater than 0."
            )
        n = _counts(n)
        if numpy.any(n < 0):
            raise ValueError("n < 0")
        if numpy.any(~(pv >= 0) | (pv > 1)):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if numpy.any(numpy.sum(pv[..., :-1], axis=-1) > 1.0 + 1e-12):
            raise ValueError("sum(pvals[:-1]) > 1.0" if pv.ndim == 1 else "sum(pvals[...,:-1]) > 1.0")
        k = pv.shape[-1]
        shape = self._out_shape(size, numpy.broadcast_shapes(n.shape, pv.shape[:-1]))
        if k == 0 or math.prod(shape) == 0:
            return cp.zeros(shape + (k,), I8)
        mass = 1.0 - numpy.concatenate(
            [numpy.zeros(pv.shape[:-1] + (1,)), numpy.cumsum(pv[..., :-2], axis=-1)], axis=-1
        )
        with numpy.errstate(all="ignore"):
            ratio = numpy.where(mass > 0, numpy.minimum(pv[..., :-1] / mass, 1.0), 1.0)
        if k > 1 and ratio.ndim > 1:  # one ratio per sample and category, made on the device
            ratio = cp.broadcast_to(cp.asarray(ratio), shape + (k - 1,)).reshape(-1, k - 1)
        left = float(n) if n.ndim == 0 else cp.broadcast_to(cp.asarray(n, dtype=F8), shape).reshape(-1)
        counts = []
        for j in range(k - 1):
            counts.append(self._draw("binomial", shape, left, ratio[..., j], dtype=I8))
            left = left - counts[-1]
        last = left if isinstance(left, cp.ndarray) else cp.full(math.prod(shape), left)
        counts.append(last.astype(I8))
        return cp.stack(counts, axis=-1).reshape(shape + (k,))

    def _bytes(self, length):
        length = operator.index(length)
        if length < 0:
            raise ValueError("negative dimensions are not allowed")
        words = self._integers(0, 2**32, ((length + 3) // 4,), numpy.uint32, "bytes")
        return words.get().tobytes()[:length]  # the result is host bytes: one readback
