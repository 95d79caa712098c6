"""The `cuarray-members` directive: the API reference of one cuarray module, generated from the package.

    ```{eval-rst}
    .. cuarray-members:: cuarray.linalg
    ```

lists the module's entries that api_members.public_members chooses, grouped by the module that defines them,
in the order of api_members.GROUPS, each group alphabetical.
"""

import importlib
import inspect

from api_members import GROUPS, group_of, is_ufunc, public_members
from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective


class CuarrayMembers(SphinxDirective):
    required_arguments = 1

    def run(self):
        modname = self.arguments[0]
        module = importlib.import_module(modname)
        groups = {}
        for name, obj in public_members(module):
            groups.setdefault(group_of(name, obj), []).append((name, obj))
        order = list(dict.fromkeys(GROUPS.values()))
        lines = []
        for title in sorted(groups, key=lambda t: (order.index(t) if t in order else len(order), t)):
            if len(groups) > 1:
                lines += [f".. rubric:: {title}", ""]
            for name, obj in sorted(groups[title], key=lambda item: item[0].lower()):
                if inspect.isclass(obj):
                    lines += [f".. autoclass:: {modname}.{name}", "   :members:", ""]
                else:
                    lines += [f".. autofunction:: {modname}.{name}", ""]
        container = nodes.container()
        source = StringList(lines, source=f"<api of {modname}>")
        self.state.nested_parse(source, self.content_offset, container)
        return container.children


def drop_signature_line(app, what, name, obj, options, lines):
    """A ufunc's docstring starts with its signature, for help(); the entry shows it from __signature__, and
    for an alias (cuarray.conj, whose docstring starts with conjugate(...)) autodoc would keep it as text."""
    if is_ufunc(obj) and lines and lines[0].startswith(obj.__name__ + "("):
        del lines[:2]


def setup(app):
    app.add_directive("cuarray-members", CuarrayMembers)
    app.connect("autodoc-process-docstring", drop_signature_line)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
