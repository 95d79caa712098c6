"""Which of CuPy's tests run.sh selects, and the report of a run.

    python3 suite.py select [ROW ...]      pytest's arguments for the rows (all rows when none is named)
    python3 suite.py report OUTDIR         OUTDIR/report.md from OUTDIR/junit-*.xml (and reference-*.txt)
    python3 suite.py only                  the classes that alone run of their files (CUPY_SUITE_ONLY)
    python3 suite.py collected LOG         tests by row, and the import errors, of `pytest --collect-only -q`
    python3 suite.py nodeids LOG           the node ids of `pytest --collect-only -q`, one a line

Note [Counting]
A row is a directory of CuPy's tests. Its pass % is passed / (passed + failed + errors + no result); skips
and expected failures count in neither part. "No result" are the tests that CuPy itself collects
(reference-*.txt, from a collection with the installed CuPy) and that the run against cuarray never
reported: those of a file whose import failed (a module-level name cuarray lacks), those a run cut short by
its budget never reached, and those whose parametrization came out differently. With a reference, a test
that ran but that CuPy does not collect (an id that came out differently, say a parameter's name) is left
out, so that nothing counts twice. Without a reference the column is empty, and a file that failed to import
shows only in the "files not imported" column. A row that the run did not select is left out of the total.
"""

import collections
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

# Row -> (its directory under tests/, what run.sh passes to pytest). The cuda row is the tests of
# cupy.cuda's public classes; the signal row is the files of the cupyx.scipy.signal areas it has measured (not yet
# those of the LTI systems, B-splines, chirp z-transform and wavelets that cuarray has since, nor CuPy's internal
# IIR helpers).
_CUDA_FILES = ("test_device.py", "test_stream.py", "test_memory.py", "test_pinned_memory.py", "test_graph.py")
_SIGNAL_FILES = (
    "test_signaltools.py",
    "test_windows.py",
    "test_fir_filter_design.py",
    "test_iir_filter_design.py",
    "test_iir_filter_conversion.py",
    "test_peak_finding.py",
    "test_resample.py",
    "test_savitzky_golay.py",
    "test_spectral.py",
    "test_upfirdn.py",
    "test_waveforms.py",
    "test_max_len_seq.py",
)
ROWS = {
    "core": ("cupy_tests/core_tests", ["cupy_tests/core_tests"]),
    "fusion": ("cupy_tests/core_tests/fusion_tests", ["cupy_tests/core_tests/fusion_tests"]),
    **{
        name: (f"cupy_tests/{name}_tests", [f"cupy_tests/{name}_tests"])
        for name in (
            "creation",
            "manipulation",
            "math",
            "logic",
            "sorting",
            "statistics",
            "indexing",
            "linalg",
            "fft",
            "random",
            "lib",
            "io",
            "padding",
        )
    },
    "cuda": ("cupy_tests/cuda_tests", [f"cupy_tests/cuda_tests/{f}" for f in _CUDA_FILES]),
    "signal": (
        "cupyx_tests/scipy_tests/signal_tests",
        [f"cupyx_tests/scipy_tests/signal_tests/{f}" for f in _SIGNAL_FILES],
    ),
}
# Files left out: CuPy-internal through and through, and skipped by CuPy itself where its optional code path
# is absent, as it is in cuarray (Note [Platform facts] in shim/_cupy_suite_alias.py).
EXCLUDED = [
    "cupy_tests/core_tests/test_cub_reduction.py",  # CuPy's CUB reduction kernels
    "cupy_tests/fft_tests/test_callback.py",  # cuFFT callbacks, built by CuPy with nvcc or as LTO callbacks
]
# Files of which only some classes run. The conftest deselects the rest (CUPY_SUITE_ONLY): naming the classes
# on pytest's command line would stop the whole run where the file fails to import.
ONLY = []


