"""cuarray arrays as Dask array chunks (cuarray.dask), each result checked against NumPy's.

The tests at the top need no GPU: registrations, entry points, tokens of empty arrays, pickling's parts,
NumPy's like= dispatch reaching cuarray's functions, the random bit generator, the digest kernel's source.
"""

import importlib
import importlib.util
import inspect
import json
import logging
import pathlib
import pickle
import sys
import types

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
import cuarray as cp
import cuarray.dask
import dask
from conftest import (
    ALL_DTYPES,
    LAYOUT_NAMES,
    describe,
    different_values,
    dtype_id,
    make_data,
    make_pair,
    run_python,
)
from cuarray import _dask_hooks
from dask.base import tokenize
from dask.sizeof import sizeof

ROOT = pathlib.Path(__file__).resolve().parent.parent


# ---- no GPU needed ------------------------------------------------------------------------------


def test_import_cuarray_does_not_import_dask():
    proc = run_python(
        code="import sys, cuarray\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))"
    )
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.strip() == "[]", describe(proc)


def test_chunk_type_and_dispatch_registered():
    from dask.array.backends import array_creation_dispatch
    from dask.array.chunk_types import is_valid_array_chunk, is_valid_chunk_type
    from dask.array.dispatch import (
        concatenate_lookup,
        einsum_lookup,
        empty_lookup,
        numel_lookup,
        take_lookup,
        tensordot_lookup,
        to_numpy_dispatch,
    )

    assert is_valid_chunk_type(cp.ndarray) and not is_valid_array_chunk(object())
    assert concatenate_lookup.dispatch(cp.ndarray) is cp.concatenate
    assert take_lookup.dispatch(cp.ndarray) is cp.take
    assert tensordot_lookup.dispatch(cp.ndarray) is cp.tensordot
    assert einsum_lookup.dispatch(cp.ndarray) is cp.einsum
    assert empty_lookup.dispatch(cp.ndarray) is cp.empty
    assert numel_lookup.dispatch(cp.ndarray) is cuarray.dask._numel
    assert to_numpy_dispatch.dispatch(cp.ndarray) is cp.asnumpy
    assert cuarray.dask.to_cuarray_dispatch.dispatch(np.ndarray) is cp.asarray
    assert sizeof.dispatch(cp.ndarray) is _dask_hooks.nbytes_held
    backend = array_creation_dispatch.dispatch("cuarray")
    assert isinstance(backend, cuarray.dask.CuarrayBackendEntrypoint)
    assert backend.RandomState is cp.random.RandomState
    assert backend.default_bit_generator is cp.random.Philox4x3210


def _entry_points(group):
    tomllib = pytest.importorskip("tomllib")
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["entry-points"][group]


def _resolve(value):
    module, _, attr = value.partition(":")
    return getattr(importlib.import_module(module), attr)


def test_entry_points_in_pyproject_resolve():
    assert _resolve(_entry_points("dask.array.backends")["cuarray"]) is cuarray.dask.CuarrayBackendEntrypoint
    assert _resolve(_entry_points("dask.sizeof")["cuarray"]) is _dask_hooks.register_sizeof


def test_installed_entry_points_match_pyproject():
    from importlib.metadata import entry_points

    for group in ("dask.array.backends", "dask.sizeof"):
        installed = {ep.name: ep.value for ep in entry_points(group=group)}
        if "cuarray" not in installed:
            pytest.skip(f"cuarray is not installed with its entry points (group {group})")
        assert installed["cuarray"] == _entry_points(group)["cuarray"]


def test_register_sizeof_counts_broadcast_axes_once():
    from dask.utils import Dispatch

    d = Dispatch("sizeof")
    _dask_hooks.register_sizeof(d)
    assert d.dispatch(cp.ndarray) is _dask_hooks.nbytes_held
    fake = types.SimpleNamespace(size=24, itemsize=8, shape=(4, 6), strides=(0, 8))  # a row broadcast to 4
    assert _dask_hooks.nbytes_held(fake) == 48
    empty = types.SimpleNamespace(size=0, itemsize=8, shape=(0, 6), strides=(48, 8))
    assert _dask_hooks.nbytes_held(empty) == 0
    assert _dask_hooks.nbytes_held(types.SimpleNamespace(size=1, itemsize=2, shape=(), strides=())) == 2


def test_token_of_an_empty_array_needs_no_device():
    fake = types.SimpleNamespace(_device_id=1, dtype=np.dtype("float32"), shape=(0, 3), size=0)
    assert _dask_hooks.tokenize(fake) == ("cuarray.ndarray", 1, "float32", (0, 3), "")
    assert cp.ndarray.__dask_tokenize__.__name__ == "tokenize"


