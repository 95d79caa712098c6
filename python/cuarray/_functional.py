"""Applying Python functions to arrays, with NumPy's rules: piecewise, apply_along_axis, apply_over_axes, and
vectorize (the function fused into one elementwise kernel per argument signature, as CuPy's)."""

import functools

import numpy

from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._creation import zeros, zeros_like
from cuarray._fusion import named as _fusion
from cuarray._fusion_values import Traced as _Traced
from cuarray._manipulation import expand_dims
from cuarray._transfer import device_array as _device

__all__ = ["apply_along_axis", "apply_over_axes", "piecewise", "vectorize"]


def piecewise(x, condlist, funclist, *args, **kw):
    """Where condlist[i] holds, funclist[i] (a value, or a function called on those elements of `x`, with
    `args` and `kw`); zero elsewhere, or funclist[-1] where no condition holds if it has one entry more. Each
    function's elements are gathered by a boolean index, whose size is read back from the device."""
    x = _device(x, "piecewise")
    n_funcs = len(funclist)
    # NumPy's rule: a single condition (a scalar, or a sequence of scalars for non-0-d x) is a list of one.
    if isinstance(condlist, ndarray):
        if condlist.ndim == 0 or (condlist.ndim == 1 and x.ndim != 0):
            condlist = [condlist]
    elif numpy.isscalar(condlist) or (
        not isinstance(condlist[0], (list, ndarray, numpy.ndarray)) and x.ndim != 0
    ):
        condlist = [condlist]
    conds = [_device(c, "piecewise").astype(numpy.bool_, copy=False) for c in condlist]
    if len(conds) == n_funcs - 1:
        conds.append(_u.logical_not(functools.reduce(_u.logical_or, conds)))
    elif len(conds) != n_funcs:
        raise ValueError(
            f"with {len(conds)} condition(s), either {len(conds)} or {len(conds) + 1} functions are expected"
        )
    y = zeros_like(x)
    for cond, func in zip(conds, funclist):
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """``func1d(a, *args, **kwargs)`` for every 1-D slice `a` of `arr` along `axis`; its result's axes replace
    `axis`. A Python loop makes one call per slice (as NumPy's does), so it suits few, long slices; where
    func1d takes an axis argument, calling it once with that axis is much faster."""
    arr = _device(arr, "apply_along_axis")
    axis = numpy.lib.array_utils.normalize_axis_index(axis, arr.ndim)
    dims = list(range(arr.ndim))
    view = arr.transpose(dims[:axis] + dims[axis + 1 :] + [axis])  # the slices along the last axis
    # A trailing Ellipsis keeps each result an array, also where func1d returns a 0-d one.
    inds = (ind + (Ellipsis,) for ind in numpy.ndindex(view.shape[:-1]))
    try:
        first = next(inds)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = _device(func1d(view[first], *args, **kwargs), "apply_along_axis")
    buff = zeros(view.shape[:-1] + res.shape, res.dtype)
    buff[first] = res
    for ind in inds:
        buff[ind] = _device(func1d(view[ind], *args, **kwargs), "apply_along_axis")
    # buff holds the result's axes last: move them to where `axis` was.
    b = list(range(buff.ndim))
    return buff.transpose(b[:axis] + b[buff.ndim - res.ndim :] + b[axis : buff.ndim - res.ndim])


def apply_over_axes(func, a, axes):
    """func(a, axis) for each axis of `axes` in turn, each result the next call's input; a result with one
    dimension less gets it back (as keepdims=True would)."""
    val = _device(a, "apply_over_axes")
    n = val.ndim
    if numpy.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = n + axis
        res = func(val, axis)
        if res.ndim != val.ndim:
            res = expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


class vectorize:
    """pyfunc applied elementwise with broadcasting, as NumPy's vectorize, but traced by cuarray.fuse into one
    elementwise kernel per argument signature: pyfunc is built from operators, ufuncs, cuarray.where and Python
    control flow on its arguments' values (`if`, `and`, `x if c else y`), each path through which is traced and
    selected per element (Note [Branches] in _fusion_branches.py). Values are computed in the dtypes of the
    arguments as the ufuncs do (NumPy calls pyfunc on Python objects); `otypes` casts the results. `excluded`
    and `signature` are not supported; `cache` changes nothing (kernels are always cached)."""

    def __init__(self, pyfunc, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        if excluded:
            raise NotImplementedError(
                "cuarray.vectorize: excluded is not supported (every argument is an element "
                "of the fused kernel); bind fixed arguments with a closure instead"
            )
        if signature is not None:
            raise NotImplementedError("cuarray.vectorize: signature (generalized ufuncs) is not supported")
        if isinstance(otypes, str):
            for char in otypes:
                if char not in numpy.typecodes["All"]:
                    raise ValueError(f"Invalid otype specified: {char}")
        elif numpy.iterable(otypes):
            otypes = [numpy.dtype(t) for t in otypes]
        elif otypes is not None:
            raise ValueError("Invalid otype specification")
        self.pyfunc = pyfunc
        self.otypes = otypes
        self.excluded = set()
        self.cache = cache
        self.signature = None
        self.__doc__ = pyfunc.__doc__ if doc is None else doc
        if hasattr(pyfunc, "__name__"):
            self.__name__ = pyfunc.__name__
        self._fused = {}  # keyword argument names -> the fused function

    def _kernel(self, names):
        """The fused function for calls with keyword arguments `names` (passed to it positionally, last)."""
        fused = self._fused.get(names)
        if fused is None:
            pyfunc, n = self.pyfunc, len(names)
            otypes = None if self.otypes is None else [numpy.dtype(t) for t in self.otypes]

            def body(*a):
                out = pyfunc(*a[: len(a) - n], **dict(zip(names, a[len(a) - n :])))
                outs = out if isinstance(out, tuple) else (out,)
                # NumPy's vectorize returns new arrays: an argument returned as it is is copied.
                outs = tuple(o.copy() if any(o is x for x in a) else o for o in outs)
                if otypes is None:
                    return outs if isinstance(out, tuple) else outs[0]
                if len(outs) != len(otypes):
                    raise ValueError(
                        f"cuarray.vectorize: the function returns {len(outs)} value(s), but otypes "
                        f"names {len(otypes)}"
                    )
                outs = tuple(o.astype(t) if isinstance(o, _Traced) else o for o, t in zip(outs, otypes))
                return outs if isinstance(out, tuple) else outs[0]

            fused = self._fused[names] = _fusion(
                body, getattr(pyfunc, "__name__", "vectorize"), elementwise=True
            )
        return fused

    def __call__(self, *args, **kwargs):
        if not args and not kwargs:
            raise ValueError("args can not be empty")  # CuPy's
        # Scalars become 0-d arrays of their default dtypes, as NumPy's vectorize converts its arguments.
        values = [_device(v, "vectorize") for v in args + tuple(kwargs.values())]
        if self.otypes is None and any(v.size == 0 for v in values):  # NumPy learns the types from a call
            raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
        return self._kernel(tuple(kwargs))(*values)
