"""The ufunc table (cpp/cuarray/ops/ufuncs.def): every row's kernels compile with NVRTC for sm_90, and every
row has exactly NumPy's loops over cuarray's dtypes, so that NumPy never picks a loop cuarray lacks. Needs
NVRTC, not a GPU, so it runs in CI."""

import itertools
import os
import re

import cuarray
import numpy
import pytest
from cuarray import _core
from test_kernel_sources import _compile_together

S = _core.jit.sources
DEF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cpp", "cuarray", "ops", "ufuncs.def")
try:
    import ml_dtypes

    BFLOAT16 = numpy.dtype(ml_dtypes.bfloat16)
except ImportError:
    BFLOAT16 = None

OUR_CHARS = set("?bBhHiIlLefdFDE")
DTYPES = [numpy.dtype(c) for c in "?bBhHiIlLefdFD"] + ([BFLOAT16] if BFLOAT16 is not None else [])


def _table():
    """{name: (nin, nout, [loops])} from ufuncs.def, its string macros expanded as the preprocessor does."""
    with open(DEF) as f:
        text = re.sub(r"//[^\n]*", "", f.read())
    macros = {}

    def expand(expr):
        return "".join(expand(macros[m]) if m else s for s, m in re.findall(r'"([^"]*)"|(\w+)', expr))

    for name, expr in re.findall(r"#define (\w+) ([^\n]*)", text):
        macros[name] = expr
    rows = {}
    row = r"UFUNC\((\w+),\s*(\d),\s*(\d),\s*(.*?),\s*\"[^\"]*\"\)"
    for name, nin, nout, loops in re.findall(row, text, re.DOTALL):
        rows[name] = (int(nin), int(nout), expand(loops).split())
    return rows


TABLE = _table()
PUBLIC = sorted(n for n in TABLE if not n.startswith("_"))


def _char(dt):
    return "E" if BFLOAT16 is not None and dt == BFLOAT16 else dt.char.replace("q", "l").replace("Q", "L")


def _dtype(c):
    return BFLOAT16 if c == "E" else numpy.dtype(c)


def _signature(types, nin):
    return "".join(_char(t) for t in types[:nin]) + "->" + "".join(_char(t) for t in types[nin:])


def _numpy_loops(np_ufunc):
    """NumPy's loops over cuarray's dtypes ('q'/'Q' folded into 'l'/'L'), plus the bfloat16 loops ml_dtypes
    registers: a float16 loop with E in its place that NumPy resolves to itself."""
    loops = []
    for sig in np_ufunc.types:
        sig = sig.replace("q", "l").replace("Q", "L")
        if set(sig.replace("->", "")) <= OUR_CHARS and sig not in loops:
            loops.append(sig)
    if BFLOAT16 is not None:
        for sig in [s for s in loops if "e" in s]:
            e_sig = sig.replace("e", "E")
            ins = tuple(_dtype(c) for c in e_sig.split("->")[0])
            try:
                resolved = np_ufunc.resolve_dtypes(ins + (None,) * np_ufunc.nout)
            except (TypeError, ValueError):
                continue
            if _signature(resolved, np_ufunc.nin) == e_sig and e_sig not in loops:
                loops.append(e_sig)
    return loops


def test_table_rows_are_the_core_ufuncs():
    assert list(TABLE) == list(_core._ufunc_names())
    for name, (nin, nout, loops) in TABLE.items():
        u = cuarray.ufunc(name)
        assert (u.nin, u.nout) == (nin, nout), name
        # types lists int64 loops over 'q' too, in NumPy's order (Note [Listing int64 loops] in ops/ufunc.cpp)
        folded = [t.replace("q", "l").replace("Q", "L") for t in u.types]
        assert sorted(set(folded)) == sorted(loops) and len(folded) == len(u.types), name
        assert len(set(loops)) == len(loops), f"{name} lists a loop twice"
        assert u.ntypes == len(u.types)


@pytest.mark.parametrize("name", PUBLIC)
def test_types_are_numpys_listing(name):
    # ufunc.types as NumPy's, order included, over cuarray's dtypes (CuPy's test_types does the same).
    want = [
        t
        for t in dict.fromkeys(getattr(numpy, name).types)
        if set(t.replace("->", "")) <= set("?bBhHiIlLqQefdFD")
    ]
    assert [t for t in cuarray.ufunc(name).types if "E" not in t] == want


