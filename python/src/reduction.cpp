// Bindings for the reductions of cpp/cuarray/ops/reductions.def (cuarray.sum, ndarray.max, ...).
//
// Which loop types a reduction runs in is its row's type rule, applied by the core
// (ops::reduction_types, Note [Type resolution] in ops/type_resolution.h); its operands go through the core's
// builder (Note [Operand builder] in ops/operands.h).
#include "cuarray/ops/reduction.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <mutex>
#include <optional>

#include "convert.h"
#include "cuarray/error.h"
#include "cuarray/ops/operands.h"
#include "ndarray.h"
#include "operators.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

py::object& g_fusion_type = *new py::object;  // cuarray._fusion._Traced, once fusion is imported; never freed
py::object& g_fusion_hook = *new py::object;
py::object& g_host_hook = *new py::object;     // cuarray._reduction_options.host_reduction; never freed
py::object& g_options_hook = *new py::object;  // cuarray._reduction_options.reduce; never freed

[[noreturn]] void unsupported(py::handle obj) {
  throw TypeError("Unsupported type " + py::str(py::type::handle_of(obj)).cast<std::string>() +
                  ": cuarray reductions take cuarray arrays; move NumPy arrays to the GPU with cuarray.asarray(x)");
}

const NdArray& as_array(py::handle obj) {
  if (!is_ndarray(obj)) unsupported(obj);
  return obj.cast<const NdArray&>();
}

// `def` over `axis` of `inputs`; the result is a new array of dtype `result`, or `out_obj`.
py::object run(const ops::ReductionDef& def, const DType* in_types, DType out_loop, DType result, const Array* inputs,
               int nin, py::handle axis, py::handle out_obj, bool keepdims, double ddof) {
  std::optional<std::vector<std::int64_t>> axes;
  if (!axis.is_none()) axes = to_axes(axis);
  const bool int_axis = PyLong_Check(axis.ptr()) && !PyBool_Check(axis.ptr());
  ops::ReductionOperands operands(def, inputs, nin, axes, int_axis, keepdims);
  if (!out_obj.is_none()) operands.set_output(as_array(out_obj).array);
  operands.run(in_types, out_loop, result, ddof);
  if (!out_obj.is_none()) return py::reinterpret_borrow<py::object>(out_obj);
  return to_object(operands.take_result());
}

// Reduction `def` of an `a` that is not a cuarray array: a traced value of cuarray.fuse goes to the tracer;
// anything else to the host hook (Note [Reductions of host arrays] in cuarray/_reduction.py), which answers
// NotImplemented for what it does not take. Only this error path of `reduce` pays for these checks.
py::object reduce_foreign(const ops::ReductionDef& def, py::handle a_obj, py::handle axis, py::handle dtype,
                          py::handle out_obj, bool keepdims, double ddof, py::handle b_obj) {
  if (g_fusion_type && py::isinstance(a_obj, g_fusion_type))
    return g_fusion_hook(def.name, a_obj, axis, dtype, out_obj, keepdims, ddof, b_obj);
  if (g_host_hook) {
    py::object r = g_host_hook(def.name, a_obj, axis, dtype, out_obj, keepdims, ddof);
    if (!r.is(py::handle(Py_NotImplemented))) return r;
  }
  unsupported(a_obj);
}

