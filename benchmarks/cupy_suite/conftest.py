"""pytest's setup for CuPy's own test suite run against cuarray. run.sh copies this file to the root of its
working folder, above CuPy's `tests/`, beside CuPy's pyproject.toml (whose pytest settings apply, but for
xfail_strict, which run.sh turns off).

CUPY_SUITE_MODE says which `cupy` must be imported: `cuarray` (the default: the shim in CUPY_SUITE_SHIM, which
must win over an installed CuPy) or `reference` (the installed CuPy, for the collection that counts the
tests CuPy itself has). Anything else stops the run here, before a test is collected.
"""

import os
import sys

import pytest

MODE = os.environ.get("CUPY_SUITE_MODE", "cuarray")


def _check_cupy():
    import cupy

    where = os.path.realpath(cupy.__file__)
    if MODE == "reference":
        if "_cupy_suite_alias" in sys.modules:
            raise RuntimeError(
                f"CUPY_SUITE_MODE=reference imported the shim ({where}), not the installed CuPy"
            )
        return f"CuPy {cupy.__version__} from {where} (reference collection)"
    if MODE != "cuarray":
        raise RuntimeError(f"CUPY_SUITE_MODE={MODE!r}: expected 'cuarray' or 'reference'")
    shim = os.path.realpath(os.environ.get("CUPY_SUITE_SHIM", "")) + os.sep
    import cuarray

    if not where.startswith(shim) or cupy.ndarray is not cuarray.ndarray:
        raise RuntimeError(
            f"`import cupy` gave {where}, not the shim under {shim}: an installed CuPy is "
            "ahead of it on sys.path, and the run would test CuPy instead of cuarray"
        )
    testing = os.path.realpath(sys.modules["cupy"].testing.__file__)
    if not testing.startswith(shim):
        raise RuntimeError(f"`cupy.testing` came from {testing}, not CuPy's copy under {shim}")
    return f"cuarray from {os.path.dirname(os.path.realpath(cuarray.__file__))} as `cupy` (shim {shim})"


# At import, so that a wrong `cupy` stops the run before collection (and in every xdist worker). Beside
# run.sh this is the source copy, which only the harness's own tests (tests/test_cupy_suite_harness.py) load.
_SOURCE_COPY = os.path.exists(os.path.join(os.path.dirname(os.path.abspath(__file__)), "run.sh"))
_HEADER = "benchmarks/cupy_suite's own tests" if _SOURCE_COPY else _check_cupy()


def pytest_report_header(config):
    return _HEADER


def pytest_collection_modifyitems(config, items):
    if _SOURCE_COPY:
        return
    # CUPY_SUITE_ONLY: "file::Class,..." (suite.py's ONLY); of those files, only those classes run.
    only = [p for p in os.environ.get("CUPY_SUITE_ONLY", "").split(",") if p]
    files = {p.split("::")[0] for p in only}
    keep, drop = [], []
    for item in items:
        kept = item.nodeid.startswith(tuple(p + "::" for p in only))
        outside = item.nodeid.split("::")[0] in files and not kept
        (drop if outside else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def _touched():
    alias = sys.modules.get("_cupy_suite_alias")
    return alias.TOUCHED if alias is not None else []


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _touched().clear()  # what collection made is no test's use (Note [Stand-ins] in _cupy_suite_alias.py)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or _SOURCE_COPY:
        return
    touched = _touched()
    if report.passed and touched:
        # It used a CuPy name that cuarray lacks and still passed: it did not test cuarray (Note [Stand-ins]).
        names = ", ".join(sorted(set(touched))[:5])
        report.outcome = "failed"
        report.longrepr = (
            f"NotImplementedError: the test used CuPy names that cuarray lacks ({names}); "
            "placeholders of benchmarks/cupy_suite's shim"
        )
        if hasattr(report, "wasxfail"):
            del report.wasxfail
    elif report.passed and hasattr(report, "wasxfail"):
        # A test CuPy marks xfail that passes here is reported as passed (run.sh sets xfail_strict off:
        # matching NumPy where CuPy does not is no failure); the property lets the report count those.
        item.user_properties.append(("xpassed", "1"))  # junitxml writes the item's, at teardown
