"""Structured and void arrays: fields, casts and comparisons, built from views of the fields.

The core stores these arrays and moves their bytes (Note [Void storage] in cpp/cuarray/dtype.h); everything that
reads values goes through a field, which is an array of an ordinary type: `a['x']` is a strided view of the
field's bytes, a cast to another structured type assigns field by field in order (NumPy's rule), and `==` and
`!=` compare field by field and combine the results.
"""

import operator

import numpy

from cuarray import _core

__all__ = ["make_aligned_dtype"]


def _is_field_key(key):
    """Whether `key` names fields: a str, or a non-empty list of them (NumPy's multi-field index)."""
    return isinstance(key, str) or (
        isinstance(key, list) and len(key) > 0 and all(isinstance(k, str) for k in key)
    )


def _locate(a, key):
    """(offset, dtype) of the field `key` (a str) of a structured array, with NumPy's errors."""
    dt = a.dtype
    if dt.names is None:
        raise IndexError(
            "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays "
            "are valid indices"
        )
    try:
        fdt, offset = dt.fields[key][:2]
    except KeyError:
        raise ValueError(f"no field of name {key}") from None
    if fdt.subdtype is not None:
        raise ValueError(
            f"cuarray does not support accessing nested subarrays (field {key!r} is {fdt}); CuPy does not yet "
            "support accessing nested subarrays either"
        )
    return offset, fdt


def field(a, key):
    """a[key] for a field name or a list of them: a view, as in NumPy (ValueError where the field is not aligned
    for the GPU; see Note [Packed fields])."""
    if isinstance(key, list) and a.dtype.names is not None:
        # NumPy's multi-field view: the same itemsize, the named fields at their offsets (and in that order).
        view_dtype = numpy.empty(0, a.dtype)[key].dtype
        return a._field_view(0, view_dtype)
    return a._field_view(*_locate(a, key))


# Note [Packed fields]
# ~~~~~~~~~~~~~~~~~~~~
# A packed structured type ('f8,i2', itemsize 10) puts fields where the GPU cannot load them: a view of such a
# field is refused (a misaligned load faults). The values can still be moved: the field's bytes are copied, in
# units that every address and stride involved allows (bytes at worst, always aligned), to or from an aligned
# array of the field's type, and the value work (casts, comparisons) is done there. Only the internal reads and
# writes below do this; `a['x']` stays a view or an error, since a copy there would silently drop writes to it.


def _is_aligned(a, offset, fdt):
    """Whether the view of the field at `offset` of a's elements, of type fdt, meets the GPU's alignment."""
    if fdt.kind == "V" or a.size == 0:
        return True
    n = fdt.itemsize
    return (a._ptr + offset) % n == 0 and all(m <= 1 or s % n == 0 for m, s in zip(a.shape, a.strides))


def _unit(size, *places):
    """The widest unsigned type whose itemsize divides `size` and, for each (array, offset) in places, the address
    of that byte of the elements and the array's strides."""
    for unit, t in ((8, "u8"), (4, "u4"), (2, "u2")):
        if size % unit == 0 and all(
            a.size == 0 or ((a._ptr + off) % unit == 0 and all(s % unit == 0 for s in a.strides))
            for a, off in places
        ):
            return unit, t
    return 1, "u1"


def _copy_bytes(dst, dst_offset, src, src_offset, size):
    """The bytes [dst_offset, dst_offset + size) of dst's elements = those at src_offset of src's (same shape)."""
    unit, t = _unit(size, (dst, dst_offset), (src, src_offset))
    for k in range(0, size, unit):
        dst._field_view(dst_offset + k, t)[...] = src._field_view(src_offset + k, t)


def _holder(shape, fdt):
    """An aligned array of a one-field structured type: its field a value array, its bytes at hand."""
    return _core.empty(shape, numpy.dtype([("v", fdt)]), "C")


def _read(a, key):
    """The values of field `key` (a str) of a: the view where it is aligned, else an aligned copy (Note [Packed
    fields]); only read."""
    offset, fdt = _locate(a, key)
    if _is_aligned(a, offset, fdt):
        return a._field_view(offset, fdt)
    h = _holder(a.shape, fdt)
    _copy_bytes(h, 0, a, offset, fdt.itemsize)
    return h._field_view(0, fdt)


