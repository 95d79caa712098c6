#include "cuarray/ops/elementwise.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <optional>
#include <string>

#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"
#include "cuarray/ops/codegen.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/strided_args.h"

namespace cuarray::ops {

namespace {

using std::to_string;


// Elements per thread for contiguous kernels: two 16-byte accesses of the widest operand.
int items_per_thread(const DType* in_storage, const bool* scalar, int nin, const DType* out_storage, int nout) {
  int widest = 1;
  for (int i = 0; i < nin; ++i)
    if (!scalar[i]) widest = std::max(widest, itemsize(in_storage[i]));
  for (int i = 0; i < nout; ++i) widest = std::max(widest, itemsize(out_storage[i]));
  return std::max(1, 32 / widest);
}

bool overlaps_partially(const Array& out, const Array& in) {
  if (out.buffer() != in.buffer() || out.size() == 0 || in.size() == 0) return false;
  if (out.data() == in.data() && out.shape() == in.shape() && out.strides() == in.strides()) return false;
  auto [o_lo, o_hi] = byte_extent(out.shape(), out.strides(), out.itemsize());
  auto [i_lo, i_hi] = byte_extent(in.shape(), in.strides(), in.itemsize());
  o_lo += out.offset(), o_hi += out.offset(), i_lo += in.offset(), i_hi += in.offset();
  return o_lo < i_hi && i_lo < o_hi;
}

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
// Note [Partial blocks]
// A contiguous kernel's last block covers fewer than blockDim.x * E elements, and a small array has only that
// block. Its threads take their elements, blockDim.x apart, 4 at a time, issuing a group's loads before its
// stores, so an array of up to 1024 elements waits for memory once: a CUDA graph of small elementwise ops
// replays in less device time than when each thread loops over its elements one by one. Taking all E at once
// cost registers the whole kernel pays for (float16's add and bool's most), and the full blocks lost
// occupancy; groups of 4 keep the full blocks at copy bandwidth and the small arrays fast (the figures:
// benchmarks/README.md, "Measurements behind the Notes").
int partial_group(int items_per_thread) { return std::min(items_per_thread, 4); }
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

KernelSource elementwise_source(const ElementwiseDef& def, const DType* in_types, const DType* out_types,
                                const DType* in_storage, const std::uint8_t* kinds, const DType* out_storage,
                                const Layout& layout) {
  const bool contiguous = layout.contiguous, aligned = layout.aligned, wide = layout.wide;
  const int ndim = layout.ndim;
  auto tiled = [&](int i) { return (layout.tiled >> i) & 1u; };
  bool scalar[kMaxOperands], raw[kMaxOperands];
  for (int i = 0; i < def.nin; ++i) {
    scalar[i] = kinds[i] == 1;
    raw[i] = kinds[i] == 2;
  }
  std::string idx = index_type(wide);
  std::string name = "ew_" + def.name;
  for (int i = 0; i < def.nin; ++i)
    name += std::string("_") + (scalar[i] ? "s" : raw[i] ? "r" : "") + cuarray::name(in_storage[i]);
  for (int i = 0; i < def.nout; ++i) name += std::string("_o") + cuarray::name(out_storage[i]);
  name += contiguous ? (aligned ? "_cv" : "_c") : "_s" + to_string(ndim);
  if (layout.tiled) name += "_t" + to_string(layout.tiled) + "x" + to_string(layout.tile);
  if (wide) name += "_w";

  int arrays = def.nout;
  for (int i = 0; i < def.nin; ++i) arrays += !scalar[i] && !raw[i];
  std::string params, computed;
  for (int o = 0; o < def.nout; ++o)
    params += (contiguous ? std::string(cuda_type(out_storage[o])) + "* __restrict__ out" : "char* __restrict__ out") +
              to_string(o) + "_p, ";
  for (int i = 0; i < def.nin; ++i) {
    std::string n = "in" + to_string(i);
    if (scalar[i]) params += std::string(compute_type(in_types[i])) + " " + n + "_s, ";
    else if (raw[i]) params += "ca::Raw<" + std::string(cuda_type(in_storage[i])) + "> " + n + ", ";
    else if (contiguous) params += "const " + std::string(cuda_type(in_storage[i])) + "* __restrict__ " + n + "_p, ";
    else params += "const char* __restrict__ " + n + "_p, ";
  }
  if (!contiguous && arrays) params += "ca::Strided<" + to_string(ndim) + ", " + to_string(arrays) + "> strided, ";
  params += idx + " n";

  // The expression applied to one element; `load(i)`/`store(o)` text decides where values come from.
  auto element = [&](auto load, auto store) {
    std::string s = "{\n";
    // The loop's types by name, for bodies whose result depends on the storage format (nextafter on float16).
    for (int i = 0; i < def.nin; ++i) s += "      using in" + to_string(i) + "_t = " + cuda_type(in_types[i]) + ";\n";
    for (int o = 0; o < def.nout; ++o) s += "      using out" + to_string(o) + "_t = " + cuda_type(out_types[o]) + ";\n";
    for (int i = 0; i < def.nin; ++i)
      if (!raw[i]) s += "      const " + std::string(compute_type(in_types[i])) + " in" + to_string(i) + " = " + load(i) + ";\n";
    for (int o = 0; o < def.nout; ++o) s += "      " + std::string(compute_type(out_types[o])) + " out" + to_string(o) + ";\n";
    s += "      " + def.body + "\n";
    for (int o = 0; o < def.nout; ++o) s += "      " + store(o) + ";\n";
    return s + "    }\n";
  };

  std::string body;
  if (contiguous) {
    // A block covers blockDim.x * E elements; each thread's are two chunks of P, one 16-byte access of the
    // widest operand each, blockDim.x * P apart, so every warp access covers whole sectors.
    int e = items_per_thread(in_storage, scalar, def.nin, out_storage, def.nout), p = e / 2 ? e / 2 : 1;
    std::string E = to_string(e), P = to_string(p), A = aligned ? "true" : "false";
    std::string chunks = "<" + E + ", " + P + ", " + A + ">";
    body += "  const " + idx + " block_base = static_cast<" + idx + ">(blockIdx.x) * blockDim.x * " + E + ";\n";
    body += "  if (block_base + static_cast<" + idx + ">(blockDim.x) * " + E + " <= n) {\n";
    body += "    const " + idx + " base = block_base + threadIdx.x * " + P + ", stride = static_cast<" + idx +
            ">(blockDim.x) * " + P + ";\n";
    // float16 is moved as float16 and widened and narrowed a thread's elements at once, after all the loads
    // are issued (Note [Float16 conversions] in kernels/vector.cuh).
    auto is_half = [](DType t) { return t == DType::Float16; };
    for (int i = 0; i < def.nin; ++i) {
      if (scalar[i]) continue;
      std::string c = compute_type(in_types[i]), n = "in" + to_string(i);
      bool direct = !is_half(in_types[i]) && (in_storage[i] == in_types[i] || c == cuda_type(in_types[i]));
      std::string held = direct ? c : cuda_type(in_types[i]), array = n + (direct ? "_v" : "_l");
      body += "    " + held + " " + array + "[" + E + "];\n    ca::load_chunks" + chunks + "(" + n + "_p + base, stride, " +
              array + ");\n";
    }
    for (int i = 0; i < def.nin; ++i) {
      if (scalar[i]) continue;
      std::string c = compute_type(in_types[i]), n = "in" + to_string(i);
      if (is_half(in_types[i]))
        body += "    float " + n + "_v[" + E + "];\n    ca::widen(" + n + "_l, " + n + "_v);\n";
      else if (in_storage[i] != in_types[i] && c != cuda_type(in_types[i]))
        body += "    " + c + " " + n + "_v[" + E + "];\n    for (int j = 0; j < " + E + "; ++j) " + n + "_v[j] = ca::cast<" + c +
                ">(" + n + "_l[j]);\n";
    }
    // float16 results go to memory two to a word where the chunks are aligned and hold whole pairs.
    auto narrowed = [&](int o) { return is_half(out_types[o]) && out_storage[o] == out_types[o] && aligned && p % 2 == 0; };
    auto held = [&](int o) { return std::string(narrowed(o) ? "float" : cuda_type(out_types[o])); };
    for (int o = 0; o < def.nout; ++o) body += "    " + held(o) + " out" + to_string(o) + "_v[" + E + "];\n";
    body += "#pragma unroll\n    for (int j = 0; j < " + E + "; ++j) ";
    body += element([&](int i) { return scalar[i] ? "in" + to_string(i) + "_s" : "in" + to_string(i) + "_v[j]"; },
                    [&](int o) { return "out" + to_string(o) + "_v[j] = ca::cast<" + held(o) + ">(out" + to_string(o) + ")"; });
    for (int o = 0; o < def.nout; ++o) {
      std::string n = "out" + to_string(o);
      if (narrowed(o)) {
        body += "    unsigned " + n + "_w[" + to_string(e / 2) + "];\n    ca::narrow(" + n + "_v, " + n + "_w);\n";
        body += "    ca::store_chunks<" + to_string(e / 2) + ", " + to_string(p / 2) + ", true>(reinterpret_cast<unsigned*>(" + n +
                "_p + base), stride / 2, " + n + "_w);\n";
      } else {
        body += "    ca::store_chunks" + chunks + "(" + n + "_p + base, stride, " + n + "_v);\n";
      }
    }
    // The last block, partial: element j of a thread is blockDim.x * j after its first, and the loads of a
    // group are issued before its first store, so that a small array costs one round trip to memory, not one
    // for each blockDim.x elements (Note [Partial blocks]).
    const std::string G = to_string(partial_group(e));
    body += "  } else {\n    const " + idx + " first = block_base + threadIdx.x, step = blockDim.x;\n";
    body += "#pragma unroll 1\n    for (int g = 0; g < " + E + "; g += " + G + ") {\n";
    body += "      if (first + g * step >= n) break;\n";
    auto at = [](const std::string& j) { return "first + (g + " + j + ") * step"; };
    for (int i = 0; i < def.nin; ++i) {
      if (scalar[i]) continue;
      std::string n = "in" + to_string(i);
      body += "    " + std::string(compute_type(in_types[i])) + " " + n + "_v[" + G + "];\n#pragma unroll\n    for (int j = 0; j < " +
              G + "; ++j)\n      if (" + at("j") + " < n) " + n + "_v[j] = " +
              load_expr(n + "_p[" + at("j") + "]", in_storage[i], in_types[i]) + ";\n";
    }
    body += "#pragma unroll\n    for (int j = 0; j < " + G + "; ++j)\n      if (" + at("j") + " < n) ";
    body += element([&](int i) { return scalar[i] ? "in" + to_string(i) + "_s" : "in" + to_string(i) + "_v[j]"; },
                    [&](int o) {
                      return "out" + to_string(o) + "_p[" + at("j") + "] = " +
                             store_expr("out" + to_string(o), out_types[o], out_storage[o]);
                    });
    body += "    }\n  }\n";
  } else if (layout.tiled) {
    // Note [Layout classes]: tiles of the last two dimensions; tiled inputs are read along their own unit
    // stride (dimension N-2) into shared memory, then every operand is walked along the output's (N-1).
    std::string N = to_string(ndim), K = to_string(arrays), T = to_string(layout.tile);
    std::vector<int> slot(def.nin, -1);
    for (int i = 0, k = def.nout; i < def.nin; ++i)
      if (!scalar[i] && !raw[i]) slot[i] = k++;
    auto at = [&](const std::string& ptr, int k, DType t, const std::string& r, const std::string& c) {
      std::string sk = to_string(k);
      return "ca::at<" + std::string(cuda_type(t)) + ">(" + ptr + ", off[" + sk + "] + " + r + " * static_cast<" + idx +
             ">(strided.strides[" + sk + "][" + N + " - 2]) + " + c + " * static_cast<" + idx + ">(strided.strides[" +
             sk + "][" + N + " - 1]))";
    };
    for (int i = 0; i < def.nin; ++i)
      if (tiled(i)) body += "  __shared__ " + std::string(cuda_type(in_storage[i])) + " tile" + to_string(i) + "[" + T +
                            "][" + T + " + 1];\n";
    body += "  const " + idx + " R = static_cast<" + idx + ">(strided.shape[" + N + " - 2]), C = static_cast<" + idx +
            ">(strided.shape[" + N + " - 1]);\n";
    body += "  const " + idx + " r0 = static_cast<" + idx + ">(blockIdx.y) * " + T + ", c0 = static_cast<" + idx +
            ">(blockIdx.x) * " + T + ";\n";
    // One batch per block (grid z): a loop over batches would keep every element's offsets live across it.
    body += "  {\n    " + idx + " off[" + K + "];\n    ca::offsets<" + idx + ", " + N + ", " + K + ", " + N +
            " - 2>(strided, static_cast<" + idx + ">(blockIdx.z), off);\n";
    // Constant trip counts, fully unrolled: every load of a tile is in flight at once.
    std::string loops = "#pragma unroll\n    for (int h = 0; h < " + T + "; h += 32)\n#pragma unroll\n      for (int jj = 0; jj < " +
                        T + "; jj += 8) {\n        const int j = jj + threadIdx.y;\n";
    body += loops;
    body += "        const " + idx + " r = r0 + h + threadIdx.x, c = c0 + j;\n        if (r < R && c < C) {\n";
    for (int i = 0; i < def.nin; ++i)
      if (tiled(i)) body += "          tile" + to_string(i) + "[j][h + threadIdx.x] = " +
                            at("in" + to_string(i) + "_p", slot[i], in_storage[i], "r", "c") + ";\n";
    body += "        }\n      }\n    __syncthreads();\n";
    body += loops;
    body += "        const " + idx + " r = r0 + j, c = c0 + h + threadIdx.x;\n        if (r < R && c < C) ";
    body += element(
        [&](int i) {
          if (scalar[i]) return "in" + to_string(i) + "_s";
          std::string v = tiled(i) ? "tile" + to_string(i) + "[h + threadIdx.x][j]"
                                   : at("in" + to_string(i) + "_p", slot[i], in_storage[i], "r", "c");
          return load_expr(v, in_storage[i], in_types[i]);
        },
        [&](int o) {
          return at("out" + to_string(o) + "_p", o, out_storage[o], "r", "c") + " = " +
                 store_expr("out" + to_string(o), out_types[o], out_storage[o]);
        });
    body += "      }\n  }\n";
  } else {
    if (def.uses_index) body += "  const ca::Ind<" + idx + "> _ind{n};\n";
    body += "  for (" + idx + " i = ca::global_thread<" + idx + ">(); i < n; i += ca::grid_threads<" + idx + ">()) {\n";
    if (arrays)
      body += "    " + idx + " off[" + to_string(arrays) + "];\n    ca::offsets<" + idx + ", " + to_string(ndim) + ", " +
            to_string(arrays) + ">(strided, i, off);\n    ";
    std::vector<int> slot(def.nin, -1);
    for (int i = 0, k = def.nout; i < def.nin; ++i)
      if (!scalar[i] && !raw[i]) slot[i] = k++;
    body += element(
        [&](int i) {
          return scalar[i] ? "in" + to_string(i) + "_s"
                           : load_expr("ca::at<" + std::string(cuda_type(in_storage[i])) + ">(in" + to_string(i) + "_p, off[" + to_string(slot[i]) + "])",
                                       in_storage[i], in_types[i]);
        },
        [&](int o) {
          return "ca::at<" + std::string(cuda_type(out_storage[o])) + ">(out" + to_string(o) + "_p, off[" + to_string(o) + "]) = " +
                 store_expr("out" + to_string(o), out_types[o], out_storage[o]);
        });
    body += "  }\n";
  }
  std::string source = "#include \"" + def.header + "\"\n" + def.preamble + "\nextern \"C\" __global__ void " + name +
                       "(" + params + ") {\n" + body + "}\n";
  return {source, name};
}

void elementwise(const ElementwiseDef& def, const DType* in_types, const DType* out_types, const Input* inputs,
                 const Array* outputs, const Shape& shape) {
  int nin = def.nin, nout = def.nout;
  if (nin + nout > kMaxOperands) throw ValueError("an elementwise kernel takes at most " + std::to_string(kMaxOperands) + " operands");
  for (int o = 0; o < nout; ++o) check_same_device(outputs[o], def.name.c_str());
  for (int i = 0; i < nin; ++i)
    if (inputs[i].array) check_same_device(*inputs[i].array, def.name.c_str());
  std::int64_t n = size_of(shape);
  if (n == 0) return;

  // An output that partly overlaps an input is written through a temporary (NumPy's result).
  for (int o = 0; o < nout; ++o)
    for (int i = 0; i < nin; ++i)
      if (inputs[i].array && overlaps_partially(outputs[o], *inputs[i].array)) {
        std::vector<Array> temps;
        for (int k = 0; k < nout; ++k) temps.push_back(Array::like(outputs[k], outputs[k].dtype()));
        elementwise(def, in_types, out_types, inputs, temps.data(), shape);
        for (int k = 0; k < nout; ++k) copy_into(outputs[k], temps[k]);
        return;
      }

  DType in_storage[kMaxOperands], out_storage[kMaxOperands];
  bool scalar[kMaxOperands];
  std::uint8_t kinds[kMaxOperands];
  // Kernels that read the index always take the strided form, where `i` is the C-order element index.
  bool contiguous = !def.uses_index && nout > 0, c_order = nout == 0 || outputs[0].c_contiguous();
  for (int o = 0; o < nout; ++o) out_storage[o] = outputs[o].dtype();
  for (int i = 0; i < nin; ++i) {
    // A raw input is passed whole and never iterated, so for layout purposes it is like a scalar.
    scalar[i] = inputs[i].array == nullptr || inputs[i].raw;
    in_storage[i] = inputs[i].array ? inputs[i].array->dtype() : in_types[i];
    kinds[i] = inputs[i].raw ? 2 : inputs[i].array ? 0 : 1;
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
    for (int o = 0; o < nout; ++o) strides.push_back(outputs[o].strides());
    for (int i = 0; i < nin; ++i)
      if (!scalar[i]) {
        strides.push_back(broadcast_strides(inputs[i].array->shape(), inputs[i].array->strides(), shape));
        input_of.push_back(i);
      }
    Coalesced c = coalesce_in_memory_order(shape, strides);
    if (!def.uses_index && nout > 0) plan_tiles(c, nout, input_of, in_storage, out_storage, layout);
    if (layout.tiled) grid = tile_grid(c.shape, layout.tile);
    sa.emplace(c);
  }
  layout.wide = contiguous ? n > INT32_MAX - jit::kBlockSize * 32 : sa->wide();  // a block's end must fit
  layout.ndim = contiguous ? 0 : sa->ndim();

  WideKey key;
  key.w[0] = (static_cast<std::uint64_t>(def.id) << 32) | (static_cast<std::uint64_t>(cuda::current_device()) << 20) |
             (static_cast<std::uint64_t>(layout.tile == 32) << 19) | (static_cast<std::uint64_t>(layout.tiled) << 8) |
             (static_cast<std::uint64_t>(layout.ndim) << 3) | (layout.contiguous << 2) | (layout.aligned << 1) |
             layout.wide;
  for (int k = 0; k < nin + nout; ++k) {
    std::uint64_t d = k < nin ? (static_cast<std::uint64_t>(in_types[k]) << 6) | (static_cast<std::uint64_t>(in_storage[k]) << 2) | kinds[k]
                              : (static_cast<std::uint64_t>(out_types[k - nin]) << 6) | (static_cast<std::uint64_t>(out_storage[k - nin]) << 2);
    key.w[1 + k / 4] |= d << (16 * (k % 4));
  }
  jit::Kernel kernel = find_kernel(key);
  if (!kernel) {
    KernelSource src = elementwise_source(def, in_types, out_types, in_storage, kinds, out_storage, layout);
    kernel = jit::get_kernel(src.source, src.name, def.options);
    store_kernel(key, kernel);
  }

  void* args[kMaxOperands + 2];
  void* ptrs[kMaxOperands];
  struct RawArg {
    void* data;
    std::int64_t size;
  } raws[kMaxOperands];
  int a = 0;
  for (int o = 0; o < nout; ++o) {
    ptrs[o] = outputs[o].data();
    args[a++] = &ptrs[o];
  }
  for (int i = 0; i < nin; ++i) {
    if (kinds[i] == 1) {
      args[a++] = const_cast<char*>(inputs[i].value);
    } else if (kinds[i] == 2) {
      raws[i] = {inputs[i].array->data(), inputs[i].array->size()};
      args[a++] = &raws[i];
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
    return;
  }
  jit::launch(kernel, contiguous ? jit::grid_for(n, e) : jit::grid_for(n), dim3(jit::kBlockSize), args, 0, stream);
}

}  // namespace cuarray::ops
