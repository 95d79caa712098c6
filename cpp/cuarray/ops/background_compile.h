// Kernels compiled on a thread of their own while the ops that want them run another way.
//
// Note [Background compiles]
// A chain of ops fused automatically (Note [Automatic fusion] in auto_fusion.h) needs a kernel of its own, and
// NVRTC takes tens of milliseconds to compile one: longer than running the chain op by op many times. So the
// kernel is compiled on a thread of its own, one kernel at a time, while the chain keeps running op by op; the
// first flush after the compile finished loads the kernel (on the flushing thread, which owns the device) and
// launches it from then on. The compile goes through the disk cache (jit::cached_binary), and a kernel already
// there (a later process of the same program) is read and loaded at once on the asking thread instead, in under
// a millisecond: a chain then runs fused from its second run on, so a short loop such as a lesson's ten-call
// benchmark, whose calls would all pass before a background load, is fused throughout. The compiling thread needs no
// device and holds no lock while it reports to the host (Note [Kernel cache log]); before a fork and at exit it
// finishes the compile in hand and is joined, with Python's lock let go. A compile that fails leaves the op-by-op path
// in place for that kernel, silently: the ops it stands for already ran that way.
#pragma once

#include <string>
#include <vector>

#include "cuarray/jit/kernel_cache.h"
#include "cuarray/ops/kernel_registry.h"

namespace cuarray::ops {

// The kernel of `key` if its background compile has finished (then loaded and stored in the registry), else
// null. The first time a key is asked for, `make()` gives the KernelSource to compile with `options`; where the disk
// cache holds its binary, the kernel is loaded then and returned.
template <class MakeSource>
jit::Kernel background_kernel(const WideKey& key, const std::vector<std::string>& options, MakeSource&& make);

namespace detail {
enum class BackgroundState { Unknown, Compiling, Ready, Failed };
// The state of `key`'s compile; when Ready, `kernel` is loaded.
BackgroundState background_state(const WideKey& key, jit::Kernel& kernel);
// Loads `source` from the disk cache, on the calling thread, and keeps it as `key`'s kernel: false where the cache
// does not hold it.
bool load_from_disk(const WideKey& key, const KernelSource& source, const std::vector<std::string>& options,
                    jit::Kernel& kernel);
void start_background(const WideKey& key, KernelSource source, std::vector<std::string> options);
}  // namespace detail

template <class MakeSource>
jit::Kernel background_kernel(const WideKey& key, const std::vector<std::string>& options, MakeSource&& make) {
  jit::Kernel kernel;
  const detail::BackgroundState state = detail::background_state(key, kernel);
  if (state == detail::BackgroundState::Unknown) {
    KernelSource source = make();
    if (!detail::load_from_disk(key, source, options, kernel))
      detail::start_background(key, std::move(source), options);
  }
  return kernel;
}

// Waits for the compile in hand and joins the thread, before a fork and at exit; the compiles still waiting
// start on a new thread when a kernel is next asked for.
void finish_background_compiles() noexcept;

// Kernels asked for and not compiled yet (waiting or compiling): read without a lock, for automatic fusion's
// recording policy (Note [Recording small arrays] in ops/auto_fusion.h).
std::size_t background_compiles_pending() noexcept;

// Background compiles started, finished and failed (to compile or to load) so far, and an error: for tests.
struct BackgroundCounts {
  std::size_t started, finished, failed;
  std::string last_error;
};
BackgroundCounts background_compile_counts();

}  // namespace cuarray::ops
