"""Type annotations for cuarray arrays, as `cupy.typing` gives them for CuPy's: `NDArray[numpy.float32]` is a
cuarray.ndarray of float32 elements; `ArrayLike`, `DTypeLike` and `NBitBase` are NumPy's."""

from typing import Any, TypeVar

import numpy
from numpy.typing import ArrayLike, DTypeLike, NBitBase

from cuarray._core import ndarray

__all__ = ["ArrayLike", "DTypeLike", "NBitBase", "NDArray"]

_ScalarT_co = TypeVar("_ScalarT_co", bound=numpy.generic, covariant=True)

NDArray = ndarray[Any, numpy.dtype[_ScalarT_co]]
