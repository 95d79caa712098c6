// Python host functions on CUDA streams (Note [Host callbacks] in cpp/cuarray/cuda/stream.h, Python's side in
// host_calls.cpp): Stream.launch_host_func and add_callback, and the host-callback thread's loop.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>

#include "cuarray/cuda/stream.h"

namespace cuarray::bind {

// Whether Python is past running any code of the program's: the interpreter finalizes (after every atexit
// handler). From then on no driver thread calls into Python, and the Python objects that host callbacks and user
// allocations hold are left to the process's end.
bool python_gone();

// Stream.launch_host_func(fn, arg) and Stream.add_callback(fn, arg) (CuPy's (stream, error, arg) call).
void launch_python_host_func(const cuda::Stream& stream, pybind11::object fn, pybind11::object arg);
void add_python_callback(const cuda::Stream& stream, pybind11::object fn, pybind11::object arg, pybind11::object owner);

// The host-callback thread's side: the next call as (function, arguments, token), or None once Python is gone;
// then host_call_done(token) once it has run.
pybind11::object next_host_call();
void host_call_done(std::uint64_t token);

}  // namespace cuarray::bind
