#include "cuarray/ops/fft.h"

#include <algorithm>
#include <string>
#include <vector>

#include "cuarray/cuda/device.h"
#include "cuarray/error.h"
#include "cuarray/lib/cufft.h"
#include "cuarray/ops/copy.h"

namespace cuarray::ops {

namespace {

namespace cufft = lib::cufft;

// The cuFFT type for these dtypes, or TypeError when cuFFT has no such transform.
cufftType fft_type(FftKind kind, DType in, DType out) {
  bool single = in == DType::Float32 || in == DType::Complex64;
  bool ok =
      kind == FftKind::C2C ? in == out && (in == DType::Complex64 || in == DType::Complex128)
      : kind == FftKind::R2C
          ? (in == DType::Float32 && out == DType::Complex64) || (in == DType::Float64 && out == DType::Complex128)
          : (in == DType::Complex64 && out == DType::Float32) || (in == DType::Complex128 && out == DType::Float64);
  if (!ok) throw TypeError(std::string("fft: no cuFFT transform from ") + name(in) + " to " + name(out));
  switch (kind) {
    case FftKind::C2C:
      return single ? CUFFT_C2C : CUFFT_Z2Z;
    case FftKind::R2C:
      return single ? CUFFT_R2C : CUFFT_D2Z;
    default:
      return single ? CUFFT_C2R : CUFFT_Z2D;
  }
}

// The transform's sizes (the real lengths for R2C and C2R) after checking the shapes agree.
std::vector<long long> transform_sizes(const Array& in, const Array& out, FftKind kind, int rank) {
  const Shape& real = kind == FftKind::C2R ? out.shape() : in.shape();
  const Shape& other = kind == FftKind::C2R ? in.shape() : out.shape();
  int nd = in.ndim();
  bool ok = out.ndim() == nd && nd >= rank;
  for (int d = 0; ok && d < nd; ++d) {
    std::int64_t expect = kind != FftKind::C2C && d == nd - 1 ? real[d] / 2 + 1 : real[d];
    ok = other[d] == expect;
  }
  if (!ok)
    throw ValueError("fft: shapes " + shape_str(in.shape()) + " and " + shape_str(out.shape()) + " do not fit a rank-" +
                     std::to_string(rank) + " transform");
  return std::vector<long long>(real.end() - rank, real.end());
}

// "sizes (a, b) in batches of c", for a plan that does not fit.
std::string describe(const cufft::Key& key) {
  std::string out = "sizes (";
  for (std::size_t i = 0; i < key.n.size(); ++i) out += (i ? ", " : "") + std::to_string(key.n[i]);
  return out + (key.n.size() == 1 ? ",)" : ")") + " in batches of " + std::to_string(key.batch);
}

}  // namespace

void fft(const Array& in, const Array& out, FftKind kind, int rank, bool inverse, const lib::cufft::PlanPtr& plan,
         const std::vector<int>& devices) {
  if (rank < 1 || rank > 3)
    throw ValueError("fft: cuFFT transforms 1 to 3 axes at a time, not " + std::to_string(rank));
  cufftType type = fft_type(kind, in.dtype(), out.dtype());
  if (!in.c_contiguous() || !out.c_contiguous()) throw ValueError("fft: arrays must be C-contiguous");
  check_same_device(in, "fft");
  check_same_device(out, "fft");
  std::vector<long long> sizes = transform_sizes(in, out, kind, rank);
  if (kind != FftKind::C2C && sizes.back() == 1)
    throw ValueError("fft: a real transform's last axis must be longer than 1 (a length-1 one is a cast)");
  if (in.size() == 0 || out.size() == 0) return;
  // A length-1 axis transforms as the identity and leaves the layout as it is: cuFFT plans only the others.
  std::vector<long long> n;
  for (long long s : sizes)
    if (s != 1) n.push_back(s);
  if (n.empty()) {
    copy_into(out, in);
    return;
  }
  long long batch = 1;
  for (int d = 0; d < in.ndim() - rank; ++d) batch *= in.shape()[d];

  cufft::Key key{type, n, batch};
  const int here = cuda::current_device();
  cufft::PlanPtr p = plan;
  if (!p) {
    if (rank == 1 && !devices.empty()) key.gpus = devices;
    if (!key.gpus.empty() && std::find(devices.begin(), devices.end(), here) == devices.end())
      throw ValueError("the array is on device " + std::to_string(here) +
                       ", which is not one of the devices of the multi-GPU FFT");
    p = cufft::plan(key);
  } else {
    if (p->key().type != type) throw ValueError("cuFFT plan dtype mismatch.");
    bool one_d = dynamic_cast<const cufft::Plan1d*>(p.get()) != nullptr;
    if (!p->key().same_transform(key)) {
      throw ValueError(one_d && p->key().n == key.n ? "Batch size does not match the plan."
                       : one_d                      ? "Target array size does not match the plan."
                               : "The cuFFT plan and a.shape do not match: the plan transforms " + describe(p->key()) +
                                     ", the call " + describe(key));
    }
    if (one_d && devices.empty() != !p->multi_gpu())
      throw ValueError("Unclear if multiple GPUs are to be used or not.");
    if (!p->multi_gpu() && p->device() != here)
      throw ValueError("the cuFFT plan was made on device " + std::to_string(p->device()) +
                       ", not on the current device " + std::to_string(here));
  }
  p->execute(in.data(), out.data(), inverse ? CUFFT_INVERSE : CUFFT_FORWARD);
}

}  // namespace cuarray::ops