// Built-in reduction `index` of a (and b), in the loop types of its row's rule.
py::object reduce(int index, py::handle a_obj, py::handle axis, py::handle dtype, py::handle out_obj, bool keepdims,
                  double ddof, py::handle b_obj) {
  const ops::ReductionDef& def = ops::reductions().at(index);
  if (!is_ndarray(a_obj)) return reduce_foreign(def, a_obj, axis, dtype, out_obj, keepdims, ddof, b_obj);
  const Array* a = &a_obj.cast<const NdArray&>().array;
  std::optional<DType> dt;
  if (!dtype.is_none()) dt = to_dtype(dtype);
  if (def.nin == 1) {  // the array itself: no copy of its shape and strides
    DType t = a->dtype();
    std::optional<DType> out;  // out='s dtype takes part in the loop (Note [Reductions into out])
    if (!out_obj.is_none()) out = as_array(out_obj).array.dtype();
    ops::ReductionTypes types = ops::reduction_types(def.rule, &t, 1, dt, out);
    // NumPy's ComplexWarning where dtype= makes a complex array's loop real (sum(dtype=float32)).
    if (dt && drops_imaginary(t, types.in[0])) warn_complex_to_real();
    return run(def, types.in, types.out_loop, types.result, a, 1, axis, out_obj, keepdims, ddof);
  }
  const Array inputs[2] = {*a, as_array(b_obj).array};
  const DType in[2] = {inputs[0].dtype(), inputs[1].dtype()};
  ops::ReductionTypes types = ops::reduction_types(def.rule, in, 2, dt);
  return run(def, types.in, types.out_loop, types.result, inputs, 2, axis, out_obj, keepdims, ddof);
}

py::handle or_none(PyObject* p) { return p ? py::handle(p) : py::handle(py::none()); }

// _core._reduce(index, a, axis, dtype, out, keepdims, ddof, b): the functions of cuarray._reduction call
// it with every argument, in this order (Note [Operator slots]).
PyObject* reduce_call(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  return guarded([&] {
    if (nargs != 8) throw TypeError("_reduce takes 8 arguments (index, a, axis, dtype, out, keepdims, ddof, b)");
    long index = PyLong_AsLong(args[0]);
    if (index == -1 && PyErr_Occurred()) throw py::error_already_set();
    double ddof = PyFloat_AsDouble(args[6]);
    if (ddof == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    if (index < 0 || index >= static_cast<long>(ops::reductions().size()))
      throw ValueError("_reduce: no reduction number " + std::to_string(index));
    return reduce(static_cast<int>(index), args[1], args[2], args[3], args[4], truth(args[5]), ddof, args[7]);
  });
}

// A method given NumPy's initial= or where= (either may be null): composed in Python, off the kernels' path
// (Note [Reduction options] in cuarray/_reduction_options.py).
py::object reduce_with_options(const char* name, py::handle self, py::handle axis, py::handle dtype, py::handle out,
                               bool keepdims, PyObject* initial, PyObject* where) {
  if (!g_options_hook) throw TypeError(std::string(name) + "(): initial= and where= need the cuarray package");
  py::dict options;
  if (initial) options["initial"] = py::handle(initial);
  if (where) options["where"] = py::handle(where);
  return g_options_hook(name, self, axis, dtype, out, keepdims, **options);
}

// ndarray.sum and prod, with NumPy's parameters (axis, dtype, out, keepdims, initial, where).
template <const char* Name>
PyObject* method_with_dtype(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&] {
    static const int index = static_cast<int>(ops::reduction(Name).id);  // a built-in's id is its index
    static const char* const names[] = {"axis", "dtype", "out", "keepdims", "initial", "where"};
    PyObject* v[6];
    match_args(Name, names, args, nargs, kwnames, v);
    if (v[4] || v[5])
      return reduce_with_options(Name, self, or_none(v[0]), or_none(v[1]), or_none(v[2]), truth(v[3]), v[4], v[5]);
    return reduce(index, self, or_none(v[0]), or_none(v[1]), or_none(v[2]), truth(v[3]), 0.0, py::none());
  });
}

