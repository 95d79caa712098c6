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
  bool uses_index = false;                   // the body reads `i` (the element's C-order index) or `_ind.size()`
  std::vector<std::string> options;          // extra NVRTC options
  std::string header = "cuarray/ufunc.cuh";  // the kernel header the body needs (Note [Kernel headers])
  bool reads_outputs = false;  // the body may read an output before or without setting it (a user kernel's y += x)
};

// Inputs and outputs of one kernel together, at most.
constexpr int kMaxOperands = 12;

// An input: a device array (any strides, broadcastable to the output shape), a scalar passed by value, or a
// raw array: an array of any layout passed whole (ca::Raw<T, ndim>, its shape and strides) for the body to index
// itself; its loop type is its dtype.
struct Input {
  const Array* array = nullptr;
  alignas(16) char value[16] = {};  // the scalar, already in its loop type
  bool raw = false;
};

// What elementwise() does with the kernel it finds.
enum class Launch : std::uint8_t {
  Now,         // launches it, compiling it first if needed
  Prepare,     // compiles it if needed and raises what a launch would raise before it launches, but launches nothing
  IfCompiled,  // launches it if compiled; else starts its compile in the background (Note [Background compiles])
};

// Runs `def` with loop types `in_types`/`out_types` over `shape`: the broadcast of the array inputs, and the
// shape of each output. Values are cast to the loop types on load and to the outputs' dtypes on store. An
// output that overlaps an input (other than being the very same view) is computed through a temporary.
// `block_size` > 0 (ElementwiseKernel's block_size=) launches blocks of at most that many threads, and raises
// ValueError where the kernel allows fewer. Returns whether the kernel was launched (or, for Prepare, is
// ready): false only for IfCompiled with the kernel not compiled yet, and for an empty `shape`.
bool elementwise(const ElementwiseDef& def, const DType* in_types, const DType* out_types, const Input* inputs,
                 const Array* outputs, const Shape& shape, int block_size = 0, Launch mode = Launch::Now);

// How a launch walks its operands (Note [Layout classes] in elementwise.cpp).
struct Layout {
  bool contiguous = false;                   // every array has the output's shape and memory order: vectorised, flat
  int ndim = 1;                              // otherwise: the coalesced dimensions
  std::uint32_t tiled = 0;                   // bit i: input i is read through shared-memory tiles (the tiled class)
  int tile = 0;                              // the tiled class's tile edge
  bool aligned = true;                       // contiguous: every pointer suits 16-byte accesses
  bool wide = false;                         // 64-bit indexing
  std::uint8_t raw_ndim[kMaxOperands] = {};  // the dimensions of each raw input (ca::Raw's N)
};

// Kernel source for one variant, for tests that compile every variant without a device.
// `in_storage`/`out_storage` are the arrays' dtypes; `kinds[i]`: 0 array, 1 scalar, 2 raw array.
KernelSource elementwise_source(const ElementwiseDef& def, const DType* in_types, const DType* out_types,
                                const DType* in_storage, const std::uint8_t* kinds, const DType* out_storage,
                                const Layout& layout);

// The same for tests, with inputs and outputs stored as their loop types, `kinds` padded with arrays, the
// contiguous class aligned, and raw inputs of `raw_ndim[i]` dimensions (1 past its end).
KernelSource elementwise_variant_source(const ElementwiseDef& def, const std::vector<DType>& in_types,
                                        const std::vector<DType>& out_types, std::vector<std::uint8_t> kinds,
                                        bool contiguous, int ndim, std::uint32_t tiled,
                                        const std::vector<std::uint8_t>& raw_ndim = {});

// Elements per thread of the contiguous class: two 16-byte accesses of the widest operand (scalar[i]: input
// i is not an iterated array).
int items_per_thread(const DType* in_storage, const bool* scalar, int nin, const DType* out_storage, int nout);

// A process-unique id for an ElementwiseDef that is not a ufunc (ufuncs use their table index).
std::uint32_t new_elementwise_id();

}  // namespace cuarray::ops
