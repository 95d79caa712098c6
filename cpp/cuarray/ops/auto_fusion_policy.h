// What automatic fusion records (Note [Automatic fusion] in ops/auto_fusion.h): the sizes each thread records now
// (Note [Recording small arrays]). Which ufunc loops it records is fusable_loop() in ops/auto_fusion.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuarray/array.h"
#include "cuarray/ops/elementwise.h"

namespace cuarray::ops::auto_fusion {

// How a flushed chain ran: as one kernel; op by op while its kernel compiles in the background; op by op.
enum class ChainRun { Fused, Compiling, OpByOp };

// Whether the calling thread records an op making `output` from `inputs` (`nin` of them) now. An op of small
// arrays not recorded while recording them is paused is watched, to end the pause early.
bool records(const Array& output, const Input* inputs, int nin);
// Counts a flushed chain of `size` elements and `steps` steps, run as `run` says, for or against recording small
// arrays. Called under the chain's lock.
void judge_chain(std::int64_t size, std::size_t steps, ChainRun run);
// Times small ops went back to eager runs.
std::uint64_t small_pauses();

// The calling thread's setting: -1 the process default, 0 off, 1 every size.
int thread_setting();
void set_thread_setting(int setting);
// The smallest output the calling thread always records (INT64_MAX: none).
std::int64_t min_size();

}  // namespace cuarray::ops::auto_fusion
