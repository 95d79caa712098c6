#!/usr/bin/env bash
# CuPy's own test suite against cuarray: `import cupy` / `import cupyx` resolve to cuarray through the shim in
# shim/, CuPy's own cupy.testing judges, CuPy's pyproject.toml gives pytest's settings.
#
#   benchmarks/cupy_suite/run.sh SDIST OUTDIR [ROW ...]
#
# SDIST: an unpacked CuPy source distribution (cupy-14.2.0/, with tests/ and cupy/testing/). OUTDIR gets
# junit-LABEL.xml, pytest-LABEL.log, reference-LABEL.txt (the tests the installed CuPy collects, where one is
# installed), report.md (a pass table by directory and the failures grouped by cause) and failed.txt.
# ROW: some of core fusion creation manipulation math logic sorting statistics indexing linalg fft random lib
# io padding cuda signal (suite.py's ROWS); all when none is named. Runs of different rows into one OUTDIR
# add up in one report.md.
#
# Environment: CUPY_SUITE_WORKERS (pytest-xdist workers, 16), CUPY_SUITE_TIMEOUT (seconds a test, 300; 0: no
# limit), CUPY_SUITE_BUDGET (seconds for the whole pytest run, after which it is interrupted and what ran is
# reported; 0: no limit), CUPY_SUITE_COLLECT_ONLY=1 (collect, run nothing: works without a GPU),
# CUPY_SUITE_REFERENCE=0 (skip the collection with the installed CuPy), CUPY_SUITE_MARKERS (a pytest -m
# expression for the reference collection and the run alike, such as "not slow").
# CUPY_TEST_GPU_LIMIT (CuPy's: tests that need more GPUs skip) defaults to the number of GPUs cuarray sees.
# cuarray is the checkout's (python/cuarray with a built _core*.so) if there is one, else the installed one.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
if [ $# -lt 2 ]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}" >&2
  exit 2
fi
sdist=$(cd "$1" && pwd)
mkdir -p "$2"
outdir=$(cd "$2" && pwd)
shift 2
if [ ! -d "$sdist/tests/cupy_tests" ] || [ ! -f "$sdist/cupy/testing/__init__.py" ] \
    || [ ! -f "$sdist/pyproject.toml" ]; then
  echo "run.sh: $sdist is not an unpacked CuPy sdist (needs tests/cupy_tests, cupy/testing," \
    "pyproject.toml)" >&2
  exit 2
fi
selected=$(python3 "$here/suite.py" select "$@")  # stops here on a row it does not know
mapfile -t selection <<<"$selected"
CUPY_SUITE_ONLY=$(python3 "$here/suite.py" only)
export CUPY_SUITE_ONLY
label=$( [ $# -eq 0 ] && echo all || (IFS=-; echo "$*") )
workers=${CUPY_SUITE_WORKERS:-16}
per_test=${CUPY_SUITE_TIMEOUT:-300}
budget=${CUPY_SUITE_BUDGET:-0}
collect_only=${CUPY_SUITE_COLLECT_ONLY:-0}

cuarray_path=
if compgen -G "$repo/python/cuarray/_core*.so" >/dev/null; then
  cuarray_path=$repo/python
fi

# The working folder: CuPy's tests and pytest settings, this conftest above them, and the shim with CuPy's own
# cupy.testing copied in (never into the checkout or the sdist).
work=$(mktemp -d "${TMPDIR:-/tmp}/cupy_suite.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$sdist/tests" "$work/tests"
cp "$sdist/pyproject.toml" "$here/conftest.py" "$work/"
cp -r "$here/shim" "$work/shim"
cp -r "$sdist/cupy/testing" "$work/shim/cupy/testing"
find "$work/shim" -name __pycache__ -prune -exec rm -rf {} +
cd "$work"

common=(-p no:cacheprovider --continue-on-collection-errors)
if [ -n "${CUPY_SUITE_MARKERS:-}" ]; then
  common+=(-m "$CUPY_SUITE_MARKERS")
fi
py_path=${cuarray_path:+$cuarray_path:}${PYTHONPATH:-}

# As CuPy's CI: tests that need more GPUs than there are skip (cupy.testing.multi_gpu), and CuPy's
# tests/conftest.py spreads the xdist workers over the GPUs there are. Left unset where cuarray finds none:
# 0 would make that conftest hide every GPU from the workers.
if [ -z "${CUPY_TEST_GPU_LIMIT:-}" ]; then
  gpus=$(PYTHONPATH=$py_path python3 -c "import cuarray; print(cuarray.cuda.runtime.getDeviceCount())" \
    2>/dev/null || echo 0)
  if [ "$gpus" -gt 0 ]; then
    export CUPY_TEST_GPU_LIMIT=$gpus
  fi
fi
echo "CUPY_TEST_GPU_LIMIT=${CUPY_TEST_GPU_LIMIT:-} (tests that need more GPUs skip)"

# The tests CuPy itself collects here, with the installed CuPy (Note [Counting] in suite.py).
if [ -s "$outdir/reference-$label.txt" ] || [ -s "$outdir/reference-all.txt" ]; then
  echo "reference: from an earlier run into $outdir"
elif [ "${CUPY_SUITE_REFERENCE:-1}" != 0 ]; then
  if CUPY_SUITE_MODE=reference PYTHONPATH=${PYTHONPATH:-} python3 -c "import cupy" 2>/dev/null; then
    CUPY_SUITE_MODE=reference PYTHONPATH=${PYTHONPATH:-} timeout -k 10 300 \
      python3 -m pytest --collect-only -q "${common[@]}" "${selection[@]}" \
      >"$outdir/reference-$label.log" 2>&1 || true
    python3 "$here/suite.py" nodeids "$outdir/reference-$label.log" >"$outdir/reference-$label.txt"
    echo "reference: $(wc -l <"$outdir/reference-$label.txt") tests collected by the installed CuPy"
  else
    echo "reference: no installed CuPy imports here; report.md cannot count the tests of files that" \
      "fail to import"
  fi
fi

export CUPY_SUITE_MODE=cuarray CUPY_SUITE_SHIM=$work/shim PYTHONPATH=$work/shim:$py_path
python3 - <<'EOF' || { echo "run.sh: the shim does not give cuarray as cupy (above)" >&2; exit 3; }
import os, cupy, cuarray
shim = os.path.realpath(os.environ["CUPY_SUITE_SHIM"]) + os.sep
assert os.path.realpath(cupy.__file__).startswith(shim), cupy.__file__
assert cupy.ndarray is cuarray.ndarray
print(f"cupy -> cuarray from {os.path.dirname(cuarray.__file__)}")
EOF

if [ "$collect_only" = 1 ]; then
  python3 -m pytest --collect-only -q "${common[@]}" "${selection[@]}" \
    >"$outdir/collect-$label.log" 2>&1 || true
  python3 "$here/suite.py" collected "$outdir/collect-$label.log"
  exit 0
fi

run=(python3 -m pytest -n "$workers" "${common[@]}" -o xfail_strict=false -q --tb=short -rN
     --max-worker-restart=100000 --junitxml="$outdir/junit-$label.xml" -o junit_logging=no)
if [ "$per_test" != 0 ]; then
  if ! python3 -c "import pytest_timeout" 2>/dev/null; then
    echo "run.sh: pytest-timeout is not installed (or set CUPY_SUITE_TIMEOUT=0)" >&2
    exit 2
  fi
  run+=(--timeout="$per_test" --timeout-method=thread)
fi
if [ "$budget" != 0 ]; then
  # SIGINT first: pytest stops, and still writes the junit file of what ran.
  run=(timeout -s INT -k 60 "$budget" "${run[@]}")
fi
echo "running ${#selection[@]} selections with $workers workers; log: $outdir/pytest-$label.log"
start=$SECONDS
"${run[@]}" "${selection[@]}" >"$outdir/pytest-$label.log" 2>&1 || true
echo "pytest took $((SECONDS - start)) s: $(tail -n 1 "$outdir/pytest-$label.log")"
python3 "$here/suite.py" report "$outdir"
echo "report: $outdir/report.md"
