"""Test support for cuarray and for tests written against it.

- Assertions (``assert_allclose``, ...) that take cuarray and NumPy arrays alike.
- ``numpy_cuarray_allclose``, ``numpy_cuarray_array_equal``, ``numpy_cuarray_array_less`` and
  ``numpy_cuarray_raises``: run a test body with ``xp=numpy`` and with ``xp=cuarray`` and compare.
- ``for_all_dtypes``, ``for_float_dtypes``, ...: run a test once per dtype.
- ``requires_gpus(n)``: skip where fewer than `n` CUDA devices are found.

The assertions need NumPy alone; the decorators need pytest, imported when they are used. The ``xp`` fixture
and the ``gpu`` and ``requires_gpus`` markers come from the pytest plugin ``cuarray.pytest_plugin``.
"""

from cuarray.testing._assertions import *
from cuarray.testing._comparison import *
from cuarray.testing._devices import *
from cuarray.testing._dtypes import *
