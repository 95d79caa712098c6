"""Zero-copy exchange with other GPU libraries, and the array API's namespace basics.

DLPack out (``ndarray.__dlpack__``, ``__dlpack_device__``) and in (``from_dlpack``); views of objects with
``__cuda_array_interface__`` (``asarray`` takes them, preferring it to DLPack as CuPy does). Each side's
streams are handed over as Note [Interop stream hand-off] in cpp/cuarray/interop.h says. Imported arrays are
views of the producer's memory on the producer's device and keep the producer alive; ``asarray`` and ``array``
of an array on another device than the current one copy it to the current device, as CuPy's do. cuarray arrays have no
read-only flag: read-only producer memory (DLPack's READ_ONLY flag, CAI's ``data[1]``) is accepted, and
writing to it is the caller's responsibility.
"""

import operator
import os
import sys
import warnings

import numpy

from cuarray import _core
from cuarray.cuda.device import Device

__all__ = ["fromDlpack", "from_dlpack"]

_kDLCPU, _kDLCUDA, _kDLCUDAHost, _kDLCUDAManaged = 1, 2, 3, 13


def _sync_setting():
    """Whether importing a __cuda_array_interface__ that names a stream waits on the host for that stream (CuPy's
    default) rather than ordering the current stream after it: CUARRAY_CUDA_ARRAY_INTERFACE_SYNC, else CuPy's
    CUPY_CUDA_ARRAY_INTERFACE_SYNC, read as CuPy reads it (an integer, 0 is off), else on; read at import (Note
    [Interop stream hand-off] in cpp/cuarray/interop.h). A value that is no integer leaves it on."""
    for name in ("CUARRAY_CUDA_ARRAY_INTERFACE_SYNC", "CUPY_CUDA_ARRAY_INTERFACE_SYNC"):
        value = os.environ.get(name, "").strip()
        if value:
            try:
                return int(value) != 0
            except ValueError:
                return True
    return True


_CAI_SYNC = _sync_setting()

# Note [Datetime storage] in cpp/cuarray/dtype.h
_TIME_TYPES = (
    "M8[D]",
    "M8[s]",
    "M8[ms]",
    "M8[us]",
    "M8[ns]",
    "m8[D]",
    "m8[h]",
    "m8[m]",
    "m8[s]",
    "m8[ms]",
    "m8[us]",
    "m8[ns]",
)
_SUPPORTED = frozenset(
    numpy.dtype(t)
    for t in (
        "?",
        "i1",
        "i2",
        "i4",
        "i8",
        "u1",
        "u2",
        "u4",
        "u8",
        "f2",
        "f4",
        "f8",
        "c8",
        "c16",
        *_TIME_TYPES,
    )
)
_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")
_HOST_DATA = "; copy host data with cuarray.asarray(numpy.from_dlpack(x))"


# Note [Refusals of two types]
# Where the array API (or NumPy) and CuPy raise different types for the same refusal, cuarray's exception is an
# instance of both, so that a program written for either catches it.
class _DLPackDeviceError(BufferError, TypeError):
    """from_dlpack of an object on the host or a device other than a CUDA GPU: the array API's BufferError,
    CuPy's TypeError."""


class _DLPackCapsuleDeviceError(BufferError, RuntimeError):
    """from_dlpack of a DLPack capsule on the host or a device other than a CUDA GPU: BufferError, and CuPy's
    RuntimeError."""


class _NotDLPackError(TypeError, ValueError):
    """from_dlpack of an object with neither the DLPack protocol nor a capsule (TypeError), and CuPy's
    ValueError; also a __dlpack__ stream that is no integer."""


def _current_stream_arg(device_id):
    """Our current stream on `device_id` as a protocol integer (1: the legacy default stream)."""
    return _core.cuda.current_stream(device_id).ptr or 1


def _check_dlpack_device(kind, error=_DLPackDeviceError):
    if kind in (_kDLCPU, _kDLCUDAHost):
        raise error(
            f"the DLPack tensor is in host memory (DLPack device type {kind}); cuarray.from_dlpack "
            "takes device memory" + _HOST_DATA
        )
    if kind not in (_kDLCUDA, _kDLCUDAManaged):
        raise error(
            f"cuarray imports DLPack tensors on CUDA devices (device type 2 or 13), not device type {kind}"
        )


def _target_device(device):
    """The cuarray.cuda.Device that a `device=` argument names: a Device, or a device number."""
    if isinstance(device, Device):
        return device
    if isinstance(device, str) and device == "cpu":
        raise ValueError(
            "cuarray arrays live on GPUs and cannot be moved to 'cpu'; use x.get() or "
            "cuarray.asnumpy(x) for a NumPy copy"
        )
    if not isinstance(device, (bool, numpy.bool_)):
        try:
            return Device(operator.index(device))
        except TypeError:
            pass
    raise TypeError(f"device must be a cuarray.cuda.Device or a device number, got {device!r}")


