#include "cuarray/ops/elementwise.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <optional>
#include <string>

#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"
#include "cuarray/ops/background_compile.h"
#include "cuarray/ops/codegen.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/operands.h"
#include "cuarray/ops/strided_args.h"
#include "cuarray/ops/ufunc.h"

namespace cuarray::ops {

namespace {

using std::to_string;

// Note [Layout classes]
// contiguous: every array has the output's shape and memory order: one flat index, 16-byte accesses.
// strided: dimensions coalesced in the output's memory order, one thread per element, offsets computed per
//   operand; coalesced for every operand that shares the output's unit-stride dimension.
// tiled: an input whose unit stride lies in another dimension (x.T + y) would cost the strided class one
//   sector per element read (well below copy bandwidth for x.T + y). That dimension is moved next to the last,
//   and the last two are walked in tile x tile blocks of 32 x 8 threads: tiled inputs are read along their
//   own unit stride into shared memory, then every operand is accessed along the output's, as
//   copy_transpose does for one operand. Further dimensions are batches, one per block row of grid z.
//
// Note [Kernel headers]
// NVRTC parses every header a kernel includes and optimises every function it instantiates, so each one lengthens the
// compile of every new kernel: a user's ElementwiseKernel on float32 compiles measurably faster with elementwise.cuh
// alone than with ufunc.cuh (NumPy's math and complex numbers; the figures: benchmarks/README.md, "Measurements behind
// the Notes"). So a definition names the header its body needs; user kernels of real types take the smaller.
//
// Note [Outputs a body reads]
// CuPy binds an ElementwiseKernel's output parameter to the array's element, so `y += x`, or a body that sets y
// only where a condition holds, reads what the array held. A definition that may read its outputs
// (reads_outputs, which the Python layer sets unless the body only assigns each output once, unconditionally)
// starts each output from the array's element. Only the strided class loads them, so such a kernel never
// takes the contiguous or tiled class; an output that overlaps an input goes through a temporary that starts
// as a copy of the output.

constexpr int kSharedBytes = 48 * 1024;  // static shared memory a block may declare

// Chooses the tiled class when some input's unit stride lies in another dimension than the outputs':
// records which inputs go through tiles and moves their unit-stride dimension to position ndim - 2.
void plan_tiles(Coalesced& c, int nout, const std::vector<int>& input_of, const DType* in_storage,
                const DType* out_storage, Layout& layout) {
  const int nd = static_cast<int>(c.shape.size()), last = nd - 1;
  if (nd < 2) return;
  auto unit = [&](size_t k, int d, int size) { return std::llabs(c.strides[k][d]) == size; };
  for (int o = 0; o < nout; ++o)
    if (!unit(o, last, itemsize(out_storage[o]))) return;
  int t = -1, bytes = 0;
  std::uint32_t tiled = 0;
  for (size_t k = nout; k < c.strides.size(); ++k) {
    int i = input_of[k - nout], size = itemsize(in_storage[i]);
    if (c.strides[k][last] == 0 || unit(k, last, size) || i >= 8) continue;  // 8 bits of the kernel key
    for (int d = 0; d < last && t < 0; ++d)
      if (unit(k, d, size)) t = d;
    if (t < 0 || !unit(k, t, size)) continue;
    tiled |= 1u << i;
    bytes += size;
  }
  if (!tiled || c.shape[t] < 16 || c.shape[last] < 16) return;
  int tile = 64 * 65 * bytes <= kSharedBytes ? 64 : 32 * 33 * bytes <= kSharedBytes ? 32 : 0;
  std::int64_t batches = 1;
  for (int d = 0; d < last; ++d)
    if (d != t) batches *= c.shape[d];
  if (!tile || (c.shape[t] + tile - 1) / tile > 65535 || batches > 65535) return;
  // The order of the other dimensions does not change the result.
  std::rotate(c.shape.begin() + t, c.shape.begin() + t + 1, c.shape.begin() + last);
  for (Strides& s : c.strides) std::rotate(s.begin() + t, s.begin() + t + 1, s.begin() + last);
  layout.tiled = tiled;
  layout.tile = tile;
}

// Note [Outputs that share memory]
// NumPy's inner loops store an element's outputs one after the other, so where two outputs of a call share memory
// (divmod(a, b, out=(x, x))) the one stored last holds: out1 for most loops, out0 for divmod's float16, float32 and
// float64 loops and modf's float32 and float64 ones, which store their returned value (the quotient, the fractional
// part) after the other; an output that needs a cast goes through NumPy's buffers, written back in output order. A
// kernel's stores through __restrict__ pointers keep no order, so outputs that share memory are written through
// temporaries, copied into place in that order after the kernel. Where outputs alias exactly this is NumPy's result;
// where they overlap in part, the one stored last holds all of the overlap (NumPy's goes element by element). User
// kernels and fused functions store in output order. Only calls with two outputs or more look at any of this.

// Whether `a` and `b` may share bytes: their extents in one buffer meet.
bool share_memory(const Array& a, const Array& b) {
  if (a.buffer() != b.buffer() || a.size() == 0 || b.size() == 0) return false;
  auto [a_lo, a_hi] = byte_extent(a.shape(), a.strides(), a.itemsize());
  auto [b_lo, b_hi] = byte_extent(b.shape(), b.strides(), b.itemsize());
  return a_lo + a.offset() < b_hi + b.offset() && b_lo + b.offset() < a_hi + a.offset();
}

// The outputs of `def` in the order NumPy's loop stores them (Note [Outputs that share memory]).
void store_order(const ElementwiseDef& def, const DType* out_types, const Array* outputs, int* order) {
  for (int o = 0; o < def.nout; ++o) order[o] = o;
  static const auto divmod = static_cast<std::uint32_t>(ufunc_index("divmod"));
  static const auto modf = static_cast<std::uint32_t>(ufunc_index("modf"));
  if (def.id != divmod && def.id != modf) return;
  const DType t = out_types[0];
  const bool out0_last = t == DType::Float32 || t == DType::Float64 || (def.id == divmod && t == DType::Float16);
  if (out0_last && outputs[0].dtype() == out_types[0] && outputs[1].dtype() == out_types[1])
    std::swap(order[0], order[1]);
}

// Tiles over the last two dimensions of `shape`, one grid row per batch of the rest.
dim3 tile_grid(const Shape& shape, int tile) {
  const size_t nd = shape.size();
  std::int64_t batches = 1;
  for (size_t d = 0; d + 2 < nd; ++d) batches *= shape[d];
  auto tiles = [&](std::int64_t extent) { return static_cast<unsigned>((extent + tile - 1) / tile); };
  return dim3(tiles(shape[nd - 1]), tiles(shape[nd - 2]), static_cast<unsigned>(batches));
}

}  // namespace

std::uint32_t new_elementwise_id() {
  static std::atomic<std::uint32_t> next{1u << 16};  // below are the ufuncs' table indices
  return next++;
}

bool elementwise(const ElementwiseDef& def, const DType* in_types, const DType* out_types, const Input* inputs,
                 const Array* outputs, const Shape& shape, int block_size, Launch mode) {
  int nin = def.nin, nout = def.nout;
  if (nin + nout > kMaxOperands)
    throw ValueError("an elementwise kernel takes at most " + std::to_string(kMaxOperands) + " operands");
  for (int o = 0; o < nout; ++o) check_same_device(outputs[o], def.name.c_str());
  for (int i = 0; i < nin; ++i)
    if (inputs[i].array) check_same_device(*inputs[i].array, def.name.c_str());
  std::int64_t n = size_of(shape);
  if (n == 0) return false;

  // An output that partly overlaps an input is written through a temporary (NumPy's result), and so are outputs
  // that share memory, but the first one stored (Note [Outputs that share memory]).
  bool overlap = false, shared = false, through_temp[kMaxOperands] = {};
  for (int o = 0; o < nout && !overlap; ++o)
    for (int i = 0; i < nin && !overlap; ++i)
      overlap = inputs[i].array && overlaps_partially(outputs[o], *inputs[i].array);
  if (overlap) std::fill(through_temp, through_temp + nout, true);
  for (int o = 0; o < nout && !overlap; ++o)
    for (int k = o + 1; k < nout; ++k)
      if (share_memory(outputs[o], outputs[k])) shared = through_temp[o] = through_temp[k] = true;
  if (overlap || shared) {
    int order[kMaxOperands];
    store_order(def, out_types, outputs, order);
    if (shared)
      for (int k = 0; k < nout; ++k)
        if (through_temp[order[k]]) {
          through_temp[order[k]] = false;  // written in place: the copies of the others come after it
          break;
        }
    std::vector<Array> written(outputs, outputs + nout);
    for (int k = 0; k < nout; ++k)
      if (through_temp[k]) {
        written[k] = Array::like(outputs[k], outputs[k].dtype());
        if (def.reads_outputs && mode != Launch::Prepare) copy_into(written[k], outputs[k]);
      }
    if (!elementwise(def, in_types, out_types, inputs, written.data(), shape, block_size, mode)) return false;
    if (mode != Launch::Prepare)
      for (int k = 0; k < nout; ++k)
        if (through_temp[order[k]]) copy_into(outputs[order[k]], written[order[k]]);
    return true;
  }

  DType in_storage[kMaxOperands], out_storage[kMaxOperands];
  bool scalar[kMaxOperands];
  std::uint8_t kinds[kMaxOperands];
  // Kernels that read the index always take the strided form, where `i` is the C-order element index; those
  // that read their outputs too, where each element's output is loaded (Note [Outputs a body reads]).
  bool contiguous = !def.uses_index && !def.reads_outputs && nout > 0, c_order = nout == 0 || outputs[0].c_contiguous();
  for (int o = 0; o < nout; ++o) out_storage[o] = outputs[o].dtype();
  for (int i = 0; i < nin; ++i) {
    // A raw input is passed whole and never iterated, so for layout purposes it is like a scalar.
    scalar[i] = inputs[i].array == nullptr || inputs[i].raw;
    in_storage[i] = inputs[i].array ? inputs[i].array->dtype() : in_types[i];
    kinds[i] = inputs[i].raw ? 2 : inputs[i].array ? 0 : 1;
    if (kinds[i] == 2 && in_storage[i] != in_types[i])  // its key holds its dimensions in place of its storage
      throw TypeError(def.name + ": raw argument " + std::to_string(i) + " is " + cuarray::name(in_storage[i]) +
                      ", expected " + cuarray::name(in_types[i]));
  }
  // Contiguous class: every array has the output's shape and all are C- (or all F-) contiguous.
  auto same_order = [&](const Array& a) { return c_order ? a.c_contiguous() : a.f_contiguous(); };
  if (contiguous && !c_order && !outputs[0].f_contiguous()) contiguous = false;
  for (int o = 0; o < nout && contiguous; ++o) contiguous = same_order(outputs[o]);
  for (int i = 0; i < nin && contiguous; ++i)
    if (!scalar[i]) contiguous = inputs[i].array->shape() == shape && same_order(*inputs[i].array);
  Layout layout;
  layout.contiguous = contiguous;
  dim3 grid;  // the tiled class's
  int e = items_per_thread(in_storage, scalar, nin, out_storage, nout);
  std::optional<StridedArgs> sa;
  if (contiguous) {
    auto check_aligned = [&](const Array& a) {
      if (reinterpret_cast<std::uintptr_t>(a.data()) % std::min(16, e * a.itemsize())) layout.aligned = false;
    };
    for (int o = 0; o < nout; ++o) check_aligned(outputs[o]);
    for (int i = 0; i < nin; ++i)
      if (!scalar[i]) check_aligned(*inputs[i].array);
  } else {
    std::vector<Strides> strides;
    std::vector<int> input_of;  // strided operand k >= nout -> its input index
    strides.reserve(static_cast<std::size_t>(nout + nin));
    input_of.reserve(static_cast<std::size_t>(nin));
    for (int o = 0; o < nout; ++o) strides.push_back(outputs[o].strides());
    for (int i = 0; i < nin; ++i)
      if (!scalar[i]) {
        strides.push_back(broadcast_strides(inputs[i].array->shape(), inputs[i].array->strides(), shape));
        input_of.push_back(i);
      }
    // A body that reads `i` sees the C-order element index, as CuPy's: the dimensions keep their order (merged, never
    // sorted by the operands' strides, which would make `i` run in an F-ordered output's memory order).
    Coalesced c = def.uses_index ? coalesce(shape, strides) : coalesce_in_memory_order(shape, strides);
    if (!def.uses_index && !def.reads_outputs && nout > 0 && block_size == 0)
      plan_tiles(c, nout, input_of, in_storage, out_storage, layout);
    if (layout.tiled) grid = tile_grid(c.shape, layout.tile);
    sa.emplace(c);
  }
  const int block = block_size > 0 ? block_size : jit::kBlockSize;
  // A block's end must fit.
  layout.wide = contiguous ? n > INT32_MAX - static_cast<std::int64_t>(block) * 32 : sa->wide();
  layout.ndim = contiguous ? 0 : sa->ndim();
  for (int i = 0; i < nin; ++i)
    if (kinds[i] == 2) layout.raw_ndim[i] = static_cast<std::uint8_t>(inputs[i].array->ndim());

  WideKey key(WideKind::Elementwise);  // Note [Registry keys]
  key.add(def.id, 32).add(static_cast<std::uint64_t>(layout.tile), 7).add(layout.tiled, kMaxOperands);
  key.add(static_cast<std::uint64_t>(layout.ndim), 7)
      .add(layout.contiguous, 1)
      .add(layout.aligned, 1)
      .add(layout.wide, 1);
  // The kind first: it says whether the next field is the storage type or a raw array's dimensions.
  for (int k = 0; k < nin; ++k) {
    key.add(kinds[k], 2).add(static_cast<std::uint64_t>(in_types[k]), 5);
    if (kinds[k] == 2)
      key.add(layout.raw_ndim[k], 7);
    else
      key.add(static_cast<std::uint64_t>(in_storage[k]), 5);
  }
  for (int k = 0; k < nout; ++k)
    key.add(static_cast<std::uint64_t>(out_types[k]), 5).add(static_cast<std::uint64_t>(out_storage[k]), 5);
  jit::Kernel kernel = find_kernel(key);
  if (!kernel && mode == Launch::IfCompiled) {
    kernel = background_kernel(key, def.options, [&] {
      return elementwise_source(def, in_types, out_types, in_storage, kinds, out_storage, layout);
    });
    if (!kernel) return false;
  } else if (!kernel) {
    KernelSource src = elementwise_source(def, in_types, out_types, in_storage, kinds, out_storage, layout);
    kernel = jit::get_kernel(src.source, src.name, def.options);
    store_kernel(key, kernel);
  }
  if (mode == Launch::Prepare && block_size == 0) return true;

  void* args[kMaxOperands + 2];
  void* ptrs[kMaxOperands];
  // Each raw array as its ca::Raw<T, N> (kernels/elementwise.cuh): data, size, whether C-contiguous, shape, byte
  // strides; one buffer, sized first, for them all.
  std::vector<std::int64_t> raw_words;
  std::size_t raw_count = 0;
  for (int i = 0; i < nin; ++i)
    if (kinds[i] == 2) raw_count += 3 + 2 * static_cast<std::size_t>(inputs[i].array->ndim());
  raw_words.reserve(raw_count);
  int a = 0;
  for (int o = 0; o < nout; ++o) {
    ptrs[o] = outputs[o].data();
    args[a++] = &ptrs[o];
  }
  for (int i = 0; i < nin; ++i) {
    if (kinds[i] == 1) {
      args[a++] = const_cast<char*>(inputs[i].value);
    } else if (kinds[i] == 2) {
      const Array& r = *inputs[i].array;
      args[a++] = raw_words.data() + raw_words.size();
      raw_words.push_back(static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(r.data())));
      raw_words.push_back(r.size());
      raw_words.push_back(r.c_contiguous());
      raw_words.insert(raw_words.end(), r.shape().begin(), r.shape().end());
      raw_words.insert(raw_words.end(), r.strides().begin(), r.strides().end());
    } else {
      ptrs[nout + i] = inputs[i].array->data();
      args[a++] = &ptrs[nout + i];
    }
  }
  if (!contiguous) args[a++] = sa->data();
  std::int64_t n64 = n;
  int n32 = static_cast<int>(n);
  args[a++] = layout.wide ? static_cast<void*>(&n64) : static_cast<void*>(&n32);
  cudaStream_t stream = cuda::current_stream()->handle();
  if (layout.tiled) {
    jit::launch(kernel, grid, dim3(32, jit::kBlockSize / 32), args, 0, stream);
    return true;
  }
  if (block_size > 0) {  // checked here: a launch CUDA refuses would be reported only by a later call
    cudaFuncAttributes attr{};
    CUARRAY_CHECK_CUDA(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(kernel.handle)));
    if (block_size > attr.maxThreadsPerBlock)
      throw ValueError(def.name + ": block_size=" + std::to_string(block_size) + " is more than the " +
                       std::to_string(attr.maxThreadsPerBlock) + " threads a block of this kernel can have");
    // The contiguous class has no grid-stride loop: its grid must cover every element.
    if (contiguous && (n + std::int64_t{block} * e - 1) / (std::int64_t{block} * e) > jit::grid_for(n, e, block).x)
      throw ValueError(def.name + ": block_size=" + std::to_string(block_size) + " is too small for " +
                       std::to_string(n) + " elements");
  }
  if (mode == Launch::Prepare) return true;
  jit::launch(kernel, contiguous ? jit::grid_for(n, e, block) : jit::grid_for(n, 1, block), dim3(block), args, 0,
              stream);
  return true;
}

}  // namespace cuarray::ops
