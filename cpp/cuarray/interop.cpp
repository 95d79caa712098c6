#include "cuarray/interop.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/event.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"

namespace cuarray::interop {

namespace {

// "uint32", "float8 (DLPack type code 8)", "int32 with 4 lanes" ...
std::string dlpack_type_name(DLDataType t) {
  static const char* const names[] = {"int", "uint", "float", "opaque handle ", "bfloat", "complex", "bool"};
  std::string bits = std::to_string(t.bits);
  std::string s = t.code < 7     ? names[t.code] + bits
                  : t.code <= 17 ? "float" + bits + " (DLPack type code " + std::to_string(t.code) + ")"
                                 : "DLPack type code " + std::to_string(t.code) + " of " + bits + " bits";
  if (t.lanes != 1) s += " with " + std::to_string(t.lanes) + " lanes";
  return s;
}

// What one DLPack export owns: the managed tensor handed out, and the buffer, shape and strides it points to.
template <class Managed>
struct Export {
  Managed managed{};
  std::shared_ptr<cuda::Buffer> buffer;
  std::vector<std::int64_t> shape, strides;
};

template <class Managed>
void delete_export(Managed* self) {
  delete static_cast<Export<Managed>*>(self->manager_ctx);
}

template <class Managed>
Managed* make_export(const Array& a) {
  auto e = std::make_unique<Export<Managed>>();
  e->buffer = a.buffer();
  e->shape = a.shape();
  const int item = a.itemsize();
  for (int i = 0; i < a.ndim(); ++i) {
    std::int64_t s = a.strides()[i];
    // A stride along an axis of length 0 or 1 is never used; any value will do there.
    if (s % item != 0 && a.shape()[i] > 1)
      throw BufferError("DLPack strides count elements, but axis " + std::to_string(i) + " of this " + name(a.dtype()) +
                        " array steps " + std::to_string(s) + " bytes, which is not a multiple of its itemsize " +
                        std::to_string(item) + "; export a copy (x.copy())");
    e->strides.push_back(s / item);
  }
  DLTensor& t = e->managed.dl_tensor;
  t.data = a.data();
  t.device = DLDevice{dlpack_device_type(a), a.device()};
  t.ndim = a.ndim();
  t.dtype = to_dlpack_dtype(a.dtype());
  t.shape = e->shape.data();
  t.strides = e->strides.data();
  t.byte_offset = 0;
  e->managed.manager_ctx = e.get();
  e->managed.deleter = &delete_export<Managed>;
  return &e.release()->managed;
}

cudaStream_t protocol_stream(std::int64_t v) {
  if (v == 1) return cudaStreamLegacy;
  if (v == 2) return cudaStreamPerThread;
  if (v <= 0)
    throw ValueError("stream " + std::to_string(v) +
                     " is not allowed: pass 1 for the legacy default stream, 2 for the per-thread default stream, "
                     "or a cudaStream_t handle (0 is ambiguous)");
  return reinterpret_cast<cudaStream_t>(static_cast<std::uintptr_t>(v));
}

// The device that owns `p`, or the current device for pinned host memory that devices read at the same address
// (as CuPy takes it); TypeError for other host memory.
int pointer_device(const void* p) {
  cuda::device_count();  // a clear error where there is no driver or device
  cudaPointerAttributes attr{};
  CUARRAY_CHECK_CUDA(cudaPointerGetAttributes(&attr, p));
  if (attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged) return attr.device;
  if (attr.type == cudaMemoryTypeHost && attr.devicePointer == p) return cuda::current_device();
  char address[32];
  std::snprintf(address, sizeof address, "%p", p);
  throw TypeError(std::string("the data pointer ") + address +
                  " is host memory, not device memory; copy host data with cuarray.asarray(numpy.asarray(x))");
}

}  // namespace

DLDataType to_dlpack_dtype(DType t) {
  const auto bits = static_cast<std::uint8_t>(itemsize(t) * 8);
  switch (kind(t)) {
    case Kind::Bool:
      return DLDataType{kDLBool, 8, 1};
    case Kind::Signed:
      return DLDataType{kDLInt, bits, 1};
    case Kind::Unsigned:
      return DLDataType{kDLUInt, bits, 1};
    case Kind::Complex:
      return DLDataType{kDLComplex, bits, 1};
    case Kind::Float:
      return DLDataType{t == DType::BFloat16 ? kDLBfloat : kDLFloat, bits, 1};
    case Kind::Datetime:
    case Kind::Timedelta:  // DLPack has no time types; NumPy's and CuPy's exporters raise BufferError too
      throw BufferError(std::string("DLPack has no type for ") + name(t) +
                        " (only bool, integer, float and complex types); exchange the counts with "
                        ".view(numpy.int64) or use __cuda_array_interface__");
    case Kind::Void:  // NumPy's exporter raises BufferError for structured types too
      throw BufferError(std::string("DLPack has no type for ") + name(t) +
                        " (structured or unstructured) data (only bool, integer, float and complex types); export a "
                        "field (x['name']) or use __cuda_array_interface__");
  }
  throw TypeError("no DLPack type for " + std::string(name(t)));
}

DType from_dlpack_dtype(DLDataType t) {
  if (t.lanes == 1) {
    switch (t.code) {
      case kDLBool:
        if (t.bits == 8) return DType::Bool;
        break;
      case kDLInt:
      case kDLUInt: {
        const bool u = t.code == kDLUInt;
        if (t.bits == 8) return u ? DType::UInt8 : DType::Int8;
        if (t.bits == 16) return u ? DType::UInt16 : DType::Int16;
        if (t.bits == 32) return u ? DType::UInt32 : DType::Int32;
        if (t.bits == 64) return u ? DType::UInt64 : DType::Int64;
        break;
      }
      case kDLFloat:
        if (t.bits == 16) return DType::Float16;
        if (t.bits == 32) return DType::Float32;
        if (t.bits == 64) return DType::Float64;
        break;
      case kDLBfloat:
        if (t.bits == 16) return DType::BFloat16;
        break;
      case kDLComplex:
        if (t.bits == 64) return DType::Complex64;
        if (t.bits == 128) return DType::Complex128;
        break;
      default:
        break;
    }
  }
  throw TypeError("cuarray does not support the DLPack data type " + dlpack_type_name(t) +
                  " (supported: bool, int8-64, uint8-64, float16, bfloat16, float32, float64, complex64, complex128)");
}

// The Buffer spans the bytes the view can reach (negative strides included), so its pointer is the lowest
// address and its size the extent, as for pool memory.
Array external_view(char* data, Shape shape, Strides strides, DType dtype, int device, std::function<void()> release,
                    int void_itemsize) {
  cuda::share_with_other_code();
  std::int64_t lo = 0, hi = 0;
  if (size_of(shape) > 0) {
    hi = is_void(dtype) ? void_itemsize : itemsize(dtype);
    for (std::size_t i = 0; i < shape.size(); ++i) {
      std::int64_t span = (shape[i] - 1) * strides[i];
      (span < 0 ? lo : hi) += span;
    }
  }
  auto buffer =
      std::make_shared<cuda::Buffer>(data + lo, static_cast<std::size_t>(hi - lo), device, std::move(release));
  Array out(std::move(buffer), -lo, std::move(shape), std::move(strides), dtype);
  return is_void(dtype) ? out.view_void(void_itemsize, 0) : out;
}

int dlpack_device_type(const Array& a) {
  if (a.data() == nullptr) return kDLCUDA;
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, a.data()) != cudaSuccess) {
    cudaGetLastError();
    return kDLCUDA;
  }
  return attr.type == cudaMemoryTypeManaged ? kDLCUDAManaged : kDLCUDA;
}

