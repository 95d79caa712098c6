"""ufunc.reduce, accumulate and reduceat of the ufuncs that fold (cuarray/_fold.py, cpp/cuarray/ops/fold.cpp).

Without a GPU: the loop types against NumPy's reduce and accumulate for every dtype, `dtype=` and `out` type;
the plan (types, start value, fold order, float16 rounding) with the kernel's fold done by NumPy, step by step,
against NumPy's reduce, accumulate and reduceat bit for bit; every generated kernel compiled with NVRTC. On a
GPU: values, layouts and errors against NumPy.
"""

import math
import warnings
from functools import partial

import cuarray as cp
import numpy as np
import pytest
from cuarray import _core, _fold, testing
from cuarray import _ufunc_methods as _methods
from test_kernel_sources import DTYPES, _compile_together
from test_ufunc_sources import TABLE

gpu = pytest.mark.gpu
_NO = np._NoValue

# NumPy's two-input ufuncs that reduce by a fold rather than a reduction of their own.
FOLDS = sorted(
    name
    for name, (nin, nout, _) in TABLE.items()
    if nin == 2
    and nout == 1
    and not name.startswith("_")
    and isinstance(getattr(np, name, None), np.ufunc)
    and name not in _methods._REDUCE
)
# Ufuncs whose accumulate is a fold too (their reduce is a reduction row).
ACCUMULATE_ONLY = sorted(set(_methods._REDUCE) - set(_methods._ACCUMULATE))
ALL_TYPES = [np.dtype(c) for c in "?bBhHiIlLefdFD"]
# NumPy's AVX-512 loops of these give op(a[0], a[-1]) for a contiguous float32/float64 reduce (Note [Fold types
# and order] in cuarray/_fold.py); there the reference is NumPy's fold step by step.
SIMD_REDUCE = ("power", "arctan2", "ldexp")
# Ufuncs whose steps are exact (correctly rounded or exact by definition) in every loop.
EXACT = {
    "subtract", "floor_divide", "remainder", "fmod", "copysign", "nextafter", "heaviside", "fmax", "fmin", "gcd",
    "lcm", "ldexp", "left_shift", "right_shift", "equal", "not_equal", "less", "less_equal", "greater",
    "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
}  # fmt: skip


def test_the_folds_are_numpys_other_binary_ufuncs():
    assert {"subtract", "divide", "power", "arctan2", "hypot", "logaddexp", "greater", "left_shift"} <= set(
        FOLDS
    )
    assert not {"add", "multiply", "maximum", "bitwise_and"} & set(FOLDS)
    assert ACCUMULATE_ONLY == [
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "fmax",
        "fmin",
        "logical_and",
        "logical_or",
        "logical_xor",
    ]


# ---- loop types ------------------------------------------------------------------------------------------


def _outcome(f):
    try:
        r = f()
        r = r[0] if isinstance(r, tuple) else r  # loop_types' (acc, elem), or a result array
        return ("ok", np.dtype(getattr(r, "dtype", r)))
    except (TypeError, ValueError) as e:
        return (type(e), str(e))


@pytest.mark.parametrize("name", FOLDS + ACCUMULATE_ONLY)
@pytest.mark.parametrize("method", ["reduce", "accumulate"])
def test_loop_types_are_numpys(name, method):
    u = getattr(np, name)
    for t in ALL_TYPES:
        a = np.ones(3, t)
        for dtype in (None, np.dtype("int16"), np.dtype("float32"), np.dtype("bool")):
            for out in (None, np.dtype("float16"), np.dtype("int64"), np.dtype("complex64")):
                kwargs = {"dtype": dtype} if out is None else {"dtype": dtype, "out": np.zeros((), out)}
                if method == "accumulate" and out is not None:
                    kwargs["out"] = np.zeros(3, out)
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
                    want = _outcome(partial(getattr(u, method), a, **kwargs))
                got = _outcome(partial(_fold.loop_types, u, method, t, dtype, out))
                if got[0] == "ok" and out is not None:
                    got = ("ok", out)  # the loop's result, cast into `out`
                assert got == want, (t, dtype, out)


# ---- the plan, with NumPy doing the kernel's steps ---------------------------------------------------------


