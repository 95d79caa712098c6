"""cuarray.cuda.graph, CuPy's module of Graph: work recorded by stream capture (Stream.begin_capture /
end_capture), replayed at once. Defined with the streams that make and run it (cuarray/cuda/stream.py)."""

from cuarray.cuda.stream import Graph

__all__ = ["Graph"]
