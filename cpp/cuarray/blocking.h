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
// installs no hooks gets plain blocking waits.
#pragma once

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

// The host program has begun to exit in the calling thread: from then on a wait of any other thread that has
// to poll sleeps until the process ends instead, touching neither the host's state nor the device while they
// are torn down (Note [Exit while waiting] in python/src/gil.h). With `ends_now`, only once it returns true: the
// host's other exit handlers may still wait for those threads (it is polled without the host's lock).
void begin_exit(bool (*ends_now)() = nullptr);

}  // namespace cuarray
