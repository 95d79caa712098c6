#include "cuarray/shape.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <numeric>

#include "cuarray/error.h"

namespace cuarray {

void check_ndim(std::size_t ndim) {
  if (ndim > kMaxDims)
    throw ValueError("maximum supported dimension for an ndarray is currently " + std::to_string(kMaxDims) +
                     ", found " + std::to_string(ndim));
}

std::int64_t checked_size(const Shape& shape, int itemsize) {
  // As NumPy: the nonzero extents times the itemsize must fit in int64 even when another extent is 0.
  std::int64_t nonzero = 1;
  bool overflow = false, empty = false;
  for (auto d : shape) {
    if (d < 0) throw ValueError("negative dimensions are not allowed");
    if (d == 0)
      empty = true;
    else
      overflow |= __builtin_mul_overflow(nonzero, d, &nonzero);  // a division per axis cost small ops more
  }
  std::int64_t nbytes = 0;
  if (overflow || __builtin_mul_overflow(nonzero, static_cast<std::int64_t>(itemsize), &nbytes))
    throw ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  return empty ? 0 : nonzero;
}

std::int64_t size_of(const Shape& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

bool has_zero_extent(const Shape& shape) {
  for (auto d : shape)
    if (d == 0) return true;
  return false;
}

std::pair<std::int64_t, std::int64_t> byte_extent(const Shape& shape, const Strides& strides, int itemsize) {
  if (has_zero_extent(shape)) return {0, 0};
  std::int64_t lo = 0, hi = itemsize;
  for (size_t d = 0; d < shape.size(); ++d) {
    std::int64_t span = 0;
    bool overflow = __builtin_mul_overflow(shape[d] - 1, strides[d], &span);
    overflow = overflow || __builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi);
    if (overflow) throw ValueError("array is too big; the strides address more bytes than fit in int64");
  }
  return {lo, hi};
}

// New arrays with no elements get all-zero strides, as in NumPy.
Strides c_strides(const Shape& shape, std::int64_t itemsize) {
  Strides s(shape.size());
  if (has_zero_extent(shape)) return s;
  std::int64_t step = itemsize;
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    s[i] = step;
    step *= shape[i] > 0 ? shape[i] : 1;
  }
  return s;
}

Strides f_strides(const Shape& shape, std::int64_t itemsize) {
  Strides s(shape.size());
  if (has_zero_extent(shape)) return s;
  std::int64_t step = itemsize;
  for (size_t i = 0; i < shape.size(); ++i) {
    s[i] = step;
    step *= shape[i] > 0 ? shape[i] : 1;
  }
  return s;
}

bool is_c_contiguous(const Shape& shape, const Strides& strides, std::int64_t itemsize) {
  if (has_zero_extent(shape)) return true;
  std::int64_t expected = itemsize;
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    if (shape[i] != 1) {
      if (strides[i] != expected) return false;
      expected *= shape[i];
    }
  }
  return true;
}

bool is_f_contiguous(const Shape& shape, const Strides& strides, std::int64_t itemsize) {
  if (has_zero_extent(shape)) return true;
  std::int64_t expected = itemsize;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1) {
      if (strides[i] != expected) return false;
      expected *= shape[i];
    }
  }
  return true;
}

Strides strides_like(const Shape& shape, const Strides& like, std::int64_t itemsize) {
  std::vector<int> perm(shape.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) { return std::llabs(like[a]) > std::llabs(like[b]); });
  Strides s(shape.size());
  std::int64_t step = itemsize;
  for (int i = static_cast<int>(perm.size()) - 1; i >= 0; --i) {
    s[perm[i]] = step;
    step *= shape[perm[i]] > 0 ? shape[perm[i]] : 1;
  }
  return s;
}

Strides strides_like(const Shape& shape, const LayoutOperand* operands, int n, std::int64_t itemsize, LayoutRule rule) {
  const int ndim = static_cast<int>(shape.size());
  const bool fastest_first = rule == LayoutRule::Iterator;
  // Whether operand k has a say about `axis`, and its |stride| there (the iterator also ignores a zero stride).
  auto says = [&](int k, int axis, std::int64_t& stride) {
    const int d = axis - (ndim - static_cast<int>(operands[k].shape->size()));
    if (d < 0 || (*operands[k].shape)[d] == 1) return false;
    stride = std::llabs((*operands[k].strides)[d]);
    return !(fastest_first && stride == 0);
  };
  int perm[kMaxDims];  // the axes in the sort's order: innermost first for the iterator, else outermost first
  for (int i = 0; i < ndim; ++i) perm[i] = fastest_first ? ndim - 1 - i : i;
  for (int i0 = 1; i0 < ndim; ++i0) {
    const int ax0 = perm[i0];
    int pos = i0;
    for (int i1 = i0 - 1; i1 >= 0; --i1) {
      const int ax1 = perm[i1];
      bool ambiguous = true, swap = false;
      for (int k = 0; k < n; ++k) {
        std::int64_t s0 = 0, s1 = 0;
        if (!says(k, ax0, s0) || !says(k, ax1, s1)) continue;
        if (fastest_first ? s0 >= s1 : s0 <= s1)
          swap = false;  // this operand wants them as they are, and wins over any earlier one
        else if (ambiguous)
          swap = true;
        ambiguous = false;
      }
      if (ambiguous) continue;
      if (!swap) break;
      pos = i1;
    }
    for (int i = i0; i > pos; --i) perm[i] = perm[i - 1];
    perm[pos] = ax0;
  }
  Strides s(shape.size());
  std::int64_t step = itemsize;
  for (int i = 0; i < ndim; ++i) {
    const int axis = perm[fastest_first ? i : ndim - 1 - i];
    s[axis] = step;
    step *= shape[axis] > 0 ? shape[axis] : 1;
  }
  return s;
}

