// CUDA events: ordering between streams and device-side timing.
#pragma once

#include <cuda_runtime_api.h>

namespace cuarray::cuda {

class Event {
 public:
  // `blocking`: synchronize() sleeps from the start instead of first spinning. `timing`: usable with elapsed_ms.
  Event(bool blocking, bool timing, bool interprocess = false);
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  cudaEvent_t handle() const { return handle_; }
  int device() const { return device_; }
  void record(cudaStream_t stream);
  void synchronize() const;  // waits (interruptibly) for the work the event captured
  bool done() const;

 private:
  cudaEvent_t handle_ = nullptr;
  int device_;
  bool blocking_;
};

// Waits (Note [Interruptible waits] in blocking.h) for the work `event` captured; `spin` as in wait_until.
void wait(cudaEvent_t event, bool spin = true);

// Milliseconds between two recorded events.
float elapsed_ms(const Event& start, const Event& end);
// Makes `stream` wait for the work captured by `event`.
void stream_wait_event(cudaStream_t stream, const Event& event);
// Makes later work on `waiter` wait for the work queued so far on `signaller` (a stream of the current
// device); nothing when they are the same stream. Null handles mean the legacy default stream.
void stream_wait_stream(cudaStream_t waiter, cudaStream_t signaller);

}  // namespace cuarray::cuda
