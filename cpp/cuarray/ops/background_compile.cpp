#include "cuarray/ops/background_compile.h"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <utility>

#include "cuarray/cuda/device.h"
#include "cuarray/cuda/launch_queue.h"
#include "cuarray/error.h"
#include "cuarray/jit/nvrtc.h"

namespace cuarray::ops {

namespace {

struct KeyHash {
  std::size_t operator()(const WideKey& k) const {
    std::uint64_t h = 0;
    for (std::uint64_t w : k.w) h = (h ^ w) * 0x9E3779B97F4A7C15ull + (h >> 29);
    return static_cast<std::size_t>(h);
  }
};

struct Entry {
  detail::BackgroundState state = detail::BackgroundState::Compiling;
  std::string name;
  jit::Binary binary;  // Ready, until loaded
  jit::Kernel kernel;
  std::string error;  // Failed
};

struct Job {
  WideKey key;
  KernelSource source;
  std::vector<std::string> options;
  int arch;
  int device;          // the flush's, which loads the kernel
  bool fresh = false;  // the disk cache's file was refused: compile and replace it
};

// Lives for the process: ops may ask for kernels during static destruction.
struct State {
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Job> jobs;
  std::vector<Job> deferred;  // asked for inside a flush (Note [Background compiles])
  std::unordered_map<WideKey, Entry, KeyHash> entries;
  std::thread* worker = nullptr;  // never destroyed: joined at exit
  bool stopping = false;
  bool closed = false;  // at exit: no thread starts again
  std::size_t started = 0, finished = 0, failed = 0;
  std::string last_error;
};

State& state() {
  static auto* s = new State;
  return *s;
}

std::atomic<std::size_t> g_pending{0};  // deferred or started, and not finished
std::atomic<bool> g_deferred{false};    // State::deferred holds jobs

void work();

// Starts the thread if there is work and none runs; false when no thread could be made.
bool ensure_worker(State& s) {
  if (s.closed) return false;
  if (s.worker || s.jobs.empty() || s.stopping) return true;
  try {
    s.worker = new std::thread(work);
  } catch (const std::exception&) {
    return false;
  }
  static bool exit_hook = std::atexit([] { finish_background_compiles(); }) == 0;
  (void)exit_hook;
  return true;
}

void work() {
  State& s = state();
  for (;;) {
    std::optional<Job> taken;
    {
      std::unique_lock<std::mutex> lock(s.mutex);
      s.wake.wait(lock, [&] { return s.stopping || !s.jobs.empty(); });
      if (s.stopping) return;
      taken.emplace(std::move(s.jobs.front()));
      s.jobs.pop_front();
    }
    Job& job = *taken;
    jit::Binary binary;
    std::string error;
    try {
      bool from_disk = false;  // through the disk cache, so that the next process finds the kernel there
      binary = jit::cached_binary(job.source.source, job.source.name, job.options, job.arch, from_disk, job.fresh);
    } catch (const std::exception& x) {
      error = x.what();
      if (error.empty()) error = "unknown error";
    }
    std::lock_guard<std::mutex> lock(s.mutex);
    Entry& e = s.entries[job.key];
    e.state = error.empty() ? detail::BackgroundState::Ready : detail::BackgroundState::Failed;
    e.binary = std::move(binary);
    e.error = std::move(error);
    ++s.finished;
    s.failed += e.state == detail::BackgroundState::Failed;
    g_pending.fetch_sub(1, std::memory_order_release);
  }
}

}  // namespace

namespace detail {

BackgroundState background_state(const WideKey& key, jit::Kernel& kernel) {
  State& s = state();
  jit::Binary binary;
  std::string name;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    auto it = s.entries.find(key);
    if (it == s.entries.end()) return BackgroundState::Unknown;
    Entry& e = it->second;
    if (e.state == BackgroundState::Deferred) return BackgroundState::Compiling;
    if (e.state == BackgroundState::Compiling) ensure_worker(s);  // after a fork stopped the thread
    if (e.state != BackgroundState::Ready) return e.state;
    if (e.kernel) {
      kernel = e.kernel;
      return BackgroundState::Ready;
    }
    binary = std::move(e.binary);
    name = e.name;
    e.state = BackgroundState::Failed;  // until loaded: a load that throws is not retried
  }
  // Loaded without the lock: loading drains the launch queue, which may flush a recorded chain.
  jit::Kernel loaded;
  try {
    loaded = jit::load_module(binary.code).function(name);
  } catch (const std::exception& x) {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.entries[key].error = x.what();
    ++s.failed;
    return BackgroundState::Failed;
  }
  std::lock_guard<std::mutex> lock(s.mutex);
  Entry& e = s.entries[key];
  e.state = BackgroundState::Ready;
  e.kernel = loaded;
  store_kernel(key, loaded);
  kernel = loaded;
  return BackgroundState::Ready;
}

void defer(const WideKey& key, KernelSource source, std::vector<std::string> options) {
  State& s = state();
  const int device = cuda::current_device();
  const int arch = cuda::compute_capability(device);
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.entries.count(key)) return;
  Entry& e = s.entries[key];
  e.state = BackgroundState::Deferred;
  e.name = source.name;
  s.deferred.push_back(Job{key, std::move(source), std::move(options), arch, device});
  g_pending.fetch_add(1, std::memory_order_relaxed);
  g_deferred.store(true, std::memory_order_release);
}

}  // namespace detail

