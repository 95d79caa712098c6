"""numpy.pad on device arrays: every mode and pad-width form of NumPy's, with its errors.

The padded array is allocated once and the input copied into its middle; then each axis in turn fills its
pad areas from the valid region with views and device copies (edges, reflections and wraps are slices,
statistics and ramps are reductions and elementwise ops), as NumPy does. Axes already padded are included
in the region of later axes, so corners come from padded values. Reflections and wraps longer than the
data repeat with a period that doubles each round, so an axis takes O(log(pad / size)) copies.
"""

import operator

import numpy

from cuarray import _reduction
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._creation import arange, empty, full
from cuarray._transfer import asarray

__all__ = ["pad"]

# The keyword arguments each mode takes.
_MODE_KWARGS = {
    "constant": ("constant_values",),
    "edge": (),
    "linear_ramp": ("end_values",),
    "maximum": ("stat_length",),
    "mean": ("stat_length",),
    "median": ("stat_length",),
    "minimum": ("stat_length",),
    "reflect": ("reflect_type",),
    "symmetric": ("reflect_type",),
    "wrap": (),
    "empty": (),
}


def _host(x):
    """A pad parameter (widths, values, lengths) as host data; a device array among them is read back."""
    return x.get() if isinstance(x, ndarray) else x


def _as_pairs(x, ndim, as_index=False):
    """`x` as ndim (before, after) pairs, read as NumPy reads pad_width, stat_length and the pad values: one
    value for all, one pair for all axes, or one pair per axis. With `as_index`, rounded to non-negative
    integers."""
    if x is None:
        return ((None, None),) * ndim
    x = numpy.array(_host(x))
    if as_index:
        x = numpy.round(x).astype(numpy.intp, copy=False)
    if x.ndim < 3 and (x.size == 1 or (x.size == 2 and x.shape != (2, 1))):
        flat = x.ravel()  # one value, or one (before, after) pair, for every axis
        if as_index and (flat < 0).any():
            raise ValueError("index can't contain negative values")
        return ((flat[0], flat[-1]),) * ndim
    if as_index and x.size and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return numpy.broadcast_to(x, (ndim, 2)).tolist()


def _pad_widths(pad_width, ndim):
    """NumPy's reading of pad_width: an int, a pair, pairs per axis, or a dict {axis: int or pair}."""
    if isinstance(pad_width, dict):
        pairs = [(0, 0)] * ndim
        for axis, width in pad_width.items():
            if isinstance(width, tuple) and len(width) == 2:
                pairs[axis] = tuple(operator.index(w) for w in width)
            else:
                try:
                    pairs[axis] = (operator.index(width),) * 2
                except TypeError:
                    raise TypeError(
                        f"pad_width dict values must be an int or a pair of ints, got {width!r} for "
                        f"axis {axis}"
                    ) from None
        pad_width = pairs
    pad_width = numpy.asarray(_host(pad_width))
    if pad_width.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    return [(int(before), int(after)) for before, after in _as_pairs(pad_width, ndim, as_index=True)]


def _check_mode(mode, kwargs):
    try:
        allowed = _MODE_KWARGS[mode]
    except (KeyError, TypeError):
        raise ValueError(f"mode '{mode}' is not supported") from None
    unsupported = set(kwargs) - set(allowed)
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")


