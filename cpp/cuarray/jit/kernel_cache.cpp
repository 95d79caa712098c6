#include "cuarray/jit/kernel_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <unordered_map>

#include "cuarray/blocking.h"
#include "cuarray/cuda/check.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/memory_pool.h"
#include "cuarray/error.h"
#include "cuarray/jit/hash.h"
#include "cuarray/jit/kernel_headers.h"
#include "cuarray/jit/nvrtc.h"

namespace fs = std::filesystem;

namespace cuarray::jit {

namespace {

constexpr char kMagic[8] = {'C', 'U', 'A', 'R', 'K', 'E', 'R', '2'};

struct FileHeader {
  char magic[8];
  std::uint64_t key_lo, key_hi;  // a valid entry copied or renamed from another key is foreign
  std::uint64_t payload_size;
  std::uint64_t payload_hash_lo, payload_hash_hi;
  std::uint32_t is_cubin;
  std::uint32_t reserved;
};

struct State {
  std::mutex mutex;
  std::string cache_dir;
  bool cache_dir_set = false;
  bool disk_disabled = false;
  std::unordered_map<std::string, cudaLibrary_t> libraries;  // by key hex
  std::function<void(const std::string&)> warn;
  std::function<void(const CacheEvent&)> on_event;
  CacheStats stats;
};

State& state() {
  static State* s = new State;  // never destroyed: kernels may be launched during interpreter shutdown
  return *s;
}

std::string default_cache_dir() {
  if (const char* env = std::getenv("CUARRAY_CACHE_DIR"); env && *env) return env;
  const char* home = std::getenv("HOME");
  return std::string(home ? home : "/tmp") + "/.cache/cuarray/kernels";
}

// Reads exactly `n` bytes at the file's current offset.
bool read_exactly(int fd, char* p, std::size_t n) {
  while (n) {
    ssize_t got = ::read(fd, p, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got;
    n -= static_cast<std::size_t>(got);
  }
  return true;
}

// The entry at `path` when it is a whole, valid file for `key`; false for anything else (Note [Kernel cache
// key]). The header's sizes are checked against the file's own size before anything is allocated or read, so a
// damaged size field costs nothing; only regular files are opened (a FIFO would block a plain open).
bool read_cached(const std::string& path, const Hash128& key, Binary& out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < static_cast<off_t>(sizeof(FileHeader)))
    return false;
  FileHeader hdr{};
  if (!read_exactly(fd, reinterpret_cast<char*>(&hdr), sizeof hdr)) return false;
  if (std::memcmp(hdr.magic, kMagic, sizeof kMagic) != 0 || hdr.key_lo != key.lo || hdr.key_hi != key.hi ||
      hdr.payload_size != static_cast<std::uint64_t>(st.st_size) - sizeof hdr)
    return false;
  std::string payload(hdr.payload_size, '\0');
  if (!read_exactly(fd, payload.data(), payload.size())) return false;
  char extra;
  if (::read(fd, &extra, 1) != 0) return false;  // the file grew meanwhile
  Hash128 h;
  h.add(payload);
  if (h.lo != hdr.payload_hash_lo || h.hi != hdr.payload_hash_hi) return false;
  out.code = std::move(payload);
  out.is_cubin = hdr.is_cubin != 0;
  return true;
}

// Returns false when the directory cannot be written (true, storing nothing, when something that is not a file
// holds the entry's name).
bool write_cached(const std::string& dir, const std::string& path, const Hash128& key, const Binary& bin) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return false;
  FileHeader hdr{};
  std::memcpy(hdr.magic, kMagic, sizeof kMagic);
  hdr.key_lo = key.lo;
  hdr.key_hi = key.hi;
  Hash128 h;
  h.add(bin.code);
  hdr.payload_size = bin.code.size();
  hdr.payload_hash_lo = h.lo;
  hdr.payload_hash_hi = h.hi;
  hdr.is_cubin = bin.is_cubin;
  static std::atomic<unsigned> counter{0};
  std::string tmp = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++) + "." +
                    std::to_string(std::random_device{}());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(reinterpret_cast<const char*>(&hdr), sizeof hdr);
    out.write(bin.code.data(), static_cast<std::streamsize>(bin.code.size()));
    if (!out) {
      fs::remove(tmp, ec);
      return false;
    }
  }
  fs::rename(tmp, path, ec);
  // Something other than a file in the entry's place: an empty directory is replaced; anything else is left
  // alone and this one kernel is not stored (the directory itself is writable).
  std::error_code other;
  if (ec && fs::is_directory(fs::symlink_status(path, other)) && fs::remove(path, other)) fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, other);
    fs::file_status there = fs::symlink_status(path, other);
    return fs::exists(there) && !fs::is_regular_file(there);
  }
  return true;
}