DLManagedTensor* to_dlpack(const Array& a) { return make_export<DLManagedTensor>(a); }

DLManagedTensorVersioned* to_dlpack_versioned(const Array& a, bool copied) {
  DLManagedTensorVersioned* m = make_export<DLManagedTensorVersioned>(a);
  m->version = DLPackVersion{1, 0};
  m->flags = copied ? kDLPackFlagIsCopied : 0;
  return m;
}

void hand_off(int device, std::int64_t consumer_stream) {
  cuda::share_with_other_code();
  if (consumer_stream == -1) return;
  cudaStream_t consumer = protocol_stream(consumer_stream);
  cuda::DeviceGuard guard(device);
  cuda::stream_wait_stream(consumer, cuda::current_stream(device)->handle());
}

Array from_dlpack(const DLTensor& t, std::function<void()> release) {
  const std::int32_t type = t.device.device_type;
  if (type == kDLCPU || type == kDLCUDAHost)
    throw BufferError("the DLPack tensor is in host memory (DLPack device type " + std::to_string(type) +
                      "); cuarray.from_dlpack takes device memory: copy host data with "
                      "cuarray.asarray(numpy.from_dlpack(x))");
  if (type != kDLCUDA && type != kDLCUDAManaged)
    throw BufferError("cuarray imports DLPack tensors on CUDA devices (device type 2 or 13), not device type " +
                      std::to_string(type));
  DType dtype = from_dlpack_dtype(t.dtype);
  if (t.ndim < 0 || (t.ndim > 0 && !t.shape))
    throw BufferError("malformed DLPack tensor: ndim " + std::to_string(t.ndim) + " without a shape");
  Shape shape(t.shape, t.shape + t.ndim);
  checked_size(shape, itemsize(dtype));
  Strides strides = c_strides(shape, itemsize(dtype));
  if (t.strides)
    for (int i = 0; i < t.ndim; ++i) strides[i] = t.strides[i] * itemsize(dtype);
  char* data = static_cast<char*>(t.data) + t.byte_offset;
  int device = t.device.device_id;
  if (type == kDLCUDAManaged && size_of(shape) > 0) device = pointer_device(data);  // Note [Managed memory in DLPack]
  cuda::check_device(device);
  return external_view(data, std::move(shape), std::move(strides), dtype, device, std::move(release));
}

