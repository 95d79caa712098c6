"""Zero-copy interop: DLPack and __cuda_array_interface__ out and in with cuarray itself, stream hand-off,
lifetimes, and the array API basics (__array_namespace__, to_device, mT). Other libraries (PyTorch, CuPy, Numba,
JAX) are in test_interop_libraries.py.

The tests at the top need no GPU: dtype tables and every check that must fail before touching a device.
"""

import ctypes
import gc

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, LAYOUT_NAMES, describe, dtype_id, make_data, make_pair, run_python

# Layouts every DLPack consumer takes (PyTorch and JAX have no negative strides).
NONNEGATIVE_LAYOUTS = [n for n in LAYOUT_NAMES if n not in ("negative", "1d_negative", "3d_permuted")]
DLPACK_CODES = {"b": 6, "i": 0, "u": 1, "f": 2, "c": 5}


def used_strides(x):
    """The strides that address memory: those of axes longer than 1 (none for an empty array)."""
    return [s for s, n in zip(x.strides, x.shape) if n > 1] if x.size else []


# ---- no GPU needed ------------------------------------------------------------------------------


def test_array_api_version():
    assert cp.__array_api_version__ == "2024.12"
    assert cp.ndarray.__array_namespace__(None) is cp
    assert cp.ndarray.__array_namespace__(None, api_version="2024.12") is cp
    with pytest.raises(ValueError, match="2099.01"):
        cp.ndarray.__array_namespace__(None, api_version="2099.01")


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_dlpack_dtype_table(dtype):
    code, bits, lanes = cp._core._dlpack_dtype(dtype)
    assert (code, bits, lanes) == (DLPACK_CODES[dtype.kind], dtype.itemsize * 8, 1)
    assert cp._core._dtype_from_dlpack(code, bits, lanes) == dtype


def test_dlpack_bfloat16_is_code_4():
    bfloat16 = pytest.importorskip("ml_dtypes").bfloat16
    assert cp._core._dlpack_dtype(bfloat16) == (4, 16, 1)
    assert cp._core._dtype_from_dlpack(4, 16, 1) == np.dtype(bfloat16)


@pytest.mark.parametrize(
    "code,bits,lanes,named",
    [
        (1, 32, 4, "uint32 with 4 lanes"),
        (2, 32, 2, "float32 with 2 lanes"),
        (8, 8, 1, "float8"),
        (12, 8, 1, "float8"),
        (2, 8, 1, "float8"),
        (3, 64, 1, "opaque handle"),
        (6, 1, 1, "bool1"),
        (5, 32, 1, "complex32"),
        (0, 128, 1, "int128"),
        (4, 32, 1, "bfloat32"),
        (99, 16, 1, "code 99"),
    ],
)
def test_dlpack_unsupported_dtype_is_type_error(code, bits, lanes, named):
    with pytest.raises(TypeError, match=named):
        cp._core._dtype_from_dlpack(code, bits, lanes)


class _CAI:
    def __init__(self, **desc):
        self.__cuda_array_interface__ = {
            "shape": (3,),
            "typestr": "<f4",
            "data": (0xDEAD00, False),
            "version": 3,
            **desc,
        }


@pytest.fixture
def no_device(monkeypatch):
    """Fails the test if the CUDA array interface import reaches the core (which queries the device)."""
    calls = []

    def record(*args):
        calls.append(args)
        return "reached the core"

    monkeypatch.setattr(cp._core, "_from_cuda_array", record)
    return calls


@pytest.mark.parametrize(
    "desc, dlpack",
    [
        (
            {"typestr": "<V2", "descr": [("", "<V2")], "stream": 1},
            True,
        ),  # bfloat16: the interface cannot name it
        ({"typestr": "|V8", "descr": [("f0", "<i4"), ("f1", "<f4")], "stream": 1}, False),  # structured
        ({"typestr": "|V8", "descr": [("f0", "<i4"), ("f1", "<f4")], "stream": None}, False),
        ({"typestr": "<f4", "stream": None}, True),  # no stream named: DLPack orders the producer's writes
        ({"typestr": "<f4", "stream": 1}, False),
    ],
)
def test_structured_arrays_of_other_libraries_come_through_the_interface(desc, dlpack):
    # DLPack has no structured types (CuPy's export refuses them), so a CuPy structured array is read through
    # its __cuda_array_interface__, whose descr names the fields; it raised BufferError.
    from cuarray._interop import _dlpack_is_safer

    assert _dlpack_is_safer(desc) is dlpack


