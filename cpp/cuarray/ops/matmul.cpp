#include "cuarray/ops/matmul.h"

#include <cublas_api.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"
#include "cuarray/lib/cublas.h"
#include "cuarray/lib/library.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/creation.h"
#include "cuarray/ops/strided_args.h"

namespace cuarray::ops {

namespace {

using std::int64_t;
using std::to_string;

constexpr const char* kSignature = "(n?,k),(k,m?)->(n?,m?)";

// "(2,3)"; a 1-D shape is "(4,)" as a tuple and "(4)" otherwise (NumPy's messages use both).
std::string compact(const Shape& s, bool tuple) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + to_string(s[i]);
  return r + (tuple && s.size() == 1 ? ",)" : ")");
}

[[noreturn]] void too_few_dims(int operand) {
  throw ValueError("matmul: Input operand " + to_string(operand) +
                   " does not have enough dimensions (has 0, gufunc core with signature " + kSignature +
                   " requires 1)");
}

[[noreturn]] void core_mismatch(const char* kind, int operand, size_t dim, int64_t size, int64_t expected) {
  throw ValueError(std::string("matmul: ") + kind + " operand " + to_string(operand) +
                   " has a mismatch in its core dimension " + to_string(dim) + ", with gufunc signature " + kSignature +
                   " (size " + to_string(size) + " is different from " + to_string(expected) + ")");
}

// Broadcasts the stack dimensions of the operands (NumPy's rule); false when they do not broadcast.
bool broadcast_batches(const std::vector<const Shape*>& batches, Shape& result) {
  size_t nd = 0;
  for (const Shape* b : batches) nd = std::max(nd, b->size());
  result.assign(nd, 1);
  for (const Shape* b : batches)
    for (size_t i = 0; i < b->size(); ++i) {
      int64_t v = (*b)[i], &r = result[nd - b->size() + i];
      if (v == 1) continue;
      if (r == 1)
        r = v;
      else if (r != v)
        return false;
    }
  return true;
}

// A stack of matrices as cuBLAS takes it: element strides, rows or columns contiguous, the leading dimension.
struct Matrix {
  char* ptr;
  bool row_major;
  int64_t ld;
  int64_t batch_stride;  // elements between consecutive matrices of one strided-batched call
};

// Whether rows x cols elements at element strides (rs, cs) form a matrix cuBLAS can read (or write), and how.
bool blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs, bool& row_major, int64_t& ld) {
  if ((cols <= 1 || cs == 1) && (rows <= 1 || rs >= std::max<int64_t>(1, cols))) {
    row_major = true;
    ld = rows <= 1 ? std::max<int64_t>(1, cols) : rs;
    return true;
  }
  if ((rows <= 1 || rs == 1) && (cols <= 1 || cs >= std::max<int64_t>(1, rows))) {
    row_major = false;
    ld = cols <= 1 ? std::max<int64_t>(1, rows) : cs;
    return true;
  }
  return false;
}

bool blas_layout(const Array& x, bool& row_major, int64_t& ld) {
  int nd = x.ndim(), isz = x.itemsize();
  int64_t rs = x.strides()[nd - 2], cs = x.strides()[nd - 1];
  if (rs % isz || cs % isz) return false;
  return blas_layout(x.shape()[nd - 2], x.shape()[nd - 1], rs / isz, cs / isz, row_major, ld);
}

// `x` (1-D or more) as a stack of matrices: a 1-D left operand becomes one row, a 1-D right operand one column.
Array as_matrices(const Array& x, bool vector, bool left) {
  if (!vector) return x;
  int64_t k = x.shape()[0], s = x.strides()[0];
  return left ? x.view({1, k}, {0, s}) : x.view({k, 1}, {s, 0});
}

// The result array seen as batch + (n, m), the dimensions a 1-D operand dropped put back with stride 0.
Array as_result_matrices(const Array& c, const MatmulShapes& s) {
  Shape shape = s.batch;
  Strides strides(c.strides().begin(), c.strides().begin() + s.batch.size());
  size_t d = s.batch.size();
  shape.push_back(s.n);
  strides.push_back(s.a_vector ? 0 : c.strides()[d++]);
  shape.push_back(s.m);
  strides.push_back(s.b_vector ? 0 : c.strides()[d]);
  return c.view(shape, strides);
}

