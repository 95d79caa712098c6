// Compiled kernels, found by key in memory, else on disk, else compiled by NVRTC.
//
// Note [Kernel cache key]
// A kernel's identity is a 128-bit hash of its source, the kernel headers (kernels/*.cuh, through their hash
// taken at build time: jit/kernel_headers.h), the compile options, the target architecture and the CUDA
// version cuarray was built with. The same key names its file in the disk cache (CUARRAY_CACHE_DIR, default
// ~/.cache/cuarray/kernels). Each file carries a magic number, the key, the payload's size and the payload's
// hash, so a truncated, corrupt or foreign file (another key's, or not ours at all) is recompiled and
// replaced, never loaded; files are written to a temporary name and renamed, so concurrent processes see
// whole files. A directory that cannot be written turns the disk cache off for the process, with one warning.
// Ops keep their own small caches from a compact key (dtypes, ndim, layout) to a Kernel, so the hot path
// never builds or hashes source text.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <string>
#include <vector>

#include "cuarray/jit/nvrtc.h"

namespace cuarray::jit {

// A loaded kernel, usable on every device of the architecture it was compiled for.
struct Kernel {
  cudaKernel_t handle = nullptr;
  explicit operator bool() const { return handle != nullptr; }
};

// The kernel headers (kernels/*.cuh) as NVRTC is given them: ("cuarray/<file>.cuh", text) pairs.
const Headers& kernel_headers();
// Where compiled kernels are kept; "" disables the disk cache.
void set_cache_dir(const std::string& dir);
// Back to the directory of CUARRAY_CACHE_DIR (or the default), the disk cache on again.
void reset_cache_dir();
std::string cache_dir();
// Receives a message once if the disk cache cannot be written (the cache then works from memory only).
void set_warning_handler(std::function<void(const std::string&)> handler);
// Note [Memory-only compiles]
// CuPy reads its CUPY_CACHE_IN_MEMORY switch at every compile, so a program may turn the disk cache off and
// on while it runs. The core asks `memory_only` the same question each time a kernel is not in memory (never
// for kernels found there, the hot path): where it answers true, the kernel is compiled without reading or
// writing the disk cache. It is called without the cache's lock held.
void set_memory_only_handler(std::function<bool()> memory_only);

// The kernel `name` (an extern "C" __global__ function) in `source`, compiled for the current device.
Kernel get_kernel(const std::string& source, const std::string& name, const std::vector<std::string>& options = {});

// Every function in `source`, compiled once; for RawModule-style use.
struct Module {
  cudaLibrary_t library = nullptr;
  std::vector<std::string> lowered;  // the lowered name of each name expression get_module was given
  Kernel function(const std::string& name) const;
  // The address and size of the module's __device__ or __constant__ variable `name` on the current device.
  void* global(const std::string& name, std::size_t& bytes) const;
};
// `name_expressions` as compile's; `log`, where given, gets NVRTC's messages: the module is then compiled
// afresh, whether or not a cache holds it (the log exists only where NVRTC runs), and the caches updated.
Module get_module(const std::string& source, const std::vector<std::string>& options = {},
                  const std::vector<std::string>& name_expressions = {}, std::string* log = nullptr);
// A module from a compiled image (cubin, fatbin or PTX), as CuPy's RawModule(path=) loads one; loaded once per
// content for the process, as compiled modules are. CudaError where the driver refuses the image.
Module load_module(const std::string& image);

// The binary of `name` in `source` for compute capability `arch` (90 -> sm_90), through the disk cache alone
// (no device needed): read from it when there (`from_disk`), else compiled and written to it. With `fresh`,
// compiled and written whatever the disk holds (a file the driver refused: see cached_kernel).
Binary cached_binary(const std::string& source, const std::string& name, const std::vector<std::string>& options,
                     int arch, bool& from_disk, bool fresh = false);
// get_kernel's kernel, for compute capability `arch`, where memory or the disk cache holds it (read and loaded now,
// under a millisecond), else a null kernel: nothing is compiled. `refused`: the disk held a file whose image the
// driver refused (another NVRTC's, or without the kernel), which only a fresh compile replaces. Other CUDA errors
// (no memory to load it into) are thrown.
Kernel cached_kernel(const std::string& source, const std::string& name, const std::vector<std::string>& options,
                     int arch, bool& refused);

// Note [Kernel cache log]
// A kernel found in memory is the hot path of every op and is not reported. Compiling one (tens of ms) or
// loading one from the disk cache (under a millisecond, once per kernel and process) is: the handler gets
// a CacheEvent, which cuarray logs on the "cuarray" logger at DEBUG level (cuarray.cuda.compiler). Nothing
// is called for memory hits, so a disabled logger costs nothing where it matters.
struct CacheEvent {
  std::string name;  // the kernel's name ("module" for a RawModule)
  std::string key;   // the start of its key (Note [Kernel cache key]): the start of its file's name
  bool compiled;     // else loaded from the disk cache
  double ms;         // the compile or the read, with the load into CUDA
};
// Receives every CacheEvent (of get_kernel, get_module and cached_binary), on the thread that needed the
// kernel, without the cache's lock held.
void set_event_handler(std::function<void(const CacheEvent&)> handler);

// Note [Handlers held in a flush]
// The handlers above are Python (the log, the memory-only switch, the warning), and Python code can do anything:
// run a finaliser that drops an array, call cuarray, wait for another thread. A flush of recorded ops (ops/
// auto_fusion.cpp) holds the chain's lock with a chain in flight, and may need a kernel that is not in memory (an
// op run op by op in a layout its loop was not prepared with). So while a HoldHandlers lives on a thread, the cache
// calls no handler there: its events and warnings are kept, and delivered in order by the next report outside a
// hold or by deliver_held_handlers(), which the next recorded op runs (its thread holds Python's lock and no lock of
// the core); the memory-only switch answers what it last answered outside a hold. Automatic fusion's own log waits
// the same way (emit_log in ops/auto_fusion.cpp).
class HoldHandlers {
 public:
  HoldHandlers();
  ~HoldHandlers();
  HoldHandlers(const HoldHandlers&) = delete;
  HoldHandlers& operator=(const HoldHandlers&) = delete;
};
// Delivers the events and warnings held so far, on the calling thread; one atomic read when there are none. For a
// thread that holds Python's lock and no lock of the core, outside a HoldHandlers.
void deliver_held_handlers();
// Drops them: in a forked child, whose parent reports them.
void drop_held_handlers();

struct CacheStats {
  std::size_t memory_hits = 0, disk_hits = 0, compiles = 0;
};
CacheStats cache_stats();

}  // namespace cuarray::jit
