"""CuPy's base test cases for a function that cuarray offers under NumPy's name: a subclass sets ``func`` (the
name) and, for the values test, ``args``; its tests compare cuarray's function with NumPy's."""

import inspect
import unittest

import numpy

__all__ = ["NumpyAliasBasicTestBase", "NumpyAliasValuesTestBase"]


class _NumpyAliasTestBase(unittest.TestCase):
    @property
    def func(self):
        """The name of the function under test; a subclass sets it."""
        raise NotImplementedError

    @property
    def cupy_func(self):
        """cuarray's function of that name (CuPy's name for the attribute)."""
        import cuarray

        return getattr(cuarray, self.func)

    @property
    def numpy_func(self):
        """NumPy's function of that name."""
        return getattr(numpy, self.func)


class NumpyAliasBasicTestBase(_NumpyAliasTestBase):
    """Tests that cuarray's function has NumPy's signature and a docstring of its own."""

    def test_argspec(self):
        """The two functions' signatures are equal."""
        assert inspect.signature(self.cupy_func) == inspect.signature(self.numpy_func)

    def test_docstring(self):
        """cuarray's function has a docstring, and not NumPy's object."""
        doc = getattr(self.cupy_func, "__doc__", None)
        assert doc and doc is not self.numpy_func.__doc__


class NumpyAliasValuesTestBase(_NumpyAliasTestBase):
    """Tests that cuarray's function returns what NumPy's does for ``self.args``."""

    def test_values(self):
        """Both functions give equal results for ``self.args``."""
        assert self.cupy_func(*self.args) == self.numpy_func(*self.args)
