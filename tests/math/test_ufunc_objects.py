"""Ufunc objects: every ufunc and function of the elementwise engine exists; nin, nout, nargs, __name__ and
.types agree with NumPy's; aliases compute the same thing; bad calls raise TypeError."""

import os
import re
import sys

import cuarray as cp
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mathhelpers import (
    ALIASES,
    BFLOAT16,
    CANONICAL_UFUNCS,
    FUNCTION_NAMES,
    UFUNC_NAMES,
    assert_results,
    dtypes_of,
    make_inputs,
    np_call,
    numpy_loops,
)

pytestmark = pytest.mark.gpu

# bfloat16 is ml_dtypes' 'E' (allowed in .types even where ml_dtypes is not installed).
BF16_CHAR = BFLOAT16.char if BFLOAT16 is not None else "E"
_TYPE_CHARS = set(np.typecodes["All"]) | {BF16_CHAR}


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_ufunc_exists_with_numpy_arity(name):
    u = getattr(cp, name, None)
    assert u is not None, f"cuarray.{name} is missing"
    assert callable(u)
    ref = getattr(np, name)
    assert (u.nin, u.nout, u.nargs) == (ref.nin, ref.nout, ref.nargs)
    for attr in ("nin", "nout", "nargs"):
        assert type(getattr(u, attr)) is int


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_ufunc_name(name):
    u = getattr(cp, name)
    ref = getattr(np, name)
    assert isinstance(u.__name__, str)
    if name in ALIASES:
        # NumPy reports the canonical name for an alias (np.mod.__name__ == 'remainder').
        assert u.__name__ in (name, ref.__name__), u.__name__
    else:
        assert u.__name__ == ref.__name__ == name
    assert u.__name__ in repr(u)


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_types_format(name):
    u = getattr(cp, name)
    types = u.types
    assert isinstance(types, list) and types, f"{name}.types must be a non-empty list"
    pat = re.compile(r"^(\S+)->(\S+)$")
    for sig in types:
        assert isinstance(sig, str), sig
        m = pat.match(sig)
        assert m, f"{name}.types entry {sig!r} is not like 'ff->f'"
        ins, outs = m.groups()
        assert len(ins) == u.nin and len(outs) == u.nout, f"{name}: {sig!r} for nin={u.nin}, nout={u.nout}"
        assert set(ins + outs) <= _TYPE_CHARS, f"{name}: unknown type character in {sig!r}"


def _cp_loops(u):
    out = set()
    for sig in u.types:
        chars = sig.replace("->", "")
        if BF16_CHAR in chars:
            continue
        out.add(dtypes_of(sig))
    return out


@pytest.mark.parametrize("name", CANONICAL_UFUNCS)
def test_types_cover_numpy_loops(name):
    """Every NumPy loop on a supported dtype ('l' and 'q' both mean int64) is a loop of cuarray's ufunc."""
    have = _cp_loops(getattr(cp, name))
    missing = [lp for lp in numpy_loops(name) if lp not in have]
    assert not missing, f"{name} lacks NumPy's loops " + ", ".join(
        "".join(d.char for d in i) + "->" + "".join(d.char for d in o) for i, o in missing
    )


@pytest.mark.parametrize("name", CANONICAL_UFUNCS)
def test_types_only_name_dtypes_that_exist(name):
    for sig in getattr(cp, name).types:
        for c in sig.replace("->", ""):
            if c == BF16_CHAR:
                continue
            np.dtype(c)  # raises for a bogus character


@pytest.mark.parametrize("alias,canonical", sorted(ALIASES.items()))
def test_alias_behaves_like_canonical(alias, canonical):
    a, c = getattr(cp, alias), getattr(cp, canonical)
    assert (a.nin, a.nout) == (c.nin, c.nout)
    assert sorted(a.types) == sorted(c.types)
    dt = {"invert": "int16", "conjugate": "complex64"}.get(canonical, "float32")
    xs = make_inputs(canonical, [dt] * c.nin)
    expected = np_call(getattr(np, canonical), *xs)
    got = a(*[cp.asarray(x) for x in xs])
    assert_results(got, expected)


@pytest.mark.parametrize("name", FUNCTION_NAMES)
def test_function_exists(name):
    f = getattr(cp, name, None)
    assert f is not None and callable(f), f"cuarray.{name} is missing"


def test_round_and_around_agree():
    a = np.array([0.5, 1.5, 2.5, -0.5, 1.25, -2.675], dtype=np.float64)
    x = cp.asarray(a)
    for fn in (cp.round, cp.around):
        assert_results(fn(x), np.round(a))
        assert_results(fn(x, 1), np.round(a, 1))
        assert_results(fn(x, decimals=2), np.round(a, decimals=2))


def test_too_few_arguments_raise_type_error():
    x = cp.asarray(np.arange(3, dtype=np.float32))
    with pytest.raises(TypeError):
        cp.add(x)
    with pytest.raises(TypeError):
        cp.sqrt()
    with pytest.raises(TypeError):
        cp.arctan2(x)


def test_unknown_keyword_raises_type_error():
    x = cp.asarray(np.arange(3, dtype=np.float32))
    with pytest.raises(TypeError):
        cp.add(x, x, no_such_keyword=1)
    with pytest.raises(TypeError):
        cp.sin(x, no_such_keyword=1)


def test_unsupported_operand_type_raises_type_error():
    x = cp.asarray(np.arange(3, dtype=np.float32))
    with pytest.raises(TypeError):
        cp.add(x, "a string")
    with pytest.raises(TypeError):
        cp.add(x, object())
    with pytest.raises(TypeError):
        cp.sin(object())


def test_no_loop_raises_type_error():
    """Inputs with no loop the casting rule allows: TypeError like NumPy's UFuncTypeError."""
    f = cp.asarray(np.ones(3, np.float32))
    c = cp.asarray(np.ones(3, np.complex64))
    i64 = cp.asarray(np.ones(3, np.int64))
    u64 = cp.asarray(np.ones(3, np.uint64))
    b = cp.asarray(np.ones(3, np.bool_))
    for name, args in [
        ("bitwise_and", (f, f)),
        ("invert", (f,)),
        ("left_shift", (i64, u64)),  # common type float64: no shift loop
        ("floor_divide", (c, c)),
        ("remainder", (c, c)),
        ("fmod", (c, c)),
        ("arctan2", (c, c)),
        ("cbrt", (c,)),
        ("floor", (c,)),
        ("signbit", (c,)),
        ("gcd", (f, f)),
        ("subtract", (b, b)),
        ("negative", (b,)),
        ("positive", (b,)),
        ("sign", (b,)),
    ]:
        with pytest.raises(TypeError):
            getattr(np, name)(*[np.ones(3, a.dtype) for a in args])
        with pytest.raises(TypeError):
            getattr(cp, name)(*args)
