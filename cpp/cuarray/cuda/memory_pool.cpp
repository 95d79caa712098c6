#include "cuarray/cuda/memory_pool.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <iterator>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/graph.h"
#include "cuarray/cuda/launch_queue.h"
#include "cuarray/error.h"

namespace cuarray::cuda {

namespace {

constexpr std::size_t kRound = 512;
// Small blocks are cached on the host up to kMaxCachedBytes; larger ones up to kMaxLargeBlocks of them
// (Note [Large blocks]).
constexpr std::size_t kMaxCachedBlock = std::size_t(1) << 20;
constexpr std::size_t kMaxCachedBytes = std::size_t(64) << 20;
constexpr std::size_t kMaxLargeBlocks = 4;
// Note [Zeroed blocks]: blocks up to this size are zeroed in batches of kZeroBatch.
constexpr std::size_t kMaxZeroedBlock = std::size_t(64) << 10;
constexpr int kZeroBatch = 32;

std::size_t round_up(std::size_t n) { return (n + kRound - 1) / kRound * kRound; }

MemoryPool::ZeroBlocks g_zero_blocks = nullptr;

std::function<void()>& reclaim_hook() {
  static std::function<void()> hook;
  return hook;
}

std::string with_commas(std::size_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(i, ",");
  return s;
}

std::size_t limit_from_env(int device) {
  const char* env = std::getenv("CUARRAY_GPU_MEMORY_LIMIT");
  if (!env || !*env) return 0;
  std::string v(env);
  return parse_memory_limit(v, v.back() == '%' ? mem_info(device).second : 0);
}

struct BinKey {
  const Stream* stream;
  std::size_t size;
  bool operator==(const BinKey& o) const { return stream == o.stream && size == o.size; }
};
struct BinKeyHash {
  std::size_t operator()(const BinKey& k) const {
    return std::hash<const void*>()(k.stream) ^ (k.size * 0x9E3779B97F4A7C15ull);
  }
};
struct Bin {
  cudaStream_t stream = nullptr;  // its blocks are freed on it (the bins go before the Stream does)
  std::vector<void*> blocks;
};
struct Deferred {
  void* ptr;
  std::size_t nbytes;
  std::shared_ptr<Stream> stream;
};
struct LargeBlock {
  void* ptr;
  std::size_t nbytes;
  const Stream* stream;
  cudaStream_t handle;
};

}  // namespace

std::size_t parse_memory_limit(const std::string& value, std::size_t total) {
  auto bad = [&] {
    return ValueError(
        "CUARRAY_GPU_MEMORY_LIMIT must be a whole number of bytes (such as '1073741824') or a "
        "percentage of the device's memory from 0 to 100 (such as '50%' or '12.5%'), got '" +
        value + "'");
  };
  bool percent = !value.empty() && value.back() == '%';
  std::string body = percent ? value.substr(0, value.size() - 1) : value;
  // Digits, and for a percentage at most one '.': no sign, space, exponent, "nan" or "inf" (which strtod takes).
  int digits = 0, dots = 0;
  for (char c : body) {
    if (c >= '0' && c <= '9')
      ++digits;
    else if (c == '.' && percent)
      ++dots;
    else
      throw bad();
  }
  if (digits == 0 || dots > 1) throw bad();
  if (percent) {
    double pct = std::strtod(body.c_str(), nullptr);
    if (pct > 100.0) throw bad();
    return static_cast<std::size_t>(static_cast<double>(total) * (pct / 100.0));
  }
  std::size_t bytes = 0;
  for (char c : body) {
    auto d = static_cast<std::size_t>(c - '0');
    if (bytes > (SIZE_MAX - d) / 10) throw bad();  // past what a size_t holds
    bytes = bytes * 10 + d;
  }
  return bytes;
}

struct MemoryPool::Impl {
  mutable std::mutex mutex;
  cudaMemPool_t pool = nullptr;
  std::unordered_map<BinKey, Bin, BinKeyHash> cache;
  std::unordered_map<BinKey, Bin, BinKeyHash> zeroed;  // Note [Zeroed blocks]
  std::vector<LargeBlock> large;                       // Note [Large blocks]: oldest first
  std::vector<Deferred> deferred;                      // freed on a capturing stream: released when its capture ends
  std::size_t used = 0;
  std::size_t cached = 0;
  std::size_t limit = 0;

