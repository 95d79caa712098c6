#include "convert.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "cuarray/error.h"
#include "hooks.h"

namespace cuarray::bind {

namespace {

py::object numpy() {
  // Never released: a py::object destroyed after the interpreter has finalised crashes the process.
  static py::handle np = py::module_::import("numpy").release();
  return py::reinterpret_borrow<py::object>(np);
}

// numpy.dtype for each DType; bfloat16's stays None until bfloat16_dtype() finds ml_dtypes.
std::vector<py::object>& numpy_dtypes() {
  static std::vector<py::object>* table = [] {
    auto* t = new std::vector<py::object>;
    for (int i = 0; i < kNumDTypes; ++i) {
      auto d = static_cast<DType>(i);
      // Void's NumPy dtype is each array's own (numpy_dtype_of).
      const bool none = d == DType::BFloat16 || d == DType::Void;
      t->push_back(none ? py::object(py::none()) : numpy().attr("dtype")(name(d)));
    }
    return t;
  }();
  return *table;
}

// ml_dtypes' bfloat16 as a numpy.dtype, or None. Importing ml_dtypes takes about 5 ms, which the first array of
// every process paid when the table imported it: a dtype no other entry matches looks for it only among the
// modules already imported (a bfloat16 dtype object cannot exist before), and a bfloat16 array imports it.
const py::object& bfloat16_dtype(bool import) {
  py::object& slot = numpy_dtypes()[static_cast<int>(DType::BFloat16)];
  if (slot.is_none()) {
    // sys.modules holds None for a module marked absent (PyImport_GetModule returns it; importing raises).
    auto mod = py::reinterpret_steal<py::object>(import ? PyImport_ImportModule("ml_dtypes")
                                                        : PyImport_GetModule(py::str("ml_dtypes").ptr()));
    if (!mod || mod.is_none()) {
      PyErr_Clear();
      return slot;
    }
    slot = numpy().attr("dtype")(mod.attr("bfloat16"));
  }
  return slot;
}

}  // namespace

namespace {

// Note [Dtype-like cache keys]
// find_dtype caches its answers in a dict keyed by the dtype-like object itself, so a dict hit stands for every
// object equal to the key with the same hash. Types (identity), exact strings and numpy.dtype objects (equal
// only to what numpy.dtype() takes to the same dtype) are safe keys. Other dtype-likes are not: NumPy takes a
// scalar for its type (numpy.float32(1) means float32), and scalars of different types compare and hash equal
// (numpy.float32(1) == numpy.float64(1) == 1), so a cached float32(1) made dtype=numpy.float64(1) float32, a
// silent wrong dtype. Those are looked up and answered, never cached.
bool safe_dtype_key(py::handle obj, const py::object& dt) {
  return PyType_Check(obj.ptr()) || PyUnicode_CheckExact(obj.ptr()) || obj.ptr() == dt.ptr();
}

// The DType of `obj` (a dtype-like), or none with `dt` set to its numpy.dtype.
std::optional<DType> find_dtype(py::handle obj, py::object& dt) {
  // Cache by the dtype-like object itself (Note [Dtype-like cache keys]).
  static py::dict* cache = new py::dict;
  if (obj.is_none()) return DType::Float64;
  if (PyObject* hit = PyDict_GetItem(cache->ptr(), obj.ptr())) return static_cast<DType>(PyLong_AsLong(hit));
  dt = numpy().attr("dtype")(obj);
  const auto& table = numpy_dtypes();
  for (int i = 0; i < kNumDTypes; ++i) {
    const py::object& entry = static_cast<DType>(i) == DType::BFloat16 ? bfloat16_dtype(false) : table[i];
    if (!entry.is_none() && dt.equal(entry)) {
      if (safe_dtype_key(obj, dt)) {
        if (PyObject_Hash(obj.ptr()) != -1)
          (*cache)[obj] = i;
        else
          PyErr_Clear();
      }
      return static_cast<DType>(i);
    }
  }
  return std::nullopt;
}

[[noreturn]] void unsupported_dtype(const py::object& dt) {
  // A type cuarray has, in the other byte order: a ValueError naming the byte order, as CuPy's.
  if (!dt.attr("isnative").cast<bool>()) {
    const auto& table = numpy_dtypes();
    py::object native = dt.attr("newbyteorder")("=");
    for (int i = 0; i < kNumDTypes; ++i)
      if (!table[i].is_none() && native.equal(table[i]))
        throw ValueError("cuarray does not support the data type " + py::str(dt).cast<std::string>() +
                         " with non-native byte-order; use " + py::str(native).cast<std::string>());
  }
  throw TypeError("cuarray does not support the data type " + py::str(dt).cast<std::string>() +
                  " (supported: bool, int8-64, uint8-64, float16, bfloat16, float32, float64, complex64, complex128; "
                  "datetime64[D, s, ms, us, ns] and timedelta64[D, h, m, s, ms, us, ns] for storage; structured "
                  "and void types for storage, where arrays are made, copied and indexed)");
}

// Note [Void storage]: the NumPy dtypes of Void arrays, numbered from 1 in the order first seen. Never released
// (a py::object destroyed after the interpreter has finalised crashes the process).
std::vector<py::object>& void_dtypes() {
  static auto* table = new std::vector<py::object>(1);
  return *table;
}

}  // namespace

DType to_dtype(py::handle obj) {
  py::object dt;
  if (auto t = find_dtype(obj, dt)) return *t;
  unsupported_dtype(dt);
}

ElementType to_element_type(py::handle obj) {
  py::object dt;
  if (auto t = find_dtype(obj, dt)) return {*t, itemsize(*t), 0};
  // A subarray type ('(2,)i4') is NumPy's way of adding axes, not an element type: refused as before.
  if (dt.attr("kind").cast<std::string>() != "V" || !dt.attr("subdtype").is_none()) unsupported_dtype(dt);
  if (dt.attr("hasobject").cast<bool>())
    throw ValueError("cuarray does not support structured types holding Python objects (" +
                     py::str(dt).cast<std::string>() + "): device memory holds no object references");
  const int size = dt.attr("itemsize").cast<int>();
  if (size <= 0)  // CuPy's ValueError
    throw ValueError("Unsupported dtype " + py::str(dt).cast<std::string>() +
                     ": a void type needs an itemsize, as 'V8'");
  auto& table = void_dtypes();
  // Equal dtypes with other metadata (make_aligned_dtype's alignment) are told apart.
  for (std::size_t i = 1; i < table.size(); ++i)
    if (table[i].is(dt) || (table[i].equal(dt) && table[i].attr("metadata").equal(dt.attr("metadata")) &&
                            table[i].attr("isalignedstruct").equal(dt.attr("isalignedstruct"))))
      return {DType::Void, size, static_cast<int>(i)};
  table.push_back(dt);
  return {DType::Void, size, static_cast<int>(table.size() - 1)};
}

py::dtype numpy_dtype_of(const Array& a) {
  if (is_void(a.dtype())) return py::reinterpret_borrow<py::dtype>(void_dtypes().at(a.descr()));
  return to_numpy_dtype(a.dtype());
}

Array new_array(Shape shape, const ElementType& t, Order order) {
  if (is_void(t.dtype)) return Array::of_void(std::move(shape), t.itemsize, t.descr, order);
  return Array(std::move(shape), t.dtype, order);
}

py::dtype to_numpy_dtype(DType t) {
  if (is_void(t)) throw TypeError("a structured or void type is its array's own (Note [Void storage])");
  const py::object& d = t == DType::BFloat16 ? bfloat16_dtype(true) : numpy_dtypes()[static_cast<int>(t)];
  if (d.is_none()) throw TypeError("bfloat16 needs the ml_dtypes package");
  return py::reinterpret_borrow<py::dtype>(d);
}

namespace {

// `item` as a Python int (its __index__), or TypeError "'float' object cannot be interpreted as an integer".
py::object as_index(py::handle item) {
  if (PyLong_CheckExact(item.ptr())) return py::reinterpret_borrow<py::object>(item);
  auto index = py::reinterpret_steal<py::object>(PyNumber_Index(item.ptr()));
  if (!index) throw py::error_already_set();
  return index;
}

bool is_bool(py::handle item) {
  if (PyLong_CheckExact(item.ptr())) return false;  // the usual case, without the isinstance
  static py::handle np_bool = py::object(numpy().attr("bool_")).release();
  return PyBool_Check(item.ptr()) || PyObject_IsInstance(item.ptr(), np_bool.ptr()) == 1;
}

// Python's and NumPy's bools are no dimension and no axis (NumPy: "an integer is required").
void reject_bool(py::handle item) {
  if (is_bool(item)) throw TypeError("an integer is required");
}

}  // namespace

[[noreturn]] void raise_overflow(const std::string& message) {
  PyErr_SetString(PyExc_OverflowError, message.c_str());
  throw py::error_already_set();
}

std::int64_t to_integer(py::handle item) {
  reject_bool(item);
  py::object index = as_index(item);
  int overflow = 0;
  long long n = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow) throw ValueError("Maximum allowed dimension exceeded");
  if (n == -1 && PyErr_Occurred()) throw py::error_already_set();
  return n;
}

