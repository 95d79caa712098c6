// The kernel headers (kernels/*.cuh), compiled into the library by the build (jit/embed_headers.cmake). NVRTC
// gets them from memory, and the cache key takes the hash computed at build time, so finding a kernel in the
// disk cache reads no header file (Note [Kernel cache key]).
#pragma once

namespace cuarray::jit {

struct KernelHeader {
  const char* name;  // as kernels include it: "cuarray/<file>.cuh"
  const char* text;
};

extern const KernelHeader kKernelHeaders[];
extern const int kKernelHeaderCount;
extern const char kKernelHeadersHash[];  // SHA-256 of every header's name and text, in hex

}  // namespace cuarray::jit
