#include "cuarray/ops/auto_fusion.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "cuarray/blocking.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/launch_queue.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/jit/kernel_cache.h"
#include "cuarray/ops/auto_fusion_policy.h"
#include "cuarray/ops/background_compile.h"
#include "cuarray/ops/fusion.h"
#include "cuarray/ops/ufunc.h"

namespace cuarray::ops {

namespace {

constexpr std::size_t kMaxSteps = 32;
constexpr std::size_t kMaxExternals = 8;         // inputs of the chain; the rest of kMaxOperands is left for results
constexpr std::size_t kMaxChains = 4096;         // signatures remembered; past them new chains run op by op
constexpr int kDeferredWait = 64;                // ops a kernel to load waits for a chain to end
constexpr std::uint8_t kReads = 1, kWrites = 2;  // how a chain watches a buffer

bool same_view(const Array& a, const Array& b) {
  return a.data() == b.data() && a.dtype() == b.dtype() && a.shape() == b.shape() && a.strides() == b.strides();
}

struct External {
  std::optional<Array> array;  // borrowed (Array::borrowed); none for a scalar
  DType type;                  // the array's dtype, or the scalar's loop type
  alignas(16) char value[16] = {};
};

// `x` as a kernel input.
void read_external(const External& x, Input& in) {
  if (x.array)
    in.array = &*x.array;
  else
    std::memcpy(in.value, x.value, sizeof x.value);
}

struct Step {
  int ufunc;
  const ElementwiseDef* def;
  int nin;
  int args[3];     // >= 0: the step whose result it reads; < 0: external -1 - arg
  DType types[4];  // the loop types, inputs then output
  Array out;       // borrowed; its buffer lives while the program or `own` holds it
  // From the first step that reads the value on, the chain owns its memory too (Note [Automatic fusion]): the
  // program may drop it, and a chain run op by op still writes it there. Released once the chain no longer needs it.
  std::shared_ptr<cuda::Buffer> own = nullptr;
  bool dead = false;  // at the flush: read, and the chain is its last owner: never written by a fused kernel
};

struct Chain {
  std::shared_ptr<cuda::Stream> stream;
  int device = -1;
  Shape shape;
  std::vector<External> ext;
  std::vector<Step> steps;
};

struct Fused {
  int seen = 0;
  bool failed = false, logged = false, submitted = false;
  const ElementwiseDef* def = nullptr;
  std::vector<DType> out;
};

// Lives for the process: buffers die during static destruction.
struct State {
  std::recursive_mutex mutex;
  Chain chain;
  Chain spare;  // a flushed chain's vectors, kept for the next one: a small op then allocates nothing here
  std::unordered_map<std::string, Fused> fused;
  // The last chain flushed, and buffers kept for the next: a loop flushes the same chain each time round, and
  // then neither hashes its signature nor allocates (the map's entries stay where they are).
  std::pair<const std::string, Fused>* last = nullptr;
  std::string sig;
  std::vector<Array> outputs;
  bool stopped = false;
  AutoFusionStats stats;
  std::vector<std::string> log_lines;
  std::atomic<bool> has_log_lines{false};
  bool (*log)(const std::string&) = nullptr;
  // Kept memory of another owner than a pool, released without the lock (release_kept).
  std::vector<std::shared_ptr<cuda::Buffer>> kept;
  std::atomic<bool> has_kept{false};
};

void flush_locked(State& s);
State& state();

thread_local int t_locked = 0;  // chain locks the thread holds

// The chain's lock. A thread that must wait for it waits through the host's blocking hook (the Python bindings let
// go of Python's lock there): the thread that holds it may be flushing from a wait that let go of Python's lock,
// and need it back to finish (a kernel compiled on the way is reported to Python's log).
class ChainLock {
 public:
  explicit ChainLock(std::recursive_mutex& m) : m_(m) {
    if (!m.try_lock()) run_blocking([&] { m.lock(); });
    ++t_locked;
  }
  ~ChainLock() {
    --t_locked;
    m_.unlock();
  }
  ChainLock(const ChainLock&) = delete;
  ChainLock& operator=(const ChainLock&) = delete;

