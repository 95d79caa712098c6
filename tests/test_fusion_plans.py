"""cuarray.fuse's plans without a GPU: which calls run the function as it is (NumPy arrays, scalars alone,
composition), which bodies become one kernel and which run op by op, the ranges of Python int arguments, and
the traced programs themselves, replayed step by step with NumPy and compared with the function run on NumPy
arrays (so the recorded loops, casts and constants are NumPy's)."""

import functools

import cuarray as cp
import numpy as np
import pytest
from cuarray import _core

F4, F8, I1, I8, U1, U8 = (np.dtype(t) for t in ("float32", "float64", "int8", "int64", "uint8", "uint64"))


# Some of NumPy's 64-bit loops ('Qq->?', 'dq->d') name long long, the dtype the table spells 'l'.
_LONGLONG = {"l": np.dtype("q"), "L": np.dtype("Q")}


def _run(steps, values):
    """`values` extended by the traced steps, each ufunc on its operands cast to its loop types."""
    for step in steps:
        if step[0] == "const":
            _, dtype, _, bits, re, im = step
            value = complex(re, im) if dtype.kind == "c" else re if dtype.kind == "f" else bits
            if dtype.kind == "i" and bits >= 2**63:
                value = bits - 2**64
            values.append(np.asarray(value, dtype=dtype))
        elif step[0] == "cast":
            values.append(values[step[1]].astype(step[2]))
        else:
            _, name, operands, types = step
            nin = len(operands)
            ufunc = np.where if name == "_where" else getattr(np, name)
            operands = [values[v].astype(t) for v, t in zip(operands, types)]
            with np.errstate(all="ignore"):
                if name == "_where":
                    out = np.where(*operands).astype(types[-1])
                else:
                    try:
                        out = ufunc(*operands, signature=tuple(types))
                    except TypeError:
                        out = ufunc(*operands, signature=tuple(_LONGLONG.get(t.char, t) for t in types))
            outs = out if isinstance(out, tuple) else (out,)
            values.extend(np.asarray(o).astype(t) for o, t in zip(outs, types[nin:]))
    return values


def _replay(fused, kinds, args):
    """The traced program of `fused` for `kinds` run step by step with NumPy on `args` (NumPy arrays and
    scalars): each ufunc step on its operands cast to its loop types, as the generated kernel runs it; arguments
    updated in place are written in `args`."""
    program = fused._trace(kinds)
    steps, results, tuple_result, reduction, in_types = program[:5]
    views = [np.asarray(args[p])[key] for p, key in program.views]
    values = [np.asarray(a).astype(t) for a, t in zip([a for a in args if a is not None] + views, in_types)]
    _run(steps, values)
    if reduction is not None:
        name, _, _, result_type, axis, keepdims, post, post_result = reduction
        typed = {"dtype": result_type} if name in ("sum", "prod", "nansum", "nanprod") else {}
        reduced = [np.asarray(getattr(np, name)(values[results[0]], axis=axis, keepdims=keepdims, **typed))]
        return _run(post, reduced)[post_result]
    arrays = [a for a in args if a is not None]
    for i, v in program.updates:
        arrays[i][...] = values[v]
    outs = [values[r] for r in results]
    if program.returns is None:
        return tuple(outs) if tuple_result else outs[0]
    none, is_tuple, items = program.returns
    items = tuple(outs.pop(0) if p < 0 else args[p] if p < len(args) else views[p - len(args)] for p in items)
    return None if none else items if is_tuple or len(items) != 1 else items[0]


def _kind(a):
    if isinstance(a, np.ndarray):
        return a.dtype
    if isinstance(a, np.generic):
        return (a.dtype,)
    return None if a is None else type(a)


def _data(dtype, seed, shape=(3, 4)):
    rng = np.random.default_rng(seed)
    x = (rng.random(shape) * 10).astype(dtype)
    if np.dtype(dtype).kind != "b":
        x[x == 0] = 1
    return x