def _emulate_rows(u, acc, elem, start, chunk, x, mask=None):
    """kernels/fold.cuh's fold of the rows of `x` (its last axis) in NumPy: each step NumPy's loop on the
    running value and an element, rounded to the loop type (kept in float32 with `chunk`, rounded every `chunk`
    elements and where the mask skips one)."""
    wide = chunk > 0
    if start is not None:
        a, j0 = np.full(x.shape[:-1], start, acc), 0
    else:
        a, j0 = x[..., 0].astype(acc), 1
    if wide:
        a = a.astype(np.float32)
    for j in range(j0, x.shape[-1]):
        e = x[..., j].astype(elem)
        with np.errstate(all="ignore"):
            step = u(a, e.astype(np.float32)) if wide else _step(u, a, e).astype(acc)
        keep = np.ones(a.shape, bool) if mask is None else mask[..., j]
        a = np.where(keep, step, a)
        if wide:
            a = np.where(~keep | ((j + 1) % chunk == 0), a.astype(np.float16).astype(np.float32), a)
    return a.astype(acc)


def _step(u, a, e):
    """u(a, e), element by element where NumPy's SIMD loops for whole arrays round otherwise than its loop
    for one element (atan2, pow): a reduce, accumulate or reduceat calls the loop one element at a time."""
    if u.__name__ in EXACT or a.dtype.kind in "biu":
        return u(a, e)
    return np.array([u(x, y) for x, y in zip(a.ravel(), e.ravel())], dtype=a.dtype).reshape(a.shape)


def emulate_reduce(name, a, axis=0, dtype=None, out=None, keepdims=False, initial=_NO, where=True):
    """cuarray's reduce of NumPy array `a`, computed by NumPy: cuarray/_fold.py's plan, then the kernel's fold."""
    u = getattr(np, name)
    mask = None if where is True else np.broadcast_to(where, a.shape)
    plan = _fold.plan_reduce(u, a, axis, dtype, out, keepdims, initial, mask)
    shape = tuple(a.shape[d] for d in plan.kept)
    count = math.prod(a.shape[d] for d in plan.folded)
    order = plan.kept + plan.folded
    x = a.transpose(order).reshape(shape + (count,))
    m = None if mask is None else mask.transpose(order).reshape(shape + (count,))
    r = _emulate_rows(u, plan.acc, plan.elem, plan.start, plan.chunk, x, m)
    if keepdims:
        r = r.reshape(tuple(1 if d in plan.folded else n for d, n in enumerate(a.shape)))
    if out is not None:
        out[...] = r
        return out
    return r


