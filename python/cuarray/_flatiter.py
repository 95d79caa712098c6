"""ndarray.flat (NumPy's flat iterator over a device array, in C order, and its setter) and ndarray.byteswap."""

import operator

import numpy

from cuarray._core import ndarray

__all__ = ["flatiter"]  # byteswap and _set_flat are the array's method and its flat setter


class flatiter:
    """``a.flat``: the elements of `a` in C order, read and written by flat position. Reading a slice, a
    boolean mask or integer positions gives a new array, as NumPy's; reading one position gives a new 0-d
    device array (CuPy's). Writing repeats the values as needed, as NumPy's ``a.flat[...] = v``. It is its own
    iterator, as NumPy's and CuPy's: ``next`` reads the element at the next position of `a` as it is then.

    Note [flatiter keys]: an int, a slice, Ellipsis, an integer or boolean array, or a 1-tuple of one of these
    (NumPy's keys). None, a bool (NumPy deprecates it) and an index of another type raise IndexError, as in
    NumPy and CuPy; CuPy refuses arrays and tuples too, which would only lose NumPy's results here."""

    __slots__ = ("_base", "_index")

    def __init__(self, base):
        self._base = base
        self._index = 0

    @property
    def base(self):
        """The array iterated over."""
        return self._base

    @property
    def index(self):
        """The flat position `next` reads next."""
        return self._index

    def __len__(self):
        return self._base.size

    def __iter__(self):
        return self

    def __next__(self):
        if self._index >= self._base.size:
            raise StopIteration
        self._index += 1
        return self._element(self._index - 1)

    def copy(self):
        """The elements as a new 1-D array, in C order."""
        return self._base.flatten()

    def __getitem__(self, key):
        from cuarray._indexing import _flat_take

        key = self._flat_key(key)
        if isinstance(key, (int, numpy.integer)):
            return self._element(key)
        if not isinstance(key, slice) and key.dtype.kind in "iu":
            return _flat_take(self._base.ravel(), key)  # NumPy's messages name no axis
        out = self._base.ravel()[key]
        return out.copy() if out.base is not None else out  # a slice of the flat view: NumPy's is new

    def __setitem__(self, key, value):
        from cuarray._creation import arange
        from cuarray._indexing import _put, flatnonzero

        if isinstance(key, tuple) and (key == () or (len(key) == 1 and key[0] is Ellipsis)):
            raise IndexError("Assigning to a flat iterator with a 0-D index is not supported")  # NumPy's
        key = self._flat_key(key)
        if isinstance(key, (int, numpy.integer)):
            position = self._position(key)
            # NumPy's: one element takes a scalar (a record of a structured array, a tuple).
            ndim = value.ndim if isinstance(value, ndarray) else numpy.ndim(value)
            if ndim and self._base.dtype.kind != "V":
                raise ValueError("Error setting single item of array.")
            self._base[position] = value
            return
        if isinstance(key, slice):
            positions = arange(*key.indices(self._base.size))
        elif key.dtype == numpy.bool_:
            if key.ndim != 1:
                raise IndexError(
                    "too many indices for flat iterator: flat iterator is 1-dimensional, but "
                    f"{key.ndim} were indexed"
                )
            if key.size != self._base.size:  # NumPy's check of a mask (its read checks it too)
                raise IndexError(
                    "boolean index did not match indexed flat iterator along axis 0; size of axis is "
                    f"{self._base.size} but size of corresponding boolean axis is {key.size}"
                )
            positions = flatnonzero(key) if isinstance(key, ndarray) else numpy.flatnonzero(key)
        else:
            positions = key
        _put(self._base, positions, value, "raise", None)  # NumPy's messages name no axis

    def _position(self, index):
        """The per-axis index of the element at flat `index` (negative counts from the end)."""
        n = self._base.size
        index = operator.index(index)
        if not -n <= index < n:
            raise IndexError(f"index {index} is out of bounds for size {n}")
        return numpy.unravel_index(index % n, self._base.shape)

    def _element(self, index):
        return self._base[self._position(index)].copy()

    def _flat_key(self, key):
        """`key` as an int, a slice, or an integer or boolean array: a device array as given, else a host (NumPy)
        one, checked on the host."""
        if isinstance(key, tuple):
            if len(key) != 1:
                raise IndexError(
                    "too many indices for flat iterator: flat iterator is 1-dimensional, but "
                    f"{len(key)} were indexed"
                )
            key = key[0]
        if key is Ellipsis:
            return slice(None)
        if isinstance(key, (slice, ndarray)) or (
            isinstance(key, (int, numpy.integer)) and not isinstance(key, (bool, numpy.bool_))
        ):
            return key
        if isinstance(key, list) and key and numpy.asarray(key).dtype == numpy.bool_:
            raise IndexError(  # NumPy's, for a list of bools
                "boolean indices for iterators are not supported because of previous behavior that was "
                "confusing (valid boolean indices are expected to work in the future)"
            )
        if isinstance(key, (list, range, numpy.ndarray)):
            host = numpy.asarray(key)
            if host.dtype.kind in "biu":
                return host
            if isinstance(key, numpy.ndarray):  # NumPy's words for an array of another type
                raise IndexError("arrays used as indices must be of integer (or boolean) type")
            if host.size == 0:
                return host.astype(numpy.intp)
        raise IndexError(
            "only integers, slices (`:`), ellipsis (`...`) and integer or boolean arrays are valid flat "
            f"iterator indices (got {type(key).__name__})"
        )


def _set_flat(a, value):
    """``a.flat = value``: NumPy's, `value` repeated over (or cut to) the elements of `a` in C order."""
    flatiter(a)[...] = value


def byteswap(a, inplace=False):
    """The elements with their bytes reversed (each part of a complex number on its own), as NumPy's; in place
    when `inplace`, returning `a`."""
    unit = a.itemsize // 2 if a.dtype.kind == "c" else a.itemsize
    if unit == 1 or a.size == 0:
        return a if inplace else a.copy(order="A")  # NumPy's copy: F for an F-contiguous `a`, else C
    if a.ndim > 1 and a.flags.f_contiguous and not a.flags.c_contiguous:
        # NumPy's copy has order 'A': F here. The C-ordered swap of a.T, transposed back, is that at no extra cost.
        if inplace:
            byteswap(a.T, True)
            return a
        return byteswap(a.T).T
    flat = a.reshape(-1).copy() if a.ndim else a.reshape(1).copy()
    swapped = (
        flat.view(numpy.uint8).reshape(-1, unit)[:, ::-1].copy().reshape(-1).view(a.dtype).reshape(a.shape)
    )
    if not inplace:
        return swapped
    a[...] = swapped
    return a
