#include "cuarray/ops/shape_ops.h"

#include <algorithm>
#include <climits>
#include <string>

#include "cuarray/error.h"
#include "cuarray/ops/copy.h"

namespace cuarray::ops {

Shape infer_shape(const Shape& shape, std::int64_t size) {
  Shape out = shape;
  int unknown = -1;
  std::int64_t known = 1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] < 0) {  // any negative length is the unknown one, in NumPy and CuPy alike (-1 by convention)
      if (unknown >= 0) throw ValueError("can only specify one unknown dimension");
      unknown = static_cast<int>(i);
    } else if (out[i] != 0 && known > INT64_MAX / out[i]) {
      known = -1;  // overflows: can match no size
    } else if (known >= 0) {
      known *= out[i];
    }
  }
  auto fail = [&] {
    std::string s = shape_str(shape);
    throw ValueError("cannot reshape array of size " + std::to_string(size) + " into shape " + s);
  };
  if (known < 0) fail();
  if (unknown >= 0) {
    if (known == 0 || size % known) fail();
    out[unknown] = size / known;
  } else if (known != size) {
    fail();
  }
  return out;
}

std::optional<Strides> reshape_strides(const Array& a, const Shape& shape, char order) {
  int itemsize = a.itemsize();
  if (a.size() == 0 || a.size() == 1) {
    // NumPy lays out a reshaped empty array as if each length 0 were 1 (a new empty array has zero strides).
    Shape laid(shape);
    for (auto& n : laid) n = std::max<std::int64_t>(n, 1);
    return order == 'F' ? f_strides(laid, itemsize) : c_strides(laid, itemsize);
  }
  Shape old_dims;
  Strides old_strides;
  for (int i = 0; i < a.ndim(); ++i)
    if (a.shape()[i] != 1) {
      old_dims.push_back(a.shape()[i]);
      old_strides.push_back(a.strides()[i]);
    }
  bool f = order == 'F';
  int old_nd = static_cast<int>(old_dims.size()), new_nd = static_cast<int>(shape.size());
  Strides out(new_nd, 0);
  int oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < new_nd && oi < old_nd) {
    std::int64_t np = shape[ni], op = old_dims[oi];
    while (np != op) {
      if (np < op)
        np *= shape[nj++];
      else
        op *= old_dims[oj++];
    }
    for (int ok = oi; ok < oj - 1; ++ok) {
      if (f ? old_strides[ok + 1] != old_dims[ok] * old_strides[ok]
            : old_strides[ok] != old_dims[ok + 1] * old_strides[ok + 1])
        return std::nullopt;
    }
    if (f) {
      out[ni] = old_strides[oi];
      for (int nk = ni + 1; nk < nj; ++nk) out[nk] = out[nk - 1] * shape[nk - 1];
    } else {
      out[nj - 1] = old_strides[oj - 1];
      for (int nk = nj - 1; nk > ni; --nk) out[nk - 1] = out[nk] * shape[nk];
    }
    ni = nj++;
    oi = oj++;
  }
  std::int64_t last = ni >= 1 ? out[ni - 1] : itemsize;
  if (f && ni >= 1) last *= shape[ni - 1];
  for (int nk = ni; nk < new_nd; ++nk) out[nk] = last;
  return out;
}

Array reshape(const Array& a, Shape shape, char order, std::optional<bool> copy_wanted) {
  shape = infer_shape(shape, a.size());
  if (copy_wanted != true) {
    if (shape == a.shape()) return a.view(a.shape(), a.strides());
    if (auto strides = reshape_strides(a, shape, order)) return a.view(std::move(shape), std::move(*strides));
    if (copy_wanted == false) throw ValueError("Unable to avoid creating a copy while reshaping.");
  }
  Array copy = astype(a, a.dtype(), order == 'F' ? 'F' : 'C');
  return copy.view(shape, order == 'F' ? f_strides(shape, a.itemsize()) : c_strides(shape, a.itemsize()));
}

