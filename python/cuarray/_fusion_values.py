"""Traced values of cuarray.fuse: what a fused function's body sees in place of its arguments.

A Traced value stands for an array (or a scalar argument) of the program being traced: its operators, array
methods and astype record steps with its Tracer (cuarray._fusion_trace); what one kernel cannot express raises
Unfusable, and control flow on its values FusionError (vectorize explores the branches instead: Note
[Branches] in _fusion_branches.py).
"""

import sys

import numpy

_INPLACE = {
    "add": "add",
    "sub": "subtract",
    "mul": "multiply",
    "truediv": "divide",
    "floordiv": "floor_divide",
    "mod": "remainder",
    "pow": "power",
    "and": "bitwise_and",
    "or": "bitwise_or",
    "xor": "bitwise_xor",
    "lshift": "left_shift",
    "rshift": "right_shift",
}
_COMPARE = {
    "lt": "less",
    "le": "less_equal",
    "gt": "greater",
    "ge": "greater_equal",
    "eq": "equal",
    "ne": "not_equal",
}


class Unfusable(Exception):
    """What the function does needs more than one kernel (indexing, in-place updates, ...): it runs op by op."""

    def __init__(self, reason):
        super().__init__(f"{reason} (at {where()})")


class FusionError(TypeError):
    """A fused function that cannot run at all (Python control flow on array values)."""


def where():
    """'file:line' of the user's code that is being traced."""
    frame = sys._getframe(2)
    while frame and frame.f_globals.get("__name__", "").startswith("cuarray."):
        frame = frame.f_back
    return f"{frame.f_code.co_filename}:{frame.f_lineno}" if frame else "?"


class Traced:
    """A value of the traced program: an array, or a scalar argument (NumPy's or a weak Python one)."""

    __slots__ = ("_array", "_operand", "_tracer", "_value")
    __array_ufunc__ = None  # NumPy's operators then defer to ours
    __hash__ = None

    def __init__(self, tracer, operand, value, array):
        self._tracer = tracer
        self._operand = operand  # a numpy.dtype, or int/float/complex for a weak Python scalar argument
        self._value = value  # its number in the traced program; None for the result of a reduction
        self._array = array

    @property
    def dtype(self):
        if not isinstance(self._operand, numpy.dtype):
            raise Unfusable("a Python scalar has no dtype")
        return self._operand

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        if not isinstance(self._operand, numpy.dtype) or casting != "unsafe":
            raise Unfusable("astype of a Python scalar, or with casting")
        return self._tracer.cast(self, numpy.dtype(dtype))

    def copy(self, order="C"):
        return self._tracer.cast(self, self.dtype)

    def __bool__(self):
        if self._tracer.path is None:
            raise FusionError(
                f"cuarray.fuse: Python control flow on array values is not supported (bool() of a traced value "
                f"at {where()}); branch on Python scalars only, or use cuarray.where(condition, x, y)"
            )
        return self._tracer.decide(self)

    def __getattr__(self, name):
        raise Unfusable(f"'{name}' of a traced value")

    def __getitem__(self, key):
        return self._tracer.index(self, key)

    def __iter__(self):  # else Python would index 0, 1, 2, ... without end: no length is known while tracing
        raise Unfusable("iteration")

    def __setitem__(self, key, value):
        raise Unfusable("assignment to elements")

    def __array__(self, *args, **kwargs):
        raise Unfusable("a traced value as a NumPy array")


def _reduction_method(name, typed):
    def method(self, axis=None, *rest, **kwargs):
        params = ("dtype", "out", "keepdims") if typed else ("out", "keepdims")
        kwargs.update(zip(params, rest))
        if set(kwargs) - set(params):
            raise Unfusable(f"{name}() with keywords {sorted(kwargs)}")
        return self._tracer.reduce(
            name, self, axis, kwargs.get("dtype"), kwargs.get("out"), kwargs.get("keepdims", False)
        )

    method.__name__ = name
    return method


def _binary(name, reflected=False):
    if reflected:
        return lambda self, other: self._tracer.apply(name, (other, self), {})
    return lambda self, other: self._tracer.apply(name, (self, other), {})


def _inplace(name):
    def method(self, other):
        result = self._tracer.apply(name, (self, other), {})
        if not self._array or self._tracer.path is not None:  # a scalar's or an element's `s += v` binds s
            return result
        return self._tracer.update(self, result, "same_kind")  # an array's: seen through all its names

    return method


for _op, _ufunc in _INPLACE.items():
    setattr(Traced, f"__{_op}__", _binary(_ufunc))
    setattr(Traced, f"__r{_op}__", _binary(_ufunc, reflected=True))
    setattr(Traced, f"__i{_op}__", _inplace(_ufunc))
for _name in ("sum", "prod", "max", "min", "all", "any"):
    setattr(Traced, _name, _reduction_method(_name, _name in ("sum", "prod")))
for _op, _ufunc in _COMPARE.items():
    setattr(Traced, f"__{_op}__", _binary(_ufunc))
for _op, _ufunc in {"neg": "negative", "pos": "positive", "abs": "absolute", "invert": "invert"}.items():
    setattr(Traced, f"__{_op}__", lambda self, _u=_ufunc: self._tracer.apply(_u, (self,), {}))
