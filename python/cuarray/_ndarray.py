"""Every member of cuarray.ndarray written in Python, installed on the type here and nowhere else.

The type itself and its hot paths (attributes, indexing, views, copies, operators, sum and its kin) are bound
from C++ (python/src/array.cpp and the area files that register through it). The members below are this
module's own (conversions, printing, flags, protocols) or a function of the module that implements it, listed
in `_members`: the modules that implement them import the type from cuarray._core, never from here, so this
module sits above all of them in the package's import order (tests/test_import_graph.py).
"""

import builtins
import operator
import os
import types

import numpy

from cuarray import (
    _core,
    _indexing,
    _interop,
    _joining,
    _logic,
    _manipulation,
    _math,
    _printing,
    _products,
    _reduction,
    _scan,
    _sorting,
    _ufuncs,
    _vector_products,
)
from cuarray._transfer import asarray
from cuarray.cuda.device import Device
from cuarray.cuda.memory import _ArrayPointer as MemoryPointer

ndarray = _core.ndarray

_IMPLICIT_CONVERSION = "Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct a NumPy array explicitly."


_FLAG_KEYS = {
    "C_CONTIGUOUS": "c_contiguous",
    "C": "c_contiguous",
    "CONTIGUOUS": "c_contiguous",
    "F_CONTIGUOUS": "f_contiguous",
    "F": "f_contiguous",
    "FORTRAN": "f_contiguous",
    "OWNDATA": "owndata",
    "O": "owndata",
    "FNC": "fnc",
    "FORC": "forc",
}


class Flags:
    """Layout flags of an ndarray, read-only as NumPy's: c_contiguous, f_contiguous, owndata, and NumPy's
    derived fnc (Fortran and not C) and forc (Fortran or C)."""

    __slots__ = ("_c", "_f", "_own")

    def __init__(self, c_contiguous, f_contiguous, owndata):
        object.__setattr__(self, "_c", c_contiguous)
        object.__setattr__(self, "_f", f_contiguous)
        object.__setattr__(self, "_own", owndata)

    c_contiguous = property(lambda self: self._c)
    f_contiguous = property(lambda self: self._f)
    owndata = property(lambda self: self._own)
    fnc = property(lambda self: self._f and not self._c)
    forc = property(lambda self: self._f or self._c)

    def __setattr__(self, name, value):
        raise AttributeError(f"attribute '{name}' of 'flagsobj' objects is not writable")

    def __getitem__(self, name):
        key = _FLAG_KEYS.get(name)
        if key is None:
            raise KeyError(name)
        return getattr(self, key)

    def __setitem__(self, name, value):
        raise KeyError("Unknown flag")

    def __eq__(self, other):
        return isinstance(other, Flags) and (self._c, self._f, self._own) == (other._c, other._f, other._own)

    __hash__ = None

    def __repr__(self):
        return "\n".join(
            f"  {k.upper()} : {getattr(self, k)}" for k in ("c_contiguous", "f_contiguous", "owndata")
        )


def _scalar(self, kind):
    if self.size != 1:
        if kind is bool:
            if self.size == 0:
                raise ValueError(
                    "The truth value of an empty array is ambiguous. "
                    "Use `array.size > 0` to check that an array is not empty."
                )
            raise ValueError(
                "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"
            )
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    if self.ndim != 0 and kind is not bool:  # NumPy 2.4's int(), float() and complex() take 0-d arrays alone
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    return kind(self.item())


def _index(self):
    if self.ndim != 0 or self.dtype.kind not in "iu":
        raise TypeError("only integer scalar arrays can be converted to a scalar index")
    return int(self.item())


def _array(self, dtype=None, copy=None):
    raise TypeError(_IMPLICIT_CONVERSION)


_ONE_BYTE = numpy.zeros(1, numpy.int8)  # the buffer of item()'s stand-in