  // A cached large block for (stream, nbytes), the newest, now counted as used; null when there is none.
  // Callers lock.
  void* take_large(std::size_t nbytes, const Stream* stream) {
    for (auto it = large.rbegin(); it != large.rend(); ++it)
      if (it->stream == stream && it->nbytes == nbytes) {
        void* p = it->ptr;
        large.erase(std::next(it).base());
        used += nbytes;
        return p;
      }
    return nullptr;
  }

  // The bin of `cache` that a small block was last taken from or given to: a loop of small ops asks for the same
  // one at every allocation and release, and then skips the map's hashing. Null once bins are erased (the map's
  // nodes stay where they are otherwise).
  BinKey last_key{nullptr, 0};
  Bin* last_bin = nullptr;

  // `cache`'s bin for `key`, made if `make`, else null when there is none. Callers lock.
  Bin* cache_bin(const BinKey& key, bool make) {
    if (last_bin && key == last_key) return last_bin;
    Bin* bin = nullptr;
    if (make) {
      bin = &cache[key];
    } else {
      auto it = cache.find(key);
      if (it == cache.end()) return nullptr;
      bin = &it->second;
    }
    last_key = key;
    last_bin = bin;
    return bin;
  }

  // A block of `bins` for (stream, nbytes), now counted as used; null when there is none. Callers lock.
  void* take(std::unordered_map<BinKey, Bin, BinKeyHash>& bins, std::size_t nbytes, const Stream* stream) {
    const BinKey key{stream, nbytes};
    Bin* bin = nullptr;
    if (&bins == &cache) {
      bin = cache_bin(key, false);
    } else if (auto it = bins.find(key); it != bins.end()) {
      bin = &it->second;
    }
    if (!bin || bin->blocks.empty()) return nullptr;
    void* p = bin->blocks.back();
    bin->blocks.pop_back();
    cached -= nbytes;
    used += nbytes;
    return p;
  }
};

namespace {
Buffer::WatchHook g_watch_hook = nullptr;
}  // namespace

void Buffer::set_watch_hook(WatchHook hook) { g_watch_hook = hook; }

Buffer::~Buffer() {
  if (watched_ && g_watch_hook) g_watch_hook(this);
  if (pool_) {
    if (ptr_) pool_->release(ptr_, nbytes_, stream_, capture_.get());
  } else if (release_) {
    // The owner may reuse the memory at once: the launches queued before are issued first. Recorded ones stay
    // recorded, as in MemoryPool::release: none of them uses this memory (the watch hook above flushed the chain
    // that did, and a chain owns the values it still computes).
    drain_queued_launches();
    release_();
  }
}

namespace {

std::mutex pools_mutex;
std::vector<MemoryPool*>& pools() {
  static auto* p = new std::vector<MemoryPool*>;  // never destroyed: Buffers may outlive static destruction
  return *p;
}

}  // namespace

MemoryPool& MemoryPool::of(int device) {
  check_device(device);
  {
    std::lock_guard<std::mutex> lock(pools_mutex);
    if (pools().empty()) pools().resize(device_count(), nullptr);
    if (pools()[device]) return *pools()[device];
  }
  // Note [No CUDA call under a core lock]
  // Every checked CUDA call first issues the launches queued and recorded before it, and issuing a recorded chain
  // runs ops (ops/auto_fusion.h) that allocate, look up devices and may call Python. So a lock that such work may
  // take again, or that a thread holding Python's lock may wait for, is never held across a CUDA call: the new
  // pool (or device entry) is made outside it and installed under it, a concurrent maker's copy dropped.
  auto made = std::unique_ptr<MemoryPool>(new MemoryPool(device));
  std::lock_guard<std::mutex> lock(pools_mutex);
  if (!pools()[device]) pools()[device] = made.release();
  return *pools()[device];
}

void MemoryPool::stream_destroyed(const Stream& stream) noexcept {
  MemoryPool* pool = nullptr;
  {
    std::lock_guard<std::mutex> lock(pools_mutex);
    if (stream.device() < static_cast<int>(pools().size())) pool = pools()[stream.device()];
  }
  if (!pool) return;
  std::vector<void*> blocks;
  {
    std::lock_guard<std::mutex> lock(pool->impl_->mutex);
    for (auto* bins : {&pool->impl_->cache, &pool->impl_->zeroed})
      for (auto it = bins->begin(); it != bins->end();) {
        if (it->first.stream != &stream) {
          ++it;
          continue;
        }
        pool->impl_->cached -= it->first.size * it->second.blocks.size();
        blocks.insert(blocks.end(), it->second.blocks.begin(), it->second.blocks.end());
        it = bins->erase(it);
      }
    pool->impl_->last_bin = nullptr;
    auto& large = pool->impl_->large;
    for (const LargeBlock& b : large)
      if (b.stream == &stream) blocks.push_back(b.ptr);
    large.erase(std::remove_if(large.begin(), large.end(), [&](const LargeBlock& b) { return b.stream == &stream; }),
                large.end());
  }
  if (blocks.empty()) return;
  int previous = current_device();
  cudaSetDevice(stream.device());
  drain_launches();
  // Another library's stream may already be destroyed by its owner (a wrapper can outlive the stream it
  // names): its handle must not be used. The blocks are returned once the device is idle instead.
  cudaStream_t order = stream.handle();
  if (!stream.owned()) {
    if (cudaDeviceSynchronize() != cudaSuccess) cudaGetLastError();
    order = nullptr;
  }
  for (void* p : blocks)
    if (cudaFreeAsync(p, order) != cudaSuccess) cudaGetLastError();  // at exit the runtime may be gone
  restore_device(previous);
}

MemoryPool::MemoryPool(int device) : impl_(std::make_unique<Impl>()), device_(device) {
  DeviceGuard guard(device);
  CUARRAY_CHECK_CUDA(cudaDeviceGetDefaultMemPool(&impl_->pool, device));
  std::uint64_t keep_all = UINT64_MAX;
  CUARRAY_CHECK_CUDA(cudaMemPoolSetAttribute(impl_->pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
  impl_->limit = limit_from_env(device);
}

void MemoryPool::set_reclaim_hook(std::function<void()> hook) { reclaim_hook() = std::move(hook); }

void* MemoryPool::try_allocate(std::size_t nbytes, const std::shared_ptr<Stream>& stream) {
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    // A capturing stream allocates in its graph, never from the cache (Note [Graph capture and the pool]).
    if (!stream->capturing())
      if (void* p = nbytes > kMaxCachedBlock ? impl_->take_large(nbytes, stream.get())
                                             : impl_->take(impl_->cache, nbytes, stream.get()))
        return p;
    if (impl_->limit && impl_->used + nbytes > impl_->limit) return nullptr;
  }
  DeviceGuard guard(device_);
  void* p = nullptr;
  cudaError_t status = cudaMallocAsync(&p, nbytes, stream->handle());
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    return nullptr;
  }
  check_cuda(status, "cudaMallocAsync");
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->used += nbytes;
  return p;
}

std::shared_ptr<Buffer> MemoryPool::allocate(std::size_t nbytes, const std::shared_ptr<Stream>& stream) {
  if (nbytes == 0) return std::make_shared<Buffer>(nullptr, 0, device_, stream, this);
  std::size_t rounded = round_up(nbytes);
  if (rounded < nbytes) rounded = nbytes;  // overflow: let the device refuse it
  std::shared_ptr<Capture> capture = stream->capturing() ? stream->capture() : nullptr;
  void* p = try_allocate(rounded, stream);
  // A recorded chain holds the memory of the values the program dropped until it runs (Note [Automatic fusion]
  // in ops/auto_fusion.h), memory eager code would have freed already: run it first.
  if (!p) {
    settle_recorded();
    p = try_allocate(rounded, stream);
  }
  if (!p) {
    // Garbage first, so that the blocks of arrays it frees are given back too.
    if (auto& hook = reclaim_hook()) hook();
    if (!device_capturing(device_)) free_all_blocks();  // it waits for the device, which a capture forbids
    p = try_allocate(rounded, stream);
  }
  if (!p) {
    std::size_t used = used_bytes(), lim = limit();
    std::string msg = "Out of memory allocating " + with_commas(nbytes) + " bytes on device " +
                      std::to_string(device_) + " (allocated so far: " + with_commas(used) + " bytes";
    if (lim) msg += ", limit set to " + with_commas(lim) + " bytes";
    msg += ").";
    throw OutOfMemory(static_cast<std::int64_t>(nbytes), static_cast<std::int64_t>(used), msg);
  }
  if (capture) capture->add(p);
  return std::make_shared<Buffer>(p, rounded, device_, stream, this, std::move(capture));
}

void MemoryPool::set_zero_blocks(ZeroBlocks zero) { g_zero_blocks = zero; }

// A stocked zeroed block, restocking by one batched launch when the stock is empty; null when nothing
// could be allocated.
void* MemoryPool::take_zeroed(std::size_t nbytes, const std::shared_ptr<Stream>& stream) {
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (void* p = impl_->take(impl_->zeroed, nbytes, stream.get())) return p;
  }
  void* blocks[kZeroBatch];
  int count = 0;
  while (count < kZeroBatch && (blocks[count] = try_allocate(nbytes, stream))) ++count;
  if (count == 0) return nullptr;
  DeviceGuard guard(device_);
  g_zero_blocks(blocks, count, nbytes, stream->handle());
  std::lock_guard<std::mutex> lock(impl_->mutex);
  Bin& bin = impl_->zeroed[BinKey{stream.get(), nbytes}];
  bin.stream = stream->handle();
  bin.blocks.insert(bin.blocks.end(), blocks + 1, blocks + count);
  impl_->used -= (count - 1) * nbytes;
  impl_->cached += (count - 1) * nbytes;
  return blocks[0];
}

