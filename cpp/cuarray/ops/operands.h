// The operands of an elementwise or reduction call: one builder for every caller (ufuncs, reductions, fused
// functions), from the operands as given to what a launch needs.
//
// Note [Operand builder]
// A call goes through the same steps whoever makes it: array inputs broadcast together (NumPy's message when
// they do not); scalars kept as tagged values until the loop is known, then converted once to the loop type;
// outputs given by `out=` checked against the broadcast shape (an output may broadcast the iteration up, never
// down) and against the casting rule, the missing ones allocated in NumPy's layout ('K' follows the first
// input of the output's shape, else C order; or 'C'/'F' as asked). The launch side (elementwise(), reduce())
// then checks devices, sends outputs that partly overlap an input through temporaries and coalesces the
// dimensions in memory order (shape.h's IterDims) with the 32/64-bit index choice. The builder holds its
// operands in place: a call allocates nothing on the host beyond its outputs.
#pragma once

#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "cuarray/array.h"
#include "cuarray/ops/elementwise.h"
#include "cuarray/ops/type_resolution.h"

namespace cuarray::ops {

// A scalar operand as the bindings hand it over: a Python bool, int (as int64, as uint64 past int64's range,
// or marked too large, with its sign in `i`: 1 or -1), float or complex, or a NumPy scalar (its dtype and
// bytes).
struct Scalar {
  enum class Tag : std::uint8_t { Bool, Int, UInt, BigInt, Float, Complex, Typed };
  Tag tag = Tag::Int;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double re = 0, im = 0;
  DType dtype = DType::Bool;        // Typed
  alignas(16) char bytes[16] = {};  // Typed: the value in `dtype`
  const void* source = nullptr;     // the object it came from, for the conversion hook only
};
// The signature code of a scalar (type_resolution.h): Python int/float/complex are weak, the rest their dtype.
int scalar_code(const Scalar& s);
// Conversions the core leaves to NumPy (16-bit floats from non-exact values, NumPy scalars of another dtype,
// ints out of the loop type's range): writes `t`'s compute representation or throws NumPy's error.
using ScalarHook = void (*)(const Scalar& s, DType t, char* dst);
void set_scalar_hook(ScalarHook hook);
// `s` in loop type `t`, in the representation kernels compute with (16-bit floats widen to float).
void scalar_to_loop(const Scalar& s, DType t, char* dst);
// Of a Python int (tag Int, UInt or BigInt): whether it is in integer type `t`'s range, and its sign.
bool int_fits(const Scalar& s, DType t);
int int_sign(const Scalar& s);

// The operands of one elementwise call (Note [Operand builder]). Holds pointers to the arrays it is given,
// which must outlive it; not copyable.
class ElementwiseOperands {
 public:
  ElementwiseOperands(const char* op, int nin, int nout) : op_(op), nin_(nin), nout_(nout) {
    if (nin < 0 || nout < 0 || nin + nout > kMaxOperands) too_many(op);
    for (int i = 0; i < nin; ++i) {
      new (&in_[i]) Input();
      codes_[i] = 0;
      scalars_[i] = nullptr;
    }
    for (int o = 0; o < nout; ++o) given_[o] = nullptr;
  }
  ~ElementwiseOperands() {
    for (int o = 0; o < n_out_; ++o) out_[o].~Array();
  }
  ElementwiseOperands(const ElementwiseOperands&) = delete;
  ElementwiseOperands& operator=(const ElementwiseOperands&) = delete;

  // Input i: an array, broadcast with the others (ValueError naming both shapes).
  void set_input(int i, const Array& a) {
    in_[i].array = &a;
    codes_[i] = static_cast<int>(a.dtype());
    // Usually every array has the same shape, and then no new Shape is built.
    if (!any_array_)
      shape_ = &a.shape();
    else if (*shape_ != a.shape())
      broadcast_with(a.shape());
    any_array_ = true;
  }
  // Input i: a scalar (kept by pointer, so it must outlive the call), converted by convert_scalars().
  void set_input(int i, const Scalar& s);
  // The signature code of input i (its dtype, or scalar_code()).
  int code(int i) const { return codes_[i]; }
  const int* codes() const { return codes_; }
  // Output o given by out=: its shape must be one the inputs broadcast to (NumPy's ValueError otherwise) and
  // its dtype one that loop type `loop` casts to under `casting` (NumPy's TypeError otherwise).
  void set_output(int o, const Array& out, DType loop, Casting casting);
  bool given(int o) const { return given_[o] != nullptr; }
  // The iteration shape: the broadcast of the array inputs and given outputs.
  const Shape& shape() const { return *shape_; }

