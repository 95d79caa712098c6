"""Dtype decorators in CuPy's style: ``@for_all_dtypes()`` runs a test once per dtype, passed as its ``dtype``
argument as a NumPy scalar type (``numpy.dtype(d).type`` of whatever was given: ``for_dtypes('efd')`` passes
``numpy.float16``, ...). Under pytest each dtype is a test of its own with the dtype's name as its id
(``test_add[float32]``); on a ``unittest.TestCase`` method or a helper called directly, the decorator loops
over the dtypes inside one call, as CuPy's do (Note [Parametrize, else loop] in _loops.py).

The sets are CuPy's, built as CuPy builds them from the type characters ``'bhilq'`` and ``'BHILQ'``: on Linux
``'l'`` is ``numpy.int64`` and ``'q'`` is ``numpy.longlong``, two types of one size, so the signed set has five
types (id ``longlong`` for the second) and the unsigned one five.
"""

import os
import random

import numpy

from cuarray.testing._loops import parametrize_or_loop

__all__ = [
    "for_all_dtypes",
    "for_all_dtypes_combination",
    "for_complex_dtypes",
    "for_complex_dtypes_combination",
    "for_dtypes",
    "for_dtypes_combination",
    "for_float_dtypes",
    "for_float_dtypes_combination",
    "for_int_dtypes",
    "for_int_dtypes_combination",
    "for_signed_dtypes",
    "for_signed_dtypes_combination",
    "for_unsigned_dtypes",
    "for_unsigned_dtypes_combination",
]

# In CuPy's order (its _loops.py): the order only decides which dtype a loop reports first.
FLOAT = (numpy.float64, numpy.float32, numpy.float16)
SIGNED = tuple(numpy.dtype(c).type for c in "bhilq")
UNSIGNED = tuple(numpy.dtype(c).type for c in "BHILQ")
COMPLEX = (numpy.complex64, numpy.complex128)
INT = SIGNED + UNSIGNED


def scalar_type(dtype):
    """What a test receives for `dtype` (a type, a character code, a name or a numpy.dtype)."""
    return numpy.dtype(dtype).type


def type_id(t):
    """pytest's id for the scalar type `t`: its dtype's name, or the type's own name where another type of
    that name exists (``longlong``, not a second ``int64``)."""
    name = numpy.dtype(t).name
    return name if numpy.dtype(name).type is t else t.__name__


def _all(no_float16, no_bool, no_complex):
    return (
        (FLOAT[:2] if no_float16 else FLOAT)
        + INT
        + (() if no_bool else (numpy.bool_,))
        + (() if no_complex else COMPLEX)
    )


def for_dtypes(dtypes, name="dtype"):
    """Decorator: runs the test once for each of `dtypes` (types, character codes such as ``'efdFD'``, names
    or numpy.dtype objects), passing ``numpy.dtype(d).type`` as argument `name`. With no dtype at all the
    test runs zero times and passes, as in CuPy."""
    types = [scalar_type(d) for d in dtypes]
    return parametrize_or_loop((name,), [(t,) for t in types], [type_id(t) for t in types])


def for_all_dtypes(name="dtype", no_float16=False, no_bool=False, no_complex=False):
    """Decorator: runs the test for float64, float32, float16 (unless `no_float16`), the signed and unsigned
    integer types, bool (unless `no_bool`) and complex64 and complex128 (unless `no_complex`)."""
    return for_dtypes(_all(no_float16, no_bool, no_complex), name)


def for_float_dtypes(name="dtype", no_float16=False):
    """Decorator: runs the test for float64, float32 and float16 (unless `no_float16`)."""
    return for_dtypes(FLOAT[:2] if no_float16 else FLOAT, name)


def for_signed_dtypes(name="dtype"):
    """Decorator: runs the test for the signed integer types (``numpy.dtype(c).type`` for c in ``'bhilq'``)."""
    return for_dtypes(SIGNED, name)