std::shared_ptr<Buffer> MemoryPool::allocate_zeroed(std::size_t nbytes, const std::shared_ptr<Stream>& stream) {
  std::size_t rounded = round_up(nbytes);
  bool stocked = nbytes != 0 && rounded <= kMaxZeroedBlock && g_zero_blocks && !stream->capturing();
  if (void* p = stocked ? take_zeroed(rounded, stream) : nullptr)
    return std::make_shared<Buffer>(p, rounded, device_, stream, this);
  // The plain path (also when the stock could not be refilled: it frees what it can, retries and reports).
  std::shared_ptr<Buffer> b = allocate(nbytes, stream);
  if (nbytes) {
    DeviceGuard guard(device_);
    CUARRAY_CHECK_CUDA(cudaMemsetAsync(b->ptr(), 0, nbytes, stream->handle()));
  }
  return b;
}

void MemoryPool::release(void* ptr, std::size_t nbytes, const std::shared_ptr<Stream>& stream, Capture* capture) {
  LargeBlock evicted{};
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (!capture && stream->capturing()) {  // held back, still in use, until the capture ends
      impl_->deferred.push_back({ptr, nbytes, stream});
      return;
    }
    impl_->used -= nbytes;
    if (!capture && nbytes <= kMaxCachedBlock && impl_->cached + nbytes <= kMaxCachedBytes) {
      Bin& bin = *impl_->cache_bin(BinKey{stream.get(), nbytes}, true);
      bin.stream = stream->handle();
      bin.blocks.push_back(ptr);
      impl_->cached += nbytes;
      return;
    }
    if (!capture && nbytes > kMaxCachedBlock) {  // kept; the oldest large block goes back in its place
      auto& large = impl_->large;
      large.push_back({ptr, nbytes, stream.get(), stream->handle()});
      if (large.size() <= kMaxLargeBlocks) return;
      evicted = large.front();
      large.erase(large.begin());
    }
  }
  if (evicted.ptr) {
    DeviceGuard guard(device_);
    drain_queued_launches();  // launches queued before its release may still use it
    if (cudaFreeAsync(evicted.ptr, evicted.handle) != cudaSuccess) cudaGetLastError();
    return;
  }
  if (capture) {
    capture->release(ptr, stream.get());
    return;
  }
  DeviceGuard guard(device_);
  // Recorded launches stay recorded: none of them uses this memory (a chain that does is flushed before the
  // buffer's release, Note [Automatic fusion] in ops/auto_fusion.h), and flushing here would cut every chain of
  // large arrays at each temporary it drops.
  drain_queued_launches();
  if (cudaFreeAsync(ptr, stream->handle()) != cudaSuccess) cudaGetLastError();  // at exit the runtime may be gone
}

