// The extension module cuarray._core: each init_* binds one area.
#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace cuarray::bind {
void init_errors(py::module_& m);
void init_cuda(py::module_& m);
void init_jit(py::module_& m);
void init_array(py::module_& m);
void init_ufunc(py::module_& m);
void init_kernel(py::module_& m);
void init_reduction(py::module_& m);
void init_scan(py::module_& m);
void init_indexing(py::module_& m);
void init_sorting(py::module_& m);
void init_linalg(py::module_& m);
void init_random(py::module_& m);
void init_signal(py::module_& m);
void init_fft(py::module_& m);
void init_interop(py::module_& m);
void init_profiler(py::module_& m);
void init_libraries(py::module_& m);
}  // namespace cuarray::bind

PYBIND11_MODULE(_core, m) {
  m.doc() = "cuarray's C++ core";
  cuarray::bind::init_errors(m);
  cuarray::bind::init_cuda(m);
  cuarray::bind::init_jit(m);
  cuarray::bind::init_array(m);
  cuarray::bind::init_ufunc(m);
  cuarray::bind::init_kernel(m);
  cuarray::bind::init_reduction(m);
  cuarray::bind::init_scan(m);
  cuarray::bind::init_indexing(m);
  cuarray::bind::init_sorting(m);
  cuarray::bind::init_linalg(m);
  cuarray::bind::init_random(m);
  cuarray::bind::init_signal(m);
  cuarray::bind::init_fft(m);
  cuarray::bind::init_interop(m);
  cuarray::bind::init_profiler(m);
  cuarray::bind::init_libraries(m);
}
