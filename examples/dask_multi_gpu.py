"""One computation spread over the GPUs of this machine with Dask: one worker process per GPU, each seeing
only its own GPU (CUDA_VISIBLE_DEVICES), so the chunks are made, multiplied and reduced where they live.

    pip install "dask[array]" distributed
    python examples/dask_multi_gpu.py [--gpus N] [--rows 2097152] [--cols 16] [--chunk-rows 262144] [--seed 0]
                                      [--gram-rows auto] [--gram-cols 2048] [--gram-chunk-rows 65536]
                                      [--gram-reduce one|scatter|tree]
                                      [--gram-size fixed|per-gpu] [--repeats 3]

It makes a tall matrix of standard normal samples on the workers' GPUs (the "cuarray" array backend), then
computes its Gram matrix a.T @ a (a blockwise matrix product summed over the row blocks), a column-wise
mean of exp(-a**2 / 2) and its standard deviation, and prints each beside NumPy's result on a host copy of
the same matrix. Then it times the Gram step alone on a larger matrix b (by default as many rows as fill
60% of one GPU's memory, so 1, 2 or 4 GPUs share the same matrix; made on the GPUs and never copied whole
to the host): each worker sums the Gram matrices of the blocks it holds and one worker sums those (or,
with --gram-reduce scatter, each worker sums one slab of rows of the result; with tree, pairs of workers
sum theirs, in rounds). With --gram-size per-gpu, b has that many rows on each GPU (weak scaling). It
prints one block's synchronised Gram time on one GPU as a reference, then one warm-up run and the median of
--repeats runs as throughput, and checks the top-left corner of that Gram matrix against NumPy's.
--gram-rows 0 skips the timing. Exits with status 1 if a result differs from NumPy's or the Gram step was
faster than the reference allows, 2 if Dask is missing. With one GPU there is one worker; --gpus N uses
the first N.
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
        print(
            "cannot import: "
            + "; ".join(missing)
            + '\ninstall them with: pip install "dask[array]" distributed'
            "\n(offline, from wheels in .whl/dask: "
            'pip install --no-index --find-links .whl/dask "dask[array]" distributed)',
            file=sys.stderr,
        )
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

    worker = {
        "nthreads": 1,
        "host": "127.0.0.1",
        "preload": ["cuarray.dask"],
        "dashboard": False,
        "silence_logs": logging.WARNING,
        "memory_limit": 0,
    }
    workers = {
        f"gpu{gpu}": {"cls": Nanny, "options": {**worker, "env": {"CUDA_VISIBLE_DEVICES": gpu}}}
        for gpu in ids
    }
    scheduler = {"cls": Scheduler, "options": {"host": "127.0.0.1", "dashboard": False}}
    return SpecCluster(workers=workers, scheduler=scheduler, silence_logs=logging.WARNING)


def worker_gpu():
    """Run on each worker: the GPU it sees."""
    return os.environ.get("CUDA_VISIBLE_DEVICES"), cuarray.cuda.runtime.getDeviceProperties(0)[
        "name"
    ].decode()


def compare(label, gpu, expected, rtol):
    """Prints a result beside NumPy's; True when they agree to `rtol` (relative to NumPy's largest value)."""
    got = cuarray.asnumpy(gpu)
    ok = got.shape == expected.shape
    err = float(np.max(np.abs(got - expected)) / np.max(np.abs(expected))) if ok else np.inf
    ok = ok and err <= rtol
    print(
        f"{label:<22} GPU {np.ravel(got)[:3]}  NumPy {np.ravel(expected)[:3]}  "
        f"relative difference {err:.1e}  {'ok' if ok else 'MISMATCH'}"
    )
    return ok


def normal_array(rows, cols, chunk_rows, seed):
    """A lazy (rows, cols) float64 Dask array of standard normal samples in cuarray chunks."""
    import dask
    import dask.array as da

    with dask.config.set({"array.backend": "cuarray"}):
        return da.random.default_rng(seed).standard_normal((rows, cols), chunks=(chunk_rows, cols))


def normal_matrix(name, rows, cols, chunk_rows, seed, client):
    """A (rows, cols) float64 matrix of standard normal samples, made and kept on the workers' GPUs."""
    from distributed import wait

    a = normal_array(rows, cols, chunk_rows, seed).persist()
    wait(a)
    names = {addr: w["name"] for addr, w in client.scheduler_info()["workers"].items()}
    blocks = {
        names[addr]: sum(1 for k in keys if isinstance(k, tuple) and k[0] == a.name)
        for addr, keys in client.has_what().items()
    }
    print(
        f"{name}: {a.shape} {a.dtype} in {a.numblocks[0]} blocks of {a._meta.__class__.__module__}.ndarray, "
        f"per worker: {dict(sorted(blocks.items()))}"
    )
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


