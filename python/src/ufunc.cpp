// Bindings for ufunc objects (cuarray.add, ...) and the ndarray operators, over the table in
// cpp/cuarray/ops/ufuncs.def. A call converts its arguments and hands them to the core's operand builder
// (Note [Operand builder] in ops/operands.h) and type resolution (Note [Type resolution] in
// ops/type_resolution.h); NumPy answers the resolver's misses through the hook installed here.
#include "cuarray/ops/ufunc.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>

#include "convert.h"
#include "cuarray/error.h"
#include "cuarray/ops/creation.h"
#include "cuarray/ops/operands.h"
#include "cuarray/ops/type_resolution.h"
#include "ndarray.h"
#include "operators.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

using ops::Ufunc;

// cuarray._ufuncs._resolve; never freed, since a py::object destroyed after interpreter shutdown aborts.
py::object& g_resolver = *new py::object;
py::object& g_fusion_type = *new py::object;  // cuarray._fusion._Traced, once fusion is imported
py::object& g_fusion_hook = *new py::object;

// The core's type hook: NumPy's loop (through cuarray._ufuncs._resolve) or NumPy's can_cast.
void numpy_types(const ops::TypeQuery& q, ops::TypeAnswer& a) {
  static py::handle np = py::module_::import("numpy").release();
  const char* casting = ops::casting_name(q.casting);
  if (q.kind == ops::TypeQuery::kCanCast) {
    auto from = static_cast<DType>(q.codes[0]), to = static_cast<DType>(q.codes[1]);
    a.can_cast = np.attr("can_cast")(to_numpy_dtype(from), to_numpy_dtype(to), casting).cast<bool>();
    return;
  }
  if (!g_resolver) throw TypeError("cuarray._ufuncs is not imported: no type resolver");
  py::tuple operands(q.nin);
  for (int i = 0; i < q.nin; ++i) {
    switch (q.codes[i]) {
      case ops::kWeakInt:
        operands[i] = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyLong_Type));
        break;
      case ops::kWeakFloat:
        operands[i] = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyFloat_Type));
        break;
      case ops::kWeakComplex:
        operands[i] = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyComplex_Type));
        break;
      default:
        operands[i] = to_numpy_dtype(static_cast<DType>(q.codes[i]));
    }
  }
  py::object dt =
      q.dtype == ops::kNoDType ? py::object(py::none()) : py::object(to_numpy_dtype(static_cast<DType>(q.dtype)));
  py::tuple types = g_resolver(q.name, operands, dt, casting);
  for (int i = 0; i < q.nin; ++i) a.loop.in[i] = to_dtype(types[i]);
  for (int o = 0; o < q.nout; ++o) a.loop.out[o] = to_dtype(types[q.nin + o]);
}

// NumPy compares integer arrays with Python ints outside the dtype's range by value (NEP 50): every
// element is then on the same side. Returns that answer, or nullopt when `u` is no comparison.
std::optional<bool> out_of_range_comparison(const Ufunc& u, py::handle scalar, int code, int scalar_index) {
  static const char* names[] = {"less", "less_equal", "greater", "greater_equal", "equal", "not_equal"};
  int op = -1;
  for (int k = 0; k < 6; ++k)
    if (u.def.name == names[k]) op = k;
  if (op < 0 || code != ops::kWeakInt) return std::nullopt;
  bool huge = PyObject_RichCompareBool(scalar.ptr(), py::int_(0).ptr(), Py_GT) == 1;
  bool array_is_less = scalar_index == 1 ? huge : !huge;  // "array OP scalar" as seen from the left operand
  switch (op) {
    case 0:
    case 1:
      return array_is_less;
    case 2:
    case 3:
      return !array_is_less;
    case 4:
      return false;
    default:
      return true;
  }
}

