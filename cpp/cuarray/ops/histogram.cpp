#include "cuarray/ops/histogram.h"

#include <string>

#include "cuarray/cuda/graph.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/creation.h"
#include "cuarray/ops/gather.h"
#include "cuarray/ops/transfer.h"

namespace cuarray::ops {

namespace {

// NumPy's check that bincount's x and weights are 1-d, with its message for each side.
void check_one_dimensional(const Array& a) {
  if (a.ndim() != 1)
    throw ValueError(a.ndim() ? "object too deep for desired array" : "object of too small depth for desired array");
}

// NumPy's checks of weights for `n` values.
void check_weights(const Array& w, std::int64_t n, const char* op) {
  check_same_device(w, op);
  if (w.size() != n) throw ValueError("The weights and list don't have the same length.");
  if (is_complex(w.dtype())) throw TypeError(std::string(op) + ": complex weights are not supported");
}

// `w` as a C-contiguous array of type `t`.
Array contiguous_as(const Array& w, DType t) { return w.dtype() == t && w.c_contiguous() ? w : astype(w, t, 'C'); }

// Histogram weights as the kernels read them: float64 for floats, int64 bits (summed modulo 2^64) for integers.
Array weights_for(const Array& w, std::int64_t n, const char* op) {
  check_weights(w, n, op);
  return contiguous_as(w, is_floating(w.dtype()) ? DType::Float64 : DType::Int64);
}

Array zeros_of(std::int64_t n, DType t) { return zeros({n}, t); }

}  // namespace

KernelSource bincount_source(bool weighted) {
  const char* w = weighted ? "double" : "unsigned long long";
  return kernel_source("indexing.cuh", weighted ? "bincount_weighted" : "bincount",
                       std::string("const long long* x, const ") + w + "* weights, long long n, " + w + "* counts",
                       std::string("ca::bincount<") + w + ">(x, weights, n, counts);");
}

KernelSource histogram_source(DType t, DType bin_type, bool float_weights, bool uniform) {
  const char* w = float_weights ? "double" : "unsigned long long";
  return kernel_source("indexing.cuh",
                       std::string("histogram_") + name(t) + "_" + name(bin_type) + (float_weights ? "_f" : "_i") +
                           (uniform ? "_uniform" : "_edges"),
                       std::string("const ") + cuda_type(t) + "* a, const " + w +
                           "* weights, long long n, "
                           "const double* edges, long long bins, double span, " +
                           w + "* counts",
                       std::string("ca::histogram<") + cuda_type(t) + ", " + cuda_type(bin_type) + ", " + w + ", " +
                           (uniform ? "true" : "false") + ">(a, weights, n, edges, bins, span, counts);");
}

Array bincount(const Array& x, const std::optional<Array>& weights, std::int64_t minlength) {
  check_same_device(x, "bincount");
  check_one_dimensional(x);
  // uint64 counts too (NumPy 2 casts it; a value past int64's range turns negative and is refused below).
  if (!is_integer(x.dtype()) && x.dtype() != DType::Bool)
    throw TypeError("Cannot cast array data from dtype('" + std::string(name(x.dtype())) +
                    "') to dtype('int64') according to the rule 'safe'");
  if (minlength < 0) throw ValueError("'minlength' must not be negative");
  const std::int64_t n = x.size();
  // NumPy answers an empty x before it looks at the weights (their dtype and length): int64 zeros.
  if (n == 0) return zeros_of(minlength, DType::Int64);
  Array xi = contiguous_as(x, DType::Int64);
  auto [lo, hi] = index_ranges({xi})[0];
  if (lo < 0) throw ValueError("'list' argument must have no negative elements");  // before the weights, as NumPy
  std::optional<Array> w;
  if (weights) {
    check_one_dimensional(*weights);  // histogramdd's weights too, which it counts through bincount
    check_weights(*weights, n, "bincount");
    // NumPy sums weights in float64, converted from their own type (not through int64: uint64 past 2^63).
    w = contiguous_as(*weights, DType::Float64);
  }
  Array counts = zeros_of(std::max(minlength, hi + 1), w ? DType::Float64 : DType::Int64);
  KernelKey key(KernelKind::Bincount);
  key.add(w.has_value(), 1);
  jit::Kernel k = cached_kernel(key, [&] { return bincount_source(w.has_value()); });
  const void* x_ptr = xi.data();
  const void* w_ptr = w ? w->data() : nullptr;
  void* c_ptr = counts.data();
  std::int64_t n_arg = n;
  void* args[] = {&x_ptr, &w_ptr, &n_arg, &c_ptr};
  jit::launch(k, jit::grid_for(n), dim3(jit::kBlockSize), args, 0, cuda::current_stream()->handle());
  return counts;
}

Array histogram(const Array& a, const std::vector<double>& edges, DType bin_type, bool uniform, double span,
                const std::optional<Array>& weights) {
  check_same_device(a, "histogram");
  if (is_complex(a.dtype())) throw TypeError("histogram: complex input is not supported");
  if (edges.size() < 2) throw ValueError("histogram: at least two bin edges are needed");
  if (!is_floating(bin_type)) throw ValueError("histogram: the bins' type must be a floating type");
  const std::int64_t bins = static_cast<std::int64_t>(edges.size()) - 1, n = a.size();
  Array flat = ascontiguous(a);
  std::optional<Array> w;
  if (weights) w = weights_for(*weights, n, "histogram");
  bool float_weights = w && w->dtype() == DType::Float64;
  Array counts = zeros_of(bins, float_weights ? DType::Float64 : DType::Int64);
  if (n == 0) return counts;
  cuda::check_not_capturing(*cuda::current_stream(), "histogram (it copies its bin edges from the host)");
  cudaStream_t stream = cuda::current_stream()->handle();
  Array edges_dev({bins + 1}, DType::Float64);
  copy_from_host(edges_dev, edges.data());
  KernelKey key(KernelKind::Histogram);
  key.add(static_cast<int>(a.dtype()), 5).add(static_cast<int>(bin_type), 5).add(float_weights, 1).add(uniform, 1);
  jit::Kernel k = cached_kernel(key, [&] { return histogram_source(a.dtype(), bin_type, float_weights, uniform); });
  const void* a_ptr = flat.data();
  const void* w_ptr = w ? w->data() : nullptr;
  const void* e_ptr = edges_dev.data();
  void* c_ptr = counts.data();
  std::int64_t n_arg = n, bins_arg = bins;
  void* args[] = {&a_ptr, &w_ptr, &n_arg, &e_ptr, &bins_arg, &span, &c_ptr};
  jit::launch(k, jit::grid_for(n), dim3(jit::kBlockSize), args, 0, stream);
  return counts;
}

}  // namespace cuarray::ops
