// Basic indexing: integers, slices, None and Ellipsis, giving views.
#pragma once

#include <cstdint>
#include <vector>

#include "cuarray/array.h"

namespace cuarray::ops {

struct IndexItem {
  enum Kind : std::uint8_t { Integer, Slice, NewAxis, Ellipsis } kind;
  // Integer: start is the index. Slice: Python's slice fields, with INT64_MIN/INT64_MAX standing for an
  // omitted start/stop as PySlice_Unpack gives them.
  std::int64_t start = 0, stop = 0, step = 1;
};

// The view `a[items]`; throws IndexError as NumPy does.
Array basic_index(const Array& a, const std::vector<IndexItem>& items);

}  // namespace cuarray::ops
