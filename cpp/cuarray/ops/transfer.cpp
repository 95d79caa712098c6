#include "cuarray/ops/transfer.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include "cuarray/blocking.h"
#include "cuarray/cuda/check.h"
#include "cuarray/cuda/deferred_checks.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/event.h"
#include "cuarray/cuda/graph.h"
#include "cuarray/cuda/memory_pool.h"
#include "cuarray/cuda/pinned_memory.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/host_copy.h"
#include "cuarray/ops/copy.h"

namespace cuarray::ops {

namespace {

constexpr std::size_t kSlotBytes = std::size_t(8) << 20;
constexpr std::size_t kSmallSlotBytes = std::size_t(64) << 10;
constexpr int kSlots = 4;
constexpr std::size_t kPinnedCheck = std::size_t(1) << 20;  // below this, not worth asking the driver
// Fresh host memory is prefaulted in parts of this size, with an interrupt check between them: all copy threads
// fault 256 MiB in tens of milliseconds (Note [Interrupts between steps] in blocking.h).
constexpr std::size_t kPrefaultPart = std::size_t(256) << 20;

// Note [Staging slots after a failed capture]
// A transfer refuses to run on a capturing stream (check_not_capturing), so no staging copy should ever be
// recorded into a graph. Should one be (a capture cuarray did not see begin), the slot's event was recorded in
// the capture, and querying it fails: cudaErrorCapturedEvent during the capture, cudaErrorInvalidValue after
// it. Failing there would fail every later transfer through that slot. The slot is set aside instead, since a
// launch of that graph may still copy into it, and a fresh one takes its place. A transfer that only waited for
// the slot to be free goes on; a readback that waited for its own data raises, as that data never came.

// Pinned slots of one size, each with an event marking when its last DMA finished.
struct Ring {
  const std::size_t slot_bytes;
  std::shared_ptr<cuda::PinnedBuffer> slot[kSlots];
  cudaEvent_t done[kSlots] = {};
  bool pending[kSlots] = {};
  int next = 0;

  explicit Ring(std::size_t bytes) : slot_bytes(bytes) {}

  // A free slot: waits for its previous DMA.
  int acquire() {
    int s = next;
    next = (next + 1) % kSlots;
    if (!slot[s]) {
      slot[s] = cuda::allocate_pinned(slot_bytes);
      CUARRAY_CHECK_CUDA(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming));
    }
    if (pending[s]) wait_slot(s);
    return s;
  }
  // Waits for slot s's last DMA (Note [Staging slots after a failed capture]). `reading`: the caller is about
  // to read what that DMA brought, so a DMA that never ran is an error for it.
  void wait_slot(int s, bool reading = false) {
    try {
      cuda::wait(done[s]);
    } catch (const CudaError& e) {
      if (e.code() != cudaErrorInvalidValue && e.code() != cudaErrorCapturedEvent) throw;
      cudaGetLastError();
      {
        static std::mutex mutex;  // the list is shared by every device's staging
        std::lock_guard<std::mutex> lock(mutex);
        quarantine().push_back(std::move(slot[s]));
      }
      cudaEventDestroy(done[s]);
      done[s] = {};
      slot[s] = cuda::allocate_pinned(slot_bytes);
      CUARRAY_CHECK_CUDA(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming));
      pending[s] = false;
      if (reading) throw;
    }
    pending[s] = false;
  }
  // Slots whose copies a graph may hold: never reused.
  static std::vector<std::shared_ptr<cuda::PinnedBuffer>>& quarantine() {
    static auto* kept = new std::vector<std::shared_ptr<cuda::PinnedBuffer>>;
    return *kept;
  }
  char* ptr(int s) { return static_cast<char*>(slot[s]->ptr()); }
  void record(int s, cudaStream_t stream) {
    CUARRAY_CHECK_CUDA(cudaEventRecord(done[s], stream));
    pending[s] = true;
  }
  // Returns every slot to the pinned pool once its last DMA has finished.
  void release() {
    for (int s = 0; s < kSlots; ++s) {
      if (!slot[s]) continue;
      if (pending[s]) wait_slot(s);
      CUARRAY_CHECK_CUDA(cudaEventDestroy(done[s]));
      done[s] = {};
      slot[s].reset();
    }
    next = 0;
  }
};

