"""ufunc.at against NumPy's (Note [ufunc.at] in python/cuarray/_ufunc_at.py): repeated indices apply the ufunc
once per occurrence, in index order, each result cast back to a's dtype, so even float sums match NumPy's
bit for bit; every form of key; NumPy's errors, in NumPy's order."""

import warnings

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing

# Duplicated, negative and unsorted indices into a (7,) axis; b values kept away from 0 (no division by zero).
IDX = [3, 0, 3, -1, 6, 3, 0, 2, -4, 6]

# IEEE-exact ufuncs (one rounding, the same on the GPU and in NumPy) and those of integers and bools.
EXACT_BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "logical_and",
    "logical_or",
    "less",
    "equal",
    "copysign",
]


def _data(xp, shape, dtype, offset=0):
    n = int(np.prod(shape))
    v = (np.arange(n) * 7 + offset) % 11 + 1  # 1..11
    if np.dtype(dtype).kind == "b":
        v = v % 3 == 0
    elif np.dtype(dtype).kind == "f":
        v = v / 4  # exact in float16
    return xp.asarray(np.asarray(v, dtype=dtype).reshape(shape))


def _quiet(f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f()


@pytest.mark.gpu
@pytest.mark.parametrize("name", EXACT_BINARY)
@testing.for_all_dtypes()
@testing.numpy_cuarray_array_equal(accept_error=TypeError)
def test_binary_at_repeated_indices(xp, name, dtype):
    a = _data(xp, (7,), dtype)
    b = _data(xp, (len(IDX),), dtype, offset=3)
    _quiet(lambda: getattr(xp, name).at(a, xp.asarray(IDX), b))
    return a


@pytest.mark.gpu
@pytest.mark.parametrize(
    "b_dtype", ["bool", "int8", "uint8", "int64", "uint64", "float32", "float64", "complex64"]
)
@testing.for_all_dtypes()
@testing.numpy_cuarray_array_equal(accept_error=TypeError)
def test_add_at_casts_back_to_a(xp, dtype, b_dtype):
    # The loop type is NumPy's for (a.dtype, b.dtype); each result is cast back to a's dtype (unsafely, as
    # NumPy's at does: int8 wraps, floats into integers truncate, complex into real drops the imaginary part).
    a = _data(xp, (7,), dtype)
    b = _data(xp, (len(IDX),), b_dtype, offset=5) * 30
    _quiet(lambda: xp.add.at(a, IDX, b))
    return a


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["negative", "absolute", "square", "invert", "logical_not", "isnan", "sign"])
@testing.for_all_dtypes(no_float16=True)
@testing.numpy_cuarray_array_equal(accept_error=TypeError)
def test_unary_at_repeated_indices(xp, name, dtype):
    a = _data(xp, (7,), dtype) - (0 if np.dtype(dtype).kind in "bu" else 5)
    _quiet(lambda: getattr(xp, name).at(a, xp.asarray(IDX)))
    return a


@pytest.mark.gpu
@testing.for_float_dtypes(no_float16=True)
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_transcendental_at(xp, dtype):
    a = _data(xp, (7,), dtype)
    xp.sqrt.at(a, IDX)
    xp.power.at(a, [1, 1, 2], _data(xp, (3,), dtype) / 8)
    return a


@pytest.mark.gpu
@pytest.mark.parametrize(
    "key",
    [
        pytest.param(lambda xp: (xp.asarray([0, 2, 0, 0]), slice(None)), id="rows"),
        pytest.param(lambda xp: (slice(None), xp.asarray([1, 1, -1])), id="columns"),
        pytest.param(lambda xp: (xp.asarray([0, 2, 0]), xp.asarray([3, 1, 3])), id="pairs"),
        pytest.param(lambda xp: (xp.asarray([[0], [2], [0]]), xp.asarray([1, 1, 3])), id="broadcast_pairs"),
        pytest.param(lambda xp: (1, xp.asarray([0, 0, 0])), id="int_and_array"),
        pytest.param(lambda xp: xp.asarray([True, False, True]), id="mask"),
        pytest.param(lambda xp: (xp.asarray([[True, False, True, True]] * 3),), id="full_mask"),
        pytest.param(lambda xp: (Ellipsis, 2), id="ellipsis"),
        pytest.param(lambda xp: (), id="empty_tuple"),
        pytest.param(lambda xp: ([2, 2], [0, 0]), id="lists"),
        pytest.param(lambda xp: (xp.asarray([], dtype=xp.int64), slice(None)), id="empty_index"),
        pytest.param(lambda xp: (slice(None, None, -1), xp.asarray([0, 0])), id="negative_step"),
    ],
)
@pytest.mark.parametrize("b", ["scalar", "array", "broadcast"])
@testing.numpy_cuarray_array_equal()
def test_at_keys(xp, key, b):
    a = _data(xp, (3, 4), np.float64)
    k = key(xp)
    shape = np.zeros((3, 4))[key(np)].shape
    if b == "scalar":
        value = 2.5
    elif b == "array":
        value = _data(xp, shape, np.float64, offset=2)
    else:
        value = _data(xp, shape[-1:], np.float64, offset=4) if shape else 1.5
    xp.add.at(a, k, value)
    return a