def test_numel_of_a_full_reduction_is_a_numpy_scalar():
    fake = types.SimpleNamespace(shape=(3, 4), ndim=2)
    n = cuarray.dask._numel(fake, dtype="f8")
    assert type(n) is np.float64 and n == 12
    assert cuarray.dask._numel(types.SimpleNamespace(shape=(), ndim=0)) == 1


def test_reduce_copies_to_the_host_and_rebuilds_with_asarray():
    host = np.arange(6.0).reshape(2, 3)
    fake = types.SimpleNamespace(get=lambda stream=None, order="C": host)  # order "A": F arrays stay F
    rebuild, args = cp.ndarray.__reduce__(fake)
    assert rebuild is cp.asarray and args[0] is host
    assert pickle.loads(pickle.dumps(rebuild)) is cp.asarray


@pytest.mark.nogpu
def test_unpickling_without_a_device_is_cuda_runtime_error():
    rebuild, args = cp.ndarray.__reduce__(
        types.SimpleNamespace(get=lambda stream=None, order="C": np.arange(3))
    )
    with pytest.raises(cp.cuda.CUDARuntimeError):
        rebuild(*args)


class _Recorder:
    """Records the call NumPy hands to __array_function__ for a function called with like=."""

    def __array_function__(self, func, types, args, kwargs):
        return func, args, kwargs


LIKE_CALLS = {
    "empty": lambda like: np.empty((2, 3), dtype=np.float32, like=like),
    "zeros": lambda like: np.zeros(4, like=like),
    "ones": lambda like: np.ones((2, 2), like=like),
    "full": lambda like: np.full((2,), 7, like=like),
    "arange": lambda like: np.arange(1, 10, 2, like=like),
    "eye": lambda like: np.eye(3, like=like),
    "identity": lambda like: np.identity(3, like=like),
    "array": lambda like: np.array([1, 2], like=like),
    "asarray": lambda like: np.asarray([1.5], like=like),
    "ascontiguousarray": lambda like: np.ascontiguousarray([[1]], like=like),
    "asfortranarray": lambda like: np.asfortranarray([[1]], like=like),
}


@pytest.mark.parametrize("name", list(LIKE_CALLS))
def test_creation_functions_take_like(name):
    assert inspect.signature(getattr(cp, name)).parameters["like"].default is None


@pytest.mark.nogpu
@pytest.mark.parametrize("name", list(LIKE_CALLS))
def test_numpy_like_dispatch_reaches_cuarray(name):
    """The arguments NumPy passes on are ones cuarray's function takes: the call gets as far as the device."""
    func, args, kwargs = LIKE_CALLS[name](_Recorder())
    with pytest.raises(cp.cuda.CUDARuntimeError):
        cp.ndarray.__array_function__(None, func, (cp.ndarray,), args, kwargs)


def test_philox_bit_generator_spawns_as_dask_needs():
    bg = cp.random.Philox4x3210(42)
    assert bg.seed == cp.random.Philox4x3210(42).seed != cp.random.Philox4x3210(43).seed
    children = [type(bg)(s) for s in bg._seed_seq.spawn(3)]
    assert len({c.seed for c in children}) == 3
    assert type(children[0]).__module__.split(".")[0] == "cuarray"  # Dask imports the library by this name
    assert tokenize(cp.random.Philox4x3210(7)) == tokenize(cp.random.Philox4x3210(7))
    assert pickle.loads(pickle.dumps(bg)).seed == bg.seed


def test_dask_generator_seeds_each_block_from_the_bit_generator(monkeypatch):
    """Dask's plumbing around cuarray's bit generator, with NumPy drawing the numbers (no device here)."""
    seeds = []

    def default_rng(bit_generator):
        seeds.append(bit_generator.seed)
        return np.random.default_rng(bit_generator.seed)

    monkeypatch.setattr(cp.random, "default_rng", default_rng)
    x = da.random.Generator(cp.random.Philox4x3210(3)).random((40,), chunks=10)
    y = da.random.Generator(cp.random.Philox4x3210(3)).random((40,), chunks=10)
    assert x.name == y.name
    seeds.clear()
    values = x.compute(scheduler="sync")
    assert len(set(seeds)) == 4 and values.shape == (40,)  # a stream of its own for each block
    streams = {s: np.random.default_rng(s).random(10) for s in seeds}
    for block in np.split(values, 4):
        assert any(np.array_equal(block, v) for v in streams.values())


def test_seed_from_a_sequence_of_integers():
    from cuarray.random._sampler import seed_value

    state = np.random.RandomState(0).randint(0, 2**32, size=624, dtype=np.uint32)  # as Dask seeds blocks
    s = seed_value(state)
    assert 0 <= s < 2**64 and s == seed_value(state.copy()) == seed_value(list(state))
    assert s != seed_value(state[::-1].copy())
    with pytest.raises(ValueError):
        seed_value([1, -2])