def _same(got, want, name=None):
    """Equal bit for bit; within 4 ulp for power and arctan2, whose float results NumPy's own loops (SIMD or
    one element) give to different last bits."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if name in ("power", "arctan2") and want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=4 * np.finfo(want.dtype).eps)
        return
    assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes(), (got, want)


def _data(name, dtype, shape, seed=0):
    """Values `name` folds without errors, overflow to infinity or integer division by zero."""
    rng = np.random.default_rng(seed)
    dt, n = np.dtype(dtype), math.prod(shape)
    if dt.kind == "b":
        x = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        if name in ("power", "left_shift", "right_shift", "ldexp"):
            x = rng.integers(0, 3, n)
        else:
            x = rng.integers(1 if dt.kind == "u" or name == "lcm" else -9, 10, n)
            x[x == 0] = 3
        x = x.astype(dt)
    else:
        x = rng.standard_normal(n) * 2
        if dt.kind == "c":
            x = x + 1j * rng.standard_normal(n)
        if name in ("power", "float_power"):
            x = np.abs(x) * 0.05 + 0.97
        x[np.abs(x) < 0.2] += 0.5
        x = x.astype(dt)
    return x.reshape(shape)


def _layouts(x):
    """`x` (3-D) in several layouts: C, F, transposed, sliced with steps, reversed, broadcast."""
    f = np.asfortranarray(x)
    return {
        "C": x,
        "F": f,
        "T": x.transpose(2, 0, 1),
        "steps": np.concatenate([x, x], axis=1)[:, ::2],
        "reversed": x[::-1, :, ::-1],
        "F-reversed": f[:, ::-1],
        "broadcast": np.broadcast_to(x[:, :1], x.shape),
    }


def _types(name):
    types = []
    for t in ALL_TYPES:
        try:
            _fold.loop_types(getattr(np, name), "reduce", t)
        except TypeError:
            continue
        types.append(t)
    return types


@pytest.mark.parametrize("name", FOLDS)
def test_reduce_plan_gives_numpys_values(name):
    u = getattr(np, name)
    multi = u.identity is not None or name in ("fmax", "fmin")
    for t in _types(name):
        if name in SIMD_REDUCE and _fold.loop_types(u, "reduce", t)[0].kind == "f" and t.itemsize > 1:
            continue  # NumPy's contiguous reduce is not the fold there (SIMD_REDUCE)
        for a in _layouts(_data(name, t, (3, 4, 5))).values():
            for axis in (0, 1, 2, -1) + ((None, (0, 2), (1, 2)) if multi else ()):
                with np.errstate(all="ignore"):
                    want = u.reduce(a, axis=axis)
                _same(emulate_reduce(name, a, axis), want, name)


@pytest.mark.parametrize("name", ["subtract", "divide", "hypot", "fmod", "copysign"])
def test_reduce_plan_options_give_numpys_values(name):
    u = getattr(np, name)
    a = _data(name, np.float16, (6, 7))
    where = np.random.default_rng(1).integers(0, 2, 7).astype(bool)
    for kwargs in (
        {"initial": 1.5},
        {"initial": 1.5, "where": where},
        {"initial": 2.0, "where": where, "axis": 1},
        {"axis": 1, "keepdims": True},
        {"axis": 0, "dtype": np.float32},
        {"axis": 1, "out": np.zeros(6, np.float32)},
        {"axis": 1, "out": np.zeros((6, 1), np.float64), "keepdims": True},
    ):
        with np.errstate(all="ignore"):
            want = u.reduce(a, **{k: v.copy() if k == "out" else v for k, v in kwargs.items()})
        _same(emulate_reduce(name, a, **kwargs), want)
    if u.identity is not None:
        _same(emulate_reduce(name, a, initial=None), u.reduce(a, initial=None))


def test_float16_subtract_rounds_where_numpys_loop_does():
    # The running value stays in float through one inner loop (Note [Wide float16 folds] in ops/fold.cpp):
    # a whole row along the innermost axis, 8192 elements a buffer when cast, one step along another axis.
    x = _data("subtract", np.float16, (20000,), seed=3)
    x32 = (np.random.default_rng(4).standard_normal(30000) * 0.3 + 2).astype(np.float32)
    m = x[:600].reshape(20, 30)
    for a, kwargs in (
        (x, {}),
        (x[::-2], {}),
        (x32, {"dtype": np.float16}),
        (x32[:24000].reshape(2, 12000), {"axis": 1, "dtype": np.float16}),
        (m, {"axis": 0}),
        (m, {"axis": 1}),
        (np.asfortranarray(m), {"axis": 0}),
        (m[:, :1], {"axis": 0}),
        (x[:300], {"initial": 3.0, "where": np.arange(300) % 7 != 3}),
    ):
        want = np.subtract.reduce(a, **kwargs)
        _same(emulate_reduce("subtract", a, **kwargs), want)
    assert np.subtract.reduce(x) != _emulate_rows(np.subtract, x.dtype, x.dtype, None, 0, x)  # it matters


@pytest.mark.parametrize("name", FOLDS + ACCUMULATE_ONLY)
def test_accumulate_is_numpys_fold_step_by_step(name):
    u = getattr(np, name)
    for t in ALL_TYPES:
        try:
            acc, elem = _fold.loop_types(u, "accumulate", t)
        except TypeError:
            continue
        a = _data(name, t, (4, 6))
        for axis in (0, 1):
            with np.errstate(all="ignore"):
                want = u.accumulate(a, axis=axis)
            x = np.moveaxis(a, axis, -1)
            got = np.stack(
                [_emulate_rows(u, acc, elem, None, 0, x[..., : j + 1]) for j in range(x.shape[-1])], -1
            )
            _same(np.moveaxis(got, -1, axis), want, name)


def emulate_reduceat(name, a, indices, axis=0):
    """cuarray's reduceat of NumPy array `a` computed by NumPy: the kernel's fold of each segment."""
    u = getattr(np, name)
    acc, elem = _fold.loop_types(u, "reduceat", a.dtype)
    chunk = _fold._chunk(u, acc, True, False)
    x = np.moveaxis(a, axis, -1)
    parts = []
    for k, s in enumerate(indices):
        stop = indices[k + 1] if k + 1 < len(indices) else x.shape[-1]
        parts.append(_emulate_rows(u, acc, elem, None, chunk, x[..., s : max(stop, s + 1)]))
    return (
        np.moveaxis(np.stack(parts, -1), -1, axis) if parts else np.moveaxis(x[..., :0].astype(acc), -1, axis)
    )


@pytest.mark.parametrize("name", ["subtract", "divide", "hypot", "greater", "left_shift"])
def test_reduceat_is_numpys_fold_of_each_segment(name):
    u = getattr(np, name)
    for t in (np.dtype("float16"), np.dtype("float64"), np.dtype("int32"), np.dtype("bool")):
        try:
            _fold.loop_types(u, "reduceat", t)
        except TypeError:
            continue
        a = _data(name, t, (3, 40))
        for idx, axis in (([0, 7, 7, 3, 25, 39], 1), ([1, 0, 2], 0), ([], 1)):
            with np.errstate(all="ignore"):
                want = u.reduceat(a, idx, axis=axis)
            _same(emulate_reduceat(name, a, idx, axis), want, name)


def _nditer_order(shape, strides):
    """NumPy's nditer's axes of length > 1 from the innermost out, seen in the order it visits an array of
    these (non-negative) strides."""
    a = np.lib.stride_tricks.as_strided(np.zeros(4096), shape, strides)
    first_change = {}
    with np.nditer(a, flags=["multi_index"], order="K") as it:
        prev = None
        for step, _ in enumerate(it):
            if prev is not None:
                for d in range(len(shape)):
                    if it.multi_index[d] != prev[d]:
                        first_change.setdefault(d, step)
            prev = it.multi_index
    return sorted(first_change, key=first_change.get)


@pytest.mark.parametrize(
    "shape, strides",
    [
        ((2, 3, 4), (96, 32, 8)),
        ((2, 3, 4), (8, 16, 48)),
        ((2, 3, 4), (8, 0, 16)),
        ((2, 3, 4), (0, 8, 0)),
        ((2, 1, 4), (8, 4, 16)),
        ((3, 4, 2, 5), (8, 240, 120, 24)),
        ((3, 4, 5), (40, 8, 8)),
    ],
)
def test_iteration_order_is_nditers(shape, strides):
    order = _fold.iteration_order(shape, [strides])
    assert sorted(order) == list(range(len(shape)))
    assert [d for d in order if shape[d] > 1] == _nditer_order(shape, strides)


def test_iteration_order_keeps_negative_strides():
    # A reduce's iterator does not flip negative strides (NPY_ITER_DONT_NEGATE_STRIDES); only |stride| counts.
    assert _fold.iteration_order((2, 3, 4), [(-96, 32, -8)]) == [2, 1, 0]
    assert _fold.iteration_order((2, 3, 4), [(-8, 16, -48)]) == [0, 1, 2]
    assert _fold.iteration_order((), []) == []


@pytest.mark.parametrize(
    "name, kwargs, error",
    [
        ("subtract", {"axis": (0, 1)}, "not reorderable"),
        ("subtract", {"axis": None}, "not reorderable"),
        ("subtract", {"where": True}, None),
        ("subtract", {"axis": 2}, "out of bounds"),
        ("greater", {}, "No loop matching"),
        ("subtract", {"dtype": bool}, "boolean subtract"),
        ("hypot", {"axis": (0, 1)}, None),
        ("fmax", {"axis": None}, None),
        ("lcm", {"axis": (0, 1)}, "not reorderable"),
    ],
)
def test_plan_errors_are_numpys(name, kwargs, error):
    u = getattr(np, name)
    a = np.arange(1.0, 7.0).reshape(2, 3)
    if name in ("lcm",):
        a = a.astype(np.int64)
    where = kwargs.pop("where", True)
    mask = None if where is True else np.broadcast_to(where, a.shape)
    args = (kwargs.get("axis", 0), kwargs.get("dtype"), None, False, _NO, mask)
    if error is None:
        u.reduce(a, **kwargs)
        _fold.plan_reduce(u, a, *args)
        return
    with pytest.raises(Exception) as want:
        u.reduce(a, **kwargs)
    with pytest.raises(type(want.value)) as got:
        _fold.plan_reduce(u, a, *args)
    assert str(got.value) == str(want.value) and error in str(got.value)


@pytest.mark.parametrize(
    "a, kwargs",
    [
        (np.zeros((0, 3)), {}),
        (np.zeros((0, 0)), {"axis": 1}),
        (np.zeros((2, 3)), {"where": np.array([True, False, True])}),
        (np.zeros((2, 0)), {"axis": 1, "where": np.zeros(0, bool)}),
        (np.zeros((2, 3)), {"out": np.zeros((1, 3))}),
        (np.zeros((2, 3)), {"out": np.zeros(3), "keepdims": True}),
        (np.array([1, 2], np.int8), {"initial": 300}),
        (np.array([1, 2], np.int8), {"initial": "a"}),
    ],
)
def test_plan_value_errors_are_numpys(a, kwargs):
    with pytest.raises(Exception) as want:
        np.subtract.reduce(a, **kwargs)
    where = kwargs.get("where", True)
    mask = None if where is True else np.broadcast_to(where, a.shape)
    with pytest.raises(type(want.value)) as got:
        _fold.plan_reduce(
            np.subtract,
            a,
            kwargs.get("axis", 0),
            None,
            kwargs.get("out"),
            kwargs.get("keepdims", False),
            kwargs.get("initial", _NO),
            mask,
        )
    assert str(got.value) == str(want.value)


def test_start_values_are_numpys():
    # An identity starts the fold (hypot's 0 makes the first element's absolute value); initial=None removes it.
    _same(emulate_reduce("hypot", np.array([-3.0])), np.hypot.reduce(np.array([-3.0])))
    _same(
        emulate_reduce("hypot", np.array([-3.0]), initial=None),
        np.hypot.reduce(np.array([-3.0]), initial=None),
    )
    _same(emulate_reduce("hypot", np.array([-5.0]), axis=()), np.hypot.reduce(np.array([-5.0]), axis=()))
    _same(emulate_reduce("logaddexp", np.zeros((0, 2))), np.logaddexp.reduce(np.zeros((0, 2))))
    _same(
        emulate_reduce("subtract", np.array([1, 2], np.int8), initial=2.7),
        np.subtract.reduce(np.array([1, 2], np.int8), initial=2.7),
    )
    _same(
        emulate_reduce("ldexp", np.array([3, 1, 2], np.int8)), np.ldexp.reduce(np.array([3, 1, 2], np.int8))
    )
    _same(emulate_reduce("subtract", np.array(5.0), axis=0), np.subtract.reduce(np.array(5.0), axis=0))


def test_methods_of_other_ufuncs_are_numpys_errors():
    with pytest.raises(ValueError, match="reduce only supported for binary functions"):
        cp.sin.reduce(np.zeros(3))
    with pytest.raises(ValueError, match="accumulate only supported for functions returning a single value"):
        cp.divmod.accumulate(np.zeros(3))
    with pytest.raises(ValueError, match="reduceat only supported for functions returning a single value"):
        cp.divmod.reduceat(np.zeros(3), [0])
    from cuarray.scipy import special

    with pytest.raises(NotImplementedError, match="xlogy.reduce"):
        special.xlogy.reduce(np.zeros(3))


# ---- generated kernels -----------------------------------------------------------------------------------


def _fold_kernels():
    kernels = []
    for name in FOLDS + ACCUMULATE_ONLY:
        loops = [(s[0], s[1]) for s in TABLE[name][2] if s[0] == s[4]]
        for i, (acc, elem) in enumerate(loops):
            acc_t, elem_t = (_char_name(c) for c in (acc, elem))
            if acc_t is None or elem_t is None:
                continue
            variants = [("accumulate", False, False, False)] if name in ACCUMULATE_ONLY else []
            if name not in ACCUMULATE_ONLY:
                variants = [
                    [
                        ("reduce", False, False, False),
                        ("reduce", True, True, False),
                        ("accumulate", False, False, False),
                        ("reduceat", False, False, False),
                    ][i % 4]
                ]
                if i == 0:
                    variants += [("reduce", True, False, False), ("accumulate", False, False, False)]
                    variants += [("reduceat", False, False, False), ("reduce", False, True, False)]
                if acc == "e" and name in ("subtract", "divide"):
                    variants += [("reduce", False, False, True), ("reduce", True, True, True)]
                    variants += [("reduceat", False, False, True)]
            for kind, initial, where, wide in dict.fromkeys(variants):
                kernels.append(
                    S.fold(name, kind, acc_t, elem_t, elem_t, acc_t, initial, where, wide, 1 + i % 3)
                )
    # Casts on load and store: bool and int8 data into a float loop, results into another type.
    for src, dst in (("bool", "float64"), ("int8", "complex64"), ("uint64", "float16")):
        kernels.append(S.fold("subtract", "reduce", "float32", "float32", src, dst, False, False, False, 2))
        kernels.append(S.fold("greater", "accumulate", "bool", "bool", src, dst, False, False, False, 1))
    return kernels


def _char_name(c):
    if c == "E":
        return "bfloat16" if "bfloat16" in DTYPES else None
    return np.dtype(c).name


S = _core.jit.sources


def test_fold_kernels_compile_for_sm90():
    kernels = _fold_kernels()
    cubin = _compile_together(kernels)
    assert cubin[:4] == b"\x7fELF"
    for _, name in kernels:
        assert name.encode() in cubin, f"{name} missing from the compiled program"


def test_fold_kernel_names_and_refusals():
    source, name = S.fold("subtract", "reduce", "float16", "float16", "int8", "float32", True, True, True, 2)
    assert name == "fold_r_subtract_float16_float16_int8_ofloat32_i_m_w_2"
    assert "out0 = in0 - in1;" in source and "ca::fold_reduce<true, true, true>" in source
    with pytest.raises(TypeError, match="no loop"):
        S.fold("subtract", "reduce", "bool", "bool", "bool", "bool", False, False, False, 1)
    with pytest.raises(TypeError, match="no loop"):
        S.fold("sqrt", "reduce", "float32", "float32", "float32", "float32", False, False, False, 1)
    with pytest.raises(ValueError, match="unknown kind"):
        S.fold("subtract", "scan", "float32", "float32", "float32", "float32", False, False, False, 1)


# ---- on a GPU --------------------------------------------------------------------------------------------


def _tolerance(name, dtype):
    """rtol for comparing cuarray's fold with NumPy's: 0 where each step is exact."""
    dt = np.dtype(dtype)
    if name in EXACT or dt.kind in "biu" or (name == "divide" and dt.kind == "f"):
        return 0
    return {2: 4e-3, 4: 2e-5, 8: 1e-12, 16: 1e-12}[dt.itemsize if dt.kind == "f" else dt.itemsize // 2]


def _check(name, got, want):
    want = np.asarray(want)
    assert isinstance(got, cp.ndarray) and got.dtype == want.dtype and got.shape == want.shape, (got, want)
    rtol = _tolerance(name, want.dtype)
    if rtol == 0:
        testing.assert_array_equal(got, want, strict=True)
        signs = np.signbit(want.real) if want.dtype.kind in "fc" else None
        if signs is not None:
            assert (np.signbit(got.get().real) == signs).all()
    else:
        testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


def _numpy_reduce(name, a, **kwargs):
    """NumPy's reduce, or where its AVX-512 loops are not the fold (SIMD_REDUCE), the fold step by step."""
    with np.errstate(all="ignore"):
        if name in SIMD_REDUCE:
            return emulate_reduce(name, a, **kwargs)
        return getattr(np, name).reduce(a, **kwargs)


