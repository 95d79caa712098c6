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
#include <optional>
#include <random>
#include <unordered_map>
#include <utility>

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
  std::uint32_t names_size;  // the payload starts with the lowered names, each ended by a NUL, in these bytes
};

// A loaded library and the lowered names of the name expressions it was compiled with.
struct Loaded {
  cudaLibrary_t library = nullptr;
  std::vector<std::string> lowered;
};

struct State {
  std::mutex mutex;
  std::string cache_dir;
  bool cache_dir_set = false;
  bool disk_disabled = false;
  std::unordered_map<std::string, Loaded> libraries;  // by key hex
  std::function<void(const std::string&)> warn;
  std::function<bool()> memory_only;  // Note [Memory-only compiles]
  std::function<void(const CacheEvent&)> on_event;
  CacheStats stats;
  // Note [Handlers held in a flush]: what a held thread did not report, in order (a warning has no event).
  std::vector<std::pair<std::optional<CacheEvent>, std::string>> held;
};

thread_local int t_holds = 0;            // HoldHandlers alive on this thread
std::atomic<bool> g_held{false};         // State::held has entries
std::atomic<bool> g_memory_only{false};  // the switch's last answer outside a hold

// Keeps an event (or, without one, a warning) for deliver_held_handlers; the caller holds the state's lock.
void keep_held(State& s, std::optional<CacheEvent> event, std::string warning) {
  s.held.emplace_back(std::move(event), std::move(warning));
  g_held.store(true, std::memory_order_release);
}

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
  if (h.lo != hdr.payload_hash_lo || h.hi != hdr.payload_hash_hi || hdr.names_size > payload.size()) return false;
  out.lowered.clear();
  for (std::size_t at = 0; at < hdr.names_size;) {
    std::size_t end = payload.find('\0', at);
    if (end == std::string::npos || end >= hdr.names_size) return false;
    out.lowered.push_back(payload.substr(at, end - at));
    at = end + 1;
  }
  out.code = payload.substr(hdr.names_size);
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
  std::string names;
  for (const auto& n : bin.lowered) names.append(n).push_back('\0');
  const std::string payload = names + bin.code;
  Hash128 h;
  h.add(payload);
  hdr.names_size = static_cast<std::uint32_t>(names.size());
  hdr.payload_size = payload.size();
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
    out.write(payload.data(), static_cast<std::streamsize>(payload.size()));
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

// Note [Loading waits for the device]
// Loading a library or a kernel into a context may wait until the device is idle (CUDA's lazy loading
// synchronizes the context), so also for a host function still queued on a stream. A host function of the
// program's runs on cuarray's host-callback thread, which needs Python's lock (Note [Host callbacks] in
// python/src/cuda.cpp): a load made holding that lock waited for a function that waited for the lock, and the
// process hung. Loads therefore run through the host's blocking hook, which lets the lock go, as waits do.
cudaError_t load_call(const std::function<cudaError_t()>& call) {
  cudaError_t status = cudaSuccess;
  run_blocking([&] { status = call(); });
  return status;
}

// Unloads a library that another thread loaded too (kept first): through the blocking hook, as loads go, and
// never under the state's lock, since an unload may wait for the device as a load does.
void unload(cudaLibrary_t lib) {
  if (load_call([&] { return cudaLibraryUnload(lib); }) != cudaSuccess) cudaGetLastError();
}

// Loading a library or a kernel needs device memory: Note [Memory for other libraries] in memory_pool.h.
cudaLibrary_t load(const Binary& bin) {
  cudaLibrary_t lib = nullptr;
  cuda::drain_launches();
  CUARRAY_CHECK_CUDA(cuda::retry_with_memory(
      [&] {
        return load_call(
            [&] { return cudaLibraryLoadData(&lib, bin.code.data(), nullptr, nullptr, 0, nullptr, nullptr, 0); });
      },
      out_of_memory));
  return lib;
}

// What finding one kernel needs: its key (Note [Kernel cache key]), its file in the disk cache ("" when the
// disk cache is off) and the name expressions it is compiled with.
struct Entry {
  Hash128 key;
  std::string dir, path;
  std::vector<std::string> names;
};

