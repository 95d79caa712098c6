#include "cuarray/lib/cublas.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>

#include "cuarray/cuda/device.h"
#include "cuarray/cuda/launch_queue.h"
#include "cuarray/cuda/memory_pool.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/lib/library.h"

namespace cuarray::lib::cublas {

namespace {

constexpr int kMaxDevices = 64;

// The calling thread's handles; destroyed when the thread ends.
struct Handles {
  struct Slot {
    cublasHandle_t handle = nullptr;
    cudaStream_t stream = nullptr;
  };
  Slot slots[kMaxDevices];
  ~Handles() {
    for (const Slot& s : slots)
      if (s.handle) api().destroy(s.handle);  // errors at thread exit are not worth reporting
  }
};

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && std::atoi(v) != 0;
}

}  // namespace

// Every call into the library goes through here, after the kernel launches queued before it.
const Api& api() {
  cuda::drain_launches();
  static std::once_flag once;
  static std::atomic<bool> loaded{false};
  static Api a;
  load_once(kCublas, once, loaded, [](void* h) {
    const std::string stem = kCublas.stem;
    resolve(a.create, h, "cublasCreate_v2", stem);
    resolve(a.destroy, h, "cublasDestroy_v2", stem);
    resolve(a.set_stream, h, "cublasSetStream_v2", stem);
    resolve(a.set_pointer_mode, h, "cublasSetPointerMode_v2", stem);
    resolve(a.status_name, h, "cublasGetStatusName", stem);
    resolve(a.get_property, h, "cublasGetProperty", stem);
    resolve(a.gemm, h, "cublasGemmEx_64", stem);
    resolve(a.gemm_strided_batched, h, "cublasGemmStridedBatchedEx_64", stem);
    resolve(a.dot, h, "cublasDotEx_64", stem);
    resolve(a.dotc, h, "cublasDotcEx_64", stem);
    tf32();  // fixed from the first use on (Note [TF32])
  });
  return a;
}

void check(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw CudaError(call, status,
                  std::string(call) + " failed: " + api().status_name(status) + " (cuBLAS status " +
                      std::to_string(static_cast<int>(status)) + ")");
}

cublasHandle_t handle() {
  thread_local Handles handles;
  int device = cuda::current_device();
  Handles::Slot& slot = handles.slots[device];
  cudaStream_t stream = cuda::current_stream(device)->handle();
  if (!slot.handle) {
    // Note [Memory for other libraries] in memory_pool.h.
    auto create = [&] { return api().create(&slot.handle); };
    check(cuda::retry_with_memory(create, [](cublasStatus_t s) { return s != CUBLAS_STATUS_SUCCESS; }),
          "cublasCreate_v2");
    check(api().set_stream(slot.handle, stream), "cublasSetStream_v2");
    slot.stream = stream;
  } else if (slot.stream != stream) {
    check(api().set_stream(slot.handle, stream), "cublasSetStream_v2");
    slot.stream = stream;
  }
  return slot.handle;
}

bool tf32() {
  static const bool on = env_flag("CUARRAY_TF32") || env_flag("CUPY_TF32");
  return on;
}

int version() { return lib::version(api().get_property); }

}  // namespace cuarray::lib::cublas
