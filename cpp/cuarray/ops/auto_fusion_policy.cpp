// Which ufunc loops automatic fusion records, and which sizes (Note [Recording small arrays] in ops/auto_fusion.h).
#include "cuarray/ops/auto_fusion_policy.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "cuarray/ops/auto_fusion.h"
#include "cuarray/ops/background_compile.h"
#include "cuarray/ops/ufunc.h"

namespace cuarray::ops {

namespace {

// Ufuncs whose rows compute without a multiply whose result feeds an add (so FMA contraction cannot change them:
// Note [Automatic fusion]), with loops of any type; of them, those fusable with complex loop types too, and
// those fusable with integer loops only (their float loops compute a - floor(a / b) * b).
const char* const kFusable[] = {
    "add",          "subtract",    "multiply",   "divide",        "negative",    "positive",   "absolute",
    "fabs",         "sign",        "square",     "reciprocal",    "conjugate",   "sqrt",       "degrees",
    "radians",      "rad2deg",     "deg2rad",    "floor",         "ceil",        "trunc",      "rint",
    "ldexp",        "copysign",    "nextafter",  "signbit",       "heaviside",   "isnan",      "isinf",
    "isfinite",     "maximum",     "minimum",    "fmax",          "fmin",        "equal",      "not_equal",
    "less",         "less_equal",  "greater",    "greater_equal", "logical_and", "logical_or", "logical_xor",
    "logical_not",  "bitwise_and", "bitwise_or", "bitwise_xor",   "invert",      "left_shift", "right_shift",
    "floor_divide", "remainder",   "fmod",       "gcd",           "lcm"};
const char* const kComplexToo[] = {
    "add",   "subtract",  "negative",    "positive",   "conjugate",   "isnan",         "isinf",   "isfinite",
    "equal", "not_equal", "less",        "less_equal", "greater",     "greater_equal", "maximum", "minimum",
    "fmax",  "fmin",      "logical_and", "logical_or", "logical_xor", "logical_not"};
const char* const kIntegerOnly[] = {"floor_divide", "remainder", "fmod"};

// Per ufunc index: 0 not fusable, 1 real loops, 2 complex too, 3 integer loops only.
const std::vector<std::uint8_t>& fusable_table() {
  static const std::vector<std::uint8_t> table = [] {
    std::vector<std::uint8_t> t(ufuncs().size(), 0);
    for (const char* n : kFusable) t[ufunc_index(n)] = 1;
    for (const char* n : kComplexToo) t[ufunc_index(n)] = 2;
    for (const char* n : kIntegerOnly) t[ufunc_index(n)] = 3;
    return t;
  }();
  return table;
}

}  // namespace

bool fusable_loop(int index, const DType* in, const DType* out) {
  const auto& table = fusable_table();
  if (index < 0 || index >= static_cast<int>(table.size()) || !table[index]) return false;
  const Ufunc& u = ufuncs()[index];
  bool complex = false, floating = false;
  for (int i = 0; i <= u.def.nin; ++i) {
    const DType t = i < u.def.nin ? in[i] : out[0];
    complex |= is_complex(t);
    floating |= is_floating(t) || is_complex(t);
  }
  if (complex) return table[index] == 2;
  if (floating) return table[index] != 3;
  return true;
}

std::vector<std::pair<std::string, std::string>> fusable_ufuncs() {
  static const char* const kinds[] = {"", "real", "complex", "integer"};
  std::vector<std::pair<std::string, std::string>> out;
  const auto& table = fusable_table();
  for (std::size_t i = 0; i < table.size(); ++i)
    if (table[i]) out.emplace_back(ufuncs()[i].def.name, kinds[table[i]]);
  return out;
}

namespace auto_fusion {

namespace {

// The smallest output always recorded by default: below it the host's cost of recording an op and issuing its
// chain is above what launching it costs, and only chains of three or more gain (Note [Recording small arrays]).
constexpr std::int64_t kDefaultMinSize = std::int64_t{1} << 20;
// A chain of small arrays pays for its recording from this many steps, run fused; after kSmallLosses chains in a
// row that did not, small ops run eagerly for the next kSmallPause of them.
constexpr std::size_t kSmallGain = 3;
constexpr int kSmallLosses = 8;
constexpr std::int64_t kSmallPause = 2048;
// A pause ends early when, over 2^g_backoff windows in a row of this many of its ops, more than half of them read
// the result of one of the thread's last kRecent ops (each result counted once): the program has gone on to chains
// of three or more. Each early end doubles the windows the next one needs, up to 2^kMaxBackoff; a gain resets them.
constexpr int kWindow = 64;
constexpr int kRecent = 4;
constexpr int kMaxBackoff = 5;

thread_local signed char t_setting = -1;  // -1: the process default; 0 off; 1 every size

std::atomic<int> g_small_losses{0};          // chains of small arrays in a row that recording did not pay for
std::atomic<std::int64_t> g_small_pause{0};  // small ops still to run eagerly before recording is tried again
std::atomic<std::uint64_t> g_small_pauses{0};
std::atomic<int> g_backoff{0};
// Small ops still to run eagerly while background compiles are pending (at most kSmallPause: a compile queued
// before a fork waits for a thread that only a kernel asked for starts).
std::atomic<std::int64_t> g_compile_wait{0};
// A compile wait ended: the next chain judged may have run its first ops eagerly, inside the wait, and been recorded
// from the middle on. It counts neither way: a compile longer than a few waits would otherwise pause recording with
// the losses of such cut chains, just before the kernel is ready.
std::atomic<bool> g_wait_ended{false};

// The small ops a thread ran eagerly during a pause, as far as they tell whether its chains are long.
struct EagerWindow {
  const void* recent[kRecent] = {};  // the data of its last results
  int next = 0, ops = 0, reads = 0;
  int chained = 0;  // windows in a row that showed chains
};
thread_local EagerWindow t_window;

// Counts an op run eagerly during a pause; ends the pause when the window shows chains of three or more.
void watch_eager(const Array& output, const Input* inputs, int nin) {
  EagerWindow& w = t_window;
  for (int i = 0; i < nin; ++i)
    if (inputs[i].array)
      for (const void*& r : w.recent)
        if (r && r == inputs[i].array->data()) {
          ++w.reads;
          r = nullptr;
          break;
        }
  w.recent[w.next] = output.data();
  w.next = (w.next + 1) % kRecent;
  if (++w.ops < kWindow) return;
  const int chained = 2 * w.reads > w.ops ? w.chained + 1 : 0;
  w = EagerWindow{};
  const int backoff = g_backoff.load(std::memory_order_relaxed);
  if (chained < 1 << backoff) {
    w.chained = chained;
    return;
  }
  g_backoff.store(std::min(backoff + 1, kMaxBackoff), std::memory_order_relaxed);
  g_small_losses.store(0, std::memory_order_relaxed);
  g_small_pause.store(0, std::memory_order_relaxed);
}

struct ProcessSetting {
  std::int64_t min_size;    // the smallest output always recorded (INT64_MAX: none)
  bool small_while_paying;  // smaller ones while recording them pays
};

// CUARRAY_AUTO_FUSE: unset, empty or "auto", arrays of kDefaultMinSize elements and more, and smaller ones while
// recording pays; "large", kDefaultMinSize and more alone; "0", "false", "off" or "no", none; anything else ("1",
// "all"), every size.
const ProcessSetting& process_setting() {
  static const ProcessSetting setting = [] {
    const char* v = std::getenv("CUARRAY_AUTO_FUSE");
    std::string s(v ? v : "");
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    if (s.empty() || s == "auto") return ProcessSetting{kDefaultMinSize, true};
    if (s == "large") return ProcessSetting{kDefaultMinSize, false};
    if (s == "0" || s == "false" || s == "off" || s == "no") return ProcessSetting{INT64_MAX, false};
    return ProcessSetting{1, false};
  }();
  return setting;
}

}  // namespace

std::int64_t min_size() { return t_setting < 0 ? process_setting().min_size : t_setting ? 1 : INT64_MAX; }

bool records(const Array& output, const Input* inputs, int nin) {
  if (output.size() >= min_size()) return true;
  // Smaller: under the process default, unless small ops are paused.
  if (t_setting >= 0 || !process_setting().small_while_paying) return false;
  if (g_compile_wait.load(std::memory_order_relaxed) > 0) {
    if (background_compiles_pending() && g_compile_wait.fetch_sub(1, std::memory_order_relaxed) > 1) return false;
    g_compile_wait.store(0, std::memory_order_relaxed);
    g_wait_ended.store(true, std::memory_order_relaxed);
  }
  if (g_small_pause.load(std::memory_order_relaxed) <= 0) return true;
  g_small_pause.fetch_sub(1, std::memory_order_relaxed);  // a race here only moves the next try by an op
  watch_eager(output, inputs, nin);
  return false;
}

void judge_chain(std::int64_t size, std::size_t steps, ChainRun run) {
  if (size >= kDefaultMinSize || !process_setting().small_while_paying) return;
  const bool after_wait = g_wait_ended.exchange(false, std::memory_order_relaxed);
  if (steps >= kSmallGain && run == ChainRun::Compiling) {  // neither: it is fused once its kernel is ready
    g_compile_wait.store(kSmallPause, std::memory_order_relaxed);
    return;
  }
  if (steps >= kSmallGain && run == ChainRun::Fused) {
    g_small_losses.store(0, std::memory_order_relaxed);
    g_backoff.store(0, std::memory_order_relaxed);
    return;
  }
  if (after_wait) return;
  if (g_small_losses.fetch_add(1, std::memory_order_relaxed) + 1 < kSmallLosses) return;
  g_small_losses.store(0, std::memory_order_relaxed);
  g_small_pause.store(kSmallPause, std::memory_order_relaxed);
  g_small_pauses.fetch_add(1, std::memory_order_relaxed);
}

std::uint64_t small_pauses() { return g_small_pauses.load(std::memory_order_relaxed); }

int thread_setting() { return t_setting; }
void set_thread_setting(int setting) { t_setting = static_cast<signed char>(setting < 0 ? -1 : setting > 0 ? 1 : 0); }

}  // namespace auto_fusion

}  // namespace cuarray::ops
