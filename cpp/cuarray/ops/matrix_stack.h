// What the cuSOLVER-based ops share: stacks of matrices (the last two dimensions) in the layouts cuSOLVER
// takes, LAPACK's `info` values, and two small element operations (zeroing a triangle, conjugating).
#pragma once

#include <cstdint>

#include "cuarray/array.h"
#include "cuarray/cuda/event.h"
#include "cuarray/cuda/pinned_memory.h"

namespace cuarray::ops {

struct MatrixStack {
  Shape batch;         // the leading dimensions
  std::int64_t count;  // how many matrices
  std::int64_t rows, cols;
};
// The stack `a` (ndim >= 2) is; ValueError naming `op` otherwise.
MatrixStack matrix_stack(const Array& a, const char* op);

// A new stack with a's values, each matrix column-major (leading dimension rows) and the matrices one after
// another: matrix i starts at matrix(x, i).
Array column_major_copy(const Array& a);
// A new C-contiguous stack with a's values (matrix i row-major at matrix(x, i)).
Array row_major_copy(const Array& a);
// Matrix i of a contiguous stack made by the two functions above (or any C-ordered stack of the same shape).
char* matrix(const Array& stack, std::int64_t i);
// A new C-contiguous stack of n x n identity matrices.
Array identity_stack(const Shape& batch, std::int64_t n, DType t);
// The view of `a` with its last two dimensions swapped.
Array transpose_matrices(const Array& a);

// `count` LAPACK info values in device memory, written by the routines and checked once at the end.
class Infos {
 public:
  explicit Infos(std::int64_t count);
  int* at(std::int64_t i) const { return reinterpret_cast<int*>(values_.data()) + i; }
  // Queues a copy of the values as the work queued so far leaves them, so that check() waits for that work
  // only (check() takes it when none was taken).
  void snapshot();
  // Waits for the snapshot (else the current stream) and reads the values: LinAlgError(`message`) if any is
  // positive; a negative one (an argument cuSOLVER rejected) is CudaError naming `routine`. On a stream the user
  // made, unless `now`, the values are read at the thread's next wait instead (Note [Deferred checks]).
  void check(const char* routine, const char* message, bool now = false);
  // Value i, after waiting for the current stream.
  int value(std::int64_t i) const;

 private:
  std::int64_t count_;
  Array values_;
  std::shared_ptr<cuda::PinnedBuffer> host_;  // the snapshot, once taken
  std::shared_ptr<cuda::Event> taken_;
};

// Zeroes the elements of every matrix of `a` above diagonal 0 (keep_lower) or below it, in place.
void zero_triangle(const Array& a, bool keep_lower);
// conj(a) as a new array for complex dtypes; `a` itself otherwise.
Array conjugate(const Array& a);

}  // namespace cuarray::ops