@pytest.mark.parametrize("typestr", ["<f3", "<V2", "|O8", "<M8[h]", "<m8[W]", "<U4", "nonsense", "<f16"])
def test_cai_bad_typestr_is_type_error_before_the_device(no_device, typestr):
    with pytest.raises(TypeError, match="typestr|data type"):
        cp.asarray(_CAI(typestr=typestr))
    assert no_device == []


@pytest.mark.parametrize("typestr", [">f4", ">i8", ">c16", ">M8[s]"])
def test_cai_big_endian_typestr_is_value_error_before_the_device(no_device, typestr):
    # CuPy's TestCudaArrayInterface.test_big_endian: the type exists, its byte order is refused.
    with pytest.raises(ValueError, match="non-native byte order"):
        cp.asarray(_CAI(typestr=typestr))
    assert no_device == []


@pytest.mark.parametrize("dtype", [">i4", ">f8", ">c8", ">u2", ">m8[s]"])
def test_big_endian_dtype_is_value_error_naming_the_byte_order(dtype):
    with pytest.raises(ValueError, match="byte-order"):
        cp.empty((2, 3), dtype=dtype)
    with pytest.raises(ValueError, match="byte-order"):
        cp.zeros(3, dtype=np.dtype(dtype))


@pytest.mark.parametrize("dtype", [">U3", "O"])  # structured types are storage (tests/test_structured.py)
def test_unsupported_dtype_in_either_byte_order_stays_type_error(dtype):
    with pytest.raises(TypeError, match="does not support the data type"):
        cp.empty(3, dtype=dtype)


@pytest.mark.parametrize(
    "desc,match",
    [
        ({"mask": object()}, "mask"),
        ({"strides": (4, 4)}, "strides"),
        ({"shape": (2, -1)}, "negative"),
        ({"data": (0, False)}, "null data pointer"),
    ],
)
def test_cai_bad_descriptor_is_value_error_before_the_device(no_device, desc, match):
    with pytest.raises(ValueError, match=match):
        cp.asarray(_CAI(**desc))
    assert no_device == []


def test_cai_stream_zero_is_read_as_the_legacy_default_stream_with_a_warning(no_device):
    # The protocol forbids 0; CuPy reads it as the legacy default stream (it raised ValueError here).
    obj = _CAI(stream=0)
    with pytest.warns(UserWarning, match="stream 0") as record:
        assert cp._interop._device_view(obj) == "reached the core"
    assert no_device[0][4] == 1
    assert record[0].filename == __file__  # the caller's line, outside cuarray


def test_cai_missing_key(no_device):
    obj = _CAI()
    del obj.__cuda_array_interface__["typestr"]
    with pytest.raises(ValueError, match="typestr"):
        cp.asarray(obj)


@pytest.mark.parametrize(
    "desc,expected",
    [
        ({}, (0xDEAD00, (3,), None, np.dtype("f4"), None)),
        (
            {"shape": (2, 3), "typestr": "|b1", "strides": (1, 2), "stream": 1, "data": (0xBEEF, True)},
            (0xBEEF, (2, 3), (1, 2), np.dtype("?"), 1),
        ),
        (
            {"shape": (4,), "typestr": "<c16", "strides": (-16,), "version": 2, "mask": None},
            (0xDEAD00, (4,), (-16,), np.dtype("c16"), None),
        ),
        ({"shape": (0, 5), "data": (0, False), "stream": None}, (0, (0, 5), None, np.dtype("f4"), None)),
    ],
)
def test_cai_descriptor_reaches_the_core(no_device, desc, expected):
    obj = _CAI(**desc)
    # (read-only data is accepted: cuarray arrays have no read-only flag)
    assert cp._interop._device_view(obj) == "reached the core"
    ((ptr, shape, strides, dtype, stream, wait_on_host, owner),) = no_device
    assert (ptr, shape, strides, dtype, stream) == expected
    assert wait_on_host is cp._interop._CAI_SYNC
    assert owner is obj


class _VoidFromCuPy(_CAI):
    """CuPy's void array: its interface names '|V8', its DLPack export refuses the type."""

    def __init__(self):
        super().__init__(typestr="|V8", descr=[("", "|V8")], stream=None)

    def __dlpack__(self, **kwargs):
        raise BufferError("dtype is not supported for dlpack export")

    def __dlpack_device__(self):
        return (2, 0)


