// Bindings for RawKernel and RawModule: CUDA source compiled as given, launched with CuPy's arguments.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "convert.h"
#include "cuarray/cuda/check.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/launch_queue.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/kernel_args.h"
#include "cuarray/jit/kernel_cache.h"
#include "cuarray/jit/launch.h"
#include "gil.h"
#include "hooks.h"
#include "mdspan.h"
#include "ndarray.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

// CuPy launches at least one block of one thread along each dimension: a grid of (n + 127) // 128 blocks for
// n = 0 runs one block, whose threads the kernel's bounds check leaves idle.
unsigned launch_dim(py::handle v) {
  auto index = py::reinterpret_steal<py::int_>(PyNumber_Index(v.ptr()));
  if (!index) throw py::error_already_set();  // CuPy's TypeError for what is no integer
  int overflow = 0;
  const long long d = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow > 0 || d > static_cast<long long>(UINT32_MAX))
    throw ValueError("grid and block dimensions must fit in 32 bits, not " + py::str(index).cast<std::string>());
  return overflow < 0 ? 1u : static_cast<unsigned>(std::max(1LL, d));
}

dim3 to_dim3(py::handle v) {
  if (py::isinstance<py::tuple>(v) || py::isinstance<py::list>(v)) {
    auto s = py::reinterpret_borrow<py::sequence>(v);
    if (s.size() < 1 || s.size() > 3) throw ValueError("grid and block must have 1 to 3 dimensions");
    unsigned d[3] = {1, 1, 1};
    for (size_t i = 0; i < s.size(); ++i) d[i] = launch_dim(s[i]);
    return dim3(d[0], d[1], d[2]);
  }
  return dim3(launch_dim(v));
}

// A RawKernel argument: an ndarray (its address) or a scalar, with the size of its NumPy dtype as in CuPy
// (a Python int is an int64, a float a float64).
jit::KernelArg kernel_arg(py::handle a, std::size_t i) {
  using Kind = jit::KernelArg::Kind;
  if (is_ndarray(a)) {
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
  else if (is_mdspan(a))  // ndarray.mdspan: an mdspan by value
    return mdspan_kernel_arg(a);
  else if (py::isinstance(a, hook(Hook::MemoryPointer))) {  // x.data or cuarray.cuda.MemoryPointer, as CuPy
    const int device = a.attr("device_id").cast<int>();
    if (device != cuda::current_device())
      throw ValueError("RawKernel: argument " + std::to_string(i) + " is a MemoryPointer on device " +
                       std::to_string(device) + " but the current device is " + std::to_string(cuda::current_device()));
    const auto ptr = a.attr("ptr").cast<std::uintptr_t>();
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

  // CuPy's two settable attributes, set for the current device (the kernel is the library's, shared by every
  // RawKernel of the same source, as CuPy's memoized module is).
  void set_attribute(const std::string& attr, int value) const {
    cudaFuncAttribute a;
    if (attr == "max_dynamic_shared_size_bytes")
      a = cudaFuncAttributeMaxDynamicSharedMemorySize;
    else if (attr == "preferred_shared_memory_carveout")
      a = cudaFuncAttributePreferredSharedMemoryCarveout;
    else
      throw ValueError("RawKernel attribute '" + attr + "' cannot be set");
    CUARRAY_CHECK_CUDA(cudaKernelSetAttributeForDevice(kernel.handle, a, value, cuda::current_device()));
  }
};

struct RawModule {
  jit::Module module;
  std::string log;  // NVRTC's messages, where the module was compiled with want_log
};

}  // namespace

void init_raw_kernel(py::module_& m) {
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
      // The kernel's handle (a cudaKernel_t, which the driver takes where it takes a CUfunction).
      .def_property_readonly("ptr",
                             [](const RawFunction& f) { return reinterpret_cast<std::uintptr_t>(f.kernel.handle); })
      .def("_set_attribute", &RawFunction::set_attribute, "attr"_a, "value"_a)
      .def_property_readonly("max_threads_per_block",
                             [](const RawFunction& f) { return f.attributes().maxThreadsPerBlock; })
      .def_property_readonly("num_regs", [](const RawFunction& f) { return f.attributes().numRegs; })
      .def_property_readonly("shared_size_bytes", [](const RawFunction& f) { return f.attributes().sharedSizeBytes; })
      .def_property_readonly("local_size_bytes", [](const RawFunction& f) { return f.attributes().localSizeBytes; })
      .def_property_readonly("const_size_bytes", [](const RawFunction& f) { return f.attributes().constSizeBytes; })
      // CuPy's RawKernel.attributes: cudaFuncGetAttributes' fields under CuPy's names.
      .def_property_readonly("attributes", [](const RawFunction& f) {
        const cudaFuncAttributes a = f.attributes();
        py::dict d;
        d["binary_version"] = a.binaryVersion;
        d["cache_mode_ca"] = a.cacheModeCA;
        d["const_size_bytes"] = a.constSizeBytes;
        d["local_size_bytes"] = a.localSizeBytes;
        d["max_dynamic_shared_size_bytes"] = a.maxDynamicSharedSizeBytes;
        d["max_threads_per_block"] = a.maxThreadsPerBlock;
        d["num_regs"] = a.numRegs;
        d["preferred_shared_memory_carveout"] = a.preferredShmemCarveout;
        d["ptx_version"] = a.ptxVersion;
        d["shared_size_bytes"] = a.sharedSizeBytes;
        return d;
      });

  py::class_<RawModule>(m, "_RawModule")
      .def(py::init([](const std::string& code, const std::vector<std::string>& options,
                       const std::vector<std::string>& name_expressions, bool want_log) {
             RawModule m;
             {
               ReleaseGil nogil;
               m.module = jit::get_module(code, options, name_expressions, want_log ? &m.log : nullptr);
             }
             return m;
           }),
           "code"_a, "options"_a, "name_expressions"_a = std::vector<std::string>{}, "want_log"_a = false)
      .def_readonly("log", &RawModule::log)
      // The module's handle: a cudaLibrary_t (a CUlibrary), loaded once for every device.
      .def_property_readonly("handle",
                             [](const RawModule& m) { return reinterpret_cast<std::uintptr_t>(m.module.library); })
      // The lowered name of each name expression, in the order given.
      .def_property_readonly("lowered", [](const RawModule& m) { return m.module.lowered; })
      // (address, bytes) of the module's global variable `name` on the current device.
      .def("get_global",
           [](const RawModule& m, const std::string& name) {
             std::size_t bytes = 0;
             void* ptr = m.module.global(name, bytes);
             return py::make_tuple(reinterpret_cast<std::uintptr_t>(ptr), bytes);
           })
      .def_static(
          "_from_image",
          [](const py::bytes& image) {
            std::string data = image;
            jit::Module mod;
            {
              ReleaseGil nogil;
              mod = jit::load_module(data);
            }
            return RawModule{mod, {}};
          },
          "image"_a)
      .def("get_function", [](const RawModule& m, const std::string& name) {
        return RawFunction{m.module.function(name), name};
      });
}

}  // namespace cuarray::bind
