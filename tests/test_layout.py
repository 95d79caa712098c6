"""The memory layout of new arrays made from several operands, against NumPy (Note [Layout of new arrays] in
cpp/cuarray/shape.h): ufunc outputs (NumPy's nditer order) and the results of concatenate and the functions built
on it (np.concatenate's order). The layout is seen in `strides` and `flags`, and in whether a later ravel() or
reshape() is a view, so each case checks all three."""

import random

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same, assert_strides_match

pytestmark = pytest.mark.gpu


def _operand(rng, shape, dtype):
    """An array of `shape` (a pair: NumPy's, cuarray's) with its axes in a random memory order, every other
    element of some axes, and some axes reversed."""
    order = list(range(len(shape)))
    rng.shuffle(order)
    big_shape = [max(shape[i], 1) * rng.choice([1, 2]) for i in order]
    base = (np.arange(int(np.prod(big_shape))) % 7).astype(dtype).reshape(big_shape)
    pair = []
    for a in (base, cp.asarray(base)):
        a = a.transpose(np.argsort(order))
        a = a[tuple(slice(0, 2 * n, 2) if a.shape[i] >= 2 * n else slice(0, n) for i, n in enumerate(shape))]
        pair.append(a)
    flips = tuple(slice(None, None, rng.choice([1, -1])) for _ in shape)
    return pair[0][flips], pair[1][flips]


def _check_layout(got, want, *others):
    """`got` has want's values, dtype, strides (of its axes longer than 1) and flags, and its ravel() and
    reshape(-1) share memory with it, and with each of `others`, as want's do with theirs."""
    assert_same(got, want)
    assert_strides_match(got, want)
    assert got.flags.c_contiguous == want.flags.c_contiguous
    assert got.flags.f_contiguous == want.flags.f_contiguous
    for make in (lambda a: a.ravel(), lambda a: a.reshape(-1)):
        g, w = make(got), make(want)
        assert cp.shares_memory(g, got) == np.shares_memory(w, want)
        for gx, wx in others:
            assert cp.shares_memory(g, gx) == np.shares_memory(w, wx)


def _draws(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        ndim = rng.randint(2, 4)
        yield rng, [rng.choice([1, 2, 3, 4]) for _ in range(ndim)]


def test_a_transposed_operand_first_gives_numpys_c_order():
    # Where operands disagree NumPy's C order wins: the first operand's layout is not the output's.
    a = np.arange(12.0).reshape(3, 4)
    b = np.arange(12.0).reshape(4, 3).T
    x, y = cp.asarray(a), cp.asarray(b.T).T
    for args in ((b, a), (a, b), (b, b), (b, np.ones((3, 1)))):
        xargs = tuple(y if u is b else x if u is a else cp.asarray(u) for u in args)
        _check_layout(cp.add(*xargs), np.add(*args))
        _check_layout(xargs[0] * xargs[1], args[0] * args[1])


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float32, np.complex128])
@pytest.mark.parametrize("seed", range(4))
def test_ufunc_outputs_are_laid_out_as_numpys(dtype, seed):
    for rng, shape in _draws(25, seed):
        ops = []
        for _ in range(rng.randint(1, 3)):
            s = list(shape)
            if rng.random() < 0.35:  # broadcast along some axes
                s = [1 if rng.random() < 0.4 else n for n in s]
            if rng.random() < 0.2:  # and with fewer axes
                s = s[rng.randint(1, len(s) - 1) :]
            ops.append(_operand(rng, s, dtype))
        nps, cps = [a for a, _ in ops], [x for _, x in ops]
        if len(ops) == 1:  # one operand: laid out as it is
            want, got = np.invert(nps[0]), cp.invert(cps[0])
            if dtype != np.bool_ and dtype != np.int16:
                want, got = np.negative(nps[0]), cp.negative(cps[0])
        elif len(ops) == 2:
            want, got = np.add(*nps), cp.add(*cps)
        elif dtype == np.bool_:
            want, got = np.logical_and(*nps[:2]), cp.logical_and(*cps[:2])
        else:  # clip is a ufunc of three inputs
            want, got = np.clip(*nps), cp.clip(*cps)
        _check_layout(got, want, *((x, a) for a, x in ops))


@pytest.mark.parametrize("dtype", [np.int8, np.float64, np.complex64])
@pytest.mark.parametrize("seed", range(4))
def test_concatenated_arrays_are_laid_out_as_numpys(dtype, seed):
    for rng, shape in _draws(25, seed):
        axis = rng.randrange(len(shape))
        ops = []
        for _ in range(rng.randint(1, 3)):
            s = list(shape)
            s[axis] = rng.choice([1, 2, 3])
            ops.append(_operand(rng, s, dtype))
        want = np.concatenate([a for a, _ in ops], axis=axis)
        got = cp.concatenate([x for _, x in ops], axis=axis)
        _check_layout(got, want, *((x, a) for a, x in ops))
        want = np.stack([a for a, _ in ops[:1]] * 2, axis=axis)
        got = cp.stack([x for _, x in ops[:1]] * 2, axis=axis)
        _check_layout(got, want)


def test_joining_transposed_views_gives_numpys_f_order():
    # The fuzz's program: concatenate of transposed strided views is F-ordered in NumPy, so its ravel() is a copy.
    b = np.arange(40, dtype=np.complex128).reshape(4, 10) * (1 - 2j)
    xb = cp.asarray(b)
    a, x = b[2::-2, 1:10:2].T, xb[2::-2, 1:10:2].T
    for join in ("concatenate", "vstack", "hstack", "column_stack", "dstack", "stack"):
        _check_layout(getattr(cp, join)([x, x]), getattr(np, join)([a, a]), (x, a))
    got, want = cp.concatenate([x, x]), np.concatenate([a, a])
    assert not cp.shares_memory(got.ravel(), got) and not np.shares_memory(want.ravel(), want)
    _check_layout(got[:-1:2, ::-2].copy(), want[:-1:2, ::-2].copy())
