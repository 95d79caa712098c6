"""RawKernel arguments are checked against the kernel's parameters before the launch (Note [RawKernel arguments]
in cpp/cuarray/jit/kernel_args.h); ElementwiseKernel and ReductionKernel check their argument counts.

The checks and the bytes each parameter receives are tested without a device through _core._pack_kernel_args
(the parameter sizes given instead of asked of the driver); launches with wrong arguments run in a child
process, since a launch that slipped through could crash it."""

import json
import struct

import cuarray as cp
import numpy as np
import pytest
from conftest import describe, run_python

pack = cp._core._pack_kernel_args


# ---- argument counts (no device) -----------------------------------------------------------------------------


@pytest.mark.parametrize("given", [0, 2, 4, 11])
def test_wrong_count_raises_type_error(given):
    args = [np.int32(k) for k in range(given)]
    with pytest.raises(TypeError, match=rf"RawKernel 'twice' takes 3 arguments \({given} given\)"):
        pack("twice", [8, 8, 4], args)


def test_count_of_a_kernel_without_parameters():
    assert pack("nothing", [], []) == []
    with pytest.raises(TypeError, match=r"'nothing' takes 0 arguments \(1 given\)"):
        pack("nothing", [], [1])
    with pytest.raises(TypeError, match=r"'one' takes 1 argument \(2 given\)"):
        pack("one", [4], [1, 2])


# ---- scalars: the bytes each parameter receives (no device) --------------------------------------------------


@pytest.mark.parametrize(
    "value, size, expected",
    [
        (7, 4, struct.pack("<i", 7)),  # a Python int (int64) for an `int`: narrowed, as CuPy's low half reads
        (-7, 4, struct.pack("<i", -7)),
        (2**31, 4, struct.pack("<I", 2**31)),  # fits an unsigned int
        (-(2**31), 4, struct.pack("<i", -(2**31))),
        (300, 2, struct.pack("<h", 300)),
        (255, 1, b"\xff"),
        (-128, 1, b"\x80"),
        (5, 8, struct.pack("<q", 5)),
        (-5, 16, struct.pack("<q", -5) + b"\xff" * 8),  # sign-extended as C converts to a wider integer
        (np.int32(-1), 8, struct.pack("<q", -1)),
        (np.uint32(0xFFFFFFFF), 8, struct.pack("<Q", 0xFFFFFFFF)),  # zero-extended
        (np.int8(-2), 4, struct.pack("<i", -2)),
        (np.uint64(2**64 - 1), 8, b"\xff" * 8),
        (np.int64(-3), 2, struct.pack("<h", -3)),
        (True, 4, struct.pack("<i", 1)),
        (np.bool_(True), 1, b"\x01"),
        (1.5, 8, struct.pack("<d", 1.5)),
        (np.float32(1.5), 4, struct.pack("<f", 1.5)),
        (np.float64(2.25), 8, struct.pack("<d", 2.25)),
        (np.float16(1.0), 2, np.float16(1.0).tobytes()),
        (1 + 2j, 16, struct.pack("<dd", 1, 2)),
        (np.complex64(3 - 1j), 8, struct.pack("<ff", 3, -1)),
    ],
)
def test_scalar_bytes(value, size, expected):
    assert pack("k", [8, size], [np.int64(0), value]) == [struct.pack("<q", 0), expected]


@pytest.mark.parametrize(
    "value, size",
    [
        (2**32, 4),
        (-(2**31) - 1, 4),
        (256, 1),
        (-129, 1),
        (2**16, 2),
        (np.uint64(2**63), 4),
        (np.int64(-200), 1),
    ],
)
def test_integer_that_does_not_fit_raises(value, size):
    with pytest.raises(
        TypeError,
        match=rf"argument 1: the value {int(value)}, a .*, does not fit parameter 1, which takes {size} byte",
    ):
        pack("k", [8, size], [np.int64(0), value])


@pytest.mark.parametrize(
    "value, size, words",
    [
        (np.float64(1.5), 4, "numpy.float64 scalar is 8 bytes, but parameter 1 takes 4 bytes"),
        (1.5, 4, "Python float (float64) is 8 bytes, but parameter 1 takes 4 bytes"),  # CuPy: a garbage float
        (np.float32(1.5), 8, "numpy.float32 scalar is 4 bytes, but parameter 1 takes 8 bytes"),
        (np.float16(1), 4, "is 2 bytes, but parameter 1 takes 4 bytes"),
        (1j, 8, "Python complex (complex128) is 16 bytes, but parameter 1 takes 8 bytes"),
    ],
)
def test_float_of_another_size_raises(value, size, words):
    with pytest.raises(TypeError, match=r"RawKernel 'k' argument 1: ") as e:
        pack("k", [8, size], [np.int64(0), value])
    assert words in str(e.value)
    assert "numpy.float32(x)" in str(e.value)  # how to fix it


