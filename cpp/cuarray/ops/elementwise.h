// The elementwise engine: one generated kernel per (expression, operand types, layout class), launched
// over broadcast inputs with dimensions coalesced. Ufuncs, user ElementwiseKernels and fused functions
// all run through it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "cuarray/array.h"
#include "cuarray/ops/kernel_registry.h"

namespace cuarray::ops {

// What an elementwise kernel computes: `body` sets out0..outN from in0..inM. Kernels of one definition are
// cached under its `id`, which must be unique for the process.
struct ElementwiseDef {
  std::uint32_t id;
  std::string name;
  std::string body;
  std::string preamble;  // extra device code placed before the kernel
  int nin, nout;
};

// An input: a device array (any strides, broadcastable to the output shape) or a scalar passed by value.
struct Input {
  const Array* array = nullptr;
  alignas(16) char value[16] = {};  // the scalar, already in its loop type
};

// Runs `def` with loop types `in_types`/`out_types` over `inputs` into `outputs` (each of the broadcast
// shape). Values are cast to the loop types on load and to the outputs' dtypes on store. An output that
// overlaps an input (other than being the very same view) is computed through a temporary.
void elementwise(const ElementwiseDef& def, const DType* in_types, const DType* out_types, const Input* inputs,
                 const Array* outputs);

// Kernel source for one variant, for tests that compile every variant without a device. `scalar[i]` says
// input i is a scalar; `in_storage`/`out_storage` are the arrays' dtypes.
KernelSource elementwise_source(const ElementwiseDef& def, const DType* in_types, const DType* out_types,
                                const DType* in_storage, const bool* scalar, const DType* out_storage,
                                bool contiguous, int ndim, bool aligned, bool wide);

}  // namespace cuarray::ops
