"""Structured and unstructured void arrays: stored, indexed by field, never computed on as a whole (Note [Void
storage] in cpp/cuarray/dtype.h).

Creation (empty, zeros, full, array from NumPy data), transfers both ways, copies, fills, slicing, field views
(`a['x']`, nested, several fields), assignment (casting field by field, as NumPy), astype between structured
types, == and != and __cuda_array_interface__ with `descr` keep NumPy's results. Ufuncs and reductions refuse
the arrays themselves with TypeError. The tests at the top need no GPU.
"""

import operator

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing
from cuarray._interop import _dtype_of

PAIR = np.dtype("i4,f4")
NESTED = np.dtype([("a", "f8"), ("b", "i8,f8")])


def pairs(n=6):
    return np.array([(i, 0.5 * i) for i in range(n)], dtype=PAIR)


# ---- no GPU needed ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dt, itemsize",
    [
        ("?,c8", 16),  # complex aligns to its itemsize on the GPU (8 on the CPU)
        ("c8,?", 16),
        ("?,(3,)c8", 32),
        ("(3,)c8,?", 32),
        (np.dtype([("a", "c8,?"), ("b", "?")]), 24),
        (np.dtype([("a", "?"), ("b", "c8,?")]), 24),
        ("?,(4,)V3", 13),
        ("?,c16", 32),
        ("i1,i8,i2", 24),
    ],
)
def test_make_aligned_dtype(dt, itemsize):
    aligned = cp.make_aligned_dtype(dt)
    assert aligned.itemsize == itemsize
    assert aligned.names == np.dtype(dt).names
    for name in aligned.names:
        fdt, offset = aligned.fields[name][:2]
        base = fdt.subdtype[0] if fdt.subdtype else fdt
        if base.names is None and base.kind != "V":
            assert offset % base.itemsize == 0


@pytest.mark.parametrize("dt", ["c16", "V3", "i4"])
def test_make_aligned_dtype_needs_a_structured_type(dt):
    with pytest.raises(ValueError, match="only supports structured dtypes"):
        cp.make_aligned_dtype(dt)


@pytest.mark.parametrize("make", [lambda: cp.empty(3, dtype="q,O"), lambda: cp.array(np.zeros(3, "q,O"))])
def test_object_fields_are_refused_before_the_device(make):
    with pytest.raises(ValueError, match="Python objects"):
        make()


@pytest.mark.parametrize("make", [cp.zeros, cp.empty])
def test_void_of_no_size_is_refused(make):
    with pytest.raises(ValueError, match="Unsupported dtype"):  # CuPy's error
        make(3, dtype="V")


def test_cuda_array_interface_descr_names_the_fields():
    dt = cp.make_aligned_dtype("?,q")
    assert _dtype_of(dt.str, dt.descr) == dt
    assert _dtype_of("|V8", np.dtype("V8").descr) == np.dtype("V8")
    with pytest.raises(ValueError, match="Python objects"):
        _dtype_of("|V16", np.dtype("q,O").descr)
    with pytest.raises(ValueError, match="non-native"):  # CuPy's type: the layout is what is refused
        _dtype_of(">i4")


# ---- GPU ----------------------------------------------------------------------------------------


