"""cuarray.scipy.signal's waveforms without a device: SciPy's names and signatures; gausspulse's cutoff time (a host
scalar); SciPy's argument errors, raised before any device work; the max_len_seq kernels compile for sm_90, and
their bodies, run on the host over the host-side argument handling, give SciPy's sequences and final states."""

import ctypes
import shutil
import subprocess

import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from cuarray import _core
from cuarray.scipy.signal import _waveforms
from signal_asserts import assert_scipy_signatures, same_error
from test_kernel_sources import compile_for_test

NAMES = ["chirp", "gausspulse", "max_len_seq", "sawtooth", "square", "sweep_poly", "unit_impulse"]


def test_names_and_signatures():
    assert_scipy_signatures(sig, ss, NAMES)


@pytest.mark.parametrize(
    "kw",
    [{}, {"fc": 1000.0}, {"fc": 10, "bw": 1, "bwr": -6.0, "tpr": -40}, {"tpr": -60.0}, {"bw": np.float32(2)}],
)
def test_gausspulse_cutoff_is_scipys_host_scalar(kw):
    got, expected = sig.gausspulse("cutoff", **kw), ss.gausspulse("cutoff", **kw)
    assert type(got) is type(expected) is np.float64 and got == expected


T = np.linspace(0, 1, 5)  # a host time: every error below comes before it would be copied to the device


@pytest.mark.parametrize(
    "args,kw",
    [
        (("cutoff",), {"fc": -1}),
        (("cutoff",), {"bw": 0}),
        (("cutoff",), {"bwr": 0}),
        (("cutoff",), {"tpr": 0}),
        (("cut",), {}),
        ((T,), {"fc": -1.5}),
        ((T,), {"bw": -0.25}),
        ((T,), {"bwr": 3}),
    ],
)
def test_gausspulse_errors_are_scipys(args, kw):
    same_error(lambda: sig.gausspulse(*args, **kw), lambda: ss.gausspulse(*args, **kw))


@pytest.mark.parametrize(
    "args",
    [
        (0, 1, 0, "hyperbolic"),
        (1, 1, 0, "hyp"),
        (0, 1, 2, "log"),
        (-1, 1, 2, "logarithmic"),
        (1, 1, 2, "foo"),
        (1, 1, 2, None),
        ("x", 1, 2, "linear"),
    ],
)
def test_chirp_errors_are_scipys(args):
    same_error(lambda: sig.chirp(T, *args), lambda: ss.chirp(T, *args))


@pytest.mark.parametrize(
    "args,kw",
    [
        ((10,), {"state": np.zeros(10)}),
        ((10,), {"state": np.ones(3)}),
        ((10,), {"state": np.ones((2, 5))}),
        ((10,), {"length": -1}),
        ((64,), {}),
        ((1,), {}),
        ((10,), {"taps": [-1, 1]}),
        ((10,), {"taps": [11]}),
        ((10,), {"taps": []}),
        ((0,), {"taps": [0]}),
    ],
)
def test_max_len_seq_errors_are_scipys(args, kw):
    same_error(lambda: sig.max_len_seq(*args, **kw), lambda: ss.max_len_seq(*args, **kw))


def _kernel_source(ring):
    k = _waveforms._mls_kernel(ring)
    i8, i32, i64, u64 = (np.dtype(t) for t in ("int8", "int32", "int64", "uint64"))
    if ring:  # raw taps, three scalars, then the raw outputs seq and state
        ins, kinds = (i32, i32, i32, i64), [2, 1, 1, 1, 2, 2]
        handle = k._definition(ins, (i8, i8), {})
        return _core._elementwise_source(handle, [*ins, i8, i8], [], False, 1, kinds=kinds, raw_ndim=[1] * 6)
    ins = (u64, i32, i64)  # three scalars and the raw output seq; the state is the one iterated output
    handle = k._definition(ins, (i8, u64), {})
    return _core._elementwise_source(
        handle, [*ins, i8], [u64], False, 1, kinds=[1, 1, 1, 2], raw_ndim=[1] * 4
    )


