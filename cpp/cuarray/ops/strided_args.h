// Kernel arguments for strided iteration (kernels/strided.cuh's Strided<N, K>) over a coalesced space
// (shape.h's Note [Coalescing]).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "cuarray/shape.h"

namespace cuarray::ops {

using cuarray::coalesce_in_memory_order;

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
