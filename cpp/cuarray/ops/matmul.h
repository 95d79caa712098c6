// NumPy's matmul on cuBLAS (float16, bfloat16, float32, float64, complex64, complex128) and on a generated
// kernel for integers and bool, and the vector dot product beneath dot, vdot and inner.
#pragma once

#include <cstdint>

#include "cuarray/array.h"
#include "cuarray/ops/kernel_registry.h"

namespace cuarray::ops {

// The shapes of one matmul, checked in the order and with the messages of NumPy's gufunc machinery
// (signature (n?,k),(k,m?)->(n?,m?)). Throws ValueError.
struct MatmulShapes {
  Shape batch;              // the broadcast stack dimensions (out's, when out= is given)
  std::int64_t n, k, m;     // n = 1 when a is 1-D, m = 1 when b is 1-D
  bool a_vector, b_vector;  // a (b) is 1-D: its missing dimension is not in the result
  Shape result;             // batch, then n unless a_vector, then m unless b_vector
};
MatmulShapes matmul_shapes(const Shape& a, const Shape& b, const Shape* out);

// a @ b for a and b of one dtype. Into `out` (any dtype; values are cast to it) when given, else into a new
// C-contiguous array of that dtype. Layouts cuBLAS cannot take are copied first; an `out` that shares memory
// with an input, or that cuBLAS cannot write, is filled through a temporary.
Array matmul(const Array& a, const Array& b, const Array* out);

// sum(a * b), or sum(conj(a) * b) with `conjugate`, of two 1-D arrays of one dtype and length, into the 0-d
// array `out` of that dtype. The one place 1-D dot products are computed (matmul, dot, vdot, inner).
void vector_dot(const Array& a, const Array& b, bool conjugate, const Array& out);

// The generated kernel, exposed so that tests can compile every variant without a device.
KernelSource matmul_integer_source(DType t, bool wide);
// The one-launch kernel for small float and complex products (every dimension a few hundred at most).
KernelSource matmul_small_source(DType t);

}  // namespace cuarray::ops