def test_digest_kernel_body_compiles_for_sm90():
    from cuarray import _core
    from test_kernel_sources import MINIMAL_ONLY, _headers

    src = (
        MINIMAL_ONLY
        + '#include "cuarray/elementwise.cuh"\n'
        + _dask_hooks._MIX
        + 'extern "C" __global__ void digest_test(ca::Raw<double, 1> x, unsigned long long n, '
        "ca::Raw<unsigned long long, 1> h) {\n  typedef double T; typedef unsigned int U;\n"
        "  const long long i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  const ca::Ind<long long> _ind{1 << 18};\n" + _dask_hooks._DIGEST + ";\n}\n"
    )
    cubin = _core.jit.compile(src, "test", [], 90, _headers())
    assert cubin[:4] == b"\x7fELF" and b"digest_test" in cubin


@pytest.mark.nogpu
def test_cuarray_backend_is_dispatched_to_without_a_device():
    with dask.config.set({"array.backend": "cuarray"}), pytest.raises(cp.cuda.CUDARuntimeError):
        da.ones((4, 4), chunks=2)


def _example_module():
    """examples/dask_multi_gpu.py as a module (registered, so in-process workers unpickle its functions)."""
    name = "dask_multi_gpu"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / "dask_multi_gpu.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(scope="module")
