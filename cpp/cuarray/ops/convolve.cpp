#include "cuarray/ops/convolve.h"

#include <algorithm>
#include <string>

#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/launch.h"

namespace cuarray::ops {

namespace {

constexpr int kMaxDims = 8;
constexpr int kTile = 32;                        // kernels/convolve.cuh's kConvTile; blocks of kTile x 8 threads
constexpr int kTile1d = 1024, kThreads1d = 256;  // kernels/convolve.cuh's kConv1dTile and kConv1dThreads
alignas(16) constexpr char kZero[16] = {};       // T's zero, for every T

void check_arrays(const Array& out, const Array& x, const Array& w, const std::vector<std::int64_t>& origin) {
  int nd = out.ndim();
  if (x.dtype() != out.dtype() || w.dtype() != out.dtype() || x.ndim() != nd || w.ndim() != nd ||
      static_cast<int>(origin.size()) != nd)
    throw ValueError("correlate: out, x and w must share one dtype and ndim, with one origin per dimension");
  if (!out.c_contiguous() || !x.c_contiguous() || !w.c_contiguous())
    throw ValueError("correlate: out, x and w must be C-contiguous");
  if (nd < 1 || nd > kMaxDims)
    throw ValueError("direct correlation takes 1 to " + std::to_string(kMaxDims) + " dimensions, not " +
                     std::to_string(nd));
  for (const Array* a : {&out, &x, &w}) check_same_device(*a, "correlate");
}

void launch_2d(const Array& out, const Array& x, const Array& w, const std::vector<std::int64_t>& origin,
               Boundary boundary, const void* fill) {
  long long grid_x = (out.shape()[1] + kTile - 1) / kTile;
  if (grid_x > INT32_MAX)
    throw ValueError("correlate2d: an output of " + shape_str(out.shape()) + " is too large for one launch");
  KernelKey key(KernelKind::Correlate2d);
  key.add(static_cast<int>(out.dtype()), 5);
  jit::Kernel k = cached_kernel(key, [&] { return correlate2d_source(out.dtype()); });
  const void* xp = x.data();
  const void* wp = w.data();
  int b = static_cast<int>(boundary);
  // Rows go to grid y, which holds at most 65535 blocks: a taller output (audio as samples x channels) runs in
  // bands of rows, each band's output rows reading x from its own first row on (origin shifted by the band).
  constexpr long long kBandRows = 65535LL * kTile;
  const long long rows = out.shape()[0], row_bytes = out.shape()[1] * out.itemsize();
  for (long long first = 0; first < rows; first += kBandRows) {
    long long dims[8] = {std::min(kBandRows, rows - first),
                         out.shape()[1],
                         x.shape()[0],
                         x.shape()[1],
                         w.shape()[0],
                         w.shape()[1],
                         origin[0] + first,
                         origin[1]};
    void* o = static_cast<char*>(out.data()) + first * row_bytes;
    void* args[] = {&o,
                    &xp,
                    &wp,
                    &dims[0],
                    &dims[1],
                    &dims[2],
                    &dims[3],
                    &dims[4],
                    &dims[5],
                    &dims[6],
                    &dims[7],
                    &b,
                    const_cast<void*>(fill ? fill : kZero)};
    const long long grid_y = (dims[0] + kTile - 1) / kTile;
    jit::launch(k, dim3(static_cast<unsigned>(grid_x), static_cast<unsigned>(grid_y)), dim3(kTile, 8), args, 0,
                cuda::current_stream()->handle());
  }
}

void launch_1d(const Array& out, const Array& x, const Array& w, std::int64_t origin) {
  long long n_out = out.size(), n_x = x.size(), n_w = w.size(), org = origin;
  long long blocks = (n_out + kTile1d - 1) / kTile1d;
  if (blocks > INT32_MAX)
    throw ValueError("correlate: an output of " + shape_str(out.shape()) + " is too large for one launch");
  KernelKey key(KernelKind::Correlate1d);
  key.add(static_cast<int>(out.dtype()), 5);
  jit::Kernel k = cached_kernel(key, [&] { return correlate1d_source(out.dtype()); });
  void* o = out.data();
  const void* xp = x.data();
  const void* wp = w.data();
  void* args[] = {&o, &xp, &wp, &n_out, &n_x, &n_w, &org, const_cast<char*>(kZero)};
  jit::launch(k, dim3(static_cast<unsigned>(blocks)), dim3(kThreads1d), args, 0, cuda::current_stream()->handle());
}

void launch_nd(const Array& out, const Array& x, const Array& w, const std::vector<std::int64_t>& origin) {
  int nd = out.ndim();
  std::vector<long long> shape;  // ConvShape<N>: out, x, w, origin
  for (const Shape* v : {&out.shape(), &x.shape(), &w.shape()}) shape.insert(shape.end(), v->begin(), v->end());
  shape.insert(shape.end(), origin.begin(), origin.end());
  KernelKey key(KernelKind::CorrelateNd);
  key.add(static_cast<int>(out.dtype()), 5).add(nd, 4);
  jit::Kernel k = cached_kernel(key, [&] { return correlate_nd_source(out.dtype(), nd); });
  void* o = out.data();
  const void* xp = x.data();
  const void* wp = w.data();
  long long n_out = out.size(), n_taps = w.size();
  void* args[] = {&o, &xp, &wp, shape.data(), &n_out, &n_taps};
  jit::launch(k, jit::grid_for(n_out), dim3(jit::kBlockSize), args, 0, cuda::current_stream()->handle());
}

}  // namespace

KernelSource correlate_nd_source(DType t, int ndim) {
  std::string T = cuda_type(t), n = std::to_string(ndim);
  return kernel_source("convolve.cuh", std::string("correlate_nd_") + name(t) + "_" + n,
                       T + "* out, const " + T + "* x, const " + T + "* w, ca::ConvShape<" + n +
                           "> s, long long n_out, long long n_taps",
                       "ca::correlate_nd<" + T + ", " + n + ">(out, x, w, s, n_out, n_taps);");
}

KernelSource correlate1d_source(DType t) {
  std::string T = cuda_type(t);
  return kernel_source("convolve.cuh", std::string("correlate1d_") + name(t),
                       T + "* out, const " + T + "* x, const " + T +
                           "* w, long long n_out, long long n_x, long long n_w, long long origin, " + T + " zero",
                       "ca::correlate1d(out, x, w, n_out, n_x, n_w, origin, zero);");
}

KernelSource correlate2d_source(DType t) {
  std::string T = cuda_type(t);
  return kernel_source(
      "convolve.cuh", std::string("correlate2d_") + name(t),
      T + "* out, const " + T + "* x, const " + T +
          "* w, long long out_rows, long long out_cols, long long x_rows, long long x_cols, "
          "long long w_rows, long long w_cols, long long origin_r, long long origin_c, int boundary, " +
          T + " fill",
      "ca::correlate2d(out, x, w, out_rows, out_cols, x_rows, x_cols, w_rows, w_cols, origin_r, "
      "origin_c, boundary, fill);");
}

void correlate(const Array& out, const Array& x, const Array& w, const std::vector<std::int64_t>& origin,
               Boundary boundary, const void* fill) {
  check_arrays(out, x, w, origin);
  if (boundary != Boundary::Fill && (out.ndim() != 2 || (x.size() == 0 && out.size() != 0)))
    throw ValueError("correlate: wrap and symmetric boundaries need a non-empty 2-D input");
  if (out.size() == 0) return;
  if (out.ndim() == 1)
    launch_1d(out, x, w, origin[0]);
  else if (out.ndim() == 2)
    launch_2d(out, x, w, origin, boundary, fill);
  else
    launch_nd(out, x, w, origin);
}

}  // namespace cuarray::ops