# CuPy's fusion test bodies (tests/cupy_tests/core_tests/fusion_tests), fused in one kernel.
BODIES = {
    "operators": lambda xp, x, y: (x + y, x - y, x * y, x / y, x**y, x == y, x < y, -x),
    "floor_divide": lambda xp, x, y: x // y,
    "bitwise": lambda xp, x, y: (x << y, x >> y, x & y, x | y, x ^ y, ~x),
    "ufuncs": lambda xp, x, y: (
        xp.maximum(x, y),
        xp.fmin(x, y),
        xp.logical_xor(x, y),
        xp.arctan2(x, y),
        xp.logaddexp(x, y),
        xp.copysign(x, y),
        xp.hypot(x, y),
    ),
    "unary": lambda xp, x, y: (xp.sqrt(x), xp.exp2(x), xp.log1p(x), xp.sign(x), xp.square(x), xp.rint(x)),
    "divmod": lambda xp, x, y: xp.divmod(x, y),
    "where": lambda xp, x, y: xp.where(x > y, x, y),
    "astype": lambda xp, x, y: (x.astype("int32") + y.astype("float32"), x.copy()),
    "constants": lambda xp, x, y: 1.0 - (x * x) / (y * y) + 3 + np.int8(2),
    "sum_axis": lambda xp, x, y: xp.sum(x * 3 + y, axis=0),
    "sum_dtype": lambda xp, x, y: x.sum(axis=0, dtype="float32"),
    "prod_keepdims": lambda xp, x, y: xp.prod(x + y, axis=1, keepdims=True),
    "max": lambda xp, x, y: (x - y).max(),
    "all": lambda xp, x, y: xp.all(x > y, axis=1),
    "nansum": lambda xp, x, y: xp.nansum(x * y),
    "postmap": lambda xp, x, y: xp.sqrt(xp.sum(x * y, axis=0) + 10) * 2,
    "postmap_cast": lambda xp, x, y: (x.max(axis=1) > 3).astype("float32") - 1,
}
PAIRS = [(F4, F4), (I8, F4), (U1, I1), (U8, I8), (I8, I8), (np.dtype("float16"), U1), (np.dtype(bool), I1)]


@pytest.mark.parametrize("dtypes", PAIRS, ids=lambda p: "-".join(d.name for d in p))
@pytest.mark.parametrize("body", list(BODIES), ids=str)
def test_traced_programs_replay_as_numpy(body, dtypes):
    x, y = _data(dtypes[0], 0), _data(dtypes[1], 1)
    func = functools.partial(BODIES[body], cp)
    try:
        with np.errstate(all="ignore"):
            expected = BODIES[body](np, x, y)
    except TypeError:  # no loop for these types in NumPy: no kernel either
        assert cp.fuse(func)._plan((x.dtype, y.dtype)) is None
        return
    got = _replay(cp.fuse(func), (x.dtype, y.dtype), (x, y))
    for e, g in zip(
        expected if isinstance(expected, tuple) else (expected,), got if isinstance(got, tuple) else (got,)
    ):
        assert np.asarray(g).dtype == np.asarray(e).dtype
        np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize(
    "args",
    [
        (_data(F4, 0), 3),
        (2.5, _data(I1, 0)),
        (_data(U1, 0), np.float32(1.5)),
        (np.int16(3), _data(U1, 0)),
        (_data(I8, 0), True),
        (_data(F4, 0), 1j),
    ],
    ids=["f4-int", "float-i1", "u1-f4scalar", "i2scalar-u1", "i8-bool", "f4-complex"],
)
def test_scalar_arguments_replay_as_numpy(args):
    def body(a, b):
        return a * b + a - 1

    expected = body(*args)
    got = _replay(cp.fuse(body), tuple(_kind(a) for a in args), args)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def test_numpy_arguments_and_scalars_alone_call_the_function():
    calls = []

    @cp.fuse()
    def f(x, y):
        calls.append(type(x))
        return x * y + 1

    x = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(f(x, x), x * x + 1)
    assert f(2, 3) == 7 and f(2, 3) == 7 and f(1.5, np.float32(2)) == 4.0
    assert calls == [np.ndarray, int, int, float]


def test_none_arguments_reach_the_function():
    @cp.fuse()
    def f(x, y, z):
        return x * z if y is None else x + y + z

    assert f(np.float32(2), None, 3) == 6
    assert f._plan((F4, None, F4)) is not None and f._plan((F4, F4, F4)) is not None


def test_a_fused_function_called_while_tracing_is_traced_inline():
    inner = cp.fuse(lambda a, b: (a - b * 2, a + b))

    def outer(x, y):
        p, q = inner(x + y, y)
        return p * q

    assert cp.fuse(outer)._plan((F4, I8)) is not None
    np.testing.assert_array_equal(
        _replay(cp.fuse(outer), (F4, I8), (_data(F4, 0), _data(I8, 1))), outer(_data(F4, 0), _data(I8, 1))
    )