@pytest.mark.gpu
class TestCreation:
    @pytest.mark.parametrize("dtype", ["i,i", "V10", NESTED, "i1,i8,i2"])
    @pytest.mark.parametrize("shape", [(), (0,), (2, 3, 4), (1, 5)])
    @testing.numpy_cuarray_array_equal()
    def test_zeros(self, xp, dtype, shape):
        return xp.zeros(shape, dtype=dtype)

    @pytest.mark.parametrize("order", ["C", "F"])
    def test_empty(self, order):
        a = cp.empty((2, 3, 4), dtype="i,i", order=order)
        assert a.dtype == np.dtype("i,i")
        assert a.shape == (2, 3, 4)
        assert a.strides == np.empty((2, 3, 4), "i,i", order=order).strides

    @pytest.mark.parametrize("order", ["C", "F"])
    @testing.numpy_cuarray_array_equal()
    def test_array_round_trip(self, xp, order):
        host = np.asarray(np.arange(12).reshape(3, 4), order=order).astype("i8").view("i4,i4")
        return xp.array(host)

    @testing.numpy_cuarray_array_equal()
    def test_array_other_byte_order(self, xp):
        """The bytes go over as they are and the dtype keeps NumPy's byte order, through copies too."""
        a = xp.array(np.array([(1, 2.5), (-3, 4.0)], dtype=">i4,>f8"))
        return a, a[::-1].copy()

    def test_field_in_the_other_byte_order_is_refused(self):
        a = cp.array(np.array([(1, 2.5), (-3, 4.0)], dtype=">i4,>f8"))
        with pytest.raises(ValueError, match="non-native byte-order"):
            a["f0"]
        b = cp.zeros(2, ">i4,>f8")
        b.set(np.array([(1, 2.5), (-3, 4.0)], dtype=">i4,>f8"))
        assert b.get().tolist() == [(1, 2.5), (-3, 4.0)]

    @pytest.mark.parametrize(
        "scalar",
        [1.0, np.int32(-1), np.void((1, 2, 3, 4, 5, 6), dtype="q,q,q,q,i,i")],
    )
    @testing.numpy_cuarray_array_equal()
    def test_full(self, xp, scalar):
        return xp.full((3, 2), scalar, dtype="i,i,q,q,q,q")

    @testing.numpy_cuarray_array_equal()
    def test_empty_like_and_zeros_like(self, xp):
        a = xp.zeros((3, 4), dtype=NESTED)[:, ::2]
        b = xp.empty_like(a)
        assert b.dtype == a.dtype
        return xp.zeros_like(a)

    def test_get_out(self):
        a = cp.array(pairs())
        out = np.empty(6, PAIR)
        a.get(out=out)
        np.testing.assert_array_equal(out, pairs())


@pytest.mark.gpu
class TestCopies:
    @pytest.mark.parametrize(
        "index", [slice(1, None), slice(None, None, 2), slice(None, None, -1), slice(0, 0)]
    )
    @testing.numpy_cuarray_array_equal()
    def test_slices_copy(self, xp, index):
        a = xp.array(pairs())
        return a[index].copy()

    @testing.numpy_cuarray_array_equal()
    def test_transposed_and_odd_itemsize(self, xp):
        a = xp.array(np.arange(45, dtype="i1").view("i1,i1,i1").reshape(3, 5))
        return a.T[::-1].copy(), a.T

    @testing.numpy_cuarray_array_equal()
    def test_assign_broadcasts(self, xp):
        dst = xp.zeros((3, 6), dtype=PAIR)
        dst[:] = xp.array(pairs())
        dst[1, ::2] = xp.array(pairs(1))
        return dst

    @testing.numpy_cuarray_array_equal()
    def test_overlapping_assignment(self, xp):
        a = xp.array(pairs())
        a[1:] = a[:-1]
        return a

    @pytest.mark.parametrize(
        "scalar", [1.0, np.int32(-1), np.void((-1, 2, 3, 4, 5, -6), dtype="d,d,d,d,d,d"), (7, 8, 9, 1, 2, 3)]
    )
    @testing.numpy_cuarray_array_equal()
    def test_assign_scalar(self, xp, scalar):
        a = xp.empty((4, 3), dtype="i,i,q,q,q,q")
        a[...] = scalar
        a[1:3, ::-2] = 0
        return a

    @testing.numpy_cuarray_array_equal()
    def test_fill(self, xp):
        a = xp.zeros(5, dtype=NESTED)
        a.fill((1.5, (2, 3.5)))
        return a

    @testing.numpy_cuarray_array_equal()
    def test_reshape_flatten_ravel(self, xp):
        a = xp.array(pairs()).reshape(2, 3)[:, ::2]
        return a.reshape(-1), a.flatten(), a.ravel(), a.T.flatten(order="K")

    @testing.numpy_cuarray_array_equal()
    def test_views_between_types(self, xp):
        a = xp.arange(12, dtype="i8")
        v = a.view("V8")
        w = a.view("i4,i4")
        return v, w["f1"], w.view("i8"), a[::3].view("V8").copy()

    @testing.numpy_cuarray_array_equal()
    def test_copyto_same_type(self, xp):
        a = xp.empty(10, dtype="int64")
        a[...] = -1
        a = a.view("V8")
        xp.copyto(a, xp.array(np.arange(10).astype("int64").astype("V8")))
        return a

    @pytest.mark.parametrize("dtype", [PAIR, "i1,i1,i1", NESTED, "V16"])
    @testing.numpy_cuarray_array_equal()
    def test_advanced_indexing(self, xp, dtype):
        host = (np.arange(24 * np.dtype(dtype).itemsize) % 251).astype(np.uint8).view(dtype).reshape(4, 6)
        a = xp.array(host)
        return a[[0, 2, 2]], a[:, [5, 0]], a[xp.array([True, False, True, False])], a[[1], ::-2]

    @pytest.mark.parametrize("dtype", [PAIR, "i1,i1,i1", NESTED])
    @testing.numpy_cuarray_array_equal()
    def test_advanced_assignment(self, xp, dtype):
        host = (np.arange(24 * np.dtype(dtype).itemsize) % 251).astype(np.uint8).view(dtype).reshape(4, 6)
        a = xp.array(host)
        a[[3, 1]] = a[[0, 0]].copy()
        a[:, [2]] = xp.array(host[:1, :1].copy())
        return a

    def test_memory_is_shared_by_views(self):
        a = cp.array(pairs())
        assert cp.may_share_memory(a[::2], a)
        assert cp.may_share_memory(a["f1"], a)
        assert not cp.may_share_memory(a.copy(), a)


