"""array_repr, array_str and array2string (cuarray._printing), repr() and str() of cuarray arrays, and NumPy's
print options, against NumPy."""

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, LAYOUT_NAMES, dtype_id, make_data, make_pair

gpu = pytest.mark.gpu


@pytest.mark.parametrize("name", ["array_repr", "array_str", "array2string"])
def test_numpy_arrays_print_as_in_cupy(name):
    # CuPy's printing functions take what cupy.asnumpy takes, a NumPy array too.
    a = np.arange(3.0)
    assert getattr(cp, name)(a) == getattr(np, name)(a)


def test_print_options_are_numpys():
    assert cp.set_printoptions is np.set_printoptions
    assert cp.get_printoptions is np.get_printoptions
    assert cp.printoptions is np.printoptions


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_repr_and_str_are_numpys(layout, dtype):
    x, a = make_pair(layout, dtype)
    assert repr(x) == repr(a) == cp.array_repr(x)
    assert str(x) == str(a) == cp.array_str(x)
    assert cp.array2string(x) == np.array2string(a)


@gpu
@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_line_width": 20},
        {"precision": 2},
        {"suppress_small": True},
        {"max_line_width": 30, "precision": 1, "suppress_small": True},
    ],
    ids=repr,
)
@pytest.mark.parametrize("name", ["array_repr", "array_str"])
def test_repr_str_arguments(name, kwargs):
    a = make_data((3, 5), "float64") * np.array([1e-9, 1.0, 123.456789, -7.0, 0.5])
    x = cp.asarray(a)
    assert getattr(cp, name)(x, **kwargs) == getattr(np, name)(a, **kwargs)
    assert getattr(cp, name)(x[::-1, ::2], **kwargs) == getattr(np, name)(a[::-1, ::2], **kwargs)
    assert getattr(cp, name)(x, 30, 1, True) == getattr(np, name)(a, 30, 1, True)


ARRAY2STRING_KWARGS = [
    {"separator": ", "},
    {"prefix": "x = ", "separator": ","},
    {"suffix": ";"},
    {"threshold": 5, "edgeitems": 1},
    {"sign": "+"},
    {"floatmode": "fixed"},
    {"formatter": {"float_kind": "{:.1f}".format}},
    {"legacy": "1.13"},
    {"max_line_width": 15, "precision": 3},
]


@gpu
@pytest.mark.parametrize("kwargs", ARRAY2STRING_KWARGS, ids="-".join)
def test_array2string_arguments(kwargs):
    a = make_data((4, 6), "float32", seed=3)
    assert cp.array2string(cp.asarray(a), **kwargs) == np.array2string(a, **kwargs)


@gpu
def test_functions_of_python_values_and_numpy_dispatch():
    assert cp.array_repr([1, 2]) == np.array_repr(np.array([1, 2]))
    assert cp.array_str(2.5) == np.array_str(np.array(2.5))
    x = cp.asarray(make_data((2, 3), "int16"))
    assert np.array_repr(x) == repr(x) and np.array_str(x) == str(x)
    assert np.array2string(x) == cp.array2string(x)


@gpu
def test_repr_honours_print_options():
    a = np.array([1.23456789, 2.5, 1e-10])
    x = cp.asarray(a)
    with cp.printoptions(precision=2, suppress=True):
        assert repr(x) == repr(a) == "array([1.23, 2.5 , 0.  ])"
        assert str(x) == str(a) and cp.array2string(x) == np.array2string(a)
    assert repr(x) == repr(a) != "array([1.23, 2.5 , 0.  ])"
    big_a = np.arange(2000)
    big = cp.asarray(big_a)
    with cp.printoptions(threshold=10, edgeitems=2):
        assert repr(big) == repr(big_a) == "array([   0,    1, ..., 1998, 1999], shape=(2000,))"
    saved = cp.get_printoptions()
    try:
        cp.set_printoptions(linewidth=20, sign="+")
        assert repr(x) == repr(a) and str(x) == str(a) and cp.array_repr(x) == np.array_repr(a)
    finally:
        cp.set_printoptions(**saved)


class _HostBacked:
    """A NumPy array in cuarray's clothes: counts the elements each get() copies."""

    def __init__(self, a, copied):
        self._a, self._copied = a, copied
        self.size, self.shape, self.dtype, self.ndim = a.size, a.shape, a.dtype, a.ndim

    def __getitem__(self, key):
        return _HostBacked(self._a[key], self._copied)

    def get(self):
        self._copied.append(self._a.size)
        return self._a.copy()


@pytest.mark.parametrize(
    "shape",
    [(4000,), (300, 400), (7, 300, 2), (2000, 1), (1001,), (5, 5, 5, 5, 5), (3, 4), (3,) * 7],
    ids=str,
)
@pytest.mark.parametrize("options", [{}, {"edgeitems": 1}, {"threshold": 10}, {"threshold": 10**6}], ids=str)
def test_summarised_arrays_copy_only_their_edges(shape, options):
    # Note [Printing summarised arrays]: the text is NumPy's, from the edge blocks alone where NumPy summarises
    # (and there are at most 64 of them: 2 per summarised axis).
    from cuarray._printing import _printable

    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) * 1.5 - 7
    a.flat[-1] = np.nan
    with np.printoptions(**options):
        copied = []
        host = _printable(_HostBacked(a, copied), None, None)
        assert repr(host) == repr(a) and str(host) == str(a)
        edge, threshold = np.get_printoptions()["edgeitems"], np.get_printoptions()["threshold"]
    blocks = np.prod([2 if n > 2 * edge else 1 for n in shape])
    if a.size > threshold and blocks <= 64:
        assert len(copied) == blocks and sum(copied) == np.prod([min(n, 2 * edge) for n in shape])
    else:
        assert copied == [a.size]


@gpu
@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64", "bool", "float16"])
def test_repr_and_str_of_large_arrays_and_views_are_numpys(dtype):
    a = (np.arange(3000 * 40).reshape(3000, 40) % 97 - 40).astype(dtype)
    x = cp.asarray(a)
    for view in (
        lambda t: t,
        lambda t: t.T,
        lambda t: t[::-3, 1::2],
        lambda t: t[:, 5],
        lambda t: t[None, :, :7],
    ):
        assert repr(view(x)) == repr(view(a))
        assert str(view(x)) == str(view(a))
        assert cp.array2string(view(x), edgeitems=2, threshold=50) == np.array2string(
            view(a), edgeitems=2, threshold=50
        )
    with np.printoptions(threshold=10, edgeitems=1, precision=2):
        assert repr(x[:7, :3]) == repr(a[:7, :3])
