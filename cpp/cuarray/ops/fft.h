// Fast Fourier transforms on cuFFT (lib/cufft.h): batches of 1-, 2- or 3-D transforms over the trailing axes of
// C-contiguous arrays. Axis moves, padding, NumPy's dtype rules and normalisation are the caller's.
#pragma once

#include <cstdint>

#include "cuarray/array.h"
#include "cuarray/lib/cufft.h"

namespace cuarray::ops {

enum class FftKind : std::uint8_t { C2C, R2C, C2R };

// Unscaled transforms over the last `rank` (1 to 3) axes of `in` into `out`, batched over the others. C2C: both
// complex64 or both complex128, one shape, `inverse` picks the sign of the exponent (+ for inverse). R2C: float
// in, complex out whose last axis is n / 2 + 1 (n > 1). C2R: the reverse; cuFFT overwrites `in`, and the
// imaginary parts of the zero and Nyquist frequencies must be zero (NumPy ignores them). `plan`: the plan to use
// (ValueError, with CuPy's messages, unless it is the one this transform needs), else the cached one.
void fft(const Array& in, const Array& out, FftKind kind, int rank, bool inverse,
         const lib::cufft::PlanPtr& plan = nullptr);

}  // namespace cuarray::ops
