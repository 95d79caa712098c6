#include "cuarray/ops/kernel_registry.h"

#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace cuarray::ops {

namespace {

struct Registry {
  std::shared_mutex mutex;
  std::unordered_map<std::uint64_t, jit::Kernel> kernels;
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: launches may happen during shutdown
  return *r;
}

}  // namespace

jit::Kernel find_kernel(std::uint64_t key) {
  Registry& r = registry();
  std::shared_lock<std::shared_mutex> lock(r.mutex);
  auto it = r.kernels.find(key);
  return it == r.kernels.end() ? jit::Kernel{} : it->second;
}

void store_kernel(std::uint64_t key, jit::Kernel kernel) {
  Registry& r = registry();
  std::unique_lock<std::shared_mutex> lock(r.mutex);
  r.kernels[key] = kernel;
}

KernelSource kernel_source(const char* header, const std::string& name, const std::string& params,
                           const std::string& body) {
  return {std::string("#include \"cuarray/") + header + "\"\nextern \"C\" __global__ void " + name + "(" + params +
              ") {\n  " + body + "\n}\n",
          name};
}

}  // namespace cuarray::ops
