#include "cuarray/ops/fold.h"

#include <cstring>
#include <string>
#include <vector>

#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"
#include "cuarray/ops/codegen.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/operands.h"
#include "cuarray/ops/strided_args.h"

namespace cuarray::ops {

// Note [Folds]
// NumPy's reduce of a ufunc without a reduction of its own is its inner loop run with the result as the first
// input and as the output: out = op(op(op(a0, a1), a2), ...), in that order along the axis, each step in the
// loop's types. Most of these ufuncs (subtract, divide, power, arctan2, ...) are not associative, so no tree
// of partial results gives NumPy's answer: each thread folds one row on its own, reading the elements
// `in_step` apart, with the elementwise kernel's body for the loop, so a step gives what the ufunc gives
// elementwise. accumulate stores every step; reduceat folds each segment. The Python side
// (cuarray/_fold.py) picks NumPy's loop, moves the folded axis last (several axes, for the ufuncs NumPy lets
// fold over several, merged in NumPy's order), and checks NumPy's errors; rows are coalesced in memory order
// so that neighbouring threads read neighbouring rows.
//
// Note [Wide float16 folds]
// NumPy's float16 subtract and divide loops (as add and multiply) keep the running value of a reduce in float
// through one call of the inner loop and round it to float16 when the call ends, where other loops, and
// every accumulate, round each step. How many elements one call covers is NumPy's iteration's choice:
// the whole row where the reduced axis is the iteration's innermost and nothing is cast, 8192 elements a
// buffer when a cast is needed (the first buffer one fewer, the row's first element having been copied into
// the result), a run of kept elements under `where`, and a single step where another axis is innermost.
// cuarray/_fold.py decides which; `chunk` > 0 asks the kernel for float steps rounded every `chunk`
// elements and at each element the mask leaves out (rounding a float16 value again changes nothing).

namespace {

using std::to_string;

const char* const kKindNames[] = {"r", "a", "s"};

std::string kernel_name(const FoldLoop& loop, FoldKind kind, DType in, DType out, bool initial, bool where, bool wide,
                        int ndim) {
  return std::string("fold_") + kKindNames[static_cast<int>(kind)] + "_" + loop.u->def.name + "_" + name(loop.acc) +
         "_" + name(loop.elem) + "_" + name(in) + "_o" + name(out) + (initial ? "_i" : "") + (where ? "_m" : "") +
         (wide ? "_w" : "") + "_" + to_string(ndim);
}

// The Op of kernels/fold.cuh for the loop: the body as a call operator, as the elementwise kernel has it
// (ops/elementwise_source.cpp), and the loads, rounding and store around it.
std::string op_struct(const std::string& op, const FoldLoop& loop, DType in, DType out) {
  const std::string acc = compute_type(loop.acc), elem = compute_type(loop.elem), acc_storage = cuda_type(loop.acc);
  const std::string value = std::string("ca::at<") + read_type(in) + ">(p, 0)";
  const bool narrow = acc != acc_storage;  // float16 and bfloat16 are computed in float
  return "struct " + op + " {\n  using acc_t = " + acc + ";\n  acc_t start;\n" +
         "  __device__ __forceinline__ void operator()(const acc_t in0, const " + elem +
         " in1, acc_t& out0) const {\n" + "    using in0_t = " + acc_storage +
         ";\n    using in1_t = " + cuda_type(loop.elem) + ";\n    using out0_t = " + acc_storage + ";\n    " +
         loop.u->def.body + "\n  }\n" + "  __device__ __forceinline__ acc_t first(const char* p) const { return " +
         load_expr(value, in, loop.acc) + "; }\n" + "  __device__ __forceinline__ " + elem +
         " element(const char* p) const { return " + load_expr(value, in, loop.elem) + "; }\n" +
         "  __device__ __forceinline__ acc_t step(const acc_t a, const " + elem +
         " b) const {\n    acc_t r;\n    (*this)(a, b, r);\n    return r;\n  }\n" +
         "  __device__ __forceinline__ acc_t round(const acc_t a) const { return " +
         (narrow ? "ca::cast<acc_t>(ca::cast<" + acc_storage + ">(a))" : std::string("a")) + "; }\n" +
         "  __device__ __forceinline__ void store(char* p, const acc_t a) const { ca::at<" + cuda_type(out) +
         ">(p, 0) = " + store_expr("a", loop.acc, out) + "; }\n};\n";
}

KernelKey fold_key(const FoldLoop& loop, FoldKind kind, DType in, DType out, bool initial, bool where, bool wide,
                   int ndim) {
  KernelKey key(KernelKind::Fold);
  key.add(loop.u->def.id, 9)
      .add(static_cast<int>(loop.acc), 5)
      .add(static_cast<int>(loop.elem), 5)
      .add(static_cast<int>(in), 5)
      .add(static_cast<int>(out), 5)
      .add(static_cast<int>(kind), 2)
      .add(initial, 1)
      .add(where, 1)
      .add(wide, 1)
      .add(ndim, 7);
  return key;
}

void check_loop(const FoldLoop& loop) {
  // Time types first: they have no type character (Note [Datetime storage] in dtype.h).
  check_computable(loop.acc, "ufunc.reduce");
  check_computable(loop.elem, "ufunc.reduce");
  const Ufunc& u = *loop.u;
  const DType in[2] = {loop.acc, loop.elem}, out[1] = {loop.acc};
  if (u.def.nin != 2 || u.def.nout != 1 || u.def.uses_index || find_loop(u, in, out) < 0)
    throw TypeError("ufunc '" + u.public_name + "' has no loop " + type_char(loop.acc) + type_char(loop.elem) + "->" +
                    type_char(loop.acc) + " to fold with");
}

}  // namespace

KernelSource fold_source(const FoldLoop& loop, FoldKind kind, DType in, DType out, bool initial, bool where, bool wide,
                         int rows_ndim) {
  check_loop(loop);
  for (DType t : {loop.acc, loop.elem, in, out}) check_computable(t, "ufunc.reduce");
  const std::string name = kernel_name(loop, kind, in, out, initial, where, wide, rows_ndim);
  const std::string K = to_string(kind == FoldKind::Reduce && where ? 3 : 2);
  const std::string W = wide ? "true" : "false";
  std::string call;
  switch (kind) {
    case FoldKind::Reduce:
      call = std::string("ca::fold_reduce<") + (initial ? "true" : "false") + ", " + (where ? "true" : "false") + ", " +
             W + ">(op, in, out, where, rows, nrows, n, in_step, where_step, chunk);";
      break;
    case FoldKind::Accumulate:
      call = "ca::fold_accumulate(op, in, out, rows, nrows, n, in_step, out_step);";
      break;
    case FoldKind::Segments:
      call = "ca::fold_segments<" + W + ">(op, in, out, rows, nrows, n, in_step, out_step, starts, nseg, chunk);";
      break;
  }
  std::string text = "#include \"" + loop.u->def.header + "\"\n#include \"cuarray/fold.cuh\"\n" + loop.u->def.preamble +
                     "\n" + op_struct(name + "_op", loop, in, out) + "\nextern \"C\" __global__ void " + name +
                     "(const char* in, char* out, const char* where, ca::Strided<" + to_string(rows_ndim) + ", " + K +
                     "> rows, long long nrows, long long n, long long in_step, long long out_step, long long "
                     "where_step, const long long* starts, long long nseg, " +
                     cuda_type(loop.acc) + " start, long long chunk) {\n  const " + name + "_op op{ca::cast<" +
                     compute_type(loop.acc) + ">(start)};\n  " + call + "\n}\n";
  return {text, name};
}

void fold(const FoldLoop& loop, FoldKind kind, const Array& a, const Array& out, const FoldOptions& options) {
  check_loop(loop);
  const char* op = "ufunc.reduce";
  check_same_device(a, op);
  check_same_device(out, op);
  if (options.where) check_same_device(*options.where, op);
  if (a.ndim() == 0) throw ValueError("fold: the input must have at least one dimension");
  const int axis = a.ndim() - 1;
  Shape rows_shape(a.shape().begin(), a.shape().end() - 1);
  Shape expected = rows_shape;
  if (kind == FoldKind::Accumulate) expected = a.shape();
  const std::int64_t nseg = options.starts ? options.starts->size() : 1;
  if (kind == FoldKind::Segments) {
    if (!options.starts || options.starts->dtype() != DType::Int64 || options.starts->ndim() != 1)
      throw ValueError("fold: reduceat needs a 1-D int64 array of starts");
    expected.push_back(nseg);
  }
  if (out.shape() != expected)
    throw ValueError("fold: the output has shape " + shape_str(out.shape()) + " but " + shape_str(expected) +
                     " was expected");
  if (options.where && options.where->shape() != a.shape())
    throw ValueError("fold: the mask has shape " + shape_str(options.where->shape()) + ", not the input's");
  // A masked fold starts from `initial`: from a[0] it would count an element the mask leaves out.
  if (options.where && (kind != FoldKind::Reduce || !options.initial))
    throw ValueError("fold: a mask needs a reduction with an initial value");
  if (options.where && options.where->dtype() != DType::Bool) throw TypeError("fold: the mask must be bool");
  if (options.starts) check_same_device(*options.starts, op);
  if (out.size() == 0) return;
  const std::int64_t n = a.shape()[axis];
  if (n == 0 && !(kind == FoldKind::Reduce && options.initial))
    throw ValueError("fold: no elements to fold and no initial value");

  // The output is written through a temporary where it shares memory with what is read (accumulate in
  // place, the very same view, is safe: each element is read before it is written, by the same thread).
  auto same_view = [](const Array& x, const Array& y) {
    return x.buffer() == y.buffer() && x.data() == y.data() && x.shape() == y.shape() && x.strides() == y.strides();
  };
  auto shares = [&](const Array* x) { return x && (overlaps_partially(out, *x) || same_view(out, *x)); };
  if (shares(options.where) || shares(options.starts) ||
      (kind == FoldKind::Accumulate ? overlaps_partially(out, a) : shares(&a))) {
    Array t = Array::like(out, out.dtype());
    fold(loop, kind, a, t, options);
    copy_into(out, t);
    return;
  }

  // Rows: operand 0 the output, 1 the input, 2 the mask (Reduce with `where`).
  const bool where = kind == FoldKind::Reduce && options.where;
  std::vector<Strides> strides(where ? 3 : 2);
  for (int d = 0; d < axis; ++d) {
    strides[0].push_back(out.strides()[d]);
    strides[1].push_back(a.strides()[d]);
    if (where) strides[2].push_back(options.where->strides()[d]);
  }
  StridedArgs rows(coalesce_in_memory_order(rows_shape, strides));
  const int nd = rows.ndim();
  const bool initial = kind == FoldKind::Reduce && options.initial;
  const bool wide = options.chunk > 0 && kind != FoldKind::Accumulate;
  KernelKey key = fold_key(loop, kind, a.dtype(), out.dtype(), initial, where, wide, nd);
  jit::Kernel k =
      cached_kernel(key, [&] { return fold_source(loop, kind, a.dtype(), out.dtype(), initial, where, wide, nd); });

  const void* in_p = a.data();
  void* out_p = out.data();
  const void* where_p = where ? options.where->data() : nullptr;
  const void* starts_p = options.starts ? options.starts->data() : nullptr;
  std::int64_t nrows = 1;
  for (std::int64_t e : rows_shape) nrows *= e;
  std::int64_t n_arg = n, in_step = a.strides()[axis], where_step = where ? options.where->strides()[axis] : 0;
  std::int64_t out_step = kind == FoldKind::Reduce ? 0 : out.strides()[axis];
  std::int64_t nseg_arg = nseg, chunk = wide ? options.chunk : 1;
  alignas(16) char start[16] = {};
  if (initial) std::memcpy(start, options.initial, static_cast<std::size_t>(itemsize(loop.acc)));
  void* args[] = {&in_p,     &out_p,      &where_p,  rows.data(), &nrows, &n_arg, &in_step,
                  &out_step, &where_step, &starts_p, &nseg_arg,   start,  &chunk};
  const std::int64_t threads = kind == FoldKind::Segments ? nrows * nseg : nrows;
  jit::launch(k, jit::grid_for(threads), dim3(jit::kBlockSize), args, 0, cuda::current_stream()->handle());
}

}  // namespace cuarray::ops