def _write(a, key, value):
    """a[key][...] = value for a field name (a str), through an aligned array where the field is not aligned (Note
    [Packed fields])."""
    offset, fdt = _locate(a, key)
    if _is_aligned(a, offset, fdt):
        a._field_view(offset, fdt)[...] = value
        return
    h = _holder(a.shape, fdt)
    h._field_view(0, fdt)[...] = value
    _copy_bytes(a, offset, h, 0, fdt.itemsize)


def set_field(a, key, value):
    """a[key] = value for a field name or a list of them."""
    if isinstance(key, str):
        _write(a, key, value)
        return
    view = field(a, key)
    view[...] = value


def assign(dst, value):
    """dst[...] = value where dst is structured or void and value a device array of another type: field by field
    in order between structured types (NumPy's cast), every field from an unstructured value."""
    dt, src_dt = dst.dtype, value.dtype
    if dt.names is None:
        if src_dt.names is None and src_dt.kind == "V" and src_dt.itemsize == dt.itemsize:
            _core._copyto(dst, value._field_view(0, dt))
            return
        raise TypeError(
            f"cuarray cannot cast {src_dt} to the unstructured void type {dt} on the device; cast with NumPy "
            "(cuarray.asarray(x.get().astype(...)))"
        )
    if src_dt.names is None:
        if src_dt.kind == "V":
            raise TypeError(f"cannot cast the unstructured void type {src_dt} to the structured type {dt}")
        for name in dt.names:  # NumPy: a plain value goes to every field
            _write(dst, name, value)
        return
    if len(src_dt.names) != len(dt.names):
        raise ValueError(
            f"structured types of {len(src_dt.names)} and {len(dt.names)} fields do not cast: NumPy casts "
            "structured types field by field, in order"
        )
    # Through a copy where the two share memory, so that no field is read after it was written.
    if _overlap(dst, value):
        value = value.copy()
    for dst_name, src_name in zip(dt.names, src_dt.names):
        _write(dst, dst_name, _read(value, src_name))


def _extent(x):
    """The bytes [lo, hi) that x's elements span."""
    lo = hi = x._ptr
    for n, step in zip(x.shape, x.strides):
        if n == 0:
            return lo, lo
        if step < 0:
            lo += (n - 1) * step
        else:
            hi += (n - 1) * step
    return lo, hi + x.dtype.itemsize


def _overlap(a, b):
    (a_lo, a_hi), (b_lo, b_hi) = _extent(a), _extent(b)
    return a_lo < b_hi and b_lo < a_hi


def astype(a, dtype, order, casting):
    """a.astype(dtype) where a or dtype is structured or void (equal types copy bytes in the bindings)."""
    dtype = numpy.dtype(dtype)
    if not numpy.can_cast(a.dtype, dtype, casting):
        raise TypeError(
            f"Cannot cast array data from {a.dtype!r} to {dtype!r} according to the rule {casting!r}"
        )
    if a.dtype.kind == "V" and dtype.kind != "V":
        if a.dtype.names is not None and len(a.dtype.names) == 1:
            return _read(a, a.dtype.names[0]).astype(dtype, order=order)
        raise TypeError(
            f"cuarray cannot cast {a.dtype} to {dtype}: NumPy casts only a structured type of one field to "
            "a plain type"
        )
    out = _core._empty_like(a, dtype) if order in ("K", "A") else _core.empty(a.shape, dtype, order)
    assign(out, a)
    return out


def _leaves(dt, prefix=()):
    """The paths of the non-structured fields of `dt`, in order."""
    if dt.names is None:
        return [prefix]
    paths = []
    for name in dt.names:
        fdt = dt.fields[name][0]
        if fdt.subdtype is not None:
            raise ValueError(
                "cuarray does not support comparing structured arrays whose fields have subarray dtypes"
            )
        paths.extend(_leaves(fdt, (*prefix, name)))
    return paths


