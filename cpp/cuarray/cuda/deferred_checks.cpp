#include "cuarray/cuda/deferred_checks.h"

#include <exception>
#include <utility>
#include <vector>

#include "cuarray/cuda/event.h"
#include "cuarray/cuda/launch_queue.h"

namespace cuarray::cuda {

namespace {

struct Pending {
  std::shared_ptr<Event> done;
  std::function<void()> check;
  std::exception_ptr error;  // set once the check has run and failed
};

bool completed(const Event& e) { return cudaEventQuery(e.handle()) != cudaErrorNotReady; }

struct Kept {
  std::vector<Pending> pending;
  // The checks read host memory that the device copies into: it must not go back to the pinned pool while a
  // copy may still land there.
  ~Kept() {
    for (auto& p : pending) cudaEventSynchronize(p.done->handle());
  }
};

thread_local Kept kept;

}  // namespace

void defer_check(std::shared_ptr<Event> done, std::function<void()> check) {
  // Checks that have passed are dropped here, so that a thread that never waits keeps only its failures.
  drain_launches();
  auto& pending = kept.pending;
  for (auto it = pending.begin(); it != pending.end();) {
    if (it->error || !completed(*it->done)) {
      ++it;
      continue;
    }
    try {
      it->check();
      it = pending.erase(it);
    } catch (...) {
      it->error = std::current_exception();
      ++it;
    }
  }
  pending.push_back({std::move(done), std::move(check), nullptr});
}

void run_deferred_checks() {
  auto& pending = kept.pending;
  if (pending.empty()) return;
  std::exception_ptr first;
  for (auto it = pending.begin(); it != pending.end();) {
    if (!it->error && !completed(*it->done)) {
      ++it;
      continue;
    }
    std::exception_ptr error = it->error;
    if (!error) {
      try {
        it->check();
      } catch (...) {
        error = std::current_exception();
      }
    }
    it = pending.erase(it);
    if (error && !first) first = error;
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace cuarray::cuda