def pad(array, pad_width, mode="constant", **kwargs):
    """`array` padded by pad_width[axis] = (before, after) elements on each axis, filled by `mode`: 'constant'
    (constant_values), 'edge', 'linear_ramp' (end_values), 'maximum', 'minimum', 'mean', 'median'
    (stat_length), 'reflect', 'symmetric' (reflect_type 'even' or 'odd'), 'wrap', 'empty', or a function
    called on each 1-D line as NumPy calls it."""
    if isinstance(array, numpy.ndarray):
        raise TypeError("cuarray.pad: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)")
    ndim = array.ndim if isinstance(array, ndarray) else numpy.ndim(array)
    widths = _pad_widths(pad_width, ndim)
    if not callable(mode):
        _check_mode(mode, kwargs)
    array = array if isinstance(array, ndarray) else asarray(array)
    if callable(mode):
        return _pad_with_function(_allocate(array, widths, 0)[0], widths, mode, kwargs)
    if mode == "constant":
        values = numpy.array(_host(kwargs.get("constant_values", 0)))
        # Each value as NumPy's pad writes it, one scalar into the array's dtype. NumPy's _as_pairs passes one
        # value, or one per side, as NumPy scalars (a value out of the dtype's range wraps) and a pair per axis
        # as Python numbers (out of range: NumPy's OverflowError; complex into real: its TypeError).
        numpy_scalars = values.ndim < 3 and (
            values.size == 1 or (values.size == 2 and values.shape != (2, 1))
        )
        converted = numpy.empty(values.shape, array.dtype)
        flat = converted.reshape(-1)  # item assignment raises NumPy's own error (.flat's wraps it in another)
        for i, v in enumerate(values.ravel() if numpy_scalars else values.ravel().tolist()):
            flat[i] = v
        values = converted
        if numpy.size(values) == 1:  # one value everywhere: fill the whole array, then copy the data in
            return _allocate(array, widths, numpy.asarray(values).ravel()[0])[0]
        padded, inner = _allocate(array, widths)
        for axis, ((before, after), pair) in enumerate(zip(widths, _as_pairs(values, ndim))):
            if before or after:
                _fill(_region(padded, inner, axis), axis, before, after, *pair)
        return padded
    padded, inner = _allocate(array, widths)
    if mode == "empty":
        return padded
    if array.size == 0:
        # Every other mode reads the data; an empty array can only be "padded" by nothing along its empty axes.
        for axis, (before, after) in enumerate(widths):
            if array.shape[axis] == 0 and (before or after):
                raise ValueError(
                    f"can't extend empty axis {axis} using modes other than 'constant' or 'empty'"
                )
        return padded
    if mode == "linear_ramp":
        ends = _as_pairs(kwargs.get("end_values", 0), ndim)
    elif mode in ("maximum", "minimum", "mean", "median"):
        lengths = _as_pairs(kwargs.get("stat_length"), ndim, as_index=True)
    for axis, (before, after) in enumerate(widths):
        if not (before or after):
            continue
        region = _region(padded, inner, axis)
        n = array.shape[axis]
        if mode == "edge" or (mode in ("reflect", "symmetric") and n == 1):
            _fill(region, axis, before, after, _at(region, axis, before), _at(region, axis, before + n - 1))
        elif mode == "linear_ramp":
            _fill(region, axis, before, after, *_ramps(region, axis, before, after, n, ends[axis]))
        elif mode in ("maximum", "minimum", "mean", "median"):
            _fill(region, axis, before, after, *_stats(region, axis, before, n, lengths[axis], mode))
        elif mode == "wrap":
            _wrap(region, axis, before, after, n)
        else:
            _reflect(region, axis, before, after, n, mode == "symmetric", kwargs.get("reflect_type") == "odd")
    return padded


def _allocate(array, widths, fill=None):
    """(padded array with `array` copied into its middle and `fill` around it (None: left unset), the slices
    of that middle)."""
    shape = tuple(before + n + after for n, (before, after) in zip(array.shape, widths))
    order = "F" if array.flags.f_contiguous and not array.flags.c_contiguous else "C"
    padded = empty(shape, array.dtype, order) if fill is None else full(shape, fill, array.dtype, order)
    inner = tuple(slice(before, before + n) for n, (before, _) in zip(array.shape, widths))
    padded[inner] = array
    return padded, inner


def _region(padded, inner, axis):
    """The part of `padded` that the pad areas of `axis` span: whole along the axes padded so far, the middle
    along the later ones."""
    return padded[(slice(None),) * (axis + 1) + inner[axis + 1 :]]


def _along(axis, index):
    return (slice(None),) * axis + (index,)


def _at(a, axis, i):
    """The slab of `a` at position i along `axis`, keeping the axis (length 1)."""
    return a[_along(axis, slice(i, i + 1))]


def _fill(region, axis, before, after, left, right):
    """Writes `left` (a value, or an array that broadcasts) into the `before` pad area of `axis`, and `right`
    into the `after` one."""
    n = region.shape[axis]
    region[_along(axis, slice(0, before))] = left
    region[_along(axis, slice(n - after, n))] = right


