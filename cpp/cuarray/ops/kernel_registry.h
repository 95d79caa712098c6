// The ops' first-level kernel cache: a compact 64-bit key (op, dtypes, ndim, index width, device) maps to a
// loaded kernel, so a cached launch neither builds nor hashes source (Note [Kernel cache key]).
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
};

// Packs small fields into a key. Fields must stay within their declared widths.
class KernelKey {
 public:
  explicit KernelKey(KernelKind kind) { add(static_cast<std::uint64_t>(kind), 8).add(cuda::current_device(), 8); }
  KernelKey& add(std::uint64_t value, int bits) {
    v_ = (v_ << bits) | (value & ((std::uint64_t(1) << bits) - 1));
    return *this;
  }
  std::uint64_t value() const { return v_; }

 private:
  std::uint64_t v_ = 0;
};

// A generated kernel: its full program text and the extern "C" name to load.
struct KernelSource {
  std::string source, name;
};

jit::Kernel find_kernel(std::uint64_t key);
void store_kernel(std::uint64_t key, jit::Kernel kernel);

// A 256-bit key, for kernels with many variable parts (one field per operand dtype, ...), packed by the op.
struct WideKey {
  std::uint64_t w[4] = {};
  bool operator==(const WideKey& o) const {
    return w[0] == o.w[0] && w[1] == o.w[1] && w[2] == o.w[2] && w[3] == o.w[3];
  }
};
jit::Kernel find_kernel(const WideKey& key);
void store_kernel(const WideKey& key, jit::Kernel kernel);

// The kernel for `key`; on a miss, `make()` returns the KernelSource to compile.
template <class MakeSource>
jit::Kernel cached_kernel(const KernelKey& key, MakeSource&& make) {
  if (jit::Kernel k = find_kernel(key.value())) return k;
  KernelSource src = make();
  jit::Kernel k = jit::get_kernel(src.source, src.name);
  store_kernel(key.value(), k);
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