def _both(f):
    """f(numpy) and f(cuarray): the results, or the errors (type and message) both raise."""
    outcomes = []
    for xp in (np, cp):
        try:
            with np.errstate(all="ignore"):
                outcomes.append(("ok", f(xp)))
        except Exception as e:  # noqa: BLE001 - the comparison is the test
            outcomes.append((type(e), str(e)))
    return outcomes


@gpu
@pytest.mark.parametrize("name", FOLDS)
@testing.for_all_dtypes()
def test_reduce_values(name, dtype):
    u = getattr(cp, name)
    x = _data(name, dtype, (3, 4, 5))
    a = cp.asarray(x)
    for axis in (0, 1, -1, None, (0, 2)):
        for keepdims in (False, True):
            try:
                with np.errstate(all="ignore"):
                    want = _numpy_reduce(name, x, axis=axis, keepdims=keepdims)
            except (TypeError, ValueError) as e:
                with pytest.raises(type(e)) as info:
                    u.reduce(a, axis=axis, keepdims=keepdims)
                assert str(info.value) == str(e)
                continue
            _check(name, u.reduce(a, axis=axis, keepdims=keepdims), want)


@gpu
@pytest.mark.parametrize(
    "name", ["subtract", "divide", "power", "hypot", "logaddexp", "fmod", "less", "arctan2"]
)
@pytest.mark.parametrize(
    "dtype", [np.bool_, np.int16, np.uint8, np.float16, np.float32, np.float64, np.complex64]
)
def test_reduce_layouts(name, dtype):
    x = _data(name, dtype, (4, 5, 6), seed=2)
    u = getattr(cp, name)
    multi = getattr(np, name).identity is not None
    for label, h in _layouts(x).items():
        d = cp.asarray(h) if label in ("C", "F") else _device_view(h, x)
        for axis in (0, 1, 2) + ((None, (0, 2)) if multi else ()):
            try:
                want = _numpy_reduce(name, h, axis=axis)
            except TypeError:
                continue
            _check(name, u.reduce(d, axis=axis), want)


