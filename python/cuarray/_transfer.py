"""Moving data between the host and devices: array, asarray, copy, asnumpy, ascontiguousarray, asfortranarray."""

import operator

import numpy

from cuarray import _core, _interop
from cuarray._core import ndarray

__all__ = ["array", "asarray", "ascontiguousarray", "asfortranarray", "asnumpy", "copy"]


def device_array(a, name):
    """`a` as a device array for cuarray.<name>: cuarray arrays as they are, Python scalars and sequences copied
    over. NumPy arrays are refused: moving data is the caller's explicit choice."""
    if isinstance(a, ndarray):
        return a
    if isinstance(a, numpy.ndarray):
        raise TypeError(f"cuarray.{name}: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)")
    return asarray(a)


def _to_current_device(a):
    """`a` itself when it lives on the current device, else a copy made there, device to device (Note [Peer
    copies] in cpp/cuarray/ops/transfer.h)."""
    if a._device_id == _core.cuda.current_device():
        return a
    return _core._copy_from_device(a)


# Objects that are not another library's device array: no protocol look-ups for them.
_NOT_FOREIGN = (ndarray, numpy.ndarray, numpy.generic, list, tuple, int, float, complex)


def array(
    obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *, ndmax=None, blocking=False, like=None
):
    """A device array from a host object (list, scalar, NumPy array), another device array, a CuPy-like object
    (``__cupy_get_ndarray__``) or another library's device array (``__cuda_array_interface__``, else CUDA
    DLPack): a view of a device array on the current device unless a copy or another dtype is asked for, and a
    copy made on the current device of one that lives on another, as CuPy's.
    copy=False never copies (ValueError where it must, as NumPy 2's and CuPy's); None copies when needed.
    `ndmax` (NumPy 2.4's) bounds the dimensions found in nested sequences; arrays keep theirs.
    `blocking` (CuPy's): a copy from host memory has finished when this returns, pinned memory included
    (pageable memory is always read before return). `like` (NumPy's) changes nothing."""
    if ndmax is not None:
        _check_ndmax(ndmax, ndmin)
    if copy is not None and not copy:  # False, 0, numpy.False_: never copy, as NumPy reads them
        out = _asarray_no_copy(obj, dtype, order, None)
    else:
        out = _array(obj, dtype, copy, order)
        if blocking and not _is_device(obj):
            from cuarray.cuda import get_current_stream

            get_current_stream().synchronize()
    if ndmax is not None and out.ndim > ndmax and _is_sequence(obj):
        raise ValueError(
            "setting an array element with a sequence. The requested array would exceed the maximum number of "
            f"dimension of {ndmax}."
        )
    if out.ndim < ndmin:
        out = out.reshape((1,) * (ndmin - out.ndim) + out.shape)
    return out


def _check_ndmax(ndmax, ndmin):
    """NumPy's checks of array(ndmax=): an int within [0, 64], at least ndmin."""
    ndmax = operator.index(ndmax)
    if not 0 <= ndmax <= 64:
        raise ValueError("ndmax must be in the range [0, NPY_MAXDIMS (64)] ")
    if ndmin > ndmax:
        raise ValueError(f"ndmin must be <= ndmax ({ndmax})")


def _is_sequence(obj):
    """Whether array() finds obj's dimensions by walking a nested sequence (not an array of any library)."""
    return not (_is_device(obj) or isinstance(obj, numpy.ndarray) or hasattr(obj, "__array__")) and (
        isinstance(obj, (list, tuple)) or hasattr(obj, "__len__") and hasattr(obj, "__getitem__")
    )


def _is_device(obj):
    return isinstance(obj, ndarray) or _interop._device_operand(obj) is not None


def _array(obj, dtype, copy, order):
    """array() for copy True (always) or None (when needed)."""
    view = None if isinstance(obj, _NOT_FOREIGN) else _interop._device_operand(obj)
    if not copy and isinstance(order, str) and order.upper() == "A":
        order = "K"  # array() without a copy leaves the layout as it is for 'A', where astype's 'A' is C or F
    if isinstance(obj, ndarray) or view is not None:
        obj = obj if view is None else view
        src = _to_current_device(obj)
        moved = src is not obj
        target = src.dtype if dtype is None else dtype
        if isinstance(order, str) and order.upper() == "A" and numpy.dtype(target) != src.dtype:
            order = "K"  # NumPy's array() keeps the layout of a copy that casts, with order='A' as with 'K'
        return src.astype(target, order=order, copy=bool(copy) and not moved)
    order = order.upper() if isinstance(order, str) else order  # NumPy ignores the case
    if order not in ("K", "A", "C", "F", None):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    keep = order in ("K", "A", None)
    try:
        host = (
            obj
            if keep and dtype is None and type(obj) is numpy.ndarray
            else numpy.asarray(obj, dtype=dtype, order=None if keep else order)
        )
    except (TypeError, ValueError):
        # A sequence holding device arrays, built on the device: NumPy asked one of them for __array__
        # (TypeError), or took one without it as an opaque object beside a list (ValueError: inhomogeneous).
        if not isinstance(obj, (list, tuple)) or not _holds_device_array(obj):
            raise
        return _from_nested(obj, dtype, order)
    if host.dtype == object and isinstance(obj, (list, tuple)) and _holds_device_array(obj):
        return _from_nested(obj, dtype, order)  # CuPy-like objects NumPy took as opaque
    return _core._from_numpy(host)


