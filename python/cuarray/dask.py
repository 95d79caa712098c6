"""Dask arrays with cuarray chunks: what Dask asks of a chunk type, and the "cuarray" array backend.

Importing this module registers cuarray.ndarray with Dask. It is rarely imported by hand: Dask loads it
through the `dask.array.backends` entry point when ``dask.config.set({"array.backend": "cuarray"})`` is in
force, and the first token Dask takes of a cuarray array imports it (``ndarray.__dask_tokenize__`` is
``tokenize`` here). Dask workers
that only receive tasks should preload it (``dask worker --preload cuarray.dask``, or ``preload=`` of
distributed's Nanny and Worker): reductions there need the registrations below.
"""

import math

import dask.array as da
import numpy
from dask import config
from dask.array.backends import ArrayBackendEntrypoint, array_creation_dispatch
from dask.array.dispatch import (
    concatenate_lookup,
    einsum_lookup,
    empty_lookup,
    numel_lookup,
    take_lookup,
    tensordot_lookup,
    to_numpy_dispatch,
)
from dask.sizeof import sizeof
from dask.utils import Dispatch

import cuarray
from cuarray import _dask_hooks, _einsum
from cuarray._dask_hooks import tokenize  # noqa: F401  (ndarray.__dask_tokenize__, which loads this module)

__all__ = ["CuarrayBackendEntrypoint", "to_cuarray_dispatch"]

# Converts a chunk to a cuarray array, for Array.to_backend("cuarray").
to_cuarray_dispatch = Dispatch("to_cuarray_dispatch")


def _numel(x, axis=None, keepdims=False, dtype=numpy.float64):
    """The number of elements behind each value of a reduction of chunk `x`, as Dask's reductions (mean, var)
    need it: a device array of the reduced shape, since cuarray operations take no NumPy arrays."""
    axes = range(x.ndim) if axis is None else axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = {a % x.ndim for a in axes}
    count = math.prod(x.shape[a] for a in axes)
    if axis is None and not keepdims:
        return numpy.dtype(dtype).type(count)
    if keepdims:
        shape = tuple(1 if a in axes else n for a, n in enumerate(x.shape))
    else:
        shape = tuple(n for a, n in enumerate(x.shape) if a not in axes)
    return cuarray.full(shape, count, dtype=dtype)


def _meta():
    """The meta array of cuarray-backed collections: empty, so naming it touches no device memory."""
    return cuarray.empty((0,))


def _creation(name):
    """Dask's creation function `name` with numpy's backend and a cuarray meta, which makes the chunks."""

    def create(*args, meta=None, **kwargs):
        with config.set({"array.backend": "numpy"}):
            return getattr(da, name)(*args, meta=_meta() if meta is None else meta, **kwargs)

    create.__name__ = name
    return staticmethod(create)


class CuarrayBackendEntrypoint(ArrayBackendEntrypoint):
    """``dask.config.set({"array.backend": "cuarray"})``: da.ones, da.zeros, da.empty, da.full, da.arange and
    da.random make cuarray chunks."""

    @classmethod
    def to_backend_dispatch(cls):
        return to_cuarray_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        if isinstance(data._meta, cuarray.ndarray):
            return data
        return data.map_blocks(to_cuarray_dispatch, **kwargs)

    @property
    def RandomState(self):
        return cuarray.random.RandomState

    @property
    def default_bit_generator(self):
        return cuarray.random.Philox4x3210

    ones = _creation("ones")
    zeros = _creation("zeros")
    empty = _creation("empty")
    full = _creation("full")

    @staticmethod
    def arange(*args, like=None, **kwargs):
        with config.set({"array.backend": "numpy"}):
            return da.arange(*args, like=_meta() if like is None else like, **kwargs)


da.register_chunk_type(cuarray.ndarray)
concatenate_lookup.register(cuarray.ndarray, cuarray.concatenate)
take_lookup.register(cuarray.ndarray, cuarray.take)
tensordot_lookup.register(cuarray.ndarray, cuarray.tensordot)
einsum_lookup.register(cuarray.ndarray, _einsum.einsum)
empty_lookup.register(cuarray.ndarray, cuarray.empty)
numel_lookup.register(cuarray.ndarray, _numel)
to_numpy_dispatch.register(cuarray.ndarray, cuarray.asnumpy)
to_cuarray_dispatch.register((numpy.ndarray, cuarray.ndarray), cuarray.asarray)
_dask_hooks.register_sizeof(sizeof)
array_creation_dispatch.register_backend("cuarray", CuarrayBackendEntrypoint())
