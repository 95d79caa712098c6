// Kernel launches issued by a worker thread, in the order they were queued.
//
// Note [Launch queue]
// cudaLaunchKernel costs more host time than everything else a small op does (the figures of this Note:
// benchmarks/README.md, "Measurements behind the Notes"). So an op does not launch its kernel: it copies the kernel's
// parameters into a slot of a ring and returns, and a worker thread issues the queued launches in order. A loop of
// small ops then costs, per op, the larger of the two threads' times rather than their sum.
//
// Everything else that touches a stream must come after the launches queued before it. drain_launches()
// returns once all of them have been issued (the calling thread issues any still waiting itself, so it never
// waits for the worker to wake), and the core calls it before every other CUDA call: CUARRAY_CHECK_CUDA does,
// as do the math library wrappers, stream and event queries, the frees of the pool, the end of a capture, the
// destruction of a stream and the release of memory another library owns.
//
// Other libraries cannot drain the queue: work they issue on a stream they share with cuarray would overtake
// cuarray's queued launches. So once memory or a stream has been shared with other code (DLPack and
// __cuda_array_interface__, either way, .data.ptr, Stream.ptr), every later launch of the process is issued at
// once, as if there were no queue (share_with_other_code).
//
// A run of queued launches into one stream is issued as one replay of a CUDA graph: a chain of kernel nodes,
// made once per stream and length (a power of two up to 32), whose parameters are set anew for each replay.
// Setting a node's parameters costs a fraction of a launch, and a replay about what one cudaLaunchKernel costs;
// the GPU, too, runs a graph's small kernels back to back faster than kernels launched one by one. A replay is
// ordered in its stream like the launches it stands for.
//
// The worker spins for a short while after its last launch, then sleeps. While it sleeps a launch is issued
// by the calling thread at once, so an isolated op costs what it did without the queue; a second launch soon
// after wakes the worker. Launches into a capturing stream, and kernels whose parameters do not fit a slot,
// are issued at once too. A launch that fails on the worker is reported by the next check_launches().
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <tuple>
#include <vector>

namespace cuarray::cuda {

// Where a kernel's parameters lie in its parameter buffer (cuKernelGetParamInfo).
struct ParamLayout {
  static constexpr int kMaxParams = 64;
  int count = 0;
  std::uint16_t offset[kMaxParams] = {};
  std::uint16_t size[kMaxParams] = {};
  std::size_t bytes = 0;
};

// The layout of `kernel`'s parameters, found once per kernel and kept for the process; null when the driver
// cannot tell it (before CUDA 12.4) or they do not fit a slot: the kernel is then always launched at once.
const ParamLayout* param_layout(cudaKernel_t kernel);

// The size of each of `kernel`'s parameters, asked of the driver (cuKernelGetParamInfo) at each call; false
// when it cannot tell them (before CUDA 12.4).
bool param_sizes(cudaKernel_t kernel, std::vector<std::size_t>& sizes);

// Queues (or issues, Note [Launch queue]) the launch of `kernel` with the parameter values args[i]. Throws the
// error of an earlier launch that failed.
void launch_kernel(cudaKernel_t kernel, void** args, dim3 grid, dim3 block, std::size_t shared_mem,
                   cudaStream_t stream);

namespace detail {
extern std::atomic<std::uint64_t> queued, issued;
void drain_slow();
// Set while ops hold recorded launches not yet given to the queue (Note [Automatic fusion] in
// ops/auto_fusion.h); `flush_recorded` gives them to it.
extern std::atomic<bool> recorded;
extern void (*flush_recorded)() noexcept;
}  // namespace detail

// Returns once every launch queued (or recorded) so far has been issued to CUDA. Never throws: a failed launch
// is kept for check_launches.
inline void drain_queued_launches() {
  if (detail::issued.load(std::memory_order_acquire) != detail::queued.load(std::memory_order_acquire))
    detail::drain_slow();
}
inline void drain_launches() {
  if (detail::recorded.load(std::memory_order_acquire)) detail::flush_recorded();
  drain_queued_launches();
}
// drain_queued_launches() issues the queue alone, leaving recorded launches recorded: for the free of memory that
// no recorded launch uses (ops/auto_fusion.h flushes before the memory it reads or writes is freed).

// Issues the recorded launches (to the queue), and releases the memory that chains kept of the values the program
// dropped (Note [Automatic fusion] in ops/auto_fusion.h: a chain holds it until it has run, and a user allocator's
// may wait for a thread that can release it), even where nothing is recorded: for the pool's retry when memory
// runs short, and free_all_blocks.
inline void settle_recorded() {
  if (detail::flush_recorded) detail::flush_recorded();
}

// Sets the function that issues recorded launches, and whether there are any.
void set_flush_recorded(void (*flush)() noexcept);
void set_recorded(bool any);
// Whether a launch may wait in the queue now: false while a capture is in progress or once memory was shared
// with other code (Note [Launch queue]). Recorded launches follow the same rule.
bool launches_may_wait();
// Keeps `error`, raised where recorded work was issued by a call that cannot raise, for the next
// check_launches (as a failed queued launch is kept).
void keep_launch_error(std::exception_ptr error);
// drain_launches, then throws the CudaError of a queued launch that failed (once). Called by every launch and
// every wait for the device.
void check_launches();

// Memory or a stream is being shared with other code: drains the queue, and from now on every launch is issued
// at once (Note [Launch queue]).
void share_with_other_code();

// `stream` is about to be destroyed: drains the queue and drops the graphs that replayed its launches.
void forget_stream(cudaStream_t stream);

// Counts captures in progress; while there is one, launches are issued at once.
void capture_began();
void capture_ended();
// Whether a capture is in progress anywhere in the process.
bool capture_in_progress();

// Launches queued so far, how many of them the worker issued (the rest were issued by their own or a draining
// thread), and how many were issued within a graph: for tests.
std::tuple<std::uint64_t, std::uint64_t, std::uint64_t> launch_counts();

// Drains the queue and joins the worker: before a fork (a later launch starts a new worker) and at exit (after
// which launches are issued at once).
void stop_launch_worker(bool at_exit = false);

}  // namespace cuarray::cuda
