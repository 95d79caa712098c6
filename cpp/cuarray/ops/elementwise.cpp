#include "cuarray/ops/elementwise.h"

#include <algorithm>
#include <atomic>
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

constexpr int kMaxOperands = 12;

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

}  // namespace

std::uint32_t new_elementwise_id() {
  static std::atomic<std::uint32_t> next{1u << 16};  // below are the ufuncs' table indices
  return next++;
}

KernelSource elementwise_source(const ElementwiseDef& def, const DType* in_types, const DType* out_types,
                                const DType* in_storage, const std::uint8_t* kinds, const DType* out_storage,
                                bool contiguous, int ndim, bool aligned, bool wide) {
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
    int e = items_per_thread(in_storage, scalar, def.nin, out_storage, def.nout);
    std::string E = to_string(e), A = aligned ? "true" : "false";
    body += "  const " + idx + " base = (static_cast<" + idx + ">(blockIdx.x) * blockDim.x + threadIdx.x) * " + E + ";\n";
    body += "  if (base + " + E + " <= n) {\n";
    for (int i = 0; i < def.nin; ++i) {
      if (scalar[i]) continue;
      std::string c = compute_type(in_types[i]), n = "in" + to_string(i);
      if (in_storage[i] == in_types[i] || c == cuda_type(in_types[i]))
        body += "    " + c + " " + n + "_v[" + E + "];\n    ca::load<" + E + ", " + A + ">(" + n + "_p + base, " + n + "_v);\n";
      else
        body += "    " + std::string(cuda_type(in_types[i])) + " " + n + "_l[" + E + "];\n    ca::load<" + E + ", " + A +
                ">(" + n + "_p + base, " + n + "_l);\n    " + c + " " + n + "_v[" + E + "];\n    for (int j = 0; j < " +
                E + "; ++j) " + n + "_v[j] = ca::cast<" + c + ">(" + n + "_l[j]);\n";
    }
    for (int o = 0; o < def.nout; ++o)
      body += "    " + std::string(cuda_type(out_types[o])) + " out" + to_string(o) + "_v[" + E + "];\n";
    body += "#pragma unroll\n    for (int j = 0; j < " + E + "; ++j) ";
    body += element([&](int i) { return scalar[i] ? "in" + to_string(i) + "_s" : "in" + to_string(i) + "_v[j]"; },
                    [&](int o) { return "out" + to_string(o) + "_v[j] = ca::cast<" + std::string(cuda_type(out_types[o])) + ">(out" + to_string(o) + ")"; });
    for (int o = 0; o < def.nout; ++o)
      body += "    ca::store<" + E + ", " + A + ">(out" + to_string(o) + "_p + base, out" + to_string(o) + "_v);\n";
    body += "  } else {\n    for (" + idx + " i = base; i < n; ++i) ";
    body += element(
        [&](int i) { return scalar[i] ? "in" + to_string(i) + "_s" : load_expr("in" + to_string(i) + "_p[i]", in_storage[i], in_types[i]); },
        [&](int o) { return "out" + to_string(o) + "_p[i] = " + store_expr("out" + to_string(o), out_types[o], out_storage[o]); });
    body += "  }\n";
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
  std::string source = "#include \"cuarray/elementwise.cuh\"\n" + def.preamble + "\nextern \"C\" __global__ void " + name +
                       "(" + params + ") {\n" + body + "}\n";
  return {source, name};
}

void elementwise(const ElementwiseDef& def, const DType* in_types, const DType* out_types, const Input* inputs,
                 const Array* outputs, const Shape& shape) {
  int nin = def.nin, nout = def.nout;
  if (nin + nout > kMaxOperands) throw ValueError("an elementwise kernel takes at most 12 operands");
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
  bool contiguous = !def.uses_index && nout > 0, c_order = nout == 0 || outputs[0].c_contiguous(), aligned = true;
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
  int e = items_per_thread(in_storage, scalar, nin, out_storage, nout);
  auto check_aligned = [&](const Array& a) {
    int width = std::min(16, e * a.itemsize());
    if (reinterpret_cast<std::uintptr_t>(a.data()) % width) aligned = false;
  };
  std::optional<StridedArgs> sa;
  if (contiguous) {
    for (int o = 0; o < nout; ++o) check_aligned(outputs[o]);
    for (int i = 0; i < nin; ++i)
      if (!scalar[i]) check_aligned(*inputs[i].array);
  } else {
    std::vector<Strides> strides;
    for (int o = 0; o < nout; ++o) strides.push_back(outputs[o].strides());
    for (int i = 0; i < nin; ++i)
      if (!scalar[i]) strides.push_back(broadcast_strides(inputs[i].array->shape(), inputs[i].array->strides(), shape));
    sa.emplace(coalesce_in_memory_order(shape, strides));
  }
  bool wide = contiguous ? n > INT32_MAX - 64 : sa->wide();
  int ndim = contiguous ? 0 : sa->ndim();

  WideKey key;
  key.w[0] = (static_cast<std::uint64_t>(def.id) << 32) | (static_cast<std::uint64_t>(cuda::current_device()) << 16) |
             (static_cast<std::uint64_t>(ndim) << 3) | (contiguous << 2) | (aligned << 1) | wide;
  for (int k = 0; k < nin + nout; ++k) {
    std::uint64_t d = k < nin ? (static_cast<std::uint64_t>(in_types[k]) << 6) | (static_cast<std::uint64_t>(in_storage[k]) << 2) | kinds[k]
                              : (static_cast<std::uint64_t>(out_types[k - nin]) << 6) | (static_cast<std::uint64_t>(out_storage[k - nin]) << 2);
    key.w[1 + k / 4] |= d << (16 * (k % 4));
  }
  jit::Kernel kernel = find_kernel(key);
  if (!kernel) {
    KernelSource src = elementwise_source(def, in_types, out_types, in_storage, kinds, out_storage, contiguous, ndim,
                                          aligned, wide);
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
  args[a++] = wide ? static_cast<void*>(&n64) : static_cast<void*>(&n32);
  dim3 grid = contiguous ? jit::grid_for(n, e) : jit::grid_for(n);
  jit::launch(kernel, grid, dim3(jit::kBlockSize), args, 0, cuda::current_stream()->handle());
}

}  // namespace cuarray::ops
