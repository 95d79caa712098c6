"""Tracing for cuarray.fuse: a fused function run on traced values records its steps for one kernel.

Every operator, ufunc, astype and constant applied to traced values is recorded as a step (the ufunc, its
operands' value numbers, and the loop NumPy would pick: Note [Type resolution] in python/src/ufunc.cpp), and a
final reduction as the program's reduction; the core generates the kernel (Note [Fused kernels] in
cpp/cuarray/ops/fusion.cpp). What one kernel cannot express raises Unfusable, and the function then runs op by
op (Note [Fusion plans] in python/src/fusion.cpp).
"""

import sys

import numpy

from cuarray import _core, _reduction
from cuarray._core import ndarray
from cuarray._ufuncs import _resolve

# The reductions a fused kernel can end in: their rows map each element on its own.
_KERNEL_REDUCTIONS = frozenset(("sum", "prod", "max", "min", "nansum", "nanprod", "all", "any"))
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


class FusionError(TypeError):
    """A fused function that cannot run at all (Python control flow on array values)."""


def where():
    """'file:line' of the user's code that is being traced."""
    frame = sys._getframe(2)
    while frame and frame.f_globals.get("__name__", "").startswith("cuarray._fusion"):
        frame = frame.f_back
    return f"{frame.f_code.co_filename}:{frame.f_lineno}" if frame else "?"


def _constant(value):
    """A constant's step ("const", dtype, weak, bits, re, im) and the operand NumPy's resolution sees for it."""
    if isinstance(value, numpy.generic):
        dtype, weak, operand = value.dtype, False, value.dtype
    elif isinstance(value, bool):
        dtype, weak, operand = numpy.dtype(bool), True, numpy.dtype(bool)
    elif isinstance(value, int):
        if not -(2**63) <= value < 2**64:
            raise Unfusable(f"Python int {value} does not fit in 64 bits")
        dtype, weak, operand = numpy.dtype("uint64" if value > 2**63 - 1 else "int64"), True, int
    elif isinstance(value, (float, complex)):
        dtype, weak, operand = numpy.dtype(type(value)), True, type(value)
    else:
        raise Unfusable(f"a value of type {type(value).__name__}")
    if dtype.kind in "fc" or dtype.name == "bfloat16":
        c = complex(value)
        return ("const", dtype, weak, 0, c.real, c.imag), operand
    return ("const", dtype, weak, int(value) & (2**64 - 1), 0.0, 0.0), operand


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
        raise FusionError(
            f"cuarray.fuse: Python control flow on array values is not supported (bool() of a traced value at "
            f"{where()}); branch on Python scalars only, or use cuarray.where(condition, x, y)"
        )

    def __getattr__(self, name):
        raise Unfusable(f"'{name}' of a traced value")

    def __getitem__(self, key):
        raise Unfusable("indexing")

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
        if self._array:  # an array updated in place: visible through every name of it
            raise Unfusable("an in-place update of an array")
        return self._tracer.apply(name, (self, other), {})  # a scalar's `s += v` binds s to s + v

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


class Tracer:
    """Records the steps of one traced call (ops::FusedStep); values are numbered from the arguments on."""

    def __init__(self, kinds):
        self.steps = []
        self.reduction = None  # (name, traced value, axis, dtype, keepdims) of a final reduction
        self.ranges = {}  # argument position -> (lo, hi) its Python int must lie in
        self.positions = [
            i for i, k in enumerate(kinds) if k is not None
        ]  # value number -> argument position
        self.count = len(self.positions)

    def _new(self, step, n=1):
        self.steps.append(step)
        self.count += n
        return range(self.count - n, self.count)

    def _operand(self, value):
        """(value number, operand for type resolution, Python int constant or None, array?) of an operand."""
        if isinstance(value, Traced):
            if value._tracer is not self or value._value is None:
                raise Unfusable("a reduced value used further, or a value of another trace")
            return value._value, value._operand, None, value._array
        if isinstance(value, ndarray):
            raise Unfusable("an array captured from outside the function")
        step, operand = _constant(value)
        weak_int = value if operand is int else None
        return self._new(step)[0], operand, weak_int, False

    def _bound(self, value, constant, loop_type):
        """A weak Python int cast to integer `loop_type`: NumPy's OverflowError where it does not fit."""
        if loop_type.kind not in "iu":
            return
        info = numpy.iinfo(loop_type)
        if constant is not None:
            if not info.min <= constant <= info.max:
                raise Unfusable("a Python int out of its loop type's range")
            return
        position = self.positions[value]
        lo, hi = self.ranges.get(position, (-(2**63), 2**63 - 1))
        self.ranges[position] = (max(lo, int(info.min)), min(hi, int(info.max)))

    def apply(self, name, args, kwargs):
        if kwargs.get("out", None) is not None or set(kwargs) - {"dtype", "casting", "out"}:
            raise Unfusable(f"{name}() with keyword arguments other than dtype and casting")
        values, operands, constants, arrays = zip(*(self._operand(a) for a in args))
        dtype = kwargs.get("dtype")
        types = _resolve(
            name, operands, None if dtype is None else numpy.dtype(dtype), kwargs.get("casting", "same_kind")
        )
        types = [numpy.dtype(t) for t in types]
        types = [numpy.dtype(t.name) if t.char in "qQ" else t for t in types]  # as the table spells them
        for v, op, c, t in zip(values, operands, constants, types):
            if op is int:
                self._bound(v, c, t)
        outs = self._new(("ufunc", name, values, types), len(types) - len(args))
        results = [Traced(self, t, v, any(arrays)) for v, t in zip(outs, types[len(args) :])]
        return results[0] if len(results) == 1 else tuple(results)

    def reduce(self, name, value, axis, dtype, out, keepdims):
        if name not in _KERNEL_REDUCTIONS or out is not None or self.reduction is not None:
            raise Unfusable(f"{name}() in a fused kernel")
        if not isinstance(value, Traced) or not value._array:
            raise Unfusable("a reduction of a scalar")
        self._operand(value)
        dtype = None if dtype is None else numpy.dtype(dtype)
        result = _reduction._resolve(name, [value.dtype], dtype)[2]
        self.reduction = (name, value, axis, dtype, keepdims)
        return Traced(self, result, None, True)

    def cast(self, value, dtype):
        v, _, _, array = self._operand(value)
        return Traced(self, dtype, self._new(("cast", v, dtype))[0], array)


def _dispatch(name, *args, **kwargs):
    """Called by any cuarray ufunc that receives a traced value."""
    tracer = next(a._tracer for a in args if isinstance(a, Traced))
    return tracer.apply(name, args, kwargs)


def _dispatch_reduction(name, a, axis, dtype, out, keepdims, ddof, b):
    """Called by a cuarray reduction that receives a traced value."""
    if b is not None:
        raise Unfusable(f"{name}() with weights")
    return a._tracer.reduce(
        name, a, axis, None if name in ("max", "min", "all", "any") else dtype, out, keepdims
    )


_core._set_fusion_hook(Traced, _dispatch)
_core._set_reduction_fusion_hook(Traced, _dispatch_reduction)
