"""ufunc.reduce, accumulate and reduceat of the two-input ufuncs that have no reduction of their own (subtract,
divide, power, arctan2, hypot, the comparisons, the shifts, ...): NumPy's sequential fold along the axis, one
generated kernel each (Note [Folds] in cpp/cuarray/ops/fold.cpp). NumPy's loop choice, axis rules, start values
and errors are decided here.

Note [Fold types and order]
- The loop is NumPy's: resolve_dtypes with reduction=True on (out's dtype, the array's dtype, None), dtype= as
  the signature's first type, casting 'unsafe' (NumPy casts the input and the result of a reduction
  unsafely). The running value has the loop's first type; reduce casts the first element to it and the
  others to the second type (they differ for ldexp); accumulate and reduceat need all three types equal.
- Ufuncs with an identity (hypot 0, logaddexp -inf, gcd 0) start from it: hypot.reduce([-3.]) is 3.0.
  initial=None removes the identity; without identity or `initial` the fold starts from the first element,
  and `where=` is refused, as an empty reduction is.
- Folding over several axes is allowed where NumPy allows it (ufuncs with an identity; fmax and fmin too, but
  their reduce is nanmax's and nanmin's) and follows NumPy's iteration order, which is memory order: nditer's
  sort of the axes by stride (iteration_order). Results of non-associative ufuncs (hypot, logaddexp) depend
  on it.
- NumPy's AVX-512 loops of power, arctan2 and ldexp for float32 and float64 read the running value once on
  contiguous data, giving op(a[0], a[-1]) for reduce where a machine without AVX-512 (and any strided input)
  gives the fold; cuarray gives the fold, as accumulate's last element is in NumPy everywhere.
"""

import math
import operator
from typing import NamedTuple

import numpy

from cuarray import _core, _reduction
from cuarray import _reduction_options as _options
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._manipulation import broadcast_to, moveaxis
from cuarray._transfer import asarray

__all__ = []

_NO = numpy._NoValue
_F2 = numpy.dtype(numpy.float16)
_BUFFER = 8192  # NumPy's default buffer size (numpy.getbufsize()), elements
_WHOLE_ROW = 1 << 62
# Ufuncs without an identity whose reduce NumPy still lets run over several axes.
_REORDERABLE = ("fmax", "fmin")
# NumPy's float16 loops that keep a reduce's running value in float (Note [Wide float16 folds] in fold.cpp).
_WIDE_HALF = ("subtract", "divide")
_ROWS = frozenset(_core._ufunc_names())  # a scipy.special row's name is not its ufunc's


def numpy_ufunc(ufunc, method):
    """NumPy's ufunc of cuarray's `ufunc` for `method`: NumPy's ValueError for ufuncs other than binary ones of
    one output, NotImplementedError where NumPy has none of its name."""
    u = getattr(numpy, ufunc.__name__, None)
    if not isinstance(u, numpy.ufunc) or ufunc.__name__ not in _ROWS:
        raise NotImplementedError(f"cuarray.{ufunc.__name__}.{method} is not supported")
    if u.nin != 2:
        raise ValueError(f"{method} only supported for binary functions")
    if u.nout != 1:
        raise ValueError(f"{method} only supported for functions returning a single value")
    return u


def loop_types(u, method, dtype_in, dtype=None, out_dtype=None):
    """(running value, element) types of the loop NumPy's `method` of ufunc `u` runs for an array of
    `dtype_in`, `dtype=` and an `out` of `out_dtype` (None: none); NumPy's TypeError where there is none."""
    kwargs = {} if dtype is None else {"signature": (numpy.dtype(dtype), None, None)}
    acc, elem, res = u.resolve_dtypes(
        (None if out_dtype is None else numpy.dtype(out_dtype), numpy.dtype(dtype_in), None),
        reduction=True,
        casting="unsafe",
        **kwargs,
    )
    if acc != res or (method != "reduce" and acc != elem):
        raise TypeError(
            f"the resolved dtypes are not compatible with {u.__name__}.{method}. Resolved ({acc!r}, {elem!r}, "
            f"{res!r})"
        )
    return acc, elem


def iteration_order(shape, operand_strides):
    """The axes of `shape` from NumPy's innermost iteration axis out, as nditer orders them for operands of
    `operand_strides` (one tuple per operand; 0 where an operand is broadcast or allocated): a stable
    insertion sort by |stride|, from C order, skipping comparisons an operand has no stride for, C order
    winning where operands disagree. Axes of length 1 have no stride in nditer."""
    ndim = len(shape)
    strides = [[0 if shape[d] == 1 else s[d] for d in range(ndim)] for s in operand_strides]
    perm = list(range(ndim - 1, -1, -1))
    for i0 in range(1, ndim):
        ax0, pos = perm[i0], i0
        for i1 in range(i0 - 1, -1, -1):
            ax1 = perm[i1]
            ambiguous, swap = True, False
            for s in strides:
                if s[ax0] and s[ax1]:
                    if abs(s[ax1]) <= abs(s[ax0]):
                        swap = False
                    elif ambiguous:
                        swap = True
                    ambiguous = False
            if not ambiguous:
                if not swap:
                    break
                pos = i1
        perm[pos + 1 : i0 + 1] = perm[pos:i0]
        perm[pos] = ax0
    return perm


