#include "cuarray/jit/nvrtc.h"

#include <dlfcn.h>
#include <nvrtc.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "cuarray/error.h"
#include "cuarray/jit/link.h"
#include "cuarray/lib/library.h"

namespace cuarray::jit {

namespace {

struct Api {
  decltype(&nvrtcVersion) version;
  decltype(&nvrtcGetErrorString) error_string;
  decltype(&nvrtcCreateProgram) create;
  decltype(&nvrtcDestroyProgram) destroy;
  decltype(&nvrtcCompileProgram) compile;
  decltype(&nvrtcGetProgramLogSize) log_size;
  decltype(&nvrtcGetProgramLog) log;
  decltype(&nvrtcGetCUBINSize) cubin_size;
  decltype(&nvrtcGetCUBIN) cubin;
  decltype(&nvrtcGetPTXSize) ptx_size;
  decltype(&nvrtcGetPTX) ptx;
  decltype(&nvrtcGetNumSupportedArchs) num_archs;
  decltype(&nvrtcGetSupportedArchs) archs;
  decltype(&nvrtcAddNameExpression) add_name;
  decltype(&nvrtcGetLoweredName) lowered_name;
};

const Api& api() {
  static std::once_flag once;
  static std::atomic<bool> loaded{false};
  static Api a;
  lib::load_once(lib::kNvrtc, once, loaded, [](void* h) {
    auto sym = [h](const char* n) {
      void* p = dlsym(h, n);
      if (!p) throw CudaError("dlsym", 0, std::string("NVRTC lacks ") + n);
      return p;
    };
    a.version = reinterpret_cast<decltype(a.version)>(sym("nvrtcVersion"));
    a.error_string = reinterpret_cast<decltype(a.error_string)>(sym("nvrtcGetErrorString"));
    a.create = reinterpret_cast<decltype(a.create)>(sym("nvrtcCreateProgram"));
    a.destroy = reinterpret_cast<decltype(a.destroy)>(sym("nvrtcDestroyProgram"));
    a.compile = reinterpret_cast<decltype(a.compile)>(sym("nvrtcCompileProgram"));
    a.log_size = reinterpret_cast<decltype(a.log_size)>(sym("nvrtcGetProgramLogSize"));
    a.log = reinterpret_cast<decltype(a.log)>(sym("nvrtcGetProgramLog"));
    a.cubin_size = reinterpret_cast<decltype(a.cubin_size)>(sym("nvrtcGetCUBINSize"));
    a.cubin = reinterpret_cast<decltype(a.cubin)>(sym("nvrtcGetCUBIN"));
    a.ptx_size = reinterpret_cast<decltype(a.ptx_size)>(sym("nvrtcGetPTXSize"));
    a.ptx = reinterpret_cast<decltype(a.ptx)>(sym("nvrtcGetPTX"));
    a.num_archs = reinterpret_cast<decltype(a.num_archs)>(sym("nvrtcGetNumSupportedArchs"));
    a.archs = reinterpret_cast<decltype(a.archs)>(sym("nvrtcGetSupportedArchs"));
    a.add_name = reinterpret_cast<decltype(a.add_name)>(sym("nvrtcAddNameExpression"));
    a.lowered_name = reinterpret_cast<decltype(a.lowered_name)>(sym("nvrtcGetLoweredName"));
  });
  return a;
}

void check(nvrtcResult r, const char* call) {
  if (r != NVRTC_SUCCESS) throw CudaError(call, r, std::string(call) + " failed: " + api().error_string(r));
}

std::vector<int> supported_archs() {
  static const std::vector<int> archs = [] {
    int n = 0;
    check(api().num_archs(&n), "nvrtcGetNumSupportedArchs");
    std::vector<int> v(n);
    check(api().archs(v.data()), "nvrtcGetSupportedArchs");
    return v;
  }();
  return archs;
}

}  // namespace

int nvrtc_version() {
  int major = 0, minor = 0;
  check(api().version(&major, &minor), "nvrtcVersion");
  return major * 1000 + minor * 10;
}

std::string nvrtc_path() {
  Dl_info info;
  return dladdr(reinterpret_cast<void*>(api().version), &info) && info.dli_fname ? info.dli_fname : "";
}

void warm_up() noexcept {
  try {
    // Not the host's locator: warming runs during `import cuarray`, which the locator's import would slow; a
    // machine whose NVRTC only the locator finds pays its first compile in full (Note [Warming NVRTC]).
    lib::open_library(lib::kNvrtc, /*use_locator=*/false);
    const std::vector<int>& archs = supported_archs();
    if (archs.empty()) return;
    // A real architecture, so that ptxas, which NVRTC runs inside itself, is set up too.
    compile("extern \"C\" __global__ void warm() {}", "warm", {}, *std::max_element(archs.begin(), archs.end()), {});
  } catch (const std::exception&) {
  }
}

namespace {
std::mutex g_warm_mutex;
std::thread* g_warm_thread = nullptr;  // never destroyed: a joinable std::thread's destructor would terminate
bool g_warm_started = false;
}  // namespace

void start_warm_up() noexcept {
  std::lock_guard<std::mutex> lock(g_warm_mutex);
  if (g_warm_started) return;
  g_warm_started = true;
  try {
    g_warm_thread = new std::thread(warm_up);
  } catch (const std::exception&) {  // no thread to spare: the first compile pays the set-up instead
  }
}

void finish_warm_up() noexcept {
  std::thread* thread = nullptr;
  {
    std::lock_guard<std::mutex> lock(g_warm_mutex);
    std::swap(thread, g_warm_thread);
  }
  if (thread && thread->joinable()) thread->join();
  delete thread;
}

int target_arch(int arch) {
  int best = 0;
  for (int a : supported_archs()) {
    if (a == arch) return arch;
    if (a < arch && a > best) best = a;
  }
  if (!best)
    throw CudaError("nvrtcGetSupportedArchs", 0,
                    "this NVRTC cannot generate code for compute capability " + std::to_string(arch));
  return best;
}

namespace {

using Program = std::unique_ptr<_nvrtcProgram, void (*)(_nvrtcProgram*)>;

// One NVRTC compilation of `source`; `log` gets NVRTC's messages.
nvrtcResult compile_program(Program& prog, const std::string& source, const std::string& name,
                            const std::vector<std::string>& options, const Headers& headers,
                            const std::vector<std::string>& name_expressions, std::string& log) {
  const Api& a = api();
  std::vector<const char*> header_text, header_names;
  for (const auto& [n, text] : headers) {
    header_names.push_back(n.c_str());
    header_text.push_back(text.c_str());
  }
  nvrtcProgram p = nullptr;
  check(a.create(&p, source.c_str(), (name + ".cu").c_str(), static_cast<int>(headers.size()), header_text.data(),
                 header_names.data()),
        "nvrtcCreateProgram");
  prog.reset(p);
  for (const auto& e : name_expressions) check(a.add_name(p, e.c_str()), "nvrtcAddNameExpression");
  std::vector<const char*> opt_ptrs;
  for (auto& o : options) opt_ptrs.push_back(o.c_str());
  nvrtcResult r = a.compile(p, static_cast<int>(opt_ptrs.size()), opt_ptrs.data());
  std::size_t log_size = 0;
  a.log_size(p, &log_size);
  log.assign(log_size, '\0');
  if (log_size) a.log(p, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return r;
}

}  // namespace

Binary compile(const std::string& source, const std::string& name, const std::vector<std::string>& options, int arch,
               const Headers& headers, const std::vector<std::string>& name_expressions) {
  const Api& a = api();
  int target = target_arch(arch);
  bool cubin = target == arch;
  std::vector<std::string> opts = options;
  opts.push_back((cubin ? "--gpu-architecture=sm_" : "--gpu-architecture=compute_") + std::to_string(target));
  opts.push_back("-std=c++17");
  // -minimal leaves out textures, surfaces, the device runtime and the runtime API's types, which takes about
  // 4 ms off every compile. A source that needs them (a user's kernel), or an NVRTC older than 12.4 that
  // lacks the option, is compiled again without it; its errors are the full compile's.
  opts.push_back("-minimal");
  Program prog(nullptr, [](_nvrtcProgram* p) { api().destroy(&p); });
  std::string log;
  nvrtcResult r = compile_program(prog, source, name, opts, headers, name_expressions, log);
  if (r != NVRTC_SUCCESS) {
    opts.pop_back();
    r = compile_program(prog, source, name, opts, headers, name_expressions, log);
  }
  if (r != NVRTC_SUCCESS)
    throw CompileError("NVRTC could not compile kernel '" + name + "' (" + a.error_string(r) + "):\n" + log, log,
                       source, name);

  Binary out;
  out.is_cubin = cubin;
  out.log = std::move(log);
  for (const auto& e : name_expressions) {
    const char* lowered = nullptr;
    check(a.lowered_name(prog.get(), e.c_str(), &lowered), "nvrtcGetLoweredName");
    out.lowered.emplace_back(lowered);
  }
  std::size_t size = 0;
  if (cubin) {
    check(a.cubin_size(prog.get(), &size), "nvrtcGetCUBINSize");
    out.code.resize(size);
    check(a.cubin(prog.get(), out.code.data()), "nvrtcGetCUBIN");
  } else {
    check(a.ptx_size(prog.get(), &size), "nvrtcGetPTXSize");
    out.code.resize(size);
    check(a.ptx(prog.get(), out.code.data()), "nvrtcGetPTX");
  }
  if (relocatable(options)) return link_device_runtime(out, arch, name, source);  // Note [Relocatable device code]
  return out;
}

}  // namespace cuarray::jit