def test_a_type_dlpack_refuses_is_read_through_the_interface(no_device, monkeypatch):
    # asarray of CuPy's void array raised BufferError from CuPy's __dlpack__, though the interface names it.
    obj = _VoidFromCuPy()

    def from_dlpack(x):
        x.__dlpack__()  # (the real one asks the device first)

    monkeypatch.setattr(cp._interop, "from_dlpack", from_dlpack)
    assert cp._interop._device_view(obj) == "reached the core"
    assert no_device[0][3] == np.dtype("V8")


class _DLPackObject:
    def __init__(self, device):
        self.device, self.calls = device, 0

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, **kwargs):
        self.calls += 1
        raise AssertionError("__dlpack__ must not be called for memory cuarray cannot import")


@pytest.mark.parametrize(
    "device,match", [((1, 0), "host memory"), ((3, 0), "host memory"), ((4, 0), "device type 4")]
)
def test_from_dlpack_of_non_cuda_memory(device, match):
    # BufferError (the array API's type) that is CuPy's TypeError too (Note [Refusals of two types]).
    obj = _DLPackObject(device)
    with pytest.raises(BufferError, match=match) as info:
        cp.from_dlpack(obj)
    assert isinstance(info.value, TypeError)
    assert obj.calls == 0


@pytest.mark.parametrize("obj", [[1, 2, 3], 42])
def test_from_dlpack_needs_the_protocol(obj):
    # TypeError that is CuPy's ValueError too.
    with pytest.raises(TypeError, match="__dlpack__") as info:
        cp.from_dlpack(obj)
    assert isinstance(info.value, ValueError)


def test_to_device_cpu_is_refused():
    with pytest.raises(ValueError, match=r"\.get\(\)"):
        cp.ndarray.to_device(None, "cpu")
    with pytest.raises(TypeError, match="Device"):
        cp.ndarray.to_device(None, 1.5)


# A DLPack capsule made by hand (ctypes), as a foreign producer would make it.
class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", _DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", _DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


class _DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("major", ctypes.c_uint32),
        ("minor", ctypes.c_uint32),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", ctypes.c_void_p),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", _DLTensor),
    ]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype, _capsule_new.argtypes = (
    ctypes.py_object,
    [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p],
)
_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype, _capsule_name.argtypes = ctypes.c_char_p, [ctypes.py_object]


def _capsule(device_type, code, bits, name=b"dltensor", major=None):
    """A capsule holding a 2x3 tensor description (no deleter: the structures stay alive in `keep`)."""
    shape = (ctypes.c_int64 * 2)(2, 3)
    if major is None:
        managed = _DLManagedTensor()
        tensor = managed.dl_tensor
    else:
        managed = _DLManagedTensorVersioned(major=major, minor=0)
        tensor = managed.dl_tensor
    tensor.data, tensor.ndim, tensor.shape = 0xDEAD00, 2, shape
    tensor.device = _DLDevice(device_type, 0)
    tensor.dtype = _DLDataType(code, bits, 1)
    cap = _capsule_new(ctypes.addressof(managed), name, None)
    _capsule.keep.append((managed, shape))
    return cap


_capsule.keep = []


@pytest.mark.parametrize(
    "device_type,code,bits,error,match",
    [
        (1, 2, 32, BufferError, "host memory"),
        (3, 2, 32, BufferError, "host memory"),
        (10, 2, 32, BufferError, "device type 10"),
        (2, 8, 8, TypeError, "float8"),
        (2, 1, 32 * 4, TypeError, "uint128"),
    ],
)
def test_foreign_capsule_refused_before_the_device_and_not_consumed(device_type, code, bits, error, match):
    cap = _capsule(device_type, code, bits)
    with pytest.raises(error, match=match) as info:
        cp.from_dlpack(cap)
    # A capsule on the host is a BufferError that is CuPy's RuntimeError too.
    assert isinstance(info.value, RuntimeError) == (error is BufferError)
    assert _capsule_name(cap) == b"dltensor"  # still the producer's to free


def test_capsule_of_a_newer_dlpack_major_version_is_refused():
    cap = _capsule(2, 2, 32, name=b"dltensor_versioned", major=2)
    with pytest.raises(BufferError, match="version 2.0"):
        cp.from_dlpack(cap)
    assert _capsule_name(cap) == b"dltensor_versioned"


@pytest.mark.parametrize("name", [b"used_dltensor", b"used_dltensor_versioned"])
def test_consumed_capsule_is_cupys_value_error(name):
    with pytest.raises(ValueError, match="cannot be consumed multiple times"):
        cp.from_dlpack(_capsule(2, 2, 32, name=name))


