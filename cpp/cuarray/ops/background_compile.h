// Kernels compiled on a thread of their own while the ops that want them run another way.
//
// Note [Background compiles]
// A chain of ops fused automatically (Note [Automatic fusion] in auto_fusion.h) needs a kernel of its own, and
// NVRTC takes tens of milliseconds to compile one: longer than running the chain op by op many times. So the
// kernel is compiled on a thread of its own, one kernel at a time, while the chain keeps running op by op; the
// first flush after the compile finished loads the kernel (on the flushing thread, which owns the device) and
// launches it from then on. The compile goes through the disk cache (jit::cached_binary), so a later process
// finds the kernel there. The compiling thread needs no device and holds no lock while it reports to the host
// (Note [Kernel cache log]); before a fork and at exit it finishes the compile in hand and is joined, with Python's
// lock let go. A compile that fails leaves the op-by-op path in place for that kernel, silently: the ops it stands
// for already ran that way.
//
// A later process must not wait for the compiling thread to read the kernel from disk: that thread takes Python's
// lock to ask the cache's hooks, which a Python loop holds for milliseconds at a time, so a short loop (a lesson's
// twenty-call benchmark) passes before the kernel is ready. Nor may the flush that asks for the kernel read the disk
// itself: the flush holds the chain's lock, and the hooks run Python, which may record ops or drop arrays of the
// chain in flight. So an asked-for kernel waits, counted as a compile in hand, for the next recorded op, whose thread
// holds Python's lock and no lock of the core (start_deferred_compiles): there it is loaded from memory or the disk
// cache, in under a millisecond, or else handed to the compiling thread. A chain whose kernel is on disk thus runs
// fused from its third run on. The load waits while a capture is in progress (a capture refuses it), and for the
// first op of a chain (its drain would flush the chain being recorded; ops/auto_fusion.cpp). A file whose image the
// driver refuses is compiled afresh and replaced; a load that fails otherwise (no memory) leaves the kernel to the
// compiling thread.
#pragma once

#include <string>
#include <vector>

#include "cuarray/jit/kernel_cache.h"
#include "cuarray/ops/kernel_registry.h"

namespace cuarray::ops {

// The kernel of `key` if its background compile has finished (then loaded and stored in the registry), else
// null. The first time a key is asked for, `make()` gives the KernelSource to compile with `options`, kept for
// start_deferred_compiles.
template <class MakeSource>
jit::Kernel background_kernel(const WideKey& key, const std::vector<std::string>& options, MakeSource&& make);

namespace detail {
enum class BackgroundState { Unknown, Deferred, Compiling, Ready, Failed };
// The state of `key`'s compile; when Ready, `kernel` is loaded.
BackgroundState background_state(const WideKey& key, jit::Kernel& kernel);
// Keeps `source` for start_deferred_compiles.
void defer(const WideKey& key, KernelSource source, std::vector<std::string> options);
}  // namespace detail

template <class MakeSource>
jit::Kernel background_kernel(const WideKey& key, const std::vector<std::string>& options, MakeSource&& make) {
  jit::Kernel kernel;
  const detail::BackgroundState state = detail::background_state(key, kernel);
  if (state == detail::BackgroundState::Unknown) detail::defer(key, make(), options);
  return kernel;
}

// The kernels asked for since the last call: loaded from memory or the disk cache, or handed to the compiling
// thread. For a thread that holds Python's lock and no lock of the core (the cache's hooks run Python); one atomic
// read when there are none.
void start_deferred_compiles();

// Waits for the compile in hand and joins the thread, before a fork and at exit. Before a fork the compiles still
// waiting start on a new thread when a kernel is next asked for. At exit (`for_good`) none starts again: a thread
// started while the interpreter is torn down (by an op in a later exit handler or a finaliser) would report its
// compile to Python's log as Python goes away. The kernels still waiting, and those asked for later, are not
// compiled: their chains run op by op.
void finish_background_compiles(bool for_good = false) noexcept;

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
