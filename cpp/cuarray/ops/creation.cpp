#include "cuarray/ops/creation.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/strided_args.h"
#include "cuarray/ops/transfer.h"

namespace cuarray::ops {

namespace {

// Launches a 1-D kernel whose last argument is the element count, typed for `n`.
void launch_n(const jit::Kernel& k, std::vector<void*> args, std::int64_t n, cudaStream_t stream) {
  std::int64_t n64 = n;
  int n32 = static_cast<int>(n);
  args.push_back(n > INT32_MAX ? static_cast<void*>(&n64) : static_cast<void*>(&n32));
  jit::launch(k, jit::grid_for(n), dim3(jit::kBlockSize), args.data(), 0, stream);
}

KernelKey key_for(KernelKind kind, DType t, bool wide) {
  KernelKey key(kind);
  key.add(static_cast<int>(t), 5).add(wide, 1);
  return key;
}

}  // namespace

// Elements per thread of the contiguous fill: two 16-byte stores.
int fill_items(DType dt) { return std::max(1, 32 / itemsize(dt)); }

KernelSource fill_contiguous_source(DType dt, bool wide, bool aligned) {
  std::string idx = index_type(wide), t = cuda_type(dt), e = std::to_string(fill_items(dt));
  return kernel_source(
      "copy.cuh", std::string("fill_contiguous_") + name(dt) + (aligned ? "_a" : "") + (wide ? "_w" : ""),
      t + "* dst, " + t + " value, " + idx + " n",
      "ca::fill_contiguous<" + t + ", " + idx + ", " + e + ", " + (aligned ? "true" : "false") + ">(dst, value, n);");
}

KernelSource fill_strided_source(DType dt, int ndim, bool wide) {
  std::string idx = index_type(wide), t = cuda_type(dt), nd = std::to_string(ndim);
  return kernel_source("copy.cuh", std::string("fill_strided_") + name(dt) + "_" + nd + (wide ? "_w" : ""),
                       "char* dst, " + t + " value, ca::Strided<" + nd + ", 1> s, " + idx + " n",
                       "ca::fill_strided<" + t + ", " + idx + ", " + nd + ">(dst, value, s, n);");
}

KernelSource arange_source(DType dt, bool wide) {
  std::string idx = index_type(wide), t = cuda_type(dt);
  return kernel_source("creation.cuh", std::string("arange_") + name(dt) + (wide ? "_w" : ""),
                       t + "* dst, " + t + " first, " + t + " second, " + idx + " n",
                       "ca::arange<" + t + ", " + idx + ">(dst, first, second, n);");
}

KernelSource linspace_source(DType dt, bool wide) {
  std::string idx = index_type(wide), t = cuda_type(dt);
  return kernel_source("creation.cuh", std::string("linspace_") + name(dt) + (wide ? "_w" : ""),
                       t +
                           "* dst, double start_re, double start_im, double step_re, double step_im, "
                           "double delta_re, double delta_im, double div, bool step_is_zero, bool complex_bounds, "
                           "double stop_re, double stop_im, bool set_last, " +
                           idx + " n",
                       "ca::linspace<" + t + ", " + idx +
                           ">(dst, start_re, start_im, step_re, step_im, delta_re, delta_im, div, step_is_zero, "
                           "complex_bounds, stop_re, stop_im, set_last, n);");
}

KernelSource eye_source(DType dt, bool wide) {
  std::string idx = index_type(wide), t = cuda_type(dt);
  return kernel_source("creation.cuh", std::string("eye_") + name(dt) + (wide ? "_w" : ""),
                       t + "* dst, " + idx + " rows, " + idx + " cols, long long k",
                       "ca::eye<" + t + ", " + idx + ">(dst, rows, cols, k);");
}

KernelSource zero_blocks_source() {
  return kernel_source("creation.cuh", "zero_blocks", "ca::BlockList blocks, int words",
                       "ca::zero_blocks<int>(blocks, words);");
}

namespace {

// The pool's batched zeroing (Note [Zeroed blocks] in cuda/memory_pool.h): one row of the grid per block.
void zero_blocks(void* const* blocks, int count, std::size_t nbytes, cudaStream_t stream) {
  jit::Kernel k = cached_kernel(key_for(KernelKind::ZeroBlocks, DType::UInt8, false), zero_blocks_source);
  void* list[32] = {};
  std::copy(blocks, blocks + count, list);
  int words = static_cast<int>(nbytes / 16);
  void* args[] = {list, &words};
  dim3 grid = jit::grid_for(words);
  grid.y = static_cast<unsigned>(count);
  jit::launch(k, grid, dim3(jit::kBlockSize), args, 0, stream);
}

}  // namespace

Array zeros(Shape shape, DType dtype, Order order) {
  static const bool registered = (cuda::MemoryPool::set_zero_blocks(zero_blocks), true);
  (void)registered;
  if (is_void(dtype)) throw TypeError("zeros: a void type's itemsize is the array's (Note [Void storage])");
  std::int64_t size = checked_size(shape, itemsize(dtype));
  Strides strides = order == Order::C ? c_strides(shape, itemsize(dtype)) : f_strides(shape, itemsize(dtype));
  auto buffer = cuda::allocate_zeroed(static_cast<std::size_t>(size * itemsize(dtype)));
  return Array(std::move(buffer), 0, std::move(shape), std::move(strides), dtype);
}

void fill(const Array& dst, const void* value) {
  // `value` already holds the count (Note [Datetime storage]).
  if (is_time(dst.dtype())) return fill(dst.view(DType::Int64), value);
  if (dst.size() == 0) return;
  check_same_device(dst, "fill");
  cudaStream_t stream = cuda::current_stream()->handle();
  bool contiguous = dst.c_contiguous() || dst.f_contiguous();
  if (is_void(dst.dtype())) {
    // Note [Void storage]: one element's bytes, broadcast by the copy.
    const char* bytes = static_cast<const char*>(value);
    if (contiguous && std::all_of(bytes, bytes + dst.itemsize(), [](char c) { return c == 0; })) {
      CUARRAY_CHECK_CUDA(cudaMemsetAsync(dst.data(), 0, dst.nbytes(), stream));
      return;
    }
    Array one = Array::of_type(dst, Shape{});
    copy_from_host(one, value);
    copy_into(dst, one);
    return;
  }
  static const char zero[16] = {};
  if (contiguous && std::memcmp(value, zero, dst.itemsize()) == 0) {
    CUARRAY_CHECK_CUDA(cudaMemsetAsync(dst.data(), 0, dst.nbytes(), stream));
    return;
  }
  std::int64_t n = dst.size();
  void* d = dst.data();
  void* v = const_cast<void*>(value);
  if (contiguous) {
    bool wide = n > INT32_MAX - 64;
    int e = fill_items(dst.dtype());
    bool aligned = reinterpret_cast<std::uintptr_t>(d) % std::min(16, e * dst.itemsize()) == 0;
    KernelKey key = key_for(KernelKind::FillContiguous, dst.dtype(), wide);
    key.add(aligned, 1);
    jit::Kernel k = cached_kernel(key, [&] { return fill_contiguous_source(dst.dtype(), wide, aligned); });
    std::int64_t n64 = n;
    int n32 = static_cast<int>(n);
    void* args[] = {&d, v, wide ? static_cast<void*>(&n64) : static_cast<void*>(&n32)};
    jit::launch(k, jit::grid_for(n, e), dim3(jit::kBlockSize), args, 0, stream);
    return;
  }
  StridedArgs sa(coalesce_in_memory_order(dst.shape(), {dst.strides()}));
  KernelKey key = key_for(KernelKind::Fill, dst.dtype(), sa.wide());
  key.add(sa.ndim(), 7);
  jit::Kernel k = cached_kernel(key, [&] { return fill_strided_source(dst.dtype(), sa.ndim(), sa.wide()); });
  launch_n(k, {&d, v, sa.data()}, n, stream);
}

Array arange(std::int64_t n, const void* first, const void* second, DType dtype) {
  if (is_complex(dtype)) throw TypeError("arange does not support complex dtypes in cuarray; use a float dtype");
  Array out(Shape{n}, dtype);
  if (n == 0) return out;
  bool wide = n > INT32_MAX;
  jit::Kernel k = cached_kernel(key_for(KernelKind::Arange, dtype, wide), [&] { return arange_source(dtype, wide); });
  void* d = out.data();
  launch_n(k, {&d, const_cast<void*>(first), const_cast<void*>(second)}, n, cuda::current_stream()->handle());
  return out;
}

Array linspace(std::complex<double> start, std::complex<double> stop, std::int64_t num, bool endpoint, DType dtype,
               bool complex_bounds) {
  if (num < 0) throw ValueError("Number of samples, " + std::to_string(num) + ", must be non-negative.");
  Array out(Shape{num}, dtype);
  if (num == 0) return out;
  std::int64_t div = endpoint ? num - 1 : num;
  std::complex<double> delta = stop - start;
  // With no intervals (num == 1 and endpoint) NumPy multiplies by delta itself; index 0 makes that `start`.
  std::complex<double> step = delta;
  double dv = static_cast<double>(div);
  if (div > 0 && complex_bounds) {
    // NumPy divides a complex delta by div + 0j as by any complex number, by Smith's method: times 1 / div,
    // with the other part's product by 0 (a NaN where that part is infinite), not each part over div.
    double rat = 0.0 / dv, scl = 1.0 / (dv + 0.0 * rat);
    step = {(delta.real() + delta.imag() * rat) * scl, (delta.imag() - delta.real() * rat) * scl};
  } else if (div > 0) {
    step = delta / dv;
  }
  bool step_is_zero = div > 0 && step == std::complex<double>(0.0, 0.0);
  double re0 = start.real(), im0 = start.imag(), sre = step.real(), sim = step.imag();
  double dre = delta.real(), dim = delta.imag();
  double ere = stop.real(), eim = stop.imag();
  bool set_last = endpoint && num > 1;
  bool wide = num > INT32_MAX;
  jit::Kernel k =
      cached_kernel(key_for(KernelKind::Linspace, dtype, wide), [&] { return linspace_source(dtype, wide); });
  void* d = out.data();
  launch_n(k, {&d, &re0, &im0, &sre, &sim, &dre, &dim, &dv, &step_is_zero, &complex_bounds, &ere, &eim, &set_last}, num,
           cuda::current_stream()->handle());
  return out;
}

Array eye(std::int64_t rows, std::int64_t cols, std::int64_t k_diag, DType dtype, Order order) {
  if (order == Order::F) {  // the transpose of the C-ordered eye with the opposite diagonal
    Array t = eye(cols, rows, -k_diag, dtype, Order::C);
    return t.view(Shape{rows, cols}, Strides{t.strides()[1], t.strides()[0]});
  }
  Array out(Shape{rows, cols}, dtype);
  std::int64_t n = out.size();
  if (n == 0) return out;
  bool wide = n > INT32_MAX;
  jit::Kernel k = cached_kernel(key_for(KernelKind::Eye, dtype, wide), [&] { return eye_source(dtype, wide); });
  void* d = out.data();
  std::int64_t r64 = rows, c64 = cols;
  int r32 = static_cast<int>(rows), c32 = static_cast<int>(cols);
  void* args[] = {&d, wide ? static_cast<void*>(&r64) : static_cast<void*>(&r32),
                  wide ? static_cast<void*>(&c64) : static_cast<void*>(&c32), &k_diag};
  jit::launch(k, jit::grid_for(n), dim3(jit::kBlockSize), args, 0, cuda::current_stream()->handle());
  return out;
}

}  // namespace cuarray::ops