def _device_view(h, x):
    """The device view of `x` that NumPy view `h` of x is: the same slicing, transposition or broadcast."""
    d = cp.asarray(x)
    f = cp.asfortranarray(d)
    views = {
        "T": lambda: d.transpose(2, 0, 1),
        "steps": lambda: cp.concatenate([d, d], axis=1)[:, ::2],
        "reversed": lambda: d[::-1, :, ::-1],
        "F-reversed": lambda: f[:, ::-1],
        "broadcast": lambda: cp.broadcast_to(d[:, :1], d.shape),
    }
    for view in views.values():
        v = view()
        if v.shape == h.shape and v.strides == h.strides:
            return v
    raise AssertionError(f"no device view for strides {h.strides}")


@gpu
@pytest.mark.parametrize(
    "x, kwargs",
    [
        (np.float64(2.5), {}),
        (np.float64(2.5), {"axis": None, "keepdims": True}),
        (np.zeros((0, 3)), {"axis": 1}),
        (np.zeros((2, 0)), {"axis": 0}),
        (np.zeros((0, 3)), {"initial": 1.5}),
        (np.zeros((0, 3)), {}),
        (np.zeros((1, 3)) + 2, {}),
        (np.arange(6.0).reshape(1, 6, 1) + 1, {"axis": 1}),
        (np.arange(1, 7, dtype=np.int32), {"dtype": np.float32}),
        (np.array([-100, 100, 100], np.int8), {"dtype": np.int16}),
        (np.arange(1.0, 13.0).reshape(3, 4), {"axis": 1, "initial": 10, "where": [True, False, True, True]}),
        (np.arange(1.0, 13.0).reshape(3, 4), {"where": [True, False, True, True]}),
        (np.arange(1.0, 13.0).reshape(3, 4), {"axis": (0, 1)}),
        (np.arange(1.0, 13.0).reshape(3, 4), {"axis": 2}),
        (np.array([True, False]), {}),
        (np.array([1, 2], np.int8), {"initial": 300}),
        (np.array([1, 2], np.int8), {"initial": 2.7}),
    ],
)
def test_reduce_edges_and_errors_are_numpys(x, kwargs):
    def run(xp):
        a = xp.asarray(x)
        kw = {k: xp.asarray(np.array(v)) if k == "where" else v for k, v in kwargs.items()}
        r = xp.subtract.reduce(a, **kw)
        return r if isinstance(r, cp.ndarray) else np.asarray(r)

    (n_kind, n), (c_kind, c) = _both(run)
    assert n_kind == c_kind and (n_kind == "ok" or n == c), (n, c)
    if n_kind == "ok":
        _check("subtract", c, n)


