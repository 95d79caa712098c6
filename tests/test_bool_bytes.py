"""Bool arrays whose bytes are not 0 or 1 (a view of int8 data as bool): every nonzero byte is True, as in NumPy
(Note [Reading bools] in cpp/cuarray/kernels/types.cuh). Before, `a + b` of such a view read bytes, and casts
gave the byte's value."""

import operator

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing

gpu = pytest.mark.gpu

BYTES = [[3, 1, 4, 0], [-1, -5, -9, 0], [2, 0, -128, 127]]


def bool_view(xp, order="C"):
    """A 3x4 bool view of int8 bytes, none of them 1 except one, in C or F order or transposed."""
    b = xp.asarray(np.array(BYTES, np.int8, order="F" if order == "F" else "C")).view(bool)
    return b.T if order == "T" else b


LAYOUTS = ["C", "F", "T"]


@gpu
@pytest.mark.parametrize("order", LAYOUTS)
@pytest.mark.parametrize("op", [operator.add, operator.mul, operator.and_, operator.or_, operator.xor])
@testing.numpy_cuarray_array_equal()
def test_bool_bool_operators(xp, op, order):
    b = bool_view(xp, order)
    return op(b, xp.ones_like(b)), op(b, b), op(b, b[::-1])


@gpu
@pytest.mark.parametrize("order", LAYOUTS)
@testing.for_all_dtypes(no_bool=True)
@testing.numpy_cuarray_array_equal()
def test_mixed_with_numbers_reads_true_as_one(xp, dtype, order):
    b = bool_view(xp, order)
    a = xp.arange(b.size, dtype=dtype).reshape(b.shape)
    return a + b, b * a, a - b


@gpu
@pytest.mark.parametrize("order", LAYOUTS)
@testing.for_all_dtypes(no_bool=True)
@testing.numpy_cuarray_array_equal()
def test_astype_gives_zeros_and_ones(xp, dtype, order):
    b = bool_view(xp, order)
    return b.astype(dtype), b.astype(dtype, order="C"), b.astype(dtype, order="F")


@gpu
@pytest.mark.parametrize("order", LAYOUTS)
@testing.numpy_cuarray_array_equal()
def test_logic_and_comparisons(xp, order):
    b = bool_view(xp, order)
    return (
        xp.logical_not(b),
        ~b,
        xp.logical_and(b, b[::-1]),
        b == xp.ones_like(b),
        b != True,
        xp.where(b, 10, 20),
    )


@gpu
@pytest.mark.parametrize("order", LAYOUTS)
@testing.numpy_cuarray_array_equal()
def test_reductions_count_true(xp, order):
    b = bool_view(xp, order)
    return (
        b.sum(),
        b.sum(axis=0),
        b.sum(axis=1),
        xp.count_nonzero(b),
        b.all(axis=1),
        b.any(axis=0),
        b.mean(axis=1),
        xp.cumsum(b),
    )


@gpu
def test_boolean_mask_of_a_view_selects_every_nonzero_byte():
    host = np.array(BYTES, np.int8).view(bool)
    x = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(cp.asarray(x)[bool_view(cp)].get(), x[host])
