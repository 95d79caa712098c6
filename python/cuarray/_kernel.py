"""User kernels: ElementwiseKernel (CuPy's parameter syntax), RawKernel and RawModule."""

import functools
import operator
import os
import re
import warnings

import numpy

from cuarray import _core, _interop
from cuarray._core import ndarray
from cuarray._errors import CompileException, CUDARuntimeError, JitifyException
from cuarray._kernel_types import _BODY_CTYPES, _CTYPES
from cuarray.cuda.compiler import _check_compile_arguments
from cuarray.cuda.driver import _as_driver_error

__all__ = ["ElementwiseKernel", "RawKernel", "RawModule"]

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# The scalars an ElementwiseKernel takes by value (CuPy's: Python's numbers and NumPy's scalars).
_SCALARS = (bool, int, float, complex, numpy.generic)


# Note [ParameterInfo ctype]
# CuPy's ctype is the type its kernel declares the parameter's variable with. In cuarray's kernels a variable of a
# typed parameter has _BODY_CTYPES' type (float16 and bfloat16 compute in float, complex64 is complex<float>), so
# ctype names that type, and code a program builds from ctype compiles in the body. A placeholder's ctype is its
# name (the kernel typedefs it), as in CuPy.


class ParameterInfo:
    """One parameter of a user kernel, as CuPy's ``cupy._core._kernel.ParameterInfo``: `name`, `dtype` (its
    numpy.dtype, or None for a type placeholder such as ``T``), `ctype` (the C++ type of its variable in the
    kernel, or the placeholder's name; Note [ParameterInfo ctype]), `raw` and `is_const` (inputs are const,
    outputs are not)."""

    __slots__ = ("ctype", "dtype", "is_const", "name", "placeholder", "raw")

    def __init__(self, text, is_const=True):
        words = text.split()
        raw = bool(words) and words[0] == "raw"
        if raw:
            words = words[1:]
        if len(words) != 2:
            raise ValueError(f"invalid kernel parameter '{text.strip()}': expected '[raw] <type> <name>'")
        type_name, name = words
        if not _IDENTIFIER.match(name):
            raise ValueError(f"invalid kernel parameter name '{name}' in '{text.strip()}'")
        self.name, self.raw, self.is_const = name, raw, bool(is_const)
        if _IDENTIFIER.match(type_name) and type_name[0].isupper():  # T, U, TYPE: bound from the arguments
            self.dtype, self.placeholder, self.ctype = None, type_name, type_name
            return
        try:
            self.dtype = numpy.dtype(type_name)
        except TypeError:
            raise TypeError(
                f"unknown type '{type_name}' in kernel parameter '{text.strip()}' (a type "
                "placeholder such as T must start with an upper-case letter)"
            ) from None
        self.placeholder = None
        if self.dtype.name not in _CTYPES:
            raise ValueError(
                f"type '{type_name}' in kernel parameter '{text.strip()}' is not supported by cuarray"
            )
        self.ctype = _BODY_CTYPES[self.dtype.name]

    @classmethod
    def _indexer(cls, name):
        """The loop's index parameter (CuPy's ``CIndexer _ind``): no dtype and no ctype."""
        p = cls.__new__(cls)
        p.name, p.dtype, p.ctype, p.placeholder, p.raw, p.is_const = name, None, None, None, False, False
        return p

    def _fields(self):
        return (self.name, self.dtype, self.ctype, self.raw, self.is_const)

    def __eq__(self, other):
        if not isinstance(other, ParameterInfo):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self):
        return hash(self._fields())

    def __repr__(self):
        return (
            f"<ParameterInfo(name={self.name!r} dtype={self.dtype!r} ctype={self.ctype!r} raw={self.raw!r} "
            f"is_const={self.is_const!r})>"
        )


def _parse(params, is_const=True):
    """The parameters of a parameter string, a tuple of ParameterInfo (inputs are const, outputs not)."""
    if not params.strip():
        return ()
    return tuple(ParameterInfo(p, is_const) for p in params.split(","))


# Note [Raw arrays as CArray]
# A raw parameter is passed to the kernel as it is, whatever its layout, as CuPy passes its CArray: the body
# indexes it by the element's C-order index (x[i]), or by one index per axis (x[idx] with `ptrdiff_t idx[N]`, or
# x[{j, k}]), and reads x.size(), x.shape() and x.strides() (in bytes, as ndarray.strides), x.ndim. So a strided
# or transposed view is read where it lies, a raw output that is a view is written in place, and one array passed
# as input and output is one memory. x[i] of a C-contiguous array is one load; of another layout it finds the
# element from the shape and strides (ca::Raw in cpp/cuarray/kernels/elementwise.cuh). A complex array's element is
# Thrust's complex<T>, as CuPy's CArray<complex<T>> gives it, to read and to assign (Note [Raw complex elements] in
# cpp/cuarray/kernels/user_complex.cuh).


