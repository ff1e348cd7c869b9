"""Card encoding and uint64 bitmask helpers shared by every game.

A card is the small int ``suit * 16 + rank`` with ``rank`` 0..12 for 2..A and
``suit`` 0..3 for spades, hearts, diamonds, clubs (the TRACE.md letters
``SHDC``).  A hand is a ``uint64`` with bit ``card`` set for each card held, so
a suit is the 16-bit field ``0xFFFF << (16 * suit)`` and legality tests are mask
operations.  Spades and clubs are black, hearts and diamonds red; the suit of
the same colour as ``s`` is ``3 - s``.
"""
import numpy as np
from numba import njit

RANKS = "23456789TJQKA"
SUITS = "SHDC"
N_SUITS = 4

R2, R3, R4, R5, R6, R7, R8, R9, RT, RJ, RQ, RK, RA = range(13)
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)

U1 = np.uint64(1)
U0 = np.uint64(0)
SUIT_BITS = np.uint64(0xFFFF)
# Suit masks of the full 52-card deck (13 low bits of each 16-bit field).
SUIT_MASK = np.array([np.uint64(0x1FFF) << np.uint64(16 * s) for s in range(4)], dtype=np.uint64)
DECK52 = np.uint64(int(SUIT_MASK[0]) | int(SUIT_MASK[1]) | int(SUIT_MASK[2]) | int(SUIT_MASK[3]))

_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_TABLE = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DEBRUIJN_TABLE[((int(_DEBRUIJN) << _i) & 0xFFFFFFFFFFFFFFFF) >> 58] = _i


def card(rank: int, suit: int) -> int:
    return suit * 16 + rank


def deck_cards(min_rank: int = 0) -> np.ndarray:
    """Sorted card ids of a deck holding ranks ``min_rank..A`` in every suit."""
    return np.array([s * 16 + r for s in range(4) for r in range(min_rank, 13)], dtype=np.int64)


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def cards_of(mask: int) -> list:
    mask = int(mask)
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_str(c: int) -> str:
    return RANKS[c % 16] + SUITS[c // 16]


@njit(cache=True, nogil=True, inline="always")
def bit(c):
    """uint64 with bit ``c`` set."""
    return U1 << np.uint64(c)


@njit(cache=True, nogil=True, inline="always")
def popcount(x):
    """Number of set bits of a uint64 (SWAR)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True, inline="always")
def lowest(x):
    """Index of the lowest set bit of a non-zero uint64 (de Bruijn)."""
    lsb = x & (~x + U1)
    return _DEBRUIJN_TABLE[(lsb * _DEBRUIJN) >> np.uint64(58)]


@njit(cache=True, nogil=True)
def highest(x):
    """Index of the highest set bit of a non-zero uint64."""
    r = 0
    if x >= (U1 << np.uint64(32)):
        x >>= np.uint64(32)
        r += 32
    if x >= (U1 << np.uint64(16)):
        x >>= np.uint64(16)
        r += 16
    if x >= (U1 << np.uint64(8)):
        x >>= np.uint64(8)
        r += 8
    if x >= (U1 << np.uint64(4)):
        x >>= np.uint64(4)
        r += 4
    if x >= (U1 << np.uint64(2)):
        x >>= np.uint64(2)
        r += 2
    if x >= (U1 << np.uint64(1)):
        r += 1
    return r


@njit(cache=True, nogil=True)
def nth_card(x, k):
    """Index of the k-th (0-based, ascending) set bit of a uint64."""
    for _ in range(k):
        x &= x - U1
    return lowest(x)
