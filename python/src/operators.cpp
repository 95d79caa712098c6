// Bindings for the ndarray's operators (`a + b`, `a += b`, `-a`, `a == b`, ...): C functions in the type's
// number and rich-comparison slots (Note [Operator slots] in operators.h), each a call of a ufunc
// (ufunc_call in ufunc.cpp), and their Python-level names.
#include "operators.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "convert.h"
#include "cuarray/error.h"
#include "cuarray/ops/ufunc_call.h"
#include "hooks.h"
#include "ndarray.h"

namespace cuarray::bind {

namespace {

// Index of a ufunc by name: a search of the table, so call sites look it up once.
int index_of(const char* name) { return ops::ufunc_index(name); }

template <const char* Name>
int index_of() {
  static const int index = index_of(Name);
  return index;
}

py::object call_binary(int index, py::handle a, py::handle b) {
  py::handle args[2] = {a, b};
  return ufunc_call(index, args, 2, nullptr, py::none());
}

py::object call_inplace(int index, py::handle self, py::handle b) {
  py::handle args[2] = {self, b};
  py::handle outs[1] = {self};
  return ufunc_call(index, args, 2, outs, py::none());
}

py::object call_unary(int index, py::handle a) {
  py::handle args[1] = {a};
  return ufunc_call(index, args, 1, nullptr, py::none());
}

// Note [Operands with __array_ufunc__]
// NEP 13: an operand cuarray does not take (not an array, scalar or device array it knows) but whose type
// defines __array_ufunc__ decides what an operator does with cuarray's array. None opts out: the operator
// returns NotImplemented, and Python calls the object's reflected method. Anything else gets the call through
// NumPy's ufunc of the operator, which asks each operand's __array_ufunc__ in turn; cuarray's declines types it
// does not know (_ndarray._array_ufunc), so the object's own answers. NumPy's and CuPy's operators do the same.
// Reached only after takes() refused the operand: the operators' common path is untouched.
//
// The result of the operator for operands `a` and `b`, one of which cuarray does not take: NumPy's `ufunc`
// (its name) of them, into `a` for an in-place operator, where the other one has a non-None __array_ufunc__,
// else NotImplemented.
PyObject* defer_to_override(PyObject* a, PyObject* b, const char* ufunc, bool inplace) {
  PyObject* other = is_ndarray(a) ? b : a;
  PyObject* method = PyObject_GetAttrString(reinterpret_cast<PyObject*>(Py_TYPE(other)), "__array_ufunc__");
  if (!method) PyErr_Clear();
  py::object hook = py::reinterpret_steal<py::object>(method);
  if (!hook || hook.is_none()) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&] {
    py::object f = py::module_::import("numpy").attr(ufunc);
    if (!inplace) return f(py::handle(a), py::handle(b));
    return f(py::handle(a), py::handle(b), py::arg("out") = py::make_tuple(py::handle(a)));
  });
}

template <const char* Name>
PyObject* binary_slot(PyObject* a, PyObject* b) {
  if (!takes(a) || !takes(b)) return defer_to_override(a, b, Name, false);
  return guarded([&] { return call_binary(index_of<Name>(), a, b); });
}

template <const char* Name>
PyObject* inplace_slot(PyObject* a, PyObject* b) {
  if (!takes(b)) return defer_to_override(a, b, Name, true);
  return guarded([&] { return call_inplace(index_of<Name>(), a, b); });
}

template <const char* Name>
PyObject* unary_slot(PyObject* a) {
  return guarded([&] { return call_unary(index_of<Name>(), a); });
}

constexpr char kPow[] = "power";

// The ufunc `a ** b` computes (ops::power_operator_ufunc), or -1 for power; only a Python int or float
// exponent can change it.
int operator_power_index(PyObject* a, PyObject* b) {
  ops::Scalar exponent;
  if (!is_ndarray(a) || !(PyLong_CheckExact(b) || PyFloat_CheckExact(b)) || !to_scalar(b, exponent)) return -1;
  return ops::power_operator_ufunc(py::handle(a).cast<const NdArray&>().array.dtype(), exponent);
}

PyObject* power_slot(PyObject* a, PyObject* b, PyObject* mod) {
  if (mod != Py_None) {
    PyErr_SetString(PyExc_TypeError, "pow() with a modulus is not supported by cuarray arrays");
    return nullptr;
  }
  if (!takes(a) || !takes(b)) return defer_to_override(a, b, kPow, false);
  return guarded([&] {
    int unary = operator_power_index(a, b);
    return unary >= 0 ? call_unary(unary, a) : call_binary(index_of<kPow>(), a, b);
  });
}

