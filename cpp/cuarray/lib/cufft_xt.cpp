#include "cuarray/lib/cufft_xt.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <mutex>
#include <string>

#include "cuarray/blocking.h"
#include "cuarray/cuda/check.h"
#include "cuarray/cuda/device.h"
#include "cuarray/cuda/graph.h"
#include "cuarray/cuda/memory_pool.h"
#include "cuarray/cuda/stream.h"
#include "cuarray/error.h"
#include "cuarray/lib/library.h"

namespace cuarray::lib::cufft {

namespace {

// cuFFT's Xt entry points, resolved when the first multi-GPU plan is made.
struct XtApi {
  Blocking<decltype(&cufftXtSetGPUs)> set_gpus;
  Blocking<decltype(&cufftMakePlan1d)> make_plan_1d;  // CuPy's call for multi-GPU plans
  decltype(&cufftXtSetWorkArea) set_work_area;
  Blocking<decltype(&cufftXtMalloc)> malloc;
  Blocking<decltype(&cufftXtMemcpy)> memcpy;
  Blocking<decltype(&cufftXtFree)> free;
  Blocking<decltype(&cufftXtExecDescriptor)> exec;
};

const XtApi& xt_api() {
  api();  // loads cuFFT, after the launches queued so far
  static std::once_flag once;
  static std::atomic<bool> loaded{false};
  static XtApi a;
  load_once(kCufft, once, loaded, [](void* h) {
    const std::string stem = kCufft.stem;
    resolve(a.set_gpus, h, "cufftXtSetGPUs", stem);
    resolve(a.make_plan_1d, h, "cufftMakePlan1d", stem);
    resolve(a.set_work_area, h, "cufftXtSetWorkArea", stem);
    resolve(a.malloc, h, "cufftXtMalloc", stem);
    resolve(a.memcpy, h, "cufftXtMemcpy", stem);
    resolve(a.free, h, "cufftXtFree", stem);
    resolve(a.exec, h, "cufftXtExecDescriptor", stem);
  });
  return a;
}

// Makes `device` current and, on scope exit, the caller's device again, whichever device cuFFT left current.
class XtDevice {
 public:
  explicit XtDevice(int device) : previous_(cuda::current_device()) {
    if (device != previous_) cuda::set_device(device);
  }
  ~XtDevice() { cuda::restore_device(previous_); }
  XtDevice(const XtDevice&) = delete;
  XtDevice& operator=(const XtDevice&) = delete;

