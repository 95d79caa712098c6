"""What the extension calls back into is installed by the package once, at import (Note [Hooks] in
python/src/hooks.h): `_core._set_hooks` takes every hook by name or none. No GPU needed."""

import cuarray
import pytest
from conftest import describe, run_python
from cuarray import _core

HOOKS = (
    "getitem",
    "setitem",
    "MemoryPointer",
    "OutOfMemoryError",
    "CompileException",
    "CUDARuntimeError",
    "log_kernel",
    "locate_library",
    "allocate",
    "structured",
    "device_operand",
    "matmul_axes",
    "cache_in_memory",
)
BROKEN = 'extern "C" __global__ void broken(float* x) { x[0] = undefined_name; }\n'


def _compile_error_type():
    with pytest.raises(Exception) as info:
        _core.jit.compile(BROKEN, "broken", [], 90, [])
    return info.type


@pytest.mark.parametrize(
    "hooks, message",
    [
        ({name: object() for name in HOOKS} | {"getitme": object()}, "unknown hook 'getitme'"),
        ({name: object() for name in HOOKS if name != "setitem"}, "hook 'setitem' is missing"),
        ({name: None for name in HOOKS}, "is None"),
    ],
    ids=["unknown", "missing", "none"],
)
def test_set_hooks_takes_all_or_nothing(hooks, message):
    exc = TypeError if message == "is None" else ValueError
    with pytest.raises(exc, match=message):
        _core._set_hooks(hooks)
    # The package's hooks are still the ones in use: a compile error is still cuarray's CompileException.
    assert _compile_error_type() is cuarray.cuda.compiler.CompileException


def test_errors_are_the_package_classes_through_the_hooks():
    assert _compile_error_type() is cuarray.cuda.compiler.CompileException
    assert cuarray.cuda.compiler.CompileException is cuarray._errors.CompileException


def test_a_second_install_replaces_the_first():
    # In a child: the replaced class must be what the translator raises from then on.
    code = (
        "import cuarray\n"
        "from cuarray import _core, _cuda_libs, _errors, _indexing, _interop, _products, _structured\n"
        "from cuarray.cuda import compiler, memory\n"
        "class Mine(Exception):\n"
        "    def __init__(self, *args):\n"
        "        super().__init__(args[0])\n"
        "_core._set_hooks({'getitem': _indexing._getitem, 'setitem': _indexing._setitem,\n"
        "                  'MemoryPointer': memory._ArrayPointer, 'OutOfMemoryError': _errors.OutOfMemoryError,\n"
        "                  'CompileException': Mine, 'CUDARuntimeError': _errors.CUDARuntimeError,\n"
        "                  'log_kernel': compiler._log_kernel, 'locate_library': _cuda_libs.locate,\n"
        "                  'allocate': memory._allocate_for_core, 'structured': _structured,\n"
        "                  'device_operand': _interop._device_operand, 'matmul_axes': _products._matmul_axes,\n"
        "                  'cache_in_memory': compiler._cache_in_memory, 'log_fusion': compiler._log_fusion})\n"
        "try:\n"
        f"    _core.jit.compile({BROKEN!r}, 'broken', [], 90, [])\n"
        "except Mine as e:\n"
        "    print('Mine', 'undefined_name' in str(e))\n"
    )
    proc = run_python(code=code, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.split() == ["Mine", "True"]
