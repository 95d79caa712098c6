#include "cuarray/ops/ufunc_call.h"

#include <optional>
#include <string>

#include "cuarray/error.h"
#include "cuarray/ops/auto_fusion.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/creation.h"

namespace cuarray::ops {

namespace {

// Note [Out-of-range comparisons]
// NumPy compares an integer array with a Python int outside the loop type's range by value (NEP 50): every
// element is then on the same side, and the result is a constant, where any other ufunc raises NumPy's
// OverflowError for that int. The scalars before it are converted first (their errors come first, as NumPy
// converts in order), and the constant fills the output, cast as a bool result is cast into a given `out=`.
// Two Python ints alone compare by their values in NumPy (`equal(2**63, 2**63)` is True), which the constant
// would not give: the bindings, which hold their values, replace them first by small ints in the same order
// (order_python_ints in python/src/ufunc.cpp), so this path sees no out-of-range int then.
//
// The constant of comparison `u` with the Python int `s` out of range as operand `scalar_index`, or nullopt
// when `u` is no comparison.
std::optional<bool> comparison_constant(const Ufunc& u, const Scalar& s, int scalar_index) {
  static const char* const names[] = {"less", "less_equal", "greater", "greater_equal", "equal", "not_equal"};
  int op = -1;
  for (int k = 0; k < 6; ++k)
    if (u.def.name == names[k]) op = k;
  if (op < 0) return std::nullopt;
  const bool huge = int_sign(s) > 0;
  const bool array_is_less = scalar_index == 1 ? huge : !huge;  // "array OP scalar" from the left operand
  switch (op) {
    case 0:
    case 1:
      return array_is_less;
    case 2:
    case 3:
      return !array_is_less;
    case 4:
      return false;
    default:
      return true;
  }
}

}  // namespace

UfuncCall::UfuncCall(int index, int nargs)
    : u_(ufuncs()[index]), index_(index), operands_(u_.def.name.c_str(), u_.def.nin, u_.def.nout) {
  const int nin = u_.def.nin;
  if (nargs != nin)
    throw TypeError(u_.public_name + "() takes " + std::to_string(nin) + " positional input argument" +
                    (nin == 1 ? "" : "s") + " but " + std::to_string(nargs) + " were given");
}

void UfuncCall::resolve(int dtype, Casting casting) {
  // Time arrays are refused whatever their size: an empty one has no kernel to refuse it (Note [Datetime storage]).
  for (int i = 0; i < u_.def.nin; ++i) {
    const int code = operands_.code(i);
    if (code < kNumDTypes && is_storage_only(static_cast<DType>(code)))
      check_computable(static_cast<DType>(code), name());
  }
  casting_ = casting;
  loop_ = resolve_loop(index_, name(), u_.def.nin, u_.def.nout, operands_.codes(), dtype, casting);
}

int UfuncCall::out_of_range_int() const {
  for (int i = 0; i < u_.def.nin; ++i) {
    const Scalar* s = operands_.scalar(i);
    if (s && operands_.code(i) == kWeakInt && is_integer(loop_.in[i]) && !int_fits(*s, loop_.in[i])) return i;
  }
  return -1;
}

void UfuncCall::run(char order) {
  const int wide = out_of_range_int();
  const std::optional<bool> constant = wide < 0 ? std::nullopt : comparison_constant(u_, *operands_.scalar(wide), wide);
  if (constant) {  // Note [Out-of-range comparisons]
    operands_.check_broadcast();
    for (int i = 0; i < wide; ++i) operands_.convert_scalar(i, loop_.in[i]);
    operands_.allocate(loop_.out, order);
    const Array& out = operands_.output(0);
    if (out.dtype() == DType::Bool) {
      const char value = *constant;
      fill(out, &value);
    } else {
      copy_into(out, incomparable_result(out.shape(), *constant));  // cast as the bool result would be
    }
    return;
  }
  operands_.convert_scalars(loop_.in);
  static const int power = ufunc_index("power");
  if (index_ == power) check_power_exponent(operands_.inputs()[1], loop_.in[1], operands_.shape());
  operands_.allocate(loop_.out, order);
  const ElementwiseDef& def = ufunc_def_for(u_, loop_.in, operands_.inputs(), operands_.shape());
  // A new array may wait to be computed with the ops around it (Note [Automatic fusion] in auto_fusion.h).
  if (u_.def.nout == 1 && !operands_.given(0) &&
      record_ufunc(index_, def, loop_.in, loop_.out, operands_.inputs(), operands_.output(0), operands_.shape()))
    return;
  elementwise(def, loop_.in, loop_.out, operands_.inputs(), operands_.outputs(), operands_.shape());
}

int power_operator_ufunc(DType base, const Scalar& exponent) {
  static const int reciprocal = ufunc_index("reciprocal"), square = ufunc_index("square"), sqrt = ufunc_index("sqrt");
  // A bool array squared is int8 (square's loop), where power with a Python int gives int64.
  if (base == DType::Bool) return exponent.tag == Scalar::Tag::Int && exponent.i == 2 ? square : -1;
  if (base != DType::Float16 && base != DType::Float32 && base != DType::Float64 && !is_complex(base)) return -1;
  if (exponent.tag == Scalar::Tag::Int) return exponent.i == -1 ? reciprocal : exponent.i == 2 ? square : -1;
  if (exponent.tag == Scalar::Tag::Float) return exponent.re == 0.5 ? sqrt : -1;
  return -1;
}

Array incomparable_result(const Shape& shape, bool not_equal) {
  Array out = zeros(shape, DType::Bool);
  if (not_equal && out.size()) fill(out, &not_equal);
  return out;
}

}  // namespace cuarray::ops