@gpu
def test_reduce_out_and_dtype():
    x = np.array([[-100, 100, 100], [1, 2, 3]], np.int8)
    a = cp.asarray(x)
    for out_dtype in (np.float64, np.int16, np.int8):
        out = cp.zeros(2, out_dtype)
        assert cp.subtract.reduce(a, axis=1, out=out) is out
        _check("subtract", out, np.subtract.reduce(x, axis=1, out=np.zeros(2, out_dtype)))
    out = cp.zeros((2, 1), np.float32)
    assert cp.subtract.reduce(a, axis=1, out=(out,), keepdims=True) is out
    _check("subtract", out, np.subtract.reduce(x, axis=1, out=np.zeros((2, 1), np.float32), keepdims=True))
    _check(
        "greater",
        cp.greater.reduce(cp.asarray([3.5, 1.0, 2.0]), dtype=bool),
        np.greater.reduce([3.5, 1, 2], dtype=bool),
    )
    # An output inside the input: NumPy reads all of it first.
    b = cp.arange(1.0, 10.0).reshape(3, 3)
    h = b.get()
    cp.subtract.reduce(b, axis=0, out=b[0])
    np.subtract.reduce(h, axis=0, out=h[0])
    _check("subtract", b, h)


@gpu
def test_reduce_wide_float16_rows():
    x = _data("subtract", np.float16, (20000,), seed=3)
    a = cp.asarray(x)
    _check("subtract", cp.subtract.reduce(a), np.subtract.reduce(x))
    _check("divide", cp.divide.reduce(a[::-2]), np.divide.reduce(x[::-2]))
    m = x[:600].reshape(20, 30)
    for axis in (0, 1):
        _check("subtract", cp.subtract.reduce(cp.asarray(m), axis=axis), np.subtract.reduce(m, axis=axis))
    x32 = (np.random.default_rng(4).standard_normal(30000) * 0.3 + 2).astype(np.float32)
    got = cp.subtract.reduce(cp.asarray(x32), dtype=np.float16)
    _check("subtract", got, np.subtract.reduce(x32, dtype=np.float16))