def test_foreign_capsule_is_type_error():
    # TypeError that is CuPy's ValueError too.
    with pytest.raises(TypeError, match="named 'dltensor' or 'dltensor_versioned'") as info:
        cp.from_dlpack(_capsule(2, 2, 32, name=b"something"))
    assert isinstance(info.value, ValueError)


# ---- cuarray with itself (GPU) ------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
@pytest.mark.parametrize("route", ["dlpack", "capsule", "versioned_capsule", "cai"])
def test_round_trip_with_itself(route, layout, dtype):
    x, a = make_pair(layout, dtype)
    if route == "dlpack":
        y = cp.from_dlpack(x)
    elif route == "capsule":
        y = cp.from_dlpack(x.__dlpack__())
    elif route == "versioned_capsule":
        y = cp.from_dlpack(x.__dlpack__(max_version=(1, 0)))
    else:
        y = cp.asarray(_Wrapped(x))
    assert y.shape == a.shape and y.dtype == a.dtype and used_strides(y) == used_strides(x)
    if a.size:
        assert y.data.ptr == x.data.ptr
    np.testing.assert_array_equal(y.get(), a)
    if a.size:  # writes are visible both ways
        y[...] = 0
        assert not x.any()
        x[...] = 1
        assert y.all()


class _Wrapped:
    """Something that only exposes another array's __cuda_array_interface__."""

    def __init__(self, x):
        self.__cuda_array_interface__ = x.__cuda_array_interface__


@pytest.mark.gpu
def test_capsule_names_and_single_use():
    x = cp.arange(6)
    assert '"dltensor"' in repr(x.__dlpack__())
    assert '"dltensor"' in repr(x.__dlpack__(max_version=(0, 8)))
    assert '"dltensor_versioned"' in repr(x.__dlpack__(max_version=(1, 0)))
    assert '"dltensor_versioned"' in repr(x.__dlpack__(max_version=(1, 3)))
    cap = x.__dlpack__()
    cp.from_dlpack(cap)
    assert _capsule_name(cap) == b"used_dltensor"
    with pytest.raises(ValueError, match="cannot be consumed multiple times"):  # CuPy's error
        cp.from_dlpack(cap)


@pytest.mark.gpu
def test_dlpack_device_and_cai_fields():
    x = cp.zeros((2, 3), dtype=np.float32)
    assert x.__dlpack_device__() == (2, x.device.id)
    cai = x.__cuda_array_interface__
    assert cai["version"] == 3 and cai["stream"] == 1 and cai["data"] == (x.data.ptr, False)
    assert cai["shape"] == (2, 3) and cai["strides"] is None and cai["typestr"] == "<f4"
    assert x[:, ::2].__cuda_array_interface__["strides"] == (12, 8)
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        assert x.__cuda_array_interface__["stream"] == s.ptr
    # The null stream's handle is 0, which the protocol forbids: CuPy's 1 stands for it.
    with cp.cuda.Stream.null:
        assert x.__cuda_array_interface__["stream"] == cp.cuda.stream.get_default_stream_ptr() == 1


_CAI_VERSION_CHECK = """
import cuarray as cp
x = cp.zeros(3)
try:
    cai = x.__cuda_array_interface__
except ValueError as e:
    print("ValueError", e)
else:
    print(cai["version"], "stream" in cai, cai["data"] == (x.data.ptr, False))
"""


@pytest.mark.gpu
@pytest.mark.parametrize(
    "env, want",
    [
        (
            {
                "CUARRAY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION": None,
                "CUPY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION": None,
            },
            "3 True True",
        ),
        ({"CUPY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION": "2"}, "2 False True"),
        (
            {
                "CUARRAY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION": "3",
                "CUPY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION": "2",
            },
            "3 True",
        ),
        (
            {"CUPY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION": "4"},
            "ValueError CUPY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION",
        ),
    ],
)
def test_cai_export_version_from_the_environment(env, want):
    # CuPy's CUPY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION: 2 exports no stream (the consumer orders streams itself);
    # another value is refused at export, and `import cuarray` still works.
    proc = run_python(code=_CAI_VERSION_CHECK, env=env)
    assert proc.returncode == 0 and proc.stdout.startswith(want), describe(proc)


