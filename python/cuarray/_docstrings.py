"""Docstrings and signatures of the objects that the compiled extension defines without them: the ndarray and
ufunc types, their properties bound from C++, ndarray's methods made by closures, and each ufunc object.
help(), inspect.signature() and the API reference (docs/api) read them.

Note [Ufunc docstrings]
~~~~~~~~~~~~~~~~~~~~~~~
The ufunc type is a pybind11 class; its objects are instances, so their docstrings and signatures come from
two descriptors placed on the type, which make them when asked for: `__doc__` from the ufunc's arity and the
summary line of NumPy's ufunc of the same name, `__signature__` from its arity (inspect.signature() looks for
__signature__ on the object before anything else, which is what makes it work for callable instances). Asked
on the type itself, they give the type's docstring and None. Nothing is computed at import, and a call never
reads them: calls go through the type's call slot, so the per-call path is the same with or without them.
The signature lists the keywords the call accepts (python/src/ufunc.cpp): `out`, `dtype`, `casting`, `order`,
`subok` and `where` (True only).
"""

import inspect

import numpy

from cuarray import _ufuncs
from cuarray._ndarray import ndarray

ndarray.__doc__ = """ndarray(shape, dtype=float, memptr=None, strides=None, order='C')

An N-dimensional array in GPU memory with NumPy's attributes, methods and operators (CuPy's ``cupy.ndarray``).

Without `memptr` it allocates new memory from the current device's pool (its values not set); with
``memptr = x.data + offset`` it is a view of the array `x` points into, checked as NumPy checks a view (one
stride per axis, whole-itemsize strides and alignment, every element inside the memory, else ValueError).
Arrays are usually made by `cuarray.array`, `cuarray.asarray`, `cuarray.zeros` and the other creation
functions; ``x.get()`` copies one back to a NumPy array.
"""

# ndarray's methods and properties that python/cuarray/_ndarray.py makes by closures (_math, _late) and
# lambdas, which carry no docstring of their own. Set once, at import: attribute lookups are unchanged.
_FUNCTION_METHODS = [
    "conj",
    "conjugate",
    "round",
    "clip",
    "cumsum",
    "cumprod",
    "nonzero",
    "take",
    "put",
    "searchsorted",
    "argsort",
    "argpartition",
    "dot",
    "trace",
    "choose",
    "repeat",
]
_METHOD_DOCS = {
    "sort": "Sorts the array in place along `axis` (stable; NumPy's order: NaNs last).",
    "partition": "Partitions the array in place along `axis` around `kth` (it sorts fully).",
    "tolist": "The elements as nested Python lists (or a Python scalar for a 0-d array), copied to the host.",
    "byteswap": "The elements with their bytes reversed (``cuarray.byteswap``); in place when `inplace`.",
    "scatter_add": "Adds `value` into ``self[slices]`` in place, once per occurrence of an index (cupyx's).",
    "scatter_max": "``self[slices]`` becomes its maximum with `value` in place, as ``maximum.at`` (cupyx's).",
    "scatter_min": "``self[slices]`` becomes its minimum with `value` in place, as ``minimum.at`` (cupyx's).",
    "toDlpack": "A DLPack capsule of the array (CuPy's older name for ``__dlpack__()``).",
    "flat": "A flat iterator over the elements in C order, read and written by position (`flatiter`).",
    "flags": "The layout flags (``c_contiguous``, ``f_contiguous``, ``owndata``), read-only as NumPy's.",
    "device": "The `cuarray.cuda.Device` that holds the array.",
    "real": "The real parts, as ``cuarray.real`` gives them; assigning to it writes the array's real parts.",
    "imag": "The imaginary parts, as ``cuarray.imag`` gives them; assigning to it writes a complex array's "
    "imaginary parts (TypeError for a real array).",
    # Properties bound from C++ (python/src/array.cpp) without a docstring; shape, dtype, ndim and size are C
    # getset descriptors there (Note [Attribute slots]), with theirs.
    "strides": "The bytes to step along each axis, a tuple (negative when reversed, 0 on broadcast axes).",
    "itemsize": "The bytes of one element.",
    "nbytes": "The bytes of all elements (``size * itemsize``).",
    "base": "The array whose memory this one views, or None for an array that owns its memory.",
    "T": "The array with its axes reversed (a view).",
}
_UFUNC_ATTRIBUTE_DOCS = {
    "nin": "The number of inputs.",
    "nout": "The number of outputs.",
    "nargs": "The number of arguments: inputs and outputs.",
    "ntypes": "The number of type loops.",
    "types": "The type loops, as NumPy's signatures such as ``'ff->f'``.",
}