class ElementwiseKernel:
    """A user elementwise kernel: ``ElementwiseKernel('float32 x, T y', 'T z', 'z = x + y', 'name')``.

    Non-raw arrays (inputs and passed outputs) broadcast together into the loop shape; where every array is
    raw, ``size=`` gives it instead (CuPy's rule: size= with a non-raw array is a ValueError). Outputs are
    allocated from their types when not passed (raw ones of length `size`). The body may use `i` (the
    element's index) and `_ind.size()`; `raw` parameters are whole arrays indexed by the body. A non-raw output
    is the array's element, as in CuPy: ``y += x`` adds to what y held. ``block_size=`` sets the threads per block; `no_return` and `return_tuple` shape the
    result as CuPy's do.
    """

    def __init__(
        self,
        in_params,
        out_params,
        operation,
        name="kernel",
        reduce_dims=True,
        preamble="",
        no_return=False,
        return_tuple=False,
        loop_prep="",
        after_loop="",
        options=(),
    ):
        if not _IDENTIFIER.match(name):  # checked first, as CuPy does
            raise ValueError(f'Invalid kernel name: "{name}" (a kernel name must be an identifier)')
        self.in_params = _parse(in_params, True)
        self.out_params = _parse(out_params, False)
        names = [p.name for p in self.in_params + self.out_params]
        duplicated = {n for n in names if names.count(n) > 1}
        if duplicated:
            raise ValueError(f"duplicated kernel parameter name(s): {', '.join(sorted(duplicated))}")
        if not self.out_params:
            raise ValueError("an ElementwiseKernel needs at least one output parameter")
        bound = {p.placeholder for p in self.in_params if p.placeholder}
        for p in self.out_params:
            if p.placeholder and p.placeholder not in bound:
                raise ValueError(
                    f"output parameter '{p.name}' has type placeholder {p.placeholder}, "
                    "which no input parameter defines"
                )
        if "i" in names:
            raise ValueError("Can not use 'i' as a parameter name")
        if loop_prep or after_loop:
            raise NotImplementedError(
                f"{name}: cuarray's ElementwiseKernel does not support loop_prep or after_loop"
            )
        self.name, self.operation, self.preamble = name, operation, preamble
        self.__name__ = name  # as CuPy's, for profilers that name what they time
        self.no_return, self.return_tuple = bool(no_return), bool(return_tuple)
        # Accepted for CuPy's signature: the engine coalesces the loop's dimensions itself.
        self.reduce_dims = bool(reduce_dims)
        self.options = tuple(options)
        self.kwargs = {"options": self.options} if self.options else {}  # CuPy's: the further keywords given
        self.nin, self.nout = len(self.in_params), len(self.out_params)
        self.nargs = self.nin + self.nout
        self.params = self.in_params + self.out_params + (ParameterInfo._indexer("_ind"),)
        self._uses_index = bool(re.search(r"\bi\b|\b_ind\b", operation))
        self._reads_outputs = any(_reads_output(operation, p.name) for p in self.out_params if not p.raw)
        self._defs = {}
        self._first_calls = {}  # (in_types, out_types) -> how its first call ran (Note [Cached codes])

    def _bind_types(self, inputs, outputs):
        types = {}

        def bind(p, dtype, what):
            if p.placeholder is None:
                if dtype != p.dtype:  # CuPy's rule: an array given for a typed parameter has its type
                    raise TypeError(f"Type is mismatched. {p.name} {dtype} {p.dtype}")
                return
            if types.setdefault(p.placeholder, dtype) != dtype:
                raise TypeError(
                    f"Type is mismatched: {p.placeholder} is {types[p.placeholder]} from an earlier "
                    f"argument but {what} '{p.name}' is {dtype}"
                )

        for p, a in zip(self.in_params, inputs):
            if isinstance(a, ndarray):
                bind(p, a.dtype, "input")
        for p, a in zip(self.out_params, outputs):
            if a is not None:
                bind(p, a.dtype, "output")
        for p, a in zip(self.in_params, inputs):
            if not isinstance(a, ndarray) and p.placeholder and p.placeholder not in types:
                types[p.placeholder] = numpy.asarray(a).dtype
        return types

    def __call__(self, *args, **kwargs):
        """Runs the kernel: ``kernel(*inputs)`` or ``kernel(*inputs, *outputs)``, with CuPy's keywords ``size=``
        (the loop size, only where every array argument is raw), ``block_size=`` (threads per block) and
        ``stream=``."""
        size = kwargs.pop("size", -1)
        stream = kwargs.pop("stream", None)
        block_size = kwargs.pop("block_size", None)
        if kwargs:
            raise TypeError(f"Wrong arguments {kwargs}")
        size = -1 if size is None else operator.index(size)
        if size < -1:
            raise ValueError(f"size must be a non-negative integer, got {size}")
        if block_size is not None and operator.index(block_size) <= 0:
            raise ValueError("block_size must be greater than zero")
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(
                f"Wrong number of arguments for {self.name!r}. It must be either {self.nin} or "
                f"{self.nargs} (with outputs), but given {len(args)}."
            )
        inputs = _interop._as_operands(args[: self.nin])
        outputs = list(args[self.nin :]) or [None] * self.nout
        for p, a in zip(self.in_params + self.out_params, inputs + outputs):
            if isinstance(a, numpy.ndarray):
                raise TypeError(
                    f"argument '{p.name}' of {self.name} is a numpy.ndarray; pass a cuarray array "
                    "(cuarray.asarray(x))"
                )
            if p.raw and a is not None and not isinstance(a, ndarray):
                raise TypeError(f"raw argument '{p.name}' of {self.name} must be a cuarray.ndarray")
        for p, a in zip(self.in_params, inputs):
            if not isinstance(a, (ndarray, *_SCALARS)):
                # CuPy's message; a MemoryPointer (x.data) is a RawKernel argument, not an ElementwiseKernel one.
                raise TypeError(
                    f"Unsupported type {type(a)}: argument '{p.name}' of {self.name} must be a "
                    "cuarray.ndarray or a scalar"
                )
        for p, a in zip(self.out_params, outputs):
            if a is not None and not isinstance(a, ndarray):
                raise TypeError(
                    f"Output arguments type must be cuarray.ndarray: output argument '{p.name}' of "
                    f"{self.name} is {type(a).__name__}"
                )
        params = self.in_params + self.out_params
        shapes = [a.shape for p, a in zip(params, inputs + outputs) if isinstance(a, ndarray) and not p.raw]
        if size != -1:
            if shapes:
                raise ValueError("Specified 'size' can be used only if all of the ndarray are 'raw'.")
            shape = (size,)
        elif shapes:
            shape = numpy.broadcast_shapes(*shapes)
        else:
            raise ValueError(
                f"Loop size is undecided. {self.name}: every array argument is raw, so pass size="
            )
        types = self._bind_types(inputs, outputs)
        in_types = [p.dtype if p.placeholder is None else types[p.placeholder] for p in self.in_params]
        out_types = [p.dtype if p.placeholder is None else types[p.placeholder] for p in self.out_params]
        for p, a, t in zip(self.in_params, inputs, in_types):
            if p.raw and a.dtype != t:
                raise TypeError(f"raw argument '{p.name}' of {self.name} has dtype {a.dtype}, expected {t}")
        for p, a in zip(self.out_params, outputs):
            if a is None and p.raw and size == -1:
                raise ValueError(
                    f"Output array size is Undecided: pass the raw output '{p.name}' of {self.name}, or size="
                )
            if a is not None and not p.raw and a.shape != shape:
                raise ValueError(
                    f"Out shape is mismatched: output argument '{p.name}' has shape {a.shape}, "
                    f"expected {shape}"
                )
        from cuarray._creation import empty

        outputs = [empty(shape, t) if a is None else a for a, t in zip(outputs, out_types)]
        for p, a in zip(params, list(inputs) + outputs):
            if p.raw and a.dtype.kind == "c" and not _complex_aligned(a):  # Note [Raw complex elements]
                raise ValueError(
                    f"raw argument '{p.name}' of {self.name}: its {a.dtype} elements are not aligned to their "
                    f"size ({a.itemsize} bytes: data at {a._ptr:#x}, strides {a.strides}), as Thrust's complex "
                    "type that a raw element is requires; pass an aligned copy (x.copy())"
                )
        signature = (tuple(in_types), tuple(out_types))
        handle = self._definition(*signature, types)
        # Raw outputs are written through pointers the body indexes: to the engine they are raw inputs.
        raw_out = [k for k, p in enumerate(self.out_params) if p.raw]
        iterated = [k for k, p in enumerate(self.out_params) if not p.raw]
        call = (
            handle,
            in_types + [out_types[k] for k in raw_out],
            [out_types[k] for k in iterated],
            list(inputs) + [outputs[k] for k in raw_out],
            [p.raw for p in self.in_params] + [True] * len(raw_out),
            [outputs[k] for k in iterated],
            shape,
            0 if block_size is None else operator.index(block_size),
        )
        if stream is None:
            _core._elementwise_call(*call)
        else:
            with stream:
                _core._elementwise_call(*call)
        if signature not in self._first_calls and 0 not in shape:
            strided = self._uses_index or self._reads_outputs
            self._first_calls[signature] = _first_elementwise_call(strided, inputs, outputs, call)
        if self.no_return:
            return None
        return outputs[0] if self.nout == 1 and not self.return_tuple else tuple(outputs)

    @property
    def cached_codes(self):
        """The CUDA source of the kernel of each set of argument dtypes the kernel has run with, keyed by the
        dtypes of its array arguments (inputs, then outputs; scalars left out), as CuPy's: for debugging, and
        filled by the first call with those dtypes that has elements (Note [Cached codes]). Warns while empty."""
        return _cached_codes(self._first_calls, _core._elementwise_source)

    @property
    def cached_code(self):
        """The first source of `cached_codes`, as CuPy's (StopIteration before any call; warns where there are
        several)."""
        return _cached_code(self._first_calls, _core._elementwise_source)

    def _definition(self, in_types, out_types, placeholders):
        key = (in_types, out_types)
        handle = self._defs.get(key)
        if handle is None:
            lines = [
                f"typedef {_BODY_CTYPES[numpy.dtype(t).name]} {name};"
                for name, t in sorted(placeholders.items())
            ]
            for k, (p, t) in enumerate(zip(self.in_params, in_types)):
                if p.raw:  # a ca::Raw of the array's dimensions (Note [Raw arrays as CArray])
                    lines.append(f"const auto {p.name} = {_raw(t, k)};")
                else:
                    lines.append(f"const {_BODY_CTYPES[numpy.dtype(t).name]} {p.name} = in{k};")
            raw_in, out_k = self.nin, 0
            for p, t in zip(self.out_params, out_types):
                if p.raw:
                    lines.append(f"const auto {p.name} = {_raw(t, raw_in)};")
                    raw_in += 1
                elif numpy.dtype(t).kind == "c":  # Note [Complex variables in user kernels]
                    c = _BODY_CTYPES[numpy.dtype(t).name]
                    part = c.removeprefix("complex<").removesuffix(">")
                    lines.append(f"ca_user::output<{part}> _out_{p.name}(out{out_k});")
                    lines.append(f"{c}& {p.name} = _out_{p.name}.value;")
                    out_k += 1
                else:
                    lines.append(f"{_CTYPES[numpy.dtype(t).name]}& {p.name} = out{out_k};")
                    out_k += 1
            body = "{\n        " + "\n        ".join(lines) + "\n        " + self.operation + ";\n      }"
            # Complex numbers' arithmetic comes with the ufuncs' header; real types need only the kernels'
            # support, which compiles faster (Note [Kernel headers] in cpp/cuarray/ops/elementwise.cpp).
            complex_types = any(numpy.dtype(t).kind == "c" for t in in_types + out_types)
            header = "cuarray/ufunc.cuh" if complex_types else "cuarray/elementwise.cuh"
            handle = _core._elementwise_def(
                self.name,
                body,
                _CUPY_PRELUDE + (_COMPLEX_INCLUDE if complex_types else "") + self.preamble,
                raw_in,
                out_k,
                self._uses_index,
                _user_options(self.options),
                header,
                self._reads_outputs,
            )
            self._defs[key] = handle
        return handle


