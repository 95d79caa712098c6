// Device memory: a caching, stream-ordered pool per device, and the Buffer that owns one allocation.
//
// Note [Memory pool stream rule]
// Memory freed after work on stream A must not be written by work on stream B before A's work is done.
// Each device's pool is CUDA's own stream-ordered allocator (cudaMallocAsync on the device's default
// cudaMemPool, its release threshold raised so freed memory stays cached); it already follows the rule.
// In front of it sits a small host-side cache of freed blocks, keyed by (stream, size): a block freed on
// stream A is handed out again only for stream A, where stream order makes the reuse safe, and costs no
// CUDA call. Blocks leave the host cache through cudaFreeAsync on their own stream, so the CUDA pool sees
// the correct ordering. Every Buffer keeps its Stream alive, so a stream handle is never reused while
// memory ordered on it may still be in flight; cached blocks do not, and a Stream being destroyed first
// frees the blocks cached for it on its handle (so a bin's key never outlives its stream).
// A capturing stream allocates and frees differently: Note [Graph capture and the pool] in graph.h.
//
// Note [Large blocks]
// A block over kMaxCachedBlock costs a cudaMallocAsync and a cudaFreeAsync (host calls of a microsecond or more),
// and its release first issues the launches queued before it. Next to one kernel per op on such a block that
// is nothing; but a chain fused automatically (Note [Automatic fusion] in ops/auto_fusion.h) runs ten ops as
// one kernel, and the allocations and releases of its intermediates, which the kernel never touches, were
// most of the host's time before that kernel could start (figures: benchmarks/README.md). So the last
// kMaxLargeBlocks large blocks freed are kept on the host too, handed out again for the same stream and exact
// size; the oldest goes back to CUDA's pool when another comes. The device memory held does not change: CUDA's
// pool keeps freed memory reserved anyway (its release threshold is raised) until free_all_blocks(), which
// returns the kept blocks too. A kept block cannot serve another stream, which then allocates anew; an
// allocation that fails gives every kept block back and retries.
//
// Note [Zeroed blocks]
// zeros() of a small array would cost a memset launch (a kernel launch's host time) on top of its allocation. The
// pool keeps, per (stream, size), a stock of small blocks that work on that stream has already zeroed: when
// a stock runs dry, up to kZeroBatch blocks are taken at once and zeroed by one launch (the ZeroBlocks
// function, set by the layer that owns kernels), so a small zeros() costs one allocation. Stocked blocks are
// cached memory: free_all_blocks() returns them to the device. A capturing stream takes the plain path.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "cuarray/cuda/stream.h"

namespace cuarray::cuda {

class MemoryPool;

// One device allocation. Freed (returned to its pool, ordered on its stream) when the last owner drops it.
// A Buffer may instead wrap memory another library owns (DLPack, __cuda_array_interface__): `release`
// then runs when the last owner drops it, and the pool is not involved.
class Buffer {
 public:
  Buffer(void* ptr, std::size_t nbytes, int device, std::shared_ptr<Stream> stream, MemoryPool* pool,
         std::shared_ptr<Capture> capture = nullptr)
      : ptr_(ptr),
        nbytes_(nbytes),
        device_(device),
        stream_(std::move(stream)),
        pool_(pool),
        capture_(std::move(capture)) {}
  Buffer(void* ptr, std::size_t nbytes, int device, std::function<void()> release)
      : ptr_(ptr), nbytes_(nbytes), device_(device), pool_(nullptr), release_(std::move(release)) {}
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* ptr() const { return ptr_; }
  std::size_t nbytes() const { return nbytes_; }
  int device() const { return device_; }
  // Whether the memory is a pool's block (CuPy's PooledMemory), not memory of cudaMalloc or another owner.
  bool pooled() const { return pool_ != nullptr; }

  // A pending fused chain reads or writes this memory (Note [Automatic fusion] in ops/auto_fusion.h): its last
  // owner's release first calls the hook set by set_watch_hook, which flushes the chain.
  // Only the thread that holds the chain's lock sets or reads it.
  std::uint8_t watched() const { return watched_; }
  void set_watched(std::uint8_t how) { watched_ = how; }
  using WatchHook = void (*)(Buffer* dying) noexcept;
  static void set_watch_hook(WatchHook hook);

