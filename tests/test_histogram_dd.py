"""histogram2d and histogramdd against NumPy: bins as counts or edges (per dimension too), ranges, weights,
density, dtypes of the counts and edges, NumPy's errors."""

import cuarray as cp
import numpy as np
import pytest
from conftest import make_data

pytestmark = pytest.mark.gpu


def _close(got, want, rtol=1e-12):
    __tracebackhide__ = True
    want = np.asarray(want)
    assert isinstance(got, cp.ndarray), type(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (
        f"{got.dtype}{got.shape} != {want.dtype}{want.shape}"
    )
    np.testing.assert_allclose(got.get(), want, rtol=rtol, atol=0, equal_nan=True)


def _check(got, want, rtol=1e-12):
    __tracebackhide__ = True
    if isinstance(want, (tuple, list)):
        assert isinstance(got, type(want)) and len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w, rtol)
    else:
        _close(got, want, rtol)


def _points(n=200, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=n), rng.normal(size=n) * 3, rng.integers(0, 5, n)


def _dev(*arrays):
    return [cp.asarray(a) for a in arrays]


H2D_CASES = {
    "default": {},
    "count": {"bins": 5},
    "pair": {"bins": [3, 4]},
    "edges_and_count": {"bins": [np.linspace(-2, 2, 5), 3]},
    "shared_edges": {"bins": np.array([-1, 0, 1, 2])},
    "range": {"range": [(-1, 1), (0, 2)], "bins": 4},
    "range_float32": {"range": [(np.float32(-1), np.float32(1)), (0, 2)], "bins": 4},
    "density": {"density": True, "bins": [[-3, 0, 0.5, 3], 6]},
    "five_counts_as_edges": {"bins": [1, 2, 3, 4, 5]},
}


@pytest.mark.parametrize("case", list(H2D_CASES))
@pytest.mark.parametrize("weighted", [False, True])
def test_histogram2d(case, weighted):
    x, y, _ = _points()
    kwargs = dict(H2D_CASES[case])
    w = np.random.default_rng(1).uniform(size=x.size) if weighted else None
    dev = {
        k: [cp.asarray(b) if isinstance(b, np.ndarray) else b for b in v]
        if k == "bins" and isinstance(v, list)
        else cp.asarray(v)
        if isinstance(v, np.ndarray)
        else v
        for k, v in kwargs.items()
    }
    got = cp.histogram2d(*_dev(x, y), weights=None if w is None else cp.asarray(w), **dev)
    _check(got, np.histogram2d(x, y, weights=w, **kwargs))


@pytest.mark.parametrize(
    "dtypes",
    [
        ("float32", "float32"),
        ("int8", "float32"),
        ("float16", "float16"),
        ("int64", "uint8"),
        ("bool", "int16"),
        ("float64", "float32"),
    ],
    ids=str,
)
def test_histogram2d_dtypes(dtypes):
    a, b = (make_data((60,), dt, seed=i) for i, dt in enumerate(dtypes))
    _check(cp.histogram2d(*_dev(a, b), bins=4), np.histogram2d(a, b, bins=4))
    _check(cp.histogram2d(*_dev(a, b), bins=3, density=True), np.histogram2d(a, b, bins=3, density=True))


def test_histogram2d_strided_lists_and_edges_cases():
    x, y, _ = _points(seed=2)
    base = np.stack([x, y])
    xs, ys = base[0, ::-3], base[1, 1::3][: base[0, ::-3].size]
    dev = cp.asarray(base)
    _check(cp.histogram2d(dev[0, ::-3], dev[1, 1::3][: xs.size], bins=6), np.histogram2d(xs, ys, bins=6))
    _check(
        cp.histogram2d([0.5, 1.5, 2.0], [1, 2, 2], bins=2), np.histogram2d([0.5, 1.5, 2.0], [1, 2, 2], bins=2)
    )
    # Values on the last edge count in the last bin; outside every edge, nowhere; NaN, nowhere.
    a = np.array([0.0, 1.0, 2.0, 3.0, -1.0, 4.0, np.nan])
    e = np.array([0.0, 1.5, 3.0])
    _check(
        cp.histogram2d(*_dev(a, a), bins=[cp.asarray(e), cp.asarray(e)]), np.histogram2d(a, a, bins=[e, e])
    )
    # Empty and single points, and all-equal data.
    _check(cp.histogram2d(*_dev(x[:0], y[:0])), np.histogram2d(x[:0], y[:0]))
    _check(cp.histogram2d(*_dev(x[:1], y[:1]), bins=2), np.histogram2d(x[:1], y[:1], bins=2))
    _check(
        cp.histogram2d(*_dev(np.full(5, 2.0), np.full(5, 7)), bins=3),
        np.histogram2d(np.full(5, 2.0), np.full(5, 7), bins=3),
    )


