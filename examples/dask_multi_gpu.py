"""One computation spread over every GPU of this machine with Dask: one worker process per GPU, each seeing
only its own GPU (CUDA_VISIBLE_DEVICES), so the chunks are made, multiplied and reduced where they live.

    pip install "dask[array]" distributed
    python examples/dask_multi_gpu.py [--rows 2097152] [--cols 16] [--chunk-rows 262144] [--seed 0]

It makes a tall matrix of standard normal samples on the workers' GPUs (the "cuarray" array backend), then
computes its Gram matrix a.T @ a (a blockwise matrix product summed over the row blocks), a column-wise
mean of exp(-a**2 / 2) and its standard deviation, and prints each beside NumPy's result on a host copy of
the same matrix. Exits with status 1 if they differ. With one GPU there is one worker.
"""

import argparse
import logging
import os
import sys
import time

import cuarray
import cuarray.dask  # Dask finds an installed cuarray by entry point; from a source tree it needs this
import dask
import dask.array as da
import numpy as np
from distributed import Client, Nanny, Scheduler, SpecCluster, wait


def gpu_ids():
    """The GPUs this process sees, named as CUDA_VISIBLE_DEVICES names them to a child process."""
    count = cuarray.cuda.runtime.getDeviceCount()
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is None:
        return [str(i) for i in range(count)]
    return [v.strip() for v in visible.split(",") if v.strip()][:count]


def one_worker_per_gpu(ids):
    """A local cluster of one single-threaded worker process per GPU; each sees its GPU alone, as device 0.
    Workers preload cuarray.dask, which registers cuarray arrays with Dask there (reductions need it)."""
    worker = {"nthreads": 1, "host": "127.0.0.1", "preload": ["cuarray.dask"], "dashboard": False,
              "silence_logs": logging.WARNING}
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=2**21)
    parser.add_argument("--cols", type=int, default=16)
    parser.add_argument("--chunk-rows", type=int, default=2**18)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    ids = gpu_ids()
    print(f"{len(ids)} GPU(s): one Dask worker each")
    with one_worker_per_gpu(ids) as cluster, Client(cluster) as client:
        names = {addr: w["name"] for addr, w in client.scheduler_info()["workers"].items()}
        for addr, (visible, gpu_name) in sorted(client.run(worker_gpu).items(), key=lambda kv: names[kv[0]]):
            print(f"  worker {names[addr]}: CUDA_VISIBLE_DEVICES={visible} ({gpu_name})")

        with dask.config.set({"array.backend": "cuarray"}):
            rng = da.random.default_rng(args.seed)
            a = rng.standard_normal((args.rows, args.cols), chunks=(args.chunk_rows, args.cols))
        a = a.persist()
        wait(a)
        blocks = {names[addr]: sum(1 for k in keys if isinstance(k, tuple) and k[0] == a.name)
                  for addr, keys in client.has_what().items()}
        print(f"a: {a.shape} {a.dtype} in {a.numblocks[0]} blocks of {a._meta.__class__.__module__}.ndarray, "
              f"per worker: {dict(sorted(blocks.items()))}")

        start = time.perf_counter()
        gram, gauss, std = dask.compute(a.T @ a, da.exp(-0.5 * a**2).mean(axis=0), a.std())
        kind = f"{type(gram).__module__}.{type(gram).__name__}"
        print(f"computed on the GPUs in {time.perf_counter() - start:.2f} s, results are {kind}")

        host = a.map_blocks(cuarray.asnumpy, meta=np.empty((0, 0), a.dtype)).compute()
    ok = compare("a.T @ a", gram, host.T @ host, 1e-9)
    ok &= compare("mean(exp(-a**2/2), 0)", gauss, np.exp(-0.5 * host**2).mean(axis=0), 1e-9)
    ok &= compare("a.std()", std, np.asarray(host.std()), 1e-9)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
