#include "cuarray/lib/cusolver.h"

#include <cusolverDn.h>

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "cuarray/cuda/device.h"
#include "cuarray/cuda/graph.h"
#include "cuarray/cuda/launch_queue.h"
#include "cuarray/cuda/memory_pool.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/lib/library.h"

namespace cuarray::lib::cusolver {

namespace {

struct Api {
  Blocking<decltype(&cusolverDnCreate)> create;
  Blocking<decltype(&cusolverDnDestroy)> destroy;
  decltype(&cusolverDnSetStream) set_stream;
  decltype(&cusolverDnGetStream) get_stream;
  Blocking<decltype(&cusolverDnCreateParams)> create_params;
  Blocking<decltype(&cusolverDnDestroyParams)> destroy_params;
  decltype(&cusolverGetProperty) get_property;
  decltype(&cusolverDnXgetrf_bufferSize) getrf_size;
  Blocking<decltype(&cusolverDnXgetrf)> getrf;
  Blocking<decltype(&cusolverDnXgetrs)> getrs;
  decltype(&cusolverDnXgeqrf_bufferSize) geqrf_size;
  Blocking<decltype(&cusolverDnXgeqrf)> geqrf;
  decltype(&cusolverDnSorgqr_bufferSize) sorgqr_size;
  decltype(&cusolverDnDorgqr_bufferSize) dorgqr_size;
  decltype(&cusolverDnCungqr_bufferSize) cungqr_size;
  decltype(&cusolverDnZungqr_bufferSize) zungqr_size;
  Blocking<decltype(&cusolverDnSorgqr)> sorgqr;
  Blocking<decltype(&cusolverDnDorgqr)> dorgqr;
  Blocking<decltype(&cusolverDnCungqr)> cungqr;
  Blocking<decltype(&cusolverDnZungqr)> zungqr;
  decltype(&cusolverDnXpotrf_bufferSize) potrf_size;
  Blocking<decltype(&cusolverDnXpotrf)> potrf;
  decltype(&cusolverDnXsyevd_bufferSize) syevd_size;
  Blocking<decltype(&cusolverDnXsyevd)> syevd;
  decltype(&cusolverDnXgeev_bufferSize) geev_size;
  Blocking<decltype(&cusolverDnXgeev)> geev;
  decltype(&cusolverDnXgesvd_bufferSize) gesvd_size;
  Blocking<decltype(&cusolverDnXgesvd)> gesvd;
  decltype(&cusolverDnXgesvdp_bufferSize) gesvdp_size;
  Blocking<decltype(&cusolverDnXgesvdp)> gesvdp;
};

// Every call into the library goes through here, after the kernel launches queued before it.
const Api& api() {
  cuda::drain_launches();
  static std::once_flag once;
  static std::atomic<bool> loaded{false};
  static Api a;
  load_once(kCusolver, once, loaded, [](void* h) {
    const std::string stem = kCusolver.stem;
    resolve(a.create, h, "cusolverDnCreate", stem);
    resolve(a.destroy, h, "cusolverDnDestroy", stem);
    resolve(a.set_stream, h, "cusolverDnSetStream", stem);
    resolve(a.get_stream, h, "cusolverDnGetStream", stem);
    resolve(a.create_params, h, "cusolverDnCreateParams", stem);
    resolve(a.destroy_params, h, "cusolverDnDestroyParams", stem);
    resolve(a.get_property, h, "cusolverGetProperty", stem);
    resolve(a.getrf_size, h, "cusolverDnXgetrf_bufferSize", stem);
    resolve(a.getrf, h, "cusolverDnXgetrf", stem);
    resolve(a.getrs, h, "cusolverDnXgetrs", stem);
    resolve(a.geqrf_size, h, "cusolverDnXgeqrf_bufferSize", stem);
    resolve(a.geqrf, h, "cusolverDnXgeqrf", stem);
    resolve(a.sorgqr_size, h, "cusolverDnSorgqr_bufferSize", stem);
    resolve(a.dorgqr_size, h, "cusolverDnDorgqr_bufferSize", stem);
    resolve(a.cungqr_size, h, "cusolverDnCungqr_bufferSize", stem);
    resolve(a.zungqr_size, h, "cusolverDnZungqr_bufferSize", stem);
    resolve(a.sorgqr, h, "cusolverDnSorgqr", stem);
    resolve(a.dorgqr, h, "cusolverDnDorgqr", stem);
    resolve(a.cungqr, h, "cusolverDnCungqr", stem);
    resolve(a.zungqr, h, "cusolverDnZungqr", stem);
    resolve(a.potrf_size, h, "cusolverDnXpotrf_bufferSize", stem);
    resolve(a.potrf, h, "cusolverDnXpotrf", stem);
    resolve(a.syevd_size, h, "cusolverDnXsyevd_bufferSize", stem);
    resolve(a.syevd, h, "cusolverDnXsyevd", stem);
    resolve(a.geev_size, h, "cusolverDnXgeev_bufferSize", stem);
    resolve(a.geev, h, "cusolverDnXgeev", stem);
    resolve(a.gesvd_size, h, "cusolverDnXgesvd_bufferSize", stem);
    resolve(a.gesvd, h, "cusolverDnXgesvd", stem);
    resolve(a.gesvdp_size, h, "cusolverDnXgesvdp_bufferSize", stem);
    resolve(a.gesvdp, h, "cusolverDnXgesvdp", stem);
  });
  return a;
}

const char* status_name(cusolverStatus_t s) {
  switch (s) {
    case CUSOLVER_STATUS_NOT_INITIALIZED:
      return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED:
      return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE:
      return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH:
      return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED:
      return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR:
      return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED:
      return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSOLVER_STATUS_NOT_SUPPORTED:
      return "CUSOLVER_STATUS_NOT_SUPPORTED";
    case CUSOLVER_STATUS_INVALID_WORKSPACE:
      return "CUSOLVER_STATUS_INVALID_WORKSPACE";
    default:
      return "a cuSOLVER error";
  }
}

void check(cusolverStatus_t status, const char* call) {
  if (status == CUSOLVER_STATUS_SUCCESS) return;
  throw CudaError(call, status,
                  std::string(call) + " failed: " + status_name(status) + " (cuSOLVER status " +
                      std::to_string(static_cast<int>(status)) + ")");
}

constexpr int kMaxDevices = 64;

// The calling thread's handles (with their parameter objects); destroyed when the thread ends.
struct Handles {
  struct Slot {
    cusolverDnHandle_t handle = nullptr;
    cusolverDnParams_t params = nullptr;
  };
  Slot slots[kMaxDevices];
  ~Handles() {
    for (const Slot& s : slots) {
      if (s.params) api().destroy_params(s.params);  // errors at thread exit are not worth reporting
      if (s.handle) api().destroy(s.handle);
    }
  }
};

// The calling thread's handle for the current device, bound to the current stream.
const Handles::Slot& slot() {
  // cuSOLVER's routines wait for the device or use host workspaces, which a CUDA graph cannot hold (gesvd fails
  // with CUSOLVER_STATUS_INTERNAL_ERROR inside a capture): refused before any runs, the capture ended (Note
  // [Failed captures] in cuda/graph.h).
  cuda::check_not_capturing(*cuda::current_stream(), "A cuSOLVER routine (linalg)");
  thread_local Handles handles;
  int device = cuda::current_device();
  Handles::Slot& s = handles.slots[device];
  cudaStream_t stream = cuda::current_stream(device)->handle();
  if (!s.handle) {
    // Note [Memory for other libraries] in memory_pool.h.
    auto failed = [](cusolverStatus_t st) { return st != CUSOLVER_STATUS_SUCCESS; };
    check(cuda::retry_with_memory([&] { return api().create(&s.handle); }, failed), "cusolverDnCreate");
    check(cuda::retry_with_memory([&] { return api().create_params(&s.params); }, failed), "cusolverDnCreateParams");
  }
  // Note [Handed-out handles] in cublas.h: the handle's own stream, not a remembered one, is compared.
  cudaStream_t bound = nullptr;
  check(api().get_stream(s.handle, &bound), "cusolverDnGetStream");
  if (bound != stream) check(api().set_stream(s.handle, stream), "cusolverDnSetStream");
  return s;
}

// Device and host workspaces of the sizes a *_bufferSize call reported. The device one comes from the pool on
// the current stream, so it is released in stream order after the routine that uses it.
struct Workspace {
  std::size_t device_bytes = 0, host_bytes = 0;
  std::shared_ptr<cuda::Buffer> device;
  std::vector<char> host;
  void allocate() {
    device = cuda::allocate(device_bytes);
    host.resize(host_bytes);
  }
  void* device_ptr() const { return device_bytes ? device->ptr() : nullptr; }
  void* host_ptr() { return host_bytes ? host.data() : nullptr; }
};

// The library-side type of the dtypes cuSOLVER's routines take; TypeError for others.
cudaDataType solver_type(DType t) {
  if (t != DType::Float32 && t != DType::Float64 && t != DType::Complex64 && t != DType::Complex128)
    throw TypeError(std::string("cuSOLVER does not take ") + name(t) + " matrices");
  return data_type(t);
}

// The type cuSOLVER computes in for data type `t` (the data type itself).
cudaDataType compute(DType t) { return solver_type(t); }

// The real type of the eigenvalues and singular values of `t`.
cudaDataType real_type(DType t) { return t == DType::Float32 || t == DType::Complex64 ? CUDA_R_32F : CUDA_R_64F; }

// The complex type of the eigenvalues of `t` (geev's W; for a real `t`, cuSOLVER still computes in real arithmetic).
cudaDataType complex_type(DType t) { return t == DType::Float32 || t == DType::Complex64 ? CUDA_C_32F : CUDA_C_64F; }

int as_int(std::int64_t v, const char* what) {
  if (v > INT32_MAX)
    throw ValueError(std::string(what) +
                     ": matrices with more than 2**31 - 1 rows or columns are "
                     "not supported by cuSOLVER's orgqr");
  return static_cast<int>(v);
}

}  // namespace

void getrf(DType t, std::int64_t n, void* a, std::int64_t lda, std::int64_t* ipiv, int* info) {
  const auto& s = slot();
  cudaDataType dt = solver_type(t);
  Workspace w;
  check(api().getrf_size(s.handle, s.params, n, n, dt, a, lda, compute(t), &w.device_bytes, &w.host_bytes),
        "cusolverDnXgetrf_bufferSize");
  w.allocate();
  check(api().getrf(s.handle, s.params, n, n, dt, a, lda, ipiv, compute(t), w.device_ptr(), w.device_bytes,
                    w.host_ptr(), w.host_bytes, info),
        "cusolverDnXgetrf");
}

void getrs(DType t, cublasOperation_t op, std::int64_t n, std::int64_t nrhs, const void* a, std::int64_t lda,
           const std::int64_t* ipiv, void* b, std::int64_t ldb, int* info) {
  const auto& s = slot();
  check(api().getrs(s.handle, s.params, op, n, nrhs, solver_type(t), a, lda, ipiv, solver_type(t), b, ldb, info),
        "cusolverDnXgetrs");
}

void geqrf(DType t, std::int64_t m, std::int64_t n, void* a, std::int64_t lda, void* tau, int* info) {
  const auto& s = slot();
  cudaDataType dt = solver_type(t);
  Workspace w;
  check(api().geqrf_size(s.handle, s.params, m, n, dt, a, lda, dt, tau, compute(t), &w.device_bytes, &w.host_bytes),
        "cusolverDnXgeqrf_bufferSize");
  w.allocate();
  check(api().geqrf(s.handle, s.params, m, n, dt, a, lda, dt, tau, compute(t), w.device_ptr(), w.device_bytes,
                    w.host_ptr(), w.host_bytes, info),
        "cusolverDnXgeqrf");
}

void orgqr(DType t, std::int64_t m64, std::int64_t n64, std::int64_t k64, void* a, std::int64_t lda64, const void* tau,
           int* info) {
  const auto& s = slot();
  int m = as_int(m64, "qr"), n = as_int(n64, "qr"), k = as_int(k64, "qr"), lda = as_int(lda64, "qr");
  int lwork = 0;
  switch (t) {
    case DType::Float32: {
      auto* A = static_cast<float*>(a);
      auto* T = static_cast<const float*>(tau);
      check(api().sorgqr_size(s.handle, m, n, k, A, lda, T, &lwork), "cusolverDnSorgqr_bufferSize");
      auto w = cuda::allocate(static_cast<std::size_t>(lwork) * sizeof(float));
      check(api().sorgqr(s.handle, m, n, k, A, lda, T, static_cast<float*>(w->ptr()), lwork, info), "cusolverDnSorgqr");
      break;
    }
    case DType::Float64: {
      auto* A = static_cast<double*>(a);
      auto* T = static_cast<const double*>(tau);
      check(api().dorgqr_size(s.handle, m, n, k, A, lda, T, &lwork), "cusolverDnDorgqr_bufferSize");
      auto w = cuda::allocate(static_cast<std::size_t>(lwork) * sizeof(double));
      check(api().dorgqr(s.handle, m, n, k, A, lda, T, static_cast<double*>(w->ptr()), lwork, info),
            "cusolverDnDorgqr");
      break;
    }
    case DType::Complex64: {
      auto* A = static_cast<cuComplex*>(a);
      auto* T = static_cast<const cuComplex*>(tau);
      check(api().cungqr_size(s.handle, m, n, k, A, lda, T, &lwork), "cusolverDnCungqr_bufferSize");
      auto w = cuda::allocate(static_cast<std::size_t>(lwork) * sizeof(cuComplex));
      check(api().cungqr(s.handle, m, n, k, A, lda, T, static_cast<cuComplex*>(w->ptr()), lwork, info),
            "cusolverDnCungqr");
      break;
    }
    case DType::Complex128: {
      auto* A = static_cast<cuDoubleComplex*>(a);
      auto* T = static_cast<const cuDoubleComplex*>(tau);
      check(api().zungqr_size(s.handle, m, n, k, A, lda, T, &lwork), "cusolverDnZungqr_bufferSize");
      auto w = cuda::allocate(static_cast<std::size_t>(lwork) * sizeof(cuDoubleComplex));
      check(api().zungqr(s.handle, m, n, k, A, lda, T, static_cast<cuDoubleComplex*>(w->ptr()), lwork, info),
            "cusolverDnZungqr");
      break;
    }
    default:
      throw TypeError(std::string("cuSOLVER's orgqr does not take ") + name(t) + " matrices");
  }
}

void potrf(DType t, cublasFillMode_t uplo, std::int64_t n, void* a, std::int64_t lda, int* info) {
  const auto& s = slot();
  cudaDataType dt = solver_type(t);
  Workspace w;
  check(api().potrf_size(s.handle, s.params, uplo, n, dt, a, lda, compute(t), &w.device_bytes, &w.host_bytes),
        "cusolverDnXpotrf_bufferSize");
  w.allocate();
  check(api().potrf(s.handle, s.params, uplo, n, dt, a, lda, compute(t), w.device_ptr(), w.device_bytes, w.host_ptr(),
                    w.host_bytes, info),
        "cusolverDnXpotrf");
}

void syevd(DType t, bool vectors, cublasFillMode_t uplo, std::int64_t n, void* a, std::int64_t lda, void* w_values,
           int* info) {
  const auto& s = slot();
  cudaDataType dt = solver_type(t);
  cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  Workspace w;
  check(api().syevd_size(s.handle, s.params, jobz, uplo, n, dt, a, lda, real_type(t), w_values, compute(t),
                         &w.device_bytes, &w.host_bytes),
        "cusolverDnXsyevd_bufferSize");
  w.allocate();
  check(api().syevd(s.handle, s.params, jobz, uplo, n, dt, a, lda, real_type(t), w_values, compute(t), w.device_ptr(),
                    w.device_bytes, w.host_ptr(), w.host_bytes, info),
        "cusolverDnXsyevd");
}

void geev(DType t, bool vectors, std::int64_t n, void* a, std::int64_t lda, void* w_values, void* vr, std::int64_t ldvr,
          int* info) {
  const auto& s = slot();
  cudaDataType dt = solver_type(t);
  cusolverEigMode_t jobvr = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  // cuSOLVER computes no left eigenvectors (jobvl must be NOVECTOR); their leading dimension must still be valid.
  Workspace w;
  check(api().geev_size(s.handle, s.params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, dt, a, lda, complex_type(t), w_values,
                        dt, nullptr, n, dt, vr, ldvr, compute(t), &w.device_bytes, &w.host_bytes),
        "cusolverDnXgeev_bufferSize");
  w.allocate();
  check(api().geev(s.handle, s.params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, dt, a, lda, complex_type(t), w_values, dt,
                   nullptr, n, dt, vr, ldvr, compute(t), w.device_ptr(), w.device_bytes, w.host_ptr(), w.host_bytes,
                   info),
        "cusolverDnXgeev");
}

void gesvd(DType t, char jobu, char jobvt, std::int64_t m, std::int64_t n, void* a, std::int64_t lda, void* sv, void* u,
           std::int64_t ldu, void* vt, std::int64_t ldvt, int* info) {
  const auto& s = slot();
  cudaDataType dt = solver_type(t);
  Workspace w;
  check(api().gesvd_size(s.handle, s.params, jobu, jobvt, m, n, dt, a, lda, real_type(t), sv, dt, u, ldu, dt, vt, ldvt,
                         compute(t), &w.device_bytes, &w.host_bytes),
        "cusolverDnXgesvd_bufferSize");
  w.allocate();
  check(api().gesvd(s.handle, s.params, jobu, jobvt, m, n, dt, a, lda, real_type(t), sv, dt, u, ldu, dt, vt, ldvt,
                    compute(t), w.device_ptr(), w.device_bytes, w.host_ptr(), w.host_bytes, info),
        "cusolverDnXgesvd");
}

double gesvdp(DType t, bool vectors, bool economic, std::int64_t m, std::int64_t n, void* a, std::int64_t lda, void* sv,
              void* u, std::int64_t ldu, void* v, std::int64_t ldv, int* info) {
  const auto& s = slot();
  cudaDataType dt = solver_type(t);
  cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  Workspace w;
  check(api().gesvdp_size(s.handle, s.params, jobz, economic, m, n, dt, a, lda, real_type(t), sv, dt, u, ldu, dt, v,
                          ldv, compute(t), &w.device_bytes, &w.host_bytes),
        "cusolverDnXgesvdp_bufferSize");
  w.allocate();
  double err_sigma = 0;
  check(api().gesvdp(s.handle, s.params, jobz, economic, m, n, dt, a, lda, real_type(t), sv, dt, u, ldu, dt, v, ldv,
                     compute(t), w.device_ptr(), w.device_bytes, w.host_ptr(), w.host_bytes, info, &err_sigma),
        "cusolverDnXgesvdp");
  return err_sigma;
}

int version() { return lib::version(api().get_property); }

std::uintptr_t handle_address() { return reinterpret_cast<std::uintptr_t>(slot().handle); }

}  // namespace cuarray::lib::cusolver
