"""CuPy's wavelets without a device: CuPy 14.2's names and signatures (SciPy 1.15 removed them, so there is no
SciPy to compare with), and CuPy's deprecation warning, given before any device work."""

import inspect

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest

# CuPy 14.2's cupyx/scipy/signal/_wavelets.py: its parameters and defaults
SIGNATURES = {
    "ricker": [("points", inspect.Parameter.empty), ("a", inspect.Parameter.empty)],
    "morlet": [("M", inspect.Parameter.empty), ("w", 5.0), ("s", 1.0), ("complete", True)],
    "morlet2": [("M", inspect.Parameter.empty), ("s", inspect.Parameter.empty), ("w", 5)],
    "cwt": [
        ("data", inspect.Parameter.empty),
        ("wavelet", inspect.Parameter.empty),
        ("widths", inspect.Parameter.empty),
    ],
}


def test_names_and_signatures_are_cupys():
    for name, parameters in SIGNATURES.items():
        assert name in sig.__all__
        f = getattr(sig, name)
        assert f.__name__ == name
        assert [(p.name, p.default) for p in inspect.signature(f).parameters.values()] == parameters, name


@pytest.mark.nogpu
@pytest.mark.parametrize(
    "call",
    [
        lambda: sig.ricker(10, 2.0),
        lambda: sig.morlet(10),
        lambda: sig.morlet2(10, 2.0),
        lambda: sig.cwt(np.ones(8), sig.ricker, [1]),
    ],
    ids=["ricker", "morlet", "morlet2", "cwt"],
)
def test_warns_before_any_device_work(call):
    """CuPy's VisibleDeprecationWarning, with CuPy's message, comes first; the wavelet itself is device work,
    which fails here."""
    with (
        pytest.warns(np.exceptions.VisibleDeprecationWarning) as record,
        pytest.raises(cp.cuda.CUDARuntimeError, match=r"(?i)no CUDA driver or device"),
    ):
        call()
    assert str(record[0].message) == (
        "Following the change in SciPy 1.12, all wavelet functions have been deprecated in CuPy v14 and are "
        "planned to be removed in the future. To request continued support of the features, please leave a "
        "comment at https://github.com/cupy/cupy/issues/8864."
    )