def test_default_stream_ptr_is_the_legacy_default_stream():
    # CuPy's cupy_backends.cuda.stream.get_default_stream_ptr() without per-thread default streams.
    assert cp.cuda.stream.get_default_stream_ptr() == 1


@pytest.mark.gpu
def test_export_errors():
    x = cp.arange(4, dtype=np.int32)
    with pytest.raises(ValueError, match="copy=False"):
        x.__dlpack__(dl_device=(1, 0), copy=False)  # device memory reaches the host only as a copy
    with pytest.raises(BufferError, match="device"):
        x.__dlpack__(dl_device=(2, x.device.id + 1))
    with pytest.raises(
        BufferError, match=r"DLPack device \(1, 5\)"
    ):  # the host has only device 0, as CuPy says
        x.__dlpack__(dl_device=(1, 5))
    with pytest.raises(ValueError, match="stream -5"):
        x.__dlpack__(stream=-5)
    for stream in (1.5, "1", cp.cuda.Stream()):  # TypeError that is CuPy's ValueError too
        with pytest.raises(TypeError, match="stream must be an integer") as info:
            x.__dlpack__(stream=stream)
        assert isinstance(info.value, ValueError)
    # Byte strides that are not a multiple of the itemsize (possible through the CUDA array interface).
    odd = cp.asarray(_CAI(shape=(3,), typestr="<i4", strides=(6,), data=(x.data.ptr, False)))
    with pytest.raises(BufferError, match="not a multiple of its itemsize 4"):
        odd.__dlpack__()
    assert x.__dlpack__(dl_device=(2, x.device.id), stream=-1) is not None


class _Capsule:
    def __init__(self, capsule, device):
        self.capsule, self.device = capsule, device

    def __dlpack__(self, *args, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


@pytest.mark.gpu
@pytest.mark.parametrize("max_version", [None, (1, 0)])
@pytest.mark.parametrize("copy", [None, True])
def test_export_to_the_host_is_a_copy(max_version, copy):
    # CuPy's dl_device=(kDLCPU, 0) for device memory: NumPy reads a host copy, one per export.
    h = np.arange(6, dtype=np.float32).reshape(2, 3)[:, ::2]
    x = cp.asarray(h)
    cap = x.__dlpack__(dl_device=(1, 0), copy=copy, max_version=max_version)
    assert ('"dltensor_versioned"' in str(cap)) == (max_version is not None)
    a = np.from_dlpack(_Capsule(cap, (1, 0)))
    b = np.from_dlpack(_Capsule(x.__dlpack__(dl_device=(1, 0), copy=copy), (1, 0)))
    np.testing.assert_array_equal(a, h)
    assert a.dtype == h.dtype and not np.may_share_memory(a, b)


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype, _capsule_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]


@pytest.mark.gpu
@pytest.mark.parametrize("order", ["C", "F"])
def test_export_to_the_host_is_flagged_as_a_copy_in_the_arrays_order(order):
    # As CuPy's: a versioned capsule carries DLPack's IS_COPIED flag (2), and an F-contiguous array's copy keeps
    # F order (it was a C-ordered copy without the flag).
    h = np.asarray(np.arange(6, dtype=np.float64).reshape(2, 3), order=order)
    x = cp.asarray(h, order=order)
    cap = x.__dlpack__(dl_device=(1, 0), max_version=(1, 0))
    managed = _DLManagedTensorVersioned.from_address(_capsule_pointer(cap, b"dltensor_versioned"))
    assert managed.flags & 2
    a = np.from_dlpack(_Capsule(cap, (1, 0)))
    np.testing.assert_array_equal(a, h)
    assert a.flags.f_contiguous == (order == "F") and a.flags.c_contiguous == (order == "C")


def _capsule_device(cap):
    name = _capsule_name(cap)
    managed = (_DLManagedTensorVersioned if name.endswith(b"versioned") else _DLManagedTensor).from_address(
        _capsule_pointer(cap, name)
    )
    return managed.dl_tensor.device.device_type, managed.dl_tensor.device.device_id


