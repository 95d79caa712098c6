"""Peer copies: a 1 GiB array copied from GPU i to GPU j, for every ordered pair of visible GPUs.

The copy is what the lesson writes, `with Device(j): b = asarray(a)` for an array `a` of GPU i, timed with
events of GPU j around the call (the destination's allocation comes from its pool after the first call).
Each case checks the copy once against the host data it came from, before timing it: a wrong copy is an
`n/a` with the reason, never a figure. With fewer than two GPUs there is one row, skipped with the count.
"""

import importlib
import itertools

import numpy as np
from harness import CUPY_LIKE, Case, Skip, host_random

NBYTES = 1 << 30
N = NBYTES // 4  # float32


def visible_gpus():
    """The GPUs the libraries will see, asked through cuarray, else CuPy; 0 where neither finds one."""
    for name in CUPY_LIKE:
        try:
            return importlib.import_module(name).cuda.runtime.getDeviceCount()
        except Exception:  # noqa: BLE001, S112 - not installed, no driver, no device: ask the next one
            continue
    return 0


def _free_everywhere(lib, count):
    """Empties the library's pools on every GPU: earlier pairs' arrays stay cached on theirs otherwise."""
    for d in range(count):
        with lib.xp.cuda.Device(d):
            lib.free()


def _check(lib, copy, host, src, dst):
    device = copy.device.id
    if device != dst:
        raise AssertionError(f"GPU {src}->{dst}: the copy is on GPU {device}, not GPU {dst}")
    if not np.array_equal(lib.xp.asnumpy(copy), host):
        raise AssertionError(f"GPU {src}->{dst}: the copied data differ from the source")


def peer_copy(src, dst):
    def make(lib):
        count = lib.xp.cuda.runtime.getDeviceCount()
        if count < 2 or max(src, dst) >= count:
            raise Skip(f"peer copies need 2 GPUs; {lib.label} sees {count}")
        _free_everywhere(lib, count)
        Device, host = lib.xp.cuda.Device, host_random(N)
        with Device(src):
            a = lib.asarray(host)
            Device(src).synchronize()
        with Device(dst):
            start, end = lib.event(), lib.event()

        def copy():
            with Device(dst):
                start.record()
                b = lib.xp.asarray(a)
                end.record()
                end.synchronize()
            return b, lib.elapsed(start, end)

        b, _ = copy()
        _check(lib, b, host, src, dst)
        del b
        return lambda: copy()[1]

    return make


def _case(src, dst):
    return Case(
        f"peer copy GPU {src}->{dst} 1 GiB",
        "multigpu",
        peer_copy(src, dst),
        "GB/s",
        timer="self",
        work=NBYTES,
        libs=CUPY_LIKE,
        reps=(3, 10),
    )


# With fewer than two GPUs, one row (0->1) that is skipped with the count.
CASES = [_case(i, j) for i, j in itertools.permutations(range(visible_gpus()), 2)] or [_case(0, 1)]
