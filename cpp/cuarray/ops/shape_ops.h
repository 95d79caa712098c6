// Views that change shape or axis order without touching data (reshape copies only when it must).
#pragma once

#include <optional>
#include <vector>

#include "cuarray/array.h"

namespace cuarray::ops {

// `shape` may hold one -1. Order 'C' or 'F'. A view when the strides allow it, else a copy; copy=true always
// copies, copy=false throws NumPy's ValueError where a copy would be needed.
Array reshape(const Array& a, Shape shape, char order = 'C', std::optional<bool> copy = std::nullopt);
// The strides that view `a` as `shape` in `order`, if any (NumPy's no-copy reshape rule).
std::optional<Strides> reshape_strides(const Array& a, const Shape& shape, char order);
// Resolves a -1 and checks the size; throws ValueError as NumPy does.
Shape infer_shape(const Shape& shape, std::int64_t size);

// `axes` empty reverses the axes.
Array transpose(const Array& a, const std::vector<std::int64_t>& axes = {});
Array swapaxes(const Array& a, std::int64_t axis1, std::int64_t axis2);
// No `axes` drops every length-1 axis.
Array squeeze(const Array& a, const std::optional<std::vector<std::int64_t>>& axes = std::nullopt);
Array expand_dims(const Array& a, const std::vector<std::int64_t>& axes);
Array diagonal(const Array& a, std::int64_t offset, std::int64_t axis1, std::int64_t axis2);
Array broadcast_to(const Array& a, const Shape& shape);

}  // namespace cuarray::ops
