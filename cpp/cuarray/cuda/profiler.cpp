#include "cuarray/cuda/profiler.h"

#include <cuda_profiler_api.h>
// Header-only NVTX3: its first call looks for a profiler's injection library (NVTX_INJECTION64_PATH, set by
// nsys and ncu) and, where there is none, turns every later call into an immediate return.
#include <nvtx3/nvToolsExt.h>

#include "cuarray/cuda/check.h"
#include "cuarray/error.h"

namespace cuarray::cuda {

void range_push(const std::string& message) {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = message.c_str();
  nvtxRangePushEx(&attributes);
}

void range_push(const std::string& message, std::uint32_t argb) {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.colorType = NVTX_COLOR_ARGB;
  attributes.color = argb;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = message.c_str();
  nvtxRangePushEx(&attributes);
}

void range_pop() { nvtxRangePop(); }

void profiler_start() { CUARRAY_CHECK_CUDA(cudaProfilerStart()); }

void profiler_stop() { CUARRAY_CHECK_CUDA(cudaProfilerStop()); }

}  // namespace cuarray::cuda
