"""ReductionKernel: a user reduction in CuPy's syntax, run by the reduction engine (cpp/cuarray/ops/reduction.h)."""

import warnings

import numpy
from numpy.exceptions import ComplexWarning

from cuarray import _core, _interop
from cuarray._core import ndarray
from cuarray._kernel import (
    _BODY_CTYPES,
    _COMPLEX_INCLUDE,
    _CTYPES,
    _CUPY_PRELUDE,
    _IDENTIFIER,
    ParameterInfo,
    _cached_code,
    _cached_codes,
    _parse,
    _user_options,
)

__all__ = ["ReductionKernel"]  # create_reduction_func is CuPy's cupy._core one, not a top-level name


class ReductionKernel:
    """``ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0', 'l2norm')``.

    `map_expr` maps the inputs (by parameter name) to a value of `reduce_type` (default: the output's type);
    `reduce_expr` combines two such values `a` and `b`; `post_map_expr` assigns the output from `a`, the reduced
    value (`_in_ind.size()` is the number of input elements and `_out_ind.size()` of outputs, as CuPy's, so their
    quotient is the number of elements each output reduces; the output's parameter holds the output's value
    before, so ``y += a`` adds to an ``out=`` array, as CuPy's); `identity` is the value that reduces nothing (None:
    there is none, and reducing zero elements is a ValueError). Call with the inputs, then ``axis=``,
    ``keepdims=``, ``out=``.
    """

    def __init__(
        self,
        in_params,
        out_params,
        map_expr,
        reduce_expr,
        post_map_expr,
        identity,
        name="reduce_kernel",
        reduce_type=None,
        reduce_dims=True,
        preamble="",
        options=(),
    ):
        self.in_params, self.out_params = _parse(in_params, True), _parse(out_params, False)
        if not self.in_params:
            raise ValueError("a ReductionKernel needs at least one input parameter")
        if len(self.out_params) != 1:
            raise ValueError(
                f"a ReductionKernel has exactly one output parameter, got {len(self.out_params)}"
            )
        if any(p.raw for p in self.in_params + self.out_params):
            raise ValueError("raw parameters are not supported in a ReductionKernel")
        names = [p.name for p in self.in_params + self.out_params]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicated kernel parameter name(s) in {names}")
        bound = {p.placeholder for p in self.in_params if p.placeholder}
        out = self.out_params[0]
        if out.placeholder and out.placeholder not in bound:
            raise ValueError(
                f"output parameter '{out.name}' has type placeholder {out.placeholder}, which no input "
                "parameter defines"
            )
        if not _IDENTIFIER.match(name):
            raise ValueError(f'Invalid kernel name: "{name}" (a kernel name must be an identifier)')
        # No identity (None or ''), as CuPy: the accumulator starts value-initialized (acc_t()), and reducing
        # zero elements is a ValueError.
        identity = "" if identity is None else str(identity).strip()
        self.name, self.map_expr, self.reduce_expr = name, map_expr, reduce_expr
        self.post_map_expr, self.identity, self.reduce_type = post_map_expr, identity, reduce_type
        self.preamble, self.options = preamble, tuple(options)
        self.__name__ = name  # as CuPy's, for profilers that name what they time
        # Accepted for CuPy's signature: the engine coalesces the reduced and kept dimensions itself.
        self.reduce_dims = bool(reduce_dims)
        self.nin, self.nout = len(self.in_params), 1
        self.nargs = self.nin + 1
        # Note [ReductionKernel.params]
        # CuPy's ReductionKernel declares `params` but never sets it (None); its parameters with the two
        # indexers the body may read (_in_ind, _out_ind) are what the name says, as ElementwiseKernel's are.
        indexers = (ParameterInfo._indexer("_in_ind"), ParameterInfo._indexer("_out_ind"))
        self.params = self.in_params + self.out_params + indexers
        self._defs = {}
        self._first_calls = {}  # (in_types, out_type) -> how its first call ran (Note [Cached codes])

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None):
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(
                f"Wrong number of arguments for {self.name}: it takes {self.nin} or {self.nargs} "
                f"arguments ({len(args)} given)"
            )
        if len(args) == self.nargs:
            if out is not None:
                raise ValueError(
                    f"cannot specify 'out' as both a positional and keyword argument ({self.name})"
                )
            out = args[-1]
        inputs = _interop._as_operands(args[: self.nin])
        types = {}
        for p, a in zip(self.in_params, inputs):
            if isinstance(a, numpy.ndarray):
                raise TypeError(
                    f"argument '{p.name}' of {self.name} is a numpy.ndarray; pass a cuarray array "
                    "(cuarray.asarray(x))"
                )
            if (
                p.placeholder
                and isinstance(a, ndarray)
                and types.setdefault(p.placeholder, a.dtype) != a.dtype
            ):
                raise TypeError(
                    f"Type is mismatched: {p.placeholder} is {types[p.placeholder]} from an earlier "
                    f"argument but input '{p.name}' is {a.dtype}"
                )
        for p, a in zip(self.in_params, inputs):
            if p.placeholder and p.placeholder not in types:
                types[p.placeholder] = numpy.asarray(a).dtype
        if not any(isinstance(a, ndarray) for a in inputs):
            raise ValueError(
                f"Loop size is undecided. {self.name}: at least one input must be a cuarray.ndarray"
            )
        in_types = [p.dtype if p.placeholder is None else types[p.placeholder] for p in self.in_params]
        o = self.out_params[0]
        out_type = o.dtype if o.placeholder is None else types[o.placeholder]
        if out is not None and not isinstance(out, ndarray):
            raise TypeError(f"output argument '{o.name}' of {self.name} must be a cuarray.ndarray")
        from cuarray._transfer import asarray

        # Scalars join as 0-d arrays: the engine broadcasts arrays only.
        given = inputs
        inputs = [
            a if isinstance(a, ndarray) else asarray(numpy.asarray(a, t)) for a, t in zip(inputs, in_types)
        ]
        signature = (tuple(in_types), out_type)
        handle = self._definition(*signature, types)
        call = (handle, inputs, in_types, out_type, out_type, axis, out, keepdims)
        if stream is None:
            result = _core._reduction_call(*call)
        else:
            with stream:
                result = _core._reduction_call(*call)
        if signature not in self._first_calls and result.size:
            self._first_calls[signature] = _first_reduction_call(handle, signature, given, axis, result)
        return result

    @property
    def cached_codes(self):
        """The CUDA source of the kernel of each set of argument dtypes the kernel has run with, keyed by the
        dtypes of its array arguments (inputs, then the output; scalars left out), as CuPy's: for debugging, and
        filled by the first call with those dtypes that has a result to compute (Note [Cached codes] in
        _kernel.py). Warns while empty."""
        return _cached_codes(self._first_calls, _core._reduction_source)

    @property
    def cached_code(self):
        """The first source of `cached_codes`, as CuPy's (StopIteration before any call; warns where there are
        several)."""
        return _cached_code(self._first_calls, _core._reduction_source)

    def _reduce_ctype(self, out_type, placeholders):
        t = self.reduce_type
        if t is None:
            return _CTYPES[numpy.dtype(out_type).name]
        if t in placeholders:
            return _CTYPES[numpy.dtype(placeholders[t]).name]
        try:
            return _CTYPES[numpy.dtype(t).name]
        except TypeError:
            return t  # a C++ type spelled out ('float', 'double')

    def _definition(self, in_types, out_type, placeholders):
        key = (in_types, out_type)
        handle = self._defs.get(key)
        if handle is None:
            typedefs = "".join(
                f"typedef {_BODY_CTYPES[numpy.dtype(t).name]} {n};\n" for n, t in sorted(placeholders.items())
            )
            params = ", ".join(
                f"const {_BODY_CTYPES[numpy.dtype(t).name]} {p.name}"
                for p, t in zip(self.in_params, in_types)
            )
            args = ", ".join(f"in{k}" for k in range(self.nin))
            mapped = f"[&]({params}) {{ return acc_t({self.map_expr}); }}({args})"
            out_c = _BODY_CTYPES[numpy.dtype(out_type).name]
            # Note [Complex variables in user kernels] in _kernel_types.py
            acc_c = self._reduce_ctype(out_type, placeholders)
            complex_types = "complex<" in acc_c or any(
                numpy.dtype(t).kind == "c" for t in (*in_types, out_type, *placeholders.values())
            )
            o = self.out_params[0].name
            # A complex accumulator is seen as complex<T> by post_map too (`y = a * 0.5`).
            acc = f"const {acc_c[4:]} a = _acc; " if acc_c.startswith("ca::complex<") else ""
            post = (
                f"[&, _acc = a]() {{ {acc}const ca::Ind<long long> _in_ind{{_n * _m}}, _out_ind{{_m}}; "
                f"{out_c} {o} = _out_old; {self.post_map_expr}; return {o}; }}()"
            )
            handle = _core._reduction_def(
                self.name,
                self.nin,
                acc_c,
                f"acc_t({self.identity})",
                mapped,
                self.reduce_expr,
                post,
                _CUPY_PRELUDE + (_COMPLEX_INCLUDE if complex_types else "") + typedefs + self.preamble,
                bool(self.identity),
                False,
                _user_options(self.options),
            )
            self._defs[key] = handle
        return handle


