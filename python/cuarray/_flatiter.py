"""ndarray.flat (NumPy's flat iterator over a device array, in C order) and ndarray.byteswap."""

import operator

import numpy

__all__ = ["byteswap", "flatiter"]


class flatiter:
    """``a.flat``: the elements of `a` in C order, read and written by flat position. Reading a slice, a
    boolean mask or integer positions gives a new array, as NumPy's; reading one position gives a 0-d device
    array (CuPy's 0-d views). Writing repeats the values as needed, as NumPy's ``a.flat[...] = v``."""

    __slots__ = ("_base",)

    def __init__(self, base):
        self._base = base

    @property
    def base(self):
        return self._base

    def __len__(self):
        return self._base.size

    def __iter__(self):
        return iter(self._base.ravel())

    def copy(self):
        return self._base.flatten()

    def __getitem__(self, key):
        flat = self._base.ravel()
        if isinstance(key, (int, numpy.integer)):
            return flat[key]
        out = flat[self._flat_key(key)]
        return out.copy() if out.base is not None else out  # a slice of the flat view: NumPy's is new

    def __setitem__(self, key, value):
        from cuarray._creation import arange
        from cuarray._indexing import flatnonzero, put

        n = self._base.size
        key = self._flat_key(key)
        if isinstance(key, (int, numpy.integer)):
            index = operator.index(key)
            if not -n <= index < n:
                raise IndexError(f"index {index} is out of bounds for size {n}")
            positions = [index % n]
        elif isinstance(key, slice):
            positions = arange(*key.indices(n))
        elif getattr(key, "dtype", None) == numpy.bool_:
            positions = flatnonzero(key)
        else:
            positions = key
        put(self._base, positions, value)

    def _flat_key(self, key):
        if key is Ellipsis:
            return slice(None)
        if isinstance(key, tuple):
            if len(key) != 1:
                raise IndexError(
                    "too many indices for flat iterator: flat iterator is 1-dimensional, but "
                    f"{len(key)} were indexed"
                )
            key = key[0]
        return key


def byteswap(a, inplace=False):
    """The elements with their bytes reversed (each part of a complex number on its own), as NumPy's; in place
    when `inplace`, returning `a`."""
    unit = a.itemsize // 2 if a.dtype.kind == "c" else a.itemsize
    if unit == 1 or a.size == 0:
        return a if inplace else a.copy()
    flat = a.reshape(-1).copy() if a.ndim else a.reshape(1).copy()
    swapped = (
        flat.view(numpy.uint8).reshape(-1, unit)[:, ::-1].copy().reshape(-1).view(a.dtype).reshape(a.shape)
    )
    if not inplace:
        return swapped
    a[...] = swapped
    return a
