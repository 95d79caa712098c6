"""Which objects the API reference documents, without Sphinx: the docs build (cuarray_api.py) and
tests/test_docs.py, which checks that each has a docstring and a signature, share this list.

Every public callable a module offers (its `__all__`, else its public names, the lazily imported ones
included) that cuarray itself defines: functions, classes and ufunc objects. Names that are NumPy's own
objects re-exported (`cuarray.dtype`, `cuarray.float32`, `cuarray.set_printoptions`) and submodules are
left to NumPy's documentation and their own pages.
"""

import inspect

# The modules of the API reference, one page each (docs/api/<last part>.md).
MODULES = ["cuarray", "cuarray.cuda", "cuarray.linalg", "cuarray.fft", "cuarray.random", "cuarray.testing"]

# Defining module -> heading; modules not named here come last under their own name.
GROUPS = {
    "cuarray._creation": "Creating arrays",
    "cuarray._transfer": "Host and device transfers",
    "cuarray._ndarray": "The array type",
    "cuarray": "Package helpers",
    "ufunc": "Universal functions",
    "cuarray._math": "Mathematical functions",
    "cuarray._manipulation": "Shapes and views",
    "cuarray._joining": "Joining and splitting",
    "cuarray._indexing": "Indexing",
    "cuarray._index_tricks": "Index helpers",
    "cuarray._selection": "Selection",
    "cuarray._reduction": "Reductions",
    "cuarray._norm": "Reductions",
    "cuarray._scan": "Scans",
    "cuarray._sorting": "Sorting and searching",
    "cuarray._setops": "Set operations",
    "cuarray._statistics": "Statistics",
    "cuarray._histogram": "Statistics",
    "cuarray._logic": "Logic and comparison",
    "cuarray._predicates": "Predicates",
    "cuarray._products": "Products",
    "cuarray._einsum": "Products",
    "cuarray._convolution": "Convolution",
    "cuarray._calculus": "Calculus and polynomials",
    "cuarray._polynomial": "Calculus and polynomials",
    "cuarray._windows": "Window functions",
    "cuarray._bits": "Bit packing",
    "cuarray._functional": "Functional programming",
    "cuarray._pad": "Padding",
    "cuarray._printing": "Printing",
    "cuarray._io": "Files",
    "cuarray._interop": "Interoperability",
    "cuarray._array_api": "Array API standard",
    "cuarray._kernel": "User kernels and fusion",
    "cuarray._reduction_kernel": "User kernels and fusion",
    "cuarray._fusion": "User kernels and fusion",
    "cuarray._config": "Configuration",
}


# Objects of the compiled extension (their __module__ is cuarray._core or cuarray), by name.
NAMED = {"ndarray": "The array type", "ufunc": "Universal functions", "matmul": "Products"}


def is_ufunc(obj):
    return type(obj).__name__ == "ufunc" and type(obj).__module__.startswith("cuarray")


def public_members(module):
    """(name, object) of the callables `module` offers that cuarray defines, its submodules excluded."""
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    members = []
    for name in names:
        try:
            obj = getattr(module, name)
        except AttributeError:  # an optional package's name (bfloat16 without ml_dtypes)
            continue
        if inspect.ismodule(obj) or not callable(obj):
            continue
        if is_ufunc(obj) or (getattr(obj, "__module__", None) or "").startswith("cuarray"):
            members.append((name, obj))
    return members


def group_of(name, obj):
    if name in NAMED:
        return NAMED[name]
    if is_ufunc(obj):
        return GROUPS["ufunc"]
    module = obj.__module__
    if module in GROUPS:
        return GROUPS[module]
    return module.rsplit(".", 1)[-1].lstrip("_").replace("_", " ").capitalize()