PyObject* inplace_power_slot(PyObject* a, PyObject* b, PyObject*) {
  if (!takes(b)) return defer_to_override(a, b, kPow, true);
  return guarded([&] {
    int unary = operator_power_index(a, b);
    if (unary < 0) return call_inplace(index_of<kPow>(), a, b);
    py::handle args[1] = {a};
    return ufunc_call(unary, args, 1, args, py::none());
  });
}

// An object no array protocol knows (None, a string, a plain object): NumPy's == and != compare it with every
// element, all unequal. Other libraries' arrays and anything NumPy could convert are left to their own methods.
bool incomparable(PyObject* b) {
  if (PyList_Check(b) || PyTuple_Check(b)) return false;
  for (const char* name : {"__array_ufunc__", "__array_priority__", "__array__", "__array_interface__",
                           "__cuda_array_interface__", "__dlpack__"})
    if (PyObject_HasAttrString(b, name)) return false;
  return true;
}

PyObject* richcompare_slot(PyObject* a, PyObject* b, int op) {
  static const char* const names[] = {"less", "less_equal", "equal", "not_equal", "greater", "greater_equal"};
  static const int indices[] = {index_of(names[0]), index_of(names[1]), index_of(names[2]),
                                index_of(names[3]), index_of(names[4]), index_of(names[5])};
  if (!takes(b)) {
    if (!PyList_Check(b) && !PyTuple_Check(b) && PyObject_HasAttrString(b, "__array_ufunc__"))
      return defer_to_override(a, b, names[op], false);  // Note [Operands with __array_ufunc__]
    if ((op == Py_EQ || op == Py_NE) && (PyList_Check(b) || PyTuple_Check(b)))
      return guarded([&]() -> py::object { unsupported(b, op == Py_EQ ? "equal" : "not_equal"); });
    if ((op == Py_EQ || op == Py_NE) && incomparable(b))
      return guarded([&] {
        const Array& self = py::handle(a).cast<const NdArray&>().array;
        if (Py_TYPE(b)->tp_richcompare != PyBaseObject_Type.tp_richcompare && !PyUnicode_Check(b) &&
            !PyBytes_Check(b) && !PyType_Check(b)) {
          // An object with its own == or != : NumPy's object loop asks it about each element (int.__eq__
          // declines, so the object's reflected method answers). Done the same way, on a host copy.
          py::object host = py::handle(a).attr("get")();
          py::object r = py::reinterpret_steal<py::object>(PyObject_RichCompare(host.ptr(), b, op));
          if (!r) throw py::error_already_set();
          return py::cast(to_ndarray(py::module_::import("numpy").attr("asarray")(r, "bool")));
        }
        check_computable(self.dtype(), "comparisons");  // NumPy reads a str as a date there
        return py::cast(NdArray{ops::incomparable_result(self.shape(), op == Py_NE), py::none()});
      });
    Py_RETURN_NOTIMPLEMENTED;
  }
  return guarded([&] {
    try {
      return call_binary(indices[op], a, b);
    } catch (const TypeError&) {
      // Structured arrays, which the ufuncs refuse, compare field by field (cuarray._structured; Note [Void
      // storage]); caught here, the check costs other comparisons nothing.
      if ((op != Py_EQ && op != Py_NE) || !is_void(py::handle(a).cast<const NdArray&>().array.dtype())) throw;
      return hook(Hook::Structured).attr("compare")(py::handle(a), py::handle(b), op == Py_NE);
    }
  });
}

constexpr char kDivmod[] = "divmod";
constexpr char kAdd[] = "add", kSub[] = "subtract", kMul[] = "multiply", kDiv[] = "divide",
               kFloorDiv[] = "floor_divide", kMod[] = "remainder", kAnd[] = "bitwise_and", kOr[] = "bitwise_or",
               kXor[] = "bitwise_xor", kLshift[] = "left_shift", kRshift[] = "right_shift", kNeg[] = "negative",
               kPos[] = "positive", kAbs[] = "absolute", kInvert[] = "invert";

