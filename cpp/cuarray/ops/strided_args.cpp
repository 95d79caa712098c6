#include "cuarray/ops/strided_args.h"

#include <algorithm>
#include <cstdlib>

namespace cuarray::ops {

StridedArgs::StridedArgs(const Coalesced& c) {
  size_t k = c.strides.size();
  ndim_ = std::max<int>(1, static_cast<int>(c.shape.size()));
  packed_.assign(ndim_ * (k + 1), 0);
  std::int64_t n = 1;
  wide_ = false;
  if (c.shape.empty()) {
    packed_[0] = 1;
  } else {
    for (int d = 0; d < ndim_; ++d) {
      packed_[d] = c.shape[d];
      n *= c.shape[d];
    }
    for (size_t op = 0; op < k; ++op) {
      std::int64_t reach = 0;
      for (int d = 0; d < ndim_; ++d) {
        packed_[(op + 1) * ndim_ + d] = c.strides[op][d];
        reach += (c.shape[d] - 1) * std::llabs(c.strides[op][d]);
      }
      if (reach > INT32_MAX / 2) wide_ = true;
    }
  }
  if (n > INT32_MAX) wide_ = true;
}

}  // namespace cuarray::ops
