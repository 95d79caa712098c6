// The arguments of a RawKernel launch, checked against the kernel's parameters before it is launched.
//
// Note [RawKernel arguments]
// cudaLaunchKernel reads each parameter's bytes from the address given for it, trusting the caller: with too
// few arguments it reads past the array of addresses (a crash), with too many it ignores the rest, and a value
// smaller than its parameter is read together with whatever follows it. CuPy launches whatever it is given.
// cuarray asks the driver for the kernel's parameter sizes (cuKernelGetParamInfo, CUDA 12.4 drivers and
// later; without it the arguments go unchecked, as in CuPy) and raises TypeError, before launching, for what is
// certainly wrong:
// - a count other than the kernel's;
// - an array (a pointer, 8 bytes) for a parameter that is not 8 bytes;
// - a floating-point or complex scalar whose size is not its parameter's (numpy.float64 or a Python float for
//   a float parameter: CuPy passes the low half of the double, a meaningless float).
// Scalars take their size from their NumPy dtype, as in CuPy (a Python int is an int64, a float a float64).
// Integer and bool scalars are converted to their parameter's size as C converts integers: sign- or zero-
// extended, or narrowed when the value fits (a Python int for an `int n` parameter, which CuPy passes
// truncated, and which works there on little-endian hosts); a value that does not fit is a TypeError. Other
// NumPy scalars (structured ones) must have their parameter's size. A same-size mismatch (an int64 for a
// double) cannot be told from a right argument and is passed as given, as in CuPy.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cuarray::jit {

// One argument as the bindings converted it: its kind, the bytes of its value (little-endian) and its type for
// messages ("numpy.float64 scalar", "Python int (int64)", "cuarray array (a pointer)").
struct KernelArg {
  enum class Kind { Pointer, SignedInt, UnsignedInt, Float, Other } kind;
  std::string bytes;
  std::string what;
  // A smaller parameter size the argument also fits, by its first bytes (an mdspan's layout_right and
  // layout_left form, Note [mdspan arguments] in jit/mdspan.h), 0 for none; and, where non-empty, why it may not
  // be passed so here.
  std::size_t prefix_size = 0;
  std::string prefix_refusal;
};

// The bytes each parameter receives (`sizes[i]` of them), or TypeError naming `kernel` (Note [RawKernel
// arguments]).
std::vector<std::string> pack_kernel_args(const std::string& kernel, const std::vector<std::size_t>& sizes,
                                          const std::vector<KernelArg>& args);

}  // namespace cuarray::jit
