// Cumulative sums and products along an axis (kernels/scan.cuh).
#pragma once

#include <cstdint>

#include "cuarray/array.h"
#include "cuarray/ops/kernel_registry.h"

namespace cuarray::ops {

enum class ScanOp : std::uint8_t { Sum, Prod, Max, Min };

// out[..., i, ...] = a[..., 0, ...] op ... op a[..., i, ...] along `axis`, accumulated in out's dtype (float
// for float16 and bfloat16, 64 bits for integers); `skip_nan` reads NaNs as the identity. `out` has a's shape
// and any layout; it may be `a` itself. Ordered on the current stream.
void scan(const Array& a, int axis, ScanOp op, bool skip_nan, const Array& out);

// The generated kernels, for tests that compile every variant without a device.
KernelSource scan_tiles_source(DType in, DType out, ScanOp op, bool skip_nan, int ndim, bool vector);
KernelSource scan_rows_source(DType in, DType out, ScanOp op, bool skip_nan, int ndim);

}  // namespace cuarray::ops
