// The CUDA runtime calls that CuPy exposes by name (cupy.cuda.runtime, MemoryPointer's copies and memset), on
// raw addresses and handles that the caller owns.
//
// Note [Raw runtime calls]
// cupy.cuda.runtime and MemoryPointer hand out the runtime's own functions (deviceGetAttribute, malloc, free,
// streamCreate, memcpy, memset), which programs use to share memory and streams with other libraries. They act
// on integers the caller owns: nothing here keeps memory or a stream alive, as with the runtime itself. Each
// call is ordered after the kernel launches cuarray has queued (Note [Launch queue]), so a copy sees the work
// queued before it; errors become CudaError naming the call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cuarray::cuda {

// cudaDeviceGetAttribute(attr, device); CudaError for an attribute or device the runtime refuses.
int device_attribute(int attr, int device);
// Every cudaDeviceAttr cuarray knows: (CuPy's name less "cudaDevAttr", its number). Touches no device.
const std::vector<std::pair<std::string, int>>& device_attribute_numbers();

// cudaDeviceCanAccessPeer: 1 where `device` can read and write `peer`'s memory directly, else 0; CudaError for a
// device number the machine lacks.
int device_can_access_peer(int device, int peer);

// The device of the memory at `ptr` (cudaPointerGetAttributes).
int raw_pointer_device(std::uintptr_t ptr);

// cudaMalloc and cudaFree on the current device.
std::uintptr_t raw_malloc(std::size_t nbytes);
void raw_free(std::uintptr_t ptr);

// cudaStreamCreate, cudaStreamDestroy, and cudaStreamQuery's status (0: done, cudaErrorNotReady: pending).
std::uintptr_t raw_stream_create(unsigned flags);
void raw_stream_destroy(std::uintptr_t stream);
int raw_stream_query(std::uintptr_t stream);

// cudaMemcpyAsync with cudaMemcpyDefault (the runtime tells host from device memory) and cudaMemsetAsync, on
// `stream`; `wait` makes the call return once the stream's work is done, as cudaMemcpy and cudaMemset do.
void raw_memcpy(std::uintptr_t dst, std::uintptr_t src, std::size_t nbytes, std::uintptr_t stream, bool wait);
void raw_memset(std::uintptr_t dst, int value, std::size_t nbytes, std::uintptr_t stream, bool wait);

// cudaMemPrefetchAsync of managed memory to `device` (cudaCpuDeviceId, -1: the host) on `stream`, and
// cudaMemAdvise's `advice` (a cudaMemoryAdvise) for `device`.
void raw_mem_prefetch(std::uintptr_t ptr, std::size_t nbytes, int device, std::uintptr_t stream);
void raw_mem_advise(std::uintptr_t ptr, std::size_t nbytes, int advice, int device);

}  // namespace cuarray::cuda
