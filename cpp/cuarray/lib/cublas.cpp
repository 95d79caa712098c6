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
  cublasHandle_t slots[kMaxDevices] = {};
  ~Handles() {
    for (cublasHandle_t h : slots)
      if (h) api().destroy(h);  // errors at thread exit are not worth reporting
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
    resolve(a.get_stream, h, "cublasGetStream_v2", stem);
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
  cublasHandle_t& h = handles.slots[device];
  cudaStream_t stream = cuda::current_stream(device)->handle();
  if (!h) {
    // Note [Memory for other libraries] in memory_pool.h.
    auto create = [&] { return api().create(&h); };
    check(cuda::retry_with_memory(create, [](cublasStatus_t s) { return s != CUBLAS_STATUS_SUCCESS; }),
          "cublasCreate_v2");
  }
  // Note [Handed-out handles]: the handle's own stream, not a remembered one, is compared.
  cudaStream_t bound = nullptr;
  check(api().get_stream(h, &bound), "cublasGetStream_v2");
  if (bound != stream) check(api().set_stream(h, stream), "cublasSetStream_v2");
  return h;
}

namespace {

// One setting per precision (Note [Compute types]); 0 until first read or set.
std::atomic<int> compute_types[4];

std::atomic<int>& setting_for(DType t) {
  switch (t) {
    case DType::Float16:
      return compute_types[0];
    case DType::BFloat16:
      return compute_types[1];
    case DType::Float32:
    case DType::Complex64:
      return compute_types[2];
    case DType::Float64:
    case DType::Complex128:
      return compute_types[3];
    default:
      throw TypeError(std::string("compute types are set for float16, bfloat16, float32, float64, complex64 and "
                                  "complex128 results, not ") +
                      cuarray::name(t));
  }
}

}  // namespace

ComputeType compute_type(DType t) {
  std::atomic<int>& setting = setting_for(t);
  int v = setting.load(std::memory_order_relaxed);
  if (v == 0) {  // Note [TF32]: the environment gives float32's first value
    static const bool env_tf32 = env_flag("CUARRAY_TF32") || env_flag("CUPY_TF32");
    int initial =
        static_cast<int>(&setting == &compute_types[2] && env_tf32 ? ComputeType::Tf32 : ComputeType::Default);
    setting.compare_exchange_strong(v, initial);  // a concurrent set_compute_type wins
    v = setting.load(std::memory_order_relaxed);
  }
  return static_cast<ComputeType>(v);
}

void set_compute_type(DType t, int type) {
  std::atomic<int>& setting = setting_for(t);
  if (type < 0 || type > static_cast<int>(ComputeType::Tf32))
    throw ValueError("Unknown compute type: " + std::to_string(type) +
                     " (expected one of cuarray.linalg's COMPUTE_TYPE_* constants, 0 to 7)");
  setting.store(type, std::memory_order_relaxed);
}

bool tf32() { return compute_type(DType::Float32) == ComputeType::Tf32; }

int version() { return lib::version(api().get_property); }

}  // namespace cuarray::lib::cublas
