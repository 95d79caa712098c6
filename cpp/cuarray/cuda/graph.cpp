#include "cuarray/cuda/graph.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <utility>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/event.h"
#include "cuarray/cuda/memory_pool.h"
#include "cuarray/error.h"

namespace cuarray::cuda {

namespace {

constexpr int kMaxDevices = 64;

// The streams capturing on each device, for the operations that wait for a whole device.
std::mutex registry_mutex;
std::vector<std::shared_ptr<Stream>> registry[kMaxDevices];

std::string stream_name(const Stream& stream) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%#llx",
                static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(stream.handle())));
  return std::string("stream ") + buf;
}

// The capture on `stream` is over (ended or discarded): the stream allocates and frees as usual again.
void stop(const std::shared_ptr<Stream>& stream) {
  std::shared_ptr<Capture> capture = stream->capture();
  stream->set_capture(nullptr);
  {
    std::lock_guard<std::mutex> lock(registry_mutex);
    auto& streams = registry[stream->device()];
    streams.erase(std::remove(streams.begin(), streams.end(), stream), streams.end());
  }
  MemoryPool& pool = MemoryPool::of(stream->device());
  pool.capture_ended(*stream);
  if (!capture) return;
  // CUDA has taken the joined streams out of the capture with the origin (Note [Joined streams]).
  for (const auto& joined : capture->take_joined()) {
    if (joined->capture() != capture) continue;
    joined->set_capture(nullptr);
    pool.capture_ended(*joined);
  }
}

[[noreturn]] void refuse(const std::vector<std::shared_ptr<Stream>>& streams, std::string_view operation) {
  bool ended = true;
  for (const auto& s : streams)
    ended = discard_capture(s, std::string(operation) + ", which cannot be captured,") && ended;
  throw CudaError(std::string(operation), cudaErrorStreamCaptureUnsupported,
                  std::string(operation) + " cannot run while " + stream_name(*streams.front()) +
                      " is capturing a CUDA graph (cudaErrorStreamCaptureUnsupported): it waits for the device or "
                      "uses host memory, which a graph cannot record. " +
                      (ended ? "The capture was ended and the work captured so far discarded."
                             : "End the capture with Stream.end_capture() on the thread that began it."));
}

// The capturing blocking streams of `device`: the captures that work on its legacy null stream invalidates.
std::vector<std::shared_ptr<Stream>> blocking_captures(int device) {
  std::vector<std::shared_ptr<Stream>> streams;
  std::lock_guard<std::mutex> lock(registry_mutex);
  if (device < 0 || device >= kMaxDevices) return streams;
  for (const auto& s : registry[device])
    if (!s->non_blocking()) streams.push_back(s);
  return streams;
}

}  // namespace

void Capture::add(void* ptr) {
  std::lock_guard<std::mutex> lock(mutex_);
  blocks_.push_back({ptr, true, false});
}

void Capture::release(void* ptr, const Stream* stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = std::find_if(blocks_.begin(), blocks_.end(), [&](const Block& b) { return b.ptr == ptr; });
  if (it == blocks_.end()) return;
  if (state_ == State::Capturing && stream != stream_.get()) {
    it->owned = false;  // made on a joined stream: no free node (Note [Joined streams])
    return;
  }
  if (state_ == State::Capturing) {
    DeviceGuard guard(stream_->device());
    // A free node. It fails, harmlessly, where an error has already invalidated the capture.
    drain_launches();
    if (cudaFreeAsync(ptr, stream_->handle()) != cudaSuccess) cudaGetLastError();
    blocks_.erase(it);
    return;
  }
  if (it->live) free_block(*it);
  if (state_ == State::Finished)
    blocks_.erase(it);
  else
    it->owned = false;  // a later launch recreates it: the Graph frees it when it dies
}

bool Capture::join(const std::shared_ptr<Stream>& stream, std::shared_ptr<Capture> self) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (state_ != State::Capturing) return false;
  joined_.push_back(stream);
  stream->set_capture(std::move(self));
  return true;
}

std::vector<std::shared_ptr<Stream>> Capture::take_joined() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(joined_, {});
}

void Capture::keep_host_func(std::unique_ptr<std::function<void()>> fn) {
  std::lock_guard<std::mutex> lock(mutex_);
  host_funcs_.push_back(std::move(fn));
}

namespace {

using HostFuncs = std::vector<std::unique_ptr<std::function<void()>>>;

void CUDART_CB delete_host_funcs(void* data) { delete static_cast<HostFuncs*>(data); }

}  // namespace

