"""How many CUDA devices the tests may use, and the skips that follow from it (one source for cuarray.testing,
the pytest plugin and the project's own conftest)."""

import functools

__all__ = ["requires_gpus"]

NO_GPU_REASON = "no CUDA device available (cuarray.cuda.is_available() is False)"


@functools.cache
def device_count():
    """The CUDA devices cuarray sees: 0 without a driver or device. Asked once per process; never raises (an
    is_available() that raised would be a bug of its own, not a reason to fail every test)."""
    from cuarray import cuda

    try:
        return cuda.runtime.getDeviceCount() if cuda.is_available() else 0
    except Exception:  # noqa: BLE001
        return 0


def check_count(n):
    """`n` as the int number of devices a test needs (at least 1), else TypeError or ValueError."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(
            f"requires_gpus takes the number of CUDA devices a test needs, such as "
            f"requires_gpus(2); got {n!r}"
        )
    if n < 1:
        raise ValueError(f"requires_gpus needs at least 1 CUDA device, got {n}")
    return n


def skip_reason(n):
    """Why a test that needs `n` devices cannot run here, or None if it can."""
    found = device_count()
    if found >= n:
        return None
    if found == 0 and n == 1:
        return NO_GPU_REASON
    return f"needs {n} CUDA device{'s' if n > 1 else ''}, found {found}"


def requires_gpus(n):
    """Decorator (a pytest mark) that skips a test, or every test of a class or module (`pytestmark =
    requires_gpus(2)`), with a reason saying how many devices were found, where there are fewer than `n`."""
    import pytest

    reason = skip_reason(check_count(n))
    return pytest.mark.skipif(reason is not None, reason=reason or "")
