"""The ufunc objects (cuarray.add, cuarray.sqrt, ...), made from the core's table (cpp/cuarray/ops/ufuncs.def).

Which type loop a call runs is NumPy's decision (Note [Type resolution] in cpp/cuarray/ops/type_resolution.h):
`_resolve` asks NumPy once per new combination of operand types, and the core caches the answer.
"""

import numpy

from cuarray import _core
from cuarray._resolve_dtypes import resolve_dtypes

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
    return resolve_dtypes(numpy._core.umath.clip, tuple(operands) + (None,), **kwargs)


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


# Note [Legacy loop search]
# SciPy's special functions are NumPy ufuncs with legacy type resolution: a call whose input dtypes equal a
# loop's takes that loop; otherwise NumPy takes the first loop, in the ufunc's own order, that every input
# casts to safely. Python numbers are weak there only when an array operand is of at least their kind
# (bool < integer < inexact); then a Python int casts to any integer or inexact loop type and a float to any
# inexact one, and otherwise they count as int64, float64 and complex128. dtype= takes the first loop whose
# output is that dtype, and the inputs must then cast to it under `casting`. The table's _special_ rows list
# SciPy's real loops in SciPy 1.18's order (float32 first; SciPy 1.17 listed float64 first for most), so this
# search picks SciPy's loop for every input (tests/special compares, on SciPy's own order where it differs).
_KIND_ORDER = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 2, "V": 3}


def _is_python_number(operand):
    return operand is int or operand is float or operand is complex  # `is`: numpy.dtype('int64') == int


def _default_dtype(number_type):
    """int64, float64 or complex128: a Python number's dtype where it is not weak."""
    return numpy.result_type(_weak(number_type))


def _casts(operand, to, casting, weak):
    if _is_python_number(operand):
        if weak and to.kind == "c":
            return True
        if weak and to.kind == "f" and operand is not complex:
            return True
        if weak and to.kind in "iu" and operand is int:
            return True
        operand = _default_dtype(operand)
    return numpy.can_cast(operand, to, casting)


def _resolve_special(name, operands, dtype, casting):
    u = globals()[name]
    return legacy_loop_search(u, u.types, operands, dtype, casting)


def legacy_loop_search(u, types, operands, dtype, casting):
    """The loop of `types` (signatures such as "ff->f", in the ufunc's order) that NumPy's legacy resolution
    picks for `operands` (dtypes, or int/float/complex for Python numbers); errors name ufunc `u`."""
    loops = [tuple(numpy.dtype(c) for c in t.replace("->", "")) for t in types]
    nin = u.nin
    scalars = [o for o in operands if _is_python_number(o)]
    arrays = [_KIND_ORDER.get(numpy.dtype(o).kind, 3) for o in operands if not _is_python_number(o)]
    # Python numbers are weak in the loop search only beside an array of at least their kind, and in the check
    # of the chosen loop's input casts everywhere but as the one input of a unary ufunc.
    search_weak = bool(arrays) and max(arrays) >= max(
        _KIND_ORDER["u" if s is int else "f"] for s in scalars or [int]
    )
    weak = bool(arrays) or nin > 1
    if dtype is not None:
        dtype = numpy.dtype(dtype)
        for loop in loops:
            if all(t == dtype for t in loop[nin:]):
                return _checked_inputs(u, loop, operands, casting, weak)
        raise TypeError(
            f"No loop matching the specified signature and casting was found for ufunc {u.__name__}"
        )
    if not scalars:
        for loop in loops:
            if tuple(operands) == loop[:nin]:
                return loop
    safe = "safe"
    for loop in loops:
        if all(_casts(o, t, safe, search_weak) for o, t in zip(operands, loop)):
            return _checked_inputs(u, loop, operands, casting, weak)
    raise TypeError(
        f"ufunc '{u.__name__}' not supported for the input types, and the inputs could not be safely coerced to any"
        f" supported types according to the casting rule '{safe!r}'"
    )


def _checked_inputs(u, loop, operands, casting, weak):
    """`loop`, once every operand casts to its input type under `casting`."""
    for i, (o, t) in enumerate(zip(operands, loop)):
        if not _casts(o, t, casting, weak):
            raise _input_casting_error(u, casting, o, t, i, weak)
    return loop


def _input_casting_error(u, casting, operand, to, i, weak):
    """NumPy's _UFuncInputCastingError (a TypeError) for cuarray's ufunc `u`, its message NumPy's: a weak Python
    number is named by the dtype it would take beside the loop's."""
    frm = operand
    if _is_python_number(operand):
        frm = numpy.result_type(_weak(operand), to) if weak else _default_dtype(operand)
    from numpy._core._exceptions import _UFuncInputCastingError

    return _UFuncInputCastingError(u, casting, numpy.dtype(frm), to, i)


def _resolve(name, operands, dtype, casting):
    """NumPy's loop dtypes for ufunc `name` on `operands` (dtypes, or int/float/complex for Python scalars)."""
    custom = _custom_resolvers.get(name)
    if custom is not None:
        return custom(operands, dtype, casting)
    if name.startswith("_special_"):
        return _resolve_special(name, operands, dtype, casting)
    np_ufunc = getattr(numpy, name)
    kwargs = {"casting": casting}
    if dtype is not None:
        kwargs["signature"] = (None,) * np_ufunc.nin + (dtype,) * np_ufunc.nout
    operands = tuple(operands) + (None,) * np_ufunc.nout
    if all(_is_python_number(o) for o in operands[: np_ufunc.nin]):
        operands = _python_numbers_alone(np_ufunc, operands, kwargs)
    return resolve_dtypes(np_ufunc, operands, **kwargs)


# Note [Python scalars alone]
# A ufunc of Python numbers alone is resolved as NumPy's call resolves it. With two inputs they stay weak
# (NEP 50): the loop is the one NumPy's loop search picks for the Python types, and the casting check is the
# weak one (`add(1, 2.5, casting='no')` is float64, `multiply(2, 3, dtype=int8, casting='safe')` int8),
# except where that search picks an object loop (a comparison of two ints), which NumPy's call does not run:
# there the loop is that of their default dtypes (int64), as NumPy computes on 0-d arrays of those. A unary
# ufunc reads its one Python number as NumPy's asarray does, strongly (`sqrt(4, casting='no')` raises); the
# bindings hand it over as a NumPy value (Note [Unary ufuncs of Python numbers] in python/src/ufunc.cpp),
# and only an int past uint64 still arrives here as `int`, to take its default dtype.
def _python_numbers_alone(np_ufunc, operands, kwargs):
    """The operand types to resolve `np_ufunc` with when every input is a Python number type."""
    nin = np_ufunc.nin
    defaults = tuple(_default_dtype(o) for o in operands[:nin]) + operands[nin:]
    if nin == 1:
        return defaults
    try:
        search = np_ufunc.resolve_dtypes(operands, **dict(kwargs, casting="unsafe"))
    except TypeError:
        return operands  # no loop at all: the weak resolution below raises NumPy's error
    return defaults if any(t.kind == "O" for t in search) else operands


_core._set_ufunc_resolver(_resolve)


def _make(name):
    u = ufunc(name)
    u.__name__ = (
        u._public_name
    )  # instances carry NumPy's ufunc attributes; __name__ lives in the instance dict
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
