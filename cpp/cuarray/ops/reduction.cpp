#include "cuarray/ops/reduction.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <numeric>

#include "cuarray/cuda/device.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"
#include "cuarray/ops/codegen.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/operands.h"

namespace cuarray::ops {

namespace {

using std::to_string;

constexpr int kNoIdentity = 1, kUsesIndex = 2;
constexpr int kMaxInputs = 8;
constexpr int kBlockThreads = 256;
// Bytes reserved per partial result; every accumulator type fits (checked in the kernel).
constexpr int kMaxAccBytes = 64;

std::vector<ReductionDef> build() {
  std::vector<ReductionDef> table;
#define REDUCTION(name, nin, flags, rule, acc, identity, map, reduce, post) \
  table.push_back(ReductionDef{static_cast<std::uint32_t>(table.size()),    \
                               #name,                                       \
                               nin,                                         \
                               acc,                                         \
                               identity,                                    \
                               map,                                         \
                               reduce,                                      \
                               post,                                        \
                               "",                                          \
                               ((flags)&kNoIdentity) == 0,                  \
                               ((flags)&kUsesIndex) != 0,                   \
                               {},                                          \
                               ReductionRule::rule});
#include "cuarray/ops/reductions.def"
#undef REDUCTION
  return table;
}

// NumPy's message for reducing zero elements without an identity.
std::string empty_reduction_message(const std::string& name) {
  if (name.find("arg") != std::string::npos) return "attempt to get " + name + " of an empty sequence";
  const char* ufunc = name == "max"      ? "maximum"
                      : name == "min"    ? "minimum"
                      : name == "nanmax" ? "fmax"
                      : name == "nanmin" ? "fmin"
                                         : name.c_str();
  return std::string("zero-size array to reduction operation ") + ufunc + " which has no identity";
}

int next_pow2(std::int64_t n) {
  int p = 1;
  while (p < n && p < (1 << 30)) p *= 2;
  return p;
}

std::string kernel_name(const ReductionDef& def, const DType* in_storage, DType out_storage, ReduceLayout layout,
                        int vec, bool partial, int no, int nr, bool wide) {
  std::string name = "red_" + def.name;
  for (int k = 0; k < def.nin; ++k) name += std::string("_") + cuarray::name(in_storage[k]);
  name += std::string("_o") + cuarray::name(out_storage);
  name += layout == ReduceLayout::Rows ? "_r" : layout == ReduceLayout::Columns ? "_c" : "_f";
  if (vec > 1) name += "v" + to_string(vec);
  name += "_" + to_string(no) + "_" + to_string(nr);
  if (partial) name += "_p";
  if (wide) name += "_w";
  return name;
}

// The generated Op (kernels/reduction.cuh describes its members).
std::string op_struct(const ReductionDef& def, const DType* in_types, DType out_type, const DType* in_storage,
                      DType out_storage) {
  const int K = def.nin;
  std::string s = "struct Op {\n";
  for (int k = 0; k < K; ++k) s += "  using in" + to_string(k) + "_t = " + cuda_type(in_types[k]) + ";\n";
  s += "  using out0_t = " + std::string(cuda_type(out_type)) + ";\n";
  s += "  using acc_t = " + def.acc_type + ";\n";
  s += "  static_assert(sizeof(acc_t) <= " + to_string(kMaxAccBytes) + ", \"accumulator too large\");\n";
  s += "  __device__ static acc_t identity() { return " + def.identity + "; }\n";
  std::string params;
  for (int k = 0; k < K; ++k) params += std::string(compute_type(in_types[k])) + " in" + to_string(k) + ", ";
  s += "  __device__ static acc_t map(" + params + "long long _j) { return " + def.map + "; }\n";
  s += "  __device__ static acc_t reduce(const acc_t& a, const acc_t& b) { return " + def.reduce + "; }\n";
  const std::string storage = cuda_type(out_storage);
  s += "  __device__ static " + storage + " post(const acc_t& a, long long _n, double _ddof, long long _m, const " +
       storage + "& _y0) {\n    [[maybe_unused]] const " + compute_type(out_type) +
       " _out_old = " + load_expr("_y0", out_storage, out_type) + ";\n    const " + compute_type(out_type) +
       " r = " + def.post + ";\n    return " + store_expr("r", out_type, out_storage) + ";\n  }\n";
  auto loads = [&](auto value) {
    std::string args;
    for (int k = 0; k < K; ++k) args += load_expr(value(k), in_storage[k], in_types[k]) + ", ";
    return args;
  };
  s += "  __device__ static acc_t fetch(const ca::Ptrs<" + to_string(K) + ">& p, const long long (&off)[" +
       to_string(K) + "], long long _j) {\n    return map(" + loads([&](int k) {
         return "ca::at<" + std::string(read_type(in_storage[k])) + ">(p.p[" + to_string(k) + "], off[" + to_string(k) +
                "])";
       }) +
       "_j);\n  }\n";
  s += "  template <int V> struct Pack {\n";
  for (int k = 0; k < K; ++k) s += "    " + std::string(read_type(in_storage[k])) + " x" + to_string(k) + "[V];\n";
  s += "  };\n";
  s += "  template <int V> __device__ static void fetch_vec(const ca::Ptrs<" + to_string(K) +
       ">& p, const long long (&base)[" + to_string(K) + "], long long e, Pack<V>& pk) {\n";
  for (int k = 0; k < K; ++k) {
    std::string t = read_type(in_storage[k]), ks = to_string(k);
    s += "    ca::load<V, true>(reinterpret_cast<const " + t + "*>(p.p[" + ks + "] + base[" + ks + "]) + e, pk.x" + ks +
         ");\n";
  }
  s += "  }\n";
  s +=
      "  template <int V> __device__ static acc_t map_lane(const Pack<V>& pk, int j, long long _j) {\n    return map(" +
      loads([&](int k) { return "pk.x" + to_string(k) + "[j]"; }) + "_j);\n  }\n";
  s += "  template <int V> __device__ static acc_t fold(acc_t acc, const Pack<V>& pk, long long e) {\n";
  s += "    acc_t m[V];\n#pragma unroll\n    for (int j = 0; j < V; ++j) m[j] = map(" +
       loads([&](int k) { return "pk.x" + to_string(k) + "[j]"; }) +
       "e + j);\n    return ca::fold_mapped<Op>(acc, m);\n  }\n};\n";
  return s;
}

}  // namespace

const std::vector<ReductionDef>& reductions() {
  static const std::vector<ReductionDef>* table = new std::vector<ReductionDef>(build());
  return *table;
}

std::vector<std::string> reduction_names() {
  std::vector<std::string> names;
  for (const ReductionDef& d : reductions()) names.push_back(d.name);
  return names;
}

const ReductionDef& reduction(const std::string& name) {
  for (const ReductionDef& d : reductions())
    if (d.name == name) return d;
  throw ValueError("cuarray has no reduction named '" + name + "'");
}

std::uint32_t new_reduction_id() {
  static std::atomic<std::uint32_t> next{1u << 16};  // below are the built-ins' table indices
  return next++;
}

std::vector<bool> reduced_axes(int ndim, const std::optional<std::vector<std::int64_t>>& axis) {
  std::vector<bool> reduced(ndim, !axis.has_value());
  if (axis)
    for (std::int64_t a : *axis) {
      int d = normalize_axis(a, ndim);
      if (reduced[d]) throw ValueError("duplicate value in 'axis'");
      reduced[d] = true;
    }
  return reduced;
}

// Note [Axes of 0-d arrays]
// NumPy's ufunc reductions (sum, max, any, argmax, ..., and the NaN-ignoring forms built on them) read a 0-d
// array as one element along an integer axis 0 or -1; mean, var and std count the elements first and raise
// AxisError there, and so do nanmean, nanvar and nanstd of integers, which NumPy hands to them.
bool reads_zero_d_axis(const ReductionDef& def, const Array& a, const std::vector<std::int64_t>& axis) {
  if (a.ndim() != 0 || axis.size() != 1 || (axis[0] != 0 && axis[0] != -1)) return false;
  const std::string& n = def.name;
  if (n == "mean" || n == "var" || n == "std") return false;
  const bool inexact = is_floating(a.dtype()) || is_complex(a.dtype());
  return inexact || (n != "nanmean" && n != "nanvar" && n != "nanstd");
}

void check_arity(const ReductionDef& def, std::size_t inputs, std::size_t in_types) {
  if (inputs != static_cast<std::size_t>(def.nin) || in_types != inputs)
    throw ValueError(def.name + " takes " + to_string(def.nin) + " inputs");
}

ReductionTypes reduction_types(const ReductionDef& def, const std::vector<DType>& in, std::optional<DType> dtype,
                               std::optional<DType> out) {
  if (static_cast<int>(in.size()) != def.nin)
    throw ValueError(def.name + " takes " + to_string(def.nin) + " input dtypes");
  return reduction_types(def.rule, in.data(), def.nin, dtype, out);
}

Shape reduced_shape(const Shape& shape, const std::vector<bool>& reduced, bool keepdims) {
  Shape out;
  for (size_t d = 0; d < shape.size(); ++d)
    if (!reduced[d])
      out.push_back(shape[d]);
    else if (keepdims)
      out.push_back(1);
  return out;
}

KernelSource reduction_source(const ReductionDef& def, const DType* in_types, DType out_type, const DType* in_storage,
                              DType out_storage, ReduceLayout layout, int vec, bool partial, int no, int nr,
                              bool wide) {
  const std::string K = to_string(def.nin), NO = to_string(no), NR = to_string(nr), BT = to_string(kBlockThreads);
  const std::string idx = index_type(wide), out_t = cuda_type(out_storage);
  std::string name = kernel_name(def, in_storage, out_storage, layout, vec, partial, no, nr, wide);
  // The Op lives in a namespace named after the kernel, so many kernels can share one program.
  std::string src = "#include \"cuarray/reduction.cuh\"\n" + def.preamble + "\nnamespace " + name + "_ns {\n" +
                    op_struct(def, in_types, out_type, in_storage, out_storage) + "}\n";
  std::string shape = "ca::ReduceShape<" + NO + ", " + NR + ", " + K + ">";
  std::string op = name + "_ns::Op";
  std::string targs = op + ", " + out_t + ", " + idx + ", " + NO + ", " + NR + ", " + K;
  src += "extern \"C\" __global__ void __launch_bounds__(" + BT + ") " + name + "(char* out, ca::Ptrs<" + K + "> in, " +
         op + "::acc_t* partial, int splits, " + shape + " s, double ddof) {\n  ";
  switch (layout) {
    case ReduceLayout::Rows:
      src += "ca::reduce_rows<" + targs + ", " + to_string(vec) + ", " + (partial ? "true" : "false") + ", " + BT +
             ">(out, in, partial, s, ddof);\n";
      break;
    case ReduceLayout::Columns:
      src += "ca::reduce_columns<" + targs + ", " + to_string(vec) + ", " + (partial ? "true" : "false") + ", " + BT +
             ">(out, in, partial, s, ddof);\n";
      break;
    case ReduceLayout::Finish:
      src += "ca::reduce_finish<" + targs + ", " + BT + ">(out, partial, splits, s, ddof);\n";
      break;
  }
  src += "}\n";
  return {src, name};
}

void reduce(const ReductionDef& def, const DType* in_types, DType out_type, const Array* inputs, const Array& out,
            const std::vector<bool>& reduced, double ddof) {
  const int K = def.nin;
  if (K < 1 || K > kMaxInputs) throw ValueError("a reduction takes 1 to 8 inputs");
  check_same_device(out, def.name.c_str());
  for (int k = 0; k < K; ++k) check_same_device(inputs[k], def.name.c_str());
  Shape broadcast_shape;
  const Shape& shape = broadcast_arrays(inputs, K, broadcast_shape);
  if (reduced.size() != shape.size()) throw ValueError("reduce: one flag per axis of the inputs is needed");
  const Shape& out_shape = out.shape();
  bool out_matches = out_shape.size() == shape.size() - std::count(reduced.begin(), reduced.end(), true);
  for (size_t d = 0, j = 0; d < shape.size() && out_matches; ++d)
    if (!reduced[d]) out_matches = out_shape[j++] == shape[d];
  if (!out_matches)
    throw ValueError("reduce: output shape " + shape_str(out_shape) + " does not match the reduction's " +
                     shape_str(reduced_shape(shape, reduced, false)));
  std::int64_t n_red = 1;
  for (size_t d = 0; d < shape.size(); ++d)
    if (reduced[d]) n_red *= shape[d];
  // NumPy refuses an empty reduction without identity even when the result is empty too ((0, 0) along 0).
  if (n_red == 0 && !def.has_identity) throw ValueError(empty_reduction_message(def.name));
  if (out.size() == 0) return;

  // An output in an input's memory is written through a temporary, so no input is overwritten while read; the
  // temporary starts as the output where post reads it (a ReductionKernel's post_map: `y += a`).
  for (int k = 0; k < K; ++k)
    if (inputs[k].buffer() == out.buffer()) {
      Array temp = Array::like(out, out.dtype());
      if (def.post.find("_out_old") != std::string::npos) copy_into(temp, out);
      reduce(def, in_types, out_type, inputs, temp, reduced, ddof);
      copy_into(out, temp);
      return;
    }

  // Operand 0 is the output, 1 + k input k (Note [Coalescing] in shape.h).
  IterDims out_dims, red_dims;
  Strides broadcast[kMaxInputs];
  const Strides* in_strides[kMaxInputs];
  for (int k = 0; k < K; ++k) {
    in_strides[k] = &inputs[k].strides();
    if (inputs[k].shape() != shape) {
      broadcast[k] = broadcast_strides(inputs[k].shape(), inputs[k].strides(), shape);
      in_strides[k] = &broadcast[k];
    }
  }
  for (size_t d = 0, j = 0; d < shape.size(); ++d) {
    IterDims& side = reduced[d] ? red_dims : out_dims;
    IterDim& dim = side.d[side.n++];
    dim.extent = shape[d];
    dim.strides[0] = reduced[d] ? 0 : out.strides()[j++];
    for (int k = 0; k < K; ++k) dim.strides[1 + k] = (*in_strides[k])[d];
  }
  // Outermost first by input 0's |stride|, so the last dim walks input 0's memory most closely.
  sort_by_memory_order(out_dims, 1);
  if (!def.uses_index) sort_by_memory_order(red_dims, 1);
  for (IterDims* dims : {&out_dims, &red_dims}) {
    coalesce(*dims, 1 + K);
    if (dims->n == 0) {  // the kernels take one dim at least
      dims->d[0].extent = 1;
      std::fill(dims->d[0].strides, dims->d[0].strides + 1 + K, 0);
      dims->n = 1;
    }
  }
  const int no = out_dims.n, nr = red_dims.n;
  const std::int64_t n_out = out.size();

  // Layout (Note [Reduction layouts]): rows when the reduced elements are closer in memory than the outputs.
  std::int64_t red_step = std::llabs(red_dims.back().strides[1]), out_step = std::llabs(out_dims.back().strides[1]);
  ReduceLayout layout = n_out == 1 || (n_red > 1 && red_step <= out_step) ? ReduceLayout::Rows : ReduceLayout::Columns;

  DType in_storage[kMaxInputs];
  int widest = 1;
  for (int k = 0; k < K; ++k) {
    in_storage[k] = inputs[k].dtype();
    widest = std::max(widest, itemsize(in_storage[k]));
  }
  // Vectors: one unit-stride reduced dim in every input, every row starting 16-byte aligned.
  int vec = 1;
  if (layout == ReduceLayout::Rows && nr == 1 && 16 / widest >= 2 && n_red >= 2 * (16 / widest)) {
    bool ok = true;
    for (int k = 0; k < K && ok; ++k) {
      ok = red_dims.d[0].strides[1 + k] == itemsize(in_storage[k]) &&
           reinterpret_cast<std::uintptr_t>(inputs[k].data()) % 16 == 0;
      for (const IterDim& d : out_dims) ok = ok && (d.extent == 1 || d.strides[1 + k] % 16 == 0);
    }
    if (ok) vec = 16 / widest;
  }

  // Columns in vectors of up to 4 (each thread keeps one accumulator per lane, in registers and shared
  // memory): one unit-stride output dim in every input, 16-byte aligned rows, whole vectors.
  const int column_vec = std::min(4, 16 / widest);
  if (layout == ReduceLayout::Columns && no == 1 && column_vec >= 2 && n_out % column_vec == 0) {
    bool ok = true;
    for (int k = 0; k < K && ok; ++k) {
      ok = out_dims.d[0].strides[1 + k] == itemsize(in_storage[k]) &&
           reinterpret_cast<std::uintptr_t>(inputs[k].data()) % 16 == 0;
      for (const IterDim& d : red_dims) ok = ok && d.strides[1 + k] % 16 == 0;
    }
    if (ok) vec = column_vec;
  }

  const int sms = cuda::properties(cuda::current_device()).multiProcessorCount;
  const std::int64_t target_blocks = static_cast<std::int64_t>(sms) * (2048 / kBlockThreads) * 2;
  dim3 block, grid;
  std::int64_t splits = 1;
  if (layout == ReduceLayout::Rows) {
    int bx = std::min<std::int64_t>(kBlockThreads, next_pow2((n_red + vec - 1) / vec));
    block = dim3(bx, kBlockThreads / bx);
    std::int64_t blocks = (n_out + block.y - 1) / block.y;
    std::int64_t per_thread = n_red / (static_cast<std::int64_t>(bx) * vec);  // vectors each thread folds unsplit
    if (blocks < target_blocks && per_thread >= 16)
      splits = std::min<std::int64_t>({(target_blocks + blocks - 1) / blocks, per_thread / 8, 65535});
    grid = dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(splits));
  } else {
    const std::int64_t columns = n_out / vec;  // threads along x
    int bx = std::min<std::int64_t>(32, next_pow2(columns));
    block = dim3(bx, kBlockThreads / bx);
    std::int64_t blocks = (columns + bx - 1) / bx;
    std::int64_t per_thread = n_red / block.y;
    // Whole splits that fit one wave of resident blocks: every block streams at once, with no partial last wave.
    const std::int64_t wave = target_blocks / 2;
    if (blocks < wave && per_thread >= 32)
      splits = std::max<std::int64_t>(1, std::min<std::int64_t>({wave / blocks, per_thread / 16, 65535}));
    grid = dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(splits));
  }
  if (grid.x > 0x7fffffffu) throw ValueError("reduce: too many outputs for one launch");
  const bool partial = splits > 1;
  const bool wide = std::max(n_out, n_red) > INT32_MAX / 4;

  auto kernel_for = [&](ReduceLayout l, int v, bool p) {
    WideKey key(WideKind::Reduction);  // Note [Registry keys]
    key.add(def.id, 32).add(static_cast<std::uint64_t>(no), 7).add(static_cast<std::uint64_t>(nr), 7);
    key.add(static_cast<std::uint64_t>(l), 2).add(static_cast<std::uint64_t>(v), 6).add(p, 1).add(wide, 1);
    for (int k = 0; k < K; ++k)
      key.add(static_cast<std::uint64_t>(in_types[k]), 5).add(static_cast<std::uint64_t>(in_storage[k]), 5);
    key.add(static_cast<std::uint64_t>(out_type), 5).add(static_cast<std::uint64_t>(out.dtype()), 5);
    jit::Kernel kernel = find_kernel(key);
    if (!kernel) {
      KernelSource src = reduction_source(def, in_types, out_type, in_storage, out.dtype(), l, v, p, no, nr, wide);
      kernel = jit::get_kernel(src.source, src.name, def.options);
      store_kernel(key, kernel);
    }
    return kernel;
  };

  // Kernel arguments: ReduceShape<no, nr, K> packed as 64-bit words, in the struct's order.
  std::int64_t packed[2 + (2 + kMaxInputs) * (kMaxDims + 1)];
  int w = 0;
  packed[w++] = n_out;
  packed[w++] = n_red;
  for (const IterDim& d : out_dims) packed[w++] = d.extent;
  for (const IterDim& d : red_dims) packed[w++] = d.extent;
  for (const IterDim& d : out_dims) packed[w++] = d.strides[0];
  for (int k = 0; k < K; ++k)
    for (const IterDim& d : out_dims) packed[w++] = d.strides[1 + k];
  for (int k = 0; k < K; ++k)
    for (const IterDim& d : red_dims) packed[w++] = d.strides[1 + k];
  const char* ptrs[kMaxInputs];
  for (int k = 0; k < K; ++k) ptrs[k] = inputs[k].data();
  char* out_ptr = out.data();
  std::optional<Array> workspace;
  if (partial) workspace.emplace(Shape{splits * n_out * kMaxAccBytes}, DType::UInt8);
  void* partial_ptr = partial ? static_cast<void*>(workspace->data()) : nullptr;
  int splits32 = static_cast<int>(splits);
  void* args[] = {&out_ptr, ptrs, &partial_ptr, &splits32, packed, &ddof};
  cudaStream_t stream = cuda::current_stream()->handle();
  jit::launch(kernel_for(layout, vec, partial), grid, block, args, 0, stream);
  if (partial) {
    int bx = std::min<std::int64_t>(32, next_pow2(n_out));
    dim3 fblock(bx, kBlockThreads / bx), fgrid(static_cast<unsigned>((n_out + bx - 1) / bx));
    jit::launch(kernel_for(ReduceLayout::Finish, 1, false), fgrid, fblock, args, 0, stream);
  }
}

}  // namespace cuarray::ops
