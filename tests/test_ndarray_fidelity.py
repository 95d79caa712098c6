"""ndarray behaviours compared with NumPy on the same inputs: view() to a dtype of another itemsize, the flags
object, flatten's orders, and setting the shape in place."""

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing
from cuarray._ndarray import Flags

gpu = pytest.mark.gpu


def _layout(xp, dtype, layout):
    a = xp.arange(48).astype(dtype).reshape(4, 12)
    return {
        "c": a,
        "rows": a[::2],
        "reversed rows": a[::-1],
        "last one": a[:, :1],
        "empty": a[:0],
        "sliced": a[1:3, 4:8],
    }[layout]


@gpu
@pytest.mark.parametrize(
    "src, dst",
    [
        ("int16", "int32"),
        ("int32", "int16"),
        ("float64", "uint8"),
        ("complex64", "float32"),
        ("float32", "complex64"),
        ("int8", "float64"),
    ],
)
@pytest.mark.parametrize("layout", ["c", "rows", "reversed rows", "last one", "empty", "sliced"])
@testing.numpy_cuarray_array_equal(accept_error=ValueError)
def test_view_to_another_itemsize(xp, src, dst, layout):
    a = _layout(xp, src, layout)
    out = a.view(dst)
    assert out.base is not None and xp.shares_memory(out, a) == (out.size > 0)
    return out


@gpu
@pytest.mark.parametrize("case", ["0-d", "strided last axis", "transposed", "not a divisor"])
@testing.numpy_cuarray_raises()
def test_view_to_another_itemsize_errors(xp, case):
    a = xp.arange(12, dtype=xp.int16).reshape(3, 4)
    {
        "0-d": lambda: xp.asarray(5, dtype=xp.int16).view(xp.int32),
        "strided last axis": lambda: a[:, ::2].view(xp.int8),
        "transposed": lambda: a.T.view(xp.int32),
        "not a divisor": lambda: a[:, :3].view(xp.int32),
    }[case]()


@gpu
@pytest.mark.parametrize("call", ["type", "dtype and type", "keywords"])
@testing.numpy_cuarray_array_equal()
def test_view_takes_the_array_type(xp, call):
    a = xp.arange(6, dtype=xp.int32)
    return {
        "type": lambda: a.view(xp.ndarray),
        "dtype and type": lambda: a.view(xp.int16, xp.ndarray),
        "keywords": lambda: a.view(dtype=xp.float32, type=xp.ndarray),
    }[call]()


@gpu
@testing.numpy_cuarray_raises()
def test_view_refuses_a_type_that_is_no_array_type(xp):
    xp.arange(3).view(xp.int64, list)


@gpu
def test_view_writes_through():
    a = cp.zeros(4, dtype=cp.int32)
    a.view(cp.int16)[::2] = 1
    testing.assert_array_equal(a, np.ones(4, np.int32))


@gpu
@pytest.mark.parametrize("layout", ["c", "f", "strided", "0-d", "column"])
def test_flags_as_numpy(layout):
    def make(xp):
        a = xp.arange(12.0).reshape(3, 4)
        return {
            "c": a,
            "f": xp.asfortranarray(a),
            "strided": a[:, ::2],
            "0-d": a[1, 1] * 1,
            "column": a[:, :1],
        }[layout]

    ours, theirs = make(cp).flags, make(np).flags
    for key in ("c_contiguous", "f_contiguous", "fnc", "forc"):
        assert getattr(ours, key) == getattr(theirs, key), key
    for key in ("C_CONTIGUOUS", "C", "F_CONTIGUOUS", "F", "FNC", "FORC", "CONTIGUOUS", "FORTRAN"):
        assert ours[key] == theirs[key], key


def test_flags_cannot_be_set():
    flags = Flags(True, False, True)
    with pytest.raises(AttributeError, match="not writable"):
        flags.c_contiguous = False
    with pytest.raises(KeyError):
        flags["C_CONTIGUOUS"] = False
    with pytest.raises(KeyError):
        flags["WHATEVER"]
    assert flags.forc and not flags.fnc


@gpu
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("layout", ["c", "f", "transposed 3-d", "reversed", "strided"])
@testing.numpy_cuarray_array_equal()
def test_flatten_orders(xp, order, layout):
    a = xp.arange(24).reshape(2, 3, 4)
    a = {
        "c": a,
        "f": xp.asfortranarray(a),
        "transposed 3-d": a.transpose(1, 2, 0),
        "reversed": a[::-1, :, ::-1],
        "strided": a[:, ::2, 1:],
    }[layout]
    out = a.flatten(order)
    assert not xp.shares_memory(out, a)
    return out


