// CUDA graphs made by stream capture, as CuPy offers them: Stream.begin_capture / end_capture -> Graph.launch.
//
// Note [Graph capture and the pool]
// While a stream captures, the work queued on it is recorded into a graph instead of running; a Graph then
// replays it with one launch. The pool (memory_pool.h) keeps to the programming guide's rules for graph memory
// nodes:
// - On a capturing stream, allocations skip the host cache and call cudaMallocAsync, which the capture records
//   as an allocation node. Its address is fixed for the graph's life, but the memory exists only from the
//   moment a launch reaches the node: an array made during a capture holds data once the graph has been
//   launched (the latest launch's values), and must not be used before.
// - A Buffer that dies while its capture is in progress is freed with cudaFreeAsync on the capturing stream:
//   a free node, after which the graph may give the memory to later allocations of the same launch.
// - A block allocated before the capture and freed on the capturing stream cannot be freed there (a captured
//   free must name a graph allocation), nor be sure of a place in the size-capped cache: its release waits for
//   the end of the capture (counted as used until then), then goes through the cache as usual.
// - Graphs are instantiated with cudaGraphInstantiateFlagAutoFreeOnLaunch: a relaunch first frees what the
//   previous launch left allocated, so outputs still alive do not keep the graph from running again.
// - A graph allocation that outlives its capture never enters the host cache. When its Buffer dies it is
//   freed with cudaFreeAsync on the stream of the graph's last launch, ordered after it, if a launch made it
//   exist; if the graph never ran, there is nothing to free. Destroying a graph does not free its allocations,
//   so the Graph frees, when it dies, those a launch recreated after their Buffer was gone.
// - A launch on another stream than the previous one first waits for that stream, so that frees ordered
//   there come before the relaunch that recreates the memory.
// Captured work names arrays by address: arrays made before the capture that it reads or writes must stay
// alive as long as the graph may run, as in CUDA and CuPy.
//
// Note [Joined streams]
// A stream that waits (Stream.wait_event) on an event recorded in a capturing stream joins that capture: CUDA
// records its later work into the same graph. cuarray marks it capturing with the same Capture, so that
// everything that refuses or changes behaviour during a capture (check_not_capturing, Stream.done, the pool's
// graph allocations, the transfers' staging slots) treats it as the origin stream; when the origin's capture
// ends or is discarded, CUDA takes the joined streams out of it too, and so does stop(). A graph allocation
// made on a joined stream and dropped during the capture gets no free node: the joined stream may already have
// been joined back into the origin, after which new work on it would leave the capture unjoined, while a free
// on the origin would not be ordered after the joined stream's use. It stays allocated for the graph's life,
// as an allocation that outlives its capture does.
//
// Note [Captured host functions]
// A host function launched on a capturing stream (Stream.launch_host_func) becomes a node of the graph: it
// runs at every launch, so the Capture keeps it rather than the first run freeing it. When the Graph dies it
// is released by one more host function queued on the stream of the last launch, after that launch is done
// (destroying an executable that still runs is allowed, and the function must outlive its last run); a graph
// never launched releases it at once, and a failed capture with the Capture.
//
// Note [Capture mode]
// begin_capture defaults to cudaStreamCaptureModeRelaxed, as CuPy does. The first use of a kernel during a
// capture compiles and loads it (NVRTC, cudaLibraryLoadData) and a transfer may allocate pinned staging:
// calls that the global and thread-local modes refuse while a capture runs ("potentially unsafe API calls").
//
// Note [Failed captures]
// A capture that CUDA or cuarray can no longer complete is ended at once and its work discarded, rather than
// left open: an open capture of a blocking stream makes every later use of the legacy null stream fail
// (cudaErrorStreamCaptureImplicit), and nothing else ends it if the program lost the stream. The stream
// remembers why, and its next end_capture raises CUDARuntimeError with cudaErrorStreamCaptureInvalidated and
// that reason, which is what CuPy's end_capture raises after the same events; is_capturing() meanwhile says
// False (CuPy's raises RuntimeError for an invalidated capture). The events:
// - an operation that waits for the device or uses host memory (check_not_capturing): it raises
//   cudaErrorStreamCaptureUnsupported, as CuPy's synchronize does;
// - Stream.done on the capturing stream: it reads false, as CuPy's does (cudaStreamQuery invalidates it);
// - work on the legacy null stream while a blocking stream of its device captures: CUDA refuses it with
//   cudaErrorStreamCaptureImplicit and invalidates that capture (check_cuda calls end_implicit_captures);
//   Stream.null.is_capturing() raises that error without ending anything, as in CuPy;
// - an exception leaving a `with stream:` block of the capturing stream (Note [Current stream and with] in
//   python/cuarray/cuda/stream.py).
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "cuarray/cuda/stream.h"

namespace cuarray::cuda {

class Event;
class Graph;

// One capture: the graph allocations it made, and where its graph last ran. Shared by the capturing stream
// (while capturing), the Graph and every Buffer it allocated, so whichever dies last frees what is left.
class Capture {
 public:
  explicit Capture(std::shared_ptr<Stream> stream) : stream_(std::move(stream)) {}
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;