// Strides of `x` (matrices) with its stack dimensions broadcast to `batch`.
Strides batch_strides(const Array& x, const Shape& batch) {
  Shape target = batch;
  target.push_back(x.shape()[x.ndim() - 2]);
  target.push_back(x.shape()[x.ndim() - 1]);
  Strides s = broadcast_strides(x.shape(), x.strides(), target);
  s.resize(batch.size());
  return s;
}

bool is_blas_type(DType t) { return !is_integer(t) && t != DType::Bool; }

// Note [Compute types] in cublas.h.
cublasComputeType_t compute_type(DType t) {
  using lib::cublas::ComputeType;
  ComputeType c = lib::cublas::compute_type(t);
  if (t == DType::Float64 || t == DType::Complex128)
    return c == ComputeType::Pedantic ? CUBLAS_COMPUTE_64F_PEDANTIC : CUBLAS_COMPUTE_64F;
  if (c == ComputeType::Pedantic) return CUBLAS_COMPUTE_32F_PEDANTIC;
  if ((t == DType::Float32 || t == DType::Complex64) && c == ComputeType::Tf32)
    return CUBLAS_COMPUTE_32F_FAST_TF32;  // Note [TF32]
  return CUBLAS_COMPUTE_32F;
}

// c = a @ b for `count` stacked (n x k) @ (k x m) products on cuBLAS, which is column-major: a row-major C is
// computed as C^T = B^T A^T, where each row-major operand is already its own transpose.
void gemm(DType t, int64_t count, int64_t n, int64_t m, int64_t k, const Matrix& a, const Matrix& b, const Matrix& c) {
  const auto& blas = lib::cublas::api();
  cublasHandle_t h = lib::cublas::handle();
  cudaDataType dt = lib::data_type(t);
  bool wide = t == DType::Float64 || t == DType::Complex128;
  // alpha = 1 and beta = 0 as the scale type: real, or complex with a zero imaginary part.
  static const double one64[2] = {1, 0}, zero64[2] = {0, 0};
  static const float one32[2] = {1, 0}, zero32[2] = {0, 0};
  const void* alpha = wide ? static_cast<const void*>(one64) : one32;
  const void* beta = wide ? static_cast<const void*>(zero64) : zero32;
  const Matrix& x = c.row_major ? b : a;
  const Matrix& y = c.row_major ? a : b;
  auto op = [&](const Matrix& p) { return p.row_major == c.row_major ? CUBLAS_OP_N : CUBLAS_OP_T; };
  int64_t rows = c.row_major ? m : n, cols = c.row_major ? n : m;
  if (count == 1) {
    lib::cublas::check(blas.gemm(h, op(x), op(y), rows, cols, k, alpha, x.ptr, dt, x.ld, y.ptr, dt, y.ld, beta, c.ptr,
                                 dt, c.ld, compute_type(t), CUBLAS_GEMM_DEFAULT),
                       "cublasGemmEx_64");
  } else {
    lib::cublas::check(blas.gemm_strided_batched(h, op(x), op(y), rows, cols, k, alpha, x.ptr, dt, x.ld, x.batch_stride,
                                                 y.ptr, dt, y.ld, y.batch_stride, beta, c.ptr, dt, c.ld, c.batch_stride,
                                                 count, compute_type(t), CUBLAS_GEMM_DEFAULT),
                       "cublasGemmStridedBatchedEx_64");
  }
}

// Host mirror of kernels/linalg.cuh's MatmulStrides: element strides (batch, row, column) of a, b and c.
struct MatmulStrides {
  long long a[3], b[3], c[3];
};

void matmul_integer(DType t, int64_t count, int64_t n, int64_t m, int64_t k, const char* a, const char* b, char* c,
                    MatmulStrides strides) {
  int64_t total = count * n * m;
  // 32-bit indices while the grid-stride loop's index plus the grid cannot overflow.
  bool wide = total > INT32_MAX / 2 || k > INT32_MAX;
  KernelKey key(KernelKind::MatmulInteger);
  key.add(static_cast<int>(t), 5).add(wide, 1);
  jit::Kernel kernel = cached_kernel(key, [&] { return matmul_integer_source(t, wide); });
  void* pc = c;
  const void *pa = a, *pb = b;
  int64_t v64[4] = {n, m, k, count};
  int v32[4];
  for (int i = 0; i < 4; ++i) v32[i] = static_cast<int>(v64[i]);
  void* args[8] = {&pc, &pa, &pb};
  for (int i = 0; i < 4; ++i) args[3 + i] = wide ? static_cast<void*>(&v64[i]) : static_cast<void*>(&v32[i]);
  args[7] = &strides;
  jit::launch(kernel, jit::grid_for(total), dim3(jit::kBlockSize), args, 0, cuda::current_stream()->handle());
}

