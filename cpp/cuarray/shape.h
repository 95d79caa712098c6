// Shapes, strides (in bytes, as NumPy) and the layout logic shared by every op: contiguity, broadcasting,
// axis normalisation and dimension coalescing.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cuarray/dims.h"

namespace cuarray {

using Shape = Dims;
using Strides = Dims;

// NumPy's limit on dimensions, which every Array keeps to (ops size their fixed arrays by it).
constexpr int kMaxDims = 64;
// Throws NumPy's ValueError for more than kMaxDims dimensions.
void check_ndim(std::size_t ndim);

// Number of elements; throws ValueError for a negative dimension or a size that overflows int64.
std::int64_t checked_size(const Shape& shape, int itemsize);
std::int64_t size_of(const Shape& shape);
bool has_zero_extent(const Shape& shape);
Strides c_strides(const Shape& shape, std::int64_t itemsize);
Strides f_strides(const Shape& shape, std::int64_t itemsize);
// Lowest and one-past-highest byte touched by a view, relative to its first element ({0, 0} when empty);
// throws ValueError when that overflows int64.
std::pair<std::int64_t, std::int64_t> byte_extent(const Shape& shape, const Strides& strides, int itemsize);
// NumPy's flag rules: dimensions of length 1 (and arrays of size 0 or 1) do not constrain strides.
bool is_c_contiguous(const Shape& shape, const Strides& strides, std::int64_t itemsize);
bool is_f_contiguous(const Shape& shape, const Strides& strides, std::int64_t itemsize);

// Strides of a dense array of `shape` whose axes are laid out in the memory order of `like` (largest |stride|
// outermost, ties in axis order): NumPy's order='K' for one array (empty_like, copy, astype). Not the
// several-operand rule below with one operand: that one gives a zero stride or a length-1 axis no say, where
// NumPy's empty_like sorts them too (a broadcast axis innermost).
Strides strides_like(const Shape& shape, const Strides& like, std::int64_t itemsize);

// Note [Layout of new arrays]
// NumPy lays a new array made from several operands (a ufunc's output, np.concatenate's result) out in their
// common memory order. The axes are insertion-sorted by the operands' absolute strides: an operand whose length
// along either of two axes is 1 has no say about them, the first operand with a say decides, and any later one
// that wants them as they are overrides it (so where operands disagree, C order wins: `a.T + a` is C-ordered, not
// laid out like its first operand). Concatenating transposed views gives an F-ordered result, whose ravel() is then
// a copy, as in NumPy. Two variants, which differ where operands leave axes unordered (length 1, or a zero stride):
// - LayoutRule::Iterator, the ufuncs' (NumPy's nditer): the axes are sorted innermost first, and a zero stride
//   has no say either;
// - LayoutRule::Concatenate, np.concatenate's (PyArray_CreateMultiSortedStridePerm): outermost first.
// Operands with fewer axes are aligned with the last ones; the strides are of a dense array in the sorted order.
struct LayoutOperand {
  const Shape* shape;
  const Strides* strides;
};
enum class LayoutRule { Iterator, Concatenate };
Strides strides_like(const Shape& shape, const LayoutOperand* operands, int n, std::int64_t itemsize, LayoutRule rule);
// A reduction's new result, of the axes of `shape` not `reduced`: its axes keep the places the iterator's order gives
// them among all the axes, the reduced ones included (ordering the kept axes alone decides otherwise where an operand
// is broadcast along one of them).
Strides reduction_strides(const Shape& shape, const std::vector<bool>& reduced, const LayoutOperand* operands, int n,
                          std::int64_t itemsize);

// Shape that `a` and `b` broadcast to; throws ValueError naming both shapes.
Shape broadcast_shapes(const Shape& a, const Shape& b);
// Strides that view an array of `shape`/`strides` as `target` (zero stride on broadcast dims);
// throws ValueError when it does not broadcast.
Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& target);

// Maps a possibly negative axis into [0, ndim); throws AxisError as NumPy does.
int normalize_axis(std::int64_t axis, int ndim);

std::string shape_str(const Shape& shape);  // "(2, 3)", "(4,)", "()"
// NumPy's compact form in iterator messages: "(2,3)"; a 1-D shape is "(4,)" as a tuple, "(4)" otherwise.
std::string shape_str_compact(const Shape& shape, bool tuple = true);

// Note [Coalescing]
// Every op walks its operands over the smallest equivalent iteration space: length-1 dimensions dropped and
// neighbours that are contiguous in every operand merged, after ordering the dimensions by one operand's
// memory order where the op allows it. IterDims is that one mechanism, held in place so that a launch
// allocates nothing on the host for it; Coalesced is its form for callers that keep vectors.
constexpr int kMaxIterOperands = 12;
struct IterDim {
  std::int64_t extent;
  std::int64_t strides[kMaxIterOperands];  // one per operand, in bytes
};
struct IterDims {
  IterDim d[kMaxDims + 1];  // + 1: an op may add one dimension of extent 1
  int n = 0;
  IterDim* begin() { return d; }
  IterDim* end() { return d + n; }
  const IterDim* begin() const { return d; }
  const IterDim* end() const { return d + n; }
  const IterDim& back() const { return d[n - 1]; }
};
// The axes, outermost first, in which NumPy's iterator reads an array in order 'K' (ravel, flatten): an
// insertion sort that moves an axis inward past those of larger |stride|, where an axis of stride 0 or length 1
// orders against nothing, so broadcast axes keep their C places.
std::vector<std::int64_t> k_order_axes(const Shape& shape, const Strides& strides);
// Orders the dimensions outermost first by |stride| of `operand` (stable: ties keep their order), so the
// last dimension walks that operand's memory most closely.
void sort_by_memory_order(IterDims& dims, int operand);
// Drops length-1 dimensions and merges neighbours (outermost first) contiguous in the first `operands`.
void coalesce(IterDims& dims, int operands);

// The coalesced iteration space of operands that share `shape`, dimension order kept (outermost first).
struct Coalesced {
  Shape shape;
  std::vector<Strides> strides;  // one per operand
};
Coalesced coalesce(const Shape& shape, const std::vector<Strides>& strides);
// The same after ordering the dimensions by operand 0's memory order.
Coalesced coalesce_in_memory_order(const Shape& shape, const std::vector<Strides>& strides);

}  // namespace cuarray
