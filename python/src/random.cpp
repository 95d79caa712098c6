// Bindings for the random number kernels (cuarray._core.random) and their sources (jit.sources.random_*).
#include "cuarray/ops/random.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "convert.h"
#include "cuarray/error.h"
#include "ndarray.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

ops::Distribution to_distribution(const std::string& name) {
  static const std::pair<const char*, ops::Distribution> names[] = {{"uniform", ops::Distribution::Uniform},
                                                                    {"normal", ops::Distribution::Normal},
                                                                    {"exponential", ops::Distribution::Exponential},
                                                                    {"gamma", ops::Distribution::Gamma},
                                                                    {"beta", ops::Distribution::Beta},
                                                                    {"poisson", ops::Distribution::Poisson},
                                                                    {"binomial", ops::Distribution::Binomial}};
  for (const auto& [n, d] : names)
    if (name == n) return d;
  throw ValueError("unknown distribution '" + name + "'");
}

// A parameter: a float, or a device array (contiguous float64 of the output's shape).
ops::RandomParam to_param(py::handle obj) {
  ops::RandomParam p;
  if (is_ndarray(obj))
    p.values = obj.cast<const NdArray&>().array;
  else
    p.value = py::cast<double>(obj);
  return p;
}

NdArray owner(Array a) { return NdArray{std::move(a), py::none()}; }

py::tuple as_tuple(const ops::KernelSource& k) { return py::make_tuple(k.source, k.name); }

}  // namespace

void init_random(py::module_& m) {
  py::module_ r = m.def_submodule("random", "random numbers from Philox streams");
  py::class_<ops::RandomState>(r, "State")
      .def(py::init([](std::uint64_t seed, std::uint64_t offset) {
             return ops::RandomState{seed, offset};
           }),
           "seed"_a, "offset"_a = 0)
      .def_readwrite("seed", &ops::RandomState::seed)
      .def_readwrite("offset", &ops::RandomState::offset);
  r.def(
      "sample",
      [](const std::string& dist, py::handle shape, py::handle dtype, const py::list& params, ops::RandomState& state) {
        std::vector<ops::RandomParam> ps;
        for (auto p : params) ps.push_back(to_param(p));
        return owner(ops::random(to_distribution(dist), to_shape(shape), to_dtype(dtype), ps, state));
      },
      "dist"_a, "shape"_a, "dtype"_a, "params"_a, "state"_a);
  r.def(
      "integers",
      [](py::handle shape, py::handle dtype, std::uint64_t low, std::uint64_t range, ops::RandomState& state) {
        return owner(ops::random_integers(to_shape(shape), to_dtype(dtype), low, range, state));
      },
      "shape"_a, "dtype"_a, "low"_a, "range"_a, "state"_a);
  r.def(
      "choice",
      [](py::handle shape, const NdArray& cdf, ops::RandomState& state) {
        return owner(ops::random_choice(to_shape(shape), cdf.array, state));
      },
      "shape"_a, "cdf"_a, "state"_a);
  r.def(
      "permutation", [](std::int64_t n, ops::RandomState& state) { return owner(ops::random_permutation(n, state)); },
      "n"_a, "state"_a);
  r.def(
      "gather_rows",
      [](const NdArray& dst, const NdArray& src, const NdArray& index) {
        ops::gather_rows(dst.array, src.array, index.array);
      },
      "dst"_a, "src"_a, "index"_a);

  py::module_ s = m.attr("jit").attr("sources").cast<py::module_>();
  s.def(
      "random",
      [](const std::string& dist, py::handle t, bool wide, bool arrays) {
        return as_tuple(ops::random_source(to_distribution(dist), to_dtype(t), wide, arrays));
      },
      "dist"_a, "dtype"_a, "wide"_a, "arrays"_a = true);
  s.def("random_integers",
        [](py::handle t, bool wide) { return as_tuple(ops::random_integers_source(to_dtype(t), wide)); });
  s.def("random_choice", [](bool wide) { return as_tuple(ops::random_choice_source(wide)); });
  s.def("permutation_keys", [](bool wide) { return as_tuple(ops::permutation_keys_source(wide)); });
  s.def("bitonic_step", [](bool wide) { return as_tuple(ops::bitonic_step_source(wide)); });
  s.def("bitonic_block", [](bool wide) { return as_tuple(ops::bitonic_block_source(wide)); });
  s.def("gather_rows", [](int word_bytes, bool wide) { return as_tuple(ops::gather_rows_source(word_bytes, wide)); });
}

}  // namespace cuarray::bind
