// The one place where core exceptions become Python exceptions. The Python classes live in
// cuarray/_errors.py (CUDARuntimeError, OutOfMemoryError, CompileException), installed as hooks; NumPy's own
// types are used for bad input.
#include <pybind11/pybind11.h>

#include <utility>

#include "convert.h"
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

// NumPy's own _UFuncOutputCastingError(ufunc, casting, from, to, i), whose message is NumPy's; internal rows
// (_clip, ...) name NumPy's ufunc where umath has one. Falls back to a plain TypeError.
void raise_output_casting(const OutputCastingError& e) {
  try {
    py::module_ np = py::module_::import("numpy");
    std::string name = e.ufunc[0] == '_' ? e.ufunc.substr(1) : e.ufunc;
    py::object umath = py::module_::import("numpy._core.umath");
    if (!py::hasattr(umath, name.c_str())) {
      PyErr_SetString(PyExc_TypeError, e.what());
      return;
    }
    py::object ufunc = umath.attr(name.c_str());
    py::object cls = py::module_::import("numpy._core._exceptions").attr("_UFuncOutputCastingError");
    py::object err = cls(ufunc, e.casting, to_numpy_dtype(static_cast<DType>(e.from)),
                         to_numpy_dtype(static_cast<DType>(e.to)), e.index);
    PyErr_SetObject(cls.ptr(), err.ptr());
  } catch (py::error_already_set&) {
    PyErr_SetString(PyExc_TypeError, e.what());
  }
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
    } catch (const OutputCastingError& e) {
      raise_output_casting(e);
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
