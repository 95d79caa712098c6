// The source of an elementwise kernel: an Op (the definition's body as a functor, and how each operand is
// read and written) and one instantiation of its layout class's loop in kernels/elementwise.cuh (Note
// [Elementwise loops] there).
#include <algorithm>
#include <string>
#include <vector>

#include "cuarray/ops/codegen.h"
#include "cuarray/ops/elementwise.h"

namespace cuarray::ops {

namespace {

using std::to_string;

// Note [Partial blocks]
// A contiguous kernel's last block covers fewer than blockDim.x * E elements, and a small array has only that
// block. Its threads take their elements, blockDim.x apart, 4 at a time, issuing a group's loads before its
// stores, so an array of up to 1024 elements waits for memory once: a CUDA graph of ten elementwise ops on
// 1000 float32 elements replayed in less device time than when each thread looped over its elements one by
// one. Taking all E at once cost registers the whole kernel pays for (float16's add, bool's, float32's
// power), and the full blocks lost occupancy; groups of 4 keep the full blocks' registers and most of the
// small arrays' gain.
int partial_group(int items_per_thread) { return std::min(items_per_thread, 4); }

// What the generator knows of one kernel variant, and the text it writes for each operand.
class Generator {
 public:
  Generator(const ElementwiseDef& def, const DType* in_types, const DType* out_types, const DType* in_storage,
            const std::uint8_t* kinds, const DType* out_storage, const Layout& layout)
      : def_(def),
        in_t_(in_types),
        out_t_(out_types),
        in_s_(in_storage),
        kinds_(kinds),
        out_s_(out_storage),
        layout_(layout),
        idx_(index_type(layout.wide)) {
    for (int i = 0, k = def.nout; i < def.nin; ++i) slot_.push_back(array(i) ? k++ : -1);
    arrays_ = def.nout;
    for (int i = 0; i < def.nin; ++i) arrays_ += array(i);
  }

  KernelSource source() const {
    std::string name = kernel_name(), op = name + "_op";
    std::string members, params, init;
    for (int o = 0; o < def_.nout; ++o) {
      std::string type = layout_.contiguous ? std::string(cuda_type(out_s_[o])) + "*" : "char*";
      members += "  " + type + " __restrict__ " + out(o) + "_p;\n";
      params += type + " __restrict__ " + out(o) + "_p, ";
      init += out(o) + "_p, ";
    }
    for (int i = 0; i < def_.nin; ++i) {
      std::string type = scalar(i)            ? compute_type(in_t_[i])
                         : raw(i)             ? raw_type(i)
                         : layout_.contiguous ? "const " + std::string(read_type(in_s_[i])) + "* __restrict__"
                                              : "const char* __restrict__";
      std::string member = in(i) + (scalar(i) ? "_s" : raw(i) ? "_r" : "_p");
      members += "  " + type + " " + member + ";\n";
      params += type + " " + member + ", ";
      init += member + ", ";
    }
    std::string strided = "ca::Strided<" + to_string(layout_.ndim) + ", " + to_string(arrays_) + ">";
    if (!layout_.contiguous && arrays_) params += strided + " strided, ";
    params += idx_ + " n";
    init.resize(init.size() - 2);

    std::string loop;
    if (layout_.contiguous)
      loop = "ca::elementwise_contiguous<" + idx_ + ", " + contiguous_counts() + ">(op, n);";
    else if (layout_.tiled)
      loop = "ca::elementwise_tiled<" + idx_ + ", " + to_string(layout_.ndim) + ", " + to_string(arrays_) + ", " +
             to_string(layout_.tile) + ">(op, strided);";
    else if (arrays_)
      loop = "ca::elementwise_strided<" + idx_ + ", " + to_string(layout_.ndim) + ", " + to_string(arrays_) +
             ">(op, strided, n);";
    else
      loop = "ca::elementwise_indexed<" + idx_ + ">(op, n);";

    std::string methods = layout_.contiguous ? contiguous_methods()
                          : layout_.tiled    ? tiled_methods()
                                             : strided_methods();
    std::string text = "#include \"" + def_.header + "\"\n" + def_.preamble + "\nstruct " + op + " {\n" + members +
                       functor() + methods + "};\n\nextern \"C\" __global__ void " + name + "(" + params +
                       ") {\n  const " + op + " op{" + init + "};\n  " + loop + "\n}\n";
    return {text, name};
  }

