"""cuarray.ndarray: attributes, flags, repr/str, scalar conversions, item/tolist, copy/astype/fill."""

import gc
import operator
import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import (
    ALL_DTYPES,
    LAYOUT_NAMES,
    NONEMPTY_LAYOUTS,
    SOME_DTYPES,
    assert_same,
    assert_strides_match,
    assert_write_through,
    dtype_id,
    make_data,
    make_pair,
    make_pair_with_base,
)

pytestmark = pytest.mark.gpu

ComplexWarning = np.exceptions.ComplexWarning


# ---- attributes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_attributes_match_numpy(layout, dtype):
    x, a = make_pair(layout, dtype)
    assert isinstance(x, cp.ndarray)
    assert type(x.shape) is tuple and x.shape == a.shape
    assert all(type(s) is int for s in x.shape)
    assert type(x.strides) is tuple and x.strides == a.strides
    assert isinstance(x.dtype, np.dtype) and x.dtype == a.dtype
    assert x.ndim == a.ndim
    assert x.size == a.size
    assert x.itemsize == a.itemsize
    assert x.nbytes == a.nbytes
    for v in (x.ndim, x.size, x.itemsize, x.nbytes):
        assert type(v) is int


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_dtype_is_numpy_dtype(dtype):
    x = cp.zeros((2, 3), dtype=dtype)
    assert isinstance(x.dtype, np.dtype)
    assert x.dtype == dtype
    assert x.dtype.type is dtype.type
    assert x.itemsize == dtype.itemsize
    assert x.strides == (3 * dtype.itemsize, dtype.itemsize)


@pytest.mark.parametrize("dtype", SOME_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_flags_match_numpy(layout, dtype):
    x, a = make_pair(layout, dtype)
    assert x.flags.c_contiguous == a.flags.c_contiguous
    assert x.flags.f_contiguous == a.flags.f_contiguous
    assert x.flags.owndata == a.flags.owndata
    assert x.flags["C_CONTIGUOUS"] == a.flags["C_CONTIGUOUS"]
    assert x.flags["F_CONTIGUOUS"] == a.flags["F_CONTIGUOUS"]
    assert x.flags["OWNDATA"] == a.flags["OWNDATA"]


def test_flags_of_new_arrays():
    c = cp.zeros((3, 4))
    f = cp.zeros((3, 4), order="F")
    assert (c.flags.c_contiguous, c.flags.f_contiguous, c.flags.owndata) == (True, False, True)
    assert (f.flags.c_contiguous, f.flags.f_contiguous, f.flags.owndata) == (False, True, True)
    v = c[:, 1:]
    assert (v.flags.c_contiguous, v.flags.f_contiguous, v.flags.owndata) == (False, False, False)


def test_base():
    x = cp.arange(12)
    assert x.base is None
    v = x[2:]
    assert v.base is x
    assert v[::2].base is x  # a view of a view points at the owner, as in NumPy
    assert x.reshape(3, 4).base is x
    assert x.reshape(3, 4).T.base is x
    c = v.copy()
    assert c.base is None


def test_data_ptr():
    x = cp.arange(10, dtype=np.int32)
    assert type(x.data.ptr) is int
    assert x.data.ptr != 0
    assert x[3:].data.ptr == x.data.ptr + 3 * 4
    assert x[::-1].data.ptr == x.data.ptr + 9 * 4
    y = x.reshape(2, 5)
    assert y.data.ptr == x.data.ptr
    assert y[1, ::-2].data.ptr == x.data.ptr + (5 + 4) * 4
    assert x.copy().data.ptr != x.data.ptr


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_T(layout):
    x, a = make_pair(layout, np.float32)
    assert_same(x.T, a.T)
    assert_strides_match(x.T, a.T)


@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS + ["empty"])
def test_len(layout):
    x, a = make_pair(layout, np.int16)
    assert len(x) == len(a)


def test_len_of_0d_raises():
    with pytest.raises(TypeError, match="len\\(\\) of unsized object"):
        len(cp.array(5))


@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS + ["empty"])
def test_shape_dtype_ndim_size_are_numpys(layout):
    x, a = make_pair(layout, np.int16)
    assert (x.shape, x.dtype, x.ndim, x.size) == (a.shape, a.dtype, a.ndim, a.size)
    assert type(x.shape) is tuple and all(type(n) is int for n in x.shape)
    assert type(x.ndim) is int and type(x.size) is int


