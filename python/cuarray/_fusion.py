"""cuarray.fuse: a function's elementwise body traced once per argument signature and run as one kernel.

On the first call with new argument kinds, the function runs on traced values (cuarray._fusion_trace) and the
core generates one kernel from the recorded steps, with the same table rows as the ufuncs themselves, so fused
and unfused results agree (Note [Fused kernels] in cpp/cuarray/ops/fusion.cpp). A function may end in one
reduction (sum, prod, max, min, nansum, nanprod, all, any, with axis, dtype and keepdims) of its elementwise
result, then elementwise steps with constants alone (`sqrt(sum(x) + 10)`): the body becomes the map of a
reduction kernel and the steps its post, so the intermediate array is never written. Basic-indexed views of
arguments (`g[None, :, None]`) are inputs of the kernel of their own.

Arguments updated in place (`x += y`, out=x) are written by the kernel itself (Note [Updates in place] in
cpp/cuarray/ops/fusion.cpp). As CuPy's: without a cuarray array among the arguments (NumPy arrays, scalars
alone) the function is called as it is; None arguments reach it as None. A body one kernel cannot express
(indexing, several reductions, a reduction used further, ...) runs op by op, each op a cuarray call, so its
results and errors are NumPy's (Note [Fusion plans] in python/src/fusion.cpp). Later calls with a known
signature go straight to their plan, without Python code.
"""

import collections
import functools

import numpy

from cuarray import _core, _reduction
from cuarray._core import ndarray
from cuarray._fusion_branches import explore
from cuarray._fusion_trace import Tracer
from cuarray._fusion_values import FusionError, Traced, Unfusable

__all__ = ["fuse"]

_SCALARS = (bool, int, float, complex)
_INVALID = object()
_SCALAR_LOOP = {
    bool: numpy.dtype(bool),
    int: numpy.dtype("int64"),
    float: numpy.dtype("float64"),
    complex: numpy.dtype("complex128"),
}

# A traced function: its steps (tracer.steps), the values the kernel returns, the final reduction (or None),
# the kernel's input and output dtypes, the arguments it updates, and how the function's result is built
# from the kernel's outputs and its arguments (None: the outputs alone; Plan in python/src/fusion.cpp).
_Program = collections.namedtuple(
    "_Program", "steps results tuple_result reduction in_types out_types updates returns views ranges"
)
# A signature's kernel: its handle in the core, the dtypes it takes and returns, the ranges of its Python int
# arguments ((position, lo, hi), ...), and how the result is built.
_Compiled = collections.namedtuple("_Compiled", "handle in_types out_types tuple_result ranges returns views")


def _kinds(name, args):
    """The signature of a call: per argument its dtype (a cuarray array), (dtype,) (a NumPy scalar), its type
    (a Python scalar) or None; None where the function is to be called as it is."""
    kinds = []
    for a in args:
        if isinstance(a, ndarray):
            kinds.append(a.dtype)
        elif isinstance(a, Traced):
            return None  # inside another fused function's trace: traced inline
        elif isinstance(a, numpy.generic):
            kinds.append((a.dtype,))
        elif a is None or type(a) in _SCALARS:
            kinds.append(None if a is None else type(a))
        else:
            kinds.append(_INVALID)
    if not any(isinstance(k, numpy.dtype) for k in kinds):
        return None
    if _INVALID in kinds:
        raise TypeError(
            f"Invalid argument type for '{name}': ({', '.join(repr(type(a)) for a in args)}); "
            "a fused function takes cuarray arrays, scalars and None"
        )
    return tuple(kinds)


def _passed(r, tracer, traced_args, nargs):
    """Where result `r` is an argument or an argument's view: its position (views after the arguments); -1."""
    if isinstance(r, Traced) and isinstance(r._value, tuple):
        return nargs + r._value[1]
    return next((p for p, a in zip(tracer.positions, traced_args) if a is r), -1)


def _traced_argument(tracer, kind, value):
    if isinstance(kind, numpy.dtype):
        return Traced(tracer, kind, value, True)
    if isinstance(kind, tuple):
        return Traced(tracer, kind[0], value, False)
    return Traced(tracer, numpy.dtype(bool) if kind is bool else kind, value, False)


