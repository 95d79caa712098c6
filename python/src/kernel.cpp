// Bindings for ElementwiseKernel's definitions and calls, and the sources of generated kernels for tests
// (RawKernel and RawModule: raw_kernel.cpp; cuarray.fuse's calls: fusion.cpp).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>

#include "convert.h"
#include "cuarray/error.h"
#include "cuarray/ops/elementwise.h"
#include "cuarray/ops/fusion.h"
#include "ndarray.h"

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

}  // namespace

void init_raw_kernel(py::module_& m);  // raw_kernel.cpp

void init_kernel(py::module_& m) {
  init_raw_kernel(m);
  m.def(
      "_elementwise_def",
      [](const std::string& name, const std::string& body, const std::string& preamble, int nin, int nout,
         bool uses_index, const std::vector<std::string>& options, const std::string& header, bool reads_outputs) {
        return ops::add_definition(ops::ElementwiseDef{ops::new_elementwise_id(), name, body, preamble, nin, nout,
                                                       uses_index, options, header, reads_outputs});
      },
      "name"_a, "body"_a, "preamble"_a, "nin"_a, "nout"_a, "uses_index"_a, "options"_a,
      "header"_a = "cuarray/ufunc.cuh", "reads_outputs"_a = false);
  // Runs definition `handle` with loop types over `shape`: `inputs` are ndarrays or scalars (raw[i] marks raw
  // arrays, passed whole, as they are), `outputs` ndarrays of that shape; `block_size` 0 for the engine's own.
  m.def("_elementwise_call",
        [](std::size_t handle, const std::vector<py::handle>& in_types, const std::vector<py::handle>& out_types,
           const std::vector<py::handle>& inputs, const std::vector<bool>& raw, const std::vector<py::handle>& outputs,
           py::handle shape, int block_size) {
          const ops::ElementwiseDef* def = &ops::elementwise_definition(handle);
          std::vector<DType> in_t = to_dtypes(in_types), out_t = to_dtypes(out_types);
          std::vector<ops::Input> in(inputs.size());
          for (size_t i = 0; i < inputs.size(); ++i) {
            if (is_ndarray(inputs[i])) {
              in[i].array = &inputs[i].cast<const NdArray&>().array;
              in[i].raw = raw[i];
            } else {
              scalar_into(inputs[i], in_t[i], in[i].value);
            }
          }
          std::vector<Array> out;
          for (auto o : outputs) out.push_back(o.cast<const NdArray&>().array);
          ops::elementwise(*def, in_t.data(), out_t.data(), in.data(), out.data(), to_shape(shape), block_size);
        });

  // The source of one variant of an elementwise definition's kernel, for ElementwiseKernel.cached_codes and for
  // tests that compile generated kernels without a device: inputs stored as their loop types; kinds[i] 0 array
  // (all, by default), 1 scalar, 2 raw (of raw_ndim[i] dimensions; 1 by default).
  m.def(
      "_elementwise_source",
      [](std::size_t handle, const std::vector<py::handle>& in_types, const std::vector<py::handle>& out_types,
         bool contiguous, int ndim, std::uint32_t tiled, std::vector<std::uint8_t> kinds,
         const std::vector<std::uint8_t>& raw_ndim) {
        const ops::ElementwiseDef& def = ops::elementwise_definition(handle);
        std::vector<DType> in_t = to_dtypes(in_types), out_t = to_dtypes(out_types);
        ops::KernelSource k =
            ops::elementwise_variant_source(def, in_t, out_t, kinds, contiguous, ndim, tiled, raw_ndim);
        return py::make_tuple(k.source, k.name);
      },
      "handle"_a, "in_types"_a, "out_types"_a, "contiguous"_a, "ndim"_a, "tiled"_a = 0,
      "kinds"_a = std::vector<std::uint8_t>{}, "raw_ndim"_a = std::vector<std::uint8_t>{});
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
