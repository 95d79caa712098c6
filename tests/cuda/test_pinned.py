"""Pinned host memory as CuPy has it: PinnedMemory, PinnedMemoryPointer, alloc_pinned_memory,
set_pinned_memory_allocator, and cupyx's empty_pinned, empty_like_pinned, zeros_pinned, zeros_like_pinned."""

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same

gpu = pytest.mark.gpu


@pytest.fixture(autouse=True)
def default_pinned_allocator():
    yield
    cp.cuda.set_pinned_memory_allocator(None)


def test_argument_errors_before_the_device():
    with pytest.raises(OverflowError, match="negative value to size_t"):  # CuPy's: a size_t
        cp.cuda.alloc_pinned_memory(-1)
    with pytest.raises(ValueError, match="negative dimensions"):
        cp.empty_pinned((2, -1))
    with pytest.raises(ValueError, match="order"):
        cp.empty_pinned(3, order="K")
    with pytest.raises(TypeError):
        cp.empty_pinned(2.5)
    with pytest.raises(TypeError, match="callable or None"):
        cp.cuda.set_pinned_memory_allocator(5)
    with pytest.raises(TypeError, match="subok"):
        cp.empty_like_pinned(np.ones(3), subok=True)


def test_a_custom_pinned_allocator_serves_empty_pinned():
    asked = []

    def allocator(nbytes):
        asked.append(nbytes)
        return bytearray(nbytes)  # any object with the buffer protocol

    cp.cuda.set_pinned_memory_allocator(allocator)
    assert cp.cuda.get_pinned_memory_allocator() is allocator
    a = cp.zeros_pinned((3, 4), np.int16)
    assert asked == [24]
    assert type(a) is np.ndarray and a.dtype == np.int16 and a.shape == (3, 4) and not a.any()
    b = cp.empty_like_pinned(np.ones((2, 5), order="F"))
    assert b.flags.f_contiguous and b.shape == (2, 5) and b.dtype == np.float64
    c = cp.zeros_like_pinned(np.ones((2, 5)), dtype=np.complex64, shape=(7,))
    assert c.shape == (7,) and c.dtype == np.complex64 and not c.any()
    assert asked == [24, 80, 56]


@gpu
@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int64, np.float16, np.float32, np.complex128])
@pytest.mark.parametrize("shape", [(), (0,), (1, 5), (4, 3, 2)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_pinned_arrays(dtype, shape, order):
    e = cp.empty_pinned(shape, dtype, order)
    z = cp.zeros_pinned(shape, dtype, order)
    for a in (e, z):
        assert type(a) is np.ndarray and a.shape == shape and a.dtype == dtype
        assert a.flags.c_contiguous if order == "C" else a.flags.f_contiguous
        # Zero bytes are a null PinnedMemory, as in CuPy, and NumPy gives an array over a null buffer memory of
        # its own (no base); every other array lives in the pinned memory.
        assert isinstance(a.base, cp.cuda.PinnedMemoryPointer) if a.nbytes else a.base is None
    np.testing.assert_array_equal(z, np.zeros(shape, dtype))
    like = cp.zeros_like_pinned(np.ones(shape, dtype, order=order))
    assert like.shape == shape and like.dtype == dtype
    assert like.flags.f_contiguous if order == "F" else like.flags.c_contiguous
    # Round trip through the device.
    src = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape).astype(dtype)
    e[...] = src
    assert_same(cp.asarray(e), src)


@gpu
def test_pinned_pointer_and_memory():
    p = cp.cuda.alloc_pinned_memory(4000)
    assert isinstance(p, cp.cuda.PinnedMemoryPointer) and isinstance(p.mem, cp.cuda.PinnedMemory)
    assert p.size() >= 4000 and len(p) == p.size() and p.ptr == p.mem.ptr
    q = cp.cuda.PinnedMemoryPointer(p.mem, 96)
    assert q.ptr == p.ptr + 96 and q.size() == p.size() - 96
    whole = np.frombuffer(p, np.uint8, 200)
    whole[:] = np.arange(200) % 256
    np.testing.assert_array_equal(np.frombuffer(q, np.uint8, 4), [96, 97, 98, 99])  # the same bytes
    with pytest.raises(ValueError, match="past the end"):
        cp.cuda.PinnedMemoryPointer(p.mem, p.mem.size + 1)
    m = cp.cuda.PinnedMemory(100)
    assert m.size >= 100 and m.ptr != 0
    pool_pointer = cp.cuda.PinnedMemoryPool().malloc(10)
    assert isinstance(pool_pointer, cp.cuda.PinnedMemoryPointer) and pool_pointer.size() >= 10
