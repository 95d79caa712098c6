// Device.attributes: every cudaDeviceAttr the device reports, named as CuPy names them.
//
// Note [Device attribute table]
// CuPy's Device.attributes maps each cudaDevAttr* name its runtime module knows, less that prefix, to the
// device's value, and leaves out the attributes the driver refuses (cudaErrorInvalidValue; cuarray also leaves out
// those it reports as not supported). The table holds the enumerators' numbers rather than their names, so that it
// compiles against toolkits that lack some of them: a driver that does not know one refuses it, and it is left out the
// same way. CuPy's names are CUDA 12's, and it asks for 92 to 94 too (Reserved92 ...): the table has them all, so
// that every key of CuPy's dict is one of cuarray's. Where CUDA 13 renamed an attribute, it has CuPy's name (96,
// CooperativeMultiDeviceLaunch, reserved in CUDA 13) or both (114, MaxTimelineSemaphoreInteropSupported).
#include <cuda_runtime_api.h>

#include <string>
#include <utility>
#include <vector>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/runtime_calls.h"
#include "cuarray/error.h"

namespace cuarray::cuda {

namespace {

struct Attribute {
  const char* name;
  int value;
};

// cudaDeviceAttr in driver_types.h (CUDA 13.0), and CuPy's names (Note [Device attribute table]).
constexpr Attribute kAttributes[] = {
    {"MaxThreadsPerBlock", 1},
    {"MaxBlockDimX", 2},
    {"MaxBlockDimY", 3},
    {"MaxBlockDimZ", 4},
    {"MaxGridDimX", 5},
    {"MaxGridDimY", 6},
    {"MaxGridDimZ", 7},
    {"MaxSharedMemoryPerBlock", 8},
    {"TotalConstantMemory", 9},
    {"WarpSize", 10},
    {"MaxPitch", 11},
    {"MaxRegistersPerBlock", 12},
    {"ClockRate", 13},
    {"TextureAlignment", 14},
    {"GpuOverlap", 15},
    {"MultiProcessorCount", 16},
    {"KernelExecTimeout", 17},
    {"Integrated", 18},
    {"CanMapHostMemory", 19},
    {"ComputeMode", 20},
    {"MaxTexture1DWidth", 21},
    {"MaxTexture2DWidth", 22},
    {"MaxTexture2DHeight", 23},
    {"MaxTexture3DWidth", 24},
    {"MaxTexture3DHeight", 25},
    {"MaxTexture3DDepth", 26},
    {"MaxTexture2DLayeredWidth", 27},
    {"MaxTexture2DLayeredHeight", 28},
    {"MaxTexture2DLayeredLayers", 29},
    {"SurfaceAlignment", 30},
    {"ConcurrentKernels", 31},
    {"EccEnabled", 32},
    {"PciBusId", 33},
    {"PciDeviceId", 34},
    {"TccDriver", 35},
    {"MemoryClockRate", 36},
    {"GlobalMemoryBusWidth", 37},
    {"L2CacheSize", 38},
    {"MaxThreadsPerMultiProcessor", 39},
    {"AsyncEngineCount", 40},
    {"UnifiedAddressing", 41},
    {"MaxTexture1DLayeredWidth", 42},
    {"MaxTexture1DLayeredLayers", 43},
    {"MaxTexture2DGatherWidth", 45},
    {"MaxTexture2DGatherHeight", 46},
    {"MaxTexture3DWidthAlt", 47},
    {"MaxTexture3DHeightAlt", 48},
    {"MaxTexture3DDepthAlt", 49},
    {"PciDomainId", 50},
    {"TexturePitchAlignment", 51},
    {"MaxTextureCubemapWidth", 52},
    {"MaxTextureCubemapLayeredWidth", 53},
    {"MaxTextureCubemapLayeredLayers", 54},
    {"MaxSurface1DWidth", 55},
    {"MaxSurface2DWidth", 56},
    {"MaxSurface2DHeight", 57},
    {"MaxSurface3DWidth", 58},
    {"MaxSurface3DHeight", 59},
    {"MaxSurface3DDepth", 60},
    {"MaxSurface1DLayeredWidth", 61},
    {"MaxSurface1DLayeredLayers", 62},
    {"MaxSurface2DLayeredWidth", 63},
    {"MaxSurface2DLayeredHeight", 64},
    {"MaxSurface2DLayeredLayers", 65},
    {"MaxSurfaceCubemapWidth", 66},
    {"MaxSurfaceCubemapLayeredWidth", 67},
    {"MaxSurfaceCubemapLayeredLayers", 68},
    {"MaxTexture1DLinearWidth", 69},
    {"MaxTexture2DLinearWidth", 70},
    {"MaxTexture2DLinearHeight", 71},
    {"MaxTexture2DLinearPitch", 72},
    {"MaxTexture2DMipmappedWidth", 73},
    {"MaxTexture2DMipmappedHeight", 74},
    {"ComputeCapabilityMajor", 75},
    {"ComputeCapabilityMinor", 76},
    {"MaxTexture1DMipmappedWidth", 77},
    {"StreamPrioritiesSupported", 78},
    {"GlobalL1CacheSupported", 79},
    {"LocalL1CacheSupported", 80},
    {"MaxSharedMemoryPerMultiprocessor", 81},
    {"MaxRegistersPerMultiprocessor", 82},
    {"ManagedMemory", 83},
    {"IsMultiGpuBoard", 84},
    {"MultiGpuBoardGroupID", 85},
    {"HostNativeAtomicSupported", 86},
    {"SingleToDoublePrecisionPerfRatio", 87},
    {"PageableMemoryAccess", 88},
    {"ConcurrentManagedAccess", 89},
    {"ComputePreemptionSupported", 90},
    {"CanUseHostPointerForRegisteredMem", 91},
    {"Reserved92", 92},
    {"Reserved93", 93},
    {"Reserved94", 94},
    {"CooperativeLaunch", 95},
    {"CooperativeMultiDeviceLaunch", 96},
    {"MaxSharedMemoryPerBlockOptin", 97},
    {"CanFlushRemoteWrites", 98},
    {"HostRegisterSupported", 99},
    {"PageableMemoryAccessUsesHostPageTables", 100},
    {"DirectManagedMemAccessFromHost", 101},
    {"MaxBlocksPerMultiprocessor", 106},
    {"MaxPersistingL2CacheSize", 108},
    {"MaxAccessPolicyWindowSize", 109},
    {"ReservedSharedMemoryPerBlock", 111},
    {"SparseCudaArraySupported", 112},
    {"HostRegisterReadOnlySupported", 113},
    {"TimelineSemaphoreInteropSupported", 114},
    {"MaxTimelineSemaphoreInteropSupported", 114},
    {"MemoryPoolsSupported", 115},
    {"GPUDirectRDMASupported", 116},
    {"GPUDirectRDMAFlushWritesOptions", 117},
    {"GPUDirectRDMAWritesOrdering", 118},
    {"MemoryPoolSupportedHandleTypes", 119},
    {"ClusterLaunch", 120},
    {"DeferredMappingCudaArraySupported", 121},
    {"IpcEventSupport", 125},
    {"MemSyncDomainCount", 126},
    {"NumaConfig", 130},
    {"NumaId", 131},
    {"MpsEnabled", 133},
    {"HostNumaId", 134},
    {"D3D12CigSupported", 135},
    {"VulkanCigSupported", 138},
    {"GpuPciDeviceId", 139},
    {"GpuPciSubsystemId", 140},
    {"HostNumaMemoryPoolsSupported", 142},
    {"HostNumaMultinodeIpcSupported", 143},
    {"HostMemoryPoolsSupported", 144},
    {"OnlyPartialHostNativeAtomicSupported", 147},
};

}  // namespace

std::vector<std::pair<std::string, int>> device_attributes(int id) {
  check_device(id);
  std::vector<std::pair<std::string, int>> values;
  for (const Attribute& a : kAttributes) {
    int v = 0;
    cudaError_t status = cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(a.value), id);
    if (status == cudaErrorInvalidValue || status == cudaErrorNotSupported) {
      cudaGetLastError();  // not an attribute this driver or device reports
      continue;
    }
    check_cuda(status, "cudaDeviceGetAttribute");
    values.emplace_back(a.name, v);
  }
  return values;
}