 private:
  bool scalar(int i) const { return kinds_[i] == 1; }
  bool raw(int i) const { return kinds_[i] == 2; }
  bool array(int i) const { return kinds_[i] == 0; }
  std::string raw_type(int i) const {
    return "ca::Raw<" + std::string(cuda_type(in_s_[i])) + ", " + to_string(layout_.raw_ndim[i]) + ">";
  }
  static std::string in(int i) { return "in" + to_string(i); }
  static std::string out(int o) { return "out" + to_string(o); }
  std::string compute_in(int i) const { return compute_type(in_t_[i]); }
  std::string compute_out(int o) const { return compute_type(out_t_[o]); }

  std::string kernel_name() const {
    std::string name = "ew_" + def_.name;
    for (int i = 0; i < def_.nin; ++i)
      name += std::string("_") +
              (scalar(i) ? "s"
               : raw(i)  ? "r" + to_string(layout_.raw_ndim[i])
                         : "") +
              cuarray::name(in_s_[i]);
    for (int o = 0; o < def_.nout; ++o) name += std::string("_o") + cuarray::name(out_s_[o]);
    name += layout_.contiguous ? (layout_.aligned ? "_cv" : "_c") : "_s" + to_string(layout_.ndim);
    if (layout_.tiled) name += "_t" + to_string(layout_.tiled) + "x" + to_string(layout_.tile);
    if (layout_.wide) name += "_w";
    return name;
  }

  // The body as the Op's call operator: inputs by value in their compute types (raw arrays as a ca::Raw),
  // outputs by reference; `i` and `_ind` where the body reads them (the strided class only).
  std::string functor() const {
    std::vector<std::string> params;
    std::string types;
    for (int i = 0; i < def_.nin; ++i) {
      params.push_back((raw(i) ? "const " + raw_type(i) + "&" : "const " + compute_in(i)) + " " + in(i));
      // The loop's types by name, for bodies whose result depends on the storage format (nextafter on float16).
      types += "    using " + in(i) + "_t = " + cuda_type(in_t_[i]) + ";\n";
    }
    for (int o = 0; o < def_.nout; ++o) {
      params.push_back(compute_out(o) + "& " + out(o));
      types += "    using " + out(o) + "_t = " + cuda_type(out_t_[o]) + ";\n";
    }
    // CuPy's `i` is a ptrdiff_t whatever the loop's index type (`y = i * i` must not overflow at 46341).
    if (def_.uses_index) params.insert(params.end(), {"ptrdiff_t i", "ca::Ind<" + idx_ + "> _ind"});
    return "  __device__ __forceinline__ void operator()(" + join(params) + ") const {\n" + types + "    " + def_.body +
           "\n  }\n";
  }

  // One element: the outputs declared (starting as `initial(o)` where the body reads them), the body called on
  // `value(i)` for each input, then `store(o)`.
  template <class Value, class Store, class Initial>
  std::string element(Value value, Store store, bool index, Initial initial) const {
    std::string s = "{\n";
    std::vector<std::string> args;
    for (int i = 0; i < def_.nin; ++i) args.push_back(value(i));
    for (int o = 0; o < def_.nout; ++o) {
      s += "    " + compute_out(o) + " " + out(o) + (def_.reads_outputs ? " = " + initial(o) : "") + ";\n";
      args.push_back(out(o));
    }
    if (index) args.insert(args.end(), {"i", "_ind"});
    s += "    (*this)(" + join(args) + ");\n";
    for (int o = 0; o < def_.nout; ++o) s += "    " + store(o) + ";\n";
    return s + "  }\n";
  }
  template <class Value, class Store>
  std::string element(Value value, Store store) const {
    // Definitions that read their outputs never take this layout class (Note [Outputs a body reads]).
    return element(value, store, false, [](int) { return std::string("{}"); });
  }
  std::string scalar_value(int i) const { return raw(i) ? in(i) + "_r" : in(i) + "_s"; }

  // Elements per thread of the contiguous class: two 16-byte accesses of the widest operand.
  int items() const {
    bool scalar_of[kMaxOperands];
    for (int i = 0; i < def_.nin; ++i) scalar_of[i] = !array(i);
    return items_per_thread(in_s_, scalar_of, def_.nin, out_s_, def_.nout);
  }
  int chunk() const { return std::max(1, items() / 2); }
  std::string contiguous_counts() const {
    return to_string(items()) + ", " + to_string(chunk()) + ", " + to_string(partial_group(items()));
  }

