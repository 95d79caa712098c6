#include "cuarray/ops/ufunc.h"

#include <cstring>
#include <sstream>

#include "cuarray/error.h"
#include "cuarray/ops/reduction.h"
#include "cuarray/ops/transfer.h"

namespace cuarray::ops {

namespace {

struct Row {
  const char* name;
  int nin, nout;
  const char* loops;
  const char* body;
};

constexpr Row kRows[] = {
#define UFUNC(name, nin, nout, loops, body) {#name, nin, nout, loops, body},
#include "cuarray/ops/ufuncs.def"
#undef UFUNC
};

constexpr char kChars[kNumDTypes + 1] = "?bhilBHILeEfdFD";
// kChars is in DType order: Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float16,
// BFloat16, Float32, Float64, Complex64, Complex128.

std::vector<Ufunc> build() {
  std::vector<Ufunc> out;
  for (const Row& r : kRows) {
    Ufunc u;
    u.def = ElementwiseDef{static_cast<std::uint32_t>(out.size()), r.name, r.body, "", r.nin, r.nout};
    const std::string special = "_special_";
    u.public_name = u.def.name.compare(0, special.size(), special) ? u.def.name : u.def.name.substr(special.size());
    std::istringstream loops(r.loops);
    std::string sig;
    while (loops >> sig) {
      Loop l;
      l.signature = sig;
      auto arrow = sig.find("->");
      if (arrow != static_cast<size_t>(r.nin) || sig.size() != arrow + 2 + r.nout)
        throw std::logic_error(std::string("bad loop '") + sig + "' for ufunc " + r.name);
      for (int i = 0; i < r.nin; ++i) l.in[i] = from_type_char(sig[i]);
      for (int o = 0; o < r.nout; ++o) l.out[o] = from_type_char(sig[arrow + 2 + o]);
      u.loops.push_back(l);
    }
    out.push_back(std::move(u));
  }
  return out;
}

}  // namespace

char type_char(DType t) { return kChars[static_cast<int>(t)]; }

DType from_type_char(char c) {
  if (c == 'q') return DType::Int64;
  if (c == 'Q') return DType::UInt64;
  for (int i = 0; i < kNumDTypes; ++i)
    if (kChars[i] == c) return static_cast<DType>(i);
  throw TypeError(std::string("unknown type character '") + c + "'");
}

const std::vector<Ufunc>& ufuncs() {
  static const std::vector<Ufunc>* table = new std::vector<Ufunc>(build());
  return *table;
}

int ufunc_index(const std::string& name) {
  const auto& t = ufuncs();
  for (size_t i = 0; i < t.size(); ++i)
    if (t[i].def.name == name) return static_cast<int>(i);
  throw ValueError("cuarray has no ufunc named '" + name + "'");
}

std::vector<std::string> ufunc_names() {
  std::vector<std::string> names;
  for (const Ufunc& u : ufuncs()) names.push_back(u.def.name);
  return names;
}

// Note [Listing int64 loops]
// NumPy lists its int64 loops twice, over 'l' (long) and 'q' (long long), one type on Linux; cuarray's table
// has each once, over 'l'. ufunc.types lists them as NumPy does: a run of loops whose inputs are all l or all
// L, then the same loops over q/Q, then the loops mixing signed and unsigned int64 inputs (lL), over q/Q only,
// wherever the table has those.
std::vector<std::string> loop_signatures(int index) {
  auto as_q = [](std::string s) {
    for (char& c : s) c = c == 'l' ? 'q' : c == 'L' ? 'Q' : c;
    return s;
  };
  auto inputs = [](const std::string& s) { return s.substr(0, s.find("->")); };
  auto int64_only = [](const std::string& ins) {
    return !ins.empty() && ins.find_first_not_of("lL") == std::string::npos;
  };
  auto mixes = [](const std::string& ins) {
    return ins.find('l') != std::string::npos && ins.find('L') != std::string::npos;
  };
  std::vector<std::string> loops, run, mixed;
  for (const Loop& l : ufuncs().at(index).loops)
    if (int64_only(inputs(l.signature)) && mixes(inputs(l.signature))) mixed.push_back(as_q(l.signature));
  auto end_run = [&] {
    for (const std::string& s : run) loops.push_back(as_q(s));
    if (!run.empty()) loops.insert(loops.end(), mixed.begin(), mixed.end()), mixed.clear();
    run.clear();
  };
  for (const Loop& l : ufuncs().at(index).loops) {
    const std::string& s = l.signature;
    const std::string ins = inputs(s);
    if (int64_only(ins) && mixes(ins)) continue;
    if (int64_only(ins)) {
      run.push_back(s);
      loops.push_back(s);
      continue;
    }
    end_run();
    loops.push_back(s);
  }
  end_run();
  loops.insert(loops.end(), mixed.begin(), mixed.end());  // no run to follow: at the end
  return loops;
}

int find_loop(const Ufunc& u, const DType* in, const DType* out) {
  for (size_t k = 0; k < u.loops.size(); ++k) {
    const Loop& l = u.loops[k];
    bool match = true;
    for (int i = 0; i < u.def.nin && match; ++i) match = l.in[i] == in[i];
    for (int o = 0; o < u.def.nout && match; ++o) match = l.out[o] == out[o];
    if (match) return static_cast<int>(k);
  }
  return -1;
}

// Note [Power with a uniform exponent]
// NumPy's float32 and float64 power loops compute 1 / x, 1, sqrt(x), x or x * x when the exponent's stride in
// the inner loop is zero and its value is -1, 0, 0.5, 1 or 2, and pow otherwise. Only sqrt gives other values
// than pow (-0 ** 0.5 is -0, -inf ** 0.5 is nan), but all five are exact, where CUDA's pow is within a few
// ulp. The stride is zero for a scalar exponent, a 0-d array, and an array whose every element is one in
// memory (a size-1 array broadcast, broadcast_to of a scalar), except that NumPy's loop over operands of one
// shape (each one the output's shape or 0-d) keeps a size-1 array's own stride. Partly broadcast exponents
// (a column against a matrix) reach NumPy's inner loop buffered or in another order, with pow.
const ElementwiseDef& ufunc_def_for(const Ufunc& u, const DType* in, const Input* inputs, const Shape& shape) {
  static const int power = ufunc_index("power");
  if (u.def.id != static_cast<std::uint32_t>(power) || (in[0] != DType::Float32 && in[0] != DType::Float64))
    return u.def;
  static const ElementwiseDef& uniform = ufuncs()[ufunc_index("_power_uniform")].def;
  const Array* e = inputs[1].array;
  if (!e || e->ndim() == 0) return uniform;
  for (int d = 0; d < e->ndim(); ++d)
    if (e->shape()[d] != 1 && e->strides()[d] != 0) return u.def;
  const Array* x = inputs[0].array;
  bool one_shape = e->shape() == shape && (!x || x->ndim() == 0 || x->shape() == shape);
  return e->size() == 1 && one_shape ? u.def : uniform;
}

// Note [Negative integer powers]
// NumPy's power loops of signed integers raise ValueError at a negative exponent (where the output has
// elements; `where=` aside), instead of computing 1/x truncated. The check comes before the launch, so an
// `out=` is left as it was: a scalar exponent is read on the host; an array exponent of a signed type is
// reduced to its minimum on the device and that one value read back, a synchronisation paid only by integer
// power with a signed integer array exponent.
void check_power_exponent(const Input& exponent, DType loop, const Shape& shape) {
  if (kind(loop) != Kind::Signed || has_zero_extent(shape)) return;
  // A signed integer of `size` bytes (little-endian), sign-extended.
  auto read = [](const char* bytes, int size) {
    std::uint64_t u = 0;
    std::memcpy(&u, bytes, static_cast<size_t>(size));
    int shift = 64 - 8 * size;
    return static_cast<std::int64_t>(u << shift) >> shift;
  };
  std::int64_t lowest = 0;
  if (!exponent.array) {
    lowest = read(exponent.value, itemsize(loop));
  } else {
    const Array& e = *exponent.array;
    DType t = e.dtype();
    if (kind(t) != Kind::Signed) return;
    Array out(Shape{}, t);
    reduce(reduction("min"), &t, t, &e, out, std::vector<bool>(e.ndim(), true));
    char bytes[8];
    copy_to_host(bytes, out);
    lowest = read(bytes, itemsize(t));
  }
  if (lowest < 0) throw ValueError("Integers to negative integer powers are not allowed.");
}

}  // namespace cuarray::ops
