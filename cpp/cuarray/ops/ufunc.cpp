#include "cuarray/ops/ufunc.h"

#include <sstream>

#include "cuarray/error.h"

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

}  // namespace cuarray::ops
