"""cuarray.fuse: a function's elementwise body traced once per argument signature and run as one kernel.

On the first call with new argument types, the function runs on traced values: every operator, ufunc, astype
and constant it applies is recorded as a step (the ufunc, its operands, and the loop NumPy would pick: Note
[Type resolution] in python/src/ufunc.cpp), and the core generates one kernel from the steps with the same
table rows as the ufuncs themselves, so fused and unfused results agree (Note [Fused kernels] in
cpp/cuarray/ops/fusion.cpp). Later calls with the same argument types go straight to its launch.

A function may end in one reduction (sum, prod, max or min, with axis and keepdims) of its elementwise result:
the elementwise body then becomes the map of a reduction kernel, so the intermediate array is never written.
"""

import collections
import functools
import sys

import numpy

from cuarray import _core, _reduction
from cuarray._core import ndarray
from cuarray._ufuncs import _resolve

__all__ = ["fuse"]


def _where():
    """'file:line' of the user's code that is being traced."""
    frame = sys._getframe(2)
    while frame and frame.f_globals.get("__name__") == __name__:
        frame = frame.f_back
    return f"{frame.f_code.co_filename}:{frame.f_lineno}" if frame else "?"


@functools.cache
def _loops(name):
    """The loop signatures of ufunc `name` ("ff->f")."""
    return frozenset(_core._ufunc_row(name)[1])


def _constant(value):
    """A constant's step ("const", dtype, weak, bits, re, im) and the operand NumPy's resolution sees for it."""
    if isinstance(value, numpy.generic):
        dtype, weak, operand = value.dtype, False, value.dtype
    elif isinstance(value, bool):
        dtype, weak, operand = numpy.dtype(bool), True, numpy.dtype(bool)
    elif isinstance(value, int):
        if not -(2**63) <= value < 2**64:
            raise OverflowError(f"cuarray.fuse: Python int {value} does not fit in 64 bits (at {_where()})")
        dtype, weak, operand = numpy.dtype("uint64" if value > 2**63 - 1 else "int64"), True, int
    elif isinstance(value, (float, complex)):
        dtype, weak, operand = numpy.dtype(type(value)), True, type(value)
    else:
        raise TypeError(f"cuarray.fuse: unsupported value of type {type(value).__name__} at {_where()}")
    if dtype.kind in "fc" or dtype.name == "bfloat16":
        c = complex(value)
        return ("const", dtype, weak, 0, c.real, c.imag), operand
    return ("const", dtype, weak, int(value) & (2**64 - 1), 0.0, 0.0), operand


