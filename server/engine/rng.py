"""The game's random generator and its shuffle, specified so other languages can repeat it.

The generator is MT19937 as Python's `random.Random(seed)` seeds it for a
non-negative integer seed (init_by_array over the seed's 32-bit words, least
significant first). A shuffle of a list `x` is Fisher-Yates from the end:

    for i from len(x) - 1 down to 1:
        j = below(i + 1)
        swap x[i] and x[j]

where `below(n)` takes k = bit length of n, draws r = the top k bits of the next
32-bit output (`genrand_uint32() >> (32 - k)`), and repeats until r < n.
The starting player is `below(number of players)` drawn before any shuffle.
"""

from __future__ import annotations

import random
import secrets

SEED_BITS = 128


def new_seed() -> int:
    """A seed from a cryptographically secure source."""
    return secrets.randbits(SEED_BITS)


class Rng:
    __slots__ = ("_bits",)

    def __init__(self, seed: int) -> None:
        if seed < 0:
            raise ValueError("seeds are non-negative integers")
        self._bits = random.Random(seed).getrandbits

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling on the top bits."""
        k = n.bit_length()
        getrandbits = self._bits
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def shuffle(self, cards: list[str]) -> None:
        getrandbits = self._bits
        for i in range(len(cards) - 1, 0, -1):
            # j = below(i + 1), inlined: shuffles are on the engine's hot path.
            k = (i + 1).bit_length()
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            cards[i], cards[j] = cards[j], cards[i]
