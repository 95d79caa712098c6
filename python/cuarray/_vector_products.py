"""NumPy 2's generalized ufuncs of vectors: vecdot (n),(n)->(), matvec (m,n),(n)->(m) and vecmat
(n),(n,m)->(m), with their gufunc keywords (out, dtype, signature, casting, order, axes, axis, keepdims).

Note [Vector gufuncs]
NumPy's own ufunc objects decide the types: `numpy.<name>.resolve_dtypes` takes the operands' dtypes, `out`'s,
`dtype=`/`signature=` and `casting`, and returns the loop or raises NumPy's UFuncTypeError with NumPy's
message, so the loop table and the casting rules are not restated here. The operands' core axes (the last ones,
or those axes=/axis= name) are moved to the end, the outer axes broadcast, and the product is taken in the loop
type: vecdot as a sum of conj(x1) * x2 (one multiply and one reduction kernel; float16 in float32, as NumPy's
loop), matvec and vecmat as matmul of
a vector made a one-column or one-row matrix (cuBLAS for floats). The result's core axis is then moved where
axes= puts it, and written into `out` if one is given. Only vecdot and vecmat conjugate their first operand, as
NumPy's do.
"""

import numpy

from cuarray import _reduction
from cuarray import _ufuncs as _u
from cuarray._core import matmul, ndarray
from cuarray._manipulation import copyto, moveaxis
from cuarray._products import _core_axes
from cuarray._resolve_dtypes import resolve_dtypes
from cuarray._transfer import asarray
from cuarray._transfer import device_array as _array

__all__ = ["matvec", "vecdot", "vecmat"]

_CORES = {"vecdot": ((1, 1), 0), "matvec": ((2, 1), 1), "vecmat": ((1, 2), 1)}  # inputs' and output's


def vecdot(
    x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True, signature=None,
    axes=None, axis=None, keepdims=False,
):  # fmt: skip
    """Dot products of the vectors along the last axis (or `axis`/`axes`), conjugating x1, over broadcast
    stacks: NumPy's vecdot gufunc (Note [Vector gufuncs])."""
    return _call("vecdot", x1, x2, out, casting, order, dtype, signature, axes, axis, keepdims)


def matvec(
    x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True, signature=None,
    axes=None, axis=None, keepdims=False,
):  # fmt: skip
    """Products of matrices x1 and vectors x2 over broadcast stacks: NumPy's matvec gufunc
    (Note [Vector gufuncs])."""
    return _call("matvec", x1, x2, out, casting, order, dtype, signature, axes, axis, keepdims)


def vecmat(
    x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True, signature=None,
    axes=None, axis=None, keepdims=False,
):  # fmt: skip
    """Products of conjugated vectors x1 and matrices x2 over broadcast stacks: NumPy's vecmat gufunc
    (Note [Vector gufuncs])."""
    return _call("vecmat", x1, x2, out, casting, order, dtype, signature, axes, axis, keepdims)