std::int64_t to_int64(py::handle item) {
  py::object index = as_index(item);
  int overflow = 0;
  long long n = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow) raise_overflow("Python int too large to convert to C long");
  if (n == -1 && PyErr_Occurred()) throw py::error_already_set();
  return n;
}

Shape to_shape(py::handle obj) {
  // A 0-d device array is one dimension, as NumPy reads a 0-d array (`zeros(count_nonzero(m))`): by its
  // __index__, which refuses bool and inexact types. It is no sequence of dimensions.
  const bool zero_d = is_ndarray(obj) && ndarray_of(obj).array.ndim() == 0;
  if (zero_d || !py::isinstance<py::sequence>(obj) || py::isinstance<py::str>(obj)) {
    if (obj.is_none()) throw TypeError("Use () not None as shape arguments");  // NumPy 2.3's message
    if (!PyIndex_Check(obj.ptr()) || is_bool(obj))
      throw TypeError("expected a sequence of integers or a single integer, got '" + py::repr(obj).cast<std::string>() +
                      "'");
    return Shape{to_integer(obj)};
  }
  Shape s;
  for (auto item : py::reinterpret_borrow<py::sequence>(obj)) s.push_back(to_integer(item));
  return s;
}

namespace {

std::int64_t to_axis(py::handle item) {
  reject_bool(item);
  return to_int64(item);
}

}  // namespace

