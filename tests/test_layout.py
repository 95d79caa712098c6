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
            name = "invert" if dtype in (np.bool_, np.int16) else "negative"
            want, got = getattr(np, name)(nps[0]), getattr(cp, name)(cps[0])
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


_SINGLE = {
    "c": lambda a: a,
    "f": lambda a: a.T,
    "permuted": lambda a: a.reshape(2, 3, 4).transpose(2, 0, 1),
    "strided": lambda a: a.reshape(4, 6)[::2, 1::2],
    "reversed_f": lambda a: a.reshape(4, 6).T[::-1],
}


@pytest.mark.parametrize("layout", list(_SINGLE))
def test_scans_and_copies_keep_the_input_layout(layout):
    import copy

    base = np.arange(1.0, 25.0).reshape(6, 4)
    a, x = _SINGLE[layout](base), _SINGLE[layout](cp.asarray(base))
    for axis in range(a.ndim):
        for name in ("cumsum", "cumprod", "nancumsum"):
            _check_layout(getattr(cp, name)(x, axis=axis), getattr(np, name)(a, axis=axis))
        _check_layout(cp.cumsum(x, axis=axis, dtype=np.float32), np.cumsum(a, axis=axis, dtype=np.float32))
    _check_layout(copy.copy(x), copy.copy(a))
    _check_layout(copy.deepcopy(x), copy.deepcopy(a))
    _check_layout(x.copy(), a.copy())  # ndarray.copy() is C-ordered in both


@pytest.mark.parametrize("layout", list(_SINGLE))
def test_delete_and_insert_make_numpys_order(layout):
    # NumPy's delete and insert make an F-ordered result of an F-ordered input that is not also C-contiguous,
    # else a C-ordered one, whatever the input's own memory order.
    base = np.arange(1.0, 25.0).reshape(6, 4)
    a, x = _SINGLE[layout](base), _SINGLE[layout](cp.asarray(base))
    for axis in range(a.ndim):
        _check_layout(cp.delete(x, 1, axis=axis), np.delete(a, 1, axis=axis))
        _check_layout(cp.delete(x, slice(0, 2), axis=axis), np.delete(a, slice(0, 2), axis=axis))
        _check_layout(cp.delete(x, [1], axis=axis), np.delete(a, [1], axis=axis))  # one index: as an int
        _check_layout(cp.delete(x, cp.asarray([1]), axis=axis), np.delete(a, np.asarray([1]), axis=axis))
        _check_layout(cp.insert(x, 1, 5.0, axis=axis), np.insert(a, 1, 5.0, axis=axis))
        _check_layout(cp.insert(x, [1, 2], 5.0, axis=axis), np.insert(a, [1, 2], 5.0, axis=axis))


def test_a_given_output_takes_part_in_the_layout():
    # NumPy's iterator lays out the outputs it allocates in the order of all operands, given outputs included.
    a = np.arange(1.0, 5.0)
    o, xo = np.zeros((3, 4), order="F"), cp.zeros((3, 4), order="F")
    _, r = np.divmod(a, 2.0, out=(o, None))
    xq, xr = cp.divmod(cp.asarray(a), 2.0, out=(xo, None))
    assert xq is xo
    _check_layout(xr, r)


def test_an_empty_operand_takes_part_in_a_concatenations_layout():
    # An empty operand is C-contiguous by the flag rules, but NumPy still reads its strides.
    parts = [np.ones((1, 4)), np.zeros((4, 5)).T[:0], np.ones((1, 4))]
    xparts = [cp.ones((1, 4)), cp.zeros((4, 5)).T[:0], cp.ones((1, 4))]
    _check_layout(cp.concatenate(xparts), np.concatenate(parts))


