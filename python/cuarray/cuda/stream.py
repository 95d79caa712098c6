"""Streams, events and the graphs that stream capture records. The current stream is per thread and per
device, as in CuPy."""

import operator
import threading
import warnings

from cuarray import _core
from cuarray.cuda import runtime

_cuda = _core.cuda
_local = threading.local()


class _ThreadStreams:
    """The calling thread's streams (Note [Current stream and with])."""

    __slots__ = ("current", "entered", "order")

    def __init__(self):
        self.current = {}  # device -> the Stream current there
        self.entered = {}  # device -> [(Stream entered, Stream its exit restores)], innermost last
        self.order = []  # the device of each open `with` block, innermost last


def _streams():
    try:
        return _local.streams
    except AttributeError:
        state = _local.streams = _ThreadStreams()
        return state


class Stream:
    """A CUDA stream. ``Stream.null`` is the legacy default stream of whichever device is current;
    ``Stream.ptds`` the calling thread's own stream (Note [Per-thread stream] in cpp/cuarray/cuda/stream.h).

    `priority`: lower numbers are higher priorities; values outside the device's range are clamped to it, as
    CUDA does.
    """

    _ptds = False
    # CuPy's device_id: -1 for the null and per-thread streams, and for another library's stream of unknown device.
    _device_id = -1

    def __init__(self, null=False, non_blocking=False, ptds=False, priority=None):
        if null and ptds:
            raise ValueError("null and ptds cannot both be True")
        if priority is not None:
            priority = operator.index(priority)
        if ptds:
            self._ptds = True
        self._core = None if null or ptds else _cuda.Stream.create(bool(non_blocking), priority or 0)
        if self._core is not None:
            self._device_id = self._core.device

    def _handle(self):
        if self._core is not None:
            return self._core
        if self._ptds:
            return _cuda.Stream.per_thread(_cuda.current_device())
        return _cuda.Stream.null(_cuda.current_device())

    @classmethod
    def from_external(cls, stream):
        """A Stream for `stream`, an object with ``__cuda_stream__`` (CUDA's stream protocol) or a Stream, as
        CuPy's: the same CUDA stream, never destroyed by cuarray, ``device_id`` -1 (the protocol does not say
        which device; work runs on the device the stream was made on), and ``_foreign_stream_ref`` keeping
        `stream` alive."""
        if isinstance(stream, Stream):  # the same stream, without handing its pointer to other code
            new = cls.__new__(cls)
            new._core, new._ptds = stream._core, stream._ptds
        else:
            new = cls._from_protocol(stream)
        new._foreign_stream_ref = stream
        return new

    @classmethod
    def _from_protocol(cls, obj):
        """A `cls` for the stream that `obj` names by CUDA's stream protocol, with CuPy's TypeErrors."""
        method = getattr(type(obj), "__cuda_stream__", None)
        if method is None:
            raise TypeError(
                f"{type(obj).__name__} object does not implement __cuda_stream__ (CUDA's stream "
                "protocol); expected a cuarray Stream or such an object"
            )
        desc = method(obj)
        if not (isinstance(desc, tuple) and len(desc) == 2):
            raise TypeError(f"__cuda_stream__ must return a 2-tuple (version, stream handle), got {desc!r}")
        version, handle = desc
        if not (isinstance(version, int) and isinstance(handle, int)):
            raise TypeError(f"__cuda_stream__ must return (int, int), got {desc!r}")
        if version != 0:
            raise TypeError(
                f"__cuda_stream__ gave an unsupported version {version} (cuarray reads version 0)"
            )
        stream = cls.__new__(cls)
        stream._wrap(handle, -1)
        return stream

    def _wrap(self, ptr, device_id):
        """Makes this object name another library's stream `ptr` (0 and 1: the legacy null stream, 2: the
        per-thread one), made on device `device_id` (-1: unknown; work runs on the current device's)."""
        ptr = operator.index(ptr)
        self._device_id = operator.index(device_id)
        if ptr in (0, 1):  # the legacy null stream, as the protocols spell it
            self._core = None
        elif ptr == 2:  # cudaStreamPerThread
            self._core, self._ptds = None, True
        else:
            device = self._device_id if self._device_id >= 0 else _cuda.current_device()
            self._core = _cuda.Stream.external(ptr, device)

    @property
    def ptr(self):
        """The cudaStream_t, for other libraries: the kernels cuarray has queued are issued to it first."""
        _cuda.share_with_other_code()
        return 0 if self._core is None and not self._ptds else self._handle().ptr

    def __cuda_stream__(self):
        """CUDA's stream protocol: (version 0, the cudaStream_t)."""
        return (0, self.ptr)

    @property
    def priority(self):
        """The stream's priority (lower numbers run first; 0 is the default)."""
        return self._handle().priority

    @property
    def is_non_blocking(self):
        """True for a stream that does not wait for (nor block) the legacy null stream."""
        return self._handle().non_blocking

    def launch_host_func(self, callback, arg):
        """Calls ``callback(arg)`` once the work queued so far is done, on cuarray's host-callback thread, while
        the stream's later work waits for it (Note [Host callbacks] in cpp/cuarray/cuda/stream.h): it must not
        call CUDA, nor anything of cuarray's that does. An exception it raises is reported by
        ``sys.unraisablehook``. On a capturing stream it is recorded instead: it runs at every launch of the
        graph, which keeps `callback` and `arg` alive until it is destroyed and its last launch is done."""
        if not callable(callback):
            raise TypeError(f"callback must be callable, got {type(callback).__name__}")
        _start_host_call_thread()
        self._handle().launch_host_func(callback, arg)

    def add_callback(self, callback, arg):
        """Calls ``callback(stream, error, arg)`` (error: the cudaError_t of the stream's work, 0 when it
        succeeded) once the work queued so far is done; as launch_host_func otherwise."""
        if not callable(callback):
            raise TypeError(f"callback must be callable, got {type(callback).__name__}")
        _start_host_call_thread()
        self._handle().add_callback(callback, arg, self)

    @property
    def device_id(self):
        """The number of the device the stream was made on; -1, as in CuPy, for ``Stream.null`` and
        ``Stream.ptds`` (each the current device's) and for another library's stream of unknown device
        (from_external, ExternalStream without `device_id`), which `with` and use() take as the current one."""
        return self._device_id

    def use(self):
        """Makes this stream current for the calling thread on its device, which must be the current device.

        Outside any ``with`` block it also becomes the stream that leaving the next outermost ``with`` block
        restores; inside one, leaving that block forgets it, as in CuPy.
        """
        handle = self._check_device()
        _cuda.set_current_stream(handle)
        _streams().current[handle.device] = self
        return self

    def _check_device(self):
        """The stream's handle; RuntimeError, as CuPy's, for a stream made on another device than the current one
        (device_id -1 is the current one)."""
        handle = self._handle()
        device = self._device_id
        if device >= 0 and device != _cuda.current_device():
            raise RuntimeError(
                f"The device that the stream is created on ({device}) does not match with the current "
                f"device ({_cuda.current_device()})"
            )
        return handle

    # Note [Current stream and with]
    # Each thread keeps its own record of the `with` blocks it is in, so one Stream object entered by several
    # threads, or several times by one, gives each exit the stream its own thread had. CuPy's rule: leaving a
    # block restores the stream of the enclosing `with` block on the same device or, outside any, the stream
    # that was current when the outermost block was entered (what use() set there); a use() inside a block
    # lasts until that block ends. Leaving a block by an exception while its stream captures a CUDA graph ends
    # the capture and discards the graph (end_capture then raises cudaErrorStreamCaptureInvalidated), so an
    # error in the middle of a capture leaves no capture open behind it.
    def __enter__(self):
        handle = self._check_device()
        device = handle.device
        state = _streams()
        stack = state.entered.get(device)
        if stack is None:
            stack = state.entered[device] = []
        stack.append((self, stack[-1][0] if stack else state.current.get(device, Stream.null)))
        state.order.append(device)
        _cuda.set_current_stream(handle)
        state.current[device] = self
        return self

    def __exit__(self, exc_type, exc, tb):
        state = _streams()
        device = state.order.pop()
        stream, restore = state.entered[device].pop()
        if restore._core is not None:
            _cuda.set_current_stream(restore._core)
        else:
            _cuda.set_current_stream(
                _cuda.Stream.per_thread(device) if restore._ptds else _cuda.Stream.null(device)
            )
        state.current[device] = restore
        if exc_type is not None and stream._core is not None and stream._core.capturing:
            stream._core.discard_capture(f"a {exc_type.__name__} leaving its `with stream:` block")

    def synchronize(self):
        """Waits until the work queued on the stream has finished (without the GIL; Ctrl-C interrupts it)."""
        self._handle().synchronize()

    @property
    def done(self):
        """True when the work queued on this stream has finished. Queried during a capture it reads False and
        invalidates the capture, as in CuPy: the capture ends there, and end_capture raises."""
        return self._handle().done

    def record(self, event=None):
        """Records an event on this stream (a new one if not given) and returns it."""
        if event is None:
            event = Event()
        event.record(self)
        return event

    def wait_event(self, event):
        """Makes later work on this stream wait for `event`."""
        _cuda.stream_wait_event(self._handle(), event._core)

    def begin_capture(self, mode=None):
        """Starts recording the work queued on this stream into a CUDA graph, returned by end_capture.

        While capturing, nothing runs: arrays created meanwhile get their memory from the graph, usable once it
        has been launched (never, if the capture fails). Operations that wait for the device or use host memory
        (``get``, ``float(x)``, ``nonzero``, bounds checks of device indices, ``synchronize``) raise
        CUDARuntimeError and end the capture. `mode` is a ``runtime.streamCaptureMode*`` value; the default is
        ``streamCaptureModeRelaxed``, as in CuPy (Note [Capture mode] in cpp/cuarray/cuda/graph.h). The legacy
        null stream cannot be captured.
        """
        if mode is None:
            mode = runtime.streamCaptureModeRelaxed
        if mode not in (0, 1, 2):
            raise ValueError(
                f"mode must be a cuda.runtime.streamCaptureMode* value (0, 1 or 2), got {mode!r}"
            )
        self._handle().begin_capture(int(mode))

    def end_capture(self):
        """Ends the capture begun on this stream and returns the captured work as a Graph.

        Raises CUDARuntimeError: cudaErrorStreamCaptureInvalidated if an error ended the capture before (an
        operation that cannot be captured, ``done`` queried, an exception leaving ``with stream:``; the capture
        was ended then and its work discarded), cudaErrorIllegalState if no capture was begun.
        """
        return Graph._from_core(self._handle().end_capture())

    def is_capturing(self):
        """True between begin_capture and end_capture, False once an error has ended the capture.

        ``Stream.null.is_capturing()`` raises CUDARuntimeError (cudaErrorStreamCaptureImplicit) while a blocking
        stream of the device captures, as CuPy's does.
        """
        return self._handle().is_capturing()

    # CuPy's: the same cudaStream_t. Read from the core objects: comparing streams shares no handle with other
    # code (Stream.ptr would, Note [Launch queue]).
    def __eq__(self, other):
        return isinstance(other, Stream) and self._key() == other._key()

    def __hash__(self):
        return hash(("cuarray.Stream", self._key()))

    def _key(self):
        return 0 if self._core is None and not self._ptds else self._handle().ptr

    def __repr__(self):
        if self._ptds and self._core is None:  # naming the calling thread's stream would create it
            return f"<Stream ptds (device {self.device_id})>"
        return f"<Stream {self.ptr:#x} (device {self.device_id})>"