def three_workers():
    """A client of three single-threaded in-process workers; NumPy blocks stand in for the GPUs' here."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=3,
        threads_per_worker=1,
        processes=False,
        dashboard_address=None,
        silence_logs=logging.WARNING,
    )
    with cluster, distributed.Client(cluster) as client:
        client.wait_for_workers(
            3, timeout=60
        )  # in-process workers register a moment after the cluster starts
        yield client


def _numpy_b(rows=100, cols=6, chunk_rows=10):
    return da.random.default_rng(5).standard_normal((rows, cols), chunks=(chunk_rows, cols))


def test_gram_step_sums_each_workers_blocks_where_they_are(three_workers):
    ex, client = _example_module(), three_workers
    lazy = _numpy_b()
    expected = lazy.compute()
    b, blocks = ex.place_blocks(lazy, client)
    addrs = ex.workers_by_name(client)
    assert list(blocks) == addrs and [len(f) for f in blocks.values()] == [3, 3, 4]  # even contiguous runs
    assert all([f.key[1] for f in futures] == list(range(len(futures))) for futures in blocks.values())
    np.testing.assert_array_equal(b.compute(), expected)  # the same matrix, its blocks in order
    held = client.who_has([f for futures in blocks.values() for f in futures])
    owner = {f.key: addr for addr, futures in blocks.items() for f in futures}
    assert all(list(where) == [owner[key]] for key, where in held.items())
    [first], [second] = ex.gram_step(client, blocks, 6), ex.gram_step(client, blocks, 6)
    assert first.key != second.key  # a new computation each step, never a result Dask still holds
    assert first.status == second.status == "finished"
    assert list(client.who_has([second])[second.key]) == [addrs[0]]  # summed on the first worker
    np.testing.assert_allclose(second.result(), expected.T @ expected, rtol=1e-12)
    np.testing.assert_array_equal(first.result(), second.result())
    slabs = ex.gram_step(client, blocks, 6, "scatter")  # rows 0:2, 2:4, 4:6, one slab on each worker
    assert [s.status for s in slabs] == ["finished"] * 3 and first.key not in {s.key for s in slabs}
    assert [list(client.who_has([s])[s.key]) for s in slabs] == [[a] for a in addrs]
    assert [s.result().shape for s in slabs] == [(2, 6)] * 3
    np.testing.assert_allclose(np.concatenate([s.result() for s in slabs]), expected.T @ expected, rtol=1e-12)
    [tree] = ex.gram_step(client, blocks, 6, "tree")  # (w0 + w1) on w0, then that + w2 on w0
    assert list(client.who_has([tree])[tree.key]) == [addrs[0]] and tree.key != second.key
    np.testing.assert_allclose(tree.result(), expected.T @ expected, rtol=1e-12)
    held = client.who_has([f for futures in blocks.values() for f in futures])
    assert all(list(where) == [owner[key]] for key, where in held.items())  # no block crossed workers


def test_gram_step_on_one_worker_sums_one_partial(three_workers):
    ex, client = _example_module(), three_workers
    b, blocks = ex.place_blocks(_numpy_b(40, 3), client)
    one = {ex.workers_by_name(client)[0]: [f for futures in blocks.values() for f in futures]}
    [got], [slab] = ex.gram_step(client, one, 3), ex.gram_step(client, one, 3, "scatter")
    [tree] = ex.gram_step(client, one, 3, "tree")
    got, h = got.result(), b.compute()
    np.testing.assert_allclose(got, h.T @ h, rtol=1e-12)
    np.testing.assert_array_equal(slab.result(), got)
    np.testing.assert_array_equal(tree.result(), got)
    assert ex.sum_partials(got) is not got  # the one partial is copied, never handed on to be changed


def test_place_blocks_needs_a_block_per_worker(three_workers):
    with pytest.raises(ValueError, match="2 row blocks, fewer than the 3 workers"):
        _example_module().place_blocks(_numpy_b(20, 3, 10), three_workers)


@pytest.mark.parametrize("reduce", ["one", "scatter", "tree"])
def test_time_gram_checks_against_numpy_and_prints_the_reference(three_workers, capsys, reduce):
    ex = _example_module()
    assert ex.time_gram(_numpy_b(), three_workers, 2, reduce)
    out = capsys.readouterr().out
    assert f"partials summed {ex.REDUCE_WHERE[reduce]}: median" in out
    record = json.loads(next(line for line in out.splitlines() if line.startswith(ex.GRAM_MARK))[7:])
    assert record["ok"] and record["timing_ok"] and record["gpus"] == 3 and len(record["times_s"]) == 2
    assert record["reduce"] == reduce
    assert record["ideal_s"] == pytest.approx(record["reference_block_s"] * 10 / 3)
    assert "reference: one block (10, 6)" in out and "WARNING" not in out and "symmetric: ok" in out


def test_time_gram_fails_a_step_faster_than_the_reference(three_workers, capsys, monkeypatch):
    ex = _example_module()
    monkeypatch.setattr(ex, "time_block_gram", lambda blk: 100.0)  # as if one block took 100 s
    assert not ex.time_gram(_numpy_b(), three_workers, 1)
    out = capsys.readouterr().out
    assert "WARNING: the Gram step took" in out and "was not fully measured" in out
    record = json.loads(next(line for line in out.splitlines() if line.startswith(ex.GRAM_MARK))[7:])
    assert record["ok"] and not record["timing_ok"]  # the values are right, the time is not believed


def test_timing_warning_threshold():
    ex = _example_module()
    assert ex.timing_warning(0.5, 0.55) is None and ex.timing_warning(0.9, 0.55) is None
    assert ex.timing_warning(0.49, 0.55).startswith("WARNING: the Gram step took 0.490 s")
    assert "0.550 s" in ex.timing_warning(0.157, 0.55)


def test_auto_gram_rows_fills_part_of_one_gpu_in_multiples_of_four_blocks():
    ex = _example_module()
    block = 65536 * 2048 * 8  # 1 GiB
    assert ex.auto_gram_rows(141 * 10**9, 2048, 65536) == 76 * 65536  # 78 blocks fit in 60%, down to 76
    assert ex.auto_gram_rows(80 * 2**30, 2048, 65536) == 48 * 65536
    assert ex.auto_gram_rows(block, 2048, 65536) == 4 * 65536  # never fewer than 4 blocks
    assert ex.parse_args(["--gram-rows", "auto"])[1].gram_rows == "auto"
    assert ex.parse_args([])[1].gram_rows == "auto" and ex.parse_args(["--gram-rows", "8"])[1].gram_rows == 8
    assert ex.parse_args([])[1].gram_reduce == "one"
    assert ex.parse_args(["--gram-reduce", "scatter"])[1].gram_reduce == "scatter"


def test_synchronized_passes_host_arrays_through():
    h = np.arange(3.0)
    assert _example_module().synchronized(h) is h


def test_dask_scaling_fails_a_run_faster_than_its_reference(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        scaling = importlib.import_module("dask_scaling")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    record = {"gpus": 1, "median_s": 0.157, "ideal_s": 0.55, "timing_ok": False, "ok": True}
    fake = tmp_path / "example.py"
    fake.write_text(f"import sys\nprint('@@gram ' + {json.dumps(json.dumps(record))})\nsys.exit(1)\n")
    monkeypatch.setattr(scaling, "EXAMPLE", fake)
    got, why = scaling.run_example(1, [], 30)
    assert got == record and why.startswith("WARNING: 0.157 s is faster than one block's reference allows")
    rows = [{"gpus": 1, "record": {**record, "tflops": 1.0, "rows": 8, "cols": 4, "blocks": 2}, "why": why}]
    assert "FAIL: WARNING" in scaling.table(rows) and scaling.goal_line(rows).endswith("not measured")


# ---- on the GPU ---------------------------------------------------------------------------------

DTYPES = [np.dtype(n) for n in ("float64", "float32", "int32", "complex64")]


def assert_dask_result(got, expected, rtol=1e-6):
    """`got` (a Dask collection or its result) computes to a cuarray array with NumPy's values."""
    __tracebackhide__ = True
    if isinstance(got, da.Array):
        assert isinstance(got._meta, cp.ndarray), f"_meta is {type(got._meta)!r}"
        got = got.compute()
    assert isinstance(got, cp.ndarray), f"computed a {type(got)!r}"
    expected = np.asarray(expected)
    assert got.shape == expected.shape and got.dtype == expected.dtype, (got.shape, got.dtype, expected.dtype)
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(got.get(), expected)
    else:
        np.testing.assert_allclose(got.get(), expected, rtol=rtol, atol=rtol)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("chunks", [(4, 5), (3, 7), (12, 10), -1])