# Note [Locality-aware Gram step]
# b.T @ b through Dask's own graph sums the blocks' (cols x cols) products in a tree that ignores where
# the blocks live, so with several workers most partial products cross between workers over TCP. Here
# b's blocks are placed deliberately (an even, contiguous run per worker), each worker sums the Gram
# matrices of the blocks it holds in one task pinned to it, and one worker sums the N partials: N - 1
# transfers of one (cols x cols) matrix per step, whatever the number of blocks. With --gram-reduce
# scatter, each worker instead sums one slab of rows (cols / N of them) of the result: every worker sends
# and receives (N - 1) / N of a matrix at the same time, so no one worker takes in N - 1 whole ones, at
# the cost of N slicing tasks per worker; the result is then the N slabs, one on each worker. With
# --gram-reduce tree, partials are summed in pairs (worker 2k takes in worker 2k+1's, then 4k takes in
# 4k+2's, ...): log2(N) rounds of one transfer into each receiving worker, at the same time, in place of
# N - 1 transfers into one worker, one after another.
#
# With --gram-size per-gpu, b has as many rows per GPU as the auto size gives one GPU (weak scaling):
# every GPU does a one-GPU run's work, and the fixed costs of a step (scheduling, the partials' transfers)
# weigh less than when 4 GPUs share one GPU's matrix (strong scaling, the default). Both report throughput.
#
# A task that only queues GPU work finishes before the GPU does, and Dask reuses a result whose key it
# has seen. So each task waits for its device before returning, and every repeat submits tasks with
# fresh keys (pure=False): the timed step is the whole computation, from the submit to the sum existing
# on a worker. A sanity reference times one block's Gram on one GPU, synchronised; a Dask time more
# than REFERENCE_SLACK faster than the blocks' reference time over the GPUs has not measured the step.

REFERENCE_SLACK = 0.10  # a step this much faster than the one-block reference allows is not believed
GRAM_MEMORY_FRACTION = 0.6  # auto-sized b takes this much of one GPU's memory
REDUCE_WHERE = {
    "one": "on one worker",
    "scatter": "in one slab of rows per worker",
    "tree": "in pairs, log2(workers) rounds",
}


def synchronized(x):
    """`x`, once the work queued on its device has finished (NumPy arrays, which stand in for tests, as
    they are)."""
    if isinstance(x, cuarray.ndarray):
        x.device.synchronize()
    return x


def gram_of_blocks(*blocks):
    """Run on a worker: the sum of blk.T @ blk over the blocks it holds, computed."""
    total = blocks[0].T @ blocks[0]
    for blk in blocks[1:]:
        total += blk.T @ blk
    return synchronized(total)


def sum_partials(*partials):
    """Run on one worker: the sum of the workers' partial Gram matrices (a new array), computed."""
    total = partials[0] + partials[1] if len(partials) > 1 else partials[0].copy()
    for p in partials[2:]:
        total += p
    return synchronized(total)


def rows_of(x, lo, hi):
    """Run on a worker: rows lo:hi of x, an array of their own."""
    return synchronized(x[lo:hi].copy())


