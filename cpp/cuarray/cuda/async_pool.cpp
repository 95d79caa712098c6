// Note [Async pool] in async_pool.h.
#include "cuarray/cuda/async_pool.h"

#include <cuda_runtime_api.h>

#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"

namespace cuarray::cuda {

namespace {

std::mutex pools_mutex;

// The async pool of `device`, made on first use; pools live for the whole process.
cudaMemPool_t pool_of(int device) {
  check_device(device);
  static auto* pools = new std::vector<cudaMemPool_t>;  // never destroyed: Buffers may outlive statics
  {
    std::lock_guard<std::mutex> lock(pools_mutex);
    if (pools->empty()) pools->resize(device_count(), nullptr);
    if ((*pools)[device]) return (*pools)[device];
  }
  // Made outside the lock (Note [No CUDA call under a core lock] in memory_pool.cpp); a concurrent maker's is kept.
  cudaMemPool_t pool = nullptr;
  {
    int supported = 0;
    CUARRAY_CHECK_CUDA(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device));
    if (!supported)
      throw CudaError("cudaMemPoolCreate", cudaErrorNotSupported,
                      "malloc_async: device " + std::to_string(device) +
                          " has no stream-ordered memory pools (cudaDevAttrMemoryPoolsSupported is 0)");
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    CUARRAY_CHECK_CUDA(cudaMemPoolCreate(&pool, &props));
    std::uint64_t keep = std::numeric_limits<std::uint64_t>::max();
    const cudaError_t status = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    if (status != cudaSuccess) cudaMemPoolDestroy(pool);
    check_cuda(status, "cudaMemPoolSetAttribute");
  }
  std::lock_guard<std::mutex> lock(pools_mutex);
  if (!(*pools)[device]) return (*pools)[device] = pool;
  cudaMemPoolDestroy(pool);  // another thread made one first
  return (*pools)[device];
}

std::uint64_t attribute(int device, cudaMemPoolAttr attr) {
  std::uint64_t value = 0;
  CUARRAY_CHECK_CUDA(cudaMemPoolGetAttribute(pool_of(device), attr, &value));
  return value;
}

}  // namespace

std::shared_ptr<Buffer> allocate_async(std::size_t nbytes) {
  int device = current_device();
  cudaMemPool_t pool = pool_of(device);
  std::shared_ptr<Stream> stream = current_stream(device);
  void* ptr = nullptr;
  if (nbytes) {
    drain_launches();
    cudaError_t status = cudaMallocFromPoolAsync(&ptr, nbytes, pool, stream->handle());
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw OutOfMemory(static_cast<std::int64_t>(nbytes), -1,
                        "Out of memory allocating " + std::to_string(nbytes) + " bytes from the async pool of device " +
                            std::to_string(device));
    }
    check_cuda(status, "cudaMallocFromPoolAsync");
  }
  return std::make_shared<Buffer>(ptr, nbytes, device, [ptr, stream] {
    if (ptr && cudaFreeAsync(ptr, stream->handle()) != cudaSuccess) cudaGetLastError();  // the runtime may be gone
  });
}

std::uint64_t async_pool_used_bytes(int device) { return attribute(device, cudaMemPoolAttrUsedMemCurrent); }

std::uint64_t async_pool_reserved_bytes(int device) { return attribute(device, cudaMemPoolAttrReservedMemCurrent); }

std::uint64_t async_pool_release_threshold(int device) { return attribute(device, cudaMemPoolAttrReleaseThreshold); }

void async_pool_set_release_threshold(int device, std::uint64_t bytes) {
  CUARRAY_CHECK_CUDA(cudaMemPoolSetAttribute(pool_of(device), cudaMemPoolAttrReleaseThreshold, &bytes));
}

void async_pool_trim(int device) { CUARRAY_CHECK_CUDA(cudaMemPoolTrimTo(pool_of(device), 0)); }

}  // namespace cuarray::cuda
