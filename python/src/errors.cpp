// The one place where core exceptions become Python exceptions. The Python classes live in
// cuarray/_errors.py (CUDARuntimeError, OutOfMemoryError, CompileException), installed as hooks; NumPy's own
// types are used for bad input.
#include <pybind11/pybind11.h>

#include <utility>

#include "cuarray/error.h"
#include "hooks.h"

namespace py = pybind11;

namespace cuarray::bind {

namespace {

void raise(py::handle cls, const py::object& instance) { PyErr_SetObject(cls.ptr(), instance.ptr()); }

// Raises cuarray's class `h` made of `args`; before the package has installed it (Note [Hooks]), the built-in
// `fallback` with `message`.
template <class... Args>
void raise_hooked(Hook h, PyObject* fallback, const char* message, Args&&... args) {
  if (!has_hook(h)) return PyErr_SetString(fallback, message);
  py::handle cls = hook(h);
  raise(cls, cls(std::forward<Args>(args)...));
}

}  // namespace

void init_errors(py::module_&) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const OutOfMemory& e) {
      raise_hooked(Hook::OutOfMemoryError, PyExc_MemoryError, e.what(), e.requested(), e.in_use(), e.what());
    } catch (const CompileError& e) {
      raise_hooked(Hook::CompileException, PyExc_RuntimeError, e.what(), e.what(), e.source(), e.name(), e.log());
    } catch (const CudaError& e) {
      raise_hooked(Hook::CudaRuntimeError, PyExc_RuntimeError, e.what(), e.code(), e.what());
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