@pytest.mark.parametrize("layout", list(_SINGLE))
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_along_axes_keep_the_kept_axes_layout(layout, keepdims):
    # NumPy lays a reduction's result out in the memory order of the input's kept axes; its argmax and argmin
    # results are C-ordered.
    base = np.arange(1.0, 25.0).reshape(6, 4)
    a, x = _SINGLE[layout](base), _SINGLE[layout](cp.asarray(base))
    axes = list(range(a.ndim)) + ([(0, 2), (0, 1)] if a.ndim == 3 else [])
    for axis in axes:
        for name in ("sum", "prod", "max", "min", "mean", "var", "std", "nansum", "nanmax", "ptp"):
            _check_layout(
                getattr(cp, name)(x, axis=axis, keepdims=keepdims),
                getattr(np, name)(a, axis=axis, keepdims=keepdims),
            )
        for name in ("any", "all"):
            _check_layout(
                getattr(cp, name)(x > 3, axis=axis, keepdims=keepdims),
                getattr(np, name)(a > 3, axis=axis, keepdims=keepdims),
            )
        _check_layout(cp.sum(x, axis=axis, dtype=np.float32), np.sum(a, axis=axis, dtype=np.float32))
        _check_layout(cp.count_nonzero(x > 3, axis=axis), np.count_nonzero(a > 3, axis=axis))
        if not isinstance(axis, tuple):
            _check_layout(
                cp.argmax(x, axis=axis, keepdims=keepdims), np.argmax(a, axis=axis, keepdims=keepdims)
            )


@pytest.mark.parametrize("seed", range(3))
def test_reductions_of_broadcast_and_permuted_inputs_are_laid_out_as_numpys(seed):
    # NumPy's iterator orders all the axes, the reduced ones among them; a broadcast (zero-stride) axis has no
    # say, so the kept axes' order can depend on where the reduced axes lie.
    for rng, shape in _draws(30, 100 + seed):
        a, x = _operand(rng, shape, np.float64)
        view = [1 if rng.random() < 0.4 else n for n in shape]
        index = tuple(slice(0, 1) if v == 1 else slice(None) for v in view)
        a, x = np.broadcast_to(a[index], shape), cp.broadcast_to(x[index], shape)
        axis = rng.choice(list(range(len(shape))) + ([(0, len(shape) - 1)] if len(shape) > 2 else []))
        keepdims = rng.random() < 0.3
        _check_layout(cp.sum(x, axis=axis, keepdims=keepdims), np.sum(a, axis=axis, keepdims=keepdims))
        _check_layout(cp.max(x, axis=axis), np.max(a, axis=axis))
        if not isinstance(axis, tuple):
            _check_layout(cp.cumsum(x, axis=axis), np.cumsum(a, axis=axis))


_NUMPY_SORTS_DESCENDING = np.lib.NumpyVersion(np.__version__) >= "2.5.0"


@pytest.mark.parametrize("layout", list(_SINGLE))
def test_functions_that_compute_into_a_copy_keep_the_input_layout(layout):
    # NumPy's sort and partition sort a copy made with order='K'; i0 and rint lay out their new array as the
    # input, and matrix_power(a, 0) fills empty_like(a). Round to other decimals and byteswap make order 'A' (F
    # for an F-contiguous input, else C).
    base = (np.arange(24.0) * 7 % 24 - 11.5).reshape(6, 4)
    a, x = _SINGLE[layout](base), _SINGLE[layout](cp.asarray(base))
    for axis in [None] + list(range(a.ndim)):
        _check_layout(cp.sort(x, axis=axis), np.sort(a, axis=axis))
        if _NUMPY_SORTS_DESCENDING:
            _check_layout(cp.sort(x, axis=axis, descending=True), np.sort(a, axis=axis, descending=True))
        _check_layout(cp.partition(x, 1, axis=axis), np.sort(a, axis=axis))  # sorted: one valid partition
    _check_layout(cp.sort_complex(x), np.sort_complex(a))
    for decimals in (0, 1, -1):
        _check_layout(cp.round(x, decimals), np.round(a, decimals))
        _check_layout(cp.round(x.astype(np.int32), decimals), np.round(a.astype(np.int32), decimals))
    for decimals in (0, 1):  # complex rounding works on a copy of order 'K'
        _check_layout(cp.round(x * (1 - 2j), decimals), np.round(a * (1 - 2j), decimals))
    _check_layout(cp.i0(x), np.i0(a))
    _check_layout(x.byteswap(), a.byteswap())
    _check_layout(x.astype(np.int16).byteswap(), a.astype(np.int16).byteswap())
    xs, s = x.astype(np.float32, order="K"), a.astype(np.float32, order="K")
    assert xs.byteswap(inplace=True) is xs
    s.byteswap(inplace=True)
    _check_layout(xs, s)
    sq, xsq = a[..., :2, :2], x[..., :2, :2]
    _check_layout(cp.linalg.matrix_power(xsq, 0), np.linalg.matrix_power(sq, 0))


