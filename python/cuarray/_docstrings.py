"""Docstrings and signatures of the objects that the compiled extension defines without them: the ndarray and
ufunc types and each ufunc object. help(), inspect.signature() and the API reference (docs/api) read them.

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
    return (f"{head}{_summary(name)}\n\n"
            f"The device counterpart of ``numpy.{name}``: NumPy 2's type promotion (Python scalars are "
            f"weak, NEP 50), broadcasting, output dtype and errors, computed by one generated CUDA kernel on "
            f"the current device. ``out`` is {outs} (also given positionally after the inputs); ``dtype`` "
            f"and ``casting`` choose the loop as NumPy's do; ``order`` lays out a new output; ``where`` is "
            f"accepted only as True. ``{name}.types`` lists the loops.\n")


class _PerUfunc:
    """A descriptor of the ufunc type: `make(ufunc)` for an instance, `on_type` for the type (Note [Ufunc
    docstrings])."""

    def __init__(self, make, on_type):
        self.make, self.on_type = make, on_type

    def __get__(self, obj, objtype=None):
        return self.on_type if obj is None else self.make(obj)


_ufuncs.ufunc.__doc__ = _PerUfunc(_doc, _UFUNC_TYPE_DOC)
_ufuncs.ufunc.__signature__ = _PerUfunc(_signature, None)
