"""`cupy.linalg._util` for CuPy's tests: only `stacked_identity`, the helper with which they build the identity
matrices they compare products against (made with cuarray's public functions, as `internal.prod` serves
cupy.testing); CuPy's other internals here are not cuarray's."""

import cuarray


def stacked_identity(batch_shape, n, dtype):
    """Identity matrices of order n and `dtype`, stacked in `batch_shape`."""
    return cuarray.ascontiguousarray(
        cuarray.broadcast_to(cuarray.eye(n, dtype=dtype), tuple(batch_shape) + (n, n))
    )
