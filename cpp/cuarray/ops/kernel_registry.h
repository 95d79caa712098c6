// The ops' first-level kernel cache: a compact 64-bit key (op, dtypes, ndim, index width, device) maps to a
// loaded kernel, so a cached launch neither builds nor hashes source (Note [Kernel cache key]). Note [Registry
// keys] says how keys are kept apart.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "cuarray/cuda/device.h"
#include "cuarray/jit/kernel_cache.h"

namespace cuarray::ops {

enum class KernelKind : std::uint8_t {
  Copy,
  CopyContiguous,
  CopyTranspose,
  Fill,
  FillContiguous,
  Arange,
  Linspace,
  Eye,
  ZeroBlocks,
  // scans, indexing and sorting
  ScanTiles,
  ScanRows,
  CountNonzero,
  WriteNonzero,
  Gather,
  Scatter,
  IndexBounds,
  Bincount,
  Histogram,
  RadixHistogram,
  RadixOffsets,
  RadixPass,
  SegmentSort,
  SearchSorted,
  MatmulInteger,
  MatmulSmall,
  LuSlogdet,
  ZeroTriangle,
  NonfiniteResults,  // linalg (ops/matmul.cpp, ops/linalg.cpp)
  // random numbers and convolution (ops/random.cpp, ops/convolve.cpp)
  Random,
  RandomIntegers,
  RandomChoice,
  PermutationKeys,
  BitonicStep,
  BitonicBlock,
  GatherRows,
  CorrelateNd,
  Correlate1d,
  Correlate2d,
  Fold,  // ufunc.reduce, accumulate and reduceat of the ufuncs without a reduction row (ops/fold.cpp)
};

// Note [Registry keys]
// A registry key stands for every choice that changes a kernel's source. Its fields are packed at fixed widths,
// so a field too narrow for its value, or keys whose fields are laid out differently, could make two kernels'
// keys equal: the later op then launches the other kernel with its own arguments, a silent wrong result (a
// strided copy of bool data on device 1 once ran an unaligned int8 fill kernel compiled on device 0, whose
// key packed to the same 64 bits). So add() throws (an internal error) for a value wider than its field or
// fields past the key's capacity, and every key begins with its kind and device and records how many field
// bits follow, at fixed positions: keys of different kinds, devices or layouts never meet, whatever their
// fields hold.

// Throws the internal error of a key field that does not fit.
[[noreturn]] void key_field_overflow(std::uint64_t value, int bits, int used, int capacity);

// A narrow key: kind (8 bits), device (8), the number of field bits (6), then the fields (42).
class KernelKey {
 public:
  static constexpr int kFieldBits = 42;
  explicit KernelKey(KernelKind kind)
      : head_((static_cast<std::uint64_t>(kind) << 56) |
              (static_cast<std::uint64_t>(cuda::current_device() & 0xff) << 48)) {}
  KernelKey& add(std::uint64_t value, int bits) {
    if (bits < 1 || used_ + bits > kFieldBits || (value >> bits) != 0)
      key_field_overflow(value, bits, used_, kFieldBits);
    fields_ = (fields_ << bits) | value;
    used_ += bits;
    return *this;
  }
  std::uint64_t value() const { return head_ | (static_cast<std::uint64_t>(used_) << kFieldBits) | fields_; }

 private:
  std::uint64_t head_, fields_ = 0;
  int used_ = 0;
};

// The kernels keyed by a WideKey: those whose keys hold a field per operand.
enum class WideKind : std::uint8_t { Elementwise, Reduction };

// A 256-bit key, for kernels with many variable parts (one field per operand dtype, ...): kind (4 bits), device
// (8), then the fields, packed from the lowest bit up to bit 247; the top byte counts the bits used.
struct WideKey {
  static constexpr int kFieldBits = 248;
  std::uint64_t w[4] = {};

  explicit WideKey(WideKind kind) { add(static_cast<std::uint64_t>(kind), 4).add(cuda::current_device() & 0xff, 8); }
  WideKey& add(std::uint64_t value, int bits) {
    const int used = static_cast<int>(w[3] >> 56);
    if (bits < 1 || bits > 63 || used + bits > kFieldBits || (value >> bits) != 0)
      key_field_overflow(value, bits, used, kFieldBits);
    const int word = used / 64, shift = used % 64;
    w[word] |= value << shift;
    if (shift + bits > 64) w[word + 1] |= value >> (64 - shift);
    w[3] = (w[3] & ~(std::uint64_t(0xff) << 56)) | (static_cast<std::uint64_t>(used + bits) << 56);
    return *this;
  }
  bool operator==(const WideKey& o) const {
    return w[0] == o.w[0] && w[1] == o.w[1] && w[2] == o.w[2] && w[3] == o.w[3];
  }
};

// A generated kernel: its full program text and the extern "C" name to load.
struct KernelSource {
  std::string source, name;
};

jit::Kernel find_kernel(const KernelKey& key);
void store_kernel(const KernelKey& key, jit::Kernel kernel);

jit::Kernel find_kernel(const WideKey& key);
void store_kernel(const WideKey& key, jit::Kernel kernel);

// The kernel for `key`; on a miss, `make()` returns the KernelSource to compile.
template <class MakeSource>
jit::Kernel cached_kernel(const KernelKey& key, MakeSource&& make) {
  if (jit::Kernel k = find_kernel(key)) return k;
  KernelSource src = make();
  jit::Kernel k = jit::get_kernel(src.source, src.name);
  store_kernel(key, k);
  return k;
}

// A one-kernel program: includes `header` (in kernels/) and defines
// `extern "C" __global__ void <bounds> name(params) { body }`; `bounds` is empty or a __launch_bounds__(...).
KernelSource kernel_source(const char* header, const std::string& name, const std::string& params,
                           const std::string& body, const std::string& bounds = "");

struct ElementwiseDef;
struct ReductionDef;
struct FusedKernel;

// Note [Definitions]
// Kernels defined at run time (ElementwiseKernel, ReductionKernel, each signature of a fused function) are
// registered here, once, and kept for the process: their kernels are cached under the definition's id, and
// a launch may still run during shutdown. A handle is a definition's index among those of its kind; the
// references stay valid, so a caller that keeps one looks nothing up again.
std::size_t add_definition(ElementwiseDef def);
std::size_t add_definition(ReductionDef def);  // ValueError unless it takes 1 to 8 inputs
std::size_t add_definition(FusedKernel def);
// The definition of `handle`; IndexError for a handle that was never returned.
const ElementwiseDef& elementwise_definition(std::size_t handle);
const ReductionDef& reduction_definition(std::size_t handle);
const FusedKernel& fused_definition(std::size_t handle);

// "int" or "long long": the index type of a kernel for a wide or narrow iteration space.
inline const char* index_type(bool wide) { return wide ? "long long" : "int"; }

}  // namespace cuarray::ops