void MemoryPool::capture_ended(const Stream& stream) {
  std::vector<Deferred> mine;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    auto& all = impl_->deferred;
    auto rest = std::partition(all.begin(), all.end(), [&](const Deferred& d) { return d.stream.get() != &stream; });
    mine.assign(std::make_move_iterator(rest), std::make_move_iterator(all.end()));
    all.erase(rest, all.end());
  }
  for (Deferred& d : mine) release(d.ptr, d.nbytes, d.stream, nullptr);
}

void MemoryPool::flush_cache() {
  // Recorded chains first: their kept memory (Note [Automatic fusion] in ops/auto_fusion.h) comes to the cache as
  // they run, and goes back to the device with it.
  settle_recorded();
  std::unordered_map<BinKey, Bin, BinKeyHash> cache, zeroed;
  std::vector<LargeBlock> large;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    cache.swap(impl_->cache);
    impl_->last_bin = nullptr;
    zeroed.swap(impl_->zeroed);
    large.swap(impl_->large);
    impl_->cached = 0;
  }
  DeviceGuard guard(device_);
  drain_launches();
  for (auto* bins : {&cache, &zeroed})
    for (auto& [key, bin] : *bins)
      for (void* p : bin.blocks)
        if (cudaFreeAsync(p, bin.stream) != cudaSuccess) cudaGetLastError();
  for (const LargeBlock& b : large)
    if (cudaFreeAsync(b.ptr, b.handle) != cudaSuccess) cudaGetLastError();
}

