// Bindings that find (through cuarray._cuda_libs.locate, a hook) and report the CUDA libraries cuarray loads on first
// use (cuarray._core.libraries).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <utility>

#include "convert.h"
#include "cuarray/lib/library.h"
#include "gil.h"
#include "hooks.h"

namespace py = pybind11;
using namespace py::literals;

namespace cuarray::bind {

namespace {

// The core's locator (Note [Finding the CUDA libraries] in cpp/cuarray/lib/library.h): the locate_library hook
// (cuarray._cuda_libs.locate), called from any thread, never with a lock of the core held.
std::string locate(const std::string& stem, std::string& note) {
  if (finalizing()) {
    note = "not looked for with cuda-pathfinder while the interpreter exits";
    return "";
  }
  AcquireGil gil;  // Note [Exit while waiting] in gil.h
  if (!has_hook(Hook::LocateLibrary)) {
    note = "not looked for with cuda-pathfinder before cuarray's import installs the locator";
    return "";
  }
  try {
    auto [path, why] = hook(Hook::LocateLibrary)(stem).cast<std::pair<std::string, std::string>>();
    note = why;
    return path;
  } catch (py::error_already_set& e) {
    // A Ctrl-C during the search ends the call that needed the library, rather than being reported as a
    // library not found (Note [Interrupts in quiet calls] in hooks.h).
    if (e.matches(PyExc_KeyboardInterrupt)) throw;
    note = std::string("cuda-pathfinder: ") + e.what();
    return "";
  }
}

}  // namespace

void init_libraries(py::module_& m) {
  lib::set_locator(&locate);
  py::module_ l = m.def_submodule("libraries", "where the CUDA math libraries load from");
  // [{name, stem, file, path, version, error}] for cuBLAS, cuSOLVER and cuFFT.
  l.def("probe", [] {
    py::list out;
    for (const lib::Library& library : {lib::kCublas, lib::kCusolver, lib::kCufft}) {
      lib::LibraryInfo info = lib::probe(library);
      out.append(py::dict("name"_a = library.name, "stem"_a = library.stem,
                          "file"_a = std::string("lib") + library.stem + ".so." + library.major, "path"_a = info.path,
                          "version"_a = info.version, "error"_a = info.error));
    }
    return out;
  });
}

}  // namespace cuarray::bind
