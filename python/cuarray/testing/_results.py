"""What the numpy_cuarray_* decorators compare: the pairs of values the two halves of a test returned, their
kinds, dtypes, layouts and shapes, and the tolerance a dtype gets. The values themselves are compared on the
host by the NumPy assertion each decorator names (_comparison.py)."""

import dataclasses

import numpy

__all__ = []


def _kind(x):
    return f"{type(x).__module__}.{type(x).__qualname__}"


def pairs(label, numpy_result, cuarray_result):
    """[(where, numpy value, cuarray value)]: one pair per element of a returned tuple or list, a single value
    counting as a tuple of one (so a 1-tuple against a bare value passes, as in CuPy)."""
    many = isinstance(numpy_result, (tuple, list)) or isinstance(cuarray_result, (tuple, list))
    n = numpy_result if isinstance(numpy_result, (tuple, list)) else (numpy_result,)
    c = cuarray_result if isinstance(cuarray_result, (tuple, list)) else (cuarray_result,)
    if len(n) != len(c):
        raise AssertionError(
            f"{label}: xp=numpy returned {len(n)} values, xp=cuarray returned {len(c)} values"
        )
    if not many:
        return [("the result", numpy_result, cuarray_result)]
    return [(f"result[{i}]", a, b) for i, (a, b) in enumerate(zip(n, c))]


@dataclasses.dataclass
class Pair:
    """One returned pair as arrays (or NumPy scalars) to compare: `numpy` on the host, `cuarray` as the
    cuarray half returned it; `arrays` where both halves returned arrays, whose layouts are then compared."""

    where: str
    numpy: object
    cuarray: object
    arrays: bool


def _is_sparse(x):
    return hasattr(x, "toarray") and hasattr(x, "format") and hasattr(x, "nnz")


def convert(label, where, n, c, half):
    """The pair (numpy value `n`, cuarray value `c`) as a Pair, or AssertionError where the kinds of result do
    not correspond, in CuPy's order of cases: sparse matrices (SciPy's against a sparse module's), an array
    against an array or NumPy scalar, poly1d against poly1d, NumPy scalar against NumPy scalar, any two values
    that numpy.isscalar calls scalars (Python's and NumPy's mixed). `half` is the cuarray half's
    (module, array type)."""
    xp, array_type = half
    for value, side in ((n, "xp=numpy"), (c, "xp=cuarray")):
        if value is None:
            raise AssertionError(
                f"{label}: {where} is None with {side}; the decorated test must return the values to compare"
            )
    if _is_sparse(c):
        if not _is_sparse(n):
            raise AssertionError(f"{label}: {where} is sparse with xp=cuarray but a {_kind(n)} with xp=numpy")
        if c.format != n.format:
            raise AssertionError(
                f"{label}: {where} is a {n.format} matrix with xp=numpy but {c.format} with xp=cuarray"
            )
        return Pair(where, n.toarray(), c.toarray(), False)
    if isinstance(c, array_type) and isinstance(n, (numpy.ndarray, numpy.generic)):
        return Pair(where, n, c, isinstance(n, numpy.ndarray))
    poly1d = getattr(xp, "poly1d", None)
    if isinstance(poly1d, type) and isinstance(c, poly1d) and isinstance(n, numpy.poly1d):
        if c.variable != n.variable:
            raise AssertionError(
                f"{label}: {where} is a poly1d in {n.variable!r} with xp=numpy but in {c.variable!r} with "
                f"xp=cuarray"
            )
        return Pair(where, n.coeffs, c.coeffs, False)
    if isinstance(c, numpy.generic) and isinstance(n, numpy.generic):
        return Pair(where, n, c, False)
    if numpy.isscalar(c) and numpy.isscalar(n):
        return Pair(where, numpy.asarray(n), numpy.asarray(c), False)
    hint = (
        " (a host array: the cuarray half did not compute on the GPU)" if isinstance(c, numpy.ndarray) else ""
    )
    raise AssertionError(
        f"numpy and cupy returns different type of return value\n{label}: {where} is a {_kind(n)} with "
        f"xp=numpy but a {_kind(c)} with xp=cuarray{hint}"
    )


def check_dtype(label, pair):
    n, c = pair.numpy, pair.cuarray
    if n.dtype != c.dtype:
        raise AssertionError(
            f"ndarrays of different dtypes are returned.\n{label}: {pair.where} has dtype {n.dtype} with "
            f"xp=numpy but {c.dtype} with xp=cuarray"
        )


