"""SciPy's argrelmin, argrelmax, argrelextrema, find_peaks, peak_prominences and peak_widths on device arrays,
with SciPy's results: indices as int64 device arrays, properties in float64 (SciPy computes in float64 whatever
the signal's type, where CuPy keeps it), SciPy's errors and its PeakPropertyWarning. The signals and peak
indices may be host values (Note [Host signals]).

Note [Where peak finding runs]
Local maxima, heights, thresholds and the interval conditions are array operations on the device. A peak's
prominence and width come from walks along the signal that stop where the data says (SciPy's Cython loops);
they run as one device thread per peak (ElementwiseKernel), each the same comparisons and float64 operations
as SciPy's loop, so the results are SciPy's bit for bit. The distance condition is a greedy pass in order of
height that can only run serially: its peaks and heights come to the host in one copy each and the pass runs
there, over NumPy's default argsort as SciPy's does (so equal heights are taken in the order SciPy takes them),
and only over the peaks that have a neighbour within the distance.

Note [Host signals]
CuPy's peak functions take their signal (and peak_prominences' and peak_widths' peaks) through cupy.asarray,
so a list, a NumPy array or a scalar is copied to the device; CuPy's tests pass lists. These do the same. What
CuPy uses as it is stays a device array here: peak_widths' prominence_data (CuPy hands it to a kernel) and
find_peaks' per-sample borders (CuPy compares them with device arrays); host arrays there are refused with
CuPy's TypeError.
"""

import math
import warnings

import numpy

from cuarray import _creation, _indexing, _joining, _reduction, _sorting, _ufuncs
from cuarray._ndarray import ndarray
from cuarray._transfer import asarray, ascontiguousarray
from cuarray.scipy.signal._convolve import require_device

__all__ = ["argrelextrema", "argrelmax", "argrelmin", "find_peaks", "peak_prominences", "peak_widths"]


class PeakPropertyWarning(RuntimeWarning):
    """A peak's property has an unexpected value (a prominence or a width of 0): SciPy's warning class."""


# --------------------------------------------------------------------------- relative extrema


def _boolrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    """SciPy's: True where comparator(data[n], data[n +- k]) holds for k = 1..order along `axis`, the edges
    taken by `mode` as take() takes them ('clip' or 'wrap'; 'raise' raises for any non-empty axis)."""
    if (int(order) != order) or (order < 1):
        raise ValueError("Order must be an int >= 1")
    datalen = data.shape[axis]
    locs = _creation.arange(0, datalen)
    results = _creation.ones(data.shape, dtype=bool)
    main = _indexing.take(data, locs, axis=axis, mode=mode)
    for shift in range(1, order + 1):
        plus = _indexing.take(data, locs + shift, axis=axis, mode=mode)
        minus = _indexing.take(data, locs - shift, axis=axis, mode=mode)
        results &= comparator(main, plus)
        results &= comparator(main, minus)
        if not bool(results.any()):  # SciPy's early exit: no extremum is left to test further
            return results
    return results


def argrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    """Indices of the relative extrema of `data` by `comparator` along `axis`: a tuple of device arrays, one
    per axis, as nonzero() gives them."""
    data = asarray(data)  # Note [Host signals]
    return _indexing.nonzero(_boolrelextrema(data, comparator, axis, order, mode))


def argrelmin(data, axis=0, order=1, mode="clip"):
    """Indices of the relative minima (strictly smaller than `order` neighbours on each side)."""
    return argrelextrema(data, _ufuncs.less, axis, order, mode)


def argrelmax(data, axis=0, order=1, mode="clip"):
    """Indices of the relative maxima (strictly larger than `order` neighbours on each side)."""
    return argrelextrema(data, _ufuncs.greater, axis, order, mode)


# --------------------------------------------------------------------------- arguments


def _arg_x_as_expected(value):
    """The signal as a C-contiguous float64 device array, which must be 1-D (SciPy's conversion)."""
    value = asarray(value).astype(numpy.float64, copy=False)  # Note [Host signals]
    if value.ndim != 1:
        raise ValueError("`x` must be a 1-D array")
    return ascontiguousarray(value)  # after the check: ascontiguousarray makes a 0-d array 1-D


