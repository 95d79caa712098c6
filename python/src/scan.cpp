// Bindings for cumulative sums and products (cuarray._scan), and their kernel sources for the tests.
#include "cuarray/ops/scan.h"

#include <pybind11/pybind11.h>

#include "convert.h"
#include "cuarray/error.h"
#include "ndarray.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

// The scan's operation: False/True (sum, product), or its name "sum", "prod", "max", "min".
ops::ScanOp to_scan_op(py::handle op) {
  if (py::isinstance<py::bool_>(op)) return op.cast<bool>() ? ops::ScanOp::Prod : ops::ScanOp::Sum;
  const std::string name = py::str(op);
  if (name == "sum") return ops::ScanOp::Sum;
  if (name == "prod") return ops::ScanOp::Prod;
  if (name == "max") return ops::ScanOp::Max;
  if (name == "min") return ops::ScanOp::Min;
  throw ValueError("scan: unknown operation '" + name + "'");
}

}  // namespace

void init_scan(py::module_& m) {
  m.def(
      "_scan",
      [](const NdArray& a, int axis, py::handle op, bool skip_nan, const NdArray& out) {
        ops::scan(a.array, axis, to_scan_op(op), skip_nan, out.array);
      },
      "a"_a, "axis"_a, "op"_a, "skip_nan"_a, "out"_a);

  py::module_ s = m.attr("jit").attr("sources").cast<py::module_>();
  s.def("scan_tiles", [](py::handle in, py::handle out, py::handle op, bool skip_nan, int ndim, bool vector) {
    auto k = ops::scan_tiles_source(to_dtype(in), to_dtype(out), to_scan_op(op), skip_nan, ndim, vector);
    return py::make_tuple(k.source, k.name);
  });
  s.def("scan_rows", [](py::handle in, py::handle out, py::handle op, bool skip_nan, int ndim) {
    auto k = ops::scan_rows_source(to_dtype(in), to_dtype(out), to_scan_op(op), skip_nan, ndim);
    return py::make_tuple(k.source, k.name);
  });
}

}  // namespace cuarray::bind