void MemoryPool::free_all_blocks() {
  check_device_not_capturing(device_, "MemoryPool.free_all_blocks");
  flush_cache();
  DeviceGuard guard(device_);
  // Trimming returns only memory whose frees have completed, so wait for them first: interruptibly, and with
  // the host's other threads running (the wait may be long: an allocation that failed comes here).
  wait_for_device(device_);
  CUARRAY_CHECK_CUDA(cudaMemPoolTrimTo(impl_->pool, 0));
  // Note [Graph memory] in memory_pool.h. A device that cannot run graph allocations has no graph memory to trim.
  cudaError_t trimmed = cudaDeviceGraphMemTrim(device_);
  if (trimmed == cudaErrorNotSupported)
    cudaGetLastError();
  else
    check_cuda(trimmed, "cudaDeviceGraphMemTrim");
}

std::size_t MemoryPool::used_bytes() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->used;
}

std::size_t MemoryPool::free_blocks() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  std::size_t n = 0;
  for (const auto* bins : {&impl_->cache, &impl_->zeroed})
    for (const auto& [key, bin] : *bins) n += bin.blocks.size();
  return n + impl_->large.size();
}

std::size_t MemoryPool::total_bytes() const {
  std::uint64_t reserved = 0;
  CUARRAY_CHECK_CUDA(cudaMemPoolGetAttribute(impl_->pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  return static_cast<std::size_t>(reserved);
}

void MemoryPool::set_limit(std::size_t bytes) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->limit = bytes;
}

std::size_t MemoryPool::limit() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->limit;
}

namespace {

// Pools live for the whole process, so each thread can remember them without taking the registry's lock.
MemoryPool& current_pool(int device) {
  thread_local MemoryPool* pools[64] = {};
  MemoryPool*& pool = pools[device];
  if (!pool) pool = &MemoryPool::of(device);
  return *pool;
}

}  // namespace

