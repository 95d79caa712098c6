// NVRTC, loaded on first use (dlopen), so that importing cuarray needs no NVRTC library.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cuarray::jit {

struct Binary {
  std::string code;  // a cubin, or PTX when the device is newer than this NVRTC knows
  bool is_cubin = true;
  std::vector<std::string> lowered;  // the lowered (mangled) name of each name expression, in order
  std::string log;                   // NVRTC's messages (warnings) of the compile; empty from the disk cache
};

// In-memory headers the program may #include: (include name, text).
using Headers = std::vector<std::pair<std::string, std::string>>;

// Compiles `source` for compute capability `arch` (90 -> sm_90). Throws CompileError with NVRTC's log.
// `name` labels the program in error messages. Each of `name_expressions` (a __global__ function or a template
// instance, "f<int>") is instantiated and its lowered name returned in Binary::lowered.
Binary compile(const std::string& source, const std::string& name, const std::vector<std::string>& options, int arch,
               const Headers& headers, const std::vector<std::string>& name_expressions = {});

// NVRTC's version as major * 1000 + minor * 10 (CUDA's convention); throws CudaError-like text if missing.
int nvrtc_version();
// The file NVRTC was loaded from (loads it; throws as nvrtc_version does).
std::string nvrtc_path();
// Note [Warming NVRTC]
// A process's first NVRTC compile costs more than later ones (libnvrtc is a large library to load, then NVRTC
// and the ptxas inside it set themselves up), and the first kernel a program needs that is not in the disk
// cache pays it. So the first device query of a process, where it finds a device (kernels will run), calls
// start_warm_up, which compiles an empty kernel on a thread of its own while the calling thread creates the
// context (Note [Starting CUDA on first use] in cpp/cuarray/cuda/device.h). The thread holds no GIL and
// touches no driver state; it ends when the compile does. The cost: the library's resident memory, shared
// with the page cache, in a process that never compiles.
//
// Loads NVRTC and compiles an empty kernel. Never throws: where NVRTC cannot be loaded, the first real compile
// says why.
void warm_up() noexcept;
// Runs warm_up on a thread of its own, once per process.
void start_warm_up() noexcept;
// Waits for that thread: before a fork, so that no NVRTC lock is inherited held, and before the interpreter
// exits, so that NVRTC is not torn down under it.
void finish_warm_up() noexcept;
// The architecture code is generated for: `arch` itself, or the newest NVRTC supports when `arch` is newer.
int target_arch(int arch);

}  // namespace cuarray::jit
