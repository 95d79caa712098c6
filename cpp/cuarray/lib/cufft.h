// cuFFT, loaded on first use. Plans are cached per thread and device (PlanCache, CuPy's cupy.fft.config cache);
// they are made without a work area, and each execution binds the plan to the current stream and gives it a
// work area from the memory pool (Note [cuFFT plans]).
//
// Note [cuFFT plans]
// A plan is shared: the cache of the thread that made it holds it, and so may a user (cupy.cuda.cufft.Plan1d
// and PlanNd are these objects, from cupyx.scipy.fftpack.get_fft_plan or an iteration of the cache), so it
// lives until the last holder lets go and an evicted plan a user still holds stays valid. An execution sets
// the plan's stream and work area and queues the transform under the plan's mutex, so two threads sharing a
// plan never interleave those steps. The work area is a pool allocation on the current stream, released as
// soon as the execution is queued: the pool's stream order keeps it alive for the transform. So a plan holds
// no work area between executions (unlike CuPy's, which owns one); the cache's memsize counts the work size
// each cached plan asks for on execution, which is what CuPy's limit bounds.
#pragma once

#include <cufft.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace cuarray::lib::cufft {

struct Api {
  decltype(&cufftCreate) create;
  decltype(&cufftDestroy) destroy;
  decltype(&cufftSetAutoAllocation) set_auto_allocation;
  decltype(&cufftMakePlanMany64) make_plan_many;
  decltype(&cufftSetStream) set_stream;
  decltype(&cufftSetWorkArea) set_work_area;
  decltype(&cufftExecC2C) exec_c2c;
  decltype(&cufftExecZ2Z) exec_z2z;
  decltype(&cufftExecR2C) exec_r2c;
  decltype(&cufftExecD2Z) exec_d2z;
  decltype(&cufftExecC2R) exec_c2r;
  decltype(&cufftExecZ2D) exec_z2d;
  decltype(&cufftGetVersion) get_version;
};

// The library's functions; loads it on the first call (throws CudaError if it cannot be loaded).
const Api& api();
// Throws CudaError naming `call` and the status unless `status` is CUFFT_SUCCESS.
void check(cufftResult status, const char* call);
// The loaded library's version (cufftGetVersion: major * 1000 + minor * 10 + patch); loads it.
int version();

constexpr int kDefaultCacheSize = 16;  // CuPy's default

// What a plan transforms: `batch` contiguous transforms of sizes `n` (1 to 3 dimensions, the last fastest) of
// `type`, in cuFFT's basic data layout.
struct Key {
  cufftType type;
  std::vector<long long> n;
  long long batch;
  bool operator==(const Key& o) const { return type == o.type && n == o.n && batch == o.batch; }
};

// A cuFFT plan on one device (Note [cuFFT plans]). Plan1d (one dimension) and PlanNd (two or three) are its
// kinds, as CuPy names them.
class Plan {
 public:
  virtual ~Plan();
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  const Key& key() const { return key_; }
  int device() const { return device_; }
  std::size_t work_size() const { return work_size_; }
  Plan(Key key, int device, cufftHandle handle, std::size_t work_size)
      : key_(std::move(key)), device_(device), handle_(handle), work_size_(work_size) {}
  // Queues the transform of `in` into `out` (device pointers laid out as key()) on the current stream, with a
  // work area from the pool; `direction` is CUFFT_FORWARD or CUFFT_INVERSE (C2C and Z2Z only).
  void execute(void* in, void* out, int direction);

 private:
  Key key_;
  int device_;
  cufftHandle handle_;
  std::size_t work_size_;
  std::mutex mutex_;
};
struct Plan1d : Plan {
  using Plan::Plan;
};
struct PlanNd : Plan {
  using Plan::Plan;
};
using PlanPtr = std::shared_ptr<Plan>;

// A new plan for `key` on the current device, not cached (a Plan1d for one dimension, else a PlanNd).
PlanPtr make_plan(const Key& key);

// The plans of one thread on one device, most recently used first, at most `size` of them (-1: no limit) whose
// work sizes add up to at most `memsize` bytes (-1: no limit); a size or memsize of 0 disables caching.
class PlanCache {
 public:
  explicit PlanCache(int device) : device_(device) {}
  int device() const { return device_; }
  // The cached plan for `key`, made most recent, or null; counts a hit or a miss.
  PlanPtr find(const Key& key);
  // Caches `plan` (replacing one of the same key), evicting the least recently used ones until it fits; throws
  // std::runtime_error when its work size alone is over memsize. Does nothing while the cache is disabled.
  void insert(const PlanPtr& plan);
  // Drops the plan of `key`; false when there is none.
  bool erase(const Key& key);
  void clear();
  long long size() const { return size_; }
  long long memsize() const { return memsize_; }
  // Both throw ValueError for a value below -1; they evict as needed.
  void set_size(long long size);
  void set_memsize(long long memsize);
  bool enabled() const { return size_ != 0 && memsize_ != 0; }
  long long curr_size() const { return static_cast<long long>(plans_.size()); }
  long long curr_memsize() const;
  std::size_t hits() const { return hits_; }
  std::size_t misses() const { return misses_; }
  const std::vector<PlanPtr>& plans() const { return plans_; }  // most recently used first

 private:
  void evict_until(long long size, long long memsize);
  int device_;
  long long size_ = kDefaultCacheSize;
  long long memsize_ = -1;
  std::size_t hits_ = 0, misses_ = 0;
  std::vector<PlanPtr> plans_;
};

// The calling thread's cache for `device`, made on first use.
PlanCache& plan_cache(int device);
// The calling thread's cache for `device` if it has made one, else null.
PlanCache* existing_plan_cache(int device);

// The plan for `key` on the current device: the cached one, else a new one that is cached.
PlanPtr plan(const Key& key);

// The calling thread's current plan (CuPy's `with plan:`): null when none is set.
const PlanPtr& current_plan();
void set_current_plan(PlanPtr plan);

}  // namespace cuarray::lib::cufft
