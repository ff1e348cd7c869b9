"""A slow, readable referee for Boulmous, written from RULES.md section 1 (plain Python, no numba).

It replays one docs/trace.md hand dict (``analysis.boulmous.trace(..., with_legal=True)``)
and returns the list of everything it disagrees with:

- the deal, regenerated from the seed with a pure-Python port of kernels/rng.py;
- the auction (rules 4-6, ``auction`` flag);
- every card played: it must be in the player's hand and in the referee's own legal
  set, and that set must equal the kernel's ``legal`` entry (rules 11-13, flags
  ``left_bower_is_trump``, ``must_head``, ``trump_obligation``);
- each trick's winner (rules 8, 9, 14), ``tricks_won``, ``made``, ``score_delta``
  (rules 15-16, ``failed_taker_keeps_tricks``) and ``stakes_delta`` (rule 18 c, d).

Semantics chosen where RULES.md leaves room (fixed by issue 2):
- ``left_bower_is_trump = false``: the same-colour jack still ranks as the second
  highest trump and counts as a trump for the trumping obligations, but it follows
  its printed suit: it must be played to a lead of that suit, cannot follow a trump
  lead, and leading it is a lead of its printed suit.
- ``must_head``: the player must play a card that beats the current best card if any
  card of the set he is obliged to play from can.
- ``must_trump``: void in the suit led (trump contract) and holding a trump -> must
  play a trump.  ``must_trump_and_overtrump``: as must_trump, and must beat the best
  trump already played if able (else any trump); also must beat the trick when trumps
  are led, if able.

Cards are docs/trace.md strings such as ``"JH"``; seats are 0..3 clockwise.
"""
from __future__ import annotations

from functools import lru_cache

# ---------------------------------------------------------------------------
# the 24-card deck, sorted suit-major (S, H, D, C) and, within a suit, 9..A
# ---------------------------------------------------------------------------
RANKS = "9TJQKA"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS]
NT = "NT"
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}

# ---------------------------------------------------------------------------
# pure-Python port of kernels/rng.py (SplitMix64, Lemire's bounded ints)
# ---------------------------------------------------------------------------
from ref_rng import GAME_BOULMOUS, GOLDEN, M64, STREAM_DEAL, Rng, derive_key, mix64  # noqa: F401


def deal(seed: int, hand_index: int) -> list[list[str]]:
    """The four 6-card hands of hand ``hand_index`` of a run with ``seed``: the sorted
    deck is shuffled and seat k gets deck[6k:6k+6]."""
    rng = Rng(derive_key(seed, GAME_BOULMOUS, STREAM_DEAL), hand_index)
    deck = list(DECK)
    rng.shuffle(deck)
    return [deck[6 * k:6 * k + 6] for k in range(4)]


# ---------------------------------------------------------------------------
# card order (rules 8, 9, 14)
# ---------------------------------------------------------------------------
def suit(card: str) -> str:
    return card[1]


@lru_cache(maxsize=None)   # a pure function of a few hundred inputs: answered once each
def is_trump(card: str, trump: str) -> bool:
    """Rule 9: the trump suit plus the jack of the same colour (7 cards)."""
    if trump == NT:
        return False
    return suit(card) == trump or card == "J" + SAME_COLOUR[trump]


@lru_cache(maxsize=None)   # a pure function of a few hundred inputs: answered once each
def follow_suit(card: str, trump: str, left_bower_is_trump: bool) -> str:
    """The suit a card belongs to for following and leading."""
    if trump != NT and left_bower_is_trump and card == "J" + SAME_COLOUR[trump]:
        return trump
    return suit(card)


def trump_order(trump: str) -> list[str]:
    """Rule 9, highest first: J of trumps, J of the same colour, A K Q 10 9."""
    return ["J" + trump, "J" + SAME_COLOUR[trump]] + [r + trump for r in "AKQT9"]


@lru_cache(maxsize=None)   # a pure function of a few hundred inputs: answered once each
def strength(card: str, led: str, trump: str, left_bower_is_trump: bool) -> tuple:
    """A key that orders cards within one trick: trumps above cards of the suit led,
    which are above everything else (which can never win)."""
    if is_trump(card, trump):
        return (2, 7 - trump_order(trump).index(card))
    if follow_suit(card, trump, left_bower_is_trump) == led:
        return (1, RANKS.index(card[0]))
    return (0, 0)


def trick_winner(cards: list[str], trump: str, left_bower_is_trump: bool) -> int:
    """Index (in play order) of the card that wins: the highest trump, else the
    highest card of the suit led (rule 14)."""
    led = follow_suit(cards[0], trump, left_bower_is_trump)
    keys = [strength(c, led, trump, left_bower_is_trump) for c in cards]
    return keys.index(max(keys))


