#include "cuarray/ops/indexing.h"

#include <string>

#include "cuarray/error.h"

namespace cuarray::ops {

namespace {

// Python's PySlice_AdjustIndices: clamps start/stop to `length`, returns the slice's length.
std::int64_t adjust_slice(std::int64_t length, std::int64_t& start, std::int64_t& stop, std::int64_t step) {
  if (step == 0) throw ValueError("slice step cannot be zero");
  auto clamp = [&](std::int64_t& v) {
    if (v < 0) {
      v += length;
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= length) {
      v = step < 0 ? length - 1 : length;
    }
  };
  clamp(start);
  clamp(stop);
  if (step < 0) return stop < start ? (start - stop - 1) / (-step) + 1 : 0;
  return start < stop ? (stop - start - 1) / step + 1 : 0;
}

}  // namespace

Array basic_index(const Array& a, const std::vector<IndexItem>& items) {
  int consumed = 0, ellipses = 0;
  for (const auto& it : items) {
    if (it.kind == IndexItem::Integer || it.kind == IndexItem::Slice) ++consumed;
    if (it.kind == IndexItem::Ellipsis) ++ellipses;
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > a.ndim())
    throw IndexError("too many indices for array: array is " + std::to_string(a.ndim()) + "-dimensional, but " +
                     std::to_string(consumed) + " were indexed");
  Shape shape;
  Strides strides;
  std::int64_t offset = 0;
  int dim = 0;
  for (const auto& it : items) {
    switch (it.kind) {
      case IndexItem::NewAxis:
        shape.push_back(1);
        strides.push_back(0);
        break;
      case IndexItem::Ellipsis:
        for (int n = a.ndim() - consumed; n > 0; --n, ++dim) {
          shape.push_back(a.shape()[dim]);
          strides.push_back(a.strides()[dim]);
        }
        break;
      case IndexItem::Integer: {
        std::int64_t len = a.shape()[dim], i = it.start;
        if (i < -len || i >= len)
          throw IndexError("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(dim) +
                           " with size " + std::to_string(len));
        offset += (i < 0 ? i + len : i) * a.strides()[dim];
        ++dim;
        break;
      }
      case IndexItem::Slice: {
        std::int64_t start = it.start, stop = it.stop;
        std::int64_t len = adjust_slice(a.shape()[dim], start, stop, it.step);
        if (len > 0) offset += start * a.strides()[dim];
        shape.push_back(len);
        strides.push_back(a.strides()[dim] * it.step);
        ++dim;
        break;
      }
    }
  }
  for (; dim < a.ndim(); ++dim) {
    shape.push_back(a.shape()[dim]);
    strides.push_back(a.strides()[dim]);
  }
  if (shape.size() > kMaxDims)
    throw IndexError("number of dimensions must be within [0, " + std::to_string(kMaxDims) +
                     "], indexing result would have " + std::to_string(shape.size()));
  return a.view(std::move(shape), std::move(strides), offset);
}

}  // namespace cuarray::ops
