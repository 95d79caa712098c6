"""NumPy's discrete Fourier transforms on cuFFT (cpp/cuarray/ops/fft.cpp).

cuFFT transforms the trailing axes of C-contiguous arrays, so the axes to transform are moved last by a
transposing copy (which also pads or truncates them and casts the dtype) and moved back as a view. Dtypes follow
NumPy 2: float16, float32 and complex64 transform in single precision, everything else in double.

Note [FFT layouts]
NumPy's results keep the input's layout (C in, C out; F in, F out). A complex transform needs no move, and so
keeps it, where its axes are the trailing ones of a C-contiguous input, or the leading ones of an F-contiguous
input, which is transformed as its C-contiguous transpose; its axes are taken in increasing order, which gives
the same values (a real transform's last axis is the real one, so its axes keep their order). Other calls
move axes, and their results are views in the moved layout, as CuPy's axis-by-axis transforms are:
_default_fft_func tells the two apart, under CuPy's names (`_fftn` for the first kind, `_fft` for the second).

Note [C2R inputs]
NumPy's irfftn(X) is the real array whose rfftn is X with the zero-frequency column of the last axis (and for
an even length the Nyquist one) replaced by its Hermitian part over the other axes, (Y + conj(Y[-k])) / 2: the
imaginary parts a real result cannot have are ignored. cuFFT's C2R transform is defined for Hermitian inputs
alone, so those columns are made Hermitian first (for one axis: their real parts); then one C2R transform over
up to three axes gives NumPy's values.
"""

import operator

import numpy
from numpy.lib.array_utils import normalize_axis_index

from cuarray import _core, _creation, _joining, _manipulation, _transfer, _ufuncs
from cuarray._core import ndarray
from cuarray.fft import config

_SINGLE = (numpy.dtype(numpy.float16), numpy.dtype(numpy.float32), numpy.dtype(numpy.complex64))
_MAX_RANK = 3  # axes cuFFT transforms in one plan


def check_array(a):
    if not isinstance(a, ndarray):
        raise TypeError(f"Unsupported type {type(a)}")
    return a


def check_norm(norm):
    if norm not in (None, "backward", "ortho", "forward"):
        raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')
    return norm or "backward"


def swap_direction(norm):
    return {"backward": "forward", "ortho": "ortho", "forward": "backward"}[check_norm(norm)]


def points(n):
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def complex_type(dtype):
    return numpy.dtype(numpy.complex64 if dtype in _SINGLE else numpy.complex128)


def real_type(dtype):
    return numpy.dtype(numpy.float32 if dtype in _SINGLE else numpy.float64)


def _factor(n, norm, inverse, dtype):
    """NumPy's normalisation factor for one axis of n points: 1/n on the inverse for 'backward', on the forward
    for 'forward', 1/sqrt(n) for 'ortho'; computed in the real precision of the array the axis is transformed
    in, as NumPy computes it (float16 inputs get a float16 factor)."""
    real = numpy.result_type(numpy.empty(0, dtype).real.dtype, 1.0)
    if norm == "ortho":
        return float(numpy.reciprocal(numpy.sqrt(n, dtype=real)))
    if (norm == "backward") == inverse:
        return float(numpy.reciprocal(real.type(n)))
    return 1.0


def scale(out, sizes, norm, inverse, dtype, first=-1):
    """Applies NumPy's factors of all transformed axes to `out`, in place; NumPy transforms axis `first` of
    `sizes` on the input (of `dtype`) and the others on complex results. `norm`: check_norm's."""
    factor = _factor(sizes[first], norm, inverse, dtype)
    for i, n in enumerate(sizes):
        if i != first % len(sizes):
            factor *= _factor(n, norm, inverse, complex_type(dtype))
    if factor != 1.0:
        _ufuncs.multiply(out, factor, out=out)


def _last(a, axes, sizes, dtype, copy):
    """A C-contiguous array of `dtype` holding `a` with `axes` moved last (in order) and each truncated or
    zero-padded to `sizes`. Without `copy`, `a` itself when it already is that array."""
    k = len(axes)
    moved = _manipulation.moveaxis(a, tuple(axes), tuple(range(a.ndim - k, a.ndim)))
    shape = moved.shape[: a.ndim - k] + tuple(sizes)
    keep = tuple(slice(0, min(s, m)) for s, m in zip(shape, moved.shape))
    src = moved[keep]
    if not copy and src.shape == shape and src.dtype == dtype and src.flags.c_contiguous:
        return src
    out = (_creation.empty if src.shape == shape else _creation.zeros)(shape, dtype)
    _core._copyto(out[keep], src)
    return out


