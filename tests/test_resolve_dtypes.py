"""The loop of a call with Python scalars under casting='equiv' (Note [resolve_dtypes under 'equiv'] in
cuarray/_resolve_dtypes.py): NumPy's resolve_dtypes crashes the process there, so cuarray resolves it another
way and raises NumPy's errors. No device needed: the loop is decided on the host."""

import numpy as np
import pytest
from conftest import describe, run_python

CASES = [
    ("add", ("int8", "int")),
    ("add", ("complex64", "complex")),
    ("add", ("float32", "float")),
    ("add", ("float32", "int")),
    ("add", ("int8", "float")),
    ("add", ("int64", "int")),
    ("add", ("float64", "float")),
    ("add", ("bool", "bool")),
    ("multiply", ("int", "int16")),
    ("clip", ("int8", "int", "int")),
    ("logical_and", ("int64", "float")),  # NumPy's logical ufuncs cast any input to bool
    ("logical_or", ("int", "float")),
    ("logical_xor", ("complex64", "int")),
]

CHILD = """
import numpy as np
from cuarray._resolve_dtypes import resolve_dtypes
ufunc = np._core.umath.clip if {name!r} == "clip" else getattr(np, {name!r})
types = tuple(np.dtype(t) if t not in ("int", "float", "complex", "bool") else {{"int": int, "float": float,
              "complex": complex, "bool": np.dtype(bool)}}[t] for t in {types!r}) + (None,)
try:
    print("loop", resolve_dtypes(ufunc, types, casting="equiv"))
except TypeError as e:
    print(type(e).__name__, e)
"""


@pytest.mark.parametrize("name,types", CASES, ids=str)
def test_equiv_with_python_scalars_never_crashes_and_raises_numpys_errors(name, types):
    proc = run_python(code=CHILD.format(name=name, types=types), timeout=120)
    assert proc.returncode == 0, describe(proc)
    # NumPy's ufunc call on arrays of those types (a Python scalar as itself) gives the same outcome.
    args = [{"int": 1, "float": 1.5, "complex": 1j, "bool": True}.get(t) for t in types]
    args = [np.ones(2, t) if a is None else a for a, t in zip(args, types)]
    ufunc = np._core.umath.clip if name == "clip" else getattr(np, name)
    try:
        want = "loop " + str(
            tuple(x.dtype for x in [*args, ufunc(*args, casting="equiv")] if hasattr(x, "dtype"))
        )
    except TypeError as e:
        want = f"{type(e).__name__} {e}"
    got = proc.stdout.strip()
    if want.startswith("loop"):
        assert got.startswith("loop"), got
    else:
        assert got == want
