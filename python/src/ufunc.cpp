// Bindings for ufunc objects (cuarray.add, ...), over the table in
// cpp/cuarray/ops/ufuncs.def. A call converts its arguments and hands them to the core's operand builder
// (Note [Operand builder] in ops/operands.h) and type resolution (Note [Type resolution] in
// ops/type_resolution.h); NumPy answers the resolver's misses through the hook installed here. The ndarray's
// operators call ufunc_call too (operators.cpp).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

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
    } else if (key == "subok") {  // cuarray has no ndarray subclasses to keep
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
    if (is_ndarray(args[i])) {
      arrays[i] = &ndarray_of(args[i]).array;
    } else if (to_scalar(args[i], scalars[i].emplace())) {
      c.set_input(i, *scalars[i]);
      continue;
    } else {
      if (!py::isinstance<py::array>(args[i])) foreign[i] = device_operand(args[i]);
      if (!foreign[i] || foreign[i].is_none()) unsupported(args[i], c.name());
      arrays[i] = &foreign[i].cast<const NdArray&>().array;
    }
    c.set_input(i, *arrays[i]);
  }
  c.resolve(dtype, casting);
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
