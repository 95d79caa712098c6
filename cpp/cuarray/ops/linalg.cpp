#include "cuarray/ops/linalg.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"
#include "cuarray/lib/cusolver.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/matrix_stack.h"
#include "cuarray/ops/shape_ops.h"
#include "cuarray/ops/transfer.h"

namespace cuarray::ops {

namespace {

using std::int64_t;
namespace cusolver = lib::cusolver;

DType real_of(DType t) { return t == DType::Complex64 ? DType::Float32 : t == DType::Complex128 ? DType::Float64 : t; }
DType complex_of(DType t) {
  return t == DType::Float32 ? DType::Complex64 : t == DType::Float64 ? DType::Complex128 : t;
}

MatrixStack square_stack(const Array& a, const char* op) {
  MatrixStack s = matrix_stack(a, op);
  if (s.rows != s.cols)
    throw ValueError(std::string(op) + ": the matrices must be square, got " + std::to_string(s.rows) + " x " +
                     std::to_string(s.cols));
  return s;
}

Shape with(Shape batch, std::initializer_list<int64_t> dims) {
  batch.insert(batch.end(), dims);
  return batch;
}

// Element i * per of the contiguous `x`: the start of its i-th run of `per` elements.
void* at(const Array& x, int64_t i, int64_t per) { return x.data() + i * per * x.itemsize(); }

std::int64_t* pivots_of(const Array& pivots, int64_t i, int64_t n) { return static_cast<int64_t*>(at(pivots, i, n)); }

// The LU factors of the transposes of a's matrices (Note [Transposed factorisations]), with their pivots.
struct LU {
  Array factors, pivots;
};

LU lu(const Array& a, const MatrixStack& s, const Infos& infos) {
  LU f{row_major_copy(a), Array(with(s.batch, {s.rows}), DType::Int64)};
  int64_t n = s.rows;
  if (n > 0)
    for (int64_t i = 0; i < s.count; ++i)
      cusolver::getrf(a.dtype(), n, matrix(f.factors, i), n, pivots_of(f.pivots, i, n), infos.at(i));
  return f;
}

// sign, log|det| and det (each may be null) of every matrix from its LU factors.
void lu_slogdet(const LU& f, const MatrixStack& s, Array* sign, Array* logdet, Array* det) {
  if (s.count == 0) return;
  DType t = f.factors.dtype();
  KernelKey key(KernelKind::LuSlogdet);
  key.add(static_cast<int>(t), 5);
  jit::Kernel k = cached_kernel(key, [&] { return lu_slogdet_source(t); });
  void* lu_p = f.factors.data();
  void* piv = f.pivots.data();
  long long n = s.rows, stride = s.rows * s.rows;
  void* sp = sign ? sign->data() : nullptr;
  void* lp = logdet ? logdet->data() : nullptr;
  void* dp = det ? det->data() : nullptr;
  void* args[] = {&lu_p, &piv, &n, &stride, &sp, &lp, &dp};
  jit::launch(k, dim3(static_cast<unsigned>(s.count)), dim3(256), args, 0, cuda::current_stream()->handle());
}

// conj(x^T) for each matrix: a view for real dtypes, a new array for complex ones.
Array conj_transpose(const Array& x) { return conjugate(transpose_matrices(x)); }

// Note [Layout of linalg results]
// NumPy's linalg functions are gufuncs, whose new outputs are C-ordered whatever the input's layout. cuSOLVER
// writes column-major matrices, so a result left in its workspace would be the transposed view of a C-ordered
// stack: its strides and flags, and whether a later reshape or ravel copies, would differ from NumPy's. Such
// results are copied to C order on the way out: one pass over the result, small beside the factorisation.
Array row_major(const Array& x) { return ascontiguous(x); }

// A new column-major stack of rows x cols matrices (matrix i at matrix(x, i)).
Array column_major_stack(const Shape& batch, int64_t rows, int64_t cols, DType t) {
  return transpose_matrices(Array(with(batch, {cols, rows}), t));
}

// Element 0 of the 0-d view `x` at byte `offset`, as a double (waits for the stream).
double read_real(const Array& x, int64_t offset) {
  Array v = x.view(Shape{}, Strides{}, offset);
  if (x.dtype() == DType::Float32) {
    float f = 0;
    copy_to_host(&f, v);
    return f;
  }
  double d = 0;
  copy_to_host(&d, v);
  return d;
}

// Whether `x` holds a NaN, in either part of a complex value (reads it back: for small results, or on a
// failure path).
bool has_nan(const Array& x) {
  Array c = row_major_copy(x);
  std::size_t n = static_cast<std::size_t>(c.size()) * (is_complex(c.dtype()) ? 2 : 1);
  if (real_of(x.dtype()) == DType::Float32) {
    std::vector<float> v(n);
    copy_to_host(v.data(), c);
    return std::any_of(v.begin(), v.end(), [](float f) { return f != f; });
  }
  std::vector<double> v(n);
  copy_to_host(v.data(), c);
  return std::any_of(v.begin(), v.end(), [](double d) { return d != d; });
}

// Note [Non-finite matrices]
// LAPACK (under NumPy) factors a matrix holding a NaN or an infinity like any other: a NaN pivot is not a zero
// pivot, so inv, solve, det, slogdet and cholesky return NaNs and raise nothing, while syevd and gesdd report
// no convergence (LinAlgError). cuSOLVER's getrf differs: it may report such a matrix singular (inv raised) or
// lose the NaN and return finite factors (det gave 0). So after the routine, one kernel (kernels/linalg.cuh:
// nonfinite_results) reads the input matrices once, at full bandwidth, and where one holds a NaN or an
// infinity (in the triangle the routine reads) makes its results NaN and clears its info, or sets its info so
// that the usual check raises NumPy's error. It runs in stream order before the info values are copied to the
// host, so Note [Deferred checks] holds unchanged. An all-NaN matrix gets NumPy's results; where LAPACK leaves
// some results of a partly non-finite matrix finite (its order of operations decides), cuarray's are NaN.
//
// The C-contiguous stack of a's values that nonfinite_results reads: a itself, or a copy.
Array contiguous(const Array& a) { return a.c_contiguous() ? a : row_major_copy(a); }

enum Triangle { kWhole = 0, kLower = 1, kUpper = 2 };

// Matrix i of `in` (C-contiguous) holds a NaN or an infinity in `triangle` (of its row-major form): its
// results in `x`, `y` and `sign` (stacks of `in`'s count, any may be null) become NaN and infos[i] 0, or with
// `mark` > 0 infos[i] becomes `mark`.
void nonfinite_results(const Array& in, Triangle triangle, const Infos* infos, int mark, const Array* x, const Array* y,
                       const Array* sign) {
  MatrixStack s = matrix_stack(in, "linalg");
  int64_t per = s.rows * s.cols;
  if (s.count == 0 || per == 0) return;
  DType t = in.dtype(), yt = y ? y->dtype() : t;
  KernelKey key(KernelKind::NonfiniteResults);
  key.add(static_cast<int>(t), 5).add(static_cast<int>(yt), 5);
  jit::Kernel k = cached_kernel(key, [&] { return nonfinite_results_source(t, yt); });
  const void* in_p = in.data();
  long long rows = s.rows, cols = s.cols, per_x = x ? x->size() / s.count : 0, per_y = y ? y->size() / s.count : 0;
  int tri = triangle;
  int* info = infos ? infos->at(0) : nullptr;
  void* x_p = x ? x->data() : nullptr;
  void* y_p = y ? y->data() : nullptr;
  void* sign_p = sign ? sign->data() : nullptr;
  void* args[] = {&in_p, &rows, &cols, &tri, &info, &mark, &x_p, &per_x, &y_p, &per_y, &sign_p};
  unsigned chunks = static_cast<unsigned>(std::min<int64_t>((per + 2047) / 2048, 1024));  // 8 elements a thread
  jit::launch(k, dim3(static_cast<unsigned>(s.count), chunks), dim3(256), args, 0, cuda::current_stream()->handle());
}

}  // namespace

KernelSource nonfinite_results_source(DType t, DType y) {
  std::string ct = cuda_type(t), yt = cuda_type(y);
  return kernel_source(
      "linalg.cuh", std::string("nonfinite_results_") + name(t) + "_" + name(y),
      "const " + ct + "* in, long long rows, long long cols, int triangle, int* info, int mark, " + ct +
          "* x, long long per_x, " + yt + "* y, long long per_y, " + ct + "* sign",
      "ca::nonfinite_results<" + ct + ", " + yt + ">(in, rows, cols, triangle, info, mark, x, per_x, y, per_y, sign);");
}

KernelSource lu_slogdet_source(DType t) {
  std::string ct = cuda_type(t), rt = cuda_type(real_of(t));
  return kernel_source("linalg.cuh", std::string("lu_slogdet_") + name(t),
                       "const " + ct + "* lu, const long long* ipiv, long long n, long long stride, " + ct +
                           "* sign, " + rt + "* logdet, " + ct + "* det",
                       "ca::lu_slogdet<" + ct + ", " + rt + ">(lu, ipiv, n, stride, sign, logdet, det);");
}

Array det(const Array& a) {
  MatrixStack s = square_stack(a, "det");
  Infos infos(s.count);  // a singular matrix is no error: its determinant is 0
  Array src = contiguous(a);
  LU f = lu(src, s, infos);
  Array d(s.batch, a.dtype());
  lu_slogdet(f, s, nullptr, nullptr, &d);
  nonfinite_results(src, kWhole, nullptr, 0, &d, nullptr, nullptr);
  return d;
}

std::pair<Array, Array> slogdet(const Array& a) {
  MatrixStack s = square_stack(a, "slogdet");
  Infos infos(s.count);
  Array src = contiguous(a);
  LU f = lu(src, s, infos);
  Array sign(s.batch, a.dtype()), logdet(s.batch, real_of(a.dtype()));
  lu_slogdet(f, s, &sign, &logdet, nullptr);
  nonfinite_results(src, kWhole, nullptr, 0, nullptr, &logdet, &sign);
  return {sign, logdet};
}

Array inv(const Array& a, bool check_now) {
  MatrixStack s = square_stack(a, "inv");
  int64_t n = s.rows;
  Infos infos(2 * s.count);  // getrf's, then getrs's (which fail on bad arguments only)
  Array src = contiguous(a);
  LU f = lu(src, s, infos);
  // Solving A^T X = I gives X = inv(A)^T column-major, which is inv(A) row-major.
  Array x = identity_stack(s.batch, n, a.dtype());
  if (n > 0)
    for (int64_t i = 0; i < s.count; ++i)
      cusolver::getrs(a.dtype(), CUBLAS_OP_N, n, n, matrix(f.factors, i), n, pivots_of(f.pivots, i, n), matrix(x, i), n,
                      infos.at(s.count + i));
  nonfinite_results(src, kWhole, &infos, 0, &x, nullptr, nullptr);
  infos.check("cusolverDnXgetrf", "Singular matrix", check_now);
  return x;
}

Array solve(const Array& a, const Array& b) {
  MatrixStack sa = square_stack(a, "solve"), sb = matrix_stack(b, "solve");
  int64_t n = sa.rows, k = sb.cols;
  if (sb.rows != n) throw ValueError("solve: b has " + std::to_string(sb.rows) + " rows, a has " + std::to_string(n));
  Shape batch = broadcast_shapes(sa.batch, sb.batch);
  MatrixStack s{batch, size_of(batch), n, n};
  Infos infos(2 * s.count);
  Array src = contiguous(broadcast_to(a, with(batch, {n, n})));
  LU f = lu(src, s, infos);
  Array x = column_major_copy(broadcast_to(b, with(batch, {n, k})));
  // getrf factored A^T; solving with its transpose solves A x = b.
  if (n > 0 && k > 0)
    for (int64_t i = 0; i < s.count; ++i)
      cusolver::getrs(a.dtype(), CUBLAS_OP_T, n, k, matrix(f.factors, i), n, pivots_of(f.pivots, i, n), matrix(x, i), n,
                      infos.at(s.count + i));
  nonfinite_results(src, kWhole, &infos, 0, &x, nullptr, nullptr);
  infos.check("cusolverDnXgetrf", "Singular matrix");
  return row_major(x);
}

Array cholesky(const Array& a, bool upper) {
  MatrixStack s = square_stack(a, "cholesky");
  int64_t n = s.rows;
  // Row-major A is column-major A^T: its upper triangle is A's lower one, and the factor potrf leaves there,
  // read row-major, is L (Note [Transposed factorisations]); likewise for `upper`.
  Array src = contiguous(a);
  Array x = row_major_copy(src);
  Infos infos(s.count);
  if (n > 0)
    for (int64_t i = 0; i < s.count; ++i)
      cusolver::potrf(a.dtype(), upper ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER, n, matrix(x, i), n,
                      infos.at(i));
  // NaN in the factor's triangle (zero_triangle then clears the other), as NumPy's for an all-NaN matrix.
  nonfinite_results(src, upper ? kUpper : kLower, &infos, 0, &x, nullptr, nullptr);
  infos.check("cusolverDnXpotrf", "Matrix is not positive definite");
  zero_triangle(x, !upper);
  return x;
}

std::vector<Array> qr(const Array& a, const std::string& mode) {
  if (mode != "reduced" && mode != "complete" && mode != "r" && mode != "raw")
    throw ValueError("Unrecognized mode '" + mode + "'");
  MatrixStack s = matrix_stack(a, "qr");
  int64_t m = s.rows, n = s.cols, k = std::min(m, n);
  DType t = a.dtype();
  Array x = column_major_copy(a);  // geqrf's R above the diagonal, its reflectors below
  Array tau(with(s.batch, {k}), t);
  Infos infos(2 * s.count);  // only arguments can fail: never read, so QR needs no synchronisation
  if (k > 0)
    for (int64_t i = 0; i < s.count; ++i) cusolver::geqrf(t, m, n, matrix(x, i), m, at(tau, i, k), infos.at(i));
  if (mode == "raw") return {transpose_matrices(x), tau};  // h: (..., n, m), C-contiguous (laid out by qr())

  int64_t r_rows = mode == "complete" ? m : k;
  Array r(with(s.batch, {r_rows, n}), t);
  Strides x_strides = x.strides();
  copy_into(r, x.view(r.shape(), x_strides));
  zero_triangle(r, false);
  if (mode == "r") return {r};

  int64_t q_cols = mode == "complete" ? m : k;
  if (k == 0) {
    Array q = mode == "complete" ? identity_stack(s.batch, m, t) : Array(with(s.batch, {m, 0}), t);
    return {q, r};
  }
  Array q = x.view(with(s.batch, {m, q_cols}), x_strides);
  if (q_cols > n) {  // complete Q of a tall matrix: more columns than x has; the reflectors go first
    q = column_major_stack(s.batch, m, m, t);
    copy_into(q.view(x.shape(), q.strides()), x);
  }
  for (int64_t i = 0; i < s.count; ++i)  // a view of x keeps x's matrix stride
    cusolver::orgqr(t, m, q_cols, k, q_cols > n ? matrix(q, i) : matrix(x, i), m, at(tau, i, k), infos.at(s.count + i));
  return {row_major(q), r};
}

std::pair<Array, Array> eigh(const Array& a, char uplo, bool vectors) {
  if (uplo != 'L' && uplo != 'U') throw ValueError("UPLO argument must be 'L' or 'U'");
  MatrixStack s = square_stack(a, "eigh");
  int64_t n = s.rows;
  Array src = contiguous(a);
  Array v = column_major_copy(src);
  Array w(with(s.batch, {n}), real_of(a.dtype()));
  Infos infos(s.count);
  if (n > 0)
    for (int64_t i = 0; i < s.count; ++i)
      cusolver::syevd(a.dtype(), vectors, uplo == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER, n,
                      matrix(v, i), n, at(w, i, n), infos.at(i));
  // LAPACK's syevd does not converge on a NaN or an infinity in the triangle it reads; cuSOLVER's may.
  nonfinite_results(src, uplo == 'U' ? kUpper : kLower, &infos, static_cast<int>(n) + 1, nullptr, nullptr, nullptr);
  infos.check("cusolverDnXsyevd", "Eigenvalues did not converge");
  return {w, vectors ? row_major(v) : v};
}

std::pair<Array, Array> eig(const Array& a, bool vectors) {
  MatrixStack s = square_stack(a, "eig");
  int64_t n = s.rows;
  DType t = a.dtype();
  Array x = column_major_copy(a);  // geev destroys it; A^T would give the left eigenvectors
  Array w(with(s.batch, {n}), complex_of(t));
  Array v = vectors ? column_major_stack(s.batch, n, n, t) : x;
  Infos infos(s.count);
  if (n > 0)
    for (int64_t i = 0; i < s.count; ++i)
      cusolver::geev(t, vectors, n, matrix(x, i), n, at(w, i, n), vectors ? matrix(v, i) : nullptr, n, infos.at(i));
  infos.check("cusolverDnXgeev", "Eigenvalues did not converge");
  return {w, vectors ? row_major(v) : v};
}

// Note [SVD algorithm]
// cuSOLVER's gesvd (QR iteration on a bidiagonal form, as LAPACK's) spends most of its time in memory-bound
// bidiagonalisation and is slow for large matrices (as CuPy's svd is, which uses it). gesvdp computes
// the polar decomposition by QDWH (QR- and Cholesky-based, compute-bound) and the eigendecomposition of the
// Hermitian factor with syevd; cuSOLVER documents it as much faster. It is backward stable, except that for
// a matrix with singular values near zero it perturbs the input, by h_err_sigma, to make the iteration
// converge. So matrices with min(m, n) >= kPolarMinimum go to gesvdp, and any whose perturbation is not below
// max(m, n) * eps * min(s_max, 1) (LAPACK's error bound, whichever way h_err_sigma is scaled; a zero matrix
// always) is computed again with gesvd: float64 results keep gesvd's accuracy. Small matrices, where gesvdp's fixed
// costs dominate, go straight to gesvd. Both want m >= n, so a wide A is decomposed as A^H = V S U^H.
constexpr int64_t kPolarMinimum = 128;

std::vector<Array> svd(const Array& a, bool full_matrices, bool compute_uv) {
  MatrixStack s = matrix_stack(a, "svd");
  DType t = a.dtype(), rt = real_of(t);
  int64_t m = s.rows, n = s.cols, p = std::max(m, n), q = std::min(m, n);
  bool wide = m < n;
  Array sv(with(s.batch, {q}), rt);
  if (q == 0) {  // NumPy's results: identities where full_matrices asks for square factors
    if (!compute_uv) return {sv};
    Array u = full_matrices ? identity_stack(s.batch, m, t) : Array(with(s.batch, {m, 0}), t);
    Array vh = full_matrices ? identity_stack(s.batch, n, t) : Array(with(s.batch, {0, n}), t);
    return {u, sv, vh};
  }
  // X (p x q, tall, column-major): A itself, or A^H read from a row-major copy.
  auto tall_copy = [&] { return wide ? (is_complex(t) ? conjugate(a) : row_major_copy(a)) : column_major_copy(a); };
  Array x = tall_copy();
  int64_t u_cols = full_matrices ? p : q;
  std::optional<Array> ux, v, vt;  // X's factors: U (p x u_cols), and V (gesvdp) or V^H (gesvd), q x q
  if (compute_uv) ux = column_major_stack(s.batch, p, u_cols, t);
  char jobu = compute_uv ? (full_matrices ? 'A' : 'S') : 'N', jobvt = compute_uv ? 'A' : 'N';
  void* u_ptr = nullptr;
  void* v_ptr = nullptr;
  Infos infos(s.count);
  // Values only: gesvd. cuSOLVER's gesvdp fails without vectors (CUSOLVER_STATUS_EXECUTION_FAILED on an H200).
  bool polar = compute_uv && q >= kPolarMinimum;
  if (polar) {
    Array pristine = tall_copy();  // gesvdp destroys X; a matrix it cannot do accurately is done again
    if (compute_uv) v = column_major_stack(s.batch, q, q, t);
    double eps = rt == DType::Float32 ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
    for (int64_t i = 0; i < s.count; ++i) {
      if (compute_uv) u_ptr = matrix(*ux, i), v_ptr = matrix(*v, i);
      double err = cusolver::gesvdp(t, compute_uv, !full_matrices, p, q, matrix(x, i), p, at(sv, i, q), u_ptr, p, v_ptr,
                                    q, infos.at(i));
      double s_max = read_real(sv, i * q * sv.itemsize());
      if (infos.value(i) == 0 && err < static_cast<double>(p) * eps * std::min(s_max, 1.0)) continue;
      CUARRAY_CHECK_CUDA(cudaMemcpyAsync(matrix(x, i), matrix(pristine, i), p * q * x.itemsize(),
                                         cudaMemcpyDeviceToDevice, cuda::current_stream()->handle()));
      Array vt_i = column_major_stack({}, q, q, t);
      cusolver::gesvd(t, jobu, jobvt, p, q, matrix(x, i), p, at(sv, i, q), u_ptr, p, compute_uv ? vt_i.data() : nullptr,
                      q, infos.at(i));
      if (compute_uv)  // gesvd gives V^H; this stack holds V
        copy_into(v->view(vt_i.shape(), vt_i.strides(), i * q * q * x.itemsize()), conj_transpose(vt_i));
    }
  } else {
    if (compute_uv) vt = column_major_stack(s.batch, q, q, t);
    for (int64_t i = 0; i < s.count; ++i)
      cusolver::gesvd(t, jobu, jobvt, p, q, matrix(x, i), p, at(sv, i, q), compute_uv ? matrix(*ux, i) : nullptr, p,
                      compute_uv ? matrix(*vt, i) : nullptr, q, infos.at(i));
  }
  // NumPy's gesdd fails on a NaN; on infinities alone its singular values are NaN and its vectors fail (Note
  // [Non-finite matrices]).
  Array src = contiguous(a);
  if (compute_uv)
    nonfinite_results(src, kWhole, &infos, 1, nullptr, nullptr, nullptr);
  else
    nonfinite_results(src, kWhole, &infos, 0, &sv, nullptr, nullptr);
  infos.check("cusolverDnXgesvd", "SVD did not converge");
  if (has_nan(sv) && (compute_uv || has_nan(a))) throw LinAlgError("SVD did not converge");
  if (!compute_uv) return {sv};
  // X = Ux S Vx^H. For A = X: U = Ux, Vh = Vx^H. For A = X^H: U = Vx, Vh = Ux^H.
  if (!wide) return {row_major(*ux), sv, row_major(polar ? conj_transpose(*v) : *vt)};
  return {row_major(polar ? *v : conj_transpose(*vt)), sv, row_major(conj_transpose(*ux))};
}

}  // namespace cuarray::ops
