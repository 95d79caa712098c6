"""cuarray.scipy: SciPy's interfaces on the device (cuarray.scipy.signal)."""


def __getattr__(name):
    if name == "signal":
        import importlib

        return importlib.import_module("cuarray.scipy.signal")
    raise AttributeError(f"module 'cuarray.scipy' has no attribute '{name}'")