@pytest.mark.gpu
class TestFields:
    @pytest.mark.parametrize("name", ["f0", "f1"])
    @testing.numpy_cuarray_array_equal()
    def test_getitem_is_a_strided_view(self, xp, name):
        a = xp.array([(1, 2), (3, 4)], dtype="i,i")
        res = a[name]
        assert not res.flags.c_contiguous and not res.flags.f_contiguous
        assert res.strides == (8,)
        return res

    @pytest.mark.parametrize("index", [slice(None, None, -1), (slice(None), 1), (Ellipsis, slice(0, 0))])
    @testing.numpy_cuarray_array_equal()
    def test_fields_of_views(self, xp, index):
        a = xp.array(np.arange(24, dtype="i4").view("i4,i4").reshape(3, 4))
        return a[index]["f1"]

    @testing.numpy_cuarray_array_equal()
    def test_setitem(self, xp):
        a = xp.array(pairs())
        a["f0"] = -1
        a["f1"][::2] = xp.arange(3, dtype="f4")
        return a

    @testing.numpy_cuarray_array_equal()
    def test_nested(self, xp):
        dtype = xp.dtype([("a", "i,i"), ("b", "i,i")])
        a = xp.array([((1, 2), (3, 4)), ((5, 6), (7, 8))], dtype=dtype)
        a["a"]["f0"] += a["b"]["f1"]
        return a, a["b"]

    @testing.numpy_cuarray_array_equal()
    def test_several_fields(self, xp):
        a = xp.ones(10, "i,f,i")
        a["f1"] = xp.arange(10)
        a["f2"] = -xp.arange(10)
        sub = a[["f2", "f1"]]
        assert sub.dtype.itemsize == a.dtype.itemsize
        return sub, sub["f1"]

    @testing.numpy_cuarray_array_equal()
    def test_several_fields_assigned(self, xp):
        a = xp.ones(10, "i,f,i,f,i,f")
        for i in range(6):
            a[f"f{i}"] = xp.arange(i, 10 + i)
        a[["f1", "f0", "f4"]] = a[["f2", "f1", "f5"]].copy()
        return a

    @pytest.mark.parametrize("name, dtype", [("f1", "?,f8"), ("f0", "f8,?")])
    def test_misaligned_field_is_refused(self, name, dtype):
        a = cp.array(np.zeros(4, dtype))
        with pytest.raises(ValueError, match="sufficiently aligned for GPU"):
            a[name]  # a view: a copy would drop writes made through it
        assert a[:0][name].shape == (0,)  # nothing to read

    @pytest.mark.parametrize("name, dtype", [("f1", "?,f8"), ("f0", "f8,?"), ("f1", "i1,c16,i2")])
    @testing.numpy_cuarray_array_equal()
    def test_misaligned_field_is_assigned(self, xp, name, dtype):
        """Assignment by field works for packed types (Note [Packed fields]), the other fields untouched."""
        host = np.zeros((4, 3), dtype)
        for k, field in enumerate(host.dtype.names):
            host[field] = np.arange(12).reshape(4, 3) + 20 * k
        base = xp.array(host)
        a = base[::-1, ::2]
        a[name] = xp.arange(2) + 2
        a[:0][name] = 1
        return base

    def test_aligned_type_makes_fields_usable(self):
        dt = cp.make_aligned_dtype("?,f8")
        a = cp.zeros(4, dt)
        a["f1"] = cp.arange(4.0)
        np.testing.assert_array_equal(a.get()["f1"], np.arange(4.0))

    def test_unknown_field(self):
        a = cp.zeros(3, "i,i")
        with pytest.raises(ValueError, match="no field of name x"):
            a["x"]

    def test_subarray_field_is_refused(self):
        a = cp.zeros(10, dtype="i,(3,3)i")
        with pytest.raises(ValueError, match="nested subarrays"):
            a["f1"]


