#include "cuarray/jit/link.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "cuarray/error.h"
#include "cuarray/lib/library.h"

namespace cuarray::jit {

namespace {

inline constexpr lib::Library kNvJitLink{"nvJitLink", "nvJitLink", "13", nullptr};

// nvJitLink's C API, declared here rather than through nvJitLink.h, whose names are macros of versioned symbols.
using Handle = struct nvJitLink*;
constexpr int kInputCubin = 1, kInputPtx = 2, kInputLibrary = 6;

struct Api {
  int (*create)(Handle*, std::uint32_t, const char**);
  int (*destroy)(Handle*);
  int (*add_data)(Handle, int, const void*, std::size_t, const char*);
  int (*add_file)(Handle, int, const char*);
  int (*complete)(Handle);
  int (*cubin_size)(Handle, std::size_t*);
  int (*cubin)(Handle, void*);
  int (*log_size)(Handle, std::size_t*);
  int (*log)(Handle, char*);
};

const Api& api() {
  static std::once_flag once;
  static std::atomic<bool> loaded{false};
  static Api a;
  lib::load_once(kNvJitLink, once, loaded, [](void* h) {
    auto sym = [h](const char* n) { return lib::symbol(h, n, kNvJitLink.stem); };
    a.create = reinterpret_cast<decltype(a.create)>(sym("nvJitLinkCreate"));
    a.destroy = reinterpret_cast<decltype(a.destroy)>(sym("nvJitLinkDestroy"));
    a.add_data = reinterpret_cast<decltype(a.add_data)>(sym("nvJitLinkAddData"));
    a.add_file = reinterpret_cast<decltype(a.add_file)>(sym("nvJitLinkAddFile"));
    a.complete = reinterpret_cast<decltype(a.complete)>(sym("nvJitLinkComplete"));
    a.cubin_size = reinterpret_cast<decltype(a.cubin_size)>(sym("nvJitLinkGetLinkedCubinSize"));
    a.cubin = reinterpret_cast<decltype(a.cubin)>(sym("nvJitLinkGetLinkedCubin"));
    a.log_size = reinterpret_cast<decltype(a.log_size)>(sym("nvJitLinkGetErrorLogSize"));
    a.log = reinterpret_cast<decltype(a.log)>(sym("nvJitLinkGetErrorLog"));
  });
  return a;
}

// libcudadevrt.a of the CUDA toolkit (Note [Relocatable device code]), or "".
std::string device_runtime_path() {
  std::vector<std::string> roots;
  for (const char* v : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* r = std::getenv(v); r && *r) roots.emplace_back(r);
  roots.emplace_back("/usr/local/cuda");
  for (const auto& root : roots)
    for (const char* dir : {"/lib64/", "/lib/", "/targets/x86_64-linux/lib/"}) {
      std::string path = root + dir + "libcudadevrt.a";
      struct stat st {};
      if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return path;
    }
  return "";
}

}  // namespace

bool relocatable(const std::vector<std::string>& options) {
  bool on = false;  // the last spelling wins, as in NVRTC
  for (std::size_t i = 0; i < options.size(); ++i) {
    const std::string& o = options[i];
    if (o == "-dc" || o == "--device-c" || o == "-rdc=true" || o == "--relocatable-device-code=true") on = true;
    if (o == "-rdc=false" || o == "--relocatable-device-code=false") on = false;
    if ((o == "-rdc" || o == "--relocatable-device-code") && i + 1 < options.size()) on = options[i + 1] == "true";
  }
  return on;
}

Binary link_device_runtime(const Binary& compiled, int arch, const std::string& name, const std::string& source) {
  auto fail = [&](const std::string& why, const std::string& log) {
    throw CompileError(
        "could not link kernel '" + name + "' with the CUDA device runtime: " + why + (log.empty() ? "" : ":\n" + log),
        log, source, name);
  };
  const std::string devrt = device_runtime_path();
  if (devrt.empty())
    fail(
        "libcudadevrt.a (relocatable device code, -dc) is part of the CUDA toolkit and was not found under "
        "$CUDA_PATH, $CUDA_HOME or /usr/local/cuda",
        "");
  const Api& a = api();
  const std::string arch_option = "-arch=sm_" + std::to_string(arch);
  const char* options[] = {arch_option.c_str()};
  Handle h = nullptr;
  if (a.create(&h, 1, options) != 0) fail("nvJitLinkCreate failed", "");
  std::unique_ptr<nvJitLink, void (*)(Handle)> owner(h, [](Handle p) { api().destroy(&p); });
  auto log = [&] {
    std::size_t n = 0;
    std::string text;
    if (a.log_size(h, &n) == 0 && n) {
      text.assign(n, '\0');
      a.log(h, text.data());
      while (!text.empty() && (text.back() == '\0' || text.back() == '\n')) text.pop_back();
    }
    return text;
  };
  const int kind = compiled.is_cubin ? kInputCubin : kInputPtx;
  if (a.add_data(h, kind, compiled.code.data(), compiled.code.size(), (name + ".cubin").c_str()) != 0 ||
      a.add_file(h, kInputLibrary, devrt.c_str()) != 0 || a.complete(h) != 0)
    fail("nvJitLink failed", log());
  Binary out;
  std::size_t size = 0;
  if (a.cubin_size(h, &size) != 0) fail("nvJitLinkGetLinkedCubinSize failed", log());
  out.code.resize(size);
  if (a.cubin(h, out.code.data()) != 0) fail("nvJitLinkGetLinkedCubin failed", log());
  out.is_cubin = true;
  out.lowered = compiled.lowered;
  out.log = compiled.log;
  return out;
}

}  // namespace cuarray::jit
