// The DLPack exchange structures (DLPack 1.x ABI), declared from the DLPack specification
// (https://dmlc.github.io/dlpack/latest/c_api.html). Only what cuarray produces and consumes is declared;
// the layouts must match the specification exactly, since other libraries read and free them.
#pragma once

#include <cstdint>

extern "C" {

// DLDeviceType: the values cuarray meets. Others exist (OpenCL, ROCm, ...); they are refused on import.
enum : std::int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,  // pinned host memory
  kDLCUDAManaged = 13,
};

// DLDataTypeCode.
enum : std::uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
};

struct DLPackVersion {
  std::uint32_t major;
  std::uint32_t minor;
};

struct DLDevice {
  std::int32_t device_type;  // a DLDeviceType (a C enum: int-sized)
  std::int32_t device_id;
};

struct DLDataType {
  std::uint8_t code;    // a DLDataTypeCode
  std::uint8_t bits;    // bits of one lane: 8, 16, 32, 64 (complex64 is 64)
  std::uint16_t lanes;  // 1 for scalars
};

struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements, not bytes; NULL means C-contiguous (allowed before DLPack 1.2)
  std::uint64_t byte_offset;
};

// The legacy ("dltensor" capsule) form.
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

constexpr std::uint64_t kDLPackFlagReadOnly = 1u << 0;
constexpr std::uint64_t kDLPackFlagIsCopied = 1u << 1;

// The versioned ("dltensor_versioned" capsule) form.
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  std::uint64_t flags;
  DLTensor dl_tensor;
};

}  // extern "C"
