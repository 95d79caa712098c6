// ufunc.reduce, accumulate and reduceat of the ufuncs without a reduction row (ops/fold.cpp): one thread per
// output folds its row along the last axis, in order, with the ufunc's own loop body.
//
// The generated Op supplies acc_t (the compute type of the loop's first input and output) and
//   first(p)     an element as the running value's type (NumPy copies the first element into the result),
//   element(p)   an element as the loop's second input,
//   step(a, b)   the body on (a, b), unrounded,
//   round(a)     a rounded to the loop type (float16 and bfloat16 are computed in float),
//   store(p, a)  a cast into the output,
//   start        the initial value, where there is one.
// Offsets come from Strided rows of K operands: the output, the input, and the mask.
#pragma once

#include "cuarray/cast.cuh"
#include "cuarray/elementwise.cuh"
#include "cuarray/strided.cuh"

namespace ca {

// Note [Wide float16 folds] in ops/fold.cpp: with Wide, the running value is rounded only every `chunk`
// elements, at an element the mask leaves out, and on store.
template <bool Wide, class Op>
__device__ __forceinline__ typename Op::acc_t fold_step(const Op& op, typename Op::acc_t a, const char* p, long long j,
                                                        long long chunk) {
  a = op.step(a, op.element(p));
  if constexpr (Wide)
    return (j + 1) % chunk == 0 ? op.round(a) : a;
  else
    return op.round(a);
}

// reduce: the fold of each row, from `start` (Initial) or the row's first element, over the elements the mask
// keeps (Where).
template <bool Initial, bool Where, bool Wide, class Op, int N, int K>
__device__ __forceinline__ void fold_reduce(const Op& op, const char* in, char* out, const char* where,
                                            const Strided<N, K>& rows, long long nrows, long long n, long long in_step,
                                            long long where_step, long long chunk) {
  for (long long r = global_thread<long long>(); r < nrows; r += grid_threads<long long>()) {
    long long off[K];
    offsets(rows, r, off);
    const char* p = in + off[1];
    typename Op::acc_t a;
    long long j = 0;
    if constexpr (Initial) {
      a = op.start;
    } else {
      a = op.first(p);
      j = 1;
    }
    for (; j < n; ++j) {
      if constexpr (Where) {
        if (!cast<bool>(at<bool_byte>(where + off[K - 1], j * where_step))) {
          if constexpr (Wide) a = op.round(a);
          continue;
        }
      }
      a = fold_step<Wide>(op, a, p + j * in_step, j, chunk);
    }
    op.store(out + off[0], a);
  }
}

// accumulate: every partial fold of each row, from its first element.
template <class Op, int N, int K>
__device__ __forceinline__ void fold_accumulate(const Op& op, const char* in, char* out, const Strided<N, K>& rows,
                                                long long nrows, long long n, long long in_step, long long out_step) {
  for (long long r = global_thread<long long>(); r < nrows; r += grid_threads<long long>()) {
    long long off[K];
    offsets(rows, r, off);
    const char* p = in + off[1];
    char* q = out + off[0];
    typename Op::acc_t a = op.first(p);
    op.store(q, a);
    for (long long j = 1; j < n; ++j) {
      a = fold_step<false>(op, a, p + j * in_step, j, 1);
      op.store(q + j * out_step, a);
    }
  }
}

// reduceat: output k of each row folds the row's elements from starts[k] up to starts[k + 1] (to the end for
// the last), or is the element at starts[k] alone where starts[k + 1] <= starts[k]. One thread per output.
template <bool Wide, class Op, int N, int K>
__device__ __forceinline__ void fold_segments(const Op& op, const char* in, char* out, const Strided<N, K>& rows,
                                              long long nrows, long long n, long long in_step, long long out_step,
                                              const long long* starts, long long nseg, long long chunk) {
  for (long long t = global_thread<long long>(); t < nrows * nseg; t += grid_threads<long long>()) {
    const long long r = t / nseg, k = t % nseg;
    long long off[K];
    offsets(rows, r, off);
    const long long start = starts[k];
    long long stop = k + 1 < nseg ? starts[k + 1] : n;
    if (stop <= start) stop = start + 1;
    const char* p = in + off[1];
    typename Op::acc_t a = op.first(p + start * in_step);
    for (long long j = start + 1; j < stop; ++j) a = fold_step<Wide>(op, a, p + j * in_step, j - start, chunk);
    op.store(out + off[0] + k * out_step, a);
  }
}

}  // namespace ca
