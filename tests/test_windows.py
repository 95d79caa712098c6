"""Window functions (bartlett, blackman, hamming, hanning, kaiser) against NumPy."""

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same

pytestmark = pytest.mark.gpu

NAMES = ["bartlett", "blackman", "hamming", "hanning"]
SIZES = [-3, 0, 1, 2, 3, 7, 16, 51, 256]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("M", SIZES)
def test_window(name, M):
    got, want = getattr(cp, name)(M), getattr(np, name)(M)
    assert_same(got, want, atol=1e-15)


@pytest.mark.parametrize("name", NAMES + ["kaiser"])
@pytest.mark.parametrize("M", [np.int8(5), np.float32(6.0), 4.5, True])
def test_window_size_types(name, M):
    args = (M, 3.0) if name == "kaiser" else (M,)
    with np.errstate(invalid="ignore"):  # kaiser(4.5): sqrt of a negative at the last point, in NumPy too
        want = getattr(np, name)(*args)
    assert_same(getattr(cp, name)(*args), want, atol=1e-15)


@pytest.mark.parametrize("M", SIZES)
@pytest.mark.parametrize("beta", [0.0, 0.5, 5.0, 14, 40.0, np.float32(8.6)])
def test_kaiser(M, beta):
    assert_same(cp.kaiser(M, beta), np.kaiser(M, beta), rtol=1e-12, atol=1e-15)


def test_windows_are_device_float64_arrays():
    for w in (cp.bartlett(5), cp.blackman(5), cp.hamming(5), cp.hanning(5), cp.kaiser(5, 2.0)):
        assert isinstance(w, cp.ndarray) and w.dtype == np.float64 and w.shape == (5,)
    assert cp.hanning(0).shape == (0,) and cp.kaiser(-2, 1.0).shape == (0,)
    assert_same(cp.kaiser(1, 100.0), np.ones(1))
