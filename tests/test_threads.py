"""Threads: several Python threads, each with its own stream, running mixed ops: every result equals NumPy's,
with no crash or deadlock."""

import threading

import numpy as np
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu

THREADS = 8
ITERATIONS = 300


def _worker(seed, errors):
    try:
        rng = np.random.default_rng(seed)
        stream = cp.cuda.Stream(non_blocking=True)
        with stream:
            for i in range(ITERATIONS):
                n = int(rng.integers(1, 5000))
                a = rng.standard_normal(n).astype(np.float32)
                x = cp.asarray(a)
                y = (x * 2 + 1).astype(cp.float64)
                s = y.sum()
                m = cp.max(x)
                idx = cp.argmax(x)
                stream.synchronize()
                np.testing.assert_allclose(y.get(), (a * 2 + 1).astype(np.float64), rtol=1e-6)
                np.testing.assert_allclose(float(s), float((a * 2 + 1).astype(np.float64).sum()), rtol=1e-4)
                assert float(m) == float(a.max()) and int(idx) == int(a.argmax())
    except BaseException as e:  # noqa: BLE001 - reported by the main thread
        errors.append((seed, repr(e)))


def test_threads_with_own_streams_agree_with_numpy():
    errors = []
    threads = [threading.Thread(target=_worker, args=(k, errors)) for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not any(t.is_alive() for t in threads), "a worker thread is stuck"
    assert not errors, errors
