#include "cuarray/ops/gather.h"

#include <algorithm>
#include <string>

#include "cuarray/cuda/graph.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"
#include "cuarray/ops/codegen.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/scan.h"
#include "cuarray/ops/strided_args.h"
#include "cuarray/ops/transfer.h"

namespace cuarray::ops {

namespace {

using std::to_string;

constexpr std::int64_t kCompactTile = 256 * 16;  // kernels/indexing.cuh: kCompactBlock * kCompactItems
constexpr int kMaxIndexArrays = 8;
constexpr int kMaxGatherDims = 16;

const char* layout_name(NonzeroLayout l) {
  return l == NonzeroLayout::Rows ? "rows" : l == NonzeroLayout::Columns ? "columns" : "flat";
}

// The kernel's mode (kernels/indexing.cuh IndexMode): InBounds indices are resolved as Raise's.
int kernel_mode(IndexMode m) { return m == IndexMode::Wrap ? 1 : m == IndexMode::Clip ? 2 : 0; }
const char* mode_name(int m) { return m == 0 ? "raise" : m == 1 ? "wrap" : "clip"; }

// An int64 C-contiguous copy of an integer index array (the array itself when it already is one).
Array as_index(const Array& a) {
  if (!is_integer(a.dtype())) throw IndexError("arrays used as indices must be of integer (or boolean) type");
  return a.dtype() == DType::Int64 && a.c_contiguous() ? a : astype(a, DType::Int64, 'C');
}

}  // namespace

KernelSource count_nonzero_source(DType t, int ndim) {
  std::string n = to_string(ndim);
  return kernel_source("indexing.cuh", std::string("count_nonzero_") + name(t) + "_" + n,
                       "const char* a, ca::Strided<" + n + ", 1> s, long long n, long long* counts",
                       std::string("ca::count_nonzero_tiles<") + read_type(t) + ", " + n + ">(a, s, n, counts);");
}

KernelSource write_nonzero_source(DType t, int ndim, NonzeroLayout layout) {
  std::string n = to_string(ndim);
  return kernel_source("indexing.cuh", std::string("write_nonzero_") + name(t) + "_" + n + "_" + layout_name(layout),
                       "const char* a, ca::Strided<" + n +
                           ", 1> s, long long n, const long long* inclusive, "
                           "const long long* counts, long long total, long long* out",
                       std::string("ca::write_nonzero<") + read_type(t) + ", " + n + ", " +
                           to_string(static_cast<int>(layout)) + ">(a, s, n, inclusive, counts, total, out);");
}

KernelSource gather_source(int itemsize, int ndim, int nindex, IndexMode index_mode, bool scatter) {
  const int mode = kernel_mode(index_mode);
  std::string b = to_string(itemsize), n = to_string(ndim), m = to_string(nindex);
  return kernel_source("indexing.cuh",
                       std::string(scatter ? "scatter_" : "gather_") + b + "_" + n + "_" + m + "_" + mode_name(mode),
                       "char* dense, char* indexed, ca::Strided<" + n + ", " + to_string(nindex + 2) +
                           "> s, ca::IndexArrays<" + m + "> idx, long long n",
                       "ca::gather_scatter<" + b + ", " + n + ", " + m + ", " + to_string(mode) + ", " +
                           (scatter ? "true" : "false") + ">(dense, indexed, s, idx, n);");
}

KernelSource index_bounds_source() {
  return kernel_source("indexing.cuh", "index_bounds", "const long long* x, long long n, long long* result",
                       "ca::index_bounds(x, n, result);");
}

Array nonzero(const Array& a, NonzeroLayout layout) {
  check_same_device(a, "nonzero");
  cuda::check_not_capturing(*cuda::current_stream(), "nonzero (also boolean-mask indexing, argwhere, compress)");
  const std::int64_t n = a.size();
  const std::int64_t nd = a.ndim();
  auto result = [&](std::int64_t count) {
    if (layout == NonzeroLayout::Rows) return Array({nd, count}, DType::Int64);
    if (layout == NonzeroLayout::Columns) return Array({count, nd}, DType::Int64);
    return Array({count}, DType::Int64);
  };
  if (n == 0) return result(0);
  // Coordinates need every axis; flat indices only C order, which coalescing keeps.
  Coalesced c =
      layout == NonzeroLayout::Flat ? coalesce(a.shape(), {a.strides()}) : Coalesced{a.shape(), {a.strides()}};
  StridedArgs s(c);
  const int sn = s.ndim();
  const std::int64_t tiles = (n + kCompactTile - 1) / kCompactTile;
  if (tiles > INT32_MAX) throw ValueError("nonzero: the array is too large");
  cudaStream_t stream = cuda::current_stream()->handle();
  Array counts({tiles}, DType::Int64), inclusive({tiles}, DType::Int64);
  const void* src = a.data();
  void* counts_ptr = counts.data();
  void* inclusive_ptr = inclusive.data();
  std::int64_t n_arg = n;
  {
    KernelKey key(KernelKind::CountNonzero);
    key.add(static_cast<int>(a.dtype()), 5).add(sn, 7);
    jit::Kernel k = cached_kernel(key, [&] { return count_nonzero_source(a.dtype(), sn); });
    void* args[] = {&src, s.data(), &n_arg, &counts_ptr};
    jit::launch(k, dim3(static_cast<unsigned>(tiles)), dim3(256), args, 0, stream);
  }
  scan(counts, 0, ScanOp::Sum, false, inclusive);
  std::int64_t total = 0;
  read_back(&total, static_cast<char*>(inclusive_ptr) + 8 * (tiles - 1), 8);
  Array out = result(total);
  if (total == 0 || (layout != NonzeroLayout::Flat && nd == 0)) return out;
  KernelKey key(KernelKind::WriteNonzero);
  key.add(static_cast<int>(a.dtype()), 5).add(sn, 7).add(static_cast<int>(layout), 2);
  jit::Kernel k = cached_kernel(key, [&] { return write_nonzero_source(a.dtype(), sn, layout); });
  void* out_ptr = out.data();
  void* args[] = {&src, s.data(), &n_arg, &inclusive_ptr, &counts_ptr, &total, &out_ptr};
  jit::launch(k, dim3(static_cast<unsigned>(tiles)), dim3(256), args, 0, stream);
  return out;
}

std::vector<std::pair<std::int64_t, std::int64_t>> index_ranges(const std::vector<Array>& indices) {
  std::vector<std::int64_t> host(2 * indices.size());
  for (size_t k = 0; k < indices.size(); ++k) {
    host[2 * k] = INT64_MAX;
    host[2 * k + 1] = INT64_MIN;
  }
  if (indices.empty()) return {};
  cuda::check_not_capturing(*cuda::current_stream(), "The bounds check of device indices (mode='raise')");
  cudaStream_t stream = cuda::current_stream()->handle();
  Array result({static_cast<std::int64_t>(host.size())}, DType::Int64);
  copy_from_host(result, host.data());
  jit::Kernel k = cached_kernel(KernelKey(KernelKind::IndexBounds), [] { return index_bounds_source(); });
  for (size_t i = 0; i < indices.size(); ++i) {
    const Array& x = indices[i];
    if (x.dtype() != DType::Int64 || !x.c_contiguous() || x.size() == 0)
      throw ValueError("index_ranges: expected non-empty contiguous int64 arrays");
    const void* ptr = x.data();
    std::int64_t n = x.size();
    void* res = result.data() + 16 * i;
    void* args[] = {&ptr, &n, &res};
    dim3 grid = jit::grid_for(n, 4);
    grid.x = std::min(grid.x, 1024u);
    jit::launch(k, grid, dim3(jit::kBlockSize), args, 0, stream);
  }
  read_back(host.data(), result.data(), 8 * host.size());
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (size_t k = 0; k < indices.size(); ++k) out.emplace_back(host[2 * k], host[2 * k + 1]);
  return out;
}

namespace {

// src's axes that are not indexed (into `other`), and the shape of src[index] for broadcast index shape `b`.
Shape result_shape(const Array& src, const AdvancedIndex& index, const Shape& b, std::vector<int>& other) {
  std::vector<bool> indexed(src.ndim(), false);
  for (int axis : index.axes) {
    if (axis < 0 || axis >= src.ndim() || indexed[axis]) throw ValueError("advanced index: bad axis");
    indexed[axis] = true;
  }
  other.clear();
  for (int d = 0; d < src.ndim(); ++d)
    if (!indexed[d]) other.push_back(d);
  const int n_other = static_cast<int>(other.size());
  if (index.insert_at < 0 || index.insert_at > n_other) throw ValueError("advanced index: bad insertion point");
  Shape shape;
  for (int k = 0; k <= n_other; ++k) {
    if (k == index.insert_at) shape.insert(shape.end(), b.begin(), b.end());
    if (k < n_other) shape.push_back(src.shape()[other[k]]);
  }
  return shape;
}

// The checked pieces of an advanced index: int64 indices, their broadcast shape, and the result's shape.
struct Plan {
  std::vector<Array> indices;
  Shape index_shape, result_shape;
  std::vector<int> other_axes;  // src's axes that are not indexed, in order
};

Plan plan_index(const Array& src, const AdvancedIndex& index) {
  const size_t m = index.axes.size();
  if (m == 0 || m != index.indices.size()) throw ValueError("advanced index: one index array per axis is needed");
  if (m > kMaxIndexArrays)
    throw ValueError("advanced index: at most " + to_string(kMaxIndexArrays) + " index arrays are supported");
  Plan p;
  for (const Array& i : index.indices) {
    check_same_device(i, "advanced indexing");
    p.indices.push_back(as_index(i));
  }
  p.index_shape = p.indices[0].shape();
  for (size_t k = 1; k < m; ++k) {
    try {
      p.index_shape = broadcast_shapes(p.index_shape, p.indices[k].shape());
    } catch (const ValueError&) {
      std::string shapes;  // NumPy's words: each shape as "(2,3)", followed by a space
      for (const Array& i : p.indices) shapes += shape_str_compact(i.shape()) + " ";
      throw IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes " + shapes);
    }
  }
  p.result_shape = result_shape(src, index, p.index_shape, p.other_axes);
  checked_size(p.result_shape, src.itemsize());
  return p;
}

// The first index in `index` outside [-len, len), in the order NumPy checks them: memory order (K), each axis
// read forward. Only the error path reads it (index_ranges found one), a chunk at a time.
std::int64_t first_out_of_bounds(const Array& index, std::int64_t len) {
  const bool dense = index.c_contiguous() || index.f_contiguous();
  const Array k = index.dtype() == DType::Int64 && dense ? index : astype(index, DType::Int64, 'K');
  constexpr std::int64_t kChunk = 1 << 16;
  std::vector<std::int64_t> host(static_cast<size_t>(std::min(k.size(), kChunk)));
  for (std::int64_t start = 0; start < k.size(); start += kChunk) {
    const std::int64_t n = std::min(kChunk, k.size() - start);
    read_back(host.data(), static_cast<const char*>(k.data()) + 8 * start, static_cast<size_t>(8 * n));
    for (std::int64_t i = 0; i < n; ++i)
      if (host[i] < -len || host[i] >= len) return host[i];
  }
  throw ValueError("advanced index: no index out of bounds");  // unreachable after index_ranges
}

// Bounds: in Raise mode, every index must address its axis, unless the broadcast index is empty (NumPy reads
// none of them then, even where other axes make the result empty: zeros((0, 4))[:, [9]] raises). Wrap and clip
// refuse an empty axis. One synchronization when anything is checked.
void check_bounds(const Array& src, const AdvancedIndex& index, const Plan& p, IndexMode mode) {
  if (size_of(p.index_shape) == 0) return;
  std::vector<Array> checked;
  std::vector<size_t> which;
  for (size_t k = 0; k < p.indices.size(); ++k) {
    std::int64_t len = src.shape()[index.axes[k]];
    if (mode == IndexMode::Raise || (len == 0 && mode != IndexMode::InBounds)) {
      checked.push_back(p.indices[k]);
      which.push_back(k);
    }
  }
  auto ranges = index_ranges(checked);
  for (size_t j = 0; j < ranges.size(); ++j) {
    size_t k = which[j];
    std::int64_t len = src.shape()[index.axes[k]];
    auto [lo, hi] = ranges[j];
    if (hi < len && lo >= -len) continue;
    if (mode != IndexMode::Raise)  // wrap or clip on an empty axis
      throw IndexError("cannot do a non-empty take from an empty axes.");
    // NumPy names the first bad index of the first array that has one; a flat iterator (label -1) no axis.
    const std::string bad = to_string(first_out_of_bounds(index.indices[k], len));
    const int label = k < index.labels.size() ? index.labels[k] : index.axes[k];
    if (label < 0) throw IndexError("index " + bad + " is out of bounds for size " + to_string(len));
    throw IndexError("index " + bad + " is out of bounds for axis " + to_string(label) + " with size " +
                     to_string(len));
  }
}

// Launches the gather (or scatter) of `p` between `dense` (result-shaped, strides `dense_strides`) and `src`.
void launch_gather(const Array& src, const AdvancedIndex& index, const Plan& p, const Array& dense,
                   const Strides& dense_strides, IndexMode mode, bool scatter) {
  const int m = static_cast<int>(p.indices.size());
  const int rn = static_cast<int>(p.result_shape.size());
  const int bn = static_cast<int>(p.index_shape.size());
  std::vector<Strides> strides(m + 2, Strides(rn, 0));
  strides[0] = dense_strides;
  for (int k = 0, r = 0; k < static_cast<int>(p.other_axes.size()) + 1; ++k) {
    if (k == index.insert_at) {
      for (int j = 0; j < m; ++j) {
        Strides b = broadcast_strides(p.indices[j].shape(), p.indices[j].strides(), p.index_shape);
        for (int d = 0; d < bn; ++d) strides[j + 2][r + d] = b[d];
      }
      r += bn;
    }
    if (k < static_cast<int>(p.other_axes.size())) strides[1][r++] = src.strides()[p.other_axes[k]];
  }
  StridedArgs s(coalesce_in_memory_order(p.result_shape, strides));
  const int nd = s.ndim();
  if (nd > kMaxGatherDims)
    throw ValueError("advanced index: the result has too many non-mergeable dimensions (" + to_string(nd) + ")");
  // Pack IndexArrays<m>: m pointers, then m sizes, then m steps.
  std::vector<std::int64_t> packed(3 * m);
  for (int j = 0; j < m; ++j) {
    packed[j] = reinterpret_cast<std::int64_t>(p.indices[j].data());
    packed[m + j] = src.shape()[index.axes[j]];
    packed[2 * m + j] = src.strides()[index.axes[j]];
  }
  const int bytes = src.itemsize();
  KernelKey key(scatter ? KernelKind::Scatter : KernelKind::Gather);
  // gather() and scatter() move void elements as units of at most 8 bytes (Note [Void storage]); the field is
  // wide all the same, so that no itemsize could alias another (Note [Registry keys]).
  key.add(static_cast<std::uint64_t>(bytes), 31).add(nd, 5).add(m, 4).add(kernel_mode(mode), 2);
  jit::Kernel k = cached_kernel(key, [&] { return gather_source(bytes, nd, m, mode, scatter); });
  void* dense_ptr = dense.data();
  void* src_ptr = src.data();
  std::int64_t n = size_of(p.result_shape);
  void* args[] = {&dense_ptr, &src_ptr, s.data(), packed.data(), &n};
  jit::launch(k, jit::grid_for(n), dim3(jit::kBlockSize), args, 0, cuda::current_stream()->handle());
}

}  // namespace

Shape indexed_shape(const Array& src, const AdvancedIndex& index) {
  std::vector<int> other;
  Shape b;
  for (const Array& i : index.indices) b = broadcast_shapes(b, i.shape());
  return result_shape(src, index, b, other);
}

Array gather(const Array& src, const AdvancedIndex& index, IndexMode mode) {
  if (is_void(src.dtype())) {
    // Note [Void storage]: each element's units move together, as one more (unindexed, last) axis.
    Array units = gather(as_units(src, widest_unit(src)), index, mode);
    Shape shape(units.shape().begin(), units.shape().end() - 1);
    Strides strides = c_strides(shape, src.itemsize());
    return units.view(std::move(shape), std::move(strides)).view_void(src.itemsize(), src.descr());
  }
  check_same_device(src, "advanced indexing");
  Plan p = plan_index(src, index);
  check_bounds(src, index, p, mode);
  Array out(p.result_shape, src.dtype());
  if (out.size() == 0) return out;
  launch_gather(src, index, p, out, out.strides(), mode, false);
  return out;
}

void scatter(const Array& dst, const AdvancedIndex& index, const Array& given, IndexMode mode) {
  if (is_void(dst.dtype()) || is_void(given.dtype())) {
    // Note [Void storage]: bytes, between arrays of one void type.
    if (!is_void(dst.dtype()) || !is_void(given.dtype()) || given.descr() != dst.descr())
      throw TypeError(
          "cuarray assigns structured and void data by index only from the same type; cast with "
          "astype first");
    const int unit = std::min(widest_unit(dst), widest_unit(given));
    scatter(as_units(dst, unit), index, as_units(given, unit), mode);
    return;
  }
  check_same_device(dst, "advanced index assignment");
  check_same_device(given, "advanced index assignment");
  Plan p = plan_index(dst, index);
  // NumPy drops the values' leading length-1 axes beyond the result's rank (a[[0, 1]] = [[7, 8]]).
  Shape vshape = given.shape();
  Strides vstrides = given.strides();
  while (vshape.size() > p.result_shape.size() && vshape.front() == 1) {
    vshape.erase(vshape.begin());
    vstrides.erase(vstrides.begin());
  }
  const Array values = given.view(std::move(vshape), std::move(vstrides));
  Strides vs;  // checked for an empty result too, as NumPy checks it
  try {
    vs = broadcast_strides(values.shape(), values.strides(), p.result_shape);
  } catch (const ValueError&) {
    throw ValueError("shape mismatch: value array of shape " + shape_str_compact(given.shape()) +
                     " could not be broadcast to indexing result of shape " + shape_str_compact(p.result_shape));
  }
  check_bounds(dst, index, p, mode);  // after the values' shape, as NumPy checks them
  if (size_of(p.result_shape) == 0) return;
  // An index array in the memory the scatter writes (a[a] = v) would be read after other threads wrote it:
  // wrong targets, and past the bounds checked before the launch, a fault that poisons the context. NumPy
  // copies such an index first, and so does cuarray.
  for (Array& i : p.indices)
    if (i.buffer() == dst.buffer()) i = astype(i, DType::Int64, 'C');
  // Values in dst's dtype, and never read from memory the scatter writes.
  if (values.dtype() != dst.dtype() || values.buffer() == dst.buffer()) {
    Array v = astype(values, dst.dtype(), 'C');
    launch_gather(dst, index, p, v, broadcast_strides(v.shape(), v.strides(), p.result_shape), mode, true);
    return;
  }
  launch_gather(dst, index, p, values, vs, mode, true);
}

}  // namespace cuarray::ops
