// Stable sorting along an axis and binary search, in NumPy's order (kernels/sort.cuh, Note [Sort order]).
#pragma once

#include "cuarray/array.h"
#include "cuarray/ops/kernel_registry.h"

namespace cuarray::ops {

// Sorts every row of `keys` (C-contiguous, shape (rows, n)) stably: the sorted values into `sorted` and/or
// the permutation (int64, indices into the row) into `order`; each is null or a C-contiguous (rows, n)
// array. Rows longer than kSegmentCapacity are radix sorted, which synchronizes once.
void sort_rows(const Array& keys, const Array* sorted, const Array* order);

// `a` sorted along `axis` (a new array, laid out as `a` where the axis is not the last, else C-ordered), and the
// permutation that sorts it (int64, C-ordered).
Array sort(const Array& a, int axis);
Array argsort(const Array& a, int axis);

// Where each value of `v` would be inserted into the 1-D `a` (sorted, or sorted through the int64 `sorter`)
// to keep it sorted: before equal elements (left) or after them (right). `v` has a's dtype; int64 result of
// v's shape.
Array searchsorted(const Array& a, const Array& v, bool right, const Array* sorter);

// The generated kernels, for tests that compile every variant without a device.
KernelSource segment_sort_source(DType t, bool keys, bool indices);
KernelSource radix_histogram_source(DType t);
KernelSource radix_offsets_source();
KernelSource radix_pass_source(DType t, bool values, bool iota);
KernelSource searchsorted_source(DType t, bool right);

}  // namespace cuarray::ops
