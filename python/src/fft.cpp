// Bindings for the cuFFT transforms (cuarray._core.fft).
#include "cuarray/ops/fft.h"

#include <pybind11/pybind11.h>

#include "cuarray/error.h"
#include "cuarray/lib/cufft.h"
#include "ndarray.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

ops::FftKind to_kind(const std::string& name) {
  if (name == "c2c") return ops::FftKind::C2C;
  if (name == "r2c") return ops::FftKind::R2C;
  if (name == "c2r") return ops::FftKind::C2R;
  throw ValueError("unknown transform '" + name + "' (expected 'c2c', 'r2c' or 'c2r')");
}

}  // namespace

void init_fft(py::module_& m) {
  py::module_ f = m.def_submodule("fft", "cuFFT transforms");
  f.def(
      "execute",
      [](const NdArray& in, const NdArray& out, const std::string& kind, int rank, bool inverse) {
        ops::fft(in.array, out.array, to_kind(kind), rank, inverse);
      },
      "in"_a, "out"_a, "kind"_a, "rank"_a, "inverse"_a);
  f.def("version", &lib::cufft::version);
}

}  // namespace cuarray::bind