def _arg_peaks_as_expected(value):
    """Peak indices as a 1-D int64 device array: an empty array of any type is accepted, others must cast
    safely to intp (SciPy's checks, in its order)."""
    value = asarray(value)  # Note [Host signals]
    if value.size == 0:
        value = _creation.zeros(0, numpy.intp)
    if not numpy.can_cast(value.dtype, numpy.intp, "safe"):
        raise TypeError("cannot safely cast `peaks` to dtype('intp')")
    value = value.astype(numpy.intp, copy=False)
    if value.ndim != 1:
        raise ValueError("`peaks` must be a 1-D array")
    return ascontiguousarray(value)


def _arg_wlen_as_expected(value):
    """SciPy's window length: -1 for None, a Python float rounded up, anything else as intp; at least 2."""
    if value is None:
        value = -1
    elif 1 < value:
        if isinstance(value, float):
            value = math.ceil(value)
        value = numpy.intp(value)
    else:
        raise ValueError(f"`wlen` must be larger than 1, was {value}")
    return value


def _as_double(value):
    """A Python float from `value`, as Cython's conversion to a C double takes it (a str is a TypeError)."""
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"must be real number, not {type(value).__name__}")
    return float(value)


def _first_failing(bad, peaks):
    """The value in `peaks` at the first True of `bad`, or None where none is."""
    where = _indexing.flatnonzero(bad)
    return int(peaks[where[0]]) if where.size else None


# --------------------------------------------------------------------------- prominences and widths

# Note [Peak kernels]
# The bodies are SciPy's _peak_prominences and _peak_widths loops for one peak, in float64 as SciPy computes.
# __dmul_rn and __dsub_rn keep the evaluation height x[peak] - prominence * rel_height two roundings, as on the
# host: NVRTC would otherwise contract it into one fused multiply-add, whose different last bit moves where the
# walk stops. Everything else is comparisons, one subtraction and IEEE divisions, which the device rounds as
# the host does.
_PROMINENCE_BODY = r"""
const long long last = x.size() - 1;
long long k_min = 0, k_max = last;
if (wlen >= 2) {
    k_min = peak - wlen / 2 > 0 ? peak - wlen / 2 : 0;
    k_max = peak + wlen / 2 < last ? peak + wlen / 2 : last;
}
const double top = x[peak];
long long k = peak, base = peak;
double left_min = top;
while (k_min <= k && x[k] <= top) {
    if (x[k] < left_min) { left_min = x[k]; base = k; }
    --k;
}
left_base = base;
k = peak;
base = peak;
double right_min = top;
while (k <= k_max && x[k] <= top) {
    if (x[k] < right_min) { right_min = x[k]; base = k; }
    ++k;
}
right_base = base;
prominence = top - (right_min > left_min ? right_min : left_min);
"""

_WIDTH_BODY = r"""
const double height = __dsub_rn(x[peak], __dmul_rn(prominence, rel_height));
width_height = height;
long long k = peak;
while (left_base < k && height < x[k]) --k;
double lip = (double)k;
if (x[k] < height) lip += (height - x[k]) / (x[k + 1] - x[k]);
k = peak;
while (k < right_base && height < x[k]) ++k;
double rip = (double)k;
if (x[k] < height) rip -= (height - x[k]) / (x[k - 1] - x[k]);
width = rip - lip;
left_ip = lip;
right_ip = rip;
"""

_kernels = {}


def _kernel(name):
    """The ElementwiseKernel `name` ('prominence' or 'width'), made on first use (Note [Peak kernels])."""
    k = _kernels.get(name)
    if k is None:
        from cuarray._kernel import ElementwiseKernel

        if name == "prominence":
            k = ElementwiseKernel(
                "raw float64 x, int64 peak, int64 wlen",
                "float64 prominence, int64 left_base, int64 right_base",
                _PROMINENCE_BODY,
                "cuarray_peak_prominences",
            )
        else:
            k = ElementwiseKernel(
                "raw float64 x, int64 peak, float64 prominence, int64 left_base, int64 right_base, "
                "float64 rel_height",
                "float64 width, float64 width_height, float64 left_ip, float64 right_ip",
                _WIDTH_BODY,
                "cuarray_peak_widths",
            )
        _kernels[name] = k
    return k


