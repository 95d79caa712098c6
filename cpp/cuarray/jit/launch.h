// Launching a loaded kernel, and the launch shapes the ops share.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuarray/cuda/check.h"
#include "cuarray/error.h"
#include "cuarray/jit/kernel_cache.h"

namespace cuarray::jit {

constexpr int kBlockSize = 256;

// Queued for the launch worker (Note [Launch queue] in cuda/launch_queue.h).
inline void launch(const Kernel& k, dim3 grid, dim3 block, void** args, std::size_t shared_mem, cudaStream_t stream) {
  cuda::launch_kernel(k.handle, args, grid, block, shared_mem, stream);
}

// Issued before returning, so that a launch CUDA refuses (a user kernel's bad shape) raises here.
inline void launch_now(const Kernel& k, dim3 grid, dim3 block, void** args, std::size_t shared_mem,
                       cudaStream_t stream) {
  CUARRAY_CHECK_CUDA(cudaLaunchKernel(reinterpret_cast<const void*>(k.handle), grid, block, args, shared_mem, stream));
}

// A 1-D grid of blocks of `block` threads, one thread per `per_thread` items, capped so grid-stride loops
// cover the rest.
inline dim3 grid_for(std::int64_t n, int per_thread = 1, int block = kBlockSize) {
  std::int64_t threads = (n + per_thread - 1) / per_thread;
  std::int64_t blocks = (threads + block - 1) / block;
  if (blocks < 1) blocks = 1;
  if (blocks > (1 << 30)) blocks = 1 << 30;
  return dim3(static_cast<unsigned>(blocks));
}

}  // namespace cuarray::jit
