// Page-locked host memory: a caching pool (cuda.alloc_pinned_memory) for fast, asynchronous transfers.
#pragma once

#include <cstddef>
#include <memory>

namespace cuarray::cuda {

// One pinned host allocation; returned to the pinned pool when the last owner drops it.
class PinnedBuffer {
 public:
  PinnedBuffer(void* ptr, std::size_t nbytes) : ptr_(ptr), nbytes_(nbytes) {}
  ~PinnedBuffer();
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* ptr() const { return ptr_; }
  std::size_t nbytes() const { return nbytes_; }

 private:
  void* ptr_;
  std::size_t nbytes_;
};

// Portable (usable with every device) pinned memory of at least `nbytes`; throws OutOfMemory.
std::shared_ptr<PinnedBuffer> allocate_pinned(std::size_t nbytes);

struct PinnedPoolStats {
  std::size_t used_bytes, cached_bytes;
};
PinnedPoolStats pinned_pool_stats();
void free_pinned_blocks();  // returns cached blocks to the system

}  // namespace cuarray::cuda
