// Releasing and re-taking the GIL in a way that lets the interpreter end daemon threads at exit.
//
// Note [Exit while waiting]
// At interpreter exit, CPython (3.13 and older) ends a daemon thread that asks for the GIL back by calling
// pthread_exit in it. glibc ends the thread by a forced unwind (abi::__forced_unwind) through its C++ frames,
// and a noexcept frame on the way calls std::terminate: pybind11's gil_scoped_release re-takes the GIL in its
// destructor, so a daemon thread waiting for the device (Stream.synchronize, a copy to the host) when the
// program ended aborted the process. The bindings therefore release and re-take the GIL only through
// ReleaseGil and AcquireGil. A thread whose re-take in ReleaseGil would end it sleeps until the process ends
// instead, as CPython 3.14 does with such threads: unwinding would run the destructors of the Python objects
// the binding's frame holds (the NumPy array a copy to the host fills) without the GIL, and crash during
// finalization. The core's locks are all released by then, since the GIL is re-taken only after the core call
// returns. AcquireGil lets the forced unwind pass on to pybind11's dispatcher (which rethrows it), or sleeps
// where it cannot pass. Also, waits of other threads stop polling the device once Python has begun to exit
// (begin_exit in cpp/cuarray/blocking.h): once the interpreter finalizes, after every atexit handler, not when
// cuarray's own handler runs, since a handler registered before `import cuarray` runs after it and may join a
// thread that waits for the device.
#pragma once

#include <cxxabi.h>
#include <pybind11/pybind11.h>

#include <chrono>
#include <exception>
#include <thread>

namespace cuarray::bind {

inline bool finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

// Set once the interpreter has begun to end this thread: the GIL is never to be taken again in it.
inline thread_local bool g_thread_ending = false;

// Sleeps until the process ends: for a thread the interpreter ended where the end cannot unwind.
[[noreturn]] inline void park_thread() {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

// pybind11's gil_scoped_release, but whose re-take of the GIL may end the thread (Note [Exit while waiting]).
class ReleaseGil {
 public:
  ReleaseGil() : state_(PyEval_SaveThread()) {}
  ~ReleaseGil() noexcept(false) {
    if (g_thread_ending) return;  // a forced unwind from a deeper AcquireGil is passing
    try {
      PyEval_RestoreThread(state_);
    } catch (abi::__forced_unwind&) {
      // Not unwound: the frames above may hold Python objects (a copy's NumPy array), whose destructors would
      // run without the GIL during finalization.
      g_thread_ending = true;
      park_thread();
    }
  }
  ReleaseGil(const ReleaseGil&) = delete;
  ReleaseGil& operator=(const ReleaseGil&) = delete;

 private:
  PyThreadState* state_;
};

// pybind11's gil_scoped_acquire, marking the thread as ending if taking the GIL ends it.
class AcquireGil {
 public:
  AcquireGil() try : gil_() {
  } catch (abi::__forced_unwind&) {
    g_thread_ending = true;
    if (std::uncaught_exceptions() > 0) park_thread();
  }  // rethrown at the end of the handler

 private:
  pybind11::gil_scoped_acquire gil_;
};

using release_gil = pybind11::call_guard<ReleaseGil>;

}  // namespace cuarray::bind
