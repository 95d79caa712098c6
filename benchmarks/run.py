"""cuarray beside CuPy, PyTorch, NumPy and JAX, in one process and one run.

    python benchmarks/run.py [--quick] [--filter NAME ...] [--libs cuarray,cupy,torch,numpy,jax]

Progress goes to stderr; the markdown table is printed last on stdout and written, with the JSON and a
chart, to benchmarks/results/<gpu-name>[-quick][-partial].{md,json,png}. See benchmarks/README.md.
"""

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path

import cases_bandwidth
import cases_lessons
import cases_library
import cases_multi_gpu
import cases_overhead
import cases_sorting
import cases_startup
import cases_transfer
import harness
import report

CASES = [
    *cases_overhead.CASES,
    *cases_bandwidth.CASES,
    *cases_transfer.CASES,
    *cases_library.CASES,
    *cases_sorting.CASES,
    *cases_startup.CASES,
    *cases_lessons.CASES,
    *cases_multi_gpu.CASES,
]
assert len({c.name for c in CASES}) == len(CASES), "benchmark names must be unique"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="fewer repeats and lighter calls (< 3 min)")
    p.add_argument("--filter", action="append", default=[], help="part of a case or group name (repeatable)")
    p.add_argument("--libs", default=",".join(harness.ALL_LIBS), help="libraries to compare (default: all)")
    p.add_argument("--out", type=Path, default=Path(__file__).with_name("results"), help="results folder")
    p.add_argument("--list", action="store_true", help="list the selected cases and exit")
    p.add_argument("--child", help=argparse.SUPPRESS)  # internal: one case in a fresh process
    args = p.parse_args(argv)
    args.libs = [s.strip() for s in args.libs.split(",") if s.strip()]
    args.filter = [s.lower() for s in args.filter]  # names hold commas: one substring per --filter
    bad = set(args.libs) - set(harness.ALL_LIBS)
    if bad:
        p.error(f"unknown libraries {sorted(bad)}; choose from {','.join(harness.ALL_LIBS)}")
    return args


def select(filters, quick):
    """Cases for this mode that match a filter, plus the ceilings they are measured against."""
    mode = "quick" if quick else "full"
    chosen = {
        c.name
        for c in CASES
        if c.only in (None, mode)
        and (not filters or any(f in c.name.lower() or f in c.group for f in filters))
    }
    chosen |= {c.ceiling for c in CASES if c.name in chosen and c.ceiling}
    return [c for c in CASES if c.name in chosen]


def run_child(args, budget):
    """`--child NAME`: measure one case in one library here and print the result for the parent."""
    case = next(c for c in CASES if c.name == args.child)
    libs, missing = harness.load_libs(args.libs)
    result = next(iter(harness.run_case(case, libs, budget, in_child=True).values()), None)
    result = result or {"error": f"library not available: {missing}"}
    print(harness.CHILD_MARK + json.dumps(result))
    return 0


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    args = parse_args(argv)
    budget = harness.QUICK if args.quick else harness.FULL
    if args.child:
        return run_child(args, budget)
    # TF32 is on only where a case asks for it, in its own process (harness.TF32_ENV).
    for var in harness.TF32_ENV:
        os.environ.pop(var, None)
    cases = select(args.filter, args.quick)
    if args.list:
        print("\n".join(f"{c.group:<9} {c.name}" for c in cases))
        return 0

    started = time.perf_counter()
    libs, missing = harness.load_libs(args.libs)
    notes = [f"{harness.LABELS[n]} not measured: {why}" for n, why in missing.items()]
    if not any(lib.gpu for lib in libs.values()):
        notes.append("No GPU library was found (cuarray, CuPy, PyTorch): only NumPy figures below.")
    for note in notes:
        print(note, file=sys.stderr)

    records, best_rates, stopped = [], {}, None
    signal.signal(signal.SIGTERM, _interrupt)  # as `timeout` and job schedulers stop a run
    try:
        for i, case in enumerate(cases, 1):
            raw = harness.run_case(case, libs, budget)
            records.append(report.summarize(case, raw, best_rates))
            print(
                f"[{i:>3}/{len(cases)}] {report.progress_line(records[-1], libs)}",
                file=sys.stderr,
                flush=True,
            )
    except KeyboardInterrupt:  # the cases measured so far are kept, as a partial run
        stopped = f"stopped after {len(records)} of {len(cases)} cases"
        print(stopped, file=sys.stderr)

    meta = report.collect_meta(libs, missing, args.quick, args.filter, time.perf_counter() - started, stopped)
    stem = report.file_stem(meta, args.quick, args.filter or stopped)
    paths, chart_note = report.write_all(records, meta, list(libs), args.out, stem)
    lines = [
        *notes,
        chart_note,
        f"wrote {', '.join(map(str, paths))}",
        f"{meta['gpu']}, driver {meta['driver']}, {meta['mode']} run, {meta['elapsed_s']:.0f} s",
        "",
        report.markdown_table(records, list(libs)),
        "",
        report.summary_line(records),
    ]
    print("\n".join(line for line in lines if line is not None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
