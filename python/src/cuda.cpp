// Bindings for cuarray.cuda: devices, streams, graphs, events, the memory pools and pinned memory.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>

#include "convert.h"
#include "cuarray/blocking.h"
#include "cuarray/cuda/async_pool.h"
#include "cuarray/cuda/check.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/event.h"
#include "cuarray/cuda/graph.h"
#include "cuarray/cuda/memory_pool.h"
#include "cuarray/cuda/pinned_memory.h"
#include "cuarray/cuda/runtime_calls.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/jit/kernel_cache.h"
#include "cuarray/jit/nvrtc.h"
#include "cuarray/lib/cublas.h"
#include "cuarray/lib/cusolver.h"
#include "cuarray/ops/auto_fusion.h"
#include "cuarray/ops/background_compile.h"
#include "cuarray/ops/transfer.h"
#include "gil.h"
#include "hooks.h"
#include "host_calls.h"

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

// A cudaDeviceProp array field as a tuple, as CuPy gives it.
template <size_t N>
py::tuple tuple_of(const int (&v)[N]) {
  py::tuple t(N);
  for (size_t i = 0; i < N; ++i) t[i] = py::int_(v[i]);
  return t;
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
  d["maxThreadsDim"] = tuple_of(p.maxThreadsDim);
  d["maxGridSize"] = tuple_of(p.maxGridSize);
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
  d["uuid"] = py::bytes(p.uuid.bytes, sizeof p.uuid.bytes);
  d["luid"] = py::bytes(p.luid, sizeof p.luid);
  d["luidDeviceNodeMask"] = p.luidDeviceNodeMask;
  d["maxTexture1D"] = p.maxTexture1D;
  d["maxTexture1DMipmap"] = p.maxTexture1DMipmap;
  d["maxTexture1DLinear"] = device_attribute(cudaDevAttrMaxTexture1DLinearWidth, id);
  d["maxTexture2D"] = tuple_of(p.maxTexture2D);
  d["maxTexture2DMipmap"] = tuple_of(p.maxTexture2DMipmap);
  d["maxTexture2DLinear"] = tuple_of(p.maxTexture2DLinear);
  d["maxTexture2DGather"] = tuple_of(p.maxTexture2DGather);
  d["maxTexture3D"] = tuple_of(p.maxTexture3D);
  d["maxTexture3DAlt"] = tuple_of(p.maxTexture3DAlt);
  d["maxTextureCubemap"] = p.maxTextureCubemap;
  d["maxTexture1DLayered"] = tuple_of(p.maxTexture1DLayered);
  d["maxTexture2DLayered"] = tuple_of(p.maxTexture2DLayered);
  d["maxTextureCubemapLayered"] = tuple_of(p.maxTextureCubemapLayered);
  d["maxSurface1D"] = p.maxSurface1D;
  d["maxSurface2D"] = tuple_of(p.maxSurface2D);
  d["maxSurface3D"] = tuple_of(p.maxSurface3D);
  d["maxSurface1DLayered"] = tuple_of(p.maxSurface1DLayered);
  d["maxSurface2DLayered"] = tuple_of(p.maxSurface2DLayered);
  d["maxSurfaceCubemap"] = p.maxSurfaceCubemap;
  d["maxSurfaceCubemapLayered"] = tuple_of(p.maxSurfaceCubemapLayered);
  d["surfaceAlignment"] = p.surfaceAlignment;
  d["texturePitchAlignment"] = p.texturePitchAlignment;
  d["deviceOverlap"] = device_attribute(cudaDevAttrGpuOverlap, id);
  d["kernelExecTimeoutEnabled"] = device_attribute(cudaDevAttrKernelExecTimeout, id);
  d["computeMode"] = device_attribute(cudaDevAttrComputeMode, id);
  d["singleToDoublePrecisionPerfRatio"] = device_attribute(cudaDevAttrSingleToDoublePrecisionPerfRatio, id);
  d["tccDriver"] = p.tccDriver;
  d["streamPrioritiesSupported"] = p.streamPrioritiesSupported;
  d["globalL1CacheSupported"] = p.globalL1CacheSupported;
  d["localL1CacheSupported"] = p.localL1CacheSupported;
  d["multiGpuBoardGroupID"] = p.multiGpuBoardGroupID;
  d["hostNativeAtomicSupported"] = p.hostNativeAtomicSupported;
  d["pageableMemoryAccess"] = p.pageableMemoryAccess;
  d["concurrentManagedAccess"] = p.concurrentManagedAccess;
  d["computePreemptionSupported"] = p.computePreemptionSupported;
  d["canUseHostPointerForRegisteredMem"] = p.canUseHostPointerForRegisteredMem;
  d["cooperativeLaunch"] = p.cooperativeLaunch;
  d["cooperativeMultiDeviceLaunch"] = 0;  // CUDA 13 no longer has it: no device offers it
  d["pageableMemoryAccessUsesHostPageTables"] = p.pageableMemoryAccessUsesHostPageTables;
  d["directManagedMemAccessFromHost"] = p.directManagedMemAccessFromHost;
  d["maxBlocksPerMultiProcessor"] = p.maxBlocksPerMultiProcessor;
  d["accessPolicyMaxWindowSize"] = p.accessPolicyMaxWindowSize;
  d["reservedSharedMemPerBlock"] = p.reservedSharedMemPerBlock;
  d["persistingL2CacheMaxSize"] = p.persistingL2CacheMaxSize;
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

// Note [User allocator] (cpp/cuarray/cuda/memory_pool.h), Python's side: cuarray.cuda.memory._allocate_for_core
// calls the user's allocator and checks what it returned; the Buffer keeps that object alive, and dropping the
// Buffer drops it with the GIL held.
std::shared_ptr<cuda::Buffer> allocate_in_python(std::size_t nbytes) {
  AcquireGil gil;
  // Memory of values the program dropped that a chain kept (Note [Automatic fusion] in cpp/cuarray/ops/
  // auto_fusion.h) goes back first: the allocator may need it, as it would have it without fusion.
  ops::release_kept_memory();
  py::object memory;
  try {
    memory = hook(Hook::Allocate)(nbytes);
  } catch (py::error_already_set& e) {
    // A pending chain still holds the memory of values the program dropped: it runs and gives that memory back,
    // and the allocator is asked once more, as the pool's own allocation retries (MemoryPool::allocate).
    if (e.matches(PyExc_KeyboardInterrupt) || !cuda::detail::recorded.load(std::memory_order_acquire)) throw;
    ops::flush_recorded();
    memory = hook(Hook::Allocate)(nbytes);
  }
  auto ptr = reinterpret_cast<void*>(memory.attr("ptr").cast<std::uintptr_t>());
  auto* owner = new py::object(std::move(memory));
  return std::make_shared<cuda::Buffer>(ptr, nbytes, cuda::current_device(), [owner] {
    if (python_gone()) return;
    AcquireGil gil;
    delete owner;
  });
}

// The pool of device `d`, its counts as eager code would leave them: a recorded chain holds the memory of the
// values the program dropped until it runs (Note [Automatic fusion] in cpp/cuarray/ops/auto_fusion.h), so it runs
// first, and the kept memory of a user allocator (which may be the pool's) is released (this thread holds Python's
// lock).
MemoryPool& settled_pool(int d) {
  ops::flush_recorded();
  return MemoryPool::of(d);
}

// CuPy's PinnedMemoryPointer: pinned memory (any object with an integer `ptr` and `size`: cuarray's
// PinnedMemory, or a subclass of it another allocator made), kept alive, and an offset into it; readable and
// writable through the buffer protocol (numpy.frombuffer) from the offset to the end of the memory.
struct PinnedPointer {
  py::object mem;
  std::uintptr_t base;
  std::size_t size;
  std::size_t offset;
};

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
        ops::stop_auto_fusion();
        ops::finish_background_compiles(/*for_good=*/true);
        jit::finish_warm_up();
        cuda::stop_launch_worker();
      },
      release_gil());
  c.def(
      "_prepare_fork",
      [] {
        ops::flush_recorded();
        ops::finish_background_compiles();
        jit::finish_warm_up();
        cuda::stop_launch_worker();
        cuda::prepare_fork();
      },
      release_gil());
  c.def("_note_forked_child", [] {
    cuda::note_forked_child();
    jit::drop_held_handlers();  // the parent reports its kernels
  });
  c.def("device_count", &cuda::device_count);
  c.def("current_device", &cuda::current_device);
  c.def("set_device", &cuda::set_device, "id"_a);
  c.def("check_device", &cuda::check_device, "id"_a);
  c.def("synchronize_device", &cuda::synchronize_device, "id"_a, release_gil());
  // Polls the clock through the core's wait for `seconds`, called with the GIL held as internal waits are (or
  // without it, as Stream.synchronize is): tests check Ctrl-C, the GIL and interpreter exit without a device.
  // `step` > 0: in waits of `step` seconds each, with a StepInterrupts check between them, as a staged copy
  // waits chunk by chunk (Note [Interrupts between steps] in cpp/cuarray/blocking.h).
  c.def(
      "_wait_seconds",
      [](double seconds, bool release, double step) {
        using Clock = std::chrono::steady_clock;
        auto wait = [seconds, step] {
          auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
          auto until = [](Clock::time_point t) { wait_until([t] { return Clock::now() >= t; }); };
          if (step <= 0) return until(end);
          auto each = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(step));
          StepInterrupts interrupts;
          for (auto t = Clock::now(); t < end; t = Clock::now()) {
            interrupts.check();
            until(std::min(end, t + each));
          }
        };
        if (!release) return wait();
        ReleaseGil nogil;
        wait();
      },
      "seconds"_a, "release_gil"_a = false, "step"_a = 0.0);
  c.def("_begin_exit", [] {
    // Other threads' waits park only once the interpreter finalizes, after every exit handler: one registered
    // before cuarray's (so run after it) may join a thread that waits for the device.
    begin_exit([] { return finalizing(); });
  });
  c.def("_next_host_call", &next_host_call);
  c.def("_host_call_done", &host_call_done, "token"_a);
  // An exception of a host callback, reported as one raised in __del__ is.
  c.def("_report_unraisable", [](py::object exc) {
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
    py::error_already_set error;
    error.discard_as_unraisable("a host callback of a cuarray Stream");
  });
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
      .def_property_readonly("serial", &Stream::serial)
      .def_property_readonly("owned", &Stream::owned)
      .def_static("alive", &Stream::alive, "serial"_a)
      .def_property_readonly("device", &Stream::device)
      .def_property_readonly("non_blocking", &Stream::non_blocking)
      .def_static("per_thread", &Stream::per_thread, "device"_a)
      .def_static(
          "external",
          [](std::uintptr_t ptr, int device) { return Stream::external(reinterpret_cast<cudaStream_t>(ptr), device); },
          "ptr"_a, "device"_a)
      .def_property_readonly("priority", &Stream::priority)
      .def("launch_host_func", &launch_python_host_func, "callback"_a, "arg"_a)
      .def("add_callback", &add_python_callback, "callback"_a, "arg"_a, "stream"_a)
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
      .def("debug_dot_print", &Graph::debug_dot_print, "path"_a, "flags"_a)
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
      "stream_wait_event", [](const StreamPtr& s, const Event& e) { cuda::wait_event(s, e); }, "stream"_a, "event"_a);

  c.def(
      "pool_used_bytes", [](int d) { return settled_pool(d).used_bytes(); }, "device"_a);
  c.def(
      "pool_total_bytes", [](int d) { return MemoryPool::of(d).total_bytes(); }, "device"_a);
  c.def(
      "pool_free_bytes", [](int d) { return settled_pool(d).free_bytes(); }, "device"_a);
  c.def(
      "pool_free_blocks", [](int d) { return settled_pool(d).free_blocks(); }, "device"_a);
  c.def(
      "pool_free_all_blocks", [](int d) { MemoryPool::of(d).free_all_blocks(); }, "device"_a, release_gil());
  // What CUDA's graph memory of a device reserves (Note [Graph memory] in cpp/cuarray/cuda/memory_pool.h): tests.
  c.def("_graph_reserved_bytes", &cuda::graph_reserved_bytes, "device"_a);
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

  // Device memory as an object of its own (CuPy's Memory): the pool's (MemoryPool.malloc, cuda.alloc) or
  // managed memory (malloc_managed), freed when the last owner drops it.
  py::class_<cuda::Buffer, std::shared_ptr<cuda::Buffer>>(c, "DeviceMemory")
      .def_property_readonly("ptr", [](const cuda::Buffer& b) { return reinterpret_cast<std::uintptr_t>(b.ptr()); })
      .def_property_readonly("size", &cuda::Buffer::nbytes)
      .def_property_readonly("device_id", &cuda::Buffer::device)
      .def_property_readonly("pooled", &cuda::Buffer::pooled);
  c.def("alloc", &cuda::allocate, "nbytes"_a);
  c.def("pool_malloc", &cuda::allocate_from_pool, "nbytes"_a);
  c.def("malloc_managed", &cuda::allocate_managed, "nbytes"_a);
  cuda::set_user_allocate(&allocate_in_python);
  c.def("use_user_allocator", &cuda::use_user_allocator, "on"_a);
  c.def("use_thread_user_allocator", &cuda::use_thread_user_allocator, "choice"_a);
  c.def("thread_user_allocator", &cuda::thread_user_allocator);

  c.def("device_attributes", [](int id) {
    py::dict d;
    for (auto& [name, value] : cuda::device_attributes(id)) d[py::str(name)] = value;
    return d;
  });
  // Note [Raw runtime calls] (cpp/cuarray/cuda/runtime_calls.h): cuda.runtime's functions by CuPy's names.
  c.def("device_attribute", &cuda::device_attribute, "attr"_a, "device"_a);
  c.def("device_can_access_peer", &cuda::device_can_access_peer, "device"_a, "peer"_a);
  c.def("device_attribute_numbers", [] {
    py::dict d;
    for (auto& [name, value] : cuda::device_attribute_numbers()) d[py::str(name)] = value;
    return d;
  });
  c.def("raw_pointer_device", &cuda::raw_pointer_device, "ptr"_a);
  c.def("raw_malloc", &cuda::raw_malloc, "nbytes"_a);
  c.def("raw_free", &cuda::raw_free, "ptr"_a, release_gil());
  c.def("raw_stream_create", &cuda::raw_stream_create, "flags"_a);
  c.def("raw_stream_destroy", &cuda::raw_stream_destroy, "stream"_a);
  c.def("raw_stream_query", &cuda::raw_stream_query, "stream"_a);
  c.def("raw_memcpy", &cuda::raw_memcpy, "dst"_a, "src"_a, "nbytes"_a, "stream"_a, "wait"_a, release_gil());
  c.def("raw_memset", &cuda::raw_memset, "dst"_a, "value"_a, "nbytes"_a, "stream"_a, "wait"_a, release_gil());
  c.def("raw_mem_prefetch", &cuda::raw_mem_prefetch, "ptr"_a, "nbytes"_a, "device"_a, "stream"_a);
  c.def("raw_mem_advise", &cuda::raw_mem_advise, "ptr"_a, "nbytes"_a, "advice"_a, "device"_a);
  c.def("malloc_unpooled", &cuda::allocate_unpooled, "nbytes"_a);
  // Note [Async pool] (cpp/cuarray/cuda/async_pool.h): malloc_async and MemoryAsyncPool.
  c.def("malloc_async", &cuda::allocate_async, "nbytes"_a);
  c.def(
      "async_pool_used_bytes",
      [](int d) {
        ops::flush_recorded();  // as settled_pool
        return cuda::async_pool_used_bytes(d);
      },
      "device"_a);
  c.def("async_pool_reserved_bytes", &cuda::async_pool_reserved_bytes, "device"_a);
  c.def("async_pool_release_threshold", &cuda::async_pool_release_threshold, "device"_a);
  c.def("async_pool_set_release_threshold", &cuda::async_pool_set_release_threshold, "device"_a, "bytes"_a);
  c.def("async_pool_trim", &cuda::async_pool_trim, "device"_a);
  c.def("pci_bus_id", &cuda::pci_bus_id, "id"_a);
  c.def("device_by_pci_bus_id", &cuda::device_by_pci_bus_id, "bus_id"_a);
  c.def("cublas_handle", [] { return reinterpret_cast<std::uintptr_t>(lib::cublas::handle()); });
  c.def("cusolver_handle", &lib::cusolver::handle_address);

  py::class_<PinnedBuffer, std::shared_ptr<PinnedBuffer>>(c, "PinnedMemory", py::buffer_protocol())
      .def_property_readonly("ptr", [](const PinnedBuffer& b) { return reinterpret_cast<std::uintptr_t>(b.ptr()); })
      .def_property_readonly("size", &PinnedBuffer::nbytes)
      .def("__len__", &PinnedBuffer::nbytes)
      .def_buffer([](PinnedBuffer& b) {
        return py::buffer_info(b.ptr(), 1, py::format_descriptor<std::uint8_t>::format(), 1,
                               {static_cast<py::ssize_t>(b.nbytes())}, {1});
      });
  py::class_<PinnedPointer>(
      c, "PinnedMemoryPointer", py::buffer_protocol(),
      "A pointer into page-locked host memory (PinnedMemory) at a byte offset; supports the buffer "
      "protocol, so numpy.frombuffer reads it.")
      .def(py::init([](py::object mem, std::size_t offset) {
             auto base = mem.attr("ptr").cast<std::uintptr_t>();
             auto size = mem.attr("size").cast<std::size_t>();
             if (offset > size)
               throw ValueError("offset " + std::to_string(offset) + " is past the end of " + std::to_string(size) +
                                " bytes of pinned memory");
             return PinnedPointer{std::move(mem), base, size, offset};
           }),
           "mem"_a, "offset"_a)
      .def_property_readonly(
          "mem", [](const PinnedPointer& p) { return p.mem; }, "The PinnedMemory the pointer points into.")
      .def_property_readonly(
          "ptr", [](const PinnedPointer& p) { return p.base + p.offset; }, "The address, as an integer.")
      .def_property_readonly(
          "offset", [](const PinnedPointer& p) { return p.offset; }, "The offset in bytes from the start of mem.")
      .def("size", [](const PinnedPointer& p) { return p.size - p.offset; })
      .def("__len__", [](const PinnedPointer& p) { return p.size - p.offset; })
      .def_buffer([](PinnedPointer& p) {
        return py::buffer_info(reinterpret_cast<char*>(p.base) + p.offset, 1,
                               py::format_descriptor<std::uint8_t>::format(), 1,
                               {static_cast<py::ssize_t>(p.size - p.offset)}, {1});
      });
  c.def("alloc_pinned", &cuda::allocate_pinned, "nbytes"_a);
  c.def("pinned_used_bytes", [] { return cuda::pinned_pool_stats().used_bytes; });
  c.def("pinned_free_bytes", [] { return cuda::pinned_pool_stats().cached_bytes; });
  c.def("pinned_free_all_blocks", &ops::free_pinned_blocks);
}

}  // namespace cuarray::bind
