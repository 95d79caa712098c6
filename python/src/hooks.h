// The Python objects the bindings call back into, which the package installs at import.
#pragma once

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace cuarray::bind {

// Note [Hooks]
// The extension imports no module of the package. Each object it calls back into (the advanced-indexing
// functions, MemoryPointer for kernel arguments, the exception classes, the kernel-cache log, the library
// locator, the user allocator's caller) is handed to it once, by cuarray/__init__.py calling _core._set_hooks({name:
// object}) with every entry below before anything else runs. So the package alone decides where each lives, and no call
// imports Python code midway (an exception translator, a kernel-cache event on a worker thread, a library
// lookup). The objects are never freed: a reference dropped after the interpreter has finalised crashes the
// process. Before they are installed, the exception translator raises built-in types and the log and the
// locator do nothing; any other use raises RuntimeError naming the missing hook.
enum class Hook {
  Getitem,           // cuarray._indexing._getitem(a, key): keys that are not basic
  Setitem,           // cuarray._indexing._setitem(a, key, value)
  MemoryPointer,     // the RawKernel argument types of pointers: x.data's class and cuarray.cuda.MemoryPointer
  OutOfMemoryError,  // the exception classes of cuarray._errors
  CompileException,
  CudaRuntimeError,
  LogKernel,      // cuarray.cuda.compiler._log_kernel(name, key, compiled, ms): Note [Kernel cache log]
  LocateLibrary,  // cuarray._cuda_libs.locate(stem) -> (path, why not)
  Allocate,       // cuarray.cuda.memory._allocate_for_core(nbytes): Note [User allocator]
  Structured,     // the module cuarray._structured: casts and comparisons of structured arrays
  DeviceOperand,  // cuarray._interop._device_operand(obj): CuPy-like and other libraries' device arrays
  MatmulAxes,     // cuarray._products._matmul_axes(a, b, out, dtype, casting, axes, axis): gufunc axes
  CacheInMemory,  // cuarray.cuda.compiler._cache_in_memory(): Note [Memory-only compiles] (jit/kernel_cache.h)
  LogFusion,      // cuarray.cuda.compiler._log_fusion(message): Note [Automatic fusion] (ops/auto_fusion.h)
  Count
};

// The object installed for `h` (borrowed); raises RuntimeError naming the hook when there is none.
py::handle hook(Hook h);
// Whether `h` is installed, for callers that must not raise.
bool has_hook(Hook h);

// Note [Interrupts in quiet calls]
// Some calls into Python are made for the core's sake and must not fail the operation that made them: the log
// handlers, the memory-only question, a warning, the library locator. Their errors are dropped. But such a call
// may be the first Python code to run after a Ctrl-C that came during a long blocking step (an NVRTC compile
// with Python's lock let go): the SIGINT handler runs there and raises KeyboardInterrupt into it, and dropping
// that error lost the Ctrl-C for good. A dropped KeyboardInterrupt is therefore raised again, the same exception,
// where the main thread next runs Python's pending calls (Py_AddPendingCall, where signal handlers run too), so
// the program sees it. Not PyErr_SetInterrupt: that would run the SIGINT handler a second time for one Ctrl-C.
inline int raise_kept_interrupt(void* exception) {
  PyObject* e = static_cast<PyObject*>(exception);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(e)), e);
  Py_DECREF(e);
  return -1;
}
inline void drop_quiet_error(const py::error_already_set& e) {
  if (!e.matches(PyExc_KeyboardInterrupt)) return;
  PyObject* value = e.value().inc_ref().ptr();
  if (Py_AddPendingCall(raise_kept_interrupt, value) != 0) {  // the queue is full: a new SIGINT, at worst twice
    Py_DECREF(value);
    PyErr_SetInterrupt();
  }
}
// The same for the error the calling thread has set (the GIL held).
inline void drop_quiet_error() { drop_quiet_error(py::error_already_set()); }

}  // namespace cuarray::bind
