#!/usr/bin/env bash
# The multi-GPU check on a machine with 4 GPUs, in one run, from the repository root after
#   pip install --no-build-isolation --no-deps -q .
#   bash benchmarks/multi_gpu_check.sh
# Steps: Dask's wheels (installed from .whl/dask if missing), the GPUs, lesson 000's data-transfer exercise
# (solution, unfixed starter) and walk-through, notebooks/00_*, the multi-GPU tests, peer copies beside
# CuPy, the Dask scaling sweep. Each step prints a PASS/FAIL line; a failed step does not stop the others;
# the exit status is 1 if any failed. Logs and result files are copied to $OUT when it is set.
# Environment: PYTHON (default python3), NEED_GPUS (default 4), CHECK_BUDGET_S (default 480: steps that
# would start after it fail as out of time), DASK_EXAMPLE_ARGS (passed to each run of the Dask example, e.g.
# "--gram-rows 2097152"; by default its Gram matrix's input fills 60% of one GPU's memory).
set -u
cd "$(dirname "$0")/.." || exit 1

export PY="${PYTHON:-python3}"
NEED_GPUS="${NEED_GPUS:-4}"
DEADLINE=$((SECONDS + ${CHECK_BUDGET_S:-480}))
LOGS="$(mktemp -d /tmp/multi_gpu_check.XXXXXX)"
RESULTS="$PWD/benchmarks/results"
STARTED_AT="$(date +%s)"
declare -a NAMES=() VERDICTS=()

