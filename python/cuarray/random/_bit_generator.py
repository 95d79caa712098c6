"""CuPy's bit generators (BitGenerator, XORWOW, MRG32k3a, Philox4x3210): the state a Generator draws from.

Note [Bit generators]
~~~~~~~~~~~~~~~~~~~~~
Every cuarray sampler draws from Philox4x32-10 streams (cpp/cuarray/kernels/philox.cuh, Note [Random
streams]); a bit generator is a Philox key and an offset (`_core.random.State`), so that one mechanism makes
every sample. XORWOW and MRG32k3a are the names and the API of CuPy's cuRAND-backed bit generators, not their
algorithms: each takes its key from another word of the same numpy.random.SeedSequence as Philox4x3210
(word 0 for Philox4x3210, 1 for XORWOW, 2 for MRG32k3a), so the three give independent streams for one seed.
No stream equals CuPy's; the same seed gives the same numbers on every run and every device of one kind.
A Generator holds its bit generator and draws from the bit generator's state, so generators sharing one
advance one stream, and assigning `generator.bit_generator` switches the stream (CuPy's tests reseed so).
"""

import operator

import numpy

from cuarray import _core
from cuarray._core import ndarray
from cuarray.random._sampler import PhiloxOwner, shape_of

__all__ = ["XORWOW", "BitGenerator", "MRG32k3a", "Philox4x3210"]


def _seed_sequence(seed):
    """numpy.random.SeedSequence of `seed` (None, an integer or a sequence of them, or a SeedSequence);
    floats, complex numbers and booleans are NumPy's TypeError."""
    if isinstance(seed, numpy.random.SeedSequence):
        return seed
    if isinstance(seed, ndarray):
        seed = seed.get()
    return numpy.random.SeedSequence(seed)


class BitGenerator(PhiloxOwner):
    """The base of the bit generators: a Philox state keyed from a numpy.random.SeedSequence (Note [Bit
    generators]). Subclasses name the SeedSequence word their key is."""

    _word = None

    def __init__(self, seed=None):
        if self._word is None:
            raise NotImplementedError("BitGenerator is a base class; use XORWOW, MRG32k3a or Philox4x3210")
        self._seed_seq = _seed_sequence(seed)
        key = int(self._seed_seq.generate_state(self._word + 1, numpy.uint64)[self._word])
        self._state = _core.random.State(key)

    @classmethod
    def _keyed(cls, key):
        """A bit generator on the Philox key `key` itself (a Generator made from an integer seed)."""
        bg = cls.__new__(cls)
        bg._seed_seq = None
        bg._state = _core.random.State(key)
        return bg

    @property
    def seed(self):
        """The Philox key of this bit generator's streams."""
        return self._state.seed

    def random_raw(self, size=None, output=True):
        """Raw 32-bit words of the stream, as CuPy's: int32 of shape `size` (() for None), the Philox words
        reinterpreted; None when `output` is false (the words are still drawn)."""
        shape = shape_of(size)
        words = _core.random.integers(() if shape is None else shape, numpy.uint32, 0, 2**32 - 1, self._state)
        return words.view(numpy.int32) if output else None

    def __repr__(self):
        return f"{type(self).__name__}(seed={self.seed})"


class _CuRand(BitGenerator):
    """CuPy's cuRAND-backed bit generators take `size`, the number of cuRAND states; Philox streams need none,
    so it is checked and unused."""

    def __init__(self, seed=None, *, size=None):
        if size is not None:
            operator.index(size)
        super().__init__(seed)


class Philox4x3210(_CuRand):
    """Philox4x32-10 streams keyed from word 0 of `seed`'s SeedSequence (an integer, a sequence of them, a
    SeedSequence or None). Dask spawns one per block from `_seed_seq` (da.random.default_rng with the "cuarray"
    array backend)."""

    _word = 0


class XORWOW(_CuRand):
    """CuPy's XORWOW bit generator by name and API (CuPy's default_rng uses it): Philox4x32-10 streams keyed
    from word 1 of `seed`'s SeedSequence (Note [Bit generators])."""

    _word = 1


class MRG32k3a(_CuRand):
    """CuPy's MRG32k3a bit generator by name and API: Philox4x32-10 streams keyed from word 2 of `seed`'s
    SeedSequence (Note [Bit generators])."""

    _word = 2
