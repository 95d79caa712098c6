"""The convolution speedup challenge (lesson 004): transfer_compute_transferback in convolution_speedup_*.py
must convolve host arrays on the GPU and return a host array equal to SciPy's."""

import numpy as np
import pytest
from scipy.signal import convolve2d

HINT = (
    "copy deltas and gauss to the GPU with cp.asarray, convolve them with convolve2d_gpu, and copy the result "
    "back with cp.asnumpy."
)


def convolve_on_gpu(module, deltas, gauss):
    try:
        return module.transfer_compute_transferback(deltas, gauss)
    except Exception as error:  # noqa: BLE001 - any failure is the student's to fix
        pytest.fail(
            f"transfer_compute_transferback raised {type(error).__name__}: {error}\nHint: {HINT}",
            pytrace=False,
        )


@pytest.mark.gpu
def test_result_is_on_the_host_and_right(load_exercise, monkeypatch):
    module = load_exercise("convolution_speedup")

    def no_cpu(*args, **kwargs):
        raise AssertionError(
            "transfer_compute_transferback must convolve on the GPU, not with SciPy on the CPU"
        )

    monkeypatch.setattr(module, "convolve2d_cpu", no_cpu)
    deltas, gauss = module.make_image(tiles=8)
    result = convolve_on_gpu(module, deltas, gauss)
    assert isinstance(result, np.ndarray), (
        f"transfer_compute_transferback returned a {type(result).__module__}.{type(result).__name__}; it should "
        f"return a NumPy array (the result copied back to the host). Hint: {HINT}"
    )
    np.testing.assert_allclose(result, convolve2d(deltas, gauss), rtol=1e-12, atol=1e-12)


@pytest.mark.gpu
def test_gpu_is_faster_with_transfers(load_exercise):
    module = load_exercise("convolution_speedup")
    deltas, gauss = module.make_image()
    convolve_on_gpu(module, deltas, gauss)  # a failure here is reported with the hint
    speedup = module.speedup(deltas, gauss, repeat=1)
    assert speedup > 1, (
        f"the GPU with transfers should beat the CPU at the lesson's size; speedup = {speedup:.2f}"
    )
