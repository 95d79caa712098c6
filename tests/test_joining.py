"""Joining, splitting and rearranging against NumPy."""

import numpy as np
import pytest
from conftest import assert_same, make_data

import cuarray as cp

pytestmark = pytest.mark.gpu


def _pair(shape, dtype="float32", seed=0):
    a = make_data(shape, dtype, seed=seed)
    return a, cp.asarray(a)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_concatenate(axis):
    a, x = _pair((2, 3), seed=1)
    b, y = _pair((2, 3), "int16", seed=2)
    assert_same(cp.concatenate([x, y, x], axis=axis), np.concatenate([a, b, a], axis=axis))


def test_concatenate_errors_like_numpy():
    _, x = _pair((2, 3))
    _, y = _pair((2, 4))
    with pytest.raises(ValueError, match="along dimension 1"):
        cp.concatenate([x, y])
    with pytest.raises(ValueError, match="zero-dimensional"):
        cp.concatenate([cp.ones(()), cp.ones(())])
    with pytest.raises(np.exceptions.AxisError):
        cp.concatenate([x, x], axis=2)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.concatenate([x, np.ones((2, 3))])


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_stack(axis):
    a, x = _pair((2, 3), seed=1)
    b, y = _pair((2, 3), seed=2)
    assert_same(cp.stack([x, y], axis=axis), np.stack([a, b], axis=axis))


@pytest.mark.parametrize("name", ["vstack", "hstack", "dstack", "column_stack"])
@pytest.mark.parametrize("shape", [(3,), (2, 3)])
def test_stack_family(name, shape):
    a, x = _pair(shape, seed=1)
    b, y = _pair(shape, seed=2)
    assert_same(getattr(cp, name)((x, y)), getattr(np, name)((a, b)))


@pytest.mark.parametrize("name", ["atleast_1d", "atleast_2d", "atleast_3d"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_atleast(name, shape):
    a, x = _pair(shape)
    assert_same(getattr(cp, name)(x), getattr(np, name)(a))


@pytest.mark.parametrize("sections", [3, [1, 4]])
def test_split(sections):
    a, x = _pair((6, 2))
    for got, want in zip(cp.array_split(x, sections), np.array_split(a, sections)):
        assert_same(got, want)
    for got, want in zip(cp.split(x, sections), np.split(a, sections)):
        assert_same(got, want)
    with pytest.raises(ValueError):
        cp.split(x, 4)


def test_flips_and_rotations():
    a, x = _pair((3, 4, 2))
    assert_same(cp.flip(x), np.flip(a))
    assert_same(cp.flip(x, 1), np.flip(a, 1))
    assert_same(cp.fliplr(x), np.fliplr(a))
    assert_same(cp.flipud(x), np.flipud(a))
    for k in range(-1, 5):
        assert_same(cp.rot90(x, k), np.rot90(a, k))


@pytest.mark.parametrize("shift,axis", [(2, None), (-1, 0), (3, 1), ((1, 2), (0, 1))])
def test_roll(shift, axis):
    a, x = _pair((3, 4))
    assert_same(cp.roll(x, shift, axis), np.roll(a, shift, axis))


@pytest.mark.parametrize("reps", [2, (2, 3), (2, 1, 2)])
def test_tile(reps):
    a, x = _pair((2, 3))
    assert_same(cp.tile(x, reps), np.tile(a, reps))


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_repeat(axis):
    a, x = _pair((2, 3))
    assert_same(cp.repeat(x, 3, axis), np.repeat(a, 3, axis))


@pytest.mark.parametrize("k", [-1, 0, 2])
def test_diag_tril_triu(k):
    v, y = _pair((4,))
    assert_same(cp.diag(y, k), np.diag(v, k))
    a, x = _pair((2, 4, 5))
    assert_same(cp.diag(x[0], k), np.diag(a[0], k))
    assert_same(cp.tril(x, k), np.tril(a, k))
    assert_same(cp.triu(x, k), np.triu(a, k))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid(indexing, sparse):
    a, x = _pair((3,))
    b, y = _pair((4,), seed=1)
    for got, want in zip(cp.meshgrid(x, y, indexing=indexing, sparse=sparse),
                         np.meshgrid(a, b, indexing=indexing, sparse=sparse)):
        assert_same(got, want)


def test_indices():
    assert_same(cp.indices((2, 3)), np.indices((2, 3)))
    for got, want in zip(cp.indices((2, 3), sparse=True), np.indices((2, 3), sparse=True)):
        assert_same(got, want)