// The ufunc call: inputs, optional outputs (None entries are allocated), dtype=, casting=, order= (the layout of
// new outputs: 'C' or 'F', else that of an input of the output's shape, as 'K').
py::object call(int index, const py::handle* args, int nargs, const py::handle* outs, py::handle dtype_obj,
                const char* casting_name, char order = 'K') {
  const Ufunc& u = ops::ufuncs()[index];
  const int nin = u.def.nin, nout = u.def.nout;
  const char* uname = u.def.name.c_str();
  if (nargs != nin)
    throw TypeError(u.def.name + "() takes " + std::to_string(nin) + " positional input argument" +
                    (nin == 1 ? "" : "s") + " but " + std::to_string(nargs) + " were given");
  const int dtype = dtype_obj.is_none() ? ops::kNoDType : static_cast<int>(to_dtype(dtype_obj));
  const ops::Casting casting = ops::casting_from_name(casting_name);
  ops::ElementwiseOperands operands(uname, nin, nout);
  ops::Scalar scalars[3];
  for (int i = 0; i < nin; ++i) {
    if (py::isinstance(args[i], ndarray_type()))
      operands.set_input(i, args[i].cast<const NdArray&>().array);
    else if (to_scalar(args[i], scalars[i]))
      operands.set_input(i, scalars[i]);
    else
      unsupported(args[i], uname);
  }
  const ops::LoopTypes r = ops::resolve_loop(index, uname, nin, nout, operands.codes(), dtype, casting);
  for (int o = 0; o < nout; ++o) {
    if (!outs || outs[o].is_none()) continue;
    if (!py::isinstance(outs[o], ndarray_type())) {
      if (py::isinstance<py::array>(outs[o])) unsupported(outs[o], uname);
      throw TypeError("return arrays must be of ArrayType");
    }
    operands.set_output(o, outs[o].cast<const NdArray&>().array, r.out[o], casting);
  }
  try {
    operands.convert_scalars(r.in);
  } catch (py::error_already_set& e) {
    const int i = operands.failed();
    std::optional<bool> constant;
    if (e.matches(PyExc_OverflowError) && is_integer(r.in[i]))
      constant = out_of_range_comparison(u, args[i], operands.code(i), i);
    if (!constant) throw;
    operands.allocate(r.out, order);
    if (operands.output(0).dtype() != DType::Bool) throw;  // a non-bool out= for a comparison: NumPy's error
    char value = *constant;
    ops::fill(operands.output(0), &value);
    if (operands.given(0)) return py::reinterpret_borrow<py::object>(outs[0]);
    return py::cast(NdArray{std::move(operands.output(0)), py::none()});
  }
  static const int power = ops::ufunc_index("power");
  if (index == power) ops::check_power_exponent(operands.inputs()[1], r.in[1], operands.shape());
  operands.allocate(r.out, order);
  ops::elementwise(ops::ufunc_def_for(u, r.in, operands.inputs(), operands.shape()), r.in, r.out, operands.inputs(),
                   operands.outputs(), operands.shape());
  auto result = [&](int o) -> py::object {
    if (operands.given(o)) return py::reinterpret_borrow<py::object>(outs[o]);
    return py::cast(NdArray{std::move(operands.output(o)), py::none()});
  };
  if (nout == 1) return result(0);
  return py::make_tuple(result(0), result(1));
}

// Index of a ufunc by name: a search of the table, so call sites look it up once.
int index_of(const char* name) { return ops::ufunc_index(name); }

template <const char* Name>
int index_of() {
  static const int index = index_of(Name);
  return index;
}

struct PyUfunc {
  int index;
};

py::object call_binary(int index, py::handle a, py::handle b) {
  py::handle args[2] = {a, b};
  return call(index, args, 2, nullptr, py::none(), "same_kind");
}

py::object call_inplace(int index, py::handle self, py::handle b) {
  py::handle args[2] = {self, b};
  py::handle outs[1] = {self};
  return call(index, args, 2, outs, py::none(), "same_kind");
}

py::object call_unary(int index, py::handle a) {
  py::handle args[1] = {a};
  return call(index, args, 1, nullptr, py::none(), "same_kind");
}

template <const char* Name>
PyObject* binary_slot(PyObject* a, PyObject* b) {
  if (!takes(a) || !takes(b)) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&] { return call_binary(index_of<Name>(), a, b); });
}

template <const char* Name>
PyObject* inplace_slot(PyObject* a, PyObject* b) {
  if (!takes(b)) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&] { return call_inplace(index_of<Name>(), a, b); });
}

template <const char* Name>
PyObject* unary_slot(PyObject* a) {
  return guarded([&] { return call_unary(index_of<Name>(), a); });
}

constexpr char kPow[] = "power";
constexpr char kReciprocal[] = "reciprocal";
constexpr char kSquare[] = "square";
constexpr char kSqrt[] = "sqrt";

