// The Python-visible array: a core Array plus the Python object it is a view of (its `base`).
#pragma once

#include <pybind11/pybind11.h>

#include "cuarray/array.h"

namespace py = pybind11;

namespace cuarray::bind {

struct NdArray {
  Array array;
  py::object base;  // None for an array that owns its memory

  // A view of `self` (base chains collapse to the owner, as in NumPy).
  static NdArray view_of(const NdArray& self, py::handle self_obj, Array view) {
    return NdArray{std::move(view), self.base.is_none() ? py::reinterpret_borrow<py::object>(self_obj) : self.base};
  }
};

// The ndarray type object, for isinstance checks in other binding files.
py::handle ndarray_type();

// Note [ndarray members]
// The ndarray type is defined in array.cpp (init_array). A member another area of the bindings defines (the
// operators in ufunc.cpp, matmul's in linalg.cpp, sum and its kin in reduction.cpp) is added through
// add_ndarray_member, which refuses a name the type already has: no area replaces another's member unseen.
// The members written in Python are installed by cuarray/_ndarray.py alone, which refuses the same.
void add_ndarray_member(const char* name, py::handle value);
// Converts `obj` to a device array: an ndarray as is; NumPy arrays, scalars and sequences are copied to
// the current device (via numpy.asarray, so dtype inference is NumPy's).
NdArray to_ndarray(py::handle obj);

}  // namespace cuarray::bind
