// Arrays made on the device: fills, ranges and identity matrices. No host round trip.
#pragma once

#include <complex>
#include <cstdint>

#include "cuarray/array.h"
#include "cuarray/ops/kernel_registry.h"

namespace cuarray::ops {

Array zeros(Shape shape, DType dtype, Order order = Order::C);
// Writes `value` (itemsize(dst.dtype()) bytes, already in dst's dtype) into every element of `dst`.
void fill(const Array& dst, const void* value);
// NumPy's arange fill: `first` and `second` are the first two values in `dtype` (bytes); n >= 0.
Array arange(std::int64_t n, const void* first, const void* second, DType dtype);
// NumPy's linspace for scalar endpoints, computed in double (in NumPy's complex arithmetic where
// `complex_bounds`: the bounds' type is complex), then cast to `dtype`.
Array linspace(std::complex<double> start, std::complex<double> stop, std::int64_t num, bool endpoint, DType dtype,
               bool complex_bounds);
Array eye(std::int64_t rows, std::int64_t cols, std::int64_t k, DType dtype, Order order = Order::C);

// The generated kernels, exposed so that tests can compile every variant without a device.
KernelSource fill_contiguous_source(DType t, bool wide, bool aligned);
KernelSource fill_strided_source(DType t, int ndim, bool wide);
KernelSource arange_source(DType t, bool wide);
KernelSource linspace_source(DType t, bool wide);
KernelSource eye_source(DType t, bool wide);
KernelSource zero_blocks_source();

}  // namespace cuarray::ops
