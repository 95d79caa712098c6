// The device array: a view (shape, byte strides, offset, dtype) of a reference-counted device Buffer.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "cuarray/cuda/memory_pool.h"
#include "cuarray/dtype.h"
#include "cuarray/shape.h"

namespace cuarray {

enum class Order : std::uint8_t { C, F };

class Array {
 public:
  // A new, uninitialised array on the current device, allocated on the current stream.
  Array(Shape shape, DType dtype, Order order = Order::C);
  // A new, uninitialised array of `type`'s element type (its dtype, and a Void's itemsize and descr).
  static Array of_type(const Array& type, Shape shape, Order order = Order::C);
  // A new, uninitialised Void array of `itemsize` bytes an element, whose NumPy dtype the bindings number
  // `descr` (Note [Void storage]).
  static Array of_void(Shape shape, int itemsize, int descr, Order order = Order::C);
  // A new, uninitialised array laid out like `like` (NumPy's order='K'); a Void `dtype` takes like's element type.
  static Array like(const Array& like, DType dtype);
  // A new, uninitialised array of `shape` laid out in the common memory order of `operands` by `rule` (Note [Layout
  // of new arrays] in shape.h); C order when every operand is C-contiguous or the array is empty.
  static Array like_all(const Shape& shape, DType dtype, const Array* const* operands, int n, LayoutRule rule);
  // A view of `buffer` starting `offset` bytes in.
  Array(std::shared_ptr<cuda::Buffer> buffer, std::int64_t offset, Shape shape, Strides strides, DType dtype);
  // ndarray(shape, dtype, memptr, strides): a view of `buffer` at byte `offset` with the given strides (a new
  // buffer just large enough when `buffer` is null), checked first, as NumPy checks its buffer arguments:
  // one stride per axis, strides and address multiples of the itemsize (the device faults on misaligned
  // loads), every element inside the buffer. Throws ValueError otherwise.
  // No strides: C or F order's.
  // `void_itemsize`, `descr`: a Void dtype's element type.
  // `limit`: the bytes of `buffer` the memory may use (the array that owns it may be smaller than the pool's
  // rounded block); -1 for all of them.
  static Array from_memory(std::shared_ptr<cuda::Buffer> buffer, std::int64_t offset, Shape shape,
                           std::optional<Strides> strides, DType dtype, Order order, std::int64_t limit = -1,
                           int void_itemsize = 0, int descr = 0);

  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  DType dtype() const { return dtype_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  std::int64_t size() const { return size_; }
  int itemsize() const { return itemsize_; }
  // The bindings' number for a Void array's NumPy dtype; 0 for other types (Note [Void storage]).
  int descr() const { return descr_; }
  std::int64_t nbytes() const { return size_ * itemsize(); }
  int device() const { return buffer_->device(); }
  bool c_contiguous() const { return c_contiguous_; }
  bool f_contiguous() const { return f_contiguous_; }

  char* data() const { return static_cast<char*>(buffer_->ptr()) + offset_; }
  std::int64_t offset() const { return offset_; }
  const std::shared_ptr<cuda::Buffer>& buffer() const { return buffer_; }

  // Another view of the same memory; `offset` is relative to this array's start.
  Array view(Shape shape, Strides strides, std::int64_t offset = 0) const {
    Array out(buffer_, offset_ + offset, std::move(shape), std::move(strides), dtype_);
    return dtype_ == DType::Void ? out.view_void(itemsize_, descr_) : out;
  }
  // The same memory seen as another dtype of the same itemsize.
  Array view(DType dtype) const { return Array(buffer_, offset_, shape_, strides_, dtype); }
  // The same memory seen as a Void type (a field, or a structured type of the same itemsize).
  Array view_void(int itemsize, int descr) const;
  // The same view, without a share in its buffer: for records that must not keep memory alive (ops/auto_fusion.h),
  // whose owner makes sure the memory outlives every use of the view.
  Array borrowed() const {
    return Array(*this, std::shared_ptr<cuda::Buffer>(std::shared_ptr<cuda::Buffer>(), buffer_.get()));
  }

 private:
  // `a`'s view of `buffer`.
  Array(const Array& a, std::shared_ptr<cuda::Buffer> buffer)
      : buffer_(std::move(buffer)),
        offset_(a.offset_),
        shape_(a.shape_),
        strides_(a.strides_),
        size_(a.size_),
        dtype_(a.dtype_),
        itemsize_(a.itemsize_),
        descr_(a.descr_),
        c_contiguous_(a.c_contiguous_),
        f_contiguous_(a.f_contiguous_) {}
  void update_flags();
  std::shared_ptr<cuda::Buffer> buffer_;
  std::int64_t offset_ = 0;
  Shape shape_;
  Strides strides_;
  std::int64_t size_ = 0;
  DType dtype_;
  int itemsize_ = 0;
  int descr_ = 0;
  bool c_contiguous_ = true, f_contiguous_ = true;
};

// Throws ValueError unless every array lives on the current device (naming the devices).
void check_same_device(const Array& a, const char* op);

}  // namespace cuarray
