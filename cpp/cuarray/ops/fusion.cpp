#include "cuarray/ops/fusion.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "cuarray/error.h"
#include "cuarray/ops/codegen.h"
#include "cuarray/ops/creation.h"
#include "cuarray/ops/operands.h"
#include "cuarray/ops/ufunc.h"

namespace cuarray::ops {

// Note [Fused kernels]
// cuarray.fuse traces a function once per signature of argument dtypes (python/cuarray/_fusion.py): each
// operator, ufunc, astype and constant it applies to traced values is recorded as a step of a FusedProgram
// (the ufunc's index, its operands' value numbers and the loop types NumPy's resolution picks), and a final
// sum, prod, max or min as the program's reduction. Typing stays in Python, with the ufuncs' own resolution,
// so fused and unfused calls pick the same loops; everything else is here:
// - the code: each ufunc step is its ufuncs.def row's expression in a block of its own, its operands cast to
//   the loop types on the way in and the results kept in their storage types, as the unfused ufunc stores
//   them; the blocks are the body of one elementwise kernel (ops/elementwise_source.cpp), or, with a
//   reduction, a device function that the reduction row's map applies to (the intermediate array is never
//   written);
// - the definition, registered once (Note [Definitions] in kernel_registry.h), so that the function's
//   signature cache (a FusedSignatures per function) keeps a FusedKernel and a later call, reducing or not,
//   goes from its arguments to the launch without Python;
// - the call: the arguments go through the operand builder as a ufunc's do (Note [Operand builder] in
//   operands.h), and a reduction's through the reduction's builder after them.

namespace {

using std::to_string;

std::string storage(DType t) { return cuda_type(t); }

std::string double_literal(double v) {
  std::int64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return "__longlong_as_double(" + to_string(bits) + "LL)";
}

// A constant as C++ source: a weak one (a Python scalar) as its literal, a NumPy scalar cast to its dtype.
std::string literal(const FusedStep& c) {
  DType t = c.types[0];
  std::string v;
  if (t == DType::Bool)
    v = c.integer ? "true" : "false";
  else if (is_complex(t))
    v = "ca::complex<double>(" + double_literal(c.re) + ", " + double_literal(c.im) + ")";
  else if (is_floating(t))
    v = double_literal(c.re);
  else if (kind(t) == Kind::Unsigned)
    v = to_string(c.integer) + "ULL";
  else
    v = to_string(static_cast<std::int64_t>(c.integer)) + "LL";
  return c.weak ? v : "ca::cast<" + storage(t) + ">(" + v + ")";
}

// `text` with every whole word `word` replaced by `by`.
std::string replace_word(const std::string& text, const std::string& word, const std::string& by) {
  auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (text.compare(i, word.size(), word) == 0 && (i == 0 || !ident(text[i - 1])) &&
        (i + word.size() == text.size() || !ident(text[i + word.size()]))) {
      out += by;
      i += word.size();
    } else {
      out += text[i++];
    }
  }
  return out;
}

// The program's statements: each value's C++ expression (`value[v]`) and dtype (`type[v]`) once they ran.
struct Code {
  std::vector<std::string> lines, value;
  std::vector<DType> type;
};

Code generate(const FusedProgram& p) {
  Code c;
  for (std::size_t i = 0; i < p.in.size(); ++i) {
    c.lines.push_back("const auto a" + to_string(i) + " = in" + to_string(i) + ";");
    c.value.push_back("a" + to_string(i));
    c.type.push_back(p.in[i]);
  }
  int temps = 0;
  auto temp = [&](DType t) {
    std::string name = "t" + to_string(temps++);
    c.lines.push_back(storage(t) + " " + name + ";");
    c.value.push_back(name);
    c.type.push_back(t);
    return name;
  };
  const auto& table = ufuncs();
  for (const FusedStep& s : p.steps) {
    if (s.kind == FusedStep::Kind::Constant) {
      c.value.push_back(literal(s));
      c.type.push_back(s.types[0]);
    } else if (s.kind == FusedStep::Kind::Cast) {
      std::string src = c.value.at(s.args.at(0)), name = temp(s.types.at(0));
      c.lines.push_back(name + " = ca::cast<" + storage(s.types[0]) + ">(" + src + ");");
    } else {
      const Ufunc& u = table.at(s.ufunc);
      const int nin = u.def.nin, nout = u.def.nout;
      if (static_cast<int>(s.args.size()) != nin || static_cast<int>(s.types.size()) != nin + nout ||
          find_loop(u, s.types.data(), s.types.data() + nin) < 0)
        throw TypeError("cuarray.fuse: ufunc '" + u.public_name + "' has no loop of the traced types");
      std::vector<std::string> srcs;
      for (int a : s.args) srcs.push_back(c.value.at(a));
      std::vector<std::string> outs;
      for (int o = 0; o < nout; ++o) outs.push_back(temp(s.types[nin + o]));
      std::string block = "{";
      for (int i = 0; i < nin; ++i) block += " using in" + to_string(i) + "_t = " + storage(s.types[i]) + ";";
      for (int o = 0; o < nout; ++o) block += " using out" + to_string(o) + "_t = " + storage(s.types[nin + o]) + ";";
      for (int i = 0; i < nin; ++i) {
        std::string ct = compute_type(s.types[i]);
        block += " const " + ct + " in" + to_string(i) + " = ca::cast<" + ct + ">(ca::cast<" + storage(s.types[i]) +
                 ">(" + srcs[i] + "));";
      }
      for (int o = 0; o < nout; ++o)
        block += " " + std::string(compute_type(s.types[nin + o])) + " out" + to_string(o) + ";";
      block += " " + u.def.body;
      for (int o = 0; o < nout; ++o)
        block += " " + outs[o] + " = ca::cast<" + storage(s.types[nin + o]) + ">(out" + to_string(o) + ");";
      c.lines.push_back(block + " }");
    }
  }
  for (int r : p.results)
    if (r < 0 || r >= static_cast<int>(c.value.size())) throw ValueError("cuarray.fuse: a result names no value");
  return c;
}

// The post steps as a program of their own: the reduction's result (its value 0) through `p.post`.
FusedProgram post_program(const FusedProgram& p) { return {p.name + "_post", {p.result}, p.post, {p.post_result}}; }

// The reduction whose map is the traced body: `<name>_value(in...)` computes the reduced value, which the
// row's map then takes in the reduction's loop type.
ReductionDef fused_reduction(const FusedProgram& p, const Code& c) {
  const ReductionDef& row = reduction(p.reduction);
  // The row's in0_t is the reduced value's loop type, which here is not the kernel's first input.
  auto typed = [&](const std::string& e) { return replace_word(e, "in0_t", storage(p.reduce_loop)); };
  std::vector<std::string> params, args;
  for (std::size_t i = 0; i < p.in.size(); ++i) {
    params.push_back(std::string(compute_type(p.in[i])) + " in" + to_string(i));
    args.push_back("in" + to_string(i));
  }
  const int reduced = p.results.at(0);
  const std::string value_type = compute_type(c.type[reduced]), loop = compute_type(p.reduce_loop);
  std::string preamble = "__device__ __forceinline__ " + value_type + " " + p.name + "_value(" + join(params, ", ") +
                         ") {\n  " + join(c.lines, "\n  ") + "\n  return ca::cast<" + value_type + ">(" +
                         c.value[reduced] + ");\n}\n";
  std::string value = "ca::cast<" + loop + ">(ca::cast<" + storage(p.reduce_loop) + ">(" + p.name + "_value(" +
                      join(args, ", ") + ")))";
  std::string map = "[&](const " + loop + " in0) { return acc_t(" + typed(row.map) + "); }(" + value + ")";
  ReductionDef d = row;
  d.id = new_reduction_id();
  d.name = p.name;
  d.nin = static_cast<int>(p.in.size());
  d.acc_type = typed(row.acc_type), d.identity = typed(row.identity), d.reduce = typed(row.reduce);
  d.post = typed(row.post), d.map = map, d.preamble = preamble;
  if (p.post_result > 0) {
    // The reduction's result, stored in its dtype as the unfused reduction stores it, goes through the post
    // steps; the kernel's output is then their result (final_type(p) gives its dtype).
    const FusedProgram q = post_program(p);
    Code pc = generate(q);
    const std::string out = compute_type(pc.type.at(p.post_result)), in = compute_type(p.result);
    d.preamble += "__device__ __forceinline__ " + out + " " + q.name + "(const " + in + " in0) {\n  " +
                  join(pc.lines, "\n  ") + "\n  return ca::cast<" + out + ">(" + pc.value[p.post_result] + ");\n}\n";
    d.post = q.name + "(ca::cast<" + in + ">(ca::cast<" + storage(p.result) + ">(ca::cast<" + compute_type(p.out_loop) +
             ">(" + d.post + "))))";
  }
  d.uses_index = false;
  d.options.clear();
  return d;
}

// The broadcast shape of the array inputs (a scalar's shape where there is none); `broadcast` holds it where
// it is none of the inputs' own.
const Shape& broadcast_inputs(const Input* inputs, int nin, Shape& broadcast) {
  static const Shape scalar_shape;
  const Shape* shape = nullptr;
  for (int i = 0; i < nin; ++i) {
    if (!inputs[i].array) continue;
    const Shape& s = inputs[i].array->shape();
    if (!shape) {
      shape = &s;
    } else if (*shape != s) {
      broadcast = broadcast_shapes(*shape, s);
      shape = &broadcast;
    }
  }
  return shape ? *shape : scalar_shape;
}

// The elementwise definition of program `p` whose code is `c`, registered for the process: its outputs are the
// values `outs` (value, dtype stored), whose dtypes are appended to `out`.
const ElementwiseDef& elementwise_of(const FusedProgram& p, Code& c, const std::vector<std::pair<int, DType>>& outs,
                                     std::vector<std::string> options, std::vector<DType>& out) {
  const int nin = static_cast<int>(p.in.size()), nout = static_cast<int>(outs.size());
  for (int o = 0; o < nout; ++o) {
    auto [value, t] = outs[o];
    c.lines.push_back("out" + to_string(o) + " = ca::cast<" + compute_type(t) + ">(" + c.value[value] + ");");
    out.push_back(t);
  }
  std::string body = "{\n        " + join(c.lines, "\n        ") + "\n      }";
  return elementwise_definition(
      add_definition(ElementwiseDef{new_elementwise_id(), p.name, body, "", nin, nout, false, std::move(options)}));
}

}  // namespace

