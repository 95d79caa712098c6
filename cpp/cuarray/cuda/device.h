// CUDA devices: discovery, the calling thread's current device, properties and versions.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

namespace cuarray::cuda {

// False where there is no driver or no device; never throws.
bool is_available();

// Called in the child of a fork. If CUDA had started in the parent (here, or where the caller says so: Note
// [Starting CUDA early] in python/cuarray/_cuda_start.py), CUDA cannot work in the child: device_count and
// current_stream then raise, before any CUDA call, an error that says why and what to do instead.
void note_forked_child(bool started_in_parent);

// Number of devices; throws CudaError ("no CUDA driver or device was found") where there is none.
int device_count();

// The calling thread's current device (0 until set). Cheap: read from a thread-local.
int current_device();
// Makes `id` current for the calling thread; throws CudaError naming an invalid ordinal.
void set_device(int id);
// Makes `id`, a device this thread used before, current again without checks (for destructors).
void restore_device(int id) noexcept;
// Throws CudaError unless 0 <= id < device_count().
void check_device(int id);

const cudaDeviceProp& properties(int id);
int compute_capability(int id);  // 90 for sm_90
std::pair<std::size_t, std::size_t> mem_info(int id);  // (free, total) bytes
int driver_version();
int runtime_version();

// Restores the calling thread's current device on scope exit.
class DeviceGuard {
 public:
  explicit DeviceGuard(int id) : previous_(current_device()) {
    if (id != previous_) set_device(id);
  }
  ~DeviceGuard() {
    if (current_device() != previous_) restore_device(previous_);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_;
};

}  // namespace cuarray::cuda
