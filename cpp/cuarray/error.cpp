#include "cuarray/error.h"

#include "cuarray/cuda/device.h"
#include "cuarray/cuda/graph.h"

namespace cuarray {

namespace {

// "cudaMemcpyAsync(dst, src, n, kind, s)" -> "cudaMemcpyAsync"
std::string call_name(const char* call) {
  std::string s(call);
  auto paren = s.find('(');
  if (paren != std::string::npos) s.resize(paren);
  auto colon = s.rfind("::");
  if (colon != std::string::npos) s = s.substr(colon + 2);
  return s;
}

bool g_forked_after_cuda = false;
thread_local int t_keep_captures = 0;

// The captures that a cudaErrorStreamCaptureImplicit invalidated, ended (Note [Failed captures] in
// cuda/graph.h); "" if none was cuarray's or this thread may not end them now.
std::string end_implicit_captures(const std::string& call) {
  if (t_keep_captures) return {};
  try {
    return cuda::end_implicit_captures(cuda::current_device(), call);
  } catch (...) {
    return {};
  }
}

}  // namespace

void mark_forked_after_cuda() { g_forked_after_cuda = true; }
bool forked_after_cuda() { return g_forked_after_cuda; }

void check_cuda(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so later calls are not blamed for it
  std::string name = call_name(call);
  std::string message = name + " failed: " + cudaGetErrorString(status) + " (" + cudaGetErrorName(status) + ")";
  switch (status) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError:
      message = name + " failed: no CUDA driver or device was found (" + cudaGetErrorName(status) + ": " +
                cudaGetErrorString(status) + ")";
      break;
    // Sticky errors: the context is corrupt and every later CUDA call in this process fails.
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorHardwareStackError:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
      message += ". A kernel failed on the device; the CUDA context is now unusable and the process must be restarted";
      break;
    case cudaErrorStreamCaptureImplicit:
      if (std::string ended = end_implicit_captures(name); !ended.empty()) {
        message +=
            ". CUDA refuses work on the legacy null stream while a blocking stream captures a CUDA graph, "
            "and invalidated the capture of " +
            ended +
            ": that capture was ended and its work discarded "
            "(its end_capture() raises cudaErrorStreamCaptureInvalidated). Capture on a "
            "cuarray.cuda.Stream(non_blocking=True) to keep using the null stream meanwhile";
        break;
      }
      [[fallthrough]];
    case cudaErrorStreamCaptureUnsupported:
    case cudaErrorStreamCaptureInvalidated:
    case cudaErrorStreamCaptureMerge:
    case cudaErrorStreamCaptureUnmatched:
    case cudaErrorStreamCaptureUnjoined:
    case cudaErrorStreamCaptureIsolation:
    case cudaErrorCapturedEvent:
      message +=
          ". The operation cannot be captured into a CUDA graph and invalidated the capture in progress: "
          "end it with Stream.end_capture()";
      break;
    default:
      break;
  }
  // CUDA fails every call there, whatever the error says.
  if (g_forked_after_cuda)
    message = name +
              " failed: this process was forked after its parent started CUDA (with its first GPU call), and CUDA "
              "cannot be used in such a child; fork before the parent's first GPU call, or create worker processes "
              "with multiprocessing's 'spawn' or 'forkserver' start method (" +
              cudaGetErrorName(status) + ")";
  throw CudaError(name, static_cast<int>(status), message);
}

KeepCaptures::KeepCaptures() { ++t_keep_captures; }
KeepCaptures::~KeepCaptures() { --t_keep_captures; }

bool check_ready(cudaError_t status, const char* call) {
  if (status == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  check_cuda(status, call);
  return true;
}

}  // namespace cuarray
