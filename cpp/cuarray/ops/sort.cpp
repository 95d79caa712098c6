#include "cuarray/ops/sort.h"

#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/graph.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/creation.h"
#include "cuarray/ops/shape_ops.h"
#include "cuarray/ops/transfer.h"

namespace cuarray::ops {

namespace {

using std::to_string;

constexpr std::int64_t kSegmentCapacity = 2048;  // kernels/sort.cuh
constexpr std::int64_t kRadixBlock = 256;
constexpr std::int64_t kHistogramSpan = 256 * kRadixBlock;  // keys per histogram block
constexpr std::int64_t kMaxRadixRow = (1 << 30) - 1;        // counts carry 30 bits (kRadixCount)

int radix_digits(DType t) { return is_complex(t) ? itemsize(t) + 1 : itemsize(t); }
std::int64_t radix_tile(DType t) {  // kernels/sort.cuh: kRadixBlock * radix_items
  return kRadixBlock * (itemsize(t) <= 4 ? 16 : itemsize(t) == 8 ? 12 : 8);
}

const char* flag(bool b) { return b ? "true" : "false"; }

void launch(KernelKey key, KernelSource (*make)(DType, bool, bool), DType t, bool a, bool b, dim3 grid, dim3 block,
            void** args) {
  jit::Kernel k = cached_kernel(key, [&] { return make(t, a, b); });
  jit::launch(k, grid, block, args, 0, cuda::current_stream()->handle());
}

void segment_sort(const Array& keys, const Array* sorted, const Array* order, std::int64_t rows, std::int64_t n) {
  int p = 1;
  while (p < n) p <<= 1;
  const std::int64_t per_block = kSegmentCapacity / p, blocks = (rows + per_block - 1) / per_block;
  if (blocks > INT32_MAX) throw ValueError("sort: too many rows");
  const bool k = sorted != nullptr, i = order != nullptr;
  KernelKey key(KernelKind::SegmentSort);
  key.add(static_cast<int>(keys.dtype()), 5).add(k, 1).add(i, 1);
  const void* in = keys.data();
  void* keys_out = k ? sorted->data() : nullptr;
  void* idx_out = i ? order->data() : nullptr;
  std::int64_t rows_arg = rows;
  int n_arg = static_cast<int>(n);
  void* args[] = {&in, &keys_out, &idx_out, &rows_arg, &n_arg, &p};
  launch(key, segment_sort_source, keys.dtype(), k, i, dim3(static_cast<unsigned>(blocks)), dim3(kSegmentCapacity / 2),
         args);
}

void radix_sort(const Array& keys, const Array* sorted, const Array* order, std::int64_t rows, std::int64_t n) {
  if (n > kMaxRadixRow)
    throw ValueError("sort: rows of more than " + to_string(kMaxRadixRow) + " elements are not supported");
  const DType t = keys.dtype();
  const int passes = radix_digits(t);
  const std::int64_t tiles_per_row = (n + radix_tile(t) - 1) / radix_tile(t), tiles = rows * tiles_per_row;
  if (tiles > INT32_MAX) throw ValueError("sort: the array is too large");
  cuda::check_not_capturing(*cuda::current_stream(), "Sorting rows of more than 2048 elements (a radix sort)");
  cudaStream_t stream = cuda::current_stream()->handle();

  // Digit counts of every pass in one read, then their exclusive scans and which passes matter.
  const std::int64_t hist_words = rows * passes * 256;
  Array hist({hist_words + passes}, DType::UInt32);
  CUARRAY_CHECK_CUDA(cudaMemsetAsync(hist.data(), 0, hist.nbytes(), stream));
  void* hist_ptr = hist.data();
  void* nontrivial_ptr = hist.data() + 4 * hist_words;
  const void* keys_ptr = keys.data();
  std::int64_t n_arg = n, tpr = tiles_per_row;
  {
    KernelKey key(KernelKind::RadixHistogram);
    key.add(static_cast<int>(t), 5);
    jit::Kernel k = cached_kernel(key, [&] { return radix_histogram_source(t); });
    std::int64_t blocks_per_row = (n + kHistogramSpan - 1) / kHistogramSpan;
    void* args[] = {&keys_ptr, &n_arg, &blocks_per_row, &hist_ptr};
    jit::launch(k, dim3(static_cast<unsigned>(rows * blocks_per_row)), dim3(kRadixBlock), args, 0, stream);
  }
  {
    jit::Kernel k = cached_kernel(KernelKey(KernelKind::RadixOffsets), [] { return radix_offsets_source(); });
    int passes_arg = passes;
    void* args[] = {&hist_ptr, &n_arg, &passes_arg, &nontrivial_ptr};
    const std::int64_t blocks = rows * passes;
    if (blocks > INT32_MAX) throw ValueError("sort: too many rows");
    jit::launch(k, dim3(static_cast<unsigned>(blocks)), dim3(kRadixBlock), args, 0, stream);
  }
  std::vector<unsigned> nontrivial(passes);
  read_back(nontrivial.data(), nontrivial_ptr, 4 * passes);
  std::vector<int> run;
  for (int p = 0; p < passes; ++p)
    if (nontrivial[p]) run.push_back(p);
  if (run.empty()) run.push_back(0);  // every key has the same order key: one stable pass copies them

  // Ping-pong between the outputs and one scratch buffer each, so that the last pass lands in the output.
  const int npass = static_cast<int>(run.size());
  const std::int64_t status_words = tiles * 256 + 1;  // the last word is the pass's tile counter
  Array status({status_words * npass}, DType::UInt32);
  CUARRAY_CHECK_CUDA(cudaMemsetAsync(status.data(), 0, status.nbytes(), stream));
  Array keys_a = sorted ? *sorted : Array(keys.shape(), t);
  std::optional<Array> keys_b, vals_b;
  if (npass > 1) {
    keys_b.emplace(keys.shape(), t);
    if (order) vals_b.emplace(keys.shape(), DType::Int64);
  }
  for (int i = 0; i < npass; ++i) {
    const bool to_a = (npass - 1 - i) % 2 == 0;
    const void* kin = i == 0 ? keys.data() : (to_a ? keys_b->data() : keys_a.data());
    void* kout = to_a ? keys_a.data() : keys_b->data();
    const void* vin = nullptr;
    void* vout = nullptr;
    if (order) {
      vin = i == 0 ? nullptr : (to_a ? vals_b->data() : order->data());
      vout = to_a ? order->data() : vals_b->data();
    }
    const bool values = order != nullptr, iota = values && i == 0;
    KernelKey key(KernelKind::RadixPass);
    key.add(static_cast<int>(t), 5).add(values, 1).add(iota, 1);
    void* st = status.data() + 4 * status_words * i;
    void* counter = status.data() + 4 * (status_words * i + tiles * 256);
    int passes_arg = passes, pass = run[i];
    void* args[] = {&kin, &kout, &vin, &vout, &n_arg, &tpr, &hist_ptr, &passes_arg, &pass, &st, &counter};
    launch(key, radix_pass_source, t, values, iota, dim3(static_cast<unsigned>(tiles)), dim3(kRadixBlock), args);
  }
}

// The axes of `a` with `axis` moved last, for a transpose.
std::vector<std::int64_t> axis_last(int ndim, int axis) {
  std::vector<std::int64_t> perm;
  for (int d = 0; d < ndim; ++d)
    if (d != axis) perm.push_back(d);
  perm.push_back(axis);
  return perm;
}

// Sorts `a` along `axis` into a result of a's shape: the values laid out as `a` (order 'K', as NumPy sorts a copy
// of that order) where the axis is not the last, else C-ordered; the permutation C-ordered, as NumPy's argsort.
Array sort_along(const Array& a, int axis, bool indices) {
  check_computable(a.dtype(), "sorts");
  check_same_device(a, "sort");
  if (a.ndim() == 0) throw ValueError("sort: the array must have at least one dimension");
  axis = normalize_axis(axis, a.ndim());
  const DType out_type = indices ? DType::Int64 : a.dtype();
  const bool last = axis == a.ndim() - 1;
  std::vector<std::int64_t> perm = axis_last(a.ndim(), axis);
  Array moved = last ? a : transpose(a, perm);
  Array keys = ascontiguous(moved);
  Array out(moved.shape(), out_type);
  if (a.size() > 0) {
    const std::int64_t n = a.shape()[axis], rows = a.size() / n;
    Array keys2 = keys.view({rows, n}, c_strides({rows, n}, keys.itemsize()));
    Array out2 = out.view({rows, n}, c_strides({rows, n}, out.itemsize()));
    sort_rows(keys2, indices ? nullptr : &out2, indices ? &out2 : nullptr);
  }
  if (last) return out;
  std::vector<std::int64_t> inverse(a.ndim());
  for (int d = 0; d < a.ndim(); ++d) inverse[perm[d]] = d;
  Array result = indices ? Array(a.shape(), out_type) : Array::like(a, out_type);
  copy_into(result, transpose(out, inverse));
  return result;
}

}  // namespace

KernelSource segment_sort_source(DType t, bool keys, bool indices) {
  std::string ty = cuda_type(t);
  return kernel_source(
      "sort.cuh", std::string("segment_sort_") + name(t) + (keys ? "_k" : "") + (indices ? "_i" : ""),
      "const " + ty + "* in, " + ty + "* keys_out, long long* idx_out, long long rows, int n, int p",
      "ca::segment_sort<" + ty + ", " + flag(keys) + ", " + flag(indices) + ">(in, keys_out, idx_out, rows, n, p);");
}

KernelSource radix_histogram_source(DType t) {
  std::string ty = cuda_type(t);
  return kernel_source("sort.cuh", std::string("radix_histogram_") + name(t),
                       "const " + ty + "* keys, long long n, long long blocks_per_row, unsigned* hist",
                       "ca::radix_histogram<" + ty + ">(keys, n, blocks_per_row, hist);");
}

KernelSource radix_offsets_source() {
  return kernel_source("sort.cuh", "radix_offsets", "unsigned* hist, long long n, int passes, unsigned* nontrivial",
                       "ca::radix_offsets(hist, n, passes, nontrivial);");
}

KernelSource radix_pass_source(DType t, bool values, bool iota) {
  std::string ty = cuda_type(t);
  return kernel_source("sort.cuh", std::string("radix_pass_") + name(t) + (values ? "_v" : "") + (iota ? "_iota" : ""),
                       "const " + ty + "* keys_in, " + ty +
                           "* keys_out, const long long* vals_in, long long* vals_out, "
                           "long long n, long long tiles_per_row, const unsigned* offsets, int passes, int pass, "
                           "unsigned* status, unsigned* counter",
                       "ca::radix_pass<" + ty + ", " + flag(values) + ", " + flag(iota) +
                           ">(keys_in, keys_out, vals_in, vals_out, n, tiles_per_row, offsets, passes, pass, status, "
                           "counter);",
                       "__launch_bounds__(ca::kRadixBlock, ca::radix_min_blocks<" + ty + ">)");
}

KernelSource searchsorted_source(DType t, bool right) {
  std::string ty = cuda_type(t);
  return kernel_source("sort.cuh", std::string("searchsorted_") + name(t) + (right ? "_right" : "_left"),
                       "const " + ty + "* a, long long n, const long long* sorter, const " + ty +
                           "* v, long long m, long long* out, int* bad_sorter",
                       "ca::search_sorted<" + ty + ", " + flag(right) + ">(a, n, sorter, v, m, out, bad_sorter);");
}

void sort_rows(const Array& keys, const Array* sorted, const Array* order) {
  check_same_device(keys, "sort");
  if (keys.ndim() != 2 || !keys.c_contiguous()) throw ValueError("sort_rows: expected a C-contiguous 2-d array");
  for (const Array* o : {sorted, order})
    if (o && (o->shape() != keys.shape() || !o->c_contiguous()))
      throw ValueError("sort_rows: the outputs must be C-contiguous arrays of the keys' shape");
  if (sorted && sorted->dtype() != keys.dtype()) throw ValueError("sort_rows: sorted values must have the keys' dtype");
  if (order && order->dtype() != DType::Int64) throw ValueError("sort_rows: the permutation must be int64");
  const std::int64_t rows = keys.shape()[0], n = keys.shape()[1];
  if (rows == 0 || n == 0) return;
  if (n <= kSegmentCapacity)
    segment_sort(keys, sorted, order, rows, n);
  else
    radix_sort(keys, sorted, order, rows, n);
}

Array sort(const Array& a, int axis) { return sort_along(a, axis, false); }

Array argsort(const Array& a, int axis) { return sort_along(a, axis, true); }

Array searchsorted(const Array& a, const Array& v, bool right, const Array* sorter) {
  check_same_device(a, "searchsorted");
  check_same_device(v, "searchsorted");
  if (a.ndim() != 1) throw ValueError("object too deep for desired array");
  if (v.dtype() != a.dtype()) throw ValueError("searchsorted: the values must have the array's dtype");
  Array sa = ascontiguous(a), sv = ascontiguous(v);
  std::optional<Array> so;
  if (sorter) {
    check_same_device(*sorter, "searchsorted");
    if (sorter->shape() != a.shape()) throw ValueError("sorter.size must equal a.size");
    so = sorter->dtype() == DType::Int64 && sorter->c_contiguous() ? *sorter : astype(*sorter, DType::Int64, 'C');
  }
  Array out(v.shape(), DType::Int64);
  if (out.size() == 0) return out;
  KernelKey key(KernelKind::SearchSorted);
  key.add(static_cast<int>(a.dtype()), 5).add(right, 1);
  jit::Kernel k = cached_kernel(key, [&] { return searchsorted_source(a.dtype(), right); });
  const void* a_ptr = sa.data();
  const void* s_ptr = so ? so->data() : nullptr;
  const void* v_ptr = sv.data();
  void* o_ptr = out.data();
  std::int64_t n = a.size(), m = v.size();
  // With a sorter, the kernel flags an entry out of range instead of reading outside `a`; the flag is read
  // back, a synchronisation paid only by searches with a sorter.
  std::optional<Array> bad;
  if (so) bad = zeros(Shape{}, DType::Int32, Order::C);
  void* b_ptr = bad ? bad->data() : nullptr;
  void* args[] = {&a_ptr, &n, &s_ptr, &v_ptr, &m, &o_ptr, &b_ptr};
  jit::launch(k, jit::grid_for(m), dim3(jit::kBlockSize), args, 0, cuda::current_stream()->handle());
  if (bad) {
    std::int32_t flag = 0;
    copy_to_host(&flag, *bad);
    if (flag) throw ValueError("Sorter index out of range.");
  }
  return out;
}

}  // namespace cuarray::ops