DD_CASES = {
    "default": {},
    "counts": {"bins": (2, 3, 4)},
    "mixed": {"bins": [np.array([-1.0, 0, 1]), 4, [0, 1, 2, 5]]},
    "counts_array": {"bins": np.array([2, 3, 4])},
    "range": {"range": [(0, 1), None, (-2, 2)], "bins": 3},
    "density": {"density": True, "bins": (4, 2, [0, 2, 3, 4])},
}


@pytest.mark.parametrize("case", list(DD_CASES))
@pytest.mark.parametrize("weighted", [False, True])
def test_histogramdd(case, weighted):
    sample = np.stack(_points(seed=3), axis=1)
    kwargs = dict(DD_CASES[case])
    w = np.random.default_rng(4).uniform(size=sample.shape[0]) if weighted else None
    bins = kwargs.pop("bins", 10)
    dev_bins = (
        cp.asarray(bins)
        if isinstance(bins, np.ndarray)
        else [cp.asarray(b) if isinstance(b, np.ndarray) else b for b in bins]
        if isinstance(bins, (list, tuple))
        else bins
    )
    got = cp.histogramdd(cp.asarray(sample), dev_bins, weights=None if w is None else cp.asarray(w), **kwargs)
    _check(got, np.histogramdd(sample, bins, weights=w, **kwargs))


def test_histogramdd_sample_forms():
    x, y, z = _points(seed=5)
    sample = np.stack([x, y, z], axis=1)
    _check(cp.histogramdd([cp.asarray(x), cp.asarray(y), cp.asarray(z)]), np.histogramdd([x, y, z]))
    _check(cp.histogramdd(cp.asarray(x), bins=4), np.histogramdd(x, bins=4))  # 1-d: one dimension
    _check(cp.histogramdd([[1, 2], [3, 4], [5, 6]], bins=2), np.histogramdd([[1, 2], [3, 4], [5, 6]], bins=2))
    _check(cp.histogramdd(cp.asarray(sample)[::-2, ::2], bins=3), np.histogramdd(sample[::-2, ::2], bins=3))
    f32 = sample.astype(np.float32)
    _check(
        cp.histogramdd(cp.asarray(f32), bins=3, density=True), np.histogramdd(f32, bins=3, density=True), 1e-6
    )
    _check(cp.histogramdd(cp.asarray(sample[:, :1])), np.histogramdd(sample[:, :1]))
    _check(cp.histogramdd(cp.asarray(3.0)), np.histogramdd(np.float64(3.0)))


def _same_error(name, args, kwargs):
    __tracebackhide__ = True
    with pytest.raises(Exception) as want:
        getattr(np, name)(*args, **kwargs)

    def dev(v):
        return cp.asarray(v) if isinstance(v, np.ndarray) else v

    with pytest.raises(want.type) as got:
        getattr(cp, name)(*[dev(a) for a in args], **{k: dev(v) for k, v in kwargs.items()})
    assert str(got.value) == str(want.value)


_S = np.stack(_points(n=20, seed=6), axis=1)
ERRORS = {
    "bins_dimension": ("histogramdd", (_S,), {"bins": [2, 3]}),
    "bins_zero": ("histogramdd", (_S,), {"bins": 0}),
    "bins_float": ("histogramdd", (_S,), {"bins": 2.5}),
    "bins_decreasing": ("histogramdd", (_S,), {"bins": [[1, 0], 2, 2]}),
    "range_dimension": ("histogramdd", (_S,), {"range": [(0, 1)]}),
    "range_order": ("histogramdd", (_S,), {"range": [(1, 0), None, None]}),
    "range_infinite": ("histogramdd", (_S,), {"range": [(0, np.inf), None, None]}),
    "sample_3d": ("histogramdd", (np.zeros((2, 2, 2)),), {}),
    "no_dimensions": ("histogramdd", (np.zeros((3, 0)),), {}),
    "nan_data": ("histogramdd", (np.array([[1.0, np.nan]]),), {}),
    "weights_length": ("histogramdd", (_S,), {"weights": np.ones(3)}),
    "lengths": ("histogram2d", (_S[:, 0], _S[:3, 1]), {}),
    "one_bins": ("histogram2d", (_S[:, 0], _S[:, 1]), {"bins": [3]}),
    "pair_as_counts": ("histogram2d", (_S[:, 0], _S[:, 1]), {"bins": np.array([0, 1])}),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors_are_numpys(case):
    _same_error(*ERRORS[case])


def test_numpy_input_raises():
    x, y, _ = _points(n=10)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.histogram2d(x, cp.asarray(y))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.histogramdd(np.stack([x, y], axis=1))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.histogramdd(cp.asarray(np.stack([x, y], axis=1)), bins=[np.array([0.0, 1.0]), 2])