const ElementwiseDef& define_fused_elementwise(const FusedProgram& p, const std::vector<std::string>& options,
                                               std::vector<DType>& out) {
  if (!p.reduction.empty() || !p.updates.empty() || static_cast<int>(p.in.size() + p.results.size()) > kMaxOperands)
    throw ValueError("define_fused_elementwise: a program of ufunc steps alone, of at most " + to_string(kMaxOperands) +
                     " operands");
  Code c = generate(p);
  std::vector<std::pair<int, DType>> outs;
  for (int r : p.results) outs.emplace_back(r, c.type[r]);
  return elementwise_of(p, c, outs, options, out);
}

// Note [Updates in place]
// A fused function may update its array arguments (`x += y`, out=x): the final value of each becomes one of
// the kernel's last outputs, written into the argument itself, element by element as NumPy's ufuncs write
// them. That equals running the function op by op only where every element is read and written at its own
// index: the argument has the broadcast shape (a smaller one would be written once per broadcast element),
// and no other input shares its memory (x and x.T, or x passed twice: each later op would read the updated
// values, which the kernel, reading every input once at its start, does not). Calls failing this run the
// function op by op instead (Note [Fusion plans] in python/src/fusion.cpp).
bool updates_in_place(const FusedKernel& k, const Input* inputs) {
  const int nin = static_cast<int>(k.in.size());
  Shape broadcast;
  const Shape& shape = broadcast_inputs(inputs, nin, broadcast);
  for (int u : k.updates) {
    const Array* a = inputs[u].array;
    if (!a || a->shape() != shape) return false;
    for (int d = 0; d < a->ndim(); ++d)
      if (a->shape()[d] > 1 && a->strides()[d] == 0) return false;
    for (int i = 0; i < nin; ++i) {
      const Array* b = inputs[i].array;
      if (i != u && b && b->buffer() == a->buffer() && b->size() > 0 && a->size() > 0) return false;
    }
  }
  return true;
}