def time_block_gram(blk, repeats=5):
    """Run on a worker: the median seconds of blk.T @ blk on its GPU, each run synchronised."""
    synchronized(blk.T @ blk)  # warm-up: cuBLAS handle, kernels
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        synchronized(blk.T @ blk)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def auto_gram_rows(gpu_bytes, cols, chunk_rows, fraction=GRAM_MEMORY_FRACTION):
    """Rows of b filling `fraction` of one GPU's memory, in whole blocks, a multiple of 4 blocks (so 1, 2
    and 4 workers hold equal shares of the same matrix); at least 4 blocks."""
    blocks = int(fraction * gpu_bytes // (chunk_rows * cols * 8))
    return max(4, blocks - blocks % 4) * chunk_rows


def workers_by_name(client):
    """The workers' addresses, in the order of their names (gpu0, gpu1, ...)."""
    workers = client.scheduler_info()["workers"]
    return sorted(workers, key=lambda addr: str(workers[addr]["name"]))


def place_blocks(b, client):
    """b persisted with an even, contiguous run of its row blocks on each worker (Note [Locality-aware
    Gram step]); returns (b, {worker address: futures of the blocks it holds}), b's blocks in order."""
    import dask.array as da
    from distributed import futures_of, wait

    addrs = workers_by_name(client)
    n = b.numblocks[0]
    if n < len(addrs):
        raise ValueError(f"b has {n} row blocks, fewer than the {len(addrs)} workers; use more rows")
    bounds = [n * i // len(addrs) for i in range(len(addrs) + 1)]
    parts = [
        client.persist(b.blocks[lo:hi], workers=[addr]) for addr, lo, hi in zip(addrs, bounds, bounds[1:])
    ]
    wait(parts)
    # keys are (name, block row, 0): sorted, a worker's first future is its first, full-size block
    return da.concatenate(parts), {
        addr: sorted(futures_of(part), key=lambda f: f.key) for addr, part in zip(addrs, parts)
    }


def gram_step(client, blocks, cols, reduce="one"):
    """One Gram step, all of it new work (fresh keys): a task per worker summing its blocks' Gram
    matrices, then the sum of those, on the first worker ("one") or in one slab of rows per worker
    ("scatter"); returns, once they exist, the futures of the result's row slabs, in order."""
    from distributed import wait

    partials = {
        addr: client.submit(gram_of_blocks, *futures, workers=[addr], pure=False)
        for addr, futures in blocks.items()
    }
    addrs = list(blocks)
    if reduce == "one":
        slabs = [client.submit(sum_partials, *partials.values(), workers=[addrs[0]], pure=False)]
    elif reduce == "tree":
        level = [(addr, partials[addr]) for addr in addrs]
        while len(level) > 1:
            level = [
                (
                    pair[0][0],
                    client.submit(sum_partials, *(f for _, f in pair), workers=[pair[0][0]], pure=False)
                    if len(pair) > 1
                    else pair[0][1],
                )
                for pair in (level[i : i + 2] for i in range(0, len(level), 2))
            ]
        slabs = [level[0][1]]
    else:
        bounds = [cols * i // len(addrs) for i in range(len(addrs) + 1)]
        slabs = []
        for owner, lo, hi in zip(addrs, bounds, bounds[1:]):
            pieces = [client.submit(rows_of, partials[a], lo, hi, workers=[a], pure=False) for a in addrs]
            slabs.append(client.submit(sum_partials, *pieces, workers=[owner], pure=False))
    wait(slabs)
    return slabs


def timing_warning(median, ideal):
    """A WARNING line when the step took less than the one-block reference allows, else None."""
    if median >= (1 - REFERENCE_SLACK) * ideal:
        return None
    return (
        f"WARNING: the Gram step took {median:.3f} s, faster than the {ideal:.3f} s that one block's "
        f"synchronised Gram implies on these GPUs (by more than {REFERENCE_SLACK:.0%}): the step was not "
        "fully measured"
    )


def time_gram(b, client, repeats, reduce="one"):
    """Times the locality-aware b.T @ b (Note [Locality-aware Gram step]): a warm-up run, then `repeats`
    runs, each until its result exists on a worker (the copy to this process is not timed); prints their
    median as throughput beside one block's synchronised reference. True when the timing is believable and
    the last result's top-left corner matches NumPy's on a host copy of those columns, and it is
    symmetric."""
    b, blocks = place_blocks(b, client)
    names = {addr: w["name"] for addr, w in client.scheduler_info()["workers"].items()}
    held = {names[addr]: len(futures) for addr, futures in blocks.items()}
    print(f"b blocks per worker, placed: {held}")
    first = next(iter(blocks))
    block_s = client.submit(time_block_gram, blocks[first][0], workers=[first], pure=False).result()
    rows, cols = b.shape
    chunk_rows = b.chunks[0][0]
    flops = 2.0 * rows * cols * cols
    ideal = block_s * rows / chunk_rows / len(blocks)
    print(
        f"reference: one block ({chunk_rows}, {cols}) blk.T @ blk on one GPU, synchronised: "
        f"{block_s:.4f} s, {2.0 * chunk_rows * cols * cols / block_s / 1e12:.2f} TFLOP/s per GPU; implies "
        f"{block_s * rows / chunk_rows:.3f} s on 1 GPU, {ideal:.3f} s on {len(blocks)} with no overhead"
    )

    times, gram = [], None
    for _ in range(repeats + 1):  # the first is the warm-up: cuBLAS handles, kernels, connections
        gram = None  # the previous step's result is released before the next starts
        start = time.perf_counter()
        gram = gram_step(client, blocks, b.shape[1], reduce)
        times.append(time.perf_counter() - start)
    times = times[1:]
    median = statistics.median(times)
    workers = len(blocks)
    print(
        f"Gram step b.T @ b, b {b.shape} {b.dtype} ({b.nbytes / 2**30:.2f} GiB) in {b.numblocks[0]} blocks "
        f"on {workers} GPU(s), partials summed {REDUCE_WHERE[reduce]}: median {median:.3f} s of {repeats} "
        f"({', '.join(f'{t:.3f}' for t in times)}), {flops / median / 1e12:.2f} TFLOP/s, "
        f"{b.nbytes / median / 1e9:.0f} GB/s of b read, {median / ideal:.2f}x the no-overhead time"
    )
    warning = timing_warning(median, ideal)
    if warning:
        print(warning)
    k = min(CORNER, cols)
    g = np.concatenate([cuarray.asnumpy(slab.result()) for slab in gram])
    corner = to_host(b[:, :k])
    ok = compare(f"(b.T @ b)[:{k}, :{k}]", g[:k, :k], corner.T @ corner, 1e-9)
    symmetric = bool(np.allclose(g, g.T, rtol=1e-12, atol=1e-12 * np.abs(g).max()))
    print(f"b.T @ b symmetric: {'ok' if symmetric else 'MISMATCH'}")
    record = {
        "gpus": workers,
        "rows": rows,
        "cols": cols,
        "blocks": b.numblocks[0],
        "median_s": median,
        "times_s": times,
        "tflops": flops / median / 1e12,
        "reference_block_s": block_s,
        "ideal_s": ideal,
        "reduce": reduce,
        "timing_ok": warning is None,
        "ok": ok and symmetric,
    }
    print(GRAM_MARK + json.dumps(record), flush=True)
    return ok and symmetric and warning is None


def gram_rows(text):
    """--gram-rows: "auto" or a number of rows."""
    return text if text == "auto" else int(text)


def device_memory():
    """Run on each worker: (free, total) bytes of its GPU's memory."""
    return cuarray.cuda.Device().mem_info


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gpus", type=int, help="use the first N GPUs (default: all)")
    parser.add_argument("--rows", type=int, default=2**21)
    parser.add_argument("--cols", type=int, default=16)
    parser.add_argument("--chunk-rows", type=int, default=2**18)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--gram-rows",
        type=gram_rows,
        default="auto",
        help="rows of the timed Gram step (0: skip; auto: b takes "
        f"{GRAM_MEMORY_FRACTION:.0%} of one GPU's memory)",
    )
    parser.add_argument("--gram-cols", type=int, default=2048)
    parser.add_argument("--gram-chunk-rows", type=int, default=2**16)
    parser.add_argument(
        "--gram-reduce",
        choices=sorted(REDUCE_WHERE),
        default="one",
        help="where the workers' partial Gram matrices are summed: on the first worker "
        "(one), or one slab of rows on each (scatter)",
    )
    parser.add_argument(
        "--gram-size",
        choices=("fixed", "per-gpu"),
        default="fixed",
        help="fixed: the same b on any number of GPUs (strong scaling); per-gpu: --gram-rows "
        "rows on each GPU (weak scaling)",
    )
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of the Gram step, after a warm-up")
    args = parser.parse_args(argv)
    for name in ("rows", "cols", "chunk_rows", "gram_cols", "gram_chunk_rows", "repeats"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.gram_rows != "auto" and args.gram_rows < 0:
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
        rows = args.gram_rows
        if rows == "auto":
            gpu_bytes = min(total for _, total in client.run(device_memory).values())
            rows = auto_gram_rows(gpu_bytes, args.gram_cols, args.gram_chunk_rows)
            print(
                f"b sized to {GRAM_MEMORY_FRACTION:.0%} of one GPU's {gpu_bytes / 2**30:.1f} GiB: {rows} rows"
            )
        if args.gram_size == "per-gpu":
            rows *= len(ids)
            print(f"b grows with the GPUs (weak scaling): {rows} rows on {len(ids)} GPU(s)")
        if rows:
            b = normal_array(rows, args.gram_cols, args.gram_chunk_rows, args.seed + 1)
            ok &= time_gram(b, client, args.repeats, args.gram_reduce)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
