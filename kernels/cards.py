"""Card encoding and uint64 bitmask helpers shared by every game.

A card is the small int ``suit * 16 + rank`` with ``rank`` 0..12 for 2..A and
``suit`` 0..3 for spades, hearts, diamonds, clubs (the letters
``SHDC`` of the traces, docs/trace.md).  A hand is a ``uint64`` with bit ``card`` set for each card held, so
a suit is the 16-bit field ``0xFFFF << (16 * suit)`` and legality tests are mask
operations.  Spades and clubs are black, hearts and diamonds red; the suit of
the same colour as ``s`` is ``3 - s``.
"""
import numpy as np
from numba import njit, types
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

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


@intrinsic
def _ctpop(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return sig, codegen


@njit(cache=True, nogil=True, inline="always")
def popcount(x):
    """Number of set bits of a uint64 (the CPU's popcnt)."""
    return np.int64(_ctpop(np.uint64(x)))


@njit(cache=True, nogil=True, inline="always")
def lowest(x):
    """Index of the lowest set bit of a non-zero uint64."""
    return np.int64(trailing_zeros(np.uint64(x)))


@njit(cache=True, nogil=True, inline="always")
def highest(x):
    """Index of the highest set bit of a non-zero uint64."""
    return 63 - np.int64(leading_zeros(np.uint64(x)))


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def nth_card(x, k):
    """Index of the k-th (0-based, ascending) set bit of a uint64."""
    for _ in range(k):
        x &= x - U1
    return lowest(x)