def _raw(dtype, k):
    """The body's variable of raw array `in{k}`: a complex one hands out Thrust's complex<T> (Note [Raw complex
    elements] in cpp/cuarray/kernels/user_complex.cuh); another is the engine's ca::Raw as it is."""
    return f"ca_user_raw::view(in{k})" if numpy.dtype(dtype).kind == "c" else f"in{k}"


def _complex_aligned(a):
    """Whether every element of complex array `a` lies at a multiple of its itemsize (Note [Raw complex elements]
    in cpp/cuarray/kernels/user_complex.cuh): an empty array has none to misplace, a length-1 axis no stride."""
    size = a.itemsize
    return a.size == 0 or (
        a._ptr % size == 0 and all(s % size == 0 for s, n in zip(a.strides, a.shape) if n > 1)
    )


_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def _reads_output(operation, name):
    """Whether the body may read output `name` before, or without, setting it: everything but one
    unconditional assignment (`name = ...;` as a statement outside any block, in a body with no return or goto),
    as `y += x` or `if (x > 0) y = x;` read the array's element in CuPy, where an output parameter is a reference
    to it (Note [Outputs a body reads] in cpp/cuarray/ops/elementwise.cpp). A wrong "yes" costs only a load."""
    body = _COMMENTS.sub(" ", operation)
    uses = list(re.finditer(rf"\b{re.escape(name)}\b", body))
    if len(uses) != 1 or re.search(r"\b(return|goto)\b", body):
        return True
    before, after = body[: uses[0].start()], body[uses[0].end() :]
    statement_start = before.rstrip() == "" or before.rstrip()[-1] in ";{}"
    outside_blocks = before.count("{") == before.count("}") and before.count("(") == before.count(")")
    return not (statement_start and outside_blocks and re.match(r"\s*=(?!=)", after))