def _peak_prominences(x, peaks, wlen):
    """SciPy's _peak_prominences: (prominences, left_bases, right_bases) of `peaks` in `x`."""
    peak = _first_failing(_ufuncs.logical_or(peaks < 0, peaks > x.size - 1), peaks)
    if peak is not None:
        raise ValueError(f"peak {peak} is not a valid index for `x`")
    if peaks.size == 0:
        return (
            _creation.zeros(0, numpy.float64),
            _creation.zeros(0, numpy.intp),
            _creation.zeros(0, numpy.intp),
        )
    prominences, left_bases, right_bases = _kernel("prominence")(x, peaks, numpy.int64(wlen))
    if bool((prominences == 0).any()):
        warnings.warn("some peaks have a prominence of 0", PeakPropertyWarning, stacklevel=3)
    return prominences, left_bases, right_bases


def _check_buffer(a, dtype, name, argument):
    """Cython's checks of a typed memoryview argument (const dtype[::1] `argument`, not None) for a device
    array; a host array is refused (Note [Host signals])."""
    if a is None:
        raise TypeError(f"Argument '{argument}' must not be None")
    require_device(a)
    if a.dtype != dtype:
        raise ValueError(f"Buffer dtype mismatch, expected 'const {name}' but got '{a.dtype}'")
    if a.ndim != 1:
        raise ValueError(f"Buffer has wrong number of dimensions (expected 1, got {a.ndim})")
    if not a.flags.c_contiguous:
        raise ValueError("ndarray is not C-contiguous")


def _peak_widths(x, peaks, rel_height, prominences, left_bases, right_bases):
    """SciPy's _peak_widths: (widths, width_heights, left_ips, right_ips), with its checks in its order."""
    rel_height = _as_double(rel_height)
    _check_buffer(prominences, numpy.float64, "float64_t", "prominences")
    _check_buffer(left_bases, numpy.intp, "intp_t", "left_bases")
    _check_buffer(right_bases, numpy.intp, "intp_t", "right_bases")
    if rel_height < 0:
        raise ValueError("`rel_height` must be greater or equal to 0.0")
    if not (peaks.shape[0] == prominences.shape[0] == left_bases.shape[0] == right_bases.shape[0]):
        raise ValueError("arrays in `prominence_data` must have the same shape as `peaks`")
    valid = (left_bases >= 0) & (left_bases <= peaks) & (peaks <= right_bases) & (right_bases < x.size)
    peak = _first_failing(~valid, peaks)
    if peak is not None:
        raise ValueError(f"prominence data is invalid for peak {peak}")
    if peaks.size == 0:
        return tuple(_creation.zeros(0, numpy.float64) for _ in range(4))
    out = _kernel("width")(x, peaks, prominences, left_bases, right_bases, numpy.float64(rel_height))
    if bool((out[0] == 0).any()):
        warnings.warn("some peaks have a width of 0", PeakPropertyWarning, stacklevel=3)
    return out


def peak_prominences(x, peaks, wlen=None):
    """(prominences, left_bases, right_bases) of `peaks` in the 1-D signal `x` (SciPy's definition; `wlen`
    limits the search to a window around each peak)."""
    x = _arg_x_as_expected(x)
    peaks = _arg_peaks_as_expected(peaks)
    wlen = _arg_wlen_as_expected(wlen)
    return _peak_prominences(x, peaks, wlen)


def peak_widths(x, peaks, rel_height=0.5, prominence_data=None, wlen=None):
    """(widths, width_heights, left_ips, right_ips) of `peaks` at `rel_height` of their prominences;
    `prominence_data` as peak_prominences returns it, else computed here with `wlen`."""
    x = _arg_x_as_expected(x)
    peaks = _arg_peaks_as_expected(peaks)
    if prominence_data is None:
        wlen = _arg_wlen_as_expected(wlen)
        prominence_data = _peak_prominences(x, peaks, wlen)
    return _peak_widths(x, peaks, rel_height, *prominence_data)


# --------------------------------------------------------------------------- find_peaks