# ---------------------------------------------------------------------------
# legality (rules 11-13 and the variant flags)
# ---------------------------------------------------------------------------
def legal_cards(hand: list[str], trick: list[str], trump: str, rules: dict) -> set[str]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards already played
    to it, leader first)."""
    if not trick:
        return set(hand)
    lbt = rules["left_bower_is_trump"]
    obligation = rules["trump_obligation"]
    led = follow_suit(trick[0], trump, lbt)
    best = trick[trick_winner(trick, trump, lbt)]
    follow = [c for c in hand if follow_suit(c, trump, lbt) == led]
    trumps = [c for c in hand if is_trump(c, trump)]
    if follow:                                   # rule 11: follow suit
        obliged = follow
        must_beat = rules["must_head"] or (obligation == "must_trump_and_overtrump" and led == trump)
    elif trump != NT and obligation != "optional" and trumps:   # rule 13, strict forms
        obliged = trumps
        must_beat = rules["must_head"] or obligation == "must_trump_and_overtrump"
    else:                                        # rule 13: any card
        obliged = list(hand)
        must_beat = rules["must_head"]
    if must_beat:
        best_key = strength(best, led, trump, lbt)
        beaters = [c for c in obliged if strength(c, led, trump, lbt) > best_key]
        if beaters:
            return set(beaters)
    return set(obliged)


# ---------------------------------------------------------------------------
# auction (rules 4-6)
# ---------------------------------------------------------------------------
def check_auction(bids: list[dict], dealer: int, mode: str) -> tuple[int | None, int | None, list[str]]:
    """Replays the bids; returns (taker, contract, problems)."""
    problems = []
    high, taker = 0, None
    if mode == "single_round":
        order = [(dealer + 1 + k) % 4 for k in range(4)]
        if [b["seat"] for b in bids] != order:
            problems.append(f"single-round auction must be seats {order}, got {[b['seat'] for b in bids]}")
        for b in bids:
            if b["bid"] is not None:
                if not (3 <= b["bid"] <= 6 and b["bid"] > high):
                    problems.append(f"illegal bid {b['bid']} by seat {b['seat']} over {high}")
                high, taker = b["bid"], b["seat"]
        return taker, (high if taker is not None else None), problems
    # multi-round: clockwise from the dealer's left; a player who passed may not bid
    # again; the auction ends when three have passed after a bid, or all four pass.
    out = set()
    seat = (dealer + 1) % 4
    i = 0
    while not (len(out) == 4 or (len(out) == 3 and taker is not None)):
        if seat not in out and seat != taker:
            if i >= len(bids):
                problems.append(f"auction stops after {i} calls but has not ended")
                break
            b = bids[i]
            i += 1
            if b["seat"] != seat:
                problems.append(f"call {i} should be by seat {seat}, got seat {b['seat']}")
                return taker, high or None, problems
            if b["bid"] is None:
                out.add(seat)
            else:
                if not (3 <= b["bid"] <= 6 and b["bid"] > high):
                    problems.append(f"illegal bid {b['bid']} by seat {seat} over {high}")
                high, taker = b["bid"], seat
        seat = (seat + 1) % 4
    if i != len(bids):
        problems.append(f"{len(bids) - i} calls after the end of the auction")
    return taker, (high if taker is not None else None), problems


# ---------------------------------------------------------------------------
# scoring (rules 15, 16, 18 c-d)
# ---------------------------------------------------------------------------
def score(taker: int | None, contract: int | None, tricks_won: list[int], keeps_tricks: bool = True):
    """Returns (made, score_delta, stakes_delta) of one deal."""
    if taker is None:
        return None, [0, 0, 0, 0], [0, 0, 0, 0]
    won = tricks_won[taker]
    made = won >= contract
    points = list(tricks_won)
    if not made:
        points[taker] = won - contract if keeps_tricks else -contract
    stakes = [0, 0, 0, 0]
    if contract == 6:   # boulmous: one stake between the taker and each other player
        sign = 1 if made else -1
        stakes = [3 * sign if s == taker else -sign for s in range(4)]
    return made, points, stakes


# ---------------------------------------------------------------------------
# one whole hand
# ---------------------------------------------------------------------------
def check_hand(d: dict, rules: dict | None = None) -> list[str]:
    """Every disagreement between the trace dict ``d`` and the rules (empty if none).
    ``rules`` defaults to ``d["rules"]``; when given, ``d["rules"]`` must match it."""
    where = f"seed {d['seed']} hand {d['hand_index']}"
    problems: list[str] = []

    def bad(msg):
        problems.append(f"{where}: {msg}")

    if rules is None:
        rules = d["rules"]
    elif {k: d["rules"].get(k) for k in rules} != rules:
        bad(f"rules in the trace {d['rules']} differ from {rules}")
    lbt = rules["left_bower_is_trump"]

    # deal (rule 3) ------------------------------------------------------------
    expect = deal(d["seed"], d["hand_index"])
    if [sorted(h) for h in d["deal"]] != [sorted(h) for h in expect]:
        bad(f"deal {d['deal']} != regenerated {expect}")
    if [sorted(h) for h in d["hands"]] != [sorted(h) for h in d["deal"]]:
        bad("hands at the first trick differ from the deal (there is no draw)")
    if d["dealer"] != d["hand_index"] % 4:
        bad(f"dealer {d['dealer']} != hand_index % 4")

    # auction (rules 4-7) ------------------------------------------------------
    taker, contract, aprob = check_auction(d["bids"], d["dealer"], rules["auction"])
    for p in aprob:
        bad(p)
    if (d["taker"], d["contract"]) != (taker, contract):
        bad(f"taker/contract {d['taker']}/{d['contract']} != {taker}/{contract} from the bids")
    if taker is None:
        if d["trump"] is not None or d["tricks"] or any(d["tricks_won"]):
            bad("an all-pass deal is void: no trump, no tricks")
    else:
        if d["trump"] not in ("S", "H", "D", "C", NT):
            bad(f"trump {d['trump']!r}")
    trump = d["trump"]

    # play (rules 10-14) -------------------------------------------------------
    hands = [list(h) for h in d["hands"]]
    won = [0, 0, 0, 0]
    leader = taker
    legal = d.get("legal")
    if taker is not None and len(d["tricks"]) != 6:
        bad(f"{len(d['tricks'])} tricks instead of 6")
    for t, trick in enumerate(d["tricks"]):
        if trick["leader"] != leader:
            bad(f"trick {t}: leader {trick['leader']} should be {leader}")
            return problems
        cards = trick["cards"]
        if len(cards) != 4:
            bad(f"trick {t}: {len(cards)} cards")
            return problems
        for k, c in enumerate(cards):
            s = (leader + k) % 4
            mine = legal_cards(hands[s], cards[:k], trump, rules)
            if legal is not None and set(legal[t][k]) != mine:
                bad(f"trick {t} play {k} (seat {s}, trump {trump}, trick so far {cards[:k]}, hand {sorted(hands[s])}): "
                    f"kernel legal {sorted(legal[t][k])} != referee legal {sorted(mine)}")
            if c not in hands[s]:
                bad(f"trick {t}: seat {s} plays {c}, not in hand {hands[s]}")
                return problems
            if c not in mine:
                bad(f"trick {t}: seat {s} plays {c}, illegal (legal {sorted(mine)})")
            hands[s].remove(c)
        w = (leader + trick_winner(cards, trump, lbt)) % 4
        if trick["winner"] != w:
            bad(f"trick {t} {cards} (trump {trump}): winner {trick['winner']} should be {w}")
        won[w] += 1
        leader = w
    if d["tricks_won"] != won:
        bad(f"tricks_won {d['tricks_won']} should be {won}")

    # score (rules 15, 16, 18) -------------------------------------------------
    made, points, stakes = score(taker, contract, won, rules["failed_taker_keeps_tricks"])
    if d["made"] != made:
        bad(f"made {d['made']} should be {made}")
    if d["score_delta"] != points:
        bad(f"score_delta {d['score_delta']} should be {points}")
    if d["stakes_delta"] != stakes:
        bad(f"stakes_delta {d['stakes_delta']} should be {stakes}")
    return problems


def check_invariants(d: dict) -> list[str]:
    """Generic invariants of any trick-taking hand (no rule knowledge): 24 cards
    conserved, each seat plays one card per trick and only cards it holds, trick
    counts add up."""
    problems = []
    all_cards = [c for h in d["hands"] for c in h]
    if sorted(all_cards) != sorted(DECK):
        problems.append("the four hands are not the 24-card deck")
    if any(len(h) != 6 for h in d["hands"]):
        problems.append("a hand does not have 6 cards")
    hands = [set(h) for h in d["hands"]]
    for t, trick in enumerate(d["tricks"]):
        if len(trick["cards"]) != 4:
            problems.append(f"trick {t} has {len(trick['cards'])} cards")
            continue
        for k, c in enumerate(trick["cards"]):
            s = (trick["leader"] + k) % 4
            if c not in hands[s]:
                problems.append(f"trick {t}: seat {s} plays {c} it does not hold")
            hands[s].discard(c)
        if trick["winner"] not in range(4):
            problems.append(f"trick {t}: winner {trick['winner']}")
    if sum(d["tricks_won"]) != len(d["tricks"]):
        problems.append(f"tricks_won {d['tricks_won']} do not add up to {len(d['tricks'])} tricks")
    if len(d["tricks"]) == 6 and any(hands):
        problems.append("cards left in hand after six tricks")
    return problems