@pytest.mark.gpu
def test_managed_memory_is_exported_as_managed_and_read_by_numpy_in_place():
    # As CuPy's: kDLCUDAManaged (13) where it said kDLCUDA (2), so NumPy may read it in place; NumPy reads it
    # from the host once the kernel that wrote it is done (Note [Managed memory in DLPack]).
    with cp.cuda.using_allocator(cp.cuda.malloc_managed):
        x = cp.arange(1 << 20, dtype=np.float32)
        x *= 3.0
        # A managed copy (copy=True), exported without a stream: NumPy reads it once the copy is done.
        copied = np.from_dlpack(_Capsule(x.__dlpack__(copy=True, max_version=(1, 0)), (13, 0)))
    np.testing.assert_array_equal(copied, np.arange(1 << 20, dtype=np.float32) * 3.0)
    assert copied.ctypes.data != x.data.ptr
    plain = cp.empty(3)
    dev = x.device.id
    assert x.__dlpack_device__() == (13, dev) and x[5:].__dlpack_device__() == (13, dev)
    assert cp.arange(3).__dlpack_device__() == (2, dev)
    for max_version in (None, (1, 0)):
        assert _capsule_device(x.__dlpack__(max_version=max_version)) == (13, dev)
    h = np.from_dlpack(x)
    np.testing.assert_array_equal(h[:4], [0.0, 3.0, 6.0, 9.0])
    assert h.ctypes.data == x.data.ptr and h[-1] == 3.0 * ((1 << 20) - 1)
    h[0] = 42.0  # the same memory
    assert float(x[0]) == 42.0
    # An export to the CPU: in place unless copy=True; device memory needs a copy.
    cap = x.__dlpack__(dl_device=(1, 0), copy=False, max_version=(1, 0))
    assert _capsule_device(cap) == (13, dev)
    assert np.from_dlpack(_Capsule(cap, (13, dev))).ctypes.data == x.data.ptr
    copied = np.from_dlpack(_Capsule(x.__dlpack__(dl_device=(1, 0), copy=True), (1, 0)))
    assert copied.ctypes.data != x.data.ptr and copied[0] == 42.0
    with pytest.raises(ValueError, match="copy=False"):
        plain.__dlpack__(dl_device=(1, 0), copy=False)
    # A consumer may ask for either device type; cuarray imports both.
    assert x.__dlpack__(dl_device=(2, dev), stream=-1) is not None
    y = cp.from_dlpack(x)
    assert y.data.ptr == x.data.ptr and y.device.id == dev and float(y[1]) == 3.0


@pytest.mark.gpu
def test_stream_zero_is_read_as_the_legacy_default_stream_with_a_warning():
    # CuPy's compatibility with consumers that pass 0 (older PyTorch) where the protocol forbids it.
    x = cp.arange(4, dtype=np.float32)
    with pytest.warns(UserWarning, match="Stream 0"):
        cap = x.__dlpack__(stream=0)
    y = cp.from_dlpack(cap)
    assert y.data.ptr == x.data.ptr
    np.testing.assert_array_equal(y.get(), np.arange(4, dtype=np.float32))


@pytest.mark.gpu
def test_from_dlpack_deprecated_spelling():
    x = cp.arange(5, dtype=np.int16)
    with pytest.warns(cp.VisibleDeprecationWarning, match="from_dlpack") as record:
        y = cp.fromDlpack(cap := x.toDlpack())
    assert len(record) == 2  # each spelling warns, as CuPy's
    assert _capsule_name(cap) == b"used_dltensor_versioned"  # CuPy 14's toDlpack makes a versioned capsule
    assert y.data.ptr == x.data.ptr and y.dtype == x.dtype


def test_cupy_exception_names_are_numpys():
    assert cp.AxisError is np.exceptions.AxisError and cp.ComplexWarning is np.exceptions.ComplexWarning
    assert cp.TooHardError is np.exceptions.TooHardError
    assert cp.VisibleDeprecationWarning is np.exceptions.VisibleDeprecationWarning


@pytest.mark.gpu
def test_export_copy():
    x = cp.arange(6, dtype=np.float32)
    y = cp.from_dlpack(x.__dlpack__(copy=True, max_version=(1, 0)))
    assert y.data.ptr != x.data.ptr
    np.testing.assert_array_equal(y.get(), np.arange(6, dtype=np.float32))
    z = cp.from_dlpack(x, copy=True)
    assert z.data.ptr != x.data.ptr
    np.testing.assert_array_equal(z.get(), x.get())


def _used_bytes():
    gc.collect()
    return cp.get_default_memory_pool().used_bytes()


@pytest.mark.gpu
def test_unconsumed_capsule_frees_the_memory():
    before = _used_bytes()
    x = cp.empty(1 << 20, dtype=np.uint8)
    cap = x.__dlpack__()
    del x
    assert _used_bytes() >= before + (1 << 20)
    del cap
    assert _used_bytes() == before