// Whether a failed call into the driver is worth retrying with more device memory.
bool out_of_memory(cudaError_t status) {
  if (status == cudaSuccess) return false;
  cudaGetLastError();
  return status == cudaErrorMemoryAllocation || status == cudaErrorLaunchOutOfResources;
}

// Loading a library or a kernel needs device memory: Note [Memory for other libraries] in memory_pool.h.
cudaLibrary_t load(const Binary& bin) {
  cudaLibrary_t lib = nullptr;
  cuda::drain_launches();
  CUARRAY_CHECK_CUDA(cuda::retry_with_memory(
      [&] { return cudaLibraryLoadData(&lib, bin.code.data(), nullptr, nullptr, 0, nullptr, nullptr, 0); },
      out_of_memory));
  return lib;
}

// What finding one kernel needs: its key (Note [Kernel cache key]) and its file in the disk cache ("" when the
// disk cache is off).
struct Entry {
  Hash128 key;
  std::string dir, path;
};

// Must be called with the state's mutex held.
Entry entry_for(State& s, const std::string& source, const std::vector<std::string>& options, int arch) {
  if (!s.cache_dir_set) {
    s.cache_dir = default_cache_dir();
    s.cache_dir_set = true;
  }
  Entry e;
  e.key.add(source).add(kKernelHeadersHash).add(static_cast<std::uint64_t>(arch));
  for (auto& o : options) e.key.add(o);
  // The toolkit version cuarray was built with, not the loaded NVRTC's: asking NVRTC would load it (about
  // 5 ms) even when the kernel is on disk. A binary that a different NVRTC made and the driver refuses is
  // recompiled (get_library).
  e.key.add(static_cast<std::uint64_t>(CUDART_VERSION));
  if (!s.disk_disabled) {
    e.dir = s.cache_dir;
    e.path = e.dir + "/" + e.key.hex() + ".bin";
  }
  return e;
}

// Compiles the kernel and writes it to the disk cache; the first write that fails turns the disk cache off
// for the process, with one warning.
Binary compile_and_store(const Entry& e, const std::string& source, const std::string& name,
                         const std::vector<std::string>& options, int arch) {
  State& s = state();
  Binary bin;
  bool stored = true;
  run_blocking([&] {
    bin = compile(source, name, options, arch, kernel_headers());
    if (!e.path.empty()) stored = write_cached(e.dir, e.path, e.key, bin);
  });
  if (!stored) {
    std::function<void(const std::string&)> warn;
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      if (!s.disk_disabled) warn = s.warn;
      s.disk_disabled = true;
    }
    if (warn)
      warn("cuarray: the kernel cache directory '" + e.dir +
           "' is not writable; compiled kernels are cached in memory only for this process");
  }
  return bin;
}

// The kernel's binary from the disk cache (from_disk), else compiled and stored there.
Binary find_or_compile(const Entry& e, const std::string& source, const std::string& name,
                       const std::vector<std::string>& options, int arch, bool& from_disk) {
  Binary bin;
  from_disk = false;
  if (!e.path.empty()) run_blocking([&] { from_disk = read_cached(e.path, e.key, bin); });
  return from_disk ? bin : compile_and_store(e, source, name, options, arch);
}

using Clock = std::chrono::steady_clock;

// Note [Kernel cache log]: called for compiles and disk-cache reads alone, without the state's lock.
void report(const Entry& e, const std::string& name, bool from_disk, Clock::time_point start) {
  std::chrono::duration<double, std::milli> took = Clock::now() - start;
  std::function<void(const CacheEvent&)> on_event;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    on_event = state().on_event;
  }
  if (on_event) on_event(CacheEvent{name, e.key.hex().substr(0, 12), !from_disk, took.count()});
}

