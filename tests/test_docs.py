"""Documentation without a GPU: every callable of the API reference has a docstring and a signature, the ufunc
objects' help() and inspect.signature(), and the links between README.md and the pages of docs/.

The documentation build itself (Sphinx, warnings as errors) runs in .ci/run:
`pip install --group docs && sphinx-build -W --keep-going -b html docs build/docs`.
"""

import importlib
import inspect
import pathlib
import pydoc
import re
import sys

import cuarray
import numpy
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
from api_members import MODULES, public_members

# Callables inspect.signature() cannot read, each with the reason; their docstrings say how they are called.
NO_SIGNATURE = {
    "matmul": "a pybind11 function: the first line of its docstring is its signature",
    "ndarray": "a pybind11 class: the first line of its docstring is its constructor's signature",
    "ufunc": "the ufunc type, which programs do not call: its instances have signatures",
}

ENTRIES = [
    (f"{module}.{name}", name, obj)
    for module in MODULES
    for name, obj in public_members(importlib.import_module(module))
]


def test_the_reference_lists_the_public_api():
    names = {qualified for qualified, _, _ in ENTRIES}
    expected = {
        "cuarray.add",
        "cuarray.sum",
        "cuarray.ndarray",
        "cuarray.asarray",
        "cuarray.fuse",
        "cuarray.ElementwiseKernel",
        "cuarray.cuda.Stream",
        "cuarray.linalg.svd",
        "cuarray.fft.rfft",
        "cuarray.random.default_rng",
        "cuarray.random.RandomState",
        "cuarray.testing.assert_allclose",
        "cuarray.testing.numpy_cuarray_allclose",
    }
    assert expected <= names, sorted(expected - names)
    # NumPy's own objects re-exported by cuarray are NumPy's to document.
    assert not {"cuarray.dtype", "cuarray.float32", "cuarray.set_printoptions", "cuarray.linalg"} & names


@pytest.mark.parametrize("qualified,name,obj", ENTRIES, ids=[e[0] for e in ENTRIES])
def test_docstring_and_signature(qualified, name, obj):
    doc = inspect.getdoc(obj)
    assert doc and doc.strip(), f"{qualified} has no docstring"
    if name in NO_SIGNATURE:
        with pytest.raises((ValueError, TypeError)):
            inspect.signature(obj)  # still unreadable: once it can be read, drop it from NO_SIGNATURE
        if name != "ufunc":
            assert doc.startswith(f"{name}("), f"{qualified}: {NO_SIGNATURE[name]}; it starts {doc[:60]!r}"
        return
    inspect.signature(obj)


CLASSES = [(qualified, obj) for qualified, _, obj in ENTRIES if inspect.isclass(obj)]


@pytest.mark.parametrize("qualified,cls", CLASSES, ids=[c[0] for c in CLASSES])
def test_methods_and_properties_have_docstrings(qualified, cls):
    missing = []
    for name, value in vars(cls).items():
        routine = callable(value) or isinstance(value, (property, staticmethod, classmethod))
        if name.startswith("_") or not routine:
            continue
        if not (getattr(value, "__doc__", None) or "").strip():
            missing.append(name)
    assert not missing, f"{qualified}: no docstring for {missing}"


def test_ufunc_docstrings_and_signatures():
    seen = 0
    for name in cuarray._ufuncs.__all__:
        u = getattr(cuarray, name)
        sig = inspect.signature(u)
        params = list(sig.parameters.values())
        inputs = [p for p in params if p.kind is p.POSITIONAL_ONLY]
        assert len(inputs) == u.nin, (name, sig)
        assert sig.parameters["out"].default == (None if u.nout == 1 else (None,) * u.nout), (name, sig)
        assert {"dtype", "casting", "order"} <= set(sig.parameters), (name, sig)
        doc = u.__doc__
        assert doc.startswith(f"{u.__name__}{sig}\n\n"), (name, doc[:120])
        summary = numpy.__dict__[u.__name__].__doc__.split("\n\n")[1].split()
        assert " ".join(summary) in doc, (name, doc)
        assert f"``numpy.{u.__name__}``" in doc
        seen += 1
    assert seen >= 100
    assert inspect.signature(cuarray.add).parameters.keys() >= {"x1", "x2", "out", "dtype", "casting"}
    assert inspect.signature(cuarray.sqrt).parameters.keys() >= {"x", "out"}
    assert list(inspect.signature(cuarray.divmod).parameters)[:3] == ["x1", "x2", "out"]


def test_ufunc_type_keeps_its_own_docstring():
    assert cuarray.ufunc.__doc__.startswith("A universal function")
    assert cuarray.ufunc.__signature__ is None
    assert cuarray.add.__doc__ != cuarray.ufunc.__doc__ != cuarray.sqrt.__doc__


def test_help_of_a_ufunc():
    text = pydoc.render_doc(cuarray.add, renderer=pydoc.plaintext)
    assert "add(x1, x2, /, out=None, *, dtype=None" in text and "Add arguments element-wise." in text, text
    text = pydoc.render_doc(cuarray.conj, renderer=pydoc.plaintext)  # an alias shows the ufunc it names
    assert "conjugate(x, /, out=None" in text, text


def markdown_pages():
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("page", markdown_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page):
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)  # links, not code
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (page.parent / target.split("#")[0]).resolve()
        if not path.exists():
            broken.append(target)
    assert not broken, f"{page.name} links to missing files: {broken}"


def test_every_page_is_in_a_toctree():
    pages = {p.relative_to(ROOT / "docs").with_suffix("").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    listed = {"index"}
    for page in (ROOT / "docs").rglob("*.md"):
        for block in re.findall(r"```\{toctree\}(.*?)```", page.read_text(encoding="utf-8"), flags=re.DOTALL):
            base = page.parent.relative_to(ROOT / "docs")
            listed.update(
                (base / line.strip()).as_posix().removeprefix("./")
                for line in block.splitlines()
                if line.strip() and not line.strip().startswith(":")
            )
    assert pages <= listed, f"pages in no toctree: {sorted(pages - listed)}"


EXAMPLE_PAGES = [ROOT / "README.md", ROOT / "docs" / "index.md"]


def example(page):
    """The page's first Python code block: the example it opens with."""
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    assert blocks, f"{page.name} has no Python example"
    return blocks[0]


def test_the_examples_compile_and_agree():
    for page in EXAMPLE_PAGES:
        compile(example(page), str(page), "exec")
    assert example(EXAMPLE_PAGES[0]) == example(EXAMPLE_PAGES[1]), "README.md and docs/index.md differ"


@pytest.mark.gpu
def test_the_example_runs(capsys):
    exec(compile(example(ROOT / "README.md"), "README.md", "exec"), {"__name__": "__main__"})  # noqa: S102 - the README's example
    mean, fused = capsys.readouterr().out.split()
    assert abs(float(mean) - 1.0) < 1e-4  # float32 sums of a million values near 1
    assert float(fused) > 0
