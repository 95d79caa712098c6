#include "cuarray/blocking.h"

#include <algorithm>
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

// Polls `ready` until it is true (returns true) or `until` passes (returns false).
bool poll(const std::function<bool()>& ready, Clock::time_point start, Clock::time_point until, bool spin) {
  for (;;) {
    if (ready()) return true;
    auto now = Clock::now();
    if (now >= until) return false;
    auto waited = now - start;
    if (spin && waited < kSpin) {
      std::this_thread::yield();
    } else {
      auto nap = std::clamp<Clock::duration>(waited / 16, kMinSleep, kMaxSleep);
      std::this_thread::sleep_for(std::min<Clock::duration>(nap, until - now));
    }
  }
}

}  // namespace

void set_host_hooks(std::function<void(const std::function<void()>&)> blocking, std::function<void()> interrupt) {
  hooks().blocking = std::move(blocking);
  hooks().interrupt = std::move(interrupt);
}

void run_blocking(const std::function<void()>& work) {
  if (hooks().blocking) hooks().blocking(work);
  else work();
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

}  // namespace cuarray