@pytest.mark.gpu
def test_import_keeps_memory_until_the_last_view():
    before = _used_bytes()
    x = cp.arange(1 << 18, dtype=np.float32)
    y = cp.from_dlpack(x)[::2]
    del x
    gc.collect()
    for _ in range(3):  # same-size allocations would reuse the block if it had been freed
        cp.zeros(1 << 18, dtype=np.float32)
    np.testing.assert_array_equal(y.get(), np.arange(0, 1 << 18, 2, dtype=np.float32))
    del y
    assert _used_bytes() == before


@pytest.mark.gpu
def test_array_api_methods():
    x = cp.asarray(make_data((2, 3, 4), np.float32))
    assert x.__array_namespace__() is cp
    assert x.to_device(x.device) is x
    assert x.mT.shape == (2, 4, 3)
    np.testing.assert_array_equal(x.mT.get(), np.swapaxes(x.get(), -1, -2))
    assert x.mT.base is x
    with pytest.raises(ValueError, match="matrix transpose with ndim < 2 is undefined"):  # NumPy's message
        _ = cp.arange(3).mT
    with pytest.raises(ValueError, match="matrix transpose with ndim < 2 is undefined"):
        _ = cp.asarray(1.0).mT
    with pytest.raises(ValueError, match="cpu"):
        x.to_device("cpu")


@pytest.mark.multi_gpu
def test_to_device_other_gpu_copies():
    x = cp.asarray(make_data((5, 7), np.float64))[::2]
    y = x.to_device(cp.cuda.Device(1))
    assert y.device.id == 1 and x.device.id == 0
    np.testing.assert_array_equal(y.get(), x.get())


_N = 1 << 24  # 64 MiB of float32: long enough for an unordered reader to see partial results


def _slow_fill(x, times):
    for _ in range(times):
        x += 1


class _Published:
    """Another library's array: its __cuda_array_interface__ taken while its stream was current."""

    def __init__(self, x, desc):
        self.x, self.__cuda_array_interface__ = x, desc


@pytest.mark.gpu
def test_cai_import_waits_for_the_producers_stream_as_cupy_does():
    # The import ordered only the stream current at the import after the producer's (an event wait); a program
    # that then read the array on another stream read what the producer had not yet written. CuPy's import waits
    # on the host (CUPY_CUDA_ARRAY_INTERFACE_SYNC), so such a program is right there, and here now.
    s1, s2 = cp.cuda.Stream(non_blocking=True), cp.cuda.Stream(non_blocking=True)
    for _ in range(3):
        with s1:
            x = cp.zeros(_N, dtype=np.float32)
            _slow_fill(x, 50)
            held = _Published(x, x.__cuda_array_interface__)
        y = cp.asarray(held)  # on the null stream
        assert y.data.ptr == x.data.ptr
        with s2:
            least = float(y.min())
        assert least == 50.0


@pytest.mark.gpu
def test_cai_import_inside_a_capture_keeps_the_capture():
    # The host wait queried the capturing stream, which invalidates a capture: inside one, the import orders the
    # current stream on the device instead.
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        # Made on s: a non-blocking stream does not wait for the legacy stream, so an x made there could still be
        # unwritten when the graph reads it.
        x = cp.arange(8, dtype=np.float32)
        y = cp.empty_like(x)
        s.begin_capture()
        cp.multiply(x, 2.0, out=y)
        z = cp.asarray(_Published(y, y.__cuda_array_interface__))  # names s, the capturing stream
        cp.add(z, 1.0, out=y)
        g = s.end_capture()
        g.launch()
    s.synchronize()
    np.testing.assert_array_equal(y.get(), np.arange(8, dtype=np.float32) * 2 + 1)


CAI_NO_SYNC_CHILD = r"""
import numpy as np
import cuarray as cp
from cuarray import _interop

class Published:
    def __init__(self, x, desc):
        self.x, self.__cuda_array_interface__ = x, desc

print("SYNC", _interop._CAI_SYNC, flush=True)
s1 = cp.cuda.Stream(non_blocking=True)
with s1:
    x = cp.zeros(1 << 24, dtype=np.float32)
    for _ in range(50):
        x += 1
    held = Published(x, x.__cuda_array_interface__)
y = cp.asarray(held)  # the current (null) stream waits for s1 on the device
print("MIN", float(y.min()), flush=True)
"""