  // Contiguous class: a thread's elements in registers (Chunk), loaded and stored 16 bytes at a time; the
  // partial block's in groups (Group) of single accesses.
  std::string contiguous_methods() const {
    const int e = items(), p = chunk(), g = partial_group(e);
    const std::string E = to_string(e), P = to_string(p), G = to_string(g), A = layout_.aligned ? "true" : "false";
    const std::string chunks = "<" + E + ", " + P + ", " + A + ">";
    const std::string range = idx_ + " base, " + idx_ + " stride) const {\n";
    // float16 is moved as float16 and widened and narrowed a thread's elements at once, after all the loads
    // are issued (Note [Float16 conversions] in kernels/vector.cuh).
    auto half = [](DType t) { return t == DType::Float16; };
    auto direct = [&](int i) {
      return !half(in_t_[i]) && (in_s_[i] == in_t_[i] || compute_in(i) == cuda_type(in_t_[i]));
    };
    // float16 results go to memory two to a word where the chunks are aligned and hold whole pairs.
    auto narrowed = [&](int o) { return half(out_t_[o]) && out_s_[o] == out_t_[o] && layout_.aligned && p % 2 == 0; };
    auto held = [&](int o) { return std::string(narrowed(o) ? "float" : cuda_type(out_t_[o])); };
    std::string chunk = "  struct Chunk {\n", group = "  struct Group {\n", load, convert, store, load_group;
    for (int i = 0; i < def_.nin; ++i) {
      if (!array(i)) continue;
      const std::string n = in(i), v = n + "_v[" + E + "]";
      chunk +=
          "    " +
          (direct(i) ? compute_in(i) + " " + v
                     : std::string(cuda_type(in_t_[i])) + " " + n + "_l[" + E + "];\n    " + compute_in(i) + " " + v) +
          ";\n";
      group += "    " + compute_in(i) + " " + n + "_v[" + G + "];\n";
      load +=
          "    ca::load_chunks" + chunks + "(" + n + "_p + base, stride, c." + n + (direct(i) ? "_v" : "_l") + ");\n";
      if (half(in_t_[i]))
        convert += "    ca::widen(c." + n + "_l, c." + n + "_v);\n";
      else if (!direct(i))
        convert += "    for (int j = 0; j < " + E + "; ++j) c." + n + "_v[j] = ca::cast<" + compute_in(i) + ">(c." + n +
                   "_l[j]);\n";
      load_group += "    ca::load_group<" + G + ", " + cuda_type(in_t_[i]) + ">(" + n + "_p, first, g, step, n, v." +
                    n + "_v);\n";
    }
    for (int o = 0; o < def_.nout; ++o) {
      const std::string n = out(o);
      chunk += "    " + held(o) + " " + n + "_v[" + E + "];\n";
      if (narrowed(o))
        store += "    unsigned " + n + "_w[" + to_string(e / 2) + "];\n    ca::narrow(c." + n + "_v, " + n +
                 "_w);\n    ca::store_chunks<" + to_string(e / 2) + ", " + to_string(p / 2) +
                 ", true>(reinterpret_cast<unsigned*>(" + n + "_p + base), stride / 2, " + n + "_w);\n";
      else
        store += "    ca::store_chunks" + chunks + "(" + n + "_p + base, stride, c." + n + "_v);\n";
    }
    auto from = [&](const std::string& regs) {
      return [this, regs](int i) { return array(i) ? regs + in(i) + "_v[j]" : scalar_value(i); };
    };
    return chunk + "  };\n" + group + "  };\n" +                                                            //
           "  __device__ __forceinline__ void load_chunks(Chunk& c, " + range + load + convert + "  }\n" +  //
           "  __device__ __forceinline__ void compute(Chunk& c, int j) const " +
           element(from("c."),
                   [&](int o) { return "c." + out(o) + "_v[j] = ca::cast<" + held(o) + ">(" + out(o) + ")"; }) +
           "  __device__ __forceinline__ void store_chunks(const Chunk& c, " + range + store + "  }\n" +
           "  __device__ __forceinline__ void load_group(Group& v, " + idx_ + " first, int g, " + idx_ + " step, " +
           idx_ + " n) const {\n" + load_group + "  }\n" +
           "  __device__ __forceinline__ void store_one(const Group& v, int j, " + idx_ + " k) const " +
           element(from("v."), [&](int o) { return out(o) + "_p[k] = " + store_expr(out(o), out_t_[o], out_s_[o]); });
  }

  // Strided class: operand k of element i at byte offset off[k].
  std::string out_at(int o) const {
    return "ca::at<" + std::string(cuda_type(out_s_[o])) + ">(" + out(o) + "_p, off[" + to_string(o) + "])";
  }
  std::string strided_methods() const {
    const std::string K = to_string(std::max(arrays_, 1));
    return "  __device__ __forceinline__ void element(const " + idx_ + " (&off)[" + K + "], " + idx_ + " i, ca::Ind<" +
           idx_ + "> _ind) const " +
           element(
               [&](int i) {
                 if (!array(i)) return scalar_value(i);
                 return load_expr("ca::at<" + std::string(read_type(in_s_[i])) + ">(" + in(i) + "_p, off[" +
                                      to_string(slot_[i]) + "])",
                                  in_s_[i], in_t_[i]);
               },
               [&](int o) { return out_at(o) + " = " + store_expr(out(o), out_t_[o], out_s_[o]); }, def_.uses_index,
               [&](int o) { return load_expr(out_at(o), out_s_[o], out_t_[o]); });
  }

