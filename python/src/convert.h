// Argument conversions shared by the binding files: dtypes, shapes, axes, scalars.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "cuarray/array.h"
#include "cuarray/dtype.h"
#include "cuarray/shape.h"

namespace py = pybind11;

namespace cuarray::bind {

// Any dtype-like (np.float32, 'f4', float, np.dtype) -> DType; TypeError for unsupported types.
DType to_dtype(py::handle obj);
// DType -> numpy.dtype (bfloat16 comes from ml_dtypes).
py::dtype to_numpy_dtype(DType t);
// An integer (anything with __index__) -> int64; TypeError for anything else, ValueError past int64.
std::int64_t to_integer(py::handle item);
// An int or a sequence of ints -> Shape; TypeError for anything else.
Shape to_shape(py::handle obj);
std::vector<std::int64_t> to_axes(py::handle obj);  // None -> empty, int -> one, sequence -> many
py::tuple to_tuple(const std::vector<std::int64_t>& v);
// `value` converted to `dtype` by NumPy's rules (np.array(value, dtype)), as raw bytes.
std::string scalar_bytes(py::handle value, DType dtype);
// 'C', 'F', 'A' or 'K' from a str or None (default `dflt`); ValueError otherwise.
char to_order(py::handle obj, char dflt);

// Whether the interpreter is exiting (no thread may take the GIL then).
bool finalizing();

}  // namespace cuarray::bind