std::vector<DType> to_dtypes(const std::vector<py::handle>& types) {
  std::vector<DType> out;
  for (auto t : types) out.push_back(to_dtype(t));
  return out;
}

std::vector<std::int64_t> to_axes(py::handle obj) {
  if (obj.is_none()) return {};
  std::vector<std::int64_t> axes;
  if (PyTuple_Check(obj.ptr()))
    for (auto item : py::reinterpret_borrow<py::tuple>(obj)) axes.push_back(to_axis(item));
  else
    axes.push_back(to_axis(obj));  // a list is a TypeError, as NumPy's "'list' object cannot be interpreted..."
  return axes;
}

std::vector<std::int64_t> to_axis_list(py::handle obj) {
  // NumPy's normalize_axis_tuple: operator.index of each (a bool is an axis there).
  if (!py::isinstance<py::sequence>(obj) || py::isinstance<py::str>(obj)) return {to_int64(obj)};
  std::vector<std::int64_t> axes;
  for (auto item : py::reinterpret_borrow<py::sequence>(obj)) axes.push_back(to_int64(item));
  return axes;
}

py::tuple to_tuple(const Dims& v) {
  py::tuple t(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    PyObject* item = PyLong_FromLongLong(v[i]);
    if (!item) throw py::error_already_set();
    PyTuple_SET_ITEM(t.ptr(), static_cast<Py_ssize_t>(i), item);
  }
  return t;
}

std::string void_bytes(py::handle value, const Array& dst) {
  // NumPy's assignment to a structured element: a structured value casts field by field, in order.
  py::array arr = numpy().attr("asarray")(value, numpy_dtype_of(dst));
  if (arr.ndim() != 0) throw ValueError("setting an array element with a sequence.");
  return std::string(static_cast<const char*>(arr.data()), static_cast<size_t>(dst.itemsize()));
}

