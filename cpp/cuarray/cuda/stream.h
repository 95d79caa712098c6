// Streams and the calling thread's current stream (one per device, as in CuPy).
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace cuarray::cuda {

class Capture;

// Note [Per-thread stream]
// CuPy's Stream.ptds is CUDA's per-thread default stream (cudaStreamPerThread): each host thread's own stream,
// ordered with the legacy null stream as a blocking stream is. That handle names a different stream on every
// thread that uses it, while cuarray issues launches from a worker thread and frees memory (cudaFreeAsync) on
// whichever thread drops the last reference: both would land on the wrong thread's stream. Each thread
// therefore gets a real blocking stream of its own per device instead, with the same ordering; its `ptr` is
// that stream's handle rather than CUDA's constant 2.
//
// A CUDA stream, or the legacy null stream of a device. Held by shared_ptr: every device allocation made
// on a stream keeps it alive, so its handle is never reused by a new stream while memory ordered on it
// is still in flight (Note [Memory pool stream rule] in memory_pool.h).
class Stream {
 public:
  // The null stream of `device` (cudaStreamLegacy semantics: it waits for and blocks other blocking streams).
  static const std::shared_ptr<Stream>& null(int device);
  // A new stream on the current device.
  static std::shared_ptr<Stream> create(bool non_blocking = false, int priority = 0);
  // The calling thread's own blocking stream on `device` (Stream.ptds), made on first use and dropped when
  // the thread ends (Note [Per-thread stream]).
  static const std::shared_ptr<Stream>& per_thread(int device);
  // A stream that other code made (Stream.from_external, __cuda_stream__), on `device`. Never destroyed here:
  // its owner keeps it alive for as long as cuarray uses it, as CuPy's ExternalStream requires.
  static std::shared_ptr<Stream> external(cudaStream_t handle, int device);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t handle() const { return handle_; }
  bool owned() const { return owned_; }  // false for external() streams
  // A number no other Stream of the process has had. CUDA gives a new stream the handle of a destroyed one, whose
  // work may still be running; a cache of memory freed in a stream's order keys it by this, and asks alive()
  // whether the stream is still there (Note [Arena keys] in python/cuarray/cuda/_arena.py).
  std::uint64_t serial() const { return serial_; }
  // Whether the stream create() made with `serial` has not been destroyed yet.
  static bool alive(std::uint64_t serial);
  int device() const { return device_; }
  bool non_blocking() const { return non_blocking_; }
  int priority() const;  // cudaStreamGetPriority: lower numbers are higher priorities

  // Note [Host callbacks]
  // Stream.launch_host_func and add_callback run a host function once the work queued so far on the stream
  // is done, on a thread of the CUDA driver (the bindings hand a Python function on from there to a thread of
  // their own, and wait for it). The function must not call CUDA (the driver forbids it there) and is run at
  // most once (at each launch of the graph, where a capture recorded it); one that cannot run (the stream's work
  // failed, for launch_host_func) is dropped without being run. The launches queued before it are issued first, so that
  // it follows them.
  //
  // cudaLaunchHostFunc; the function is dropped unrun if the launch fails. On a capturing stream it is
  // recorded, not run: it runs at each launch of the graph, which keeps it (Note [Captured host functions]
  // in graph.h), and the result is true.
  bool launch_host_func(std::function<void()> fn) const;
  // cudaStreamAddCallback: the function gets the stream's error status (cudaSuccess when the work succeeded).
  void add_callback(std::function<void(cudaError_t)> fn) const;
  void synchronize() const;  // waits (interruptibly) until all work queued so far has finished
  bool done() const;         // true when no queued work is pending

  // Whether a capture begun by begin_capture (graph.h) is in progress: one atomic load, cheap enough for
  // every allocation and free to ask (Note [Graph capture and the pool] in graph.h).
  bool capturing() const { return capturing_.load(std::memory_order_acquire); }
  // The capture in progress, or null. Set only by begin_capture and end_capture.
  std::shared_ptr<Capture> capture() const;
  void set_capture(std::shared_ptr<Capture> capture);
  // Why the last capture was ended by an error rather than by end_capture ("" if it was not), until the next
  // begin_capture or end_capture takes it (Note [Failed captures] in graph.h).
  void set_invalidated(std::string reason);
  std::string take_invalidated();

 private:
  Stream(cudaStream_t handle, int device, bool owned, bool non_blocking);
  cudaStream_t handle_;
  std::uint64_t serial_;
  int device_;
  bool owned_;
  bool non_blocking_;
  mutable std::mutex capture_mutex_;
  std::shared_ptr<Capture> capture_;
  std::string invalidated_;
  std::atomic<bool> capturing_{false};
};

// The calling thread's current stream on the current device (the null stream until set).
const std::shared_ptr<Stream>& current_stream();
const std::shared_ptr<Stream>& current_stream(int device);
// Makes `stream` current for the calling thread on its device.
void set_current_stream(const std::shared_ptr<Stream>& stream);

// Waits (Note [Interruptible waits] in blocking.h) for the work queued so far on `stream`, a stream of the
// current device (null: its legacy default stream). Throws CudaError if that work failed.
void wait(cudaStream_t stream);
// Waits for `stream` after a copy into host memory that the caller owns. Not interruptible: an abandoned
// wait would let the copy land in memory freed by then; the host's other threads run meanwhile. Only for a
// copy into the caller's pinned memory, after an interruptible wait for the work before it (ops::copy_to_host);
// ops read results back with ops::read_back.
void finish_readback(cudaStream_t stream);
// Waits for every stream of device `id` that cuarray created, then for the device itself (work that other
// libraries queued on their own streams is waited for uninterruptibly, but with the host's other threads
// running: run_blocking in blocking.h). Then runs the thread's deferred checks.
void synchronize_device(int id);
// The same wait, without the checks: what the memory pool does before it gives memory back to the device.
void wait_for_device(int id);

}  // namespace cuarray::cuda
