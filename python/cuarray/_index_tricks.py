"""NumPy's index helpers with device results: the r_ and c_ concatenators, the mgrid and ogrid grids, ix_,
the triangle, diagonal and mask index functions, and fill_diagonal."""

import math
import operator

import numpy

from cuarray import _core
from cuarray._core import ndarray
from cuarray._creation import arange, indices, linspace, ones
from cuarray._indexing import nonzero
from cuarray._joining import concatenate, tile
from cuarray._math import clip
from cuarray._scan import cumsum
from cuarray._sorting import _take, searchsorted
from cuarray._transfer import _holds_device_array, _is_device, array, asarray

__all__ = [
    "c_",
    "diag_indices",
    "diag_indices_from",
    "fill_diagonal",
    "ix_",
    "mask_indices",
    "mgrid",
    "ogrid",
    "r_",
    "tril_indices",
    "tril_indices_from",
    "triu_indices",
    "triu_indices_from",
]


_HOST = "cuarray.{}: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)"


def _device(a, name):
    if isinstance(a, numpy.ndarray):
        raise TypeError(_HOST.format(name))
    return a if isinstance(a, ndarray) else asarray(a)


def _is_complex(step):
    return isinstance(step, (complex, numpy.complexfloating))


class AxisConcatenator:
    """Translates index expressions (arrays, scalars, slices as ranges) into a concatenation along an axis;
    see r_ and c_."""

    __slots__ = ("axis", "matrix", "ndmin", "trans1d")
    _name = "r_"  # for messages

    def __init__(self, axis=0, matrix=False, ndmin=1, trans1d=-1):
        self.axis, self.matrix, self.ndmin, self.trans1d = axis, matrix, ndmin, trans1d

    def __getitem__(self, key):
        if isinstance(key, str):
            raise NotImplementedError(
                f"cuarray.{self._name}: the matrix-building string syntax is not supported (cuarray "
                "has no matrix type)"
            )
        key = key if isinstance(key, tuple) else (key,)
        axis, matrix, ndmin, trans1d = self.axis, self.matrix, self.ndmin, self.trans1d
        col = False
        objs, dtypes = [], []  # dtypes: a dtype per array, the value itself per scalar (weak in result_type)
        for k, item in enumerate(key):
            if isinstance(item, slice):
                start = 0 if item.start is None else item.start
                step = 1 if item.step is None else item.step
                if _is_complex(step):
                    obj = linspace(start, item.stop, num=int(abs(step)))
                else:
                    obj = arange(start, item.stop, step)
                if ndmin > 1:
                    obj = array(obj, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        obj = obj.swapaxes(-1, trans1d)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    matrix, col = True, item == "c"
                    continue
                if "," in item:
                    vec = item.split(",")
                    try:
                        axis, ndmin = [int(x) for x in vec[:2]]
                        if len(vec) == 3:
                            trans1d = int(vec[2])
                    except Exception as e:
                        raise ValueError(f"unknown special directive {item!r}") from e
                    continue
                try:
                    axis = int(item)
                except (ValueError, TypeError) as e:
                    raise ValueError("unknown special directive") from e
                continue
            elif type(item) in numpy.ScalarType:
                objs.append(item)
                dtypes.append(item)
                continue
            else:
                obj = _device(item, self._name)
                item_ndim = obj.ndim
                obj = array(obj, copy=None, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                    axes = list(range(ndmin))
                    obj = obj.transpose(axes[:k1] + axes[k2:] + axes[k1:k2])
            objs.append(obj)
            dtypes.append(obj.dtype)
        if dtypes:
            final = numpy.result_type(*dtypes)
            objs = [array(o, dtype=final, copy=None, ndmin=ndmin) for o in objs]
        res = concatenate(objs, axis=axis)
        if (
            matrix
        ):  # the 2-D array that NumPy's matrix would hold: 1-D results become a row ('r') or column ('c')
            if res.ndim > 2:
                raise ValueError("shape too large to be a matrix.")
            if res.ndim == 1:
                res = res.reshape(-1, 1) if col else res.reshape(1, -1)
        return res

    def __len__(self):
        return 0


class RClass(AxisConcatenator):
    """``r_[...]``: the items joined along the first axis; ``a:b:c`` is arange(a, b, c), ``a:b:nj`` linspace
    with n points; a leading string 'axis', 'axis,ndmin' or 'axis,ndmin,trans1d' changes how they are joined,
    'r' and 'c' give a 2-D row or column."""

    __slots__ = ()

    def __init__(self):
        super().__init__(0)


class CClass(AxisConcatenator):
    """``c_[...]``: r_['-1,2,0', ...], so 1-D items become columns joined along the last axis."""

    __slots__ = ()
    _name = "c_"

    def __init__(self):
        super().__init__(-1, ndmin=2, trans1d=0)


r_ = RClass()
c_ = CClass()


class nd_grid:
    """``grid[a:b:c, ...]``: coordinate arrays of the ranges, dense (mgrid) or open (ogrid); a complex step
    nj means n points from a to b inclusive."""

    __slots__ = ("sparse",)

    def __init__(self, sparse=False):
        self.sparse = sparse

    def __getitem__(self, key):
        if not isinstance(key, (tuple, list)):
            return _grid_1d(key)
        sizes, num_list, affine = [], [0], []  # affine: (step, start) that map 0, 1, 2, ... onto each range
        try:
            for kk in key:
                start = 0 if kk.start is None else kk.start
                step = 1 if kk.step is None else kk.step
                if _is_complex(step):
                    size = int(abs(step))
                    num_list += [start, kk.stop, abs(step)]
                    step = (kk.stop - start) / float(size - 1) if size != 1 else 1
                else:
                    size = math.ceil((kk.stop - start) / step)
                    num_list += [start, kk.stop, step]
                sizes.append(size)
                affine.append((step, start))
            typ = numpy.result_type(*num_list)
        except (IndexError, TypeError):
            # NumPy's falls back to its one-slice path on these, which reads key.step: an AttributeError for
            # the tuple (an open stop, `mgrid[0:, 0:2]`, is one of these).
            return _grid_1d(key)
        n = len(sizes)
        if self.sparse:
            # NumPy's: each range's values (broadcast with array bounds), given a new axis at every other place.
            grids = [arange(s, dtype=typ) * step + start for s, (step, start) in zip(sizes, affine)]
            return tuple(
                g[tuple(slice(None) if i == k else None for i in range(n))] for k, g in enumerate(grids)
            )
        nn = indices(sizes, typ)
        for k, (step, start) in enumerate(affine):
            nn[k] = nn[k] * step + start
        return nn


def _grid_1d(key):
    step = key.step  # first, as NumPy's reads it
    start = 0 if key.start is None else key.start
    if not _is_complex(step):
        return arange(start, key.stop, step)
    length = int(abs(step))
    typ = numpy.result_type(start, key.stop, abs(step))
    scale = (key.stop - start) / float(length - 1) if length != 1 else 1
    return arange(0, length, 1, dtype=typ) * scale + start


class MGridClass(nd_grid):
    """``mgrid[...]``: one array of shape (ndim, *sizes) holding the dense coordinate grids."""

    __slots__ = ()

    def __init__(self):
        super().__init__(sparse=False)


class OGridClass(nd_grid):
    """``ogrid[...]``: the open coordinate grids, each of length 1 on all axes but its own."""

    __slots__ = ()

    def __init__(self):
        super().__init__(sparse=True)


mgrid = MGridClass()
ogrid = OGridClass()


def ix_(*args):
    """An open mesh of the 1-D index sequences (boolean ones as their nonzero indices), for a[ix_(i, j)]."""
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        if isinstance(new, numpy.ndarray):
            raise TypeError(_HOST.format("ix_"))
        if not isinstance(new, ndarray):
            host = numpy.asarray(new)
            new = asarray(host.astype(numpy.intp) if host.size == 0 else host)  # [] indexes nothing
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == numpy.bool_:
            (new,) = nonzero(new)
        out.append(new.reshape((1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def _clipped_sum(n, shift, m):
    """sum(clip(i + shift, 0, m) for i in range(n)), for m >= 0, in closed form."""
    lo = min(max(-shift, 0), n)  # first i with i + shift >= 0
    hi = min(max(m - shift, 0), n)  # first i with i + shift >= m
    return (hi - lo) * (lo + hi - 1) // 2 + shift * (hi - lo) + (n - hi) * m


def _tri_indices(n, k, m, lower):
    """(rows, cols) of the (n, m) triangle in C order. Row i holds the columns [0, e_i) (lower) or [e_i, m)
    (upper); output j lies in the row whose cumulative count first exceeds j. The total is known on the host,
    so nothing is read back."""
    try:
        n, k, m = operator.index(n), operator.index(k), None if m is None else operator.index(m)
    except TypeError:
        # NumPy's np.tri takes floats (through arange, with its rounding); so does this, on the host. Anything
        # else raises NumPy's error.
        found = (numpy.tril_indices if lower else numpy.triu_indices)(n, k, m)
        return tuple(asarray(x) for x in found)
    n = max(0, n)
    m = n if m is None else max(0, m)
    shift = k + lower
    total = _clipped_sum(n, shift, m)
    if not lower:
        total = n * m - total
    if total == 0:
        return arange(0), arange(0)
    edge = clip(arange(shift, n + shift), 0, m)
    ends = cumsum(edge if lower else m - edge)
    j = arange(total)
    rows = searchsorted(ends, j, side="right")
    # column = row's end column - (row's cumulative end - j)
    cols = j - _take(ends, rows) + (_take(edge, rows) if lower else m)
    return rows, cols


def tril_indices(n, k=0, m=None):
    """The row and column indices of the lower triangle (on and below diagonal k) of an (n, m) array."""
    return _tri_indices(n, k, m, True)


def triu_indices(n, k=0, m=None):
    """The row and column indices of the upper triangle (on and above diagonal k) of an (n, m) array."""
    return _tri_indices(n, k, m, False)


def tril_indices_from(arr, k=0):
    """The indices of the lower triangle of the 2-D `arr` (up to the `k`-th diagonal), as device arrays."""
    if arr.ndim != 2:  # only the shape is read: any array, and NumPy's AttributeError for anything else
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr, k=0):
    """The indices of the upper triangle of the 2-D `arr` (from the `k`-th diagonal), as device arrays."""
    if arr.ndim != 2:  # only the shape is read: any array, and NumPy's AttributeError for anything else
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def diag_indices(n, ndim=2):
    """The indices (i, i, ..., i) of the main diagonal of an array of shape (n,) * ndim: one array, ndim times."""
    return (arange(n),) * ndim


def diag_indices_from(arr):
    """The indices of the main diagonal of `arr` (all axes of one length), as `diag_indices` gives them."""
    arr = _device(arr, "diag_indices_from")
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def mask_indices(n, mask_func, k=0):
    """The indices where mask_func(ones((n, n)), k) is nonzero (one readback: the count depends on mask_func)."""
    return nonzero(mask_func(ones((n, n), int), k) != 0)


def fill_diagonal(a, val, wrap=False):
    """Writes `val` on the main diagonal of `a` (ndim >= 2, all axes equal above 2-D) in place; an array `val`
    is flattened and repeated as needed. wrap=True restarts the diagonal of a tall 2-D `a` every N + 1 rows."""
    if not isinstance(a, ndarray):
        raise TypeError(
            _HOST.format("fill_diagonal")
            if isinstance(a, numpy.ndarray)
            else f"cuarray.fill_diagonal writes in place into a cuarray.ndarray, got {type(a).__name__}"
        )
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim > 2:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        diag = a
        while diag.ndim > 1:
            diag = diag.diagonal(0, 0, 1)
        targets = [diag]
    elif wrap and a.shape[0] > a.shape[1]:
        # Whole blocks of N + 1 rows, their first N rows' diagonals, then the rest's diagonal (a view each).
        period = a.shape[1] + 1
        blocks = a.shape[0] // period
        head = a[: blocks * period].reshape(blocks, period, a.shape[1], copy=False)
        targets = [head[:, :-1].diagonal(0, 1, 2), a[blocks * period :].diagonal()]
    else:
        targets = [a.diagonal()]
    if isinstance(val, numpy.ndarray):
        raise TypeError(_HOST.format("fill_diagonal"))
    count = sum(t.size for t in targets)
    if _is_device(val) or (isinstance(val, (list, tuple)) and _holds_device_array(val)):
        # A device array is cast unsafely, as NumPy's flat assignment casts an array.
        values = asarray(val).ravel()
        if values.size == 0 or count == 0:
            return
        if values.size < count:
            values = tile(values, -(-count // values.size))
    else:
        # Note [fill_diagonal's host values]
        # NumPy's a.flat[...] = val converts val as np.asarray(val, dtype=a.dtype) does: a sequence element by
        # element (300 into uint8 is an OverflowError, NaN into int a ValueError, a complex into float a
        # TypeError), and a NumPy scalar as an array (np.float32(inf) into int64 is INT64_MIN, with NumPy's
        # RuntimeWarning), which item assignment would refuse. That conversion runs here, on the host; the
        # values, already of a's dtype, are uploaded (a fill for one value).
        values = numpy.asarray(val, dtype=a.dtype)
        if values.ndim == 0:
            for t in targets:
                _core._assign(t, values)
            return
        values = values.ravel()
        if values.size == 0 or count == 0:
            return
        if values.size < count:
            values = numpy.resize(values, count)  # repeated cyclically, as tile
    start = 0
    for t in targets:
        _core._assign(t, values[start : start + t.size].reshape(t.shape))
        start += t.size
