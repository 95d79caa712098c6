#include "cuarray/ops/scan.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"
#include "cuarray/ops/codegen.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/strided_args.h"

namespace cuarray::ops {

namespace {

using std::to_string;

constexpr std::int64_t kScanBlock = 128, kScanChunks = 24, kScanStaged = 16;  // kernels/scan.cuh

// The type the scan accumulates in for output dtype `out`: integers wrap in 64 bits and are truncated on
// store, which gives the same result as accumulating in the narrower type. A running maximum or minimum of
// signed integers compares them signed.
const char* accumulator(DType out, ScanOp op) {
  if ((op == ScanOp::Max || op == ScanOp::Min) && kind(out) == Kind::Signed) return "long long";
  switch (kind(out)) {
    case Kind::Float:
      return out == DType::Float64 ? "double" : "float";
    case Kind::Complex:
      return cuda_type(out);
    default:
      return "unsigned long long";
  }
}

int accumulator_size(DType out) {
  switch (kind(out)) {
    case Kind::Float:
      return out == DType::Float64 ? 8 : 4;
    case Kind::Complex:
      return itemsize(out);
    default:
      return 8;
  }
}

// Elements a lane holds per chunk, and elements per tile (kernels/scan.cuh: scan_vector, scan_staged,
// scan_tile).
std::int64_t scan_vector(DType out) { return accumulator_size(out) >= 16 ? 1 : 16 / accumulator_size(out); }
std::int64_t scan_tile(DType in, DType out) {
  const std::int64_t staged_bytes = scan_vector(out) * itemsize(in);
  const bool staged = staged_bytes == 4 || staged_bytes == 8 || staged_bytes == 16;
  return kScanBlock * (kScanChunks + (staged ? kScanStaged : 0)) * scan_vector(out);
}

// Whether every row starts at a multiple of `bytes` and its elements are adjacent.
bool rows_aligned(const void* data, std::int64_t step, std::int64_t itemsize, const Strides& row_strides,
                  std::int64_t bytes) {
  if (step != itemsize || reinterpret_cast<std::uintptr_t>(data) % bytes != 0) return false;
  for (std::int64_t s : row_strides)
    if (s % bytes != 0) return false;
  return true;
}

const char* const kOpNames[] = {"_sum", "_prod", "_max", "_min"};

// The running extremes break ties as NumPy's loop for the stored type does (kernels/scan.cuh: ExtremeOp).
std::string op_struct(DType out, ScanOp op) {
  switch (op) {
    case ScanOp::Sum:
      return "ca::SumOp";
    case ScanOp::Prod:
      return "ca::ProdOp";
    default:
      return std::string("ca::ExtremeOp<") + (op == ScanOp::Max ? "true, " : "false, ") + cuda_type(out) + ">";
  }
}

std::string template_args(DType in, DType out, ScanOp op, bool skip_nan, int ndim) {
  return std::string(read_type(in)) + ", " + cuda_type(out) + ", " + accumulator(out, op) + ", " + op_struct(out, op) +
         ", " + (skip_nan ? "true" : "false") + ", " + to_string(ndim);
}

std::string kernel_name(const char* kind, DType in, DType out, ScanOp op, bool skip_nan, int ndim) {
  return std::string(kind) + "_" + name(in) + "_" + name(out) + kOpNames[static_cast<int>(op)] +
         (skip_nan ? "_nan_" : "_") + to_string(ndim);
}

KernelKey scan_key(KernelKind kind, DType in, DType out, ScanOp op, bool skip_nan, int ndim) {
  KernelKey key(kind);
  key.add(static_cast<int>(in), 5)
      .add(static_cast<int>(out), 5)
      .add(static_cast<int>(op), 2)
      .add(skip_nan, 1)
      .add(ndim, 7);
  return key;
}

bool same_view(const Array& a, const Array& b) {
  return a.data() == b.data() && a.shape() == b.shape() && a.strides() == b.strides();
}

bool overlaps(const Array& a, const Array& b) {
  if (a.buffer() != b.buffer()) return false;
  auto [a_lo, a_hi] = byte_extent(a.shape(), a.strides(), a.itemsize());
  auto [b_lo, b_hi] = byte_extent(b.shape(), b.strides(), b.itemsize());
  return a.offset() + a_lo < b.offset() + b_hi && b.offset() + b_lo < a.offset() + a_hi;
}

// Note [Scan occupancy]
// A float or double accumulator's tile kernel is held to 128 registers, so that 4 blocks fit on an SM instead
// of 3 (float32 and float64 took more): a large cumsum of float32, float64 (a few bytes of spills) and float16
// gained bandwidth. Integer (64-bit) and complex accumulators lost under the bound (spills), so they keep the
// compiler's choice (the figures: benchmarks/README.md, "Measurements behind the Notes").
std::string scan_tiles_bounds(DType out) {
  return kind(out) == Kind::Float ? "__launch_bounds__(" + to_string(kScanBlock) + ", 4)" : "";
}

}  // namespace

KernelSource scan_tiles_source(DType in, DType out, ScanOp op, bool skip_nan, int ndim, bool vector) {
  std::string n = to_string(ndim);
  return kernel_source("scan.cuh", kernel_name(vector ? "scan_tiles_v" : "scan_tiles", in, out, op, skip_nan, ndim),
                       "const char* in, char* out, ca::Strided<" + n +
                           ", 2> rows, long long n, long long in_step, "
                           "long long out_step, long long tiles_per_row, long long tiles, char* scratch, "
                           "unsigned long long* counter",
                       "ca::scan_tiles<" + template_args(in, out, op, skip_nan, ndim) +
                           (vector ? ", true" : ", false") +
                           ">(in, out, rows, n, in_step, out_step, tiles_per_row, tiles, scratch, counter);",
                       scan_tiles_bounds(out));
}

KernelSource scan_rows_source(DType in, DType out, ScanOp op, bool skip_nan, int ndim) {
  std::string n = to_string(ndim);
  return kernel_source(
      "scan.cuh", kernel_name("scan_rows", in, out, op, skip_nan, ndim),
      "const char* in, char* out, ca::Strided<" + n +
          ", 2> rows, long long nrows, long long n, "
          "long long in_step, long long out_step",
      "ca::scan_rows<" + template_args(in, out, op, skip_nan, ndim) + ">(in, out, rows, nrows, n, in_step, out_step);");
}

void scan(const Array& a, int axis, ScanOp op, bool skip_nan, const Array& out) {
  check_same_device(a, "scan");
  check_same_device(out, "scan");
  if (a.shape() != out.shape())
    throw ValueError("scan: the output has shape " + shape_str(out.shape()) + " but the input has shape " +
                     shape_str(a.shape()));
  if (a.ndim() == 0) throw ValueError("scan: the input must have at least one dimension");
  axis = normalize_axis(axis, a.ndim());
  if (a.size() == 0) return;
  if (!same_view(a, out) && overlaps(a, out)) {
    Array tmp = Array::like(out, out.dtype());
    scan(a, axis, op, skip_nan, tmp);
    copy_into(out, tmp);
    return;
  }
  const std::int64_t n = a.shape()[axis], nrows = a.size() / n;
  std::int64_t in_step = a.strides()[axis], out_step = out.strides()[axis];
  Shape rows_shape;
  std::vector<Strides> rows_strides(2);
  for (int d = 0; d < a.ndim(); ++d) {
    if (d == axis) continue;
    rows_shape.push_back(a.shape()[d]);
    rows_strides[0].push_back(a.strides()[d]);
    rows_strides[1].push_back(out.strides()[d]);
  }
  StridedArgs rows(coalesce_in_memory_order(rows_shape, rows_strides));
  const int nd = rows.ndim();
  cudaStream_t stream = cuda::current_stream()->handle();
  const void* src = a.data();
  void* dst = out.data();

  // Many short rows, or rows whose neighbours lie closer in memory than their elements: a thread per row.
  if (n <= 16 || (nrows >= 4096 && std::llabs(in_step) != a.itemsize())) {
    KernelKey key = scan_key(KernelKind::ScanRows, a.dtype(), out.dtype(), op, skip_nan, nd);
    jit::Kernel k = cached_kernel(key, [&] { return scan_rows_source(a.dtype(), out.dtype(), op, skip_nan, nd); });
    std::int64_t nrows_arg = nrows, n_arg = n;
    void* args[] = {&src, &dst, rows.data(), &nrows_arg, &n_arg, &in_step, &out_step};
    jit::launch(k, jit::grid_for(nrows), dim3(jit::kBlockSize), args, 0, stream);
    return;
  }

  const std::int64_t tile = scan_tile(a.dtype(), out.dtype());
  std::int64_t tiles_per_row = (n + tile - 1) / tile, tiles = nrows * tiles_per_row;
  if (tiles > INT32_MAX) throw ValueError("scan: the array is too large (" + to_string(tiles) + " tiles)");
  // Vector accesses when each lane's scan_vector elements are adjacent and aligned in the input and output.
  const std::int64_t vec = scan_vector(out.dtype());
  const std::int64_t in_bytes = std::min<std::int64_t>(16, vec * a.itemsize());
  const std::int64_t out_bytes = std::min<std::int64_t>(16, vec * out.itemsize());
  const bool vector = rows_aligned(src, in_step, a.itemsize(), rows_strides[0], in_bytes) &&
                      rows_aligned(dst, out_step, out.itemsize(), rows_strides[1], out_bytes);
  // Scratch: the tile counter, then the tiles' status (kernels/scan.cuh: scan_status, Note [Single-pass
  // scan]): a 64-bit word per tile for 4-byte accumulators, else flags, aggregates and prefixes.
  const std::int64_t c_size = accumulator_size(out.dtype());
  const std::int64_t flags_bytes = c_size <= 4 ? 8 * tiles : (4 * tiles + 15) / 16 * 16;
  const std::int64_t status_bytes = c_size <= 4 ? flags_bytes : flags_bytes + 2 * c_size * tiles;
  Array scratch({16 + status_bytes}, DType::UInt8);
  char* base = scratch.data();
  CUARRAY_CHECK_CUDA(cudaMemsetAsync(base, 0, 16 + flags_bytes, stream));
  void* counter = base;
  void* status = base + 16;
  KernelKey key = scan_key(KernelKind::ScanTiles, a.dtype(), out.dtype(), op, skip_nan, nd);
  key.add(vector, 1);
  jit::Kernel k =
      cached_kernel(key, [&] { return scan_tiles_source(a.dtype(), out.dtype(), op, skip_nan, nd, vector); });
  std::int64_t n_arg = n;
  void* args[] = {&src, &dst, rows.data(), &n_arg, &in_step, &out_step, &tiles_per_row, &tiles, &status, &counter};
  jit::launch(k, dim3(static_cast<unsigned>(tiles)), dim3(kScanBlock), args, 0, stream);
}

}  // namespace cuarray::ops