void install_slots(py::handle type) {
  auto* t = reinterpret_cast<PyHeapTypeObject*>(type.ptr());
  PyNumberMethods& n = t->as_number;
  n.nb_add = binary_slot<kAdd>;
  n.nb_subtract = binary_slot<kSub>;
  n.nb_multiply = binary_slot<kMul>;
  n.nb_true_divide = binary_slot<kDiv>;
  n.nb_floor_divide = binary_slot<kFloorDiv>;
  n.nb_remainder = binary_slot<kMod>;
  n.nb_power = power_slot;
  n.nb_divmod = binary_slot<kDivmod>;
  n.nb_and = binary_slot<kAnd>;
  n.nb_or = binary_slot<kOr>;
  n.nb_xor = binary_slot<kXor>;
  n.nb_lshift = binary_slot<kLshift>;
  n.nb_rshift = binary_slot<kRshift>;
  n.nb_inplace_add = inplace_slot<kAdd>;
  n.nb_inplace_subtract = inplace_slot<kSub>;
  n.nb_inplace_multiply = inplace_slot<kMul>;
  n.nb_inplace_true_divide = inplace_slot<kDiv>;
  n.nb_inplace_floor_divide = inplace_slot<kFloorDiv>;
  n.nb_inplace_remainder = inplace_slot<kMod>;
  n.nb_inplace_power = inplace_power_slot;
  n.nb_inplace_and = inplace_slot<kAnd>;
  n.nb_inplace_or = inplace_slot<kOr>;
  n.nb_inplace_xor = inplace_slot<kXor>;
  n.nb_inplace_lshift = inplace_slot<kLshift>;
  n.nb_inplace_rshift = inplace_slot<kRshift>;
  n.nb_negative = unary_slot<kNeg>;
  n.nb_positive = unary_slot<kPos>;
  n.nb_absolute = unary_slot<kAbs>;
  n.nb_invert = unary_slot<kInvert>;
  t->ht_type.tp_richcompare = richcompare_slot;
  PyType_Modified(&t->ht_type);
}

}  // namespace

[[noreturn]] void unsupported(py::handle obj, const char* op) {
  std::string type = py::str(py::type::handle_of(obj).attr("__module__")).cast<std::string>() + "." +
                     py::str(py::type::handle_of(obj).attr("__qualname__")).cast<std::string>();
  if (py::isinstance<py::array>(obj))
    throw TypeError(std::string("Unsupported type ") + type + " in cuarray." + op +
                    ": cuarray operations take cuarray arrays and scalars; move the NumPy array to the GPU with "
                    "cuarray.asarray(x) (or bring the cuarray array back with .get())");
  throw TypeError(std::string("Unsupported type ") + type + " in cuarray." + op +
                  ": expected a cuarray.ndarray or a scalar");
}

bool takes(PyObject* p) {
  static py::handle generic = py::object(py::module_::import("numpy").attr("generic")).release();
  return is_ndarray(p) || PyFloat_Check(p) || PyLong_Check(p) || PyComplex_Check(p) ||
         PyObject_IsInstance(p, generic.ptr()) == 1 || py::isinstance<py::array>(p) || has_device_protocol(p);
}

void init_operators(py::module_&) {
  py::object nd = py::reinterpret_borrow<py::object>(ndarray_type());
  // Python-level names for the operators (help(), reflected calls such as a.__radd__(b)); the slots below
  // are what `a + b` actually runs (Note [Operator slots]).
  const char* arithmetic[][2] = {{"add", "add"},         {"sub", "subtract"},          {"mul", "multiply"},
                                 {"truediv", "divide"},  {"floordiv", "floor_divide"}, {"mod", "remainder"},
                                 {"pow", "power"},       {"and", "bitwise_and"},       {"or", "bitwise_or"},
                                 {"xor", "bitwise_xor"}, {"lshift", "left_shift"},     {"rshift", "right_shift"}};
  for (auto& [op, uf] : arithmetic) {
    int u = index_of(uf);
    std::string plain = "__" + std::string(op) + "__", reflected = "__r" + std::string(op) + "__",
                inplace = "__i" + std::string(op) + "__";
    add_ndarray_member(plain.c_str(), py::cpp_function([u](py::handle a, py::handle b) { return call_binary(u, a, b); },
                                                       py::name(plain.c_str()), py::is_method(nd)));
    add_ndarray_member(reflected.c_str(),
                       py::cpp_function([u](py::handle a, py::handle b) { return call_binary(u, b, a); },
                                        py::name(reflected.c_str()), py::is_method(nd)));
    add_ndarray_member(inplace.c_str(),
                       py::cpp_function([u](py::handle a, py::handle b) { return call_inplace(u, a, b); },
                                        py::name(inplace.c_str()), py::is_method(nd)));
  }
  int divmod = index_of("divmod");
  add_ndarray_member("__divmod__",
                     py::cpp_function([divmod](py::handle a, py::handle b) { return call_binary(divmod, a, b); },
                                      py::name("__divmod__"), py::is_method(nd)));
  add_ndarray_member("__rdivmod__",
                     py::cpp_function([divmod](py::handle a, py::handle b) { return call_binary(divmod, b, a); },
                                      py::name("__rdivmod__"), py::is_method(nd)));
  const char* unary[][2] = {
      {"__neg__", "negative"}, {"__pos__", "positive"}, {"__abs__", "absolute"}, {"__invert__", "invert"}};
  for (auto& [op, uf] : unary) {
    int u = index_of(uf);
    add_ndarray_member(
        op, py::cpp_function([u](py::handle a) { return call_unary(u, a); }, py::name(op), py::is_method(nd)));
  }
  add_ndarray_member("__hash__", py::none());  // mutable arrays are unhashable, as in NumPy
  install_slots(nd);
}

}  // namespace cuarray::bind