class _Traced:
    """A value inside a fused function being traced: a value of the traced program."""

    __slots__ = ("_operand", "_tracer", "_value")

    def __init__(self, tracer, operand, value):
        self._tracer = tracer
        self._operand = operand  # a numpy.dtype, or int/float/complex for a weak Python scalar argument
        self._value = value  # its number in the traced program; None for the result of a reduction

    @property
    def dtype(self):
        return self._operand if isinstance(self._operand, numpy.dtype) else numpy.dtype(self._operand)

    def astype(self, dtype, copy=True):
        return self._tracer.cast(self, numpy.dtype(dtype))

    def __bool__(self):
        raise TypeError(
            f"cuarray.fuse: Python control flow on array values is not supported (bool() of a traced "
            f"value at {_where()}); use cuarray.where(condition, x, y)"
        )

    def __getattr__(self, name):
        raise NotImplementedError(
            f"cuarray.fuse: '{name}' is not supported inside a fused function (at {_where()}); "
            "only elementwise operators, ufuncs, where, astype and a final sum, prod, max or "
            "min are"
        )

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        return self._tracer.reduce("sum", self, axis, dtype, out, keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        return self._tracer.reduce("prod", self, axis, dtype, out, keepdims)

    def max(self, axis=None, out=None, keepdims=False):
        return self._tracer.reduce("max", self, axis, None, out, keepdims)

    def min(self, axis=None, out=None, keepdims=False):
        return self._tracer.reduce("min", self, axis, None, out, keepdims)

    def __array__(self, *args, **kwargs):
        raise TypeError(f"cuarray.fuse: a traced value cannot become a NumPy array (at {_where()})")


def _binary(name, reflected=False):
    if reflected:
        return lambda self, other: self._tracer.apply(name, (other, self), {})
    return lambda self, other: self._tracer.apply(name, (self, other), {})


for _op, _ufunc in {
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
}.items():
    setattr(_Traced, f"__{_op}__", _binary(_ufunc))
    setattr(_Traced, f"__r{_op}__", _binary(_ufunc, reflected=True))
for _op, _ufunc in {
    "lt": "less",
    "le": "less_equal",
    "gt": "greater",
    "ge": "greater_equal",
    "eq": "equal",
    "ne": "not_equal",
}.items():
    setattr(_Traced, f"__{_op}__", _binary(_ufunc))


def _unary(name):
    return lambda self: self._tracer.apply(name, (self,), {})


for _op, _ufunc in {"neg": "negative", "pos": "positive", "abs": "absolute", "invert": "invert"}.items():
    setattr(_Traced, f"__{_op}__", _unary(_ufunc))
_Traced.__hash__ = None


class _Tracer:
    """Records the steps of one traced call (ops::FusedStep); values are numbered from the arguments on."""

    def __init__(self, nargs):
        self.steps = []
        self.count = nargs
        self.reduction = None  # (name, traced value, axis, dtype, keepdims) of a final reduction

    def _new(self, step, n=1):
        self.steps.append(step)
        self.count += n
        return range(self.count - n, self.count)

    def _operand(self, value):
        if isinstance(value, _Traced):
            if value._tracer is not self:
                raise TypeError(
                    f"cuarray.fuse: a traced value from another fused call was used at {_where()}"
                )
            if value._value is None:
                raise NotImplementedError(
                    f"cuarray.fuse: the result of a reduction can only be returned, not used "
                    f"further, inside a fused function (at {_where()})"
                )
            return value._value, value._operand
        if isinstance(value, ndarray):
            raise TypeError(
                f"cuarray.fuse: arrays must be arguments of the fused function, not captured from "
                f"outside it (at {_where()})"
            )
        step, operand = _constant(value)
        return self._new(step)[0], operand

    def apply(self, name, args, kwargs):
        unknown = set(kwargs) - {"dtype", "casting"}
        if unknown:
            raise TypeError(
                f"cuarray.fuse: {name}() keyword argument(s) {', '.join(sorted(unknown))} are not "
                f"supported inside a fused function (at {_where()})"
            )
        values, operands = zip(*(self._operand(a) for a in args))
        dtype = kwargs.get("dtype")
        types = _resolve(
            name, operands, None if dtype is None else numpy.dtype(dtype), kwargs.get("casting", "same_kind")
        )
        nin = len(args)
        signature = (
            "".join(numpy.dtype(t).char for t in types[:nin])
            + "->"
            + "".join(numpy.dtype(t).char for t in types[nin:])
        )
        if signature not in _loops(name):
            raise TypeError(f"cuarray.fuse: ufunc '{name}' has no loop {signature} (at {_where()})")
        outs = self._new(("ufunc", name, values, types), len(types) - nin)
        results = [_Traced(self, numpy.dtype(t), v) for v, t in zip(outs, types[nin:])]
        return results[0] if len(results) == 1 else tuple(results)

    def reduce(self, name, value, axis, dtype, out, keepdims):
        if name not in ("sum", "prod", "max", "min"):
            raise NotImplementedError(
                f"cuarray.fuse: {name}() is not supported inside a fused function (at "
                f"{_where()}); the reductions that can end one are sum, prod, max and min"
            )
        if out is not None:
            raise TypeError(f"cuarray.fuse: out= is not supported inside a fused function (at {_where()})")
        if self.reduction is not None:
            raise NotImplementedError(
                f"cuarray.fuse: a fused function may end in one reduction only (at {_where()})"
            )
        self._operand(value)
        dtype = None if dtype is None else numpy.dtype(dtype)
        result = _reduction._resolve(name, [value.dtype], dtype)[2]
        self.reduction = (name, value, axis, dtype, keepdims)
        return _Traced(self, result, None)

    def cast(self, value, dtype):
        v, _ = self._operand(value)
        return _Traced(self, dtype, self._new(("cast", v, dtype))[0])


def _dispatch(name, *args, **kwargs):
    """Called by any cuarray ufunc that receives a traced value."""
    tracer = next(a._tracer for a in args if isinstance(a, _Traced))
    return tracer.apply(name, args, kwargs)


def _dispatch_reduction(name, a, axis, dtype, out, keepdims, ddof, b):
    """Called by a cuarray reduction that receives a traced value."""
    if name in ("max", "min"):
        dtype = None
    return a._tracer.reduce(name, a, axis, dtype, None if out is None else out, keepdims)


_core._set_fusion_hook(_Traced, _dispatch)
_core._set_reduction_fusion_hook(_Traced, _dispatch_reduction)


def _arg_kind(value):
    if isinstance(value, ndarray):
        return value.dtype
    if isinstance(value, numpy.ndarray):
        raise TypeError(
            "cuarray.fuse: a numpy.ndarray was passed; move it to the GPU with cuarray.asarray(x)"
        )
    if isinstance(value, numpy.generic):
        return value.dtype
    if isinstance(value, bool):
        return numpy.dtype(bool)
    if type(value) in (int, float, complex):
        return type(value)
    raise TypeError(f"cuarray.fuse: unsupported argument of type {type(value).__name__}")


# A signature's kernel: its handle in the core, and the dtypes it takes and returns.
_Compiled = collections.namedtuple("_Compiled", "handle in_types out_types tuple_result")


class Fusion(_core._FusedFunction):
    """A fused function: call it as the original; the first call per argument signature compiles. Calls go
    to the core, which keeps a kernel per signature and asks `_entry` for new ones."""

    def __init__(self, func, name):
        super().__init__()
        self.func = func
        self.name = name
        self._kernels = {}
        functools.update_wrapper(self, func)

    def _entry(self, args):
        """The handle of the kernel for these arguments' kinds (traced and generated on the first call)."""
        kinds = tuple(_arg_kind(a) for a in args)
        kernel = self._kernels.get(kinds)
        if kernel is None:
            kernel = self._kernels[kinds] = self._compile(kinds)
        return kernel.handle

    def _compile(self, kinds):
        # Scalar arguments reach the kernel as float64/int64/complex128 values and are cast per use, as NumPy
        # casts a weak Python scalar to each loop's type.
        in_types = tuple(
            k
            if isinstance(k, numpy.dtype)
            else numpy.dtype({int: "int64", float: "float64", complex: "complex128"}[k])
            for k in kinds
        )
        tracer = _Tracer(len(kinds))
        result = self.func(*(_Traced(tracer, k, i) for i, k in enumerate(kinds)))
        reduction = None
        if tracer.reduction is not None:
            if not (isinstance(result, _Traced) and result._value is None):
                raise NotImplementedError(
                    f"cuarray.fuse: {self.name} must return the result of its reduction, alone"
                )
            name, reduced, axis, dtype, keepdims = tracer.reduction
            loops, out_loop, result_type = _reduction._resolve(name, [reduced.dtype], dtype)
            reduction = (name, loops[0], out_loop, result_type, axis, keepdims)
            results, tuple_result, out_types = [reduced], False, (result_type,)
        else:
            tuple_result = isinstance(result, tuple)
            results = list(result) if tuple_result else [result]
            if not results or not all(isinstance(r, _Traced) for r in results):
                raise TypeError(
                    f"cuarray.fuse: {self.name} must return traced array values (got "
                    f"{', '.join(type(r).__name__ for r in results)})"
                )
            out_types = tuple(r.dtype for r in results)
        handle = _core._fused_def(
            self.name, in_types, tracer.steps, [r._value for r in results], tuple_result, reduction
        )
        return _Compiled(handle, in_types, out_types, tuple_result)


def fuse(*args, kernel_name=None):
    """``@cuarray.fuse`` or ``@cuarray.fuse(kernel_name=...)``: compile a function's elementwise body into one
    kernel per argument signature."""

    def wrap(func):
        name = kernel_name or getattr(func, "__name__", "fused")
        name = "".join(c if c.isalnum() or c == "_" else "_" for c in name) or "fused"
        return Fusion(func, name)

    if len(args) == 1 and callable(args[0]) and kernel_name is None:
        return wrap(args[0])
    if args:
        raise TypeError("cuarray.fuse takes a function, or only keyword arguments")
    return wrap
