"""Pure-Python port of kernels/rng.py (SplitMix64 with Lemire's bounded integers),
shared by the referees of every game: written from the generator's definition, never
importing the kernel, so a change to the kernel's numbers makes the referees disagree."""
M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
GAME_BOULMOUS, GAME_BOOMKE_WIES, GAME_BOURRE = 1, 2, 3   # kernels/rng.py game ids
STREAM_DEAL = 0                                     # kernels/rng.py STREAM_DEAL


def mix64(z: int) -> int:
    z &= M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def derive_key(seed: int, game_id: int, stream: int) -> int:
    return mix64(mix64(seed & M64) ^ ((((game_id << 8) | stream) * GOLDEN) & M64))


class Rng:
    """The per-hand generator: ``Rng(key, index)`` is ``seed_state(st, key, index)``."""

    def __init__(self, key: int, index: int):
        self.state = mix64(int(key) ^ ((index * GOLDEN) & M64))
        self.rejections = 0

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN) & M64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """Uniform in [0, n), 1 <= n < 2**32: Lemire's multiply-shift with rejection."""
        m = (self.next_u64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = (1 << 32) % n   # = (2**32 - n) % n
            while low < threshold:
                self.rejections += 1
                m = (self.next_u64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def uniform(self) -> float:
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def shuffle(self, items: list) -> None:
        """Fisher-Yates from the top down, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
