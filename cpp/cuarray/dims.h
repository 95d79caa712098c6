// Dims: the sequence of int64 that holds a shape or strides, with the interface of std::vector.
//
// Note [Dims in place]
// Every op makes at least one new array or view, and each holds a shape and strides. As std::vectors they cost two
// heap allocations for each new array and two more for each copy of a view (auto-fusion keeps copies of the views
// it records); malloc and free took about a sixth of a small op's host time in a profile of the ten-op chain.
// Almost every array has few dimensions, so Dims keeps up to kInline of them in place and goes to the heap only
// beyond that: making, copying and freeing the layout of an ordinary array allocates nothing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <type_traits>
#include <vector>

namespace cuarray {

class Dims {
 public:
  using value_type = std::int64_t;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = value_type&;
  using const_reference = const value_type&;
  using pointer = value_type*;
  using const_pointer = const value_type*;
  using iterator = value_type*;
  using const_iterator = const value_type*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;
  static constexpr size_type kInline = 6;

  Dims() noexcept {}  // user-provided: a const Dims may be default-initialised
  explicit Dims(size_type n) { resize(n); }
  Dims(size_type n, value_type v) { assign(n, v); }
  Dims(std::initializer_list<value_type> v) { assign(v.begin(), v.end()); }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  Dims(It first, It last) {
    assign(first, last);
  }
  // Implicit, both ways: the bindings and a few ops hand shapes to and from std::vector.
  Dims(const std::vector<value_type>& v) { assign(v.begin(), v.end()); }  // NOLINT(google-explicit-constructor)
  operator std::vector<value_type>() const { return {begin(), end()}; }   // NOLINT(google-explicit-constructor)

  Dims(const Dims& o) { assign(o.begin(), o.end()); }
  Dims(Dims&& o) noexcept { take(o); }
  Dims& operator=(const Dims& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  Dims& operator=(Dims&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  Dims& operator=(std::initializer_list<value_type> v) {
    assign(v.begin(), v.end());
    return *this;
  }
  ~Dims() { release(); }

  size_type size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  size_type capacity() const noexcept { return capacity_; }
  value_type* data() noexcept { return data_; }
  const value_type* data() const noexcept { return data_; }
  iterator begin() noexcept { return data_; }
  iterator end() noexcept { return data_ + size_; }
  const_iterator begin() const noexcept { return data_; }
  const_iterator end() const noexcept { return data_ + size_; }
  const_iterator cbegin() const noexcept { return data_; }
  const_iterator cend() const noexcept { return data_ + size_; }
  reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }
  reverse_iterator rend() noexcept { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const noexcept { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const noexcept { return const_reverse_iterator(begin()); }
  value_type& operator[](size_type i) noexcept { return data_[i]; }
  const value_type& operator[](size_type i) const noexcept { return data_[i]; }
  value_type& front() noexcept { return data_[0]; }
  const value_type& front() const noexcept { return data_[0]; }
  value_type& back() noexcept { return data_[size_ - 1]; }
  const value_type& back() const noexcept { return data_[size_ - 1]; }

  void reserve(size_type n) {
    if (n <= capacity_) return;
    auto* grown = new value_type[n];
    std::copy(begin(), end(), grown);
    release();
    data_ = grown;
    capacity_ = n;
  }
  void clear() noexcept { size_ = 0; }
  void resize(size_type n, value_type v = 0) {
    reserve(n);
    if (n > size_) std::fill(data_ + size_, data_ + n, v);
    size_ = n;
  }
  void assign(size_type n, value_type v) {
    size_ = 0;
    resize(n, v);
  }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  void assign(It first, It last) {
    const auto n = static_cast<size_type>(std::distance(first, last));
    size_ = 0;
    reserve(n);
    std::copy(first, last, data_);
    size_ = n;
  }
  void push_back(value_type v) {
    if (size_ == capacity_) reserve(capacity_ * 2);
    data_[size_++] = v;
  }
  value_type& emplace_back(value_type v) {
    push_back(v);
    return back();
  }
  void pop_back() noexcept { --size_; }

  iterator insert(const_iterator pos, value_type v) { return insert(pos, size_type{1}, v); }
  iterator insert(const_iterator pos, size_type n, value_type v) {
    const size_type at = open(pos, n);
    std::fill(data_ + at, data_ + at + n, v);
    return data_ + at;
  }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  iterator insert(const_iterator pos, It first, It last) {
    const Dims values(first, last);  // the values may lie in this sequence
    const size_type at = open(pos, values.size());
    std::copy(values.begin(), values.end(), data_ + at);
    return data_ + at;
  }
  iterator insert(const_iterator pos, std::initializer_list<value_type> v) { return insert(pos, v.begin(), v.end()); }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    auto* f = data_ + (first - data_);
    std::copy(last, cend(), f);
    size_ -= static_cast<size_type>(last - first);
    return f;
  }

  friend bool operator==(const Dims& a, const Dims& b) noexcept {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const Dims& a, const Dims& b) noexcept { return !(a == b); }
  friend bool operator<(const Dims& a, const Dims& b) noexcept {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  // Makes room for `n` values at `pos`; returns its index.
  size_type open(const_iterator pos, size_type n) {
    const auto at = static_cast<size_type>(pos - data_);
    if (size_ + n > capacity_) reserve(std::max(size_ + n, capacity_ * 2));
    std::copy_backward(data_ + at, data_ + size_, data_ + size_ + n);
    size_ += n;
    return at;
  }
  void release() noexcept {
    if (data_ != in_place_) delete[] data_;
    data_ = in_place_;
    capacity_ = kInline;
  }
  // Takes `o`'s values, leaving it empty (o's heap block, if any, becomes this one's).
  void take(Dims& o) noexcept {
    if (o.data_ != o.in_place_) {
      data_ = o.data_;
      capacity_ = o.capacity_;
      o.data_ = o.in_place_;
      o.capacity_ = kInline;
    } else {
      std::memcpy(in_place_, o.in_place_, o.size_ * sizeof(value_type));
    }
    size_ = o.size_;
    o.size_ = 0;
  }

  value_type* data_ = in_place_;
  size_type size_ = 0;
  size_type capacity_ = kInline;
  value_type in_place_[kInline];
};

}  // namespace cuarray