constexpr int kSmallTile = 16;

// Products small enough for matmul_small: cuBLAS's dtypes computed in their own type (float32 and complex64 only
// without TF32, which cuBLAS would apply; every compute type else computes as this kernel does), at most a few
// million multiply-adds.
bool is_small(DType t, int64_t count, int64_t n, int64_t m, int64_t k) {
  bool single = t == DType::Float32 || t == DType::Complex64;
  bool type = t == DType::Float64 || t == DType::Complex128 ||
              (single && lib::cublas::compute_type(t) != lib::cublas::ComputeType::Tf32);
  return type && count <= 65535 && n <= 256 && m <= 256 && k <= 512 && n * m * k <= (int64_t(1) << 22);
}

void matmul_small(DType t, int64_t count, int64_t n, int64_t m, int64_t k, const char* a, const char* b, char* c,
                  MatmulStrides strides) {
  KernelKey key(KernelKind::MatmulSmall);
  key.add(static_cast<int>(t), 5);
  jit::Kernel kernel = cached_kernel(key, [&] { return matmul_small_source(t); });
  void* pc = c;
  const void *pa = a, *pb = b;
  int dims[3] = {static_cast<int>(n), static_cast<int>(m), static_cast<int>(k)};
  void* args[7] = {&pc, &pa, &pb, &dims[0], &dims[1], &dims[2], &strides};
  dim3 grid(static_cast<unsigned>((m + kSmallTile - 1) / kSmallTile),
            static_cast<unsigned>((n + kSmallTile - 1) / kSmallTile), static_cast<unsigned>(count));
  jit::launch(kernel, grid, dim3(kSmallTile, kSmallTile), args, 0, cuda::current_stream()->handle());
}

bool shares_buffer(const Array& x, const Array& y) { return x.buffer() == y.buffer(); }

// c = a @ b over the broadcast stacks: a (batch, n, k), b (batch, k, m), c (batch, n, m), one dtype. Stack
// dimensions are coalesced; each run of the innermost one is one strided-batched call.
void matmul_stacks(const Array& a, const Array& b, const Array& c, const Shape& batch) {
  DType t = c.dtype();
  int isz = c.itemsize();
  int64_t n = c.shape()[c.ndim() - 2], m = c.shape()[c.ndim() - 1], k = a.shape()[a.ndim() - 1];
  Coalesced runs;  // stays empty for single matrices: the common case skips the stack logic
  if (!batch.empty()) {
    Strides c_batch(c.strides().begin(), c.strides().begin() + batch.size());
    runs = coalesce(batch, {batch_strides(a, batch), batch_strides(b, batch), c_batch});
  }
  int64_t count = runs.shape.empty() ? 1 : runs.shape.back();
  auto inner = [&](int op) { return runs.shape.empty() ? 0 : runs.strides[op].back() / isz; };
  size_t outer_nd = runs.shape.empty() ? 0 : runs.shape.size() - 1;
  std::vector<int64_t> index(outer_nd, 0);
  int64_t outer = 1;
  for (size_t d = 0; d < outer_nd; ++d) outer *= runs.shape[d];

  Matrix ma{}, mb{}, mc{};
  bool blas = is_blas_type(t);
  if (blas) {
    blas_layout(a, ma.row_major, ma.ld);
    blas_layout(b, mb.row_major, mb.ld);
    blas_layout(c, mc.row_major, mc.ld);
    ma.batch_stride = inner(0), mb.batch_stride = inner(1), mc.batch_stride = inner(2);
  }
  auto elements = [isz](const Array& x, int from_end) { return x.strides()[x.ndim() - from_end] / isz; };
  MatmulStrides strides{{inner(0), elements(a, 2), elements(a, 1)},
                        {inner(1), elements(b, 2), elements(b, 1)},
                        {inner(2), elements(c, 2), elements(c, 1)}};
  for (int64_t run = 0; run < outer; ++run) {
    int64_t offset[3] = {0, 0, 0};
    for (size_t d = 0; d < outer_nd; ++d)
      for (int op = 0; op < 3; ++op) offset[op] += index[d] * runs.strides[op][d];
    char* pa = a.data() + offset[0];
    char* pb = b.data() + offset[1];
    char* pc = c.data() + offset[2];
    if (blas && is_small(t, count, n, m, k)) {
      matmul_small(t, count, n, m, k, pa, pb, pc, strides);
    } else if (blas) {
      ma.ptr = pa, mb.ptr = pb, mc.ptr = pc;
      gemm(t, count, n, m, k, ma, mb, mc);
    } else {
      matmul_integer(t, count, n, m, k, pa, pb, pc, strides);
    }
    for (size_t d = outer_nd; d-- > 0;) {  // the next multi-index, last dimension fastest
      if (++index[d] < runs.shape[d]) break;
      index[d] = 0;
    }
  }
}

