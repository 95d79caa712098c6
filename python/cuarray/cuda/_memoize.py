"""CuPy's memoize decorator and clear_memo (cupy.memoize, cupy.cuda.memoize)."""

import functools

from cuarray import _core

__all__ = ["clear_memo", "memoize"]

_memos = []  # every memoized function's cache, for clear_memo


def memoize(for_each_device=False):
    """Caches a function's results by its arguments (which must be hashable), and by the current device too when
    `for_each_device`; ``clear_memo()`` empties every such cache."""

    def decorator(f):
        memo = {}
        _memos.append(memo)

        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            key = (args, frozenset(kwargs.items()))
            if for_each_device:
                key = (_core.cuda.current_device(), key)
            try:
                return memo[key]
            except KeyError:
                result = memo[key] = f(*args, **kwargs)
                return result

        return wrapper

    return decorator


def clear_memo():
    """Empties the caches of every function decorated by memoize."""
    for memo in _memos:
        memo.clear()
