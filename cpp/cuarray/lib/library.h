// What NVRTC and the CUDA math library wrappers share: finding and loading a library with dlopen on first use
// (so that importing cuarray needs none of them), resolving its functions, and the library-side name of each
// dtype.
//
// Note [Finding the CUDA libraries]
// cuarray links the CUDA runtime statically and dlopen()s NVRTC, cuBLAS, cuSOLVER and cuFFT on first use. It
// looks for each, in order:
//   1. where the system's loader finds its CUDA 13 soname: a copy another module already loaded,
//      LD_LIBRARY_PATH, the loader's cache (a toolkit installed by the system's packages);
//   2. the toolkit named by CUDA_PATH, then CUDA_HOME, then /usr/local/cuda (its lib64);
//   3. the host's locator (set_locator): the Python package asks cuda-pathfinder, which finds the libraries
//      NVIDIA's pip wheels (`pip install "cuarray[ctk]"`) or conda put in the environment.
// The first two are what a machine with a CUDA toolkit has always used and cost a few failed dlopen calls
// where there is none; cuda-pathfinder costs an import of tens of milliseconds, so it is asked only when they
// find nothing, and a toolkit the user installed or named wins over wheels that came along as dependencies.
// The locator may wait for the GIL, so it is never called with a lock held: each wrapper's api() loads its
// library through load_once, which finds the library before taking its once-lock (a thread holding the GIL
// may be waiting on that lock). A library that is found nowhere is a CudaError saying what to install.
#pragma once

#include <library_types.h>

#include <atomic>
#include <mutex>
#include <string>

#include "cuarray/blocking.h"
#include "cuarray/dtype.h"

namespace cuarray::lib {

// The libraries cuarray loads: the file stem (cuda-pathfinder's name for it too), the soname's major version in
// CUDA 13 and the function that reports the version (none for NVRTC, whose nvrtcVersion differs).
struct Library {
  const char* name;
  const char* stem;
  const char* major;
  const char* get_property;
};
inline constexpr Library kNvrtc{"NVRTC", "nvrtc", "13", nullptr};
inline constexpr Library kCublas{"cuBLAS", "cublas", "13", "cublasGetProperty"};
inline constexpr Library kCusolver{"cuSOLVER", "cusolver", "12", "cusolverGetProperty"};
inline constexpr Library kCufft{"cuFFT", "cufft", "12", "cufftGetProperty"};

// The host's way of finding a library the system does not (Note [Finding the CUDA libraries]): given the stem,
// returns the file's absolute path, or "" with `note` saying why it found none. Set once, before the first use
// of a library; never called with a lock of the core held.
using Locator = std::string (*)(const std::string& stem, std::string& note);
void set_locator(Locator locator);

// dlopen()s `library` from the first place Note [Finding the CUDA libraries] lists that has it; with
// `use_locator` false, from the system's places alone. Throws CudaError naming the library and how to install
// it when none has it.
void* open_library(const Library& library, bool use_locator = true);

// Calls init(handle) once, with `library` open: each wrapper's api(). `loaded` makes later calls one atomic
// load; the library is found before the once-lock is taken (Note [Finding the CUDA libraries]).
template <class Init>
void load_once(const Library& library, std::once_flag& once, std::atomic<bool>& loaded, Init&& init) {
  if (loaded.load(std::memory_order_acquire)) return;
  void* handle = open_library(library);  // dlopen is reference-counted: racing threads get the same handle
  std::call_once(once, [&] { init(handle); });
  loaded.store(true, std::memory_order_release);
}

// Where open_library loads `library` from, for reports. The file stays mapped (unloading a library that
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

// Note [Library calls wait for the device]
// A library call that launches work may first load the library's kernel into the context, and a load may wait
// for the device to be idle (Note [Loading waits for the device] in jit/kernel_cache.cpp), so for a Python host
// function queued behind running work, which needs the GIL; some calls also wait for the device themselves (a
// cuSOLVER eigensolver's host workspace, a cuFFT plan's allocation). Made holding the GIL, such a call hung the
// process. The Api entries that launch, load, allocate or free are therefore Blocking: the call runs through the
// host's blocking hook (the GIL let go), as CuPy's wrappers call the libraries without it. The libraries'
// setters, getters and size queries stay plain calls. No lock of the core is held across a Blocking call except
// a cuFFT plan's, which its users take through the same hook (Plan::execute).
template <class F>
struct Blocking;
template <class R, class... A>
struct Blocking<R (*)(A...)> {
  R (*fn)(A...) = nullptr;
  R operator()(A... args) const {
    R result{};
    run_blocking([&] { result = fn(args...); });
    return result;
  }
};

template <class F>
void resolve(Blocking<F>& f, void* library, const char* name, const std::string& stem) {
  resolve(f.fn, library, name, stem);
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