@pytest.mark.parametrize("layout", list(_SINGLE))
def test_functions_with_c_ordered_results_whatever_the_input(layout):
    # NumPy's linalg gufuncs, cross, the imaginary part of a real array (F for an F-ordered input) and argwhere
    # (F-ordered: the transpose of its nonzero()) have fixed layouts; nonzero's arrays are the columns of one
    # C-ordered (count, ndim) array.
    base = (np.arange(24.0) * 7 % 24 - 11.5).reshape(6, 4)
    a, x = _SINGLE[layout](base), _SINGLE[layout](cp.asarray(base))
    sq, xsq = a[..., :2, :2] + 3 * np.eye(2), x[..., :2, :2] + 3 * cp.eye(2)
    _check_layout(cp.linalg.solve(xsq, x[..., :2, :]), np.linalg.solve(sq, a[..., :2, :]))
    _check_layout(cp.linalg.inv(xsq), np.linalg.inv(sq))
    # Q is C-ordered; R, raw's h (NumPy's factored copy of `a`, order 'K', transposed) and 'economic' (that copy)
    # follow `a`. Their values agree with LAPACK's to rounding (an entry that is 0 in exact arithmetic is noise of
    # either sign), which the linalg tests compare with a tolerance: the layouts are compared here.
    pairs = list(zip(cp.linalg.qr(x), np.linalg.qr(a)))
    pairs += zip(cp.linalg.qr(x, mode="complete"), np.linalg.qr(a, mode="complete"))
    pairs += [(cp.linalg.qr(x, mode="r"), np.linalg.qr(a, mode="r"))]
    pairs += zip(cp.linalg.qr(x, mode="raw"), np.linalg.qr(a, mode="raw"))
    with pytest.warns(DeprecationWarning):
        pairs.append((cp.linalg.qr(x, mode="economic"), np.linalg.qr(a, mode="economic")))
    for got, want in pairs:
        assert got.shape == want.shape
        assert_strides_match(got, want)
        assert got.flags.c_contiguous == want.flags.c_contiguous
        assert got.flags.f_contiguous == want.flags.f_contiguous
    # Eigenvectors and singular vectors agree with LAPACK's to rounding, up to sign and (eig) order: their
    # layouts are compared alone.
    sym, xsym = sq + sq.swapaxes(-1, -2), xsq + xsq.swapaxes(-1, -2)
    pairs = [
        (cp.linalg.eigh(xsym)[1], np.linalg.eigh(sym)[1]),
        (cp.linalg.eig(xsym)[1], np.linalg.eig(sym)[1]),
    ]
    pairs += zip(cp.linalg.svd(x, full_matrices=False), np.linalg.svd(a, full_matrices=False))
    pairs += zip(cp.linalg.svd(x), np.linalg.svd(a))
    for got, want in pairs:
        assert got.shape == want.shape
        assert_strides_match(got, want)
        assert got.flags.c_contiguous == want.flags.c_contiguous
        assert got.flags.f_contiguous == want.flags.f_contiguous
    three, xthree = a[..., :3], x[..., :3]
    _check_layout(cp.cross(xthree, xthree[..., ::-1]), np.cross(three, three[..., ::-1]))
    _check_layout(cp.imag(x), np.imag(a))
    _check_layout(cp.argwhere(x > 0), np.argwhere(a > 0))
    for got, want in zip(cp.nonzero(x > 0), np.nonzero(a > 0)):
        _check_layout(got, want)