def from_dlpack(x, /, *, device=None, copy=None):
    """A cuarray array sharing `x`'s device memory (zero copy), through DLPack: `x` has ``__dlpack__`` and
    ``__dlpack_device__``, or is a "dltensor" PyCapsule. ``copy=True`` returns a copy; ``device`` (a
    cuarray.cuda.Device or device number) another device to copy to, which ``copy=False`` forbids."""
    target = None if device is None else _target_device(device)
    if type(x).__name__ == "PyCapsule":  # a bare capsule: its producer cannot be asked to order streams
        device = _core._dlpack_capsule_device(x)
        if device is not None:
            _check_dlpack_device(device[0], _DLPackCapsuleDeviceError)
            out = _core._from_dlpack(x)
        else:
            try:
                out = _core._from_dlpack(x)  # a consumed capsule: ValueError, as CuPy's
            except TypeError as e:  # a capsule of something else: CuPy's ValueError too
                raise _NotDLPackError(str(e)) from None
    elif hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        kind, device_id = x.__dlpack_device__()
        _check_dlpack_device(kind)
        _core.cuda.check_device(device_id)
        stream = _current_stream_arg(device_id)
        # On the producer's device: a stream argument is one of that device's, and PyTorch checks that it is
        # current there.
        with _target_device(device_id):
            try:
                capsule = x.__dlpack__(stream=stream, max_version=(1, 0))
            except TypeError:  # a producer older than the 2023.12 standard takes no max_version
                capsule = x.__dlpack__(stream=stream)
        out = _core._from_dlpack(capsule)
    else:
        raise _NotDLPackError(
            "from_dlpack takes an object with __dlpack__ and __dlpack_device__, or a DLPack capsule; "
            f"got {type(x).__name__}"
        )
    if target is not None and target.id != out._device_id:
        if copy is False:
            raise ValueError(
                f"from_dlpack: the data is on device {out._device_id}, not {target.id}, and copy=False"
            )
        return _to_device(out, target)
    if copy:
        with out.device:
            return out.copy()
    return out


def fromDlpack(dltensor):
    """CuPy's deprecated form of ``from_dlpack`` for a "dltensor" PyCapsule (from ``ndarray.toDlpack()``): the
    same zero-copy array, with CuPy's VisibleDeprecationWarning."""
    warnings.warn(
        "This function is deprecated and will be removed in a future release. Use the cuarray.from_dlpack() "
        "array constructor instead.",
        numpy.exceptions.VisibleDeprecationWarning,
        stacklevel=2,
    )
    return from_dlpack(dltensor)


def _to_dlpack_deprecated(self):
    """CuPy's deprecated ``ndarray.toDlpack()``: a versioned DLPack capsule ("dltensor_versioned", as CuPy 14
    makes), with CuPy's VisibleDeprecationWarning."""
    warnings.warn(
        "This function is deprecated and will be removed in a future release. Use the cuarray.from_dlpack() "
        "array constructor instead.",
        numpy.exceptions.VisibleDeprecationWarning,
        stacklevel=2,
    )
    return self.__dlpack__(max_version=(1, 0))


def _dtype_of(typestr, descr=None):
    try:
        dt = numpy.dtype(typestr)
    except (TypeError, ValueError):
        raise TypeError(f"__cuda_array_interface__ typestr {typestr!r} is not a NumPy type string") from None
    if dt.kind == "V" and dt.subdtype is None and str(typestr).startswith("|V"):
        # Structured and void types (Note [Void storage] in cpp/cuarray/dtype.h): `descr` names the fields and
        # the padding of a structured one.
        if descr is not None:
            full = numpy.lib.format.descr_to_dtype(descr)
            if full.names and full.itemsize == dt.itemsize:  # not a bare padding entry
                dt = full
        if dt.hasobject:
            raise ValueError(f"cuarray does not support structured types holding Python objects ({dt})")
        return dt
    if not dt.isnative:  # ValueError, as CuPy's: the type exists, the layout is what is refused
        raise ValueError(
            f"__cuda_array_interface__ typestr {typestr!r} has non-native byte order; cuarray reads "
            "native-endian data only"
        )
    if dt not in _SUPPORTED:
        hint = " (bfloat16 has no type string: exchange it through DLPack)" if dt.kind == "V" else ""
        raise TypeError(
            f"cuarray does not support the data type {typestr!r} ({dt}){hint}; supported: bool, "
            "int8-64, uint8-64, float16, float32, float64, complex64, complex128, datetime64[D, s, ms, "
            "us, ns], timedelta64[D, h, m, s, ms, us, ns]"
        )
    return dt


