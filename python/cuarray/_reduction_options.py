"""NumPy's `initial=` and `where=` of the reductions: sum, prod, max, min, all, any, mean, var, std, their NaN
forms, ufunc.reduce and the array's methods reach `reduce` here when given either (Note [Reduction options]).

Note [Reduction options]
The reduction kernels (cpp/cuarray/ops/reductions.def) take no mask and no start value, and a call without
`initial=` or `where=` pays nothing for them: only this path composes them, from kernels the package has.
- `where=` (a bool array that broadcasts to the input's shape, or a bool) puts the reduction's identity in
  the elements it leaves out: 0 for sums, 1 for products, true for all, false for any, `initial` for max and
  min, which have no identity and so need one (NumPy's ValueError otherwise). mean, var and std divide by the
  count of the elements kept (and not NaN, for their NaN forms), with NumPy's formulas and warnings.
- `initial=` is converted into the type of the reduction's result (of `out`, if given; the reduction still
  runs in its own type, and its result is then cast into `out`) by NumPy's own reduction of an empty host
  array: NumPy's rules for it differ by type and by kind of value, and this keeps each of them and its
  errors. None means no initial value (an empty reduction then raises, even a sum's). The value then meets
  the reduced result through the reduction's own operation (add, multiply, maximum, fmax, ...), which gives
  what NumPy's counting it as one more element gives, up to the rounding order of a float sum; an empty
  slice gives `initial`.
NumPy arrays go to NumPy's own method where CuPy's reduction is that method (Note [Reductions of host
arrays] in cuarray/_reduction.py). A value traced by cuarray.fuse is refused with a TypeError, so a fused
function that passes these options runs op by op, as with anything else one kernel cannot do.
"""

import warnings

import numpy

from cuarray import _core
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._manipulation import broadcast_to, copyto

__all__ = []

_NO = numpy._NoValue
_INDEX = {name: i for i, name in enumerate(_core._reduction_names())}
_reduce = _core._reduce
_F4, _F8 = numpy.dtype("float32"), numpy.dtype("float64")

# Note [Reductions of host arrays] in cuarray/_reduction.py: CuPy's reductions that are the array's method.
HOST = (numpy.ndarray, numpy.generic)
HOST_METHODS = {  # reduction -> (NumPy method, whether it takes dtype=, whether it takes ddof=)
    "sum": ("sum", True, False),
    "prod": ("prod", True, False),
    "max": ("max", False, False),
    "min": ("min", False, False),
    "all": ("all", False, False),
    "any": ("any", False, False),
    "mean": ("mean", True, False),
    "var": ("var", True, True),
    "std": ("std", True, True),
}

# reduction -> (NumPy's ufunc of it, the ufunc that meets `initial`, identity: what where= fills in; None: no
# identity, so where= needs `initial`)
_FOLDS = {
    "sum": ("add", _u.add, 0),
    "nansum": ("add", _u.add, 0),
    "prod": ("multiply", _u.multiply, 1),
    "nanprod": ("multiply", _u.multiply, 1),
    "all": ("logical_and", _u.logical_and, 1),
    "any": ("logical_or", _u.logical_or, 0),
    "max": ("maximum", _u.maximum, None),
    "min": ("minimum", _u.minimum, None),
    "nanmax": ("fmax", _u.fmax, None),
    "nanmin": ("fmin", _u.fmin, None),
    "bitwise_and": ("bitwise_and", _u.bitwise_and, -1),  # all ones in the array's type
    "bitwise_or": ("bitwise_or", _u.bitwise_or, 0),
    "bitwise_xor": ("bitwise_xor", _u.bitwise_xor, 0),
    "logical_xor": ("logical_xor", _u.logical_xor, False),
}
_MOMENTS = ("mean", "nanmean", "var", "nanvar", "std", "nanstd")


def reduced_count(a, axis):
    """The number of elements each output of a reduction of `a` over `axis` combines (1 for a 0-d `a`)."""
    if axis is None or a.ndim == 0:
        return a.size
    axes = numpy.lib.array_utils.normalize_axis_tuple(axis, a.ndim)
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return n


def _reduced_shape(a, axis, keepdims):
    """The shape of a reduction of `a` over `axis`."""
    if a.ndim == 0:
        return ()
    axes = range(a.ndim) if axis is None else numpy.lib.array_utils.normalize_axis_tuple(axis, a.ndim)
    return tuple(1 if i in axes else n for i, n in enumerate(a.shape) if keepdims or i not in axes)


def integer_moment(dtype):
    """Whether a mean, var or std with `dtype` takes NumPy's formulas (_moment) rather than the one-pass
    kernels: NumPy computes them in an integer or bool dtype with truncating divisions (its mean of
    [2**53 + 1] with dtype=int64 is 2**53, its var of int32 data with dtype=int32 truncates the mean), where
    the kernels compute in floating point."""
    return dtype is not None and numpy.dtype(dtype).kind in "biu"