Strides reduction_strides(const Shape& shape, const std::vector<bool>& reduced, const LayoutOperand* operands, int n,
                          std::int64_t itemsize) {
  const Strides full = strides_like(shape, operands, n, 1, LayoutRule::Iterator);
  Shape kept;
  Strides like;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (!reduced[d]) kept.push_back(shape[d]), like.push_back(full[d]);
  return strides_like(kept, like, itemsize);
}

std::string shape_str(const Shape& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

std::string shape_str_compact(const Shape& shape, bool tuple) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + (tuple && shape.size() == 1 ? ",)" : ")");
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    std::int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    std::int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      // NumPy's ufunc message, character for character (compact shapes, a trailing space): programs compare it.
      throw ValueError("operands could not be broadcast together with shapes " + shape_str_compact(a, true) + " " +
                       shape_str_compact(b, true) + " ");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& target) {
  if (shape.size() > target.size())
    throw ValueError("input operand has more dimensions than allowed by the axis remapping");
  size_t lead = target.size() - shape.size();
  Strides out(target.size(), 0);
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == target[lead + i])
      out[lead + i] = strides[i];
    else if (shape[i] != 1)
      throw ValueError("could not broadcast input array from shape " + shape_str(shape) + " into shape " +
                       shape_str(target));
  }
  return out;
}

int normalize_axis(std::int64_t axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                    std::to_string(ndim));
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

std::vector<std::int64_t> k_order_axes(const Shape& shape, const Strides& strides) {
  const auto n = static_cast<std::int64_t>(shape.size());
  std::vector<std::int64_t> inner_first(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) inner_first[static_cast<std::size_t>(i)] = n - 1 - i;
  auto stride = [&](std::int64_t axis) {
    return shape[static_cast<std::size_t>(axis)] == 1 ? 0 : std::llabs(strides[static_cast<std::size_t>(axis)]);
  };
  for (std::int64_t i0 = 1; i0 < n; ++i0) {
    const std::int64_t axis = inner_first[static_cast<std::size_t>(i0)];
    std::int64_t pos = i0;
    for (std::int64_t i1 = i0 - 1; i1 >= 0; --i1) {
      const std::int64_t s0 = stride(axis), s1 = stride(inner_first[static_cast<std::size_t>(i1)]);
      if (s0 == 0 || s1 == 0) continue;  // ambiguous: look further in
      if (s1 <= s0) break;
      pos = i1;
    }
    if (pos != i0) {
      inner_first.erase(inner_first.begin() + i0);
      inner_first.insert(inner_first.begin() + pos, axis);
    }
  }
  return {inner_first.rbegin(), inner_first.rend()};
}

void sort_by_memory_order(IterDims& dims, int operand) {
  if (dims.n < 2) return;  // std::stable_sort allocates a buffer even for one element
  std::stable_sort(dims.begin(), dims.end(), [operand](const IterDim& a, const IterDim& b) {
    return std::llabs(a.strides[operand]) > std::llabs(b.strides[operand]);
  });
}

void coalesce(IterDims& dims, int operands) {
  int n = 0;
  for (int i = 0; i < dims.n; ++i) {
    const IterDim& d = dims.d[i];
    if (d.extent == 1) continue;
    if (n > 0) {
      IterDim& prev = dims.d[n - 1];
      bool mergeable = true;
      for (int k = 0; k < operands && mergeable; ++k) mergeable = prev.strides[k] == d.strides[k] * d.extent;
      if (mergeable) {
        prev.extent *= d.extent;
        for (int k = 0; k < operands; ++k) prev.strides[k] = d.strides[k];
        continue;
      }
    }
    dims.d[n++] = d;
  }
  dims.n = n;
}

namespace {

Coalesced coalesce_dims(const Shape& shape, const std::vector<Strides>& strides, bool memory_order) {
  const int k = static_cast<int>(strides.size());
  if (k > kMaxIterOperands || shape.size() > static_cast<size_t>(kMaxDims))
    throw ValueError("coalesce: at most " + std::to_string(kMaxIterOperands) + " operands of " +
                     std::to_string(kMaxDims) + " dimensions");
  IterDims dims_storage;  // in place: a strided launch's only host work for its layout
  IterDims* dims = &dims_storage;
  dims->n = static_cast<int>(shape.size());
  for (int d = 0; d < dims->n; ++d) {
    dims->d[d].extent = shape[d];
    for (int op = 0; op < k; ++op) dims->d[d].strides[op] = strides[op][d];
  }
  if (memory_order && k > 0) sort_by_memory_order(*dims, 0);
  coalesce(*dims, k);
  Coalesced out{Shape(dims->n), std::vector<Strides>(k, Strides(dims->n))};
  for (int d = 0; d < dims->n; ++d) {
    out.shape[d] = dims->d[d].extent;
    for (int op = 0; op < k; ++op) out.strides[op][d] = dims->d[d].strides[op];
  }
  return out;
}

}  // namespace

Coalesced coalesce(const Shape& shape, const std::vector<Strides>& strides) {
  return coalesce_dims(shape, strides, false);
}

Coalesced coalesce_in_memory_order(const Shape& shape, const std::vector<Strides>& strides) {
  return coalesce_dims(shape, strides, true);
}

}  // namespace cuarray
