#include "cuarray/cuda/launch_queue.h"

#include <cuda.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "cuarray/cuda/check.h"
#include "cuarray/cuda/device.h"
#include "cuarray/error.h"

namespace cuarray::cuda {

// Note [Queue cache lines]
// The calling thread and the worker share the queue's counters and flags, and every op reads some of them. A line
// one thread writes while the other reads costs the reader a transfer between cores, a large part of a small op's
// time; so what each side writes lies on a line of its own: `queued` (the producer's), `issued` (the consumer's),
// `recorded` (the recording thread's), and in Queue the producer's and the consumer's state apart from the flags
// that both only read.
constexpr std::size_t kLine = 64;

namespace detail {
alignas(kLine) std::atomic<std::uint64_t> queued{0};
alignas(kLine) std::atomic<std::uint64_t> issued{0};
alignas(kLine) std::atomic<bool> recorded{false};
void (*flush_recorded)() noexcept = nullptr;
}  // namespace detail

namespace {

constexpr std::size_t kSlots = 256;
constexpr std::size_t kParamBytes = 4096;
// How long the worker spins for more work before it sleeps, and how soon after an op issued by its caller a
// second one wakes it.
constexpr std::int64_t kSpinNs = 500'000;
constexpr std::int64_t kBurstNs = 100'000;
// The most launches replayed as one graph (Note [Launch queue]); runs are cut to a power of two, so a stream
// has at most five graphs.
constexpr std::size_t kMaxBatch = 32;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Trivially constructible (no dim3), so that making the ring touches none of its pages: a process that never
// queues a launch never pays the page faults of its megabyte.
struct Slot {
  const void* func;
  const ParamLayout* layout;
  unsigned grid[3], block[3];
  std::size_t shared_mem;
  cudaStream_t stream;
  int device;
  alignas(16) unsigned char params[kParamBytes];
};
static_assert(std::is_trivially_default_constructible_v<Slot>);

// A straight chain of kernel nodes, instantiated once for a stream and a length and replayed with each batch's
// parameters.
struct Batch {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaGraphNode_t nodes[kMaxBatch] = {};
};

struct BatchKey {
  cudaStream_t stream;
  int device;
  std::size_t size;
  bool operator==(const BatchKey& o) const { return stream == o.stream && device == o.device && size == o.size; }
};

struct BatchKeyHash {
  std::size_t operator()(const BatchKey& k) const {
    return std::hash<const void*>()(k.stream) ^ (static_cast<std::size_t>(k.device) << 8) ^ k.size;
  }
};

// Laid out by who writes what (Note [Queue cache lines]).
struct Queue {
  Slot slots[kSlots];
  // Read by every launch, written seldom.
  alignas(kLine) std::atomic<bool> asleep{true};  // no worker is running (or it is about to sleep)
  std::atomic<bool> stopping{false};
  std::atomic<int> captures{0};
  std::atomic<bool> shared{false};
  std::atomic<bool> failed{false};
  // The producers'.
  alignas(kLine) std::mutex producer;  // one thread writes a slot at a time
  std::atomic<std::int64_t> last_issued_by_caller{0};
  // The consumer's.
  alignas(kLine) std::mutex consumer;  // one thread issues a launch at a time: the worker, or a thread draining
  std::uint64_t next = 0;              // the next slot to issue; guarded by `consumer`
  std::unordered_map<BatchKey, Batch, BatchKeyHash> batches;  // guarded by `consumer`
  std::atomic<std::uint64_t> issued_by_worker{0};
  std::atomic<std::uint64_t> replayed{0};  // launches issued as part of a graph
  alignas(kLine) std::mutex sleep_mutex;   // guards the fields below
  std::condition_variable wake;
  bool wake_requested = false;
  bool exiting = false;
  bool exit_hook = false;
  std::thread worker;
  std::mutex error_mutex;
  std::exception_ptr error;
};

std::atomic<Queue*> g_queue{nullptr};

Queue& queue() {
  Queue* q = g_queue.load(std::memory_order_acquire);
  if (q) return *q;
  static std::once_flag once;
  std::call_once(once, [] { g_queue.store(new Queue, std::memory_order_release); });  // lives for the process
  return *g_queue.load(std::memory_order_acquire);
}

void record_error(Queue& q, cudaError_t status) {
  try {
    KeepCaptures keep;  // the caller holds `consumer`, which ending a capture takes (through drain_launches)
    check_cuda(status, "cudaLaunchKernel");
  } catch (...) {
    std::lock_guard<std::mutex> lock(q.error_mutex);
    if (!q.error) q.error = std::current_exception();
    q.failed.store(true, std::memory_order_release);
  }
}

void kernel_node(const Slot& s, void** argv, cudaKernelNodeParams& p) {
  for (int i = 0; i < s.layout->count; ++i) argv[i] = const_cast<unsigned char*>(s.params) + s.layout->offset[i];
  p.func = const_cast<void*>(s.func);
  p.gridDim = dim3(s.grid[0], s.grid[1], s.grid[2]);
  p.blockDim = dim3(s.block[0], s.block[1], s.block[2]);
  p.sharedMemBytes = static_cast<unsigned>(s.shared_mem);
  p.kernelParams = argv;
  p.extra = nullptr;
}

void destroy(Batch& b) {
  if (b.exec) cudaGraphExecDestroy(b.exec);
  if (b.graph) cudaGraphDestroy(b.graph);
  b = Batch{};
}

// Issues the `n` launches from slot `first` on as one replay of a graph of their stream and length, made on
// first use. False when CUDA refused a step: nothing was issued then, and the caller issues them one by one,
// so that a launch CUDA refuses is reported as it would be without batching.
bool launch_as_graph(Queue& q, std::uint64_t first, std::size_t n) {
  const Slot& head = q.slots[first % kSlots];
  void* argv[ParamLayout::kMaxParams];
  cudaKernelNodeParams p{};
  auto [it, made] = q.batches.try_emplace(BatchKey{head.stream, head.device, n});
  Batch& b = it->second;
  if (made) {
    bool ok = cudaGraphCreate(&b.graph, 0) == cudaSuccess;
    for (std::size_t i = 0; ok && i < n; ++i) {
      kernel_node(q.slots[(first + i) % kSlots], argv, p);
      ok = cudaGraphAddKernelNode(&b.nodes[i], b.graph, i ? &b.nodes[i - 1] : nullptr, i ? 1 : 0, &p) == cudaSuccess;
    }
    if (!ok || cudaGraphInstantiate(&b.exec, b.graph, 0) != cudaSuccess) {
      cudaGetLastError();
      destroy(b);
      q.batches.erase(it);
      return false;
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      kernel_node(q.slots[(first + i) % kSlots], argv, p);
      if (cudaGraphExecKernelNodeSetParams(b.exec, b.nodes[i], &p) != cudaSuccess) {
        cudaGetLastError();
        return false;
      }
    }
  }
  if (cudaGraphLaunch(b.exec, head.stream) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  q.replayed.fetch_add(n, std::memory_order_relaxed);
  return true;
}

// Issues the oldest queued launches older than `below`, if no other thread is issuing: a run of them into one
// stream as a graph, else the oldest alone. Returns how many it issued. `device` is the runtime device the
// calling thread is known to have (-1: unknown); it is updated. Callers that must wait spin: blocking on the
// lock would add a sleep and a wake-up to every wait for a launch in flight.
std::size_t try_issue(Queue& q, int& device, std::uint64_t below) {
  std::unique_lock<std::mutex> lock(q.consumer, std::try_to_lock);
  if (!lock) return 0;
  const std::uint64_t end = std::min(below, detail::queued.load(std::memory_order_acquire));
  if (q.next >= end) return 0;
  const Slot& s = q.slots[q.next % kSlots];
  if (device != s.device && cudaSetDevice(s.device) == cudaSuccess) device = s.device;
  std::size_t run = 1;
  while (run < kMaxBatch && q.next + run < end && q.slots[(q.next + run) % kSlots].stream == s.stream &&
         q.slots[(q.next + run) % kSlots].device == s.device)
    ++run;
  std::size_t n =
      run >= 2 && q.captures.load(std::memory_order_acquire) == 0 ? std::size_t{1} << (63 - __builtin_clzll(run)) : 1;
  if (n == 1 || !launch_as_graph(q, q.next, n)) {
    n = 1;
    void* argv[ParamLayout::kMaxParams];
    cudaKernelNodeParams p{};
    kernel_node(s, argv, p);
    cudaError_t status = cudaLaunchKernel(p.func, p.gridDim, p.blockDim, argv, s.shared_mem, s.stream);
    if (status != cudaSuccess) record_error(q, status);
  }
  q.next += n;
  detail::issued.store(q.next, std::memory_order_release);
  return n;
}

// Issues every launch queued before the call from the calling thread, leaving its runtime device as it was.
void issue_queued(Queue& q) {
  const std::uint64_t target = detail::queued.load(std::memory_order_acquire);
  int previous = -1;
  if (device_count() > 1) cudaGetDevice(&previous);
  int device = device_count() > 1 ? previous : current_device();
  while (detail::issued.load(std::memory_order_acquire) < target)
    if (!try_issue(q, device, target)) cpu_relax();
  if (previous >= 0 && device != previous) cudaSetDevice(previous);
}

void worker_main(Queue* q) {
  int device = -1;
  for (;;) {
    std::int64_t idle_since = now_ns();
    while (!q->stopping.load(std::memory_order_acquire)) {
      if (detail::queued.load(std::memory_order_acquire) != detail::issued.load(std::memory_order_acquire)) {
        if (std::size_t n = try_issue(*q, device, UINT64_MAX)) {
          q->issued_by_worker.fetch_add(n, std::memory_order_relaxed);
          idle_since = now_ns();
        } else {
          cpu_relax();
        }
      } else if (now_ns() - idle_since > kSpinNs) {
        break;
      } else {
        cpu_relax();
      }
    }
    q->asleep.store(true, std::memory_order_seq_cst);
    // A launch queued before the store above is either seen here or issued by its own thread (which then
    // sees `asleep`): both sides store, then load, sequentially consistent.
    if (!q->stopping.load() && detail::queued.load(std::memory_order_seq_cst) != detail::issued.load()) {
      q->asleep.store(false, std::memory_order_seq_cst);
      continue;
    }
    std::unique_lock<std::mutex> lock(q->sleep_mutex);
    q->wake.wait(lock, [q] { return q->wake_requested || q->stopping.load(); });
    q->wake_requested = false;
    if (q->stopping.load()) return;
    q->asleep.store(false, std::memory_order_seq_cst);
  }
}

void stop_at_exit() { stop_launch_worker(true); }

void wake_worker(Queue& q) {
  std::lock_guard<std::mutex> lock(q.sleep_mutex);
  if (q.exiting || q.stopping.load()) return;
  if (q.worker.joinable()) {
    q.wake_requested = true;
    q.wake.notify_one();
    return;
  }
  // Registered after CUDA started, so it runs before the runtime's own teardown.
  if (!q.exit_hook) q.exit_hook = std::atexit(stop_at_exit) == 0;
  q.asleep.store(false, std::memory_order_seq_cst);
  q.worker = std::thread(worker_main, &q);
}

using KernelGetParamInfo = CUresult (*)(CUkernel, std::size_t, std::size_t*, std::size_t*);

KernelGetParamInfo kernel_get_param_info() {
  static KernelGetParamInfo f = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    if (cudaGetDriverEntryPointByVersion("cuKernelGetParamInfo", &fn, 12040, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      cudaGetLastError();
      fn = nullptr;
    }
    return reinterpret_cast<KernelGetParamInfo>(fn);
  }();
  return f;
}

// Calls `each(index, offset, size)` for every parameter of `kernel` while it returns true; false when the
// driver cannot tell them or `each` stopped.
template <class Each>
bool for_each_param(cudaKernel_t kernel, Each each) {
  KernelGetParamInfo info = kernel_get_param_info();
  if (!info) return false;
  for (std::size_t i = 0;; ++i) {
    std::size_t offset = 0, size = 0;
    CUresult r = info(reinterpret_cast<CUkernel>(kernel), i, &offset, &size);
    if (r == CUDA_ERROR_INVALID_VALUE) return true;  // past the last parameter
    if (r != CUDA_SUCCESS || !each(i, offset, size)) return false;
  }
}

}  // namespace

namespace {

// A kernel's layout as the map keeps it.
struct KnownLayout {
  cudaKernel_t kernel;
  std::unique_ptr<ParamLayout> layout;  // null: the kernel is launched at once
};

// The layouts last found, one per hash of the kernel: every queued launch asks, and a look-up in the map takes its
// mutex. The entries belong to the map, which never drops one.
constexpr std::size_t kRecentLayouts = 64;
std::atomic<const KnownLayout*> g_recent_layouts[kRecentLayouts];

}  // namespace

const ParamLayout* param_layout(cudaKernel_t kernel) {
  std::atomic<const KnownLayout*>& recent =
      g_recent_layouts[(reinterpret_cast<std::uintptr_t>(kernel) >> 4) % kRecentLayouts];
  if (const KnownLayout* k = recent.load(std::memory_order_acquire); k && k->kernel == kernel) return k->layout.get();
  static std::mutex mutex;
  static auto* layouts = new std::unordered_map<cudaKernel_t, std::unique_ptr<KnownLayout>>;  // never destroyed
  std::lock_guard<std::mutex> lock(mutex);
  auto it = layouts->find(kernel);
  if (it != layouts->end()) {
    recent.store(it->second.get(), std::memory_order_release);
    return it->second->layout.get();
  }
  auto layout = std::make_unique<ParamLayout>();
  bool fits = for_each_param(kernel, [&](std::size_t i, std::size_t offset, std::size_t size) {
    if (i == ParamLayout::kMaxParams || offset + size > kParamBytes) return false;
    layout->offset[i] = static_cast<std::uint16_t>(offset);
    layout->size[i] = static_cast<std::uint16_t>(size);
    layout->count = static_cast<int>(i + 1);
    layout->bytes = offset + size;
    return true;
  });
  if (!fits) layout.reset();
  const KnownLayout* known =
      layouts->emplace(kernel, std::make_unique<KnownLayout>(KnownLayout{kernel, std::move(layout)}))
          .first->second.get();
  recent.store(known, std::memory_order_release);
  return known->layout.get();
}

bool param_sizes(cudaKernel_t kernel, std::vector<std::size_t>& sizes) {
  sizes.clear();
  return for_each_param(kernel, [&](std::size_t, std::size_t, std::size_t size) {
    sizes.push_back(size);
    return true;
  });
}

void set_flush_recorded(void (*flush)() noexcept) { detail::flush_recorded = flush; }
void set_recorded(bool any) {
  // Stored only when it changes: every recorded op calls this, and the line is read by every drain.
  const bool value = any && detail::flush_recorded;
  if (detail::recorded.load(std::memory_order_relaxed) != value)
    detail::recorded.store(value, std::memory_order_release);
}

bool launches_may_wait() {
  Queue& q = queue();
  return q.captures.load(std::memory_order_acquire) == 0 && !q.shared.load(std::memory_order_acquire);
}

void keep_launch_error(std::exception_ptr error) {
  Queue& q = queue();
  std::lock_guard<std::mutex> lock(q.error_mutex);
  if (!q.error) q.error = std::move(error);
  q.failed.store(true, std::memory_order_release);
}

void launch_kernel(cudaKernel_t kernel, void** args, dim3 grid, dim3 block, std::size_t shared_mem,
                   cudaStream_t stream) {
  // Recorded launches come first (Note [Automatic fusion] in ops/auto_fusion.h).
  if (detail::recorded.load(std::memory_order_acquire)) detail::flush_recorded();
  Queue& q = queue();
  if (q.failed.load(std::memory_order_acquire)) check_launches();
  const void* func = reinterpret_cast<const void*>(kernel);
  const bool at_once = q.captures.load(std::memory_order_acquire) > 0 || q.shared.load(std::memory_order_acquire);
  if (!at_once && q.asleep.load(std::memory_order_seq_cst)) {
    // An isolated launch is issued here; a second one soon after wakes the worker for the ones that follow.
    const std::int64_t now = now_ns();
    const bool burst = now - q.last_issued_by_caller.exchange(now, std::memory_order_relaxed) < kBurstNs;
    CUARRAY_CHECK_CUDA(cudaLaunchKernel(func, grid, block, args, shared_mem, stream));
    if (burst) wake_worker(q);
    return;
  }
  // Found on the first queued launch of the kernel, not at its load: an isolated launch never needs it.
  const ParamLayout* layout = at_once ? nullptr : param_layout(kernel);
  if (!layout) {
    CUARRAY_CHECK_CUDA(cudaLaunchKernel(func, grid, block, args, shared_mem, stream));
    return;
  }
  const int device = current_device();
  {
    std::lock_guard<std::mutex> lock(q.producer);
    const std::uint64_t slot = detail::queued.load(std::memory_order_relaxed);
    int known = device;
    while (slot - detail::issued.load(std::memory_order_acquire) >= kSlots)  // full: help issue the oldest
      if (!try_issue(q, known, slot)) cpu_relax();
    if (known != device) cudaSetDevice(device);
    Slot& s = q.slots[slot % kSlots];
    s.func = func;
    s.layout = layout;
    s.grid[0] = grid.x, s.grid[1] = grid.y, s.grid[2] = grid.z;
    s.block[0] = block.x, s.block[1] = block.y, s.block[2] = block.z;
    s.shared_mem = shared_mem;
    s.stream = stream;
    s.device = device;
    for (int i = 0; i < layout->count; ++i) std::memcpy(s.params + layout->offset[i], args[i], layout->size[i]);
    detail::queued.store(slot + 1, std::memory_order_seq_cst);
  }
  // The worker went to sleep meanwhile, perhaps without seeing this launch: both sides store, then load,
  // sequentially consistent, so one of them issues it.
  if (q.asleep.load(std::memory_order_seq_cst)) issue_queued(q);
}

void detail::drain_slow() { issue_queued(queue()); }

void check_launches() {
  drain_launches();
  Queue* q = g_queue.load(std::memory_order_acquire);
  if (!q || !q->failed.load(std::memory_order_acquire)) return;
  std::exception_ptr error;
  {
    std::lock_guard<std::mutex> lock(q->error_mutex);
    error = std::exchange(q->error, nullptr);
    q->failed.store(false, std::memory_order_release);
  }
  if (error) std::rethrow_exception(error);
}

std::tuple<std::uint64_t, std::uint64_t, std::uint64_t> launch_counts() {
  Queue* q = g_queue.load(std::memory_order_acquire);
  return {detail::queued.load(), q ? q->issued_by_worker.load() : 0, q ? q->replayed.load() : 0};
}

void share_with_other_code() {
  queue().shared.store(true, std::memory_order_release);
  drain_launches();
}

void forget_stream(cudaStream_t stream) {
  Queue* q = g_queue.load(std::memory_order_acquire);
  if (!q) return;
  drain_launches();
  std::lock_guard<std::mutex> lock(q->consumer);
  for (auto it = q->batches.begin(); it != q->batches.end();) {
    if (it->first.stream != stream) {
      ++it;
      continue;
    }
    destroy(it->second);
    it = q->batches.erase(it);
  }
}

void capture_began() { queue().captures.fetch_add(1, std::memory_order_acq_rel); }
void capture_ended() { queue().captures.fetch_sub(1, std::memory_order_acq_rel); }
bool capture_in_progress() { return queue().captures.load(std::memory_order_acquire) > 0; }

void stop_launch_worker(bool at_exit) {
  Queue* q = g_queue.load(std::memory_order_acquire);
  if (!q) return;
  std::thread worker;
  {
    std::lock_guard<std::mutex> lock(q->sleep_mutex);
    if (at_exit) q->exiting = true;
    q->stopping.store(true);
    q->wake.notify_one();
    worker = std::move(q->worker);
  }
  if (worker.joinable()) worker.join();
  {
    std::lock_guard<std::mutex> lock(q->sleep_mutex);
    q->stopping.store(false);
  }
  q->asleep.store(true, std::memory_order_seq_cst);
  drain_launches();
}

}  // namespace cuarray::cuda
