"""cuarray.fuse against NumPy on the groups of CuPy's fusion tests (operators, in-place updates, indexing, array
methods, ufuncs, reductions, broadcasting, scalars, composition). Each test calls ``cuarray.fuse(func)`` on xp's
arrays: with NumPy arrays the function runs as it is (NumPy's result, as CuPy's fuse does), with cuarray arrays
it runs fused, one kernel or op by op. In-place updates are compared through the arguments returned."""

import threading

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing

pytestmark = pytest.mark.gpu

TOL = {"rtol": 3e-3, "atol": 3e-3}
SOME = (np.bool_, np.int8, np.uint8, np.int64, np.uint64, np.float16, np.float32, np.complex128)
FEW = (np.bool_, np.int16, np.uint64, np.float32)


def _data(xp, shape, dtype, seed, scale=10, nonzero=True):
    """Random values in [0, scale) (bools: half True), zeros replaced by 1 unless not `nonzero`."""
    rng = np.random.default_rng(seed)
    a = (rng.random(shape) < 0.5) if np.dtype(dtype).kind == "b" else rng.integers(0, scale, size=shape)
    a = np.asarray(a).astype(dtype)
    if nonzero and np.dtype(dtype).kind != "b":
        a[a == 0] = 1
    return xp.asarray(a)


def _value(xp, dtype, seed, kind):
    if kind == "array":
        return _data(xp, (3, 4), dtype, seed, scale=5)
    return np.dtype(dtype).type(3) if kind == "scalar" else np.dtype(dtype).type(3).item()


KINDS = [
    ("array", "array"),
    ("array", "scalar"),
    ("array", "primitive"),
    ("scalar", "array"),
    ("primitive", "array"),
]


def _arithmetic(x, y):
    return -x, x + y, x - y, x * y, x / y, x**y, x == y, x != y, x < y, x <= y, x > y, x >= y


@pytest.mark.parametrize("kinds", KINDS, ids="-".join)
@testing.for_all_dtypes(name="dtype1", no_bool=True)
@testing.for_all_dtypes(name="dtype2", no_bool=True)
@testing.numpy_cuarray_allclose(**TOL, accept_error=TypeError)
def test_operators(xp, dtype1, dtype2, kinds):
    if kinds != ("array", "array") and np.dtype(dtype2) not in map(np.dtype, SOME):
        pytest.skip("scalar operands: a few dtypes")
    with np.errstate(all="ignore"):
        return cp.fuse(_arithmetic)(_value(xp, dtype1, 0, kinds[0]), _value(xp, dtype2, 1, kinds[1]))


