"""What RandomState and Generator share: a Philox state (seed, offset) and the checked calls into the core.

Every sample is made on the device from the state's streams (cpp/cuarray/kernels/philox.cuh, Note [Random
streams]); a call advances the offset past the positions it used. Parameters are checked on the host as
NumPy checks them; array parameters are broadcast to the output's shape on the device.
"""

import math
import operator
import os

import numpy
from numpy.lib.array_utils import normalize_axis_index

from cuarray import _core, _creation, _manipulation, _transfer
from cuarray._core import ndarray

_FLOAT_TYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))
# choice without replacement from a larger population than this draws the sample alone (_sample_without_replacement)
# where it is at most a sixteenth of the population, rather than permuting the whole population.
_LARGE_POPULATION = 2**24


def seed_value(seed):
    """A 64-bit seed: an integer in [0, 2**64); for a 1-d sequence of non-negative integers (NumPy's
    RandomState takes them, and Dask seeds its blocks so), 64 bits that numpy.random.SeedSequence draws from
    it; fresh entropy for None."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, ndarray):
        seed = seed.get() if seed.ndim else seed.item()
    if isinstance(seed, (list, tuple, numpy.ndarray)) and numpy.ndim(seed) == 1:
        return int(numpy.random.SeedSequence(seed).generate_state(1, numpy.uint64)[0])
    if isinstance(seed, (bool, numpy.bool_)):  # CuPy's seed takes booleans, as integers
        seed = int(seed)
    try:
        seed = operator.index(seed)
    except TypeError:
        raise TypeError(f"seed must be an integer or None, not {type(seed).__name__}") from None
    if not 0 <= seed < 2**64:
        raise ValueError(f"Seed must be between 0 and 2**64 - 1 (got {seed})")
    return seed


def environment_seed():
    """The seed from CUARRAY_SEED (or CuPy's CUPY_SEED), or None when neither is set."""
    for var in ("CUARRAY_SEED", "CUPY_SEED"):
        text = os.environ.get(var)
        if text is not None:
            try:
                return seed_value(int(text))
            except (TypeError, ValueError):
                raise ValueError(f"{var} must be an integer in [0, 2**64), got {text!r}") from None
    return None


def shape_of(size):
    """`size` as a shape tuple (None stays None); negative dimensions are NumPy's ValueError."""
    if size is None:
        return None
    shape = (operator.index(size),) if numpy.ndim(size) == 0 else tuple(operator.index(s) for s in size)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def float_dtype(dtype, message):
    dt = numpy.dtype(dtype)
    if dt not in _FLOAT_TYPES:
        raise TypeError(message.format(dt=dt))
    return dt


def any_dtype(dtype, kind):
    """(the dtype to sample in, the dtype asked for) for a distribution whose CuPy kernel stores its samples into
    an array of any numeric dtype (beta, gamma, chisquare, poisson, geometric, ...). A dtype the sampler makes
    itself is sampled so (float32 or float64 for kind 'f', an integer type for kind 'i', counts); any other is
    sampled as float64 (kind 'f') or int64 (kind 'i') and cast, as CuPy's store converts."""
    dt = numpy.dtype(dtype)
    if dt.kind not in "biufc":
        raise TypeError(f"Unsupported dtype {dt!r}: the samples are numbers")
    native = dt in _FLOAT_TYPES if kind == "f" else dt.kind in "iu"
    return (dt if native else numpy.dtype(numpy.float64 if kind == "f" else numpy.int64)), dt


def cast(x, dtype):
    """x as `dtype` (x itself when it has it)."""
    return x if x.dtype == dtype else x.astype(dtype)


def _host(value):
    """A parameter's values on the host, for checking (a device array is copied back). A scalar NumPy holds
    as an object is taken by float() as NumPy takes it (Fraction, Decimal); one that is no number (None) is
    NumPy's TypeError."""
    host = value.get() if isinstance(value, ndarray) else numpy.asarray(value)
    if host.dtype == object and host.ndim == 0:
        try:
            return numpy.asarray(float(value))
        except TypeError:
            raise TypeError(f"must be real number, not {type(value).__name__}") from None
    return host


class PhiloxOwner:
    """Pickling for an object holding a Philox state as `_state` (RandomState, the bit generators): the state
    travels as its (seed, offset), so a copy continues the stream where the original stands, as NumPy's do."""

    def __getstate__(self):
        fields = dict(self.__dict__)
        state = fields.pop("_state", None)
        if state is not None:
            fields["_philox"] = (state.seed, state.offset)
        return fields

    def __setstate__(self, fields):
        fields = dict(fields)
        philox = fields.pop("_philox", None)
        self.__dict__.update(fields)
        if philox is not None:
            self._state = _core.random.State(*philox)


class Sampler(PhiloxOwner):
    """A Philox state and the samplers built on it."""

    def __init__(self, seed=None):
        self._state = _core.random.State(seed_value(seed))

    def _reseed(self, seed):
        self._state.seed = seed_value(seed)
        self._state.offset = 0

    # ---------------------------------------------------------------- parameters and shapes

    @staticmethod
    def _params(size, params):
        """(shape, params for the core): scalars as floats; arrays broadcast to the output's shape as contiguous
        float64 device arrays. The shape is `size`, or the parameters' broadcast shape when size is None."""
        shape = shape_of(size)
        arrays = [p for p in params if numpy.ndim(p) != 0]
        if not arrays:
            return (() if shape is None else shape), [float(_host(p)) for p in params]
        shape = out_shape(shape, numpy.broadcast_shapes(*(numpy.shape(p) for p in arrays)))
        out = []
        for p in params:
            if numpy.ndim(p) == 0:
                out.append(float(_host(p)))
            else:
                dev = _transfer.asarray(p, dtype=numpy.float64)
                out.append(_transfer.ascontiguousarray(_manipulation.broadcast_to(dev, shape)))
        return shape, out

    def _sample(self, dist, size, dtype, *params):
        shape, values = self._params(size, params)
        return _core.random.sample(dist, shape, dtype, values, self._state)

    # ---------------------------------------------------------------- distributions

    def _uniform(self, low, high, size, dtype):
        if numpy.ndim(low) == 0 and numpy.ndim(high) == 0:
            span = float(_host(high)) - float(_host(low))
            if not math.isfinite(span):
                raise OverflowError("Range exceeds valid bounds")
        else:
            with numpy.errstate(over="ignore", invalid="ignore"):
                span = numpy.asarray(_host(high), numpy.float64) - numpy.asarray(_host(low), numpy.float64)
            if not numpy.all(numpy.isfinite(span)):
                raise OverflowError("Range exceeds valid bounds")
        return self._sample("uniform", size, dtype, low, high)

    def _normal(self, loc, scale, size, dtype):
        if numpy.any(_host(scale) < 0):
            raise ValueError("scale < 0")
        return self._sample("normal", size, dtype, loc, scale)

    def _exponential(self, scale, size, dtype):
        if numpy.any(_host(scale) < 0):
            raise ValueError("scale < 0")
        return self._sample("exponential", size, dtype, scale)

    def _gamma(self, shape, scale, size, dtype):
        if numpy.any(_host(shape) < 0):
            raise ValueError("shape < 0")
        if numpy.any(_host(scale) < 0):
            raise ValueError("scale < 0")
        return self._sample("gamma", size, dtype, shape, scale)

    def _beta(self, a, b, size, dtype):
        if numpy.any(_host(a) <= 0):
            raise ValueError("a <= 0")
        if numpy.any(_host(b) <= 0):
            raise ValueError("b <= 0")
        return self._sample("beta", size, dtype, a, b)

    def _poisson(self, lam, size, dtype):
        host = _host(lam)
        if numpy.any(numpy.isnan(host)) or numpy.any(host < 0):
            raise ValueError("lam < 0 or lam is NaN")
        # NumPy's limit: far enough below 2**63 that samples never overflow int64.
        if numpy.any(host > 9.223372006484771e18):
            raise ValueError("lam value too large")
        return self._sample("poisson", size, _int_dtype(dtype, "poisson"), lam)

    def _binomial(self, n, p, size, dtype):
        hn = _host(n).astype(numpy.int64)  # NumPy takes n as int64: a float n is truncated
        if numpy.any(hn < 0):
            raise ValueError("n < 0")
        hp = _host(p)
        if numpy.any(numpy.isnan(hp)) or numpy.any(hp < 0) or numpy.any(hp > 1):
            raise ValueError("p < 0, p > 1 or p is NaN")
        n = float(hn) if hn.ndim == 0 else hn.astype(numpy.float64)
        return self._sample("binomial", size, _int_dtype(dtype, "binomial"), n, p)

    # ---------------------------------------------------------------- integers, choice, permutations

    def _integers(self, low, high, size, dtype, name, endpoint=False):
        """Uniform integers in [low, high) as `dtype` ([low, high] with `endpoint`)."""
        dt = numpy.dtype(dtype)
        if dt.kind not in "biu":
            raise TypeError(f"Unsupported dtype {dt!r} for {name}")
        info = (0, 1) if dt.kind == "b" else (numpy.iinfo(dt).min, numpy.iinfo(dt).max)
        if numpy.ndim(low) != 0 or numpy.ndim(high) != 0:
            return self._integers_of_arrays(low, high, size, dt, info, endpoint)
        low, high = _integer(low), _integer(high) - (0 if endpoint else 1)
        _check_bounds(low, high, dt, info, endpoint)
        shape = shape_of(size)
        return _core.random.integers(() if shape is None else shape, dt, low % 2**64, high - low, self._state)

    def _integers_of_arrays(self, low, high, size, dt, info, endpoint):
        """Uniform integers between bounds given per element: NumPy's masked rejection, on 64-bit words (a
        word masked to the bits of its range is kept where it falls in the range, else drawn again), so
        every range is exact. Each round reads back how many were rejected (at most half, on average)."""
        lo, hi = (numpy.asarray(_host(v)) for v in (low, high))
        lo, hi = (v.astype(numpy.int64) if v.dtype.kind == "f" else v for v in (lo, hi))  # truncated
        # Exact Python ints in object arrays; numpy.array again because arithmetic on a 0-d array (a scalar
        # bound next to an array one) gives a scalar, which has no shape.
        lo, hi = (numpy.array(v, dtype=object) for v in (lo, hi.astype(object) - (0 if endpoint else 1)))
        _check_bounds(lo, hi, dt, info, endpoint)
        shape = out_shape(shape_of(size), numpy.broadcast_shapes(lo.shape, hi.shape))
        count = math.prod(shape)
        span, base = (
            _transfer.asarray(numpy.broadcast_to(numpy.array(v, dtype=numpy.uint64), shape).reshape(-1))
            for v in ((hi - lo) % 2**64, lo % 2**64)
        )
        mask = span
        for bits in (1, 2, 4, 8, 16, 32):
            mask = mask | (mask >> bits)
        out = _creation.empty(count, numpy.uint64)
        index = _creation.arange(count, dtype=numpy.int64)
        while index.size:
            words = _core.random.integers((index.size,), numpy.dtype(numpy.uint64), 0, 2**64 - 1, self._state)
            values = words & mask[index]
            ok = values <= span[index]
            out[index[ok]] = values[ok]
            index = index[~ok]
        out = out + base  # modulo 2**64: the two's complement of signed results
        return (out if dt.kind == "u" else out.view(numpy.int64)).astype(dt).reshape(shape)

    def _permutation_indices(self, n):
        return _core.random.permutation(n, self._state)

    def _choice(self, a, size, replace, p, one_dimensional, axis=0):
        """NumPy's choice along `axis` of `a` (or of arange(a) for an integer); RandomState's takes a 1-D `a`."""
        shape = shape_of(size)
        count = 1 if shape is None else math.prod(shape)
        out_shape = () if shape is None else shape
        if isinstance(a, ndarray) and a.ndim == 0:
            a = a.item()
        pool = None
        if isinstance(a, ndarray) or numpy.ndim(a) != 0:
            pool = a if isinstance(a, ndarray) else numpy.asarray(a)  # moved to the device once checked
            if one_dimensional and pool.ndim != 1:
                raise ValueError("a must be 1-dimensional")
            axis = normalize_axis_index(axis, pool.ndim)
            pop_size = pool.shape[axis]
            if pop_size == 0 and count != 0:
                raise ValueError("'a' cannot be empty unless no samples are taken")
        else:
            try:
                pop_size = operator.index(a)
            except TypeError:
                raise ValueError("a must be 1-dimensional or an integer") from None
            if pop_size <= 0 and count != 0:
                raise ValueError("a must be greater than 0 unless no samples are taken")
        cdf = None if p is None else _cdf(p, pop_size, legacy=one_dimensional)
        if not replace:
            if count > pop_size:
                raise ValueError("Cannot take a larger sample than population when 'replace=False'")
            if p is not None:
                raise NotImplementedError(
                    "cuarray.random: choice without replacement and with p is not supported"
                )
            if pop_size > _LARGE_POPULATION and count <= pop_size // 16:
                index = self._sample_without_replacement(pop_size, count)
            else:
                index = self._permutation_indices(pop_size)[:count]
        elif count == 0:
            index = _creation.empty(0, numpy.int64)
        elif cdf is not None:
            index = _core.random.choice((count,), _transfer.asarray(cdf), self._state)
        else:
            index = self._integers(0, pop_size, (count,), numpy.int64, "choice")
        if pool is None:
            return index.reshape(out_shape)
        pool = _manipulation.moveaxis(_transfer.asarray(pool), axis, 0)
        rows = self._take_rows(pool, index).reshape(out_shape + pool.shape[1:])
        k = len(out_shape)
        return _manipulation.moveaxis(rows, tuple(range(k)), tuple(range(axis, axis + k))) if k else rows

    def _sample_without_replacement(self, pop_size, count):
        """`count` distinct integers of [0, pop_size) in random order, in memory of the sample's size rather than
        the population's: candidates drawn with replacement, each kept unless it repeats an earlier one, so each
        kept value is uniform over those not yet taken (the law of a random permutation's first `count`). Each
        round draws as many as are missing and reads back how many were kept."""
        from cuarray import _joining, _sorting

        taken = _creation.empty(0, numpy.int64)
        while taken.size < count:
            drawn = self._integers(0, pop_size, (count - taken.size,), numpy.int64, "choice")
            both = _joining.concatenate((taken, drawn))
            first = _sorting.unique(both, return_index=True)[1]  # each value's first position
            taken = both[_sorting.sort(first)]
        return taken

    @staticmethod
    def _take_rows(src, index):
        """src[index] along axis 0, as a new C-contiguous array."""
        src = _transfer.ascontiguousarray(src)
        out = _creation.empty((index.shape[0],) + src.shape[1:], src.dtype)
        _core.random.gather_rows(out, src, _transfer.ascontiguousarray(index))
        return out

    def _permutation(self, x, axis, legacy):
        # NumPy takes an int, not a 0-d array nor another scalar: RandomState's IndexError, Generator's AxisError
        not_integer = (
            numpy.exceptions.AxisError(axis, 0)
            if not legacy
            else IndexError("x must be an integer or at least 1-dimensional")
        )
        if isinstance(x, (ndarray, numpy.ndarray)) and x.ndim == 0:
            raise not_integer
        if not isinstance(x, ndarray) and numpy.ndim(x) == 0:
            try:
                n = operator.index(x)
            except TypeError:
                raise not_integer from None
            return self._permutation_indices(max(n, 0))
        arr = x if isinstance(x, ndarray) else _transfer.asarray(x)
        moved = _manipulation.moveaxis(arr, axis, 0)
        out = self._take_rows(moved, self._permutation_indices(moved.shape[0]))
        return _manipulation.moveaxis(out, 0, axis)

    def _shuffle(self, x, axis):
        if not isinstance(x, ndarray):
            raise TypeError(f"shuffle takes a cuarray.ndarray, not {type(x).__module__}.{type(x).__name__}")
        if x.ndim == 0:
            raise TypeError("len() of unsized object")
        moved = _manipulation.moveaxis(x, axis, 0)
        shuffled = self._take_rows(moved, self._permutation_indices(moved.shape[0]))
        _core._copyto(moved, shuffled)


def out_shape(shape, broadcast):
    """The shape of samples: `shape` (a size), which the parameters' broadcast shape must broadcast to, or that
    shape when it is None."""
    if shape is None:
        return tuple(broadcast)
    if numpy.broadcast_shapes(broadcast, shape) != shape:
        raise ValueError(
            f"shape mismatch: objects cannot be broadcast to a single shape. The parameters' shape "
            f"{tuple(broadcast)} does not broadcast to size {shape}."
        )
    return shape


def _check_bounds(low, high, dt, info, endpoint):
    """NumPy's checks of integer bounds (scalars, or object arrays of Python ints): `high` is inclusive."""
    if numpy.any(low < info[0]):
        raise ValueError(f"low is out of bounds for {dt}")
    if numpy.any(high > info[1]):
        raise ValueError(f"high is out of bounds for {dt}")
    if numpy.any(low > high):
        raise ValueError("low > high" if endpoint else "low >= high")


def _integer(value):
    """A bound as a Python int (NumPy truncates float bounds)."""
    if isinstance(value, ndarray):
        value = value.item()
    try:
        return operator.index(value)
    except TypeError:
        return int(value)


def _cdf(p, pop_size, legacy):
    """The running sum of the probabilities `p`, checked as NumPy's choice checks them (RandomState's messages
    where `legacy`, else Generator's), ending at exactly 1."""
    # NumPy's tolerance of the sum: sqrt(eps) of float64, or of p's own floating dtype where that is wider (p of
    # float32 normalised in float32 is off by about 1e-7).
    atol = math.sqrt(numpy.finfo(numpy.float64).eps)
    dtype = getattr(p, "dtype", None)
    if isinstance(p, (ndarray, numpy.ndarray)) and numpy.issubdtype(dtype, numpy.floating):
        atol = max(atol, math.sqrt(numpy.finfo(dtype).eps))
    hp = numpy.asarray(_host(p), dtype=numpy.float64)
    if hp.ndim != 1:
        raise ValueError("'p' must be 1-dimensional" if legacy else "p must be 1-dimensional")
    if hp.size != pop_size:
        raise ValueError("'a' and 'p' must have same size" if legacy else "a and p must have same size")
    with numpy.errstate(invalid="ignore", over="ignore"):
        nan_sum = math.isnan(float(numpy.sum(hp)))
    if nan_sum:  # NumPy tests the sum: a NaN, or inf and -inf together
        raise ValueError("probabilities contain NaN" if legacy else "Probabilities contain NaN")
    if numpy.any(hp < 0):
        raise ValueError(
            "probabilities are not non-negative" if legacy else "Probabilities are not non-negative"
        )
    try:
        total = math.fsum(hp)
    except OverflowError:  # a sum past float64's range
        total = math.inf
    if abs(total - 1.0) > atol:
        raise ValueError(
            "probabilities do not sum to 1"
            if legacy
            else "Probabilities do not sum to 1. See Notes section of docstring for more information."
        )
    cdf = numpy.cumsum(hp)
    return cdf / cdf[-1]


def _int_dtype(dtype, name):
    dt = numpy.dtype(dtype)
    if dt.kind not in "iu":
        raise TypeError(f"Unsupported dtype {dt!r} for {name}")
    return dt
