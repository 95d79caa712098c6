"""The ufunc objects (cuarray.add, cuarray.sqrt, ...), made from the core's table (cpp/cuarray/ops/ufuncs.def).

Which type loop a call runs is NumPy's decision (Note [Type resolution] in python/src/ufunc.cpp): `_resolve`
asks NumPy once per new combination of operand types, and the core caches the answer.
"""

import numpy

from cuarray import _core

ufunc = _core.ufunc


def _resolve(name, operands, dtype, casting):
    """NumPy's loop dtypes for ufunc `name` on `operands` (dtypes, or int/float/complex for Python scalars)."""
    np_ufunc = getattr(numpy, name)
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
    "divide": "true_divide",
    "mod": "remainder",
    "abs": "absolute",
    "conj": "conjugate",
    "bitwise_not": "invert",
    "bitwise_invert": "invert",
    "deg2rad": "radians",
    "rad2deg": "degrees",
    "pow": "power",
    "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
}
globals().update({alias: globals()[name] for alias, name in _aliases.items() if name in globals()})

__all__ = [n for n in list(_names) + list(_aliases) if n in globals()]
