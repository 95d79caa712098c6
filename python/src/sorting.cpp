// Bindings for sorting and searching (cuarray._sorting), and their kernel sources for the tests.
#include <pybind11/pybind11.h>

#include "convert.h"
#include "cuarray/ops/sort.h"
#include "ndarray.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

NdArray owner(Array a) { return NdArray{std::move(a), py::none()}; }

py::tuple as_tuple(const ops::KernelSource& k) { return py::make_tuple(k.source, k.name); }

}  // namespace

void init_sorting(py::module_& m) {
  m.def(
      "_sort", [](const NdArray& a, int axis) { return owner(ops::sort(a.array, axis)); }, "a"_a, "axis"_a);
  m.def(
      "_argsort", [](const NdArray& a, int axis) { return owner(ops::argsort(a.array, axis)); }, "a"_a, "axis"_a);
  m.def(
      "_searchsorted",
      [](const NdArray& a, const NdArray& v, bool right, py::handle sorter) {
        if (sorter.is_none()) return owner(ops::searchsorted(a.array, v.array, right, nullptr));
        const Array& s = sorter.cast<const NdArray&>().array;
        return owner(ops::searchsorted(a.array, v.array, right, &s));
      },
      "a"_a, "v"_a, "right"_a, "sorter"_a);

  py::module_ s = m.attr("jit").attr("sources").cast<py::module_>();
  s.def("segment_sort", [](py::handle t, bool keys, bool indices) {
    return as_tuple(ops::segment_sort_source(to_dtype(t), keys, indices));
  });
  s.def("radix_histogram", [](py::handle t) { return as_tuple(ops::radix_histogram_source(to_dtype(t))); });
  s.def("radix_offsets", [] { return as_tuple(ops::radix_offsets_source()); });
  s.def("radix_pass", [](py::handle t, bool values, bool iota) {
    return as_tuple(ops::radix_pass_source(to_dtype(t), values, iota));
  });
  s.def("searchsorted",
        [](py::handle t, bool right) { return as_tuple(ops::searchsorted_source(to_dtype(t), right)); });
}

}  // namespace cuarray::bind