def test_from_array_compute_and_meta(dtype, chunks):
    h = make_data((12, 10), dtype)
    x = da.from_array(cp.asarray(h), chunks=chunks, asarray=False)
    assert isinstance(x._meta, cp.ndarray) and x._meta.size == 0 and x._meta.ndim == 2
    assert x.dtype == dtype and "cuarray.ndarray" in repr(x)
    assert_dask_result(x, h)
    assert_dask_result(x[2:9:2, ::-3], h[2:9:2, ::-3])
    assert_dask_result(x.T, h.T)


@pytest.mark.gpu
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_from_array_of_views(layout):
    c, h = make_pair(layout, np.float32)
    chunks = tuple(max(1, n // 2) for n in h.shape)
    assert_dask_result(da.from_array(c, chunks=chunks), h)


@pytest.mark.gpu
def test_map_blocks_and_elementwise():
    ha, hb = make_data((20, 8), np.float64, 1), make_data((20, 8), np.float64, 2)
    a, b = da.from_array(cp.asarray(ha), chunks=(5, 4)), da.from_array(cp.asarray(hb), chunks=(5, 4))
    assert_dask_result(a.map_blocks(lambda blk: blk * 2 + 1), ha * 2 + 1)
    assert_dask_result(a + b * 3 - 1, ha + hb * 3 - 1)
    assert_dask_result(da.sin(a) ** 2 + np.cos(b), np.sin(ha) ** 2 + np.cos(hb))
    assert_dask_result(da.where(a > b, a, -b), np.where(ha > hb, ha, -hb))
    assert_dask_result(a > 0, ha > 0)
    assert_dask_result((a / 4).astype(np.float32), (ha / 4).astype(np.float32))
    assert_dask_result(a + cp.asarray(hb[0]), ha + hb[0])  # a plain device array broadcast over the blocks
    assert_dask_result(cp.asarray(hb[0]) * a, hb[0] * ha)
    assert_dask_result(da.concatenate([a, b], axis=1), np.concatenate([ha, hb], axis=1))
    assert_dask_result(da.stack([a, b]), np.stack([ha, hb]))
    assert_dask_result(a[[0, 7, 19, 3]], ha[[0, 7, 19, 3]])
    assert_dask_result(a.rechunk((7, 3)), ha)


# Not argmax and argmin: Dask's chunks of those hold NumPy structured dtypes, which cuarray has not.
REDUCTIONS = ["sum", "mean", "max", "min", "prod", "var", "std", "any", "all"]


@pytest.mark.gpu
@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(name, axis, keepdims):
    h = make_data((24, 9), np.float64) / 16 + 1  # products stay finite
    x = da.from_array(cp.asarray(h), chunks=(5, 4))
    got, expected = (
        getattr(x, name)(axis=axis, keepdims=keepdims),
        getattr(h, name)(axis=axis, keepdims=keepdims),
    )
    assert_dask_result(got, expected, rtol=1e-10)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
def test_reductions_of_each_dtype(dtype):
    h = make_data((30, 4), dtype)
    x = da.from_array(cp.asarray(h), chunks=(7, 3))
    rtol = 1e-4 if dtype in (np.float32, np.complex64) else 1e-10
    for name in ("sum", "mean", "var"):
        assert_dask_result(getattr(x, name)(axis=0), getattr(h, name)(axis=0), rtol=rtol)
    assert_dask_result(x.sum(), h.sum(), rtol=rtol)


@pytest.mark.gpu
def test_nan_reductions():
    h = make_data((12, 6), np.float64)
    h[::3, 1] = np.nan
    x = da.from_array(cp.asarray(h), chunks=(5, 4))
    for name in ("nansum", "nanmean", "nanmax", "nanvar"):
        assert_dask_result(getattr(da, name)(x, axis=0), getattr(np, name)(h, axis=0), rtol=1e-10)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64], ids=dtype_id)
