#include "cuarray/ops/matrix_stack.h"

#include <cstring>
#include <string>
#include <vector>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/deferred_checks.h"
#include "cuarray/cuda/graph.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/creation.h"
#include "cuarray/ops/elementwise.h"
#include "cuarray/ops/linalg.h"
#include "cuarray/ops/transfer.h"
#include "cuarray/ops/ufunc.h"

namespace cuarray::ops {

MatrixStack matrix_stack(const Array& a, const char* op) {
  int nd = a.ndim();
  if (nd < 2)
    throw ValueError(std::string(op) + ": expected a stack of matrices (at least 2 dimensions), got " +
                     std::to_string(nd));
  MatrixStack s{Shape(a.shape().begin(), a.shape().end() - 2), 1, a.shape()[nd - 2], a.shape()[nd - 1]};
  s.count = size_of(s.batch);
  return s;
}

Array transpose_matrices(const Array& a) {
  Shape shape = a.shape();
  Strides strides = a.strides();
  int nd = a.ndim();
  std::swap(shape[nd - 2], shape[nd - 1]);
  std::swap(strides[nd - 2], strides[nd - 1]);
  return a.view(shape, strides);
}

Array column_major_copy(const Array& a) {
  Array transposed(transpose_matrices(a).shape(), a.dtype());  // C order: each matrix's columns are rows here
  Array out = transpose_matrices(transposed);
  copy_into(out, a);
  return out;
}

Array row_major_copy(const Array& a) {
  Array out(a.shape(), a.dtype());
  copy_into(out, a);
  return out;
}

Array identity_stack(const Shape& batch, std::int64_t n, DType t) {
  Shape shape = batch;
  shape.push_back(n);
  shape.push_back(n);
  Array out = zeros(shape, t);
  // The diagonals, as one strided view: the stack's strides, then one step down and right.
  Strides strides(out.strides().begin(), out.strides().end() - 2);
  strides.push_back(out.strides()[batch.size()] + out.itemsize());
  shape.pop_back();
  static const double one64[2] = {1, 0};
  static const float one32[2] = {1, 0};
  bool wide = t == DType::Float64 || t == DType::Complex128;
  fill(out.view(shape, strides), wide ? static_cast<const void*>(one64) : one32);
  return out;
}

char* matrix(const Array& stack, std::int64_t i) {
  int nd = stack.ndim();
  return stack.data() + i * stack.shape()[nd - 2] * stack.shape()[nd - 1] * stack.itemsize();
}

namespace {

// LinAlgError(`message`) if any of the `count` info values is positive; CudaError naming `routine` if one is
// negative (an argument cuSOLVER rejected).
void validate(const int* values, std::int64_t count, const char* routine, const char* message) {
  for (std::int64_t i = 0; i < count; ++i) {
    int v = values[i];
    if (v > 0) throw LinAlgError(message);
    if (v < 0)
      throw CudaError(routine, v,
                      std::string(routine) + " rejected its argument " + std::to_string(-v) + " (LAPACK info " +
                          std::to_string(v) + ")");
  }
}

}  // namespace

// Zeroed: a matrix no routine ran on (an empty one) counts as a success.
Infos::Infos(std::int64_t count) : count_(count), values_(zeros(Shape{count}, DType::Int32)) {}

void Infos::snapshot() {
  if (count_ == 0) return;
  std::size_t bytes = static_cast<std::size_t>(count_) * sizeof(int);
  cudaStream_t stream = cuda::current_stream()->handle();
  host_ = cuda::allocate_pinned(bytes);
  CUARRAY_CHECK_CUDA(cudaMemcpyAsync(host_->ptr(), values_.data(), bytes, cudaMemcpyDeviceToHost, stream));
  taken_ = std::make_shared<cuda::Event>(false, false);
  taken_->record(stream);
}

void Infos::check(const char* routine, const char* message, bool now) {
  if (count_ == 0) return;
  const cuda::Stream& stream = *cuda::current_stream();
  cuda::check_not_capturing(stream, std::string("Checking the result of ") + routine + " (linalg)");
  if (!now && stream.handle()) {
    if (!host_) snapshot();
    std::string why = std::string(message) + " (" + routine +
                      ", in work queued earlier on a non-default stream: such checks are reported at the next "
                      "wait for the device)";
    cuda::defer_check(taken_, [host = host_, count = count_, routine = std::string(routine), why] {
      validate(static_cast<const int*>(host->ptr()), count, routine.c_str(), why.c_str());
    });
    return;
  }
  std::vector<int> host(count_);
  if (host_) {
    try {
      cuda::wait(taken_->handle());
    } catch (...) {
      // An abandoned wait (Ctrl-C): the snapshot is still to land in host_, kept until it has.
      cuda::defer_check(taken_, [keep = host_] {});
      throw;
    }
    std::memcpy(host.data(), host_->ptr(), host.size() * sizeof(int));
  } else {
    copy_to_host(host.data(), values_);
  }
  validate(host.data(), count_, routine, message);
}

int Infos::value(std::int64_t i) const {
  int v = 0;
  copy_to_host(&v, values_.view(Shape{}, Strides{}, i * static_cast<std::int64_t>(sizeof(int))));
  return v;
}

KernelSource zero_triangle_source(DType t, bool wide) {
  std::string ct = cuda_type(t), idx = index_type(wide);
  return kernel_source("linalg.cuh", std::string("zero_triangle_") + name(t) + (wide ? "_w" : ""),
                       ct + "* a, " + idx + " rows, " + idx + " cols, " + idx +
                           " count, long long batch_stride, long long row_stride, long long col_stride, long long k, "
                           "bool keep_lower",
                       "ca::zero_triangle<" + ct + ", " + idx +
                           ">(a, rows, cols, count, batch_stride, row_stride, col_stride, k, keep_lower);");
}

void zero_triangle(const Array& a, bool keep_lower) {
  MatrixStack s = matrix_stack(a, "zero_triangle");
  std::int64_t total = s.count * s.rows * s.cols;
  if (total == 0) return;
  // The stack as one batch dimension: a's matrices are one stride apart (a stack this file made).
  int nd = a.ndim(), isz = a.itemsize();
  std::int64_t batch_stride = s.rows * s.cols, row_stride = a.strides()[nd - 2] / isz,
               col_stride = a.strides()[nd - 1] / isz;
  bool wide = total > INT32_MAX / 2;
  KernelKey key(KernelKind::ZeroTriangle);
  key.add(static_cast<int>(a.dtype()), 5).add(wide, 1);
  jit::Kernel k = cached_kernel(key, [&] { return zero_triangle_source(a.dtype(), wide); });
  void* p = a.data();
  std::int64_t v64[3] = {s.rows, s.cols, s.count};
  int v32[3] = {static_cast<int>(s.rows), static_cast<int>(s.cols), static_cast<int>(s.count)};
  long long diagonal = 0;
  void* args[] = {&p,
                  wide ? static_cast<void*>(&v64[0]) : &v32[0],
                  wide ? static_cast<void*>(&v64[1]) : &v32[1],
                  wide ? static_cast<void*>(&v64[2]) : &v32[2],
                  &batch_stride,
                  &row_stride,
                  &col_stride,
                  &diagonal,
                  &keep_lower};
  jit::launch(k, jit::grid_for(total), dim3(jit::kBlockSize), args, 0, cuda::current_stream()->handle());
}

Array conjugate(const Array& a) {
  if (!is_complex(a.dtype())) return a;
  static const Ufunc& conj = ufuncs()[ufunc_index("conjugate")];
  Array out(a.shape(), a.dtype());
  DType t = a.dtype();
  Input in;
  in.array = &a;
  elementwise(conj.def, &t, &t, &in, &out, out.shape());
  return out;
}

}  // namespace cuarray::ops