// The staging slots of one device. Pinning a slot costs about 0.5 ms a megabyte, so small transfers (item(),
// a scalar's get()) have slots of their own: the first few readbacks of a process each pinned 8 MB before.
struct Staging {
  std::mutex mutex;
  Ring small{kSmallSlotBytes}, large{kSlotBytes};

  Ring& ring_for(std::size_t nbytes) { return nbytes <= kSmallSlotBytes ? small : large; }
  void release() {
    small.release();
    large.release();
  }
};

// Its holder may be in an interruptible wait, whose interrupt check needs the host's lock (the GIL): wait for
// it through the blocking hook, so that a caller holding the host's lock lets go of it meanwhile.
std::unique_lock<std::mutex> lock(Staging& st) {
  std::unique_lock<std::mutex> held(st.mutex, std::try_to_lock);
  if (!held) run_blocking([&] { held.lock(); });
  return held;
}

struct StagingSet {
  std::mutex mutex;
  std::vector<Staging*> per_device = std::vector<Staging*>(64, nullptr);
};

StagingSet& staging_set() {
  static StagingSet* set = new StagingSet;  // never destroyed, like the pools
  return *set;
}

Staging& staging(int device) {
  StagingSet& set = staging_set();
  std::lock_guard<std::mutex> lock(set.mutex);
  if (!set.per_device[device]) set.per_device[device] = new Staging;
  return *set.per_device[device];
}

bool is_pinned(const void* p, std::size_t n) {
  if (n < kPinnedCheck) return false;
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

}  // namespace

void free_pinned_blocks() {
  std::vector<std::pair<int, Staging*>> used;
  {
    StagingSet& set = staging_set();
    std::lock_guard<std::mutex> lock(set.mutex);
    for (int d = 0; d < static_cast<int>(set.per_device.size()); ++d)
      if (set.per_device[d]) used.emplace_back(d, set.per_device[d]);
  }
  for (auto& [device, st] : used) {
    cuda::DeviceGuard guard(device);
    auto held = lock(*st);
    st->release();
  }
  cuda::free_pinned_blocks();
}

void copy_from_host(const Array& dst, const void* src) {
  std::size_t n = static_cast<std::size_t>(dst.nbytes());
  if (n == 0) return;
  // On the array's device, ordered on that device's current stream (ndarray.set of another device's array).
  cuda::DeviceGuard guard(dst.device());
  // A graph would copy from host memory that changes after the capture (the staging slots, the caller's).
  cuda::check_not_capturing(*cuda::current_stream(), "A host-to-device copy (asarray, ndarray.set, ...)");
  cudaStream_t stream = cuda::current_stream()->handle();
  char* d = dst.data();
  if (is_pinned(src, n)) {
    CUARRAY_CHECK_CUDA(cudaMemcpyAsync(d, src, n, cudaMemcpyHostToDevice, stream));
    return;
  }
  Staging& st = staging(dst.device());
  auto held = lock(st);
  Ring& ring = st.ring_for(n);
  // Each chunk's wait is short: Ctrl-C is looked for between chunks (Note [Interrupts between steps]). A chunk
  // issued is complete in its slot's state; an interrupted copy leaves `dst` partly written, as it is a new
  // array (asarray) or one the caller asked to overwrite (set).
  StepInterrupts interrupts;
  for (std::size_t off = 0; off < n; off += ring.slot_bytes) {
    interrupts.check();
    std::size_t len = std::min(ring.slot_bytes, n - off);
    int s = ring.acquire();
    host_copy(ring.ptr(s), static_cast<const char*>(src) + off, len);
    CUARRAY_CHECK_CUDA(cudaMemcpyAsync(d + off, ring.ptr(s), len, cudaMemcpyHostToDevice, stream));
    ring.record(s, stream);
  }
}

