// Bindings that report the CUDA math libraries cuarray loads on first use (cuarray._core.libraries).
#include <pybind11/pybind11.h>

#include "cuarray/lib/library.h"

namespace py = pybind11;
using namespace py::literals;

namespace cuarray::bind {

void init_libraries(py::module_& m) {
  py::module_ l = m.def_submodule("libraries", "where the CUDA math libraries load from");
  // [{name, file, path, version, error}] for cuBLAS, cuSOLVER and cuFFT.
  l.def("probe", [] {
    py::list out;
    for (const lib::Library& library : {lib::kCublas, lib::kCusolver, lib::kCufft}) {
      lib::LibraryInfo info = lib::probe(library);
      out.append(py::dict("name"_a = library.name,
                          "file"_a = std::string("lib") + library.stem + ".so." + library.major, "path"_a = info.path,
                          "version"_a = info.version, "error"_a = info.error));
    }
    return out;
  });
}

}  // namespace cuarray::bind
