"""Tracing for cuarray.fuse: a fused function run on traced values records its steps for one kernel.

Every operator, ufunc, astype and constant applied to traced values (cuarray._fusion_values) is recorded as a
step (the ufunc, its operands' value numbers, and the loop NumPy would pick: Note [Type resolution] in
python/src/ufunc.cpp), and a final reduction as the program's reduction; the core generates the kernel (Note
[Fused kernels] in cpp/cuarray/ops/fusion.cpp). What one kernel cannot express raises Unfusable, and the
function then runs op by op (Note [Fusion plans] in python/src/fusion.cpp).
"""

import numpy

from cuarray import _core, _reduction
from cuarray._core import ndarray
from cuarray._fusion_values import Traced, Unfusable
from cuarray._ufuncs import _resolve

_KERNEL_REDUCTIONS = frozenset(("sum", "prod", "max", "min", "nansum", "nanprod", "all", "any"))


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


class Tracer:
    """Records the steps of one traced call (ops::FusedStep); values are numbered from the arguments on."""

    def __init__(self, kinds, elementwise=False):
        self.steps = []
        # Elementwise functions (vectorize) take elements: their branches are explored (Note [Branches]), and
        # `x += y` binds x to x + y. `path`: the decisions of the run being traced; `taken`: (condition, decision).
        self.path, self.taken = ([] if elementwise else None), []
        self.reduction = None  # (name, traced value, axis, dtype, keepdims) of a final reduction
        self.ranges = {}  # argument position -> (lo, hi) its Python int must lie in
        self.positions = [
            i for i, k in enumerate(kinds) if k is not None
        ]  # value number -> argument position
        self.count = len(self.positions)
        # (argument position, key) of the arguments' views the function reads (x[0], x[:, None]): inputs of
        # the kernel after the arguments, taken at each call; their values are ("view", index) until numbered.
        self.views = []
        # Steps after the final reduction, on its result (post value 0) and constants alone: `sum(x) + 3`.
        # Their values are ("post", number).
        self.post, self.post_count = [], 1

    def _new(self, step, n=1, post=False):
        """The numbers of a new step's n results, in the post steps' numbering if `post`."""
        if post:
            self.post.append(step)
            self.post_count += n
            return range(self.post_count - n, self.post_count)
        self.steps.append(step)
        self.count += n
        return range(self.count - n, self.count)

    @staticmethod
    def posted(value):
        """Whether a traced value is the final reduction's result or computed from it."""
        return isinstance(value, Traced) and isinstance(value._value, tuple) and value._value[0] == "post"

    def _operand(self, value, post=False):
        """(value number, operand for type resolution, Python int constant or None, array?) of an operand, in
        the post steps' numbering if `post`."""
        if isinstance(value, Traced):
            if value._tracer is not self or self.posted(value) != post:
                raise Unfusable("a reduced value combined with arrays, or a value of another trace")
            return (value._value[1] if post else value._value), value._operand, None, value._array
        if isinstance(value, ndarray):
            raise Unfusable("an array captured from outside the function")
        step, operand = _constant(value)
        weak_int = value if operand is int else None
        return self._new(step, post=post)[0], operand, weak_int, False

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
        if set(kwargs) - {"dtype", "casting", "out"}:
            raise Unfusable(f"{name}() with keyword arguments other than dtype, casting and out")
        out = kwargs.pop("out", None)
        if out is not None:  # NumPy's loop is the inputs', its results then cast into `out`
            outs = out if isinstance(out, tuple) else (out,)
            results = self.apply(name, args, kwargs)
            results = results if isinstance(results, tuple) else (results,)
            if len(outs) != len(results):
                raise Unfusable(f"{name}() with {len(outs)} outputs")
            casting = kwargs.get("casting", "same_kind")
            results = tuple(r if o is None else self.update(o, r, casting) for o, r in zip(outs, results))
            return results if isinstance(out, tuple) else results[0]
        post = any(self.posted(a) for a in args)
        values, operands, constants, arrays = zip(*(self._operand(a, post) for a in args))
        dtype = kwargs.get("dtype")
        types = _resolve(
            name, operands, None if dtype is None else numpy.dtype(dtype), kwargs.get("casting", "same_kind")
        )
        types = [numpy.dtype(t) for t in types]
        types = [numpy.dtype(t.name) if t.char in "qQ" else t for t in types]  # as the table spells them
        for v, op, c, t in zip(values, operands, constants, types):
            if op is int:
                self._bound(v, c, t)
        outs = self._new(("ufunc", name, values, types), len(types) - len(args), post)
        results = [
            Traced(self, t, ("post", v) if post else v, any(arrays)) for v, t in zip(outs, types[len(args) :])
        ]
        return results[0] if len(results) == 1 else tuple(results)

    def reduce(self, name, value, axis, dtype, out, keepdims):
        if (
            name not in _KERNEL_REDUCTIONS
            or out is not None
            or self.reduction is not None
            or self.path is not None
        ):
            raise Unfusable(f"{name}() in a fused kernel")  # an element's would reduce it alone
        if not isinstance(value, Traced) or not value._array:
            raise Unfusable("a reduction of a scalar")
        self._operand(value)
        dtype = None if dtype is None else numpy.dtype(dtype)
        result = _reduction._resolve(name, [value.dtype], dtype)[2]
        self.reduction = (name, value, axis, dtype, keepdims)
        return Traced(self, result, ("post", 0), True)

    def index(self, value, key):
        """value[key]: a view of an argument by basic indexing is an input of the kernel of its own."""
        if not (value._array and self._argument(value._value) and _basic(key)) or self.path is not None:
            raise Unfusable("indexing other than basic indexing of an argument")  # or of an element
        self.views.append((self.positions[value._value], key))
        return Traced(self, value._operand, ("view", len(self.views) - 1), True)

    def _argument(self, v):
        return isinstance(v, int) and v < len(self.positions)

    def number(self, v):
        """Value `v`'s number in the kernel, whose inputs are the arguments and then the views."""
        if isinstance(v, tuple):
            return len(self.positions) + v[1]
        return v if v < len(self.positions) else v + len(self.views)

    def kernel_steps(self):
        """The steps with the kernel's value numbers."""
        n = self.number
        return [
            (s[0], s[1], tuple(map(n, s[2])), s[3])
            if s[0] == "ufunc"
            else (s[0], n(s[1]), s[2])
            if s[0] == "cast"
            else s
            for s in self.steps
        ]

    def update(self, target, result, casting):
        """`result` written into the array `target` (`x += y`, out=x): target's value from now on, in its dtype."""
        if not (
            isinstance(target, Traced)
            and target._tracer is self
            and target._array
            and isinstance(target._value, int)
            and isinstance(result._value, int)
        ):
            raise Unfusable("an output that is not an array of the function")
        if not numpy.can_cast(result.dtype, target.dtype, casting):
            raise Unfusable("an output cast that NumPy refuses")
        value = result if result.dtype == target.dtype else self.cast(result, target.dtype)
        target._value = value._value
        return target

    def decide(self, value):
        """bool() of a traced element: the decision the path being traced takes, recorded with its condition."""
        decision = self.path[len(self.taken)] if len(self.taken) < len(self.path) else False
        self.taken.append((self.cast(value, numpy.dtype(bool)), decision))
        return decision

    def cast(self, value, dtype):
        post = self.posted(value)
        v, _, _, array = self._operand(value, post)
        w = self._new(("cast", v, dtype), post=post)[0]
        return Traced(self, dtype, ("post", w) if post else w, array)


def _basic(key):
    """Whether `key` indexes basically (ints, slices of ints, None, Ellipsis): a view, whatever the array."""
    if not isinstance(key, tuple):
        key = (key,)
    for k in key:
        if isinstance(k, slice):
            if not all(v is None or (type(v) is int) for v in (k.start, k.stop, k.step)):
                return False
        elif not (k is None or k is Ellipsis or type(k) is int):
            return False
    return True


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
