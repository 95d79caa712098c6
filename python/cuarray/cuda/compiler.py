"""Kernel compilation errors (cuarray.cuda.compiler)."""

from cuarray._errors import CompileException

__all__ = ["CompileException"]