 private:
  void* ptr_;
  std::size_t nbytes_;
  int device_;
  std::shared_ptr<Stream> stream_;
  MemoryPool* pool_;                  // null for external memory
  std::shared_ptr<Capture> capture_;  // the capture that allocated it in its graph, if any
  std::function<void()> release_;     // external memory only
  std::uint8_t watched_ = 0;
};

// The byte limit CUARRAY_GPU_MEMORY_LIMIT's `value` sets on a device of `total` bytes: a whole number of
// bytes, or a percentage of `total` from 0 to 100 ("50%", "12.5%"); 0 is no limit, as in set_limit. Throws
// ValueError naming the variable and these forms for anything else (a sign, spaces, "nan%", "inf%", units,
// more than 100%), raised where the device's pool is first used. Touches no device.
std::size_t parse_memory_limit(const std::string& value, std::size_t total);

class MemoryPool {
 public:
  // The pool of `device`, made on first use. Pools live for the whole process.
  static MemoryPool& of(int device);

  // Throws OutOfMemory (after releasing cached blocks and retrying) when the limit or the device is exhausted.
  std::shared_ptr<Buffer> allocate(std::size_t nbytes, const std::shared_ptr<Stream>& stream);
  // A block whose bytes are zero in `stream`'s order (Note [Zeroed blocks]).
  std::shared_ptr<Buffer> allocate_zeroed(std::size_t nbytes, const std::shared_ptr<Stream>& stream);

  // Zeroes `count` blocks of `nbytes` (a multiple of 512) each on `stream`.
  using ZeroBlocks = void (*)(void* const* blocks, int count, std::size_t nbytes, cudaStream_t stream);
  static void set_zero_blocks(ZeroBlocks zero);

  std::size_t used_bytes() const;   // bytes held by live Buffers
  std::size_t total_bytes() const;  // bytes the pool holds from the device (used + cached)
  std::size_t free_bytes() const { return total_bytes() - std::min(total_bytes(), used_bytes()); }
  std::size_t free_blocks() const;    // the number of blocks in the host-side cache
  void free_all_blocks();             // gives every cached block, and unused graph memory, back to the device
  void set_limit(std::size_t bytes);  // 0 = no limit
  std::size_t limit() const;
  int device() const { return device_; }
  // Takes back the blocks freed on `stream` while it was capturing, now that the capture has ended.
  void capture_ended(const Stream& stream);

  // Called when an allocation fails, before the retry (the bindings collect Python garbage there).
  static void set_reclaim_hook(std::function<void()> hook);

  // Frees the blocks cached for `stream`, which is being destroyed: cached blocks do not keep a stream alive
  // (arrays do), so a session that makes streams in a loop does not accumulate them.
  static void stream_destroyed(const Stream& stream) noexcept;

 private:
  friend class Buffer;
  explicit MemoryPool(int device);
  void release(void* ptr, std::size_t nbytes, const std::shared_ptr<Stream>& stream, Capture* capture);
  void flush_cache();
  void* try_allocate(std::size_t nbytes, const std::shared_ptr<Stream>& stream);
  void* take_zeroed(std::size_t nbytes, const std::shared_ptr<Stream>& stream);