@pytest.mark.parametrize("ring", [False, True])
def test_max_len_seq_kernels_compile_for_sm90(ring):
    src, name = _kernel_source(ring)
    assert compile_for_test(src, name)[:4] == b"\x7fELF"


# The two bodies as host functions: raw arrays as pointers, the iterated state as a reference.
_HARNESS = r"""
static int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
extern "C" void mls(unsigned long long mask, int top, long long length, signed char* seq, unsigned long long* st) {
    unsigned long long& state = *st;
    { REGISTER }
}
extern "C" void mls_ring(const int* taps, int ntaps, int nbits, long long length, signed char* seq,
                         signed char* state) {
    { RING }
}
"""


@pytest.fixture(scope="module")
def host_kernels(tmp_path_factory):
    compiler = shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no C++ compiler to run the kernel bodies on the host")
    d = tmp_path_factory.mktemp("mls_kernels")
    source = _HARNESS.replace("REGISTER", _waveforms._MLS_BODY).replace("RING", _waveforms._MLS_RING_BODY)
    (d / "k.cpp").write_text(source)
    subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", str(d / "k.so"), str(d / "k.cpp")], check=True)
    return ctypes.CDLL(str(d / "k.so"))


def _host_mls(lib, nbits, state, length, taps):
    """max_len_seq's host steps with the kernel bodies run on the host, as max_len_seq runs them on the device."""

    def ptr(a):
        return a.ctypes.data_as(ctypes.c_void_p)

    taps, state, length = _waveforms._mls_arguments(nbits, state, length, taps)
    seq = np.zeros(length, np.int8)
    if nbits <= 64:
        bits = np.array([_waveforms._packed(state)], np.uint64)
        mask = ctypes.c_ulonglong(_waveforms._tap_mask(taps, nbits))
        lib.mls(mask, ctypes.c_int(nbits - 1), ctypes.c_longlong(length), ptr(seq), ptr(bits))
        return seq, ((bits >> np.arange(nbits, dtype=np.uint64)) & np.uint64(1)).astype(np.int8)
    taps32, state = taps.astype(np.int32), state.copy()
    lib.mls_ring(ptr(taps32), ctypes.c_int(taps32.size), ctypes.c_int(nbits), ctypes.c_longlong(length), ptr(seq),
                 ptr(state))  # fmt: skip
    return seq, np.roll(state, -(length % nbits))


ALT_TAPS = {1: [1], 2: [1], 3: [2], 4: [3], 5: [4, 3, 2], 6: [5, 4, 1], 7: [4], 8: [7, 5, 3]}


def test_kernel_bodies_give_scipys_sequences(host_kernels):
    rng = np.random.default_rng(0)
    cases = 0
    for nbits in [*range(1, 17), 20, 31, 32, 64, 65, 70, 100]:
        for state_kind, taps_kind in [
            (s, t) for s in (None, "random") for t in (None, "custom", "coinciding")
        ]:
            if taps_kind is None and nbits not in _waveforms._mls_taps:
                continue
            taps = {
                None: None,
                "custom": ALT_TAPS.get(nbits, [nbits - 1, 1]),
                "coinciding": [0, nbits, nbits - 1],
            }
            taps = taps[taps_kind]
            state = None
            if state_kind:
                state = rng.integers(0, 2, nbits) * rng.uniform(0.5, 2, nbits)
                state[0] = 1
            lengths = (0, 1, 5, 1000) if nbits > 16 else (None, 0, 1, 5, 2**nbits + 3)
            for length in lengths:
                expected = ss.max_len_seq(nbits, state=state, length=length, taps=taps)
                got = _host_mls(host_kernels, nbits, state, length, taps)
                for g, e in zip(got, expected):
                    assert g.dtype == e.dtype == np.int8 and g.shape == e.shape
                    np.testing.assert_array_equal(g, e, err_msg=f"{nbits} {state_kind} {taps_kind} {length}")
                cases += 1
    assert cases > 300