@pytest.mark.gpu
@pytest.mark.parametrize("variable", ["CUARRAY_CUDA_ARRAY_INTERFACE_SYNC", "CUPY_CUDA_ARRAY_INTERFACE_SYNC"])
def test_cai_import_sync_can_be_turned_off_for_an_event_wait(variable):
    other = ({"CUARRAY_CUDA_ARRAY_INTERFACE_SYNC", "CUPY_CUDA_ARRAY_INTERFACE_SYNC"} - {variable}).pop()
    proc = run_python(code=CAI_NO_SYNC_CHILD, env={variable: "0", other: None}, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert "SYNC False" in proc.stdout and "MIN 50.0" in proc.stdout, describe(proc)


@pytest.mark.parametrize(
    "ours, cupys, expected",
    [
        (None, None, True),
        ("0", None, False),
        ("00", None, False),
        (None, "0", False),
        ("", "0", False),
        ("1", "0", True),
        ("2", None, True),
        ("false", None, True),
        (" 0 ", None, False),
    ],
)
def test_cai_import_sync_setting_is_read_as_cupy_reads_it(monkeypatch, ours, cupys, expected):
    for name, value in (
        ("CUARRAY_CUDA_ARRAY_INTERFACE_SYNC", ours),
        ("CUPY_CUDA_ARRAY_INTERFACE_SYNC", cupys),
    ):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert cp._interop._sync_setting() is expected


def test_cai_import_sync_is_on_by_default():
    code = "from cuarray import _interop; print('SYNC', _interop._CAI_SYNC)"
    env = {"CUARRAY_CUDA_ARRAY_INTERFACE_SYNC": None, "CUPY_CUDA_ARRAY_INTERFACE_SYNC": None}
    proc = run_python(code=code, env=env, timeout=120)
    assert proc.returncode == 0 and "SYNC True" in proc.stdout, describe(proc)


@pytest.mark.gpu
def test_cai_of_pinned_host_memory_is_read_in_place_as_cupy_does():
    # Refused with TypeError; CuPy reads pinned host memory through the device's mapping of it.
    mem = cp.cuda.alloc_pinned_memory(64)
    h = np.frombuffer(mem, np.float32, 16)
    h[:] = np.arange(16)
    desc = {"shape": (4, 4), "typestr": "<f4", "data": (mem.ptr, False), "version": 3, "strides": None}
    y = cp.asarray(_Published(mem, desc))
    assert y.data.ptr == mem.ptr and y.device.id == cp.cuda.Device().id
    np.testing.assert_array_equal((y * 2).get(), np.arange(16, dtype=np.float32).reshape(4, 4) * 2)
    y[0, 0] = 7.0
    cp.cuda.Device().synchronize()
    assert h[0] == 7.0


@pytest.mark.gpu
def test_cai_of_pageable_host_memory_is_a_type_error():
    h = np.arange(4, dtype=np.float32)
    desc = {"shape": (4,), "typestr": "<f4", "data": (h.ctypes.data, False), "version": 3, "strides": None}
    with pytest.raises(TypeError, match="is host memory, not device memory"):
        cp.asarray(_Published(h, desc))


@pytest.mark.gpu
@pytest.mark.parametrize("route", ["from_dlpack", "capsule", "fromDlpack", "interface", "interface_asarray"])
def test_imported_arrays_own_their_memory_as_cupys(route):
    # CuPy 14: an imported array has no base (owndata True) and is the base of its views; its memory outlives
    # the producer's object (Note [Imported arrays own their memory] in python/src/interop.cpp).
    x = cp.arange(12, dtype=cp.float32) * 2
    if route == "from_dlpack":
        y = cp.from_dlpack(x)
    elif route == "capsule":
        y = cp.from_dlpack(x.__dlpack__())
    elif route == "fromDlpack":
        with pytest.warns(np.exceptions.VisibleDeprecationWarning):
            y = cp.fromDlpack(x.toDlpack())
    else:
        producer = _Published(x, x.__cuda_array_interface__)
        y = cp.asarray(producer) if route == "interface_asarray" else cp._interop._device_view(producer)
        del producer
    assert y._ptr == x._ptr  # a view of the producer's memory, not a copy
    assert y.base is None and y.flags.owndata
    v = y[1::3]
    assert v.base is y
    del x
    gc.collect()
    for _ in range(3):  # same-size allocations would reuse the block if it had been freed
        cp.zeros(12, dtype=cp.float32)
    np.testing.assert_array_equal(v.get(), np.arange(12, dtype=np.float32)[1::3] * 2)
