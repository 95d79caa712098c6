"""cuarray.fuse: a function's elementwise body traced once per argument signature and run as one kernel.

On the first call with new argument types, the function runs on traced values: every operator and ufunc it
applies becomes one block of CUDA code, typed by the loop NumPy would pick (Note [Type resolution] in
python/src/ufunc.cpp) and computed by the same table row as the ufunc itself (cpp/cuarray/ops/ufuncs.def),
so fused and unfused results agree. The blocks become the body of one elementwise kernel; later calls with
the same argument types go straight to its launch.

A function may end in one reduction (sum, prod, max or min, with axis and keepdims) of its elementwise result:
the elementwise body then becomes the map of a reduction kernel (cpp/cuarray/ops/reduction.h), so the
intermediate array is never written.
"""

import functools
import re
import struct
import sys

import numpy

from cuarray import _core, _reduction
from cuarray._core import ndarray
from cuarray._ufuncs import _resolve

__all__ = ["fuse"]

_STORAGE = {"bool": "bool", "int8": "signed char", "int16": "short", "int32": "int", "int64": "long long",
            "uint8": "unsigned char", "uint16": "unsigned short", "uint32": "unsigned int",
            "uint64": "unsigned long long", "float16": "ca::half", "bfloat16": "ca::bfloat16", "float32": "float",
            "float64": "double", "complex64": "ca::complex<float>", "complex128": "ca::complex<double>"}


def _storage(dtype):
    return _STORAGE[numpy.dtype(dtype).name]


def _compute(dtype):
    """The type kernels compute in: float for the 16-bit floats (as the engine does)."""
    name = numpy.dtype(dtype).name
    return "float" if name in ("float16", "bfloat16") else _STORAGE[name]


def _char(dtype):
    return numpy.dtype(dtype).char  # 'E' for ml_dtypes' bfloat16, as in the table


def _where():
    """'file:line' of the user's code that is being traced."""
    frame = sys._getframe(2)
    while frame and frame.f_globals.get("__name__") == __name__:
        frame = frame.f_back
    return f"{frame.f_code.co_filename}:{frame.f_lineno}" if frame else "?"


def _double_literal(v):
    bits = struct.unpack("<q", struct.pack("<d", float(v)))[0]
    return f"__longlong_as_double({bits}LL)"


def _literal(value):
    """A Python or NumPy scalar as CUDA source, and the operand NumPy's resolution sees for it."""
    if isinstance(value, numpy.generic):
        dtype = value.dtype
        if dtype.kind == "c":
            src = f"ca::complex<double>({_double_literal(value.real)}, {_double_literal(value.imag)})"
        elif dtype.kind == "f":
            src = _double_literal(value)
        elif dtype.kind == "b":
            src = "true" if value else "false"
        else:
            src = f"{int(value)}{'ULL' if dtype.kind == 'u' else 'LL'}"
        return f"ca::cast<{_storage(dtype)}>({src})", dtype
    if isinstance(value, bool):
        return ("true" if value else "false"), numpy.dtype(bool)
    if isinstance(value, int):
        return (f"{value}ULL" if value > 2**63 - 1 else f"{value}LL"), int
    if isinstance(value, float):
        return _double_literal(value), float
    if isinstance(value, complex):
        return f"ca::complex<double>({_double_literal(value.real)}, {_double_literal(value.imag)})", complex
    raise TypeError(f"cuarray.fuse: unsupported value of type {type(value).__name__} at {_where()}")


class _Traced:
    """A value inside a fused function being traced: a variable of the generated kernel."""

    __slots__ = ("_tracer", "_operand", "_src")

    def __init__(self, tracer, operand, src):
        self._tracer = tracer
        self._operand = operand  # a numpy.dtype, or int/float/complex for a weak Python scalar argument
        self._src = src

    @property
    def dtype(self):
        return self._operand if isinstance(self._operand, numpy.dtype) else numpy.dtype(self._operand)

    def astype(self, dtype, copy=True):
        return self._tracer.cast(self, numpy.dtype(dtype))

    def __bool__(self):
        raise TypeError(f"cuarray.fuse: Python control flow on array values is not supported (bool() of a traced "
                        f"value at {_where()}); use cuarray.where(condition, x, y)")

    def __getattr__(self, name):
        raise NotImplementedError(f"cuarray.fuse: '{name}' is not supported inside a fused function (at {_where()}); "
                                  "only elementwise operators, ufuncs, where, astype and a final sum, prod, max or "
                                  "min are")

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


