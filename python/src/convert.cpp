#include "convert.h"

#include <unordered_map>

#include "cuarray/error.h"

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
      t->push_back(d == DType::BFloat16 ? py::object(py::none()) : numpy().attr("dtype")(name(d)));
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

DType to_dtype(py::handle obj) {
  // Cache by the dtype-like object itself (types and strings are hashable and long-lived).
  static py::dict* cache = new py::dict;
  if (obj.is_none()) return DType::Float64;
  if (PyObject* hit = PyDict_GetItem(cache->ptr(), obj.ptr())) return static_cast<DType>(PyLong_AsLong(hit));
  py::object dt = numpy().attr("dtype")(obj);
  const auto& table = numpy_dtypes();
  for (int i = 0; i < kNumDTypes; ++i) {
    const py::object& entry = static_cast<DType>(i) == DType::BFloat16 ? bfloat16_dtype(false) : table[i];
    if (!entry.is_none() && dt.equal(entry)) {
      if (PyObject_Hash(obj.ptr()) != -1)
        (*cache)[obj] = i;
      else
        PyErr_Clear();
      return static_cast<DType>(i);
    }
  }
  throw TypeError("cuarray does not support the data type " + py::str(dt).cast<std::string>() +
                  " (supported: bool, int8-64, uint8-64, float16, bfloat16, float32, float64, complex64, complex128)");
}

py::dtype to_numpy_dtype(DType t) {
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
  if (!py::isinstance<py::sequence>(obj) || py::isinstance<py::str>(obj)) {
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

py::tuple to_tuple(const std::vector<std::int64_t>& v) {
  py::tuple t(v.size());
  for (size_t i = 0; i < v.size(); ++i) t[i] = py::int_(v[i]);
  return t;
}

std::string scalar_bytes(py::handle value, DType dtype) {
  // Python numbers must fit the dtype (OverflowError otherwise); NumPy values are cast as NumPy casts them.
  bool python_number = PyLong_Check(value.ptr()) || PyFloat_Check(value.ptr()) || PyComplex_Check(value.ptr());
  py::array arr = python_number ? numpy().attr("array")(value, to_numpy_dtype(dtype))
                                : numpy().attr("asarray")(value).attr("astype")(to_numpy_dtype(dtype));
  if (arr.ndim() != 0) throw ValueError("setting an array element with a sequence.");
  return std::string(static_cast<const char*>(arr.data()), static_cast<size_t>(itemsize(dtype)));
}

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

}  // namespace cuarray::bind
