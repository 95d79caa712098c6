"""The ufunc objects (cuarray.add, cuarray.sqrt, ...), made from the core's table (cpp/cuarray/ops/ufuncs.def).

Which type loop a call runs is NumPy's decision (Note [Type resolution] in cpp/cuarray/ops/type_resolution.h):
`_resolve` asks NumPy once per new combination of operand types, and the core caches the answer.
"""

import numpy

from cuarray import _core

ufunc = _core.ufunc


def _weak(operand):
    """A Python scalar type as a value that NumPy promotes weakly (NEP 50); dtypes stay as they are."""
    return {int: 0, float: 0.0, complex: 0j}.get(operand, operand)


def _resolve_where(operands, dtype, casting):
    t = numpy.result_type(*(_weak(o) for o in operands[1:]))
    return numpy.dtype(bool), t, t, t


def _resolve_clip(operands, dtype, casting):
    kwargs = {"casting": casting}
    if dtype is not None:
        kwargs["signature"] = (None, None, None, dtype)
    return numpy._core.umath.clip.resolve_dtypes(tuple(operands) + (None,), **kwargs)


def _resolve_part(operands, dtype, casting):
    t = numpy.dtype(operands[0])
    if t.kind != "c":
        raise TypeError(f"expected a complex array, got {t}")
    return t, numpy.dtype(t.char.lower())


def _resolve_complex(operands, dtype, casting):
    t = numpy.result_type(*(_weak(o) for o in operands), numpy.float32)
    return t, t, numpy.result_type(t, numpy.complex64)


# The rows of the table that are not NumPy ufuncs (for _math.py), with their own loop choice.
_custom_resolvers = {
    "_where": _resolve_where,
    "_clip": _resolve_clip,
    "_real": _resolve_part,
    "_imag": _resolve_part,
    "_complex": _resolve_complex,
    "_power_uniform": lambda operands, dtype, casting: _resolve("power", operands, dtype, casting),
}


def _resolve(name, operands, dtype, casting):
    """NumPy's loop dtypes for ufunc `name` on `operands` (dtypes, or int/float/complex for Python scalars)."""
    custom = _custom_resolvers.get(name)
    if custom is not None:
        return custom(operands, dtype, casting)
    np_ufunc = getattr(numpy, name)
    # `is`, not `in`: numpy.dtype('int64') == int is True, and would take an int64 array for a Python int.
    if all(o is int or o is float or o is complex for o in operands):
        # Python scalars alone: NumPy computes on 0-d arrays of their default dtypes, whereas its loop search on
        # the Python types picks object loops for comparisons.
        operands = tuple(numpy.dtype(o) for o in operands)
    kwargs = {"casting": casting}
    if dtype is not None:
        kwargs["signature"] = (None,) * np_ufunc.nin + (dtype,) * np_ufunc.nout
    return np_ufunc.resolve_dtypes(tuple(operands) + (None,) * np_ufunc.nout, **kwargs)


_core._set_ufunc_resolver(_resolve)


def _make(name):
    u = ufunc(name)
    u.__name__ = name  # instances carry NumPy's ufunc attributes; __name__ lives in the instance dict
    return u


_names = _core._ufunc_names()
globals().update({name: _make(name) for name in _names})

# NumPy's other names for the same ufuncs.
_aliases = {
    "true_divide": "divide",
    "mod": "remainder",
    "abs": "absolute",
    "conj": "conjugate",
    "bitwise_not": "invert",
    "bitwise_invert": "invert",
    "pow": "power",
    "acos": "arccos",
    "asin": "arcsin",
    "atan": "arctan",
    "acosh": "arccosh",
    "asinh": "arcsinh",
    "atanh": "arctanh",
    "atan2": "arctan2",
    "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
}
globals().update({alias: globals()[name] for alias, name in _aliases.items() if name in globals()})

__all__ = [n for n in list(_names) + list(_aliases) if n in globals() and not n.startswith("_")]