def select(names):
    """pytest's arguments (relative to the working folder) for the rows `names`."""
    unknown = [n for n in names if n not in ROWS]
    if unknown:
        raise SystemExit(f"unknown row(s) {', '.join(unknown)}; expected some of: {' '.join(ROWS)}")
    names = names or list(ROWS)
    args = [f"tests/{path}" for name in names for path in ROWS[name][1]]
    if "core" in names and "fusion" in names:
        args.remove("tests/cupy_tests/core_tests/fusion_tests")  # inside core_tests already
    elif "core" in names:
        args.append("--ignore=tests/cupy_tests/core_tests/fusion_tests")
    return args + [f"--ignore=tests/{path}" for path in EXCLUDED]


def _row_of(dotted):
    """The row whose directory holds the test module or class `dotted` (tests.cupy_tests.x_tests....)."""
    found = [
        (len(directory), name)
        for name, (directory, _) in ROWS.items()
        if dotted.startswith("tests." + directory.replace("/", ".") + ".")
    ]
    return max(found)[1] if found else None


def _flat(text):
    """`text` with each run of white space one space: cupy.testing.parameterize names classes by their
    parameters' reprs, and an array's repr spans lines."""
    return " ".join(text.split())


def _key_of_nodeid(nodeid):
    """A collected node id as junitxml names its test case: (classname, name), by pytest's own rule (which
    has changed between pytest's versions, and splits ids with brackets in their class names oddly)."""
    from _pytest.junitxml import mangle_test_address

    names = mangle_test_address(_flat(nodeid))
    return ".".join(names[:-1]), names[-1]


def nodeids(lines):
    """The node ids that `pytest --collect-only -q` printed, each whole, with its white space made flat."""
    current = None
    for line in lines:
        if line.startswith("tests/") and "::" in line:
            if current is not None:
                yield _flat(current)
            current = line
        elif current is not None and line.strip() and line[:1].isspace():
            current += line  # the rest of an id that holds a newline
        else:
            if current is not None:
                yield _flat(current)
            current = None
    if current is not None:
        yield _flat(current)


_EXCEPTION_LINE = re.compile(
    r"^(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*"
    r"(?:Error|Exception|Warning|Exit|Interrupt|Failed)\b.*$",
    re.MULTILINE,
)


def headline(message):
    """The exception type and first line of a failure message; for CuPy's comparison decorators, the
    exception cuarray raised (and NumPy's, where they differ) rather than the AssertionError around it."""
    text = (message or "").strip()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return "(no message)"
    first = lines[0]
    if "crashed while running" in first:
        return "pytest-xdist worker crashed: the per-test timeout, or a fault that ended the process"
    phase = re.match(r'failed on (setup|teardown) with "(.*)"$', first)
    if phase:
        return f"{phase.group(2)} (in {phase.group(1)})"
    if "Only cupy raises error" in first:
        found = _EXCEPTION_LINE.findall(text)
        return f"only cupy raises: {found[-1] if found else '?'}"
    if "Different types of errors occurred" in first:
        cupy_part, _, numpy_part = text.partition("\nnumpy\n")
        c, n = _EXCEPTION_LINE.findall(cupy_part), _EXCEPTION_LINE.findall(numpy_part)
        return f"cupy raises {c[-1] if c else '?'} where numpy raises {n[-1] if n else '?'}"
    if "Only numpy raises error" in first:
        found = _EXCEPTION_LINE.findall(text)
        return f"only numpy raises: {found[-1] if found else '?'}"
    if re.fullmatch(r"[\w.]+:\s*", first) and len(lines) > 1:
        first = f"{first.strip()} {lines[1].strip()}"
    return first


def _group_key(line):
    """`line` with what varies between tests of one cause (numbers, addresses, quoted values) made alike."""
    line = re.sub(r"0x[0-9a-fA-F]+", "0x?", line)
    line = re.sub(r"\d+", "N", line)
    return line[:200]


def _message(problem):
    """The failure's whole exception message: junitxml cuts the `message` attribute of a long one short,
    and the report's `E   ` lines hold all of it."""
    message, text = problem.get("message", ""), problem.text or ""
    if not message or "full report in element text" in message:
        lines = [line[4:] for line in text.splitlines() if line.startswith("E   ")]
        message = "\n".join(lines) if lines else (message or text[:2000])
    return message