def _pack(value, dtype):
    """`value` as an element of `dtype`, as NumPy stores a Python value into an array."""
    x = numpy.empty((), dtype)
    x[()] = value
    return x


def _initial(u, dtype_in, dtype, acc, initial):
    """`initial` converted into the running value's type as NumPy's reduce converts it (its own reduction of
    nothing, with its errors for values that do not fit)."""
    if isinstance(initial, ndarray):
        initial = initial.get()
    return u.reduce(numpy.empty(0, dtype_in), dtype=dtype, out=numpy.empty((), acc), initial=initial)


def _axes(axis, ndim):
    """reduce's axes: all for None, none for a 0-d array's 0 or -1 (NumPy's rule), else normalized."""
    if axis is None:
        return tuple(range(ndim))
    if ndim == 0 and not isinstance(axis, tuple) and operator.index(axis) in (0, -1):
        return ()
    axes = axis if isinstance(axis, tuple) else (operator.index(axis),)
    return tuple(numpy.lib.array_utils.normalize_axis_tuple(axes, ndim))


def _out_array(out):
    """reduce's `out`: a cuarray array, or None (a tuple of one, as NumPy takes it, unwrapped)."""
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = out[0]
    if out is not None and not isinstance(out, ndarray):
        raise TypeError(f"out must be a cuarray array, not {type(out).__name__}")
    return out


def _check_exponents(u, elem, exponents):
    """NumPy's ValueError for integer power at a negative exponent; `exponents` holds the elements the fold
    uses as exponents (0 where it skips one)."""
    if u.__name__ != "power" or elem.kind != "i" or exponents.size == 0:
        return
    if int(_reduction.min(exponents.astype(elem, copy=False))) < 0:
        raise ValueError("Integers to negative integer powers are not allowed.")


def _chunk(u, acc, inner_folds, cast):
    """The kernel's `chunk` (Note [Wide float16 folds] in cpp/cuarray/ops/fold.cpp): 0 to round each step."""
    if u.__name__ not in _WIDE_HALF or acc != _F2 or not inner_folds:
        return 0
    return _BUFFER if cast else _WHOLE_ROW


class Plan(NamedTuple):
    """What a reduce runs: the loop types, the kept axes, the folded axes (outermost first), the start value
    (a 0-d NumPy array of the running value's type, or None) and the kernel's `chunk`."""

    acc: numpy.dtype
    elem: numpy.dtype
    kept: list
    folded: list
    start: object
    chunk: int


def plan_reduce(u, a, axis, dtype, out, keepdims, initial, mask):
    """The plan of NumPy's ufunc `u`.reduce of `a` (Note [Fold types and order]), with NumPy's errors in
    NumPy's order. `a`, `out` and `mask` (None, or bools broadcast to a's shape) are arrays of any kind: only
    their shapes, strides and dtypes are read."""
    name = u.__name__
    axes = _axes(axis, a.ndim)
    acc, elem = loop_types(u, "reduce", a.dtype, dtype, None if out is None else out.dtype)
    if len(axes) > 1 and u.identity is None and name not in _REORDERABLE:
        raise ValueError(
            f"reduction operation '{name}' is not reorderable, so at most one axis may be specified"
        )
    kept = [d for d in range(a.ndim) if d not in axes]
    if out is not None:
        expected = (
            tuple(1 if d in axes else n for d, n in enumerate(a.shape)) if keepdims else _take(a.shape, kept)
        )
        if out.ndim != len(expected):
            raise ValueError(
                f"output parameter for reduction operation {name} has the wrong number of dimensions: Found "
                f"{out.ndim} but expected {len(expected)}"
                + (" (must match the operand's when keepdims=True)" if keepdims else "")
            )
        if out.shape != expected:
            raise ValueError(
                f"output parameter for reduction operation {name} has the wrong shape: found {out.shape} but "
                f"expected {expected}"
            )
    if initial is _NO:
        start = None if u.identity is None else _pack(u.identity, acc)
    else:
        start = None if initial is None else _initial(u, a.dtype, dtype, acc, initial)
    if mask is not None and start is None:
        raise ValueError(
            f"reduction operation '{name}' does not have an identity, so to use a where mask one has to specify "
            "'initial'"
        )
    if math.prod(a.shape[d] for d in axes) == 0 and start is None:
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
    operands = [a.strides]
    if out is not None:
        operands.append(_out_strides(out, axes, a.ndim))
    if mask is not None:
        operands.append(mask.strides)
    order = iteration_order(a.shape, operands)
    folded = [d for d in reversed(order) if d in axes]
    inner = next((d for d in order if a.shape[d] > 1), None)
    cast = a.dtype != elem or (out is not None and out.dtype != acc)
    return Plan(acc, elem, kept, folded, start, _chunk(u, acc, inner is None or inner in axes, cast))


