#include "cuarray/cuda/stream.h"

#include <algorithm>
#include <mutex>
#include <unordered_set>
#include <utility>
#include <vector>

#include "cuarray/blocking.h"
#include "cuarray/cuda/check.h"
#include "cuarray/cuda/deferred_checks.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/graph.h"
#include "cuarray/cuda/memory_pool.h"
#include "cuarray/error.h"

namespace cuarray::cuda {

namespace {

constexpr int kMaxDevices = 64;
thread_local std::shared_ptr<Stream> tls_stream[kMaxDevices];

// Every stream create() made, so that synchronize_device can wait for each of them interruptibly; and the serials
// of those not yet destroyed (Stream::alive).
struct Registry {
  std::mutex mutex;
  std::vector<std::weak_ptr<Stream>> streams;
  std::unordered_set<std::uint64_t> live;
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed, like the streams it may outlive
  return *r;
}

bool idle(cudaStream_t stream) {
  drain_launches();
  return check_ready(cudaStreamQuery(stream), "cudaStreamQuery");
}

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
  std::shared_ptr<Stream> stream(new Stream(handle, device, true, non_blocking));
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.streams.erase(std::remove_if(r.streams.begin(), r.streams.end(), [](auto& w) { return w.expired(); }),
                  r.streams.end());
  r.streams.push_back(stream);
  r.live.insert(stream->serial());
  return stream;
}

bool Stream::alive(std::uint64_t serial) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.live.count(serial) != 0;
}

const std::shared_ptr<Stream>& Stream::per_thread(int device) {
  check_device(device);
  thread_local std::shared_ptr<Stream> streams[kMaxDevices];
  auto& s = streams[device];
  if (!s) {
    DeviceGuard guard(device);
    s = create(false, 0);
  }
  return s;
}

std::shared_ptr<Stream> Stream::external(cudaStream_t handle, int device) {
  check_device(device);
  unsigned flags = 0;
  {
    DeviceGuard guard(device);
    CUARRAY_CHECK_CUDA(cudaStreamGetFlags(handle, &flags));
  }
  // Not in the registry: synchronize_device waits for it through cudaDeviceSynchronize, which needs no handle
  // that its owner may have destroyed by then.
  return std::shared_ptr<Stream>(new Stream(handle, device, false, (flags & cudaStreamNonBlocking) != 0));
}

Stream::Stream(cudaStream_t handle, int device, bool owned, bool non_blocking)
    : handle_(handle), device_(device), owned_(owned), non_blocking_(non_blocking) {
  static std::atomic<std::uint64_t> next{1};
  serial_ = next.fetch_add(1, std::memory_order_relaxed);
}

Stream::~Stream() {
  if (owned_) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.live.erase(serial_);
  }
  // The null streams live for the whole process; an external stream is its owner's to destroy.
  if (!handle_) return;
  MemoryPool::stream_destroyed(*this);
  forget_stream(handle_);
  if (owned_) cudaStreamDestroy(handle_);  // errors at exit are not worth reporting
}

int Stream::priority() const {
  int priority = 0;
  DeviceGuard guard(device_);
  CUARRAY_CHECK_CUDA(cudaStreamGetPriority(handle_, &priority));
  return priority;
}

namespace {

void CUDART_CB run_host_func(void* data) {
  std::unique_ptr<std::function<void()>> fn(static_cast<std::function<void()>*>(data));
  (*fn)();
}

void CUDART_CB run_kept_host_func(void* data) { (*static_cast<std::function<void()>*>(data))(); }

void CUDART_CB run_callback(cudaStream_t, cudaError_t status, void* data) {
  std::unique_ptr<std::function<void(cudaError_t)>> fn(static_cast<std::function<void(cudaError_t)>*>(data));
  (*fn)(status);
}

}  // namespace

bool Stream::launch_host_func(std::function<void()> fn) const {
  auto data = std::make_unique<std::function<void()>>(std::move(fn));
  DeviceGuard guard(device_);
  drain_launches();
  std::shared_ptr<Capture> recording = capture();  // Note [Captured host functions] in graph.h
  check_cuda(cudaLaunchHostFunc(handle_, recording ? run_kept_host_func : run_host_func, data.get()),
             "cudaLaunchHostFunc");
  if (recording)
    recording->keep_host_func(std::move(data));
  else
    data.release();  // run_host_func frees it
  return recording != nullptr;
}