def _back(out, axes):
    """Moves the trailing axes of a transform's output back to `axes` (a view)."""
    k = len(axes)
    return _manipulation.moveaxis(out, tuple(range(out.ndim - k, out.ndim)), tuple(axes))


def pick_plan(plan):
    """The plan a transform uses: the calling thread's current one (`with plan:`), else `plan` (an argument of
    the fftpack functions), else None (the cached one); both at once is CuPy's RuntimeError."""
    current = _core.fft.current_plan()
    if current is None:
        return plan
    if plan is not None:
        raise RuntimeError("Use the cuFFT plan either as a context manager or as an argument.")
    return current


def _check_rank(plan, k):
    if plan is not None and k > _MAX_RANK:
        raise ValueError(f"a cuFFT plan transforms at most {_MAX_RANK} axes, not {k}")


def _c2c_axes(x, positions, inverse, plan=None):
    """The unscaled C2C transform of complex `x` over the axes at `positions`, in plans of up to 3 trailing axes
    of a contiguous array (a transposing copy brings each group last; the result may be a transposed view).
    `plan`: the plan of the one group there may then be."""
    positions = list(positions)
    _check_rank(plan, len(positions))
    while positions:
        group, positions = positions[-_MAX_RANK:], positions[:-_MAX_RANK]
        order = [d for d in range(x.ndim) if d not in group] + group
        y = _transfer.ascontiguousarray(x.transpose(order))
        out = _creation.empty(y.shape, y.dtype)
        _core.fft.execute(y, out, "c2c", len(group), inverse, plan, config._multi_gpus())
        x = out.transpose(tuple(numpy.argsort(order)))
    return x


def c2c_layout(a, sizes, axes, first=-1):
    """(a, sizes, axes, first, flipped) of a C2C transform as it is done (Note [FFT layouts]): an F-contiguous
    `a` as its C-contiguous transpose (flipped: the result is transposed back), and the axes in increasing
    order with their sizes (`first` follows its axis)."""
    flipped = a.ndim > 1 and a.flags.f_contiguous and not a.flags.c_contiguous
    if flipped:
        a, axes = a.T, [a.ndim - 1 - ax for ax in axes]
    order = sorted(range(len(axes)), key=axes.__getitem__)
    first = order.index(first % len(axes)) if axes else first
    return a, [sizes[i] for i in order], [axes[i] for i in order], first, flipped


def c2c(a, sizes, axes, norm, inverse, first=-1, plan=None):
    """fftn / ifftn of `a` over `axes` (distinct, normalised) with `sizes`; `first`: the axis NumPy transforms
    first (its normalisation factor has the input's precision). `plan`: a cuFFT plan (pick_plan's); a Plan1d
    transforms the axes longer than 1 one at a time (last first), as CuPy does with one."""
    norm = check_norm(norm)
    if isinstance(plan, _core.fft.Plan1d) and sum(n != 1 for n in sizes) > 1:
        for n, axis in reversed(list(zip(sizes, axes))):
            a = c2c(a, [n], [axis], norm, inverse, plan=plan)
        return a
    a, sizes, axes, first, flipped = c2c_layout(a, sizes, axes, first)
    if flipped:
        return c2c(a, sizes, axes, norm, inverse, first, plan).T
    x = _last(a, axes, sizes, complex_type(a.dtype), copy=False)
    out = _c2c_axes(x, range(x.ndim - len(axes), x.ndim), inverse, plan)
    scale(out, sizes, norm, inverse, a.dtype, first)
    return _back(out, axes)


