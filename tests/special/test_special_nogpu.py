"""cuarray.scipy.special's type resolution against SciPy's own ufuncs, with or without a GPU: for every real
input dtype, Python number, dtype= and casting, cuarray's loop search picks SciPy's loop, or raises where SciPy
raises (Note [Legacy loop search] in cuarray/_ufuncs.py). The search runs on the installed SciPy's loop order,
which changed in SciPy 1.18; the table's own order is 1.18's."""

import itertools

import cuarray.scipy.special as csp
import numpy as np
import pytest
import scipy
import scipy.special
from cuarray import _ufuncs

REAL = [np.dtype(c) for c in "?bBhHiIlLefd"]
NUMBERS = [int, float]
UFUNCS = [n for n in csp.__all__ if isinstance(getattr(csp, n), _ufuncs.ufunc)]
_SCIPY_1_18 = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 18)


def _host(operand):
    if operand is int or operand is float:
        return operand(1)
    return np.ones(2, operand)


def _scipy(name, operands, dtype, casting):
    kwargs = {"casting": casting} | ({} if dtype is None else {"dtype": dtype})
    try:
        with np.errstate(all="ignore"):
            return np.asarray(getattr(scipy.special, name)(*map(_host, operands), **kwargs)).dtype
    except TypeError as e:
        return f"{type(e).__name__}: {e}"


def _real_loops(name):
    return [t for t in getattr(scipy.special, name).types if not set(t) & set("FDg")]


def _cuarray(name, operands, dtype, casting):
    try:
        u = getattr(csp, name)
        return _ufuncs.legacy_loop_search(u, _real_loops(name), operands, dtype, casting)[-1]
    except TypeError as e:
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("name", UFUNCS)
def test_loop_choice_and_errors_are_scipys(name):
    nin = getattr(csp, name).nin
    differ = []
    for operands in itertools.product(REAL + NUMBERS, repeat=nin):
        for dtype in (None, np.dtype("f"), np.dtype("d"), np.dtype("i")):
            for casting in ("same_kind", "safe", "no", "unsafe"):
                want = _scipy(name, operands, dtype, casting)
                got = _cuarray(name, operands, dtype, casting)
                if str(got) != str(want):
                    differ.append((operands, dtype, casting, want, got))
    assert not differ, differ[:5]


def test_names_and_loops():
    assert csp.erf.__name__ == "erf" and csp.xlogy.__name__ == "xlogy"
    assert repr(csp.erf) == "<ufunc 'erf'>" and repr(_ufuncs.add) == "<ufunc 'add'>"
    for name in UFUNCS:
        order = ["d->d", "f->f"] if name == "logit" else ["f->f", "d->d"]
        assert getattr(csp, name).types == (order if getattr(csp, name).nin == 1 else ["ff->f", "dd->d"])
        if _SCIPY_1_18:  # SciPy's real loops, in SciPy's order
            assert getattr(csp, name).types == _real_loops(name), name


def test_the_tables_order_is_used():
    # float32 first: uint8 computes in float32, as in SciPy 1.18 (1.17 listed float64 first).
    assert _ufuncs._resolve("_special_erf", (np.dtype("B"),), None, "same_kind")[-1] == np.float32
    assert _ufuncs._resolve("_special_xlogy", (np.dtype("f"), float), None, "same_kind")[-1] == np.float32
    assert (
        _ufuncs._resolve("_special_xlogy", (np.dtype("f"), np.dtype("d")), None, "same_kind")[-1]
        == np.float64
    )


def test_complex_operands_raise_typeerror():
    with pytest.raises(TypeError, match="ufunc 'erf' not supported for the input types"):
        _ufuncs._resolve("_special_erf", (np.dtype("F"),), None, "same_kind")
    with pytest.raises(TypeError, match="Cannot cast ufunc 'xlogy' input 1 from dtype\\('complex64'\\)"):
        _ufuncs._resolve("_special_xlogy", (np.dtype("f"), complex), np.dtype("f"), "same_kind")


def test_messages_name_scipys_function():
    with pytest.raises(TypeError, match=r"^erf\(\) takes from 1 to 2 positional arguments but 3 were given"):
        csp.erf(1, 2, 3)
    with pytest.raises(TypeError, match=r"^xlogy\(\) got an unexpected keyword argument 'bogus'"):
        csp.xlogy(1.0, 2.0, bogus=1)
