"""cuarray.random's permutation and shuffle on the current device's RandomState (CuPy's
cupy.random._permutations)."""

from cuarray.random._generator import get_random_state


def permutation(x):
    return get_random_state().permutation(x)


def shuffle(x):
    get_random_state().shuffle(x)