  // Tiled class: tiled inputs through the shared Tiles, read at [a][b]; every operand's element (r, c).
  std::string tiled_methods() const {
    const std::string T = to_string(layout_.tile), K = to_string(arrays_);
    const std::string args = "const ca::Strided<" + to_string(layout_.ndim) + ", " + K + ">& s, const " + idx_ +
                             " (&off)[" + K + "], int a, int b, " + idx_ + " r, " + idx_ + " c) const ";
    auto at = [&](const std::string& p, int k, const char* type) {
      return "ca::tile_at<" + std::string(type) + ">(" + p + ", s, off, " + to_string(k) + ", r, c)";
    };
    std::string tiles = "  struct Tiles {\n", fill;
    for (int i = 0; i < def_.nin; ++i)
      if ((layout_.tiled >> i) & 1u) {
        tiles += "    " + std::string(read_type(in_s_[i])) + " " + in(i) + "[" + T + "][" + T + " + 1];\n";
        fill += "    t." + in(i) + "[a][b] = " + at(in(i) + "_p", slot_[i], read_type(in_s_[i])) + ";\n";
      }
    return tiles + "  };\n  __device__ __forceinline__ void fill_tiles(Tiles& t, " + args + "{\n" + fill + "  }\n" +
           "  __device__ __forceinline__ void element_tiled(const Tiles& t, " + args +
           element(
               [&](int i) {
                 if (!array(i)) return scalar_value(i);
                 std::string v = (layout_.tiled >> i) & 1u ? "t." + in(i) + "[a][b]"
                                                           : at(in(i) + "_p", slot_[i], read_type(in_s_[i]));
                 return load_expr(v, in_s_[i], in_t_[i]);
               },
               [&](int o) {
                 return at(out(o) + "_p", o, cuda_type(out_s_[o])) + " = " + store_expr(out(o), out_t_[o], out_s_[o]);
               });
  }

  const ElementwiseDef& def_;
  const DType *in_t_, *out_t_, *in_s_;
  const std::uint8_t* kinds_;
  const DType* out_s_;
  const Layout& layout_;
  const std::string idx_;
  std::vector<int> slot_;  // input i's strided operand, or -1 for scalars and raw arrays
  int arrays_ = 0;         // strided operands: the outputs, then the array inputs
};

}  // namespace

int items_per_thread(const DType* in_storage, const bool* scalar, int nin, const DType* out_storage, int nout) {
  int widest = 1;
  for (int i = 0; i < nin; ++i)
    if (!scalar[i]) widest = std::max(widest, itemsize(in_storage[i]));
  for (int i = 0; i < nout; ++i) widest = std::max(widest, itemsize(out_storage[i]));
  return std::max(1, 32 / widest);
}

KernelSource elementwise_source(const ElementwiseDef& def, const DType* in_types, const DType* out_types,
                                const DType* in_storage, const std::uint8_t* kinds, const DType* out_storage,
                                const Layout& layout) {
  // Time types are refused before any table indexed by dtype is read (Note [Datetime storage] in dtype.h).
  for (int i = 0; i < def.nin; ++i)
    check_computable(in_types[i], "this operation"), check_computable(in_storage[i], "this operation");
  for (int o = 0; o < def.nout; ++o)
    check_computable(out_types[o], "this operation"), check_computable(out_storage[o], "this operation");
  return Generator(def, in_types, out_types, in_storage, kinds, out_storage, layout).source();
}

KernelSource elementwise_variant_source(const ElementwiseDef& def, const std::vector<DType>& in_types,
                                        const std::vector<DType>& out_types, std::vector<std::uint8_t> kinds,
                                        bool contiguous, int ndim, std::uint32_t tiled,
                                        const std::vector<std::uint8_t>& raw_ndim) {
  kinds.resize(in_types.size(), 0);
  Layout layout{contiguous, ndim, tiled, 64, contiguous, false};
  for (std::size_t i = 0; i < kinds.size() && i < static_cast<std::size_t>(kMaxOperands); ++i)
    layout.raw_ndim[i] = i < raw_ndim.size() ? raw_ndim[i] : 1;
  return elementwise_source(def, in_types.data(), out_types.data(), in_types.data(), kinds.data(), out_types.data(),
                            layout);
}

}  // namespace cuarray::ops