def test_matmul(dtype):
    ha, hb = make_data((30, 21), dtype, 1), make_data((21, 12), dtype, 2)
    a, b = da.from_array(cp.asarray(ha), chunks=(8, 5)), da.from_array(cp.asarray(hb), chunks=(5, 7))
    rtol = 1e-4 if dtype == np.float32 else 1e-10
    assert_dask_result(a @ b, ha @ hb, rtol=rtol)
    assert_dask_result(a.T @ a, ha.T @ ha, rtol=rtol)
    assert_dask_result(a @ b[:, 0], ha @ hb[:, 0], rtol=rtol)
    assert_dask_result(da.tensordot(a, b, axes=1), np.tensordot(ha, hb, axes=1), rtol=rtol)
    assert_dask_result(da.einsum("ij,jk->ik", a, b), np.einsum("ij,jk->ik", ha, hb), rtol=rtol)


@pytest.mark.gpu
def test_to_backend_both_ways():
    h = make_data((10, 4), np.float32)
    x = da.from_array(cp.asarray(h), chunks=5)
    back = x.to_backend("numpy")
    assert isinstance(back._meta, np.ndarray)
    np.testing.assert_array_equal(back.compute(), h)
    assert_dask_result(da.from_array(h, chunks=5).to_backend("cuarray"), h)


@pytest.mark.gpu
def test_backend_config_makes_cuarray_chunks():
    with dask.config.set({"array.backend": "cuarray"}):
        ones = da.ones((10, 6), chunks=(4, 3), dtype=np.float32)
        zeros, empty = da.zeros((5,), chunks=2), da.empty((3, 3), chunks=2)
        full, arange = da.full((4, 5), 2.5, chunks=3), da.arange(0, 20, 3, chunks=4)
    assert_dask_result(ones, np.ones((10, 6), np.float32))
    assert_dask_result(zeros, np.zeros(5))
    assert isinstance(empty._meta, cp.ndarray) and empty.compute().shape == (3, 3)
    assert_dask_result(full, np.full((4, 5), 2.5))
    assert_dask_result(arange, np.arange(0, 20, 3))
    assert_dask_result(ones.sum(axis=0) + full.mean(), np.full(6, 12.5, np.float64))


@pytest.mark.gpu
def test_backend_random_generator_and_random_state():
    with dask.config.set({"array.backend": "cuarray"}):
        rng = da.random.default_rng(42)
        u = rng.random((4000, 3), chunks=(1000, 3))
        n = da.random.default_rng(42).standard_normal((4000, 3), chunks=(1000, 3))
        n_again = da.random.default_rng(42).standard_normal((4000, 3), chunks=(1000, 3))
        legacy = da.random.RandomState(7).random_sample((300,), chunks=100)
    for arr in (u, n, legacy):
        assert isinstance(arr._meta, cp.ndarray)
    hu, hn, hl = u.compute().get(), n.compute().get(), legacy.compute().get()
    assert hu.shape == (4000, 3) and 0 <= hu.min() and hu.max() < 1 and abs(hu.mean() - 0.5) < 0.02
    assert abs(hn.mean()) < 0.05 and abs(hn.std() - 1) < 0.05
    np.testing.assert_array_equal(hn, n_again.compute().get())  # one seed, one result
    assert not np.array_equal(hn[:1000], hn[1000:2000])  # each block draws its own stream
    assert hl.shape == (300,) and 0 <= hl.min() and hl.max() < 1 and not np.array_equal(hl[:100], hl[100:200])


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_pickle_round_trip(dtype, layout):
    c, h = make_pair(layout, dtype)
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        back = pickle.loads(pickle.dumps(c, protocol=protocol))
        assert isinstance(back, cp.ndarray) and back.dtype == dtype and back.shape == h.shape
        np.testing.assert_array_equal(back.get(), h)
        assert back.data.ptr != c.data.ptr or c.size == 0


@pytest.mark.multi_gpu
def test_unpickling_makes_the_array_on_the_current_device():
    with cp.cuda.Device(1):
        c = cp.arange(10.0)
    data = pickle.dumps(c)
    with cp.cuda.Device(0):
        back = pickle.loads(data)
    assert back.device.id == 0
    np.testing.assert_array_equal(back.get(), np.arange(10.0))


@pytest.mark.gpu
def test_dask_pickles_cuarray_chunks():
    """What dask.distributed does to move a chunk between workers: cloudpickle, with out-of-band buffers."""
    cloudpickle = pytest.importorskip("cloudpickle")
    x = cp.asarray(make_data((50, 3), np.complex64))
    buffers = []
    data = cloudpickle.dumps(x, protocol=5, buffer_callback=buffers.append)
    back = pickle.loads(data, buffers=buffers)
    np.testing.assert_array_equal(back.get(), x.get())


