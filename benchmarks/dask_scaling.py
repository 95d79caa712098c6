"""How the Gram step of examples/dask_multi_gpu.py scales from 1 to 2 to 4 GPUs: a markdown table.

    python benchmarks/dask_scaling.py [--gpus-list 1,2,4] [--timeout 300] [--out DIR] [-- EXAMPLE ARGUMENTS]

Runs the example once per GPU count (`--gpus N`, one Dask worker per GPU; arguments after `--` go to each
run, e.g. `-- --gram-rows 1048576`), shows its output, and reads the timing line it prints. The table gives
the median time of the Gram step, its throughput, the throughput's speed-up over one GPU and the parallel
efficiency (`-- --gram-size per-gpu` grows b with the GPUs: weak scaling);
the goal is at least 3.5 times one GPU's throughput on 4. A run whose Gram step was faster
than its one-block reference allows (the example's WARNING) fails: that time did not measure the step. A
count beyond the GPUs this machine has is skipped with the count found. Writes dask-scaling-<gpu>.md and
.json to --out (default benchmarks/results). Exits 1 if a run failed or its results differed from NumPy's, else 0.
"""

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "dask_multi_gpu.py"
GRAM_MARK = "@@gram "
GOAL = (4, 3.5)  # on 4 GPUs, at least 3.5 times one GPU's throughput


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gpus-list", default="1,2,4", help="GPU counts to run, comma-separated (default 1,2,4)")
    p.add_argument("--timeout", type=float, default=300, help="seconds one run of the example may take")
    p.add_argument("--out", type=Path, default=Path(__file__).with_name("results"), help="results folder")
    p.add_argument("example_args", nargs=argparse.REMAINDER, help="after --: arguments for every run")
    args = p.parse_args(argv)
    try:
        args.counts = [int(s) for s in args.gpus_list.split(",") if s.strip()]
    except ValueError:
        p.error(f"--gpus-list takes GPU counts such as 1,2,4, got {args.gpus_list!r}")
    if not args.counts or min(args.counts) < 1:
        p.error(f"--gpus-list needs counts of at least 1, got {args.gpus_list!r}")
    args.example_args = [a for a in args.example_args if a != "--"]
    return args


def machine():
    """(GPU count, name of GPU 0) as cuarray sees them; (0, reason) without a GPU."""
    try:
        import cuarray

        count = cuarray.cuda.runtime.getDeviceCount()
        name = cuarray.cuda.runtime.getDeviceProperties(0)["name"]
        return count, name.decode() if isinstance(name, bytes) else str(name)
    except Exception as e:  # noqa: BLE001 - no driver, no device, no cuarray: nothing to run, say why
        return 0, f"no GPU ({type(e).__name__}: {e})"


def run_example(gpus, extra, timeout):
    """Runs the example on `gpus` GPUs, echoing its output; returns (record or None, why it failed or None)."""
    cmd = [sys.executable, str(EXAMPLE), "--gpus", str(gpus), *extra]
    print(f"$ {' '.join(cmd)}", flush=True)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as e:
        print(_text(e.stdout) + _text(e.stderr), flush=True)
        return None, f"timed out after {timeout:.0f} s"
    print(proc.stdout + proc.stderr, flush=True)
    record = next(
        (
            json.loads(line[len(GRAM_MARK) :])
            for line in proc.stdout.splitlines()
            if line.startswith(GRAM_MARK)
        ),
        None,
    )
    if record is not None and not record.get("timing_ok", True):
        return record, (
            f"WARNING: {record['median_s']:.3f} s is faster than one block's reference allows "
            f"({record['ideal_s']:.3f} s): the step was not fully measured"
        )
    if proc.returncode:
        last = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
        return record, f"exit status {proc.returncode}: {last[:200]}"
    if record is None:
        return None, "the run printed no Gram timing (--gram-rows 0?)"
    return record, None


def _text(b):
    return b.decode(errors="replace") if isinstance(b, bytes) else (b or "")


def table(rows):
    """Markdown table of the runs; speed-ups are of throughput (so they hold for a b that grows with the
    GPUs too), relative to the 1-GPU run when there is one."""
    base = next((r["record"]["tflops"] for r in rows if r["gpus"] == 1 and r["record"]), None)
    lines = [
        "| GPUs | rows of b | Gram step median (s) | TFLOP/s | speed-up vs 1 GPU | efficiency | results vs NumPy |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        rec = r["record"]
        if rec is None:
            lines.append(f"| {r['gpus']} | — | — | — | — | — | {r['why']} |")
            continue
        speedup = rec["tflops"] / base if base else None
        cells = [
            str(rec["rows"]),
            f"{rec['median_s']:.3f}",
            f"{rec['tflops']:.1f}",
            f"{speedup:.2f}×" if speedup else "—",
            f"{speedup / r['gpus']:.0%}" if speedup else "—",
            "equal" if r["why"] is None else f"FAIL: {r['why']}",
        ]
        lines.append(f"| {r['gpus']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def goal_line(rows):
    n, want = GOAL
    by_count = {r["gpus"]: r["record"] for r in rows if r["record"] and r["why"] is None}
    if 1 not in by_count or n not in by_count:
        return f"goal (≥ {want}× one GPU's throughput on {n} GPUs): not measured"
    got = by_count[n]["tflops"] / by_count[1]["tflops"]
    return (
        f"goal (≥ {want}× one GPU's throughput on {n} GPUs): {got:.2f}× {'PASS' if got >= want else 'FAIL'}"
    )


def main(argv=None):
    args = parse_args(argv)
    count, gpu = machine()
    print(f"{count} GPU(s): {gpu}", flush=True)
    if count == 0:
        return 1
    rows, started = [], time.perf_counter()
    for n in args.counts:
        if n > count:
            rows.append({"gpus": n, "record": None, "why": f"skipped: needs {n} GPUs, found {count}"})
            continue
        record, why = run_example(n, args.example_args, args.timeout)
        rows.append({"gpus": n, "record": record, "why": why})
    first = next((r["record"] for r in rows if r["record"]), None)
    grows = any(r["record"] and r["record"]["rows"] != first["rows"] for r in rows) if first else False
    shape = (
        "no run"
        if not first
        else f"b float64 with {first['cols']} columns, rows growing with the GPUs (weak scaling)"
        if grows
        else f"b ({first['rows']}, {first['cols']}) float64 in {first['blocks']} blocks"
    )
    text = "\n".join(
        [
            (
                f"Dask Gram step b.T @ b on {gpu}, one worker per GPU, {shape}; "
                f"sweep took {time.perf_counter() - started:.0f} s"
            ),
            "",
            table(rows),
            "",
            goal_line(rows),
        ]
    )
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    stem = "dask-scaling-" + re.sub(r"[^A-Za-z0-9.]+", "-", gpu).strip("-")
    (args.out / f"{stem}.md").write_text(text + "\n", encoding="utf-8")
    (args.out / f"{stem}.json").write_text(
        json.dumps({"gpu": gpu, "gpus_found": count, "runs": rows}, indent=1), encoding="utf-8"
    )
    print(f"wrote {args.out / stem}.md, .json")
    failed = [r for r in rows if r["why"] is not None and not r["why"].startswith("skipped")]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
