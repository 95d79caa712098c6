"""Runs a notebook's code cells in order, as plain Python, in one namespace; no Jupyter needed.

    python notebooks/run.py notebooks/04_convolution.ipynb [--figures DIR]

matplotlib draws with the Agg backend; with --figures, every figure a cell leaves open is saved there as
<notebook>_cell<NN>_fig<K>.png. When a cell raises, the run stops and exits 1 after printing the cell's index,
its source and the traceback.
"""

import argparse
import json
import linecache
import os
import pathlib
import sys
import traceback


def code_cells(path):
    """(index, source) of each code cell, index counting all cells as Jupyter shows them."""
    notebook = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] == "code":
            source = cell["source"]
            yield index, source if isinstance(source, str) else "".join(source)


def save_figures(figures_dir, stem, index):
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    for k, number in enumerate(plt.get_fignums()):
        if figures_dir is not None:
            plt.figure(number).savefig(figures_dir / f"{stem}_cell{index:02d}_fig{k}.png")
    plt.close("all")


def run(path, figures_dir=None):
    """Executes the code cells of `path`; returns 0, or 1 after reporting the first cell that raised."""
    os.environ["MPLBACKEND"] = "Agg"
    path = pathlib.Path(path)
    namespace = {"__name__": "__main__"}
    for index, source in code_cells(path):
        print(f"--- {path.name} cell {index}", flush=True)
        filename = f"<{path.name} cell {index}>"
        linecache.cache[filename] = (
            len(source),
            None,
            source.splitlines(True),
            filename,
        )  # tracebacks show lines
        try:
            exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - runs the notebook's own cells
        except BaseException:  # noqa: BLE001 - report whatever the cell raised, then stop
            sys.stdout.flush()
            print(
                f"\n{path.name}: cell {index} raised\n--- source of cell {index}:\n{source}\n--- traceback:",
                file=sys.stderr,
            )
            traceback.print_exc()
            return 1
        sys.stdout.flush()
        save_figures(figures_dir, path.stem, index)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook")
    parser.add_argument("--figures", type=pathlib.Path, help="directory to save the figures in")
    args = parser.parse_args(argv)
    if args.figures is not None:
        args.figures.mkdir(parents=True, exist_ok=True)
    return run(args.notebook, args.figures)


if __name__ == "__main__":
    sys.exit(main())
