"""Requirement checks and pytest marks in CuPy's style: ``with_requires``, ``installed``, ``numpy_satisfies``,
``slow`` and ``multi_gpu``. pytest is imported when a mark is made.

The ``slow`` and ``multi_gpu`` markers are a project's to register (CuPy registers them in its
pyproject.toml, not in cupy.testing): under ``--strict-markers`` an unregistered one is an error."""

import importlib.metadata
import os

from cuarray.testing import _devices
from cuarray.testing._loops import add_mark

__all__ = ["installed", "multi_gpu", "numpy_satisfies", "slow", "with_requires"]


def installed(*specifiers):
    """True where every requirement (``'numpy>=1.20'``, ``'scipy'``) is met by an installed distribution. A
    name that is no distribution's is looked up as an import name (``packages_distributions``), as in CuPy."""
    from packaging.requirements import Requirement

    for spec in specifiers:
        requirement = Requirement(spec)
        try:
            version = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            distributions = importlib.metadata.packages_distributions().get(requirement.name)
            if not distributions:
                return False
            version = importlib.metadata.version(distributions[0])
        if requirement.specifier and not requirement.specifier.contains(version, prereleases=True):
            return False
    return True


def numpy_satisfies(version_range):
    """True where the installed NumPy's version is in `version_range` (``'>=2.0'``)."""
    return installed(f"numpy{version_range}")


def with_requires(*requirements):
    """Decorator (a pytest skipif mark): skips the test, with the reason ``requires: <requirements>``, unless
    every requirement is installed (see installed)."""
    import pytest

    return pytest.mark.skipif(not installed(*requirements), reason=f"requires: {','.join(requirements)}")


def slow(*args, **kwargs):
    """``pytest.mark.slow``: used bare as a decorator (``@testing.slow``), or called with the mark's
    arguments."""
    import pytest

    return pytest.mark.slow(*args, **kwargs)


def multi_gpu(gpu_num):
    """Decorator: marks the test ``multi_gpu`` and skips it where fewer than `gpu_num` (at least 2) GPUs may be
    used.

    Note [multi_gpu counts the devices]
    CuPy skips only where ``CUPY_TEST_GPU_LIMIT`` (read when the mark is made) is set below `gpu_num`, and
    otherwise runs the test, which then fails on a machine with too few GPUs. cuarray honours that variable
    and also skips, with requires_gpus' reason, where it finds fewer devices, as its other GPU tests do."""
    import pytest

    if isinstance(gpu_num, bool) or not isinstance(gpu_num, int) or gpu_num < 2:
        raise AssertionError(f"multi_gpu needs at least 2 GPUs, got {gpu_num!r}")
    limit = int(os.environ.get("CUPY_TEST_GPU_LIMIT", "-1"))
    reason = f"{gpu_num} GPUs required" if 0 <= limit < gpu_num else _devices.skip_reason(gpu_num)

    def decorator(f):
        marks = (pytest.mark.multi_gpu, pytest.mark.skipif(reason is not None, reason=reason or ""))
        for mark in marks:
            f = mark(f) if isinstance(f, type) else add_mark(f, mark)
        return f

    return decorator
