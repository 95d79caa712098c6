// cuBLAS, loaded on first use. Each thread has one handle per device, bound to that thread's current stream
// whenever it is handed out, so library calls are ordered like every other op.
//
// Note [TF32]
// float32 GEMMs use TensorFloat-32 tensor cores (10-bit mantissa inputs, float32 accumulation) only when the
// environment says CUARRAY_TF32=1 (or CuPy's CUPY_TF32=1) at the first cuBLAS call of the process; otherwise
// they compute in full float32. Reading it once, like CuPy, keeps it off the per-call path.
#pragma once

#include <cublas_api.h>

namespace cuarray::lib::cublas {

struct Api {
  decltype(&cublasCreate_v2) create;
  decltype(&cublasDestroy_v2) destroy;
  decltype(&cublasSetStream_v2) set_stream;
  decltype(&cublasSetPointerMode_v2) set_pointer_mode;
  decltype(&cublasGetStatusName) status_name;
  decltype(&cublasGetProperty) get_property;
  decltype(&cublasGemmEx_64) gemm;
  decltype(&cublasGemmStridedBatchedEx_64) gemm_strided_batched;
  decltype(&cublasDotEx_64) dot;
  decltype(&cublasDotcEx_64) dotc;
};

// The library's functions; loads it on the first call (throws CudaError if it cannot be loaded).
const Api& api();
// The calling thread's handle for the current device, bound to the current stream.
cublasHandle_t handle();
// Whether float32 GEMMs may use TF32 (Note [TF32]).
bool tf32();
// Throws CudaError naming `call` and the status unless `status` is CUBLAS_STATUS_SUCCESS.
void check(cublasStatus_t status, const char* call);
// The loaded library's version as major * 10000 + minor * 100 + patch (loads it).
int version();

}  // namespace cuarray::lib::cublas
