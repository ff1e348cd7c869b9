"""Counter-based random numbers: every hand is a pure function of its key and index.

``derive_key(seed, game_id, stream)`` (plain Python) turns the user's seed into
a 64-bit key per game and per stream (stream 0 deals the cards, stream 1 drives
random decisions, so a heuristic that consumes randomness never changes the
deal: the basis of common random numbers).  Inside a kernel a hand's generator
state is ``hand_state(key, index)``; ``next_u64`` is SplitMix64 on that state.
No global state, so thread count, chunking and machines cannot change a result.
The state is a 1-element uint64 array owned by the caller.
"""
import numpy as np
from numba import njit

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
_G = np.uint64(GOLDEN)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)

GAME_BOULMOUS, GAME_BOOMKE_WIES, GAME_BOURRE = 1, 2, 3
STREAM_DEAL, STREAM_DECIDE, STREAM_GAME = 0, 1, 2
STREAM_PIMC = 3   # the sampling player's own stream (kernels/boulmous/pimc.py, kernels/bourre/pimc.py)


def mix64_py(z: int) -> int:
    z &= M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def derive_key(seed: int, game_id: int, stream: int) -> np.uint64:
    """64-bit key of (seed, game, stream); the only place a user seed enters."""
    k = mix64_py(mix64_py(seed & M64) ^ (((game_id << 8) | stream) * GOLDEN & M64))
    return np.uint64(k)


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def seed_state(st, key, index):
    """Set generator state ``st[0]`` to the start of hand ``index`` under ``key``."""
    st[0] = mix64(key ^ (np.uint64(index) * _G))


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def next_u64(st):
    st[0] += _G
    return mix64(st[0])


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def below(st, n):
    """Uniform int in [0, n) for 1 <= n < 2**32 (Lemire, with rejection: exact)."""
    un = np.uint64(n)
    m = (next_u64(st) >> np.uint64(32)) * un
    low = m & _LOW32
    if low < un:
        t = (np.uint64(0x100000000) - un) % un
        while low < t:
            m = (next_u64(st) >> np.uint64(32)) * un
            low = m & _LOW32
    return np.int64(m >> np.uint64(32))


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def uniform(st):
    """Float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(st) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True, _nrt=False)
def shuffle(st, arr, n):
    """Fisher-Yates on arr[0:n] in place (from the top down)."""
    for i in range(n - 1, 0, -1):
        j = below(st, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t