int device_attribute(int attr, int device) {
  check_device(device);
  int v = 0;
  CUARRAY_CHECK_CUDA(cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(attr), device));
  return v;
}

int device_can_access_peer(int device, int peer) {
  check_device(device);
  check_device(peer);
  int v = 0;
  CUARRAY_CHECK_CUDA(cudaDeviceCanAccessPeer(&v, device, peer));
  return v;
}

const std::vector<std::pair<std::string, int>>& device_attribute_numbers() {
  static const std::vector<std::pair<std::string, int>> numbers = [] {
    std::vector<std::pair<std::string, int>> v;
    for (const Attribute& a : kAttributes) v.emplace_back(a.name, a.value);
    return v;
  }();
  return numbers;
}

std::string pci_bus_id(int id) {
  check_device(id);
  char buffer[32] = {};  // "dddd:bb:dd.f" and a terminator, with room to spare
  CUARRAY_CHECK_CUDA(cudaDeviceGetPCIBusId(buffer, sizeof buffer, id));
  return buffer;
}

int device_by_pci_bus_id(const std::string& bus_id) {
  device_count();
  int id = -1;
  CUARRAY_CHECK_CUDA(cudaDeviceGetByPCIBusId(&id, bus_id.c_str()));
  return id;
}

}  // namespace cuarray::cuda
