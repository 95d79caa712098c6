// The atomic operations CuPy's <cupy/atomics.cuh> adds to CUDA's, for user kernels: atomicAdd on long long (CUDA
// has it on unsigned long long alone; two's complement makes the sum the same bits), and atomicMax and atomicMin on
// float and double (CUDA has them on integers alone), which keep the number where one operand is NaN, as fmax and
// fmin do. ElementwiseKernel and ReductionKernel bodies have them without an include, as CuPy's have; a RawKernel
// includes <cupy/atomics.cuh> (Note [User kernel headers] in cpp/cuarray/jit/kernel_cache.cpp). CuPy's double
// atomicMax and atomicMin compare in float; these compare in double.
#pragma once

inline __device__ long long atomicAdd(long long* address, long long val) {
  return static_cast<long long>(
      atomicAdd(reinterpret_cast<unsigned long long*>(address), static_cast<unsigned long long>(val)));
}

#define CA_USER_ATOMIC_PICK(name, T, Bits, to_bits, from_bits, pick)                             \
  inline __device__ T name(T* address, T val) {                                                  \
    Bits* bits = reinterpret_cast<Bits*>(address);                                               \
    Bits old = *bits, assumed;                                                                   \
    do {                                                                                         \
      assumed = old;                                                                             \
      old = atomicCAS(bits, assumed, static_cast<Bits>(to_bits(pick(from_bits(assumed), val)))); \
    } while (assumed != old);                                                                    \
    return from_bits(old);                                                                       \
  }
CA_USER_ATOMIC_PICK(atomicMax, float, unsigned int, __float_as_uint, __uint_as_float, fmaxf)
CA_USER_ATOMIC_PICK(atomicMin, float, unsigned int, __float_as_uint, __uint_as_float, fminf)
CA_USER_ATOMIC_PICK(atomicMax, double, unsigned long long, __double_as_longlong, __longlong_as_double, fmax)
CA_USER_ATOMIC_PICK(atomicMin, double, unsigned long long, __double_as_longlong, __longlong_as_double, fmin)
#undef CA_USER_ATOMIC_PICK
