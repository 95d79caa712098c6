// Bindings for user kernels: ElementwiseKernel's definitions and calls, RawModule and RawKernel.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <mutex>
#include <unordered_map>

#include "convert.h"
#include "cuarray/cuda/check.h"
#include "cuarray/cuda/launch_queue.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/kernel_args.h"
#include "cuarray/jit/kernel_cache.h"
#include "cuarray/jit/launch.h"
#include "cuarray/ops/elementwise.h"
#include "hooks.h"
#include "ndarray.h"
#include "operators.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

std::mutex g_defs_mutex;
std::deque<ops::ElementwiseDef> g_defs;  // never shrinks: kernels are cached by their def's id

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

dim3 to_dim3(py::handle v) {
  if (py::isinstance<py::tuple>(v) || py::isinstance<py::list>(v)) {
    auto s = py::reinterpret_borrow<py::sequence>(v);
    if (s.size() < 1 || s.size() > 3) throw ValueError("grid and block must have 1 to 3 dimensions");
    unsigned d[3] = {1, 1, 1};
    for (size_t i = 0; i < s.size(); ++i) d[i] = s[i].cast<unsigned>();
    return dim3(d[0], d[1], d[2]);
  }
  return dim3(v.cast<unsigned>());
}

// A RawKernel argument: an ndarray (its address) or a scalar, with the size of its NumPy dtype as in CuPy
// (a Python int is an int64, a float a float64).
jit::KernelArg kernel_arg(py::handle a, std::size_t i) {
  using Kind = jit::KernelArg::Kind;
  if (py::isinstance(a, ndarray_type())) {
    const Array& arr = a.cast<const NdArray&>().array;
    check_same_device(arr, "RawKernel");  // another device's address would fault, poisoning the context
    const void* ptr = arr.data();
    return {Kind::Pointer, std::string(reinterpret_cast<const char*>(&ptr), sizeof ptr), "cuarray array (a pointer)"};
  }
  PyObject* p = a.ptr();
  py::object np = py::module_::import("numpy");
  py::array v;
  std::string what;
  if (py::isinstance(a, np.attr("generic")))
    v = np.attr("asarray")(a);  // first: numpy.float64 is a float
  else if (PyBool_Check(p))
    v = np.attr("array")(a, "bool"), what = "Python bool (bool)";
  else if (PyLong_Check(p))
    v = np.attr("array")(a, "int64"), what = "Python int (int64)";
  else if (PyFloat_Check(p))
    v = np.attr("array")(a, "float64"), what = "Python float (float64)";
  else if (PyComplex_Check(p))
    v = np.attr("array")(a, "complex128"), what = "Python complex (complex128)";
  else if (py::isinstance<py::array>(a))
    throw TypeError("RawKernel argument " + std::to_string(i) +
                    " is a numpy.ndarray: pass a cuarray array (cuarray.asarray(x)) or a NumPy scalar");
  else if (py::isinstance(a, hook(Hook::MemoryPointer))) {
    const auto ptr = a.attr("ptr").cast<std::uintptr_t>();  // x.data, as CuPy accepts it
    return {Kind::Pointer, std::string(reinterpret_cast<const char*>(&ptr), sizeof ptr), "cuarray MemoryPointer"};
  } else
    throw TypeError("RawKernel argument " + std::to_string(i) + " has unsupported type " +
                    py::str(py::type::handle_of(a).attr("__name__")).cast<std::string>());
  const char kind = v.dtype().kind();
  if (what.empty()) what = "numpy." + py::str(v.dtype()).cast<std::string>() + " scalar";
  return {kind == 'i'                  ? Kind::SignedInt
          : kind == 'u' || kind == 'b' ? Kind::UnsignedInt
          : kind == 'f' || kind == 'c' ? Kind::Float
                                       : Kind::Other,
          std::string(static_cast<const char*>(v.data()), static_cast<std::size_t>(v.itemsize())), what};
}

std::vector<jit::KernelArg> kernel_args(py::sequence args) {
  std::vector<jit::KernelArg> out;
  out.reserve(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) out.push_back(kernel_arg(args[i], i));
  return out;
}

// A function of a RawModule: launched with CuPy's (grid, block, args, shared_mem, stream) call.
struct RawFunction {
  jit::Kernel kernel;
  std::string name;
  // The kernel's parameter sizes, asked of the driver at the first launch (Note [RawKernel arguments]).
  mutable bool params_known = false, params_asked = false;
  mutable std::vector<std::size_t> params;