def _caller_stacklevel():
    """The stacklevel of warnings.warn, called by the caller of this function, that names the first frame outside
    the cuarray package: a warning points at the user's line however deep inside cuarray it was raised."""
    package = os.path.dirname(__file__) + os.sep
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level


def _from_cuda_array_interface(obj, desc):
    """A view of the device memory that `desc` (obj's __cuda_array_interface__, v0 to v3) describes, keeping obj
    alive. Every check here runs before any CUDA call."""
    try:
        shape = tuple(operator.index(n) for n in desc["shape"])
        typestr = desc["typestr"]
        ptr, _readonly = desc["data"]
    except KeyError as e:
        raise ValueError(f"__cuda_array_interface__ lacks the required key {e}") from None
    dtype = _dtype_of(typestr, desc.get("descr"))
    if any(n < 0 for n in shape):
        raise ValueError(f"__cuda_array_interface__ shape {shape} has a negative dimension")
    strides = desc.get("strides")
    if strides is not None:
        strides = tuple(operator.index(s) for s in strides)
        if len(strides) != len(shape):
            raise ValueError(f"__cuda_array_interface__ strides {strides} do not match shape {shape}")
    if desc.get("mask") is not None:
        raise ValueError(
            "cuarray does not support masked arrays (__cuda_array_interface__ 'mask' must be None)"
        )
    stream = desc.get("stream")  # v3; None or absent: no synchronization needed
    if stream is not None:
        stream = operator.index(stream)
        if stream == 0:
            # The protocol forbids 0 as ambiguous; CuPy reads it as the legacy default stream, and so does
            # cuarray, with a warning (as for DLPack's stream 0).
            warnings.warn(
                "__cuda_array_interface__ stream 0 is forbidden by the protocol as ambiguous; cuarray assumes "
                "the legacy default stream. Please report this problem to the library that made the array.",
                UserWarning,
                stacklevel=_caller_stacklevel(),
            )
            stream = 1
    ptr = operator.index(ptr)
    if ptr == 0 and 0 not in shape:
        raise ValueError(
            f"__cuda_array_interface__ has a null data pointer for a non-empty array of shape {shape}"
        )
    return _core._from_cuda_array(ptr, shape, strides, dtype, stream, _CAI_SYNC, obj)


def _device_view(obj):
    """A zero-copy view of another library's device array, or None when `obj` is not one."""
    try:
        desc = getattr(obj, "__cuda_array_interface__", None)
    except TypeError:  # a type the interface cannot name (PyTorch's bfloat16): DLPack may still carry it
        if not hasattr(obj, "__dlpack__"):
            raise
        desc = None
    cuda = (_kDLCUDA, _kDLCUDAManaged)
    dlpack = (
        hasattr(obj, "__dlpack__")
        and hasattr(obj, "__dlpack_device__")
        and obj.__dlpack_device__()[0] in cuda
    )
    if desc is not None and not (dlpack and _dlpack_is_safer(desc)):
        return _from_cuda_array_interface(obj, desc)
    if dlpack:
        if desc is None:
            return from_dlpack(obj)
        try:
            return from_dlpack(obj)
        except BufferError:  # a type the producer does not export (CuPy's void types): the interface names it
            return _from_cuda_array_interface(obj, desc)
    return None


# Types never seen as another library's device array (no protocol look-ups for them).
_PLAIN = (numpy.ndarray, numpy.generic, list, tuple, str, bytes, int, float, complex, type(None))


def _device_operand(obj):
    """`obj` as a cuarray array where an operation can read it as one without a host copy, else None: a
    CuPy-like object (``__cupy_get_ndarray__``, CuPy's protocol, which cuarray.poly1d also has), or another
    library's device array (``__cuda_array_interface__`` or CUDA DLPack: a view, as asarray's). Ufuncs, the
    ndarray operators, user kernels and assignments take these besides cuarray arrays and scalars, as CuPy's
    do; only the calls given something else pay for the look-ups."""
    if isinstance(obj, _PLAIN):
        return None
    get = getattr(type(obj), "__cupy_get_ndarray__", None)
    if get is not None:
        out = get(obj)
        if not isinstance(out, _core.ndarray):
            raise TypeError(
                f"{type(obj).__name__}.__cupy_get_ndarray__ returned {type(out).__name__}, not a cuarray.ndarray"
            )
        return out
    return _device_view(obj)


def _as_operands(args):
    """`args` with each CuPy-like object and other library's device array read as a cuarray array (the
    operands of user kernels, as _device_operand says)."""
    return [a if isinstance(a, _core.ndarray) or (d := _device_operand(a)) is None else d for a in args]


def _dlpack_is_safer(desc):
    """Whether a producer's DLPack export beats this interface description: the interface cannot name the
    type (bfloat16 is '<V2'), or it names no stream (v2, as PyTorch's), so a read could overtake the
    producer's pending writes, while DLPack orders the two streams."""
    try:
        kind = numpy.dtype(desc.get("typestr")).kind
    except (TypeError, ValueError):
        return True
    if any(field[0] for field in desc.get("descr") or ()):
        return False  # a structured type, which the interface's descr names and DLPack cannot carry
    return kind == "V" or desc.get("stream") is None