def test_deleting_elements_or_the_shape_raises_numpys_errors():
    x, a = cp.arange(4), np.arange(4)
    for xp_array in (x, a):
        with pytest.raises(ValueError, match="cannot delete array elements"):
            del xp_array[0]
        with pytest.raises(AttributeError, match="Cannot delete array shape"):
            del xp_array.shape
        for name in ("ndim", "size"):
            with pytest.raises(AttributeError, match="not writable"):
                setattr(xp_array, name, 1)
    with pytest.raises(AttributeError):  # read-only, as CuPy's (NumPy's reinterprets the memory)
        x.dtype = np.int32
    assert x.shape == (4,) and (x.get() == a).all()


def test_setting_the_shape_reshapes_in_place_or_raises():
    x = cp.arange(6)
    x.shape = (2, -1)
    assert x.shape == (2, 3) and (x.get() == np.arange(6).reshape(2, 3)).all()
    t = x.T
    with pytest.raises(AttributeError, match="Incompatible shape for in-place modification"):
        t.shape = (6,)
    with pytest.raises(ValueError):
        x.shape = (4,)
    assert x.shape == (2, 3) and t.shape == (3, 2)


def test_getitem_and_setitem_through_the_slots_and_the_methods():
    x, a = cp.arange(10), np.arange(10)
    v = x[2:5]
    assert v.base is x and cp.shares_memory(v, x)
    assert (x.__getitem__(slice(2, 5)).get() == a[2:5]).all()
    x[3] = 30
    x.__setitem__(4, 40)
    a[3], a[4] = 30, 40
    assert (v.get() == a[2:5]).all() and (x.get() == a).all()
    assert x.__len__() == len(x) == 10


def test_array_keeps_values_after_gc():
    x = cp.asarray(make_data((100,), np.float64))
    ref = cp.asnumpy(x)
    gc.collect()
    junk = [cp.ones(100) for _ in range(5)]
    assert len(junk) == 5
    assert_same(x, ref)


# ---- repr / str ---------------------------------------------------------------------------------

REPR_CASES = {
    "float_1d": lambda: np.array([2.0, 4.0, 6.0]),
    "int32_2d": lambda: np.array([[1, 2], [3, 4]], dtype=np.int32),
    "int64": lambda: np.arange(6),
    "bool": lambda: np.array([True, False, True]),
    "complex128": lambda: np.array([1 + 2j, -3.5j, 0]),
    "complex64": lambda: np.array([1 + 2j, 0.5], dtype=np.complex64),
    "float16": lambda: np.array([0.5, -1.25, 3], dtype=np.float16),
    "float32_3d": lambda: make_data((2, 2, 3), np.float32),
    "uint8": lambda: np.array([0, 255, 7], dtype=np.uint8),
    "0d_float": lambda: np.array(3.0),
    "0d_int": lambda: np.array(-7),
    "0d_bool": lambda: np.array(True),
    "0d_complex": lambda: np.array(1 - 1j),
    "empty_float": lambda: np.array([]),
    "empty_int32": lambda: np.zeros(0, dtype=np.int32),
    "empty_2d": lambda: np.zeros((0, 3)),
    "special": lambda: np.array([np.nan, np.inf, -np.inf, -0.0, 1e300, 1e-300]),
    "wide_values": lambda: np.array([1e-8, 1.0, 12345678.9]),
    "summarized": lambda: np.arange(2000.0),
    "summarized_2d": lambda: np.arange(3000, dtype=np.int16).reshape(30, 100),
}


@pytest.mark.parametrize("case", list(REPR_CASES))
def test_repr_and_str_match_numpy(case):
    a = REPR_CASES[case]()
    x = cp.asarray(a)
    assert repr(x) == repr(a)
    assert str(x) == str(a)


def test_repr_examples_from_spec():
    assert repr(cp.array([2.0, 4.0, 6.0])) == "array([2., 4., 6.])"
    assert repr(cp.array([[1, 2], [3, 4]], dtype=np.int32)) == "array([[1, 2],\n       [3, 4]], dtype=int32)"
    assert str(cp.array([[1, 2], [3, 4]])) == "[[1 2]\n [3 4]]"


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_repr_of_views(layout):
    x, a = make_pair(layout, np.float64)
    assert repr(x) == repr(a)
    assert str(x) == str(a)


