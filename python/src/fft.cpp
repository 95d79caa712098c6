// Bindings for the cuFFT transforms, plans and plan caches (cuarray._core.fft).
#include "cuarray/ops/fft.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <vector>

#include "cuarray/cuda/device.h"
#include "cuarray/error.h"
#include "cuarray/lib/cufft.h"
#include "ndarray.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

namespace cufft = lib::cufft;

ops::FftKind to_kind(const std::string& name) {
  if (name == "c2c") return ops::FftKind::C2C;
  if (name == "r2c") return ops::FftKind::R2C;
  if (name == "c2r") return ops::FftKind::C2R;
  throw ValueError("unknown transform '" + name + "' (expected 'c2c', 'r2c' or 'c2r')");
}

cufftType to_type(int type) {
  switch (type) {
    case CUFFT_C2C:
    case CUFFT_Z2Z:
    case CUFFT_R2C:
    case CUFFT_D2Z:
    case CUFFT_C2R:
    case CUFFT_Z2D:
      return static_cast<cufftType>(type);
    default:
      throw ValueError("unknown cuFFT type " + std::to_string(type) +
                       " (expected CUFFT_C2C, CUFFT_Z2Z, CUFFT_R2C, CUFFT_D2Z, CUFFT_C2R or CUFFT_Z2D)");
  }
}

using Devices = std::optional<std::vector<int>>;

cufft::Key to_key(int type, const std::vector<long long>& n, long long batch, const Devices& gpus = std::nullopt) {
  return {to_type(type), n, batch, gpus.value_or(std::vector<int>{})};
}

// CuPy's key: (type, shape, batch), and for a multi-GPU plan its devices as a fourth item.
py::tuple key_tuple(const cufft::Key& key) {
  py::tuple t = py::make_tuple(static_cast<int>(key.type), py::tuple(py::cast(key.n)), key.batch);
  if (key.gpus.empty()) return t;
  return py::make_tuple(t[0], t[1], t[2], py::tuple(py::cast(key.gpus)));
}

// Plan1d's `devices`, as CuPy reads it: an int n (devices 0 to n - 1) or a list or tuple of device ids.
std::vector<int> to_devices(const py::object& devices) {
  if (py::isinstance<py::bool_>(devices) ||
      !(py::isinstance<py::int_>(devices) || py::isinstance<py::list>(devices) || py::isinstance<py::tuple>(devices)))
    throw ValueError("\"devices\" should be an int or an iterable of int.");
  std::vector<int> out;
  if (py::isinstance<py::int_>(devices)) {
    for (int i = 0, n = devices.cast<int>(); i < n; ++i) out.push_back(i);
    return out;
  }
  for (const py::handle& d : devices) {
    if (!py::isinstance<py::int_>(d) || py::isinstance<py::bool_>(d))
      throw ValueError("\"devices\" should be an int or an iterable of int.");
    out.push_back(d.cast<int>());
  }
  return out;
}

}  // namespace

