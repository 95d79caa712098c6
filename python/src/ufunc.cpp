// Bindings for ufunc objects (cuarray.add, ...), over the table in
// cpp/cuarray/ops/ufuncs.def. A call converts its arguments and hands them to the core's operand builder
// (Note [Operand builder] in ops/operands.h) and type resolution (Note [Type resolution] in
// ops/type_resolution.h); NumPy answers the resolver's misses through the hook installed here. The ndarray's
// operators call ufunc_call too (operators.cpp).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "convert.h"
#include "cuarray/error.h"
#include "cuarray/ops/type_resolution.h"
#include "cuarray/ops/ufunc_call.h"
#include "ndarray.h"
#include "operators.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

using ops::Ufunc;

// cuarray._ufuncs._resolve; never freed, since a py::object destroyed after interpreter shutdown aborts.
py::object& g_resolver = *new py::object;
py::object& g_keywords_hook = *new py::object;  // cuarray._ufunc_keywords.call
py::object& g_fusion_type = *new py::object;    // cuarray._fusion._Traced, once fusion is imported
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

struct PyUfunc {
  int index;
};

// A ufunc object's call, `cp.add(a, b, out=..., dtype=..., casting=...)`: NumPy's parameters. `kwargs` may be
// null.
py::object call_ufunc(const PyUfunc& self, PyObject* self_obj, PyObject* args, PyObject* kwargs) {
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
    throw TypeError(u.public_name + "() takes from " + std::to_string(nin) + " to " + std::to_string(nin + nout) +
                    " positional arguments but " + std::to_string(n) + " were given");
  for (int i = 0; i < std::min(n, nin); ++i) in[i] = PyTuple_GET_ITEM(args, i);
  for (int i = nin; i < n; ++i) out[i - nin] = PyTuple_GET_ITEM(args, i);
  py::handle dtype = py::none();
  std::string casting = "same_kind";
  char order = 'K';
  bool in_python = false;  // where= other than True, or signature=
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
    } else if (key == "subok") {  // cuarray has no ndarray subclasses to keep; NumPy's check of the value
      if (!PyBool_Check(v)) throw TypeError("'subok' must be a boolean");
    } else if (key == "where") {
      in_python = in_python || v != Py_True;
    } else if (key == "signature") {
      in_python = true;
    } else {
      throw TypeError(u.public_name + "() got an unexpected keyword argument '" + key + "' (cuarray)");
    }
  }
  // A mask (the ufunc everywhere, then a masked copy into the outputs) and a signature (NumPy resolves the loop,
  // the inputs are cast to it) run in Python: cuarray._ufunc_keywords.
  if (in_python)
    return g_keywords_hook(py::handle(self_obj), *py::reinterpret_borrow<py::tuple>(args),
                           **py::reinterpret_borrow<py::dict>(kwargs));
  return ufunc_call(self.index, in, std::min(n, nin), out, dtype, ops::casting_from_name(casting.c_str()), order);
}

// The ufunc type's tp_call (Note [Operator slots]).
PyObject* ufunc_slot(PyObject* self, PyObject* args, PyObject* kwargs) {
  return guarded([&] { return call_ufunc(py::handle(self).cast<const PyUfunc&>(), self, args, kwargs); });
}

