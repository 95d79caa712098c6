#include "cuarray/cuda/profiler.h"

#include <cuda_profiler_api.h>
// Header-only NVTX3: its first call looks for a profiler's injection library (NVTX_INJECTION64_PATH, set by
// nsys and ncu) and, where there is none, turns every later call into an immediate return.
#include <nvtx3/nvToolsExt.h>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/device.h"
#include "cuarray/error.h"

namespace cuarray::cuda {

namespace {

nvtxEventAttributes_t attributes_of(const std::string& message, std::optional<std::uint32_t> argb) {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  if (argb) {
    attributes.colorType = NVTX_COLOR_ARGB;
    attributes.color = *argb;
  }
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = message.c_str();
  return attributes;
}

}  // namespace

void range_push(const std::string& message, std::optional<std::uint32_t> argb) {
  nvtxEventAttributes_t attributes = attributes_of(message, argb);
  nvtxRangePushEx(&attributes);
}

void mark(const std::string& message, std::optional<std::uint32_t> argb) {
  nvtxEventAttributes_t attributes = attributes_of(message, argb);
  nvtxMarkEx(&attributes);
}

void range_pop() { nvtxRangePop(); }

// device_count() first: without a driver or device, the same CudaError every device call raises.
void profiler_start() {
  device_count();
  CUARRAY_CHECK_CUDA(cudaProfilerStart());
}

void profiler_stop() {
  device_count();
  CUARRAY_CHECK_CUDA(cudaProfilerStop());
}

}  // namespace cuarray::cuda
