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
// each cached plan asks for on execution, which is what CuPy's limit bounds. A multi-GPU plan is the exception
// (Note [Multi-GPU cuFFT plans] in cufft_xt.h): it owns its work areas and buffers on every device it uses.
//
// Note [Multi-GPU plans in the caches]
// As in CuPy, a multi-GPU plan's key holds its devices (in order), and the plan sits in the calling thread's
// cache of each of them, counted there with its work size on that device: a look-up that finds it on one
// device makes it the most recent on all of them, and removing it from one (del, eviction, a smaller limit)
// removes it from all. Inserting it checks first that it fits each of those caches (RuntimeError naming the
// device otherwise), so that it is cached on all of them or on none. clear() empties one cache alone, as
// CuPy's does.
#pragma once

#include <cufft.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "cuarray/lib/library.h"

namespace cuarray::cuda {
class Buffer;
}

namespace cuarray::lib::cufft {

struct Api {
  Blocking<decltype(&cufftCreate)> create;
  Blocking<decltype(&cufftDestroy)> destroy;
  decltype(&cufftSetAutoAllocation) set_auto_allocation;
  Blocking<decltype(&cufftMakePlanMany64)> make_plan_many;
  decltype(&cufftSetStream) set_stream;
  decltype(&cufftSetWorkArea) set_work_area;
  Blocking<decltype(&cufftExecC2C)> exec_c2c;
  Blocking<decltype(&cufftExecZ2Z)> exec_z2z;
  Blocking<decltype(&cufftExecR2C)> exec_r2c;
  Blocking<decltype(&cufftExecD2Z)> exec_d2z;
  Blocking<decltype(&cufftExecC2R)> exec_c2r;
  Blocking<decltype(&cufftExecZ2D)> exec_z2d;
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
// `type`, in cuFFT's basic data layout; `gpus`, for a multi-GPU plan, the devices it spreads them over.
struct Key {
  cufftType type;
  std::vector<long long> n;
  long long batch;
  std::vector<int> gpus = {};  // empty: a plan on one device
  bool same_transform(const Key& o) const { return type == o.type && n == o.n && batch == o.batch; }
  bool operator==(const Key& o) const { return same_transform(o) && gpus == o.gpus; }
};

struct XtState;  // a multi-GPU plan's buffers (cufft_xt.h)

// A cuFFT plan on one device (Note [cuFFT plans]). Plan1d (one dimension) and PlanNd (two or three) are its
// kinds, as CuPy names them.
class Plan {
 public:
  virtual ~Plan();
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  const Key& key() const { return key_; }
  int device() const { return device_; }  // a multi-GPU plan's first device
  const std::vector<int>& gpus() const { return key_.gpus; }
  bool multi_gpu() const { return xt_ != nullptr; }
  std::size_t work_size() const { return work_size_; }  // all devices' together
  // The work area the plan needs on `device` (0 on a device it does not use).
  std::size_t work_size_on(int device) const;
  // A multi-GPU plan's work areas, one per device of gpus() (null where it needs none); empty for others.
  std::vector<std::shared_ptr<cuda::Buffer>> work_areas() const;
  Plan(Key key, int device, cufftHandle handle, std::size_t work_size, std::unique_ptr<XtState> xt = nullptr);
  // Queues the transform of `in` into `out` (device pointers laid out as key()) on the current stream, with a
  // work area from the pool; `direction` is CUFFT_FORWARD or CUFFT_INVERSE (C2C and Z2Z only). A multi-GPU
  // plan transforms across its devices and returns once `out` holds the result (Note [Multi-GPU cuFFT plans]).
  void execute(void* in, void* out, int direction);

 private:
  Key key_;
  int device_;
  cufftHandle handle_;
  std::size_t work_size_;
  std::unique_ptr<XtState> xt_;
  std::mutex mutex_;
};
struct Plan1d : Plan {
  using Plan::Plan;
};
struct PlanNd : Plan {
  using Plan::Plan;
};
using PlanPtr = std::shared_ptr<Plan>;

// A new plan for `key`, not cached (a Plan1d for one dimension, else a PlanNd): on the current device, or for
// key.gpus across those devices (a Plan1d; ValueError, with CuPy's messages, for a transform cuFFT cannot
// spread over them).
PlanPtr make_plan(const Key& key);

// The plans of one thread on one device, most recently used first, at most `size` of them (-1: no limit) whose
// work sizes add up to at most `memsize` bytes (-1: no limit); a size or memsize of 0 disables caching.
class PlanCache {
 public:
  explicit PlanCache(int device) : device_(device) {}
  int device() const { return device_; }
  // The cached plan for `key`, made most recent (on all its devices, Note [Multi-GPU plans in the caches]), or
  // null; counts a hit or a miss.
  PlanPtr find(const Key& key);
  // Caches `plan` (replacing one of the same key), evicting the least recently used ones until it fits; throws
  // std::runtime_error when its work size alone is over memsize. Does nothing while the cache is disabled. A
  // multi-GPU plan goes into the calling thread's caches of its devices, whichever cache is asked.
  void insert(const PlanPtr& plan);
  // Drops the plan of `key` (from all its devices' caches); false when there is none.
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
  void check_fits(const Plan& plan) const;
  void add(const PlanPtr& plan);
  PlanPtr take(const Key& key);    // removes the plan of `key` from this cache alone
  void drop(const PlanPtr& plan);  // removes `plan` from this cache and, if multi-GPU, from its devices' caches
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