# step NAME LIMIT_S COMMAND: runs COMMAND (a bash string) with a time limit, its output shown and logged.
step() {
  local name=$1 limit=$2 cmd=$3 n=$((${#NAMES[@]} + 1)) left=$((DEADLINE - SECONDS)) t0=$SECONDS rc
  ((limit > left)) && limit=$left
  printf '\n==================== [%d] %s\n' "$n" "$name"
  if ((limit <= 0)); then
    rc=124
    echo "(no time left in the check's budget)"
  else
    timeout -k 10 "$limit" bash -o pipefail -c "$cmd" 2>&1 | tee "$LOGS/step$n.log"
    rc=${PIPESTATUS[0]}
  fi
  local verdict="PASS"
  if ((rc != 0)); then
    verdict="FAIL (exit $rc$( ((rc == 124)) && echo ", out of time after ${limit} s"))"
  fi
  printf -- '---- %s [%d] %s (%d s)\n' "$verdict" "$n" "$name" $((SECONDS - t0))
  NAMES+=("$name")
  VERDICTS+=("$verdict")
}

step "Dask and distributed (wheels from .whl/dask if missing)" 180 '
  if "$PY" -c "import dask.array, distributed" 2>/dev/null; then
    echo "already installed"
  elif [ -d .whl/dask ]; then
    "$PY" -m pip install -q --no-index --find-links .whl/dask "dask[array]" distributed || exit 1
  else
    echo "dask is missing and there is no .whl/dask folder to install it from"; exit 1
  fi
  "$PY" -c "import dask, distributed; print(\"dask\", dask.__version__, \"distributed\", distributed.__version__)"'

step "GPUs (need $NEED_GPUS)" 60 '
  nvidia-smi -L
  nvidia-smi topo -m || true
  "$PY" - '"$NEED_GPUS"' <<"EOF"
import sys
import cuarray
n = cuarray.cuda.runtime.getDeviceCount()
print("cuarray", cuarray.__version__, "sees", n, "GPU(s)")
try:
    import cupy
    rt = cupy.cuda.runtime
    m = rt.getDeviceCount()
    print("CuPy", cupy.__version__, "sees", m, "GPU(s); peer access possible (row: from, column: to):")
    for i in range(m):
        print(f"  GPU {i}: " + " ".join("-" if i == j else str(rt.deviceCanAccessPeer(i, j)) for j in range(m)))
except Exception as e:
    print("CuPy:", type(e).__name__, e)
sys.exit(0 if n >= int(sys.argv[1]) else 1)
EOF'

step "lesson 000 exercise: the solution prints the lesson's output" 120 \
  '"$PY" benchmarks/lesson000_multi_gpu.py solution'
step "lesson 000 exercise: the unfixed starter fails with a Python exception naming the devices" 120 \
  '"$PY" benchmarks/lesson000_multi_gpu.py starter'
step "lesson 000 walk-through: Device(1).use(), with Device(3), asarray across GPUs" 120 \
  '"$PY" benchmarks/lesson000_multi_gpu.py walkthrough'

step "notebooks/00_* top to bottom, every multi-GPU cell run" 240 '
  out=$(mktemp)
  "$PY" notebooks/run.py notebooks/00_*.ipynb 2>&1 | tee "$out" || exit 1
  if grep -q "^Skipped" "$out"; then echo "FAIL: cells were skipped for lack of GPUs"; exit 1; fi
  grep -q "<CUDA Device 3>" "$out" || { echo "FAIL: no array on GPU 3 was printed"; exit 1; }'

# The tests that need several GPUs: marked multi_gpu or requires_gpus(n) (neither implies `gpu`, so they are
# selected by those markers), the Dask example's tests, and the data-transfer exercise's test.
step "pytest: the multi-GPU tests, none skipped for lack of GPUs" 300 '
  out=$(mktemp); rc=0
  files=$(grep -rlE "mark\.multi_gpu|requires_gpus\([0-9]" tests --include="test_*.py" | grep -v -e test_pytest_plugin -e test_testing)
  "$PY" -m pytest -q -rs -p no:cacheprovider -m "multi_gpu or requires_gpus" $files 2>&1 | tee "$out" || rc=1
  "$PY" -m pytest -q -rs -p no:cacheprovider tests/test_dask.py -k multi_gpu_example 2>&1 | tee -a "$out" || rc=1
  "$PY" -m pytest -q -rs -p no:cacheprovider examples/exercises/test_data_transfer.py 2>&1 | tee -a "$out" || rc=1
  if grep -E "^SKIPPED" "$out"; then echo "FAIL: tests above were skipped"; rc=1; fi
  exit $rc'

step "peer copies between every pair of GPUs, beside CuPy" 240 '
  out=$(mktemp)
  "$PY" benchmarks/run.py --filter multigpu --libs cuarray,cupy 2>&1 | tee "$out" || exit 1
  rows=$(grep -c "^| multigpu" "$out"); want=$(( '"$NEED_GPUS"' * ('"$NEED_GPUS"' - 1) ))
  if grep "^| multigpu" "$out" | grep -q "n/a"; then echo "FAIL: a copy failed or differed (n/a above)"; exit 1; fi
  if [ "$rows" -ne "$want" ]; then echo "FAIL: $rows rows, expected $want"; exit 1; fi'

# Each run also times one block's Gram on one GPU; a step faster than that allows fails the sweep.
step "Dask example: Gram step on 1, 2 and 4 GPUs" 360 \
  '"$PY" benchmarks/dask_scaling.py --timeout 150 -- '"${DASK_EXAMPLE_ARGS:-}"

printf '\n==================== summary (%d s)\n' $((SECONDS))
failed=0
for i in "${!NAMES[@]}"; do
  printf '%-6s [%d] %s\n' "${VERDICTS[$i]%% *}" $((i + 1)) "${NAMES[$i]}"
  [[ ${VERDICTS[$i]} == PASS ]] || failed=1
done
if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT/multi_gpu_check/results"
  find "$LOGS" -name "step*.log" -exec cp {} "$OUT/multi_gpu_check/" \;
  find "$RESULTS" -maxdepth 1 -type f -newermt "@$STARTED_AT" -exec cp {} "$OUT/multi_gpu_check/results/" \;
  echo "logs and result files copied to $OUT/multi_gpu_check"
fi
exit $failed