def _document_attributes():
    for name in _FUNCTION_METHODS:
        method = vars(ndarray)[name]
        method.__doc__ = (
            f"The method form of ``cuarray.{method.__name__}``: ``a.{name}(...)`` is "
            f"``cuarray.{method.__name__}(a, ...)``."
        )
    for name, doc in _METHOD_DOCS.items():
        vars(ndarray)[name].__doc__ = doc
    for name, doc in _UFUNC_ATTRIBUTE_DOCS.items():
        vars(_ufuncs.ufunc)[name].__doc__ = doc


_document_attributes()

_UFUNC_TYPE_DOC = """A universal function: an elementwise operation on device arrays, as NumPy's ufuncs.

Each one is a row of the core's table (cpp/cuarray/ops/ufuncs.def) with NumPy's type loops: ``nin``,
``nout``, ``nargs``, ``ntypes`` and ``types`` describe it. Calls take NumPy's arguments (``out``, ``dtype``,
``casting``, ``order``) and follow NumPy 2's type promotion and broadcasting.
"""

_KEYWORDS = {"dtype": None, "casting": "same_kind", "order": "K", "where": True, "subok": True}
_signatures = {}  # (nin, nout) -> Signature, shared by the ufuncs of one arity


def _signature(u):
    key = (u.nin, u.nout)
    if key not in _signatures:
        P = inspect.Parameter
        names = ["x"] if u.nin == 1 else [f"x{i}" for i in range(1, u.nin + 1)]
        out = P("out", P.POSITIONAL_OR_KEYWORD, default=None if u.nout == 1 else (None,) * u.nout)
        keywords = [P(k, P.KEYWORD_ONLY, default=v) for k, v in _KEYWORDS.items()]
        _signatures[key] = inspect.Signature([P(n, P.POSITIONAL_ONLY) for n in names] + [out] + keywords)
    return _signatures[key]


def _summary(name):
    """The first paragraph of NumPy's docstring of ufunc `name` (after its signature line), or ''."""
    doc = getattr(getattr(numpy, name, None), "__doc__", None) or ""
    paragraphs = doc.split("\n\n")
    return " ".join(paragraphs[1].split()) if len(paragraphs) > 1 else ""


def _doc(u):
    name = u.__name__
    head = f"{name}{_signature(u)}\n\n"
    if not hasattr(numpy, name):
        return f"{head}An elementwise operation of the core's table for cuarray's functions; not NumPy's.\n"
    outs = "a device array" if u.nout == 1 else f"a tuple of {u.nout} device arrays"
    return (
        f"{head}{_summary(name)}\n\n"
        f"The device counterpart of ``numpy.{name}``: NumPy 2's type promotion (Python scalars are "
        f"weak, NEP 50), broadcasting, output dtype and errors, computed by one generated CUDA kernel on "
        f"the current device. ``out`` is {outs} (also given positionally after the inputs); ``dtype`` "
        f"and ``casting`` choose the loop as NumPy's do; ``order`` lays out a new output; ``where`` is "
        f"accepted only as True. ``{name}.types`` lists the loops.\n"
    )


class _PerUfunc:
    """A descriptor of the ufunc type: `make(ufunc)` for an instance, `on_type` for the type (Note [Ufunc
    docstrings])."""

    def __init__(self, make, on_type):
        self.make, self.on_type = make, on_type

    def __get__(self, obj, objtype=None):
        return self.on_type if obj is None else self.make(obj)


_ufuncs.ufunc.__doc__ = _PerUfunc(_doc, _UFUNC_TYPE_DOC)
_ufuncs.ufunc.__signature__ = _PerUfunc(_signature, None)