// Must be called with the state's mutex held.
Entry entry_for(State& s, const std::string& source, const std::vector<std::string>& options, int arch,
                const std::vector<std::string>& names = {}) {
  if (!s.cache_dir_set) {
    s.cache_dir = default_cache_dir();
    s.cache_dir_set = true;
  }
  Entry e;
  e.key.add(source).add(kKernelHeadersHash).add(static_cast<std::uint64_t>(arch));
  for (auto& o : options) e.key.add(o);
  if (!names.empty()) {  // apart from the options, so that no option list can collide with them
    e.key.add(std::string_view("\0name expressions", 17));
    for (auto& n : names) e.key.add(n);
  }
  e.names = names;
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
    bin = compile(source, name, options, arch, kernel_headers(), e.names);
    if (!e.path.empty()) stored = write_cached(e.dir, e.path, e.key, bin);
  });
  if (!stored) {
    std::function<void(const std::string&)> warn;
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      if (!s.disk_disabled) warn = s.warn;
      s.disk_disabled = true;
    }
    std::string message = "cuarray: the kernel cache directory '" + e.dir +
                          "' is not writable; compiled kernels are cached in memory only for this process";
    if (warn && t_holds) {
      std::lock_guard<std::mutex> lock(s.mutex);
      keep_held(s, std::nullopt, std::move(message));
    } else if (warn) {
      deliver_held_handlers();
      warn(message);
    }
  }
  return bin;
}

// The kernel's binary from the disk cache (from_disk), else compiled and stored there.
Binary find_or_compile(const Entry& e, const std::string& source, const std::string& name,
                       const std::vector<std::string>& options, int arch, bool& from_disk) {
  Binary bin;
  from_disk = false;
  if (!e.path.empty()) run_blocking([&] { from_disk = read_cached(e.path, e.key, bin); });
  if (from_disk && bin.lowered.size() != e.names.size()) from_disk = false;  // not this module's: replace it
  return from_disk ? bin : compile_and_store(e, source, name, options, arch);
}

using Clock = std::chrono::steady_clock;

// Note [Kernel cache log]: called for compiles and disk-cache reads alone, without the state's lock.
void report(const Entry& e, const std::string& name, bool from_disk, Clock::time_point start) {
  std::chrono::duration<double, std::milli> took = Clock::now() - start;
  CacheEvent event{name, e.key.hex().substr(0, 12), !from_disk, took.count()};
  std::function<void(const CacheEvent&)> on_event;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    if (t_holds) {
      keep_held(state(), std::move(event), std::string());
      return;
    }
    on_event = state().on_event;
  }
  deliver_held_handlers();
  if (on_event) on_event(event);
}

// Whether the disk cache is to be skipped for this kernel (Note [Memory-only compiles]); without the lock.
bool memory_only() {
  if (t_holds) return g_memory_only.load(std::memory_order_relaxed);
  std::function<bool()> ask;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    ask = state().memory_only;
  }
  const bool answer = ask && ask();
  g_memory_only.store(answer, std::memory_order_relaxed);
  return answer;
}

// Keeps `loaded` as the library of `e` (unless another thread kept one first, which is returned), counts and
// reports how it was found.
Loaded keep_library(const Entry& e, Loaded loaded, const std::string& name, bool from_disk, Clock::time_point start) {
  State& s = state();
  const cudaLibrary_t ours = loaded.library;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    ++(from_disk ? s.stats.disk_hits : s.stats.compiles);
    loaded = s.libraries.emplace(e.key.hex(), loaded).first->second;
  }
  if (loaded.library != ours) unload(ours);  // another thread loaded it first
  report(e, name, from_disk, start);
  return loaded;
}