def for_unsigned_dtypes(name="dtype"):
    """Decorator: runs the test for the unsigned integer types (``'BHILQ'``)."""
    return for_dtypes(UNSIGNED, name)


def for_int_dtypes(name="dtype", no_bool=False):
    """Decorator: runs the test for every signed and unsigned integer type and, unless `no_bool`, bool."""
    return for_dtypes(INT + (() if no_bool else (numpy.bool_,)), name)


def for_complex_dtypes(name="dtype"):
    """Decorator: runs the test for complex64 and complex128."""
    return for_dtypes(COMPLEX, name)


# ---------------------------------------------------------------------------------------------------------
# Combinations
# ---------------------------------------------------------------------------------------------------------


def _sampled(types, names):
    """Note [Combinations sampled alike in every process]
    CuPy pairs each name with the list of types followed by a shuffled copy of it, and keeps the distinct
    rows: each name sees every type, in about 2 * len(types) cases rather than the whole product. CuPy
    shuffles with Python's global random state, a new sample every run; that would give pytest-xdist's
    workers different parametrizations, which pytest refuses. Here the shuffle's seed is the types and names
    themselves: the same sample in every process and every run."""
    rng = random.Random(repr((names, [type_id(t) for t in types])))
    columns = []
    for _ in names:
        shuffled = list(types)
        rng.shuffle(shuffled)
        columns.append(list(types) + shuffled)
    return list(dict.fromkeys(zip(*columns)))  # distinct rows, first seen first


def for_dtypes_combination(types, names=("dtype",), full=None):
    """Decorator: runs the test for combinations of `types`, one type per argument of `names`. With `full`
    every combination (the product); otherwise a sample in which each name sees each type (Note
    [Combinations sampled alike in every process]). `full=None` reads ``CUPY_TEST_FULL_COMBINATION`` when
    the decorator is made: ``1`` means full."""
    types = list(dict.fromkeys(scalar_type(t) for t in types))
    names = tuple(names)
    if full is None:
        full = int(os.environ.get("CUPY_TEST_FULL_COMBINATION", "0")) != 0
    if full or len(types) == 1:
        import itertools

        cases = list(itertools.product(types, repeat=len(names)))
    else:
        cases = _sampled(types, names)
    return parametrize_or_loop(names, cases, ["-".join(type_id(t) for t in case) for case in cases])


# CuPy's default names really are ('dtyes',): a test written for CuPy that leaves names out takes `dtyes`.
def for_all_dtypes_combination(
    names=("dtyes",), no_float16=False, no_bool=False, full=None, no_complex=False
):
    """Decorator: for_dtypes_combination over the types of for_all_dtypes (same options)."""
    return for_dtypes_combination(_all(no_float16, no_bool, no_complex), names, full)


def for_signed_dtypes_combination(names=("dtype",), full=None):
    """Decorator: for_dtypes_combination over the signed integer types."""
    return for_dtypes_combination(SIGNED, names, full)


def for_unsigned_dtypes_combination(names=("dtype",), full=None):
    """Decorator: for_dtypes_combination over the unsigned integer types."""
    return for_dtypes_combination(UNSIGNED, names, full)


def for_int_dtypes_combination(names=("dtype",), no_bool=False, full=None):
    """Decorator: for_dtypes_combination over the integer types and, unless `no_bool`, bool."""
    return for_dtypes_combination(INT + (() if no_bool else (numpy.bool_,)), names, full)


def for_float_dtypes_combination(names=("dtype",), no_float16=False, full=None):
    """Decorator: for_dtypes_combination over float64, float32 and float16 (unless `no_float16`); cuarray's,
    CuPy has none."""
    return for_dtypes_combination(FLOAT[:2] if no_float16 else FLOAT, names, full)


def for_complex_dtypes_combination(names=("dtype",), full=None):
    """Decorator: for_dtypes_combination over complex64 and complex128; cuarray's, CuPy has none."""
    return for_dtypes_combination(COMPLEX, names, full)