_host_call_lock = threading.Lock()
_host_call_thread = None


def _start_host_call_thread():
    """Starts the thread that runs host callbacks for the driver (Note [Host callbacks]), once per process."""
    global _host_call_thread
    if _host_call_thread is not None and _host_call_thread.is_alive():
        return
    with _host_call_lock:
        if _host_call_thread is None or not _host_call_thread.is_alive():
            _host_call_thread = threading.Thread(
                target=_run_host_calls, name="cuarray host callbacks", daemon=True
            )
            _host_call_thread.start()


def _run_host_calls():
    while (call := _cuda._next_host_call()) is not None:
        function, args, token = call
        del call  # nothing of a call outlives it here: a graph's release of its function frees the objects
        try:
            function(*args)
        except BaseException as e:  # noqa: BLE001  (no caller to raise it to: reported as __del__'s are)
            _cuda._report_unraisable(e)
        finally:
            del function, args
            _cuda._host_call_done(token)


Stream.null = Stream(null=True)
Stream.ptds = Stream(ptds=True)


class ExternalStream(Stream):
    """A stream another library made: `ptr` is its cudaStream_t, on device `device_id` (-1: unknown, work runs on
    the current device's). cuarray never destroys it; its owner keeps it alive while cuarray uses it."""

    def __init__(self, ptr, device_id=-1):
        # CuPy 14 deprecates the class for Stream.from_external (which makes Stream objects).
        warnings.warn(
            "ExternalStream is deprecated. Use Stream.from_external() instead to interoperate with external "
            "streams that implement the CUDA stream protocol.",
            DeprecationWarning,
            stacklevel=2,
        )
        self._wrap(ptr, device_id)


