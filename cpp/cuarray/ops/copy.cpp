#include "cuarray/ops/copy.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"
#include "cuarray/ops/codegen.h"
#include "cuarray/ops/kernel_registry.h"
#include "cuarray/ops/strided_args.h"
#include "cuarray/ops/transfer.h"

namespace cuarray::ops {

namespace {

using std::to_string;

bool overlaps(const Array& a, const Array& b) {
  if (a.buffer() != b.buffer() || a.size() == 0 || b.size() == 0) return false;
  auto [a_lo, a_hi] = byte_extent(a.shape(), a.strides(), a.itemsize());
  auto [b_lo, b_hi] = byte_extent(b.shape(), b.strides(), b.itemsize());
  a_lo += a.offset(), a_hi += a.offset(), b_lo += b.offset(), b_hi += b.offset();
  return a_lo < b_hi && b_lo < a_hi;
}

void launch_contiguous(const Array& dst, const Array& src, cudaStream_t stream) {
  std::int64_t n = dst.size();
  bool wide = n > INT32_MAX;
  KernelKey key(KernelKind::CopyContiguous);
  key.add(static_cast<int>(dst.dtype()), 5).add(static_cast<int>(src.dtype()), 5).add(wide, 1);
  jit::Kernel k = cached_kernel(key, [&] { return copy_contiguous_source(dst.dtype(), src.dtype(), wide); });
  void* d = dst.data();
  const void* s = src.data();
  std::int64_t n64 = n;
  int n32 = static_cast<int>(n);
  void* args[] = {&d, &s, wide ? static_cast<void*>(&n64) : static_cast<void*>(&n32)};
  jit::launch(k, jit::grid_for(n), dim3(jit::kBlockSize), args, 0, stream);
}

// After coalescing: (batch?, rows, cols) where dst is unit-stride along cols and src along rows.
bool try_transpose(const Array& dst, const Array& src, const Coalesced& c, cudaStream_t stream) {
  int nd = static_cast<int>(c.shape.size());
  if (nd < 2 || nd > 3) return false;
  const Strides& ds = c.strides[0];
  const Strides& ss = c.strides[1];
  int di = dst.itemsize(), si = src.itemsize();
  if (ds[nd - 1] != di || ss[nd - 2] != si || ss[nd - 1] == si) return false;
  for (int d = 0; d < nd; ++d)
    if (ds[d] % di || ss[d] % si || ds[d] < 0 || ss[d] < 0) return false;
  long long rows = c.shape[nd - 2], cols = c.shape[nd - 1];
  long long batches = nd == 3 ? c.shape[0] : 1;
  const long long tile = si > 8 ? 32 : 64;  // kernels/copy.cuh's transpose_tile
  if (rows < 8 || cols < 8 || batches > 65535 || (rows + tile - 1) / tile > 65535) return false;
  long long dst_row = ds[nd - 2] / di, src_col = ss[nd - 1] / si;
  long long dst_batch = nd == 3 ? ds[0] / di : 0, src_batch = nd == 3 ? ss[0] / si : 0;

  // 32-bit indices when every element offset of both operands fits.
  bool wide = (batches - 1) * std::max(dst_batch, src_batch) + rows * cols * 2 > INT32_MAX / 2 ||
              rows * std::max<long long>(dst_row, 1) > INT32_MAX / 2 ||
              cols * std::max<long long>(src_col, 1) > INT32_MAX / 2;
  KernelKey key(KernelKind::CopyTranspose);
  key.add(static_cast<int>(dst.dtype()), 5).add(static_cast<int>(src.dtype()), 5).add(wide, 1);
  jit::Kernel k = cached_kernel(key, [&] { return copy_transpose_source(dst.dtype(), src.dtype(), wide); });
  void* d = dst.data();
  const void* s = src.data();
  long long v64[6] = {rows, cols, dst_row, dst_batch, src_col, src_batch};
  int v32[6];
  for (int i = 0; i < 6; ++i) v32[i] = static_cast<int>(v64[i]);
  void* args[8] = {&d, &s};
  for (int i = 0; i < 6; ++i) args[2 + i] = wide ? static_cast<void*>(&v64[i]) : static_cast<void*>(&v32[i]);
  dim3 grid(static_cast<unsigned>((cols + tile - 1) / tile), static_cast<unsigned>((rows + tile - 1) / tile),
            static_cast<unsigned>(batches));
  jit::launch(k, grid, dim3(32, 8), args, 0, stream);
  return true;
}

void launch_strided(const Array& dst, const Array& src, const Coalesced& c, cudaStream_t stream) {
  StridedArgs sa(c);
  int nd = sa.ndim();
  KernelKey key(KernelKind::Copy);
  key.add(static_cast<int>(dst.dtype()), 5).add(static_cast<int>(src.dtype()), 5).add(nd, 7).add(sa.wide(), 1);
  jit::Kernel k = cached_kernel(key, [&] { return copy_strided_source(dst.dtype(), src.dtype(), nd, sa.wide()); });
  void* d = dst.data();
  const void* s = src.data();
  std::int64_t n64 = dst.size();
  int n32 = static_cast<int>(n64);
  void* args[] = {&d, &s, sa.data(), sa.wide() ? static_cast<void*>(&n64) : static_cast<void*>(&n32)};
  jit::launch(k, jit::grid_for(n64), dim3(jit::kBlockSize), args, 0, stream);
}

}  // namespace

KernelSource copy_contiguous_source(DType to, DType from, bool wide) {
  std::string idx = index_type(wide), t = cuda_type(to), f = from == to ? cuda_type(from) : read_type(from);
  return kernel_source("copy.cuh", std::string("copy_contiguous_") + name(to) + "_" + name(from) + (wide ? "_w" : ""),
                       t + "* dst, const " + f + "* src, " + idx + " n",
                       "ca::copy_contiguous<" + t + ", " + f + ", " + idx + ">(dst, src, n);");
}

KernelSource copy_strided_source(DType to, DType from, int nd, bool wide) {
  std::string idx = index_type(wide), t = cuda_type(to), f = from == to ? cuda_type(from) : read_type(from),
              n = to_string(nd);
  return kernel_source("copy.cuh",
                       std::string("copy_strided_") + name(to) + "_" + name(from) + "_" + n + (wide ? "_w" : ""),
                       "char* dst, const char* src, ca::Strided<" + n + ", 2> s, " + idx + " n",
                       "ca::copy_strided<" + t + ", " + f + ", " + idx + ", " + n + ">(dst, src, s, n);");
}

KernelSource copy_transpose_source(DType to, DType from, bool wide) {
  std::string t = cuda_type(to), f = from == to ? cuda_type(from) : read_type(from), idx = index_type(wide);
  return kernel_source("copy.cuh", std::string("copy_transpose_") + name(to) + "_" + name(from) + (wide ? "_w" : ""),
                       t + "* dst, const " + f + "* src, " + idx + " rows, " + idx + " cols, " + idx + " dst_row, " +
                           idx + " dst_batch, " + idx + " src_col, " + idx + " src_batch",
                       "ca::copy_transpose<" + t + ", " + f + ", " + idx +
                           ">(dst, src, rows, cols, dst_row, dst_batch, src_col, src_batch);");
}

int widest_unit(const Array& a) {
  const auto address = reinterpret_cast<std::uintptr_t>(a.data());
  for (int unit : {8, 4, 2}) {
    bool ok = a.itemsize() % unit == 0 && address % static_cast<std::uintptr_t>(unit) == 0;
    for (auto s : a.strides()) ok = ok && s % unit == 0;
    if (ok) return unit;
  }
  return 1;
}

Array as_units(const Array& a, int unit) {
  const DType t = unit == 8 ? DType::UInt64 : unit == 4 ? DType::UInt32 : unit == 2 ? DType::UInt16 : DType::UInt8;
  Shape shape = a.shape();
  Strides strides = a.strides();
  shape.push_back(a.itemsize() / unit);
  strides.push_back(unit);
  return a.view(t).view(std::move(shape), std::move(strides));
}

void copy_into(const Array& dst, const Array& src) {
  // Note [Assignment shapes]
  // NumPy's assignment drops the source's leading length-1 axes beyond the destination's rank (a[:] = b[None]
  // works, and CuPy's does the same), and checks that the shapes broadcast also when nothing is copied.
  const size_t extra = src.shape().size() > dst.shape().size() ? src.shape().size() - dst.shape().size() : 0;
  if (extra && std::all_of(src.shape().begin(), src.shape().begin() + extra, [](std::int64_t n) { return n == 1; })) {
    copy_into(dst, src.view(Shape(src.shape().begin() + extra, src.shape().end()),
                            Strides(src.strides().begin() + extra, src.strides().end())));
    return;
  }
  Strides src_strides = broadcast_strides(src.shape(), src.strides(), dst.shape());  // throws if they don't
  if (is_void(dst.dtype()) || is_void(src.dtype())) {
    // Note [Void storage]: the bytes move, between void types of one itemsize (casts by field are Python's).
    if (!is_void(dst.dtype()) || !is_void(src.dtype()) || dst.itemsize() != src.itemsize() ||
        dst.descr() != src.descr())
      throw TypeError("cuarray copies the bytes of structured and void data only to the same type (" +
                      to_string(src.itemsize()) + " bytes " + name(src.dtype()) + " to " + to_string(dst.itemsize()) +
                      " bytes " + name(dst.dtype()) + "); other structured types are assigned field by field");
    if (dst.size() == 0) return;
    Array from = src.view(dst.shape(), src_strides);
    const int unit = std::min(widest_unit(dst), widest_unit(from));
    copy_into(as_units(dst, unit), as_units(from, unit));
    return;
  }
  if (is_time(dst.dtype()) || is_time(src.dtype())) {
    // Note [Datetime storage]: the counts move as int64, to the same type only.
    if (dst.dtype() != src.dtype())
      throw TypeError(std::string("cuarray cannot cast ") + name(src.dtype()) + " to " + name(dst.dtype()) +
                      ": it copies datetime64 and timedelta64 data only to the same type (for the counts, take "
                      ".view(numpy.int64); to change the unit or the type, cast with NumPy)");
    if (dst.size() == 0) return;
    copy_into(dst.view(DType::Int64), src.view(DType::Int64));
    return;
  }
  if (dst.size() == 0) return;
  if (dst.device() != cuda::current_device() || src.device() != dst.device()) {
    // Note [Copies between devices]
    // CuPy copies into an array of any device from an array of any other (ndarray.copy under another Device,
    // copyto, assignment). The copy runs on the destination's device, after the work queued on its current
    // stream; a source elsewhere is first brought there whole (copy_from_device: a peer copy ordered after
    // the work queued on the source device's current stream, staged through the host where the GPUs have no
    // peer path), then copied into place as any array of that device. Other operations still refuse arrays
    // of another device (check_same_device): only a copy moves data between GPUs.
    cuda::DeviceGuard guard(dst.device());
    copy_into(dst, src.device() == dst.device() ? src : copy_from_device(src));
    return;
  }
  if (overlaps(dst, src)) {
    copy_into(dst, astype(src, src.dtype(), 'C'));
    return;
  }
  cudaStream_t stream = cuda::current_stream()->handle();
  bool same_layout = src.shape() == dst.shape() &&
                     ((dst.c_contiguous() && src.c_contiguous()) || (dst.f_contiguous() && src.f_contiguous()));
  if (same_layout && dst.dtype() == src.dtype()) {
    CUARRAY_CHECK_CUDA(cudaMemcpyAsync(dst.data(), src.data(), dst.nbytes(), cudaMemcpyDeviceToDevice, stream));
    return;
  }
  if (same_layout) {
    launch_contiguous(dst, src, stream);
    return;
  }
  Coalesced c = coalesce_in_memory_order(dst.shape(), {dst.strides(), src_strides});
  if (try_transpose(dst, src, c, stream)) return;
  launch_strided(dst, src, c, stream);
}

Array astype(const Array& src, DType dtype, char order) {
  Order o = Order::C;
  if (order == 'F' || (order == 'A' && src.f_contiguous() && !src.c_contiguous())) o = Order::F;
  Array out = order == 'K'                             ? Array::like(src, dtype)
              : is_void(dtype) && is_void(src.dtype()) ? Array::of_type(src, src.shape(), o)
                                                       : Array(src.shape(), dtype, o);
  copy_into(out, src);
  return out;
}

Array ascontiguous(const Array& src) { return src.c_contiguous() ? src : astype(src, src.dtype(), 'C'); }

}  // namespace cuarray::ops
