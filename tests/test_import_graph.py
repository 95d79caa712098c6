"""The package's import graph has no cycle, and the extension imports nothing of the package.

Every ``import`` statement of ``python/cuarray/**/*.py`` is read with ``ast``, at module level and inside
functions alike (an import moved into a function to dodge a cycle is still the same cycle), and the graph of
cuarray modules must be acyclic: each module imports only modules below it. Importing ``a.b.c`` also runs
the packages ``a`` and ``a.b``; those count, except a module's own ancestors, which Python runs first in any
case. Naming a package itself (``import cuarray``, ``from cuarray import name``) counts always. Imports by a
computed name (``importlib.import_module(name)``) are not seen: they load lazily what the caller names.
No GPU needed.
"""

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PYTHON = ROOT / "python"
BINDINGS = ROOT / "python" / "src"
# Compiled modules of the package: they import nothing of it (test_the_extension_imports_nothing_of_the_package).
EXTENSIONS = ("cuarray._core",)


def _modules(top):
    """{dotted name: (path, is_package)} of every module under the package directory `top`."""
    mods = {}
    for path in sorted(top.rglob("*.py")):
        parts = list(path.relative_to(top.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        mods[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    mods.update((name, (None, False)) for name in EXTENSIONS if name.split(".")[0] == top.name)
    return mods


def _ancestors(name):
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def _targets(node, name, is_package, mods):
    """The package's modules that the import statement `node` in module `name` runs."""
    if isinstance(node, ast.Import):
        named = [(alias.name, True) for alias in node.names]
    else:
        base = node.module or ""
        if node.level:  # relative: from the importer's package, one level up per extra dot
            package = name.split(".") if is_package else name.split(".")[:-1]
            package = package[: len(package) - node.level + 1]
            base = ".".join(package + ([node.module] if node.module else []))
        named = []
        for alias in node.names:
            if f"{base}.{alias.name}" in mods:
                named += [(base, False), (f"{base}.{alias.name}", True)]
            else:
                named.append((base, True))  # a name from the module or package `base` itself
    out = set()
    for target, explicit in named:
        while target and target not in mods:  # an extension module (_core) or a name: its package
            target, explicit = target.rpartition(".")[0], False
        if not target:
            continue
        implied = _ancestors(target) - _ancestors(name) - {name}
        if explicit or target not in _ancestors(name):
            out.add(target)
        out |= {a for a in implied if a in mods}
    out.discard(name)
    return out


def import_graph(top):
    """{module: {imported module: first line importing it}} for the package directory `top`."""
    mods = _modules(top)
    graph = {}
    for name, (path, is_package) in mods.items():
        edges = {}
        if path is None:
            graph[name] = edges
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(node, name, is_package, mods):
                    edges[target] = min(edges.get(target, node.lineno), node.lineno)
        graph[name] = edges
    return graph


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _describe(graph, component):
    return "\n".join(
        f"  {m} line {graph[m][t]} imports {t}" for m in component for t in sorted(graph[m]) if t in component
    )


def test_the_package_has_no_import_cycle():
    graph = import_graph(PYTHON / "cuarray")
    assert graph.get("cuarray._transfer"), "the package was not read"
    found = cycles(graph)
    assert not found, "import cycles in python/cuarray:\n" + "\n\n".join(_describe(graph, c) for c in found)


def _package(tmp_path, files):
    for rel, text in files.items():
        path = tmp_path / "pkg" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return import_graph(tmp_path / "pkg")


@pytest.mark.parametrize(
    "files, expected",
    [
        # A function-level import closes a cycle as a module-level one does.
        (
            {"__init__.py": "", "a.py": "from pkg import b\n", "b.py": "def f():\n    from pkg.a import x\n"},
            [["pkg.a", "pkg.b"]],
        ),
        # Naming the package: the package imports its module, which imports the package's namespace.
        ({"__init__.py": "from pkg.a import *\n", "a.py": "def f():\n    import pkg\n"}, [["pkg", "pkg.a"]]),
        # A relative import, and a subpackage's __init__ run on the way to its module.
        (
            {
                "__init__.py": "",
                "a.py": "from .sub import c\n",
                "sub/__init__.py": "from pkg.a import y\n",
                "sub/c.py": "",
            },
            [["pkg.a", "pkg.sub"]],
        ),
        # A module importing its sibling through their package is no cycle; nor is one importing its ancestors.
        ({"__init__.py": "from pkg import a, b\n", "a.py": "from pkg import b\n", "b.py": "x = 1\n"}, []),
    ],
    ids=["function_level", "package_namespace", "relative_and_subpackage", "acyclic"],
)
def test_the_cycle_check_finds_cycles(tmp_path, files, expected):
    assert cycles(_package(tmp_path, files)) == expected


def test_error_h_includes_nothing_of_the_core():
    # cuarray/error.h is the ground floor that every file of the core includes; CUARRAY_CHECK_CUDA, which drains
    # the launch queue, lives in cuda/check.h.
    text = (ROOT / "cpp" / "cuarray" / "error.h").read_text()
    assert re.findall(r'#include\s+"(cuarray/[^"]+)"', text) == []
    assert "define CUARRAY_CHECK_CUDA" in (ROOT / "cpp" / "cuarray" / "cuda" / "check.h").read_text()


# The ufunc type resolver that linalg.cpp still fetches goes with the move of the call engine into the core
# (issue #31).
_PENDING = set()


def test_the_extension_imports_nothing_of_the_package():
    # What the bindings call back into is installed by the package at import (Note [Hooks] in
    # python/src/hooks.h): the extension never decides which Python module provides what.
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for path in sorted(BINDINGS.glob("*.[ch]*"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        for module in re.findall(r"import\(\s*\"(cuarray[\w.]*)", line)
        if (path.name, module) not in _PENDING
    ]
    assert not found, "the extension imports cuarray modules:\n" + "\n".join(found)
