// Counting into bins with atomics (kernels/indexing.cuh): bincount and histogram.
#pragma once

#include <optional>

#include "cuarray/array.h"
#include "cuarray/ops/kernel_registry.h"

namespace cuarray::ops {

// NumPy's bincount of non-negative integers `x` (1-D): int64 counts, or float64 sums of `weights` (same
// length, any real dtype); at least `minlength` bins. Synchronizes once (to find the largest value).
Array bincount(const Array& x, const std::optional<Array>& weights, std::int64_t minlength);

// NumPy's histogram of `a` (any real dtype, any shape) over the bins whose edges are `edges` (host values,
// already rounded to `bin_type`; increasing). Uniform bins compute each bin from `span` (last - first
// edge, as NumPy does) and correct it against the edges; others search the edges. Counts are int64, or
// `weights` summed in float64 (float weights) or int64 (integer weights).
Array histogram(const Array& a, const std::vector<double>& edges, DType bin_type, bool uniform, double span,
                const std::optional<Array>& weights);

// The generated kernels, for tests that compile every variant without a device.
KernelSource bincount_source(bool weighted);
KernelSource histogram_source(DType t, DType bin_type, bool float_weights, bool uniform);

}  // namespace cuarray::ops