void Capture::release_host_funcs() {
  if (host_funcs_.empty()) return;
  auto funcs = std::make_unique<HostFuncs>(std::move(host_funcs_));
  host_funcs_.clear();
  if (!last_launch_) return;  // never launched: nothing will run them
  DeviceGuard guard(stream_->device());
  drain_launches();
  // Where that fails (at exit), a launch may still run them: they are left alive.
  if (cudaLaunchHostFunc(last_launch_->handle(), delete_host_funcs, funcs.get()) != cudaSuccess) cudaGetLastError();
  funcs.release();
}

void Capture::free_block(Block& block) {
  DeviceGuard guard(stream_->device());
  drain_launches();
  if (cudaFreeAsync(block.ptr, last_launch_->handle()) != cudaSuccess) cudaGetLastError();  // at exit
  block.live = false;
}

void Capture::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  state_ = State::Finished;
  release_host_funcs();
  for (Block& b : blocks_)
    if (!b.owned && b.live) free_block(b);
  blocks_.erase(std::remove_if(blocks_.begin(), blocks_.end(), [](const Block& b) { return !b.owned; }), blocks_.end());
}

Graph::~Graph() {
  capture_->finish();
  // Errors at exit are not worth reporting; an executable still running is freed when it completes.
  cudaGraphExecDestroy(exec_);
  cudaGraphDestroy(graph_);
}

void Graph::check_stream(const Stream& stream, const char* method) const {
  if (stream.device() != device_)
    throw CudaError(method, cudaErrorInvalidDevice,
                    std::string(method) + ": the graph was captured on device " + std::to_string(device_) +
                        " and cannot run on a stream of device " + std::to_string(stream.device()));
  if (stream.capturing())
    throw CudaError(method, cudaErrorStreamCaptureUnsupported,
                    std::string(method) + ": " + stream_name(stream) +
                        " is capturing; a graph cannot be launched into another capture");
}

namespace {

bool out_of_memory(cudaError_t status) {
  if (status != cudaErrorMemoryAllocation) return false;
  cudaGetLastError();  // not sticky: cleared, so that the retry is not blamed for it
  return true;
}

}  // namespace

void Graph::launch(const std::shared_ptr<Stream>& stream) {
  check_stream(*stream, "Graph.launch");
  DeviceGuard guard(device_);
  // Note [Graph memory] in memory_pool.h: retried once after the pool gives its cached memory back, which waits
  // for the device and issues recorded work, so outside the capture's lock.
  cudaError_t status = retry_with_memory(
      [&] {
        drain_launches();  // before the lock: recorded work may free memory, which takes it (Note [No CUDA call
                           // under a core lock] in memory_pool.cpp)
        std::lock_guard<std::mutex> lock(capture_->mutex_);
        std::shared_ptr<Stream>& last = capture_->last_launch_;
        if (last && last != stream) stream_wait_stream(stream->handle(), last->handle());
        cudaError_t launched = cudaGraphLaunch(exec_, stream->handle());
        if (launched == cudaSuccess) {
          last = stream;
          for (auto& b : capture_->blocks_) b.live = true;
        }
        return launched;
      },
      out_of_memory);
  check_cuda(status, "cudaGraphLaunch");
}

void Graph::upload(const std::shared_ptr<Stream>& stream) {
  check_stream(*stream, "Graph.upload");
  DeviceGuard guard(device_);
  // Uploading maps the graph's memory now rather than at its launch: Note [Graph memory] in memory_pool.h.
  CUARRAY_CHECK_CUDA(retry_with_memory([&] { return cudaGraphUpload(exec_, stream->handle()); }, out_of_memory));
}

void Graph::debug_dot_print(const std::string& path, unsigned flags) const {
  DeviceGuard guard(device_);
  CUARRAY_CHECK_CUDA(cudaGraphDebugDotPrint(graph_, path.c_str(), flags));
}

