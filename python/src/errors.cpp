// The one place where core exceptions become Python exceptions. The Python classes live in
// cuarray/_errors.py (CUDARuntimeError, OutOfMemoryError, CompileException); NumPy's own types are used
// for bad input.
#include <pybind11/pybind11.h>

#include "cuarray/error.h"

namespace py = pybind11;

namespace cuarray::bind {

namespace {

py::object error_class(const char* name) { return py::module_::import("cuarray._errors").attr(name); }

void raise(const py::object& cls, const py::object& instance) { PyErr_SetObject(cls.ptr(), instance.ptr()); }

}  // namespace

void init_errors(py::module_&) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const OutOfMemory& e) {
      py::object cls = error_class("OutOfMemoryError");
      raise(cls, cls(e.requested(), e.in_use(), e.what()));
    } catch (const CompileError& e) {
      py::object cls = error_class("CompileException");
      raise(cls, cls(e.what(), e.source(), e.name(), e.log()));
    } catch (const CudaError& e) {
      py::object cls = error_class("CUDARuntimeError");
      raise(cls, cls(e.code(), e.what()));
    } catch (const LinAlgError& e) {
      py::object cls = py::module_::import("numpy.linalg").attr("LinAlgError");
      raise(cls, cls(e.what()));
    } catch (const AxisError& e) {
      py::object cls = py::module_::import("numpy").attr("exceptions").attr("AxisError");
      raise(cls, cls(e.what()));
    } catch (const IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const BufferError& e) {
      PyErr_SetString(PyExc_BufferError, e.what());
    }
  });
}

}  // namespace cuarray::bind
