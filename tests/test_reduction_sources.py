"""Every generated reduction kernel compiles with NVRTC for sm_90: each built-in reduction, for every input
dtype NumPy accepts, in each layout. Needs NVRTC, not a GPU, so it runs in CI."""

import numpy
import pytest
from cuarray import _core
from test_kernel_sources import DTYPES, _compile_together

S = _core.jit.sources
NAMES = _core._reduction_names()
# (layout, vec, partial, out_ndim, red_ndim, wide): rows vectorised and split, rows strided, columns split,
# and the finish pass, in narrow and wide index forms.
VARIANTS = [
    (0, 4, True, 1, 1, False),
    (0, 1, False, 2, 3, True),
    (1, 1, True, 1, 2, False),
    (1, 4, False, 1, 1, True),
    (2, 1, False, 3, 1, True),
]


def _signatures(name):
    """(loop types, out loop type, input dtypes, out storage) for each input dtype `name` takes."""
    nin = 2 if name in ("dot", "vdot") else 1
    for dt in DTYPES:
        t = numpy.dtype(dt)
        if name.startswith("nanarg") and t.kind not in "fc":
            continue
        try:
            loops, out_loop, result = _core._reduction_types(name, [t] * nin, None)
        except TypeError:  # the bitwise reductions take bool and integer types only
            assert name.startswith("bitwise") and t.kind in "fcV"
            continue
        yield [str(x) for x in loops], str(out_loop), [dt] * nin, str(result)


@pytest.mark.parametrize("name", NAMES)
def test_reduction_kernels_compile_for_sm90(name):
    kernels = []
    for loops, out_loop, storage, result in _signatures(name):
        for layout, vec, partial, no, nr, wide in VARIANTS:
            v = 16 // numpy.dtype(storage[0]).itemsize if vec > 1 else 1  # as the engine picks it
            v = min(v, 4) if layout == 1 else v
            v = v if v >= 2 else 1
            kernels.append(
                S.reduction(name, loops, out_loop, storage, result, layout, v, partial, no, nr, wide)
            )
    cubin = _compile_together(kernels)
    for _, kname in kernels:
        assert kname.encode() in cubin


def test_reduction_kernel_names_say_what_they_reduce():
    _, name = S.reduction("sum", ["float32"], "float32", ["float32"], "float32", 0, 4, True, 1, 1, False)
    assert name == "red_sum_float32_ofloat32_rv4_1_1_p"
    _, name = S.reduction("argmax", ["int8"], "int64", ["int8"], "int64", 1, 1, False, 2, 1, True)
    assert name == "red_argmax_int8_oint64_c_2_1_w"


def test_unknown_reduction_is_value_error():
    with pytest.raises(ValueError, match="no reduction named"):
        S.reduction("nosuch", ["float32"], "float32", ["float32"], "float32", 0, 1, False, 1, 1, False)