std::string scalar_bytes(py::handle value, DType dtype) {
  // Python numbers must fit the dtype (OverflowError otherwise); NumPy values are cast as NumPy casts them.
  bool python_number = PyLong_Check(value.ptr()) || PyFloat_Check(value.ptr()) || PyComplex_Check(value.ptr());
  py::array arr = python_number ? numpy().attr("array")(value, to_numpy_dtype(dtype))
                                : numpy().attr("asarray")(value).attr("astype")(to_numpy_dtype(dtype));
  if (arr.ndim() != 0) throw ValueError("setting an array element with a sequence.");
  return std::string(static_cast<const char*>(arr.data()), static_cast<size_t>(itemsize(dtype)));
}

bool is_numpy_scalar(py::handle value) {
  static py::handle generic = py::object(numpy().attr("generic")).release();
  return PyObject_IsInstance(value.ptr(), generic.ptr()) == 1;
}

std::string element_bytes(py::handle value, const py::dtype& dtype) {
  py::array element = numpy().attr("empty")(py::tuple(), dtype);
  element.attr("__setitem__")(py::tuple(), value);  // NumPy's own conversion, with its errors
  return std::string(static_cast<const char*>(element.data()), static_cast<size_t>(dtype.itemsize()));
}

bool to_scalar(py::handle obj, ops::Scalar& s) {
  using Tag = ops::Scalar::Tag;
  PyObject* p = obj.ptr();
  s.source = p;
  if (PyBool_Check(p)) {
    s.tag = Tag::Bool;
    s.i = p == Py_True;
  } else if (PyLong_CheckExact(p)) {
    int overflow = 0;
    s.i = PyLong_AsLongLongAndOverflow(p, &overflow);
    if (s.i == -1 && PyErr_Occurred()) throw py::error_already_set();
    s.tag = Tag::Int;
    if (overflow) {
      s.u = overflow > 0 ? PyLong_AsUnsignedLongLong(p) : 0;
      s.tag = overflow > 0 && !PyErr_Occurred() ? Tag::UInt : Tag::BigInt;
      PyErr_Clear();
      s.i = overflow;  // the sign (Scalar's contract)
    }
  } else if (PyFloat_CheckExact(p)) {
    s.tag = Tag::Float;
    s.re = PyFloat_AS_DOUBLE(p);
  } else if (PyComplex_CheckExact(p)) {
    s.tag = Tag::Complex;
    s.re = PyComplex_RealAsDouble(p);
    s.im = PyComplex_ImagAsDouble(p);
  } else {
    const bool numpy_scalar = is_numpy_scalar(obj);
    // NumPy reads a subclass of int, float or complex (an IntEnum member, say) as a strong int64, float64 or
    // complex128 value, not as a weak Python number.
    if (!numpy_scalar && !PyLong_Check(p) && !PyFloat_Check(p) && !PyComplex_Check(p)) return false;
    s.tag = Tag::Typed;
    Py_buffer view;  // NumPy scalars expose their value's bytes
    if (!numpy_scalar) {
      py::array a = numpy().attr("asarray")(obj);
      s.dtype = to_dtype(a.dtype());
      std::memcpy(s.bytes, a.data(), static_cast<size_t>(itemsize(s.dtype)));
      return true;
    }
    s.dtype = to_dtype(obj.attr("dtype"));
    if (PyObject_GetBuffer(p, &view, PyBUF_SIMPLE) == 0) {
      std::memcpy(s.bytes, view.buf, std::min<size_t>(sizeof s.bytes, static_cast<size_t>(view.len)));
      PyBuffer_Release(&view);
    } else {
      PyErr_Clear();
      py::array a = numpy().attr("asarray")(obj);
      std::memcpy(s.bytes, a.data(), static_cast<size_t>(itemsize(s.dtype)));
    }
  }
  return true;
}