// NumPy's ndarray ** (fast_scalar_power): a float16/32/64 or complex array to the Python int -1 or 2, or to
// the Python float 0.5, is reciprocal, square or sqrt of it (which differ from power: sqrt(-inf) is nan
// where power(-inf, 0.5) is inf, and complex square and sqrt are not cpow). The ufunc index, or -1.
int operator_power_index(PyObject* a, PyObject* b) {
  if (!py::isinstance(py::handle(a), ndarray_type())) return -1;
  DType t = py::handle(a).cast<const NdArray&>().array.dtype();
  if (t != DType::Float16 && t != DType::Float32 && t != DType::Float64 && !is_complex(t)) return -1;
  if (PyLong_CheckExact(b)) {
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(b, &overflow);
    if (overflow) return -1;
    return v == -1 ? index_of<kReciprocal>() : v == 2 ? index_of<kSquare>() : -1;
  }
  return PyFloat_CheckExact(b) && PyFloat_AS_DOUBLE(b) == 0.5 ? index_of<kSqrt>() : -1;
}

PyObject* power_slot(PyObject* a, PyObject* b, PyObject* mod) {
  if (mod != Py_None) {
    PyErr_SetString(PyExc_TypeError, "pow() with a modulus is not supported by cuarray arrays");
    return nullptr;
  }
  if (!takes(a) || !takes(b)) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&] {
    int unary = operator_power_index(a, b);
    return unary >= 0 ? call_unary(unary, a) : call_binary(index_of<kPow>(), a, b);
  });
}

PyObject* inplace_power_slot(PyObject* a, PyObject* b, PyObject*) {
  if (!takes(b)) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&] {
    int unary = operator_power_index(a, b);
    if (unary < 0) return call_inplace(index_of<kPow>(), a, b);
    py::handle args[1] = {a};
    return call(unary, args, 1, args, py::none(), "same_kind");
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
  static const int indices[] = {index_of("less"),      index_of("less_equal"), index_of("equal"),
                                index_of("not_equal"), index_of("greater"),    index_of("greater_equal")};
  if (!takes(b)) {
    if ((op == Py_EQ || op == Py_NE) && (PyList_Check(b) || PyTuple_Check(b)))
      return guarded([&]() -> py::object { unsupported(b, op == Py_EQ ? "equal" : "not_equal"); });
    if ((op == Py_EQ || op == Py_NE) && incomparable(b))
      return guarded([&] {
        const Array& self = py::handle(a).cast<const NdArray&>().array;
        check_computable(self.dtype(), "comparisons");  // NumPy reads a str as a date there
        Array out = ops::zeros(self.shape(), DType::Bool);
        const bool unequal = op == Py_NE;
        if (unequal && out.size()) ops::fill(out, &unequal);
        return py::cast(NdArray{std::move(out), py::none()});
      });
    Py_RETURN_NOTIMPLEMENTED;
  }
  return guarded([&] { return call_binary(indices[op], a, b); });
}

// A ufunc object's call, `cp.add(a, b, out=..., dtype=..., casting=...)`: NumPy's parameters. `kwargs` may be
// null.
py::object call_ufunc(const PyUfunc& self, PyObject* args, PyObject* kwargs) {
  const Ufunc& u = ops::ufuncs()[self.index];
  int nin = u.def.nin, nout = u.def.nout;
  int n = static_cast<int>(PyTuple_GET_SIZE(args));
  if (g_fusion_type)
    for (int i = 0; i < n; ++i)
      if (py::isinstance(PyTuple_GET_ITEM(args, i), g_fusion_type)) {
        py::dict kw = kwargs ? py::reinterpret_borrow<py::dict>(kwargs) : py::dict();
        return g_fusion_hook(u.def.name, *py::reinterpret_borrow<py::tuple>(args), **kw);
      }
  py::handle in[3], out[2] = {py::none(), py::none()};
  if (n > nin + nout)
    throw TypeError(u.def.name + "() takes from " + std::to_string(nin) + " to " + std::to_string(nin + nout) +
                    " positional arguments but " + std::to_string(n) + " were given");
  for (int i = 0; i < std::min(n, nin); ++i) in[i] = PyTuple_GET_ITEM(args, i);
  for (int i = nin; i < n; ++i) out[i - nin] = PyTuple_GET_ITEM(args, i);
  py::handle dtype = py::none();
  std::string casting = "same_kind";
  char order = 'K';
  PyObject *k, *v;
  for (Py_ssize_t pos = 0; kwargs && PyDict_Next(kwargs, &pos, &k, &v);) {
    std::string key = py::str(k);
    if (key == "out") {
      if (n > nin) throw TypeError("cannot specify 'out' as both a positional and keyword argument");
      if (PyTuple_Check(v)) {
        if (static_cast<int>(PyTuple_GET_SIZE(v)) != nout)
          throw ValueError("The 'out' tuple must have exactly one entry per ufunc output");
        for (int o = 0; o < nout; ++o) out[o] = PyTuple_GET_ITEM(v, o);
      } else {
        if (nout != 1) throw TypeError("'out' must be a tuple of arrays for a ufunc with several outputs");
        out[0] = v;
      }
    } else if (key == "dtype") {
      dtype = v;
    } else if (key == "casting") {
      casting = to_casting(v, false);
    } else if (key == "order") {
      order = to_order(v, 'K');
    } else if (key == "subok") {  // cuarray has no ndarray subclasses to keep
    } else if (key == "where" && v == Py_True) {
    } else {
      throw TypeError(u.def.name + "() got an unexpected keyword argument '" + key + "' (cuarray)");
    }
  }
  return call(self.index, in, std::min(n, nin), out, dtype, casting.c_str(), order);
}

