#include "cuarray/jit/mdspan.h"

#include <cstring>
#include <limits>
#include <stdexcept>

#include "cuarray/error.h"

namespace cuarray::jit {

namespace {

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

void append_index(std::string& out, std::int64_t v, int index_size) {
  if (index_size == 4) {
    const auto v32 = static_cast<std::int32_t>(v);
    out.append(reinterpret_cast<const char*>(&v32), 4);
  } else {
    out.append(reinterpret_cast<const char*>(&v), 8);
  }
}

std::string int32_overflow(const std::string& what, std::int64_t value) {
  return what + " " + std::to_string(value) + " exceeds int32 maximum (" + std::to_string(kInt32Max) +
         "). Use index_type=cuarray.int64 instead.";
}

}  // namespace

Mdspan make_mdspan(std::uintptr_t data, int itemsize, const Shape& shape, const Strides& strides, int index_size,
                   bool allow_unsafe) {
  if (index_size != 4 && index_size != 8)
    throw ValueError("Unsupported index size " + std::to_string(index_size) + ": expected 4 (int32) or 8 (int64)");
  if (itemsize <= 0) throw ValueError("an mdspan needs elements of at least one byte");
  const std::size_t ndim = shape.size();
  const std::int64_t size = size_of(shape);
  if (index_size == 4 && size > kInt32Max) throw ValueError(int32_overflow("Array size", size));
  if (!allow_unsafe) {  // CuPy's checks and messages, extents first (Note [mdspan arguments])
    for (std::size_t i = 0; i < ndim; ++i)
      if (shape[i] == 0) throw std::runtime_error(std::to_string(i) + "-th dimension has size zero");
    for (std::size_t i = 0; i < ndim; ++i)
      if (strides[i] <= 0) throw std::runtime_error(std::to_string(i) + "-th dimension has non-positive stride");
  }
  std::int64_t span = 0;  // the largest |offset| of an element, in elements
  for (std::size_t i = 0; i < ndim; ++i) {
    if (strides[i] % itemsize != 0)
      throw ValueError("dimension " + std::to_string(i) + "'s stride of " + std::to_string(strides[i]) +
                       " bytes is not a multiple of the itemsize " + std::to_string(itemsize) +
                       ": an mdspan counts its strides in elements (copy the array first)");
    const std::int64_t step = strides[i] / itemsize;
    if (index_size == 4) {
      if (shape[i] > kInt32Max) throw ValueError(int32_overflow("Extent of dimension " + std::to_string(i), shape[i]));
      if (step > kInt32Max || step < -kInt32Max)
        throw ValueError(int32_overflow("Stride (in elements) of dimension " + std::to_string(i), step));
    }
    std::int64_t reach = 0;  // saturated: only a bound on int32's range is asked of it
    if (size > 0 && (__builtin_mul_overflow(shape[i] - 1, step < 0 ? -step : step, &reach) ||
                     __builtin_add_overflow(span, reach, &span)))
      span = std::numeric_limits<std::int64_t>::max();
  }
  if (index_size == 4 && span > kInt32Max) throw ValueError(int32_overflow("Largest element offset", span));

  Mdspan m;
  m.ndim = static_cast<int>(ndim);
  m.index_size = index_size;
  m.bytes.reserve(sizeof(void*) + 2 * ndim * index_size);
  m.bytes.append(reinterpret_cast<const char*>(&data), sizeof data);
  for (std::size_t i = 0; i < ndim; ++i) append_index(m.bytes, shape[i], index_size);
  for (std::size_t i = 0; i < ndim; ++i) append_index(m.bytes, strides[i] / itemsize, index_size);
  const std::size_t unpadded = sizeof(void*) + ndim * index_size;
  m.prefix_size = (unpadded + sizeof(void*) - 1) / sizeof(void*) * sizeof(void*);
  m.contiguous = is_c_contiguous(shape, strides, itemsize) || is_f_contiguous(shape, strides, itemsize);
  return m;
}

std::string mdspan_description(const Mdspan& m) {
  return "cuarray mdspan (for a " + std::to_string(m.ndim) + "-d mdspan parameter with int" +
         std::to_string(8 * m.index_size) + " indices and every extent dynamic: " + std::to_string(m.prefix_size) +
         " bytes as layout_right or layout_left, " + std::to_string(m.bytes.size()) + " as layout_stride)";
}

}  // namespace cuarray::jit
