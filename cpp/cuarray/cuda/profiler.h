// Profiler annotations: NVTX ranges, and the switch of the CUDA profiler's collection.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace cuarray::cuda {

// Opens a nested NVTX range on the calling thread, named `message`, with the profiler's default colour or
// `argb` (0xAARRGGBB). Cheap and device-free: without a profiler attached NVTX loads nothing and returns.
void range_push(const std::string& message, std::optional<std::uint32_t> argb);
// Closes the calling thread's innermost NVTX range.
void range_pop();
// An instantaneous NVTX marker named `message`, with the default colour or `argb`.
void mark(const std::string& message, std::optional<std::uint32_t> argb);

// cudaProfilerStart / cudaProfilerStop: collection by an attached profiler (nsys --capture-range=cudaProfilerApi,
// ncu --profile-from-start off). Throw CudaError where there is no driver or device.
void profiler_start();
void profiler_stop();

}  // namespace cuarray::cuda