namespace {

// Copies `n` bytes from device memory `s` of `device` (the current one) into host memory through the staging
// slots, ordered on `stream`; every wait is interruptible, since the copies land in slots that outlive an
// abandoned wait, and so is the loop of them (Note [Interrupts between steps] in blocking.h): an interrupt
// between chunks leaves the DMAs issued so far pending in their slots, which the next use of a slot waits for.
void staged_to_host(void* dst, const char* s, std::size_t n, int device, cudaStream_t stream) {
  StepInterrupts interrupts;
  Staging& st = staging(device);
  auto held = lock(st);
  Ring& ring = st.ring_for(n);
  const std::size_t chunk = ring.slot_bytes, chunks = (n + chunk - 1) / chunk;
  int slot_of[kSlots];  // chunk c's slot, at c % kSlots: fewer than kSlots chunks are in flight
  auto issue = [&](std::size_t c) {
    std::size_t off = c * chunk, len = std::min(chunk, n - off);
    int k = ring.acquire();
    CUARRAY_CHECK_CUDA(cudaMemcpyAsync(ring.ptr(k), s + off, len, cudaMemcpyDeviceToHost, stream));
    ring.record(k, stream);
    slot_of[c % kSlots] = k;
  };
  for (std::size_t c = 0; c < std::min<std::size_t>(chunks, kSlots - 1); ++c) issue(c);
  if (chunks > 1)
    for (std::size_t off = 0; off < n; off += kPrefaultPart) {
      interrupts.check();
      prefault_pages(static_cast<char*>(dst) + off, std::min(kPrefaultPart, n - off));
    }
  for (std::size_t c = 0; c < chunks; ++c) {
    interrupts.check();
    if (c + kSlots - 1 < chunks) issue(c + kSlots - 1);
    int k = slot_of[c % kSlots];
    ring.wait_slot(k, true);
    std::size_t off = c * chunk;
    host_copy(static_cast<char*>(dst) + off, ring.ptr(k), std::min(chunk, n - off));
  }
}

}  // namespace

void copy_to_host(void* dst, const Array& src) {
  std::size_t n = static_cast<std::size_t>(src.nbytes());
  if (n == 0) return;
  // On the array's device, after the work queued on that device's current stream, as CuPy's get() does.
  cuda::DeviceGuard guard(src.device());
  cuda::check_not_capturing(*cuda::current_stream(), "A device-to-host copy (ndarray.get, asnumpy, item, float, ...)");
  cudaStream_t stream = cuda::current_stream()->handle();
  const char* s = src.data();
  if (is_pinned(dst, n)) {
    // The copy lands in the caller's memory, so only the wait for the work before it may be interrupted.
    cuda::wait(stream);
    CUARRAY_CHECK_CUDA(cudaMemcpyAsync(dst, s, n, cudaMemcpyDeviceToHost, stream));
    cuda::finish_readback(stream);
  } else {
    staged_to_host(dst, s, n, src.device(), stream);
  }
  cuda::run_deferred_checks();
}

void read_back(void* dst, const void* src, std::size_t n) {
  if (n == 0) return;
  cuda::check_not_capturing(*cuda::current_stream(), "Reading a result back to the host");
  cudaStream_t stream = cuda::current_stream()->handle();
  staged_to_host(dst, static_cast<const char*>(src), n, cuda::current_device(), stream);
}

Array copy_from_device(const Array& src) {
  const int here = cuda::current_device(), there = src.device();
  const cudaStream_t stream = cuda::current_stream()->handle();
  Array from = src;
  cudaStream_t from_stream;
  {
    cuda::DeviceGuard guard(there);
    from_stream = cuda::current_stream()->handle();
    if (!src.c_contiguous() && !src.f_contiguous()) {
      from = Array::of_type(src, src.shape());
      copy_into(from, src);
    }
    cuda::Event ready(false, false);
    ready.record(from_stream);
    cuda::stream_wait_event(stream, ready);
  }
  Array dst = Array::of_type(src, src.shape(), from.c_contiguous() ? Order::C : Order::F);
  if (dst.nbytes() == 0) return dst;
  if (!cuda::current_stream()->capturing()) cuda::grant_peer_access(here, there);  // Note [Peer copies]
  CUARRAY_CHECK_CUDA(cudaMemcpyPeerAsync(dst.data(), here, from.data(), there, dst.nbytes(), stream));
  cuda::Event copied(false, false);
  copied.record(stream);
  cuda::stream_wait_event(from_stream, copied);
  return dst;
}

}  // namespace cuarray::ops
