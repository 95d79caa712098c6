// What the CUDA math library wrappers share: loading a library with dlopen on first use (so that importing
// cuarray needs none of them), resolving its functions, and the library-side name of each dtype.
#pragma once

#include <library_types.h>

#include <string>

#include "cuarray/dtype.h"

namespace cuarray::lib {

// The libraries cuarray loads: the file stem, the soname's major version in CUDA 13 and the function that
// reports the version.
struct Library {
  const char* name;
  const char* stem;
  const char* major;
  const char* get_property;
};
inline constexpr Library kCublas{"cuBLAS", "cublas", "13", "cublasGetProperty"};
inline constexpr Library kCusolver{"cuSOLVER", "cusolver", "12", "cusolverGetProperty"};
inline constexpr Library kCufft{"cuFFT", "cufft", "12", "cufftGetProperty"};

// dlopen()s lib<stem>.so.<major> (then lib<stem>.so, then the toolkit's lib64 under CUDA_PATH, CUDA_HOME and
// /usr/local/cuda). Throws CudaError naming the library and how to install it when none loads.
void* open_library(const std::string& stem, const std::string& major);

// Where open_library would load `library` from, for reports. The file stays mapped (unloading a library that
// registered kernels with the CUDA runtime is not safe), but cuarray's own use of it (handles, settings read on
// first use) is untouched.
struct LibraryInfo {
  std::string path;   // empty when it does not load
  int version = 0;    // major * 10000 + minor * 100 + patch
  std::string error;  // why it does not load
};
LibraryInfo probe(const Library& library);

// The file a loaded symbol comes from ("" if unknown).
std::string file_of(const void* symbol);

// The address of `name` in `library`; throws CudaError naming both when it is missing (an older library).
void* symbol(void* library, const char* name, const std::string& stem);

// Resolves `name` into the function pointer `f`.
template <class F>
void resolve(F& f, void* library, const char* name, const std::string& stem) {
  f = reinterpret_cast<F>(symbol(library, name, stem));
}

// A library's version as major * 10000 + minor * 100 + patch, from its *GetProperty function.
template <class Status>
int version(Status (*get_property)(libraryPropertyType, int*)) {
  int major = 0, minor = 0, patch = 0;
  get_property(MAJOR_VERSION, &major);
  get_property(MINOR_VERSION, &minor);
  get_property(PATCH_LEVEL, &patch);
  return major * 10000 + minor * 100 + patch;
}

// CUDA_R_32F for float32, ...; throws TypeError for the types the libraries do not take (integers, bool).
cudaDataType data_type(DType t);

}  // namespace cuarray::lib