def _dlpack(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
    """A DLPack capsule of this array's memory (a copy's with copy=True), ordered for the consumer's `stream`
    (None or 1: the legacy default stream, 2: the per-thread default stream, -1: no ordering, else a
    cudaStream_t)."""
    versioned = max_version is not None and max_version[0] >= 1
    if dl_device is not None and tuple(dl_device) not in ((_kDLCUDA, self._device_id), _dlpack_device(self)):
        if tuple(dl_device) == (_kDLCPU, 0):  # the host has one device, 0 (CuPy refuses others)
            return _host_dlpack(self, max_version, copy)
        raise BufferError(
            f"cannot export an array on CUDA device {self._device_id} to DLPack device {dl_device}"
        )
    if stream is not None:
        try:
            stream = operator.index(stream)
        except TypeError:
            raise _NotDLPackError(
                f"__dlpack__ stream must be an integer (1: the legacy default stream, 2: the per-thread default "
                f"stream, -1: no ordering, else a cudaStream_t) or None, got {type(stream).__name__}"
            ) from None
    if stream == 0:
        # CuPy's compatibility with consumers that pass 0 for the default stream (older PyTorch): the protocol
        # forbids it as ambiguous, and it is read as the legacy default stream, with a warning.
        warnings.warn(
            "Stream 0 is passed from a library that you are converting to; cuarray assumes 0 as a legacy "
            "default stream. Please report this problem to the library as this violates the DLPack protocol.",
            UserWarning,
            stacklevel=2,
        )
        stream = 1
    src = self
    if copy:
        with self.device:
            src = self.copy()
    if stream is None:
        stream = 1
        current = _core.cuda.current_stream(self._device_id)
        if not current.capturing and _core._dlpack_device_type(src) == _kDLCUDAManaged:
            # A consumer that passes no stream may read managed memory from the host (NumPy does): the work
            # queued on the array's stream (the copy's included) is waited for on the host, as for an export to
            # the CPU.
            current.synchronize()
            stream = -1
    return _core._to_dlpack(src, stream, versioned, bool(copy))


def _host_dlpack(self, max_version, copy):
    """The export to the host (``dl_device=(kDLCPU, 0)``), as CuPy's: for device memory, a DLPack capsule of a
    NumPy copy (``get()``, after the work queued on the array's stream, F-ordered for an F-contiguous array), a
    versioned one flagged as a copy (IS_COPIED); copy=False is a ValueError, since the host cannot read the
    device's memory. Managed memory, which the host reads, is exported in place unless copy=True, once the work
    queued on the current stream is done (Note [Managed memory in DLPack] in cpp/cuarray/interop.h)."""
    versioned = max_version is not None and max_version[0] >= 1
    if not copy and _core._dlpack_device_type(self) == _kDLCUDAManaged:
        _core.cuda.current_stream(self._device_id).synchronize()  # the host reads it next
        return _core._to_dlpack(self, -1, versioned, False)
    if copy is False:
        raise ValueError(
            "cuarray cannot export device memory to the CPU without a copy (copy=False); pass copy=None or True"
        )
    host = self.get(order="A")
    if not versioned:
        return host.__dlpack__()
    # NumPy flags only a capsule it copied for: one more host copy, which the transfer before dwarfs. NumPy 2.0
    # takes neither keyword (its capsules are unversioned).
    try:
        return host.__dlpack__(max_version=max_version, copy=True)
    except TypeError:
        return host.__dlpack__()


def _dlpack_device(self):
    """(kDLCUDA, device), or kDLCUDAManaged for managed memory (Note [Managed memory in DLPack])."""
    return (_core._dlpack_device_type(self), self._device_id)


def _to_device(self, device, /, *, stream=None):
    """This array on `device` (a cuarray.cuda.Device or device number): itself when already there, else a copy there."""
    target = _target_device(device)
    if target.id == self._device_id:
        return self
    with target:
        if stream is None:
            return _core._copy_from_device(self)
        with stream:
            return _core._copy_from_device(self)


def _array_namespace(self, /, *, api_version=None):
    if api_version is not None and api_version not in _API_VERSIONS:
        raise ValueError(
            f"cuarray does not support array API version {api_version!r} (supported: "
            f"{', '.join(_API_VERSIONS)})"
        )
    return sys.modules["cuarray"]  # the package: loaded before any array can exist


def _matrix_transpose(self):
    """``a.mT``: the last two axes swapped (a view); the array API's matrix transpose."""
    if self.ndim < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")  # NumPy's message
    return self.swapaxes(-1, -2)
