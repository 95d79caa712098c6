"""Host<->device copies of 256 MiB, pageable and pinned: wall time of the call plus a synchronize.

Pageable is what `asarray(numpy_array)` and `asnumpy(x)` see; pinned host memory comes from the
library's own allocator (`cuda.alloc_pinned_memory` + `np.frombuffer`; `pin_memory()` in PyTorch).
"""

import numpy as np
from harness import GPU_LIBS, Case, at_least, host_random

NBYTES = 256 << 20
N = NBYTES // 4


def _pinned(lib):
    """A pinned host array holding random float32 data."""
    if lib.name == "torch":
        return lib.xp.from_numpy(host_random(N)).pin_memory()
    mem = lib.xp.cuda.alloc_pinned_memory(NBYTES)
    host = np.frombuffer(mem, np.float32, N)  # keeps mem alive
    host[...] = host_random(N)
    return host


def _h2d_pageable(lib):
    host = host_random(N)
    if lib.name == "torch":
        src = lib.xp.from_numpy(host)
        return lambda: src.to("cuda")
    return lambda: lib.xp.asarray(host)


def _h2d_pinned(lib):
    host = _pinned(lib)
    if lib.name == "torch":
        return lambda: host.to("cuda", non_blocking=True)
    return lambda: lib.xp.asarray(host)


def _d2h_pageable(lib):
    dev = lib.rand(N)
    if lib.name == "torch":
        return dev.cpu
    return lambda: lib.xp.asnumpy(dev)


def _d2h_pinned(lib):
    dev, host = lib.rand(N), _pinned(lib)
    if lib.name == "torch":
        return lambda: host.copy_(dev, non_blocking=True)
    return lambda: dev.get(out=host)


def _case(name, make, target=None):
    return Case(name, "transfer", make, "GB/s", timer="sync", work=NBYTES, target=target, libs=GPU_LIBS)


CASES = [
    _case("host->device pageable 256 MiB", _h2d_pageable, at_least(25)),
    _case("device->host pageable 256 MiB", _d2h_pageable, at_least(20)),
    _case("host->device pinned 256 MiB", _h2d_pinned),
    _case("device->host pinned 256 MiB", _d2h_pinned),
]
