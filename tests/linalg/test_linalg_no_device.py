"""Linear algebra checks that need no GPU (they run in CI): cuBLAS and cuSOLVER load with every function cuarray
calls but not at import, the TF32 switch, and the shape, dtype and subscript logic with NumPy's messages, all
checked before any device call. (The generated kernels compile in tests/test_kernel_sources.py, group "linalg".)"""

import json
import os

import cuarray as cp
import numpy as np
import pytest
from conftest import describe, run_python
from cuarray import _core

MAPS_CHILD = """
import json, cuarray
def loaded():
    with open('/proc/self/maps') as f:
        return sorted({l.split()[-1].rsplit('/', 1)[-1] for l in f if 'libcu' in l})
cuarray.linalg.qr, cuarray.matmul, cuarray.einsum, cuarray.dot  # the Python modules, not the libraries
before = loaded()
try:
    versions = cuarray._core.linalg.library_versions()
except cuarray.cuda.CUDARuntimeError as e:
    versions = str(e)
print(json.dumps({"before": before, "after": loaded(), "versions": versions}))
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="needs Linux /proc/self/maps")
def test_libraries_load_on_first_use_only():
    proc = run_python(code=MAPS_CHILD, timeout=120)
    assert proc.returncode == 0, describe(proc)
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    assert not [p for p in r["before"] if p.startswith(("libcublas", "libcusolver"))], r["before"]
    if isinstance(r["versions"], str):
        assert "could not be loaded" in r["versions"], r["versions"]  # no toolkit here: a clear error
        pytest.skip(r["versions"])
    # Loading resolved every function cuarray calls (a missing one raises, naming it).
    assert r["versions"]["cublas"] >= 130000 and r["versions"]["cusolver"] >= 110000, r["versions"]
    assert any(p.startswith("libcublas.so") for p in r["after"]) and any(
        p.startswith("libcusolver.so") for p in r["after"]
    ), r["after"]


TF32_CHILD = "import cuarray; print(cuarray._core.linalg.tf32())"


@pytest.mark.parametrize(
    "env, on",
    [
        ({}, False),
        ({"CUARRAY_TF32": "1"}, True),
        ({"CUPY_TF32": "1"}, True),
        ({"CUARRAY_TF32": "0", "CUPY_TF32": "0"}, False),
    ],
    ids=str,
)
def test_tf32_switch_is_read_from_the_environment(env, on):
    proc = run_python(code=TF32_CHILD, env={"CUARRAY_TF32": None, "CUPY_TF32": None, **env}, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.strip().splitlines()[-1] == str(on)


COMPUTE_TYPES_CHILD = """
import json, numpy as np, cuarray.linalg as L
first = {t: L.get_compute_type(t) for t in ("float16", "float32", "complex64", "float64", "complex128")}
L.set_compute_type(np.float64, L.COMPUTE_TYPE_PEDANTIC)
L.set_compute_type("float32", L.COMPUTE_TYPE_TF32)
after = [L.get_compute_type(np.complex128), L.get_compute_type(np.complex64), L.get_compute_type(np.float16)]
L.set_compute_type(np.float32, L.COMPUTE_TYPE_TBD)  # unset: the first value again
print(json.dumps({"first": first, "after": after, "reset": L.get_compute_type(np.float32)}))
"""


@pytest.mark.parametrize("env, tf32", [({}, False), ({"CUPY_TF32": "1"}, True)], ids=str)
def test_compute_types(env, tf32):
    """CuPy's per-precision compute types (Note [Compute types] in cpp/cuarray/lib/cublas.h): float32 and
    complex64 share one, float64 and complex128 another; the environment's TF32 switch is float32's first
    value; the setting is the core's, so that matmul reads it (no device needed to read or set it)."""
    proc = run_python(
        code=COMPUTE_TYPES_CHILD, env={"CUARRAY_TF32": None, "CUPY_TF32": None, **env}, timeout=120
    )
    assert proc.returncode == 0, describe(proc)
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    single = cp.linalg.COMPUTE_TYPE_TF32 if tf32 else cp.linalg.COMPUTE_TYPE_DEFAULT
    assert r["first"] == {"float16": 1, "float32": single, "complex64": single, "float64": 1, "complex128": 1}
    assert r["after"] == [cp.linalg.COMPUTE_TYPE_PEDANTIC, cp.linalg.COMPUTE_TYPE_TF32, 1]
    assert r["reset"] == single