def test_structured_scalar_must_match_its_parameter():
    pair = np.zeros((), dtype=[("a", np.float32), ("b", np.int32)])[()]
    assert pack("k", [8], [pair]) == [bytes(8)]
    with pytest.raises(TypeError, match="is 8 bytes, but parameter 0 takes 16 bytes"):
        pack("k", [16], [pair])


@pytest.mark.parametrize("bad", [None, "text", [1, 2], object()])
def test_unsupported_argument_types(bad):
    with pytest.raises(TypeError, match="RawKernel argument 0 has unsupported type"):
        pack("k", [8], [bad])


def test_numpy_array_argument():
    with pytest.raises(TypeError, match=r"numpy.ndarray: pass a cuarray array"):
        pack("k", [8], [np.zeros(3)])


# ---- ElementwiseKernel and ReductionKernel counts (no device: raised before any work) ------------------------


def test_elementwise_kernel_wrong_count():
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_two")
    for args in [(), (1,), (1, 2, 3, 4)]:
        with pytest.raises(
            TypeError,
            match=rf"^Wrong number of arguments for 'add_two'\. It must be either 2 or 3 "
            rf"\(with outputs\), but given {len(args)}\.$",
        ):
            k(*args)


def test_reduction_kernel_wrong_count():
    k = cp.ReductionKernel("T x, T w", "T y", "x * w", "a + b", "y = a", "0", "weighted_sum")
    for args in [(), (1,), (1, 2, 3, 4)]:
        with pytest.raises(
            TypeError,
            match=rf"Wrong number of arguments for weighted_sum: it takes 2 or 3 "
            rf"arguments \({len(args)} given\)",
        ):
            k(*args)


# ---- launches (device; a child process, so that a launch that slipped through cannot take the suite down) ---

CHILD = r"""
import json
import numpy as np
import cuarray as cp

src = r'''
extern "C" __global__ void scale(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}'''
n = 1000
x = cp.arange(n, dtype=np.float32)
y = cp.zeros(n, dtype=np.float32)
kernels = {"raw": cp.RawKernel(src, "scale"), "module": cp.RawModule(code=src).get_function("scale")}
bad = {
    "two": (x, y),  # a SIGSEGV before the check
    "three": (x, y, np.float32(2)),
    "five": (x, y, np.float32(2), np.int32(n), np.int32(0)),
    "eleven": (x, y, np.float32(2), np.int32(n)) + (np.int32(0),) * 7,
    "double_for_float": (x, y, np.float64(2), np.int32(n)),
    "python_float_for_float": (x, y, 2.0, np.int32(n)),
    "array_for_float": (x, y, x, np.int32(n)),
    "int_too_large": (x, y, np.float32(2), 2**40),
}
out = {}
for kname, k in kernels.items():
    for case, args in bad.items():
        try:
            k((4,), (256,), args)
            out[kname + "/" + case] = "launched"
        except TypeError as e:
            out[kname + "/" + case] = "TypeError: " + str(e)
        except Exception as e:
            out[kname + "/" + case] = type(e).__name__ + ": " + str(e)
    # Right arguments, including a Python int for the `int n` parameter (CuPy passes it as an int64) and an
    # address as a Python int for a pointer (x.data.ptr, as CuPy programs pass them).
    y[...] = 0
    k((4,), (256,), (x.data.ptr, y, np.float32(3), n))
    out[kname + "/right"] = bool((y.get() == 3 * np.arange(n, dtype=np.float32)).all())
print("RESULT", json.dumps(out), flush=True)
"""


@pytest.mark.gpu
def test_wrong_arguments_raise_before_the_launch():
    proc = run_python(code=CHILD, timeout=300)
    assert proc.returncode == 0, f"the process died instead of raising\n{describe(proc)}"
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT "))
    out = json.loads(line[len("RESULT ") :])
    for kname in ("raw", "module"):
        assert out[kname + "/right"] is True
        expect = {
            "two": "RawKernel 'scale' takes 4 arguments (2 given)",
            "three": "RawKernel 'scale' takes 4 arguments (3 given)",
            "five": "RawKernel 'scale' takes 4 arguments (5 given)",
            "eleven": "RawKernel 'scale' takes 4 arguments (11 given)",
            "double_for_float": "argument 2: a numpy.float64 scalar is 8 bytes, but parameter 2 takes 4 bytes",
            "python_float_for_float": "argument 2: a Python float (float64) is 8 bytes, but parameter 2 takes 4",
            "array_for_float": "argument 2: a cuarray array (a pointer) is 8 bytes, but parameter 2 takes 4",
            "int_too_large": "argument 3: the value 1099511627776, a Python int (int64), does not fit parameter 3, "
            "which takes 4 bytes",
        }
        for case, words in expect.items():
            got = out[f"{kname}/{case}"]
            assert got.startswith("TypeError: ") and words in got, f"{case}: {got}"