# ---- item / tolist / Python scalars -------------------------------------------------------------


def _types(obj):
    if isinstance(obj, list):
        return [_types(o) for o in obj]
    return type(obj)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shape", [(), (1,), (1, 1)], ids=str)
def test_item(dtype, shape):
    a = make_data(shape, dtype, seed=3)
    x = cp.asarray(a)
    v = x.item()
    assert v == a.item()
    assert type(v) is type(a.item())


def test_item_with_index():
    a = make_data((3, 4), np.int32)
    x = cp.asarray(a)
    assert x.item(5) == a.item(5)
    assert x.item(1, 2) == a.item(1, 2)
    assert x.item(-1) == a.item(-1)


def test_item_of_larger_array_raises():
    with pytest.raises(ValueError):
        cp.arange(3).item()


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_tolist(layout, dtype):
    x, a = make_pair(layout, dtype)
    got = x.tolist()
    assert got == a.tolist()
    assert _types(got) == _types(a.tolist())


CONVERSIONS = {"float": float, "int": int, "bool": bool, "index": operator.index}


def _numpy_conversion(conv, a0):
    """What NumPy gives for conv on the 0-d array a0: ("value", v) or ("raises", type)."""
    try:
        return "value", conv(a0)
    except Exception as e:  # noqa: BLE001
        return "raises", type(e)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shape", [(), (1,), (1, 1, 1)], ids=str)
@pytest.mark.parametrize("conv", list(CONVERSIONS))
def test_scalar_conversions_of_size_1(conv, shape, dtype):
    # As NumPy 2.4's (and CuPy 13's): int(), float() and operator.index take 0-d arrays alone; bool() any
    # array of one element.
    fn = CONVERSIONS[conv]
    a = make_data(shape, dtype, seed=5)
    x = cp.asarray(a)
    kind, expected = _numpy_conversion(fn, a)
    if kind == "raises":
        with pytest.raises(expected):
            fn(x)
    else:
        got = fn(x)
        assert type(got) is type(expected)
        assert got == expected


@pytest.mark.parametrize("value, expected", [(2.7, 2), (-2.7, -2), (0.5, 0), (-0.0, 0)])
def test_int_truncates_toward_zero(value, expected):
    assert int(cp.array(value)) == expected
    with pytest.raises(TypeError, match="only 0-dimensional arrays"):  # NumPy 2.4's rule
        int(cp.array([value]))


def test_bool_of_zero_and_nonzero():
    assert bool(cp.array(0)) is False
    assert bool(cp.array([0.0])) is False
    assert bool(cp.array([[3]])) is True
    assert bool(cp.array(0j)) is False
    assert bool(cp.array(1j)) is True


@pytest.mark.parametrize("conv", [float, int, operator.index], ids=["float", "int", "index"])
@pytest.mark.parametrize("shape", [(2,), (2, 3)], ids=str)
def test_conversion_of_larger_arrays_raises_type_error(conv, shape):
    x = cp.zeros(shape, dtype=np.int64)
    with pytest.raises(TypeError):
        conv(x)


@pytest.mark.parametrize("conv", [float, int], ids=["float", "int"])
def test_conversion_of_larger_arrays_message(conv):
    with pytest.raises(TypeError, match="can be converted to Python scalars"):
        conv(cp.arange(3.0))


@pytest.mark.parametrize("shape", [(2,), (2, 2)], ids=str)
def test_bool_of_larger_array_raises(shape):
    with pytest.raises(ValueError, match="truth value of an array with more than one element is ambiguous"):
        bool(cp.ones(shape))


# ---- copy ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_copy(layout, order):
    xb, ab, x, a = make_pair_with_base(layout, np.float32)
    c, e = x.copy(order=order), a.copy(order=order)
    assert_same(c, e)
    assert c.flags.c_contiguous == e.flags.c_contiguous
    assert c.flags.f_contiguous == e.flags.f_contiguous
    assert c.flags.owndata and c.base is None
    assert_write_through(xb, ab, c, e)  # a copy: the original does not change


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_copy_default_order_is_c(dtype):
    x, a = make_pair("f2d", dtype)
    c = x.copy()
    assert c.flags.c_contiguous
    assert_same(c, a)


# ---- astype -------------------------------------------------------------------------------------