for _op, _ufunc in {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
                    "floordiv": "floor_divide", "mod": "remainder", "pow": "power", "and": "bitwise_and",
                    "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "left_shift", "rshift": "right_shift"}.items():
    setattr(_Traced, f"__{_op}__", _binary(_ufunc))
    setattr(_Traced, f"__r{_op}__", _binary(_ufunc, reflected=True))
for _op, _ufunc in {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal", "eq": "equal",
                    "ne": "not_equal"}.items():
    setattr(_Traced, f"__{_op}__", _binary(_ufunc))
def _unary(name):
    return lambda self: self._tracer.apply(name, (self,), {})


for _op, _ufunc in {"neg": "negative", "pos": "positive", "abs": "absolute", "invert": "invert"}.items():
    setattr(_Traced, f"__{_op}__", _unary(_ufunc))
_Traced.__hash__ = None


class _Tracer:
    """Collects the code of one traced call."""

    def __init__(self):
        self.lines = []
        self.count = 0
        self.reduction = None  # (name, traced value, axis, dtype, keepdims, result) of a final reduction

    def _temp(self, dtype):
        name = f"t{self.count}"
        self.count += 1
        self.lines.append(f"{_storage(dtype)} {name};")
        return name

    def _operand(self, value):
        if isinstance(value, _Traced):
            if value._tracer is not self:
                raise TypeError(f"cuarray.fuse: a traced value from another fused call was used at {_where()}")
            if value._src is None:
                raise NotImplementedError(f"cuarray.fuse: the result of a reduction can only be returned, not used "
                                          f"further, inside a fused function (at {_where()})")
            return value._src, value._operand
        if isinstance(value, ndarray):
            raise TypeError(f"cuarray.fuse: arrays must be arguments of the fused function, not captured from "
                            f"outside it (at {_where()})")
        return _literal(value)

    def apply(self, name, args, kwargs):
        unknown = set(kwargs) - {"dtype", "casting"}
        if unknown:
            raise TypeError(f"cuarray.fuse: {name}() keyword argument(s) {', '.join(sorted(unknown))} are not "
                            f"supported inside a fused function (at {_where()})")
        srcs, operands = zip(*(self._operand(a) for a in args))
        dtype = kwargs.get("dtype")
        types = _resolve(name, operands, None if dtype is None else numpy.dtype(dtype),
                         kwargs.get("casting", "same_kind"))
        nin = len(args)
        body, loops = _core._ufunc_row(name)
        signature = "".join(_char(t) for t in types[:nin]) + "->" + "".join(_char(t) for t in types[nin:])
        if signature not in loops:
            raise TypeError(f"cuarray.fuse: ufunc '{name}' has no loop {signature} (at {_where()})")
        outs = [self._temp(t) for t in types[nin:]]
        block = [f"using in{i}_t = {_storage(t)};" for i, t in enumerate(types[:nin])]
        block += [f"using out{o}_t = {_storage(t)};" for o, t in enumerate(types[nin:])]
        for i, (src, t) in enumerate(zip(srcs, types[:nin])):
            block.append(f"const {_compute(t)} in{i} = ca::cast<{_compute(t)}>(ca::cast<{_storage(t)}>({src}));")
        block += [f"{_compute(t)} out{o};" for o, t in enumerate(types[nin:])]
        block.append(body)
        block += [f"{out} = ca::cast<{_storage(t)}>(out{o});" for o, (out, t) in enumerate(zip(outs, types[nin:]))]
        self.lines.append("{ " + " ".join(block) + " }")
        results = [_Traced(self, numpy.dtype(t), out) for out, t in zip(outs, types[nin:])]
        return results[0] if len(results) == 1 else tuple(results)

    def reduce(self, name, value, axis, dtype, out, keepdims):
        if name not in ("sum", "prod", "max", "min"):
            raise NotImplementedError(f"cuarray.fuse: {name}() is not supported inside a fused function (at "
                                      f"{_where()}); the reductions that can end one are sum, prod, max and min")
        if out is not None:
            raise TypeError(f"cuarray.fuse: out= is not supported inside a fused function (at {_where()})")
        if self.reduction is not None:
            raise NotImplementedError(f"cuarray.fuse: a fused function may end in one reduction only (at {_where()})")
        self._operand(value)
        dtype = None if dtype is None else numpy.dtype(dtype)
        result = _reduction._resolve(name, [value.dtype], dtype)[2]
        self.reduction = (name, value, axis, dtype, keepdims)
        return _Traced(self, result, None)

    def cast(self, value, dtype):
        src, _ = self._operand(value)
        out = self._temp(dtype)
        self.lines.append(f"{out} = ca::cast<{_storage(dtype)}>({src});")
        return _Traced(self, dtype, out)


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
        raise TypeError("cuarray.fuse: a numpy.ndarray was passed; move it to the GPU with cuarray.asarray(x)")
    if isinstance(value, numpy.generic):
        return value.dtype
    if isinstance(value, bool):
        return numpy.dtype(bool)
    if type(value) in (int, float, complex):
        return type(value)
    raise TypeError(f"cuarray.fuse: unsupported argument of type {type(value).__name__}")


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
        """What the core's signature cache runs for these arguments' kinds (compiling on the first call)."""
        kinds = tuple(_arg_kind(a) for a in args)
        kernel = self._kernels.get(kinds)
        if kernel is None:
            kernel = self._kernels[kinds] = self._compile(kinds)
        if kernel[0] == "reduction":
            return "python", lambda *a: self._call_reduction(kernel, a)
        return ("elementwise",) + kernel

    def _call_reduction(self, kernel, args):
        _, handle, in_types, out_loop, result, axis, keepdims = kernel
        if not any(isinstance(a, ndarray) for a in args):
            raise TypeError(f"cuarray.fuse: {self.name} reduces, so at least one argument must be an array")
        from cuarray._transfer import asarray

        # Scalars join as 0-d arrays: the reduction engine broadcasts arrays only.
        inputs = [a if isinstance(a, ndarray) else asarray(numpy.asarray(a, t)) for a, t in zip(args, in_types)]
        return _core._reduction_call(handle, inputs, in_types, out_loop, result, axis, None, keepdims)

    def _compile_reduction(self, tracer, in_types, value):
        """A reduction kernel whose map is the traced elementwise body."""
        name, reduced, axis, dtype, keepdims = tracer.reduction
        loops, out_loop, result = _reduction._resolve(name, [reduced.dtype], dtype)
        loop = loops[0]
        acc, identity, map_expr, reduce_expr, post, has_identity = _core._reduction_row(name)
        # The row's in0_t is the reduced value's loop type, which here is not the kernel's first input.
        acc, identity, map_expr, reduce_expr, post = (re.sub(r"\bin0_t\b", _storage(loop), e)
                                                      for e in (acc, identity, map_expr, reduce_expr, post))
        params = ", ".join(f"{_compute(t)} in{i}" for i, t in enumerate(in_types))
        args = ", ".join(f"in{i}" for i in range(len(in_types)))
        body = [f"const auto a{i} = in{i};" for i in range(len(in_types))] + tracer.lines
        preamble = (f"__device__ __forceinline__ {_compute(reduced.dtype)} {self.name}_value({params}) {{\n  "
                    + "\n  ".join(body) + f"\n  return ca::cast<{_compute(reduced.dtype)}>({reduced._src});\n}}\n")
        value = f"ca::cast<{_compute(loop)}>(ca::cast<{_storage(loop)}>({self.name}_value({args})))"
        mapped = f"[&](const {_compute(loop)} in0) {{ return acc_t({map_expr}); }}({value})"
        handle = _core._reduction_def(self.name, len(in_types), acc, identity, mapped, reduce_expr, post, preamble,
                                      has_identity, False, [])
        return "reduction", handle, in_types, out_loop, result, axis, keepdims

    def _compile(self, kinds):
        tracer = _Tracer()
        # Scalar arguments reach the kernel as float64/int64/complex128 values and are cast per use, as NumPy
        # casts a weak Python scalar to each loop's type.
        in_types = [k if isinstance(k, numpy.dtype) else numpy.dtype({int: "int64", float: "float64",
                                                                         complex: "complex128"}[k]) for k in kinds]
        traced = [_Traced(tracer, k, f"a{i}") for i, k in enumerate(kinds)]
        result = self.func(*traced)
        if tracer.reduction is not None:
            if not (isinstance(result, _Traced) and result._src is None):
                raise NotImplementedError(f"cuarray.fuse: {self.name} must return the result of its reduction, "
                                          "alone")
            return self._compile_reduction(tracer, in_types, result)
        tuple_result = isinstance(result, tuple)
        results = list(result) if tuple_result else [result]
        if not results or not all(isinstance(r, _Traced) for r in results):
            raise TypeError(f"cuarray.fuse: {self.name} must return traced array values (got "
                            f"{', '.join(type(r).__name__ for r in results)})")
        out_types = [r.dtype for r in results]
        lines = [f"const auto a{i} = in{i};" for i in range(len(kinds))] + tracer.lines
        lines += [f"out{o} = ca::cast<{_compute(t)}>({r._src});" for o, (r, t) in enumerate(zip(results, out_types))]
        body = "{\n        " + "\n        ".join(lines) + "\n      }"
        handle = _core._elementwise_def(self.name, body, "", len(kinds), len(results), False, [])
        return handle, tuple(in_types), tuple(out_types), tuple_result


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
