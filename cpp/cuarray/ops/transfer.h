// Host <-> device copies.
//
// Note [Staged transfers]
// Copying pageable host memory lets the driver stage it through a small pinned buffer, one chunk at a time, with the
// host copy and the DMA serialised: a fraction of the link's bandwidth (the figures: benchmarks/README.md,
// "Measurements behind the Notes"). We stage ourselves instead: a ring of pinned slots per device, the host-side memcpy
// split across a few threads, and the DMA of one chunk overlapping the memcpy of the next. Pinned host memory (from
// cuda.alloc_pinned_memory or registered) skips the staging.
#pragma once

#include "cuarray/array.h"

namespace cuarray::ops {

// Copies dst.nbytes() bytes from host memory into the (C- or F-) contiguous `dst`, ordered on the current
// stream. Returns once `src` may be reused; the copy to the device may still be in flight.
void copy_from_host(const Array& dst, const void* src);
// Copies the contiguous `src` into host memory; returns when the bytes are there (synchronises the stream).
void copy_to_host(void* dst, const Array& src);
// Copies `n` bytes of device memory of the current device into host memory after the work queued so far on the
// current stream, as copy_to_host does but running no deferred checks: how an op reads back a count, a flag or
// bounds. Never a raw cudaMemcpy into the op's own host memory: a copy to pageable memory blocks inside the
// driver, and no wait for a copy into memory that may be freed could be interrupted (Note [Interruptible
// waits] in blocking.h); the staging slots outlive an abandoned wait.
void read_back(void* dst, const void* src, std::size_t n);
// Returns the staging slots to the pinned pool (after their last copies), then the pool's cached blocks to
// the system: the pinned pool's free_all_blocks, after which a leak checker sees no pinned memory of ours.
void free_pinned_blocks();

// Note [Peer copies]
// An array of another device is copied device to device (cudaMemcpyPeerAsync: NVLink or PCIe peer DMA where
// the GPUs have it, staged by the driver where they do not), on the current stream after the work queued on
// the source device's current stream; that stream then waits for the copy, so the source's pool cannot
// hand its memory to new work before the copy has read it. No host synchronisation.

// A copy of `src` (any device, any layout) on the current device, C-contiguous unless `src` is F-contiguous.
Array copy_from_device(const Array& src);

}  // namespace cuarray::ops
