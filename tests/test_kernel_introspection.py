"""CuPy's introspection attributes of user kernels: `params` (ParameterInfo), `reduce_dims`, `cached_codes` and
`cached_code` (Note [Cached codes] in python/cuarray/_kernel.py) of ElementwiseKernel and ReductionKernel;
RawKernel's function attributes (`binary_version`, `ptx_version`, the two settable ones); RawModule.module
(Note [RawModule.module]); Fusion's `func`, `name` and `new_fusion`. The tests at the top need no GPU: parsing,
attribute presence, and the sources that cached_codes generates, compiled for sm_90."""

import pickle
import warnings

import cuarray as cp
import numpy as np
import pytest
from cuarray import _core
from cuarray._kernel import Function, Module, ParameterInfo
from test_kernel_sources import compile_for_test

F4, F8, I4 = np.dtype("float32"), np.dtype("float64"), np.dtype("int32")
NO_CODES = "No codes are cached because compilation is deferred until the first function call."
SEVERAL = "The input types of the kernel could not be inferred. Please use `.cached_codes` instead."


def _fields(p):
    return (p.name, p.dtype, p.ctype, p.raw, p.is_const)


# ---- params and ParameterInfo (no GPU) ----------------------------------------------------------------------


def test_elementwise_params_are_cupys_parameter_infos():
    k = cp.ElementwiseKernel("float32 x, raw T y", "T z, raw int32 w", "z = x + y[i]; w[i] = 1", "pinfo")
    assert type(k.params) is tuple and type(k.in_params) is tuple and type(k.out_params) is tuple
    assert k.params == k.in_params + k.out_params + k.params[-1:]
    assert [_fields(p) for p in k.params] == [
        ("x", F4, "float", False, True),
        ("y", None, "T", True, True),
        ("z", None, "T", False, False),
        ("w", I4, "int", True, False),
        ("_ind", None, None, False, False),  # CuPy's CIndexer _ind
    ]
    assert all(type(p) is ParameterInfo for p in k.params)


def test_parameter_info_repr_equality_and_hash_as_cupys():
    x = ParameterInfo("float64 x", True)
    assert (
        repr(x) == "<ParameterInfo(name='x' dtype=dtype('float64') ctype='double' raw=False is_const=True)>"
    )
    assert x == ParameterInfo(" float64   x ", True) and hash(x) == hash(ParameterInfo("float64 x", True))
    assert x != ParameterInfo("float64 x", False) and x != ParameterInfo("raw float64 x", True)
    assert len({x, ParameterInfo("float64 x", True), ParameterInfo("float32 x", True)}) == 2


@pytest.mark.parametrize(
    "dtype, ctype",
    [
        ("bool", "bool"),
        ("int8", "signed char"),
        ("uint64", "unsigned long long"),
        ("float16", "float"),  # computed in float (Note [ParameterInfo ctype])
        ("complex64", "complex<float>"),  # Thrust's, as CuPy's (Note [Complex variables in user kernels])
        ("complex128", "complex<double>"),
    ],
)
def test_ctype_is_the_type_of_the_kernels_variable(dtype, ctype):
    (p,) = cp.ElementwiseKernel(f"{dtype} x", "bool z", "z = x", "ctypes").in_params
    assert p.dtype == np.dtype(dtype) and p.ctype == ctype


def test_reduction_params_reduce_dims_and_names():
    k = cp.ReductionKernel("T x, float32 w", "T y", "x * w", "a + b", "y = a", "0", "wsum", reduce_dims=False)
    assert [_fields(p) for p in k.params] == [
        ("x", None, "T", False, True),
        ("w", F4, "float", False, True),
        ("y", None, "T", False, False),
        ("_in_ind", None, None, False, False),
        ("_out_ind", None, None, False, False),
    ]
    assert k.reduce_dims is False and k.__name__ == "wsum"
    assert cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0").reduce_dims is True