def _inplace(x, y):
    x += y
    return x


def _setitem(x, y):
    x[...] = y
    return x


INDEXING = {
    "row": lambda x, y: x + y[1],
    "element": lambda x, y: x + x[0, 1] + x[1] + x + x[2, 1],
    "expand": lambda x, y: x[:, None] * y[None, ::-1],
    "ellipsis": lambda x, y: (x[..., 2], y[1, ...] - x[-1]),
    "view_returned": lambda x, y: (x[::-1], y * 2),
}


@pytest.mark.parametrize("dtypes", [(F4, F4), (I8, U1)], ids=lambda p: "-".join(map(str, p)))
@pytest.mark.parametrize("name", list(INDEXING))
def test_basic_indexing_of_arguments_replays_as_numpy(name, dtypes):
    func = INDEXING[name]
    x, y = _data(dtypes[0], 0, (3, 4)), _data(dtypes[1], 1, (3, 4))
    kinds = (x.dtype, y.dtype)
    assert cp.fuse(func)._plan(kinds) is not None
    got, want = _replay(cp.fuse(func), kinds, (x, y)), func(x, y)
    for g, w in zip(*(v if isinstance(v, tuple) else (v,) for v in (got, want))):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)
    if name == "view_returned":
        assert cp.fuse(func)._trace(kinds).returns == (False, True, [2, -1])  # the view itself, as NumPy's


UNFUSED = {
    "inplace_int_from_float": lambda x, y: _inplace(x.astype("int32"), y),
    "iteration": lambda x, y: sum(row for row in x) + y,
    "unpacking": lambda x, y: (lambda a, b, c: a + b + c)(*x) + y,  # noqa: PLC3002 - the case is the call's *x
    "membership": lambda x, y: x + (1 in y),
    "index_of_a_result": lambda x, y: (x + y)[0],
    "index_of_a_view": lambda x, y: x[0][1] + y,
    "advanced_index": lambda x, y: x[[0, 1]] + y,
    "index_updated": lambda x, y: _inplace(x, y)[0],
    "update_through_view": lambda x, y: _inplace(x[0], y),
    "setitem": _setitem,
    "out_object": lambda x, y: cp.add(x, y, out=object()),
    "shape": lambda x, y: x + x.shape[0],
    "two_reductions": lambda x, y: (x.sum(), y.sum()),
    "postmap_with_an_array": lambda x, y: cp.sum(x, axis=0) + y,
    "returns_none": lambda x, y: None,
    "returns_scalar": lambda x, y: 3,
    "mean": lambda x, y: cp.mean(x + y),
    "object": lambda x, y: x + object(),
    "no_loop": lambda x, y: cp.left_shift(x, 1.5),
    "array_capture": lambda x, y: x + cp.ndarray,
}


@pytest.mark.parametrize("name", list(UNFUSED))
def test_bodies_one_kernel_cannot_express_run_op_by_op(name):
    assert cp.fuse(UNFUSED[name])._plan((F4, F4)) is None


def _iadd_twice(x, y):
    x += y
    x += y


def _augment_and_return(x, y):
    x *= 2
    y -= x
    return x, y + 1, y


def _out_arguments(x, y, z):
    np_or_cp = cp if isinstance(x, cp._fusion_values.Traced) else np
    np_or_cp.add(x, y, out=z)
    q, _ = np_or_cp.divmod(z, 3, out=(None, y))
    return q, z


def _alias(x, y):
    a = x
    a += 1  # x too: the same array
    b = y + 1
    b += x  # an intermediate array: only b
    return x, b