def test_compute_type_errors():
    with pytest.raises(TypeError, match="not int32"):
        cp.linalg.get_compute_type(np.int32)
    with pytest.raises(TypeError, match="not bool"):
        cp.linalg.set_compute_type(bool, cp.linalg.COMPUTE_TYPE_DEFAULT)
    for bad in (8, -1):
        with pytest.raises(ValueError, match="Unknown compute type"):
            cp.linalg.set_compute_type(np.float32, bad)
    # CuPy's numbering, which programs pass as numbers too.
    names = ["TBD", "DEFAULT", "PEDANTIC", "FP16", "FP32", "FP64", "BF16", "TF32"]
    assert [getattr(cp.linalg, "COMPUTE_TYPE_" + n) for n in names] == list(range(8))


MATMUL_SHAPES = [
    ((2, 3), (3, 4), None),
    ((3,), (3,), None),
    ((5, 1, 2, 3), (4, 3, 7), None),
    ((3,), (2, 3, 4), None),
    ((2, 2, 3), (3,), None),
    ((0, 3), (3, 4), None),
    ((2, 3), (3, 4), (5, 2, 4)),
    ((3,), (3,), (4,)),
    # errors
    ((2, 3), (2, 3), None),
    ((), (3,), None),
    ((3,), (), None),
    ((), (), None),
    ((3,), (4,), None),
    ((2, 2, 3), (3, 3, 4), None),
    ((2, 4, 3), (5, 3, 3, 2), None),
    ((4,), (2, 4, 5), (3, 5)),
    ((2, 4, 3), (3, 2), (5, 4, 2)),
    ((2, 3), (3, 4), (3, 4)),
    ((2, 3), (3, 4), (2, 5)),
    ((2, 3), (3, 4), (4,)),
    ((2, 3, 4), (4, 5), (3, 5)),
    ((2, 3), (5, 3), None),
    ((3, 4), (4,), (2,)),
]


@pytest.mark.parametrize("a, b, out", MATMUL_SHAPES, ids=str)
def test_matmul_shapes_and_messages_match_numpy(a, b, out):
    kwargs = {} if out is None else {"out": np.empty(out)}
    try:
        want = np.matmul(np.empty(a), np.empty(b), **kwargs).shape
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            _core.linalg.matmul_shapes(a, b, out)
        assert str(got.value) == str(e)
    else:
        assert _core.linalg.matmul_shapes(a, b, out) == (out if out is not None else want)


def test_matmul_output_broadcast_message():
    with pytest.raises(ValueError, match=r"non-broadcastable output operand with shape \(1,3,5\)"):
        _core.linalg.matmul_shapes((2, 3, 4), (4, 5), (1, 3, 5))


@pytest.mark.parametrize(
    "dtype", ["bool", "int8", "uint16", "int64", "float32", "float64", "complex64", "complex128"]
)
def test_linalg_result_dtypes_match_numpy(dtype):
    from cuarray.linalg import _checks

    assert _checks.result_dtype(dtype) == np.linalg.inv(np.eye(2, dtype=dtype)).dtype
    for other in ["float32", "int32", "complex64", "float64"]:
        want = np.linalg.solve(np.eye(2, dtype=dtype), np.ones(2, dtype=other)).dtype
        assert _checks.result_dtype(dtype, other) == want, other


def test_bfloat16_computes_in_float64_as_numpy():
    from cuarray.linalg import _checks

    bf16 = pytest.importorskip("ml_dtypes").bfloat16
    assert _checks.result_dtype(bf16) == np.linalg.inv(np.eye(2, dtype=bf16)).dtype == np.float64


@pytest.mark.parametrize("dtype", ["float16"])
def test_unsupported_dtypes_match_numpy(dtype):
    from cuarray.linalg import _checks

    with pytest.raises(TypeError) as want:
        np.linalg.inv(np.ones((2, 2), dtype=dtype))
    with pytest.raises(TypeError) as got:
        _checks.result_dtype(dtype)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize(
    "a_shape, b_shape", [((2, 2), (3,)), ((2, 2), (3, 1)), ((3, 2, 2), (3, 2)), ((2, 2), ())], ids=str
)
def test_solve_shape_messages_match_numpy(a_shape, b_shape):
    from cuarray.linalg import _checks

    with pytest.raises(ValueError) as want:
        np.linalg.solve(np.ones(a_shape), np.ones(b_shape))
    with pytest.raises(ValueError) as got:
        _checks.check_solve_shapes(a_shape, b_shape)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("shape", [(3,), (), (2, 3), (4, 2, 3)], ids=str)