@pytest.mark.parametrize("kinds", KINDS, ids="-".join)
@testing.for_int_dtypes(name="dtype1", no_bool=True)
@testing.for_int_dtypes(name="dtype2", no_bool=True)
@testing.numpy_cuarray_array_equal(accept_error=TypeError)
def test_bitwise_operators(xp, dtype1, dtype2, kinds):
    return cp.fuse(lambda x, y: (x << y, x >> y, x & y, x | y, x ^ y, ~x, x // y, x % y))(
        _value(xp, dtype1, 0, kinds[0]), _value(xp, dtype2, 1, kinds[1])
    )


def _augmented(x, y):
    x += y
    x *= y
    x -= y
    return x


@pytest.mark.parametrize("right", ["array", "scalar", "primitive"])
@testing.for_all_dtypes(no_bool=True)
@testing.numpy_cuarray_allclose(**TOL)
def test_in_place_operators_update_the_argument(xp, dtype, right):
    x, y = _value(xp, dtype, 0, "array"), _value(xp, dtype, 1, right)
    result = cp.fuse(_augmented)(x, y)
    return result, x


@testing.for_int_dtypes(no_bool=True)
@testing.numpy_cuarray_array_equal(accept_error=TypeError)
def test_in_place_true_divide_of_integers_is_a_type_error(xp, dtype):
    def f(x, y):
        x /= y

    return cp.fuse(f)(_value(xp, dtype, 0, "array"), _value(xp, dtype, 1, "array"))


def _inplace_none(x):
    x += 2


@testing.for_all_dtypes(no_bool=True, no_complex=True)
@testing.numpy_cuarray_array_equal()
def test_in_place_update_returning_none(xp, dtype):
    x = _data(xp, (3, 4), dtype, 0)
    assert cp.fuse(_inplace_none)(x) is None
    return x


def _outarg(x, y, z, u):
    xp = cp.get_array_module(x)
    xp.add(x, y, out=z)
    xp.subtract(z, x, out=u)
    return u


@testing.for_all_dtypes(no_bool=True)
@testing.numpy_cuarray_allclose(**TOL)
def test_out_arguments(xp, dtype):
    args = [_data(xp, (3, 4), dtype, s) for s in range(4)]
    return cp.fuse(_outarg)(*args), args[2]


def _setitem(x, y):
    y[...] = x
    y[:1] = np.nan if y.dtype.kind == "f" else 7
    return y


@testing.for_all_dtypes(no_bool=True, no_complex=True)
@testing.numpy_cuarray_array_equal()
def test_setitem(xp, dtype):
    x, y = _data(xp, (3, 4), dtype, 0), _data(xp, (3, 4), dtype, 1)
    return cp.fuse(_setitem)(x, y), y


INDICES = [
    1,
    -1,
    (1, 0),
    (-1, 0, -2),
    slice(None, None, -1),
    (slice(None), slice(None, None, -1)),
    Ellipsis,
    None,
    (None, None, None),
    (slice(None), 0, slice(None, None, -1)),
    (1, None, slice(None, None, -1), None, 2),
    (Ellipsis, 2),
    (1, Ellipsis),
    3,
    -3,
    (0, 0, 0, 0),
]


@pytest.mark.parametrize("index", INDICES, ids=repr)
@testing.for_dtypes((np.bool_, np.int32, np.float16, np.complex64))
@testing.numpy_cuarray_array_equal(accept_error=IndexError)
def test_indexing(xp, dtype, index):
    x = _data(xp, (2, 3, 4), dtype, 0)
    return cp.fuse(lambda a, b: (a[index], a[index] + b[0][1][2]))(x, x)


@testing.for_float_dtypes()
@testing.numpy_cuarray_allclose(**TOL)
def test_views_of_arguments_broadcast_in_the_kernel(xp, dtype):
    # Batch normalization's idiom: parameters of one axis made broadcastable by basic indexing.
    x = _data(xp, (2, 3, 4, 5), dtype, 0)
    gamma, beta = _data(xp, (3,), dtype, 1), _data(xp, (3,), dtype, 2)
    expander = (None, slice(None), None, None)
    f = cp.fuse(lambda a, g, b: (g[expander] * a + b[expander], a[1, ::-1, None]))
    first = f(x, gamma, beta)
    return first + f(x[:, :, ::2], gamma, beta[::-1])


@testing.for_all_dtypes()
@testing.numpy_cuarray_allclose(**TOL)
def test_array_methods(xp, dtype):
    x = _data(xp, (3, 4), dtype, 0)
    results = [cp.fuse(lambda a: a.copy())(x)]
    for method in ("sum", "prod", "max", "min") + (() if np.dtype(dtype).kind == "c" else ("all", "any")):
        results.append(cp.fuse(lambda a, m=method: getattr(a, m)())(x))
    return results


@testing.for_all_dtypes(name="dtype1", no_complex=True)
@testing.for_all_dtypes(name="dtype2")
@testing.numpy_cuarray_array_equal()
def test_astype(xp, dtype1, dtype2):
    return cp.fuse(lambda a: a.astype(dtype2))(_data(xp, (3, 4), dtype1, 0))


UNARY = [
    "invert",
    "logical_not",
    "isfinite",
    "isinf",
    "isnan",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "deg2rad",
    "rad2deg",
    "around",
    "round",
    "rint",
    "floor",
    "ceil",
    "trunc",
    "fix",
    "exp",
    "expm1",
    "exp2",
    "log",
    "log10",
    "log2",
    "log1p",
    "signbit",
    "frexp",
    "reciprocal",
    "negative",
    "angle",
    "conj",
    "real",
    "imag",
    "modf",
    "sqrt",
    "cbrt",
    "square",
    "absolute",
    "sign",
    "i0",
    "sinc",
]


@pytest.mark.parametrize("name", UNARY)
@testing.for_dtypes(SOME)
@testing.numpy_cuarray_allclose(**TOL, accept_error=TypeError)
def test_unary_routines(xp, dtype, name):
    x = _data(xp, (3, 4), dtype, 0, scale=1 if name.startswith("arc") else 10)
    with np.errstate(all="ignore"):
        return cp.fuse(lambda a: getattr(xp, name)(a))(x)


BINARY = [
    "bitwise_and",
    "left_shift",
    "greater",
    "equal",
    "logical_and",
    "logical_xor",
    "maximum",
    "fmin",
    "arctan2",
    "hypot",
    "logaddexp",
    "logaddexp2",
    "copysign",
    "nextafter",
    "add",
    "subtract",
    "multiply",
    "power",
    "divide",
    "floor_divide",
    "fmod",
    "remainder",
    "divmod",
    "ldexp",
]


@pytest.mark.parametrize("name", BINARY)
@testing.for_dtypes(SOME, name="dtype1")
@testing.for_dtypes(FEW, name="dtype2")
@testing.numpy_cuarray_allclose(**TOL, accept_error=TypeError)
def test_binary_routines(xp, dtype1, dtype2, name):
    x, y = _data(xp, (3, 4), dtype1, 0, scale=5), _data(xp, (3, 4), dtype2, 1, scale=5)
    with np.errstate(all="ignore"):
        return cp.fuse(lambda a, b: getattr(xp, name)(a, b))(x, y)


@testing.for_all_dtypes(name="dtype1")
@testing.for_dtypes(SOME, name="dtype2")
@testing.numpy_cuarray_allclose(**TOL, accept_error=TypeError)
def test_where_clip_copyto(xp, dtype1, dtype2):
    cond = _data(xp, (3, 4), np.bool_, 0)
    x, y = _data(xp, (3, 4), dtype1, 1), _data(xp, (3, 4), dtype2, 2)

    def f(c, a, b):
        xp.copyto(a, b, casting="unsafe")
        return xp.where(c, a, b), xp.where(c[:, None], xp.inf, b), a

    out = cp.fuse(f)(cond, x, y)
    if np.dtype(dtype1).kind not in "bc":
        out += (cp.fuse(lambda a: xp.clip(a, dtype1(2), dtype1(4)))(x),)
    return out


@pytest.mark.parametrize("shape", [(1,), (3, 4), (2, 1, 4), (2, 0, 3), (2, 3, 2, 2, 3)])
@pytest.mark.parametrize("axis", [None, -4, -1, 0, 1, 2, 4, (0,), (0, 1), (1, 3), (0, 0)], ids=repr)
@testing.numpy_cuarray_array_equal(accept_error=(ValueError, np.exceptions.AxisError))
def test_reduction_axes(xp, shape, axis):
    x = _data(xp, shape, np.int64, 0, nonzero=False)
    return cp.fuse(lambda a: xp.sum(a, axis))(x), cp.fuse(
        lambda a: xp.sum(a * 3 + 1, axis=axis, keepdims=True)
    )(x)


@pytest.mark.parametrize("axis", [0, -1, (0,), 1, None, (), (-1,)], ids=repr)
@pytest.mark.parametrize("name", ["sum", "max", "any", "nanprod"])
@testing.numpy_cuarray_array_equal(accept_error=np.exceptions.AxisError)
def test_reductions_of_0d_arrays(xp, name, axis):
    # NumPy's ufunc reductions read a 0-d array as one element along an int axis 0 or -1, not along (0,).
    x = xp.asarray(np.float32(5))
    return cp.fuse(lambda a, s: getattr(xp, name)(a * s, axis=axis))(x, 2.0)


@testing.for_all_dtypes(name="dtype1", no_bool=True, no_complex=True)
@testing.for_all_dtypes(name="dtype2", no_bool=True, no_complex=True)
@testing.numpy_cuarray_allclose(**TOL, accept_error=TypeError)
def test_reduction_dtype(xp, dtype1, dtype2):
    return cp.fuse(lambda a: a.sum(axis=0, dtype=dtype2))(_data(xp, (3, 4), dtype1, 0))


REDUCING = {
    "premap": lambda xp, x, y: xp.sum(x * 3 + y, 0),
    "postmap": lambda xp, x, y: xp.sqrt(xp.sum(x, 1) + 10),
    "postmap_two_arrays": lambda xp, x, y: xp.sum(x, 1) + y,
    "two_reductions": lambda xp, x, y: (x.sum(0), y.sum()),
    "two_reductions_and_elementwise": lambda xp, x, y: x.sum(0) + y.sum(0),
    "multistage": lambda xp, x, y: (xp.sqrt(x).prod(axis=0) + x).sum(axis=1) * 2,
    "routines": lambda xp, x, y: (
        xp.prod(x),
        xp.nansum(x),
        xp.nanprod(y),
        xp.amax(x),
        xp.amin(y),
        xp.any(x > 5),
    ),
    "sum_div_clip": lambda xp, x, y: xp.clip(x / xp.sum(x), 0.01, 0.05),
    "postmap_cast": lambda xp, x, y: (xp.max(x - y, axis=0) > 4).astype(np.int8) * 3,
    "postmap_keepdims": lambda xp, x, y: xp.sum(x * y, axis=1, keepdims=True) / 4.0 - 1,
}


@pytest.mark.parametrize("name", list(REDUCING))
@testing.numpy_cuarray_allclose(rtol=1e-12, accept_error=ValueError)
def test_reductions_with_elementwise_work(xp, name):
    x, y = _data(xp, (3, 4), np.int64, 0), _data(xp, (3, 4), np.int64, 1)
    return cp.fuse(lambda a, b: REDUCING[name](xp, a, b))(x, y)


SHAPES = [
    ((1,), (1,)),
    ((10,), (1,)),
    ((3, 4), (3, 1)),
    ((3, 4), (4,)),
    ((2, 3, 4), (1, 1, 1)),
    ((3, 1), (1, 4)),
    ((2, 1, 4), (3, 1)),
    ((0,), (0,)),
    ((0,), (1,)),
    ((2, 0, 3), (0, 1)),
    ((256, 256), (256, 1)),
    ((), (3,)),
    ((2,), (3,)),
    ((3, 2), (2, 2)),
    ((3,), (1, 2)),
]


@pytest.mark.parametrize("shapes", SHAPES + [s[::-1] for s in SHAPES], ids=repr)
@testing.numpy_cuarray_array_equal(accept_error=ValueError)
def test_broadcasting(xp, shapes):
    x, y = _data(xp, shapes[0], np.int64, 0), _data(xp, shapes[1], np.int64, 1)
    return cp.fuse(lambda a, b: a + b * 2)(x, y)


@pytest.mark.parametrize("shapes", SHAPES[-4:] + [((3, 1), (3, 4))], ids=repr)
@testing.numpy_cuarray_array_equal(accept_error=ValueError)
def test_broadcasting_in_place(xp, shapes):
    x, y = _data(xp, shapes[0], np.int64, 0), _data(xp, shapes[1], np.int64, 1)
    cp.fuse(_inplace_none)(x)
    cp.fuse(_augmented)(x, y)
    return x


@pytest.mark.parametrize(
    "body",
    [
        lambda xp, a: xp.add(a),
        lambda xp, a: xp.add(a, a, a, a),
        lambda xp, a: a + None,
        lambda xp, a: a + object(),
        lambda xp, a: xp.add(a, a, object()),
        lambda xp, a: xp.add(a, a, out=object()),
    ],
    ids=["too_few", "too_many", "none", "object", "out_object", "out_keyword_object"],
)
@testing.numpy_cuarray_array_equal(accept_error=(TypeError, ValueError))
def test_bad_operands_raise_numpys_errors(xp, body):
    return cp.fuse(lambda a: body(xp, a))(_data(xp, (3, 4), np.int64, 0))


@testing.for_all_dtypes(name="dtype1")
@testing.for_all_dtypes(name="dtype2")
@testing.numpy_cuarray_allclose(**TOL)
def test_scalars_as_constants_and_arguments(xp, dtype1, dtype2):
    x = _data(xp, (3, 4), dtype1, 0)
    py, npy = dtype2(1).item(), dtype2(1)
    results = [
        cp.fuse(lambda a: (a + py, py + a, a + dtype2(1), dtype2(1) + a))(x),
        cp.fuse(lambda a, s: (a + s, s + a))(x, py),
        cp.fuse(lambda s, a: (a + s, s + a))(npy, x),
    ]

    def update(s, t, a):
        copy = s
        s += t
        return a + s + copy

    results.append(cp.fuse(update)(npy, dtype1(1), x))
    return [r for group in results for r in (group if isinstance(group, tuple) else (group,))]


@pytest.mark.parametrize("value", [255, 256, -1, 2**63, 2**64 + 1])
@testing.numpy_cuarray_array_equal()
def test_python_int_arguments_compared_out_of_the_loop_range(xp, value):
    # NumPy compares a Python int with uint8 values exactly, in range or not; the kernel's plan (first call,
    # value 1) takes it as a uint8, so other values run op by op.
    f = cp.fuse(lambda a, s: (a == s, a < s, s >= a))
    x = _data(xp, (3, 4), np.uint8, 0)
    return f(x, 1) + f(x, value)


@pytest.mark.parametrize("value", [255, 256, -1, 2**63, 2**64 + 1])
@testing.numpy_cuarray_array_equal(accept_error=OverflowError)
def test_python_int_arguments_added_out_of_the_loop_range(xp, value):
    g = cp.fuse(lambda a, s: a + s)
    x = _data(xp, (3, 4), np.uint8, 0)
    return g(x, 1), g(x, value)


@testing.for_all_dtypes()
@testing.numpy_cuarray_array_equal()
def test_none_arguments_and_tuples(xp, dtype):
    x, y, z = (_data(xp, (10,), dtype, s) for s in range(3))

    def f(a, b, c):
        if b is None:
            return a * c
        w = a * b + c
        (a, w) = (w, a)
        return a + w, (c,)

    f = cp.fuse(f)
    return f(x, None, z), f(x, y, z)[0], f(x, y, z)[1][0]


@testing.for_all_dtypes(no_bool=True)
@testing.numpy_cuarray_array_equal()
def test_composition(xp, dtype):
    f = cp.fuse(lambda x, y: (x - y * 2, x + y))

    @cp.fuse()
    def g(x, y, z):
        a, b = f(x + z, z - x * 3)
        c, d = f(x - y, y - z)
        return a + b * c - d

    @cp.fuse()
    def h(x, y):
        a, b = f(x + y * 2, y * 3)
        return a - b * g(x - 2, x - 3, -y)

    x = xp.asarray(np.arange(9).reshape(3, 3).astype(dtype))
    h.clear_cache()
    return h(x, x)


@pytest.mark.parametrize("layout", ["same", "transposed", "twice", "view", "broadcast_into"])
@testing.numpy_cuarray_array_equal(accept_error=ValueError)
def test_in_place_updates_of_arguments_sharing_memory(xp, layout):
    # Such calls run op by op (Note [Updates in place]): each op then reads the values the previous one wrote.
    x = _data(xp, (4, 4), np.int64, 0)
    y = {
        "same": _data(xp, (4, 4), np.int64, 1),
        "transposed": x.T,
        "twice": x,
        "view": x[::-1],
        "broadcast_into": _data(xp, (4, 1), np.int64, 1),
    }[layout]
    target = y if layout == "broadcast_into" else x
    cp.fuse(_augmented)(target, x if layout == "broadcast_into" else y)
    return x, y


def test_updated_arguments_are_returned_themselves():
    def f(x, y):
        x += y
        return x, x * 2

    x, y = cp.arange(4.0), cp.ones(4)
    a, b = cp.fuse(f)(x, y)
    assert a is x
    np.testing.assert_array_equal(x.get(), [1, 2, 3, 4])
    np.testing.assert_array_equal(b.get(), [2, 4, 6, 8])
    a, b = cp.fuse(f)(x, y)
    assert a is x and x.get()[0] == 2


def test_known_signatures_run_without_python():
    f = cp.fuse(lambda x, s, n: x * s if n is None else x + s)
    x = cp.arange(5, dtype=cp.float32)
    first = f(x, 2, None).get()
    f._entry = None  # a known signature must not ask for its plan
    np.testing.assert_array_equal(f(x, 2, None).get(), first)
    np.testing.assert_array_equal(f(x, 3, None).get(), np.arange(5) * 3)
    assert f(x, 3, None).dtype == cp.float32


def test_threads_share_a_fused_function():
    f = cp.fuse(lambda x, y: x + y * 2)
    x1 = cp.arange(9, dtype=cp.int64).reshape(3, 3)
    x2 = x1.astype(cp.float64)
    out = [None] * 40

    def run(i):
        x = x1 if i % 2 == 0 else x2
        out[i] = f(x, x).astype(cp.int64)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for o in out:
        np.testing.assert_array_equal(o.get(), np.arange(9).reshape(3, 3) * 3)


def test_invalid_argument_types_name_the_function():
    @cp.fuse()
    def f(x, y):
        return x + y

    with pytest.raises(TypeError, match=r"Invalid argument type for 'f'"):
        f(cp.arange(3), [1, 2, 3])
    with pytest.raises(TypeError, match=r"Invalid argument type for 'f'"):
        f(cp.arange(3), np.arange(3))


def test_control_flow_on_array_values_is_a_type_error():
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(TypeError, match="Python scalar"):
        cp.fuse(f)(cp.arange(3))
