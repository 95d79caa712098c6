"""One computation spread over the GPUs of this machine with Dask: one worker process per GPU, each seeing
only its own GPU (CUDA_VISIBLE_DEVICES), so the chunks are made, multiplied and reduced where they live.

    pip install "dask[array]" distributed
    python examples/dask_multi_gpu.py [--gpus N] [--rows 2097152] [--cols 16] [--chunk-rows 262144] [--seed 0]
                                      [--gram-rows 4194304] [--gram-cols 2048] [--gram-chunk-rows 65536]
                                      [--repeats 3]

It makes a tall matrix of standard normal samples on the workers' GPUs (the "cuarray" array backend), then
computes its Gram matrix a.T @ a (a blockwise matrix product summed over the row blocks), a column-wise
mean of exp(-a**2 / 2) and its standard deviation, and prints each beside NumPy's result on a host copy of
the same matrix. Then it times the Gram step alone on a larger matrix (64 GiB by default, made on the GPUs
and never copied whole to the host): one warm-up run, then the median of --repeats runs, printed as
throughput, and checks the top-left corner of that Gram matrix against NumPy's. --gram-rows 0 skips the
timing. Exits with status 1 if a result differs from NumPy's, 2 if Dask is missing. With one GPU there is
one worker; --gpus N uses the first N.
"""

import argparse
import json
import logging
import os
import statistics
import sys
import time

import cuarray
import numpy as np

GRAM_MARK = "@@gram "  # the line benchmarks/dask_scaling.py reads the timing from
CORNER = 8  # the Gram step's result is checked against NumPy's on this many columns


def import_dask():
    """Dask's modules, or exit 2 naming what is missing and how to install it."""
    missing = []
    for name in ("dask", "dask.array", "distributed"):
        try:
            __import__(name)
        except ImportError as error:
            missing.append(f"{name} ({error})")
    if missing:
        print("cannot import: " + "; ".join(missing) + '\ninstall them with: pip install "dask[array]" distributed'
              "\n(offline, from wheels in .whl/dask: "
              'pip install --no-index --find-links .whl/dask "dask[array]" distributed)', file=sys.stderr)
        sys.exit(2)
    import cuarray.dask  # noqa: F401 - Dask finds an installed cuarray by entry point; a source tree needs this


def gpu_ids():
    """The GPUs this process sees, named as CUDA_VISIBLE_DEVICES names them to a child process."""
    count = cuarray.cuda.runtime.getDeviceCount()
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is None:
        return [str(i) for i in range(count)]
    return [v.strip() for v in visible.split(",") if v.strip()][:count]


# Note [Worker memory limit]
# Dask sizes a chunk of cuarray by the device memory it holds, and by default limits each worker to its
# share of the host's memory (host memory times its threads over the host's cores). Device chunks
# measured against that limit would be spilled to disk, through the host, or pause the worker, long before
# the GPU is full; so the workers have no memory limit, and the GPUs' own size is the bound.
def one_worker_per_gpu(ids):
    """A local cluster of one single-threaded worker process per GPU; each sees its GPU alone, as device 0.
    Workers preload cuarray.dask, which registers cuarray arrays with Dask there (reductions need it)."""
    from distributed import Nanny, Scheduler, SpecCluster

    worker = {"nthreads": 1, "host": "127.0.0.1", "preload": ["cuarray.dask"], "dashboard": False,
              "silence_logs": logging.WARNING, "memory_limit": 0}
    workers = {f"gpu{gpu}": {"cls": Nanny, "options": {**worker, "env": {"CUDA_VISIBLE_DEVICES": gpu}}}
               for gpu in ids}
    scheduler = {"cls": Scheduler, "options": {"host": "127.0.0.1", "dashboard": False}}
    return SpecCluster(workers=workers, scheduler=scheduler, silence_logs=logging.WARNING)


def worker_gpu():
    """Run on each worker: the GPU it sees."""
    return os.environ.get("CUDA_VISIBLE_DEVICES"), cuarray.cuda.runtime.getDeviceProperties(0)["name"].decode()


def compare(label, gpu, expected, rtol):
    """Prints a result beside NumPy's; True when they agree to `rtol` (relative to NumPy's largest value)."""
    got = cuarray.asnumpy(gpu)
    ok = got.shape == expected.shape
    err = float(np.max(np.abs(got - expected)) / np.max(np.abs(expected))) if ok else np.inf
    ok = ok and err <= rtol
    print(f"{label:<22} GPU {np.ravel(got)[:3]}  NumPy {np.ravel(expected)[:3]}  "
          f"relative difference {err:.1e}  {'ok' if ok else 'MISMATCH'}")
    return ok


def normal_matrix(name, rows, cols, chunk_rows, seed, client):
    """A (rows, cols) float64 matrix of standard normal samples, made and kept on the workers' GPUs."""
    import dask
    import dask.array as da
    from distributed import wait

    with dask.config.set({"array.backend": "cuarray"}):
        a = da.random.default_rng(seed).standard_normal((rows, cols), chunks=(chunk_rows, cols))
    a = a.persist()
    wait(a)
    names = {addr: w["name"] for addr, w in client.scheduler_info()["workers"].items()}
    blocks = {names[addr]: sum(1 for k in keys if isinstance(k, tuple) and k[0] == a.name)
              for addr, keys in client.has_what().items()}
    print(f"{name}: {a.shape} {a.dtype} in {a.numblocks[0]} blocks of {a._meta.__class__.__module__}.ndarray, "
          f"per worker: {dict(sorted(blocks.items()))}")
    return a