def test_elementwise_reduce_dims_kwargs_and_name():
    k = cp.ElementwiseKernel("T x", "T y", "y = x", "ident", reduce_dims=False, options=("-DFOO=1",))
    assert k.reduce_dims is False and k.kwargs == {"options": ("-DFOO=1",)} and k.__name__ == "ident"
    k = cp.ElementwiseKernel("T x", "T y", "y = x")
    assert k.reduce_dims is True and k.kwargs == {} and k.__name__ == "kernel"


@pytest.mark.parametrize(
    "make",
    [
        lambda: cp.ElementwiseKernel("T x", "T y", "y = x", "ew"),
        lambda: cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "red"),
    ],
    ids=["elementwise", "reduction"],
)
def test_cached_codes_before_any_call_as_cupy(make):
    k = make()
    with pytest.warns(UserWarning, match=NO_CODES) as record:
        assert k.cached_codes == {}
    assert record[0].filename == __file__  # the warning names the caller's line
    with pytest.raises(StopIteration), warnings.catch_warnings():
        warnings.simplefilter("error")
        k.cached_code  # noqa: B018  (CuPy's next() of an empty dict)


# ---- cached_codes' sources (no GPU: a first call's record, compiled for sm_90) -------------------------------


def test_elementwise_cached_codes_from_first_calls():
    """The record a first call leaves (Note [Cached codes]) gives the variant's source, keyed by the array
    arguments' dtypes; the first record of a key wins, and cached_code warns where there are several."""
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x * y + x", "codes_fma")
    h4, h8 = k._definition((F4, F4), (F4,), {"T": F4}), k._definition((F8, F8), (F8,), {"T": F8})
    # x and y arrays (contiguous), then x an array and y a scalar (strided over 2 dimensions)
    k._first_calls[((F4, F4), (F4,))] = ((F4, F4, F4), (h4, [F4, F4], [F4], True, 1, 0, [0, 0], [1, 1]))
    k._first_calls[((F8, F8), (F8,))] = ((F8, F8), (h8, [F8, F8], [F8], False, 2, 0, [0, 1], [1, 1]))
    codes = k.cached_codes
    assert list(codes) == [(F4, F4, F4), (F8, F8)]
    for (source, name), code in zip(
        [
            _core._elementwise_source(h4, [F4, F4], [F4], True, 1, 0, [0, 0], [1, 1]),
            _core._elementwise_source(h8, [F8, F8], [F8], False, 2, 0, [0, 1], [1, 1]),
        ],
        codes.values(),
    ):
        assert code == source and "z = x * y + x;" in code
        assert compile_for_test(code, name)[:4] == b"\x7fELF"
    with pytest.warns(UserWarning, match=SEVERAL):
        assert k.cached_code == codes[(F4, F4, F4)]


def test_reduction_cached_codes_from_first_calls():
    k = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "codes_l2")
    h = k._definition((F4,), F4, {"T": F4})
    for layout in (0, 1):  # rows, columns
        k._first_calls = {((F4,), F4): ((F4, F4), (h, [F4], F4, F4, layout, 1, False))}
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            (code,) = k.cached_codes.values()
            assert k.cached_code == code
        assert "x * x" in code and "y = sqrt(a)" in code
        name = _core._reduction_source(h, [F4], F4, F4, layout, 1, False)[1]
        assert name.endswith(("_r_1_1", "_c_1_1")[layout]) and name in code
        assert compile_for_test(code, name)[:4] == b"\x7fELF"


# ---- RawKernel and RawModule attributes (no GPU: presence) --------------------------------------------------


def test_raw_kernel_has_cupys_attributes():
    k = cp.RawKernel('extern "C" __global__ void k(float* x) {}', "k")
    assert k.file_path is None and k.name_expressions is None and k.__name__ == "k"
    for name in ("binary_version", "ptx_version", "cache_mode_ca"):
        prop = getattr(cp.RawKernel, name)
        assert isinstance(prop, property) and prop.fset is None
    for name in ("max_dynamic_shared_size_bytes", "preferred_shared_memory_carveout"):  # settable, as in CuPy
        assert getattr(cp.RawKernel, name).fset is not None
    assert isinstance(cp.RawModule.module, property)
    assert cp.RawKernel(k.code, "k").__getstate__()["file_path"] is None


