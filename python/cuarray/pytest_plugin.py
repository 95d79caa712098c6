"""cuarray's pytest plugin, opt-in: a conftest names it (``pytest_plugins = ["cuarray.pytest_plugin"]``), or the
command line does (``pytest -p cuarray.pytest_plugin``; both at once register it once). Installing cuarray adds
no plugin to other projects' test runs.

- ``xp``: a fixture that runs a test twice, with ``numpy`` (id ``numpy``) and with ``cuarray`` (id ``cuarray``,
  marked ``gpu``).
- ``@pytest.mark.gpu``: skip, with a reason, where cuarray finds no CUDA device.
- ``@pytest.mark.requires_gpus(n)``: skip, with a reason saying how many devices were found, where there are
  fewer than `n` (``cuarray.testing.requires_gpus(n)`` does the same without the plugin).

Loading the plugin imports cuarray, which touches no GPU (Note [Starting CUDA on first use]); the devices are
counted once, and only where a collected test is marked.
"""

import importlib

import pytest


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "gpu: needs a CUDA device; skipped with a reason where cuarray finds none"
    )
    config.addinivalue_line(
        "markers",
        "requires_gpus(n): needs at least n CUDA devices; skipped with a reason saying how many were found",
    )


def _needed(item):
    """How many devices `item` needs by its markers (0: none asked for)."""
    needed = 1 if item.get_closest_marker("gpu") is not None else 0
    for mark in item.iter_markers("requires_gpus"):
        from cuarray.testing import _devices

        # One argument, positional or named n; anything else is shown back in the error.
        n = mark.args[0] if len(mark.args) == 1 and not mark.kwargs else mark.kwargs.get("n", mark.args)
        try:
            needed = max(needed, _devices.check_count(n))
        except (TypeError, ValueError) as e:
            raise pytest.UsageError(f"{item.nodeid}: {e}") from None
    return needed


# Last, so that markers other hooks add at collection (a conftest's aliases) count too.
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        needed = _needed(item)
        if needed:
            from cuarray.testing import _devices

            reason = _devices.skip_reason(needed)
            if reason is not None:
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(
    params=[pytest.param("numpy", id="numpy"), pytest.param("cuarray", id="cuarray", marks=pytest.mark.gpu)]
)
def xp(request):
    """The array module under test: numpy, then cuarray (skipped with a reason where there is no GPU)."""
    return importlib.import_module(request.param)
