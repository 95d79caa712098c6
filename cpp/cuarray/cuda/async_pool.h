// CuPy's malloc_async and MemoryAsyncPool: memory from a CUDA stream-ordered pool (cudaMallocFromPoolAsync),
// allocated and freed on a stream.
//
// Note [Async pool]
// CuPy's MemoryAsyncPool and malloc_async draw from the device's current cudaMemPool. cuarray's own MemoryPool
// already draws from the device's default cudaMemPool and keeps a release threshold of the whole device there
// (Note [Memory pool stream rule] in memory_pool.h), so setting a limit on that pool (MemoryAsyncPool.set_limit
// sets the release threshold) would change the default pool, and the two pools' byte counts would be one.
// cuarray therefore gives each device one more cudaMemPool, made on first use, for malloc_async and
// MemoryAsyncPool alone; as in CuPy it starts with the release threshold at its maximum (freed memory stays
// reserved by the pool until trim), and its counts are CUDA's own (cudaMemPoolAttr*).
// Memory is freed with cudaFreeAsync on the stream that allocated it, which the Buffer keeps alive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "cuarray/cuda/memory_pool.h"

namespace cuarray::cuda {

// `nbytes` from the async pool of the current device, ordered on the current stream; OutOfMemory when the
// pool cannot grow. Throws CudaError where the device has no memory pools (cudaDevAttrMemoryPoolsSupported).
std::shared_ptr<Buffer> allocate_async(std::size_t nbytes);

// The pool's counts on `device`: bytes in use (cudaMemPoolAttrUsedMemCurrent) and reserved from the device
// (cudaMemPoolAttrReservedMemCurrent).
std::uint64_t async_pool_used_bytes(int device);
std::uint64_t async_pool_reserved_bytes(int device);
// The release threshold: the reserved bytes the pool keeps past a synchronisation.
std::uint64_t async_pool_release_threshold(int device);
void async_pool_set_release_threshold(int device, std::uint64_t bytes);
// Gives the pool's unused memory back to the device (cudaMemPoolTrimTo 0), after the caller has synchronised.
void async_pool_trim(int device);

}  // namespace cuarray::cuda
