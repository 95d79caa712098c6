// Linking relocatable device code with the CUDA device runtime, through nvJitLink (loaded on first use).
//
// Note [Relocatable device code]
// A kernel that launches kernels (dynamic parallelism) is compiled as relocatable device code (-dc, -rdc=true,
// as CuPy's RawKernel takes it) and needs the device runtime, libcudadevrt.a, linked in before the driver will
// load it: CuPy links it with the driver's linker. cuarray links it with nvJitLink, which needs no device, right
// after NVRTC's compile, so the kernel cache holds the linked cubin. libcudadevrt.a ships with the CUDA
// toolkit: it is looked for where the toolkit's libraries are (Note [Finding the CUDA libraries]: $CUDA_PATH,
// $CUDA_HOME, /usr/local/cuda); where it is not found, or nvJitLink fails, the compile fails with a
// CompileError saying why.
#pragma once

#include <string>
#include <vector>

#include "cuarray/jit/nvrtc.h"

namespace cuarray::jit {

// Whether `options` ask for relocatable device code.
bool relocatable(const std::vector<std::string>& options);

// `compiled` (NVRTC's relocatable cubin, or PTX, for `arch`) linked with the device runtime: a cubin for
// sm_`arch`. `name` and `source` label a CompileError.
Binary link_device_runtime(const Binary& compiled, int arch, const std::string& name, const std::string& source);

}  // namespace cuarray::jit
