// What the hot calls' C functions share: the ndarray's operator slots (ufunc.cpp's arithmetic, linalg.cpp's
// matrix product), ufunc objects' and fused functions' calls, the reduction methods.
//
// Note [Operator slots]
// `a + b` on an ndarray goes straight to C functions installed in the type's number and rich-comparison
// slots: no attribute lookup, no argument-parsing dispatcher. Exceptions become Python errors through
// pybind11's registered translators (errors.cpp). The calls users make in loops as often (`cp.exp(x)`,
// `x.sum()`, a fused function) are C functions too: a type's tp_call, or a METH_FASTCALL method. pybind11's
// dispatcher would add about a microsecond to each on a slow host, the cost of a second kernel launch.
#pragma once

#include <pybind11/pybind11.h>

#include <cstring>
#include <string>

#include "cuarray/error.h"
#include "cuarray/ops/type_resolution.h"
#include "gil.h"

namespace py = pybind11;

namespace cuarray::bind {

// Runs `f` for a slot: its result, or `failed` with the Python error set.
template <class F>
auto slot_call(F&& f, decltype(f()) failed) {
  try {
    return f();
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (abi::__forced_unwind&) {
    throw;  // the interpreter is ending this thread (Note [Exit while waiting] in gil.h)
  } catch (...) {
    py::detail::try_translate_exceptions();
  }
  return failed;
}

// Runs `f` (returning a py::object) for a slot: its result as a new reference, or nullptr with the Python
// error set.
template <class F>
PyObject* guarded(F&& f) {
  return slot_call([&] { return f().release().ptr(); }, nullptr);
}

// Whether an operator slot takes `p`: operands cuarray cannot take (lists, strings, ...) give NotImplemented,
// so Python can try the other side; NumPy arrays are taken, to get the TypeError that explains the fix.
bool takes(PyObject* p);

// A ufunc's call (ufunc.cpp): inputs `args` (arrays or scalars), outputs `outs` (null, or None entries for new
// ones), dtype=, casting=, order= (the layout of new outputs: 'C' or 'F', else that of an input of the
// output's shape, as 'K').
py::object ufunc_call(int index, const py::handle* args, int nargs, const py::handle* outs, py::handle dtype,
                      ops::Casting casting = ops::Casting::SameKind, char order = 'K');

// The TypeError for an operand of `op` that is neither a cuarray array nor a scalar (a NumPy array's says
// how to move it to the device).
[[noreturn]] void unsupported(py::handle obj, const char* op);

// Python's truth of an argument; false when it was not given (nullptr).
inline bool truth(PyObject* p) {
  int t = p ? PyObject_IsTrue(p) : 0;
  if (t < 0) throw py::error_already_set();
  return t;
}

// Matches a METH_FASTCALL | METH_KEYWORDS call's arguments to the parameters `names`, in order: values[i]
// is the argument for names[i], or nullptr when not given. Python's TypeErrors for too many positional
// arguments, unknown keywords and arguments given twice.
template <int N>
void match_args(const char* func, const char* const (&names)[N], PyObject* const* args, Py_ssize_t nargs,
                PyObject* kwnames, PyObject* (&values)[N]) {
  if (nargs > N)
    throw TypeError(std::string(func) + "() takes at most " + std::to_string(N) + " positional arguments (" +
                    std::to_string(nargs) + " given)");
  for (int i = 0; i < N; ++i) values[i] = i < nargs ? args[i] : nullptr;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    const char* key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
    if (!key) throw py::error_already_set();
    int i = 0;
    while (i < N && std::strcmp(key, names[i]) != 0) ++i;
    if (i == N) throw TypeError(std::string(func) + "() got an unexpected keyword argument '" + key + "'");
    if (values[i]) throw TypeError(std::string(func) + "() got multiple values for argument '" + key + "'");
    values[i] = args[nargs + k];
  }
}

}  // namespace cuarray::bind