 private:
  std::recursive_mutex& m_;
};

void release_kept(State& s);

// A buffer the chain watches is dying: an input, or a value no step has read yet (a value read is owned by the
// chain and cannot die first). Its memory must hold the input until the chain has read it, and the value is still
// computed (no work the program asked for is skipped): the chain runs now.
void buffer_dying(cuda::Buffer*) noexcept {
  State& s = state();
  {
    ChainLock lock(s.mutex);
    flush_locked(s);
  }
  release_kept(s);
}

State& state() {
  static State* s = [] {
    auto* st = new State;
    cuda::Buffer::set_watch_hook(&buffer_dying);
    cuda::set_flush_recorded(&flush_recorded);
    return st;
  }();
  return *s;
}

void add_log_line(State& s, std::string line) {
  s.log_lines.push_back(std::move(line));
  s.has_log_lines.store(true, std::memory_order_release);
}

// Emits the log lines kept so far, without the lock (the receiver may take Python's); those the receiver cannot
// take now (a thread that may not call Python) wait for the next call.
thread_local int t_flushing = 0;  // flushes running on this thread (a launch inside one flushes again, a no-op)

// Gives up the chain's ownership of a value's memory. A pool's goes at once (its release, when the chain was the
// last owner, is ordered on its stream after the chain's launches, as any release); another owner's (a user
// allocator's, whose release runs Python) later, without the chain's lock (release_kept).
void drop_own(State& s, Step& st) {
  if (!st.own) return;
  if (st.own->pooled()) {
    st.own.reset();
    return;
  }
  s.kept.push_back(std::move(st.own));
  s.has_kept.store(true, std::memory_order_release);
}

std::atomic<bool (*)()> g_may_release{nullptr};  // set_release_check

// Releases the kept memory of other owners (drop_own) where the calling thread holds no chain lock and may run
// Python: their release functions drop a user allocator's object, and Python must not run under the chain's lock
// (Note [Handlers held in a flush] in jit/kernel_cache.h), nor on a thread that let go of Python's lock, which may
// hold another lock of the core (a copy to the host flushes holding the staging lock). Called where the log lines
// are delivered, where a buffer dies (where eager code would have released that memory), and before a user
// allocator is asked for memory (release_kept_memory); what a thread may not release waits for the next of them.
void release_kept(State& s) {
  if (t_locked || !s.has_kept.load(std::memory_order_acquire)) return;
  if (bool (*may)() = g_may_release.load(std::memory_order_acquire); may && !may()) return;
  std::vector<std::shared_ptr<cuda::Buffer>> kept;
  {
    ChainLock lock(s.mutex);
    kept.swap(s.kept);
    s.has_kept.store(false, std::memory_order_release);
  }
  kept.clear();  // each release issues the launches recorded and queued before it
}

void emit_log(State& s) {
  // Not inside a flush: the receiver runs Python, which must not run under the chain's lock with a chain in flight
  // (Note [Handlers held in a flush] in jit/kernel_cache.h); the lines wait for the next call outside it.
  if (t_flushing || !s.has_log_lines.load(std::memory_order_acquire)) return;
  std::vector<std::string> lines;
  bool (*log)(const std::string&);
  {
    ChainLock lock(s.mutex);
    lines.swap(s.log_lines);
    s.has_log_lines.store(false, std::memory_order_release);
    log = s.log;
  }
  if (!log) return;
  std::size_t done = 0;
  while (done < lines.size() && log(lines[done])) ++done;
  if (done == lines.size()) return;
  ChainLock lock(s.mutex);
  s.log_lines.insert(s.log_lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(done), lines.end());
  s.has_log_lines.store(true, std::memory_order_release);
}

std::string shape_text(const Shape& shape) {
  std::string t = "(";
  for (std::size_t d = 0; d < shape.size(); ++d)
    t += std::to_string(shape[d]) + (shape.size() == 1 ? "," : d + 1 < shape.size() ? ", " : "");
  return t + ")";
}

// The chain's signature, written into `sig`: what its kernel depends on besides the arrays' layouts (part of the
// elementwise key).
void signature(const Chain& c, std::string& sig) {
  sig.clear();
  sig += static_cast<char>(c.ext.size());
  for (const External& e : c.ext) sig += static_cast<char>(e.array ? 1 : 2), sig += static_cast<char>(e.type);
  for (const Step& st : c.steps) {
    sig += static_cast<char>(st.ufunc & 0xff), sig += static_cast<char>(st.ufunc >> 8);
    sig += static_cast<char>(st.dead ? 0 : 1);
    for (int i = 0; i < st.nin; ++i) sig += static_cast<char>(st.args[i]);
    for (int i = 0; i <= st.nin; ++i) sig += static_cast<char>(st.types[i]);
  }
}

FusedProgram program(const Chain& c, const std::string& name) {
  FusedProgram p;
  p.name = name;
  const int e = static_cast<int>(c.ext.size());
  for (const External& x : c.ext) p.in.push_back(x.type);
  for (std::size_t k = 0; k < c.steps.size(); ++k) {
    const Step& st = c.steps[k];
    FusedStep f;
    f.kind = FusedStep::Kind::Ufunc;
    f.ufunc = st.ufunc;
    for (int i = 0; i < st.nin; ++i) f.args.push_back(st.args[i] < 0 ? -1 - st.args[i] : e + st.args[i]);
    f.types.assign(st.types, st.types + st.nin + 1);
    p.steps.push_back(std::move(f));
    if (!st.dead) p.results.push_back(e + static_cast<int>(k));
  }
  return p;
}

// Makes `stream` current on its device while the chain runs.
class UseStream {
 public:
  explicit UseStream(const std::shared_ptr<cuda::Stream>& s) : previous_(cuda::current_stream()) {
    if (previous_ != s) cuda::set_current_stream(s);
  }
  ~UseStream() {
    if (cuda::current_stream() != previous_) cuda::set_current_stream(previous_);
  }