  void call(py::handle grid, py::handle block, py::sequence args, std::size_t shared_mem, py::handle stream) const {
    std::vector<jit::KernelArg> given = kernel_args(args);
    if (!params_asked) {
      params_known = cuda::param_sizes(kernel.handle, params);
      params_asked = true;
    }
    std::vector<std::string> packed;
    if (params_known) {
      packed = jit::pack_kernel_args(name, params, given);
    } else {  // unchecked, as in CuPy; padded so that a larger parameter reads zeros, not other memory
      for (auto& a : given) a.bytes.resize(std::max<std::size_t>(a.bytes.size(), 16), '\0');
      for (auto& a : given) packed.push_back(std::move(a.bytes));
    }
    std::vector<void*> argv(packed.size());
    for (std::size_t i = 0; i < packed.size(); ++i) argv[i] = packed[i].data();
    cudaStream_t s = cuda::current_stream()->handle();
    if (!stream.is_none()) {
      auto st = stream.attr("_handle")().cast<std::shared_ptr<cuda::Stream>>();
      if (st->device() != cuda::current_device())
        throw ValueError("RawKernel: the stream is on device " + std::to_string(st->device()) +
                         " but the current device is " + std::to_string(cuda::current_device()));
      s = st->handle();
    }
    jit::launch_now(kernel, to_dim3(grid), to_dim3(block), argv.data(), shared_mem, s);
  }

  cudaFuncAttributes attributes() const {
    cudaFuncAttributes attr{};
    CUARRAY_CHECK_CUDA(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(kernel.handle)));
    return attr;
  }
};

// One launch of a fused elementwise function: `args` (ndarrays and scalars) broadcast together; new outputs.
py::object fused_launch(const ops::ElementwiseDef& def, const std::vector<DType>& in_t, const std::vector<DType>& out_t,
                        bool tuple_result, const py::tuple& args) {
  const size_t nin = args.size(), nout = out_t.size();
  if (nin + nout > ops::kMaxOperands)
    throw ValueError("a fused function takes at most " + std::to_string(ops::kMaxOperands) +
                     " arguments and results together");
  ops::Input in[ops::kMaxOperands];
  const Shape* shape = nullptr;
  Shape broadcast;
  for (size_t i = 0; i < nin; ++i) {
    if (py::isinstance(args[i], ndarray_type())) {
      in[i].array = &args[i].cast<const NdArray&>().array;
      const Shape& s = in[i].array->shape();
      if (!shape)
        shape = &s;
      else if (*shape != s) {
        broadcast = broadcast_shapes(*shape, s);
        shape = &broadcast;
      }
    } else {
      scalar_into(args[i], in_t[i], in[i].value);
    }
  }
  static const Shape scalar_shape;
  if (!shape) shape = &scalar_shape;
  std::vector<Array> out;
  out.reserve(nout);
  for (size_t o = 0; o < nout; ++o) out.emplace_back(*shape, out_t[o]);
  ops::elementwise(def, in_t.data(), out_t.data(), in, out.data(), *shape);
  if (nout == 1 && !tuple_result) return py::cast(NdArray{std::move(out[0]), py::none()});
  py::tuple result(nout);
  for (size_t o = 0; o < nout; ++o) result[o] = py::cast(NdArray{std::move(out[o]), py::none()});
  return result;
}

// The calls of one cuarray.fuse function: a signature (argument dtypes and Python scalar kinds) maps to its
// compiled kernel, so a call with a known signature goes from arguments to launch without Python code.
// Unknown signatures (and arguments this key cannot describe, such as NumPy scalars) ask the function's
// `_entry` method (cuarray._fusion.Fusion, a Python subclass), which returns ("elementwise", def handle,
// in dtypes, out dtypes, tuple_result) or ("python", callable).
class FusedFunction {
 public:
  py::object call(py::handle self, const py::tuple& args) {
    std::uint64_t key = 0;
    bool cacheable = signature(args, key);
    auto it = cacheable ? entries_.find(key) : entries_.end();
    if (it == entries_.end()) {
      Entry e = make_entry(self.attr("_entry")(args));
      if (!cacheable) return run(e, args);
      it = entries_.emplace(key, std::move(e)).first;
    }
    return run(it->second, args);
  }

 private:
  struct Entry {
    const ops::ElementwiseDef* def = nullptr;
    std::vector<DType> in, out;
    bool tuple_result = false;
    py::object python;  // the Python path (reductions), when set
  };

  // 6 bits per argument: 1 + dtype for arrays, then Python bool, int, float, complex; at most 9 arguments.
  static bool signature(const py::tuple& args, std::uint64_t& key) {
    if (args.size() > 9) return false;
    key = args.size();
    for (auto a : args) {
      PyObject* p = a.ptr();
      std::uint64_t code;
      if (py::isinstance(a, ndarray_type()))
        code = 1 + static_cast<std::uint64_t>(a.cast<const NdArray&>().array.dtype());
      else if (PyBool_Check(p))
        code = 40;
      else if (PyLong_CheckExact(p))
        code = 41;
      else if (PyFloat_CheckExact(p))
        code = 42;
      else if (PyComplex_CheckExact(p))
        code = 43;
      else
        return false;
      key = (key << 6) | code;
    }
    return true;
  }

  static Entry make_entry(const py::tuple& r) {
    Entry e;
    if (r[0].cast<std::string>() == "python") {
      e.python = r[1];
      return e;
    }
    {
      std::lock_guard<std::mutex> lock(g_defs_mutex);
      e.def = &g_defs.at(r[1].cast<std::size_t>());
    }
    for (auto t : r[2]) e.in.push_back(to_dtype(t));
    for (auto t : r[3]) e.out.push_back(to_dtype(t));
    e.tuple_result = r[4].cast<bool>();
    return e;
  }