void start_deferred_compiles() {
  if (!g_deferred.load(std::memory_order_acquire)) return;
  // Not while a capture is in progress: loading a module is what a global or thread-local capture refuses (Note
  // [Capture mode] in cuda/graph.h); the kernels wait for an op after it.
  if (cuda::capture_in_progress()) return;
  State& s = state();
  std::vector<Job> jobs;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    jobs.swap(s.deferred);
    g_deferred.store(false, std::memory_order_release);
  }
  for (Job& job : jobs) {
    jit::Kernel kernel;
    bool refused = false, lost = false;
    try {
      cuda::DeviceGuard device(job.device);
      kernel = jit::cached_kernel(job.source.source, job.source.name, job.options, job.arch, refused);
    } catch (const CudaError&) {  // the device's state (no memory to load it into): the compiling thread's way
    } catch (...) {               // no host memory: the op-by-op path stays, as for a failed compile
      lost = true;
    }
    std::lock_guard<std::mutex> lock(s.mutex);
    Entry& e = s.entries[job.key];
    if (kernel) {
      e.state = detail::BackgroundState::Ready;
      e.kernel = kernel;
      store_kernel(job.key, kernel);
      g_pending.fetch_sub(1, std::memory_order_release);
      continue;
    }
    job.fresh = refused;
    if (!lost) s.jobs.push_back(std::move(job));
    if (lost || !ensure_worker(s)) {  // no thread to spare: the op-by-op path stays
      if (!lost) s.jobs.pop_back();
      e.state = detail::BackgroundState::Failed;
      g_pending.fetch_sub(1, std::memory_order_release);
      continue;
    }
    e.state = detail::BackgroundState::Compiling;
    ++s.started;
    s.wake.notify_one();
  }
}

std::size_t background_compiles_pending() noexcept { return g_pending.load(std::memory_order_acquire); }

void finish_background_compiles(bool for_good) noexcept {
  State& s = state();
  std::thread* worker;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.stopping = true;
    s.closed = s.closed || for_good;
    worker = std::exchange(s.worker, nullptr);
    s.wake.notify_one();
  }
  if (worker && worker->joinable()) worker->join();
  delete worker;
  std::lock_guard<std::mutex> lock(s.mutex);
  s.stopping = false;  // the jobs left wait for the next thread
  if (!s.closed) return;
  for (const Job& job : s.jobs) {  // none will come: their chains run op by op, and none counts as pending
    s.entries[job.key].state = detail::BackgroundState::Failed;
    g_pending.fetch_sub(1, std::memory_order_release);
  }
  s.jobs.clear();
}

BackgroundCounts background_compile_counts() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  BackgroundCounts c{s.started, s.finished, s.failed, {}};
  for (const auto& [key, e] : s.entries)
    if (!e.error.empty()) c.last_error = e.error;
  return c;
}

}  // namespace cuarray::ops