// Note [Unary ufuncs of Python numbers]
// NumPy promotes no weak scalar in a ufunc of one input: it computes on np.asarray(x), a strong int64, uint64
// (an int in [2**63, 2**64)), float64 or complex128 value, so `sqrt(4, casting='no')` raises, `negative(2**63)`
// is uint64 and `negative(300, dtype=int8, casting='unsafe')` casts 300 (to 44) rather than refusing it. Such
// a scalar is handed to the core as that NumPy value. An int outside both ranges is an object array there,
// which cuarray has no dtype for: NumPy's own call tells what it does with it, and its error is raised where it
// raises (sqrt's TypeError, isnan's); where its object loop computes a Python int (negative, absolute, ...),
// cuarray raises OverflowError. Only with dtype= and casting='unsafe' does NumPy give a number of a dtype
// (float64), which cuarray then computes from the int as a weak one (Note [Python scalars alone] in
// cuarray/_ufuncs.py).
void read_unary_scalar(const Ufunc& u, py::handle obj, ops::Scalar& s, py::handle dtype, ops::Casting casting) {
  using Tag = ops::Scalar::Tag;
  switch (s.tag) {
    case Tag::Int:
      s.dtype = DType::Int64;
      std::memcpy(s.bytes, &s.i, sizeof s.i);
      break;
    case Tag::UInt:
      s.dtype = DType::UInt64;
      std::memcpy(s.bytes, &s.u, sizeof s.u);
      break;
    case Tag::Float:
      s.dtype = DType::Float64;
      std::memcpy(s.bytes, &s.re, sizeof s.re);
      break;
    case Tag::Complex:
      s.dtype = DType::Complex128;
      std::memcpy(s.bytes, &s.re, sizeof s.re);
      std::memcpy(s.bytes + sizeof s.re, &s.im, sizeof s.im);
      break;
    case Tag::BigInt: {
      static py::handle np = py::module_::import("numpy").release();
      py::object reference = py::getattr(np, u.def.name.c_str(), py::none());
      if (!py::isinstance(reference, np.attr("ufunc"))) return;
      py::object r = reference(obj, "dtype"_a = dtype, "casting"_a = ops::casting_name(casting));  // its error
      const bool typed = py::isinstance<py::tuple>(r) ? is_numpy_scalar(r[py::int_(0)]) : is_numpy_scalar(r);
      if (!typed)
        raise_overflow("Python integer " + py::repr(obj).cast<std::string>() +
                       " is out of the uint64 range: NumPy computes " + u.public_name +
                       " of it as a Python object (object dtype), which cuarray has no dtype for");
      return;
    }
    default:  // a bool or a NumPy value: strong already
      return;
  }
  s.tag = Tag::Typed;
}

// Note [Out-of-range comparisons] (cpp/cuarray/ops/ufunc_call.cpp), for two Python ints: NumPy compares their
// values exactly (`equal(2**63, 2**63)` is True), where the core's constant stands for an array beside one int.
// When either is outside its integer loop type, both are replaced by small ints in the same order (0, 1 or 2
// against 1), which every integer type holds and which compare as the ints do under each comparison.
void order_python_ints(int index, const ops::LoopTypes& loop, const py::handle* args, ops::Scalar& a, ops::Scalar& b) {
  using Tag = ops::Scalar::Tag;
  auto is_int = [](const ops::Scalar& s) { return s.tag == Tag::Int || s.tag == Tag::UInt || s.tag == Tag::BigInt; };
  if (!is_int(a) || !is_int(b) || !is_integer(loop.in[0]) || !is_integer(loop.in[1])) return;
  if (ops::int_fits(a, loop.in[0]) && ops::int_fits(b, loop.in[1])) return;
  static const int comparisons[] = {ops::ufunc_index("less"),    ops::ufunc_index("less_equal"),
                                    ops::ufunc_index("greater"), ops::ufunc_index("greater_equal"),
                                    ops::ufunc_index("equal"),   ops::ufunc_index("not_equal")};
  if (std::find(std::begin(comparisons), std::end(comparisons), index) == std::end(comparisons)) return;
  const int less = PyObject_RichCompareBool(args[0].ptr(), args[1].ptr(), Py_LT);
  const int equal = less ? 0 : PyObject_RichCompareBool(args[0].ptr(), args[1].ptr(), Py_EQ);
  if (less < 0 || equal < 0) throw py::error_already_set();
  a.tag = b.tag = Tag::Int;
  a.i = less ? 0 : equal ? 1 : 2;
  b.i = 1;
}

}  // namespace