@pytest.mark.gpu
@pytest.mark.parametrize("layout", ["transposed", "strided", "fortran", "zero_d"])
@testing.numpy_cuarray_array_equal()
def test_at_non_contiguous_and_zero_d(xp, layout):
    base = _data(xp, (4, 6), np.int32)
    if layout == "transposed":
        a = base.T
        xp.subtract.at(a, ([5, 5, 0], [3, 3, 1]), 7)
    elif layout == "strided":
        a = base[::2, ::-3]
        xp.maximum.at(a, [1, 1, 0], xp.asarray([[20, 1], [30, 40], [0, 0]], dtype=xp.int32))
    elif layout == "fortran":
        a = xp.asfortranarray(base)
        xp.multiply.at(a, (slice(None), [2, 2, 2]), 3)
    else:
        a = xp.asarray(np.float32(2.0))
        xp.multiply.at(a, (), 3)
        return a
    return base if layout != "fortran" else a  # a view's writes show in its base


@pytest.mark.gpu
def test_at_views_write_through():
    base = cp.zeros((3, 4))
    cp.add.at(base[1], [0, 0, 3], 1.0)
    expected = np.zeros((3, 4))
    np.add.at(expected[1], [0, 0, 3], 1.0)
    testing.assert_array_equal(base, expected)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.int64])
def test_integer_add_and_subtract_with_many_repeats(dtype):
    # Many repeats per element: one summed round (exact modulo 2**bits), as NumPy's sequential updates.
    rng = np.random.default_rng(1)
    idx = rng.integers(0, 10, 100_000)
    b = rng.integers(-1000, 1000, 100_000)
    for name in ("add", "subtract"):
        expected = np.zeros(10, dtype)
        getattr(np, name).at(expected, idx, b)
        a = cp.zeros(10, dtype)
        getattr(cp, name).at(a, cp.asarray(idx), cp.asarray(b))
        testing.assert_array_equal(a, expected)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_add_with_repeats_matches_numpy_bit_for_bit(dtype):
    rng = np.random.default_rng(2)
    idx = rng.integers(0, 20, 3000)  # ~150 repeats per element: as many rounds
    b = rng.standard_normal(3000).astype(dtype)
    expected = np.zeros(20, dtype)
    np.add.at(expected, idx, b)
    a = cp.zeros(20, dtype)
    cp.add.at(a, cp.asarray(idx), cp.asarray(b))
    testing.assert_array_equal(a, expected)


@pytest.mark.gpu
def test_at_with_b_aliasing_a():
    # b is read whole before any element of a changes, as in NumPy: a[4] gets the old a[2].
    def f(xp):
        a = xp.arange(1.0, 7.0)
        xp.add.at(a, [2, 3, 4, 5], a[:4])
        return a

    assert f(np).tolist() == [1, 2, 4, 6, 8, 10]
    testing.assert_array_equal(f(cp), f(np))


ERRORS = [
    ("no_b", lambda xp: xp.add.at(xp.zeros(3), [0]), ValueError, "second operand needed for ufunc"),
    (
        "unary_with_b",
        lambda xp: xp.negative.at(xp.zeros(3), [0], 1),
        ValueError,
        "second operand provided when ufunc is unary",
    ),
    ("not_an_array", lambda xp: xp.add.at([1, 2], [0], 1), TypeError, "first operand must be array"),
    ("out_of_bounds", lambda xp: xp.add.at(xp.zeros(3), [5], [1, 2]), IndexError, "out of bounds"),
    (
        "types_first",
        lambda xp: xp.bitwise_and.at(xp.zeros(3), [5], 1),
        TypeError,
        "not supported for the input",
    ),
    ("bool_subtract", lambda xp: xp.subtract.at(xp.zeros(3, bool), [], True), TypeError, "boolean subtract"),
    (
        "not_broadcastable",
        lambda xp: xp.add.at(xp.zeros(3), [0], xp.ones((1, 1))),
        ValueError,
        "array is not broadcastable to correct shape",
    ),
    (
        "b_larger",
        lambda xp: xp.add.at(xp.zeros(3), [0, 1], xp.ones(3)),
        ValueError,
        "array is not broadcastable to correct shape",
    ),
    ("float_index", lambda xp: xp.add.at(xp.zeros(3), [1.0], 5), IndexError, "only integers"),
    (
        "two_outputs",
        lambda xp: xp.divmod.at(xp.zeros(3), [0], 1),
        ValueError,
        "Only single output ufuncs supported at this time",
    ),
    ("too_many_indices", lambda xp: xp.add.at(xp.zeros(3), (0, 0), 1), IndexError, "too many indices"),
]