def _call(name, x1, x2, out, casting, order, dtype, signature, axes, axis, keepdims):
    ufunc = getattr(numpy, name)
    (c1, c2), c_out = _CORES[name]
    if order not in ("K", "A", "C", "F", None):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    out = _one_out(out)
    if dtype is not None:
        if signature is not None:
            raise TypeError("cannot specify both 'signature' and 'dtype'")
        signature = (None, None, dtype)
    options = {"casting": casting} if signature is None else {"casting": casting, "signature": signature}
    # A Python number is weakly typed, as in NumPy's ufuncs: -1 against uint8 is NumPy's OverflowError
    weak = [type(x) in (int, float, complex) for x in (x1, x2)]
    x1, x2 = (x if w else _array(x, name) for x, w in zip((x1, x2), weak))
    types = [type(x) if w else x.dtype for x, w in zip((x1, x2), weak)]
    t = resolve_dtypes(ufunc, (*types, None if out is None else out.dtype), **options)[2]
    x1, x2 = (asarray(numpy.asarray(x, t)) if w else x for x, w in zip((x1, x2), weak))
    for i, (x, c) in enumerate(((x1, c1), (x2, c2))):
        if x.ndim < c:
            raise ValueError(
                f"{name}: Input operand {i} does not have enough dimensions (has {x.ndim}, gufunc core with "
                f"signature {ufunc.signature} requires {c})"
            )
    kept = c_out + bool(keepdims)  # the output's core axes (keepdims gives vecdot one of length 1)
    axes = _axes(name, ufunc.signature, axes, axis, keepdims, c2, c_out)
    a = moveaxis(x1, _core_axes(axes[0], c1, x1.ndim, 0, name), list(range(-c1, 0))) if axes else x1
    b = moveaxis(x2, _core_axes(axes[1], c2, x2.ndim, 1, name), list(range(-c2, 0))) if axes else x2
    n_b = b.shape[-1] if name != "vecmat" else b.shape[-2]
    if a.shape[-1] != n_b:
        raise ValueError(
            f"{name}: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
            f"{ufunc.signature} (size {n_b} is different from {a.shape[-1]})"
        )
    outer = numpy.broadcast_shapes(a.shape[: a.ndim - c1], b.shape[: b.ndim - c2])
    a, b = a.astype(t, copy=False), b.astype(t, copy=False)
    if name != "matvec" and t.kind == "c":
        a = _u.conjugate(a)
    if name == "vecdot":
        # NumPy's float16 loop multiplies and sums in float32, rounding once at the end
        wide = numpy.dtype(numpy.float32) if t == numpy.float16 else t
        r = _reduction.sum(_u.multiply(a, b, dtype=wide), -1, wide, keepdims=bool(keepdims)).astype(
            t, copy=False
        )
    elif name == "matvec":
        r = matmul(a, b[..., None])[..., 0]
    else:
        r = matmul(a[..., None, :], b)[..., 0, :]
    # r: the outer axes, then the output's core axis (if any: `kept`) last
    three = bool(axes) and len(axes) > 2
    if out is not None:
        # out's core axis moved last (where axes= puts it in out); its outer axes take the result broadcast,
        # as a ufunc's do, and its core axis must match
        view = out
        place = _core_axes(axes[2], kept, out.ndim, 2, name) if three else None
        if place:
            view = moveaxis(out, place[0], -1)
        n_outer = view.ndim - kept
        fits = n_outer >= len(outer) and (not kept or view.shape[-1] == r.shape[-1])
        if not fits or numpy.broadcast_shapes(outer, view.shape[:n_outer]) != view.shape[:n_outer]:
            raise ValueError(f"{name}: out has shape {out.shape}, where the result has shape {r.shape}")
        copyto(view, r, casting="unsafe")  # resolve_dtypes checked the cast under `casting`
        return out
    if three:
        place = _core_axes(axes[2], kept, len(outer) + kept, 2, name)
        if kept:
            r = moveaxis(r, -1, place[0])
    if order in ("C", "F", "A"):  # 'A': F when every input is F-contiguous, as NumPy's
        f = order == "F" or (order == "A" and all(x.flags.f_contiguous for x in (x1, x2)))
        r = r.astype(t, order="F" if f else "C", copy=False)
    return r


def _one_out(out):
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        (out,) = out
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("return arrays must be of ArrayType")
    return out


def _axes(name, signature, axes, axis, keepdims, c2, c_out):
    """axes= as NumPy's gufuncs read it (axis= written as axes), or None for the last axes."""
    if keepdims and name != "vecdot":
        raise TypeError(
            f"{name} does not support keepdims: its signature {signature} requires input 1 to have {c2} core "
            "dimensions, but keepdims can only be used when all inputs have the same number of core "
            "dimensions and all outputs have no core dimensions."
        )
    if axis is not None:
        if axes is not None:
            raise TypeError("cannot specify both 'axis' and 'axes'")
        if name != "vecdot":
            raise TypeError(
                f"{name}: axis can only be used with a single shared core dimension, not with the 2 distinct "
                f"ones implied by signature {signature}."
            )
        return [axis, axis] + ([axis] if keepdims else [])
    if axes is None:
        return None
    if not isinstance(axes, list):
        raise TypeError("axes should be a list.")
    if len(axes) != 3 and not (len(axes) == 2 and c_out == 0):
        raise ValueError(
            "axes should be a list with an entry for all 3 inputs and outputs; entries for outputs can only "
            "be omitted if none of them has core axes."
        )
    if len(axes) == 2 and keepdims:
        return axes + [-1]
    return axes
