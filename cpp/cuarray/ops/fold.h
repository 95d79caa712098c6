// ufunc.reduce, accumulate and reduceat of the two-input ufuncs that have no reduction row: NumPy's
// sequential fold along one axis, one thread per output, with the ufunc's own loop body (kernels/fold.cuh).
#pragma once

#include <cstdint>

#include "cuarray/array.h"
#include "cuarray/ops/kernel_registry.h"
#include "cuarray/ops/ufunc.h"

namespace cuarray::ops {

enum class FoldKind : std::uint8_t {
  Reduce,      // out = op(...op(op(a0, a1), a2)..., an-1), or from `initial`
  Accumulate,  // out[j] = op(out[j - 1], a[j]), out[0] = a[0]
  Segments,    // reduceat: out[k] folds a[starts[k]:starts[k + 1]]
};

// What one fold runs: ufunc `u`'s loop (acc, elem) -> acc, whose output type is its first input's.
struct FoldLoop {
  const Ufunc* u;
  DType acc, elem;
};

// Optional parts of a fold. `initial` is the start value in the loop's acc type, as its bytes (Reduce only);
// `where` is a bool array of a's shape (Reduce with `initial` only); `starts` an int64 array of segment starts,
// each in [0, n): a precondition the caller checks, since reading them would wait for the device (Segments only).
// `chunk` > 0 keeps a float16 running value in float, rounded every `chunk` elements (Note [Wide float16 folds] in
// fold.cpp).
struct FoldOptions {
  const void* initial = nullptr;
  const Array* where = nullptr;
  const Array* starts = nullptr;
  std::int64_t chunk = 0;
};

// Folds `a` along its last axis into `out`: a's shape without the last axis (Reduce), a's shape (Accumulate),
// or a's shape with starts.size() last (Segments). Elements are cast to the loop's types as they are read and
// the results to out's dtype as they are stored. `a` has at least one dimension and, for Accumulate and
// Segments, a last axis of length >= 1 where anything is computed. Ordered on the current stream.
void fold(const FoldLoop& loop, FoldKind kind, const Array& a, const Array& out, const FoldOptions& options = {});

// The generated kernel, for tests that compile every variant without a device: `in`/`out` are the storage
// dtypes, `rows_ndim` the coalesced dimensions of the rows.
KernelSource fold_source(const FoldLoop& loop, FoldKind kind, DType in, DType out, bool initial, bool where, bool wide,
                         int rows_ndim);

}  // namespace cuarray::ops
