// Automatic fusion of eager elementwise code: ufunc calls recorded as a chain, run as one kernel.
//
// Note [Automatic fusion]
// Eager code such as `z = x * 2.0 + y; z = z * z - x` launches one kernel per operator, and on small arrays
// the launches, not the arithmetic, take the time. So a ufunc call that makes a new array does not launch: it
// resolves its loop, allocates its output and raises its errors as before, then records the application in the
// pending chain of the process and returns. The chain is flushed (issued) before anything else reaches CUDA:
// drain_launches() and every other launch flush it first (cuda/launch_queue.h), so copies to the host, events,
// synchronisation, library calls and other kernels all see its results, in program order. When flushed, a chain
// runs as one kernel if one was compiled for it, else op by op, exactly as the ufuncs would have run.
//
// Which values the kernel writes is decided at the flush, from what the program still holds:
// - The chain watches the buffers it reads and writes (cuda::Buffer::watched), and from the first step that reads
//   a value on, it owns that value's memory too (one more owner of its buffer). A value read whose last owner is
//   the chain when it is flushed is dead: the program has dropped it, and no one can own it again, so the fused
//   kernel keeps it in registers and never writes it. Its memory stays with the chain until the chain has run,
//   because a chain run op by op (seen once, its kernel compiling, or its fusion failed) writes the value there, as
//   its ufunc would have. So a flush allocates nothing: an allocation there could fail (out of memory, a user
//   allocator that raises) where eager code, which allocated the value at its call, did not, and a flush cannot
//   raise (its error would wait for a later call, the program's arrays unwritten). The chain lets go of the memory
//   once it no longer needs it: after the fused kernel, or op by op after the value's last read (a pool's release
//   is stream-ordered, as any); a user allocator's, whose object is dropped in Python, without the chain's lock and
//   on a thread that holds Python's lock (release_kept_memory): at the end of the flush, or else at the next
//   recorded call, flush, dying buffer or user allocation. Dropping an array whose value the chain owns thus costs
//   the program nothing but the count, where a value that died into the chain's hands once took the chain's lock.
// - When the program drops an input of the chain, or a value no step has read yet, the chain is flushed first:
//   the memory must hold its data until the chain has read or written it, and a value nothing reads is still
//   computed (no work the program asked for is skipped). A benchmark loop that drops each result therefore
//   runs one kernel per iteration.
// So memory is held at most until the chain runs, never where eager execution would have used it again: an
// allocation from the pool that fails first runs the recorded chain and retries (cuda::MemoryPool::allocate);
// free_all_blocks, and with it the retries of other libraries' allocations (Note [Memory for other libraries]),
// runs it before giving cached memory back; and the bindings run it before they report the pool's counts
// (used_bytes, free_bytes, n_free_blocks), which are then eager execution's. Every array the program holds is
// filled in.
//
// Results are bit for bit those of eager execution. Each step is its ufunc's own table row with its own loop
// types, its result rounded to its dtype as the eager kernel stores it. Fused kernels are compiled with FMA
// contraction off, so no multiply is fused with another step's add; and only ufuncs whose every loop compiles to
// the same machine code with contraction on or off are recorded (fusable_loop(); tests/test_auto_fusion_nogpu.py
// compiles them both ways). The eager kernels keep contraction on, as before.
//
// A chain is recorded only where it can be fused: one stream and device, one shape, new outputs (an `out=`
// argument, an in-place operator or anything else runs eagerly, after the chain); an input that is a different
// view of a value the chain computes flushes the chain first. Nothing is recorded while a capture is in progress
// or once memory has been shared with other code (the launch queue's own rules). A chain seen once runs op by
// op: its kernel is compiled in the background from its second flush on (Note [Background compiles]), and is
// used once ready. The "cuarray.fusion" logger reports each chain first run fused.
//
// Recording an op costs the calling thread about what queueing its launch does, so what fusion saves is device
// time: the launches of a chain's small kernels (about a microsecond each on the device), and the memory traffic
// of its intermediates, which on large arrays is most of the time. Ops whose output has at least 2^20 elements
// are always recorded by default: there the saving is large and never below the cost. Smaller ones are recorded
// while that pays (Note [Recording small arrays]). CUARRAY_AUTO_FUSE=1, or `with cuarray.auto_fuse():` for the
// calling thread, records every size; CUARRAY_AUTO_FUSE=large the large ones alone; CUARRAY_AUTO_FUSE=0 or
// cuarray.auto_fuse(False) turns recording off.
//
// Note [Recording small arrays]
// On small arrays the host's time is the cost: recording an op and flushing its chain cost the calling thread more than
// queueing the op's launch, and a chain run as one kernel saves the other ops' launches. So a chain of one or two ops
// costs more recorded than eager, and a chain of three or more run fused costs less (the figures:
// benchmarks/README.md). Whether a program's small chains are of the second kind is seen only as it runs, so by default
// small ops are recorded while they are (ops/auto_fusion_policy.cpp): each flushed chain of small arrays counts as a
// gain when it had at least kSmallGain steps and ran as one kernel, and as a loss otherwise. After kSmallLosses losses
// in a row the next kSmallPause small ops run eagerly, and recording is then tried again; a loop of lone ops therefore
// pays for a few recorded ops every two thousand. Two things end a pause sooner, so that a short loop of long chains
// after many lone ops (a lesson's ten-call `benchmark(squared_diff, ...)`) is not run eagerly throughout:
// - the ops run eagerly during it are watched: when, over kWindow of them, more than half read the result of one of
//   the thread's last few ops (each result counted once), the program runs chains of three or more again (a chain of
//   two reads one result in two ops; a lone op none), and recording resumes at once. A program whose chains look
//   long but do not fuse (an op that cannot be recorded in the middle) would end every pause so; each early end
//   therefore doubles the windows the next needs (up to 32: the whole pause), and a gain resets them;
// - a chain of kSmallGain steps or more whose kernel is still compiling (from the chain's second flush on: Note
//   [Background compiles]) counts neither way. Run recorded op by op it costs more than eager code, so small ops run
//   eagerly until no compile is pending (at most kSmallPause of them), and the next chain finds its kernel ready. A
//   compile that failed leaves none pending, and its chain counts as a loss. The first chain judged after such a
//   wait ends counts neither way: its first ops may have run inside the wait, and a compile that outlasts several
//   waits (behind other compiles, on a busy host) would otherwise pause recording with these cut chains' losses.
// A program that seldom runs a chain of three or more thus loses next to nothing to recording, and a loop of long
// chains is fused once its kernel is ready; the results are the same bits either way.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cuarray/array.h"
#include "cuarray/ops/elementwise.h"

