"""cuarray.linalg: NumPy's linear algebra on the GPU (cuSOLVER factorisations, cuBLAS products).

Every function takes stacks of matrices where NumPy does, computes in NumPy's result dtype (float32 and
complex64 stay in single precision) and raises numpy.linalg.LinAlgError with NumPy's messages. Loaded on first
use of cuarray.linalg; the CUDA libraries load on the first call that needs them.
"""

from cuarray._norm import norm
from cuarray._products import matmul, tensordot
from cuarray.linalg._checks import LinAlgError
from cuarray.linalg._decompositions import EighResult, QRResult, SVDResult, cholesky, eigh, eigvalsh, qr, svd
from cuarray.linalg._solve import (
    SlogdetResult,
    det,
    inv,
    lstsq,
    matrix_power,
    matrix_rank,
    pinv,
    slogdet,
    solve,
    tensorinv,
    tensorsolve,
)

__all__ = ["EighResult", "LinAlgError", "QRResult", "SVDResult", "SlogdetResult", "cholesky", "det", "eigh",
           "eigvalsh", "inv", "lstsq", "matmul", "matrix_power", "matrix_rank", "norm", "pinv", "qr", "slogdet", "solve",
           "svd", "tensordot", "tensorinv", "tensorsolve"]
