"""Property-based differential tests against NumPy (hypothesis): random shapes (0-d, zero-size, length-1 axes),
random views (slices with negative steps, transposes), every dtype, over ufuncs, operators, reductions,
indexing and assignment, astype and reshape. Same values (within the dtype's tolerance) or the same exception
type as NumPy. The number of examples and their seed come from the hypothesis profile (tests/conftest.py):
fixed in CI, CUARRAY_HYPOTHESIS_PROFILE=gpu-long for a longer run. tests/test_fuzz_crash.py calls the public
API with junk in a child process."""

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES
from hypothesis import given
from hypothesis import strategies as st

pytestmark = pytest.mark.gpu

shapes = st.lists(st.integers(0, 5), min_size=0, max_size=4).map(tuple)
dtypes = st.sampled_from(ALL_DTYPES)


def _values(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    t = np.dtype(dtype)
    if t.kind == "b":
        return rng.random(shape) < 0.5
    if t.kind in "iu":
        lo = 0 if t.kind == "u" else -20
        return rng.integers(lo, 20, size=shape).astype(t)
    v = np.round(rng.uniform(-8, 8, size=shape) * 4) / 4
    if t.kind == "c":
        v = v + 1j * np.round(rng.uniform(-8, 8, size=shape) * 4) / 4
    return v.astype(t)


@st.composite
def views(draw, dtype=None):
    """(numpy view, cuarray view) of the same values: a random base, sliced and transposed."""
    shape = draw(shapes)
    dt = draw(dtypes) if dtype is None else np.dtype(dtype)
    seed = draw(st.integers(0, 2**16))
    base = _values(shape, dt, seed)
    index = []
    for n in shape:
        start = draw(st.integers(0, max(n - 1, 0)))
        step = draw(st.sampled_from([1, 1, 2, -1, -2]))
        index.append(slice(None, None, step) if draw(st.booleans()) else slice(start, None, step))
    a, x = base[tuple(index)], cp.asarray(base)[tuple(index)]
    if a.ndim > 1 and draw(st.booleans()):
        perm = draw(st.permutations(range(a.ndim)))
        a, x = a.transpose(perm), x.transpose(perm)
    return a, x


def _same(got, expected):
    expected = np.asarray(expected)
    assert isinstance(got, cp.ndarray)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape
    g = got.get()
    if expected.dtype.kind in "fc":
        tol = {"e": 2e-2, "f": 1e-4, "F": 1e-4}.get(expected.dtype.char, 1e-10)
        np.testing.assert_allclose(g, expected, rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, expected)


def _compare(np_call, cp_call):
    """Both succeed with the same result, or both raise the same exception type."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = np_call()
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            with pytest.raises(type(e)):
                cp_call()
            return
        _same(cp_call(), expected)


UFUNCS = ["add", "subtract", "multiply", "maximum", "minimum", "equal", "less", "logical_and"]


@given(views(), st.sampled_from(UFUNCS), st.integers(0, 3))
def test_binary_ufuncs_broadcast_against_numpy(pair, name, which):
    a, x = pair
    # The second operand: the array itself, a broadcastable slice of it, or a scalar.
    b, y = [(a, x), (a[..., :1], x[..., :1]) if a.ndim else (a, x), (3, 3), (2.5, 2.5)][which]
    _compare(lambda: getattr(np, name)(a, b), lambda: getattr(cp, name)(x, y))


REDUCTIONS = ["sum", "prod", "max", "min", "mean", "argmax", "any", "all", "var"]


@given(views(), st.sampled_from(REDUCTIONS), st.data())
def test_reductions_against_numpy(pair, name, data):
    a, x = pair
    axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim - 1, a.ndim))) if a.ndim else None
    keepdims = data.draw(st.booleans())
    if name == "prod" and a.dtype.kind in "fc" and a.size > 40:
        return  # long float products overflow at places that depend on the order of multiplication
    wide = a
    if a.dtype == np.float16 and name in ("sum", "prod", "mean", "var"):
        wide = a.astype(np.float32)  # cuarray accumulates float16 in float32 (NumPy's sum stays in float16)

    def expected():
        r = getattr(np, name)(wide, axis=axis, keepdims=keepdims)
        return np.asarray(r).astype(np.float16) if wide is not a else r

    _compare(expected, lambda: getattr(cp, name)(x, axis=axis, keepdims=keepdims))


@given(views(), dtypes)
def test_astype_against_numpy(pair, dtype):
    a, x = pair
    _compare(lambda: a.astype(dtype), lambda: x.astype(dtype))


@given(views(), st.data())
def test_reshape_and_transpose_against_numpy(pair, data):
    a, x = pair
    shape = data.draw(st.sampled_from([(-1,), (a.size,), (1, -1), (-1, 1), (2, -1), (3, 5)]))
    _compare(lambda: a.reshape(shape), lambda: x.reshape(shape))
    _compare(lambda: a.T.copy(), lambda: x.T.copy())


@given(views(), st.data())
def test_indexing_and_assignment_against_numpy(pair, data):
    a, x = pair
    if a.ndim == 0:
        return
    n = a.shape[0]
    kind = data.draw(st.sampled_from(["int", "slice", "fancy", "mask"]))
    if kind == "int":
        key = data.draw(st.integers(-n - 1, n))
    elif kind == "slice":
        key = slice(data.draw(st.integers(-n - 1, n + 1)), None, data.draw(st.sampled_from([1, 2, -1, -3])))
    elif kind == "fancy":
        key = np.array(data.draw(st.lists(st.integers(-n - 1, n), max_size=6)), dtype=np.int64)
    else:
        key = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    dkey = cp.asarray(key) if isinstance(key, np.ndarray) else key
    _compare(lambda: a[key], lambda: x[dkey])
    b, y = a.copy(), x.copy()
    value = a.dtype.type(1)

    def np_set():
        b[key] = value
        return b

    def cp_set():
        y[dkey] = value
        return y

    _compare(np_set, cp_set)
