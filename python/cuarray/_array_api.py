"""The array API standard's inspection and data-type functions: __array_namespace_info__, isdtype,
result_type, can_cast, min_scalar_type, finfo, iinfo.

The dtype functions are NumPy's (cuarray's dtypes are NumPy dtypes), taking cuarray arrays where the
standard takes arrays, and knowing bfloat16 as a real floating type. None of them needs a device, except
``default_device()`` (there is no default device without one).
"""

import operator

import numpy

from cuarray import _core
from cuarray._core import ndarray
from cuarray.cuda.device import Device

__all__ = [
    "__array_namespace_info__",
    "can_cast",
    "finfo",
    "iinfo",
    "isdtype",
    "min_scalar_type",
    "result_type",
]

_DTYPES = {
    name: numpy.dtype(name)
    for name in (
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float32",
        "float64",
        "complex64",
        "complex128",
    )
}
_KINDS = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
}


def _check_device(device):
    """None, a cuarray.cuda.Device or a device number: the devices the standard's `device=` may name."""
    if device is None or isinstance(device, Device):
        return
    if not isinstance(device, bool):
        try:
            if operator.index(device) >= 0:
                return
        except TypeError:
            pass
    raise ValueError(
        f"Device not understood: expected None, a cuarray.cuda.Device or a device number, got {device!r}"
    )


class ArrayNamespaceInfo:
    """What ``cuarray.__array_namespace_info__()`` returns: cuarray's capabilities, devices and dtypes."""

    __module__ = "cuarray"

    def capabilities(self):
        """Boolean indexing and data-dependent output shapes (nonzero, unique, x[mask]) are supported; arrays
        have at most 64 dimensions, as NumPy's, through which host data passes."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        """The calling thread's current device (cuarray.cuda.Device()); CUDARuntimeError without a GPU."""
        return Device()

    def default_dtypes(self, *, device=None):
        """The dtypes of arrays made without one: float64, complex128, and int64 for integers and indices."""
        _check_device(device)
        return {
            "real floating": numpy.dtype(numpy.float64),
            "complex floating": numpy.dtype(numpy.complex128),
            "integral": numpy.dtype(numpy.int64),
            "indexing": numpy.dtype(numpy.int64),
        }

    def dtypes(self, *, device=None, kind=None):
        """The standard's dtypes that cuarray supports, {name: dtype}, all or of `kind` (a kind name or a
        tuple of them). cuarray also has float16 and bfloat16, which the standard does not name."""
        _check_device(device)
        if kind is None:
            return dict(_DTYPES)
        kinds = kind if isinstance(kind, tuple) else (kind,)
        letters = ""
        for k in kinds:
            if not isinstance(k, str) or k not in _KINDS:
                raise ValueError(f"unsupported kind: {k!r}")
            letters += _KINDS[k]
        return {name: dt for name, dt in _DTYPES.items() if dt.kind in letters}

    def devices(self):
        """Every CUDA device as a cuarray.cuda.Device; an empty list on a machine without GPU or driver (an
        inspection function does not raise for that)."""
        if not _core.cuda.is_available():
            return []
        return [Device(i) for i in range(_core.cuda.device_count())]


def __array_namespace_info__():
    """The array API standard's inspection namespace for cuarray."""
    return ArrayNamespaceInfo()


def _is_bfloat16(dtype):
    """Whether `dtype` is ml_dtypes' bfloat16, as a dtype or as its scalar type."""
    if isinstance(dtype, numpy.dtype):
        return dtype.kind == "V" and dtype.name == "bfloat16"
    return isinstance(dtype, type) and issubclass(dtype, numpy.generic) and dtype.__name__ == "bfloat16"


def isdtype(dtype, kind):
    """Whether `dtype` is of `kind`: a dtype, a kind name ('bool', 'signed integer', 'unsigned integer',
    'integral', 'real floating', 'complex floating', 'numeric'), or a tuple of those (NumPy's isdtype;
    bfloat16 counts as real floating)."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not (_is_bfloat16(dtype) or any(_is_bfloat16(k) for k in kinds)):
        return numpy.isdtype(dtype, kind)
    others = tuple(k for k in kinds if not _is_bfloat16(k))
    if _is_bfloat16(dtype):
        if others:
            numpy.isdtype(numpy.float32, others)  # NumPy's checks of the other kinds
        return any(_is_bfloat16(k) or k in ("real floating", "numeric") for k in kinds)
    return numpy.isdtype(dtype, others) if others else False


def _dtype_of(x):
    return x.dtype if isinstance(x, ndarray) else x


def result_type(*arrays_and_dtypes):
    """The dtype NumPy's promotion gives for these arrays, dtypes and Python scalars (weakly typed)."""
    return numpy.result_type(*(_dtype_of(x) for x in arrays_and_dtypes))


def min_scalar_type(a, /):
    """NumPy's min_scalar_type of host values; a device array (a cuarray array, a CuPy-like object, another
    library's device array, or a list or tuple holding them) gives its dtype, as CuPy's: no value is read back."""
    from cuarray import _interop, _transfer

    device = a if isinstance(a, ndarray) else _interop._device_operand(a)
    if device is not None:
        return device.dtype
    if isinstance(a, (list, tuple)) and _transfer._holds_device_array(a):
        return _transfer.asarray(a).dtype
    return numpy.min_scalar_type(a)


def can_cast(from_, to, casting="safe"):
    """Whether `from_` (a dtype or an array's dtype) casts to `to` under `casting` (NumPy's rule)."""
    return numpy.can_cast(_dtype_of(from_), to, casting)


def finfo(dtype, /):
    """Machine limits of a floating type, or of an array's dtype (bfloat16's from ml_dtypes)."""
    dtype = _dtype_of(dtype)
    if _is_bfloat16(dtype):
        import ml_dtypes

        return ml_dtypes.finfo(dtype)
    return numpy.finfo(dtype)


def iinfo(dtype, /):
    """Machine limits of an integer type, or of an array's dtype."""
    return numpy.iinfo(_dtype_of(dtype))
