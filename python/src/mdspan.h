// ndarray.mdspan's argument object, for RawKernel's argument conversion (raw_kernel.cpp).
#pragma once

#include <pybind11/pybind11.h>

#include "cuarray/jit/kernel_args.h"

namespace py = pybind11;

namespace cuarray::bind {

// Whether `a` is what ndarray.mdspan returned.
bool is_mdspan(py::handle a);
// It as a RawKernel argument (Note [mdspan arguments] in cpp/cuarray/jit/mdspan.h); ValueError where its array is
// on another device than the current one.
jit::KernelArg mdspan_kernel_arg(py::handle a);

}  // namespace cuarray::bind