def _read_junit(paths):
    """test case key -> (row, status, message), and row -> files whose import failed (module, message). Of
    a test in several files, the newest file's result counts: a run of some rows again replaces theirs."""
    cases, broken = {}, {}
    for path in sorted(paths, key=os.path.getmtime):
        here = {}
        for case in ET.parse(path).getroot().iter("testcase"):
            classname, name = _flat(case.get("classname", "")), _flat(case.get("name", ""))
            problem = case.find("failure")
            if problem is None:
                problem = case.find("error")
            if not classname and problem is not None:  # a file that failed to import: name is its module
                broken[name] = problem.text or problem.get("message", "")
                continue
            row = _row_of(classname + ".")
            if row is None:
                continue
            skipped = case.find("skipped")
            props = {p.get("name") for p in case.iter("property")}
            if problem is not None:
                status, message = "failed", _message(problem)
            elif skipped is not None:
                status, message = ("xfailed" if skipped.get("type") == "pytest.xfail" else "skipped"), ""
            else:
                status, message = ("xpassed" if "xpassed" in props else "passed"), ""
            # A test that failed in its call and again in teardown is in the file twice: it failed.
            if here.get((classname, name), (None, None))[1] != "failed":
                here[(classname, name)] = (row, status, message)
        cases.update(here)
        for module in [m for m in broken if any(c == m or c.startswith(m + ".") for c, _ in here)]:
            del broken[module]  # it imported in this newer run
    by_row = collections.defaultdict(list)
    for module, message in broken.items():
        by_row[_row_of(module + ".")].append((module, message))
    return cases, by_row


def report(outdir):
    paths = glob.glob(os.path.join(outdir, "junit-*.xml"))
    if not paths:
        raise SystemExit(f"no junit-*.xml in {outdir}")
    cases, broken = _read_junit(paths)
    reference = None
    for ref_path in glob.glob(os.path.join(outdir, "reference-*.txt")):
        with open(ref_path) as f:
            reference = (reference or set()) | {_key_of_nodeid(nodeid) for nodeid in nodeids(f)}

    ran_rows = {row for row, _, _ in cases.values()} | set(broken)
    counts = {row: collections.Counter() for row in ROWS}
    for key, (row, status, _) in cases.items():
        # With a reference, only CuPy's own tests count: one whose id came out differently here would
        # otherwise count twice, as run and as without a result.
        counts[row]["extra" if reference is not None and key not in reference else status] += 1
    missing = collections.defaultdict(list)
    if reference is not None:
        for key in reference - cases.keys():
            row = _row_of(key[0] + ".")
            if row in ran_rows:
                counts[row]["no result"] += 1
                missing[row].append(key)

    total_extra = sum(c["extra"] for c in counts.values())
    out = ["# CuPy's own test suite against cuarray", ""]
    out.append(
        f"From {', '.join(os.path.basename(p) for p in paths)}"
        + (
            "; the tests CuPy collects from reference-*.txt."
            if reference is not None
            else "; no reference-*.txt, so tests of files that failed to import are not counted."
        )
    )
    out.append(
        "Pass % = passed / (passed + failed + errors + no result); skips and xfails excluded "
        "(Note [Counting] in benchmarks/cupy_suite/suite.py)."
        + (
            f" {total_extra} test(s) ran that CuPy does not collect (ids that came out differently); "
            "they are not counted."
            if reference is not None
            else ""
        )
    )
    header = (
        "| directory | passed | failed+errors | no result | pass % | skipped | xfailed | xpassed "
        "| files not imported |"
    )
    out += ["", header, "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    total = collections.Counter()
    below_90 = []
    for row, (directory, _) in ROWS.items():
        if row not in ran_rows:
            out.append(f"| {directory} | not run | | | | | | | |")
            continue
        c = counts[row]
        passed = c["passed"] + c["xpassed"]
        judged = passed + c["failed"] + c["no result"]
        pct = 100.0 * passed / judged if judged else float("nan")
        if pct < 90:
            below_90.append(directory)
        total.update(c)
        total["files not imported"] += len(broken.get(row, ()))
        nc = c["no result"] if reference is not None else "?"
        out.append(
            f"| {directory} | {passed} | {c['failed']} | {nc} | {pct:.1f} | {c['skipped']} "
            f"| {c['xfailed']} | {c['xpassed']} | {len(broken.get(row, ()))} |"
        )
    passed = total["passed"] + total["xpassed"]
    judged = passed + total["failed"] + total["no result"]
    pct = 100.0 * passed / judged if judged else float("nan")
    out.append(
        f"| **all run** | **{passed}** | **{total['failed']}** | "
        f"**{total['no result'] if reference is not None else '?'}** | **{pct:.1f}** | "
        f"{total['skipped']} | {total['xfailed']} | {total['xpassed']} | "
        f"{total['files not imported']} |"
    )
    out += ["", f"Goal: 97% overall, 90% in every directory. Below 90%: {', '.join(below_90) or 'none'}.", ""]

    if any(broken.values()):
        out += ["## Files that failed to import", "", "| file | error |", "|---|---|"]
        for row in ROWS:
            for module, message in sorted(broken.get(row, ())):
                found = _EXCEPTION_LINE.findall(message)
                out.append(f"| {module} | {_cell(found[-1] if found else message.strip()[-300:])} |")
        out.append("")

    groups = collections.defaultdict(list)
    for (classname, name), (row, status, message) in cases.items():
        if status == "failed":
            line = headline(message)
            groups[_group_key(line)].append((row, f"{classname}::{name}", line))
    out += [
        f"## Failures by cause ({len(groups)} causes; the 60 commonest)",
        "",
        "| tests | cause (type and first line; numbers shown as N) | by directory | example |",
        "|---:|---|---|---|",
    ]
    for key, members in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:60]:
        by_row = collections.Counter(ROWS[row][0].rsplit("/", 1)[-1] for row, _, _ in members)
        spread = ", ".join(f"{r} {n}" for r, n in by_row.most_common(4))
        example = f"{members[0][1]}: {members[0][2]}"
        out.append(f"| {len(members)} | {_cell(key)} | {spread} | {_cell(example[:300])} |")
    out.append("")
    if reference is not None and any(missing.values()):
        out += ["## Tests with no result, by file", "", "| file | tests |", "|---|---:|"]
        files = collections.Counter(key[0].split(".Test")[0] for keys in missing.values() for key in keys)
        for module, n in files.most_common(40):
            out.append(f"| {module} | {n} |")
        out.append("")

    with open(os.path.join(outdir, "report.md"), "w") as f:
        f.write("\n".join(out))
    with open(os.path.join(outdir, "failed.txt"), "w") as f:
        for (classname, name), (row, status, message) in sorted(cases.items()):
            if status == "failed":
                f.write(f"{classname}::{name}\t{headline(message)}\n")
    goal = next(i for i, line in enumerate(out) if line.startswith("Goal"))
    return "\n".join(out[out.index(header) : goal + 1])


