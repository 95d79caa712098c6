"""`python -m cuarray`'s arguments: --help, and what it says of arguments it does not know (no GPU needed)."""

import pytest
from conftest import describe, run_python


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["cache", "--help"], ["bogus", "-h"]])
def test_help_prints_usage_and_exits_0(args):
    proc = run_python("-m", "cuarray", *args, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.startswith("usage: python -m cuarray [cache [clear]]\n"), proc.stdout
    for line in ("  cache clear     empty the kernel cache", "  -h, --help      show this help and exit"):
        assert line in proc.stdout.splitlines(), proc.stdout
    assert proc.stderr == ""


@pytest.mark.parametrize(
    "args", [["--bogus"], ["cache", "purge"], ["cache", "clear", "now"], ["clear"], ["cache", "cache"]]
)
def test_unknown_arguments_print_usage_to_stderr_and_exit_2(args, tmp_path):
    # A cache directory of its own: "cache clear now" must not clear anything.
    kept = tmp_path / "kernels"
    kept.mkdir()
    (kept / "k.bin").write_bytes(b"x")
    proc = run_python("-m", "cuarray", *args, env={"CUARRAY_CACHE_DIR": str(kept)}, timeout=120)
    assert proc.returncode == 2, describe(proc)
    assert proc.stdout == ""
    first, _, usage = proc.stderr.partition("\n\n")
    assert first == f"python -m cuarray: unrecognized arguments: {' '.join(args)}", proc.stderr
    assert usage.startswith("usage: python -m cuarray [cache [clear]]\n"), proc.stderr
    assert (kept / "k.bin").exists()
