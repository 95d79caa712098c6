"""The FFT layer's Python on a host model of cuFFT (host_model.py), in a child process: no GPU needed."""

import os

from conftest import describe, run_python


def test_fft_layer_on_the_host_model():
    proc = run_python(os.path.join(os.path.dirname(os.path.abspath(__file__)), "host_model.py"), timeout=600)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.strip() == "ok", describe(proc)
