// Dense linear algebra on cuSOLVER for stacks of matrices: the last two dimensions are the matrix, the others
// a batch (looped over). Arrays are float32, float64, complex64 or complex128 (cuarray.linalg converts other
// dtypes as NumPy does); inputs are never modified, since every routine works on a copy.
//
// Note [Transposed factorisations]
// cuSOLVER is column-major, and a C-contiguous matrix read column-major is its transpose. Where the transpose
// serves as well, it is used as it is: det A = det A^T, inv A = (inv A^T)^T, A X = B is (A^T)^T X = B, and the
// Cholesky factor of the transpose, read back row-major, is the factor wanted. QR, SVD, eigh and eig copy each
// matrix to column-major first.
//
// A value the routines report through LAPACK's `info` (a singular matrix, no convergence) is read back after
// waiting for the stream, and becomes LinAlgError with NumPy's message.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cuarray/array.h"
#include "cuarray/ops/kernel_registry.h"

namespace cuarray::ops {

// (..., n, n) -> det (...), as NumPy computes it: sign * exp(log|det|) from an LU factorisation.
Array det(const Array& a);
// (..., n, n) -> (sign in a's dtype, log|det| in its real dtype).
std::pair<Array, Array> slogdet(const Array& a);
// (..., n, n) -> the inverses; LinAlgError "Singular matrix", raised at the call when `check_now`, else as
// Note [Deferred checks] in cuda/deferred_checks.h says.
Array inv(const Array& a, bool check_now = false);
// a (..., n, n), b (..., n, k), stack dimensions broadcast -> x with a x = b; LinAlgError "Singular matrix".
Array solve(const Array& a, const Array& b);
// (..., n, n) -> L with A = L L^H from A's lower triangle, or with `upper` U with A = U^H U from its upper one;
// LinAlgError "Matrix is not positive definite".
Array cholesky(const Array& a, bool upper);
// (..., m, n) -> NumPy's qr: {q, r} for mode "reduced" and "complete", {r} for "r", {h, tau} for "raw".
std::vector<Array> qr(const Array& a, const std::string& mode);
// (..., n, n) Hermitian, from its lower (uplo 'L') or upper ('U') triangle -> eigenvalues (ascending, real
// dtype) and the eigenvectors as columns (only with `vectors`: otherwise the second array holds scratch);
// LinAlgError "Eigenvalues did not converge".
std::pair<Array, Array> eigh(const Array& a, char uplo, bool vectors);
// (..., n, n) general -> eigenvalues (..., n) in the complex dtype of a's precision, and with `vectors` the right
// eigenvectors as columns (unit 2-norm, largest component real), in a's dtype: for real `a` in LAPACK's layout
// (see cusolver::geev; cuarray.linalg makes them complex). Without `vectors` the second array holds scratch.
// LinAlgError "Eigenvalues did not converge".
std::pair<Array, Array> eig(const Array& a, bool vectors);
// (..., m, n) -> {u, s, vh} (s descending, real dtype), or {s} without `compute_uv`; LinAlgError "SVD did not
// converge". See Note [SVD algorithm] in linalg.cpp.
std::vector<Array> svd(const Array& a, bool full_matrices, bool compute_uv);

// The generated kernels, exposed so that tests can compile every variant without a device.
KernelSource lu_slogdet_source(DType t);
// `y`: the dtype of the second result the kernel may fill (t, or its real dtype).
KernelSource nonfinite_results_source(DType t, DType y);
KernelSource zero_triangle_source(DType t, bool wide);

}  // namespace cuarray::ops
