// The ufuncs of ops/ufuncs.def: their names, arities and type loops, and their evaluation through the
// elementwise engine.
#pragma once

#include <string>
#include <vector>

#include "cuarray/ops/elementwise.h"

namespace cuarray::ops {

struct Loop {
  DType in[3];
  DType out[2];
  std::string signature;  // NumPy's form, "ff->f"
};

struct Ufunc {
  ElementwiseDef def;
  std::vector<Loop> loops;
  // The name users see: the row's, without the _special_ prefix of cuarray.scipy.special's rows (its
  // functions are SciPy's names), for __name__, repr and messages.
  std::string public_name;
};

// Every ufunc of the table, in table order; a ufunc's id is its index.
const std::vector<Ufunc>& ufuncs();
// The index of `name` in ufuncs(); throws ValueError for an unknown name.
int ufunc_index(const std::string& name);
// The names of ufuncs(), and the loops of ufunc number `index` in NumPy's form ("ff->f") and order, int64 loops
// over 'l' and 'q' both (Note [Listing int64 loops]).
std::vector<std::string> ufunc_names();
std::vector<std::string> loop_signatures(int index);
// The loop of ufunc `u` whose types are exactly `in`/`out`, or -1.
int find_loop(const Ufunc& u, const DType* in, const DType* out);
// The row that computes ufunc `u` with loop input types `in` on `inputs` over `shape`: u's own, or, where
// NumPy's inner loop takes another path for these operands, that path's (Note [Power with a uniform
// exponent] in ufunc.cpp).
const ElementwiseDef& ufunc_def_for(const Ufunc& u, const DType* in, const Input* inputs, const Shape& shape);
// NumPy's ValueError for integer power with a negative exponent (Note [Negative integer powers]): `exponent`
// is input 1 of power in loop type `loop` over `shape`. Nothing to check unless `loop` is a signed integer.
void check_power_exponent(const Input& exponent, DType loop, const Shape& shape);
// NumPy's type character for a dtype ('E' for bfloat16) and back.
char type_char(DType t);
DType from_type_char(char c);

}  // namespace cuarray::ops
