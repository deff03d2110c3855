"""An independent MT19937, written from the reference C code, to check the documented shuffle."""

from __future__ import annotations

N, M = 624, 397
MASK = 0xFFFFFFFF


class MT19937:
    def __init__(self, seed: int) -> None:
        key = []
        while True:  # the seed's 32-bit words, least significant first
            key.append(seed & MASK)
            seed >>= 32
            if not seed:
                break
        self._init_by_array(key)

    def _init_genrand(self, s: int) -> None:
        self.mt = [0] * N
        self.mt[0] = s & MASK
        for i in range(1, N):
            prev = self.mt[i - 1]
            self.mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & MASK
        self.index = N

    def _init_by_array(self, key: list[int]) -> None:
        self._init_genrand(19650218)
        mt = self.mt
        i, j = 1, 0
        for _ in range(max(N, len(key))):
            prev = mt[i - 1]
            mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & MASK
            i, j = i + 1, j + 1
            if i >= N:
                mt[0], i = mt[N - 1], 1
            if j >= len(key):
                j = 0
        for _ in range(N - 1):
            prev = mt[i - 1]
            mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & MASK
            i += 1
            if i >= N:
                mt[0], i = mt[N - 1], 1
        mt[0] = 0x80000000

    def genrand_uint32(self) -> int:
        if self.index >= N:
            mt = self.mt
            for k in range(N):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7FFFFFFF)
                mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def below(self, n: int) -> int:
        k = n.bit_length()
        r = self.genrand_uint32() >> (32 - k)
        while r >= n:
            r = self.genrand_uint32() >> (32 - k)
        return r

    def shuffle(self, items: list[str]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
