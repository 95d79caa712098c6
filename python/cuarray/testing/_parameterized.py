"""Class parametrization in CuPy's style: ``@parameterize(*product({'shape': [...], 'order': [...]}))`` runs
every test of a class once per dict, with the dict's items as attributes of ``self``.

Note [Two ways to parameterize a class]
On a plain test class, parameterize is a pytest parametrization of an autouse fixture that sets the attributes
on ``self`` before each test; the class is replaced by a subclass that holds that fixture, and the ids are
CuPy's (``test_x[_param_0_{order='C', shape=(2, 3)}]``). pytest does not parametrize ``unittest.TestCase``
methods, so on a TestCase subclass it makes one class per dict in the test's module, named
``TestX_param_0_{...}`` with the dict's items as class attributes, and removes the original (the decorator
returns None), as CuPy does.
"""

import functools
import itertools
import sys
import types
import unittest

__all__ = ["parameterize", "product", "product_dict"]


def _value_text(value):
    name = getattr(value, "__name__", None)
    return name if isinstance(name, str) else repr(value)


def _shorten(text, most):
    """`text`, its middle replaced by '...' where it is longer than `most` characters."""
    if len(text) <= most:
        return text
    head = (most - 3) // 2
    return text[:head] + "..." + text[len(text) - (most - 3 - head) :]


def param_name(prefix, i, param):
    """CuPy's name for parameter set `i`: ``<prefix>_param_<i>_{a=1, b='x'}`` (keys sorted, each value at most
    100 characters, the whole at most 5000)."""
    items = ", ".join(f"{k}={_shorten(_value_text(v), 100)}" for k, v in sorted(param.items()))
    return f"{prefix}_param_{i}_{{{_shorten(items, 5000)}}}"


def _class_attribute(value):
    # A function among the parameters is called as given, not as a method of the test (CuPy does the same).
    if isinstance(value, types.FunctionType):
        return staticmethod(value)
    return value


def _testcase_classes(cls, params):
    module = sys.modules[cls.__module__]
    for i, param in enumerate(params):
        name = param_name(cls.__name__, i, param)
        members = {k: _class_attribute(v) for k, v in sorted(param.items())}
        members["__repr__"] = lambda self, _p=param: f"<{unittest.TestCase.__repr__(self)}  parameter: {_p}>"
        generated = type(name, (cls,), members)
        generated.__module__ = module.__name__
        setattr(module, name, generated)


@functools.cache
def _mixin():
    """The base class whose autouse fixture sets a parameter set's items on ``self`` (made once, when first
    needed, so that importing cuarray.testing does not import pytest)."""
    import pytest

    class Parameterized:
        @pytest.fixture(autouse=True)
        def _cuarray_testing_parameterize(self, _cuarray_testing_param):
            self.__dict__.update(_cuarray_testing_param)

        def __repr__(self):
            return f"<{super().__repr__()}  parameter: {self.__dict__}>"

    return Parameterized


def parameterize(*params, _ids=True):
    """Class decorator: runs every test of the class once per dict of `params`, each dict's items set as
    attributes of ``self`` (Note [Two ways to parameterize a class]). Applying it twice to a plain class is a
    RuntimeError; combine the dicts with product or product_dict instead."""

    def decorator(cls):
        if isinstance(cls, type) and issubclass(cls, unittest.TestCase):
            _testcase_classes(cls, params)
            return None
        import pytest

        mixin = _mixin()
        if issubclass(cls, mixin):
            raise RuntimeError("do not `@testing.parameterize` twice")  # noqa: TRY004 - CuPy's error
        values = [pytest.param(p, id=param_name("", i, p) if _ids else str(i)) for i, p in enumerate(params)]
        parameterized = type(cls.__name__, (mixin, cls), {"__qualname__": cls.__qualname__})
        parameterized.__module__ = cls.__module__
        parameterized.__doc__ = cls.__doc__
        return pytest.mark.parametrize("_cuarray_testing_param", values)(parameterized)

    return decorator


def product(parameter):
    """Every combination of a dict of lists, as a list of dicts with the keys in sorted order:
    ``product({'b': [1, 2], 'a': ['x']})`` is ``[{'a': 'x', 'b': 1}, {'a': 'x', 'b': 2}]``."""
    keys = sorted(parameter)
    return [dict(zip(keys, values)) for values in itertools.product(*(parameter[k] for k in keys))]


def product_dict(*parameters):
    """Every combination of one dict from each list of dicts, merged: ``product_dict([{'a': 1}], [{'b': 2},
    {'b': 3}])`` is ``[{'a': 1, 'b': 2}, {'a': 1, 'b': 3}]``."""
    return [{k: v for d in dicts for k, v in d.items()} for dicts in itertools.product(*parameters)]
