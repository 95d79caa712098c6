// What the ndarray's operator slots share (ufunc.cpp's arithmetic, linalg.cpp's matrix product).
//
// Note [Operator slots]
// `a + b` on an ndarray goes straight to C functions installed in the type's number and rich-comparison
// slots: no attribute lookup, no argument-parsing dispatcher. Exceptions become Python errors through
// pybind11's registered translators (errors.cpp).
#pragma once

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace cuarray::bind {

// Runs `f` (returning a py::object) for a slot: its result as a new reference, or nullptr with the Python
// error set.
template <class F>
PyObject* guarded(F&& f) {
  try {
    return f().release().ptr();
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (...) {
    py::detail::try_translate_exceptions();
  }
  return nullptr;
}

// Whether an operator slot takes `p`: operands cuarray cannot take (lists, strings, ...) give NotImplemented,
// so Python can try the other side; NumPy arrays are taken, to get the TypeError that explains the fix.
bool takes(PyObject* p);

// The TypeError for an operand of `op` that is neither a cuarray array nor a scalar (a NumPy array's says
// how to move it to the device).
[[noreturn]] void unsupported(py::handle obj, const char* op);

}  // namespace cuarray::bind