@gpu
@pytest.mark.parametrize(
    "layout, shape",
    [("c", (6, 4)), ("c", (-1,)), ("c", 24), ("strided", (2, 6)), ("c", (2, 3, 4, 1)), ("empty", (0, 5))],
)
@testing.numpy_cuarray_array_equal()
def test_set_shape(xp, layout, shape):
    a = xp.arange(24).reshape(4, 6)
    a = {"c": a, "strided": a[::2], "empty": a[:0]}[layout]
    base = a
    a.shape = shape
    assert xp.shares_memory(a, base) or a.size == 0
    return a


@gpu
@pytest.mark.parametrize("layout, shape", [("transposed", (24,)), ("c", (5, 5)), ("c", (-1, -1))])
@testing.numpy_cuarray_raises()
def test_set_shape_errors(xp, layout, shape):
    a = xp.arange(24).reshape(4, 6)
    a = a.T if layout == "transposed" else a
    a.shape = shape


# ---- flat, byteswap, choose, toDlpack -----------------------------------------------------------------------


def _flat_input(xp, layout):
    a = xp.arange(12).reshape(3, 4)
    return {"c": a, "transposed": a.T, "strided": a[:, ::2], "reversed": a[::-1]}[layout]


@gpu
@pytest.mark.parametrize("layout", ["c", "transposed", "strided", "reversed"])
@pytest.mark.parametrize("key", [slice(1, 5), slice(None, None, -2), Ellipsis, [0, 5, 2], "mask", -1])
@testing.numpy_cuarray_array_equal()
def test_flat_get(xp, layout, key):
    a = _flat_input(xp, layout)
    if key == "mask":
        key = (a > 4).ravel()
    out = a.flat[key]
    if getattr(out, "ndim", 0):
        assert not xp.shares_memory(out, a)
    return out


@gpu
@pytest.mark.parametrize("layout", ["c", "transposed", "strided", "reversed"])
@pytest.mark.parametrize(
    "key, value",
    [
        (slice(None, None, 2), [10, 20]),
        (slice(1, 4), 7),
        ([0, 3], [-1, -2]),
        (Ellipsis, 5),
        (2, 9),
        (-1, 9),
        ("mask", -3),
    ],
)
@testing.numpy_cuarray_array_equal()
def test_flat_set(xp, layout, key, value):
    a = _flat_input(xp, layout)
    base = a.base if a.base is not None else a
    if key == "mask":
        key = (a > 6).ravel()
    a.flat[key] = value
    return base


@gpu
@pytest.mark.parametrize("case", ["out of bounds", "two indices"])
@testing.numpy_cuarray_raises()
def test_flat_errors(xp, case):
    a = xp.arange(6).reshape(2, 3)
    if case == "out of bounds":
        a.flat[10] = 1
    else:
        a.flat[1, 2]


@gpu
def test_flat_len_iter_copy_base():
    a = cp.arange(6).reshape(2, 3).T
    assert len(a.flat) == 6 and a.flat.base is a
    assert [int(x) for x in a.flat] == list(np.arange(6).reshape(2, 3).T.flat)
    testing.assert_array_equal(a.flat.copy(), np.arange(6).reshape(2, 3).T.flatten())


@gpu
@pytest.mark.parametrize(
    "dtype", ["int8", "int16", "uint32", "float32", "float64", "complex64", "complex128", "bool"]
)
@pytest.mark.parametrize("layout", ["c", "transposed", "0-d", "empty"])
@testing.numpy_cuarray_array_equal()
def test_byteswap(xp, dtype, layout):
    a = xp.arange(1, 13).astype(dtype).reshape(3, 4)
    a = {"c": a, "transposed": a.T, "0-d": a[1, 2] * 1, "empty": a[:0]}[layout]
    out = a.byteswap()
    assert not xp.shares_memory(out, a) or out.size == 0
    return out


@gpu
@testing.numpy_cuarray_array_equal()
def test_byteswap_inplace(xp):
    a = xp.arange(6, dtype=xp.int32).reshape(2, 3)[:, ::2]
    assert a.byteswap(inplace=True) is a
    return a


@gpu
@testing.numpy_cuarray_array_equal()
def test_choose_method(xp):
    return xp.asarray([0, 1, 2, 1]).choose([xp.arange(4), xp.arange(4) * 10, xp.arange(4) * 100])


@gpu
def test_toDlpack_gives_a_dlpack_capsule():
    import ctypes

    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    with pytest.warns(cp.VisibleDeprecationWarning, match="deprecated"):  # as CuPy 14's
        capsule = cp.arange(5.0).toDlpack()
    # CuPy 14's toDlpack makes a versioned capsule (its use_versioned defaults to True).
    assert type(capsule).__name__ == "PyCapsule" and get_name(capsule) == b"dltensor_versioned"


# ---- == and != with objects that are no arrays ---------------------------------------------------------------


class _Plain:
    pass


