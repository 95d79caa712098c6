"""cuarray.linalg: NumPy's linear algebra on the GPU (cuSOLVER factorisations, cuBLAS products), with the array
API standard's linalg extension.

Every function takes stacks of matrices where NumPy does, computes in NumPy's result dtype (float32 and
complex64 stay in single precision, except in lstsq, and in the SVD behind pinv, matrix_rank, cond and the -2
norm, which compute in double precision as NumPy's do) and raises numpy.linalg.LinAlgError with NumPy's
messages. Loaded on first use of cuarray.linalg; the CUDA
libraries load on the first call that needs them.
"""

import functools as _functools

from cuarray._core import ndarray as _ndarray
from cuarray._products import matmul, tensordot
from cuarray.linalg import _checks, _compute_types, _norm
from cuarray.linalg._checks import LinAlgError
from cuarray.linalg._compute_types import *  # COMPUTE_TYPE_*, get_compute_type, set_compute_type
from cuarray.linalg._decompositions import (
    EighResult,
    EigResult,
    QRResult,
    SVDResult,
    cholesky,
    eig,
    eigh,
    eigvals,
    eigvalsh,
    qr,
    svd,
    svdvals,
)
from cuarray.linalg._products import cross, diagonal, matrix_transpose, multi_dot, outer, trace, vecdot
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

__all__ = [
    "EigResult",
    "EighResult",
    "LinAlgError",
    "QRResult",
    "SVDResult",
    "SlogdetResult",
    "cholesky",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "lstsq",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "multi_dot",
    "norm",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "tensorinv",
    "tensorsolve",
    "trace",
    "vecdot",
    "vector_norm",
] + _compute_types.__all__


def _taking_sequences(f):
    """`f` taking what the other linalg functions take: a cuarray array, or a scalar or (nested) sequence, copied
    to the device (NumPy arrays are refused, as everywhere in cuarray)."""

    @_functools.wraps(f)
    def wrapper(x, *args, **kwargs):
        if not isinstance(x, _ndarray):
            x = _checks.as_array(x, f.__name__)
        return f(x, *args, **kwargs)

    return wrapper


cond = _taking_sequences(_norm.cond)
norm = _taking_sequences(_norm.norm)
matrix_norm = _taking_sequences(_norm.matrix_norm)
vector_norm = _taking_sequences(_norm.vector_norm)
