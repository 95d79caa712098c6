"""Turns raw timings into figures (units, ratio to CuPy, fraction of ceiling, pass/fail) and writes the
markdown table, the JSON and the bar chart."""

from __future__ import annotations

import datetime
import importlib.metadata
import json
import platform
import re
import statistics
import subprocess

from harness import LABELS, ON_GPU

TIME_SCALE = {"s": 1.0, "ms": 1e3, "us": 1e6}
RATE_SCALE = {"GB/s": 1e9, "TFLOP/s": 1e12}
UNIT_TEXT = {"us": "µs"}
RATIO_HEADER = "cuarray speed ÷ CuPy (>1: cuarray faster)"


def summarize(case, raw, best_rates):
    """One JSON-ready record. best_rates maps case names to (best rate, whether a GPU reached it), the
    ceilings so far; this case's own is added."""
    median = {lib: statistics.median(r["times"]) for lib, r in raw.items() if "times" in r}
    values = {lib: _in_unit(case, median[lib]) if lib in median else None for lib in raw}
    measured = {lib: v for lib, v in values.items() if v is not None}
    on_gpu = {lib: v for lib, v in measured.items() if lib in ON_GPU}
    if case.unit in RATE_SCALE and measured:  # the best rate reached, on the GPU if any: a ceiling
        best_rates[case.name] = max((on_gpu or measured).values()), bool(on_gpu)
    ceiling, gpu_ceiling = best_rates.get(case.ceiling, (None, None))
    # A host figure over a device ceiling means nothing: fractions stay on the ceiling's side.
    fraction = {lib: v / ceiling for lib, v in measured.items() if ceiling and (lib in ON_GPU) == gpu_ceiling}
    ratio = median["cupy"] / median["cuarray"] if {"cupy", "cuarray"} <= median.keys() else None
    target = case.target
    return {
        "name": case.name,
        "group": case.group,
        "unit": case.unit,
        "target": None
        if target is None
        else {
            "text": target.text(UNIT_TEXT.get(case.unit, case.unit), case.ceiling),
            "kind": target.kind,
            "op": target.op,
            "value": target.value,
        },
        "ceiling": case.ceiling,
        "values": values,
        "errors": {lib: r["error"] for lib, r in raw.items() if "error" in r},
        "skipped": {lib: r["skipped"] for lib, r in raw.items() if "skipped" in r},
        "times_s": {lib: r["times"] for lib, r in raw.items() if "times" in r},
        "speed_vs_cupy": ratio,
        "fraction_of_ceiling": fraction,
        "pass": target.check(values.get("cuarray"), fraction.get("cuarray"), ratio) if target else None,
    }


def _in_unit(case, seconds):
    if case.unit in TIME_SCALE:
        return seconds * TIME_SCALE[case.unit]
    return case.work / seconds / RATE_SCALE[case.unit]


# ---------------------------------------------------------------- text


def fmt(v):
    if v is None:
        return ""
    a = abs(v)
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    return f"{v:.3g}"


def _cell(rec, lib):
    if lib in rec["errors"]:
        return "n/a"
    if lib in rec["skipped"]:
        return "—"
    return fmt(rec["values"][lib])


def _verdict(rec):
    if rec["target"] is None:
        return ""
    return {True: "PASS", False: "FAIL", None: "?"}[rec["pass"]]


def progress_line(rec, libs):
    cells = " | ".join(f"{LABELS[lib]} {_cell(rec, lib) or '-'}" for lib in libs)
    return f"{rec['group']:<9} {rec['name'][:58]:<58} {cells} {UNIT_TEXT.get(rec['unit'], rec['unit'])}"


