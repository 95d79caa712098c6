// Fused functions (cuarray.fuse): a traced program of ufunc applications, casts and constants becomes one
// elementwise kernel, or the map of one reduction kernel (Note [Fused kernels] in fusion.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuarray/ops/elementwise.h"
#include "cuarray/ops/operands.h"
#include "cuarray/ops/reduction.h"

namespace cuarray::ops {

// One step of a traced program. Values are numbered in order: the arguments first, then each step's results
// (one for a constant or a cast, a ufunc's outputs).
struct FusedStep {
  enum class Kind : std::uint8_t { Constant, Ufunc, Cast };
  Kind kind = Kind::Constant;
  int ufunc = -1;            // Ufunc: the index in ufuncs()
  std::vector<int> args;     // Ufunc: the operands' values; Cast: the value cast
  std::vector<DType> types;  // Ufunc: the loop types, inputs then outputs; Constant, Cast: the result's dtype
  // Constant: its value (`integer` holds bools and integers as their 64 bits); a weak one (a Python scalar)
  // is used as its C++ literal, another (a NumPy scalar) is first cast to its dtype.
  bool weak = false;
  std::uint64_t integer = 0;
  double re = 0, im = 0;
};

// A traced fused function for one signature of argument dtypes (Python scalars as their int64, float64,
// complex128 or bool values).
struct FusedProgram {
  std::string name;  // an identifier
  std::vector<DType> in;
  std::vector<FusedStep> steps;
  std::vector<int> results;  // the values returned; with a reduction, the one value reduced
  bool tuple_result = false;
  // Arguments updated in place (`x += y`, out=x): (the kernel input, the value written to it, in its dtype).
  std::vector<std::pair<int, int>> updates;
  // A final reduction (the name of a row of reductions.def, or empty), its loop types and result dtype, as
  // NumPy resolves them, and its axes (nullopt: all) and keepdims.
  std::string reduction;
  DType reduce_loop = DType::Bool, out_loop = DType::Bool, result = DType::Bool;
  std::optional<std::vector<std::int64_t>> axis;
  bool int_axis = false;  // axis was one int, not a tuple: a 0-d input takes 0 and -1 (Note [Axes of 0-d arrays])
  bool keepdims = false;
  // Elementwise steps applied to the reduction's result (its value 0, in dtype `result`) with constants alone,
  // and the value they return (0: none applied): `sum(x) + 3`.
  std::vector<FusedStep> post;
  int post_result = 0;
};

// What one signature of a fused function runs: its definition (registered for the process) and types.
struct FusedKernel {
  const ElementwiseDef* elementwise = nullptr;  // set unless the function ends in a reduction
  const ReductionDef* reduction = nullptr;
  std::vector<DType> in, out;  // the kernel's input loop types; the outputs' dtypes (elementwise)
  bool tuple_result = false;
  std::vector<int> updates;  // the inputs written in place: the kernel's last outputs, in this order
  // Whether the body reads input i itself: an argument read only through views of it (`g[None, :]`, each a
  // later input of its own) is not, and takes no part in broadcasting.
  std::vector<bool> used;
  DType out_loop = DType::Bool, result = DType::Bool;
  std::optional<std::vector<std::int64_t>> axis;
  bool int_axis = false;
  bool keepdims = false;

  const std::string& name() const { return elementwise ? elementwise->name : reduction->name; }
};

// The signature of a fused function's call (Note [Fusion plans] in python/src/fusion.cpp), under which its plan
// is kept: each argument's code in 6 bits, 1 + an array's dtype (array_code()), or a Python scalar's kind, or None.
struct FusedSignatures {
  static constexpr std::size_t kMaxArgs = 9;
  static constexpr int kBool = 40, kInt = 41, kFloat = 42, kComplex = 43, kNone = 44, kNoCode = -1;
  static int array_code(DType t) { return 1 + static_cast<int>(t); }
  // The signature of `n` argument codes; false when there is none (more than kMaxArgs, or a kNoCode).
  static bool signature(const int* codes, std::size_t n, std::uint64_t& key);
};

// Generates the definition of `program`'s kernel and registers it for the process; returns its handle
// (fused_definition in kernel_registry.h). TypeError for a ufunc step with no loop of its types.
std::size_t define_fused(const FusedProgram& program);

// The elementwise definition of `p` (ufunc steps, casts and constants; no reduction, no updates), registered for
// the process, compiled with `options`; the dtypes of its outputs (p.results, in their own dtypes) go to `out`.
// ValueError for a program of more than kMaxOperands inputs and results; TypeError as define_fused.
const ElementwiseDef& define_fused_elementwise(const FusedProgram& p, const std::vector<std::string>& options,
                                               std::vector<DType>& out);

// Whether run_fused may write kernel.updates' inputs in place (Note [Updates in place] in fusion.cpp): each
// has the broadcast shape of the array inputs and shares no memory with another input or with itself.
bool updates_in_place(const FusedKernel& kernel, const Input* inputs);

// Runs a fused kernel on `operands` (ElementwiseOperands(kernel.name(), kernel.in.size(), kernel.out.size())
// with every input set: arrays broadcast together, or scalars, converted here to their loop types) and
// returns its new outputs (without kernel.updates' inputs, which it writes): one array for a reduction. TypeError
// for a reduction of scalars alone; ValueError where updates_in_place is false.
std::vector<Array> run_fused(const FusedKernel& kernel, ElementwiseOperands& operands);
// TypeError unless a call passes `nargs` arguments, the number `kernel` takes.
void check_fused_arity(const FusedKernel& kernel, std::size_t nargs);
// The source of one variant of fused kernel `kernel`, for tests that compile generated kernels without a
// device: an elementwise variant (elementwise_variant_source()'s `contiguous`, `ndim`, `tiled`), or a
// reduction's (`layout`, `vec`, `partial`), inputs stored as their loop types.
KernelSource fused_source(const FusedKernel& kernel, bool contiguous, int ndim, std::uint32_t tiled,
                          ReduceLayout layout, int vec, bool partial);

}  // namespace cuarray::ops
