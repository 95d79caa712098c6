// One call of a ufunc of ops/ufuncs.def, from its converted arguments to its outputs: the steps every caller
// (a ufunc object, an ndarray operator) takes in NumPy's order, over the operand builder (Note [Operand
// builder] in operands.h) and the type resolver (Note [Type resolution] in type_resolution.h).
#pragma once

#include "cuarray/ops/operands.h"
#include "cuarray/ops/ufunc.h"

namespace cuarray::ops {

// The steps, in the order NumPy checks them, each raising NumPy's error: the constructor (the number of
// inputs), set_input for each input, resolve() (the loop), set_output for each `out=` array, run() (the
// broadcast, the scalars, the outputs not given, the launch). Holds pointers to the arrays and scalars it is
// given, which must outlive it; not copyable.
class UfuncCall {
 public:
  // TypeError with Python's message when `nargs` is not the ufunc's number of inputs.
  UfuncCall(int index, int nargs);

  const Ufunc& ufunc() const { return u_; }
  const char* name() const { return u_.def.name.c_str(); }
  int nout() const { return u_.def.nout; }

  void set_input(int i, const Array& a) { operands_.set_input(i, a); }
  void set_input(int i, const Scalar& s) { operands_.set_input(i, s); }
  // The loop NumPy picks for the inputs, `dtype` (a DType's value or kNoDType) and `casting`.
  void resolve(int dtype, Casting casting);
  // Output o given by out= (after resolve()).
  void set_output(int o, const Array& out) { operands_.set_output(o, out, loop_.out[o], casting_); }
  // Computes the outputs; those not given are new, in `order` ('K', 'C' or 'F').
  void run(char order);

  bool given(int o) const { return operands_.given(o); }
  // The loop's types (after resolve()).
  const LoopTypes& loop() const { return loop_; }
  // Output o after run(), to move out.
  Array& output(int o) { return operands_.output(o); }

 private:
  // The first Python int input out of its integer loop type's range, or -1 (Note [Out-of-range comparisons]).
  int out_of_range_int() const;

  const Ufunc& u_;
  const int index_;
  Casting casting_ = Casting::SameKind;
  LoopTypes loop_{};
  ElementwiseOperands operands_;
};

// The ufunc that NumPy's ndarray `**` computes for an array of dtype `base` to the scalar `exponent`
// (fast_scalar_power: reciprocal, square or sqrt for a float16/32/64 or complex base and a Python int -1 or
// 2 or a Python float 0.5, which differ from power; square for a bool base and a Python int 2), or -1 for
// power itself.
int power_operator_ufunc(DType base, const Scalar& exponent);

// NumPy's `==` (or `!=`, `not_equal`) of an array of `shape` with an object no array protocol knows (None,
// a string): every element unequal.
Array incomparable_result(const Shape& shape, bool not_equal);

}  // namespace cuarray::ops