// ndarray.max and min (axis, out, keepdims, initial, where), and all and any (axis, out, keepdims, where): a
// method takes `initial` when Initial is set.
template <const char* Name, bool Initial>
PyObject* method(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&] {
    static const int index = static_cast<int>(ops::reduction(Name).id);  // a built-in's id is its index
    static const char* const with_initial[] = {"axis", "out", "keepdims", "initial", "where"};
    static const char* const without[] = {"axis", "out", "keepdims", "where"};
    PyObject* v[5] = {};
    if constexpr (Initial) {
      match_args(Name, with_initial, args, nargs, kwnames, v);
    } else {
      PyObject* w[4];
      if (nargs > 3)  // NumPy's where= of all and any is keyword-only
        throw TypeError(std::string(Name) + "() takes at most 3 positional arguments (" + std::to_string(nargs) +
                        " given)");
      match_args(Name, without, args, nargs, kwnames, w);
      std::copy(w, w + 3, v);
      v[4] = w[3];
    }
    if (v[3] || v[4])
      return reduce_with_options(Name, self, or_none(v[0]), py::none(), or_none(v[1]), truth(v[2]), v[3], v[4]);
    return reduce(index, self, or_none(v[0]), py::none(), or_none(v[1]), truth(v[2]), 0.0, py::none());
  });
}

constexpr char kSum[] = "sum", kProd[] = "prod", kMax[] = "max", kMin[] = "min", kAll[] = "all", kAny[] = "any";

#define CUARRAY_METHOD(f, name, params, what)                                                            \
  {                                                                                                      \
    name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f)), METH_FASTCALL | METH_KEYWORDS, \
        name "($self, /, " params ")\n--\n\n" what " over `axis` (None: all); see cuarray." name "."     \
  }
#define CUARRAY_WITH_DTYPE "axis=None, dtype=None, out=None, keepdims=False, initial=..., where=True"
#define CUARRAY_NO_DTYPE "axis=None, out=None, keepdims=False, initial=..., where=True"
#define CUARRAY_NO_INITIAL "axis=None, out=None, keepdims=False, *, where=True"
PyMethodDef g_methods[] = {
    CUARRAY_METHOD(method_with_dtype<kSum>, "sum", CUARRAY_WITH_DTYPE, "Sum of the elements"),
    CUARRAY_METHOD(method_with_dtype<kProd>, "prod", CUARRAY_WITH_DTYPE, "Product of the elements"),
    CUARRAY_METHOD((method<kMax, true>), "max", CUARRAY_NO_DTYPE, "Largest element"),
    CUARRAY_METHOD((method<kMin, true>), "min", CUARRAY_NO_DTYPE, "Smallest element"),
    CUARRAY_METHOD((method<kAll, false>), "all", CUARRAY_NO_INITIAL, "Whether every element is true"),
    CUARRAY_METHOD((method<kAny, false>), "any", CUARRAY_NO_INITIAL, "Whether any element is true"),
};
#undef CUARRAY_METHOD
#undef CUARRAY_WITH_DTYPE
#undef CUARRAY_NO_DTYPE
#undef CUARRAY_NO_INITIAL
PyMethodDef g_reduce_def = {"_reduce", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(reduce_call)),
                            METH_FASTCALL, "_reduce(index, a, axis, dtype, out, keepdims, ddof, b)"};

}  // namespace