Array from_device_pointer(std::uintptr_t data, Shape shape, std::optional<Strides> byte_strides, DType dtype,
                          std::optional<std::int64_t> producer_stream, bool wait_on_host, std::function<void()> release,
                          int void_itemsize) {
  const int item = is_void(dtype) ? void_itemsize : itemsize(dtype);
  if (item <= 0) throw TypeError("cuarray does not support void types of itemsize 0");
  checked_size(shape, item);
  if (byte_strides && byte_strides->size() != shape.size())
    throw ValueError("strides " + shape_str(*byte_strides) + " do not match shape " + shape_str(shape));
  Strides strides = byte_strides ? *byte_strides : c_strides(shape, item);
  char* ptr = reinterpret_cast<char*>(data);
  if (size_of(shape) == 0)  // nothing to read: the pointer may be null or dangling
    return external_view(ptr, std::move(shape), std::move(strides), dtype, cuda::current_device(), std::move(release),
                         void_itemsize);
  int device = pointer_device(ptr);
  if (producer_stream) {  // Note [Interop stream hand-off]
    cudaStream_t producer = protocol_stream(*producer_stream);
    cuda::DeviceGuard guard(device);
    const std::shared_ptr<cuda::Stream>& current = cuda::current_stream(device);
    // Also for the current stream itself, as CuPy does: the program may read the array on another stream next.
    // A capture on either stream forbids the host's query (which would invalidate it): the event wait then.
    auto producer_capturing = [producer] {
      cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
      if (cudaStreamIsCapturing(producer, &status) != cudaSuccess) cudaGetLastError();
      return status != cudaStreamCaptureStatusNone;
    };
    if (wait_on_host && !current->capturing() && !producer_capturing())
      cuda::wait(producer);
    else
      cuda::stream_wait_stream(current->handle(), producer);
  }
  return external_view(ptr, std::move(shape), std::move(strides), dtype, device, std::move(release), void_itemsize);
}

}  // namespace cuarray::interop