  static py::object run(const Entry& e, const py::tuple& args) {
    if (e.python) return e.python(*args);
    if (args.size() != e.in.size()) throw TypeError("fused function called with a different number of arguments");
    return fused_launch(*e.def, e.in, e.out, e.tuple_result, args);
  }

  std::unordered_map<std::uint64_t, Entry> entries_;  // used with the GIL held
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

struct RawModule {
  jit::Module module;
};

}  // namespace

void init_kernel(py::module_& m) {
  m.def(
      "_elementwise_def",
      [](const std::string& name, const std::string& body, const std::string& preamble, int nin, int nout,
         bool uses_index, const std::vector<std::string>& options, const std::string& header) {
        std::lock_guard<std::mutex> lock(g_defs_mutex);
        g_defs.push_back(ops::ElementwiseDef{ops::new_elementwise_id(), name, body, preamble, nin, nout, uses_index,
                                             options, header});
        return g_defs.size() - 1;
      },
      "name"_a, "body"_a, "preamble"_a, "nin"_a, "nout"_a, "uses_index"_a, "options"_a,
      "header"_a = "cuarray/ufunc.cuh");
  // Runs definition `handle` with loop types over `shape`: `inputs` are ndarrays or scalars (raw[i] marks raw
  // arrays, passed whole), `outputs` ndarrays of that shape.
  m.def("_elementwise_call",
        [](std::size_t handle, const std::vector<py::handle>& in_types, const std::vector<py::handle>& out_types,
           const std::vector<py::handle>& inputs, const std::vector<bool>& raw, const std::vector<py::handle>& outputs,
           py::handle shape) {
          const ops::ElementwiseDef* def;
          {
            std::lock_guard<std::mutex> lock(g_defs_mutex);
            def = &g_defs.at(handle);
          }
          std::vector<DType> in_t, out_t;
          for (auto t : in_types) in_t.push_back(to_dtype(t));
          for (auto t : out_types) out_t.push_back(to_dtype(t));
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

  // The source of one variant of a definition's kernel (all inputs arrays of their loop types), for tests
  // that compile generated kernels without a device.
  m.def(
      "_elementwise_source",
      [](std::size_t handle, const std::vector<py::handle>& in_types, const std::vector<py::handle>& out_types,
         bool contiguous, int ndim, std::uint32_t tiled) {
        const ops::ElementwiseDef* def;
        {
          std::lock_guard<std::mutex> lock(g_defs_mutex);
          def = &g_defs.at(handle);
        }
        std::vector<DType> in_t, out_t;
        for (auto t : in_types) in_t.push_back(to_dtype(t));
        for (auto t : out_types) out_t.push_back(to_dtype(t));
        std::vector<std::uint8_t> kinds(in_t.size(), 0);
        ops::KernelSource k =
            ops::elementwise_source(*def, in_t.data(), out_t.data(), in_t.data(), kinds.data(), out_t.data(),
                                    ops::Layout{contiguous, ndim, tiled, 64, contiguous, false});
        return py::make_tuple(k.source, k.name);
      },
      "handle"_a, "in_types"_a, "out_types"_a, "contiguous"_a, "ndim"_a, "tiled"_a = 0);

  // RawKernel's argument check and packing for a kernel with parameters of `sizes` bytes, without a device
  // (for tests; scalars only, since arrays need one).
  m.def(
      "_pack_kernel_args",
      [](const std::string& name, const std::vector<std::size_t>& sizes, py::sequence args) {
        py::list out;
        for (const auto& b : jit::pack_kernel_args(name, sizes, kernel_args(args))) out.append(py::bytes(b));
        return out;
      },
      "name"_a, "sizes"_a, "args"_a);

  py::class_<RawFunction>(m, "_RawFunction")
      .def("__call__", &RawFunction::call, "grid"_a, "block"_a, "args"_a, "shared_mem"_a = 0, "stream"_a = py::none())
      .def_readonly("name", &RawFunction::name)
      .def_property_readonly("max_threads_per_block",
                             [](const RawFunction& f) { return f.attributes().maxThreadsPerBlock; })
      .def_property_readonly("num_regs", [](const RawFunction& f) { return f.attributes().numRegs; })
      .def_property_readonly("shared_size_bytes", [](const RawFunction& f) { return f.attributes().sharedSizeBytes; })
      .def_property_readonly("local_size_bytes", [](const RawFunction& f) { return f.attributes().localSizeBytes; })
      .def_property_readonly("const_size_bytes", [](const RawFunction& f) { return f.attributes().constSizeBytes; });

  py::class_<RawModule>(m, "_RawModule")
      .def(py::init([](const std::string& code, const std::vector<std::string>& options) {
             jit::Module mod;
             {
               ReleaseGil nogil;
               mod = jit::get_module(code, options);
             }
             return RawModule{mod};
           }),
           "code"_a, "options"_a)
      .def("get_function", [](const RawModule& m, const std::string& name) {
        return RawFunction{m.module.function(name), name};
      });
}

}  // namespace cuarray::bind