# Note [Cached codes]
# CuPy's cached_codes maps the dtypes of a kernel's array arguments (inputs, then outputs; scalars left out) to
# the CUDA source of the kernel it compiled for the first call with them that launched one (a call over no
# elements launches none). Keys are numpy.dtype objects, as CuPy 14's (older CuPy's were type characters). The
# engine compiles one kernel per layout class and loop type (Note [Layout classes] in
# cpp/cuarray/ops/elementwise.cpp), so the first call of each loop signature records what its source depends on
# (loop types, which arguments are scalars or raw, the layout class), at the cost of a dict lookup per call, and
# the properties generate the sources from that on demand. The class is contiguous where every iterated array
# had the loop's shape in one memory order and the body does not read the index, else strided over the loop's
# dimensions; the engine may coalesce those into fewer or tile them, which the recorded source does not show.
# ReductionKernel's is likewise its row kernel where the first call reduced to one value or over the last axis,
# else its column kernel: the engine's choice (cpp/cuarray/ops/reduction.cpp) in the common cases, one pass.


def _first_elementwise_call(strided, inputs, outputs, call):
    """(cached_codes' key, _elementwise_source's arguments) of an ElementwiseKernel's first call of a signature:
    `inputs` and `outputs` as given (outputs allocated), `call` what went to _core._elementwise_call; `strided`
    where the body reads the index or its outputs, which only the strided class gives it."""
    handle, in_types, out_types, operands, raw, iterated, shape, _ = call
    key = tuple(a.dtype for a in (*inputs, *outputs) if isinstance(a, ndarray))
    kinds = [2 if r else 0 if isinstance(a, ndarray) else 1 for a, r in zip(operands, raw)]
    raw_ndim = [a.ndim if k == 2 else 1 for a, k in zip(operands, kinds)]
    arrays = [a for a, k in zip(operands, kinds) if k == 0] + list(iterated)
    contiguous = (
        not strided
        and bool(iterated)
        and all(a.shape == shape for a in arrays)
        and (all(a.flags.c_contiguous for a in arrays) or all(a.flags.f_contiguous for a in arrays))
    )
    return key, (handle, in_types, out_types, contiguous, max(1, len(shape)), 0, kinds, raw_ndim)