 private:
  std::shared_ptr<cuda::Stream> previous_;
};

using auto_fusion::ChainRun;

// Runs the chain as one kernel if it has one ready; otherwise says why not, and the caller runs it op by op.
ChainRun run_fused(State& s, const Chain& c) {
  std::size_t live = 0;
  for (const Step& st : c.steps) live += !st.dead;
  if (c.steps.size() < 2 || c.ext.size() + live > static_cast<std::size_t>(kMaxOperands)) return ChainRun::OpByOp;
  signature(c, s.sig);
  if (!s.last || s.last->first != s.sig) {
    auto it = s.fused.find(s.sig);
    if (it == s.fused.end()) {
      if (s.fused.size() >= kMaxChains) return ChainRun::OpByOp;
      it = s.fused.emplace(s.sig, Fused{}).first;
    }
    s.last = &*it;
  }
  const std::string& sig = s.last->first;
  Fused& f = s.last->second;
  if (++f.seen < 2 || f.failed) return ChainRun::OpByOp;  // a chain seen once runs op by op
  if (!f.def) {
    try {
      const std::string name = "auto_fused_" + std::to_string(std::hash<std::string>()(sig) % 1000000007);
      f.def = &define_fused_elementwise(program(c, name), {"-fmad=false"}, f.out);
    } catch (const std::exception&) {
      f.failed = true;
      return ChainRun::OpByOp;
    }
  }
  Input inputs[kMaxOperands];
  DType in_types[kMaxOperands];
  for (std::size_t k = 0; k < c.ext.size(); ++k) {
    in_types[k] = c.ext[k].type;
    read_external(c.ext[k], inputs[k]);
  }
  std::vector<Array>& outputs = s.outputs;  // borrowed views, like the steps'
  outputs.clear();
  for (const Step& st : c.steps)
    if (!st.dead) outputs.push_back(st.out);
  if (!elementwise(*f.def, in_types, f.out.data(), inputs, outputs.data(), c.shape, 0, Launch::IfCompiled)) {
    if (!f.submitted && s.log)
      add_log_line(s, "loading or compiling a kernel for a chain of " + std::to_string(c.steps.size()) +
                          " ufunc calls; it runs op by op meanwhile");
    f.submitted = true;
    // None pending: this kernel's compile (or its load) failed, and the op-by-op path stays.
    return background_compiles_pending() ? ChainRun::Compiling : ChainRun::OpByOp;
  }
  s.stats.fused_chains++;
  s.stats.fused_ops += c.steps.size();
  s.stats.written += live;
  if (!f.logged && s.log) {
    std::string ops;
    for (const Step& st : c.steps) ops += (ops.empty() ? "" : ", ") + st.def->name;
    add_log_line(s, "fused " + std::to_string(c.steps.size()) + " ufunc calls (" + ops + ") over shape " +
                        shape_text(c.shape) + " into one kernel, writing " + std::to_string(live) + " of " +
                        std::to_string(c.steps.size()) + " results");
  }
  f.logged = true;
  return ChainRun::Fused;
}

// Runs the chain as the ufuncs would have run, each value in its own memory (the chain owns what the program
// dropped): nothing is allocated (Note [Automatic fusion]).
void run_op_by_op(State& s, Chain& c) {
  const std::size_t n = c.steps.size();
  if (n == 1) {  // an op on its own, as most are: launched as the ufunc launches it, without the bookkeeping below
    const Step& st = c.steps[0];
    Input inputs[3];
    for (int i = 0; i < st.nin; ++i) read_external(c.ext[-1 - st.args[i]], inputs[i]);
    elementwise(*st.def, st.types, st.types + st.nin, inputs, &st.out, c.shape);
    return;
  }
  std::vector<std::size_t> last_use(n, 0);
  for (std::size_t k = 0; k < n; ++k)
    for (int i = 0; i < c.steps[k].nin; ++i)
      if (c.steps[k].args[i] >= 0) last_use[c.steps[k].args[i]] = k;
  for (std::size_t k = 0; k < n; ++k) {
    Step& st = c.steps[k];
    Input inputs[3];
    for (int i = 0; i < st.nin; ++i) {
      const int a = st.args[i];
      if (a < 0)
        read_external(c.ext[-1 - a], inputs[i]);
      else
        inputs[i].array = &c.steps[a].out;
    }
    elementwise(*st.def, st.types, st.types + st.nin, inputs, &st.out, c.shape);
    for (int i = 0; i < st.nin; ++i) {  // a dead value's memory goes after its last read, as eagerly
      const int a = st.args[i];
      if (a >= 0 && c.steps[a].dead && last_use[a] == k) {
        c.steps[a].out.buffer()->set_watched(0);
        drop_own(s, c.steps[a]);
      }
    }
  }
}

void flush_locked(State& s) {
  if (s.chain.steps.empty()) return;
  Chain c = std::move(s.spare);
  std::swap(c, s.chain);
  s.stats.chains++;
  // A value read by a later step that the program no longer holds is dead: the chain is its last owner, and no
  // one can own it again. (A count read as higher, another thread dropping its array meanwhile, writes it.)
  for (Step& st : c.steps) st.dead = st.own && st.own.use_count() == 1;
  ++t_flushing;
  try {
    jit::HoldHandlers hold;  // Note [Handlers held in a flush]
    cuda::DeviceGuard device(c.device);
    UseStream stream(c.stream);
    const ChainRun run = run_fused(s, c);
    if (run != ChainRun::Fused) run_op_by_op(s, c);
    auto_fusion::judge_chain(size_of(c.shape), c.steps.size(), run);
  } catch (...) {
    cuda::keep_launch_error(std::current_exception());
  }
  --t_flushing;
  // Only now: until the chain was issued, a buffer dying on another thread waited for the lock. A fused kernel never
  // touched the dead values' memory; op by op, what is left (a step that failed) goes now.
  for (External& x : c.ext)
    if (x.array) x.array->buffer()->set_watched(0);
  for (Step& st : c.steps) {
    if (st.dead && !st.own) continue;  // released op by op
    st.out.buffer()->set_watched(0);
    drop_own(s, st);
  }
  c.ext.clear();
  c.steps.clear();
  c.stream.reset();
  s.spare = std::move(c);
  // Cleared only now: a thread that drains meanwhile must wait for this chain's launches, not pass them by.
  if (s.chain.steps.empty()) cuda::set_recorded(false);
}

}  // namespace

bool record_ufunc(int index, const ElementwiseDef& def, const DType* in, const DType* out, const Input* inputs,
                  const Array& output, const Shape& shape) {
  // Kernels the last flushes asked for, loaded here: the calling thread holds Python's lock and no lock of the core
  // (Note [Background compiles]). Loading drains the launch queue, which flushes the chain being recorded: so at the
  // first op of a chain, or after kDeferredWait ops of chains that never end.
  thread_local int waited = 0;
  if (!cuda::detail::recorded.load(std::memory_order_relaxed) || ++waited > kDeferredWait) {
    waited = 0;
    start_deferred_compiles();
  }
  jit::deliver_held_handlers();  // of kernels compiled inside flushes: Note [Handlers held in a flush]
  State& s = state();
  release_kept(s);
  if (!auto_fusion::records(output, inputs, def.nin)) return false;
  if (def.nout != 1 || def.nin > 3 || &def != &ufuncs()[index].def) return false;
  // The loops this thread has recorded (so fusable) and prepared: what the launch raises before launching is raised
  // now, a kernel that cannot compile (once per loop: the layouts of one loop compile alike), arrays on another
  // device.
  std::uint64_t loop = static_cast<std::uint64_t>(index);
  for (int i = 0; i < def.nin; ++i) loop = loop << 5 | static_cast<std::uint64_t>(in[i]);
  loop = loop << 5 | static_cast<std::uint64_t>(out[0]);
  thread_local std::unordered_set<std::uint64_t> prepared;
  const bool known = prepared.count(loop) != 0;
  if (!known && !fusable_loop(index, in, out)) return false;
  if (output.size() == 0 || !cuda::launches_may_wait()) return false;
  emit_log(s);
  if (known) {
    for (int i = 0; i < def.nin; ++i)
      if (inputs[i].array) check_same_device(*inputs[i].array, def.name.c_str());
  } else {
    elementwise(def, in, out, inputs, &output, shape, 0, Launch::Prepare);
    prepared.insert(loop);
  }
  {
    ChainLock lock(s.mutex);
    if (s.stopped) return false;
    Chain* c = &s.chain;
    const auto& stream = cuda::current_stream();
    if (!c->steps.empty() && (c->stream != stream || c->device != output.device() || c->shape != shape))
      flush_locked(s);
    const int nin = def.nin;
    int args[3];
    // An input that is another view of a value the chain computes needs that value in memory: flush first.
    for (int attempt = 0; attempt < 2; ++attempt) {
      bool flush = false;
      std::size_t fresh = 0;
      for (int i = 0; i < nin && !flush; ++i) {
        args[i] = INT32_MIN;  // a new external
        const Array* a = inputs[i].array;
        if (!a) {
          for (std::size_t k = 0; k < c->ext.size(); ++k)
            if (!c->ext[k].array && c->ext[k].type == in[i] &&
                std::memcmp(c->ext[k].value, inputs[i].value, sizeof c->ext[k].value) == 0)
              args[i] = -1 - static_cast<int>(k);
          fresh += args[i] == INT32_MIN;
          continue;
        }
        const std::uint8_t how = a->buffer()->watched();
        if (how == kWrites) {
          flush = true;
          for (std::size_t k = 0; k < c->steps.size(); ++k)
            if (c->steps[k].out.buffer() == a->buffer() && same_view(c->steps[k].out, *a)) {
              args[i] = static_cast<int>(k);
              flush = false;
              break;
            }
        } else if (how == kReads) {
          for (std::size_t k = 0; k < c->ext.size(); ++k)
            if (c->ext[k].array && same_view(*c->ext[k].array, *a)) args[i] = -1 - static_cast<int>(k);
        }
        if (args[i] == INT32_MIN) ++fresh;
      }
      if (!flush && c->ext.size() + fresh <= kMaxExternals) break;
      flush_locked(s);
    }
    if (c->steps.empty()) {
      c->stream = stream;
      c->device = output.device();
      c->shape = shape;
    }
    for (int i = 0; i < nin; ++i) {
      if (args[i] >= 0) {
        Step& read = c->steps[args[i]];
        // The value is the chain's to keep from now on; an array without an owner (a borrowed view of the core's) is
        // never dead, its buffer dying flushes the chain.
        if (!read.own && inputs[i].array->buffer().use_count() > 0) read.own = inputs[i].array->buffer();
        continue;
      }
      if (args[i] != INT32_MIN) continue;
      const Array* a = inputs[i].array;
      External x;
      x.type = a ? a->dtype() : in[i];
      if (a) {
        for (int j = 0; j < i && args[i] == INT32_MIN; ++j)  // x * x: one input
          if (inputs[j].array && args[j] < 0 && same_view(*inputs[j].array, *a)) args[i] = args[j];
        if (args[i] != INT32_MIN) continue;
        x.array.emplace(a->borrowed());
        a->buffer()->set_watched(kReads);
      } else {
        std::memcpy(x.value, inputs[i].value, sizeof x.value);
      }
      c->ext.push_back(std::move(x));
      args[i] = -static_cast<int>(c->ext.size());
    }
    Step st{index, &def, nin, {args[0], nin > 1 ? args[1] : 0, nin > 2 ? args[2] : 0}, {}, output.borrowed()};
    std::copy(in, in + nin, st.types);
    st.types[nin] = out[0];
    c->steps.push_back(std::move(st));
    output.buffer()->set_watched(kWrites);
    s.stats.recorded++;
    cuda::set_recorded(true);
    if (c->steps.size() >= kMaxSteps) flush_locked(s);
  }
  emit_log(s);
  release_kept(s);
  return true;
}

void flush_recorded() noexcept {
  State& s = state();
  {
    ChainLock lock(s.mutex);
    flush_locked(s);
  }
  emit_log(s);
  release_kept(s);
}

void release_kept_memory() noexcept { release_kept(state()); }

void set_release_check(bool (*may_release)()) { g_may_release.store(may_release, std::memory_order_release); }

int auto_fusion_setting() { return auto_fusion::thread_setting(); }

int set_auto_fusion(int setting) {
  const int previous = auto_fusion::thread_setting();
  flush_recorded();
  auto_fusion::set_thread_setting(setting);
  return previous;
}

std::int64_t auto_fusion_min_size() { return auto_fusion::min_size(); }

void stop_auto_fusion() noexcept {
  State& s = state();
  {
    ChainLock lock(s.mutex);
    flush_locked(s);
    s.stopped = true;
  }
  emit_log(s);
  release_kept(s);
}

AutoFusionStats auto_fusion_stats() {
  State& s = state();
  ChainLock lock(s.mutex);
  AutoFusionStats stats = s.stats;
  stats.small_pauses = auto_fusion::small_pauses();
  return stats;
}

void set_fusion_log(bool (*log)(const std::string& message)) {
  State& s = state();
  ChainLock lock(s.mutex);
  s.log = log;
}

}  // namespace cuarray::ops