def test_fusion_has_cupys_attributes():
    def squared_diff(x, y):
        """(x - y) squared."""
        return (x - y) * (x - y)

    f = cp.fuse(squared_diff)
    named = cp.fuse(kernel_name="sq")(squared_diff)
    # CuPy's Fusion: func, name, and new_fusion (its second engine's object after a fallback, None before)
    assert f.func is squared_diff and (f.name, named.name) == ("squared_diff", "sq")
    assert f.new_fusion is None and named.new_fusion is None
    assert f.__wrapped__ is squared_diff and f.__doc__ == squared_diff.__doc__
    assert named.__name__ == "squared_diff"  # functools.update_wrapper, as CuPy's fuse
    assert repr(named) == "<Fusion 'sq'>"


# ---- with a GPU ---------------------------------------------------------------------------------------------

FILL = r"""
extern "C" __global__ void fill(float* x, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v;
}
__device__ int counter = 7;
"""

SHARED = r"""
extern "C" __global__ void stage(const float* x, float* y, int n) {
  extern __shared__ float s[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = x[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = s[n - 1 - i];
}
"""

TEMPLATE = r"""
template<typename T> __global__ void twice(T* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2;
}
"""


@pytest.mark.gpu
def test_elementwise_cached_codes_after_calls():
    k = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = x + y", "add_codes")
    a = cp.arange(6, dtype=cp.float32).reshape(2, 3)
    k(a[:0], a[:0])  # no elements: no kernel, no code, as in CuPy
    with pytest.warns(UserWarning, match=NO_CODES):
        assert k.cached_codes == {}
    k(a, a)
    k(a, 2.0)  # the same loop types: CuPy keeps the first code
    codes = k.cached_codes
    assert list(codes) == [(F4, F4, F4)]
    (code,) = codes.values()
    assert "z = x + y;" in code and k.cached_code == code
    assert "_cv(" in code  # the contiguous class, as the call ran
    k2 = cp.ElementwiseKernel("T x, T y", "T z", "z = x - y", "sub_codes")
    k2(a.T, 1)  # a scalar and a transposed array: the strided class
    (key,) = k2.cached_codes
    assert key == (F4, F4)
    k2(cp.arange(3), cp.arange(3))
    assert list(k2.cached_codes) == [(F4, F4), (np.dtype("int64"),) * 3]
    with pytest.warns(UserWarning, match=SEVERAL):
        assert "z = x - y;" in k2.cached_code


@pytest.mark.gpu
def test_elementwise_cached_codes_with_raw_arguments():
    k = cp.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[_ind.size() - i - 1]", "rev_codes")
    x = cp.arange(5, dtype=cp.float64)
    y = k(x, size=5)
    np.testing.assert_array_equal(y.get(), np.arange(5.0)[::-1])
    ((key, code),) = k.cached_codes.items()
    assert key == (F8, F8) and "ca::Raw<double, 1> in0" in code


@pytest.mark.gpu
def test_reduction_cached_codes_after_calls():
    k = cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "sum_codes")
    m = cp.arange(12, dtype=cp.float32).reshape(3, 4)
    assert float(k(m)) == 66.0
    k(m, axis=0)  # the same loop types: the first call's row kernel stays
    ((key, code),) = k.cached_codes.items()
    assert key == (F4, F4) and "_r_1_1(" in code and k.cached_code == code
    k(cp.ones((3, 4), dtype=cp.float64), axis=0)
    assert "_c_1_1(" in k.cached_codes[(F8, F8)]
    out = cp.empty(4, dtype=cp.int32)
    k(cp.ones((3, 4), dtype=cp.int32), out, axis=0)
    assert (I4, I4) in k.cached_codes