@pytest.fixture
def no_host_copies(monkeypatch):
    """ndarray.get fails for anything larger than the 2-word digest: tokens copy no arrays to the host."""
    real_get = cp.ndarray.get

    def get(self, *args, **kwargs):
        assert self.size <= 2, f"copied a {self.shape} array to the host"
        return real_get(self, *args, **kwargs)

    monkeypatch.setattr(cp.ndarray, "get", get)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_tokenize_stable_and_content_based(dtype, layout, no_host_copies):
    c, h = make_pair(layout, dtype)
    t = tokenize(c)
    assert t == tokenize(c) == tokenize(c.copy())  # the values name it, not the pointer
    if c.size == 0:
        return
    changed, first = c.copy(), (0,) * c.ndim
    changed[first] = cp.asarray(different_values(h[first]))
    assert tokenize(changed) != t
    assert tokenize(c.reshape(-1)) != t or c.ndim == 1  # the shape is part of the name


@pytest.mark.gpu
def test_tokenize_follows_writes_in_place(no_host_copies):
    x = cp.zeros(1000, dtype=np.float32)
    t0 = tokenize(x)
    x[999] = 1
    t1 = tokenize(x)
    x[999] = 0
    assert t0 != t1 and tokenize(x) == t0
    big = cp.ones(3 * 2**20 + 5, dtype=np.int8)  # more words than threads, an odd number of bytes
    tb = tokenize(big)
    big[2**20] = 0
    assert tokenize(big) != tb
    assert tokenize(cp.arange(8.0)) != tokenize(cp.arange(8.0).view(np.int64))  # same bytes, another dtype


@pytest.mark.gpu
def test_from_array_names_by_values(no_host_copies):
    x = cp.arange(20.0)
    assert da.from_array(x, chunks=5).name == da.from_array(x.copy(), chunks=5).name
    assert da.from_array(x, chunks=5).name != da.from_array(x + 1, chunks=5).name


@pytest.mark.gpu
def test_sizeof():
    x = cp.zeros((100, 10), dtype=np.float32)
    assert sizeof(x) == 4000
    assert sizeof(cp.broadcast_to(cp.arange(10.0), (100, 10))) == 80
    assert sizeof(x[:, :0]) == 0


@pytest.mark.gpu
def test_numpy_like_makes_cuarray_arrays():
    like = cp.empty(0)
    for name, call in LIKE_CALLS.items():
        got, expected = call(like), call(None)
        assert isinstance(got, cp.ndarray), name
        np.testing.assert_array_equal(got.get() if name != "empty" else expected, expected, err_msg=name)
    x = cp.arange(6.0).reshape(2, 3)
    for func in (np.empty_like, np.zeros_like, np.ones_like):
        r = func(x, shape=(4,), dtype=np.int32)
        assert isinstance(r, cp.ndarray) and r.shape == (4,) and r.dtype == np.int32
    assert_dask_result(np.full_like(x, 3, shape=(1, 1), dtype="f8"), np.full((1, 1), 3.0))
    assert isinstance(cp.empty(3, like=np.empty(0)), cp.ndarray)


@pytest.mark.gpu
def test_zero_size_meta_operations():
    """What Dask does with a collection's meta (an empty array) to find an operation's result type."""
    h = make_data((4, 3), np.float32)
    meta, hmeta = cp.asarray(h)[:0, :0], h[:0, :0]
    cases = {
        "sum": lambda m: m.sum(),
        "reshape": lambda m: m.reshape((0, 0, 0)),
        "newaxis": lambda m: m[..., None][:0, :0, :0],
        "astype": lambda m: m.astype(np.int16),
        "add": lambda m: m + m,
        "matmul": lambda m: np.matmul(m, m),
        "concatenate": lambda m: np.concatenate([m, m]),
        "sum_keepdims": lambda m: np.sum(m, axis=(0,), keepdims=True),
        "mean": lambda m: np.mean(m, axis=1),
        "ones_like": lambda m: np.ones_like(m, shape=(2,)),
        "broadcast": lambda m: np.broadcast_to(np.ones_like(m, shape=1), (3, 2)),
    }
    for name, op in cases.items():
        got, expected = op(meta), op(hmeta)
        assert isinstance(got, cp.ndarray), name
        assert got.shape == expected.shape and got.dtype == expected.dtype, name
    with pytest.raises(ValueError):
        np.max(meta, axis=0)


@pytest.mark.gpu
def test_backend_found_through_its_entry_point():
    from importlib.metadata import entry_points

    if "cuarray" not in {ep.name for ep in entry_points(group="dask.array.backends")}:
        pytest.skip("cuarray is not installed with its entry points")
    proc = run_python(
        code="import sys, dask, dask.array as da\n"
        "with dask.config.set({'array.backend': 'cuarray'}):\n"
        "    x = da.ones((6, 4), chunks=3)\n"
        "total = float((x * 2).sum().compute())\n"
        "print(type(x._meta).__module__, total, 'cuarray.dask' in sys.modules)"
    )
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.split() == ["cuarray", "48.0", "True"], describe(proc)