def _holds_device_array(seq):
    return any(_is_device(e) or (isinstance(e, (list, tuple)) and _holds_device_array(e)) for e in seq)


def _from_nested(seq, dtype, order):
    """A device array from nested lists and tuples of device arrays and scalars, as CuPy builds one: the
    elements' own dtypes (Python scalars as NumPy types them in a list) decide the result type, as NumPy's
    array() of the same values on the host; every device array stays on the device."""

    def leaves(obj):
        if isinstance(obj, (list, tuple)):
            for e in obj:
                yield from leaves(e)
        else:
            yield obj

    def device(obj):  # a cuarray array, a CuPy-like object's, another library's device array, or None
        if isinstance(obj, ndarray):
            return obj
        return None if isinstance(obj, _NOT_FOREIGN) else _interop._device_operand(obj)

    if dtype is None:
        dtype = numpy.result_type(
            *[d.dtype if (d := device(e)) is not None else numpy.asarray(e).dtype for e in leaves(seq)]
        )

    def build(obj):
        if (d := device(obj)) is not None:
            return _to_current_device(d).astype(dtype, copy=False)
        if not isinstance(obj, (list, tuple)):
            return _core._from_numpy(numpy.asarray(obj, dtype=dtype))
        parts = [build(e) for e in obj]
        if not parts:
            return _core._from_numpy(numpy.empty(0, dtype))
        if len({p.shape for p in parts}) != 1:
            raise ValueError(
                "setting an array element with a sequence. The requested array has an inhomogeneous "
                f"shape: its elements have the shapes {sorted({p.shape for p in parts})}"
            )
        out = _core.empty((len(parts),) + parts[0].shape, dtype, "C")  # NumPy's stack of parts, all `dtype`
        for i, part in enumerate(parts):
            out[i] = part
        return out

    out = build(seq)
    return out.astype(dtype, order="F") if order == "F" else out


_NO_COPY = "Unable to avoid copy while creating an array as requested."


def asarray(a, dtype=None, order=None, *, device=None, copy=None, blocking=False, like=None):
    """`a` itself when it already is a device array of that dtype on the current device, else a copy.
    ``device`` (a cuarray.cuda.Device or number): the device to put it on instead of the current one.
    ``copy``: True always copies; False never does, raising ValueError where a copy would be needed (host data,
    another dtype or device); None copies when needed. ``blocking``: as array()'s."""
    if (
        type(a) is numpy.ndarray
        and dtype is None
        and order is None
        and copy is None
        and device is None
        and not blocking
    ):
        return _core._from_numpy(a)  # what array() would do, without its checks: 0.3 us of a 6 us call
    order = "K" if order is None else order
    if copy is not None and not copy:  # False, 0, numpy.False_: never copy, as NumPy reads them
        return _asarray_no_copy(a, dtype, order, device)
    copy = True if copy else None
    if device is None:
        return array(a, dtype=dtype, copy=copy, order=order, blocking=blocking)
    with _interop._target_device(device):
        return array(a, dtype=dtype, copy=copy, order=order, blocking=blocking)


def _asarray_no_copy(a, dtype, order, device):
    if isinstance(a, ndarray):
        source = a
    else:
        source = None if isinstance(a, _NOT_FOREIGN) else _interop._device_operand(a)
        if source is None:
            raise ValueError(_NO_COPY + " The data are in host memory.")
    target = source.device if device is None else _interop._target_device(device)
    if target.id != source._device_id:
        raise ValueError(_NO_COPY + f" The data are on device {source._device_id}, not {target.id}.")
    with target:
        out = _array(source, dtype, None, order)
    # another dtype (an empty array's memory is no pointer to compare) or memory order
    if out is not source and (out._ptr != source._ptr or out.dtype != source.dtype):
        raise ValueError(_NO_COPY)
    return out


def copy(a, order="K", subok=False):
    """A new device array with the values of `a` (on the current device)."""
    return array(a, copy=True, order=order)


def asnumpy(a, stream=None, order="C", out=None, *, blocking=True):
    """A NumPy array with the values of `a` (a device array, another library's, or what numpy.asarray takes), in
    `order` ('C', 'F', or 'A': F when `a` is F- but not C-contiguous), copied on `stream` (default: the current
    one). The copy has finished on return, also with blocking=False."""
    if isinstance(a, ndarray):
        return a.get(
            stream, order, out
        )  # by position: keywords cost a 4 KB readback 0.3-0.6 us on an H100 host
    view = None if isinstance(a, _NOT_FOREIGN) else _interop._device_view(a)
    if view is not None:  # another library's device array: copied from its memory, as CuPy's
        return view.get(stream, order, out)
    if out is not None:
        out[...] = a
        return out
    if isinstance(a, numpy.ndarray):
        return a
    return numpy.asarray(a, order=order)


def ascontiguousarray(a, dtype=None, *, like=None):
    """`a` as a C-contiguous device array of at least one dimension (copied only where it is not, or
    `dtype` differs)."""
    a = asarray(a, dtype)
    if a.ndim == 0:
        return a.reshape(1)
    return a if a.flags.c_contiguous else a.copy(order="C")


def asfortranarray(a, dtype=None, *, like=None):
    """`a` as a Fortran-contiguous device array of at least one dimension (copied only where it is not, or
    `dtype` differs)."""
    a = asarray(a, dtype)
    if a.ndim == 0:
        return a.reshape(1)
    return a if a.flags.f_contiguous else a.copy(order="F")
