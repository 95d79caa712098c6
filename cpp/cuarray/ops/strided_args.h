// Kernel arguments for strided iteration (kernels/strided.cuh's Strided<N, K>), and the layout helpers
// that choose them.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "cuarray/shape.h"

namespace cuarray::ops {

// Coalesces after ordering dimensions by operand 0's memory order (largest |stride| first), so the
// fastest-moving index walks operand 0's memory contiguously.
Coalesced coalesce_in_memory_order(const Shape& shape, const std::vector<Strides>& strides);

// The packed Strided<N, K> kernel argument; N >= 1 (a 0-d iteration becomes one element).
class StridedArgs {
 public:
  explicit StridedArgs(const Coalesced& c);
  int ndim() const { return ndim_; }
  // True when an element index or byte offset may not fit in 32 bits.
  bool wide() const { return wide_; }
  void* data() { return packed_.data(); }

 private:
  int ndim_;
  bool wide_;
  std::vector<std::int64_t> packed_;
};

}  // namespace cuarray::ops
