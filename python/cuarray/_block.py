"""block: an array assembled from nested lists of blocks, as NumPy's block.

The innermost lists join along the last axis, the lists holding them along the one before, and so on; every
block first gains leading axes of length 1 up to the result's dimensions (the larger of the list depth and
the blocks' largest ndim). The result is always a new array. Python numbers are blocks of their NumPy type
(int64, float64, complex128, bool), as NumPy's asanyarray makes them.

Note [block's dtype]
NumPy's block has two algorithms, chosen by size, and they promote differently: up to 2 * 512 * 512 elements
(times the list depth) it concatenates list by list, each join promoting its own parts (int8 and uint8 join
to int16, which joins float16 to float32), and above that it copies every block into one array of all the
blocks' result type (int8, uint8 and float16 give float16). cuarray joins list by list on both sides of that
size, and above it first casts every block to the single result type, so that its dtype is NumPy's for the
same blocks.
"""

import numpy

from cuarray._joining import concatenate
from cuarray._transfer import device_array

__all__ = ["block"]


def block(arrays):
    """An array assembled from nested lists of blocks (NumPy's block); NumPy's errors for tuples, empty lists
    and lists of mismatched depths."""
    bottom = _depths(arrays, [])
    if bottom and bottom[-1] is None:
        raise ValueError(f"List at {_where(bottom)} cannot be empty")
    depth = len(bottom)
    leaves = []
    _leaves(arrays, depth, leaves)
    ndim = max([depth] + [a.ndim for a in leaves])
    if depth * sum(a.size for a in leaves) > 2 * 512 * 512:  # Note [block's dtype]
        dtype = numpy.result_type(*(a.dtype for a in leaves))
        leaves = [a.astype(dtype, copy=False) for a in leaves]
    blocks = iter(a.reshape((1,) * (ndim - a.ndim) + a.shape) for a in leaves)
    if depth == 0:
        return next(blocks).copy()
    return _join(arrays, depth, blocks)


def _depths(arrays, index):
    """The index of a block at the bottom of `arrays` (ending in None at an empty list), with NumPy's errors
    for tuples and lists of unequal depths."""
    if isinstance(arrays, tuple):
        raise TypeError(
            f"{_where(index)} is a tuple. Only lists can be used to arrange blocks, and np.block does not "
            "allow implicit conversion from tuple to ndarray."
        )
    if type(arrays) is not list:  # NumPy's test: a list subclass is a block
        return index
    if not arrays:
        return index + [None]
    first = _depths(arrays[0], index + [0])
    for i, item in enumerate(arrays[1:], 1):
        bottom = _depths(item, index + [i])
        if len(bottom) != len(first):
            raise ValueError(
                f"List depths are mismatched. First element was at depth {len(first)}, but there is an "
                f"element at depth {len(bottom)} ({_where(bottom)})"
            )
        if bottom[-1] is None:  # an empty list is reported first
            first = bottom
    return first


def _where(index):
    return "arrays" + "".join(f"[{i}]" for i in index if i is not None)


def _leaves(arrays, depth, out):
    """The blocks of `arrays`, in order, as device arrays."""
    if depth == 0:
        out.append(device_array(arrays, "block"))
        return
    for item in arrays:
        _leaves(item, depth - 1, out)


def _join(arrays, depth, blocks):
    """The lists of `arrays` `depth` deep, each joined along axis -depth from the next of `blocks`."""
    if depth == 0:
        return next(blocks)
    return concatenate([_join(item, depth - 1, blocks) for item in arrays], axis=-depth)
