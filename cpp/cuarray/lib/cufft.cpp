#include "cuarray/lib/cufft.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "cuarray/blocking.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/launch_queue.h"
#include "cuarray/cuda/memory_pool.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/lib/cufft_xt.h"
#include "cuarray/lib/library.h"

namespace cuarray::lib::cufft {

namespace {

const char* status_name(cufftResult s) {
  switch (s) {
    case CUFFT_SUCCESS:
      return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN:
      return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED:
      return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE:
      return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE:
      return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR:
      return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED:
      return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED:
      return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE:
      return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA:
      return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE:
      return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE:
      return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED:
      return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED:
      return "CUFFT_NOT_SUPPORTED";
    default:
      return "an unknown cuFFT status";
  }
}

// A plan without a work area; a failure (cuFFT allocates with cudaMalloc meanwhile) is retried once after the
// pool gives its cached memory back (Note [Memory for other libraries] in memory_pool.h).
PlanPtr create(const Key& key) {
  const char* call = "cufftCreate";
  cufftHandle handle = 0;
  std::size_t work_size = 0;
  auto attempt = [&] {
    call = "cufftCreate";
    cufftResult r = api().create(&handle);
    if (r != CUFFT_SUCCESS) return r;
    std::vector<long long> n = key.n;
    call = "cufftSetAutoAllocation";
    r = api().set_auto_allocation(handle, 0);
    if (r == CUFFT_SUCCESS) {
      call = "cufftMakePlanMany64";
      r = api().make_plan_many(handle, static_cast<int>(n.size()), n.data(), nullptr, 1, 0, nullptr, 1, 0, key.type,
                               key.batch, &work_size);
    }
    if (r != CUFFT_SUCCESS) api().destroy(handle);
    return r;
  };
  check(cuda::retry_with_memory(attempt, [](cufftResult r) { return r != CUFFT_SUCCESS; }), call);
  int device = cuda::current_device();
  if (key.n.size() == 1) return std::make_shared<Plan1d>(key, device, handle, work_size);
  return std::make_shared<PlanNd>(key, device, handle, work_size);
}

// The calling thread's caches, one per device that asked for one.
std::vector<std::unique_ptr<PlanCache>>& caches() {
  thread_local std::vector<std::unique_ptr<PlanCache>> per_device;
  return per_device;
}

}  // namespace

// Every call into the library goes through here, after the kernel launches queued before it.
const Api& api() {
  cuda::drain_launches();
  static std::once_flag once;
  static std::atomic<bool> loaded{false};
  static Api a;
  load_once(kCufft, once, loaded, [](void* h) {
    const std::string stem = kCufft.stem;
    resolve(a.create, h, "cufftCreate", stem);
    resolve(a.destroy, h, "cufftDestroy", stem);
    resolve(a.set_auto_allocation, h, "cufftSetAutoAllocation", stem);
    resolve(a.make_plan_many, h, "cufftMakePlanMany64", stem);
    resolve(a.set_stream, h, "cufftSetStream", stem);
    resolve(a.set_work_area, h, "cufftSetWorkArea", stem);
    resolve(a.exec_c2c, h, "cufftExecC2C", stem);
    resolve(a.exec_z2z, h, "cufftExecZ2Z", stem);
    resolve(a.exec_r2c, h, "cufftExecR2C", stem);
    resolve(a.exec_d2z, h, "cufftExecD2Z", stem);
    resolve(a.exec_c2r, h, "cufftExecC2R", stem);
    resolve(a.exec_z2d, h, "cufftExecZ2D", stem);
    resolve(a.get_version, h, "cufftGetVersion", stem);
  });
  return a;
}

void check(cufftResult status, const char* call) {
  if (status == CUFFT_SUCCESS) return;
  throw CudaError(call, status,
                  std::string(call) + " failed: " + status_name(status) + " (cuFFT status " +
                      std::to_string(static_cast<int>(status)) + ")");
}

int version() {
  int v = 0;
  check(api().get_version(&v), "cufftGetVersion");
  return v;
}

Plan::Plan(Key key, int device, cufftHandle handle, std::size_t work_size, std::unique_ptr<XtState> xt)
    : key_(std::move(key)), device_(device), handle_(handle), work_size_(work_size), xt_(std::move(xt)) {}

Plan::~Plan() {
  if (xt_) {
    destroy_multi_gpu(handle_, key_, *xt_);  // then xt_ frees its work areas
    return;
  }
  try {
    cuda::DeviceGuard guard(device_);
    api().destroy(handle_);
  } catch (...) {  // a plan outliving the context (interpreter exit) has nothing left to free
  }
}

std::size_t Plan::work_size_on(int device) const {
  if (!xt_) return device == device_ ? work_size_ : 0;
  for (std::size_t i = 0; i < key_.gpus.size(); ++i)
    if (key_.gpus[i] == device) return xt_->work_sizes[i];
  return 0;
}

std::vector<std::shared_ptr<cuda::Buffer>> Plan::work_areas() const {
  return xt_ ? xt_->work_areas : std::vector<std::shared_ptr<cuda::Buffer>>{};
}

void Plan::execute(void* in, void* out, int direction) {
  const Api& a = api();
  // The holder may let go of the GIL while it holds the plan (a multi-GPU execution waits in the host's blocking
  // hook; a work area's allocation may collect garbage, wait for the device or call a Python allocator), so
  // another thread waits for the plan there too: waiting with the GIL would keep the holder from getting it back.
  std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
  if (!lock.try_lock()) run_blocking([&lock] { lock.lock(); });
  if (xt_) {
    execute_multi_gpu(handle_, key_, *xt_, in, out, direction);
    return;
  }
  check(a.set_stream(handle_, cuda::current_stream()->handle()), "cufftSetStream");
  std::shared_ptr<cuda::Buffer> work;  // returned to the pool after the transform, in stream order
  if (work_size_) {
    work = cuda::allocate(work_size_);
    check(a.set_work_area(handle_, work->ptr()), "cufftSetWorkArea");
  }
  switch (key_.type) {
    case CUFFT_C2C:
      check(a.exec_c2c(handle_, static_cast<cufftComplex*>(in), static_cast<cufftComplex*>(out), direction),
            "cufftExecC2C");
      break;
    case CUFFT_Z2Z:
      check(a.exec_z2z(handle_, static_cast<cufftDoubleComplex*>(in), static_cast<cufftDoubleComplex*>(out), direction),
            "cufftExecZ2Z");
      break;
    case CUFFT_R2C:
      check(a.exec_r2c(handle_, static_cast<cufftReal*>(in), static_cast<cufftComplex*>(out)), "cufftExecR2C");
      break;
    case CUFFT_D2Z:
      check(a.exec_d2z(handle_, static_cast<cufftDoubleReal*>(in), static_cast<cufftDoubleComplex*>(out)),
            "cufftExecD2Z");
      break;
    case CUFFT_C2R:
      check(a.exec_c2r(handle_, static_cast<cufftComplex*>(in), static_cast<cufftReal*>(out)), "cufftExecC2R");
      break;
    default:
      check(a.exec_z2d(handle_, static_cast<cufftDoubleComplex*>(in), static_cast<cufftDoubleReal*>(out)),
            "cufftExecZ2D");
  }
}

PlanPtr make_plan(const Key& key) {
  if (key.n.empty() || key.n.size() > 3 || key.batch < 1)
    throw ValueError("cuFFT plans transform 1 to 3 dimensions in batches of at least 1");
  for (long long s : key.n)
    if (s < 1) throw ValueError("cuFFT plans need sizes of at least 1, not " + std::to_string(s));
  return key.gpus.empty() ? create(key) : make_multi_gpu_plan(key);
}

namespace {
std::ptrdiff_t index_of(const std::vector<PlanPtr>& plans, const Key& key) {
  for (std::size_t i = 0; i < plans.size(); ++i)
    if (plans[i]->key() == key) return static_cast<std::ptrdiff_t>(i);
  return -1;
}

void to_front(std::vector<PlanPtr>& plans, std::ptrdiff_t i) {
  PlanPtr p = plans[static_cast<std::size_t>(i)];
  plans.erase(plans.begin() + i);
  plans.insert(plans.begin(), std::move(p));
}
}  // namespace

PlanPtr PlanCache::find(const Key& key) {
  std::ptrdiff_t i = index_of(plans_, key);
  if (i < 0) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  PlanPtr hit = plans_[static_cast<std::size_t>(i)];
  to_front(plans_, i);
  for (int g : hit->gpus())  // Note [Multi-GPU plans in the caches]
    if (PlanCache* other = g == device_ ? nullptr : existing_plan_cache(g))
      if (std::ptrdiff_t j = index_of(other->plans_, key); j >= 0) to_front(other->plans_, j);
  return hit;
}

long long PlanCache::curr_memsize() const {
  long long total = 0;
  for (const PlanPtr& p : plans_) total += static_cast<long long>(p->work_size_on(device_));
  return total;
}

void PlanCache::evict_until(long long size, long long memsize) {
  while (!plans_.empty() && ((size != -1 && curr_size() > size) || (memsize != -1 && curr_memsize() > memsize)))
    drop(plans_.back());
}

PlanPtr PlanCache::take(const Key& key) {
  std::ptrdiff_t i = index_of(plans_, key);
  if (i < 0) return nullptr;
  PlanPtr p = plans_[static_cast<std::size_t>(i)];
  plans_.erase(plans_.begin() + i);
  return p;
}

void PlanCache::drop(const PlanPtr& plan) {
  PlanPtr keep = plan;  // `plan` may be an element of plans_
  take(keep->key());
  for (int g : keep->gpus())
    if (PlanCache* other = g == device_ ? nullptr : existing_plan_cache(g)) other->take(keep->key());
}

void PlanCache::check_fits(const Plan& plan) const {
  long long need = static_cast<long long>(plan.work_size_on(device_));
  if (enabled() && memsize_ > 0 && need > memsize_)
    throw std::runtime_error(plan.multi_gpu() ? "the plan memsize is too large for device " + std::to_string(device_)
                                              : std::string("the plan memsize is too large"));
}

void PlanCache::add(const PlanPtr& plan) {
  if (!enabled()) return;
  long long need = static_cast<long long>(plan->work_size_on(device_));
  take(plan->key());
  evict_until(size_ == -1 ? -1 : size_ - 1, memsize_ == -1 ? -1 : memsize_ - need);
  plans_.insert(plans_.begin(), plan);
}

void PlanCache::insert(const PlanPtr& plan) {
  if (!enabled()) return;
  if (!plan->multi_gpu()) {
    check_fits(*plan);
    add(plan);
    return;
  }
  for (int g : plan->gpus()) plan_cache(g).check_fits(*plan);  // on all of them or on none
  for (int g : plan->gpus()) plan_cache(g).add(plan);
}

bool PlanCache::erase(const Key& key) {
  std::ptrdiff_t i = index_of(plans_, key);
  if (i < 0) return false;
  drop(plans_[static_cast<std::size_t>(i)]);
  return true;
}

void PlanCache::clear() {
  plans_.clear();
  hits_ = misses_ = 0;
}

void PlanCache::set_size(long long size) {
  if (size < -1) throw ValueError("invalid input: the plan cache size must be -1 (no limit) or at least 0");
  evict_until(size, memsize_);
  size_ = size;
}

void PlanCache::set_memsize(long long memsize) {
  if (memsize < -1) throw ValueError("invalid input: the plan cache memsize must be -1 (no limit) or at least 0");
  evict_until(size_, memsize);
  memsize_ = memsize;
}

PlanCache& plan_cache(int device) {
  if (device < 0) throw ValueError("no device " + std::to_string(device));
  auto& all = caches();
  if (static_cast<int>(all.size()) <= device) all.resize(static_cast<std::size_t>(device) + 1);
  if (!all[static_cast<std::size_t>(device)])
    all[static_cast<std::size_t>(device)] = std::make_unique<PlanCache>(device);
  return *all[static_cast<std::size_t>(device)];
}

PlanCache* existing_plan_cache(int device) {
  auto& all = caches();
  return device >= 0 && device < static_cast<int>(all.size()) ? all[static_cast<std::size_t>(device)].get() : nullptr;
}

PlanPtr plan(const Key& key) {
  PlanCache& cache = plan_cache(cuda::current_device());
  if (PlanPtr hit = cache.find(key)) return hit;
  PlanPtr made = make_plan(key);
  cache.insert(made);
  return made;
}

namespace {
PlanPtr& current() {
  thread_local PlanPtr plan;
  return plan;
}
}  // namespace

const PlanPtr& current_plan() { return current(); }
void set_current_plan(PlanPtr plan) { current() = std::move(plan); }

}  // namespace cuarray::lib::cufft