namespace cuarray::ops {

// Records one application of ufunc `index` (its table row `def`, loop types `in`/`out`, one new `output`)
// instead of launching it, where it can join the pending chain; false where it must launch now (the caller then
// launches it). Raises, before recording, what the launch would raise before launching.
bool record_ufunc(int index, const ElementwiseDef& def, const DType* in, const DType* out, const Input* inputs,
                  const Array& output, const Shape& shape);

// Issues the pending chain. Never throws: an error is kept for check_launches (cuda/launch_queue.h).
void flush_recorded() noexcept;

// Releases the memory of dropped values that flushed chains kept (Note [Automatic fusion]) whose release runs the
// host's code (a user allocator's), where the calling thread may run that code (set_release_check) and holds no
// lock of the chain; a flush releases it where it can, this is for the places that need it released (before a
// user allocator is asked for memory). One atomic read when there is none.
void release_kept_memory() noexcept;
// Receives the question whether the calling thread may run such a release now; the bindings answer whether it
// holds Python's lock, as the log's receiver does. Without one, it may.
void set_release_check(bool (*may_release)());

// The calling thread's setting: -1 the process default (CUARRAY_AUTO_FUSE: unset, arrays of 2^20 elements and
// more; "0", "false", "off" or "no", none; "1" or anything else, every size), 0 off, 1 every size. Setting it
// returns the previous one and flushes.
int auto_fusion_setting();
int set_auto_fusion(int setting);
// The smallest output the calling thread records now (INT64_MAX: none).
std::int64_t auto_fusion_min_size();
// Flushes and records nothing more: at exit.
void stop_auto_fusion() noexcept;

struct AutoFusionStats {
  std::uint64_t recorded = 0;      // ufunc calls recorded
  std::uint64_t chains = 0;        // chains flushed
  std::uint64_t fused_chains = 0;  // of them, run as one kernel
  std::uint64_t fused_ops = 0;     // ufunc calls run inside fused kernels
  std::uint64_t written = 0;       // values fused kernels wrote (the others stayed in registers)
  std::uint64_t small_pauses = 0;  // times small ops went back to eager runs (Note [Recording small arrays])
};
AutoFusionStats auto_fusion_stats();

// Receives one line for each chain first run as one kernel and each kernel given to the background compiler;
// returns false where it cannot take it on the calling thread (which may then hold the core's locks), and gets it
// again at the next recorded call or flush. The receiver must not call into cuarray.
void set_fusion_log(bool (*log)(const std::string& message));

// Whether ufunc `index` may be recorded with loop types `in`/`out`.
bool fusable_loop(int index, const DType* in, const DType* out);
// The ufuncs that may be, with the loops they may be recorded with: "real" (no complex type), "complex" (any)
// or "integer" (bool and integer types alone).
std::vector<std::pair<std::string, std::string>> fusable_ufuncs();

}  // namespace cuarray::ops