def test_dimension_and_square_messages_match_numpy(shape):
    from cuarray.linalg import _checks

    try:
        np.linalg.inv(np.ones(shape))
    except np.linalg.LinAlgError as e:
        with pytest.raises(np.linalg.LinAlgError) as got:
            _checks.check_stacked_2d(shape)
            _checks.check_stacked_square(shape)
        assert str(got.value) == str(e)
    with pytest.raises(np.linalg.LinAlgError) as want:
        np.linalg.lstsq(np.ones((2, 2, 2)), np.ones(2))
    with pytest.raises(np.linalg.LinAlgError) as got:
        _checks.check_2d((2, 2, 2), (2,))
    assert str(got.value) == str(want.value)


EINSUM_ERRORS = [
    ("i", [(2, 3)]),
    ("i.j", [(2, 3)]),
    ("i$", [(2, 3)]),
    ("i,j", [(2,)]),
    ("i->i", [(2,), (2,)]),
    ("i-", [(2,)]),
    ("...i->i", [(2, 3)]),
    ("i->ii", [(2,)]),
    ("i->k", [(2,)]),
    ("ijk", [(2, 3)]),
]


@pytest.mark.parametrize("subscripts, shapes", EINSUM_ERRORS, ids=str)
def test_einsum_subscript_errors_match_numpy(subscripts, shapes):
    from cuarray import _einsum

    operands = [np.ones(s) for s in shapes]
    with pytest.raises(ValueError) as want:
        np.einsum(subscripts, *operands)
    with pytest.raises(ValueError) as got:
        _einsum._parse(subscripts, operands)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize(
    "subscripts, shapes, labels, output",
    [
        ("ij,jk->ik", [(2, 3), (3, 4)], [["i", "j"], ["j", "k"]], ["i", "k"]),
        ("ij,jk", [(2, 3), (3, 4)], [["i", "j"], ["j", "k"]], ["i", "k"]),
        ("Ba", [(2, 3)], [["B", "a"]], ["B", "a"]),
        ("ii", [(2, 2)], [["i", "i"]], []),
        ("...ij,...jk", [(5, 2, 3), (3, 4)], [[-1, "i", "j"], ["j", "k"]], [-1, "i", "k"]),
        ("i...j,j...->...i", [(2, 3, 4, 5), (5, 4)], [["i", -2, -1, "j"], ["j", -1]], [-2, -1, "i"]),
    ],
    ids=lambda x: str(x) if isinstance(x, str) else None,
)
def test_einsum_parse(subscripts, shapes, labels, output):
    from cuarray import _einsum

    assert _einsum._parse(subscripts, [np.ones(s) for s in shapes]) == (labels, output)


def test_einsum_interleaved_form():
    from cuarray import _einsum

    assert _einsum._interleaved(("x", [0, 1], "y", [1, Ellipsis], [0]))[0] == "AB,B...->A"
    with pytest.raises(ValueError, match="valid range"):
        _einsum._interleaved(("x", [52]))


def test_public_names():
    for name in ["matmul", "dot", "vdot", "inner", "outer", "tensordot", "kron", "trace", "einsum"]:
        assert callable(getattr(cp, name)), name
    for name in [
        "qr",
        "det",
        "slogdet",
        "inv",
        "solve",
        "lstsq",
        "svd",
        "eigh",
        "eigvalsh",
        "cholesky",
        "matrix_power",
        "matrix_rank",
        "pinv",
        "tensorsolve",
        "tensorinv",
    ]:
        assert callable(getattr(cp.linalg, name)), name
    assert cp.linalg.LinAlgError is np.linalg.LinAlgError
    for method in ["__matmul__", "__rmatmul__", "__imatmul__", "dot", "trace"]:
        assert hasattr(cp.ndarray, method), method