// The library of `source` from memory, else the disk cache, else NVRTC. With `log`, compiled afresh (Note on
// get_module) and the new library kept unless another is already in memory.
Loaded get_library(const std::string& source, const std::string& name, const std::vector<std::string>& options,
                   const std::vector<std::string>& names = {}, std::string* log = nullptr) {
  State& s = state();
  int arch = cuda::compute_capability(cuda::current_device());
  Entry e;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    e = entry_for(s, source, options, arch, names);
    auto it = s.libraries.find(e.key.hex());
    if (it != s.libraries.end() && !log) {
      ++s.stats.memory_hits;
      return it->second;
    }
  }
  if (memory_only()) e.path.clear();
  auto start = Clock::now();
  bool from_disk = false;
  Binary bin = log ? compile_and_store(e, source, name, options, arch)
                   : find_or_compile(e, source, name, options, arch, from_disk);
  Loaded loaded;
  try {
    loaded.library = load(bin);
  } catch (const CudaError&) {
    if (!from_disk) throw;
    from_disk = false;  // a file that passed its checks but does not load (another NVRTC made it): replace it
    bin = compile_and_store(e, source, name, options, arch);
    loaded.library = load(bin);
  }
  loaded.lowered = std::move(bin.lowered);
  if (log) *log = std::move(bin.log);
  return keep_library(e, std::move(loaded), name, from_disk, start);
}

}  // namespace

// Note [User kernel headers]
// CuPy compiles its users' kernels with its own include directory, so user code may `#include
// <cupy/complex.cuh>` (Thrust's complex<T>, at global scope and as thrust::complex<T>, the name CuPy's
// get_typename gives) and `#include <cupy/float16.cuh>` (its float16), and translate_cucomplex=True turns
// `#include <cuComplex.h>` into its bridge header, which spells cuComplex's types and functions with that
// complex<T>. cuarray hands NVRTC the same three names from memory, as the kernels' own headers are:
// user_complex.cuh gives complex<T> computed by the kernels' complex arithmetic, so that a user kernel's
// sums, products, quotients and absolute values equal cuarray's ufuncs' to the bit, user_float16.cuh gives
// float16 holding the kernels' half (its conversions are the ufuncs'), user_cucomplex.cuh is the bridge, and
// user_atomics.cuh (<cupy/atomics.cuh>) the atomics CuPy adds, which ElementwiseKernel and ReductionKernel
// bodies get without an include, as CuPy's do.
// Their text is among the kernel headers, so their hash is in every kernel's key.
const Headers& kernel_headers() {
  static const Headers* headers = [] {
    auto* h = new Headers;  // never destroyed, as state()
    for (int i = 0; i < kKernelHeaderCount; ++i) h->emplace_back(kKernelHeaders[i].name, kKernelHeaders[i].text);
    h->emplace_back("cupy/complex.cuh", "#include <cuarray/user_complex.cuh>\n");
    h->emplace_back("cupy/float16.cuh", "#include <cuarray/user_float16.cuh>\n");
    h->emplace_back("cupy/cuComplex_bridge.h", "#include <cuarray/user_cucomplex.cuh>\n");
    h->emplace_back("cupy/atomics.cuh", "#include <cuarray/user_atomics.cuh>\n");
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

void reset_cache_dir() {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().cache_dir_set = false;
  state().disk_disabled = false;
}

std::string cache_dir() {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().cache_dir_set ? state().cache_dir : default_cache_dir();
}

HoldHandlers::HoldHandlers() { ++t_holds; }
HoldHandlers::~HoldHandlers() { --t_holds; }

void deliver_held_handlers() {
  if (!g_held.load(std::memory_order_acquire) || t_holds) return;
  State& s = state();
  std::vector<std::pair<std::optional<CacheEvent>, std::string>> held;
  std::function<void(const CacheEvent&)> on_event;
  std::function<void(const std::string&)> warn;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    held.swap(s.held);
    g_held.store(false, std::memory_order_release);
    on_event = s.on_event;
    warn = s.warn;
  }
  for (const auto& [event, message] : held) {
    if (event && on_event) on_event(*event);
    if (!event && warn) warn(message);
  }
}

void drop_held_handlers() {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().held.clear();
  g_held.store(false, std::memory_order_release);
}

void set_warning_handler(std::function<void(const std::string&)> handler) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().warn = std::move(handler);
}

void set_memory_only_handler(std::function<bool()> memory_only) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().memory_only = std::move(memory_only);
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
  CUARRAY_CHECK_CUDA(cuda::retry_with_memory(  // Note [Loading waits for the device]
      [&] {
        return load_call([&] { return cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(k.handle)); });
      },
      out_of_memory));
  return k;
}

