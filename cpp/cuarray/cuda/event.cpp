#include "cuarray/cuda/event.h"

#include "cuarray/blocking.h"
#include "cuarray/cuda/check.h"
#include "cuarray/cuda/deferred_checks.h"
#include "cuarray/cuda/device.h"
#include "cuarray/error.h"

namespace cuarray::cuda {

Event::Event(bool blocking, bool timing, bool interprocess) : device_(current_device()), blocking_(blocking) {
  device_count();
  unsigned flags = (blocking ? cudaEventBlockingSync : 0u) | (timing ? 0u : cudaEventDisableTiming) |
                   (interprocess ? cudaEventInterprocess : 0u);
  CUARRAY_CHECK_CUDA(cudaEventCreateWithFlags(&handle_, flags));
}

Event::~Event() {
  if (handle_) cudaEventDestroy(handle_);
}

void Event::record(cudaStream_t stream) { CUARRAY_CHECK_CUDA(cudaEventRecord(handle_, stream)); }

void Event::synchronize() const {
  wait(handle_, !blocking_);
  run_deferred_checks();
}

bool Event::done() const {
  drain_launches();
  return check_ready(cudaEventQuery(handle_), "cudaEventQuery");
}

void wait(cudaEvent_t event, bool spin) {
  check_launches();
  wait_until([event] { return check_ready(cudaEventQuery(event), "cudaEventQuery"); }, spin);
}

float elapsed_ms(const Event& start, const Event& end) {
  float ms = 0;
  CUARRAY_CHECK_CUDA(cudaEventElapsedTime(&ms, start.handle(), end.handle()));
  return ms;
}

void stream_wait_event(cudaStream_t stream, const Event& event) {
  CUARRAY_CHECK_CUDA(cudaStreamWaitEvent(stream, event.handle(), 0));
}

void stream_wait_stream(cudaStream_t waiter, cudaStream_t signaller) {
  auto legacy = [](cudaStream_t s) { return s ? s : cudaStreamLegacy; };
  if (legacy(waiter) == legacy(signaller)) return;
  // The event may be destroyed at once: CUDA keeps it until the queued wait has used it.
  Event event(false, false);
  event.record(signaller);
  stream_wait_event(waiter, event);
}

}  // namespace cuarray::cuda
