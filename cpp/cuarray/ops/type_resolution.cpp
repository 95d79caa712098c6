#include "cuarray/ops/type_resolution.h"

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include "cuarray/error.h"
#include "cuarray/ops/ufunc.h"

namespace cuarray::ops {

namespace {

TypeHook g_hook = nullptr;
std::mutex g_mutex;
// Every answer, under keys whose top two bits tell the query apart (Note [Type resolution]).
std::unordered_map<std::uint64_t, TypeAnswer>& g_cache = *new std::unordered_map<std::uint64_t, TypeAnswer>;

constexpr std::uint64_t kLoopKey = 0, kCastKey = 1ull << 62;

// The cached answer to `query`, asking the hook on a miss; `check` vets a new answer before it is cached, so
// a hit costs one lookup.
// A cached answer never changes, so each thread also keeps its recent ones, in a table looked up without the lock
// (an op's loop is resolved on every call; the key ~0 is no query's, whose top two bits are 00 or 01).
template <class Check>
TypeAnswer ask(std::uint64_t key, const TypeQuery& query, Check&& check) {
  struct Recent {
    std::uint64_t key = ~std::uint64_t{0};
    TypeAnswer answer{};
  };
  thread_local Recent recent[64];
  Recent& slot = recent[(key * 0x9E3779B97F4A7C15ull) >> 58];
  if (slot.key == key) return slot.answer;
  TypeAnswer answer{};
  bool found = false;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_cache.find(key);
    if (it != g_cache.end()) answer = it->second, found = true;
  }
  if (!found) {
    if (!g_hook) throw TypeError(std::string("no type resolver is installed (resolving ") + query.name + ")");
    g_hook(query, answer);
    check(answer);
    std::lock_guard<std::mutex> lock(g_mutex);
    answer = g_cache.emplace(key, answer).first->second;
  }
  slot.key = key;
  slot.answer = answer;
  return answer;
}

DType real_of(DType t) { return t == DType::Complex64 ? DType::Float32 : t == DType::Complex128 ? DType::Float64 : t; }

const char* const kCastingNames[] = {"no", "equiv", "safe", "same_kind", "unsafe"};

}  // namespace

void set_type_hook(TypeHook hook) { g_hook = hook; }

Casting casting_from_name(const char* name) {
  for (int i = 0; i < 5; ++i)
    if (!std::strcmp(name, kCastingNames[i])) return static_cast<Casting>(i);
  throw ValueError(std::string("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' (got '") + name +
                   "')");
}

const char* casting_name(Casting c) { return kCastingNames[static_cast<int>(c)]; }

LoopTypes resolve_loop(int index, const char* name, int nin, int nout, const int* codes, int dtype, Casting casting) {
  std::uint64_t key = kLoopKey | static_cast<std::uint64_t>(index) << 40 | static_cast<std::uint64_t>(casting) << 37 |
                      static_cast<std::uint64_t>(dtype) << 32;
  TypeQuery q{TypeQuery::kUfunc, name, nin, nout, {}, dtype, casting};
  for (int i = 0; i < nin; ++i) {
    key |= static_cast<std::uint64_t>(codes[i]) << (5 * i);
    q.codes[i] = codes[i];
  }
  // The loop NumPy picks must be one the table implements.
  return ask(key, q,
             [&](const TypeAnswer& a) {
               if (index == kMatmulLoop) return;
               const Ufunc& u = ufuncs()[index];
               const LoopTypes& r = a.loop;
               if (find_loop(u, r.in, r.out) >= 0) return;
               std::string sig;
               for (int i = 0; i < nin; ++i) sig += std::string(i ? ", " : "") + cuarray::name(r.in[i]);
               sig += ") -> (";
               for (int o = 0; o < nout; ++o) sig += std::string(o ? ", " : "") + cuarray::name(r.out[o]);
               throw TypeError("cuarray's ufunc '" + u.def.name + "' has no loop for the types (" + sig +
                               "); NumPy would compute it with that loop");
             })
      .loop;
}

bool can_cast(DType from, DType to, Casting casting) {
  if (from == to) return true;
  std::uint64_t key = kCastKey | static_cast<std::uint64_t>(casting) << 10 | static_cast<std::uint64_t>(from) << 5 |
                      static_cast<std::uint64_t>(to);
  TypeQuery q{TypeQuery::kCanCast, "can_cast", 2, 0, {static_cast<int>(from), static_cast<int>(to)}, kNoDType, casting};
  return ask(key, q, [](const TypeAnswer&) {}).can_cast;
}

