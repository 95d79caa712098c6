"""Arrays for tests, in CuPy's ``cupy.testing`` style: ``shaped_arange((2, 3), xp, dtype)`` and the like. Each
takes the array module as `xp` and defaults to cuarray, as CuPy's default to cupy; the values are made on the
host with NumPy and then given to `xp`, so both halves of a numpy_cupy_* test get the same values."""

import math

import numpy

import cuarray

__all__ = [
    "generate_matrix",
    "shaped_arange",
    "shaped_linspace",
    "shaped_random",
    "shaped_reverse_arange",
    "shaped_sparse_random",
]


def _size(shape):
    return math.prod(shape) if isinstance(shape, (tuple, list)) else int(shape)


def _as(values, dtype):
    """Host values in `dtype` as CuPy's factories make them: bool is True where the value is even, complex is
    ``v + v*1j``."""
    dtype = numpy.dtype(dtype)
    if dtype == numpy.bool_:
        values = values % 2 == 0
    elif dtype.kind == "c":
        values = values + values * 1j
    return values.astype(dtype)


def shaped_arange(shape, xp=cuarray, dtype=numpy.float32, order="C"):
    """An array of `shape` holding 1, 2, ..., N in `dtype` (bool: True where even; complex: ``k + k*1j``), in
    memory order `order`, made by `xp`."""
    values = _as(numpy.arange(1, _size(shape) + 1), dtype).reshape(shape)
    return xp.array(values, order=order)


def shaped_reverse_arange(shape, xp=cuarray, dtype=numpy.float32):
    """An array of `shape` holding N, ..., 2, 1 in `dtype` (bool and complex as in shaped_arange)."""
    return xp.array(_as(numpy.arange(_size(shape), 0, -1), dtype).reshape(shape))


def shaped_random(shape, xp=cuarray, dtype=numpy.float32, scale=10, seed=0, order="C"):
    """An array of `shape` drawn from ``numpy.random.RandomState(seed)``: uniform on [0, `scale`) (complex: both
    parts so), or for bool, True and False with equal chance; the same values for the same arguments on every
    run and in both halves of a test."""
    rng = numpy.random.RandomState(seed)
    dims = tuple(shape) if isinstance(shape, (tuple, list)) else (int(shape),)
    dtype = numpy.dtype(dtype)
    if dtype == numpy.bool_:
        values = rng.randint(2, size=dims)
    elif dtype.kind == "c":
        values = rng.rand(*dims) + 1j * rng.rand(*dims)  # real parts drawn first, as in CuPy
        values *= scale
    else:
        values = rng.rand(*dims) * scale
    return xp.asarray(values, dtype=dtype, order=order)


def shaped_linspace(start, stop, shape, xp=cuarray, dtype=numpy.float32):
    """An array of `shape` holding ``numpy.linspace(start, stop, N)`` in `dtype`; for bool the range is first
    clipped to [0, 1], for unsigned types `start` to 0 or more."""
    dtype = numpy.dtype(dtype)
    if dtype == numpy.bool_:
        start, stop = max(start, 0), min(stop, 1)
    elif dtype.kind == "u":
        start = max(start, 0)
    return xp.array(numpy.linspace(start, stop, _size(shape)).astype(dtype).reshape(shape))


def shaped_sparse_random(shape, sp=None, dtype=numpy.float32, density=0.01, format="coo", seed=0):
    """A random sparse matrix of `shape` (rows, columns) from SciPy, of `density`, in `dtype` and `format`,
    made by the sparse module `sp` (``scipy.sparse``). cuarray has no sparse matrices: with `sp` left out
    (CuPy's default is its own sparse module) this raises NotImplementedError."""
    import scipy.sparse

    if sp is None:
        try:
            import cuarray.scipy.sparse as sp
        except ImportError:
            raise NotImplementedError(
                "cuarray has no sparse matrices (no cuarray.scipy.sparse): pass sp=scipy.sparse"
            ) from None
    rows, cols = shape
    host = scipy.sparse.random(rows, cols, density, random_state=seed).astype(dtype)
    try:
        return sp.coo_matrix(host).asformat(format)
    except AttributeError:
        raise ValueError(f"Module {sp} does not have the expected sparse APIs") from None


def generate_matrix(shape, xp=cuarray, dtype=numpy.float32, *, singular_values=None):
    """A random matrix, or stack of matrices, of `shape` (..., M, N) whose singular values are
    `singular_values` (broadcast to (..., min(M, N))), in a float or complex `dtype`, made with `xp`'s random
    numbers and SVD. ValueError for fewer than 2 axes or a negative singular value; TypeError where
    `singular_values` is missing or complex, or `dtype` is neither float nor complex."""
    if len(shape) <= 1:
        raise ValueError(f"shape {shape} is invalid for matrices: too few axes")
    if singular_values is None:
        raise TypeError("singular_values is not given")
    singular_values = xp.asarray(singular_values)
    dtype = numpy.dtype(dtype)
    if dtype.kind not in "fc":
        raise TypeError(f"dtype {dtype} is not supported")
    if not xp.isrealobj(singular_values):
        raise TypeError("singular_values is not real")
    if bool((singular_values < 0).any()):
        raise ValueError("negative singular value is given")
    # Orthonormal bases from the SVD of a random matrix, put back together with the wanted singular values.
    a = xp.random.randn(*shape)
    if dtype.kind == "c":
        a = a + 1j * xp.random.randn(*shape)
    u, s, vh = xp.linalg.svd(a, full_matrices=False)
    sv = xp.broadcast_to(singular_values, s.shape)
    return ((u * sv[..., None, :]) @ vh).astype(dtype)