@gpu
def test_integer_power_refuses_negative_exponents():
    for f in (
        lambda xp: xp.power.reduce(xp.asarray(np.array([2, -1, 2]))),
        lambda xp: xp.power.accumulate(xp.asarray(np.array([2, 3, -2]))),
        lambda xp: xp.power.reduceat(xp.asarray(np.array([2, 3, -2, 1])), [0, 1]),
    ):
        (n_kind, n), (c_kind, c) = _both(f)
        assert n_kind is c_kind is ValueError and n == c
    # A negative base, or a negative exponent where a segment starts, is fine.
    for f in (
        lambda xp: xp.power.reduce(xp.asarray(np.array([-2, 1, 2]))),
        lambda xp: xp.power.reduceat(xp.asarray(np.array([2, 3, -2, 1])), [0, 2, 3]),
    ):
        (n_kind, n), (c_kind, c) = _both(f)
        assert n_kind == c_kind == "ok"
        _check("power", c, n)


@gpu
@pytest.mark.parametrize("name", ["fmax", "fmin"])
@testing.for_all_dtypes()
def test_fmax_and_fmin_reduce_as_nanmax_and_nanmin(name, dtype):
    x = _data(name, dtype, (4, 5))
    if x.dtype.kind in "fc":
        x[1, 2] = np.nan
        x[2, :] = np.nan
    for axis in (0, 1, None, (0, 1)):
        want = getattr(np, name).reduce(x, axis=axis)
        _check(name, getattr(cp, name).reduce(cp.asarray(x), axis=axis), want)
    _check(
        name,
        getattr(cp, name).reduceat(cp.asarray(x), [0, 3], axis=1),
        getattr(np, name).reduceat(x, [0, 3], axis=1),
    )


