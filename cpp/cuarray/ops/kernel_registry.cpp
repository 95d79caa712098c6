#include "cuarray/ops/kernel_registry.h"

#include <mutex>
#include <shared_mutex>
#include <unordered_map>

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

}  // namespace

jit::Kernel find_kernel(std::uint64_t key) { return narrow.find(key); }
void store_kernel(std::uint64_t key, jit::Kernel kernel) { narrow.store(key, kernel); }
jit::Kernel find_kernel(const WideKey& key) { return wide.find(key); }
void store_kernel(const WideKey& key, jit::Kernel kernel) { wide.store(key, kernel); }

KernelSource kernel_source(const char* header, const std::string& name, const std::string& params,
                           const std::string& body, const std::string& bounds) {
  return {std::string("#include \"cuarray/") + header + "\"\nextern \"C\" __global__ void " +
              (bounds.empty() ? "" : bounds + " ") + name + "(" + params + ") {\n  " + body + "\n}\n",
          name};
}

}  // namespace cuarray::ops
