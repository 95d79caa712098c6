// Large host memcpys split among a few threads: the host side of staged transfers (ops/transfer.cpp).
//
// Note [Shared copy threads]
// The copy threads are one set for the process, and host transfers run on many threads at once (a thread per
// device, each with its own staging slots). One caller at a time hands parts of its copy to the threads; a
// caller that finds them busy copies alone. Letting a second caller's parts in beside the first's would need
// a job list per caller; waiting for the first would serialize transfers that used to run side by side.
#pragma once

#include <cstddef>

namespace cuarray {

// Copies n bytes from src to dst (host memory, not overlapping), split among the copy threads when it is large
// enough to gain; the threads start at the first such copy, not at a process's first small readback.
void host_copy(void* dst, const void* src, std::size_t n);

// Writes every page of dst (contents undefined until it is copied into) so that the page faults of fresh host
// memory are taken by all threads at once, while DMAs run, instead of inside the copies after them.
void prefault_pages(void* dst, std::size_t n);

}  // namespace cuarray
