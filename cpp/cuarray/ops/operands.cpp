#include "cuarray/ops/operands.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "cuarray/error.h"
#include "cuarray/ops/reduction.h"

namespace cuarray::ops {

namespace {

ScalarHook g_scalar_hook = nullptr;

template <typename T>
void put(char* dst, T v) {
  std::memcpy(dst, &v, sizeof(T));
}

// Whether int64 `v` is in the range of integer type `t`.
bool fits(std::int64_t v, DType t) {
  int bits = 8 * itemsize(t);
  if (kind(t) == Kind::Signed) return bits == 64 || (v >= -(1LL << (bits - 1)) && v < (1LL << (bits - 1)));
  return v >= 0 && (bits == 64 || v < (1LL << bits));
}

// A real value in loop type `t` (not a 16-bit float); false where NumPy must convert it.
bool put_real(char* dst, DType t, double v) {
  switch (t) {
    case DType::Float64:
      put(dst, v);
      return true;
    case DType::Float32:
      put(dst, static_cast<float>(v));
      return true;
    case DType::Complex128:
      put(dst, v), put(dst + 8, 0.0);
      return true;
    case DType::Complex64:
      put(dst, static_cast<float>(v)), put(dst + 4, 0.0f);
      return true;
    default:
      return false;
  }
}

// The conversions the core does itself; false for the rest (the hook's).
bool convert(const Scalar& s, DType t, char* dst) {
  const bool half = t == DType::Float16 || t == DType::BFloat16;
  switch (s.tag) {
    case Scalar::Tag::Bool:  // 0 and 1 are exact in every type
      if (t == DType::Bool) return put(dst, static_cast<bool>(s.i)), true;
      if (is_integer(t)) return std::memcpy(dst, &s.i, static_cast<size_t>(itemsize(t))), true;
      return half ? (put(dst, static_cast<float>(s.i)), true) : put_real(dst, t, static_cast<double>(s.i));
    case Scalar::Tag::Int:
      if (t == DType::Bool) return put(dst, s.i != 0), true;
      if (is_integer(t)) {
        if (!fits(s.i, t)) return false;                           // NumPy's OverflowError
        std::memcpy(dst, &s.i, static_cast<size_t>(itemsize(t)));  // little-endian: the low bytes
        return true;
      }
      return !half && put_real(dst, t, static_cast<double>(s.i));
    case Scalar::Tag::UInt:
      if (t == DType::UInt64) return put(dst, s.u), true;
      return !half && !is_integer(t) && t != DType::Bool && put_real(dst, t, static_cast<double>(s.u));
    case Scalar::Tag::BigInt:
      return false;
    case Scalar::Tag::Float:
      return !half && !is_integer(t) && t != DType::Bool && put_real(dst, t, s.re);
    case Scalar::Tag::Complex:
      if (t == DType::Complex128) return put(dst, s.re), put(dst + 8, s.im), true;
      if (t == DType::Complex64)
        return put(dst, static_cast<float>(s.re)), put(dst + 4, static_cast<float>(s.im)), true;
      return false;
    case Scalar::Tag::Typed:
      if (s.dtype != t || half) return false;
      std::memcpy(dst, s.bytes, static_cast<size_t>(itemsize(t)));
      return true;
  }
  return false;
}

void check_shape_broadcasts(const Shape& shape, const Shape& out) {
  Shape b = broadcast_shapes(shape, out);
  if (b != out)
    throw ValueError("non-broadcastable output operand with shape " + shape_str_compact(out) +
                     " doesn't match the broadcast shape " + shape_str_compact(b));
}

// nullopt as an lvalue, so that choosing between it and a given axis copies neither.
const std::optional<std::vector<std::int64_t>>& all_axes() {
  static const std::optional<std::vector<std::int64_t>> all;
  return all;
}

}  // namespace

int scalar_code(const Scalar& s) {
  switch (s.tag) {
    case Scalar::Tag::Bool:
      return static_cast<int>(DType::Bool);
    case Scalar::Tag::Float:
      return kWeakFloat;
    case Scalar::Tag::Complex:
      return kWeakComplex;
    case Scalar::Tag::Typed:
      return static_cast<int>(s.dtype);
    default:
      return kWeakInt;
  }
}

void set_scalar_hook(ScalarHook hook) { g_scalar_hook = hook; }

void scalar_to_loop(const Scalar& s, DType t, char* dst) {
  if (convert(s, t, dst)) return;
  if (!g_scalar_hook) throw TypeError(std::string("cannot convert a scalar to ") + name(t));
  g_scalar_hook(s, t, dst);
}

bool int_fits(const Scalar& s, DType t) {
  switch (s.tag) {
    case Scalar::Tag::Int:
      return fits(s.i, t);
    case Scalar::Tag::UInt:
      return t == DType::UInt64;
    default:
      return false;
  }
}

int int_sign(const Scalar& s) {
  if (s.tag == Scalar::Tag::UInt) return 1;
  if (s.tag == Scalar::Tag::BigInt) return s.i > 0 ? 1 : -1;
  return s.i > 0 ? 1 : s.i < 0 ? -1 : 0;
}

const Shape& broadcast_arrays(const Array* arrays, int n, Shape& storage) {
  const Shape* shape = &arrays[0].shape();
  for (int k = 1; k < n; ++k)
    if (arrays[k].shape() != *shape) {
      storage = broadcast_shapes(*shape, arrays[k].shape());
      shape = &storage;
    }
  return *shape;
}

bool overlaps_partially(const Array& out, const Array& in) {
  if (out.buffer() != in.buffer() || out.size() == 0 || in.size() == 0) return false;
  if (out.data() == in.data() && out.shape() == in.shape() && out.strides() == in.strides()) return false;
  auto [o_lo, o_hi] = byte_extent(out.shape(), out.strides(), out.itemsize());
  auto [i_lo, i_hi] = byte_extent(in.shape(), in.strides(), in.itemsize());
  o_lo += out.offset(), o_hi += out.offset(), i_lo += in.offset(), i_hi += in.offset();
  return o_lo < i_hi && i_lo < o_hi;
}

// ---- ElementwiseOperands ---------------------------------------------------------------------------------

void ElementwiseOperands::too_many(const char* op) {
  throw ValueError(std::string(op) + " takes at most " + std::to_string(kMaxOperands) + " inputs and outputs together");
}

void ElementwiseOperands::broadcast_with(const Shape& shape) {
  try {
    broadcast_ = broadcast_shapes(*shape_, shape);
    shape_ = &broadcast_;
  } catch (const ValueError& e) {
    if (broadcast_error_.empty()) broadcast_error_ = e.what();
  }
}

void ElementwiseOperands::check_broadcast() const {
  if (!broadcast_error_.empty()) throw ValueError(broadcast_error_);
}

void ElementwiseOperands::set_input(int i, const Scalar& s) {
  scalars_[i] = &s;
  codes_[i] = scalar_code(s);
}

void ElementwiseOperands::set_output(int o, const Array& out, DType loop, Casting casting) {
  // NumPy's order: the output's casting error, then the inputs' broadcast error, then the output's shape.
  check_output_cast(op_, nout_, loop, out.dtype(), casting, nin_ + o);
  check_broadcast();
  given_[o] = &out;
  if (*shape_ != out.shape()) {
    check_shape_broadcasts(*shape_, out.shape());
    shape_ = &out.shape();
  }
}

void ElementwiseOperands::convert_scalars(const DType* in) {
  check_broadcast();
  for (int i = 0; i < nin_; ++i) convert_scalar(i, in[i]);
}

void ElementwiseOperands::allocate(const DType* out, char order) {
  check_broadcast();
  // Order 'K': the common memory order of the inputs and the given outputs, in NumPy's order of operands (Note
  // [Layout of new arrays] in shape.h).
  const Array* arrays[kMaxOperands];
  int n = 0;
  for (int i = 0; i < nin_; ++i)
    if (in_[i].array) arrays[n++] = in_[i].array;
  for (int o = 0; o < nout_; ++o)
    if (given_[o]) arrays[n++] = given_[o];
  for (int o = 0; o < nout_; ++o) {
    Array* slot = &out_[n_out_];
    if (given_[o])
      new (slot) Array(*given_[o]);
    else if (order == 'A')  // NumPy's: F where every array operand is F-contiguous, else C
      new (slot)
          Array(*shape_, out[o],
                n > 0 && std::all_of(arrays, arrays + n, [](const Array* a) { return a->f_contiguous(); }) ? Order::F
                                                                                                           : Order::C);
    else if (order == 'F' || order == 'C')
      new (slot) Array(*shape_, out[o], order == 'F' ? Order::F : Order::C);
    else
      new (slot) Array(Array::like_all(*shape_, out[o], arrays, n, LayoutRule::Iterator));
    ++n_out_;
  }
}

// ---- ReductionOperands -----------------------------------------------------------------------------------

ReductionOperands::ReductionOperands(const ReductionDef& def, const Array* inputs, int nin,
                                     const std::optional<std::vector<std::int64_t>>& axis, bool int_axis, bool keepdims)
    : def_(def),
      inputs_(inputs),
      keepdims_(keepdims),
      shape_(&broadcast_arrays(inputs, nin, broadcast_)),
      reduced_(reduced_axes(static_cast<int>(shape_->size()),
                            int_axis && axis && reads_zero_d_axis(def, inputs[0], *axis) ? all_axes() : axis)) {}

void ReductionOperands::set_output(const Array& out) {
  Shape expected = reduced_shape(*shape_, reduced_, keepdims_);
  if (out.shape() != expected)
    throw ValueError("output parameter for reduction operation " + def_.name + " has the wrong shape: found " +
                     shape_str(out.shape()) + " but expected " + shape_str(expected));
  if (!keepdims_) {
    kernel_out_.emplace(out);
    return;
  }
  // The kernel writes the output without its kept length-1 axes.
  Shape shape;
  Strides strides;
  for (size_t d = 0; d < reduced_.size(); ++d)
    if (!reduced_[d]) {
      shape.push_back(out.shape()[d]);
      strides.push_back(out.strides()[d]);
    }
  kernel_out_.emplace(out.view(std::move(shape), std::move(strides)));
}

// NumPy's iterator lays a reduction's new result out in the memory order of the input's kept axes (Note [Layout of
// new arrays] in shape.h, reduction_strides): `x.sum(axis=1)` of a permuted 3-D array is not C-ordered. Its index
// reductions (argmax and kin) make C-ordered results, and so do CuPy's ReductionKernels, which are not built-in rows.
Array ReductionOperands::new_result(DType result) const {
  Shape kept = reduced_shape(*shape_, reduced_, false);
  const int nin = def_.nin;
  const bool built_in = def_.id < reductions().size() && &reductions()[def_.id] == &def_;
  bool c_order = def_.uses_index || !built_in || kept.size() < 2 || size_of(kept) == 0;
  for (int k = 0; k < nin && !c_order; ++k) c_order = inputs_[k].c_contiguous() && inputs_[k].size() != 0;
  if (c_order) return Array(std::move(kept), result);
  LayoutOperand layout[kMaxOperands];
  for (int k = 0; k < nin; ++k) layout[k] = {&inputs_[k].shape(), &inputs_[k].strides()};
  Strides st = reduction_strides(*shape_, reduced_, layout, nin, itemsize(result));
  return Array::from_memory(nullptr, 0, std::move(kept), std::move(st), result, Order::C);
}

void ReductionOperands::run(const DType* in_types, DType out_loop, DType result, double ddof) {
  if (!kernel_out_) kernel_out_.emplace(new_result(result));
  reduce(def_, in_types, out_loop, inputs_, *kernel_out_, reduced_, ddof);
}

Array ReductionOperands::take_result() {
  if (!keepdims_) return std::move(*kernel_out_);
  Shape kept = reduced_shape(*shape_, reduced_, true);
  if (kernel_out_->c_contiguous()) {
    Strides strides = c_strides(kept, kernel_out_->itemsize());
    return kernel_out_->view(std::move(kept), std::move(strides));
  }
  // The kept length-1 axes take the stride of the axis after them (any stride addresses a length-1 axis).
  Strides strides(kept.size());
  std::int64_t next = kernel_out_->itemsize();
  for (std::size_t d = kept.size(), j = kernel_out_->ndim(); d-- > 0;) {
    if (reduced_[d]) {
      strides[d] = next;
    } else {
      strides[d] = kernel_out_->strides()[--j];
      next = strides[d];
    }
  }
  return kernel_out_->view(std::move(kept), std::move(strides));
}

}  // namespace cuarray::ops
