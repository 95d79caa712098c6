// Exceptions thrown by the core. The bindings translate each type to the matching Python exception
// in one place (python/src/errors.cpp); nothing here knows about Python, and nothing here includes the rest
// of the core: CUARRAY_CHECK_CUDA, which drains the launch queue first, is in cuda/check.h.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace cuarray {

// Marks this process as forked after CUDA started in its parent, where CUDA cannot work: check_cuda's
// errors then say so rather than that no driver was found.
void mark_forked_after_cuda();
bool forked_after_cuda();

// A failed CUDA runtime call: `call` names it, `code` is the cudaError_t.
class CudaError : public std::runtime_error {
 public:
  CudaError(std::string call, int code, const std::string& message)
      : std::runtime_error(message), call_(std::move(call)), code_(code) {}
  const std::string& call() const { return call_; }
  int code() const { return code_; }

 private:
  std::string call_;
  int code_;
};

// The device pool could not satisfy an allocation, even after releasing its cached blocks.
class OutOfMemory : public std::runtime_error {
 public:
  OutOfMemory(std::int64_t requested, std::int64_t in_use, const std::string& message)
      : std::runtime_error(message), requested_(requested), in_use_(in_use) {}
  std::int64_t requested() const { return requested_; }
  std::int64_t in_use() const { return in_use_; }

 private:
  std::int64_t requested_, in_use_;
};

// NVRTC rejected a kernel's source. `log` is NVRTC's log; `source` the full program text.
class CompileError : public std::runtime_error {
 public:
  CompileError(const std::string& message, std::string log, std::string source, std::string name)
      : std::runtime_error(message), log_(std::move(log)), source_(std::move(source)), name_(std::move(name)) {}
  const std::string& log() const { return log_; }
  const std::string& source() const { return source_; }
  const std::string& name() const { return name_; }

 private:
  std::string log_, source_, name_;
};

// NumPy's error types, raised with NumPy-like messages.
struct ValueError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
struct TypeError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
// A ufunc's result type cannot be cast to an out= array's dtype under `casting`: NumPy's
// _UFuncOutputCastingError (a TypeError), which the bindings raise with the fields kept here.
struct OutputCastingError : TypeError {
  OutputCastingError(const std::string& what, std::string ufunc, int from, int to, std::string casting, int index)
      : TypeError(what), ufunc(std::move(ufunc)), from(from), to(to), casting(std::move(casting)), index(index) {}
  std::string ufunc;
  int from, to;  // DType values
  std::string casting;
  int index;
};
struct IndexError : std::out_of_range {
  using std::out_of_range::out_of_range;
};
struct AxisError : std::out_of_range {
  using std::out_of_range::out_of_range;
};
// Python's BufferError: memory that cannot be exported or imported as asked (DLPack's error type).
struct BufferError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A factorisation failed on the values given (a singular or indefinite matrix, no convergence); the bindings
// raise numpy.linalg.LinAlgError.
struct LinAlgError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws CudaError naming `call` when `status` is not cudaSuccess. A cudaErrorStreamCaptureImplicit first ends
// the captures it invalidated (Note [Failed captures] in cuda/graph.h).
void check_cuda(cudaError_t status, const char* call);
// While one lives, check_cuda on this thread ends no capture: for callers that hold the launch queue's locks,
// which ending a capture takes.
struct KeepCaptures {
  KeepCaptures();
  ~KeepCaptures();
  KeepCaptures(const KeepCaptures&) = delete;
  KeepCaptures& operator=(const KeepCaptures&) = delete;
};
// For cudaStreamQuery and cudaEventQuery: false while the work is pending, true once done; throws as check_cuda.
bool check_ready(cudaError_t status, const char* call);

}  // namespace cuarray
