#include "cuarray/lib/library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

#include "cuarray/error.h"

namespace cuarray::lib {

namespace {

// dlopen()s the first of open_library's candidates that loads; nullptr, with the first failure in `error`, when
// none does.
void* try_open(const std::string& stem, const std::string& major, std::string& error) {
  std::string file = "lib" + stem + ".so";
  std::vector<std::string> candidates = {file + "." + major, file};
  for (const char* var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* dir = std::getenv(var)) candidates.push_back(std::string(dir) + "/lib64/" + file + "." + major);
  candidates.push_back("/usr/local/cuda/lib64/" + file + "." + major);
  for (const auto& c : candidates) {
    if (void* h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
    if (error.empty()) error = dlerror();
  }
  return nullptr;
}

}  // namespace

void* open_library(const std::string& stem, const std::string& major) {
  std::string error;
  if (void* h = try_open(stem, major, error)) return h;
  throw CudaError("dlopen", 0,
                  "lib" + stem + ".so." + major + " could not be loaded (" + error +
                      "): install the CUDA toolkit or the nvidia-" + stem +
                      " package, or set CUDA_PATH to the toolkit's directory");
}

LibraryInfo probe(const Library& library) {
  LibraryInfo info;
  void* h = try_open(library.stem, library.major, info.error);
  if (!h) return info;
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
