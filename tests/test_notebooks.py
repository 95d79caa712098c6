"""The lesson notebooks (notebooks/*.ipynb): their format and code without a GPU; on a GPU, every code cell runs in
order, one fresh process per notebook, through notebooks/run.py, and again in a Jupyter kernel through
nbclient (`pip install ".[notebooks]"`), as a reader runs them."""

import ast
import json
import os
import pathlib
import re
import subprocess
import sys

import cuarray
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
RUNNER = ROOT / "notebooks" / "run.py"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
IDS = [p.stem for p in NOTEBOOKS]
OPTIONAL_MODULES = ("matplotlib", "scipy")  # imported by some notebooks; not cuarray's dependencies
TIMEOUT_S = 900


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def sources(cells, kind="code"):
    return [(i, "".join(c["source"])) for i, c in enumerate(cells) if c["cell_type"] == kind]


def imported_modules(path):
    names = set()
    for _, src in sources(load(path)["cells"]):
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module.split(".")[0])
    return names


def run_notebook(path, *extra, timeout=TIMEOUT_S):
    env = dict(os.environ)
    # The child imports the cuarray this test imported, whatever the working directory.
    package_parent = str(pathlib.Path(cuarray.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_parent, env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, str(RUNNER), str(path), *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_one_notebook_per_lesson():
    numbers = [p.name[:3] for p in NOTEBOOKS]
    assert numbers == ["00_", "01_", "02_", "03_", "04_"], (
        f"expected notebooks 00_ to 04_ (lessons 000-004), found {numbers}"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_format(path):
    nb = load(path)
    assert nb["nbformat"] == 4 and nb["nbformat_minor"] >= 4, f"{path.name}: not nbformat 4"
    assert nb["metadata"]["kernelspec"]["name"] == "python3", f"{path.name}: kernel is not python3"
    ids = [c.get("id") for c in nb["cells"]]
    if nb["nbformat_minor"] >= 5:
        assert all(isinstance(i, str) and re.fullmatch(r"[A-Za-z0-9_-]{1,64}", i) for i in ids), ids
        assert len(set(ids)) == len(ids), f"{path.name}: duplicate cell ids"
    for i, cell in enumerate(nb["cells"]):
        assert cell["cell_type"] in ("markdown", "code"), f"{path.name} cell {i}: {cell['cell_type']}"
        assert isinstance(cell["source"], (list, str)) and "".join(cell["source"]).strip(), (
            f"{path.name} cell {i} empty"
        )
    # Committed executed (Jupyter, on a GPU) so that a reader on a code host sees results and figures: every code
    # cell ran once, in order, and none raised; or none ran.
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    counts = [c["execution_count"] for c in code]
    assert counts in ([None] * len(code), list(range(1, len(code) + 1))), (
        f"{path.name}: execution counts {counts}"
    )
    errors = [i for i, c in enumerate(code) for o in c["outputs"] if o.get("output_type") == "error"]
    assert not errors, f"{path.name}: code cells {errors} store an error"
    stored = json.dumps([c["outputs"] for c in code])
    assert not re.search(r"/(tmp|opt|root|home)/", stored), f"{path.name}: outputs show a machine's paths"
    kinds = {c["cell_type"] for c in nb["cells"]}
    assert kinds == {"markdown", "code"}, f"{path.name}: needs both explanations and code"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_code_cells_compile(path):
    for i, src in sources(load(path)["cells"]):
        try:
            compile(src, f"<{path.name} cell {i}>", "exec")
        except SyntaxError as error:  # IPython magics (%timeit, !cmd) land here too
            pytest.fail(f"{path.name} cell {i} is not plain Python: {error}\n{src}", pytrace=False)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_code_uses_cuarray_not_cupy(path):
    cells = sources(load(path)["cells"])
    offending = [(i, line) for i, src in cells for line in src.splitlines() if re.search(r"\bcupyx?\b", line)]
    assert not offending, f"{path.name} uses CuPy's module names: {offending}"
    assert any("import cuarray as cp" in src for _, src in cells), f"{path.name} never imports cuarray as cp"


def test_runner_reports_the_failing_cell(tmp_path):
    pytest.importorskip("matplotlib")
    cells = [
        {
            "cell_type": "code",
            "source": ["x = 41\n", "x += 1"],
            "outputs": [],
            "execution_count": None,
            "metadata": {},
        },
        {"cell_type": "markdown", "source": ["text"], "metadata": {}},
        {
            "cell_type": "code",
            "source": "import matplotlib.pyplot as plt\nplt.plot([x])\nplt.show()",
            "outputs": [],
            "execution_count": None,
            "metadata": {},
        },
        {
            "cell_type": "code",
            "source": "print('value', x)\nraise ValueError(f'boom {x}')",
            "outputs": [],
            "execution_count": None,
            "metadata": {},
        },
        {
            "cell_type": "code",
            "source": "print('not reached')",
            "outputs": [],
            "execution_count": None,
            "metadata": {},
        },
    ]
    path = tmp_path / "t.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}))
    result = run_notebook(path, "--figures", str(tmp_path / "figs"), timeout=120)
    assert result.returncode == 1, result
    assert "value 42" in result.stdout and "not reached" not in result.stdout
    assert "t.ipynb: cell 3 raised" in result.stderr and "raise ValueError(f'boom {x}')" in result.stderr
    assert "ValueError: boom 42" in result.stderr
    assert [p.name for p in (tmp_path / "figs").iterdir()] == ["t_cell02_fig0.png"]

    path.write_text(json.dumps({"cells": cells[:3], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}))
    result = run_notebook(path, timeout=120)
    assert result.returncode == 0, result.stderr


@pytest.mark.gpu
@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_runs(path, tmp_path):
    for name in OPTIONAL_MODULES:
        if name in imported_modules(path):
            pytest.importorskip(name)
    try:
        result = run_notebook(path, "--figures", str(tmp_path))
    except subprocess.TimeoutExpired as error:
        output = error.stdout.decode() if isinstance(error.stdout, bytes) else error.stdout
        pytest.fail(f"{path.name} did not finish in {TIMEOUT_S} s; output so far:\n{output}", pytrace=False)
    if result.returncode != 0:
        pytest.fail(f"{result.stderr}\n--- last output:\n{result.stdout[-3000:]}", pytrace=False)
    shows = sum(src.count("plt.show()") for _, src in sources(load(path)["cells"]))
    figures = sorted(p.name for p in tmp_path.glob("*.png"))
    assert len(figures) == shows, f"{path.name}: {shows} plt.show() calls but figures {figures}"


def run_in_jupyter(path, tmp_path, monkeypatch):
    """Executes `path` in a fresh python3 Jupyter kernel (nbclient), in `tmp_path`; fails the test at the
    first cell that raises, with its source and traceback. Skips where nbclient or ipykernel is missing."""
    why = 'needs nbclient and ipykernel: pip install ".[notebooks]"'
    nbclient = pytest.importorskip("nbclient", reason=why)
    pytest.importorskip("ipykernel", reason=why)
    import nbformat

    # The kernel imports the cuarray this test imported.
    path_dirs = [str(pathlib.Path(cuarray.__file__).resolve().parent.parent), os.environ.get("PYTHONPATH")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, path_dirs)))
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=TIMEOUT_S, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        traceback = re.sub(r"\x1b\[[0-9;]*m", "", str(error))  # IPython colours the traceback
        pytest.fail(f"{path.name}: a cell raised\n{traceback}", pytrace=False)
    errors = [
        (i, o.get("ename"), o.get("evalue"))
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        for o in cell.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert not errors, f"{path.name}: error outputs in cells {errors}"
    ran = [cell.execution_count for cell in nb.cells if cell.cell_type == "code"]
    assert None not in ran, f"{path.name}: cells left unexecuted: {ran}"
    if os.environ.get("CUARRAY_NOTEBOOK_OUT"):  # the executed notebook, to commit with its outputs
        out = pathlib.Path(os.environ["CUARRAY_NOTEBOOK_OUT"])
        out.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, out / path.name)


def test_jupyter_run_reports_the_failing_cell(tmp_path, monkeypatch):
    cells = [
        {"cell_type": "code", "source": source, "outputs": [], "execution_count": None, "metadata": {}}
        for source in ("import cuarray\nx = 41 + 1", "raise ValueError(f'boom {x}')")
    ]
    path = tmp_path / "t.ipynb"
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = {"cells": cells, "metadata": {"kernelspec": kernelspec}, "nbformat": 4, "nbformat_minor": 4}
    path.write_text(json.dumps(notebook))
    with pytest.raises(pytest.fail.Exception, match=r"(?s)t.ipynb: a cell raised.*ValueError: boom 42"):
        run_in_jupyter(path, tmp_path, monkeypatch)
    path.write_text(json.dumps(dict(notebook, cells=cells[:1])))
    run_in_jupyter(path, tmp_path, monkeypatch)


@pytest.mark.gpu
@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_runs_in_jupyter(path, tmp_path, monkeypatch):
    for name in OPTIONAL_MODULES:
        if name in imported_modules(path):
            pytest.importorskip(name)
    run_in_jupyter(path, tmp_path, monkeypatch)
