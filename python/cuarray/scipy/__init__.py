"""cuarray.scipy: SciPy's interfaces on the device (cuarray.scipy.signal, cuarray.scipy.special,
cuarray.scipy.fft, cuarray.scipy.fftpack)."""


def __getattr__(name):
    if name in ("signal", "special", "fft", "fftpack"):
        import importlib

        return importlib.import_module(f"cuarray.scipy.{name}")
    raise AttributeError(f"module 'cuarray.scipy' has no attribute '{name}'")