namespace {

// Note [Python floats into other kinds]
// NumPy converts a weak Python int to its loop type as an element is set (np.array(x, loop)): an int out of
// the type's range is its OverflowError, whatever the casting rule. A Python float or complex it keeps as a
// float64 or complex128 value and casts, as it casts arrays. The core leaves it here for a bool or 16-bit float
// loop (logical_and, a float16 array), where casting and setting an element agree, and for an integer loop or
// a real loop for a complex, which the type rules allow under casting='unsafe' alone (dtype=, or a signature
// naming the output): there 300.0 wraps into int8 as the cast wraps it, NaN becomes INT64_MIN with NumPy's
// RuntimeWarning, and a complex drops its imaginary part with NumPy's ComplexWarning, where setting an
// element would raise.
//
// NumPy's conversion of a scalar to loop type `t` (the cases the core leaves: ops::scalar_to_loop), with its
// errors: OverflowError for a Python int out of range.
void numpy_scalar_conversion(const ops::Scalar& s, DType t, char* dst) {
  using Tag = ops::Scalar::Tag;
  py::handle obj(static_cast<PyObject*>(const_cast<void*>(s.source)));
  // Set as an element: Python ints and bools; cast: Python floats and complexes (Note [Python floats into
  // other kinds]) and NumPy values.
  const bool python = s.tag != Tag::Typed && s.tag != Tag::Float && s.tag != Tag::Complex;
  // NumPy reads a Python int for a bool loop (logical_or(a, 2**64)) as a C long first.
  if (t == DType::Bool && (s.tag == Tag::UInt || s.tag == Tag::BigInt))
    raise_overflow("Python int too large to convert to C long");
  if (s.tag == Tag::BigInt && (t == DType::Float64 || t == DType::Float32)) {
    double v = PyFloat_AsDouble(obj.ptr());  // OverflowError: int too large to convert to float
    if (v == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    float f = static_cast<float>(v);  // through double, as for the ints the core converts
    t == DType::Float64 ? std::memcpy(dst, &v, 8) : std::memcpy(dst, &f, 4);
    return;
  }
  py::dtype loop = to_numpy_dtype(t);
  py::array v = python ? numpy().attr("array")(obj, loop) : numpy().attr("asarray")(obj).attr("astype")(loop);
  if (t == DType::Float16 || t == DType::BFloat16) v = v.attr("astype")("float32");
  std::memcpy(dst, v.data(), static_cast<size_t>(v.itemsize()));
}

}  // namespace

void install_scalar_hook() { ops::set_scalar_hook(numpy_scalar_conversion); }

std::string to_casting(py::handle obj, bool same_value) {
  if (!PyUnicode_Check(obj.ptr()))
    throw TypeError("casting must be str, not " +
                    py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>());
  std::string c = obj.cast<std::string>();
  if (c == "no" || c == "equiv" || c == "safe" || c == "same_kind" || c == "unsafe" ||
      (same_value && c == "same_value"))
    return c;
  throw ValueError(std::string("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe'") +
                   (same_value ? ", 'same_value'" : "") + " (got '" + c + "')");
}

char to_order(py::handle obj, char dflt) {
  if (obj.is_none()) return dflt;
  PyObject* p = obj.ptr();
  if (!PyUnicode_Check(p))
    throw TypeError("order must be str, not " + py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>());
  if (PyUnicode_GET_LENGTH(p) == 1) {
    Py_UCS4 c = PyUnicode_READ_CHAR(p, 0);
    if (c < 128) c = static_cast<Py_UCS4>(std::toupper(static_cast<int>(c)));
    if (c == 'C' || c == 'F' || c == 'A' || c == 'K') return static_cast<char>(c);
  }
  throw ValueError("order must be one of 'C', 'F', 'A', or 'K' (got " + py::repr(obj).cast<std::string>() + ")");
}

void warn_complex_to_real() {
  static py::handle warning =
      py::object(py::module_::import("numpy").attr("exceptions").attr("ComplexWarning")).release();
  if (PyErr_WarnEx(warning.ptr(), "Casting complex values to real discards the imaginary part", 1) < 0)
    throw py::error_already_set();
}

bool has_device_protocol(PyObject* p) {
  // PyObject_HasAttrString clears an error a property raises (a host tensor's interface): not a device array.
  return PyObject_HasAttrString(p, "__cupy_get_ndarray__") || PyObject_HasAttrString(p, "__cuda_array_interface__");
}

py::object device_operand(py::handle obj) { return hook(Hook::DeviceOperand)(obj); }

}  // namespace cuarray::bind
