// Bindings for cuarray.profiler: NVTX ranges and cudaProfilerStart/Stop (cuarray._core.profiler).
#include "cuarray/cuda/profiler.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>

namespace py = pybind11;
using namespace py::literals;

namespace cuarray::bind {

void init_profiler(py::module_& m) {
  py::module_ p = m.def_submodule("profiler", "NVTX ranges and the CUDA profiler's collection switch");
  p.def("range_push", &cuda::range_push, "message"_a, "argb"_a = py::none());
  p.def("range_pop", &cuda::range_pop);
  p.def("mark", &cuda::mark, "message"_a, "argb"_a = py::none());
  p.def("start", &cuda::profiler_start);
  p.def("stop", &cuda::profiler_stop);
}

}  // namespace cuarray::bind
