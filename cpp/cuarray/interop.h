// Zero-copy exchange of device arrays with other libraries: DLPack tensors out and in, and views of
// device memory that another library owns (__cuda_array_interface__).
//
// Note [Interop stream hand-off]
// Both protocols name streams by integers: 1 is the legacy default stream, 2 the per-thread default stream,
// any other positive value a cudaStream_t; 0 is forbidden as ambiguous. DLPack's producer receives the
// consumer's stream and makes it wait for the producer's work (-1: the consumer asks for no ordering);
// __cuda_array_interface__ v3 publishes the producer's stream and the consumer makes its own stream wait on
// it (None: no ordering needed). cuarray's side is always the current stream of the array's device. The
// waits go through an event (cuda::stream_wait_stream), so neither side blocks the host, except where an
// interface is imported: there the host waits for the producer's stream, as CuPy does by default
// (CUPY_CUDA_ARRAY_INTERFACE_SYNC). An event wait would order only the stream current at the import, and a
// program that then reads the array on another stream (CuPy's synchronization makes that safe) would read
// what the producer had not yet written. The variable set to 0 keeps the event wait.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "cuarray/array.h"
#include "cuarray/dlpack.h"

namespace cuarray::interop {

// DType <-> DLPack's DLDataType; TypeError naming a type cuarray lacks (vector lanes, float8, ...).
DLDataType to_dlpack_dtype(DType t);
DType from_dlpack_dtype(DLDataType t);

// A view (`shape`, byte strides, `dtype`) of memory at `data` on `device` that another owner holds: `release`
// runs when the last view dies, and never if this throws. Makes no CUDA call.
Array external_view(char* data, Shape shape, Strides byte_strides, DType dtype, int device,
                    std::function<void()> release, int void_itemsize = 0);

// Note [Managed memory in DLPack]
// Managed memory (cudaMallocManaged, cuarray.cuda.malloc_managed) is exported as DLPack's kDLCUDAManaged, as
// CuPy exports it: a consumer may then read it from the host too, and an export to the CPU without a copy is
// allowed (the Python side synchronizes first). The memory's type is asked of the driver at each export (one
// cudaPointerGetAttributes); an import of kDLCUDAManaged takes the device from the driver too, since producers may
// name device 0 for memory every device reads.

// DLPack's device type for `a`'s memory: kDLCUDAManaged for managed memory, else kDLCUDA.
int dlpack_device_type(const Array& a);

// DLPack export of `a`, whose manager context keeps a's buffer alive; the consumer frees it with the
// deleter. BufferError for byte strides that are not a multiple of the itemsize.
DLManagedTensor* to_dlpack(const Array& a);
DLManagedTensorVersioned* to_dlpack_versioned(const Array& a, bool copied);

// Makes the consumer's stream (a protocol integer, Note [Interop stream hand-off]) wait for the work queued
// on the current stream of `device`; -1 orders nothing. ValueError for 0.
void hand_off(int device, std::int64_t consumer_stream);

// A view of a DLPack tensor on a CUDA device; `release` (the producer's deleter) runs when the last view
// dies and never runs if this throws. BufferError for host or other devices, TypeError for unsupported types.
Array from_dlpack(const DLTensor& t, std::function<void()> release);

// A view of device memory another library owns (__cuda_array_interface__); no `byte_strides` means
// C-contiguous; `void_itemsize` is a Void dtype's itemsize (Note [Void storage]).
// C-contiguous. The device is the one that owns `data` (the current device for an empty array). When
// `producer_stream` is given, the host (`wait_on_host`) or else the current stream of that device waits for it
// first (Note [Interop stream hand-off]). Pinned host memory mapped at the same address is read in place, on the
// current device, as CuPy does; TypeError for other host memory.
Array from_device_pointer(std::uintptr_t data, Shape shape, std::optional<Strides> byte_strides, DType dtype,
                          std::optional<std::int64_t> producer_stream, bool wait_on_host, std::function<void()> release,
                          int void_itemsize = 0);

}  // namespace cuarray::interop