def markdown_table(records, libs):
    head = [
        "group",
        "benchmark",
        "unit",
        *(LABELS[lib] for lib in libs),
        RATIO_HEADER,
        "cuarray % of ceiling",
        "target (cuarray)",
        "result",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for rec in records:
        frac = rec["fraction_of_ceiling"].get("cuarray")
        row = [
            rec["group"],
            rec["name"],
            UNIT_TEXT.get(rec["unit"], rec["unit"]),
            *(_cell(rec, lib) for lib in libs),
            "" if rec["speed_vs_cupy"] is None else f"{rec['speed_vs_cupy']:.2f}×",
            "" if frac is None else f"{frac:.0%}",
            rec["target"]["text"] if rec["target"] else "",
            _verdict(rec),
        ]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def summary_line(records):
    verdicts = [r["pass"] for r in records if r["target"]]
    return (
        f"targets: {verdicts.count(True)} pass, {verdicts.count(False)} fail, "
        f"{verdicts.count(None)} without a cuarray figure"
    )


def markdown(records, meta, libs):
    m = meta
    out = [
        f"# cuarray benchmarks: {m['gpu']}",
        "",
        f"- date: {m['date']}; mode: {m['mode']}; wall time of the run: {m['elapsed_s']:.0f} s",
        f"- GPU: {m['gpu']}; driver: {m['driver']}; CPU: {m['cpu']}",
        "- CUDA: "
        + (
            "; ".join(
                f"{LABELS[k]}: " + ", ".join(f"{a} {b}" for a, b in v.items() if b)
                for k, v in m["cuda"].items()
            )
            or "none"
        ),
        "- versions: " + ", ".join(f"{k} {v}" for k, v in m["versions"].items()),
        *(f"- not measured: {LABELS[k]} ({v})" for k, v in m["missing_libraries"].items()),
        "",
        'Columns: each library\'s median figure in the unit shown ("n/a": the call failed, error '
        'below; "—": no equivalent, or skipped under --quick). "' + RATIO_HEADER + "\" is CuPy's "
        "time divided by cuarray's. \"% of ceiling\" is cuarray's rate over the best copy (or fill) "
        'rate any GPU library reached in this run. "result" checks cuarray against the target.',
        "",
        markdown_table(records, libs),
        "",
        summary_line(records),
    ]
    errors = [(r["name"], lib, e) for r in records for lib, e in r["errors"].items()]
    if errors:
        out += ["", '## Errors behind "n/a"', ""]
        out += [f"- {name} / {LABELS[lib]}: `{' '.join(e.split())}`" for name, lib, e in errors]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- files


def collect_meta(libs, missing, quick, filters, elapsed, stopped=None):
    infos = {name: lib.info() for name, lib in libs.items()}
    gpu = next((i["device"] for n, i in infos.items() if n in ON_GPU and i.get("device")), None)
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "gpu": gpu or "no GPU",
        "driver": _nvidia_smi("driver_version"),
        "cpu": _cpu_name(),
        "mode": ("quick" if quick else "full")
        + (f", filter {' | '.join(filters)}" if filters else "")
        + (f", {stopped}" if stopped else ""),
        "elapsed_s": elapsed,
        "cuda": {
            n: {k: v for k, v in i.items() if k not in ("version", "device")}
            for n, i in infos.items()
            if n in ON_GPU
        },
        "versions": {
            "python": platform.python_version(),
            **{LABELS[n]: i.get("version") for n, i in infos.items()},
            **{name: _installed(name) for name in ("scipy", "matplotlib")},
        },
        "missing_libraries": missing,
    }


def _installed(dist):
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _nvidia_smi(field):
    try:
        out = subprocess.run(
            ["nvidia-smi", f"--query-gpu={field}", "--format=csv,noheader"],
            check=False,
            capture_output=True,
            text=True,
            timeout=30,
        )
        return out.stdout.strip().splitlines()[0] if out.returncode == 0 else None
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return None


def _cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or platform.machine()


def file_stem(meta, quick, partial):
    stem = re.sub(r"[^A-Za-z0-9.]+", "-", meta["gpu"]).strip("-")
    return stem + ("-quick" if quick else "") + ("-partial" if partial else "")


def write_all(records, meta, libs, out_dir, stem):
    """Writes <stem>.json, .md and .png; returns the paths written and a note if the chart was not."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / f"{stem}.json").write_text(
        json.dumps({"meta": meta, "cases": records}, indent=1, ensure_ascii=False), encoding="utf-8"
    )
    (out_dir / f"{stem}.md").write_text(markdown(records, meta, libs), encoding="utf-8")
    paths = [out_dir / f"{stem}.json", out_dir / f"{stem}.md"]
    note = write_chart(records, meta, out_dir / f"{stem}.png")
    if note is None:
        paths.append(out_dir / f"{stem}.png")
    return paths, note


def write_chart(records, meta, path):
    """Horizontal bars of cuarray's speed relative to CuPy, coloured by pass/fail; None when written."""
    rows = [r for r in records if r["speed_vs_cupy"]]
    if not rows:
        return "no chart: no case has both a cuarray and a CuPy figure"
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        return "no chart: matplotlib is not installed (pip install matplotlib)"
    colour = {True: "#2a9d3f", False: "#d1342f", None: "#8c8c8c"}
    fig, ax = plt.subplots(figsize=(10, 1.5 + 0.26 * len(rows)))
    y = range(len(rows))
    ax.barh(y, [r["speed_vs_cupy"] for r in rows], color=[colour[r["pass"]] for r in rows])
    ax.set_yticks(list(y), [f"{r['group']}: {r['name']}" for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.bar_label(ax.containers[0], fmt="%.2f", fontsize=6, padding=2)
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g×"))
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xticks([0.1, 0.25, 0.5, 1, 2, 4, 10])
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xlabel("CuPy time / cuarray time (>1: cuarray faster); green pass, red fail, grey no target")
    ax.set_title(f"cuarray vs CuPy, {meta['gpu']}, {meta['date'][:10]} ({meta['mode']})", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return None