std::size_t graph_reserved_bytes(int device) {
  std::uint64_t reserved = 0;
  if (cudaDeviceGetGraphMemAttribute(device, cudaGraphMemAttrReservedMemCurrent, &reserved) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return static_cast<std::size_t>(reserved);
}

bool give_back_cached_memory() {
  int device = current_device();
  if (device_capturing(device)) return false;
  MemoryPool& pool = current_pool(device);
  // What the device's graph memory holds counts too: free_all_blocks trims it (Note [Graph memory]).
  std::size_t before = pool.total_bytes() + graph_reserved_bytes(device);
  pool.free_all_blocks();
  return pool.total_bytes() + graph_reserved_bytes(device) < before;
}

namespace {

UserAllocate g_user_allocate = nullptr;
std::atomic<bool> g_user_allocator{false};
// Whether a user allocator was ever chosen, by any thread: until then allocate() reads no thread-local.
std::atomic<bool> g_user_allocator_used{false};
thread_local int t_user_allocator = -1;  // constant-initialized: reading it costs no guard

bool user_allocator() {
  if (!g_user_allocator_used.load(std::memory_order_relaxed)) return false;
  int choice = t_user_allocator;
  return choice < 0 ? g_user_allocator.load(std::memory_order_relaxed) : choice != 0;
}

std::shared_ptr<Buffer> allocate_user(std::size_t nbytes) {
  if (!g_user_allocate) throw std::runtime_error("a user allocator is set, but no allocation hook was installed");
  return g_user_allocate(nbytes);
}

}  // namespace

void set_user_allocate(UserAllocate allocate) { g_user_allocate = allocate; }
void use_user_allocator(bool on) {
  if (on) g_user_allocator_used.store(true, std::memory_order_relaxed);
  g_user_allocator.store(on, std::memory_order_relaxed);
}
void use_thread_user_allocator(int choice) {
  if (choice > 0) g_user_allocator_used.store(true, std::memory_order_relaxed);
  t_user_allocator = choice < 0 ? -1 : choice != 0;
}
int thread_user_allocator() { return t_user_allocator; }

std::shared_ptr<Buffer> allocate(std::size_t nbytes) {
  if (user_allocator()) return allocate_user(nbytes);
  return allocate_from_pool(nbytes);
}

std::shared_ptr<Buffer> allocate_from_pool(std::size_t nbytes) {
  int device = current_device();
  return current_pool(device).allocate(nbytes, current_stream(device));
}

std::shared_ptr<Buffer> allocate_zeroed(std::size_t nbytes) {
  if (user_allocator()) {
    std::shared_ptr<Buffer> buffer = allocate_user(nbytes);
    if (nbytes) {
      cudaStream_t stream = current_stream()->handle();
      drain_launches();  // ordered after the launches queued before it on the stream
      CUARRAY_CHECK_CUDA(cudaMemsetAsync(buffer->ptr(), 0, nbytes, stream));
    }
    return buffer;
  }
  int device = current_device();
  return current_pool(device).allocate_zeroed(nbytes, current_stream(device));
}

void grant_peer_access(int a, int b) {
  if (a == b) return;
  static std::mutex mutex;
  static std::set<std::pair<int, int>> tried;
  std::lock_guard<std::mutex> lock(mutex);
  if (!tried.insert({std::min(a, b), std::max(a, b)}).second) return;
  int ab = 0, ba = 0;
  if (cudaDeviceCanAccessPeer(&ab, a, b) != cudaSuccess || cudaDeviceCanAccessPeer(&ba, b, a) != cudaSuccess || !ab ||
      !ba) {
    cudaGetLastError();
    return;
  }
  for (auto [owner, peer] : {std::pair{a, b}, std::pair{b, a}}) {
    cudaMemPool_t pool = nullptr;
    cudaMemAccessDesc access{};
    access.location.type = cudaMemLocationTypeDevice;
    access.location.id = peer;
    access.flags = cudaMemAccessFlagsProtReadWrite;
    if (cudaDeviceGetDefaultMemPool(&pool, owner) != cudaSuccess ||
        cudaMemPoolSetAccess(pool, &access, 1) != cudaSuccess)
      cudaGetLastError();  // the copy is staged instead
  }
}

namespace {

// `nbytes` from cudaMallocManaged (managed) or cudaMalloc, freed by cudaFree when the last owner drops it.
std::shared_ptr<Buffer> allocate_outside_pool(std::size_t nbytes, bool managed) {
  int device = current_device();
  check_device(device);
  void* ptr = nullptr;
  if (nbytes) {
    DeviceGuard guard(device);
    cudaError_t status = managed ? cudaMallocManaged(&ptr, nbytes, cudaMemAttachGlobal) : cudaMalloc(&ptr, nbytes);
    if (status == cudaErrorMemoryAllocation && !managed) {
      cudaGetLastError();
      if (give_back_cached_memory()) status = cudaMalloc(&ptr, nbytes);  // Note [Memory for other libraries]
    }
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw OutOfMemory(static_cast<std::int64_t>(nbytes), -1,
                        std::string(managed ? "Out of managed memory" : "Out of memory") + " allocating " +
                            with_commas(nbytes) + " bytes");
    }
    check_cuda(status, managed ? "cudaMallocManaged" : "cudaMalloc");
  }
  return std::make_shared<Buffer>(ptr, nbytes, device, [ptr] {
    if (ptr && cudaFree(ptr) != cudaSuccess) cudaGetLastError();  // at exit the runtime may be gone
  });
}

}  // namespace

std::shared_ptr<Buffer> allocate_managed(std::size_t nbytes) { return allocate_outside_pool(nbytes, true); }

std::shared_ptr<Buffer> allocate_unpooled(std::size_t nbytes) { return allocate_outside_pool(nbytes, false); }

}  // namespace cuarray::cuda