def _take(shape, axes):
    return tuple(shape[d] for d in axes)


def reduce(ufunc, array, axis, dtype, out, keepdims, initial, where):
    """ufunc.reduce by a fold (Note [Fold types and order]); `array` is a device array."""
    u = numpy_ufunc(ufunc, "reduce")
    out = _out_array(out)
    mask = _options._mask(where, array)
    if mask is not None:
        mask = broadcast_to(mask, array.shape)
    plan = plan_reduce(u, array, axis, dtype, out, keepdims, initial, mask)
    # The folded axes, outermost first, merged into one last axis (a copy only where they do not merge).
    shape = _take(array.shape, plan.kept)
    count = math.prod(_take(array.shape, plan.folded))
    a = array.transpose(plan.kept + plan.folded).reshape(shape + (count,))
    if mask is not None:
        mask = mask.transpose(plan.kept + plan.folded).reshape(shape + (count,))
        _check_exponents(u, plan.elem, _u._where(mask, a, 0))
    else:
        _check_exponents(u, plan.elem, a if plan.start is not None else a[..., 1:])
    result = _core.empty(shape, plan.acc, "C") if out is None else out
    if out is not None and out.ndim != len(shape):  # keepdims: the kernel writes out without the folded axes
        result = out[tuple(slice(None) if d in plan.kept else 0 for d in range(array.ndim))]
    start = None if plan.start is None else plan.start.tobytes()
    _core._fold(u.__name__, plan.acc, plan.elem, "reduce", a, result, mask, None, start, plan.chunk)
    if out is not None:
        return out
    return (
        result.reshape(tuple(1 if d in plan.folded else n for d, n in enumerate(array.shape)))
        if keepdims
        else result
    )


def _out_strides(out, axes, ndim):
    """out's strides over the array's `ndim` axes, 0 at the reduced `axes` (out has them as length 1 with
    keepdims, not at all without)."""
    if out.ndim == ndim:
        return tuple(0 if d in axes else s for d, s in enumerate(out.strides))
    strides = iter(out.strides)
    return tuple(0 if d in axes else next(strides) for d in range(ndim))


def accumulate(ufunc, array, axis, dtype, out):
    """ufunc.accumulate by a fold along `axis` (an int; `array` a device array of at least one dimension)."""
    u = numpy_ufunc(ufunc, "accumulate")
    out = _out_array(out)
    axis = numpy.lib.array_utils.normalize_axis_index(operator.index(axis), array.ndim)
    acc, elem = loop_types(u, "accumulate", array.dtype, dtype, None if out is None else out.dtype)
    if out is not None and out.shape != array.shape:
        raise ValueError(
            f"{u.__name__}.accumulate: out has shape {out.shape} but the result has shape {array.shape}"
        )
    a = moveaxis(array, axis, -1)
    _check_exponents(u, elem, a[..., 1:])
    result = _core.empty(array.shape, acc, "C") if out is None else out
    _core._fold(u.__name__, acc, elem, "accumulate", a, moveaxis(result, axis, -1), None, None, None, 0)
    return result


def reduceat(ufunc, array, indices, axis, dtype, out):
    """ufunc.reduceat by a fold of each segment; `indices` are ints in [0, n), `axis` normalized."""
    u = numpy_ufunc(ufunc, "reduceat")
    out = _out_array(out)
    acc, elem = loop_types(u, "reduceat", array.dtype, dtype, None if out is None else out.dtype)
    shape = array.shape[:axis] + (len(indices),) + array.shape[axis + 1 :]
    if out is not None and out.shape != shape:
        raise ValueError(f"{u.__name__}.reduceat: out has shape {out.shape} but the result has shape {shape}")
    a = moveaxis(array, axis, -1)
    n = a.shape[-1]
    if u.__name__ == "power" and elem.kind == "i" and indices:
        exponent = numpy.zeros(n, bool)  # the elements after each segment's first
        for k, start in enumerate(indices):
            stop = indices[k + 1] if k + 1 < len(indices) else n
            exponent[start + 1 : stop] = True
        _check_exponents(u, elem, _u._where(asarray(exponent), a, 0))
    result = _core.empty(shape, acc, "C") if out is None else out
    starts = asarray(numpy.asarray(indices, numpy.int64))
    chunk = _chunk(u, acc, True, False)
    _core._fold(u.__name__, acc, elem, "reduceat", a, moveaxis(result, axis, -1), None, starts, None, chunk)
    return result