def _at(a, idx):
    """a[idx] for indices known to be in range (no bounds check, so no synchronization)."""
    return _indexing.take(a, idx, mode="clip")


def _local_maxima_1d(x):
    """SciPy's _local_maxima_1d as array operations: (midpoints, left_edges, right_edges) of the maxima.

    A maximum starts where x rises (x[i - 1] < x[i]) and ends before the first later sample that differs from
    x[i] (a NaN differs from everything), looking no further than the last sample; it is one where that sample
    is smaller. Its index is the plateau's middle, rounded down. SciPy's loop skips the samples of a maximum
    it found, none of which rises, so testing every rise gives the same maxima."""
    n = x.size
    if n < 3:
        empty = _creation.zeros(0, numpy.intp)
        return empty, empty, empty
    rises = _indexing.flatnonzero(x[:-2] < x[1:-1]) + 1  # left edges to test, 1 .. n - 2
    changes = _indexing.flatnonzero(x[1:] != x[:-1]) + 1  # samples that differ from the one before
    ends = _joining.concatenate([changes, _creation.full(1, n - 1, numpy.intp)])
    ahead = _ufuncs.minimum(_at(ends, _sorting.searchsorted(changes, rises, side="right")), n - 1)
    keep = _indexing.flatnonzero(_at(x, ahead) < _at(x, rises))
    left, right = _at(rises, keep), _at(ahead, keep) - 1
    return (left + right) // 2, left, right


# Note [Interval borders]
# A border is a value or an array of len(x) giving one value per sample, as in SciPy. A 0-d device array is a
# value: it is what unpacking a 2-element device array gives (SciPy's NumPy gives scalars there, so
# height=cp.array([1, 2]) is the interval [1, 2] as in SciPy) and what x.mean() and the like return. A host
# NumPy array is refused with CuPy's TypeError.
def _unpack_condition_args(interval, x, peaks):
    """SciPy's (imin, imax) from a condition: a value, an array matching x, or a pair of those (None open)."""
    try:
        imin, imax = interval
    except (TypeError, ValueError):
        imin, imax = (interval, None)
    borders = []
    for border, which in ((imin, "lower"), (imax, "upper")):
        if isinstance(border, numpy.ndarray):
            require_device(border)
        if isinstance(border, ndarray) and border.ndim:
            if border.size != x.size:
                raise ValueError(f"array size of {which} interval border must match x")
            border = border[peaks]
        borders.append(border)
    return tuple(borders)


def _select_by_property(peak_properties, pmin, pmax):
    keep = _creation.ones(peak_properties.size, dtype=bool)
    if pmin is not None:
        keep &= pmin <= peak_properties
    if pmax is not None:
        keep &= peak_properties <= pmax
    return keep


def _select_by_peak_threshold(x, peaks, tmin, tmax):
    heights = _at(x, peaks)
    stacked = _joining.vstack([heights - _at(x, peaks - 1), heights - _at(x, peaks + 1)])
    keep = _creation.ones(peaks.size, dtype=bool)
    if tmin is not None:
        keep &= tmin <= _reduction.min(stacked, axis=0)
    if tmax is not None:
        keep &= _reduction.max(stacked, axis=0) <= tmax
    return keep, stacked[0], stacked[1]


# Note [Distance as SciPy rounds it]
# SciPy's Cython takes ceil(distance) into a C integer. A NaN or a value past int64's range has no integer
# there; x86-64 converts it to -2**63, and then no peak is closer than that, so SciPy keeps every peak
# (find_peaks(x, distance=np.nan) and distance=1e300 keep them all). That is reproduced; any distance of at
# least len(x) removes the same peaks as len(x) does, so larger ones are cut to it, which keeps the sums below
# in int64.
def _distance_keep(peaks, priority, distance, n):
    """SciPy's greedy distance selection on host arrays: a bool mask over the ascending `peaks` of a signal of
    `n` samples, keeping the highest `priority` first and removing its neighbours closer than `distance`."""
    d = math.ceil(distance) if math.isfinite(distance) else None
    keep = numpy.ones(peaks.size, dtype=bool)
    if d is None or not -(2**63) <= d < 2**63:
        return keep  # Note [Distance as SciPy rounds it]
    d = min(d, n)
    lo = numpy.searchsorted(peaks, peaks - d, side="right")  # peaks[j] - peaks[k] < d for k in lo..j-1
    hi = numpy.searchsorted(peaks, peaks + d, side="left")  # peaks[k] - peaks[j] < d for k in j+1..hi-1
    crowded = (hi - lo) > 1  # a peak with no neighbour that close is kept and removes none
    order = numpy.argsort(priority)  # NumPy's default sort, as SciPy's: equal heights in its order
    lo, hi = lo.tolist(), hi.tolist()
    for j in order[crowded[order]][::-1].tolist():  # highest first
        if keep[j]:
            keep[lo[j] : j] = False
            keep[j + 1 : hi[j]] = False
    return keep