def _first_reduction_call(handle, signature, inputs, axis, result):
    """(cached_codes' key, _reduction_source's arguments) of a ReductionKernel's first call of a signature, given
    its inputs as given: its row kernel where it reduced to one value or over the last axis, else its column
    kernel (Note [Cached codes] in _kernel.py)."""
    in_types, out_type = signature
    key = tuple(a.dtype for a in inputs if isinstance(a, ndarray)) + (result.dtype,)
    ndim = max(numpy.ndim(a) for a in inputs)
    if axis is None:
        reduced = range(ndim)
    else:
        reduced = {d % ndim for d in (axis if isinstance(axis, (tuple, list)) else (axis,))} if ndim else ()
    rows = result.size == 1 or ndim - 1 in reduced
    return key, (handle, list(in_types), out_type, out_type, 0 if rows else 1, 1, False)


def create_reduction_func(name, ops, routine=None, identity=None, preamble="", sort_reduce_axis=True):
    """CuPy's ``cupy._core.create_reduction_func``: a one-input reduction called as ``f(a, axis=None,
    dtype=None, out=None, keepdims=False)``, with a loop per type signature as a ufunc has.

    `ops` holds signatures ('b->b'), or (signature, routine) pairs; a routine is (map_expr, reduce_expr,
    post_map_expr, reduce_type) over `in0` and `out0` (reduce_type None: the output's type), `routine` the
    default one. `identity` as ReductionKernel's. `sort_reduce_axis` is accepted for CuPy's signature: the
    reduction engine orders the axes itself.
    """
    loops = []
    for op in ops:
        signature, op_routine = (op, routine) if isinstance(op, str) else op
        if op_routine is None:
            raise ValueError(f"{name}: no routine for the loop {signature!r}")
        types_in, _, types_out = signature.partition("->")
        if len(types_in) != 1 or len(types_out) != 1:
            raise ValueError(f"{name}: a reduction's loop maps one type to one type, got {signature!r}")
        loops.append((numpy.dtype(types_in), numpy.dtype(types_out), tuple(op_routine)))
    return _SimpleReduction(name, loops, identity, preamble)


