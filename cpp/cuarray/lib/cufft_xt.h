// Multi-GPU cuFFT plans through cuFFT's Xt API (CuPy's Plan1d(..., devices=)), for lib/cufft.cpp.
//
// Note [Multi-GPU cuFFT plans]
// cuFFT spreads a batch of 1-D complex transforms (C2C, Z2Z) over the devices given to cufftXtSetGPUs before
// the plan is made; for a single transform (batch 1) it needs a power-of-two length and 2, 4, 8 or 16
// devices, with at least 64 points (128 on 8 devices, 1024 on 16): CuPy refuses other plans with ValueErrors
// before cuFFT sees them, and so does make_multi_gpu_plan, before any CUDA call.
// The plan owns, for its whole life, what its executions use: a work area on each device (set with
// cufftXtSetWorkArea) and the in-place buffers that cufftXtMalloc spreads over the devices (plus, for batch 1,
// a second set that cufftXtMemcpy brings the result back to natural order in: a single transform leaves it
// permuted). All are cudaMalloc's, as CuPy's pool and cufftXtMalloc give: cuFFT's kernels on one device may
// reach another device's memory, which memory of a stream-ordered pool does not allow without a grant (Note
// [Peer copies] in memory_pool.h), and cuFFT's own streams are not the pool's. Its destructor frees them
// (cufftXtFree) and destroys the plan.
// An execution, under the plan's mutex, from a current device that is one of the plan's (the input's device,
// as CuPy requires):
//   1. copies the input's natural-order pieces into the buffers, on the current stream (after the work that
//      made the input), each piece the size that cufftXtMalloc gave its device;
//   2. waits for each of the plan's devices: the Xt API queues its work on streams of its own, which cuarray
//      cannot order against, so only a device-wide wait orders the copies before it and its work before the
//      copies back;
//   3. runs the transform (cufftXtExecDescriptor) and, for batch 1, the reordering copy, then waits again;
//   4. copies the pieces into `out` on the current stream and waits for it, so the buffers are free for the
//      next execution when it returns.
// cuFFT's Xt calls run with the plan's first device current and may leave another current (a cuFFT bug CuPy
// works around), so each is bracketed by a guard that sets the caller's device back. A capturing stream on any
// of the devices is refused (the waits cannot be captured).
#pragma once

#include <cufftXt.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "cuarray/lib/cufft.h"

namespace cuarray::lib::cufft {

struct XtState {
  std::vector<std::size_t> work_sizes;                    // per device of the key's gpus
  std::vector<std::shared_ptr<cuda::Buffer>> work_areas;  // the same order (cudaMalloc); null for size 0
  cudaLibXtDesc* data = nullptr;                          // the in-place buffers (cufftXtMalloc)
  cudaLibXtDesc* natural = nullptr;                       // batch 1: the result in natural order
};

// A new multi-GPU plan for `key` (key.gpus not empty): ValueError, with CuPy's messages, for a transform
// cuFFT cannot spread over those devices.
PlanPtr make_multi_gpu_plan(const Key& key);
// Step 1 to 4 of Note [Multi-GPU cuFFT plans]: `out` holds the transform of `in` when it returns.
void execute_multi_gpu(cufftHandle handle, const Key& key, XtState& state, void* in, void* out, int direction);
// Frees the plan's buffers and destroys it; never throws (a plan outliving the context has nothing to free).
void destroy_multi_gpu(cufftHandle handle, const Key& key, XtState& state) noexcept;

}  // namespace cuarray::lib::cufft