def _cached_codes(first_calls, source):
    """CuPy's cached_codes from a kernel's first calls (Note [Cached codes]): the first source of each key."""
    if not first_calls:
        warnings.warn(
            "No codes are cached because compilation is deferred until the first function call.", stacklevel=3
        )
    codes = {}
    for key, args in list(first_calls.values()):  # another thread's call may add an entry meanwhile
        if key not in codes:
            codes[key] = source(*args)[0]
    return codes


def _cached_code(first_calls, source):
    """CuPy's cached_code: the first source; CuPy's warning where the kernel has run with several dtypes, and its
    StopIteration (an empty dict's next()) before it has run."""
    calls = list(first_calls.values())  # another thread's call may add an entry meanwhile
    if len({key for key, _ in calls}) > 1:
        warnings.warn(
            "The input types of the kernel could not be inferred. Please use `.cached_codes` instead.",
            stacklevel=3,
        )
    _, args = next(iter(calls))
    return source(*args)[0]


# CuPy 14 deprecates the `jitify` argument, with these warnings (whose starts its own tests' filters name).
# Note [NVRTC for every backend]
# cuarray has one compiler, NVRTC. CuPy's backend='nvcc' compiles the same device code with nvcc; here it is
# compiled with NVRTC and says so once per call site (UserWarning): device code that nvcc takes NVRTC takes too,
# while host code and nvcc's own options give a CompileException. jitify=True (deprecated in CuPy 14) compiles
# with NVRTC alone too; a compile error is then a JitifyException, a CompileException, as CuPy raises it. As in
# CuPy, user kernels see the CUDA toolkit's headers (cuComplex.h, CUB and the rest): the include directories of
# the toolkit go at the end of their options. translate_cucomplex=True swaps cuComplex.h's include for CuPy's
# bridge header, as CuPy does, so that cuComplex code computes with complex<T> (Note [User kernel headers] in
# cpp/cuarray/jit/kernel_cache.cpp).


@functools.cache
def _cuda_include_dir():
    """The CUDA toolkit's include directory (the one with cuComplex.h), or None: $CUDA_PATH, $CUDA_HOME,
    /usr/local/cuda, else where cuda-pathfinder finds NVIDIA's wheel of the runtime's headers."""
    places = [os.path.join(os.environ[v], "include") for v in ("CUDA_PATH", "CUDA_HOME") if os.environ.get(v)]
    places.append("/usr/local/cuda/include")
    try:
        from cuda.pathfinder import find_nvidia_header_directory

        places.append(find_nvidia_header_directory("cudart"))
    except Exception:  # noqa: BLE001, S110  (absent, or its errors differ between versions: not found)
        pass
    return next((p for p in places if p and os.path.isfile(os.path.join(p, "cuComplex.h"))), None)