class _SimpleReduction:
    """create_reduction_func's reduction: the first loop the input casts to safely (with `dtype=`, the first
    whose output type it is), run as a ReductionKernel made for that loop."""

    def __init__(self, name, loops, identity, preamble):
        self.name, self._loops, self._identity, self._preamble = name, loops, identity, preamble
        self._kernels = {}

    def _loop(self, in_type, dtype):
        for loop in self._loops:
            if dtype is None and numpy.can_cast(in_type, loop[0]):
                return loop
            if dtype is not None and loop[1] == dtype and numpy.can_cast(in_type, loop[0], "unsafe"):
                return loop
        wanted = "" if dtype is None else f" with dtype={dtype}"
        raise TypeError(f"Wrong type ({in_type}) of arguments for {self.name}{wanted}")

    def __call__(self, a, axis=None, dtype=None, out=None, keepdims=False):
        (arr,) = _interop._as_operands([a])
        if not isinstance(arr, ndarray):
            raise TypeError(
                f"Argument 'a' has incorrect type (expected cuarray.ndarray, got {type(a).__module__}."
                f"{type(a).__qualname__})"
            )
        loop = self._loop(arr.dtype, None if dtype is None else numpy.dtype(dtype))
        in_type, out_type, (map_expr, reduce_expr, post_map_expr, reduce_type) = loop
        if arr.dtype.kind == "c" and in_type.kind != "c":
            warnings.warn("Casting complex values to real discards the imaginary part", ComplexWarning, 2)
            arr = arr.real
        kernel = self._kernels.get(loop)
        if kernel is None:
            kernel = self._kernels[loop] = ReductionKernel(
                f"{in_type.name} in0",
                f"{out_type.name} out0",
                map_expr,
                reduce_expr,
                post_map_expr,
                self._identity,
                self.name,
                reduce_type,
                preamble=self._preamble,
            )
        return kernel(arr.astype(in_type, copy=False), out=out, axis=axis, keepdims=keepdims)