@pytest.mark.gpu
class TestCasts:
    @testing.numpy_cuarray_array_equal()
    def test_astype(self, xp):
        a = xp.array([(1, 2.0), (3, 4.0)], dtype="i8,f8")
        return a.astype("f8,i8"), a[["f1", "f0"]].astype("f8,i8")

    @testing.numpy_cuarray_array_equal()
    def test_astype_nested(self, xp):
        a = xp.array([(1, (2, 3.0)), (3, (4, 5.0))], dtype=NESTED)
        return a.astype([("a", "f4"), ("b", "f4,i4")])

    @testing.numpy_cuarray_array_equal()
    def test_astype_same_type_copies(self, xp):
        a = xp.array(pairs())
        b = a.astype(PAIR)
        b["f0"] = 0
        return a, b

    @testing.numpy_cuarray_array_equal()
    def test_assign_other_structured_type(self, xp):
        a = xp.zeros(6, dtype="f8,i2")
        a[...] = xp.array(pairs())
        return a

    @testing.numpy_cuarray_array_equal()
    def test_packed_types_by_field(self, xp):
        """Misaligned fields on both sides, strided and reversed, read and written through bytes."""
        src = xp.array(np.array([(1.5 * i, i, 1j - i) for i in range(8)], "f8,i2,c8"))[::-3]
        a = xp.zeros(3, "i1,f4,c16")
        a[...] = src
        packed = np.dtype({"names": ["x"], "formats": ["f8"], "offsets": [1], "itemsize": 9})
        one = xp.array(np.array([(0,), (0,)], packed))
        one[...] = xp.asarray([2.5, -1.5])
        return a, a.astype("f8,i8,c8"), one, one.astype("i4")

    @testing.numpy_cuarray_array_equal()
    def test_plain_value_goes_to_every_field(self, xp):
        a = xp.zeros((2, 3), dtype=NESTED)
        a[...] = xp.arange(3)
        return a

    @testing.numpy_cuarray_array_equal()
    def test_one_field_to_plain(self, xp):
        return xp.array(np.array([(1.5,), (2.5,)], dtype=[("x", "f8")])).astype("i4")


@pytest.mark.gpu
@pytest.mark.parametrize("op", [operator.eq, operator.ne])
class TestComparison:
    @testing.numpy_cuarray_array_equal()
    def test_broadcast(self, xp, op):
        a = xp.array([(1, 2)], dtype="i8,f8")
        b = xp.array([(1, 2.0), (1, 3), (3, 2)], dtype="i8,f8")
        return op(a, b), op(b, a)

    @testing.numpy_cuarray_array_equal()
    def test_other_types(self, xp, op):
        a = xp.array([(1, 2)], dtype="i8,f8")
        b = xp.array([(1, 2.0), (1, 3), (3, 2)], dtype="f8,i8")
        return op(a, b)

    @testing.numpy_cuarray_array_equal()
    def test_nested(self, xp, op):
        a = xp.array([(1, (2, 3))], dtype=NESTED)
        b = xp.array([(1, (2, 3)), (1, (2, 4)), (1, (3, 3))], dtype=[("a", "f4"), ("b", "f4,i4")])
        return op(a, b)

    @testing.numpy_cuarray_array_equal(accept_error=TypeError)
    def test_field_order(self, xp, op):
        a = xp.array([(1, 2)], dtype="i8,f8")[["f1", "f0"]]
        b = xp.array([(1, 2.0), (1, 3), (3, 2)], dtype="f8,i8")
        return op(a, b)

    @pytest.mark.parametrize(
        "dtypes", [("i4,i4", "i4,i4,i4"), ("V8", "V4"), ("i8,f8", "V16"), ("V16", "i8,f8")], ids=str
    )
    @testing.numpy_cuarray_raises(accept_error=TypeError)
    def test_no_common_type_is_type_error(self, xp, op, dtypes):
        return op(xp.zeros(2, dtypes[0]), xp.zeros(2, dtypes[1]))

    @testing.numpy_cuarray_array_equal()
    def test_packed(self, xp, op):
        a = xp.array(np.array([(1, 2.0, 3), (4, 5.0, 6), (7, 8.0, 9)], "i1,f8,i2"))
        b = a.copy()
        b[1:] = xp.array(np.array([(4, 5.5, 6)], "i1,f8,i2"))
        return op(a, b), op(a[::-1], b[::2][:, None])

    @testing.numpy_cuarray_array_equal()
    def test_unstructured(self, xp, op):
        a = xp.array([b"87654321", b"12345678"], dtype="V8")
        b = xp.array([b"87654321", b"1234567_"], dtype="V8")
        return op(a, b), op(a[::-1], b[:1])

    @testing.numpy_cuarray_array_equal()
    def test_odd_itemsize_and_empty(self, xp, op):
        a = xp.array(np.arange(9, dtype="i1").view("i1,i1,i1"))
        b = xp.array(np.array([(0, 1, 2), (3, 0, 5), (6, 7, 8)], dtype="i1,i1,i1"))
        return op(a, b), op(a[:0], b[:0])

    def test_many_fields(self, op):
        dtype = np.dtype([(f"f{i}", "i1") for i in range(256)])
        a, b = cp.zeros(3, dtype=dtype), cp.zeros(3, dtype=dtype)
        testing.assert_array_equal(op(a, b), op(a.get(), b.get()))

    def test_subarray_fields_are_refused(self, op):
        a = cp.zeros(2, dtype=[("a", "i4,f4", (3,))])
        with pytest.raises(ValueError, match="subarray dtypes"):
            op(a, a)