void Stream::add_callback(std::function<void(cudaError_t)> fn) const {
  auto* data = new std::function<void(cudaError_t)>(std::move(fn));
  DeviceGuard guard(device_);
  drain_launches();
  cudaError_t status = cudaStreamAddCallback(handle_, run_callback, data, 0);
  if (status != cudaSuccess) {
    delete data;
    check_cuda(status, "cudaStreamAddCallback");
  }
}

void Stream::synchronize() const {
  check_not_capturing(*this, "Stream.synchronize");
  DeviceGuard guard(device_);
  wait(handle_);
  run_deferred_checks();
}

bool Stream::done() const {
  // As cudaStreamQuery does during a capture (CuPy's Stream.done then reads false): the capture is invalidated,
  // and ended here (Note [Failed captures] in graph.h).
  if (capturing() && invalidate_capture(*this, "Stream.done (a query of the capturing stream)")) return false;
  if (!handle_ && !end_implicit_captures(device_, "Stream.null.done").empty()) return false;
  DeviceGuard guard(device_);
  return idle(handle_);
}

std::shared_ptr<Capture> Stream::capture() const {
  std::lock_guard<std::mutex> lock(capture_mutex_);
  return capture_;
}

void Stream::set_capture(std::shared_ptr<Capture> capture) {
  std::lock_guard<std::mutex> lock(capture_mutex_);
  if (capture) invalidated_.clear();
  if (capture && !capture_) capture_began();
  if (!capture && capture_) capture_ended();
  capturing_.store(capture != nullptr, std::memory_order_release);
  capture_ = std::move(capture);
}

void Stream::set_invalidated(std::string reason) {
  std::lock_guard<std::mutex> lock(capture_mutex_);
  invalidated_ = std::move(reason);
}

std::string Stream::take_invalidated() {
  std::lock_guard<std::mutex> lock(capture_mutex_);
  return std::exchange(invalidated_, std::string());
}

const std::shared_ptr<Stream>& current_stream() {
  int device = current_device();
  // Another library in the process (JAX, PyTorch) may have switched the runtime's device behind this thread's
  // back; the work about to be queued must run on the device cuarray thinks is current. With one device
  // there is nothing to switch to, and the check (a driver call, about 60 ns) is skipped.
  int runtime = device;
  if (device_count() > 1 && cudaGetDevice(&runtime) == cudaSuccess && runtime != device) cudaSetDevice(device);
  return current_stream(device);
}

const std::shared_ptr<Stream>& current_stream(int device) {
  // Every queued operation asks for its stream: in a child forked after CUDA started, this is where it stops
  // (note_forked_child in device.h).
  if (forked_after_cuda()) check_cuda(cudaErrorInitializationError, "cuInit");
  auto& s = tls_stream[device];
  if (!s) s = Stream::null(device);
  return s;
}

void set_current_stream(const std::shared_ptr<Stream>& stream) { tls_stream[stream->device()] = stream; }

void wait(cudaStream_t stream) {
  check_launches();
  wait_until([stream] { return idle(stream); });
}

void finish_readback(cudaStream_t stream) {
  check_launches();
  run_blocking([stream] { CUARRAY_CHECK_CUDA(cudaStreamSynchronize(stream)); });
}

void synchronize_device(int id) {
  check_device_not_capturing(id, "Device.synchronize");
  wait_for_device(id);
  run_deferred_checks();
}

void wait_for_device(int id) {
  check_launches();
  DeviceGuard guard(id);
  std::vector<std::shared_ptr<Stream>> streams;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (auto& w : r.streams)
      if (auto s = w.lock(); s && s->device() == id) streams.push_back(std::move(s));
  }
  wait(nullptr);
  for (auto& s : streams) wait(s->handle());
  run_blocking([] { CUARRAY_CHECK_CUDA(cudaDeviceSynchronize()); });
}

}  // namespace cuarray::cuda
