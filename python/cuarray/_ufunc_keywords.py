"""The keywords of a ufunc call that run in Python (installed as the core's hook at import).

`signature=`: NumPy resolves the loop (its own ufunc's resolve_dtypes, with the same signature and casting, so
the loop and its errors are NumPy's), the inputs are cast to the loop's types, and the ufunc runs that loop.

`where=`: the outputs are written only where the mask holds, and elsewhere keep what `out` held (or are left
uninitialised, with NumPy's warning, when no `out` is given). The ufunc runs over the whole broadcast shape
(power's integer exponent taken as 1 where the mask is False, as NumPy's loop never sees those elements), then
each result is copied into its output through the mask, so an `out` that overlaps an input still sees every
input value as it was. The shape and the layout of new outputs are NumPy's, the mask an operand like the
inputs."""

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
    if "dtype" in kwargs:  # NumPy refuses dtype=None beside it too
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
    # An input the signature leaves open (None) that is a Python number stays one when dtype= names the loop:
    # NumPy casts it into the loop from float64 or complex128 (300.0 wraps into int8), as the call with dtype=
    # converts it, where a fixed input type is set as an element is (300.0 is an OverflowError).
    fixed = [t is not None for t in signature[:nin]] if isinstance(signature, tuple) else [True] * nin
    cast = tuple(
        x if nout == 1 and not fixed[i] and type(x) in _WEAK else _to_loop_type(x, t)
        for i, (x, t) in enumerate(zip(inputs, loop))
    )
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
    if isinstance(where, numpy.ndarray):
        raise TypeError(
            f"cuarray.{ufunc.__name__}: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)"
        )
    if isinstance(where, ndarray) and where.dtype != numpy.bool_:  # NumPy reads an array mask safely as bool
        what = "array data" if where.ndim else "scalar"
        raise TypeError(
            f"Cannot cast {what} from {where.dtype!r} to dtype('bool') according to the rule 'safe'"
        )
    if any(out is not None and not isinstance(out, ndarray) for out in outs):
        return ufunc(*inputs, out=tuple(outs) if nout > 1 else outs[0], **kwargs)  # the core's TypeError
    if not given:  # NumPy's, for any `where` but the Python True (np.True_ and None too)
        warnings.warn(
            "'where' used without 'out', expect uninitialized memory in output. If this is intentional, use "
            "out=None.",
            UserWarning,
            stacklevel=3,
        )
    if isinstance(where, (bool, numpy.bool_)) and where:
        return ufunc(*inputs, out=tuple(outs) if nout > 1 else outs[0], **kwargs)
    mask = where if isinstance(where, ndarray) else asarray(where)
    mask = mask.astype(numpy.bool_, copy=False)
    shape = _iteration_shape(inputs, outs, mask)
    operands = [x for x in (*inputs, *outs, mask) if isinstance(x, ndarray)]  # NumPy's operands, in its order
    if ufunc.__name__ == "power":
        inputs = _mask_exponent(inputs, mask, kwargs.get("dtype"))
    results = ufunc(*inputs, **kwargs)
    results = results if nout > 1 else (results,)
    casting = kwargs.get("casting", "same_kind")
    for o, (result, out) in enumerate(zip(results, outs)):
        if out is not None and not numpy.can_cast(result.dtype, out.dtype, casting):
            _refuse_output_cast(ufunc, casting, result.dtype, out.dtype, nin + o)
    order = kwargs.get("order")  # valid: the ufunc took it
    filled = list(outs)
    for o in _write_order(ufunc, results, outs):
        result, out = results[o], outs[o]
        if out is None:
            out = _new_output(shape, result.dtype, "K" if order is None else order.upper(), operands)
            filled[o] = out
            if out.shape == result.shape and out.strides == result.strides:
                # The result is in NumPy's layout, and its elements outside the mask are left unset anyway.
                filled[o] = result
                continue
        copyto(out, result, casting="unsafe", where=mask)
    return tuple(filled) if nout > 1 else filled[0]


def _mask_exponent(inputs, mask, dtype):
    """power's inputs with the exponent 1 where the mask is False: NumPy computes only where the mask holds, so
    a negative integer exponent there is no error (`power(a, e, out=o, where=e >= 0)`)."""
    from cuarray._ufuncs import _where

    base, e = inputs
    if isinstance(e, ndarray):  # signed exponents: those the loops check (Note [Negative integer powers])
        return (base, _where(mask, e, e.dtype.type(1))) if e.dtype.kind == "i" else inputs
    if type(e) is bool or not isinstance(e, (int, numpy.signedinteger)) or e >= 0:
        return inputs
    if not (isinstance(base, (ndarray, numpy.generic)) or type(base) in _WEAK or type(base) is bool):
        return inputs  # another library's array: the core's call decides
    # A negative integer scalar, as the loop's exponent type (that the loop stays the same), masked.
    try:
        given = {} if dtype is None else {"signature": (None, None, dtype)}
        loop = resolve_dtypes(numpy.power, (_operand_type(base), _operand_type(e), None), "unsafe", **given)
        e = numpy.asarray(e, dtype=loop[1])[()]
    except (TypeError, ValueError, OverflowError):  # the core's call raises its own error
        return inputs
    return (base, _where(mask, e, e.dtype.type(1))) if e.dtype.kind == "i" else inputs


def _shape_of(x):
    return x.shape if isinstance(x, (ndarray, numpy.generic)) else getattr(x, "shape", ())


def _compact(shape):
    """A shape as NumPy's iterator writes it in messages: (4,), (1,4)."""
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _iteration_shape(inputs, outs, mask):
    """The shape NumPy iterates: inputs, given outputs and the mask broadcast together, which every output must
    have (NumPy's ValueErrors; copyto would drop a result's extra leading length-1 axes)."""
    shapes = [_shape_of(x) for x in inputs] + [x.shape for x in outs if x is not None] + [mask.shape]
    try:
        shape = numpy.broadcast_shapes(*shapes)
    except ValueError:
        listed = "".join(_compact(s) + " " for s in shapes)
        raise ValueError(f"operands could not be broadcast together with shapes {listed}") from None
    for out in outs:
        if out is not None and out.shape != shape:
            raise ValueError(
                f"non-broadcastable output operand with shape {_compact(out.shape)} doesn't match the broadcast "
                f"shape {_compact(shape)}"
            )
    return shape


def _new_output(shape, dtype, order, operands):
    """A new output laid out as NumPy's: `order` C or F, or from the operands (the mask among them): 'A' F where
    every one is F-contiguous, 'K' their common memory order (Note [Layout of new arrays] in shape.h)."""
    if order == "A":
        order = "F" if operands and all(x._f_contiguous for x in operands) else "C"
    if order in "CF":
        return empty(shape, dtype, order)
    return _core._empty_like_all(shape, dtype, operands, True)


# Outputs that share memory (divmod(a, b, out=(x, x))) hold what NumPy's loop stores last (Note [Outputs that
# share memory] in cpp/cuarray/ops/elementwise.cpp); with where=, the masked copies are made in that order.
def _write_order(ufunc, results, outs):
    """The outputs' indices in the order NumPy's loop stores them (Note [Outputs that share memory])."""
    if (
        len(results) == 2
        and _out0_last(ufunc.__name__, results[0].dtype)
        and all(out is None or out.dtype == r.dtype for r, out in zip(results, outs))
    ):
        return (1, 0)
    return range(len(results))


def _out0_last(name, dtype):
    """Whether NumPy's loop of `name` with first output `dtype` stores out0 after out1."""
    return (name == "divmod" and dtype.char in "efd") or (name == "modf" and dtype.char in "fd")


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
