"""NumPy's ufunc.resolve_dtypes, safe to call with Python scalar types under every casting rule."""

import numpy

# Note [resolve_dtypes under 'equiv']
# cuarray asks NumPy's own ufuncs which loop a call takes, passing Python scalars as their types (int, float,
# complex), which NumPy promotes weakly (NEP 50). NumPy's resolve_dtypes crashes the process (a segmentation
# fault, NumPy 2.4) under casting='equiv' where such a type must be cast (int against an int8 array, complex
# against complex64). Every cuarray dtype has the native byte order, where 'equiv' is 'no', which resolves
# safely; NumPy's ufunc call then refuses a Python scalar whose default type (int64, float64, complex128) is
# not its loop's, with its own TypeError, and reports other casts under the rule the caller named. NumPy's
# logical ufuncs cast their inputs to bool under any rule, so they refuse no Python number there.
_WEAK = (int, float, complex)  # a Python bool is NumPy's bool, strongly typed
_ANY_INPUT = ("logical_and", "logical_or", "logical_xor", "logical_not")


def resolve_dtypes(ufunc, dtypes, casting="same_kind", **kwargs):
    """ufunc.resolve_dtypes(dtypes, casting=casting, **kwargs), without NumPy's crash under 'equiv'."""
    if casting != "equiv" or not any(t in _WEAK for t in dtypes):
        return ufunc.resolve_dtypes(dtypes, casting=casting, **kwargs)
    from numpy._core._exceptions import _UFuncInputCastingError, _UFuncOutputCastingError

    try:
        loop = ufunc.resolve_dtypes(dtypes, casting="no", **kwargs)
    except (_UFuncInputCastingError, _UFuncOutputCastingError) as e:
        raise type(e)(e.ufunc, "equiv", e.from_, e.to, getattr(e, "in_i", getattr(e, "out_i", 0))) from None
    if ufunc.__name__ in _ANY_INPUT:
        return loop
    for t, looped in zip(dtypes, loop):
        if t in _WEAK and numpy.dtype(t) != looped:
            raise TypeError(f"cannot cast Python {t.__name__} to {looped} under the casting rule 'equiv'")
    return loop