@pytest.mark.gpu
def test_raw_kernel_versions_are_the_attributes():
    k = cp.RawKernel(FILL, "fill")
    attrs = k.attributes
    assert k.binary_version == attrs["binary_version"] == int(cp.cuda.Device().compute_capability)
    assert type(k.ptx_version) is int and k.ptx_version == attrs["ptx_version"] > 0
    assert k.cache_mode_ca == attrs["cache_mode_ca"] in (0, 1)
    assert k.max_dynamic_shared_size_bytes == attrs["max_dynamic_shared_size_bytes"]
    assert k.preferred_shared_memory_carveout == attrs["preferred_shared_memory_carveout"]


@pytest.mark.gpu
def test_raw_kernel_dynamic_shared_memory_past_48_kib():
    """As CuPy's users do: raise max_dynamic_shared_size_bytes, then launch with that much shared memory."""
    n = 20000  # 80,000 bytes of float32
    k = cp.RawKernel(SHARED, "stage")
    k.max_dynamic_shared_size_bytes = n * 4
    assert k.max_dynamic_shared_size_bytes == n * 4 == k.attributes["max_dynamic_shared_size_bytes"]
    x = cp.arange(n, dtype=cp.float32)
    y = cp.empty_like(x)
    k((1,), (256,), (x, y, np.int32(n)), shared_mem=n * 4)
    np.testing.assert_array_equal(y.get(), np.arange(n, dtype=np.float32)[::-1])
    k.preferred_shared_memory_carveout = 50
    assert k.preferred_shared_memory_carveout == 50
    with pytest.raises(cp.cuda.driver.CUDADriverError):
        k.max_dynamic_shared_size_bytes = 1 << 30  # past the device's limit


@pytest.mark.gpu
def test_raw_module_module_as_cupys():
    mod = cp.RawModule(code=FILL)
    m = mod.module
    assert type(m) is Module and m is mod.module and m.mapping is None
    assert type(m.ptr) is int and m.ptr != 0
    f = m.get_function("fill")
    assert type(f) is Function and f.module is m and type(f.ptr) is int and f.ptr != 0
    x = cp.empty(10, dtype=cp.float32)
    f((1,), (32,), (x, np.float32(2.5), np.int32(10)))
    np.testing.assert_array_equal(x.get(), np.full(10, 2.5, np.float32))
    assert m.get_global_var("counter") == mod.get_global("counter").ptr
    with pytest.raises(cp.cuda.driver.CUDADriverError):
        m.get_function("nosuch")
    with pytest.raises(cp.cuda.driver.CUDADriverError):
        m.get_global_var("nosuch")
    back = pickle.loads(pickle.dumps(mod))  # the module is compiled again where it is loaded
    assert back._module is None and back.module.ptr != 0


@pytest.mark.gpu
def test_raw_module_mapping_of_name_expressions():
    names = ["twice<float>", "twice<int>"]
    mod = cp.RawModule(code=TEMPLATE, name_expressions=names)
    m = mod.module
    assert list(m.mapping) == names and all(v.startswith("_Z") for v in m.mapping.values())
    x = cp.arange(4, dtype=cp.int32)
    m.get_function(m.mapping["twice<int>"])((1,), (4,), (x, np.int32(4)))
    np.testing.assert_array_equal(x.get(), [0, 2, 4, 6])


def test_a_body_that_reads_its_output_loads_it():
    """A body that reads an output (y += x, or sets it only where a condition holds) starts from the array's
    element (Note [Outputs a body reads]); one that only assigns it does not, and keeps the contiguous class."""
    reads = cp.ElementwiseKernel("T x", "T y", "if (x > 0) y += x", "codes_accumulate")
    assigns = cp.ElementwiseKernel("T x", "T y", "y = x * 2", "codes_double")
    assert reads._reads_outputs and not assigns._reads_outputs
    h = reads._definition((F4,), (F4,), {"T": F4})
    source, name = _core._elementwise_source(h, [F4], [F4], False, 1)
    assert "float out0 = ca::cast<float>(ca::at<float>(out0_p, off[0]));" in source, source
    assert compile_for_test(source, name)[:4] == b"\x7fELF"
    h = assigns._definition((F4,), (F4,), {"T": F4})
    source, _ = _core._elementwise_source(h, [F4], [F4], False, 1)
    assert "float out0;" in source, source