void begin_capture(const std::shared_ptr<Stream>& stream, cudaStreamCaptureMode mode) {
  if (!stream->handle())
    throw CudaError("cudaStreamBeginCapture", cudaErrorStreamCaptureUnsupported,
                    "Stream.begin_capture: the legacy null stream (Stream.null) cannot be captured; capture on a "
                    "stream of your own, such as cuarray.cuda.Stream(non_blocking=True)");
  if (stream->capturing())
    throw CudaError("cudaStreamBeginCapture", cudaErrorIllegalState,
                    "Stream.begin_capture: " + stream_name(*stream) +
                        " is already capturing (cudaErrorIllegalState); call end_capture first");
  DeviceGuard guard(stream->device());
  CUARRAY_CHECK_CUDA(cudaStreamBeginCapture(stream->handle(), mode));
  stream->set_capture(std::make_shared<Capture>(stream));
  std::lock_guard<std::mutex> lock(registry_mutex);
  registry[stream->device()].push_back(stream);
}

std::shared_ptr<Graph> end_capture(const std::shared_ptr<Stream>& stream) {
  std::shared_ptr<Capture> capture = stream->capture();
  if (!capture) {
    if (std::string reason = stream->take_invalidated(); !reason.empty())
      throw CudaError("cudaStreamEndCapture", cudaErrorStreamCaptureInvalidated,
                      "Stream.end_capture: " + reason + " invalidated the capture on " + stream_name(*stream) +
                          " (cudaErrorStreamCaptureInvalidated); that capture was ended then and its work "
                          "discarded");
    // A stream that joined another stream's capture (it waited on an event recorded there) captures for CUDA
    // but began none: CUDA's own answer, cudaErrorStreamCaptureUnmatched, which invalidates that capture.
    cudaStreamCaptureStatus joined = cudaStreamCaptureStatusNone;
    if (stream->handle() && cudaStreamIsCapturing(stream->handle(), &joined) == cudaSuccess &&
        joined == cudaStreamCaptureStatusActive) {
      DeviceGuard guard(stream->device());
      cudaGraph_t graph = nullptr;
      cudaError_t status = cudaStreamEndCapture(stream->handle(), &graph);
      if (graph) cudaGraphDestroy(graph);
      check_cuda(status, "cudaStreamEndCapture");
    }
    cudaGetLastError();
    throw CudaError("cudaStreamEndCapture", cudaErrorIllegalState,
                    "Stream.end_capture: " + stream_name(*stream) +
                        " is not capturing (cudaErrorIllegalState); call begin_capture first");
  }
  DeviceGuard guard(stream->device());
  cudaGraph_t graph = nullptr;
  cudaError_t status;
  if (capture->stream_ != stream) {
    // A joined stream (Note [Joined streams]): CUDA's answer is cudaErrorStreamCaptureUnmatched, which
    // invalidates the capture it joined; that capture is ended, and its own end_capture says why.
    status = cudaStreamEndCapture(stream->handle(), &graph);
    cudaGetLastError();
    if (graph) cudaGraphDestroy(graph);
    discard_capture(capture->stream_, "Stream.end_capture on " + stream_name(*stream) + ", which had joined it,");
    check_cuda(status == cudaSuccess ? cudaErrorStreamCaptureUnmatched : status, "cudaStreamEndCapture");
  }
  {
    // Under the capture's lock, so that no Buffer frees into a capture that has just ended.
    std::lock_guard<std::mutex> lock(capture->mutex_);
    status = cudaStreamEndCapture(stream->handle(), &graph);
    if (status == cudaErrorStreamCaptureWrongThread) check_cuda(status, "cudaStreamEndCapture");  // still capturing
    capture->state_ = Capture::State::Launchable;
  }
  stop(stream);
  if (status != cudaSuccess || !graph) {
    cudaGetLastError();
    capture->finish();
    throw CudaError("cudaStreamEndCapture", status,
                    "Stream.end_capture: an operation that cannot be captured invalidated the capture (" +
                        std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status) +
                        "); the capture has ended and its work was discarded");
  }
  cudaGraphExec_t exec = nullptr;
  status = cudaGraphInstantiateWithFlags(&exec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  if (status != cudaSuccess) {
    cudaGraphDestroy(graph);
    capture->finish();
    check_cuda(status, "cudaGraphInstantiateWithFlags");
  }
  return std::make_shared<Graph>(graph, exec, stream->device(), std::move(capture));
}