std::size_t define_fused(const FusedProgram& p) {
  const int nin = static_cast<int>(p.in.size());
  Code c = generate(p);
  FusedKernel k;
  k.in = p.in;
  k.used.assign(p.in.size(), false);
  auto mark = [&](int v) {
    if (v >= 0 && v < nin) k.used[v] = true;
  };
  for (const FusedStep& s : p.steps)
    for (int a : s.args) mark(a);
  for (int r : p.results) mark(r);
  for (auto [arg, value] : p.updates) mark(arg), mark(value);
  if (!p.reduction.empty()) {
    if (!p.updates.empty()) throw ValueError("cuarray.fuse: a fused reduction updates no arguments");
    k.reduction = &reduction_definition(add_definition(fused_reduction(p, c)));
    if (p.post_result > 0) {  // the kernel's post then computes in the post steps' result dtype and stores it
      k.out_loop = k.result = generate(post_program(p)).type.at(p.post_result);
    } else {
      k.out_loop = p.out_loop;
      k.result = p.result;
    }
    k.axis = p.axis;
    k.int_axis = p.int_axis;
    k.keepdims = p.keepdims;
  } else {
    const int nout = static_cast<int>(p.results.size() + p.updates.size());
    if (nin + nout > kMaxOperands)
      throw ValueError("a fused function takes at most " + to_string(kMaxOperands) + " arguments and results together");
    std::vector<std::pair<int, DType>> outs;  // (value, dtype stored)
    for (int r : p.results) outs.emplace_back(r, c.type[r]);
    for (auto [arg, value] : p.updates) {
      if (arg < 0 || arg >= nin || value < 0 || value >= static_cast<int>(c.value.size()))
        throw ValueError("cuarray.fuse: an update names no argument or value");
      outs.emplace_back(value, p.in[arg]);
      k.updates.push_back(arg);
    }
    k.elementwise = &elementwise_of(p, c, outs, {}, k.out);
    k.tuple_result = p.tuple_result;
  }
  return add_definition(std::move(k));
}