# NumPy's messages for void types it does not compare, by how many of the two are unstructured.
_INCOMPARABLE = (
    (
        "Cannot compare structured arrays unless they have a common dtype.  I.e. `np.result_type(arr1, arr2)` "
        "must be defined."
    ),
    "Cannot compare structured with unstructured void arrays.",
    (
        "cannot compare unstructured voids of different length. Use bytes to compare. (This may return array of "
        "False in the future.)"
    ),
)


def compare(a, b, not_equal):
    """a == b (a != b) where a is structured or void: NumPy's rules, field by field."""
    from cuarray import _creation, _ufuncs
    from cuarray._transfer import asarray

    ndarray = _core.ndarray
    if not isinstance(b, ndarray):
        if isinstance(b, (numpy.ndarray, numpy.void, list, tuple)):
            b = asarray(numpy.asarray(b, dtype=a.dtype if not isinstance(b, numpy.ndarray) else None))
        else:
            return NotImplemented
    if b.dtype.kind != "V":
        raise TypeError(
            f"cuarray cannot compare {a.dtype} with {b.dtype}: compare structured types with each other"
        )
    # NumPy's plain TypeError (not result_type's DTypePromotionError) for types it does not compare
    try:
        numpy.result_type(a.dtype, b.dtype)
    except TypeError as e:
        raise TypeError(_INCOMPARABLE[(a.dtype.names is None) + (b.dtype.names is None)]) from e
    combine = _ufuncs.logical_or if not_equal else _ufuncs.logical_and
    op = operator.ne if not_equal else operator.eq
    if a.dtype.names is None or b.dtype.names is None:
        if a.dtype.names is not None or b.dtype.names is not None or a.dtype.itemsize != b.dtype.itemsize:
            raise TypeError(f"cuarray cannot compare {a.dtype} with {b.dtype}")
        shape = numpy.broadcast_shapes(a.shape, b.shape)
        unit, t = _unit(a.dtype.itemsize, (a, 0), (b, 0))
        pairs = [(a._field_view(k, t), b._field_view(k, t)) for k in range(0, a.dtype.itemsize, unit)]
    else:
        left, right = _leaves(a.dtype), _leaves(b.dtype)
        if len(left) != len(right):
            raise TypeError(f"cuarray cannot compare {a.dtype} with {b.dtype}: the fields differ")
        shape = numpy.broadcast_shapes(a.shape, b.shape)
        pairs = [(_path(a, p), _path(b, q)) for p, q in zip(left, right)]
    result = None
    for x, y in pairs:
        r = op(x, y)
        result = r if result is None else combine(result, r)
    if result is None:  # no fields: NumPy's answer for empty structures
        return _creation.full(shape, not not_equal, dtype=bool)
    return result


def _path(a, path):
    """The values of the (nested) field at `path`, only read."""
    for name in path:
        a = _read(a, name)
    return a


def _alignment(dt):
    """The alignment a GPU needs for `dt`: a field's itemsize (complex too), a structure's largest."""
    if dt.subdtype is not None:
        return _alignment(dt.subdtype[0])
    if dt.names is not None:
        return max((_alignment(dt.fields[n][0]) for n in dt.names), default=1)
    if dt.kind == "V":
        return 1
    return dt.itemsize


def make_aligned_dtype(dtype):
    """`dtype` (a structured type) with every field at an offset its GPU alignment divides and the itemsize padded
    to the largest alignment, as CuPy's make_aligned_dtype: complex types align to their whole itemsize (16 for
    complex128, where the CPU aligns 8)."""
    dtype = numpy.dtype(dtype)
    if dtype.names is None:
        raise ValueError(f"make_aligned_dtype only supports structured dtypes, got {dtype}")
    names, formats, offsets, offset, align = [], [], [], 0, 1
    for name in dtype.names:
        fdt = dtype.fields[name][0]
        if fdt.subdtype is not None:
            base, shape = fdt.subdtype
            if base.names is not None:
                base = make_aligned_dtype(base)
            fdt = numpy.dtype((base, shape))
        elif fdt.names is not None:
            fdt = make_aligned_dtype(fdt)
        a = _alignment(fdt)
        offset = -(-offset // a) * a
        names.append(name)
        formats.append(fdt)
        offsets.append(offset)
        offset += fdt.itemsize
        align = max(align, a)
    itemsize = -(-offset // align) * align
    return numpy.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": itemsize})