def reduce(
    name, a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO, where=_NO, ddof=0.0, mean=_NO
):
    """Reduction `name` of `a` with NumPy's `initial=` and `where=` (Note [Reduction options]), and the
    `mean=` of var and std (their mean, with kept axes, computed already)."""
    if not isinstance(a, ndarray):
        return _foreign(name, a, axis, dtype, out, keepdims, initial, where, ddof, mean)
    mask = _mask(where, a)
    if name in _MOMENTS:
        if initial is not _NO:
            raise TypeError(f"{name}() got an unexpected keyword argument 'initial'")
        if mean is not _NO and name.endswith("mean"):
            raise TypeError(f"{name}() got an unexpected keyword argument 'mean'")
        if mask is None and mean is _NO and not integer_moment(dtype):
            return _reduce(_INDEX[name], a, axis, dtype, out, keepdims, float(ddof), None)
        return _moment(name, a, axis, dtype, out, keepdims, mask, ddof, mean)
    ufunc, meet, identity = _FOLDS[name]
    if initial is _NO or initial is None:
        if (identity is None or initial is None) and mask is not None:  # initial=None takes the identity away
            raise ValueError(
                f"reduction operation '{ufunc}' does not have an identity, so to use a where mask one has to "
                "specify 'initial'"
            )
        if initial is None and reduced_count(a, axis) == 0:
            raise ValueError(f"zero-size array to reduction operation {ufunc} which has no identity")
        if mask is not None:
            a = _u._where(mask, a, _identity(identity, a.dtype))
        return _reduce(_INDEX[name], a, axis, dtype, out, keepdims, 0.0, None)
    if isinstance(out, ndarray) and dtype is None:  # out= takes part in the loop (Note [Reductions into out])
        if identity is None:
            a = a.astype(numpy.promote_types(out.dtype, a.dtype), copy=False)
        else:
            dtype = _core._reduction_types(name, [a.dtype], None, out.dtype)[1]
    if identity is None:  # max and min run in a's type
        start = a.dtype.type(_start(initial, a.dtype if out is None else out.dtype, ufunc))
        if a.size == 0:
            return _put(_core._full(_reduced_shape(a, axis, keepdims), start, a.dtype, "C"), out)
        if mask is not None:
            a = _u._where(mask, a, start)
        r = _reduce(_INDEX[name], a, axis, None, None, keepdims, 0.0, None)
    else:
        if mask is not None:
            a = _u._where(mask, a, _identity(identity, a.dtype))
        r = _reduce(_INDEX[name], a, axis, dtype, None, keepdims, 0.0, None)
        start = r.dtype.type(_start(initial, r.dtype if out is None else out.dtype, ufunc))
    return _put(meet(r, start, out=r), out)


def host_reduction(name, a, axis, dtype, out, keepdims, ddof, **options):
    """Reduction `name` of `a`, which is not a cuarray array: NumPy's method for a NumPy array or scalar where
    CuPy's function is that method (Note [Reductions of host arrays] in cuarray/_reduction.py), given
    `options` (initial, where, mean) as they came; NotImplemented otherwise."""
    if not isinstance(a, HOST):
        return NotImplemented
    if name == "nanmean" and a.dtype.kind in "biu":
        name = "mean"  # CuPy's nanmean of integers is their mean
    entry = HOST_METHODS.get(name)
    if entry is None:
        return NotImplemented
    method, takes_dtype, takes_ddof = entry
    kwargs = {"axis": axis, "out": out, **options}
    if keepdims:  # only when asked, as NumPy's functions pass it: numpy.matrix's methods take no keepdims
        kwargs["keepdims"] = True
    if takes_dtype:
        kwargs["dtype"] = dtype
    if takes_ddof:  # the core passes it as a double; NumPy's count of an int ddof stays an int
        kwargs["ddof"] = int(ddof) if ddof.is_integer() else ddof
    return getattr(a, method)(**kwargs)


def _foreign(name, a, axis, dtype, out, keepdims, initial, where, ddof, mean):
    """A reduction with options of what is not a cuarray array: host_reduction's answer, else a TypeError."""
    given = {"initial": initial, "where": where, "mean": mean}
    r = host_reduction(
        name, a, axis, dtype, out, keepdims, float(ddof), **{k: v for k, v in given.items() if v is not _NO}
    )
    if r is NotImplemented:
        raise TypeError(
            f"Unsupported type {type(a)}: cuarray reductions with initial= or where= take cuarray arrays; move "
            "NumPy arrays to the GPU with cuarray.asarray(x)"
        )
    return r


def _mask(where, a):
    """`where=` as a device bool array that broadcasts to a's shape; None when it keeps every element."""
    if where is _NO or where is True:
        return None
    if isinstance(where, (bool, numpy.bool_)):
        return _core._full((), bool(where), numpy.bool_, "C")
    if not isinstance(where, ndarray):
        raise TypeError(
            f"where= takes a cuarray array of bools or a bool, not {type(where).__name__}: move NumPy arrays "
            "to the GPU with cuarray.asarray(x)"
        )
    if where.dtype != numpy.bool_:
        raise TypeError(
            f"Cannot cast array data from {where.dtype!r} to dtype('bool') according to the rule 'safe'"
        )
    try:
        fits = numpy.broadcast_shapes(where.shape, a.shape) == a.shape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(
            f"where= of shape {where.shape} does not broadcast to the shape {a.shape} of the array"
        )
    return where