// Whether `c` (batch, n, m) can receive cuBLAS's result directly: a cuBLAS layout, and no two matrices of the
// stack at one address.
bool writable_by_blas(const Array& c) {
  bool row_major;
  int64_t ld;
  if (!blas_layout(c, row_major, ld)) return false;
  for (int d = 0; d < c.ndim() - 2; ++d)
    if (c.shape()[d] > 1 && c.strides()[d] == 0) return false;
  return true;
}

}  // namespace

MatmulShapes matmul_shapes(const Shape& a, const Shape& b, const Shape* out) {
  if (a.empty()) too_few_dims(0);
  if (b.empty()) too_few_dims(1);
  MatmulShapes s;
  s.a_vector = a.size() == 1;
  s.b_vector = b.size() == 1;
  s.k = a.back();
  s.n = s.a_vector ? 1 : a[a.size() - 2];
  s.m = s.b_vector ? 1 : b.back();
  int64_t bk = s.b_vector ? b[0] : b[b.size() - 2];
  if (bk != s.k) core_mismatch("Input", 1, 0, bk, s.k);
  Shape core;
  if (!s.a_vector) core.push_back(s.n);
  if (!s.b_vector) core.push_back(s.m);
  Shape a_batch(a.begin(), a.end() - (s.a_vector ? 1 : 2)), b_batch(b.begin(), b.end() - (s.b_vector ? 1 : 2));
  std::vector<const Shape*> batches = {&a_batch, &b_batch};
  Shape out_batch;
  if (out) {
    if (out->size() < core.size() + std::max(a_batch.size(), b_batch.size()))
      throw ValueError(
          "output operand requires a reduction along dimension -1, but the reduction is not enabled. The dimension "
          "size of 1 does not match the expected output shape.");
    for (size_t d = 0; d < core.size(); ++d) {
      int64_t size = (*out)[out->size() - core.size() + d];
      if (size != core[d]) core_mismatch("Output", 0, d, size, core[d]);
    }
    out_batch.assign(out->begin(), out->end() - core.size());
    batches.push_back(&out_batch);
  }
  if (!broadcast_batches(batches, s.batch)) {
    auto remapped = [&](const Shape& shape, const Shape& batch) {
      std::string r = compact(shape, true) + "->(";
      for (size_t i = 0; i < batch.size(); ++i) r += to_string(batch[i]) + ",";
      for (size_t i = 0; i < core.size() && !batch.empty(); ++i) r += "newaxis,";
      if (r.back() == ',') r.pop_back();
      return r + ") ";
    };
    std::string msg =
        "operands could not be broadcast together with remapped shapes [original->remapped]: " + remapped(a, a_batch) +
        remapped(b, b_batch);
    if (out) msg += compact(*out, true) + "->" + compact(*out, false) + " ";
    throw ValueError(msg + " and requested shape " + compact(core, false));
  }
  s.result = s.batch;
  s.result.insert(s.result.end(), core.begin(), core.end());
  if (out && s.batch != out_batch)
    throw ValueError("non-broadcastable output operand with shape " + compact(*out, true) +
                     " doesn't match the broadcast shape " + compact(s.result, true));
  return s;
}

