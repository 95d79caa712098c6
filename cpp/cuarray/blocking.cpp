#include "cuarray/blocking.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

namespace cuarray {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::microseconds;
using std::chrono::milliseconds;

constexpr milliseconds kSpin{1};
constexpr milliseconds kMaxSleep{1};
constexpr microseconds kMinSleep{20};
constexpr milliseconds kInterruptPeriod{50};

struct Hooks {
  std::function<void(const std::function<void()>&)> blocking;
  std::function<void()> interrupt;
};

Hooks& hooks() {
  static Hooks* h = new Hooks;  // never destroyed: waits may run during static destruction
  return *h;
}

// Set by begin_exit, after the exiting thread's id and the host's test of its end.
std::atomic<bool> g_exiting{false};
std::thread::id g_exiting_thread;
bool (*g_ends_now)() = nullptr;

// A wait of a thread other than the exiting one ends here, once the host program has begun to exit and, where it
// says so, reached its end (Note [Exit while waiting] in python/src/gil.h).
void park_if_exiting() {
  if (!g_exiting.load(std::memory_order_acquire) || std::this_thread::get_id() == g_exiting_thread) return;
  if (g_ends_now && !g_ends_now()) return;
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

// The most a sleep has overrun what was asked: the host's timer granularity (about 2 ms on some VMs).
std::atomic<Clock::rep> g_oversleep{0};

// Polls `ready` until it is true (returns true) or `until` passes (returns false). Sleeps only where a
// sleep's overrun stays under 1/16 of the time waited, so a wait ends at most ~1/16 late.
bool poll(const std::function<bool()>& ready, Clock::time_point start, Clock::time_point until, bool spin) {
  for (;;) {
    if (ready()) return true;
    park_if_exiting();
    auto now = Clock::now();
    if (now >= until) return false;
    auto waited = now - start;
    if ((spin && waited < kSpin) || waited / 16 < Clock::duration(g_oversleep.load(std::memory_order_relaxed))) {
      std::this_thread::yield();
    } else {
      auto nap = std::min<Clock::duration>(std::clamp<Clock::duration>(waited / 16, kMinSleep, kMaxSleep), until - now);
      std::this_thread::sleep_for(nap);
      auto over = (Clock::now() - now - nap).count();
      for (auto seen = g_oversleep.load(std::memory_order_relaxed); over > seen;)
        if (g_oversleep.compare_exchange_weak(seen, over, std::memory_order_relaxed)) break;
    }
  }
}

}  // namespace

void set_host_hooks(std::function<void(const std::function<void()>&)> blocking, std::function<void()> interrupt) {
  hooks().blocking = std::move(blocking);
  hooks().interrupt = std::move(interrupt);
}

void run_blocking(const std::function<void()>& work) {
  if (hooks().blocking)
    hooks().blocking(work);
  else
    work();
}

void wait_until(const std::function<bool()>& ready, bool spin) {
  if (ready()) return;
  auto start = Clock::now();
  for (auto until = start + kInterruptPeriod;; until += kInterruptPeriod) {
    bool done = false;
    run_blocking([&] { done = poll(ready, start, until, spin); });
    if (done) return;
    if (hooks().interrupt) hooks().interrupt();
  }
}

StepInterrupts::StepInterrupts() : next_(Clock::now() + kInterruptPeriod) {}

void StepInterrupts::run() {
  next_ = Clock::now() + kInterruptPeriod;
  if (hooks().interrupt) hooks().interrupt();
}

void begin_exit(bool (*ends_now)()) {
  g_exiting_thread = std::this_thread::get_id();
  g_ends_now = ends_now;
  g_exiting.store(true, std::memory_order_release);
}

}  // namespace cuarray