@functools.cache
def _include_options():
    """-I options of the toolkit's headers: CCCL's (CUB, Thrust, libcu++: include/cccl since CUDA 13, as CuPy
    puts its own bundled CCCL on the path), then the toolkit's include directory."""
    include = _cuda_include_dir()
    if include is None:
        return ()
    cccl = os.path.join(include, "cccl")
    return (f"-I{cccl}", f"-I{include}") if os.path.isdir(cccl) else (f"-I{include}",)


def _user_options(options):
    return [*options, *_include_options()]


# Note [CuPy's kernel prelude]
# CuPy puts its headers before every ElementwiseKernel and ReductionKernel body, so their code may use the CUDA
# toolkit's math constants (CUDART_INF_F, CUDART_PI, ...: <math_constants.h>, which CuPy bundles) and M_PI (from
# its carray.cuh). cuarray's user kernels see the toolkit's include directory, as RawKernel's do, and include
# its math_constants.h where it is there; M_PI is defined unless the body's headers define it. CuPy's
# atomics.cuh (atomicAdd on long long, atomicMax and atomicMin on float and double) comes along too.
_CUPY_PRELUDE = (
    "#if __has_include(<math_constants.h>)\n#include <math_constants.h>\n#endif\n"
    "#include <cupy/atomics.cuh>\n"
    "#ifndef M_PI\n#define M_PI 3.1415926535897932384626433832795\n#endif\n"
)


# Note [Complex variables in user kernels] in _kernel_types.py
_COMPLEX_INCLUDE = "#include <cupy/complex.cuh>\n"

_CUCOMPLEX_INCLUDE = re.compile(r"^[ \t]*#[ \t]*include[ \t]*<[ \t]*cuComplex\.h[ \t]*>", re.MULTILINE)


def _translated(code, translate_cucomplex):
    """The source NVRTC is given: with translate_cucomplex, cuComplex.h's include is CuPy's bridge header, and
    complex<T> is there without one, as CuPy puts its headers first (Note [User kernel headers] in
    cpp/cuarray/jit/kernel_cache.cpp); `#line 1` keeps NVRTC's line numbers the user's."""
    if not translate_cucomplex:
        return code
    code = _CUCOMPLEX_INCLUDE.sub("#include <cupy/cuComplex_bridge.h>  // translate_cucomplex", code)
    return "#include <cupy/complex.cuh>\n#line 1\n" + code


def _compile_module(code, options, jitify, translate_cucomplex=False, name_expressions=None, log_stream=None):
    """The compiled module of `code`. NVRTC's messages (warnings) go to `log_stream` where it is given: the
    module is then compiled afresh, as CuPy's is, since a module from a cache has no log."""
    try:
        module = _core._RawModule(
            _translated(code, translate_cucomplex),
            _user_options(options),
            list(name_expressions or ()),
            log_stream is not None,
        )
    except CompileException as e:
        if not jitify:
            raise
        raise JitifyException(e.get_message(), e.source, e.name, e.log, e.options) from None
    if log_stream is not None:
        log_stream.write(module.log)
    return module


def _get_function(module, name):
    """Kernel `name` of a compiled module; CuPy's CUDADriverError where it holds none of that name."""
    try:
        return module.get_function(name)
    except CUDARuntimeError as e:
        raise _as_driver_error(e) from None