def _ramps(region, axis, before, after, n, end_pair):
    """The linear ramps from each end value to the edge next to it (the edge excluded), as NumPy's linspace
    makes them, floored for integer types."""
    edges = _at(region, axis, before), _at(region, axis, before + n - 1)
    ramps = []
    for edge, end, width in zip(edges, end_pair, (before, after)):
        t = numpy.result_type(region.dtype, end, 1.0)  # linspace's type: inexact, end values typed as NumPy's
        shape = [1] * region.ndim
        shape[axis] = width
        steps = arange(width, dtype=t).reshape(shape)
        delta = _u.subtract(edge, end, dtype=t)
        step = _u.divide(delta, width)
        # linspace's two roundings: steps * (delta / width), or, where any lane's step underflows to 0,
        # (steps / width) * delta for every lane.
        if width and bool((step == 0).any()):
            ramp = _u.multiply(_u.divide(steps, width), delta)
        else:
            ramp = _u.multiply(steps, step)
        ramp = _u.add(ramp, end, dtype=t)
        if region.dtype.kind in "iu":
            _u.floor(ramp, out=ramp)
        ramps.append(ramp)
    return ramps[0], ramps[1][_along(axis, slice(None, None, -1))]


def _stats(region, axis, before, n, length_pair, mode):
    """The statistic of the first and last stat_length elements of the valid region along `axis` (all of it for
    None), rounded for integer types."""
    from cuarray import _statistics

    reduce = {
        "maximum": _reduction.max,
        "minimum": _reduction.min,
        "mean": _reduction.mean,
        "median": _statistics.median,
    }[mode]
    left_n, right_n = (n if k is None or k > n else k for k in length_pair)
    if (left_n == 0 or right_n == 0) and mode in ("maximum", "minimum"):
        raise ValueError("stat_length of 0 yields no value for padding")
    stats = []
    for start, length in ((before, left_n), (before + n - right_n, right_n)):
        stat = reduce(region[_along(axis, slice(start, start + length))], axis=axis, keepdims=True)
        if region.dtype.kind in "iu" and stat.dtype.kind in "fc":
            stat = _u.rint(stat)
        stats.append(stat)
    return stats


def _wrap(region, axis, before, after, n):
    """Fills both pad areas with copies of the valid region, which grows each round by whole periods."""
    size = region.shape[axis]
    while before or after:
        period = (size - before - after) // n * n
        left, right = min(period, before), min(period, after)
        hi = size - after
        region[_along(axis, slice(before - left, before))] = region[
            _along(axis, slice(before + period - left, before + period))
        ]
        region[_along(axis, slice(hi, hi + right))] = region[
            _along(axis, slice(hi - period, hi - period + right))
        ]
        before, after = before - left, after - right


def _reflect(region, axis, before, after, n, symmetric, odd):
    """Fills both pad areas with mirror images of the valid region (about the edge element for 'reflect',
    about the edge for 'symmetric'; 'odd' negates them about the edge value), which grows each round."""
    size = region.shape[axis]
    skip = 0 if symmetric else 1  # 'reflect' does not repeat the edge element
    while before or after:
        valid = size - before - after
        # The longest chunk that is a whole number of mirror periods (n, or n - 1 without the edge).
        chunk = valid // n * n if symmetric else (valid - 1) // (n - 1) * (n - 1)
        hi = size - after
        if before:
            k = min(chunk, before)
            src = region[_along(axis, _backward(before + skip + k - 1, before + skip - 1))]
            _mirror_into(
                region, axis, slice(before - k, before), src, _at(region, axis, before) if odd else None
            )
            before -= k
        if after:
            k = min(chunk, after)
            src = region[_along(axis, _backward(hi - 1 - skip, hi - 1 - skip - k))]
            _mirror_into(region, axis, slice(hi, hi + k), src, _at(region, axis, hi - 1) if odd else None)
            after -= k


def _backward(start, stop):
    """slice(start, stop, -1), where stop -1 means "through index 0"."""
    return slice(start, stop if stop >= 0 else None, -1)


def _mirror_into(region, axis, target, src, edge):
    """region[target along axis] = src, or 2 * edge - src for odd reflections."""
    region[_along(axis, target)] = src if edge is None else _u.subtract(_u.multiply(edge, 2), src)


def _pad_with_function(padded, widths, function, kwargs):
    """NumPy's legacy callable mode: on the zero-padded array, function(line, (before, after), axis, kwargs)
    modifies each 1-D line along each axis in place (one Python call per line)."""
    from cuarray._manipulation import moveaxis

    for axis in range(padded.ndim):
        lines = moveaxis(padded, axis, -1)
        for index in numpy.ndindex(lines.shape[:-1]):
            function(lines[index], widths[axis], axis, kwargs)
    return padded