// The ufunc type's tp_call (Note [Operator slots]).
PyObject* ufunc_slot(PyObject* self, PyObject* args, PyObject* kwargs) {
  return guarded([&] { return call_ufunc(py::handle(self).cast<const PyUfunc&>(), args, kwargs); });
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
  return PyLong_Check(p) || PyFloat_Check(p) || PyComplex_Check(p) || PyBool_Check(p) ||
         py::isinstance(p, ndarray_type()) || PyObject_IsInstance(p, generic.ptr()) == 1 ||
         py::isinstance<py::array>(p);
}

void init_ufunc(py::module_& m) {
  ops::set_type_hook(numpy_types);
  install_scalar_hook();
  m.def("_set_ufunc_resolver", [](py::object f) { g_resolver = f; });
  // Tracing for cuarray.fuse: a ufunc called with a traced value hands the call to `hook`.
  m.def("_set_fusion_hook", [](py::object traced_type, py::object hook) {
    g_fusion_type = traced_type;
    g_fusion_hook = hook;
  });
  // The table row of a ufunc, for code generation outside the engine (fusion): (body, [loop signatures]).
  m.def("_ufunc_row", [](const std::string& name) {
    const Ufunc& u = ops::ufuncs()[ops::ufunc_index(name)];
    std::vector<std::string> loops;
    for (const auto& l : u.loops) loops.push_back(l.signature);
    return py::make_tuple(u.def.body, loops);
  });
  m.def("_ufunc_names", [] {
    std::vector<std::string> names;
    for (const auto& u : ops::ufuncs()) names.push_back(u.def.name);
    return names;
  });

  py::class_<PyUfunc> ufunc_type(m, "ufunc", py::dynamic_attr());
  ufunc_type.def(py::init([](const std::string& name) { return PyUfunc{ops::ufunc_index(name)}; }))
      .def("__call__", [](const PyUfunc& self, py::args args,
                          py::kwargs kwargs) { return call_ufunc(self, args.ptr(), kwargs.ptr()); })
      .def_property_readonly("nin", [](const PyUfunc& s) { return ops::ufuncs()[s.index].def.nin; })
      .def_property_readonly("nout", [](const PyUfunc& s) { return ops::ufuncs()[s.index].def.nout; })
      .def_property_readonly(
          "nargs", [](const PyUfunc& s) { return ops::ufuncs()[s.index].def.nin + ops::ufuncs()[s.index].def.nout; })
      .def_property_readonly("ntypes", [](const PyUfunc& s) { return ops::ufuncs()[s.index].loops.size(); })
      .def_property_readonly("types",
                             [](const PyUfunc& s) {
                               std::vector<std::string> t;
                               for (const auto& l : ops::ufuncs()[s.index].loops) t.push_back(l.signature);
                               return t;
                             })
      .def("__repr__", [](const PyUfunc& s) { return "<ufunc '" + ops::ufuncs()[s.index].def.name + "'>"; });
  // After every def: `__call__` above is for help() and explicit u.__call__(...); calls take this slot.
  reinterpret_cast<PyTypeObject*>(ufunc_type.ptr())->tp_call = ufunc_slot;

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