  // Input i's scalar, or null for an array.
  const Scalar* scalar(int i) const { return scalars_[i]; }
  // Raises the inputs' broadcast error, then converts the scalars to loop types `in`, in order.
  void convert_scalars(const DType* in);
  // Input i, if a scalar, to loop type `t` (scalar_to_loop()), for callers that order the steps themselves.
  void convert_scalar(int i, DType t) {
    if (scalars_[i]) scalar_to_loop(*scalars_[i], t, in_[i].value);
  }
  // Raises the inputs' broadcast error, if any (set_output, convert_scalars and allocate do first).
  void check_broadcast() const;
  // Allocates the outputs not given, of loop types `out`, in `order` ('K', 'C' or 'F').
  void allocate(const DType* out, char order);

  const Input* inputs() const { return in_; }
  const Array* outputs() const { return out_; }
  Array& output(int o) { return out_[o]; }
  // The outputs, moved out: call it last.
  std::vector<Array> take_outputs() {
    return std::vector<Array>(std::make_move_iterator(out_), std::make_move_iterator(out_ + n_out_));
  }

 private:
  [[noreturn]] static void too_many(const char* op);
  // Broadcasts the iteration shape with `shape`, keeping the first error for check_broadcast().
  void broadcast_with(const Shape& shape);

  static inline const Shape scalar_shape_;
  const char* op_;
  int nin_, nout_;
  bool any_array_ = false;
  // Sized for the most operands a kernel takes, but only the call's own slots are initialised (by the
  // constructor): zeroing them all would cost a small call more than its operands do.
  union {
    Input in_[kMaxOperands];
  };
  int codes_[kMaxOperands];
  const Scalar* scalars_[kMaxOperands];
  const Array* given_[kMaxOperands];
  const Shape* shape_ = &scalar_shape_;
  Shape broadcast_;
  // Inputs that do not broadcast: NumPy reports the types' error first, so this one waits for the next step
  // (set_output, convert_scalars or allocate), after the loop is resolved.
  std::string broadcast_error_;
  // The outputs, in place: a vector of them cost every small call an allocation. The first n_out_ are built.
  union {
    Array out_[kMaxOperands];
  };
  int n_out_ = 0;
};

struct ReductionDef;

// The operands of one reduction call: inputs broadcast together, the axes normalised, the output checked or
// allocated (Note [Operand builder]).
class ReductionOperands {
 public:
  // `inputs`: def.nin arrays (ValueError otherwise); `axis`: nullopt for all; `int_axis`: `axis` was given
  // as one integer, which a 0-d input may read as its one element (Note [Axes of 0-d arrays] in
  // reduction.cpp).
  ReductionOperands(const ReductionDef& def, const Array* inputs, int nin,
                    const std::optional<std::vector<std::int64_t>>& axis, bool int_axis, bool keepdims);
  ReductionOperands(const ReductionOperands&) = delete;
  ReductionOperands& operator=(const ReductionOperands&) = delete;

  const Shape& shape() const { return *shape_; }
  const std::vector<bool>& reduced() const { return reduced_; }
  // out=: its shape must be the result's (with kept axes when keepdims); NumPy's ValueError otherwise.
  void set_output(const Array& out);
  // Reduces in loop types `in_types` and `out_loop` into the output given, or a new result of dtype `result`.
  void run(const DType* in_types, DType out_loop, DType result, double ddof = 0);
  // What the call returns (a new result, with kept axes when keepdims), moved out: call it last.
  Array take_result();

 private:
  const ReductionDef& def_;
  const Array* inputs_;
  bool keepdims_;
  Shape broadcast_;  // before shape_, which the constructor may point at it (members initialise in this order)
  const Shape* shape_;
  std::vector<bool> reduced_;
  std::optional<Array> kernel_out_;  // what the kernel writes: the result without kept length-1 axes

  // A new result of dtype `result`, without kept axes, laid out as NumPy's.
  Array new_result(DType result) const;
};

// The broadcast shape of `arrays`: the first array's own shape when all agree (no copy), else `storage`.
const Shape& broadcast_arrays(const Array* arrays, int n, Shape& storage);
// Whether `out` and `in` share memory other than as the very same view (the output must then be computed
// through a temporary).
bool overlaps_partially(const Array& out, const Array& in);

}  // namespace cuarray::ops