def _item(self, *args):
    """The element at `args` (one flat index, or one index per axis; none for a size-1 array) as a
    Python scalar, copied to the host. The arguments are checked by NumPy's own item() on a stand-in of the
    same shape (one element, zero strides), so their errors are NumPy's."""
    if not args:
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self.get().item()
    numpy.ndarray(self.shape, numpy.int8, _ONE_BYTE, 0, (0,) * self.ndim).item(*args)
    index = args[0] if len(args) == 1 and isinstance(args[0], tuple) else args
    if len(index) == 1:  # one flat index
        index = numpy.unravel_index(operator.index(index[0]) % self.size, self.shape)
    return self[tuple(operator.index(i) for i in index)].get().item()


def _contains(self, value):
    """NumPy's `value in a`: whether any element equals `value`, compared with broadcasting (a row of a 2-D
    array is in it where it matches some row), in one read of the device."""
    if isinstance(value, (list, tuple)):
        value = asarray(value)
    equal = self == value
    return bool(equal.any()) if isinstance(equal, _core.ndarray) else bool(equal)


def _iter(self):
    """The subarrays along the first axis; iter() of a 0-d array raises at once, as NumPy's."""
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))


def _ravel(self, order="C"):
    """The elements as a contiguous 1-D array in `order` ('C', 'F', 'A' or 'K'): a view where the elements
    already lie contiguously in that order, else a copy (as NumPy's; reshape(-1) also gives strided views)."""
    order = order.upper() if isinstance(order, str) else order  # NumPy ignores the case
    if order == "K":
        flat = self.transpose(_core._k_order_axes(self)).reshape(-1)
    else:
        if order == "A":
            order = "F" if self.flags.f_contiguous and not self.flags.c_contiguous else "C"
        flat = self.reshape(-1, order=order)
    return flat if flat.size < 2 or flat.strides[0] == flat.itemsize else flat.copy()


