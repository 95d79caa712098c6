// Device-side copies: strided to contiguous and back, with any dtype cast, and broadcasting.
#pragma once

#include "cuarray/array.h"
#include "cuarray/ops/kernel_registry.h"

namespace cuarray::ops {

// dst[...] = src: `src` is broadcast to dst's shape and cast to dst's dtype (NumPy's unsafe cast values).
// Overlapping memory is handled through a temporary. Ordered on the current stream.
void copy_into(const Array& dst, const Array& src);

// The bytes of a Void array as an array of unsigned units with one more axis, of itemsize / unit elements and
// stride `unit` (Note [Void storage]). `unit` (8, 4, 2 or 1) must divide the itemsize, the strides and the address.
Array as_units(const Array& a, int unit);
// The widest such unit for `a`.
int widest_unit(const Array& a);
// A new array with src's values in `dtype` and `order` ('K' keeps src's layout where it is C or F).
Array astype(const Array& src, DType dtype, char order = 'K');

// `src` itself if it already is C-contiguous, else a C-contiguous copy.
Array ascontiguous(const Array& src);

// The generated kernels, exposed so that tests can compile every variant without a device.
KernelSource copy_contiguous_source(DType to, DType from, bool wide);
KernelSource copy_strided_source(DType to, DType from, int ndim, bool wide);
KernelSource copy_transpose_source(DType to, DType from, bool wide);

}  // namespace cuarray::ops
