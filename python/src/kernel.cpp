// Bindings for ElementwiseKernel's definitions and calls, and cuarray.fuse's functions (RawKernel and
// RawModule: raw_kernel.cpp).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <optional>

#include "convert.h"
#include "cuarray/error.h"
#include "cuarray/ops/elementwise.h"
#include "cuarray/ops/fusion.h"
#include "cuarray/ops/ufunc.h"
#include "ndarray.h"
#include "operators.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

// `value` (a Python or NumPy scalar) as loop type `t` in the kernels' compute representation.
void scalar_into(py::handle value, DType t, char* dst) {
  std::string bytes = scalar_bytes(value, t);
  if (t == DType::Float16 || t == DType::BFloat16) {
    py::object np = py::module_::import("numpy");
    py::array wide = np.attr("array")(value, to_numpy_dtype(t)).attr("astype")("float32");
    std::memcpy(dst, wide.data(), 4);
    return;
  }
  std::memcpy(dst, bytes.data(), bytes.size());
}

// The calls of one cuarray.fuse function: a known signature maps to its kernel (ops::FusedSignatures).
// Unknown signatures (and arguments a signature cannot describe, such as NumPy scalars) ask the function's
// `_entry` method (cuarray._fusion.Fusion, a Python subclass) for the handle of the kernel it traced.
class FusedFunction {
 public:
  py::object call(py::handle self, const py::tuple& args) {
    std::uint64_t key = 0;
    const bool known = signature(args, key);
    const ops::FusedKernel* k = known ? kernels_.find(key) : nullptr;
    if (!k) {
      k = &ops::fused_definition(self.attr("_entry")(args).cast<std::size_t>());
      if (known) kernels_.add(key, *k);
    }
    return run(*k, args);
  }

 private:
  using Signatures = ops::FusedSignatures;

  // Arrays by dtype, exact Python scalars by kind.
  static bool signature(const py::tuple& args, std::uint64_t& key) {
    const std::size_t n = args.size();
    if (n > Signatures::kMaxArgs) return false;
    int codes[Signatures::kMaxArgs];
    for (std::size_t i = 0; i < n; ++i) {
      PyObject* p = PyTuple_GET_ITEM(args.ptr(), i);
      codes[i] = py::isinstance(p, ndarray_type())
                     ? Signatures::array_code(py::handle(p).cast<const NdArray&>().array.dtype())
                 : PyBool_Check(p)         ? Signatures::kBool
                 : PyLong_CheckExact(p)    ? Signatures::kInt
                 : PyFloat_CheckExact(p)   ? Signatures::kFloat
                 : PyComplex_CheckExact(p) ? Signatures::kComplex
                                           : Signatures::kNoCode;
    }
    return Signatures::signature(codes, n, key);
  }

  static py::object run(const ops::FusedKernel& k, const py::tuple& args) {
    ops::check_fused_arity(k, args.size());
    const int nin = static_cast<int>(args.size());
    ops::ElementwiseOperands operands(k.name().c_str(), nin, static_cast<int>(k.out.size()));
    std::optional<ops::Scalar> scalars[ops::kMaxOperands];  // constructed only for scalar arguments
    for (int i = 0; i < nin; ++i) {
      py::handle a = PyTuple_GET_ITEM(args.ptr(), i);
      if (py::isinstance(a, ndarray_type()))
        operands.set_input(i, a.cast<const NdArray&>().array);
      else if (to_scalar(a, scalars[i].emplace()))
        operands.set_input(i, *scalars[i]);
      else
        unsupported(a, k.name().c_str());
    }
    std::vector<Array> out = ops::run_fused(k, operands);
    if (out.size() == 1 && !k.tuple_result) return py::cast(NdArray{std::move(out[0]), py::none()});
    py::tuple result(out.size());
    for (size_t o = 0; o < out.size(); ++o) result[o] = py::cast(NdArray{std::move(out[o]), py::none()});
    return result;
  }

  Signatures kernels_;  // used with the GIL held
};

// The fused function type's tp_call (Note [Operator slots]); Python subclasses inherit it.
PyObject* fused_slot(PyObject* self, PyObject* args, PyObject* kwargs) {
  return guarded([&] {
    if (kwargs && PyDict_GET_SIZE(kwargs) > 0)
      throw TypeError("fused function " + py::str(py::getattr(self, "__name__", py::str("?"))).cast<std::string>() +
                      "() takes positional arguments only");
    return py::handle(self).cast<FusedFunction&>().call(self, py::reinterpret_borrow<py::tuple>(args));
  });
}