def test_broadcast_inputs_of_i0_scans_and_median():
    # i0 is laid out by the ufuncs' rule (NumPy's zeros_like(abs(x))), as are scans; the NaN scans of floats work on
    # NumPy's copy of order 'K', which puts a broadcast axis innermost.
    for a in (np.broadcast_to(np.arange(4.0), (3, 4)), np.broadcast_to(np.arange(3.0)[:, None], (3, 4))):
        x = cp.broadcast_to(cp.asarray(a[:1] if a.strides[1] else a[:, :1]), a.shape)
        assert x.strides == a.strides
        _check_layout(cp.i0(x), np.i0(a))
        for axis in (0, 1):
            _check_layout(cp.cumsum(x, axis=axis), np.cumsum(a, axis=axis))
            _check_layout(cp.nancumsum(x, axis=axis), np.nancumsum(a, axis=axis))
            _check_layout(cp.nancumprod(x, axis=axis), np.nancumprod(a, axis=axis))
            _check_layout(cp.median(x, axis=axis), np.median(a, axis=axis))


def test_boolean_masks_of_several_axes_index_as_numpys():
    # The mask's coordinates index as contiguous rows (nonzero's columns are views into one array).
    a = np.arange(24.0).reshape(2, 3, 4)
    x = cp.asarray(a)
    m = (a % 3) == 1
    assert_same(x[cp.asarray(m)], a[m])
    assert_same(x[:, cp.asarray(m[0])], a[:, m[0]])
    y, b = x.copy(), a.copy()
    y[cp.asarray(m)] = -1.0
    b[m] = -1.0
    assert_same(y, b)


@pytest.mark.parametrize("layout", list(_SINGLE))
def test_statistics_keep_numpys_layout(layout):
    base = (np.arange(24.0) * 7 % 24 - 11.5).reshape(6, 4)
    a, x = _SINGLE[layout](base), _SINGLE[layout](cp.asarray(base))
    for axis in range(a.ndim):
        _check_layout(cp.median(x, axis=axis), np.median(a, axis=axis))
        w = np.arange(1.0, a.shape[axis] + 1)
        got = cp.average(x, axis=axis, weights=cp.asarray(w), returned=True)
        want = np.average(a, axis=axis, weights=w, returned=True)
        _check_layout(got[0], want[0])
        _check_layout(got[1], want[1])
        _check_layout(cp.percentile(x, 30, axis=axis), np.percentile(a, 30, axis=axis))
        # The options path of the moments divides into its sum, as NumPy's does.
        _check_layout(cp.mean(x, axis=axis, where=x > -5), np.mean(a, axis=axis, where=a > -5))
        _check_layout(cp.var(x, axis=axis, where=x > -5), np.var(a, axis=axis, where=a > -5))
        _check_layout(cp.std(x, axis=axis, where=x > -5), np.std(a, axis=axis, where=a > -5))
        m, xm = np.mean(a, axis=axis, keepdims=True), cp.mean(x, axis=axis, keepdims=True)
        _check_layout(cp.var(x, axis=axis, mean=xm), np.var(a, axis=axis, mean=m))
        xi, ai = x.astype(np.int64), a.astype(np.int64)
        _check_layout(cp.mean(xi, axis=axis, dtype=np.int64), np.mean(ai, axis=axis, dtype=np.int64))


@pytest.mark.parametrize("layout", list(_SINGLE))
def test_order_a(layout):
    # 'A': F where every array operand is F-contiguous, else C; NumPy's array() with a cast keeps the layout
    # (as 'K'), where astype and a copy without a cast make C or F.
    base = np.arange(1.0, 25.0).reshape(6, 4)
    a, x = _SINGLE[layout](base), _SINGLE[layout](cp.asarray(base))
    _check_layout(cp.add(x, 1, order="A"), np.add(a, 1, order="A"))
    _check_layout(cp.add(x, x, order="A"), np.add(a, a, order="A"))
    _check_layout(cp.negative(x, order="A"), np.negative(a, order="A"))
    _check_layout(cp.array(x, order="A"), np.array(a, order="A"))
    _check_layout(cp.array(x, order="A", dtype=np.float32), np.array(a, order="A", dtype=np.float32))
    _check_layout(cp.asarray(x, order="A", dtype=np.float32), np.asarray(a, order="A", dtype=np.float32))
    _check_layout(x.astype(np.float32, order="A"), a.astype(np.float32, order="A"))
    _check_layout(x.copy(order="A"), a.copy(order="A"))