@gpu
@pytest.mark.parametrize("name", FOLDS + ACCUMULATE_ONLY)
@testing.for_all_dtypes()
def test_accumulate_values(name, dtype):
    x = _data(name, dtype, (4, 6))
    a = cp.asarray(x)
    for axis in (0, 1):
        for view in (lambda v: v, lambda v: v[::-1, ::2]):
            (n_kind, n), (c_kind, c) = _both(
                lambda xp, view=view, axis=axis: getattr(xp, name).accumulate(view(xp.asarray(x)), axis=axis)
            )
            assert n_kind == c_kind and (n_kind == "ok" or n == c), (n, c)
            if n_kind == "ok":
                _check(name, c, n)
    assert a.shape == (4, 6)


@gpu
def test_accumulate_out_dtype_and_edges():
    x = np.array([1.0, 2.0, 3.0])
    out = cp.zeros(3)
    assert cp.subtract.accumulate(cp.asarray(x), dtype=np.int8, out=out) is out
    _check("subtract", out, np.subtract.accumulate(x, dtype=np.int8, out=np.zeros(3)))
    b = cp.asarray(x)
    cp.subtract.accumulate(b, out=b)
    _check("subtract", b, np.subtract.accumulate(x))
    for shape, axis in (((0, 3), 0), ((3, 0), 1), ((1, 4), 0)):
        z = np.ones(shape)
        _check("divide", cp.divide.accumulate(cp.asarray(z), axis=axis), np.divide.accumulate(z, axis=axis))
    for f in (
        lambda xp: xp.subtract.accumulate(xp.asarray(np.array(5.0))),
        lambda xp: xp.subtract.accumulate(xp.ones((2, 3)), axis=None),
        lambda xp: xp.ldexp.accumulate(xp.asarray(np.array([1, 2], np.int16))),
        lambda xp: xp.greater.accumulate(xp.ones(3)),
        lambda xp: xp.subtract.accumulate(xp.ones(3, bool)),
    ):
        (n_kind, n), (c_kind, c) = _both(f)
        assert n_kind == c_kind and n_kind != "ok" and n == c, (n, c)


@gpu
@pytest.mark.parametrize("name", ["subtract", "divide", "power", "arctan2", "greater", "left_shift", "hypot"])
@pytest.mark.parametrize("indices", [[0, 3, 6, 7, 9], [0, 2, 1, 3], [5], [0], [11, 0], [4, 4, 4]])
@testing.for_dtypes([np.bool_, np.int32, np.uint8, np.float16, np.float64, np.complex128])
def test_reduceat_values(name, indices, dtype):
    x = _data(name, dtype, (2, 12))
    for axis in (1, 0):
        idx = indices if axis == 1 else [i % 2 for i in indices]
        (n_kind, n), (c_kind, c) = _both(
            lambda xp, idx=idx, axis=axis: getattr(xp, name).reduceat(xp.asarray(x), idx, axis=axis)
        )
        assert n_kind == c_kind and (n_kind == "ok" or n == c), (n, c)
        if n_kind == "ok":
            _check(name, c, emulate_reduceat(name, x, idx, axis) if name in SIMD_REDUCE else n)


@gpu
def test_reduceat_out_and_empty_indices():
    x = np.arange(1.0, 13.0).reshape(3, 4)
    out = cp.zeros((3, 2), np.float32)
    assert cp.subtract.reduceat(cp.asarray(x), [0, 2], axis=1, out=out) is out
    _check("subtract", out, np.subtract.reduceat(x, [0, 2], axis=1, out=np.zeros((3, 2), np.float32)))
    _check("subtract", cp.subtract.reduceat(cp.asarray(x), [], axis=1), np.subtract.reduceat(x, [], axis=1))
    with pytest.raises(IndexError, match="out-of-bounds"):
        cp.subtract.reduceat(cp.asarray(x), [0, 4], axis=1)


@gpu
def test_numpy_methods_dispatch_to_the_fold():
    x = np.arange(1.0, 7.0)
    a = cp.asarray(x)
    for got, want in (
        (np.subtract.reduce(a), np.subtract.reduce(x)),
        (np.divide.accumulate(a), np.divide.accumulate(x)),
        (np.subtract.reduceat(a, [0, 3]), np.subtract.reduceat(x, [0, 3])),
    ):
        _check("divide", got, want)