def _astype_source(src, dst):
    """Values of dtype src that dst can represent (float->int: in range, truncated)."""
    src, dst = np.dtype(src), np.dtype(dst)
    if src.kind == "b":
        return np.array([True, False, True, True], dtype=src)
    vals = [0, 1, 2, 3, 7, 42, 100, 127]
    negative_ok = src.kind in "ifc" and dst.kind not in "u"
    if negative_ok:
        vals += [-1, -5, -128]
    if src.kind in "fc":
        vals += [0.5, 2.75, 99.25]
        if negative_ok:
            vals += [-0.5, -2.75]
    a = np.array(vals, dtype=np.float64)
    if src.kind == "c":
        return (a + 1j * a[::-1]).astype(src)
    return a.astype(src)


@pytest.mark.parametrize("dst", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("src", ALL_DTYPES, ids=dtype_id)
def test_astype_every_pair(src, dst):
    a = _astype_source(src, dst)[::-1]  # non-contiguous source
    x = cp.asarray(_astype_source(src, dst))[::-1]
    with warnings.catch_warnings(record=True) as np_warnings:
        warnings.simplefilter("always")
        expected = a.astype(dst)
    numpy_warns = any(issubclass(w.category, ComplexWarning) for w in np_warnings)
    if numpy_warns:
        with pytest.warns(ComplexWarning):
            y = x.astype(dst)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error", ComplexWarning)
            y = x.astype(dst)
    assert_same(y, expected)
    assert y.flags.owndata


def _complex_warnings(assign):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assign()
    return sum(issubclass(w.category, ComplexWarning) for w in caught)


@pytest.mark.parametrize(
    "value",
    [np.array(1 + 2j), np.complex64(1 - 2j), np.array([1 + 2j, 3 - 1j]), "device"],
    ids=["numpy-0d", "numpy-scalar", "numpy-1d", "device"],
)
@pytest.mark.parametrize("how", ["setitem", "fill"])
def test_complex_into_real_warns_once(value, how):
    # NumPy warns once for each assignment that drops an imaginary part; the 0-d NumPy array warned twice.
    host = np.array([1 + 2j, 3 - 1j]) if isinstance(value, str) else value
    if how == "fill" and np.ndim(host):
        pytest.skip("fill takes a scalar")
    dev = cp.asarray(host) if isinstance(value, str) else value
    a, x = np.zeros(2), cp.zeros(2)

    def run(arr, v):
        return (lambda: arr.__setitem__(slice(None), v)) if how == "setitem" else (lambda: arr.fill(v))

    expected = _complex_warnings(run(a, host))
    assert expected == 1
    assert _complex_warnings(run(x, dev)) == expected
    assert_same(x, a)


@pytest.mark.parametrize(
    "spec",
    ["float32", "f4", np.float32, np.dtype("int16"), float, int, bool, complex, "complex64", "u1", np.bool_],
    ids=lambda s: getattr(s, "__name__", str(s)),
)
def test_astype_dtype_specifiers(spec):
    a = make_data((5,), np.int32)
    x = cp.asarray(a)
    assert_same(x.astype(spec), a.astype(spec))


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_astype_layouts(layout):
    x, a = make_pair(layout, np.int16)
    assert_same(x.astype(np.complex128), a.astype(np.complex128))
    assert_same(x.astype(np.float16), a.astype(np.float16))


def test_astype_copy_false_same_dtype_returns_self():
    x = cp.arange(5, dtype=np.float32)
    assert x.astype(np.float32, copy=False) is x
    assert x.astype("float32", copy=False) is x


def test_astype_copy_true_same_dtype_copies():
    a = np.arange(5, dtype=np.float32)
    x = cp.asarray(a)
    y = x.astype(np.float32)
    assert y is not x
    y.fill(9)
    assert_same(x, a)
    z = x.astype(np.float32, copy=True)
    assert z is not x and z.base is None


def test_astype_copy_false_other_dtype():
    a = np.arange(5, dtype=np.float32)
    x = cp.asarray(a)
    y = x.astype(np.int64, copy=False)
    assert_same(y, a.astype(np.int64))


# ---- fill ---------------------------------------------------------------------------------------

FILL_VALUES = {
    "int": 7,
    "float": 2.5,
    "true": True,
    "false": False,
    "np_int8": np.int8(-3),
    "np_float32": np.float32(1.5),
}


@pytest.mark.parametrize("value", list(FILL_VALUES))
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_fill(dtype, value):
    v = FILL_VALUES[value]
    a = make_data((3, 4), dtype)
    x = cp.asarray(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            a.fill(v)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(type(e)):
                x.fill(v)
            return
    assert x.fill(v) is None
    assert_same(x, a)


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_fill_views(layout):
    xb, ab, x, a = make_pair_with_base(layout, np.complex64)
    x.fill(1 - 2j)
    a.fill(1 - 2j)
    assert_same(x, a)
    assert_same(xb, ab)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_fill_with_own_scalar_type(dtype):
    a = make_data((7,), dtype, seed=11)
    value = a[3]  # a NumPy scalar of this dtype
    x = cp.zeros(7, dtype=dtype)
    x.fill(value)
    assert_same(x, np.full(7, value, dtype=dtype))


class _Duck:
    """Another library's array type with NumPy's protocols alone (NEP 13 and 18): it answers every call."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return ("duck-ufunc", ufunc.__name__, method, "out" in kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return ("duck-function", func.__name__)


class _OptOut:
    """A type that opts out of NumPy's ufuncs (__array_ufunc__ = None) and answers reflected operators."""

    __array_ufunc__ = None

    def __radd__(self, other):
        return "opt-out-radd"

    def __gt__(self, other):  # `a < o` reflects to it
        return "opt-out-gt"


def _inplace_add(a, other):
    a += other
    return a


DUCK_CALLS = {
    "a + duck": lambda a, d: a + d,
    "duck + a": lambda a, d: d + a,
    "a * duck": lambda a, d: a * d,
    "a ** duck": lambda a, d: a**d,
    "a < duck": lambda a, d: a < d,
    "duck < a": lambda a, d: d < a,
    "a == duck": lambda a, d: a == d,
    "a += duck": _inplace_add,
    "np.add(a, duck)": lambda a, d: np.add(a, d),
    "np.add(a, 1, out=duck)": lambda a, d: np.add(a, 1, out=(d,)),
    "np.add.reduce(a, out=duck)": lambda a, d: np.add.reduce(a, out=d),
    "np.concatenate([a, duck])": lambda a, d: np.concatenate([a, d]),
    "np.sum(a, out=duck)": lambda a, d: np.sum(a, out=d),
    "np.where(a > 1, a, duck)": lambda a, d: np.where(a > 1, a, d),
}


@pytest.mark.parametrize("call", list(DUCK_CALLS))
def test_other_array_types_answer_through_their_protocols(call):
    # NumPy's operators and functions hand a call with an operand they do not know to that operand's
    # __array_ufunc__ / __array_function__; cuarray declined nothing and raised TypeError.
    f = DUCK_CALLS[call]
    expected = f(np.arange(3.0), _Duck())
    assert f(cp.arange(3.0), _Duck()) == expected


@pytest.mark.parametrize("call", ["a + o", "o > a", "a < o", "a == o", "a != o"])
def test_array_ufunc_none_opts_out_of_operators(call):
    f = eval(f"lambda a, o: {call}")
    expected = f(np.arange(3.0), _OptOut())
    assert f(cp.arange(3.0), _OptOut()) == expected
    with pytest.raises(TypeError):
        cp.arange(3.0) - _OptOut()


def test_device_arrays_of_other_libraries_still_mix_in_numpy_functions():
    class Device:  # a CUDA array interface object: cuarray reads it as an operand
        def __init__(self, a):
            self.a = a

        @property
        def __cuda_array_interface__(self):
            return self.a.__cuda_array_interface__

        def __array_function__(self, func, types, args, kwargs):
            return NotImplemented

    a, b = cp.arange(3.0), cp.arange(3.0) + 10
    out = np.concatenate([a, Device(b)])
    assert isinstance(out, cp.ndarray)
    assert_same(out, np.concatenate([np.arange(3.0), np.arange(3.0) + 10]))
    assert_same(a + Device(b), np.arange(3.0) * 2 + 10)


ZERO_D_CALLS = {
    "a * z": lambda a, z: a * z,
    "z * a": lambda a, z: z * a,
    "a == z": lambda a, z: a == z,
    "a < z": lambda a, z: a < z,
    "z < a": lambda a, z: z < a,
    "u8 + big": lambda a, z: a.astype(np.uint8) + np.array(300),
    "a += z": _inplace_add,
    "np.add(a, z)": lambda a, z: np.add(a, z),
}


@pytest.mark.parametrize("call", list(ZERO_D_CALLS))
@pytest.mark.parametrize("z", [np.array(2.5), np.array(2, np.int8), np.array(1 + 1j, np.complex64)], ids=str)
def test_zero_d_numpy_arrays_are_operands_as_in_numpy(call, z):
    # NumPy reads a 0-d array as its scalar (its dtype counts); cuarray's operators refused it on the left.
    f = ZERO_D_CALLS[call]
    a = np.array([1, 2, 3], np.float32)
    try:
        expected = f(a.copy(), z)
    except TypeError as e:  # complex into float32 in place: NumPy's UFuncTypeError
        with pytest.raises(type(e)):
            f(cp.asarray(a), z)
        return
    assert_same(f(cp.asarray(a), z), expected)


def test_numpy_arrays_of_one_dimension_or_more_still_refused():
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cp.arange(3.0) + np.arange(3.0)


@pytest.mark.parametrize("dtype", ["int64", "uint8", "float64", "float16", "complex128", "bool"])
@pytest.mark.parametrize(
    "value",
    [[5], (5,), [[5]], [5, 6], np.array([5]), np.array([[5.0]]), np.array([1, 2]), "device1", "device2"],
    ids=repr,
)
def test_one_element_key_takes_what_numpys_setitem_takes(dtype, value):
    # A key naming one element sets it through the dtype's setitem: sequences and arrays of one dimension or
    # more are NumPy's TypeError or ValueError (bool takes their truth value); cuarray assigned them.
    if isinstance(value, str):
        host = np.array([7.0]) if value == "device1" else np.array([7.0, 8.0])
        dev = cp.asarray(host)
    else:
        host = dev = value
    a, x = np.zeros((2, 3), dtype), cp.zeros((2, 3), dtype)
    try:
        a[1, 2] = host
    except (TypeError, ValueError) as e:
        with pytest.raises(type(e)):
            x[1, 2] = dev
    else:
        x[1, 2] = dev
    assert_same(x, a)


# ---- recycled result objects (Note [Recycled array objects] in python/src/array.cpp) -------------------------


def test_recycled_result_objects_hold_only_their_own_array():
    # Results die and new ones take their objects: each new one must show its own shape, dtype, values and base,
    # never a dead array's, and views must keep their bases alive through it.
    a = cp.arange(12, dtype=cp.float32).reshape(3, 4)
    for k in range(200):
        r = a * k  # a new array, recycled from the previous round's dead result
        v = r[1:, ::-1]  # a view: its base is r
        assert v.base is r and r.base is None
        del r  # the view keeps r's object alive
        b = (a + k).astype(cp.int64 if k % 2 else cp.float16)
        assert b.base is None and b.dtype == (np.int64 if k % 2 else np.float16) and b.shape == (3, 4)
        np.testing.assert_array_equal(v.get(), (np.arange(12, dtype=np.float32).reshape(3, 4) * k)[1:, ::-1])
        np.testing.assert_array_equal(b.get(), (np.arange(12).reshape(3, 4) + k).astype(b.dtype))


def test_recycled_objects_keep_weak_references_and_subclasses_working():
    import weakref

    called = []
    x = cp.arange(5.0) * 2
    w = weakref.ref(x, lambda ref: called.append(ref))
    del x
    gc.collect()
    assert w() is None and len(called) == 1  # an object with a weak reference is freed, its callback run
    y = cp.arange(5.0) * 3  # may take a recycled object: none of the old one's weak references
    assert weakref.getweakrefcount(y) == 0
    np.testing.assert_array_equal(y.get(), np.arange(5.0) * 3)

    class Sub(cp.ndarray):
        pass

    for _ in range(100):
        s = Sub((4,), dtype=cp.float32)
        s.fill(1.0)
        s.tag = "mine"  # a subclass instance has a __dict__; it is freed as before, never recycled
        del s
    z = cp.arange(4.0) + 1
    assert type(z) is cp.ndarray and not hasattr(z, "tag") and not hasattr(z, "__dict__")
    np.testing.assert_array_equal(z.get(), np.arange(4.0) + 1)
