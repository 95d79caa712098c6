// ndarray.mdspan: an array described to a kernel parameter of type cuda::std::mdspan (CuPy 14's ndarray.mdspan).
//
// Note [mdspan arguments]
// A kernel takes an array as `cuda::std::mdspan<T, cuda::std::extents<I, dynamic_extent...>, Layout>` by value.
// libcu++ lays such an mdspan out as the data handle (T*), then the layout's mapping (the extents, then for
// layout_stride the strides, each an I), then the accessor (default_accessor, empty): for rank n, 8 + 2*n*sizeof(I)
// bytes as layout_stride, and 8 + n*sizeof(I) rounded up to the pointer's alignment as layout_right or
// layout_left (8 bytes for rank 0, whatever the layout). The argument holds the layout_stride form (CuPy's), with
// the strides in elements; a layout_right or layout_left parameter takes its first bytes, the pointer and the
// extents, and computes the offsets itself.
//
// The kernel's declaration, not the argument, says which layout the device code applies, so what cuarray can
// tell is checked when the arguments are packed (Note [RawKernel arguments]): a parameter of neither size is a
// TypeError (another rank, another index type, or static extents), and a parameter of the layout_right and
// layout_left size is refused for an array that is neither C- nor F-contiguous, since neither layout can
// address it (CuPy reads the wrong elements, or past the array). Which of the two a contiguous array gets is the
// kernel's: a C-contiguous array is read as it is by layout_right, an F-contiguous one by layout_left. Nor can
// sizes tell every mismatch: a 2-d int32 layout_stride mdspan is as large as a 2-d int64 layout_right one, and
// such an argument is passed as given, as any same-size mismatch is.
//
// Checks at creation are CuPy's: index_type int32 or int64 (ValueError), an int32 index for at most INT32_MAX
// elements (ValueError), and without allow_unsafe no dimension of size zero and no stride that is zero or
// negative (RuntimeError, naming the first such dimension). Beyond CuPy, where its mdspan would hold wrong
// numbers: a stride that is not a whole number of elements (CuPy floors it), and with int32 indices an extent,
// a stride or an element offset (sum of (n_k - 1) * |s_k|, which layout_stride computes in I) beyond INT32_MAX
// (CuPy truncates them): both ValueError. The argument keeps its array alive: a kernel launched with it after
// the array's last reference went reads memory that is still the array's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "cuarray/shape.h"

namespace cuarray::jit {

struct Mdspan {
  std::string bytes;             // the layout_stride form: pointer, extents, strides (elements), as I
  std::size_t prefix_size = 0;   // the size of a layout_right or layout_left mdspan of this rank and I
  bool contiguous = false;       // C- or F-contiguous, so that layout_right or layout_left can address it
  int ndim = 0, index_size = 0;  // rank, sizeof(I)
};

// The mdspan of an array at `data` of `shape` and `strides` (bytes) with elements of `itemsize` bytes, with
// extents and strides of `index_size` (4 or 8) bytes; throws as Note [mdspan arguments] says.
Mdspan make_mdspan(std::uintptr_t data, int itemsize, const Shape& shape, const Strides& strides, int index_size,
                   bool allow_unsafe);

// What an mdspan is called in messages: "cuarray mdspan (for a 2-d mdspan parameter with int64 indices and every
// extent dynamic: 24 bytes as layout_right or layout_left, 40 as layout_stride)".
std::string mdspan_description(const Mdspan& m);

}  // namespace cuarray::jit