@pytest.mark.parametrize("name", PUBLIC)
def test_loops_are_numpys(name):
    np_ufunc = getattr(numpy, name)
    nin, nout, loops = TABLE[name]
    assert (nin, nout) == (np_ufunc.nin, np_ufunc.nout)
    expected = _numpy_loops(np_ufunc)
    if BFLOAT16 is None:
        loops = [s for s in loops if "E" not in s]
    assert sorted(loops) == sorted(expected), (
        f"{name}: missing {sorted(set(expected) - set(loops))}, "
        f"not NumPy's {sorted(set(loops) - set(expected))}"
    )


def _operand_kinds():
    return DTYPES + [int, float, complex]


@pytest.mark.parametrize("name", PUBLIC)
def test_numpy_never_picks_a_missing_loop(name):
    """For every combination of cuarray dtypes and Python scalars, the loop NumPy resolves is in the row."""
    np_ufunc = getattr(numpy, name)
    loops = set(TABLE[name][2])
    missing = set()
    for operands in itertools.product(_operand_kinds(), repeat=np_ufunc.nin):
        if all(o in (int, float, complex) for o in operands):
            continue
        try:
            resolved = np_ufunc.resolve_dtypes(operands + (None,) * np_ufunc.nout)
        except (TypeError, ValueError):  # NumPy has no loop either (or cannot promote bfloat16 with float16)
            continue
        if all(t in DTYPES for t in resolved) and _signature(resolved, np_ufunc.nin) not in loops:
            missing.add(_signature(resolved, np_ufunc.nin))
    assert not missing, f"NumPy resolves {name} to loops the table lacks: {sorted(missing)}"


def test_where_and_clip_rows_cover_numpys_choices():
    from cuarray._ufuncs import _resolve

    for name in ("_where", "_clip"):
        loops = set(TABLE[name][2])
        for operands in itertools.product(_operand_kinds(), repeat=3):
            try:
                resolved = _resolve(name, operands, None, "same_kind")
            except (TypeError, ValueError):
                continue
            if all(t in DTYPES for t in resolved):
                assert _signature(resolved, 3) in loops, (name, operands, resolved)


def _kernels(name):
    """Each loop's kernel: contiguous aligned and unaligned, strided 3-d with 64-bit indices, tiled 3-d with input
    0 through tiles, and (with two or more inputs) strided 2-d with input 1 a scalar and tiled 2-d with 64-bit
    indices and every input through 32-wide tiles."""
    nin, _, loops = TABLE[name]
    arrays = [False] * nin
    variants = [
        (arrays, True, 0, True, False),
        (arrays, True, 0, False, False),
        (arrays, False, 3, False, True),
    ]
    if nin >= 2:
        variants.append(([False, True] + [False] * (nin - 2), False, 2, False, False))
    loops = [sig for sig in loops if BFLOAT16 is not None or "E" not in sig]
    tiled = [(arrays, False, 3, False, False, 1), (arrays, False, 2, False, True, (1 << nin) - 1)]
    return [S.ufunc(name, sig, *v) for v in variants for sig in loops] + [
        S.ufunc(name, sig, *v, _tile(sig, v[-1])) for v in tiled for sig in loops if _tile(sig, v[-1])
    ]


def _tile(signature, mask):
    """The tile edge the engine picks for these tiled inputs: 64 or 32, the larger whose tiles fit in 48 KiB;
    0 when neither does (the engine then takes the strided class)."""
    size = sum(_dtype(c).itemsize for i, c in enumerate(signature.split("->")[0]) if mask >> i & 1)
    return next((t for t in (64, 32) if t * (t + 1) * size <= 48 * 1024), 0)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_ufunc_kernels_compile_for_sm90(name):
    kernels = _kernels(name)
    cubin = _compile_together(kernels)  # one program per ufunc: the headers are parsed once
    assert cubin[:4] == b"\x7fELF"
    for _, kernel in kernels:
        assert kernel.encode() in cubin, f"{kernel} missing from the compiled program"