def _view(self, dtype=None, type=None):
    """A view of the same memory, as `dtype`. A dtype of another itemsize changes the length of the last axis,
    which must then be contiguous (NumPy's rule). `type` (NumPy's, CuPy's `array_class`), or a type given as
    `dtype`, must be cuarray.ndarray: cuarray has no array subclasses to view as."""
    if isinstance(dtype, builtins.type) and issubclass(dtype, ndarray):
        dtype, type = None, dtype
    if type is not None:
        if not (isinstance(type, builtins.type) and issubclass(type, ndarray)):
            raise ValueError("Type must be a sub-type of ndarray type")
        if type is not ndarray:
            raise NotImplementedError(
                f"cuarray.ndarray.view: views as a subclass ({type.__name__}) of ndarray"
            )
    if dtype is None:
        return self[...]
    dtype = numpy.dtype(dtype)
    if dtype.itemsize == self.itemsize:
        return self._view_as(dtype)
    if self.ndim == 0:
        raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged")
    if self.size and self.shape[-1] != 1 and self.strides[-1] != self.itemsize:
        raise ValueError("To change to a dtype of a different size, the last axis must be contiguous")
    last = self.shape[-1] * self.itemsize
    if last % dtype.itemsize:
        raise ValueError(
            "When changing to a larger dtype, its size must be a divisor of the total size in bytes "
            "of the last axis of the array."
        )
    shape = self.shape[:-1] + (last // dtype.itemsize,)
    return ndarray(
        shape, dtype, MemoryPointer(self._ptr, self._device_id, self), self.strides[:-1] + (dtype.itemsize,)
    )


# NumPy's ufuncs that cuarray has as functions.
_FUNCTION_UFUNCS = {
    "matmul": _products.matmul,
    "vecdot": _vector_products.vecdot,
    "matvec": _vector_products.matvec,
    "vecmat": _vector_products.vecmat,
    "isnat": _logic.isnat,
}


def _handled(x):
    """Whether cuarray's ufuncs take `x`: its arrays, NumPy's (to refuse them with a clear message), scalars,
    None (an out= entry to allocate) and other libraries' device arrays."""
    return (
        x is None
        or isinstance(x, (ndarray, numpy.ndarray, numpy.generic, bool, int, float, complex))
        or hasattr(x, "__cuda_array_interface__")
        or hasattr(x, "__cupy_get_ndarray__")
    )


def _handled_type(t):
    """Whether cuarray's functions take arrays of type `t` (NEP 18's `types`): its own, NumPy's, and other
    libraries' device arrays (a CuPy array read through __cuda_array_interface__)."""
    return (
        issubclass(t, (ndarray, numpy.ndarray))
        or hasattr(t, "__cuda_array_interface__")
        or hasattr(t, "__cupy_get_ndarray__")
    )


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NumPy's ufuncs called with cuarray arrays run cuarray's ufunc of the same name on the GPU."""
    ours = _FUNCTION_UFUNCS.get(ufunc.__name__)
    if ours is None:
        ours = getattr(_ufuncs, ufunc.__name__, None)
        if not isinstance(ours, _core.ufunc):
            ours = None
    if ours is None or (method != "__call__" and not hasattr(ours, method)):
        return NotImplemented
    out = kwargs.get("out")
    operands = inputs[:1] + inputs[2:] if method in ("at", "reduceat") else inputs  # not their indices
    operands += out if isinstance(out, tuple) else (out,) if out is not None else ()
    if not all(_handled(x) for x in operands):
        return NotImplemented  # another operand's __array_ufunc__ answers (NEP 13), as CuPy's declines too
    # NumPy hands its scalars over as 0-d arrays; they are scalars to cuarray.
    inputs = [x[()] if isinstance(x, numpy.ndarray) and x.ndim == 0 else x for x in inputs]
    if isinstance(out, tuple) and len(out) == 1 and (ours is _products.matmul or method != "__call__"):
        (kwargs["out"],) = out  # NumPy passes out= as a tuple; matmul and the methods take one array
    return ours(*inputs, **kwargs) if method == "__call__" else getattr(ours, method)(*inputs, **kwargs)


def _array_function(self, func, types, args, kwargs):
    """NumPy functions called with cuarray arrays run cuarray's function of the same name (NEP 18). Where
    cuarray has none, NumPy raises a TypeError naming the function: no silent copy to the host."""
    import importlib

    module = func.__module__.replace("numpy", "cuarray", 1) if func.__module__.startswith("numpy") else None
    try:
        ours = getattr(importlib.import_module(module), func.__name__, None) if module else None
    except ImportError:
        ours = None
    if ours is None or ours is func or not callable(ours):
        return NotImplemented
    if not all(_handled_type(t) for t in types):
        return NotImplemented  # NEP 18: another type's __array_function__ answers, as CuPy's declines too
    if "device" in kwargs and kwargs["device"] is None:  # NumPy's ones, full, eye (like=) pass it on
        kwargs = {k: v for k, v in kwargs.items() if k != "device"}
    return ours(*args, **kwargs)


def _reduce(self):
    """Pickling copies the values to the host (F-ordered for an F- but not C-contiguous array, so that the
    layout survives, as NumPy's does); unpickling makes a device array of them on the current device."""
    return asarray, (self.get(None, "A"),)


def _tobytes(self, order="C"):
    """The raw bytes of the elements in `order` ('C', 'F', 'A' or 'K'), from a host copy (NumPy's tobytes)."""
    return self.get(None, "A").tobytes(order)  # an F-contiguous array's copy keeps F order, for 'A' and 'K'


def _dump(self, file):
    """NumPy's ndarray.dump: the array pickled into `file` (a path or an open binary file); cuarray.load (or
    pickle.load) reads it back."""
    import os
    import pickle

    if isinstance(file, (str, bytes, os.PathLike)):
        with open(file, "wb") as f:
            pickle.dump(self, f, protocol=2)
    else:
        pickle.dump(self, file, protocol=2)


def _data(self):
    """The address, for other code: the kernels cuarray has queued are issued before it is handed out."""
    _core.cuda.share_with_other_code()
    return MemoryPointer(self._ptr, self._device_id, self)


# The __cuda_array_interface__ version to export: CUARRAY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION, else CuPy's
# CUPY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION, else 3; read at import. Another value is refused at export, as
# CuPy does, so that `import cuarray` still works.
_CAI_EXPORT_VERSION = os.environ.get(
    "CUARRAY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION",
    os.environ.get("CUPY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION", "3"),
).strip()
_CAI_EXPORT_VERSION = int(_CAI_EXPORT_VERSION) if _CAI_EXPORT_VERSION in ("2", "3") else _CAI_EXPORT_VERSION


def _cuda_array_interface(self):
    """Version 3: `stream` is the stream the array's work is ordered on (the current stream of its device; 1,
    cuda.stream.get_default_stream_ptr(), for the legacy default stream); consumers make their own stream wait
    on it. The kernels cuarray has queued are issued first. Version 2 (CuPy's
    CUPY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION=2, for consumers that order streams themselves) names no stream."""
    if _CAI_EXPORT_VERSION not in (2, 3):
        raise ValueError(
            "CUPY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION can only be set to 3 (default) or 2, got "
            f"{_CAI_EXPORT_VERSION!r}"
        )
    _core.cuda.share_with_other_code()
    desc = {
        "shape": self.shape,
        "typestr": self.dtype.str,
        "descr": self.dtype.descr,
        "data": (self._ptr if self.size else 0, False),
        "strides": None if self._c_contiguous else self.strides,
        "version": _CAI_EXPORT_VERSION,
    }
    if _CAI_EXPORT_VERSION == 3:
        desc["stream"] = _core.cuda.current_stream(self._device_id).ptr or 1
    return desc


def _deepcopy(self, memo):
    """A copy on the array's own device, whichever is current (CuPy's copy.deepcopy); copy() copies to the
    current device."""
    with self.device:
        return self.copy(order="K")


def _method(function):
    """A method that calls `function` with the array first."""

    def method(self, *args, **kwargs):
        return function(self, *args, **kwargs)

    method.__name__ = function.__name__
    return method


def _conj(self, out=None, /):
    """The complex conjugate: a new array for a complex one; a real array is its own conjugate, and NumPy's
    method returns the array itself, or assigns it into `out` (same_kind casting, as NumPy's assignment)."""
    if self.dtype.kind == "c":
        return _ufuncs.conjugate(self, out=out)
    if out is None:
        return self
    _manipulation.copyto(out, self, casting="same_kind")
    return out


def _late(module, name):
    """A method that calls `name` of the module `module`, imported on first use: modules that `import cuarray`
    does not load (Dask's support, flat iteration, choose) stay unloaded until a method needs them."""

    def method(self, *args, **kwargs):
        import importlib

        return getattr(importlib.import_module(module), name)(self, *args, **kwargs)

    method.__name__ = name
    return method


def _set_part(imag):
    """ndarray.real's (imag=False) or ndarray.imag's setter: `a.real = v` writes into a's real parts, as NumPy's."""

    def setter(self, value):
        if self.dtype.kind == "c":
            self._part(imag)[...] = value
        elif imag:
            raise TypeError("array does not have imaginary part to set")
        else:
            self[...] = value

    return setter


def _compress(self, condition, axis=None, out=None):
    """``cuarray.compress(condition, self, axis, out)``: the slices along `axis` where `condition` is true."""
    return _indexing.compress(condition, self, axis, out)


_members = {
    # Conversions and printing
    "__repr__": lambda self: repr(_printing._printable(self)),
    "__str__": lambda self: str(_printing._printable(self)),
    "__format__": lambda self, spec: format(self.get(), spec),
    "__float__": lambda self: _scalar(self, float),
    "__int__": lambda self: _scalar(self, int),
    "__complex__": lambda self: _scalar(self, complex),
    "__bool__": lambda self: _scalar(self, bool),
    "__index__": _index,
    "__iter__": _iter,
    "__contains__": _contains,
    "__copy__": lambda self: self.copy(order="K"),  # NumPy's keeps the layout, where ndarray.copy() is C
    "__deepcopy__": _deepcopy,
    "tolist": lambda self: self.get().tolist(),
    "dump": _dump,
    "tobytes": _tobytes,
    "__bytes__": lambda self: bytes(
        self.get()
    ),  # NumPy's rules: bytes() of an integer 0-d array is bytes(int)
    "item": _item,
    "ravel": _ravel,
    "view": _view,
    "flags": property(lambda self: Flags(self._c_contiguous, self._f_contiguous, self.base is None)),
    "data": property(_data),
    "device": property(lambda self: Device(self._device_id)),
    "flat": property(_late("cuarray._flatiter", "flatiter"), _late("cuarray._flatiter", "_set_flat")),
    "byteswap": _late("cuarray._flatiter", "byteswap"),
    "scatter_add": _late("cuarray._cupyx", "scatter_add"),
    "scatter_max": _late("cuarray._cupyx", "scatter_max"),
    "scatter_min": _late("cuarray._cupyx", "scatter_min"),
    # Protocols: NumPy's, CUDA's, DLPack, the array API, pickling, Dask
    "__array__": _array,
    "__array_ufunc__": _array_ufunc,
    "__array_function__": _array_function,
    "__array_priority__": 100,
    "__cuda_array_interface__": property(_cuda_array_interface),
    "__dlpack__": _interop._dlpack,
    "__dlpack_device__": _interop._dlpack_device,
    "toDlpack": _interop._to_dlpack_deprecated,
    "to_device": _interop._to_device,
    "__array_namespace__": _interop._array_namespace,
    # ndarray[Any, dtype[float32]] in annotations (cuarray.typing.NDArray), as NumPy's and CuPy's arrays take
    "__class_getitem__": classmethod(types.GenericAlias),
    "__reduce__": _reduce,
    "__dask_tokenize__": _late("cuarray.dask", "tokenize"),
    # cuarray's functions of the same name, the array first
    "conj": _conj,
    "conjugate": _conj,
    "real": property(_method(_math.real), _set_part(False)),
    "imag": property(_method(_math.imag), _set_part(True)),
    "round": _method(_math.around),
    "clip": _method(_math.clip),
    "cumsum": _method(_scan.cumsum),
    "cumprod": _method(_scan.cumprod),
    "nonzero": _method(_indexing.nonzero),
    "take": _method(_indexing.take),
    "put": _method(_indexing.put),
    "compress": _compress,
    "choose": _late("cuarray._selection", "choose"),
    "repeat": _method(_joining.repeat),
    "searchsorted": _method(_sorting.searchsorted),
    "argsort": _method(_sorting.argsort),
    "argpartition": _method(_sorting.argpartition),
    "sort": _sorting._sort_in_place,
    "partition": _sorting._partition_in_place,
    "dot": _method(_products.dot),
    "trace": _method(_products.trace),
    "mT": property(_interop._matrix_transpose),
    # Reductions beyond the core's own (sum, prod, max, min, all, any: python/src/reduction.cpp)
    "argmax": _reduction.argmax,
    "argmin": _reduction.argmin,
    "mean": _reduction.mean,
    "var": _reduction.var,
    "std": _reduction.std,
    "ptp": _reduction.ptp,
    "__module__": "cuarray",
}

# A name the type already has is one the bindings define: installing it here would replace theirs unseen.
_taken = sorted(set(_members) & set(vars(ndarray)) - {"__module__"})
if _taken:
    raise RuntimeError(f"cuarray._ndarray: the bindings already define ndarray members {_taken}")
for _name, _value in _members.items():
    setattr(ndarray, _name, _value)