void init_reduction(py::module_& m) {
  // The loop types of built-in reduction `name` for input `dtypes`, `dtype=` and the dtype of out= (its row's
  // type rule): ([input loop types], output loop type, result dtype), as NumPy dtypes.
  m.def(
      "_reduction_types",
      [](const std::string& name, const std::vector<py::handle>& dtypes, py::handle dtype, py::handle out) {
        const ops::ReductionDef& def = ops::reduction(name);
        std::vector<DType> in = to_dtypes(dtypes);
        std::optional<DType> dt, out_t;
        if (!dtype.is_none()) dt = to_dtype(dtype);
        if (!out.is_none()) out_t = to_dtype(out);
        ops::ReductionTypes t = ops::reduction_types(def, in, dt, out_t);
        py::list loops;
        for (int k = 0; k < def.nin; ++k) loops.append(to_numpy_dtype(t.in[k]));
        return py::make_tuple(loops, to_numpy_dtype(t.out_loop), to_numpy_dtype(t.result));
      },
      "name"_a, "dtypes"_a, "dtype"_a, "out"_a = py::none());
  m.def("_reduction_names", ops::reduction_names);
  m.add_object("_reduce", py::reinterpret_steal<py::object>(PyCFunction_NewEx(&g_reduce_def, nullptr, nullptr)));
  for (PyMethodDef& def : g_methods) {
    auto* type = reinterpret_cast<PyTypeObject*>(ndarray_type().ptr());
    py::object descr = py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, &def));
    if (!descr) throw py::error_already_set();
    add_ndarray_member(def.ml_name, descr);
  }
  // Tracing for cuarray.fuse: a reduction of a traced value hands the call to `hook`.
  m.def("_set_reduction_fusion_hook", [](py::object traced_type, py::object hook) {
    g_fusion_type = traced_type;
    g_fusion_hook = hook;
  });
  // A reduction of an `a` that is neither a cuarray array nor a traced value calls
  // hook(name, a, axis, dtype, out, keepdims, ddof); NotImplemented from it leaves the TypeError.
  m.def("_set_reduction_host_hook", [](py::object hook) { g_host_hook = hook; });
  // A reduction method given initial= or where= calls hook(name, a, axis, dtype, out, keepdims, **those).
  m.def("_set_reduction_options_hook", [](py::object hook) { g_options_hook = hook; });
  // A built-in row, for reductions generated from it (fusion): (acc_type, identity, map, reduce, post, has_identity).
  m.def("_reduction_row", [](const std::string& name) {
    const ops::ReductionDef& d = ops::reduction(name);
    return py::make_tuple(d.acc_type, d.identity, d.map, d.reduce, d.post, d.has_identity);
  });
  m.def("_reduction_def",
        [](const std::string& name, int nin, const std::string& acc_type, const std::string& identity,
           const std::string& map, const std::string& reduce, const std::string& post, const std::string& preamble,
           bool has_identity, bool uses_index, const std::vector<std::string>& options) {
          return ops::add_definition(ops::ReductionDef{ops::new_reduction_id(), name, nin, acc_type, identity, map,
                                                       reduce, post, preamble, has_identity, uses_index, options});
        });
  // Runs definition `handle` over `axis` of `inputs` (ndarrays) with the given loop types; the result has
  // dtype `result`, or is written to `out`.
  m.def("_reduction_call",
        [](std::size_t handle, const std::vector<py::handle>& inputs, const std::vector<py::handle>& in_types,
           py::handle out_loop, py::handle result, py::handle axis, py::handle out, bool keepdims) {
          const ops::ReductionDef& def = ops::reduction_definition(handle);
          ops::check_arity(def, inputs.size(), in_types.size());
          std::vector<Array> arrays;
          for (auto a : inputs) arrays.push_back(as_array(a).array);
          std::vector<DType> in_t = to_dtypes(in_types);
          return run(def, in_t.data(), to_dtype(out_loop), to_dtype(result), arrays.data(), def.nin, axis, out,
                     keepdims, 0.0);
        });
  // The source of one variant of definition `handle`'s kernels (inputs stored as their loop types), for
  // ReductionKernel.cached_codes and for tests that compile generated kernels without a device. layout: 0 rows,
  // 1 columns, 2 finish.
  m.def("_reduction_source", [](std::size_t handle, const std::vector<py::handle>& in_types, py::handle out_loop,
                                py::handle out_storage, int layout, int vec, bool partial) {
    const ops::ReductionDef& def = ops::reduction_definition(handle);
    std::vector<DType> in_t = to_dtypes(in_types);
    ops::KernelSource k =
        ops::reduction_source(def, in_t.data(), to_dtype(out_loop), in_t.data(), to_dtype(out_storage),
                              static_cast<ops::ReduceLayout>(layout), vec, partial, 1, 1, false);
    return py::make_tuple(k.source, k.name);
  });
}

}  // namespace cuarray::bind