def _select_by_peak_distance(peaks, priority, distance, n):
    """The distance condition's device mask (Note [Where peak finding runs])."""
    return asarray(_distance_keep(peaks.get(), priority.get(), distance, n))


def _filtered(keep, peaks, properties):
    """peaks[keep] and every property [keep], with one synchronization."""
    idx = _indexing.flatnonzero(keep)
    return _at(peaks, idx), {key: _at(array, idx) for key, array in properties.items()}


def find_peaks(
    x,
    height=None,
    threshold=None,
    distance=None,
    prominence=None,
    width=None,
    wlen=None,
    rel_height=0.5,
    plateau_size=None,
):
    """Indices of the local maxima of the 1-D signal `x` that meet the given conditions, and a dict of the
    properties computed for them (SciPy's keys and dtypes), the conditions applied in SciPy's order."""
    x = _arg_x_as_expected(x)
    if distance is not None and distance < 1:
        raise ValueError("`distance` must be greater or equal to 1")

    peaks, left_edges, right_edges = _local_maxima_1d(x)
    properties = {}

    if plateau_size is not None:
        plateau_sizes = right_edges - left_edges + 1
        pmin, pmax = _unpack_condition_args(plateau_size, x, peaks)
        keep = _select_by_property(plateau_sizes, pmin, pmax)
        properties["plateau_sizes"] = plateau_sizes
        properties["left_edges"] = left_edges
        properties["right_edges"] = right_edges
        peaks, properties = _filtered(keep, peaks, properties)

    if height is not None:
        peak_heights = _at(x, peaks)
        hmin, hmax = _unpack_condition_args(height, x, peaks)
        keep = _select_by_property(peak_heights, hmin, hmax)
        properties["peak_heights"] = peak_heights
        peaks, properties = _filtered(keep, peaks, properties)

    if threshold is not None:
        tmin, tmax = _unpack_condition_args(threshold, x, peaks)
        keep, left_thresholds, right_thresholds = _select_by_peak_threshold(x, peaks, tmin, tmax)
        properties["left_thresholds"] = left_thresholds
        properties["right_thresholds"] = right_thresholds
        peaks, properties = _filtered(keep, peaks, properties)

    if distance is not None:
        keep = _select_by_peak_distance(peaks, _at(x, peaks), _as_double(distance), x.size)
        peaks, properties = _filtered(keep, peaks, properties)

    if prominence is not None or width is not None:
        wlen = _arg_wlen_as_expected(wlen)
        properties.update(
            zip(["prominences", "left_bases", "right_bases"], _peak_prominences(x, peaks, wlen=wlen))
        )

    if prominence is not None:
        pmin, pmax = _unpack_condition_args(prominence, x, peaks)
        keep = _select_by_property(properties["prominences"], pmin, pmax)
        peaks, properties = _filtered(keep, peaks, properties)

    if width is not None:
        properties.update(
            zip(
                ["widths", "width_heights", "left_ips", "right_ips"],
                _peak_widths(
                    x,
                    peaks,
                    rel_height,
                    properties["prominences"],
                    properties["left_bases"],
                    properties["right_bases"],
                ),
            )
        )
        wmin, wmax = _unpack_condition_args(width, x, peaks)
        keep = _select_by_property(properties["widths"], wmin, wmax)
        peaks, properties = _filtered(keep, peaks, properties)

    return peaks, properties