def r2c(a, sizes, axes, norm, plan=None):
    """rfftn of real `a`: a real transform over the last of `axes`, then complex ones over the others."""
    if a.dtype.kind == "c":
        raise TypeError(f"rfft takes real input, not {a.dtype}; use fft for complex input")
    if sizes[-1] == 1:  # one point: the real transform is a cast, and the other axes are complex transforms
        return c2c(a, sizes, axes, norm, False, plan=plan)
    norm = check_norm(norm)
    _check_rank(plan, len(axes))
    x = _last(a, axes, sizes, real_type(a.dtype), copy=True)  # cuFFT may overwrite a real transform's input
    k = len(axes)
    rank = min(_MAX_RANK, k)
    out = _creation.empty(x.shape[:-1] + (x.shape[-1] // 2 + 1,), complex_type(a.dtype))
    _core.fft.execute(x, out, "r2c", rank, False, plan, config._multi_gpus())
    if k > rank:  # the transform's other axes, as complex ones
        out = _c2c_axes(out, range(out.ndim - k, out.ndim - rank), False)
    scale(out, sizes, norm, False, a.dtype)
    return _back(out, axes)


def _hermitian_edges(x, k, n):
    """Note [C2R inputs]: the zero- and (for even n) Nyquist-frequency columns of the last axis of `x` (the
    C-contiguous input of a k-axis C2R transform to n real points) made Hermitian over the k - 1 axes before
    it."""
    for e in [0, n // 2] if n % 2 == 0 else [0]:
        col = x[..., e]
        if k == 1:  # the real part alone: NumPy ignores the imaginary one, whatever it holds (NaN included)
            _core._copyto(col, _ufuncs._real(col))
            continue
        head = tuple(range(col.ndim - k + 1, col.ndim))
        mirror = _joining.roll(_joining.flip(_ufuncs.conjugate(col), head), [1] * len(head), head)
        _core._copyto(col, _ufuncs.multiply(_ufuncs.add(col, mirror), 0.5))


def c2r(a, sizes, axes, norm, plan=None):
    """irfftn of `a` over `axes` (distinct, normalised) to real `sizes`, the last being the number of real
    points of the last axis (whose input holds its n // 2 + 1 frequencies). One cuFFT C2R transform takes up to
    three axes after its input is made Hermitian (Note [C2R inputs]); the leading axes beyond three, or all but
    the last where n is 1, are complex transforms first, as NumPy does them."""
    norm = check_norm(norm)
    _check_rank(plan, len(axes))
    float16 = len(axes) == 1 and a.dtype == numpy.float16  # NumPy keeps a float16 input's precision then
    n = sizes[-1]
    lead = len(axes) - 1 if n == 1 else max(0, len(axes) - _MAX_RANK)
    if lead:  # NumPy transforms these axes in order, the first in the input's precision
        a = c2c(a, sizes[:lead], axes[:lead], norm, True, first=0, plan=plan)
        sizes, axes = sizes[lead:], axes[lead:]
    k = len(axes)
    x = _last(
        a, axes, list(sizes[:-1]) + [n // 2 + 1], complex_type(a.dtype), copy=True
    )  # cuFFT overwrites it
    _hermitian_edges(x, k, n)
    if n == 1:  # one point: the real part of the zero frequency
        out = _ufuncs._real(x)
    else:
        out = _creation.empty(x.shape[:-1] + (n,), real_type(a.dtype))
        _core.fft.execute(x, out, "c2r", k, True, plan, config._multi_gpus())
        scale(out, sizes, norm, True, a.dtype, first=0)
    if float16:
        out = out.astype(numpy.float16)
    return _back(out, axes)


def half_to_full(m):
    """irfft's default number of points for m frequencies."""
    return 2 * (m - 1)


def _by_axis(a, sizes, axes, norm, inverse, plan):
    """C2C transforms one axis at a time, last first (NumPy's order where axes repeat)."""
    for n, axis in reversed(list(zip(sizes, axes))):
        a = c2c(a, [n], [axis], norm, inverse, plan=plan)
    return a


def transform_nd(a, s, axes, norm, value_type, inverse, plan):
    """fftn / ifftn ('C2C'), rfftn ('R2C') or irfftn ('C2R') of `a` with NumPy's `s` and `axes`, using `plan`
    (pick_plan's)."""
    if value_type == "C2R":
        s, axes = nd_args(a, s, axes, half_to_full)
        if not axes:
            raise IndexError("irfftn needs at least one axis")
        if len(set(axes)) == len(axes):
            return c2r(a, s, axes, norm, plan=plan)
        head, sizes = axes[:-1], s[:-1]  # repeated axes: NumPy's transforms one after another
        if len(set(head)) != len(head):  # in the order given (fftn's go last first, irfftn's first to last)
            for n, axis in zip(sizes, head):
                a = c2c(a, [n], [axis], norm, True, plan=plan)
        else:  # NumPy transforms these axes in order, the first in the input's precision
            a = c2c(a, sizes, head, norm, True, first=0, plan=plan)
        return c2r(a, s[-1:], axes[-1:], norm, plan=plan)
    s, axes = nd_args(a, s, axes)
    repeated = len(set(axes)) != len(axes)
    if value_type == "R2C":
        if not axes:
            raise IndexError("rfftn needs at least one axis")
        if repeated:
            return _by_axis(r2c(a, s[-1:], axes[-1:], norm, plan), s[:-1], axes[:-1], norm, False, plan)
        return r2c(a, s, axes, norm, plan=plan)
    if not axes:  # NumPy: no axes, no transform
        return a
    if repeated:
        return _by_axis(a, s, axes, norm, inverse, plan)
    return c2c(a, s, axes, norm, inverse, plan=plan)


def _default_fft_func(a, s=None, axes=None, plan=None, value_type="C2C"):
    """Which kind of transform cuarray makes of `a` over `axes` (Note [FFT layouts]), by CuPy's names:
    `_fftn` for one cuFFT plan over two or three axes as `a` lays them out (the result keeps a's C or F
    layout), `_fft` for one with moved axes, one axis, or more than three. A given or current Plan1d means `_fft`, a PlanNd
    `_fftn`."""
    plan = pick_plan(plan)
    if plan is not None:
        return _fft if isinstance(plan, _core.fft.Plan1d) else _fftn
    axes = nd_args(a, s, axes, half_to_full if value_type == "C2R" else None)[1]
    if not 2 <= len(set(axes)) == len(axes) <= _MAX_RANK:
        return _fft
    k, trailing = len(axes), list(range(a.ndim - len(axes), a.ndim))
    if value_type != "C2C":  # the real axis is the last: the axes must be the trailing ones, in order
        return _fftn if a.flags.c_contiguous and axes == trailing else _fft
    if a.flags.c_contiguous and sorted(axes) == trailing:
        return _fftn
    return _fftn if a.flags.f_contiguous and sorted(axes) == list(range(k)) else _fft


def _fft(a, s, axes, norm, direction, value_type="C2C", overwrite_x=False, plan=None):
    """CuPy's axis-moving transform (Note [FFT layouts]): `direction` is cuFFT's (-1 forward, 1 inverse);
    `overwrite_x` is accepted and never needed."""
    return transform_nd(a, s, axes, norm, value_type, direction == 1, pick_plan(plan))


def _fftn(a, s, axes, norm, direction, value_type="C2C", order="A", plan=None, overwrite_x=False, out=None):
    """CuPy's layout-keeping transform (Note [FFT layouts]): ValueError where `_default_fft_func` says the
    transform moves axes."""
    if out is not None:
        raise NotImplementedError("out= is not supported: the transform makes its result")
    if _default_fft_func(a, s, axes, plan, value_type) is not _fftn:
        raise ValueError(
            "An n-dimensional cuFFT plan could not be created: the axes must be two or three, the trailing "
            "ones of a C-contiguous array or the leading ones of an F-contiguous one"
        )
    return transform_nd(a, s, axes, norm, value_type, direction == 1, pick_plan(plan))


def axis_and_points(a, n, axis, default):
    """The normalised axis (AxisError when out of range) and the number of points (`default` for None)."""
    check_array(a)
    axis = normalize_axis_index(axis, a.ndim)
    return axis, points(default(a.shape[axis]) if n is None else n)


def nd_args(a, s, axes, last_default=None):
    """NumPy's (s, axes) for the n-D transforms: axes default to all (or the last len(s)); s to the input's
    sizes, -1 meaning the input's size; `last_default` maps the last axis's input size for irfftn, where it
    also stands for a None in `s` (NumPy's default for that axis). An int `s` or `axes` is one axis's (as in
    scipy.fftpack; cuarray.fft and cuarray.scipy.fft check theirs by NumPy's and SciPy's rules first)."""
    check_array(a)
    if s is not None:
        s = list(s) if numpy.ndim(s) else [s]
    if axes is None:
        # the last len(s) axes; an `s` longer than a.ndim names an axis below -a.ndim: NumPy's AxisError
        axes = list(range(a.ndim)) if s is None else list(range(-len(s), 0))
    axes = [normalize_axis_index(ax, a.ndim) for ax in (axes if numpy.ndim(axes) else [axes])]
    if s is None:
        s = [a.shape[ax] for ax in axes]
        if last_default is not None and axes:
            s[-1] = last_default(s[-1])
    else:
        if len(s) != len(axes):
            raise ValueError("Shape and axes have different lengths.")
        sizes = []
        for i, (n, ax) in enumerate(zip(s, axes)):
            if n is None and i == len(s) - 1 and last_default is not None:
                n = last_default(a.shape[ax])  # NumPy: None is the axis's default, 2 * (m - 1) for irfftn
            elif n is None or operator.index(n) == -1:
                n = a.shape[ax]
            sizes.append(n)
        s = sizes
    return [points(n) for n in s], axes
