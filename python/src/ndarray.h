// The Python-visible array: a core Array plus the Python object it is a view of (its `base`).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <vector>

#include "cuarray/array.h"

namespace py = pybind11;

// Shapes and strides (cuarray::Dims) cross into Python as std::vector<std::int64_t> does: a list out, any
// sequence of integers in. Declared here, beside the ndarray type every binding file uses, so that no binding
// takes Dims for a class of its own.
namespace pybind11::detail {
template <>
struct type_caster<cuarray::Dims> {
  PYBIND11_TYPE_CASTER(cuarray::Dims, const_name("list[int]"));
  bool load(handle src, bool convert) {
    make_caster<std::vector<std::int64_t>> items;
    if (!items.load(src, convert)) return false;
    const auto& v = cast_op<const std::vector<std::int64_t>&>(items);
    value.assign(v.begin(), v.end());
    return true;
  }
  static handle cast(const cuarray::Dims& d, return_value_policy policy, handle parent) {
    return make_caster<std::vector<std::int64_t>>::cast(std::vector<std::int64_t>(d.begin(), d.end()), policy, parent);
  }
};
}  // namespace pybind11::detail

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
// Whether `h` is a cuarray.ndarray or an instance of a subclass, by its type alone: isinstance() would also take an
// object whose __class__ claims the type (a Mock(spec=cuarray.ndarray)), which has no array to read.
inline bool is_ndarray(py::handle h) {
  static PyTypeObject* const type = reinterpret_cast<PyTypeObject*>(ndarray_type().ptr());
  return PyObject_TypeCheck(h.ptr(), type);
}

// Note [Uninitialised arrays]
// `ndarray.__new__(cls)` makes an instance whose __init__ has not run (a subclass's __new__ may do so, as CuPy's
// views do). pybind11 would hand out its value as an NdArray of unconstructed memory, and a read of it take a
// garbage shape or pointer. So every cast of an instance to NdArray, ndarray_of's and pybind11's (the caster
// below), checks that its value was constructed, and raises TypeError otherwise.
[[noreturn]] void uninitialised(py::handle h);

}  // namespace cuarray::bind

namespace pybind11::detail {
// pybind11's caster, refusing an instance whose value was never constructed (Note [Uninitialised arrays]).
template <>
class type_caster<cuarray::bind::NdArray> : public type_caster_base<cuarray::bind::NdArray> {
 public:
  bool load(handle src, bool convert) {
    if (!type_caster_base<cuarray::bind::NdArray>::load(src, convert)) return false;
    if (PyObject_TypeCheck(src.ptr(), reinterpret_cast<PyTypeObject*>(cuarray::bind::ndarray_type().ptr()))) {
      auto* inst = reinterpret_cast<instance*>(src.ptr());
      if (inst->simple_layout
              ? !inst->simple_holder_constructed
              : !values_and_holders(inst).find(get_type_info(typeid(cuarray::bind::NdArray)))->holder_constructed())
        cuarray::bind::uninitialised(src);
    }
    return true;
  }
};
}  // namespace pybind11::detail

namespace cuarray::bind {

// Note [New array objects]
// A small op's host time goes largely to its result object, so the new arrays of ufuncs, reductions and fused
// calls are made by to_object rather than py::cast: py::cast looks the C++ type up in pybind11's registry, and
// the address of the moved-from value in its instance map, on every call; to_object keeps the type from the first
// call and makes the same instance (a unique_ptr holder, registered as py::cast registers it). ndarray_of reads an
// instance's value directly where the caller has checked the type, as py::cast would after its look-ups.
//
// A new Python array owning `value` (moved from).
py::object to_object(NdArray&& value);
inline py::object to_object(Array array) { return to_object(NdArray{std::move(array), py::none()}); }
// The array of `h`, an instance of cuarray.ndarray or a subclass (the caller checked).
inline const NdArray& ndarray_of(py::handle h) {
  auto* inst = reinterpret_cast<py::detail::instance*>(h.ptr());
  if (inst->simple_layout && inst->simple_holder_constructed)
    return *static_cast<const NdArray*>(inst->simple_value_holder[0]);
  return h.cast<const NdArray&>();  // the caster above raises for an instance not yet initialised
}

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
