// The extension module cuarray._core: each init_* binds one area; _set_hooks takes what the bindings call
// back into (Note [Hooks] in hooks.h).
#include <pybind11/pybind11.h>

#include <array>
#include <string>

#include "cuarray/error.h"
#include "hooks.h"

namespace py = pybind11;

namespace cuarray::bind {

namespace {

// The keys of _set_hooks' dict, in Hook's order.
constexpr std::array<const char*, static_cast<int>(Hook::Count)> kHookNames = {
    "getitem",          "setitem",     "MemoryPointer",   "OutOfMemoryError", "CompileException",
    "CUDARuntimeError", "log_kernel",  "locate_library",  "allocate",         "structured",
    "device_operand",   "matmul_axes", "cache_in_memory", "log_fusion"};

std::array<PyObject*, static_cast<int>(Hook::Count)> g_hooks{};  // owned, never released (Note [Hooks])

std::string hook_names() {
  std::string names;
  for (const char* n : kHookNames) names += std::string(names.empty() ? "" : ", ") + "'" + n + "'";
  return names;
}

// Installs every hook at once: each key of `hooks` must name one, and every one must be there.
void set_hooks(const py::dict& hooks) {
  std::array<PyObject*, static_cast<int>(Hook::Count)> given{};
  for (auto [key, value] : hooks) {
    const std::string name = py::str(key);
    int i = 0;
    while (i < static_cast<int>(Hook::Count) && name != kHookNames[i]) ++i;
    if (i == static_cast<int>(Hook::Count))
      throw ValueError("_set_hooks: unknown hook '" + name + "'; the hooks are " + hook_names());
    if (value.is_none()) throw TypeError("_set_hooks: hook '" + name + "' is None");
    given[i] = value.ptr();
  }
  for (int i = 0; i < static_cast<int>(Hook::Count); ++i)
    if (given[i] == nullptr)
      throw ValueError(std::string("_set_hooks: hook '") + kHookNames[i] + "' is missing; the hooks are " +
                       hook_names());
  for (int i = 0; i < static_cast<int>(Hook::Count); ++i) {
    Py_INCREF(given[i]);
    Py_XDECREF(g_hooks[i]);  // a second install (importlib.reload) replaces the first
    g_hooks[i] = given[i];
  }
}

}  // namespace

bool has_hook(Hook h) { return g_hooks[static_cast<int>(h)] != nullptr; }

py::handle hook(Hook h) {
  PyObject* object = g_hooks[static_cast<int>(h)];
  if (object == nullptr)
    throw std::runtime_error(std::string("cuarray._core: the hook '") + kHookNames[static_cast<int>(h)] +
                             "' is not installed (import cuarray installs it)");
  return object;
}

void init_errors(py::module_& m);
void init_cuda(py::module_& m);
void init_jit(py::module_& m);
void init_array(py::module_& m);
void init_ufunc(py::module_& m);
void init_operators(py::module_& m);
void init_kernel(py::module_& m);
void init_mdspan(py::module_& m);
void init_fusion(py::module_& m);
void init_reduction(py::module_& m);
void init_scan(py::module_& m);
void init_fold(py::module_& m);
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
  m.def("_set_hooks", &cuarray::bind::set_hooks, py::arg("hooks"),
        "Installs what the bindings call back into: {name: object} with every hook (Note [Hooks]).");
  cuarray::bind::init_errors(m);
  cuarray::bind::init_cuda(m);
  cuarray::bind::init_jit(m);
  cuarray::bind::init_array(m);
  cuarray::bind::init_ufunc(m);
  cuarray::bind::init_operators(m);
  cuarray::bind::init_kernel(m);
  cuarray::bind::init_mdspan(m);
  cuarray::bind::init_fusion(m);
  cuarray::bind::init_reduction(m);
  cuarray::bind::init_scan(m);
  cuarray::bind::init_fold(m);
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
