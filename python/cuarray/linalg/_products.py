"""The array API's linalg products and views (outer, vecdot, cross, trace, diagonal, matrix_transpose), in
NumPy's numpy.linalg forms, and multi_dot."""

from cuarray import _products, _vector_products
from cuarray._joining import atleast_2d
from cuarray._manipulation import matrix_transpose
from cuarray.linalg import _checks as c

__all__ = ["cross", "diagonal", "matrix_transpose", "multi_dot", "outer", "trace", "vecdot"]


def outer(x1, x2, /):
    """The outer product of two vectors."""
    x1, x2 = c.as_array(x1, "outer"), c.as_array(x2, "outer")
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(
            f"Input arrays must be one-dimensional, but they are x1.ndim={x1.ndim} and x2.ndim={x2.ndim}."
        )
    return _products.outer(x1, x2)


def vecdot(x1, x2, /, *, axis=-1):
    """Dot products of the vectors along `axis`, conjugating x1, over broadcast stacks (numpy.linalg.vecdot:
    the vecdot gufunc with axis= alone)."""
    return _vector_products.vecdot(x1, x2, axis=axis)


def cross(x1, x2, /, *, axis=-1):
    """Cross products of the 3-vectors along `axis`, broadcast over the other axes."""
    x1, x2 = c.as_array(x1, "cross"), c.as_array(x2, "cross")
    n1, n2 = x1.shape[axis], x2.shape[axis]
    if n1 != 3 or n2 != 3:
        raise ValueError(
            f"Both input arrays must be (arrays of) 3-dimensional vectors, but they are {n1} and {n2} "
            "dimensional instead."
        )
    return _products.cross(x1, x2, axis=axis)


def trace(x, /, *, offset=0, dtype=None):
    """The sums along a diagonal of each matrix in the stack `x` (its last two axes)."""
    return _products.trace(c.as_array(x, "trace"), offset, -2, -1, dtype)


def diagonal(x, /, *, offset=0):
    """A view of a diagonal of each matrix in the stack `x` (its last two axes)."""
    return c.as_array(x, "diagonal").diagonal(offset, -2, -1)


def multi_dot(arrays, *, out=None):
    """The product of two or more matrices, multiplied in the order that needs the fewest scalar products; the
    first may be a row vector and the last a column vector (1-D). `out` is the last product's, as NumPy's:
    with a 1-D end it has that product's 2-D shape ((1, n), (m, 1) or (1, 1)), and the result is a 1-D (or
    0-d) view of it."""
    arrays = [c.as_array(a, "multi_dot") for a in arrays]
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if n == 2:
        return _products.dot(arrays[0], arrays[1], out=out)
    first_1d, last_1d = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first_1d:
        arrays[0] = atleast_2d(arrays[0])
    if last_1d:
        arrays[-1] = atleast_2d(arrays[-1]).T
    c.check_2d(*(a.shape for a in arrays))
    split = _chain_order([a.shape[0] for a in arrays] + [arrays[-1].shape[1]])
    result = _chain_product(arrays, split, 0, n - 1, out)
    if first_1d and last_1d:
        return result[0, 0]
    if first_1d or last_1d:
        return result.ravel()
    return result


def _chain_order(dims):
    """split[i][j]: where the cheapest product of matrices i..j splits, for matrices of shapes (dims[k],
    dims[k + 1]) (the textbook dynamic program over chain lengths)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain_product(arrays, split, i, j, out=None):
    if i == j:
        return arrays[i]
    k = split[i][j]
    left, right = _chain_product(arrays, split, i, k), _chain_product(arrays, split, k + 1, j)
    return _products.dot(left, right, out=out)
