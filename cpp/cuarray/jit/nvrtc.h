// NVRTC, loaded on first use (dlopen), so that importing cuarray needs no NVRTC library.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cuarray::jit {

struct Binary {
  std::string code;  // a cubin, or PTX when the device is newer than this NVRTC knows
  bool is_cubin = true;
};

// In-memory headers the program may #include: (include name, text).
using Headers = std::vector<std::pair<std::string, std::string>>;

// Compiles `source` for compute capability `arch` (90 -> sm_90). Throws CompileError with NVRTC's log.
// `name` labels the program in error messages.
Binary compile(const std::string& source, const std::string& name, const std::vector<std::string>& options,
               int arch, const Headers& headers);

// NVRTC's version as major * 1000 + minor * 10 (CUDA's convention); throws CudaError-like text if missing.
int nvrtc_version();
// The file NVRTC was loaded from (loads it; throws as nvrtc_version does).
std::string nvrtc_path();
// Loads NVRTC and compiles an empty kernel, so that the first real compile in the process does not pay
// NVRTC's first-use set-up (Note [Warming NVRTC] in python/cuarray/_cuda_start.py). Never throws: where NVRTC
// cannot be loaded, the first real compile says why.
void warm_up() noexcept;
// The architecture code is generated for: `arch` itself, or the newest NVRTC supports when `arch` is newer.
int target_arch(int arch);

}  // namespace cuarray::jit
