// cuSOLVER's dense routines, loaded on first use. Each thread has one handle per device, bound to that
// thread's current stream. Every wrapper works on one column-major matrix in device memory, allocates its
// workspace from the memory pool on the current stream and writes LAPACK's `info` to device memory: nothing
// here synchronises, except gesvdp, which returns a host value.
#pragma once

#include <cublas_api.h>

#include <cstdint>

#include "cuarray/dtype.h"

namespace cuarray::lib::cusolver {

// LU factorisation with partial pivoting of the n x n matrix `a` in place; 1-based pivots to `ipiv`.
void getrf(DType t, std::int64_t n, void* a, std::int64_t lda, std::int64_t* ipiv, int* info);
// Solves op(A) X = B with getrf's factors, overwriting the n x nrhs matrix `b`.
void getrs(DType t, cublasOperation_t op, std::int64_t n, std::int64_t nrhs, const void* a, std::int64_t lda,
           const std::int64_t* ipiv, void* b, std::int64_t ldb, int* info);
// Householder QR of the m x n matrix `a` in place: R on and above the diagonal, the reflectors below, and
// their scalars in `tau` (min(m, n) of them).
void geqrf(DType t, std::int64_t m, std::int64_t n, void* a, std::int64_t lda, void* tau, int* info);
// Overwrites the m x n matrix `a` (geqrf's reflectors in its first k columns) with the first n columns of Q.
void orgqr(DType t, std::int64_t m, std::int64_t n, std::int64_t k, void* a, std::int64_t lda, const void* tau,
           int* info);
// Cholesky factorisation of the Hermitian matrix whose `uplo` triangle is stored in `a`, in that triangle.
void potrf(DType t, cublasFillMode_t uplo, std::int64_t n, void* a, std::int64_t lda, int* info);
// Eigenvalues (ascending, real type) to `w`, and with `vectors` the eigenvectors into `a`'s columns.
void syevd(DType t, bool vectors, cublasFillMode_t uplo, std::int64_t n, void* a, std::int64_t lda, void* w, int* info);
// Eigenvalues of the general n x n matrix `a`, destroying it: n complex values (in a's precision) to `w`, and
// with `vectors` the right eigenvectors (unit 2-norm, largest component real) into the columns of `vr`, in a's
// dtype. For a real `a` they are LAPACK's: an eigenvalue with positive imaginary part comes just before its
// conjugate, and their eigenvectors are vr(:, j) +- i vr(:, j + 1).
void geev(DType t, bool vectors, std::int64_t n, void* a, std::int64_t lda, void* w, void* vr, std::int64_t ldvr,
          int* info);
// SVD of the m x n matrix `a` (m >= n), destroying it: LAPACK's jobu/jobvt ('A', 'S' or 'N').
void gesvd(DType t, char jobu, char jobvt, std::int64_t m, std::int64_t n, void* a, std::int64_t lda, void* s, void* u,
           std::int64_t ldu, void* vt, std::int64_t ldvt, int* info);
// SVD through the polar decomposition (m >= n), destroying `a`; V (not V^H) to `v`. Returns cuSOLVER's
// h_err_sigma: the size of the perturbation it added to `a` so that the polar iteration converges, which
// bounds how far the singular values may be off.
double gesvdp(DType t, bool vectors, bool economic, std::int64_t m, std::int64_t n, void* a, std::int64_t lda, void* s,
              void* u, std::int64_t ldu, void* v, std::int64_t ldv, int* info);

// The loaded library's version as major * 10000 + minor * 100 + patch (loads it).
int version();

// The calling thread's handle for the current device, bound to the current stream, as an address
// (cuda.device.get_cusolver_handle); made on first use.
std::uintptr_t handle_address();

}  // namespace cuarray::lib::cusolver
