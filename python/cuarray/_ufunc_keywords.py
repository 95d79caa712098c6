"""The keywords of a ufunc call that run in Python (installed as the core's hook at import).

`signature=`: NumPy resolves the loop (its own ufunc's resolve_dtypes, with the same signature and casting, so
the loop and its errors are NumPy's), the inputs are cast to the loop's types, and the ufunc runs that loop.

`where=`: the outputs are written only where the mask holds, and elsewhere keep what `out` held (or are left
uninitialised, with NumPy's warning, when no `out` is given). The ufunc runs over the whole broadcast shape,
then each result is copied into its output through the mask, so an `out` that overlaps an input still sees
every input value as it was."""

import warnings

import numpy

from cuarray import _core
from cuarray._core import ndarray
from cuarray._creation import empty
from cuarray._manipulation import copyto
from cuarray._resolve_dtypes import resolve_dtypes
from cuarray._transfer import asarray

_WEAK = (int, float, complex)  # Python scalars: NumPy 2's weak operands (a Python bool is not weak)


def call(ufunc, *args, **kwargs):
    """ufunc(*args, **kwargs) with a `signature`, or a `where` other than True."""
    if "signature" in kwargs:
        args, kwargs = _apply_signature(ufunc, args, kwargs)
    if kwargs.get("where", True) is not True:
        return call_with_where(ufunc, *args, **kwargs)
    return ufunc(*args, **kwargs)


def _apply_signature(ufunc, args, kwargs):
    """(args, kwargs) without the signature: inputs cast to the loop NumPy picks for it, and dtype= naming the
    loop's output type."""
    signature = kwargs.pop("signature")
    if signature is None:  # NumPy's call refuses it (resolve_dtypes reads it as no signature)
        raise TypeError("the signature object to ufunc must be a string or a tuple.")
    if kwargs.get("dtype") is not None:
        raise TypeError("cannot specify both 'signature' and 'dtype'")
    reference = getattr(numpy, ufunc.__name__, None)
    if not isinstance(reference, numpy.ufunc):
        raise NotImplementedError(f"cuarray.{ufunc.__name__}: signature= is supported for NumPy's ufuncs")
    nin, nout = ufunc.nin, ufunc.nout
    inputs = args[:nin]
    operand_types = tuple(_operand_type(x) for x in inputs) + (None,) * nout
    loop = resolve_dtypes(
        reference, operand_types, signature=signature, casting=kwargs.get("casting", "same_kind")
    )
    cast = tuple(_to_loop_type(x, t) for x, t in zip(inputs, loop))
    if nout == 1:
        kwargs["dtype"] = loop[nin]
    return cast + tuple(args[nin:]), kwargs


def _operand_type(x):
    """The type NumPy resolves a loop with: an array's dtype, or a Python scalar's type (weak)."""
    if isinstance(x, ndarray):
        return x.dtype
    if type(x) in _WEAK:
        return type(x)
    return numpy.asarray(x).dtype


def _to_loop_type(x, dtype):
    """Input `x` as loop type `dtype`: arrays cast (NumPy checked the casting), scalars converted as NumPy
    converts them (a Python int out of range is its OverflowError). Anything else goes on as it is, to the
    core's own errors."""
    if isinstance(x, ndarray):
        return x.astype(dtype, copy=False)
    if type(x) in _WEAK or type(x) is bool or isinstance(x, numpy.generic):
        return numpy.asarray(x, dtype=dtype)[()]
    return x


def call_with_where(ufunc, *args, **kwargs):
    """ufunc(*args, **kwargs) with a `where` other than True."""
    where = kwargs.pop("where")
    if where is None:
        where = False  # NumPy's: None selects no element
    nin, nout = ufunc.nin, ufunc.nout
    inputs, outs = args[:nin], list(args[nin:])
    given = "out" in kwargs or len(args) > nin  # out=None too: NumPy's way to silence its warning
    if "out" in kwargs:
        out = kwargs.pop("out")
        outs = list(out) if isinstance(out, tuple) else [out]
    outs += [None] * (nout - len(outs))
    if isinstance(where, (bool, numpy.bool_)) and where:
        return ufunc(*inputs, out=tuple(outs) if nout > 1 else outs[0], **kwargs)
    if isinstance(where, numpy.ndarray):
        raise TypeError(
            f"cuarray.{ufunc.__name__}: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)"
        )
    if isinstance(where, ndarray) and where.dtype != numpy.bool_:  # NumPy reads an array mask safely as bool
        what = "array data" if where.ndim else "scalar"
        raise TypeError(
            f"Cannot cast {what} from {where.dtype!r} to dtype('bool') according to the rule 'safe'"
        )
    mask = where if isinstance(where, ndarray) else asarray(where)
    mask = mask.astype(numpy.bool_, copy=False)
    if not given:
        warnings.warn(
            "'where' used without 'out', expect unitialized memory in output. If this is intentional, use "
            "out=None.",
            UserWarning,
            stacklevel=3,
        )
    if ufunc.__name__ == "power" and isinstance(inputs[1], ndarray) and inputs[1].dtype.kind in "iu":
        # NumPy computes only where the mask holds: an integer power's negative exponent elsewhere is no error
        from cuarray._ufuncs import _where

        inputs = (inputs[0], _where(mask, inputs[1], inputs[1].dtype.type(1)))
    results = ufunc(*inputs, **kwargs)
    results = results if nout > 1 else (results,)
    casting = kwargs.get("casting", "same_kind")
    shape = numpy.broadcast_shapes(mask.shape, *(r.shape for r in results))
    filled = []
    for result, out in zip(results, outs):
        if out is None:
            out = empty(shape, result.dtype)
        elif not numpy.can_cast(result.dtype, out.dtype, casting):
            _refuse_output_cast(ufunc, casting, result.dtype, out.dtype, len(filled))
        copyto(out, result, casting="unsafe", where=mask)
        filled.append(out)
    return tuple(filled) if nout > 1 else filled[0]


def _refuse_output_cast(ufunc, casting, from_, to, i):
    """NumPy's UFuncTypeError for an output it cannot cast to (its own class and message where NumPy has the
    ufunc, as the core raises it)."""
    np_ufunc = getattr(numpy._core.umath, ufunc.__name__, None)
    if np_ufunc is None:
        raise TypeError(
            f"Cannot cast ufunc '{ufunc.__name__}' output from {from_!r} to {to!r} with casting rule '{casting}'"
        )
    raise numpy._core._exceptions._UFuncOutputCastingError(np_ufunc, casting, from_, to, i)


_core._set_ufunc_keywords_hook(call)