class RawKernel:
    """A CUDA kernel from source: ``RawKernel(code, name)(grid, block, args, shared_mem=0, stream=None)``.

    It pickles as its source and arguments (the compiled kernel is not kept): the process that loads it
    compiles it, or loads it from the kernel cache, at its first use, as CuPy's does."""

    def __init__(
        self,
        code,
        name,
        options=(),
        backend="nvrtc",
        translate_cucomplex=False,
        enable_cooperative_groups=False,
        jitify=None,
    ):
        _check_compile_arguments(backend, jitify)
        self.code, self.name, self.options = code, name, tuple(options)
        self.backend, self.translate_cucomplex, self.jitify = backend, translate_cucomplex, bool(jitify)
        self.enable_cooperative_groups = enable_cooperative_groups
        self.__name__ = name  # as CuPy's, for profilers that name what they time
        # CuPy's: set where the kernel comes from a RawModule (its cubin or PTX file, its name expressions).
        self.file_path = self.name_expressions = None
        self._function = None
        self._module = None  # the RawModule it came from (get_function), which compiles or loads it

    @property
    def kernel(self):
        """The compiled kernel (compiled on first use, from the cache where it is there)."""
        if self._function is None:
            self.compile()
        return self._function

    def compile(self, log_stream=None):
        """Compiles the kernel now (it is otherwise compiled at its first launch). NVRTC's messages (its
        warnings) are written to `log_stream` where it is given; the kernel is then compiled afresh."""
        if self._module is not None:
            self._module.compile(log_stream)
            self._function = self._module._function(self.name)
        elif self._function is None or log_stream is not None:
            module = _compile_module(
                self.code, self.options, self.jitify, self.translate_cucomplex, log_stream=log_stream
            )
            self._function = _get_function(module, self.name)

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_function"] = None  # compiled again where it is loaded
        return state

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        self.kernel(grid, block, args, shared_mem, stream)

    @property
    def attributes(self):
        """The compiled kernel's attributes (cudaFuncGetAttributes), by CuPy's names."""
        return self.kernel.attributes

    @property
    def max_threads_per_block(self):
        """The largest block size the compiled kernel can be launched with."""
        return self.kernel.max_threads_per_block

    @property
    def num_regs(self):
        """Registers per thread of the compiled kernel."""
        return self.kernel.num_regs

    @property
    def shared_size_bytes(self):
        """Static shared memory per block of the compiled kernel, in bytes."""
        return self.kernel.shared_size_bytes

    @property
    def local_size_bytes(self):
        """Local memory per thread of the compiled kernel, in bytes."""
        return self.kernel.local_size_bytes

    @property
    def const_size_bytes(self):
        """Constant memory of the compiled kernel, in bytes."""
        return self.kernel.const_size_bytes

    @property
    def ptx_version(self):
        """The PTX virtual architecture the kernel was compiled for, as 10 * major + minor (90: compute_90)."""
        return self.attributes["ptx_version"]

    @property
    def binary_version(self):
        """The binary architecture the kernel was compiled for, as 10 * major + minor (90: sm_90)."""
        return self.attributes["binary_version"]

    @property
    def cache_mode_ca(self):
        """1 where the kernel was compiled with ``-Xptxas --dlcm=ca`` (global loads cached in L1), else 0."""
        return self.attributes["cache_mode_ca"]

    @property
    def max_dynamic_shared_size_bytes(self):
        """The most dynamic shared memory a launch may ask for, in bytes. Settable, as in CuPy: past 48 KiB a
        launch needs it raised first (up to the device's opt-in limit), on the current device."""
        return self.attributes["max_dynamic_shared_size_bytes"]

    @max_dynamic_shared_size_bytes.setter
    def max_dynamic_shared_size_bytes(self, value):
        self._set_attribute("max_dynamic_shared_size_bytes", value)

    @property
    def preferred_shared_memory_carveout(self):
        """The share of the unified L1 and shared memory the kernel prefers as shared memory, in percent (-1:
        no preference). Settable, as in CuPy; a hint for the current device."""
        return self.attributes["preferred_shared_memory_carveout"]

    @preferred_shared_memory_carveout.setter
    def preferred_shared_memory_carveout(self, value):
        self._set_attribute("preferred_shared_memory_carveout", value)

    def _set_attribute(self, attr, value):
        try:
            self.kernel._set_attribute(attr, operator.index(value))
        except CUDARuntimeError as e:
            raise _as_driver_error(e) from None  # CuPy's cuFuncSetAttribute raises CUDADriverError


