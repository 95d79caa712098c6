// Note [Raw runtime calls] in runtime_calls.h.
#include "cuarray/cuda/runtime_calls.h"

#include <cuda_runtime_api.h>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/stream.h"

namespace cuarray::cuda {

namespace {

// Without a driver or device, the same error as every other call's rather than one naming this call.
void require_device() { device_count(); }

void* address(std::uintptr_t p) { return reinterpret_cast<void*>(p); }
cudaStream_t stream_of(std::uintptr_t s) { return reinterpret_cast<cudaStream_t>(s); }

cudaMemLocation location_of(int device) {
  cudaMemLocation location = {};
  location.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  location.id = device == cudaCpuDeviceId ? 0 : device;
  return location;
}

}  // namespace

int raw_pointer_device(std::uintptr_t ptr) {
  require_device();
  cudaPointerAttributes attr{};
  CUARRAY_CHECK_CUDA(cudaPointerGetAttributes(&attr, address(ptr)));
  return attr.device;
}

std::uintptr_t raw_malloc(std::size_t nbytes) {
  require_device();
  void* ptr = nullptr;
  CUARRAY_CHECK_CUDA(cudaMalloc(&ptr, nbytes));
  return reinterpret_cast<std::uintptr_t>(ptr);
}

void raw_free(std::uintptr_t ptr) {
  require_device();
  CUARRAY_CHECK_CUDA(cudaFree(address(ptr)));
}

std::uintptr_t raw_stream_create(unsigned flags) {
  require_device();
  cudaStream_t stream = nullptr;
  CUARRAY_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, flags));
  return reinterpret_cast<std::uintptr_t>(stream);
}

void raw_stream_destroy(std::uintptr_t stream) {
  require_device();
  CUARRAY_CHECK_CUDA(cudaStreamDestroy(stream_of(stream)));
}

int raw_stream_query(std::uintptr_t stream) {
  require_device();
  drain_launches();
  cudaError_t status = cudaStreamQuery(stream_of(stream));
  if (status == cudaErrorNotReady) {
    cudaGetLastError();  // pending work is no error to keep
    return static_cast<int>(status);
  }
  check_cuda(status, "cudaStreamQuery");
  return 0;
}

void raw_memcpy(std::uintptr_t dst, std::uintptr_t src, std::size_t nbytes, std::uintptr_t stream, bool wait) {
  require_device();
  if (nbytes == 0) return;
  // The work queued before the copy is waited for interruptibly; the copy itself is not, since it may land in
  // host memory that the caller frees once this returns (finish_readback).
  if (wait) cuda::wait(stream_of(stream));
  CUARRAY_CHECK_CUDA(cudaMemcpyAsync(address(dst), address(src), nbytes, cudaMemcpyDefault, stream_of(stream)));
  if (wait) finish_readback(stream_of(stream));
}

void raw_memset(std::uintptr_t dst, int value, std::size_t nbytes, std::uintptr_t stream, bool wait) {
  require_device();
  if (nbytes == 0) return;
  CUARRAY_CHECK_CUDA(cudaMemsetAsync(address(dst), value, nbytes, stream_of(stream)));
  if (wait) finish_readback(stream_of(stream));
}

void raw_mem_prefetch(std::uintptr_t ptr, std::size_t nbytes, int device, std::uintptr_t stream) {
  require_device();
  CUARRAY_CHECK_CUDA(cudaMemPrefetchAsync(address(ptr), nbytes, location_of(device), 0, stream_of(stream)));
}

void raw_mem_advise(std::uintptr_t ptr, std::size_t nbytes, int advice, int device) {
  require_device();
  CUARRAY_CHECK_CUDA(cudaMemAdvise(address(ptr), nbytes, static_cast<cudaMemoryAdvise>(advice), location_of(device)));
}

}  // namespace cuarray::cuda
