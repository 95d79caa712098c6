"""cuarray.random's permutation and shuffle on the current device's RandomState (CuPy's
cupy.random._permutations)."""

from cuarray.random._generator import get_random_state


def permutation(x):
    """A randomly permuted copy of `x` along its first axis (``arange(x)`` for an int), on the current
    device's RandomState, as its method of the same name (``get_random_state().permutation``)."""
    return get_random_state().permutation(x)


def shuffle(x):
    """Shuffle `x` in place along its first axis, on the current device's RandomState, as its method of the
    same name (``get_random_state().shuffle``)."""
    get_random_state().shuffle(x)