def check_contiguity(label, pair):
    """Where NumPy's result is C (F) contiguous, cuarray's must be too (CuPy checks only that direction)."""
    n, c = pair.numpy, pair.cuarray
    for flag in ("c_contiguous", "f_contiguous"):
        if getattr(n.flags, flag) and not getattr(c.flags, flag):
            raise AssertionError(
                f"The state of {flag} flag is false.\n{label}: {pair.where} is {flag} with xp=numpy but not "
                f"with xp=cuarray (shape {n.shape}, strides {n.strides} and {tuple(c.strides)})"
            )


def check_strides(label, pair):
    n, c = pair.numpy, pair.cuarray
    if tuple(n.strides) != tuple(c.strides):
        raise AssertionError(
            f"Strides are not equal:\n{label}: {pair.where} has strides {tuple(n.strides)} with xp=numpy but "
            f"{tuple(c.strides)} with xp=cuarray"
        )


def check_shape(label, pair):
    """Note [Shapes before values]
    NumPy's assert_allclose and assert_array_equal broadcast a 0-d side, so without this check a result of
    shape (1,) or () matches the other: the keepdims or scalar-against-array mistake a test should catch.
    CuPy asserts equal shapes before it compares values; so does cuarray."""
    n, c = pair.numpy, pair.cuarray
    if tuple(n.shape) != tuple(c.shape):
        raise AssertionError(
            f"{label}: {pair.where} has shape {tuple(n.shape)} with xp=numpy but {tuple(c.shape)} with "
            f"xp=cuarray"
        )


# ---------------------------------------------------------------------------------------------------------
# Tolerances given per dtype
# ---------------------------------------------------------------------------------------------------------


def check_tolerance_keys(which, tol):
    """TypeError, when the decorator is made, for a key of a tolerance dict that names no dtype. CuPy takes
    scalar types and 'default'; cuarray also takes what numpy.dtype takes (``'float16'``, a numpy.dtype)."""
    if not isinstance(tol, dict):
        return
    for key in tol:
        if isinstance(key, str) and key == "default":
            continue
        try:
            numpy.dtype(key)
        except TypeError:
            raise TypeError(
                f"{which}={tol!r}: the keys of a tolerance dict are dtypes (numpy.float32, 'float32') or "
                f"'default', not {key!r}"
            ) from None


def tolerance(tol, dtype, which):
    """A tolerance, or the one a dict gives for `dtype` (the cuarray result's, as in CuPy): its scalar type's
    entry, else an entry of an equal dtype, else 'default'."""
    if not isinstance(tol, dict):
        return tol
    if dtype.type in tol:
        return tol[dtype.type]
    for key, value in tol.items():
        if not (isinstance(key, str) and key == "default") and numpy.dtype(key) == dtype:
            return value
    if "default" in tol:
        return tol["default"]
    raise TypeError(f"{which}={tol!r} gives no tolerance for {dtype} and has no 'default'")


# ---------------------------------------------------------------------------------------------------------
# Unsigned results (Note [Negative values cast to unsigned types])
# ---------------------------------------------------------------------------------------------------------

_UNSIGNED = tuple(numpy.dtype(c).type for c in "BHILQ")
_SIGNED_OR_FLOAT = tuple(numpy.dtype(c).type for c in "bhilqefd")


def _is_dtype_like(v):
    return isinstance(v, (numpy.dtype, str)) or (isinstance(v, type) and issubclass(v, numpy.number))


def _among(v, types):
    try:
        return any(v == t for t in types)
    except TypeError:
        return False


def needs_masks(kwargs, pairs_):
    """Note [Negative values cast to unsigned types]
    Casting a negative value to an unsigned type is undefined in C: CPUs and GPUs give different values. Where
    the test's keyword arguments hold an unsigned dtype and a signed or float one, and a result is unsigned,
    CuPy runs the GPU half again with each unsigned dtype replaced by its signed counterpart and compares only
    the elements that are not negative there. cuarray does the same (a string such as 'B' does not count, as in
    CuPy, which compares with ``==``)."""
    values = [v for v in kwargs.values() if _is_dtype_like(v)]
    return (
        any(_among(v, _UNSIGNED) for v in values)
        and any(_among(v, _SIGNED_OR_FLOAT) for v in values)
        and any(p.cuarray.dtype.kind == "u" for p in pairs_)
    )


def signed_kwargs(kwargs):
    """`kwargs` with each unsigned dtype replaced by the signed type of its size."""
    return {
        k: numpy.dtype(numpy.dtype(v).char.lower()).type if _is_dtype_like(v) and _among(v, _UNSIGNED) else v
        for k, v in kwargs.items()
    }
