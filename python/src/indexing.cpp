// Bindings for advanced indexing, nonzero and counting (cuarray._indexing, cuarray._histogram), and their
// kernel sources for the tests.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "convert.h"
#include "cuarray/error.h"
#include "cuarray/ops/gather.h"
#include "cuarray/ops/histogram.h"
#include "ndarray.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

ops::IndexMode to_mode(const std::string& mode) {
  if (mode == "raise") return ops::IndexMode::Raise;
  if (mode == "wrap") return ops::IndexMode::Wrap;
  if (mode == "clip") return ops::IndexMode::Clip;
  if (mode == "inbounds") return ops::IndexMode::InBounds;
  throw ValueError("clipmode must be one of 'clip', 'raise', or 'wrap'");
}

ops::NonzeroLayout to_layout(const std::string& layout) {
  if (layout == "rows") return ops::NonzeroLayout::Rows;
  if (layout == "columns") return ops::NonzeroLayout::Columns;
  if (layout == "flat") return ops::NonzeroLayout::Flat;
  throw ValueError("nonzero layout must be 'rows', 'columns' or 'flat'");
}

ops::AdvancedIndex to_index(const std::vector<int>& axes, const std::vector<NdArray>& indices, int insert_at,
                            const std::vector<int>& labels) {
  ops::AdvancedIndex index{axes, {}, insert_at, labels};
  for (const NdArray& i : indices) index.indices.push_back(i.array);
  return index;
}

std::optional<Array> optional_array(py::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return to_ndarray(obj).array;
}

NdArray owner(Array a) { return NdArray{std::move(a), py::none()}; }

py::tuple as_tuple(const ops::KernelSource& k) { return py::make_tuple(k.source, k.name); }

}  // namespace

void init_indexing(py::module_& m) {
  m.def(
      "_nonzero",
      [](const NdArray& a, const std::string& layout) { return owner(ops::nonzero(a.array, to_layout(layout))); },
      "a"_a, "layout"_a);
  m.def(
      "_gather",
      [](const NdArray& a, const std::vector<int>& axes, const std::vector<NdArray>& indices, int insert_at,
         const std::vector<int>& labels, const std::string& mode) {
        return owner(ops::gather(a.array, to_index(axes, indices, insert_at, labels), to_mode(mode)));
      },
      "a"_a, "axes"_a, "indices"_a, "insert_at"_a, "labels"_a, "mode"_a);
  m.def(
      "_scatter",
      [](const NdArray& a, const std::vector<int>& axes, const std::vector<NdArray>& indices, int insert_at,
         const std::vector<int>& labels, const NdArray& values, const std::string& mode) {
        // The core's cast does not warn; NumPy's assignment warns of a dropped imaginary part (not into bool).
        const DType to = a.array.dtype(), from = values.array.dtype();
        if (is_complex(from) && !is_complex(to) && to != DType::Bool) warn_complex_to_real();
        ops::scatter(a.array, to_index(axes, indices, insert_at, labels), values.array, to_mode(mode));
      },
      "a"_a, "axes"_a, "indices"_a, "insert_at"_a, "labels"_a, "values"_a, "mode"_a);
  m.def(
      "_bincount",
      [](const NdArray& x, py::handle weights, std::int64_t minlength) {
        return owner(ops::bincount(x.array, optional_array(weights), minlength));
      },
      "x"_a, "weights"_a, "minlength"_a);
  m.def(
      "_histogram",
      [](const NdArray& a, const std::vector<double>& edges, py::handle bin_type, bool uniform, double span,
         py::handle weights) {
        return owner(ops::histogram(a.array, edges, to_dtype(bin_type), uniform, span, optional_array(weights)));
      },
      "a"_a, "edges"_a, "bin_type"_a, "uniform"_a, "span"_a, "weights"_a);

  py::module_ s = m.attr("jit").attr("sources").cast<py::module_>();
  s.def("count_nonzero", [](py::handle t, int nd) { return as_tuple(ops::count_nonzero_source(to_dtype(t), nd)); });
  s.def("write_nonzero", [](py::handle t, int nd, const std::string& layout) {
    return as_tuple(ops::write_nonzero_source(to_dtype(t), nd, to_layout(layout)));
  });
  s.def("gather", [](int itemsize, int nd, int nindex, const std::string& mode, bool scatter) {
    return as_tuple(ops::gather_source(itemsize, nd, nindex, to_mode(mode), scatter));
  });
  s.def("index_bounds", [] { return as_tuple(ops::index_bounds_source()); });
  s.def("bincount", [](bool weighted) { return as_tuple(ops::bincount_source(weighted)); });
  s.def("histogram", [](py::handle t, py::handle bin_type, bool float_weights, bool uniform) {
    return as_tuple(ops::histogram_source(to_dtype(t), to_dtype(bin_type), float_weights, uniform));
  });
}

}  // namespace cuarray::bind