class RawModule:
    """A CUDA module from source (``code=``) or from a compiled image file (``path=``: a cubin, fatbin or PTX, as
    in CuPy); ``get_function(name)`` returns a launchable kernel, ``get_global(name)`` a MemoryPointer to a
    __device__ or __constant__ variable. ``name_expressions`` names template instances and other C++ names
    (``"f<int>"``), which ``get_function`` then takes. It pickles as its arguments, as RawKernel does."""

    def __init__(
        self,
        code=None,
        path=None,
        options=(),
        backend="nvrtc",
        translate_cucomplex=False,
        enable_cooperative_groups=False,
        name_expressions=None,
        jitify=None,
    ):
        if (code is None) == (path is None):
            raise TypeError("RawModule takes exactly one of code= and path=")
        if name_expressions is not None and backend == "nvcc":
            raise ValueError("name_expressions is only supported with backend='nvrtc' (as in CuPy)")
        _check_compile_arguments(backend, jitify)
        self.code, self.file_path, self.options, self.jitify = code, path, tuple(options), bool(jitify)
        self.backend, self.translate_cucomplex = backend, translate_cucomplex
        self.enable_cooperative_groups = enable_cooperative_groups
        self.name_expressions = None if name_expressions is None else tuple(name_expressions)
        self._module = None
        self._module_object = None  # the Module that `module` returned, for the _module it wraps

    def compile(self, log_stream=None):
        """Compiles the module now (it is otherwise compiled at the first get_function). NVRTC's messages (its
        warnings) are written to `log_stream` where it is given; the module is then compiled afresh."""
        if self.file_path is not None:
            if self._module is None:
                self._module = _load_image(self.file_path)
        elif self._module is None or log_stream is not None:
            self._module = _compile_module(
                self.code,
                self.options,
                self.jitify,
                self.translate_cucomplex,
                self.name_expressions,
                log_stream,
            )

    @property
    def module(self):
        """The compiled (or loaded) module, as CuPy's ``cupy.cuda.function.Module``: `ptr`, `mapping`,
        ``get_function(name)`` and ``get_global_var(name)``. Compiles the module where it is not yet."""
        self.compile()
        wrapper = getattr(self, "_module_object", None)  # absent from a RawModule pickled before it existed
        if wrapper is None or wrapper._module is not self._module:
            mapping = None
            if self.name_expressions:
                mapping = dict(zip(self.name_expressions, self._module.lowered))
            self._module_object = Module(self._module, mapping)
        return self._module_object

    def _function(self, name):
        """The compiled kernel `name`: a name expression's lowered name, else `name` itself, as CuPy looks
        names up."""
        self.compile()
        if self.name_expressions:
            name = dict(zip(self.name_expressions, self._module.lowered)).get(name, name)
        return _get_function(self._module, name)

    def get_function(self, name):
        """The kernel `name` of the module, as a `RawKernel` (the module is compiled on first use). `name` is a
        kernel's (extern "C") name, or one of the module's name expressions."""
        function = self._function(name)
        kernel = RawKernel.__new__(RawKernel)
        kernel.code, kernel.name, kernel.options, kernel.jitify = self.code, name, self.options, self.jitify
        kernel.__name__ = name
        kernel.backend, kernel.translate_cucomplex = self.backend, self.translate_cucomplex
        kernel.enable_cooperative_groups = self.enable_cooperative_groups
        kernel.file_path, kernel.name_expressions = self.file_path, self.name_expressions
        kernel._function, kernel._module = function, self
        return kernel

    def get_global(self, name):
        """A MemoryPointer to the module's __device__ or __constant__ variable `name` on the current device:
        ``cuarray.ndarray(shape, dtype, memptr)`` makes an array of it. CUDADriverError where there is none."""
        from cuarray.cuda.memory import MemoryPointer, UnownedMemory

        self.compile()
        try:
            ptr, size = self._module.get_global(name)
        except CUDARuntimeError as e:
            raise _as_driver_error(e) from None
        return MemoryPointer(UnownedMemory(ptr, size, self, _core.cuda.current_device()), 0)

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_module"] = state["_module_object"] = None  # compiled (or loaded) again where it is loaded
        return state


# Note [RawModule.module]
# CuPy's RawModule.module is its cupy.cuda.function.Module: a CUmodule of the current device (`ptr`), the name
# expressions' lowered names (`mapping`, None without name expressions), and functions and global variables
# looked up by name. cuarray loads a module once for every device through CUDA's library API, so its `ptr` is
# the cudaLibrary_t (a CUlibrary) and a function's `ptr` a cudaKernel_t, which the driver takes wherever it
# takes a CUfunction (cuLaunchKernel, cuFuncGetAttribute); a CUlibrary is not a CUmodule, so code that passes
# `ptr` to cuModuleGetFunction needs cuLibraryGetModule first.


class Module:
    """The compiled module of a RawModule (``RawModule.module``), as CuPy's ``cupy.cuda.function.Module``
    (Note [RawModule.module])."""

    def __init__(self, module, mapping):
        self._module = module
        self.mapping = mapping

    @property
    def ptr(self):
        """The module's handle: its cudaLibrary_t, as an int."""
        return self._module.handle

    def get_function(self, name):
        """The kernel `name` (its extern "C" or lowered name), as a `Function`; CUDADriverError where there is
        none."""
        return Function(self, _get_function(self._module, name))

    def get_global_var(self, name):
        """The device address of the module's __device__ or __constant__ variable `name` on the current device,
        as an int; CUDADriverError where there is none."""
        try:
            return self._module.get_global(name)[0]
        except CUDARuntimeError as e:
            raise _as_driver_error(e) from None

    def __repr__(self):
        return f"<cuarray Module ptr=0x{self.ptr:x}>"


class Function:
    """A kernel of a `Module`, as CuPy's ``cupy.cuda.function.Function``: ``f(grid, block, args, shared_mem=0,
    stream=None)`` launches it; `ptr` is its cudaKernel_t and `module` its Module."""

    def __init__(self, module, function):
        self.module = module
        self._function = function

    @property
    def ptr(self):
        """The kernel's handle: its cudaKernel_t, as an int."""
        return self._function.ptr

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        self._function(grid, block, args, shared_mem, stream)


def _load_image(path):
    """The module of a compiled image file (cubin, fatbin, PTX), as CuPy loads it: CUDADriverError where the
    file is missing or the driver refuses it."""
    try:
        with open(path, "rb") as f:
            image = f.read()
    except FileNotFoundError:
        raise _as_driver_error(
            CUDARuntimeError(301, f"cannot load module: file not found: {path!r}")
        ) from None
    try:
        return _core._RawModule._from_image(image)
    except CUDARuntimeError as e:
        raise _as_driver_error(e) from None
