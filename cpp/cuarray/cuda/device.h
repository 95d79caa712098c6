// CUDA devices: discovery, the calling thread's current device, properties and versions.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace cuarray::cuda {

// False where there is no driver or no device; never throws.
bool is_available();

// Note [Starting CUDA on first use]
// Importing cuarray touches no GPU: no cuInit, no context, no thread, no device or pinned memory. Libraries are
// imported by processes that never use them on the GPU (Dask schedulers and workers, notebooks, test runners),
// and a process that has started CUDA cannot fork a child that uses the GPU. CUDA starts on the first call
// that needs a device, in probe() (the device count, which every such call asks first). Work that does not
// need the driver begins there too, on a thread of its own while the calling thread creates the context:
// set_first_use_hook's hook, which warms NVRTC (Note [Warming NVRTC] in cpp/cuarray/jit/nvrtc.h). The price:
// the first call waits for cuInit and the context's creation, which take about as long as NumPy's import and
// which a thread begun at import could hide behind it.
//
// Sets the function probe() calls once, after cuInit, where there is a device.
void set_first_use_hook(void (*hook)());

// Before a fork: notes whether CUDA has started in this process, by cuarray or any other library. In the
// child (note_forked_child), CUDA then cannot work: device_count and current_stream raise, before any CUDA
// call, an error that says why and what to do instead. A child forked before CUDA started uses the GPU freely.
void prepare_fork();
void note_forked_child();

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
int compute_capability(int id);                        // 90 for sm_90
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

// Every cudaDeviceAttr device `id` reports, by CuPy's name for it (Note [Device attribute table] in
// device_attributes.cpp).
std::vector<std::pair<std::string, int>> device_attributes(int id);
// The device's PCI bus id ("0000:3b:00.0"), and the device of a bus id (cudaDeviceGetByPCIBusId's forms).
std::string pci_bus_id(int id);
int device_by_pci_bus_id(const std::string& bus_id);

}  // namespace cuarray::cuda
