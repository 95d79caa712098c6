#include "cuarray/cuda/device.h"

#include <dlfcn.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/graph.h"
#include "cuarray/error.h"

namespace cuarray::cuda {

namespace {

thread_local int tls_device = 0;

std::atomic<bool> g_cuda_started{false};  // cuInit succeeded in this process (or the one it was forked from)
std::atomic<void (*)()> g_first_use_hook{nullptr};
bool g_started_before_fork = false;  // set by prepare_fork, read in the child

// Whether cuInit has succeeded in this process, whoever called it: before, cuDeviceGetCount answers
// CUDA_ERROR_NOT_INITIALIZED. Loads nothing (RTLD_NOLOAD).
bool driver_initialized() {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!driver) return false;
  auto get_count = reinterpret_cast<int (*)(int*)>(dlsym(driver, "cuDeviceGetCount"));
  int n = 0;
  bool initialized = get_count && get_count(&n) == 0;
  dlclose(driver);  // the reference RTLD_NOLOAD took
  return initialized;
}

// Device count, or the error status that kept us from getting it. Asked once per process; CUDA starts here
// (Note [Starting CUDA on first use]).
std::pair<int, cudaError_t> probe() {
  static const std::pair<int, cudaError_t> result = [] {
    int n = 0;
    cudaError_t status = cudaGetDeviceCount(&n);
    if (status != cudaSuccess) {
      cudaGetLastError();
      n = 0;
    } else if (n == 0) {
      status = cudaErrorNoDevice;
    } else {
      g_cuda_started = true;
      // After cuInit, whose loading of the driver library would otherwise wait for NVRTC's (the loader's lock).
      if (auto hook = g_first_use_hook.load()) hook();
    }
    return std::make_pair(n, status);
  }();
  return result;
}

}  // namespace

bool is_available() { return !forked_after_cuda() && probe().second == cudaSuccess; }

void set_first_use_hook(void (*hook)()) { g_first_use_hook = hook; }

void prepare_fork() { g_started_before_fork = g_cuda_started || driver_initialized(); }

void note_forked_child() {
  if (g_started_before_fork) mark_forked_after_cuda();
}

int device_count() {
  if (forked_after_cuda()) check_cuda(cudaErrorInitializationError, "cuInit");
  auto [n, status] = probe();
  check_cuda(status, "cudaGetDeviceCount");
  return n;
}

void check_device(int id) {
  int n = device_count();
  if (id < 0 || id >= n)
    throw CudaError("cudaSetDevice", cudaErrorInvalidDevice,
                    "cudaSetDevice failed: invalid device ordinal " + std::to_string(id) + " (this machine has " +
                        std::to_string(n) + " CUDA device" + (n == 1 ? "" : "s") + ", numbered from 0)");
}

int current_device() { return tls_device; }

void set_device(int id) {
  check_device(id);
  CUARRAY_CHECK_CUDA(cudaSetDevice(id));
  tls_device = id;
}

void restore_device(int id) noexcept {
  cudaSetDevice(id);
  tls_device = id;
}

const cudaDeviceProp& properties(int id) {
  check_device(id);
  static std::mutex mutex;
  static std::vector<std::unique_ptr<cudaDeviceProp>> cache(device_count());
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (cache[id]) return *cache[id];
  }
  auto p = std::make_unique<cudaDeviceProp>();  // Note [No CUDA call under a core lock] in memory_pool.cpp
  CUARRAY_CHECK_CUDA(cudaGetDeviceProperties(p.get(), id));
  std::lock_guard<std::mutex> lock(mutex);
  if (!cache[id]) cache[id] = std::move(p);
  return *cache[id];
}

int compute_capability(int id) {
  const auto& p = properties(id);
  return p.major * 10 + p.minor;
}

std::pair<std::size_t, std::size_t> mem_info(int id) {
  DeviceGuard guard(id);
  std::size_t free = 0, total = 0;
  CUARRAY_CHECK_CUDA(cudaMemGetInfo(&free, &total));
  return {free, total};
}

int driver_version() {
  int v = 0;
  CUARRAY_CHECK_CUDA(cudaDriverGetVersion(&v));
  return v;
}

int runtime_version() {
  int v = 0;
  CUARRAY_CHECK_CUDA(cudaRuntimeGetVersion(&v));
  return v;
}

}  // namespace cuarray::cuda