cudaLibrary_t get_library(const std::string& source, const std::string& name, const std::vector<std::string>& options) {
  State& s = state();
  int arch = cuda::compute_capability(cuda::current_device());
  Entry e;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    e = entry_for(s, source, options, arch);
    auto it = s.libraries.find(e.key.hex());
    if (it != s.libraries.end()) {
      ++s.stats.memory_hits;
      return it->second;
    }
  }
  auto start = Clock::now();
  bool from_disk = false;
  Binary bin = find_or_compile(e, source, name, options, arch, from_disk);
  cudaLibrary_t lib = nullptr;
  try {
    lib = load(bin);
  } catch (const CudaError&) {
    if (!from_disk) throw;
    from_disk = false;  // a file that passed its checks but does not load (another NVRTC made it): replace it
    lib = load(compile_and_store(e, source, name, options, arch));
  }
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    ++(from_disk ? s.stats.disk_hits : s.stats.compiles);
    auto [it, inserted] = s.libraries.emplace(e.key.hex(), lib);
    if (!inserted) cudaLibraryUnload(lib);  // another thread loaded it first
    lib = it->second;
  }
  report(e, name, from_disk, start);
  return lib;
}

}  // namespace

const Headers& kernel_headers() {
  static const Headers* headers = [] {
    auto* h = new Headers;  // never destroyed, as state()
    for (int i = 0; i < kKernelHeaderCount; ++i) h->emplace_back(kKernelHeaders[i].name, kKernelHeaders[i].text);
    return h;
  }();
  return *headers;
}

void set_cache_dir(const std::string& dir) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().cache_dir = dir;
  state().cache_dir_set = true;
  state().disk_disabled = dir.empty();
}

std::string cache_dir() {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().cache_dir_set ? state().cache_dir : default_cache_dir();
}

void set_warning_handler(std::function<void(const std::string&)> handler) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().warn = std::move(handler);
}

void set_event_handler(std::function<void(const CacheEvent&)> handler) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().on_event = std::move(handler);
}

Kernel Module::function(const std::string& name) const {
  Kernel k;
  CUARRAY_CHECK_CUDA(cudaLibraryGetKernel(&k.handle, library, name.c_str()));
  // The driver loads kernels into a context lazily, at their first use; asking for the kernel's attributes
  // loads it now, where running out of device memory can be retried (Note [Memory for other libraries]).
  cudaFuncAttributes attributes{};
  CUARRAY_CHECK_CUDA(cuda::retry_with_memory(
      [&] { return cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(k.handle)); }, out_of_memory));
  return k;
}

Module load_module(const std::string& image) {
  State& s = state();
  const std::string key = Hash128().add(std::string_view("image")).add(image).hex();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    auto it = s.libraries.find(key);
    if (it != s.libraries.end()) return Module{it->second};
  }
  Binary bin;
  bin.code = image + '\0';  // PTX is read up to a NUL; cubins and fatbins carry their sizes
  cudaLibrary_t lib = load(bin);
  std::lock_guard<std::mutex> lock(s.mutex);
  auto [it, inserted] = s.libraries.emplace(key, lib);
  if (!inserted) cudaLibraryUnload(lib);  // another thread loaded it first
  return Module{it->second};
}

Kernel get_kernel(const std::string& source, const std::string& name, const std::vector<std::string>& options) {
  return Module{get_library(source, name, options)}.function(name);
}

Module get_module(const std::string& source, const std::vector<std::string>& options) {
  return Module{get_library(source, "module", options)};
}

Binary cached_binary(const std::string& source, const std::string& name, const std::vector<std::string>& options,
                     int arch, bool& from_disk) {
  State& s = state();
  Entry e;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    e = entry_for(s, source, options, arch);
  }
  auto start = Clock::now();
  Binary bin = find_or_compile(e, source, name, options, arch, from_disk);
  report(e, name, from_disk, start);
  return bin;
}

CacheStats cache_stats() {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().stats;
}

}  // namespace cuarray::jit