def _cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def collected(log):
    """Tests by row, and the files that failed to import, from the output of `pytest --collect-only -q`."""
    counts = collections.Counter()
    with open(log) as f:
        lines = f.readlines()
    for nodeid in nodeids(lines):
        counts[_row_of(_key_of_nodeid(nodeid)[0] + ".")] += 1
    errors = [line[len("ERROR ") :].strip() for line in lines if line.startswith("ERROR tests/")]
    out = ["| directory | tests collected |", "|---|---:|"]
    out += [f"| {ROWS[row][0]} | {counts[row]} |" for row in ROWS if counts[row]]
    out.append(f"| all | {sum(counts.values())} |")
    out += ["", f"{len(errors)} file(s) failed to import:"] + errors
    if not counts:
        with open(log) as f:
            out += ["", "No test was collected; the end of the log:", *f.read().splitlines()[-30:]]
    return "\n".join(out)


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "select":
        print("\n".join(select(sys.argv[2:])))
    elif sys.argv[1:] == ["only"]:
        print(",".join(ONLY))
    elif len(sys.argv) == 3 and sys.argv[1] == "nodeids":
        with open(sys.argv[2]) as f:
            print("\n".join(nodeids(f)))
    elif len(sys.argv) == 3 and sys.argv[1] == "collected":
        print(collected(sys.argv[2]))
    elif len(sys.argv) == 3 and sys.argv[1] == "report":
        print(report(sys.argv[2]))
    else:
        raise SystemExit(__doc__)
