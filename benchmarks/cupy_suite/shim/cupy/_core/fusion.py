"""`cupy._core.fusion` for CuPy's own tests: its Fusion class, what `cupy.fuse` returns, is cuarray's fused
function class, and `fuse` is cuarray's (Note [Names, not copies] in _cupy_suite_alias.py)."""

from cuarray._fusion import Fusion, fuse  # noqa: F401
