#include "cuarray/ops/kernel_registry.h"

#include <deque>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "cuarray/error.h"
#include "cuarray/ops/elementwise.h"
#include "cuarray/ops/fusion.h"
#include "cuarray/ops/reduction.h"

namespace cuarray::ops {

namespace {

struct WideKeyHash {
  std::size_t operator()(const WideKey& k) const {
    std::uint64_t h = k.w[0] * 0x9E3779B97F4A7C15ull;
    h ^= k.w[1] + 0x7F4A7C159E3779B9ull + (h << 6) + (h >> 2);
    h ^= k.w[2] + 0x94D049BB133111EBull + (h << 6) + (h >> 2);
    h ^= k.w[3] + 0xBF58476D1CE4E5B9ull + (h << 6) + (h >> 2);
    return static_cast<std::size_t>(h);
  }
};

template <class Key, class Hash = std::hash<Key>>
struct Registry {
  std::shared_mutex mutex;
  std::unordered_map<Key, jit::Kernel, Hash> kernels;

  jit::Kernel find(const Key& key) {
    std::shared_lock<std::shared_mutex> lock(mutex);
    auto it = kernels.find(key);
    return it == kernels.end() ? jit::Kernel{} : it->second;
  }
  void store(const Key& key, jit::Kernel kernel) {
    std::unique_lock<std::shared_mutex> lock(mutex);
    kernels[key] = kernel;
  }
};

// Never destroyed: launches may happen during shutdown.
auto& narrow = *new Registry<std::uint64_t>;
auto& wide = *new Registry<WideKey, WideKeyHash>;

// Note [Definitions]: a deque keeps references to its elements valid as it grows.
template <class Def>
struct Definitions {
  std::mutex mutex;
  std::deque<Def> defs;

  std::size_t add(Def def) {
    std::lock_guard<std::mutex> lock(mutex);
    defs.push_back(std::move(def));
    return defs.size() - 1;
  }
  const Def& get(std::size_t handle, const char* what) {
    std::lock_guard<std::mutex> lock(mutex);
    if (handle >= defs.size()) throw IndexError(std::string("no ") + what + " definition " + std::to_string(handle));
    return defs[handle];
  }
};

auto& elementwise_defs = *new Definitions<ElementwiseDef>;
auto& reduction_defs = *new Definitions<ReductionDef>;
auto& fused_defs = *new Definitions<FusedKernel>;

}  // namespace

std::size_t add_definition(ElementwiseDef def) { return elementwise_defs.add(std::move(def)); }
std::size_t add_definition(ReductionDef def) {
  if (def.nin < 1 || def.nin > 8) throw ValueError("a reduction takes 1 to 8 inputs, got " + std::to_string(def.nin));
  return reduction_defs.add(std::move(def));
}
std::size_t add_definition(FusedKernel def) { return fused_defs.add(std::move(def)); }
const ElementwiseDef& elementwise_definition(std::size_t h) { return elementwise_defs.get(h, "elementwise"); }
const ReductionDef& reduction_definition(std::size_t h) { return reduction_defs.get(h, "reduction"); }
const FusedKernel& fused_definition(std::size_t h) { return fused_defs.get(h, "fused"); }

void key_field_overflow(std::uint64_t value, int bits, int used, int capacity) {
  // Note [Registry keys]: an internal error, never a key that may equal another kernel's.
  throw std::logic_error("cuarray internal error: a kernel key field of " + std::to_string(bits) +
                         " bits cannot hold " + std::to_string(value) + " after " + std::to_string(used) + " of " +
                         std::to_string(capacity) + " bits (please report this)");
}

jit::Kernel find_kernel(const KernelKey& key) { return narrow.find(key.value()); }
void store_kernel(const KernelKey& key, jit::Kernel kernel) { narrow.store(key.value(), kernel); }
jit::Kernel find_kernel(const WideKey& key) { return wide.find(key); }
void store_kernel(const WideKey& key, jit::Kernel kernel) { wide.store(key, kernel); }

KernelSource kernel_source(const char* header, const std::string& name, const std::string& params,
                           const std::string& body, const std::string& bounds) {
  return {std::string("#include \"cuarray/") + header + "\"\nextern \"C\" __global__ void " +
              (bounds.empty() ? "" : bounds + " ") + name + "(" + params + ") {\n  " + body + "\n}\n",
          name};
}

}  // namespace cuarray::ops
