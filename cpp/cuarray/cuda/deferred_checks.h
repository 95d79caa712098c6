// Checks of results that the device computes, run when the calling thread next waits for the device instead of
// at the call that queued the work.
#pragma once

#include <functional>
#include <memory>

namespace cuarray::cuda {

class Event;

// Note [Deferred checks]
// linalg's inv, solve, cholesky, eigh, eig and svd learn whether a matrix was singular (or did not converge)
// from values the device writes. Reading them at the call makes the host wait for the factorisation, so work
// given to a second stream right after cannot overlap it: a lesson's two inversions on two streams ran one after
// the other, slower than CuPy's (CuPy does not check). On a stream the user made, the check is therefore kept
// with an event recorded after the values were copied to the host, and is run when that thread next waits for
// the device: Stream.synchronize, Event.synchronize, Device.synchronize, or a copy to the host (get, asnumpy,
// item). The error (NumPy's LinAlgError) is raised there, once. On the null stream checks stay at the call, as
// NumPy users expect. The lesson's two streams then overlap and take CuPy's time (the figures:
// benchmarks/README.md, "Measurements behind the Notes").

// Keeps `check` until `done` has completed; `check` throws if what it checks is wrong.
void defer_check(std::shared_ptr<Event> done, std::function<void()> check);
// Runs the calling thread's kept checks whose events have completed, and throws the first error among them.
void run_deferred_checks();

}  // namespace cuarray::cuda