// A traced program from cuarray._fusion: steps ("const", dtype, weak, bits, re, im), ("ufunc", name, operand
// values, loop types) and ("cast", value, dtype); `reduction` None or (name, loop, out_loop, result, axis,
// keepdims).
ops::FusedProgram to_program(const std::string& name, const std::vector<py::handle>& in_types, py::list steps,
                             const std::vector<int>& results, bool tuple_result, py::handle reduction) {
  using Kind = ops::FusedStep::Kind;
  ops::FusedProgram p{name, {}, {}, results, tuple_result};
  for (auto t : in_types) p.in.push_back(to_dtype(t));
  for (auto item : steps) {
    auto s = py::reinterpret_borrow<py::tuple>(item);
    const std::string what = s[0].cast<std::string>();
    ops::FusedStep step;
    if (what == "const") {
      step = {Kind::Constant,
              -1,
              {},
              {to_dtype(s[1])},
              s[2].cast<bool>(),
              s[3].cast<std::uint64_t>(),
              s[4].cast<double>(),
              s[5].cast<double>()};
    } else if (what == "ufunc") {
      step = {Kind::Ufunc, ops::ufunc_index(s[1].cast<std::string>()), s[2].cast<std::vector<int>>()};
      for (auto t : s[3]) step.types.push_back(to_dtype(t));
    } else {
      step = {Kind::Cast, -1, {s[1].cast<int>()}, {to_dtype(s[2])}};
    }
    p.steps.push_back(std::move(step));
  }
  if (!reduction.is_none()) {
    auto r = py::reinterpret_borrow<py::tuple>(reduction);
    p.reduction = r[0].cast<std::string>();
    p.reduce_loop = to_dtype(r[1]), p.out_loop = to_dtype(r[2]), p.result = to_dtype(r[3]);
    if (!r[4].is_none()) p.axis = to_axes(r[4]);
    p.keepdims = r[5].cast<bool>();
  }
  return p;
}

}  // namespace

void init_raw_kernel(py::module_& m);  // raw_kernel.cpp

void init_kernel(py::module_& m) {
  init_raw_kernel(m);
  m.def(
      "_elementwise_def",
      [](const std::string& name, const std::string& body, const std::string& preamble, int nin, int nout,
         bool uses_index, const std::vector<std::string>& options, const std::string& header) {
        return ops::add_definition(ops::ElementwiseDef{ops::new_elementwise_id(), name, body, preamble, nin, nout,
                                                       uses_index, options, header});
      },
      "name"_a, "body"_a, "preamble"_a, "nin"_a, "nout"_a, "uses_index"_a, "options"_a,
      "header"_a = "cuarray/ufunc.cuh");
  // Runs definition `handle` with loop types over `shape`: `inputs` are ndarrays or scalars (raw[i] marks raw
  // arrays, passed whole), `outputs` ndarrays of that shape.
  m.def("_elementwise_call",
        [](std::size_t handle, const std::vector<py::handle>& in_types, const std::vector<py::handle>& out_types,
           const std::vector<py::handle>& inputs, const std::vector<bool>& raw, const std::vector<py::handle>& outputs,
           py::handle shape) {
          const ops::ElementwiseDef* def = &ops::elementwise_definition(handle);
          std::vector<DType> in_t = to_dtypes(in_types), out_t = to_dtypes(out_types);
          std::vector<ops::Input> in(inputs.size());
          for (size_t i = 0; i < inputs.size(); ++i) {
            if (py::isinstance(inputs[i], ndarray_type())) {
              in[i].array = &inputs[i].cast<const NdArray&>().array;
              in[i].raw = raw[i];
            } else {
              scalar_into(inputs[i], in_t[i], in[i].value);
            }
          }
          std::vector<Array> out;
          for (auto o : outputs) out.push_back(o.cast<const NdArray&>().array);
          ops::elementwise(*def, in_t.data(), out_t.data(), in.data(), out.data(), to_shape(shape));
        });

  // A slot set before the type is made ready gets a `__call__` wrapper, which subclasses resolve to the slot.
  py::class_<FusedFunction>(m, "_FusedFunction",
                            py::custom_type_setup([](PyHeapTypeObject* t) { t->ht_type.tp_call = fused_slot; }))
      .def(py::init<>());

  // A fused function's kernel for one signature, from its traced program (to_program); returns its handle.
  m.def("_fused_def", [](const std::string& name, const std::vector<py::handle>& in_types, py::list steps,
                         const std::vector<int>& results, bool tuple_result, py::handle reduction) {
    return ops::define_fused(to_program(name, in_types, steps, results, tuple_result, reduction));
  });

  // The source of one variant of an elementwise definition's kernel, for tests that compile generated kernels
  // without a device: inputs stored as their loop types; kinds[i] 0 array (all, by default), 1 scalar, 2 raw.
  m.def(
      "_elementwise_source",
      [](std::size_t handle, const std::vector<py::handle>& in_types, const std::vector<py::handle>& out_types,
         bool contiguous, int ndim, std::uint32_t tiled, std::vector<std::uint8_t> kinds) {
        const ops::ElementwiseDef& def = ops::elementwise_definition(handle);
        std::vector<DType> in_t = to_dtypes(in_types), out_t = to_dtypes(out_types);
        ops::KernelSource k = ops::elementwise_variant_source(def, in_t, out_t, kinds, contiguous, ndim, tiled);
        return py::make_tuple(k.source, k.name);
      },
      "handle"_a, "in_types"_a, "out_types"_a, "contiguous"_a, "ndim"_a, "tiled"_a = 0,
      "kinds"_a = std::vector<std::uint8_t>{});
  // The source of one variant of fused kernel `handle`: an elementwise variant as _elementwise_source's, or a
  // reduction's (layout 0 rows, 1 columns, 2 finish), inputs stored as their loop types.
  m.def(
      "_fused_source",
      [](std::size_t handle, bool contiguous, int ndim, std::uint32_t tiled, int layout, int vec, bool partial) {
        ops::KernelSource k = ops::fused_source(ops::fused_definition(handle), contiguous, ndim, tiled,
                                                static_cast<ops::ReduceLayout>(layout), vec, partial);
        return py::make_tuple(k.source, k.name);
      },
      "handle"_a, "contiguous"_a = true, "ndim"_a = 0, "tiled"_a = 0, "layout"_a = 0, "vec"_a = 1, "partial"_a = false);
}

}  // namespace cuarray::bind