Array matmul(const Array& a_in, const Array& b_in, const Array* out) {
  DType t = a_in.dtype();
  if (b_in.dtype() != t)
    throw TypeError(std::string("matmul: the operands must have one dtype (got ") + name(t) + " and " +
                    name(b_in.dtype()) + ")");
  MatmulShapes s = matmul_shapes(a_in.shape(), b_in.shape(), out ? &out->shape() : nullptr);
  check_same_device(a_in, "matmul");
  check_same_device(b_in, "matmul");
  if (out) check_same_device(*out, "matmul");

  bool direct = out && out->dtype() == t && !shares_buffer(*out, a_in) && !shares_buffer(*out, b_in) &&
                (!is_blas_type(t) || writable_by_blas(as_result_matrices(*out, s)));
  Array result = direct ? *out : Array(s.result, t);
  auto finish = [&]() -> Array {
    if (out && !direct) copy_into(*out, result);
    return out ? *out : result;
  };
  if (size_of(s.result) == 0) return out ? *out : result;
  if (s.k == 0) {
    static const char zero[16] = {};
    fill(result, zero);
    return finish();
  }
  if (s.a_vector && s.b_vector && s.batch.empty()) {
    vector_dot(a_in, b_in, false, result);
    return finish();
  }
  Array a = a_in, b = b_in;
  bool row_major;
  int64_t ld;
  if (is_blas_type(t)) {  // copy what cuBLAS cannot read (negative or element strides in both directions)
    if (!blas_layout(as_matrices(a, s.a_vector, true), row_major, ld)) a = ascontiguous(a);
    if (!blas_layout(as_matrices(b, s.b_vector, false), row_major, ld)) b = ascontiguous(b);
  }
  matmul_stacks(as_matrices(a, s.a_vector, true), as_matrices(b, s.b_vector, false), as_result_matrices(result, s),
                s.batch);
  return finish();
}

void vector_dot(const Array& a_in, const Array& b_in, bool conjugate, const Array& out) {
  DType t = a_in.dtype();
  int64_t n = a_in.size();
  if (a_in.ndim() != 1 || b_in.ndim() != 1 || b_in.size() != n || b_in.dtype() != t || out.dtype() != t ||
      out.ndim() != 0)
    throw ValueError("vector_dot takes two 1-D arrays of one dtype and length and a 0-d output of that dtype");
  if (n == 0) {
    static const char zero[16] = {};
    fill(out, zero);
    return;
  }
  if (!is_blas_type(t)) {  // conjugation is the identity on integers and bools
    MatmulStrides st{
        {0, 0, a_in.strides()[0] / a_in.itemsize()}, {0, b_in.strides()[0] / b_in.itemsize(), 0}, {0, 0, 0}};
    matmul_integer(t, 1, 1, 1, n, a_in.data(), b_in.data(), out.data(), st);
    return;
  }
  // BLAS reads negative increments from the other end, so only positive strides are passed as they are.
  auto positive = [](const Array& x) { return x.strides()[0] > 0 ? x : ascontiguous(x); };
  Array a = positive(a_in), b = positive(b_in);
  const auto& blas = lib::cublas::api();
  cublasHandle_t h = lib::cublas::handle();
  cudaDataType dt = lib::data_type(t);
  cudaDataType exec = t == DType::Float16 || t == DType::BFloat16 ? CUDA_R_32F : dt;
  // The result stays on the device: no synchronisation.
  lib::cublas::check(blas.set_pointer_mode(h, CUBLAS_POINTER_MODE_DEVICE), "cublasSetPointerMode_v2");
  cublasStatus_t status =
      (conjugate && is_complex(t) ? blas.dotc : blas.dot)(h, n, a.data(), dt, a.strides()[0] / a.itemsize(), b.data(),
                                                          dt, b.strides()[0] / b.itemsize(), out.data(), dt, exec);
  lib::cublas::check(blas.set_pointer_mode(h, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode_v2");
  lib::cublas::check(status, conjugate && is_complex(t) ? "cublasDotcEx_64" : "cublasDotEx_64");
}

KernelSource matmul_small_source(DType t) {
  std::string ct = cuda_type(t), tile = std::to_string(kSmallTile);
  return kernel_source("linalg.cuh", std::string("matmul_small_") + name(t),
                       ct + "* c, const " + ct + "* a, const " + ct + "* b, int n, int m, int k, ca::MatmulStrides s",
                       "ca::matmul_small<" + ct + ", " + tile + ">(c, a, b, n, m, k, s);");
}

KernelSource matmul_integer_source(DType t, bool wide) {
  std::string ct = cuda_type(t), idx = index_type(wide);
  return kernel_source("linalg.cuh", std::string("matmul_integer_") + name(t) + (wide ? "_w" : ""),
                       ct + "* c, const " + ct + "* a, const " + ct + "* b, " + idx + " n, " + idx + " m, " + idx +
                           " k, " + idx + " count, ca::MatmulStrides s",
                       "ca::matmul_integer<" + ct + ", " + idx + ">(c, a, b, n, m, k, count, s);");
}

}  // namespace cuarray::ops