  struct Impl;
  std::unique_ptr<Impl> impl_;
  int device_;
};

// Note [Memory for other libraries]
// The pool keeps the memory arrays free (its release threshold is the whole device), so that an allocation
// after a free costs no cudaMallocAsync. After a program has run out of memory and dropped its arrays, the
// device's memory therefore still belongs to the pool, and what allocates outside it failed: cuBLAS, cuSOLVER
// and cuFFT allocate with cudaMalloc when they make a handle or a plan (CUSOLVER_STATUS_NOT_INITIALIZED,
// CUFFT_INTERNAL_ERROR), and the driver when it loads a kernel. Each of those calls is therefore retried once,
// after the pool of the current device has given its cached memory back (retry_with_memory); their work areas
// come from the pool itself. Only the failure path pays: the calls succeed at once otherwise.

// Note [Graph memory]
// The allocations of a captured graph (Note [Graph capture and the pool] in graph.h) take their physical memory
// from a pool of CUDA's own per device, apart from the device's default pool: cudaMemPoolTrimTo does not reach
// it, and the pool's allocations cannot use what it holds. A launch maps memory there for the graph's allocation
// nodes, and that memory stays reserved in it after the graph and its outputs are gone, until
// cudaDeviceGraphMemTrim gives back what no live graph allocation and no graph still to run uses (a trimmed graph
// that runs again maps memory anew). So free_all_blocks trims it too, after its wait for the device (a finished
// launch's memory is then unused), and with it an allocation's retry (MemoryPool::allocate) and
// give_back_cached_memory: a large array after a dead graph no longer fails while nothing is alive. The other
// way round, a launch (or Graph.upload) needs memory for those nodes whenever it maps them (the first launch,
// the first after a trim or on another stream than the last), and after a program has dropped its arrays the
// pool holds that memory: a launch that fails with cudaErrorMemoryAllocation is retried once after
// give_back_cached_memory, as the libraries are (Note [Memory for other libraries]).

// Gives the cached memory of the current device's pool and its graph memory back to the device; false when there
// was none to give (a retry would fail the same way) or a capture forbids the wait that needs.
bool give_back_cached_memory();

// The bytes the graph memory of `device` reserves (cudaGraphMemAttrReservedMemCurrent); 0 where CUDA cannot say.
std::size_t graph_reserved_bytes(int device);

// Runs `call` (one that allocates device memory of its own) and, when `failed(result)`, runs it once more after
// give_back_cached_memory; returns the last result.
template <class Call, class Failed>
auto retry_with_memory(Call call, Failed failed) {
  auto result = call();
  if (failed(result) && give_back_cached_memory()) result = call();
  return result;
}

// Note [User allocator]
// cuda.set_allocator(f) and cuda.using_allocator(f) (CuPy's) route every device allocation through a
// function of the user's (PyTorch's or RMM's allocator, cudaMallocManaged): f(nbytes) returns an object whose
// `ptr` is the memory, which stays the memory's owner for as long as an array uses it. The core knows only
// that some allocations go to a hook that the bindings set once (the call into Python); whether one does is a
// process-wide switch (set_allocator) that a thread may override (using_allocator); until a user allocator is
// first chosen, allocate() pays one load of a flag. Memory from the hook is external to the pool: it is not
// counted, cached or limited there, and dropping it drops the user's object, whose library frees it (after
// the launches queued so far are issued, as for all external memory; as in CuPy, the library's own rules then
// order the free against work still running on the memory). zeros() of such memory is a cudaMemsetAsync on the
// current stream.
using UserAllocate = std::shared_ptr<Buffer> (*)(std::size_t nbytes);
void set_user_allocate(UserAllocate allocate);
// Whether allocations go to the hook: for every thread that has not chosen for itself (set_allocator) ...
void use_user_allocator(bool on);
// ... and for the calling thread alone (using_allocator): 1 the hook, 0 the pool, -1 as the process chose.
void use_thread_user_allocator(int choice);
int thread_user_allocator();

// An allocation on the current device, ordered on the current stream.
std::shared_ptr<Buffer> allocate(std::size_t nbytes);
// The same, always from the current device's pool (MemoryPool.malloc).
std::shared_ptr<Buffer> allocate_from_pool(std::size_t nbytes);
// Managed (unified) memory of `nbytes` on the current device (cudaMallocManaged), freed by cudaFree.
std::shared_ptr<Buffer> allocate_managed(std::size_t nbytes);
// Device memory of `nbytes` on the current device straight from cudaMalloc, outside every pool (CuPy's
// memory._malloc, what set_allocator(None) leaves arrays to), freed by cudaFree.
std::shared_ptr<Buffer> allocate_unpooled(std::size_t nbytes);
// The same, its bytes zero.
std::shared_ptr<Buffer> allocate_zeroed(std::size_t nbytes);

// Note [Peer copies]
// Arrays live in each device's stream-ordered pool, and such pools ignore cudaDeviceEnablePeerAccess: another
// device reaches a pool's memory only once cudaMemPoolSetAccess grants it. Without that grant a copy between two
// GPUs is staged through the host. The first copy between two devices that the hardware connects grants both
// pools to each other, once per pair for the process; where the grant is refused (no peer path, a capture in
// progress) the copy still runs, staged.
void grant_peer_access(int a, int b);

}  // namespace cuarray::cuda