def _identity(identity, dtype):
    """A fold's identity as an element of `dtype` (-1, bitwise_and's, is all ones in an unsigned type too)."""
    return numpy.asarray(identity).astype(dtype)[()]


def _start(initial, dtype, ufunc):
    """`initial` converted into `dtype` as NumPy's reductions convert it: by NumPy's own reduction of nothing,
    so that its rules, which differ by type and by kind of value (np.int64(300) is 44 in uint8 and an
    OverflowError in int8; a list is a TypeError but True in bool), and its errors are NumPy's."""
    if isinstance(initial, ndarray):
        initial = initial.get()
    return getattr(numpy, ufunc).reduce(numpy.empty(0, dtype), dtype=dtype, initial=initial)


def _put(r, out):
    """`r`, or `out` with r's values (NumPy casts a reduction's result into `out` unsafely)."""
    if out is None:
        return r
    if not isinstance(out, ndarray):
        raise TypeError(f"out must be a cuarray array, not {type(out).__name__}")
    if out.shape != r.shape:
        raise ValueError(
            f"output parameter for reduction has shape {out.shape}, but the result has shape {r.shape}"
        )
    copyto(out, r, casting="unsafe")
    return out


def _moment(name, a, axis, dtype, out, keepdims, mask, ddof, given_mean=_NO):
    """mean, var or std (or their NaN forms) of the elements of `a` that `mask` (None: all) keeps, by NumPy's
    formulas in numpy/_core/_methods.py, with var's and std's mean `given_mean` if given; float16 runs in
    float32, as cuarray's moments do without a mask."""
    if mask is None:
        mask = _core._full((), True, numpy.bool_, "C")
    keep = broadcast_to(mask, a.shape)
    if name.startswith("nan") and a.dtype.kind in "fc":
        keep = _u.logical_and(keep, _u.logical_not(_u.isnan(a)))
    count = _reduce(_INDEX["sum"], keep, axis, None, None, True, 0.0, None)  # int64, kept axes of size 1
    half = dtype is None and a.dtype == numpy.float16
    if dtype is None and name.endswith("mean") and isinstance(out, ndarray):  # Note [Reductions into out]
        # NumPy's mean into out= sums in the loop for out's type and a's, and rounds no float16 result
        dtype, half = _core._reduction_types("mean", [a.dtype], None, out.dtype)[1], False
    if dtype is None:
        dtype = _F8 if a.dtype.kind in "biu" else _F4 if half else None
    zero = a.dtype.type(0)
    if given_mean is _NO:
        total = _reduce(_INDEX["sum"], _u._where(keep, a, zero), axis, dtype, None, True, 0.0, None)
        mean = _divide(total, count)
    else:
        mean = given_mean
    if name.endswith("mean"):
        if bool(_u.equal(count, 0).any()):
            warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=4)
        r = mean
    else:
        if bool(_u.less_equal(count, ddof).any()):  # NumPy's nanvar ends the sentence, its var does not
            what = "Degrees of freedom <= 0 for slice" + ("." if name.startswith("nan") else "")
            warnings.warn(what, RuntimeWarning, stacklevel=4)
        x = _u.subtract(a, mean)
        if x.dtype.kind == "c":
            square = _u.add(_u.multiply(x.real, x.real), _u.multiply(x.imag, x.imag))
        else:
            square = _u.multiply(x, x)
        sums = _reduce(
            _INDEX["sum"], _u._where(keep, square, square.dtype.type(0)), axis, dtype, None, True, 0.0, None
        )
        dof = _u.subtract(count, ddof)
        r = _divide(sums, _u.maximum(dof, 0))
        if name.startswith("nan") and r.dtype.kind in "fc":  # NumPy's nanvar: NaN where dof <= 0 (var: / 0)
            r = _u._where(_u.greater(dof, 0), r, r.dtype.type("nan"))
        if name.endswith("std"):
            if r.dtype.kind in "biu" and (keepdims or _reduced_shape(a, axis, False)):
                # NumPy takes an array's square root in place (sqrt(ret, out=ret)): its casting error for an
                # integer dtype; a scalar result it converts, so std of dtype=int32 over all axes is int32.
                numpy.sqrt(numpy.zeros(1, r.dtype), out=numpy.zeros(1, r.dtype))
            r = _u.sqrt(r).astype(r.dtype, copy=False)
    if half:
        r = r.astype(numpy.float16)
    if not keepdims:
        r = r.reshape(_reduced_shape(a, axis, False))
    return _put(r, out)


def _divide(total, count):
    """total / count into `total` (a new sum), as NumPy's true_divide with casting='unsafe' into it: the result
    keeps the sum's type and layout."""
    return _u.true_divide(total, count, out=total, casting="unsafe")


_core._set_reduction_options_hook(reduce)
