// Direct (sum of products) correlation on the device, the core of convolve/correlate (NumPy) and of
// cuarray.scipy.signal's direct method. Convolution is correlation with flipped taps, prepared by the caller.
#pragma once

#include <cstdint>
#include <vector>

#include "cuarray/array.h"
#include "cuarray/ops/kernel_registry.h"

namespace cuarray::ops {

// SciPy's boundary extensions of the input (convolve2d / correlate2d).
enum class Boundary : std::uint8_t { Fill, Wrap, Symmetric };

// out[o] = sum over taps t of x[o + origin + t] * w[t], with x extended by `boundary` (`fill`: the value, in the
// arrays' dtype, as bytes). out, x and w: C-contiguous, one dtype, equal ndim (1 to 8). Wrap and Symmetric need
// a non-empty 2-D x.
void correlate(const Array& out, const Array& x, const Array& w, const std::vector<std::int64_t>& origin,
               Boundary boundary = Boundary::Fill, const void* fill = nullptr);

// The generated kernels, exposed so that tests can compile every variant without a device.
KernelSource correlate_nd_source(DType t, int ndim);
KernelSource correlate1d_source(DType t);
KernelSource correlate2d_source(DType t);

}  // namespace cuarray::ops
