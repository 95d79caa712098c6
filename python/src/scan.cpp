// Bindings for cumulative sums and products (cuarray._scan), and their kernel sources for the tests.
#include "cuarray/ops/scan.h"

#include <pybind11/pybind11.h>

#include "convert.h"
#include "ndarray.h"

using namespace py::literals;

namespace cuarray::bind {

void init_scan(py::module_& m) {
  m.def(
      "_scan",
      [](const NdArray& a, int axis, bool product, bool skip_nan, const NdArray& out) {
        ops::scan(a.array, axis, product ? ops::ScanOp::Prod : ops::ScanOp::Sum, skip_nan, out.array);
      },
      "a"_a, "axis"_a, "product"_a, "skip_nan"_a, "out"_a);

  py::module_ s = m.attr("jit").attr("sources").cast<py::module_>();
  s.def("scan_tiles", [](py::handle in, py::handle out, bool product, bool skip_nan, int ndim, bool vector) {
    auto k = ops::scan_tiles_source(to_dtype(in), to_dtype(out), product ? ops::ScanOp::Prod : ops::ScanOp::Sum,
                                    skip_nan, ndim, vector);
    return py::make_tuple(k.source, k.name);
  });
  s.def("scan_rows", [](py::handle in, py::handle out, bool product, bool skip_nan, int ndim) {
    auto k = ops::scan_rows_source(to_dtype(in), to_dtype(out), product ? ops::ScanOp::Prod : ops::ScanOp::Sum,
                                   skip_nan, ndim);
    return py::make_tuple(k.source, k.name);
  });
}

}  // namespace cuarray::bind
