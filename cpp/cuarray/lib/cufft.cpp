#include "cuarray/lib/cufft.h"

#include <atomic>
#include <mutex>
#include <string>

#include "cuarray/cuda/device.h"
#include "cuarray/cuda/launch_queue.h"
#include "cuarray/cuda/memory_pool.h"
#include "cuarray/error.h"
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

struct Key {
  int device;
  cufftType type;
  std::vector<long long> n;
  long long batch;
  bool operator==(const Key& o) const { return device == o.device && type == o.type && n == o.n && batch == o.batch; }
};

// The calling thread's plans, most recently used last; destroyed when the thread ends.
struct Cache {
  struct Entry {
    Key key;
    Plan plan;
  };
  std::vector<Entry> entries;
  ~Cache() {
    for (const Entry& e : entries) api().destroy(e.plan.handle);  // errors at thread exit are not worth reporting
  }
};

// A plan without a work area; a failure (cuFFT allocates with cudaMalloc meanwhile) is retried once after the
// pool gives its cached memory back (Note [Memory for other libraries] in memory_pool.h).
Plan make_plan(const Key& key) {
  const char* call = "cufftCreate";
  Plan plan{0, 0};
  auto attempt = [&] {
    call = "cufftCreate";
    cufftResult r = api().create(&plan.handle);
    if (r != CUFFT_SUCCESS) return r;
    std::vector<long long> n = key.n;
    call = "cufftSetAutoAllocation";
    r = api().set_auto_allocation(plan.handle, 0);
    if (r == CUFFT_SUCCESS) {
      call = "cufftMakePlanMany64";
      r = api().make_plan_many(plan.handle, static_cast<int>(n.size()), n.data(), nullptr, 1, 0, nullptr, 1, 0,
                               key.type, key.batch, &plan.work_size);
    }
    if (r != CUFFT_SUCCESS) api().destroy(plan.handle);
    return r;
  };
  check(cuda::retry_with_memory(attempt, [](cufftResult r) { return r != CUFFT_SUCCESS; }), call);
  return plan;
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

Plan plan(cufftType type, const std::vector<long long>& n, long long batch) {
  thread_local Cache cache;
  Key key{cuda::current_device(), type, n, batch};
  auto& entries = cache.entries;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!(entries[i].key == key)) continue;
    Cache::Entry hit = entries[i];
    entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(i));
    entries.push_back(hit);
    return hit.plan;
  }
  Plan p = make_plan(key);
  if (static_cast<int>(entries.size()) == kMaxPlans) {
    cuda::DeviceGuard guard(entries.front().key.device);
    api().destroy(entries.front().plan.handle);
    entries.erase(entries.begin());
  }
  entries.push_back({key, p});
  return p;
}

}  // namespace cuarray::lib::cufft
