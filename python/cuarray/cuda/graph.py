"""cuarray.cuda.Graph: work recorded by stream capture (Stream.begin_capture / end_capture), replayed at once."""

from cuarray.cuda.stream import get_current_stream


class Graph:
    """A captured, instantiated CUDA graph. Made by ``Stream.end_capture()``, not by the user.

    ``launch`` replays every captured operation with one call. The captured work names arrays by address: keep
    the arrays it reads or writes alive while the graph may run. Arrays created during the capture get their
    memory from the graph: use them after a launch, when they hold that launch's results.
    """

    __slots__ = ("_core",)

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

    def __repr__(self):
        return f"<Graph (device {self._core.device})>"


def _stream_handle(stream):
    """A Stream, an object with __cuda_stream__, or None (the current stream)."""
    if stream is None:
        return get_current_stream()._handle()
    from cuarray.cuda import stream as stream_module

    return stream_module._as_stream(stream)._handle()