@pytest.mark.parametrize("func", [_iadd_twice, _augment_and_return, _out_arguments, _alias])
@pytest.mark.parametrize(
    "dtypes", [(I8, I8, I8), (F4, I1, F8), (F8, F4, F4)], ids=lambda p: "-".join(map(str, p))
)
def test_updates_in_place_replay_as_numpy(func, dtypes):
    nargs = func.__code__.co_argcount
    args = [_data(t, s) for s, t in enumerate(dtypes[:nargs])]
    copies = [a.copy() for a in args]
    try:
        with np.errstate(all="ignore"):
            expected = func(*copies)
    except TypeError:  # NumPy refuses the cast into an argument: no kernel either
        assert cp.fuse(func)._plan(tuple(a.dtype for a in args)) is None
        return
    kinds = tuple(a.dtype for a in args)
    assert cp.fuse(func)._plan(kinds) is not None
    got = _replay(cp.fuse(func), kinds, args)
    if expected is None:
        assert got is None
        got, expected = (), ()
    for g, e in zip(*(v if isinstance(v, tuple) else (v,) for v in (got, expected))):
        np.testing.assert_array_equal(g, e)
        assert g.dtype == e.dtype
    for a, c in zip(args, copies):
        np.testing.assert_array_equal(a, c)
    returns = cp.fuse(func)._trace(kinds).returns
    if func is _iadd_twice:
        assert returns == (True, False, [])
    if func is _augment_and_return:
        assert returns == (False, True, [0, -1, 1])  # x and y themselves, as NumPy returns them


UPDATE_DTYPES = [
    (F8, F4, F8),
    (np.dtype(bool), np.dtype(bool), I1),
    (np.dtype("float16"), U1, F4),
    (np.dtype("complex64"), F4, np.dtype("complex128")),
    (U8, U8, U8),
]


@pytest.mark.parametrize("dtypes", UPDATE_DTYPES, ids=lambda p: "-".join(map(str, p)))
@pytest.mark.parametrize("func", [_iadd_twice, _augment_and_return, _out_arguments])
def test_kernels_updating_arguments_compile(func, dtypes):
    from test_kernel_sources import MINIMAL_ONLY

    try:
        handle = cp.fuse(func)._compile(dtypes[: func.__code__.co_argcount]).handle
    except (cp._fusion_values.Unfusable, TypeError):  # a cast NumPy refuses, or no loop: no kernel
        return
    for contiguous, ndim in ((True, 0), (False, 2)):
        src, name = _core._fused_source(handle, contiguous, ndim)
        assert _core.jit.compile(MINIMAL_ONLY + src, name, [], 90, _core.jit.headers())[:4] == b"\x7fELF"


def test_in_place_update_of_a_scalar_argument_rebinds_it():
    def f(scalar, array):
        scalar += array
        return scalar

    assert cp.fuse(f)._plan(((F4,), I8)) is not None


def test_python_int_arguments_carry_the_range_of_their_loops():
    ranges = cp.fuse(lambda x, s, t: (x + s, x * t))._compile((U1, int, int)).ranges
    assert ranges == ((1, 0, 255), (2, 0, 255))
    assert cp.fuse(lambda x, s: x + s)._compile((F4, int)).ranges == ((1, -(2**63), 2**63 - 1),)
    assert cp.fuse(lambda x, s: (x + s) * np.int8(1))._compile((I1, int)).ranges == ((1, -128, 127),)


def test_out_of_range_python_int_constants_run_op_by_op():
    assert cp.fuse(lambda x: x + 300)._plan((U1,)) is None
    assert cp.fuse(lambda x: x == -1)._plan((U1,)) is None
    assert cp.fuse(lambda x: x + 255)._plan((U1,)) is not None


def test_keyword_arguments_and_clear_cache():
    f = cp.fuse(lambda x, y: x + y)
    with pytest.raises(TypeError, match=r"takes positional arguments only"):
        f(1.0, y=2.0)
    assert f(1.0, 2.0) == 3.0
    f._plans[(F4, F4)] = None
    f.clear_cache()
    assert f._plans == {}
    assert repr(f) == "<Fusion '_lambda_'>"


REDUCTIONS = [
    lambda x: cp.sqrt(cp.sum(x, axis=0) * 2 + 10) > 5,
    lambda x: cp.any(x > 1, axis=0),
    lambda x: cp.all(x),
    lambda x: cp.nanprod(x * 2, axis=1),
    lambda x: cp.nansum(x, keepdims=True),
]


@pytest.mark.parametrize("func", REDUCTIONS, ids=["postmap", "any", "all", "nanprod", "nansum"])
def test_fused_reduction_kernels_compile(func):
    from test_kernel_sources import MINIMAL_ONLY

    handle = cp.fuse(func)._compile((F4,)).handle
    for layout in (0, 1, 2):
        src, name = _core._fused_source(handle, layout=layout)
        assert _core.jit.compile(MINIMAL_ONLY + src, name, [], 90, _core.jit.headers())[:4] == b"\x7fELF"
