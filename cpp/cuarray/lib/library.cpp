#include "cuarray/lib/library.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <vector>

#include "cuarray/error.h"

namespace cuarray::lib {

namespace {

std::atomic<Locator> g_locator{nullptr};

// dlopen()s the first of the system's places (Note [Finding the CUDA libraries], 1 and 2) that has `library`;
// nullptr, with the first failure in `error`, when none does.
void* open_from_system(const Library& library, std::string& error) {
  std::string file = std::string("lib") + library.stem + ".so";
  std::string soname = file + "." + library.major;
  std::vector<std::string> candidates = {soname, file};
  for (const char* var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* dir = std::getenv(var); dir && *dir) candidates.push_back(std::string(dir) + "/lib64/" + soname);
  candidates.push_back("/usr/local/cuda/lib64/" + soname);
  for (const auto& c : candidates) {
    if (void* h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
    if (error.empty()) error = dlerror();
  }
  return nullptr;
}

}  // namespace

void set_locator(Locator locator) { g_locator.store(locator); }

void* open_library(const Library& library, bool use_locator) {
  std::string error;
  if (void* h = open_from_system(library, error)) return h;
  std::string where = "Looked in the system's library path, CUDA_PATH, CUDA_HOME and /usr/local/cuda (" + error + ")";
  if (Locator locate = g_locator.load(); locate && use_locator) {
    std::string note;
    std::string path = locate(library.stem, note);
    if (!path.empty()) {
      if (void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
      note = dlerror();
    }
    where += "; " + note;
  }
  throw CudaError("dlopen", 0,
                  std::string(library.name) + " (lib" + library.stem + ".so." + library.major +
                      ") was not found: install CUDA 13's libraries with pip install \"cuarray[ctk]\", or set "
                      "CUDA_PATH to a CUDA 13 toolkit. " +
                      where);
}

LibraryInfo probe(const Library& library) {
  LibraryInfo info;
  void* h = nullptr;
  try {
    h = open_library(library);
  } catch (const CudaError& e) {
    info.error = e.what();
    return info;
  }
  // Every *GetProperty returns its library's int-sized status enum.
  using GetProperty = int (*)(libraryPropertyType, int*);
  if (void* f = dlsym(h, library.get_property)) {
    info.path = file_of(f);
    info.version = version(reinterpret_cast<GetProperty>(f));
  } else {
    info.error = std::string("lib") + library.stem + " lacks " + library.get_property;
  }
  return info;
}

std::string file_of(const void* symbol) {
  Dl_info info;
  return dladdr(symbol, &info) && info.dli_fname ? info.dli_fname : "";
}

void* symbol(void* library, const char* name, const std::string& stem) {
  void* p = dlsym(library, name);
  if (!p) throw CudaError("dlsym", 0, "lib" + stem + " lacks " + name + "; cuarray needs the CUDA 13 libraries");
  return p;
}

cudaDataType data_type(DType t) {
  switch (t) {
    case DType::Float16:
      return CUDA_R_16F;
    case DType::BFloat16:
      return CUDA_R_16BF;
    case DType::Float32:
      return CUDA_R_32F;
    case DType::Float64:
      return CUDA_R_64F;
    case DType::Complex64:
      return CUDA_C_32F;
    case DType::Complex128:
      return CUDA_C_64F;
    default:
      throw TypeError(std::string("the CUDA math libraries do not take ") + name(t) + " arrays");
  }
}

}  // namespace cuarray::lib