void* Module::global(const std::string& name, std::size_t& bytes) const {
  void* ptr = nullptr;
  CUARRAY_CHECK_CUDA(cudaLibraryGetGlobal(&ptr, &bytes, library, name.c_str()));
  return ptr;
}

Module load_module(const std::string& image) {
  State& s = state();
  const std::string key = Hash128().add(std::string_view("image")).add(image).hex();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    auto it = s.libraries.find(key);
    if (it != s.libraries.end()) return Module{it->second.library, {}};
  }
  Binary bin;
  bin.code = image + '\0';  // PTX is read up to a NUL; cubins and fatbins carry their sizes
  const cudaLibrary_t ours = load(bin);
  cudaLibrary_t kept;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    kept = s.libraries.emplace(key, Loaded{ours, {}}).first->second.library;
  }
  if (kept != ours) unload(ours);  // another thread loaded it first
  return Module{kept, {}};
}

Kernel get_kernel(const std::string& source, const std::string& name, const std::vector<std::string>& options) {
  return Module{get_library(source, name, options).library, {}}.function(name);
}

Module get_module(const std::string& source, const std::vector<std::string>& options,
                  const std::vector<std::string>& name_expressions, std::string* log) {
  Loaded l = get_library(source, "module", options, name_expressions, log);
  return Module{l.library, std::move(l.lowered)};
}

namespace {

// The entry of a kernel without name expressions, its file "" where the disk cache is off for it now.
Entry disk_entry(const std::string& source, const std::vector<std::string>& options, int arch) {
  Entry e;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    e = entry_for(state(), source, options, arch);
  }
  if (memory_only()) e.path.clear();
  return e;
}

}  // namespace

Binary cached_binary(const std::string& source, const std::string& name, const std::vector<std::string>& options,
                     int arch, bool& from_disk, bool fresh) {
  const Entry e = disk_entry(source, options, arch);
  auto start = Clock::now();
  from_disk = false;
  Binary bin = fresh ? compile_and_store(e, source, name, options, arch)
                     : find_or_compile(e, source, name, options, arch, from_disk);
  report(e, name, from_disk, start);
  return bin;
}

Kernel cached_kernel(const std::string& source, const std::string& name, const std::vector<std::string>& options,
                     int arch, bool& refused) {
  refused = false;
  State& s = state();
  const Entry e = disk_entry(source, options, arch);
  cudaLibrary_t in_memory = nullptr;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    auto it = s.libraries.find(e.key.hex());
    if (it != s.libraries.end()) {
      ++s.stats.memory_hits;
      in_memory = it->second.library;
    }
  }
  if (in_memory) return Module{in_memory, {}}.function(name);  // CUDA calls drain the launch queue: not under the lock
  if (e.path.empty()) return {};
  auto start = Clock::now();
  Binary bin;
  bool found = false;
  run_blocking([&] { found = read_cached(e.path, e.key, bin); });
  if (!found || !bin.lowered.empty()) return {};
  // The errors of an image that cannot be used, whatever the device's state: a file another NVRTC made (get_library's
  // case), or one without the kernel.
  auto unusable = [](const CudaError& x) {
    switch (x.code()) {
      case cudaErrorInvalidKernelImage:
      case cudaErrorNoKernelImageForDevice:
      case cudaErrorInvalidPtx:
      case cudaErrorUnsupportedPtxVersion:
      case cudaErrorInvalidSource:
      case cudaErrorSymbolNotFound:
        return true;
      default:
        return false;
    }
  };
  Loaded loaded;
  try {
    loaded.library = load(bin);
  } catch (const CudaError& x) {
    if (!unusable(x)) throw;
    refused = true;
    return {};
  }
  Kernel kernel;
  try {  // before the library is kept, so that a library without the kernel is not found in memory later
    kernel = Module{loaded.library, {}}.function(name);
  } catch (const CudaError& x) {
    unload(loaded.library);
    if (!unusable(x)) throw;
    refused = true;
    return {};
  }
  const cudaLibrary_t ours = loaded.library;
  const Loaded kept = keep_library(e, std::move(loaded), name, true, start);
  return kept.library == ours ? kernel : Module{kept.library, {}}.function(name);  // another thread's, kept first
}

CacheStats cache_stats() {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().stats;
}

}  // namespace cuarray::jit
