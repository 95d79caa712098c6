"""`cupy._core._accelerator` for CuPy's tests: CuPy's switches of its CUB and cuTENSOR code paths, kept
as state and checked as CuPy checks them. cuarray has no such paths: with any setting, cuarray's own
kernels compute, and a test still compares their results with NumPy's (a test that asserts CUB was called
fails). The default is no accelerator, which is what cuarray does."""

ACCELERATOR_CUB, ACCELERATOR_CUTENSOR, ACCELERATOR_CUTENSORNET = 1, 2, 3
_NAMES = {"cub": ACCELERATOR_CUB, "cutensor": ACCELERATOR_CUTENSOR, "cutensornet": ACCELERATOR_CUTENSORNET}
_state = {"elementwise": [], "reduction": [], "routine": []}


def _ids(accelerators):
    out = []
    for a in accelerators:
        if not isinstance(a, int) and a not in _NAMES:
            raise ValueError(f"Unknown accelerator: {a}")
        out.append(a if isinstance(a, int) else _NAMES[a])
    return out


def set_elementwise_accelerators(accelerators):
    _state["elementwise"] = _ids(accelerators)


def set_reduction_accelerators(accelerators):
    _state["reduction"] = _ids(accelerators)


def set_routine_accelerators(accelerators):
    _state["routine"] = _ids(accelerators)


def get_elementwise_accelerators():
    return _state["elementwise"]


def get_reduction_accelerators():
    return _state["reduction"]


def get_routine_accelerators():
    return _state["routine"]
