"""The switch of automatic fusion (Note [Automatic fusion] in cpp/cuarray/ops/auto_fusion.h)."""

import contextlib

from cuarray import _core

__all__ = ["auto_fuse"]


@contextlib.contextmanager
def auto_fuse(enabled=True):
    """Turns automatic fusion of elementwise operations on or off for the calling thread, within a ``with`` block.

    Eager elementwise code (``z = x * 2.0 + y``) is recorded and run as one kernel per chain of operations, with
    the results (bit for bit), dtypes and errors of running each operation on its own. By default arrays of
    2**20 elements and more are always fused, where it always pays, and smaller ones while it pays: while the
    chains recorded are three operations or longer and run as one kernel (after eight chains in a row that did
    not, the next 2048 small operations run one kernel each, and recording is then tried again).
    ``with cuarray.auto_fuse():`` fuses arrays of every size (a long chain of small operations gains; an
    operation with nothing to fuse with costs a little more), and ``with cuarray.auto_fuse(False):`` runs every
    operation at once, one kernel each, as for debugging or profiling kernel by kernel. The environment variable
    ``CUARRAY_AUTO_FUSE`` sets the process's default: ``1`` every size, ``large`` arrays of 2**20 elements and
    more alone, ``0`` off. What is fused is logged at DEBUG level to the ``cuarray.fusion`` logger.
    """
    previous = _core._set_auto_fuse(1 if enabled else 0)
    try:
        yield
    finally:
        _core._set_auto_fuse(previous)
