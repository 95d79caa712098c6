// cuFFT, loaded on first use. Plans are cached per thread, keyed by (device, type, sizes, batch); they are made
// without a work area, and each execution binds the plan to the current stream and gives it a work area from
// the memory pool (Note [cuFFT plans]).
//
// Note [cuFFT plans]
// A plan is used by one thread at a time (its cache is thread-local), so setting its stream and work area
// just before an execution is race-free. The work area is a pool allocation on the current stream, released
// as soon as the execution is queued: the pool's stream order keeps it alive for the transform. At most
// kMaxPlans plans per thread stay cached; the least recently used one is destroyed first.
#pragma once

#include <cufft.h>

#include <cstddef>
#include <vector>

namespace cuarray::lib::cufft {

struct Api {
  decltype(&cufftCreate) create;
  decltype(&cufftDestroy) destroy;
  decltype(&cufftSetAutoAllocation) set_auto_allocation;
  decltype(&cufftMakePlanMany64) make_plan_many;
  decltype(&cufftSetStream) set_stream;
  decltype(&cufftSetWorkArea) set_work_area;
  decltype(&cufftExecC2C) exec_c2c;
  decltype(&cufftExecZ2Z) exec_z2z;
  decltype(&cufftExecR2C) exec_r2c;
  decltype(&cufftExecD2Z) exec_d2z;
  decltype(&cufftExecC2R) exec_c2r;
  decltype(&cufftExecZ2D) exec_z2d;
  decltype(&cufftGetVersion) get_version;
};

// The library's functions; loads it on the first call (throws CudaError if it cannot be loaded).
const Api& api();
// Throws CudaError naming `call` and the status unless `status` is CUFFT_SUCCESS.
void check(cufftResult status, const char* call);
// The loaded library's version (cufftGetVersion: major * 1000 + minor * 10 + patch); loads it.
int version();

constexpr int kMaxPlans = 16;

struct Plan {
  cufftHandle handle;
  std::size_t work_size;
};

// The calling thread's plan on the current device for `batch` contiguous transforms of sizes `n` (1 to 3
// dimensions, the last fastest) of `type`, in cuFFT's basic data layout.
Plan plan(cufftType type, const std::vector<long long>& n, long long batch);

}  // namespace cuarray::lib::cufft
