// Fast Fourier transforms on cuFFT (lib/cufft.h): batches of 1-, 2- or 3-D transforms over the trailing axes of
// C-contiguous arrays. Axis moves, padding, NumPy's dtype rules and normalisation are the caller's.
#pragma once

#include <cstdint>
#include <vector>

#include "cuarray/array.h"
#include "cuarray/lib/cufft.h"

namespace cuarray::ops {

enum class FftKind : std::uint8_t { C2C, R2C, C2R };

// Unscaled transforms over the last `rank` (1 to 3) axes of `in` into `out`, batched over the others. C2C: both
// complex64 or both complex128, one shape, `inverse` picks the sign of the exponent (+ for inverse). R2C: float
// in, complex out whose last axis is n / 2 + 1 (n > 1). C2R: the reverse; cuFFT overwrites `in`, and the
// imaginary parts of the zero and Nyquist frequencies must be zero (NumPy ignores them). `plan`: the plan to use
// (ValueError, with CuPy's messages, unless it is the one this transform needs), else the cached one.
// `devices`: CuPy's cupy.fft.config.devices (empty: none); a 1-D transform without a plan then takes a
// multi-GPU plan over them (Note [Multi-GPU cuFFT plans] in lib/cufft_xt.h), as CuPy's 1-D transforms do,
// while transforms of two or three axes stay on one device, as CuPy's n-D plans do.
void fft(const Array& in, const Array& out, FftKind kind, int rank, bool inverse,
         const lib::cufft::PlanPtr& plan = nullptr, const std::vector<int>& devices = {});

}  // namespace cuarray::ops