@pytest.mark.gpu
@pytest.mark.parametrize("f, error, message", [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_at_errors_match_numpy(f, error, message):
    with pytest.raises(error, match=message):
        f(np)
    with pytest.raises(error, match=message):
        f(cp)


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["add", "maximum", "minimum", "subtract"])
@pytest.mark.parametrize(
    "key, b",
    [
        (np.array([[], []], dtype=np.bool_), np.arange(4.0)),
        (np.array([1, 0, 1]), np.arange(12).reshape(3, 4)),
        ([1, 1], np.arange(24).reshape(2, 3, 4)),
        ((slice(None), np.array([True, False, True])), np.array([[1, 2, 3, 4]])),
        (np.array(-1), 5),
    ],
    ids=["empty mask", "repeated", "list", "mask in a tuple", "0-d"],
)
@testing.for_dtypes([np.int32, np.uint64, np.float16, np.float32, np.float64])
@testing.numpy_cuarray_array_equal()
def test_at_host_values_and_host_keys(xp, name, key, b, dtype):
    # CuPy's at takes NumPy values and keys (its ndarray._scatter_op copies them over).
    a = xp.zeros((2, 3, 4), dtype)
    _quiet(lambda: getattr(xp, name).at(a, key, b))
    return a


def test_at_is_a_method_of_every_ufunc():
    assert cp.add.at.__doc__ and callable(cp.sqrt.at)
    with pytest.raises(TypeError, match="got a numpy.ndarray"):
        cp.add.at(np.zeros(3), [0], 1)  # no device needed to refuse a host array
    with pytest.raises(TypeError):
        cp.add.at(a=None, indices=[0])  # positional only, as NumPy's


# ---- the algorithm of Note [ufunc.at], run on NumPy stand-ins for the device functions (no GPU needed) ----------


class _Host(np.ndarray):
    """A NumPy array standing in for a device array."""

    @property
    def _c_contiguous(self):
        return self.flags.c_contiguous


class _HostUfunc:
    def __init__(self, u):
        self.u, self.__name__, self.nin, self.nout = u, u.__name__, u.nin, u.nout

    def __call__(self, *args):
        return _quiet(lambda: self.u(*args))


def _host_gather(x, axes, indices, insert_at, labels, mode):
    assert mode == "inbounds"
    return np.asarray(x)[indices[0]]


def _host_scatter(flat, axes, indices, insert_at, labels, values, mode):
    assert mode == "inbounds" and len(np.unique(indices[0])) == len(indices[0]), "a round repeats a position"
    flat[indices[0]] = _quiet(lambda: np.asarray(values).astype(flat.dtype))


@pytest.fixture
def host_at(monkeypatch):
    from cuarray import _ufunc_at as m

    host_numpy = type(
        "HostNumpy",
        (),
        {"ndarray": type("NoHostArray", (), {}), "__getattr__": lambda self, k: getattr(np, k)},
    )()
    stand_ins = {
        "numpy": host_numpy,
        "ndarray": _Host,
        "_u": np,
        "arange": np.arange,
        "empty": np.empty,
        "zeros": np.zeros,
        "flatnonzero": np.flatnonzero,
        "concatenate": np.concatenate,
        "broadcast_to": np.broadcast_to,
        "cumsum": np.cumsum,
        "searchsorted": np.searchsorted,
        "device_array": lambda b, name: np.asarray(b),
        "argsort": lambda x: np.argsort(x, kind="stable"),
        "bincount": lambda x: type("Counts", (), {"get": lambda self: np.bincount(x)})(),
        "_core": type(
            "HostCore", (), {"_gather": staticmethod(_host_gather), "_scatter": staticmethod(_host_scatter)}
        ),
    }
    for name, value in stand_ins.items():
        monkeypatch.setattr(m, name, value)
    return lambda u, a, *args: m.at(_HostUfunc(u), a.view(_Host), *args)


@pytest.mark.parametrize(
    "name",
    [
        "add",
        "subtract",
        "multiply",
        "maximum",
        "fmin",
        "bitwise_xor",
        "divide",
        "power",
        "negative",
        "sqrt",
        "isnan",
        "logical_or",
    ],
)
@pytest.mark.parametrize(
    "dtype", ["bool", "int8", "uint16", "int64", "uint64", "float16", "float32", "complex64"]
)
def test_rounds_give_numpy_results(host_at, name, dtype):
    rng = np.random.default_rng(3)
    u = getattr(np, name)
    for shape, key in [
        ((7,), rng.integers(-7, 7, 30)),
        ((3, 4), (rng.integers(0, 3, 9), slice(None))),
        ((3, 4), (rng.integers(0, 3, 6), rng.integers(-4, 4, 6))),
        ((), ()),
    ]:
        a = np.asarray(rng.standard_normal(shape) * 40).astype(dtype)
        selected = np.zeros(shape)[key].shape
        bs = (
            [()]
            if u.nin == 1
            else [
                (b,)
                for b in (
                    rng.standard_normal(selected).astype(np.float32) * 9,
                    rng.integers(-300, 300, selected),
                    3,
                    2.5,
                )
            ]
        )
        for b in bs:
            expected, got = a.copy(), np.asfortranarray(a) if a.ndim == 2 else a.copy()
            try:
                _quiet(lambda expected=expected, key=key, b=b: u.at(expected, key, *b))
            except (TypeError, ValueError) as e:  # no loop for the types; integers to negative powers
                with pytest.raises(type(e)):
                    host_at(u, got, key, *b)
                continue
            host_at(u, got, key, *b)
            np.testing.assert_array_equal(got, expected)
