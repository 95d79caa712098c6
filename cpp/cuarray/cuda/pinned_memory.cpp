#include "cuarray/cuda/pinned_memory.h"

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>

#include "cuarray/cuda/device.h"
#include "cuarray/error.h"

namespace cuarray::cuda {

namespace {

struct Pool {
  std::mutex mutex;
  std::multimap<std::size_t, void*> cached;  // by size
  std::size_t used = 0, cached_bytes = 0;
};

Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: buffers may be released during shutdown
  return *p;
}

std::size_t round_up(std::size_t n) { return (n + 4095) / 4096 * 4096; }

}  // namespace

PinnedBuffer::~PinnedBuffer() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  p.used -= nbytes_;
  p.cached.emplace(nbytes_, ptr_);
  p.cached_bytes += nbytes_;
}

std::shared_ptr<PinnedBuffer> allocate_pinned(std::size_t nbytes) {
  std::size_t size = round_up(nbytes ? nbytes : 1);
  Pool& p = pool();
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    auto it = p.cached.lower_bound(size);
    if (it != p.cached.end() && it->first <= 2 * size) {  // reuse a block up to twice the size asked for
      auto buf = std::make_shared<PinnedBuffer>(it->second, it->first);
      p.cached_bytes -= it->first;
      p.used += it->first;
      p.cached.erase(it);
      return buf;
    }
  }
  device_count();
  void* ptr = nullptr;
  cudaError_t status = cudaHostAlloc(&ptr, size, cudaHostAllocPortable);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    free_pinned_blocks();
    status = cudaHostAlloc(&ptr, size, cudaHostAllocPortable);
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw OutOfMemory(static_cast<std::int64_t>(nbytes), static_cast<std::int64_t>(pinned_pool_stats().used_bytes),
                        "Out of pinned host memory allocating " + std::to_string(nbytes) + " bytes");
    }
  }
  check_cuda(status, "cudaHostAlloc");
  std::lock_guard<std::mutex> lock(p.mutex);
  p.used += size;
  return std::make_shared<PinnedBuffer>(ptr, size);
}

PinnedPoolStats pinned_pool_stats() {
  std::lock_guard<std::mutex> lock(pool().mutex);
  return {pool().used, pool().cached_bytes};
}

void free_pinned_blocks() {
  std::multimap<std::size_t, void*> blocks;
  {
    std::lock_guard<std::mutex> lock(pool().mutex);
    blocks.swap(pool().cached);
    pool().cached_bytes = 0;
  }
  for (auto& [size, ptr] : blocks) cudaFreeHost(ptr);
}

}  // namespace cuarray::cuda
