// cuBLAS, loaded on first use. Each thread has one handle per device, bound to that thread's current stream
// whenever it is handed out, so library calls are ordered like every other op.
//
// Note [TF32]
// float32 GEMMs use TensorFloat-32 tensor cores (10-bit mantissa inputs, float32 accumulation) only when their
// compute type says so (Note [Compute types]): its first value is TF32 when the environment says
// CUARRAY_TF32=1 (or CuPy's CUPY_TF32=1) at the first cuBLAS call of the process, else DEFAULT (full float32).
// Reading the environment once, like CuPy, keeps it off the per-call path.
//
// Note [Compute types]
// CuPy lets a program choose, per precision, how cuBLAS computes GEMMs (cupy._core.set_compute_type): one
// setting each for float16, bfloat16, float32 (with complex64) and float64 (with complex128) results, with
// CuPy's numbering. DEFAULT computes in float32 (float64 for double precision), PEDANTIC asks cuBLAS for its
// _PEDANTIC compute types (no reduced-precision shortcuts), TF32 lets float32 and complex64 products use
// TensorFloat-32. FP16, FP32, FP64 and BF16 are accepted and compute as DEFAULT, as in CuPy; TBD (0) unsets a
// precision, which takes its first value again at its next GEMM. The settings are process-wide atomics read at
// each GEMM: no lock on the per-call path.
#pragma once

#include <cublas_api.h>

#include "cuarray/dtype.h"
#include "cuarray/lib/library.h"

namespace cuarray::lib::cublas {

struct Api {
  Blocking<decltype(&cublasCreate_v2)> create;
  Blocking<decltype(&cublasDestroy_v2)> destroy;
  decltype(&cublasSetStream_v2) set_stream;
  decltype(&cublasGetStream_v2) get_stream;
  decltype(&cublasSetPointerMode_v2) set_pointer_mode;
  decltype(&cublasGetStatusName) status_name;
  decltype(&cublasGetProperty) get_property;
  Blocking<decltype(&cublasGemmEx_64)> gemm;
  Blocking<decltype(&cublasGemmStridedBatchedEx_64)> gemm_strided_batched;
  Blocking<decltype(&cublasDotEx_64)> dot;
  Blocking<decltype(&cublasDotcEx_64)> dotc;
};

// The library's functions; loads it on the first call (throws CudaError if it cannot be loaded).
const Api& api();
// Note [Handed-out handles]
// The calling thread's cuBLAS and cuSOLVER handles are handed out (cuarray.cuda.get_cublas_handle(),
// Device.cusolver_handle) for programs to call the libraries with, as CuPy's are, and such a program binds the
// handle to its own stream (cublasSetStream). Remembering the stream a handle was last bound to would then be
// a stale key: the next op on the current stream would run on the program's stream instead, unordered with
// the current stream's work (its inputs read before they are written). So each use asks the handle for its
// stream (a getter, no device call) and binds the current stream where it differs, as CuPy binds it at each
// call.

// The calling thread's handle for the current device, bound to the current stream.
cublasHandle_t handle();
enum class ComputeType : int { Default = 1, Pedantic = 2, Fp16 = 3, Fp32 = 4, Fp64 = 5, Bf16 = 6, Tf32 = 7 };
// The compute type of GEMMs whose result has dtype t (Note [Compute types]); TypeError for dtypes other than
// float16, bfloat16, float32, float64, complex64 and complex128.
ComputeType compute_type(DType t);
// Sets it for t's precision; ValueError for a number that is not a ComputeType.
void set_compute_type(DType t, int type);
// Whether float32 GEMMs may use TF32 (Note [TF32]).
bool tf32();
// Throws CudaError naming `call` and the status unless `status` is CUBLAS_STATUS_SUCCESS.
void check(cublasStatus_t status, const char* call);
// The loaded library's version as major * 10000 + minor * 100 + patch (loads it).
int version();

}  // namespace cuarray::lib::cublas