def _as_stream(stream):
    """The Stream that `stream` names where one is accepted: None (the current stream), a Stream, or an object
    with __cuda_stream__."""
    if stream is None:
        return get_current_stream()
    if isinstance(stream, Stream):
        return stream
    return Stream._from_protocol(stream)


def get_default_stream_ptr():
    """The integer that stands for the default stream where a protocol names streams by number: 1, CUDA's
    legacy default stream, which is ``Stream.null``. ``__cuda_array_interface__`` exports it for work on the null
    stream (a stream's handle is 0 there, which the protocol forbids as ambiguous)."""
    return 1


def get_current_stream(device_id=None):
    """The calling thread's current stream on `device_id` (default: the current device)."""
    if device_id is None:
        device_id = _cuda.current_device()
    return _streams().current.get(device_id, Stream.null)


class Event:
    """A CUDA event, for ordering work between streams and timing it on the device."""

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        if interprocess and not disable_timing:
            raise ValueError("Timing must be disabled for interprocess events")
        self._core = _cuda.Event(bool(block), not disable_timing, bool(interprocess))

    @property
    def ptr(self):
        """The cudaEvent_t handle, as an integer."""
        return self._core.ptr

    def record(self, stream=None):
        """Records the event on `stream` (None: the current stream), after the work queued there so far."""
        self._core.record(_as_stream(stream)._handle())

    def synchronize(self):
        """Waits until the event has completed (without the GIL; Ctrl-C interrupts it)."""
        self._core.synchronize()

    @property
    def done(self):
        """Whether the work before the event's last record has completed (does not wait)."""
        return self._core.done

    def __repr__(self):
        return f"<Event {self.ptr:#x}>"


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events."""
    if not (isinstance(start_event, Event) and isinstance(end_event, Event)):
        raise TypeError("get_elapsed_time takes two cuarray.cuda.Event objects")
    return _cuda.elapsed_ms(start_event._core, end_event._core)


class Graph:
    """A captured, instantiated CUDA graph. Made by ``Stream.end_capture()``, not by the user.

    ``launch`` replays every captured operation with one call. The captured work names arrays by address: keep
    the arrays it reads or writes alive while the graph may run. Arrays created during the capture get their
    memory from the graph: use them after a launch, when they hold that launch's results.
    """

    __slots__ = ("_core",)
    __module__ = (
        "cuarray.cuda.graph"  # CuPy's cupy.cuda.graph.Graph; defined here with the streams that make it
    )

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            "a Graph cannot be made directly: capture one with Stream.begin_capture() and "
            "Stream.end_capture()"
        )

    @classmethod
    def _from_core(cls, core):
        graph = cls.__new__(cls)
        graph._core = core
        return graph

    def launch(self, stream=None):
        """Runs the graph on `stream` (default: the current stream), which must be on the graph's device."""
        self._core.launch(_stream_handle(stream))

    def upload(self, stream=None):
        """Prepares the graph to run on `stream` (default: the current stream) without running it."""
        self._core.upload(_stream_handle(stream))

    def debug_dot_str(self, flags=0):
        """The graph's definition in Graphviz DOT, for debugging (cudaGraphDebugDotPrint); `flags` are
        ``runtime.cudaGraphDebugDotFlags*`` values (``cudaGraphDebugDotFlagsVerbose``: every node's parameters)."""
        import os
        import tempfile

        fd, path = tempfile.mkstemp(suffix=".dot")
        os.close(fd)
        try:
            self._core.debug_dot_print(path, operator.index(flags))
            with open(path) as f:
                return f.read()
        finally:
            os.remove(path)

    def __repr__(self):
        return f"<Graph (device {self._core.device})>"


def _stream_handle(stream):
    """A Stream, an object with __cuda_stream__, or None (the current stream)."""
    return _as_stream(stream)._handle()