bool FusedSignatures::signature(const int* codes, std::size_t n, std::uint64_t& key) {
  if (n > kMaxArgs) return false;
  key = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (codes[i] == kNoCode) return false;
    key = (key << 6) | static_cast<std::uint64_t>(codes[i]);
  }
  return true;
}

KernelSource fused_source(const FusedKernel& k, bool contiguous, int ndim, std::uint32_t tiled, ReduceLayout layout,
                          int vec, bool partial) {
  if (k.elementwise) return elementwise_variant_source(*k.elementwise, k.in, k.out, {}, contiguous, ndim, tiled);
  return reduction_source(*k.reduction, k.in.data(), k.out_loop, k.in.data(), k.result, layout, vec, partial, 1, 1,
                          false);
}

void check_fused_arity(const FusedKernel& k, std::size_t nargs) {
  if (nargs != k.in.size()) throw TypeError("fused function called with a different number of arguments");
}

std::vector<Array> run_fused(const FusedKernel& k, ElementwiseOperands& operands) {
  const int nin = static_cast<int>(k.in.size());
  // A fused function's scalars convert before its arrays broadcast: its calls have always raised in that order.
  for (int i = 0; i < nin; ++i) operands.convert_scalar(i, k.in[i]);
  if (k.elementwise) {
    // The arguments updated in place are the last outputs (Note [Updates in place]).
    const std::size_t fresh = k.out.size() - k.updates.size();
    if (!k.updates.empty() && !updates_in_place(k, operands.inputs()))
      throw ValueError(
          "cuarray.fuse: an argument updated in place must have the broadcast shape and share no memory with "
          "another argument");
    for (std::size_t j = 0; j < k.updates.size(); ++j)
      operands.set_output(static_cast<int>(fresh + j), *operands.inputs()[k.updates[j]].array, k.out[fresh + j],
                          Casting::Unsafe);
    operands.allocate(k.out.data(), 'C');
    elementwise(*k.elementwise, k.in.data(), k.out.data(), operands.inputs(), operands.outputs(), operands.shape());
    std::vector<Array> out = operands.take_outputs();
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(fresh), out.end());
    return out;
  }
  operands.check_broadcast();
  // Scalars join the reduction as 0-d arrays: the reduction engine broadcasts arrays only. A scalar's value
  // is in its loop type's compute type (float for the 16-bit floats, exactly), which the kernel reads back
  // into the loop type.
  const Input* inputs = operands.inputs();
  if (std::none_of(inputs, inputs + nin, [](const Input& in) { return in.array != nullptr; }))
    throw TypeError("cuarray.fuse: " + k.reduction->name + " reduces, so at least one argument must be an array");
  std::vector<Array> arrays;
  for (int i = 0; i < nin; ++i) {
    if (inputs[i].array) {
      arrays.push_back(*inputs[i].array);
    } else {
      DType t = k.in[i] == DType::Float16 || k.in[i] == DType::BFloat16 ? DType::Float32 : k.in[i];
      arrays.emplace_back(Shape{}, t);
      fill(arrays.back(), inputs[i].value);
    }
  }
  ReductionOperands reduction(*k.reduction, arrays.data(), nin, k.axis, k.int_axis, k.keepdims);
  reduction.run(k.in.data(), k.out_loop, k.result);
  std::vector<Array> out;
  out.push_back(reduction.take_result());
  return out;
}

}  // namespace cuarray::ops