@pytest.mark.gpu
def test_first_token_registers_cuarray_with_dask():
    proc = run_python(
        code="import sys, dask.array as da, cuarray as cp\n"
        "assert 'cuarray.dask' not in sys.modules\n"
        "x = da.from_array(cp.arange(12.0), chunks=5)\n"
        "var = float(x.var().compute())\n"
        "mean = float(x.mean().compute())\n"
        "print('cuarray.dask' in sys.modules, mean, abs(var - 143 / 12) < 1e-12)"
    )
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.split() == ["True", "5.5", "True"], describe(proc)


EXAMPLE_SMALL = [
    "--rows",
    "65536",
    "--chunk-rows",
    "8192",
    "--gram-rows",
    "65536",
    "--gram-cols",
    "64",
    "--gram-chunk-rows",
    "8192",
    "--repeats",
    "2",
]


def _gram_record(proc):
    lines = [line for line in proc.stdout.splitlines() if line.startswith("@@gram ")]
    assert len(lines) == 1, describe(proc)
    return json.loads(lines[0][len("@@gram ") :])


@pytest.mark.gpu
def test_multi_gpu_example():
    pytest.importorskip("distributed")
    proc = run_python(str(ROOT / "examples" / "dask_multi_gpu.py"), *EXAMPLE_SMALL, timeout=300)
    assert proc.returncode == 0, describe(proc)
    lines = [line for line in proc.stdout.splitlines() if "relative difference" in line]
    assert len(lines) == 4 and all(line.endswith("ok") for line in lines), describe(proc)
    assert "results are cuarray.ndarray" in proc.stdout and "symmetric: ok" in proc.stdout, describe(proc)
    workers = int(proc.stdout.split(" GPU(s)")[0].split()[-1])
    assert workers == cp.cuda.runtime.getDeviceCount(), describe(proc)
    record = _gram_record(proc)
    assert record["gpus"] == workers and record["ok"] and len(record["times_s"]) == 2, describe(proc)
    assert (record["rows"], record["cols"], record["blocks"]) == (65536, 64, 8), describe(proc)
    assert record["timing_ok"] and min(record["times_s"]) >= 0.9 * record["ideal_s"] > 0, describe(proc)
    assert "reference: one block (8192, 64) blk.T @ blk on one GPU" in proc.stdout, describe(proc)
    placed = eval(proc.stdout.split("b blocks per worker, placed: ")[1].splitlines()[0])
    assert sorted(placed.values()) == sorted(
        8 * i // workers - 8 * (i - 1) // workers for i in range(1, workers + 1)
    ), describe(proc)


@pytest.mark.gpu
def test_example_gram_step_sizes_b_to_one_gpu():
    """--gram-rows auto: b fills 60% of one GPU's memory in whole multiples of 4 blocks; one timed run."""
    pytest.importorskip("distributed")
    proc = run_python(
        str(ROOT / "examples" / "dask_multi_gpu.py"),
        "--gpus",
        "1",
        "--rows",
        "65536",
        "--chunk-rows",
        "8192",
        "--gram-cols",
        "256",
        "--gram-chunk-rows",
        "1048576",
        "--repeats",
        "1",
        timeout=300,
    )
    assert proc.returncode == 0, describe(proc)
    total = cp.cuda.Device(0).mem_info[1]
    blocks = int(0.6 * total // (1048576 * 256 * 8))
    record = _gram_record(proc)
    assert record["blocks"] == blocks - blocks % 4, describe(proc)
    assert record["rows"] == record["blocks"] * 1048576, describe(proc)
    assert record["ok"] and record["timing_ok"], describe(proc)


@pytest.mark.multi_gpu
def test_multi_gpu_example_on_the_first_gpus():
    pytest.importorskip("distributed")
    proc = run_python(
        str(ROOT / "examples" / "dask_multi_gpu.py"), "--gpus", "2", *EXAMPLE_SMALL, timeout=300
    )
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.startswith("2 GPU(s): one Dask worker each"), describe(proc)
    assert sum(line.startswith("  worker gpu") for line in proc.stdout.splitlines()) == 2, describe(proc)
    record = _gram_record(proc)
    assert record["gpus"] == 2 and record["timing_ok"], describe(proc)
    assert "b blocks per worker, placed: {'gpu0': 4, 'gpu1': 4}" in proc.stdout, describe(proc)


@pytest.mark.gpu
def test_multi_gpu_example_refuses_more_gpus_than_there_are():
    pytest.importorskip("distributed")
    count = cp.cuda.runtime.getDeviceCount()
    proc = run_python(str(ROOT / "examples" / "dask_multi_gpu.py"), "--gpus", str(count + 1), timeout=120)
    assert proc.returncode == 2, describe(proc)
    assert f"--gpus {count + 1}: this machine has {count} GPU(s)" in proc.stderr, describe(proc)
