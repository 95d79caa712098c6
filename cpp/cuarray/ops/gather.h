// Advanced indexing on the device (kernels/indexing.cuh): nonzero positions, and gathers and scatters
// through integer index arrays.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "cuarray/array.h"
#include "cuarray/ops/kernel_registry.h"

namespace cuarray::ops {

// Raise checks the indices on the device; InBounds trusts them to lie in [-size, size) (checked on the host,
// or made by nonzero) and needs no synchronization.
enum class IndexMode : std::uint8_t { Raise, Wrap, Clip, InBounds };
enum class NonzeroLayout : std::uint8_t { Rows, Columns, Flat };

// The positions of a's nonzero elements, in C order: Rows gives an (ndim, count) int64 array (nonzero),
// Columns a (count, ndim) one (argwhere), Flat the (count,) flat indices (flatnonzero). Synchronizes once,
// to learn the count.
Array nonzero(const Array& a, NonzeroLayout layout);

// An advanced index into an array: integer arrays `indices[k]`, broadcast together, index axis `axes[k]`.
// The result has the array's other axes, with the indices' broadcast shape inserted at `insert_at` among
// them. `labels[k]` is the axis number that error messages name (the axis of the array the user indexed; -1
// for a flat iterator, whose messages name no axis).
struct AdvancedIndex {
  std::vector<int> axes;
  std::vector<Array> indices;
  int insert_at = 0;
  std::vector<int> labels;
};

// The shape of src[index].
Shape indexed_shape(const Array& src, const AdvancedIndex& index);

// A new C-contiguous array src[index]. Raise mode checks the indices on the device first (one
// synchronization) and throws IndexError as NumPy does ("index 10 is out of bounds for axis 0 with size 5", for
// the first bad index in the index array's memory order); none is checked where the broadcast index is empty.
Array gather(const Array& src, const AdvancedIndex& index, IndexMode mode);

// dst[index] = values: values broadcast to indexed_shape(dst, index) and cast to dst's dtype. Raise mode
// checks every index before anything is written, after the values' shape (NumPy's order). Where an index
// repeats, one of its values lands.
void scatter(const Array& dst, const AdvancedIndex& index, const Array& values, IndexMode mode);

// The smallest and largest value of each int64 array (contiguous, non-empty), with one synchronization.
std::vector<std::pair<std::int64_t, std::int64_t>> index_ranges(const std::vector<Array>& indices);

// The generated kernels, for tests that compile every variant without a device.
KernelSource count_nonzero_source(DType t, int ndim);
KernelSource write_nonzero_source(DType t, int ndim, NonzeroLayout layout);
KernelSource gather_source(int itemsize, int ndim, int nindex, IndexMode mode, bool scatter);
KernelSource index_bounds_source();

}  // namespace cuarray::ops
