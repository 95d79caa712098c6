// CUARRAY_CHECK_CUDA: a checked CUDA runtime call, ordered after the kernel launches queued before it.
// Here rather than in error.h, which defines the exception types and includes nothing of cuda/.
#pragma once

#include "cuarray/cuda/launch_queue.h"
#include "cuarray/error.h"

// Every checked CUDA call comes after the kernel launches queued before it (Note [Launch queue]).
#define CUARRAY_CHECK_CUDA(expr) ::cuarray::check_cuda((::cuarray::cuda::drain_launches(), (expr)), #expr)
