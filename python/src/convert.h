// Argument conversions shared by the binding files: dtypes, shapes, axes, scalars.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "cuarray/array.h"
#include "cuarray/dtype.h"
#include "cuarray/ops/operands.h"
#include "cuarray/shape.h"
#include "ndarray.h"  // the Dims caster

namespace py = pybind11;

namespace cuarray::bind {

// Any dtype-like (np.float32, 'f4', float, np.dtype) -> DType; TypeError for unsupported types.
DType to_dtype(py::handle obj);
// Each of `types` as to_dtype converts it.
std::vector<DType> to_dtypes(const std::vector<py::handle>& types);
// DType -> numpy.dtype (bfloat16 comes from ml_dtypes).
py::dtype to_numpy_dtype(DType t);
// A dtype-like that may also be a structured or void type (Note [Void storage]): its DType, its itemsize, and for
// Void the number this module gave its NumPy dtype. ValueError for types holding Python objects.
struct ElementType {
  DType dtype;
  int itemsize;
  int descr;
};
ElementType to_element_type(py::handle obj);
// The NumPy dtype of a's elements (a Void array's own structured or void dtype).
py::dtype numpy_dtype_of(const Array& a);
// A new, uninitialised array of element type `t`.
Array new_array(Shape shape, const ElementType& t, Order order);
// `value` as one element of the Void array `dst`, as NumPy assigns it.
std::string void_bytes(py::handle value, const Array& dst);
// Raises Python's OverflowError (which the core's exception types do not cover).
[[noreturn]] void raise_overflow(const std::string& message);
// A dimension (anything with __index__ but a bool) -> int64; TypeError for anything else, ValueError past
// int64 ("Maximum allowed dimension exceeded"), as NumPy's shape conversion.
std::int64_t to_integer(py::handle item);
// An axis, an index or an offset (anything with __index__) -> int64; TypeError for anything else,
// OverflowError past int64 ("Python int too large to convert to C long"), as NumPy's conversion to a C long.
std::int64_t to_int64(py::handle item);
// An int or a sequence of ints -> Shape; TypeError for anything else.
Shape to_shape(py::handle obj);
// NumPy's `axis` of reductions and squeeze: None -> empty, an int -> one, a tuple -> many; a list or a bool is
// a TypeError, an int past int64 an OverflowError.
std::vector<std::int64_t> to_axes(py::handle obj);
// An int or any sequence of ints, bools included (expand_dims, whose NumPy form takes lists); OverflowError
// past int64.
std::vector<std::int64_t> to_axis_list(py::handle obj);
py::tuple to_tuple(const Dims& v);
// A Python bool, int, float or complex (weak), or a NumPy scalar or a subclass of int, float or complex (strong,
// as NumPy reads them), as the core's tagged scalar; false for anything else. `s.source` is `obj`, for the
// core's conversion hook (install_scalar_hook()).
bool to_scalar(py::handle obj, ops::Scalar& s);
// Installs the core's conversion hook for scalars (ops::set_scalar_hook): NumPy's conversions and errors.
void install_scalar_hook();
// `value` converted to `dtype` by NumPy's rules (np.array(value, dtype)), as raw bytes.
std::string scalar_bytes(py::handle value, DType dtype);
// Whether `value` is a NumPy scalar (numpy.generic).
bool is_numpy_scalar(py::handle value);
// One host value as an element of `dtype`, converted as NumPy's assignment converts it (Note [Assigned values]
// in array.cpp): 300 or numpy.int64(300) into int8 is NumPy's OverflowError, where scalar_bytes casts a NumPy
// value as arrays cast.
std::string element_bytes(py::handle value, const py::dtype& dtype);
// A `casting=` argument, as NumPy checks it: TypeError for a non-str, ValueError for an unknown rule
// ('same_value' is one where `same_value`, as in NumPy's astype).
std::string to_casting(py::handle obj, bool same_value);
// 'C', 'F', 'A' or 'K' from a str or None (default `dflt`); ValueError otherwise.
char to_order(py::handle obj, char dflt);
// NumPy's ComplexWarning for a cast that drops imaginary parts (to a real type other than bool).
void warn_complex_to_real();
// Whether a cast from `from` to `to` drops imaginary parts NumPy warns of: complex to real, bool excepted (a
// cast to bool drops nothing it warns of).
inline bool drops_imaginary(DType from, DType to) { return is_complex(from) && !is_complex(to) && to != DType::Bool; }
// Whether `p` says it is an array on the device: CuPy's __cupy_get_ndarray__, or __cuda_array_interface__.
// Attribute look-ups: for the operands that are not cuarray arrays or scalars only.
bool has_device_protocol(PyObject* p);
// `obj` read as a cuarray array (cuarray._interop._device_operand): a CuPy-like object's array, or a view of
// another library's device array; None for anything else.
py::object device_operand(py::handle obj);

}  // namespace cuarray::bind