@pytest.mark.gpu
class TestRefused:
    @pytest.mark.parametrize(
        "call",
        [
            lambda a: a + a,
            lambda a: cp.add(a, a),
            lambda a: a.sum(),
            lambda a: cp.sort(a),
            lambda a: operator.lt(a, a),
        ],
    )
    def test_no_computation_on_the_whole(self, call):
        a = cp.array(pairs())
        with pytest.raises(TypeError):
            call(a)

    def test_elementwise_kernel(self):
        kernel = cp.ElementwiseKernel("T x", "T y", "y = x", "struct_copy")
        with pytest.raises(TypeError, match="structured or void"):
            kernel(cp.zeros(3, "i,i"), cp.zeros(3, "i,i"))

    def test_dlpack_export(self):
        with pytest.raises(BufferError, match="DLPack has no type for void"):
            cp.array(pairs()).__dlpack__()

    def test_cast_to_unstructured_of_another_type(self):
        with pytest.raises(TypeError):
            cp.zeros(3, "V8")[...] = cp.arange(3)


@pytest.mark.gpu
class TestInterop:
    def test_cuda_array_interface_round_trip(self):
        class Producer:  # another library's array: the interface alone
            def __init__(self, x):
                self.__cuda_array_interface__ = x.__cuda_array_interface__

        a = cp.zeros(3, dtype=cp.make_aligned_dtype("?,q"))
        iface = a.__cuda_array_interface__
        assert iface["descr"] == a.dtype.descr
        res = cp.asarray(Producer(a))
        assert res.dtype == a.dtype
        assert cp.may_share_memory(a, res)

    def test_ndarray_over_memory(self):
        a = cp.array(pairs())
        b = cp.ndarray((3,), dtype=PAIR, memptr=a.data + 8, strides=(16,))
        np.testing.assert_array_equal(b.get(), pairs()[1::2])


@pytest.mark.gpu
@pytest.mark.parametrize("itemsize", [40, 33, 64])
def test_index_arrays_on_wide_elements_after_narrow_ones(itemsize):
    # Void elements of any size, after an 8-byte gather and scatter: they move as units of at most 8 bytes
    # (Note [Void storage]), and every byte of each element lands.
    idx = np.array([2, 0, 3])
    narrow = np.arange(4, dtype=np.int64) + 7
    x = cp.asarray(narrow)
    np.testing.assert_array_equal(x[cp.asarray(idx)].get(), narrow[idx])
    x[cp.asarray(idx)] = cp.asarray(narrow[:3])
    wide = np.frombuffer(np.arange(4 * itemsize, dtype=np.uint8).tobytes(), dtype=f"V{itemsize}")
    w = cp.asarray(wide)
    got = w[cp.asarray(idx)]
    assert got.dtype == wide.dtype and got.get().tobytes() == wide[idx].tobytes()
    expected = wide.copy()
    expected[idx] = wide[[1, 1, 0]]
    w[cp.asarray(idx)] = w[cp.asarray([1, 1, 0])]
    assert w.get().tobytes() == expected.tobytes()