bool discard_capture(const std::shared_ptr<Stream>& stream, std::string reason) {
  std::shared_ptr<Capture> capture = stream->capture();
  if (!capture) return true;
  if (capture->stream_ != stream) return discard_capture(capture->stream_, std::move(reason));  // joined
  DeviceGuard guard(stream->device());
  cudaGraph_t graph = nullptr;
  cudaError_t status;
  {
    std::lock_guard<std::mutex> lock(capture->mutex_);
    status = cudaStreamEndCapture(stream->handle(), &graph);
    cudaGetLastError();
    if (status == cudaErrorStreamCaptureWrongThread) return false;
    capture->state_ = Capture::State::Finished;
  }
  // What CUDA said on ending it, such as cudaErrorStreamCaptureUnjoined where a joined stream had not been
  // joined back, is part of why the capture failed.
  if (!reason.empty() && status != cudaSuccess && status != cudaErrorStreamCaptureInvalidated)
    reason += std::string(" (ending the capture then gave ") + cudaGetErrorName(status) + ")";
  if (graph) cudaGraphDestroy(graph);
  stop(stream);
  if (!reason.empty()) stream->set_invalidated(std::move(reason));
  capture->finish();
  return true;
}

bool invalidate_capture(const Stream& stream, std::string_view reason) {
  std::shared_ptr<Capture> capture = stream.capture();
  if (!capture) return false;
  discard_capture(capture->stream_, std::string(reason));
  return true;
}

std::string end_implicit_captures(int device, std::string_view operation) {
  std::string names;
  for (const auto& s : blocking_captures(device))
    if (discard_capture(s, std::string(operation) + ", work on the legacy null stream,"))
      names += (names.empty() ? "" : ", ") + stream_name(*s);
  return names;
}

bool is_capturing(const Stream& stream) {
  if (stream.handle()) return stream.capturing();
  std::vector<std::shared_ptr<Stream>> blocking = blocking_captures(stream.device());
  if (!blocking.empty())
    throw CudaError("cudaStreamIsCapturing", cudaErrorStreamCaptureImplicit,
                    "Stream.null.is_capturing: the legacy null stream cannot be queried while the blocking " +
                        stream_name(*blocking.front()) +
                        " is capturing a CUDA graph (cudaErrorStreamCaptureImplicit: it would wait for that "
                        "capture)");
  return false;
}

void check_not_capturing(const Stream& stream, std::string_view operation) {
  if (!stream.capturing()) {
    // A capture that cuarray did not begin (another library's, on a stream it shares with cuarray): refused
    // too, and left to its owner to end.
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (!stream.handle()) return;
    if (cudaStreamIsCapturing(stream.handle(), &status) != cudaSuccess) {
      cudaGetLastError();
      return;
    }
    if (status == cudaStreamCaptureStatusNone) return;
    throw CudaError(std::string(operation), cudaErrorStreamCaptureUnsupported,
                    std::string(operation) + " cannot run while " + stream_name(stream) +
                        " is capturing a CUDA graph (cudaErrorStreamCaptureUnsupported): it waits for the device or "
                        "uses host memory, which a graph cannot record. The capture was not begun by "
                        "Stream.begin_capture, so it is left to whoever began it.");
  }
  if (std::shared_ptr<Capture> capture = stream.capture()) refuse({capture->stream_}, operation);
}

void check_device_not_capturing(int device, std::string_view operation) {
  std::vector<std::shared_ptr<Stream>> streams;
  {
    std::lock_guard<std::mutex> lock(registry_mutex);
    streams = registry[device];
  }
  if (!streams.empty()) refuse(streams, operation);
}

void wait_event(const std::shared_ptr<Stream>& waiter, const Event& event) {
  stream_wait_event(waiter->handle(), event);
  if (!waiter->handle() || waiter->capturing() || !device_capturing(waiter->device())) return;
  DeviceGuard guard(waiter->device());
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  unsigned long long id = 0;
  if (cudaStreamGetCaptureInfo(waiter->handle(), &status, &id) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  if (status != cudaStreamCaptureStatusActive) return;
  std::vector<std::shared_ptr<Stream>> origins;
  {
    std::lock_guard<std::mutex> lock(registry_mutex);
    origins = registry[waiter->device()];
  }
  for (const auto& origin : origins) {
    cudaStreamCaptureStatus origin_status = cudaStreamCaptureStatusNone;
    unsigned long long origin_id = 0;
    if (cudaStreamGetCaptureInfo(origin->handle(), &origin_status, &origin_id) != cudaSuccess) {
      cudaGetLastError();
      continue;
    }
    if (origin_status != cudaStreamCaptureStatusActive || origin_id != id) continue;
    if (std::shared_ptr<Capture> capture = origin->capture()) capture->join(waiter, capture);
    return;
  }
}

bool device_capturing(int device) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  return !registry[device].empty();
}

}  // namespace cuarray::cuda