void check_output_cast(const char* op, int nout, DType from, DType to, Casting casting, int index) {
  if (can_cast(from, to, casting)) return;
  // NumPy's _UFuncOutputCastingError message (a TypeError); internal rows (_clip) are named as NumPy's, and
  // _special_ rows as SciPy's (their public_name; `op` may also name an operation that is no ufunc).
  const char* ufunc = !std::strncmp(op, "_special_", 9) ? op + 9 : op[0] == '_' ? op + 1 : op;
  throw OutputCastingError(std::string("Cannot cast ufunc '") + ufunc + "' output " +
                               (nout != 1 ? std::to_string(index) + " " : std::string()) + "from dtype('" +
                               cuarray::name(from) + "') to dtype('" + cuarray::name(to) + "') with casting rule '" +
                               casting_name(casting) + "'",
                           op, static_cast<int>(from), static_cast<int>(to), casting_name(casting), index);
}

// Note [Reductions into out]
// NumPy's ufunc.reduce without dtype= resolves its loop for the types of out= and of the input, as if it were
// out = ufunc(out, a): sum(float32_data, out=float64_array) adds in float64, and prod(int64_data,
// out=float64_array) multiplies in float64, where adding in the input's own type would round (or wrap) and
// give another value. Its mean sums so too (float data; integers and float16 already sum in a wider type).
// The result is cast into out unsafely, as NumPy's reductions do. max and min are left in the input's type:
// the larger type holds the same maximum. var and std compute their deviations in the input's type, as
// NumPy's do, so out= changes only how the final sum rounds, which their one-pass kernels do not follow.
ReductionTypes reduction_types(ReductionRule rule, const DType* in, int nin, std::optional<DType> dtype,
                               std::optional<DType> out) {
  // Before an empty reduction's shortcut (Note [Datetime storage]).
  for (int k = 0; k < nin; ++k) check_computable(in[k], "reductions");
  if (dtype) check_computable(*dtype, "reductions");
  if (out) check_computable(*out, "reductions");
  const DType t = in[0];
  auto same = [](DType x) { return ReductionTypes{{x, x}, x, x}; };
  // add's loop for out= and the input (Note [Reductions into out]).
  auto into_out = [&]() {
    static const int add = ufunc_index("add");
    int codes[2] = {static_cast<int>(*out), static_cast<int>(t)};
    return resolve_loop(add, "add", 2, 1, codes, kNoDType, Casting::SameKind).out[0];
  };
  // NumPy's _methods._mean/_var: the loop type and the result dtype.
  auto mean_loop = [&]() -> std::pair<DType, DType> {
    if (dtype) return {*dtype, *dtype};
    if (kind(t) == Kind::Bool || is_integer(t)) return {DType::Float64, DType::Float64};
    if (t == DType::Float16) return {DType::Float32, DType::Float16};
    return {t, t};
  };
  switch (rule) {
    case ReductionRule::kSumLike: {
      if (dtype) return same(*dtype);
      if (out) return same(into_out());
      bool small = itemsize(t) < 8;
      if (kind(t) == Kind::Bool || (kind(t) == Kind::Signed && small)) return same(DType::Int64);
      if (kind(t) == Kind::Unsigned && small) return same(DType::UInt64);
      return same(t);
    }
    case ReductionRule::kSame:
      return same(t);
    case ReductionRule::kBits: {
      const DType loop = dtype ? *dtype : t;
      if (kind(loop) != Kind::Bool && !is_integer(loop))
        throw TypeError(std::string("a bitwise reduction takes bool and integer types, not ") + cuarray::name(loop));
      return same(loop);
    }
    case ReductionRule::kIndex:
      return {{t, t}, DType::Int64, DType::Int64};
    case ReductionRule::kBool:
      return {{t, t}, DType::Bool, DType::Bool};
    case ReductionRule::kMean: {
      auto [loop, result] = mean_loop();
      if (!dtype && out && (is_floating(t) || is_complex(t)) && t != DType::Float16) loop = result = into_out();
      return {{loop, loop}, loop, result};
    }
    case ReductionRule::kVarLike: {
      auto [loop, result] = mean_loop();
      return {{loop, loop}, real_of(loop), real_of(result)};
    }
    case ReductionRule::kL2: {
      DType loop = is_floating(t) && t != DType::BFloat16 ? t : is_complex(t) ? t : DType::Float64;
      return {{loop, loop}, real_of(loop), real_of(loop)};
    }
    case ReductionRule::kDot: {
      if (nin != 2) throw ValueError("a dot product reduces two inputs");
      static const int multiply = ufunc_index("multiply");
      int codes[2] = {static_cast<int>(in[0]), static_cast<int>(in[1])};
      DType r = resolve_loop(multiply, "multiply", 2, 1, codes, kNoDType, Casting::SameKind).out[0];
      return same(r);
    }
  }
  throw ValueError("unknown reduction type rule");
}

}  // namespace cuarray::ops
