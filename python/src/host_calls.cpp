// Python host functions on CUDA streams: Note [Host callbacks] (cpp/cuarray/cuda/stream.h), Python's side.
#include "host_calls.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "gil.h"

namespace py = pybind11;

namespace cuarray::bind {

using cuda::Stream;

// Once the interpreter finalizes (after every atexit handler: one may still join a thread that waits for a host
// function's effect), no driver thread calls into Python, and the Python objects that host callbacks and user
// allocations hold are left to the process's end.
bool python_gone() { return finalizing(); }

namespace {

// Nothing tells a waiting thread that the interpreter has begun to finalize: waits for host calls poll for it.
constexpr std::chrono::milliseconds kExitPoll{20};

// Note [Host callbacks] (cpp/cuarray/cuda/stream.h), Python's side
// A driver thread never takes the GIL: one that waited for it while the interpreter ended would be ended by
// CPython (pthread_exit) or left waiting, and with it the driver. It hands the call to cuarray's host-callback
// thread (a Python daemon thread looping on next_host_call) and waits until that thread has run it, so the
// stream's later work still waits for the function, as CUDA orders it; once the interpreter finalizes (after
// every atexit handler) it stops waiting, and calls not yet run are dropped (their Python objects left to the
// process's end). An exception of the function is reported as unraisable, as one in __del__ is: there is no
// caller to raise it to. Some driver calls wait for running host functions (a kernel's first load into the
// context): cuarray's own loads and the CUDA libraries' calls let the GIL go (Note [Loading waits for the
// device] in cpp/cuarray/jit/kernel_cache.cpp, Note [Library calls wait for the device] in
// cpp/cuarray/lib/library.h), but a function that blocks until the launching thread does something more can
// deadlock too. Host functions should not wait on the program (CUDA's own rule), as with CuPy's.
// The core owns the function it runs, and destroys it after its one run, or, for one that a capture
// recorded, when the graph lets it go (Note [Captured host functions] in cpp/cuarray/cuda/graph.h): on a
// driver thread either way, so the Python objects are deleted on the host-callback thread too.
struct PythonCall {
  py::object fn;
  py::tuple args;
};

struct HostCall {
  PythonCall* call;
  std::optional<int> status;  // add_callback's cudaError_t
  bool done = false;
  bool drop = false;  // delete `call` without running it
};

struct HostCalls {
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<std::shared_ptr<HostCall>> queue;
  std::unordered_map<std::uint64_t, std::shared_ptr<HostCall>> running;  // by token
  std::uint64_t next_token = 0;
};

HostCalls& host_calls() {
  static auto* calls = new HostCalls;  // never destroyed: driver threads may use it during exit
  return *calls;
}

// On the driver's thread.
void run_python_call(PythonCall* call, std::optional<int> status) {
  if (python_gone()) return;
  auto job = std::make_shared<HostCall>(HostCall{call, status});
  HostCalls& calls = host_calls();
  std::unique_lock<std::mutex> lock(calls.mutex);
  calls.queue.push_back(job);
  calls.cv.notify_all();
  while (!job->done && !python_gone()) calls.cv.wait_for(lock, kExitPoll);
}

// On any thread: hands a call to the host-callback thread to delete (left to the process's end at exit).
void drop_python_call(PythonCall* call) {
  if (python_gone()) return;
  HostCalls& calls = host_calls();
  std::lock_guard<std::mutex> lock(calls.mutex);
  calls.queue.push_back(std::make_shared<HostCall>(HostCall{call, std::nullopt, false, true}));
  calls.cv.notify_all();
}

// What the core's function holds: the call, dropped with it.
struct HostFunction {
  explicit HostFunction(PythonCall* call) : call(call) {}
  HostFunction(const HostFunction&) = delete;
  HostFunction& operator=(const HostFunction&) = delete;
  ~HostFunction() { drop_python_call(call); }
  PythonCall* call;
};

}  // namespace

void launch_python_host_func(const Stream& stream, py::object fn, py::object arg) {
  auto holder = std::make_shared<HostFunction>(new PythonCall{std::move(fn), py::make_tuple(std::move(arg))});
  stream.launch_host_func([holder] { run_python_call(holder->call, std::nullopt); });
}

void add_python_callback(const Stream& stream, py::object fn, py::object arg, py::object owner) {
  auto holder =
      std::make_shared<HostFunction>(new PythonCall{std::move(fn), py::make_tuple(std::move(owner), std::move(arg))});
  stream.add_callback([holder](cudaError_t status) { run_python_call(holder->call, static_cast<int>(status)); });
}

// On the host-callback thread, with the GIL: waits (without it) for the next call and returns it as
// (function, arguments, token), or None once Python has begun to exit. The thread runs the function itself,
// so that no C++ frame is on its stack if the interpreter ends it there, and then hands back the token.
py::object next_host_call() {
  HostCalls& calls = host_calls();
  for (;;) {
    std::shared_ptr<HostCall> job;
    {
      ReleaseGil nogil;
      std::unique_lock<std::mutex> lock(calls.mutex);
      while (calls.queue.empty() && !python_gone()) calls.cv.wait_for(lock, kExitPoll);
      if (!python_gone()) {  // once Python finalizes, calls not yet run are dropped
        job = std::move(calls.queue.front());
        calls.queue.pop_front();
      }
    }
    if (!job) return py::none();
    if (job->drop) {
      delete job->call;
      continue;
    }
    const PythonCall* call = job->call;  // alive until the core drops its function, after this run
    py::object fn = call->fn;
    py::tuple args = call->args;
    if (job->status) args = py::make_tuple(args[0], *job->status, args[1]);  // CuPy's (stream, error, arg)
    std::lock_guard<std::mutex> lock(calls.mutex);
    std::uint64_t token = ++calls.next_token;
    calls.running.emplace(token, std::move(job));
    return py::make_tuple(std::move(fn), std::move(args), token);
  }
}

// The call of `token` has returned: the driver's thread waiting for it goes on.
void host_call_done(std::uint64_t token) {
  HostCalls& calls = host_calls();
  std::lock_guard<std::mutex> lock(calls.mutex);
  auto it = calls.running.find(token);
  if (it == calls.running.end()) return;
  it->second->done = true;
  calls.running.erase(it);
  calls.cv.notify_all();
}

}  // namespace cuarray::bind
