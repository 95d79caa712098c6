// Long blocking calls (waits for the device, NVRTC compilation) and the two hooks through which the host
// program takes part in them.
//
// Note [Interruptible waits]
// cudaStreamSynchronize and cudaEventSynchronize cannot be interrupted: a Ctrl-C during a long kernel would
// only be seen once the kernel ends. Every wait of the core is instead a poll (wait_until): one query, then
// queries while yielding the CPU for the first millisecond (as CUDA's own synchronize spins), then sleeps of
// a sixteenth of the time waited so far, at most 1 ms, so a wait ends at most ~6% (and 1 ms) after the work
// does. A wait that is over at its first query costs that query alone, as much as cudaStreamSynchronize on
// an idle stream. Past the first query the poll runs inside the host's blocking hook (the Python bindings
// release the GIL there), and every 50 ms the host's interrupt check runs; whatever it throws (the bindings'
// KeyboardInterrupt) ends the wait, leaving the device work to finish on its own. A C++ program that
// installs no hooks gets plain blocking waits. Loops of shorter waits check too: Note [Interrupts between steps].
//
// Note [Interrupts between steps]
// wait_until runs the interrupt check only once one wait has lasted 50 ms. A loop of many shorter steps never
// gets there: a staged copy of gigabytes (ops/transfer.cpp) moves 8 MiB chunks, each wait well under 50 ms, so
// a Ctrl-C came only after the whole copy, seconds later. Such a loop makes a StepInterrupts before its first
// step and calls check() between steps: the host's interrupt check (the same hook the waits run) runs there once
// 50 ms have passed since the loop began or since its last check, whatever the waits inside the steps did. What
// the check throws ends the loop at that point, so the loop's state must be consistent between steps (work still
// queued on the device may go on, as it does after an abandoned wait). A check() that runs nothing costs one read
// of the steady clock, nothing next to a step that moves megabytes.
#pragma once

#include <chrono>
#include <functional>

namespace cuarray {

// `blocking` runs the work it is given (the host may let other threads run meanwhile); `interrupt` may
// throw to abandon a wait. Set once, before the first wait.
void set_host_hooks(std::function<void(const std::function<void()>&)> blocking, std::function<void()> interrupt);

// Runs `work` (a blocking call that touches no host state) through the host's blocking hook.
void run_blocking(const std::function<void()>& work);

// Returns once `ready()` is true, polling as Note [Interruptible waits] says; `spin`: yield rather than sleep
// during the first millisecond. Exceptions from `ready` and from the interrupt check propagate.
void wait_until(const std::function<bool()>& ready, bool spin = true);

// Note [Interrupts between steps].
class StepInterrupts {
 public:
  StepInterrupts();
  // Runs the host's interrupt check if 50 ms have passed since construction or the last check; may throw.
  void check() {
    if (std::chrono::steady_clock::now() >= next_) run();
  }

 private:
  void run();
  std::chrono::steady_clock::time_point next_;
};

// The host program has begun to exit in the calling thread: from then on a wait of any other thread that has
// to poll sleeps until the process ends instead, touching neither the host's state nor the device while they
// are torn down (Note [Exit while waiting] in python/src/gil.h). With `ends_now`, only once it returns true: the
// host's other exit handlers may still wait for those threads (it is polled without the host's lock).
void begin_exit(bool (*ends_now)() = nullptr);

}  // namespace cuarray
