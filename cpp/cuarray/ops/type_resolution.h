// Which loop types an op runs in: one resolver and one cache for ufuncs, matmul and the reductions' rules.
//
// Note [Type resolution]
// Which loop a ufunc runs for given operand dtypes (and Python scalars, which are "weak" under NEP 50) is
// NumPy's decision: on the first call with a new signature the core asks NumPy (ufunc.resolve_dtypes, through
// the one hook the bindings install at import) and caches the answer under a 64-bit key of the operand kinds,
// `dtype=` and `casting`. Later calls with the same signature only look the key up, so NumPy 2's promotion
// rules hold exactly at no per-call cost. The loop NumPy picks must be one the table implements. The same
// hook answers NumPy's can_cast for outputs given by `out=`, cached in the same map. Reductions carry their
// type rule in their row (reductions.def) and need no question to NumPy beyond the loop of `multiply` for
// the dot products.
#pragma once

#include <cstdint>
#include <optional>

#include "cuarray/dtype.h"

namespace cuarray::ops {

// Operand codes of a signature: a DType's value, or a weak Python scalar kind (NEP 50).
constexpr int kWeakInt = 28, kWeakFloat = 29, kWeakComplex = 30, kNoDType = 31;
static_assert(kNumDTypes <= kWeakInt, "operand codes hold 5 bits");
// The loop id of matmul, which has no row in the ufunc table.
constexpr int kMatmulLoop = 0xFFFF;

// NumPy's casting rules, in order of permissiveness.
enum class Casting : std::uint8_t { No, Equiv, Safe, SameKind, Unsafe };
// "no", ..., "unsafe" -> Casting; ValueError with NumPy's message for anything else.
Casting casting_from_name(const char* name);
const char* casting_name(Casting c);

struct LoopTypes {
  DType in[3];
  DType out[2];
};

// A question for NumPy: the loop of ufunc `name` for operand codes `codes` (kUfunc), or whether `codes[0]`
// casts to `codes[1]` under `casting` (kCanCast).
struct TypeQuery {
  enum Kind : std::uint8_t { kUfunc, kCanCast } kind;
  const char* name;
  int nin, nout;
  int codes[3];
  int dtype;  // the `dtype=` code, or kNoDType
  Casting casting;
};
struct TypeAnswer {
  LoopTypes loop;
  bool can_cast;
};
// Answers a query or throws (NumPy's error, carried as the bindings choose). Installed once, at import.
using TypeHook = void (*)(const TypeQuery& query, TypeAnswer& answer);
void set_type_hook(TypeHook hook);

// The loop of ufunc number `index` (or kMatmulLoop) named `name` for `codes`; TypeError when the table has no
// such loop.
LoopTypes resolve_loop(int index, const char* name, int nin, int nout, const int* codes, int dtype, Casting casting);
// NumPy's can_cast(from, to, casting), cached.
bool can_cast(DType from, DType to, Casting casting);
// TypeError with NumPy's message when an output of `op` (of `nout` outputs) cannot take loop type `from` as
// `to`; `index` is the output's operand number as NumPy counts it (nin + output number).
void check_output_cast(const char* op, int nout, DType from, DType to, Casting casting, int index);

// The type rule of a reduction row (reductions.def).
enum class ReductionRule : std::uint8_t {
  kSumLike,  // NumPy's add.reduce: small ints to int64/uint64, bool to int64; dtype= wins
  kSame,     // the input's type (max, min)
  kBits,     // the input's type, bool or integer (bitwise_and, bitwise_or, bitwise_xor); dtype= wins
  kIndex,    // int64 results (argmax, count_nonzero)
  kBool,     // bool results (any, all)
  kMean,     // integers in float64, float16 through float32; dtype= wins
  kVarLike,  // kMean's loop, results of its real type
  kL2,       // floating inputs as they are, others in float64; real results
  kDot,      // both inputs in NumPy's multiply loop type
};
struct ReductionTypes {
  DType in[2];
  DType out_loop;  // the type the result is computed in
  DType result;    // the dtype of a new result
};
// `out` is the dtype of an out= array, which takes part in the loop of a sum or mean (Note [Reductions into
// out]).
ReductionTypes reduction_types(ReductionRule rule, const DType* in, int nin, std::optional<DType> dtype,
                               std::optional<DType> out = std::nullopt);

}  // namespace cuarray::ops
