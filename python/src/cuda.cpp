// Bindings for cuarray.cuda: devices, streams, graphs, events, the memory pools and pinned memory.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>

#include "convert.h"
#include "cuarray/blocking.h"
#include "cuarray/cuda/check.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/event.h"
#include "cuarray/cuda/graph.h"
#include "cuarray/cuda/memory_pool.h"
#include "cuarray/cuda/pinned_memory.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/nvrtc.h"
#include "cuarray/ops/transfer.h"
#include "gil.h"

namespace py = pybind11;
using namespace py::literals;

namespace cuarray::bind {

namespace {

using cuda::Event;
using cuda::Graph;
using cuda::MemoryPool;
using cuda::PinnedBuffer;
using cuda::Stream;
using StreamPtr = std::shared_ptr<Stream>;

int device_attribute(cudaDeviceAttr attr, int id) {
  int v = 0;
  CUARRAY_CHECK_CUDA(cudaDeviceGetAttribute(&v, attr, id));
  return v;
}

// CuPy's getDeviceProperties keys.
py::dict properties_dict(int id) {
  const cudaDeviceProp& p = cuda::properties(id);
  py::dict d;
  d["name"] = py::bytes(p.name);
  d["totalGlobalMem"] = p.totalGlobalMem;
  d["sharedMemPerBlock"] = p.sharedMemPerBlock;
  d["regsPerBlock"] = p.regsPerBlock;
  d["warpSize"] = p.warpSize;
  d["memPitch"] = p.memPitch;
  d["maxThreadsPerBlock"] = p.maxThreadsPerBlock;
  d["maxThreadsDim"] = py::make_tuple(p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
  d["maxGridSize"] = py::make_tuple(p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  d["clockRate"] = device_attribute(cudaDevAttrClockRate, id);
  d["totalConstMem"] = p.totalConstMem;
  d["major"] = p.major;
  d["minor"] = p.minor;
  d["textureAlignment"] = p.textureAlignment;
  d["multiProcessorCount"] = p.multiProcessorCount;
  d["integrated"] = p.integrated;
  d["canMapHostMemory"] = p.canMapHostMemory;
  d["concurrentKernels"] = p.concurrentKernels;
  d["ECCEnabled"] = p.ECCEnabled;
  d["pciBusID"] = p.pciBusID;
  d["pciDeviceID"] = p.pciDeviceID;
  d["pciDomainID"] = p.pciDomainID;
  d["asyncEngineCount"] = p.asyncEngineCount;
  d["unifiedAddressing"] = p.unifiedAddressing;
  d["memoryClockRate"] = device_attribute(cudaDevAttrMemoryClockRate, id);
  d["memoryBusWidth"] = p.memoryBusWidth;
  d["l2CacheSize"] = p.l2CacheSize;
  d["maxThreadsPerMultiProcessor"] = p.maxThreadsPerMultiProcessor;
  d["sharedMemPerMultiprocessor"] = p.sharedMemPerMultiprocessor;
  d["regsPerMultiprocessor"] = p.regsPerMultiprocessor;
  d["managedMemory"] = p.managedMemory;
  d["isMultiGpuBoard"] = p.isMultiGpuBoard;
  d["sharedMemPerBlockOptin"] = p.sharedMemPerBlockOptin;
  return d;
}

// Note [Interruptible waits] (cpp/cuarray/blocking.h), Python's side: blocking work runs without the GIL,
// and the interrupt check runs Python's signal handlers in the main thread (the only one that receives
// them), so Ctrl-C raises KeyboardInterrupt out of the wait.
void install_host_hooks() {
  static const unsigned long main_thread =
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  set_host_hooks(
      [](const std::function<void()>& work) {
        if (finalizing() || !PyGILState_Check()) return work();
        ReleaseGil nogil;
        work();
      },
      [] {
        if (PyThread_get_thread_ident() != main_thread || finalizing()) return;
        AcquireGil gil;
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      });
}

}  // namespace

void init_cuda(py::module_& m) {
  install_host_hooks();
  py::module_ c = m.def_submodule("cuda", "CUDA devices, streams, events and memory");

  c.def("is_available", &cuda::is_available);
  // Before a fork and before the interpreter exits: the NVRTC warm-up thread and the launch worker are joined
  // (a later launch starts the worker again), so that a child inherits no lock held and nothing runs during
  // teardown; before a fork, whether CUDA has started is noted for the child.
  c.def(
      "_finish_threads",
      [] {
        jit::finish_warm_up();
        cuda::stop_launch_worker();
      },
      release_gil());
  c.def(
      "_prepare_fork",
      [] {
        jit::finish_warm_up();
        cuda::stop_launch_worker();
        cuda::prepare_fork();
      },
      release_gil());
  c.def("_note_forked_child", &cuda::note_forked_child);
  c.def("device_count", &cuda::device_count);
  c.def("current_device", &cuda::current_device);
  c.def("set_device", &cuda::set_device, "id"_a);
  c.def("check_device", &cuda::check_device, "id"_a);
  c.def("synchronize_device", &cuda::synchronize_device, "id"_a, release_gil());
  // Polls the clock through the core's wait for `seconds`, called with the GIL held as internal waits are (or
  // without it, as Stream.synchronize is): tests check Ctrl-C, the GIL and interpreter exit without a device.
  c.def(
      "_wait_seconds",
      [](double seconds, bool release) {
        auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        auto wait = [end] { wait_until([end] { return std::chrono::steady_clock::now() >= end; }); };
        if (!release) return wait();
        ReleaseGil nogil;
        wait();
      },
      "seconds"_a, "release_gil"_a = false);
  c.def("_begin_exit", &begin_exit);
  c.def("share_with_other_code", &cuda::share_with_other_code);
  c.def("_launch_counts", &cuda::launch_counts);
  c.def(
      "stop_launch_worker", [] { cuda::stop_launch_worker(); }, release_gil());
  c.def("compute_capability", &cuda::compute_capability, "id"_a);
  c.def("mem_info", &cuda::mem_info, "id"_a);
  c.def("driver_version", &cuda::driver_version);
  c.def("runtime_version", &cuda::runtime_version);
  c.def("device_properties", &properties_dict, "id"_a);

  py::class_<Stream, StreamPtr>(c, "Stream")
      .def_static("create", &Stream::create, "non_blocking"_a = false, "priority"_a = 0)
      .def_static("null", &Stream::null, "device"_a)
      .def_property_readonly("ptr", [](const Stream& s) { return reinterpret_cast<std::uintptr_t>(s.handle()); })
      .def_property_readonly("device", &Stream::device)
      .def_property_readonly("non_blocking", &Stream::non_blocking)
      .def("synchronize", &Stream::synchronize, release_gil())
      .def_property_readonly("done", &Stream::done)
      .def(
          "begin_capture", [](const StreamPtr& s, int mode) { cuda::begin_capture(s, cudaStreamCaptureMode(mode)); },
          "mode"_a)
      .def("end_capture", &cuda::end_capture)
      .def(
          "discard_capture",
          [](const StreamPtr& s, std::string reason) { cuda::discard_capture(s, std::move(reason)); }, "reason"_a)
      .def("is_capturing", &cuda::is_capturing)
      .def_property_readonly("capturing", &Stream::capturing);
  py::class_<Graph, std::shared_ptr<Graph>>(c, "Graph")
      .def("launch", &Graph::launch, "stream"_a)
      .def("upload", &Graph::upload, "stream"_a)
      .def_property_readonly("device", &Graph::device);
  c.def("set_current_stream", &cuda::set_current_stream, "stream"_a);
  c.def(
      "current_stream", [](int device) { return cuda::current_stream(device); }, "device"_a);

  py::class_<Event>(c, "Event")
      .def(py::init<bool, bool, bool>(), "blocking"_a, "timing"_a, "interprocess"_a = false)
      .def_property_readonly("ptr", [](const Event& e) { return reinterpret_cast<std::uintptr_t>(e.handle()); })
      .def_property_readonly("device", &Event::device)
      .def(
          "record", [](Event& e, const StreamPtr& s) { e.record(s->handle()); }, "stream"_a)
      .def("synchronize", &Event::synchronize, release_gil())
      .def_property_readonly("done", &Event::done);
  c.def("elapsed_ms", &cuda::elapsed_ms, "start"_a, "end"_a);
  c.def(
      "stream_wait_event", [](const StreamPtr& s, const Event& e) { cuda::stream_wait_event(s->handle(), e); },
      "stream"_a, "event"_a);

  c.def(
      "pool_used_bytes", [](int d) { return MemoryPool::of(d).used_bytes(); }, "device"_a);
  c.def(
      "pool_total_bytes", [](int d) { return MemoryPool::of(d).total_bytes(); }, "device"_a);
  c.def(
      "pool_free_bytes", [](int d) { return MemoryPool::of(d).free_bytes(); }, "device"_a);
  c.def(
      "pool_free_all_blocks", [](int d) { MemoryPool::of(d).free_all_blocks(); }, "device"_a, release_gil());
  c.def(
      "pool_set_limit", [](int d, std::size_t n) { MemoryPool::of(d).set_limit(n); }, "device"_a, "size"_a);
  c.def(
      "pool_get_limit", [](int d) { return MemoryPool::of(d).limit(); }, "device"_a);
  // CUARRAY_GPU_MEMORY_LIMIT's parser, for tests without a device.
  c.def("_parse_memory_limit", &cuda::parse_memory_limit, "value"_a, "total"_a);
  MemoryPool::set_reclaim_hook([] {
    AcquireGil gil;
    py::module_::import("gc").attr("collect")();
  });

  py::class_<PinnedBuffer, std::shared_ptr<PinnedBuffer>>(c, "PinnedMemory", py::buffer_protocol())
      .def_property_readonly("ptr", [](const PinnedBuffer& b) { return reinterpret_cast<std::uintptr_t>(b.ptr()); })
      .def_property_readonly("size", &PinnedBuffer::nbytes)
      .def("__len__", &PinnedBuffer::nbytes)
      .def_buffer([](PinnedBuffer& b) {
        return py::buffer_info(b.ptr(), 1, py::format_descriptor<std::uint8_t>::format(), 1,
                               {static_cast<py::ssize_t>(b.nbytes())}, {1});
      });
  c.def("alloc_pinned", &cuda::allocate_pinned, "nbytes"_a);
  c.def("pinned_used_bytes", [] { return cuda::pinned_pool_stats().used_bytes; });
  c.def("pinned_free_bytes", [] { return cuda::pinned_pool_stats().cached_bytes; });
  c.def("pinned_free_all_blocks", &ops::free_pinned_blocks);
}

}  // namespace cuarray::bind