// The ufunc call: inputs, optional outputs (None entries are allocated), dtype=, casting=, order= (the layout of
// new outputs: 'C' or 'F', else that of an input of the output's shape, as 'K').
py::object ufunc_call(int index, const py::handle* args, int nargs, const py::handle* outs, py::handle dtype_obj,
                      ops::Casting casting, char order) {
  ops::UfuncCall c(index, nargs);
  const int dtype = dtype_obj.is_none() ? ops::kNoDType : static_cast<int>(to_dtype(dtype_obj));
  std::optional<ops::Scalar> scalars[3];  // constructed only for scalar arguments
  py::object foreign[3];                  // CuPy-like objects' and other libraries' arrays, read as cuarray's
  const Array* arrays[3] = {};            // the array inputs
  for (int i = 0; i < nargs; ++i) {
    py::handle arg = args[i];
    if (is_ndarray(arg)) {
      arrays[i] = &ndarray_of(arg).array;
      c.set_input(i, *arrays[i]);
      continue;
    }
    bool scalar = to_scalar(arg, scalars[i].emplace());
    if (!scalar && py::isinstance<py::array>(arg) && py::reinterpret_borrow<py::array>(arg).ndim() == 0) {
      arg = foreign[i] = arg.attr("__getitem__")(py::tuple());  // NumPy's 0-d array: its scalar, as NumPy reads it
      scalar = to_scalar(arg, scalars[i].emplace());
    }
    if (scalar) {
      if (nargs == 1) read_unary_scalar(c.ufunc(), arg, *scalars[i], dtype_obj, casting);
      c.set_input(i, *scalars[i]);
      continue;
    }
    if (!py::isinstance<py::array>(arg)) foreign[i] = device_operand(arg);
    if (!foreign[i] || foreign[i].is_none()) unsupported(arg, c.name());
    arrays[i] = &foreign[i].cast<const NdArray&>().array;
    c.set_input(i, *arrays[i]);
  }
  c.resolve(dtype, casting);
  if (nargs == 2 && scalars[0] && scalars[1]) order_python_ints(index, c.loop(), args, *scalars[0], *scalars[1]);
  // NumPy's ComplexWarning for each complex array cast to a real loop type (dtype=), and each complex result
  // cast to a real out= array (bool excepted, as NumPy's casts to bool drop nothing it warns of).
  for (int i = 0; i < nargs; ++i)
    if (arrays[i] && drops_imaginary(arrays[i]->dtype(), c.loop().in[i])) warn_complex_to_real();
  for (int o = 0; o < c.nout(); ++o) {
    if (!outs || outs[o].is_none()) continue;
    if (!is_ndarray(outs[o])) {
      if (py::isinstance<py::array>(outs[o])) unsupported(outs[o], c.name());
      throw TypeError("return arrays must be of ArrayType");
    }
    const Array& out = outs[o].cast<const NdArray&>().array;
    c.set_output(o, out);
    if (drops_imaginary(c.loop().out[o], out.dtype())) warn_complex_to_real();
  }
  c.run(order);
  auto result = [&](int o) -> py::object {
    if (c.given(o)) return py::reinterpret_borrow<py::object>(outs[o]);
    return to_object(std::move(c.output(o)));
  };
  if (c.nout() == 1) return result(0);
  return py::make_tuple(result(0), result(1));
}

void init_ufunc(py::module_& m) {
  ops::set_type_hook(numpy_types);
  install_scalar_hook();
  m.def("_set_ufunc_resolver", [](py::object f) { g_resolver = f; });
  m.def("_set_ufunc_keywords_hook", [](py::object f) { g_keywords_hook = f; });
  // Tracing for cuarray.fuse: a ufunc called with a traced value hands the call to `hook`.
  m.def("_set_fusion_hook", [](py::object traced_type, py::object hook) {
    g_fusion_type = traced_type;
    g_fusion_hook = hook;
  });
  // The table row of a ufunc, for code generation outside the engine (fusion): (body, [loop signatures]).
  m.def("_ufunc_row", [](const std::string& name) {
    const int index = ops::ufunc_index(name);
    return py::make_tuple(ops::ufuncs()[index].def.body, ops::loop_signatures(index));
  });
  m.def("_ufunc_names", ops::ufunc_names);

  py::class_<PyUfunc> ufunc_type(m, "ufunc", py::dynamic_attr());
  ufunc_type.def(py::init([](const std::string& name) { return PyUfunc{ops::ufunc_index(name)}; }))
      .def("__call__",
           [](py::object self, py::args args, py::kwargs kwargs) {
             return call_ufunc(self.cast<const PyUfunc&>(), self.ptr(), args.ptr(), kwargs.ptr());
           })
      .def_property_readonly("nin", [](const PyUfunc& s) { return ops::ufuncs()[s.index].def.nin; })
      .def_property_readonly("nout", [](const PyUfunc& s) { return ops::ufuncs()[s.index].def.nout; })
      .def_property_readonly(
          "nargs", [](const PyUfunc& s) { return ops::ufuncs()[s.index].def.nin + ops::ufuncs()[s.index].def.nout; })
      .def_property_readonly("ntypes", [](const PyUfunc& s) { return ops::loop_signatures(s.index).size(); })
      .def_property_readonly("types", [](const PyUfunc& s) { return ops::loop_signatures(s.index); })
      .def_property_readonly("_public_name", [](const PyUfunc& s) { return ops::ufuncs()[s.index].public_name; })
      .def("__repr__", [](const PyUfunc& s) { return "<ufunc '" + ops::ufuncs()[s.index].public_name + "'>"; });
  // After every def: `__call__` above is for help() and explicit u.__call__(...); calls take this slot.
  reinterpret_cast<PyTypeObject*>(ufunc_type.ptr())->tp_call = ufunc_slot;
}

}  // namespace cuarray::bind
