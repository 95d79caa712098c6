"""Test support for cuarray and for tests written against it: every name of CuPy 14.2's ``cupy.testing``, so a
CuPy test file runs with ``import cuarray as cupy`` (or ``from cuarray import testing``), plus cuarray's own.

- Assertions (``assert_allclose``, ``assert_array_equal``, ...) that take cuarray and NumPy arrays alike.
- ``numpy_cupy_allclose``, ``numpy_cupy_array_equal``, ... (and the same objects as ``numpy_cuarray_*``): run a
  test body with ``xp=cuarray`` and with ``xp=numpy`` and compare what they return.
- ``for_all_dtypes``, ``for_float_dtypes``, ``for_orders``, ``for_dtypes_combination``, ...: run a test once per
  dtype (order, combination); a pytest test each, or a loop where pytest cannot parametrize.
- ``shaped_arange``, ``shaped_random``, ``generate_matrix``, ...: arrays for tests, made by cuarray by default.
- ``parameterize``, ``product``, ``with_requires``, ``slow``, ``multi_gpu``, ``fix_random``.
- ``requires_gpus(n)``: skip where fewer than `n` CUDA devices are found.

The assertions need NumPy alone; the decorators need pytest, imported when they are used. The ``xp`` fixture
and the ``gpu`` and ``requires_gpus`` markers come from the pytest plugin ``cuarray.pytest_plugin``.
"""

from cuarray.testing._alias_bases import *
from cuarray.testing._assertions import *
from cuarray.testing._comparison import *
from cuarray.testing._devices import *
from cuarray.testing._dtypes import *
from cuarray.testing._factories import *
from cuarray.testing._marks import *
from cuarray.testing._orders import *
from cuarray.testing._parameterized import *
from cuarray.testing._random import *