@gpu
@pytest.mark.parametrize("other", [None, "text", _Plain()], ids=["None", "str", "object"])
@pytest.mark.parametrize("op", ["==", "!="])
@pytest.mark.parametrize("shape", [(3,), (2, 0), (2, 3)])
@testing.numpy_cuarray_array_equal()
def test_equality_with_objects_compares_every_element(xp, other, op, shape):
    a = xp.ones(shape)
    return (a == other) if op == "==" else (a != other)


@gpu
@pytest.mark.parametrize("other", [None, "text"])
@pytest.mark.parametrize("xp", [np, cp], ids=["numpy", "cuarray"])
def test_ordering_with_objects_raises(xp, other):
    with pytest.raises(TypeError):  # NumPy's UFuncTypeError for a string is a TypeError
        _ = xp.arange(3) < other


@gpu
@pytest.mark.parametrize("other", [[0, 1, 2], (0, 1, 2)])
def test_equality_with_sequences_raises_as_cupy(other):
    # CuPy's operators take no Python sequences; a silent `False` from Python's fallback would be wrong.
    with pytest.raises(TypeError, match="Unsupported type"):
        _ = cp.arange(3) == other
    with pytest.raises(TypeError, match="Unsupported type"):
        _ = cp.arange(3) != other


@gpu
def test_equality_with_other_arrays_is_elementwise():
    a = cp.arange(3)
    testing.assert_array_equal(a == np.int64(1), [False, True, False])
    testing.assert_array_equal(a == cp.asarray([0, 5, 2]), [True, False, True])


def _broadcasts(xp):
    """Arrays with stride-0 axes, negative strides and permuted axes: flatten('K') reads them as NumPy does."""
    a = xp.arange(24.0).reshape(2, 3, 4)
    return [
        xp.broadcast_to(xp.arange(3.0), (2, 3)),
        xp.broadcast_to(xp.arange(3.0)[:, None], (3, 4)).T,
        xp.broadcast_to(a[:, :1], (2, 5, 4)).transpose(2, 0, 1),
        a[::-1, :, ::-2].transpose(1, 2, 0),
        a.transpose(2, 0, 1)[:, :1],
    ]


@gpu
@pytest.mark.parametrize("k", range(5))
def test_flatten_k_of_broadcast_and_permuted_arrays_is_numpys(k):
    got, want = _broadcasts(cp)[k].flatten("K"), _broadcasts(np)[k].flatten("K")
    np.testing.assert_array_equal(cp.asnumpy(got), want)
    assert got.flags.c_contiguous and not np.shares_memory(cp.asnumpy(got), want)
    np.testing.assert_array_equal(cp.asnumpy(_broadcasts(cp)[k].ravel("K")), _broadcasts(np)[k].ravel("K"))


@gpu
def test_astype_without_copy_keeps_only_a_layout_the_order_allows():
    # order='A' is F for an F-contiguous array, else C: a non-contiguous array is copied, as NumPy copies it.
    for make in (
        lambda xp: xp.arange(12.0).reshape(3, 4)[:, ::2],
        lambda xp: xp.broadcast_to(xp.arange(3.0), (2, 3)),
    ):
        x, a = make(cp), make(np)
        r = x.astype(np.float64, copy=False, order="A")
        want = a.astype(np.float64, copy=False, order="A")
        assert (r is x) == (want is a) and not (r is x)
        assert r.strides == want.strides and r.flags.c_contiguous
    for order in ("A", "K", "F"):
        f = cp.asfortranarray(cp.ones((3, 4)))
        assert f.astype(np.float64, copy=False, order=order) is f


@gpu
@pytest.mark.parametrize(
    "value", [2.0, 20.0, [4.0, 5.0, 6.0, 7.0], [4.0, 5.0], None, np.float32(11), np.nan], ids=repr
)
def test_in_is_numpys_any_equal(value):
    a = np.arange(12.0).reshape(3, 4)
    try:
        want = value in a
    except ValueError:  # a value that does not broadcast against the array
        with pytest.raises(ValueError):
            value in cp.asarray(a)  # noqa: B015
        return
    assert (value in cp.asarray(a)) == want
    assert (5.0 in cp.asarray(np.array(5.0))) and (6.0 not in cp.asarray(np.array(5.0)))


@gpu
def test_conj_of_a_real_array_into_out_checks_the_cast():
    a = np.arange(6.0)
    with pytest.raises(TypeError):
        a.conj(np.zeros(6, np.int64))
    with pytest.raises(TypeError):
        cp.asarray(a).conj(cp.zeros(6, np.int64))
    out = cp.zeros(6, np.complex128)
    assert cp.asarray(a).conj(out) is out
    np.testing.assert_array_equal(cp.asnumpy(out), a.astype(np.complex128))
    x = cp.asarray(a)
    assert x.conj() is x  # a real array is its own conjugate, as NumPy's method returns it