 private:
  int previous_;
};

// CuPy's checks (cupy/cuda/cufft.pyx, Plan1d), before any CUDA call.
void check_key(const Key& key) {
  if (key.type != CUFFT_C2C && key.type != CUFFT_Z2Z)
    throw ValueError("Currently for multiple GPUs only C2C and Z2Z are supported.");
  const std::vector<int>& gpus = key.gpus;
  int count = static_cast<int>(gpus.size());
  if (count < 2) throw ValueError("Must use at least 2 GPUs.");
  if (count > MAX_CUDA_DESCRIPTOR_GPUS)
    throw ValueError("cuFFT spreads a transform over at most " + std::to_string(MAX_CUDA_DESCRIPTOR_GPUS) +
                     " GPUs, not " + std::to_string(count));
  for (int i = 0; i < count; ++i)
    if (std::count(gpus.begin(), gpus.end(), gpus[i]) > 1)
      throw ValueError("the GPUs of a multi-GPU FFT must be distinct, but device " + std::to_string(gpus[i]) +
                       " is given more than once");
  if (key.n.size() != 1) throw ValueError("multi-GPU cuFFT plans transform one dimension");
  long long nx = key.n[0];
  if (nx > INT_MAX || key.batch > INT_MAX)
    throw ValueError("multi-GPU cuFFT plans take lengths and batches below 2**31");
  if (key.batch == 1) {
    if ((nx & (nx - 1)) != 0)
      throw ValueError("For multi-GPU FFT with batch = 1, the array size must be a power of 2.");
    if (count != 2 && count != 4 && count != 8 && count != 16)
      throw ValueError("For multi-GPU FFT with batch = 1, the number of devices must be 2, 4, 8, or 16.");
    long long min_len = count <= 4 ? 64 : count == 8 ? 128 : 1024;
    if (nx < min_len)
      throw ValueError("For " + std::to_string(count) + " GPUs, the array length must be at least " +
                       std::to_string(min_len) + " (you have " + std::to_string(nx) + ").");
  }
}

// Refuses a capturing stream on any of the plan's devices (Note [Multi-GPU cuFFT plans]).
void check_not_capturing(const Key& key) {
  for (int g : key.gpus) cuda::check_device_not_capturing(g, "A multi-GPU cuFFT transform");
}

// Waits until each device of `gpus` has finished all its work (the Xt API's streams included).
void wait_for_devices(const std::vector<int>& gpus) {
  for (int g : gpus) {
    cuda::DeviceGuard guard(g);
    run_blocking([] { CUARRAY_CHECK_CUDA(cudaDeviceSynchronize()); });
  }
}

bool failed(cufftResult r) { return r != CUFFT_SUCCESS; }

// cufftXtMalloc's in-place buffers for the plan, checked to hold the whole batch on the plan's devices.
cudaLibXtDesc* malloc_buffers(cufftHandle handle, const Key& key) {
  const XtApi& xt = xt_api();
  cudaLibXtDesc* desc = nullptr;
  check(cuda::retry_with_memory([&] { return xt.malloc(handle, &desc, CUFFT_XT_FORMAT_INPLACE); }, failed),
        "cufftXtMalloc");
  const cudaXtDesc* d = desc->descriptor;
  std::size_t total = 0;
  bool ok = d->nGPUs == static_cast<int>(key.gpus.size());
  for (int i = 0; ok && i < d->nGPUs; ++i) {
    ok = std::count(key.gpus.begin(), key.gpus.end(), d->GPUs[i]) == 1;
    total += d->size[i];
  }
  std::size_t item = key.type == CUFFT_C2C ? sizeof(cufftComplex) : sizeof(cufftDoubleComplex);
  if (!ok || total != static_cast<std::size_t>(key.n[0] * key.batch) * item) {
    xt.free(desc);
    throw CudaError("cufftXtMalloc", 0, "cufftXtMalloc spread the transform's data in a way cuarray does not read");
  }
  return desc;
}

}  // namespace

PlanPtr make_multi_gpu_plan(const Key& key) {
  check_key(key);
  for (int g : key.gpus) cuda::check_device(g);
  check_not_capturing(key);
  const Api& a = api();
  const XtApi& xt = xt_api();
  std::size_t count = key.gpus.size();
  auto state = std::make_unique<XtState>();
  state->work_sizes.assign(count, 0);
  cufftHandle handle = 0;
  {
    XtDevice guard(key.gpus[0]);
    const char* call = "cufftCreate";
    auto attempt = [&] {
      call = "cufftCreate";
      cufftResult r = a.create(&handle);
      if (r != CUFFT_SUCCESS) return r;
      call = "cufftSetAutoAllocation";
      r = a.set_auto_allocation(handle, 0);
      if (r == CUFFT_SUCCESS) {
        call = "cufftXtSetGPUs";
        std::vector<int> gpus = key.gpus;
        r = xt.set_gpus(handle, static_cast<int>(count), gpus.data());
      }
      if (r == CUFFT_SUCCESS) {
        call = "cufftMakePlan1d";
        r = xt.make_plan_1d(handle, static_cast<int>(key.n[0]), key.type, static_cast<int>(key.batch),
                            state->work_sizes.data());
      }
      if (r != CUFFT_SUCCESS) a.destroy(handle);
      return r;
    };
    check(cuda::retry_with_memory(attempt, failed), call);
  }
  std::size_t total = 0;
  for (std::size_t s : state->work_sizes) total += s;
  XtState& s = *state;
  // From here the plan owns the handle and what is added to its state: a failure below frees both.
  PlanPtr plan = std::make_shared<Plan1d>(key, key.gpus[0], handle, total, std::move(state));
  std::vector<void*> areas(count, nullptr);
  for (std::size_t i = 0; i < count; ++i) {
    cuda::DeviceGuard guard(key.gpus[i]);
    s.work_areas.push_back(s.work_sizes[i] ? cuda::allocate_unpooled(s.work_sizes[i]) : nullptr);
    if (s.work_areas.back()) areas[i] = s.work_areas.back()->ptr();
  }
  XtDevice guard(key.gpus[0]);
  check(xt.set_work_area(handle, areas.data()), "cufftXtSetWorkArea");
  s.data = malloc_buffers(handle, key);
  if (key.batch == 1) s.natural = malloc_buffers(handle, key);
  return plan;
}

void execute_multi_gpu(cufftHandle handle, const Key& key, XtState& state, void* in, void* out, int direction) {
  const XtApi& xt = xt_api();
  const int here = cuda::current_device();
  if (std::find(key.gpus.begin(), key.gpus.end(), here) == key.gpus.end())
    throw ValueError("the multi-GPU cuFFT plan runs on devices other than the current device " + std::to_string(here) +
                     ", which holds the array");
  check_not_capturing(key);
  const cudaStream_t stream = cuda::current_stream()->handle();
  // 1. The input's pieces, in natural order.
  const cudaXtDesc* d = state.data->descriptor;
  std::size_t offset = 0;
  for (int i = 0; i < d->nGPUs; ++i) {
    if (d->GPUs[i] != here) cuda::grant_peer_access(here, d->GPUs[i]);  // Note [Peer copies]
    CUARRAY_CHECK_CUDA(
        cudaMemcpyPeerAsync(d->data[i], d->GPUs[i], static_cast<char*>(in) + offset, here, d->size[i], stream));
    offset += d->size[i];
  }
  // 2 and 3. The transform, between waits for its devices.
  wait_for_devices(key.gpus);
  cudaLibXtDesc* result = state.data;
  {
    XtDevice guard(key.gpus[0]);
    state.data->subFormat = CUFFT_XT_FORMAT_INPLACE;  // an execution leaves it CUFFT_XT_FORMAT_INPLACE_SHUFFLED
    check(xt.exec(handle, state.data, state.data, direction), "cufftXtExecDescriptor");
    if (state.natural) {
      state.natural->subFormat = CUFFT_XT_FORMAT_INPLACE;
      check(xt.memcpy(handle, state.natural, state.data, CUFFT_COPY_DEVICE_TO_DEVICE), "cufftXtMemcpy");
      result = state.natural;
    }
  }
  wait_for_devices(key.gpus);
  // 4. The result's pieces, back in natural order.
  d = result->descriptor;
  offset = 0;
  for (int i = 0; i < d->nGPUs; ++i) {
    CUARRAY_CHECK_CUDA(
        cudaMemcpyPeerAsync(static_cast<char*>(out) + offset, here, d->data[i], d->GPUs[i], d->size[i], stream));
    offset += d->size[i];
  }
  cuda::wait(stream);
}

void destroy_multi_gpu(cufftHandle handle, const Key& key, XtState& state) noexcept {
  try {
    const XtApi& xt = xt_api();
    XtDevice guard(key.gpus[0]);
    if (state.natural) xt.free(state.natural);
    if (state.data) xt.free(state.data);
    state.natural = state.data = nullptr;
    api().destroy(handle);
  } catch (...) {  // a plan outliving the context (interpreter exit) has nothing left to free
  }
}

}  // namespace cuarray::lib::cufft
