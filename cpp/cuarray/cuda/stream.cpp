#include "cuarray/cuda/stream.h"

#include <mutex>
#include <vector>

#include "cuarray/cuda/device.h"
#include "cuarray/cuda/graph.h"
#include "cuarray/error.h"

namespace cuarray::cuda {

namespace {

constexpr int kMaxDevices = 64;
thread_local std::shared_ptr<Stream> tls_stream[kMaxDevices];

}  // namespace

const std::shared_ptr<Stream>& Stream::null(int device) {
  static std::once_flag once;
  static std::vector<std::shared_ptr<Stream>> streams;
  std::call_once(once, [] {
    int n = device_count();
    for (int d = 0; d < n; ++d) streams.emplace_back(new Stream(nullptr, d, false, false));
  });
  check_device(device);
  return streams[device];
}

std::shared_ptr<Stream> Stream::create(bool non_blocking, int priority) {
  int device = current_device();
  check_device(device);
  unsigned flags = non_blocking ? cudaStreamNonBlocking : cudaStreamDefault;
  cudaStream_t handle = nullptr;
  CUARRAY_CHECK_CUDA(cudaStreamCreateWithPriority(&handle, flags, priority));
  return std::shared_ptr<Stream>(new Stream(handle, device, true, non_blocking));
}

Stream::~Stream() {
  if (owned_ && handle_) cudaStreamDestroy(handle_);  // errors at exit are not worth reporting
}

void Stream::synchronize() const {
  check_not_capturing(*this, "Stream.synchronize");
  DeviceGuard guard(device_);
  CUARRAY_CHECK_CUDA(cudaStreamSynchronize(handle_));
}

bool Stream::done() const {
  check_not_capturing(*this, "Stream.done");
  DeviceGuard guard(device_);
  cudaError_t status = cudaStreamQuery(handle_);
  if (status == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  check_cuda(status, "cudaStreamQuery");
  return true;
}

std::shared_ptr<Capture> Stream::capture() const {
  std::lock_guard<std::mutex> lock(capture_mutex_);
  return capture_;
}

void Stream::set_capture(std::shared_ptr<Capture> capture) {
  std::lock_guard<std::mutex> lock(capture_mutex_);
  capturing_.store(capture != nullptr, std::memory_order_release);
  capture_ = std::move(capture);
}

const std::shared_ptr<Stream>& current_stream() { return current_stream(current_device()); }

const std::shared_ptr<Stream>& current_stream(int device) {
  auto& s = tls_stream[device];
  if (!s) s = Stream::null(device);
  return s;
}

void set_current_stream(const std::shared_ptr<Stream>& stream) { tls_stream[stream->device()] = stream; }

}  // namespace cuarray::cuda
