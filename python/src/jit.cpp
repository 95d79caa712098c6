// Bindings for the kernel JIT: cache configuration, and the generated kernel sources (for tests that
// compile every variant with NVRTC without a device).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "convert.h"
#include "cuarray/cuda/device.h"
#include "cuarray/error.h"
#include "cuarray/jit/kernel_cache.h"
#include "cuarray/jit/nvrtc.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/creation.h"
#include "cuarray/ops/linalg.h"
#include "cuarray/ops/matmul.h"
#include "cuarray/ops/reduction.h"
#include "cuarray/ops/ufunc.h"
#include "gil.h"
#include "hooks.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

py::tuple as_tuple(const ops::KernelSource& k) { return py::make_tuple(k.source, k.name); }

}  // namespace

void init_jit(py::module_& m) {
  py::module_ j = m.def_submodule("jit", "NVRTC compilation and the kernel cache");
  j.def(
      "headers", [] { return jit::kernel_headers(); }, "the kernel headers NVRTC is given: (name, text) pairs");
  j.def("set_cache_dir", &jit::set_cache_dir, "path"_a);
  j.def("cache_dir", &jit::cache_dir);
  j.def("reset_cache_dir", &jit::reset_cache_dir);
  j.def("cache_stats", [] {
    auto s = jit::cache_stats();
    return py::dict("memory_hits"_a = s.memory_hits, "disk_hits"_a = s.disk_hits, "compiles"_a = s.compiles);
  });
  j.def("nvrtc_version", &jit::nvrtc_version);
  j.def("target_arch", &jit::target_arch, "arch"_a,
        "the architecture NVRTC generates code for, for a device of compute capability `arch`");
  j.def("nvrtc_path", &jit::nvrtc_path);
  j.def("_warm_up", &jit::warm_up, release_gil());
  cuda::set_first_use_hook(&jit::start_warm_up);  // Note [Warming NVRTC]
  // Note [Kernel cache log]: compiles and disk-cache loads only, to cuarray.cuda.compiler's logger.
  jit::set_event_handler([](const jit::CacheEvent& e) {
    if (!Py_IsInitialized()) return;
    AcquireGil gil;
    if (!has_hook(Hook::LogKernel)) return;
    try {
      hook(Hook::LogKernel)(e.name, e.key, e.compiled, e.ms);
    } catch (py::error_already_set& e) {  // a failing log handler must not fail the op that needed the kernel
      drop_quiet_error(e);                // Note [Interrupts in quiet calls]
    }
  });
  // Note [Memory-only compiles]: asked at each kernel not in memory; no hook (or a failing one) means no.
  jit::set_memory_only_handler([] {
    if (!Py_IsInitialized()) return false;
    AcquireGil gil;
    if (!has_hook(Hook::CacheInMemory)) return false;
    try {
      return hook(Hook::CacheInMemory)().cast<bool>();
    } catch (py::error_already_set& e) {
      drop_quiet_error(e);
      return false;
    } catch (py::cast_error&) {
      return false;
    }
  });
  jit::set_warning_handler([](const std::string& message) {
    if (!Py_IsInitialized()) return;
    AcquireGil gil;
    if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 1) < 0) drop_quiet_error();
  });

  // Compiles with the installed kernel headers for `arch` without a device; returns the binary, or with
  // `details` (binary, is_cubin, lowered names of `name_expressions`, NVRTC's log).
  j.def(
      "compile",
      [](const std::string& source, const std::string& name, const std::vector<std::string>& options, int arch,
         const std::vector<std::pair<std::string, std::string>>& headers,
         const std::vector<std::string>& name_expressions, bool details) -> py::object {
        jit::Binary b;
        {
          ReleaseGil nogil;
          b = jit::compile(source, name, options, arch, headers, name_expressions);
        }
        if (!details) return py::bytes(b.code);
        return py::make_tuple(py::bytes(b.code), b.is_cubin, b.lowered, b.log);
      },
      "source"_a, "name"_a, "options"_a, "arch"_a, "headers"_a, "name_expressions"_a = std::vector<std::string>{},
      "details"_a = false);

  // The binary through the disk cache alone, and whether it came from there: tests of the cache without a device.
  j.def(
      "cached_binary",
      [](const std::string& source, const std::string& name, const std::vector<std::string>& options, int arch) {
        bool from_disk = false;
        jit::Binary b = jit::cached_binary(source, name, options, arch, from_disk);
        return py::make_tuple(py::bytes(b.code), from_disk);
      },
      "source"_a, "name"_a, "options"_a, "arch"_a);

  py::module_ s = j.def_submodule("sources", "the generated kernels' source text");
  s.def("copy_contiguous", [](py::handle to, py::handle from, bool wide) {
    return as_tuple(ops::copy_contiguous_source(to_dtype(to), to_dtype(from), wide));
  });
  s.def("copy_strided", [](py::handle to, py::handle from, int nd, bool wide) {
    return as_tuple(ops::copy_strided_source(to_dtype(to), to_dtype(from), nd, wide));
  });
  s.def("copy_transpose", [](py::handle to, py::handle from, bool wide) {
    return as_tuple(ops::copy_transpose_source(to_dtype(to), to_dtype(from), wide));
  });
  s.def("fill_contiguous", [](py::handle t, bool wide, bool aligned) {
    return as_tuple(ops::fill_contiguous_source(to_dtype(t), wide, aligned));
  });
  s.def("fill_strided",
        [](py::handle t, int nd, bool wide) { return as_tuple(ops::fill_strided_source(to_dtype(t), nd, wide)); });
  s.def("arange", [](py::handle t, bool wide) { return as_tuple(ops::arange_source(to_dtype(t), wide)); });
  s.def("linspace", [](py::handle t, bool wide) { return as_tuple(ops::linspace_source(to_dtype(t), wide)); });
  // One variant of ufunc `name`'s kernel for loop `signature` ("ff->f"): inputs stored as their loop types,
  // scalars where `scalars` says so; `tiled`/`tile` as ops::Layout.
  s.def(
      "ufunc",
      [](const std::string& name, const std::string& signature, std::vector<bool> scalars, bool contiguous, int ndim,
         bool aligned, bool wide, std::uint32_t tiled, int tile) {
        const ops::Ufunc& u = ops::ufuncs()[ops::ufunc_index(name)];
        for (const auto& l : u.loops) {
          if (l.signature != signature) continue;
          std::uint8_t sc[3] = {};
          for (size_t i = 0; i < scalars.size() && i < 3; ++i) sc[i] = scalars[i] ? 1 : 0;
          return as_tuple(ops::elementwise_source(u.def, l.in, l.out, l.in, sc, l.out,
                                                  ops::Layout{contiguous, ndim, tiled, tile, aligned, wide}));
        }
        throw ValueError("ufunc '" + name + "' has no loop " + signature);
      },
      "name"_a, "signature"_a, "scalars"_a, "contiguous"_a, "ndim"_a, "aligned"_a, "wide"_a, "tiled"_a = 0,
      "tile"_a = 0);
  // One variant of built-in reduction `name`: loop types, storage types, layout (0 rows, 1 columns, 2 finish).
  s.def("reduction", [](const std::string& name, std::vector<py::handle> in_types, py::handle out_type,
                        std::vector<py::handle> in_storage, py::handle out_storage, int layout, int vec, bool partial,
                        int out_ndim, int red_ndim, bool wide) {
    const ops::ReductionDef& def = ops::reduction(name);
    DType in[8], st[8];
    for (size_t k = 0; k < in_types.size() && k < 8; ++k)
      in[k] = to_dtype(in_types[k]), st[k] = to_dtype(in_storage[k]);
    return as_tuple(ops::reduction_source(def, in, to_dtype(out_type), st, to_dtype(out_storage),
                                          static_cast<ops::ReduceLayout>(layout), vec, partial, out_ndim, red_ndim,
                                          wide));
  });
  s.def("eye", [](py::handle t, bool wide) { return as_tuple(ops::eye_source(to_dtype(t), wide)); });
  s.def("zero_blocks", [] { return as_tuple(ops::zero_blocks_source()); });
  s.def("matmul_small", [](py::handle t) { return as_tuple(ops::matmul_small_source(to_dtype(t))); });
  s.def("matmul_integer",
        [](py::handle t, bool wide) { return as_tuple(ops::matmul_integer_source(to_dtype(t), wide)); });
  s.def("lu_slogdet", [](py::handle t) { return as_tuple(ops::lu_slogdet_source(to_dtype(t))); });
  s.def("nonfinite_results",
        [](py::handle t, py::handle y) { return as_tuple(ops::nonfinite_results_source(to_dtype(t), to_dtype(y))); });
  s.def("zero_triangle",
        [](py::handle t, bool wide) { return as_tuple(ops::zero_triangle_source(to_dtype(t), wide)); });
}

}  // namespace cuarray::bind
