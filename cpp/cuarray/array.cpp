#include "cuarray/array.h"

#include <vector>

#include "cuarray/cuda/device.h"
#include "cuarray/error.h"

namespace cuarray {

Array::Array(Shape shape, DType dtype, Order order)
    : shape_(std::move(shape)), dtype_(dtype), itemsize_(cuarray::itemsize(dtype)) {
  // A Void array's itemsize is its own (Note [Void storage]): of_void and of_type make one. An operation that
  // makes a new array of its input's DType computes on it, which Void arrays refuse.
  if (is_void(dtype)) check_computable(dtype, "this operation");
  check_ndim(shape_.size());
  size_ = checked_size(shape_, itemsize());
  strides_ = order == Order::C ? c_strides(shape_, itemsize()) : f_strides(shape_, itemsize());
  buffer_ = cuda::allocate(static_cast<std::size_t>(size_ * itemsize()));
  update_flags();
}

Array::Array(std::shared_ptr<cuda::Buffer> buffer, std::int64_t offset, Shape shape, Strides strides, DType dtype)
    : buffer_(std::move(buffer)),
      offset_(offset),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      dtype_(dtype),
      itemsize_(cuarray::itemsize(dtype)) {
  check_ndim(shape_.size());
  size_ = size_of(shape_);
  update_flags();
}

Array Array::of_void(Shape shape, int itemsize, int descr, Order order) {
  if (itemsize <= 0) throw TypeError("cuarray does not support void types of itemsize 0");
  Array out(nullptr, 0, Shape{}, Strides{}, DType::UInt8);
  out.dtype_ = DType::Void;
  out.itemsize_ = itemsize;
  out.descr_ = descr;
  out.shape_ = std::move(shape);
  check_ndim(out.shape_.size());
  out.size_ = checked_size(out.shape_, itemsize);
  out.strides_ = order == Order::C ? c_strides(out.shape_, itemsize) : f_strides(out.shape_, itemsize);
  out.buffer_ = cuda::allocate(static_cast<std::size_t>(out.size_ * itemsize));
  out.update_flags();
  return out;
}

Array Array::of_type(const Array& type, Shape shape, Order order) {
  if (is_void(type.dtype())) return of_void(std::move(shape), type.itemsize(), type.descr(), order);
  return Array(std::move(shape), type.dtype(), order);
}

Array Array::view_void(int itemsize, int descr) const {
  Array out = *this;
  out.dtype_ = DType::Void;
  out.itemsize_ = itemsize;
  out.descr_ = descr;
  out.update_flags();
  return out;
}

Array Array::from_memory(std::shared_ptr<cuda::Buffer> buffer, std::int64_t offset, Shape shape,
                         std::optional<Strides> given, DType dtype, Order order, std::int64_t limit, int void_itemsize,
                         int descr) {
  const bool is_v = is_void(dtype);
  const int item = is_v ? void_itemsize : cuarray::itemsize(dtype);
  if (item <= 0) throw TypeError("cuarray does not support void types of itemsize 0");
  checked_size(shape, item);
  if (!buffer && !given)
    return is_v ? of_void(std::move(shape), item, descr, order) : Array(std::move(shape), dtype, order);
  Strides strides = given ? std::move(*given) : order == Order::C ? c_strides(shape, item) : f_strides(shape, item);
  if (strides.size() != shape.size()) throw ValueError("strides, if given, must be the same length as shape");
  // Void data moves as bytes (Note [Void storage]): any stride and address will do.
  for (auto s : strides)
    if (!is_v && s % item != 0)
      throw ValueError("strides " + shape_str(strides) + " must be multiples of the itemsize (" + std::to_string(item) +
                       " bytes)");
  auto [lo, hi] = byte_extent(shape, strides, item);
  const char* incompatible = "strides is incompatible with shape of requested array and size of buffer";
  if (!buffer) {
    // NumPy's rule: new memory is a contiguous array's, which the strides must stay within.
    const std::int64_t contiguous = size_of(shape) * item;
    if (lo < 0 || hi > contiguous)
      throw ValueError(std::string("ndarray() with strides and no memptr: ") + incompatible +
                       " (the elements must lie in the " + std::to_string(contiguous) +
                       " bytes of a contiguous array, from its start)");
    buffer = cuda::allocate(static_cast<std::size_t>(hi));
    offset = 0;
  } else {
    auto address = reinterpret_cast<std::uintptr_t>(buffer->ptr()) + static_cast<std::uintptr_t>(offset);
    if (!is_v && address % static_cast<std::uintptr_t>(item) != 0)
      throw ValueError("memptr is not aligned to the itemsize (" + std::to_string(item) + " bytes)");
    std::int64_t first = 0, last = 0;
    bool outside = __builtin_add_overflow(offset, lo, &first) || __builtin_add_overflow(offset, hi, &last) ||
                   first < 0 || last > (limit < 0 ? static_cast<std::int64_t>(buffer->nbytes()) : limit);
    if (hi > lo && outside) throw ValueError(incompatible);
  }
  Array out(std::move(buffer), offset, std::move(shape), std::move(strides), dtype);
  return is_v ? out.view_void(item, descr) : out;
}

Array Array::like(const Array& like, DType dtype) {
  auto make = [&](Order o) {
    return is_void(dtype) ? of_void(like.shape(), like.itemsize(), like.descr(), o) : Array(like.shape(), dtype, o);
  };
  if (like.c_contiguous()) return make(Order::C);
  if (like.f_contiguous()) return make(Order::F);
  Array out = make(Order::C);
  out.strides_ = strides_like(out.shape_, like.strides(), out.itemsize());
  out.update_flags();
  return out;
}

Array Array::like_all(const Shape& shape, DType dtype, const Array* const* operands, int n, LayoutRule rule) {
  Array out(shape, dtype, Order::C);
  bool c_order = true;
  // An empty operand is C-contiguous by the flag rules whatever its strides, but NumPy still reads them.
  for (int k = 0; k < n && c_order; ++k) c_order = operands[k]->c_contiguous() && operands[k]->size() != 0;
  if (c_order || out.size() == 0 || shape.size() < 2) return out;
  std::vector<LayoutOperand> layout(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) layout[k] = {&operands[k]->shape(), &operands[k]->strides()};
  out.strides_ = strides_like(out.shape_, layout.data(), n, out.itemsize(), rule);
  out.update_flags();
  return out;
}

void Array::update_flags() {
  c_contiguous_ = is_c_contiguous(shape_, strides_, itemsize());
  f_contiguous_ = is_f_contiguous(shape_, strides_, itemsize());
}

void check_same_device(const Array& a, const char* op) {
  int current = cuda::current_device();
  if (a.device() != current)
    throw ValueError(std::string(op) + ": the array is on device " + std::to_string(a.device()) +
                     " but the current device is " + std::to_string(current) +
                     "; move it with cuarray.asarray() under the right Device, or switch devices");
}

}  // namespace cuarray
