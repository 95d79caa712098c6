// The core's polling wait (Note [Interruptible waits] in cpp/cuarray/blocking.h) with a clock for a query:
// the hooks it calls, how often, and how soon it returns. No device is involved.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>

#include "cuarray/blocking.h"
#include "cuarray/lib/library.h"

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

struct Counts {
  int blocking = 0, interrupts = 0;
};

// Installs counting hooks for one test; `throw_at` > 0 makes that interrupt check throw.
class Hooks {
 public:
  explicit Hooks(Counts& c, int throw_at = 0) {
    cuarray::set_host_hooks(
        [&c](const std::function<void()>& work) {
          ++c.blocking;
          work();
        },
        [&c, throw_at] {
          if (++c.interrupts == throw_at) throw std::runtime_error("interrupted");
        });
  }
  ~Hooks() { cuarray::set_host_hooks(nullptr, nullptr); }
};

std::function<bool()> ready_after(milliseconds delay) {
  auto at = Clock::now() + delay;
  return [at] { return Clock::now() >= at; };
}

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

TEST(WaitUntil, ReadyAtOnceCallsNoHook) {
  Counts c;
  Hooks h(c);
  int queries = 0;
  cuarray::wait_until([&] { return ++queries > 0; });
  EXPECT_EQ(queries, 1);
  EXPECT_EQ(c.blocking, 0);
  EXPECT_EQ(c.interrupts, 0);
}

TEST(WaitUntil, ShortWaitPollsInsideOneBlockingCall) {
  Counts c;
  Hooks h(c);
  auto start = Clock::now();
  cuarray::wait_until(ready_after(milliseconds(20)));
  double waited = ms_since(start);
  EXPECT_GE(waited, 20.0);
  EXPECT_LT(waited, 35.0);  // the sleeps grow to 20/16 ms at most by then
  EXPECT_EQ(c.blocking, 1);
  EXPECT_EQ(c.interrupts, 0);
}

TEST(WaitUntil, ChecksForInterruptsEvery50Milliseconds) {
  Counts c;
  Hooks h(c);
  cuarray::wait_until(ready_after(milliseconds(180)), false);
  EXPECT_EQ(c.interrupts, 3);  // at 50, 100 and 150 ms
  EXPECT_EQ(c.blocking, 4);
}

TEST(WaitUntil, AnInterruptEndsTheWait) {
  Counts c;
  Hooks h(c, 2);
  auto start = Clock::now();
  EXPECT_THROW(cuarray::wait_until(ready_after(std::chrono::seconds(10))), std::runtime_error);
  double waited = ms_since(start);
  EXPECT_GE(waited, 100.0);
  EXPECT_LT(waited, 1000.0);
  EXPECT_EQ(c.interrupts, 2);
}

TEST(WaitUntil, QueryErrorsPropagate) {
  Counts c;
  Hooks h(c);
  int queries = 0;
  EXPECT_THROW(cuarray::wait_until([&]() -> bool {
                 if (++queries == 3) throw std::logic_error("device error");
                 return false;
               }),
               std::logic_error);
  EXPECT_EQ(queries, 3);
}

TEST(WaitUntil, WithoutHooksItStillWaits) {
  auto start = Clock::now();
  cuarray::wait_until(ready_after(milliseconds(60)));
  EXPECT_GE(ms_since(start), 60.0);
}

TEST(RunBlocking, RunsTheWorkThroughTheHook) {
  Counts c;
  Hooks h(c);
  int ran = 0;
  cuarray::run_blocking([&] { ++ran; });
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(c.blocking, 1);
}

// A library function as the Api tables hold it: a C function returning a status, with out-parameters.
int scale_into(long long n, const double* in, double* out) {
  for (long long i = 0; i < n; ++i) out[i] = 2 * in[i];
  return n > 0 ? 0 : 7;
}

// Note [Library calls wait for the device]: a Blocking entry calls the library through the blocking hook (where
// the bindings let the GIL go), with its arguments and its status as they were.
TEST(LibraryBlocking, CallsThroughTheHookWithArgumentsAndStatus) {
  Counts c;
  Hooks h(c);
  cuarray::lib::Blocking<decltype(&scale_into)> f;
  f.fn = &scale_into;
  const double in[3] = {1, 2, 3};
  double out[3] = {};
  EXPECT_EQ(f(3, in, out), 0);
  EXPECT_EQ(out[2], 6.0);
  EXPECT_EQ(f(0, in, out), 7);
  EXPECT_EQ(c.blocking, 2);
}

// Note [Interrupts between steps]: a loop of waits each shorter than 50 ms.
TEST(StepInterrupts, ALoopOfShortWaitsChecksEvery50Milliseconds) {
  Counts c;
  Hooks h(c);
  cuarray::StepInterrupts interrupts;
  auto start = Clock::now();
  while (ms_since(start) < 180) {
    interrupts.check();
    cuarray::wait_until(ready_after(milliseconds(5)), false);
  }
  EXPECT_GE(c.interrupts, 3);  // at 50, 100 and 150 ms, give or take a step
  EXPECT_LE(c.interrupts, 4);
}

TEST(StepInterrupts, ChecksNothingBefore50Milliseconds) {
  Counts c;
  Hooks h(c);
  cuarray::StepInterrupts interrupts;
  for (int i = 0; i < 100000; ++i) interrupts.check();
  EXPECT_EQ(c.interrupts, 0);
}

TEST(StepInterrupts, AnInterruptEndsTheLoop) {
  Counts c;
  Hooks h(c, 1);
  cuarray::StepInterrupts interrupts;
  auto start = Clock::now();
  int steps = 0;
  EXPECT_THROW(
      for (;;) {
        interrupts.check();
        cuarray::wait_until(ready_after(milliseconds(2)), false);
        ++steps;
      },
      std::runtime_error);
  double waited = ms_since(start);
  EXPECT_GE(waited, 50.0);
  EXPECT_LT(waited, 500.0);
  EXPECT_GE(steps, 10);
}

TEST(StepInterrupts, WithoutHooksNothingThrows) {
  cuarray::StepInterrupts interrupts;
  auto start = Clock::now();
  while (ms_since(start) < 60) interrupts.check();
}

}  // namespace
