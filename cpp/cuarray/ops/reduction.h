// The reduction engine: one generated kernel per (reduction, operand types, layout class), reducing any
// set of axes of broadcast inputs. The built-in reductions (ops/reductions.def), user ReductionKernels and
// fused functions that end in a reduction all run through it.
//
// Note [Reduction layouts]
// After dropping length-1 dims and merging contiguous ones, a reduction is n_out outputs, each reducing n_red
// elements. When the reduced elements are the closest in memory ("rows": sum(axis=-1), full reductions),
// threads along x cooperate on one output and combine with warp shuffles; when the outputs are
// ("columns": sum(axis=0)), threads along x take adjacent outputs and each walks the reduction, combining
// along y in shared memory. When there are too few outputs to fill the GPU, blockIdx.y splits the reduction
// and a second kernel combines the partial results. Every split and tree is fixed by the shape and the
// device, so results are bit-identical from run to run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuarray/array.h"
#include "cuarray/ops/kernel_registry.h"
#include "cuarray/ops/type_resolution.h"

namespace cuarray::ops {

// What a reduction computes; see ops/reductions.def for the meaning of each expression.
struct ReductionDef {
  std::uint32_t id;
  std::string name;
  int nin = 1;
  std::string acc_type, identity, map, reduce, post;
  std::string preamble;                       // extra device code placed before the kernel
  bool has_identity = true;                   // false: reducing zero elements is an error
  bool uses_index = false;                    // map reads `_j`: reduced axes keep their logical order
  std::vector<std::string> options;           // extra NVRTC options
  ReductionRule rule = ReductionRule::kSame;  // the built-ins' type rule (reductions.def)
};

// The built-in reductions, in table order; a reduction's id is its index.
const std::vector<ReductionDef>& reductions();
// Their names, in table order.
std::vector<std::string> reduction_names();
// The built-in reduction `name`; throws ValueError for an unknown name.
const ReductionDef& reduction(const std::string& name);
// A process-unique id for a ReductionDef that is not built in.
std::uint32_t new_reduction_id();

// The axes of an ndim-dimensional array that `axis` names (nullopt: all of them), as NumPy normalises them:
// AxisError for an axis out of range, ValueError for a repeated one.
std::vector<bool> reduced_axes(int ndim, const std::optional<std::vector<std::int64_t>>& axis);
// Whether reduction `def` of `a` reads `axis`, given as one integer, as all of a's axes: a 0-d array's
// integer axis 0 or -1 (Note [Axes of 0-d arrays] in reduction.cpp).
bool reads_zero_d_axis(const ReductionDef& def, const Array& a, const std::vector<std::int64_t>& axis);
// ValueError unless a call of `def` passes def.nin inputs and as many input loop types.
void check_arity(const ReductionDef& def, std::size_t inputs, std::size_t in_types);
// The loop types of built-in reduction `def` for input dtypes `in` and `dtype=` (its row's type rule);
// ValueError unless `in` has def.nin dtypes.
ReductionTypes reduction_types(const ReductionDef& def, const std::vector<DType>& in, std::optional<DType> dtype,
                               std::optional<DType> out = std::nullopt);
// `shape` without its reduced axes, or with them as 1 (keepdims).
Shape reduced_shape(const Shape& shape, const std::vector<bool>& reduced, bool keepdims);

// Reduces `inputs` (broadcast together; loop types `in_types`) over the `reduced` axes of their broadcast
// shape into `out`, whose shape is reduced_shape(..., false) and whose loop type is `out_type`. Values are
// cast to the loop types on load and from `out_type` to out's dtype on store. Throws ValueError for an
// empty reduction of a def without identity (naming `def.name`).
void reduce(const ReductionDef& def, const DType* in_types, DType out_type, const Array* inputs, const Array& out,
            const std::vector<bool>& reduced, double ddof = 0);

// The kernels' layouts (Note [Reduction layouts]); Finish is the second pass of a split reduction.
enum class ReduceLayout : std::uint8_t { Rows, Columns, Finish };

// Kernel source for one variant, for tests that compile every variant without a device.
KernelSource reduction_source(const ReductionDef& def, const DType* in_types, DType out_type, const DType* in_storage,
                              DType out_storage, ReduceLayout layout, int vec, bool partial, int out_ndim, int red_ndim,
                              bool wide);

}  // namespace cuarray::ops