  // Records a graph allocation made by cudaMallocAsync on the capturing stream.
  void add(void* ptr);
  // The Buffer that owned `ptr`, allocated on `stream`, died (Note [Graph capture and the pool]).
  void release(void* ptr, const Stream* stream);
  // Marks `stream`, which joined this capture (`self`), as capturing with it (Note [Joined streams]); false if
  // the capture is over. Under the capture's lock, so that a capture ending meanwhile takes the stream out.
  bool join(const std::shared_ptr<Stream>& stream, std::shared_ptr<Capture> self);
  // The joined streams, once the capture is over.
  std::vector<std::shared_ptr<Stream>> take_joined();
  // Keeps a host function recorded by the capture (Note [Captured host functions]).
  void keep_host_func(std::unique_ptr<std::function<void()>> fn);

 private:
  friend class Graph;
  friend std::shared_ptr<Graph> end_capture(const std::shared_ptr<Stream>& stream);
  friend bool discard_capture(const std::shared_ptr<Stream>& stream, std::string reason);
  friend bool invalidate_capture(const Stream& stream, std::string_view reason);
  friend void check_not_capturing(const Stream& stream, std::string_view operation);

  enum class State { Capturing, Launchable, Finished };
  struct Block {
    void* ptr;
    bool owned;  // a Buffer still holds it
    bool live;   // a launch created it and nothing has freed it since
  };
  void free_block(Block& block);  // cudaFreeAsync after the last launch; mutex_ held
  void finish();                  // no launch will come: frees what no Buffer holds
  void release_host_funcs();      // once the last launch is done; mutex_ held

  std::mutex mutex_;
  State state_ = State::Capturing;
  std::vector<Block> blocks_;
  std::vector<std::unique_ptr<std::function<void()>>> host_funcs_;
  std::shared_ptr<Stream> stream_;               // the capturing stream
  std::vector<std::shared_ptr<Stream>> joined_;  // Note [Joined streams]; emptied when the capture stops
  std::shared_ptr<Stream> last_launch_;          // where the graph last ran
};

// An instantiated graph. Destroyed (graph and executable) when the last owner drops it.
class Graph {
 public:
  Graph(cudaGraph_t graph, cudaGraphExec_t exec, int device, std::shared_ptr<Capture> capture)
      : graph_(graph), exec_(exec), device_(device), capture_(std::move(capture)) {}
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  // Runs the captured work on `stream`, which must belong to the graph's device and not be capturing.
  void launch(const std::shared_ptr<Stream>& stream);
  // Prepares the launch on `stream` (maps the graph's memory) without running anything.
  void upload(const std::shared_ptr<Stream>& stream);
  int device() const { return device_; }
  // Writes the graph's definition in Graphviz DOT to the file `path` (cudaGraphDebugDotPrint; `flags` are
  // cudaGraphDebugDotFlags).
  void debug_dot_print(const std::string& path, unsigned flags) const;

 private:
  void check_stream(const Stream& stream, const char* method) const;
  cudaGraph_t graph_;
  cudaGraphExec_t exec_;
  int device_;
  std::shared_ptr<Capture> capture_;
};

// Starts recording the work queued on `stream` (not the legacy null stream) into a graph.
void begin_capture(const std::shared_ptr<Stream>& stream, cudaStreamCaptureMode mode);
// Ends the capture begun on `stream` and instantiates its graph. Throws CudaError if the stream is not
// capturing (cudaErrorStreamCaptureInvalidated if an error ended its capture: Note [Failed captures]), or if an
// operation invalidated the capture (the capture is over either way).
std::shared_ptr<Graph> end_capture(const std::shared_ptr<Stream>& stream);
// Ends the capture on `stream` and drops the work captured so far. A non-empty `reason` (what ended it) is
// kept for the next end_capture (Note [Failed captures]). False if CUDA refused to end it (a global or
// thread-local capture, from another thread).
bool discard_capture(const std::shared_ptr<Stream>& stream, std::string reason = {});
// discard_capture of the capture in progress on `stream`, if any (then true).
bool invalidate_capture(const Stream& stream, std::string_view reason);
// Ends, as discard_capture, the captures of the blocking streams of `device`, which work on its legacy null
// stream invalidated (`operation` names that work); returns the streams' names, "" if there were none.
std::string end_implicit_captures(int device, std::string_view operation);
// Stream.is_capturing: whether `stream` captures. For the legacy null stream while a blocking stream of its
// device captures, throws CudaError (cudaErrorStreamCaptureImplicit) as cudaStreamIsCapturing does.
bool is_capturing(const Stream& stream);

// Throws CudaError (cudaErrorStreamCaptureUnsupported) naming `operation` if `stream` is capturing: the
// operation waits for the device or uses host memory, which a graph cannot record. The capture is discarded
// first, so the stream is usable again.
void check_not_capturing(const Stream& stream, std::string_view operation);
// The same for an operation that waits for every stream of `device`.
void check_device_not_capturing(int device, std::string_view operation);
// Stream.wait_event: later work on `waiter` waits for `event`; where that makes `waiter` join a capture begun
// by begin_capture, it is marked capturing too (Note [Joined streams]).
void wait_event(const std::shared_ptr<Stream>& waiter, const Event& event);
// Whether some stream of `device` is capturing.
bool device_capturing(int device);

}  // namespace cuarray::cuda