class Fusion(_core._Fusion):
    """A fused function: call it as the original; the first call per argument signature picks its plan (a
    kernel, or running the function), which the core then keeps."""

    # CuPy's: the object of its second fusion engine once the first has failed on this function, None until
    # then. cuarray has one engine and no such fallback, so it stays None.
    new_fusion = None

    def __init__(self, func, name, elementwise=False):
        super().__init__()
        self.func = func
        self.name = name
        self._elementwise = elementwise  # vectorize's: the arguments are elements (Note [Branches])
        self._plans = {}
        functools.update_wrapper(self, func)

    def __repr__(self):
        return f"<Fusion '{self.name}'>"

    def clear_cache(self):
        """Forgets every signature's plan: the next calls trace and compile again."""
        self._plans.clear()
        self._clear_plans()

    def _entry(self, args):
        """The plan for these arguments: None (call the function) or (kernel handle, Python int ranges, how the
        result is built), as python/src/fusion.cpp's Plan reads it."""
        kinds = _kinds(self.name, args)
        if kinds is None:
            return None
        if kinds not in self._plans:
            self._plans[kinds] = self._plan(kinds)
        return self._plans[kinds]

    def _plan(self, kinds):
        try:
            compiled = self._compile(kinds)
        except FusionError:
            raise
        except Unfusable as e:
            if self._elementwise:  # run op by op, the function would see whole arrays, not elements
                raise NotImplementedError(
                    f"cuarray.vectorize: {e} is not supported in a vectorized function"
                ) from None
            return None
        except Exception:  # an error the op-by-op run raises as NumPy's
            if self._elementwise:
                raise
            return None
        return compiled.handle, compiled.ranges, compiled.returns, compiled.views

    def _trace(self, kinds):
        """The function traced for `kinds` (a _Program); Unfusable where one kernel cannot do."""
        tracer = Tracer(kinds, self._elementwise)
        args = [
            None if k is None else _traced_argument(tracer, k, tracer.positions.index(i))
            for i, k in enumerate(kinds)
        ]
        result = explore(tracer, lambda: self.func(*args)) if self._elementwise else self.func(*args)
        # Scalar arguments reach the kernel as their loop types (a Python scalar as bool, int64, float64 or
        # complex128), cast per use as NumPy casts a weak Python scalar to each loop's type.
        in_types = tuple(
            k if isinstance(k, numpy.dtype) else k[0] if isinstance(k, tuple) else _SCALAR_LOOP[k]
            for k in kinds
            if k is not None
        )
        in_types += tuple(kinds[position] for position, _ in tracer.views)
        traced_args = [a for a in args if a is not None]
        n = tracer.number
        # Arguments updated in place: (kernel input, final value) (Note [Updates in place] in ops/fusion.cpp).
        updates = [(i, n(a._value)) for i, a in enumerate(traced_args) if a._array and a._value != i]
        if tracer.reduction is not None:
            if updates or not tracer.posted(result):
                raise Unfusable("a reduction that is not the function's only result")
            name, reduced, axis, dtype, keepdims = tracer.reduction
            loops, out_loop, result_type = _reduction._resolve(name, [reduced.dtype], dtype)
            reduction = (name, loops[0], out_loop, result_type, axis, keepdims, tracer.post, result._value[1])
            return _Program(
                tracer.kernel_steps(),
                [n(reduced._value)],
                False,
                reduction,
                in_types,
                (result.dtype,),
                [],
                None,
                tracer.views,
                tracer.ranges,
            )
        tuple_result = isinstance(result, tuple)
        items = list(result) if tuple_result else [] if result is None else [result]
        # An argument (or an argument's view) returned is returned itself, as NumPy returns the very arrays.
        positions = [_passed(r, tracer, traced_args, len(kinds)) for r in items]
        fresh = [r for r, p in zip(items, positions) if p < 0]
        if not all(isinstance(r, Traced) and r._array for r in fresh) or not (fresh or updates):
            raise Unfusable("results other than arrays, or nothing to compute")
        plain = result is not None and all(p < 0 for p in positions)
        returns = None if plain else (result is None, tuple_result, positions)
        out_types = tuple(r.dtype for r in fresh)
        return _Program(
            tracer.kernel_steps(),
            [n(r._value) for r in fresh],
            tuple_result,
            None,
            in_types,
            out_types,
            updates,
            returns,
            tracer.views,
            tracer.ranges,
        )

    def _compile(self, kinds):
        """Traces the function for `kinds` and generates its kernel; Unfusable where one kernel cannot do."""
        p = self._trace(kinds)
        handle = _core._fusion_def(
            self.name, p.in_types, p.steps, p.results, p.tuple_result, p.reduction, p.updates
        )
        ranges = tuple((i, *p.ranges.get(i, (-(2**63), 2**63 - 1))) for i, k in enumerate(kinds) if k is int)
        return _Compiled(handle, p.in_types, p.out_types, p.tuple_result, ranges, p.returns, tuple(p.views))


def fuse(*args, kernel_name=None):
    """``@cuarray.fuse`` or ``@cuarray.fuse(kernel_name=...)``: compile a function's elementwise body into one
    kernel per argument signature."""

    if len(args) == 1 and callable(args[0]) and kernel_name is None:
        return named(args[0])
    if args:
        raise TypeError("cuarray.fuse takes a function, or only keyword arguments")
    return lambda func: named(func, kernel_name)


def named(func, kernel_name=None, elementwise=False):
    """The Fusion of `func`, its kernels named `kernel_name` or the function's name as an identifier."""
    name = kernel_name or getattr(func, "__name__", "fused")
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in name) or "fused"
    return Fusion(func, name, elementwise)
