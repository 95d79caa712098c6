// Bindings for direct correlation (cuarray._core.signal) and its kernels' sources.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "convert.h"
#include "cuarray/error.h"
#include "cuarray/ops/convolve.h"
#include "ndarray.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

ops::Boundary to_boundary(const std::string& name) {
  if (name == "fill") return ops::Boundary::Fill;
  if (name == "wrap") return ops::Boundary::Wrap;
  if (name == "symm") return ops::Boundary::Symmetric;
  throw ValueError("unknown boundary '" + name + "' (expected 'fill', 'wrap' or 'symm')");
}

py::tuple as_tuple(const ops::KernelSource& k) { return py::make_tuple(k.source, k.name); }

}  // namespace

void init_signal(py::module_& m) {
  py::module_ s = m.def_submodule("signal", "direct correlation on the device");
  // `fill` is converted to the arrays' dtype by NumPy's rules.
  s.def(
      "correlate",
      [](const NdArray& out, const NdArray& x, const NdArray& w, const std::vector<std::int64_t>& origin,
         const std::string& boundary, py::handle fill) {
        std::string bytes = scalar_bytes(fill, out.array.dtype());
        ops::correlate(out.array, x.array, w.array, origin, to_boundary(boundary), bytes.data());
      },
      "out"_a, "x"_a, "w"_a, "origin"_a, "boundary"_a = "fill", "fill"_a = 0);

  py::module_ src = m.attr("jit").attr("sources").cast<py::module_>();
  src.def("correlate_nd", [](py::handle t, int nd) { return as_tuple(ops::correlate_nd_source(to_dtype(t), nd)); });
  src.def("correlate1d", [](py::handle t) { return as_tuple(ops::correlate1d_source(to_dtype(t))); });
  src.def("correlate2d", [](py::handle t) { return as_tuple(ops::correlate2d_source(to_dtype(t))); });
}

}  // namespace cuarray::bind
