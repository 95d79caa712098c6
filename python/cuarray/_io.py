"""Reading and writing arrays with NumPy's own file formats: save, load, savez, savez_compressed, savetxt,
loadtxt, genfromtxt, fromfile, frombuffer, fromstring, fromiter; and the string forms of Python integers in
a base (base_repr, binary_repr).

Writers write the host copy of cuarray arrays (anything else, NumPy arrays included, as NumPy writes it);
readers read on the host with NumPy and copy the result to the current device. `like` (NumPy's) changes
nothing."""

import collections.abc

import numpy

from cuarray._core import ndarray
from cuarray._transfer import asarray

__all__ = [
    "base_repr",
    "binary_repr",
    "frombuffer",
    "fromfile",
    "fromiter",
    "fromstring",
    "genfromtxt",
    "load",
    "loadtxt",
    "save",
    "savetxt",
    "savez",
    "savez_compressed",
]


def _host(a):
    # NumPy arrays are taken as they are: writing one moves nothing, and numpy.savez(f, x=np_a, y=cp_a)
    # dispatches here with both. Order 'A' keeps an F-contiguous array F-contiguous, so that save writes
    # fortran_order as NumPy's does.
    return a.get(order="A") if isinstance(a, ndarray) else a


def _to_device(result):
    """NumPy's result on the device: an array, or the list or tuple of arrays of unpack=True."""
    if isinstance(result, (list, tuple)):
        return type(result)(asarray(r) for r in result)
    return asarray(result)


class NpzFile(collections.abc.Mapping):
    """The arrays of a .npz file by name, each read and copied to the device when looked up (NumPy's NpzFile,
    which it wraps). Close it, or use it in a `with` block."""

    def __init__(self, npz):
        self._npz = npz

    @property
    def files(self):
        return self._npz.files

    def __getitem__(self, key):
        return asarray(self._npz[key])

    def __iter__(self):
        return iter(self._npz)

    def __len__(self):
        return len(self._npz)

    def __contains__(self, key):  # without reading the array, which Mapping's would
        return key in self._npz

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"cuarray {self._npz!r}"


def save(file, arr, allow_pickle=True):
    """Writes arr to a .npy file (NumPy's format)."""
    numpy.save(file, _host(arr), allow_pickle=allow_pickle)


def savez(file, *args, allow_pickle=True, **kwds):
    """Writes arrays to an uncompressed .npz file: positional ones as arr_0, arr_1, ..., keywords by name."""
    numpy.savez(file, *map(_host, args), allow_pickle=allow_pickle, **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """savez, compressed."""
    numpy.savez_compressed(
        file, *map(_host, args), allow_pickle=allow_pickle, **{k: _host(v) for k, v in kwds.items()}
    )


def load(
    file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *, max_header_size=10000
):
    """A .npy file as a cuarray array; a .npz file as an NpzFile (arrays copied to the device on lookup); any
    other pickled object (allow_pickle=True) as NumPy loads it. With mmap_mode the file is mapped on the
    host and the array copied from the mapping."""
    obj = numpy.load(file, mmap_mode, allow_pickle, fix_imports, encoding, max_header_size=max_header_size)
    if isinstance(obj, numpy.lib.npyio.NpzFile):
        return NpzFile(obj)
    if isinstance(obj, numpy.ndarray):
        return asarray(obj)
    return obj


def savetxt(
    fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="", footer="", comments="# ", encoding=None
):
    """Writes a 1-d or 2-d array to a text file (NumPy's savetxt)."""
    numpy.savetxt(fname, _host(X), fmt, delimiter, newline, header, footer, comments, encoding)


def loadtxt(fname, *args, like=None, **kwargs):
    """numpy.loadtxt (same arguments), the result copied to the device."""
    return _to_device(numpy.loadtxt(fname, *args, **kwargs))


def genfromtxt(fname, *args, like=None, **kwargs):
    """numpy.genfromtxt (same arguments), the result copied to the device. A masked result (usemask=True)
    raises NotImplementedError: cuarray has no masked arrays."""
    result = numpy.genfromtxt(fname, *args, **kwargs)
    if isinstance(result, numpy.ma.MaskedArray):
        raise NotImplementedError("cuarray.genfromtxt: usemask=True is not supported (no masked arrays)")
    return _to_device(result)


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None):
    """numpy.fromfile, copied to the device."""
    return asarray(numpy.fromfile(file, dtype, count, sep, offset))


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    """numpy.frombuffer of a host buffer, copied to the device."""
    return asarray(numpy.frombuffer(buffer, dtype, count, offset))


def fromstring(string, dtype=float, count=-1, *, sep="", like=None):
    """numpy.fromstring (text, with `sep`), copied to the device."""
    return asarray(numpy.fromstring(string, dtype, count, sep=sep))


def fromiter(iter, dtype, count=-1, *, like=None):
    """numpy.fromiter, copied to the device."""
    return asarray(numpy.fromiter(iter, dtype, count))


# Host functions on Python integers: NumPy's, under cuarray's own documentation (as CuPy's are).
def base_repr(number, base=2, padding=0):
    """The string form of the integer `number` in `base` (2 to 36), with `padding` zeros on the left; a
    host function, as ``numpy.base_repr``."""
    return numpy.base_repr(number, base, padding)


def binary_repr(num, width=None):
    """The binary string of the integer `num`, two's complement in `width` bits for negative numbers when
    `width` is given; a host function, as ``numpy.binary_repr``."""
    return numpy.binary_repr(num, width)