def to_host(a):
    """A NumPy copy of a Dask array of cuarray chunks."""
    return a.map_blocks(cuarray.asnumpy, meta=np.empty((0, 0), a.dtype)).compute()


def check_against_numpy(a):
    """The three results on the GPUs beside NumPy's on a host copy; True when all agree."""
    import dask
    import dask.array as da

    start = time.perf_counter()
    gram, gauss, std = dask.compute(a.T @ a, da.exp(-0.5 * a**2).mean(axis=0), a.std())
    kind = f"{type(gram).__module__}.{type(gram).__name__}"
    print(f"computed on the GPUs in {time.perf_counter() - start:.2f} s, results are {kind}")
    host = to_host(a)
    ok = compare("a.T @ a", gram, host.T @ host, 1e-9)
    ok &= compare("mean(exp(-a**2/2), 0)", gauss, np.exp(-0.5 * host**2).mean(axis=0), 1e-9)
    ok &= compare("a.std()", std, np.asarray(host.std()), 1e-9)
    return ok


def time_gram(b, client, repeats):
    """Times b.T @ b: a warm-up run, then `repeats` runs, each until its result is ready on a worker (the copy
    to this process is not timed); prints their median as throughput. True when the last result's top-left
    corner matches NumPy's on a host copy of those columns, and the result is symmetric."""
    from distributed import wait

    times, gram = [], None
    for _ in range(repeats + 1):  # the first is the warm-up: cuBLAS handles, kernels, connections
        if gram is not None:  # the scheduler forgets the result, or the next run would find it computed
            client.cancel(gram)
        start = time.perf_counter()
        gram = client.compute(b.T @ b)
        wait(gram)
        times.append(time.perf_counter() - start)
    times = times[1:]
    median = statistics.median(times)
    workers = len(client.scheduler_info()["workers"])
    rows, cols = b.shape
    flops = 2.0 * rows * cols * cols
    print(f"Gram step b.T @ b, b {b.shape} {b.dtype} ({b.nbytes / 2**30:.2f} GiB) in {b.numblocks[0]} blocks "
          f"on {workers} GPU(s): median {median:.3f} s of {repeats} "
          f"({', '.join(f'{t:.3f}' for t in times)}), {flops / median / 1e12:.2f} TFLOP/s, "
          f"{b.nbytes / median / 1e9:.0f} GB/s of b read")
    k = min(CORNER, cols)
    g = cuarray.asnumpy(gram.result())
    corner = to_host(b[:, :k])
    ok = compare(f"(b.T @ b)[:{k}, :{k}]", g[:k, :k], corner.T @ corner, 1e-9)
    symmetric = bool(np.allclose(g, g.T, rtol=1e-12, atol=1e-12 * np.abs(g).max()))
    print(f"b.T @ b symmetric: {'ok' if symmetric else 'MISMATCH'}")
    record = {"gpus": workers, "rows": rows, "cols": cols, "blocks": b.numblocks[0], "median_s": median,
              "times_s": times, "tflops": flops / median / 1e12, "ok": ok and symmetric}
    print(GRAM_MARK + json.dumps(record), flush=True)
    return ok and symmetric


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gpus", type=int, help="use the first N GPUs (default: all)")
    parser.add_argument("--rows", type=int, default=2**21)
    parser.add_argument("--cols", type=int, default=16)
    parser.add_argument("--chunk-rows", type=int, default=2**18)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gram-rows", type=int, default=2**22, help="rows of the timed Gram step (0: skip)")
    parser.add_argument("--gram-cols", type=int, default=2048)
    parser.add_argument("--gram-chunk-rows", type=int, default=2**16)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of the Gram step, after a warm-up")
    args = parser.parse_args(argv)
    for name in ("rows", "cols", "chunk_rows", "gram_cols", "gram_chunk_rows", "repeats"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.gram_rows < 0:
        parser.error(f"--gram-rows must be 0 (no timing) or more, got {args.gram_rows}")
    if args.gpus is not None and args.gpus < 1:
        parser.error(f"--gpus must be at least 1, got {args.gpus}")
    return parser, args


def main(argv=None):
    parser, args = parse_args(argv)
    import_dask()
    from distributed import Client

    try:
        ids = gpu_ids()
    except cuarray.cuda.CUDARuntimeError as error:
        print(f"no GPU to run on: {error}", file=sys.stderr)
        return 1
    if args.gpus is not None:
        if args.gpus > len(ids):
            parser.error(f"--gpus {args.gpus}: this machine has {len(ids)} GPU(s)")
        ids = ids[: args.gpus]
    print(f"{len(ids)} GPU(s): one Dask worker each")
    with one_worker_per_gpu(ids) as cluster, Client(cluster) as client:
        names = {addr: w["name"] for addr, w in client.scheduler_info()["workers"].items()}
        for addr, (visible, gpu_name) in sorted(client.run(worker_gpu).items(), key=lambda kv: names[kv[0]]):
            print(f"  worker {names[addr]}: CUDA_VISIBLE_DEVICES={visible} ({gpu_name})")
        a = normal_matrix("a", args.rows, args.cols, args.chunk_rows, args.seed, client)
        ok = check_against_numpy(a)
        del a
        if args.gram_rows:
            b = normal_matrix("b", args.gram_rows, args.gram_cols, args.gram_chunk_rows, args.seed + 1, client)
            ok &= time_gram(b, client, args.repeats)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