void init_fft(py::module_& m) {
  py::module_ f = m.def_submodule("fft", "cuFFT transforms, plans and plan caches");
  f.def(
      "execute",
      [](const NdArray& in, const NdArray& out, const std::string& kind, int rank, bool inverse,
         const cufft::PlanPtr& plan, const Devices& devices) {
        ops::fft(in.array, out.array, to_kind(kind), rank, inverse, plan, devices.value_or(std::vector<int>{}));
      },
      "in"_a, "out"_a, "kind"_a, "rank"_a, "inverse"_a, "plan"_a = nullptr, "devices"_a = py::none());
  f.def("version", &cufft::version);

  py::class_<cufft::Plan, cufft::PlanPtr>(f, "Plan", "A cuFFT plan (Note [cuFFT plans] in lib/cufft.h).")
      .def_property_readonly("fft_type", [](const cufft::Plan& p) { return static_cast<int>(p.key().type); })
      .def_property_readonly("shape", [](const cufft::Plan& p) { return py::tuple(py::cast(p.key().n)); })
      .def_property_readonly("batch", [](const cufft::Plan& p) { return p.key().batch; })
      .def_property_readonly("key", [](const cufft::Plan& p) { return key_tuple(p.key()); })
      .def_property_readonly("work_size", &cufft::Plan::work_size)
      .def_property_readonly("device", &cufft::Plan::device)
      .def_property_readonly("gpus",
                             [](const cufft::Plan& p) -> py::object {
                               if (!p.multi_gpu()) return py::none();
                               return py::cast(p.gpus());
                             })
      .def("_work_size_on", &cufft::Plan::work_size_on, "device"_a)
      .def_property_readonly("_work_areas", &cufft::Plan::work_areas)
      .def("__enter__",
           [](const cufft::PlanPtr& p) {
             cufft::set_current_plan(p);
             return p;
           })
      .def("__exit__", [](const cufft::PlanPtr&, py::args) { cufft::set_current_plan(nullptr); });
  py::class_<cufft::Plan1d, cufft::Plan, std::shared_ptr<cufft::Plan1d>>(f, "Plan1d")
      .def(py::init([](long long nx, int fft_type, long long batch, const py::object& devices) {
             cufft::Key key = to_key(fft_type, {nx}, batch);
             if (!devices.is_none()) {
               if (key.type != CUFFT_C2C && key.type != CUFFT_Z2Z)  // CuPy checks the type first
                 throw ValueError("Currently for multiple GPUs only C2C and Z2Z are supported.");
               key.gpus = to_devices(devices);
             }
             return std::static_pointer_cast<cufft::Plan1d>(cufft::make_plan(key));
           }),
           "nx"_a, "fft_type"_a, "batch"_a = 1, py::kw_only(), "devices"_a = py::none())
      .def_property_readonly("nx", [](const cufft::Plan& p) { return p.key().n[0]; });
  py::class_<cufft::PlanNd, cufft::Plan, std::shared_ptr<cufft::PlanNd>>(f, "PlanNd");

  f.def(
      "make_plan",
      [](int type, const std::vector<long long>& n, long long batch, const Devices& devices) {
        return cufft::make_plan(to_key(type, n, batch, devices));
      },
      "type"_a, "n"_a, "batch"_a, "devices"_a = py::none());
  f.def("current_plan", [] { return cufft::current_plan(); });

  // The calling thread's cache of one device (cuarray.fft.config.PlanCache).
  f.def("cache_exists", [](int device) { return cufft::existing_plan_cache(device) != nullptr; });
  f.def("cache_info", [](int device) {
    cufft::PlanCache& c = cufft::plan_cache(device);
    return py::make_tuple(c.size(), c.memsize(), c.curr_size(), c.curr_memsize(), c.hits(), c.misses());
  });
  f.def("cache_set_size", [](int device, long long n) { cufft::plan_cache(device).set_size(n); });
  f.def("cache_set_memsize", [](int device, long long n) { cufft::plan_cache(device).set_memsize(n); });
  f.def("cache_clear", [](int device) { cufft::plan_cache(device).clear(); });
  f.def("cache_plans", [](int device) { return cufft::plan_cache(device).plans(); });
  f.def(
      "cache_find",
      [](int device, int type, const std::vector<long long>& n, long long batch, const Devices& gpus) {
        return cufft::plan_cache(device).find(to_key(type, n, batch, gpus));
      },
      "device"_a, "type"_a, "n"_a, "batch"_a, "gpus"_a = py::none());
  f.def(
      "cache_erase",
      [](int device, int type, const std::vector<long long>& n, long long batch, const Devices& gpus) {
        return cufft::plan_cache(device).erase(to_key(type, n, batch, gpus));
      },
      "device"_a, "type"_a, "n"_a, "batch"_a, "gpus"_a = py::none());
  f.def("cache_insert", [](int device, const cufft::PlanPtr& plan) {
    if (!plan->multi_gpu() && plan->device() != device)
      throw ValueError("the plan belongs to device " + std::to_string(plan->device()) + ", not " +
                       std::to_string(device));
    cufft::plan_cache(device).insert(plan);
  });
}

}  // namespace cuarray::bind
