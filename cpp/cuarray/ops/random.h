// Random numbers generated on the device from Philox streams (kernels/philox.cuh, Note [Random streams]):
// the same (seed, offset) gives the same numbers on every run and every device of one kind.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cuarray/array.h"
#include "cuarray/ops/kernel_registry.h"

namespace cuarray::ops {

// A generator's whole state: the Philox key and the first position no call has used yet.
struct RandomState {
  std::uint64_t seed = 0, offset = 0;
};

// Float distributions produce float32 or float64; Poisson and Binomial produce an integer dtype.
enum class Distribution : std::uint8_t { Uniform, Normal, Exponential, Gamma, Beta, Poisson, Binomial };
// Number of parameters each distribution takes (Uniform: low, high; Normal: loc, scale; ...).
int parameter_count(Distribution d);

// A parameter: `value`, or per element `values` (contiguous float64 of the output's shape).
struct RandomParam {
  std::optional<Array> values;
  double value = 0;
};

// A new array of samples; parameters are checked by the caller. Advances state.offset.
Array random(Distribution dist, const Shape& shape, DType dtype, const std::vector<RandomParam>& params,
             RandomState& state);
// low + uniform integers in [0, range], wrapped to `dtype` (an integer type or bool).
Array random_integers(const Shape& shape, DType dtype, std::uint64_t low, std::uint64_t range, RandomState& state);
// int64 indices drawn with the probabilities whose running sum is `cdf` (float64, contiguous, ending at 1).
Array random_choice(const Shape& shape, const Array& cdf, RandomState& state);
// A uniformly random permutation of [0, n) as int64: random keys sorted by a bitonic sort.
Array random_permutation(std::int64_t n, RandomState& state);
// dst[r, ...] = src[index[r], ...]: C-contiguous arrays of one dtype, int64 `index` with values in range.
void gather_rows(const Array& dst, const Array& src, const Array& index);

// The generated kernels, exposed so that tests can compile every variant without a device.
// `arrays`: some parameter is an array (one value per element).
KernelSource random_source(Distribution dist, DType dtype, bool wide, bool arrays);
KernelSource random_integers_source(DType dtype, bool wide);
KernelSource random_choice_source(bool wide);
KernelSource permutation_keys_source(bool wide);
KernelSource bitonic_step_source(bool wide);
KernelSource bitonic_block_source(bool wide);
KernelSource gather_rows_source(int word_bytes, bool wide);

}  // namespace cuarray::ops