Array transpose(const Array& a, const std::vector<std::int64_t>& axes) {
  int nd = a.ndim();
  std::vector<int> perm(nd);
  if (axes.empty()) {
    for (int i = 0; i < nd; ++i) perm[i] = nd - 1 - i;
  } else {
    if (static_cast<int>(axes.size()) != nd) throw ValueError("axes don't match array");
    std::vector<bool> seen(nd, false);
    for (int i = 0; i < nd; ++i) {
      perm[i] = normalize_axis(axes[i], nd);
      if (seen[perm[i]]) throw ValueError("repeated axis in transpose");
      seen[perm[i]] = true;
    }
  }
  Shape shape(nd);
  Strides strides(nd);
  for (int i = 0; i < nd; ++i) {
    shape[i] = a.shape()[perm[i]];
    strides[i] = a.strides()[perm[i]];
  }
  return a.view(std::move(shape), std::move(strides));
}

Array swapaxes(const Array& a, std::int64_t axis1, std::int64_t axis2) {
  std::vector<std::int64_t> perm(a.ndim());
  for (int i = 0; i < a.ndim(); ++i) perm[i] = i;
  std::swap(perm[normalize_axis(axis1, a.ndim())], perm[normalize_axis(axis2, a.ndim())]);
  return transpose(a, perm);
}

Array squeeze(const Array& a, const std::optional<std::vector<std::int64_t>>& axes) {
  int nd = a.ndim();
  std::vector<bool> drop(nd, false);
  if (!axes) {
    for (int i = 0; i < nd; ++i) drop[i] = a.shape()[i] == 1;
  } else {
    for (auto ax : *axes) {
      int i = normalize_axis(ax, nd);
      if (drop[i]) throw ValueError("duplicate value in 'axis'");
      if (a.shape()[i] != 1) throw ValueError("cannot select an axis to squeeze out which has size not equal to one");
      drop[i] = true;
    }
  }
  Shape shape;
  Strides strides;
  for (int i = 0; i < nd; ++i)
    if (!drop[i]) {
      shape.push_back(a.shape()[i]);
      strides.push_back(a.strides()[i]);
    }
  return a.view(std::move(shape), std::move(strides));
}

Array expand_dims(const Array& a, const std::vector<std::int64_t>& axes) {
  int nd = a.ndim() + static_cast<int>(axes.size());
  std::vector<bool> is_new(nd, false);
  for (auto ax : axes) {
    int i = normalize_axis(ax, nd);
    if (is_new[i]) throw ValueError("repeated axis");
    is_new[i] = true;
  }
  Shape shape(nd);
  Strides strides(nd);
  int src = 0;
  for (int i = 0; i < nd; ++i) {
    if (is_new[i]) {
      shape[i] = 1;
      strides[i] = 0;
    } else {
      shape[i] = a.shape()[src];
      strides[i] = a.strides()[src++];
    }
  }
  return a.view(std::move(shape), std::move(strides));
}

Array diagonal(const Array& a, std::int64_t offset, std::int64_t axis1, std::int64_t axis2) {
  int nd = a.ndim();
  if (nd < 2) throw ValueError("diag requires an array of at least two dimensions");
  int a1 = normalize_axis(axis1, nd), a2 = normalize_axis(axis2, nd);
  if (a1 == a2) throw ValueError("axis1 and axis2 cannot be the same");
  std::int64_t n1 = a.shape()[a1], n2 = a.shape()[a2];
  std::int64_t start = 0, len;
  if (offset >= 0) {
    len = std::max<std::int64_t>(0, std::min(n1, n2 - offset));
    if (len > 0) start = offset * a.strides()[a2];
  } else {
    len = std::max<std::int64_t>(0, std::min(n1 + offset, n2));
    if (len > 0) start = -offset * a.strides()[a1];
  }
  Shape shape;
  Strides strides;
  for (int i = 0; i < nd; ++i)
    if (i != a1 && i != a2) {
      shape.push_back(a.shape()[i]);
      strides.push_back(a.strides()[i]);
    }
  shape.push_back(len);
  strides.push_back(a.strides()[a1] + a.strides()[a2]);
  return a.view(std::move(shape), std::move(strides), start);
}

Array broadcast_to(const Array& a, const Shape& shape) {
  for (auto d : shape)
    if (d < 0) throw ValueError("all elements of broadcast shape must be non-negative");
  if (shape.size() < static_cast<size_t>(a.ndim())) throw ValueError("cannot broadcast a non-scalar to a scalar array");
  try {
    return a.view(shape, broadcast_strides(a.shape(), a.strides(), shape));
  } catch (const ValueError&) {
    throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                     shape_str(a.shape()) + " and requested shape " + shape_str(shape));
  }
}

}  // namespace cuarray::ops
