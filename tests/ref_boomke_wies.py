"""A slow, readable referee for Boomke Wies, written from RULES.md section 2 (plain Python, no numba).

``check_hand(d)`` replays one docs/trace.md hand dict (``analysis.boomke_wies.trace(...,
with_legal=True)``) and returns the list of everything it disagrees with:

- the deal, regenerated from the seed with a pure-Python port of kernels/rng.py: a
  uniform shuffle of the sorted deck, dealt clockwise from the dealer's left in packets
  (4-4-5 or 5-4-4; 4-4-4-1 in the no-auction variant, whose last card, the dealer's
  13th, is turned up for trumps); the dealer is ``hand_index % 4``;
- without a shuffle (``shuffle = none_collect_tricks``): the pile is the previous deal's
  tricks gathered in play order (its hands are regenerated: they come from the deal
  stream's uniform shuffle, dealt by the previous dealer), the cut is the deal stream's
  next draw (1..51, the top k cards go under), then the packets;
- the auction (rules 4-6): clockwise from the dealer's left, a passer is out for good,
  every bid above the last, three passes end it, the dealer's forced call after three
  opening passes (7, Boom or Meetje; 7..13 or Meetje with ``dealer_may_bid_8_to_12``);
- the play (rules 7-10): the declarer leads (the eldest hand for a Meetje under
  ``dealer_names_then_eldest_leads`` and in the no-auction variant); trumps are the suit
  of the first card led in the bidding game; every card is in its player's hand and
  follows suit if it can, and the kernel's legal set (``legal``) equals the referee's;
  each trick's winner; a Boom stops at the declaring team's first lost trick;
- ``tricks_won``, ``team_tricks``, ``made`` and ``score_delta`` by the scoring table
  (rule 11, flags ``meetje_shortfall_penalty`` and ``defence_scoring``; no-auction:
  one point per trick).

``check_match(recs, ...)`` checks a whole match of ``kernels.boomke_wies.trace_match``.
Cards are docs/trace.md strings such as ``"TH"``; seats are 0..3 clockwise, partners opposite.
"""
from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS]          # sorted: suit-major, 2..A

# ---------------------------------------------------------------------------
# pure-Python port of kernels/rng.py (SplitMix64, Lemire's bounded ints)
# ---------------------------------------------------------------------------
from ref_rng import GAME_BOOMKE_WIES, GOLDEN, M64, STREAM_DEAL, Rng, derive_key, mix64  # noqa: F401


def packets(rules: dict) -> list[int]:
    if rules["variant"] == "no_auction":
        return [4, 4, 4, 1]
    return [4, 4, 5] if rules["deal_packets"] == "4_4_5" else [5, 4, 4]


def deal_cards(order: list, dealer: int, sizes: list[int]) -> list[list]:
    """Deal ``order`` from the top, clockwise from the dealer's left, packet by packet."""
    hands = [[] for _ in range(4)]
    i = 0
    for size in sizes:
        for k in range(4):
            seat = (dealer + 1 + k) % 4
            hands[seat].extend(order[i:i + size])
            i += size
    return hands


def shuffled_deck(rng: Rng) -> list:
    deck = list(DECK)
    rng.shuffle(deck)
    return deck


def collected_pile(tricks: list[dict], hands_before: list[list]) -> list:
    """The tricks in play order, then any cards left in hand (seat 0..3, each ascending)."""
    pile = [c for t in tricks for c in t["cards"]]
    played = set(pile)
    for s in range(4):
        pile += sorted((c for c in hands_before[s] if c not in played), key=DECK.index)
    return pile


def cut(pile: list, k: int) -> list:
    return pile[k:] + pile[:k]


# ---------------------------------------------------------------------------
# rules
# ---------------------------------------------------------------------------
def suit(c: str) -> str:
    return c[1]


def rank(c: str) -> int:
    return RANKS.index(c[0])


def legal_cards(hand: list, led: str | None) -> set:
    """Rule 9: follow suit if able, otherwise any card."""
    if led is None:
        return set(hand)
    follow = {c for c in hand if suit(c) == led}
    return follow or set(hand)


def trick_winner(cards: list, leader: int, trump: str) -> int:
    """Rule 9: the highest trump, otherwise the highest card of the suit led (a card
    beats the best so far if it is higher in the same suit, or a trump over a non-trump)."""
    best = 0
    for i in range(1, 4):
        c, b = cards[i], cards[best]
        if suit(c) == suit(b):
            if rank(c) > rank(b):
                best = i
        elif suit(c) == trump:
            best = i
    return (leader + best) % 4


def score_table(contract, T: int, O: int, rules: dict):
    """Rule 11 with the 2.2 flags: (declaring team's points, opponents' points, made)."""
    if contract == "meetje":
        if T >= 7:
            return 1, 0, True
        return (-(7 - T) if rules["meetje_shortfall_penalty"] else 0), 1, False
    if contract == 13:
        return (5, 0, True) if T == 13 else (-5, 5, False)
    if T >= contract:
        return (1 if T <= 9 else 2 if T <= 12 else 3), 0, True
    if contract <= 9:
        if rules["defence_scoring"] == "upto9_1_else_2":
            return -1, (1 if O <= 9 else 2), False
        return -1, (1 if O == 9 else 2 if O >= 10 else 0), False
    return -2, 2, False


def check_auction(bids: list[dict], dealer: int, rules: dict):
    """Rules 4-6; returns (errors, declarer, contract)."""
    errs = []
    out = set()
    high = None
    holder = None
    npass = 0
    seat = (dealer + 1) % 4
    i = 0
    while True:
        while seat in out:
            seat = (seat + 1) % 4
        if i >= len(bids):
            errs.append(f"auction ends early after {i} calls")
            return errs, holder, high
        b = bids[i]
        i += 1
        if b["seat"] != seat:
            errs.append(f"call {i}: seat {b['seat']} spoke, expected {seat}")
            return errs, holder, high
        forced = npass == 3 and holder is None
        call = b["bid"]
        if forced:
            allowed = [7, 13, "meetje"] + (list(range(8, 13)) if rules["dealer_may_bid_8_to_12"] else [])
            if seat != dealer:
                errs.append(f"forced call by seat {seat}, not the dealer {dealer}")
            if call not in allowed:
                errs.append(f"the dealer's forced call {call!r} is not one of {allowed}")
            holder, high = seat, call
            break
        if call is None:
            out.add(seat)
            npass += 1
            if npass == 3 and holder is not None:
                break
        else:
            if call == "meetje" or not isinstance(call, int) or not 7 <= call <= 13:
                errs.append(f"call {i}: {call!r} is not a bid 7..13")
            elif high is not None and call <= high:
                errs.append(f"call {i}: bid {call} does not beat {high}")
            high, holder = call, seat
        seat = (seat + 1) % 4
    if i != len(bids):
        errs.append(f"{len(bids) - i} calls after the auction ended")
    return errs, holder, high


def check_play(d: dict, hands: list[list], leader: int, trump: str | None, declarer, contract, legal=None):
    """Rules 7-10 from the hands; returns (errors, trump, tricks won per seat)."""
    errs = []
    h = [list(x) for x in hands]
    won = [0, 0, 0, 0]
    tricks = d["tricks"]
    for ti, t in enumerate(tricks):
        if t["leader"] != leader:
            errs.append(f"trick {ti + 1}: led by {t['leader']}, expected {leader}")
            return errs, trump, won
        led = None
        for k, c in enumerate(t["cards"]):
            s = (leader + k) % 4
            lg = legal_cards(h[s], led)
            if legal is not None and set(legal[ti][k]) != lg:
                errs.append(f"trick {ti + 1} seat {s}: kernel legal set {sorted(legal[ti][k])} != {sorted(lg)}")
            if c not in lg:
                errs.append(f"trick {ti + 1} seat {s}: {c} is not legal (hand {h[s]})")
                return errs, trump, won
            h[s].remove(c)
            if k == 0:
                led = suit(c)
                if trump is None:
                    trump = led          # rule 7: the first card led makes trumps
        w = trick_winner(t["cards"], leader, trump)
        if t["winner"] != w:
            errs.append(f"trick {ti + 1}: winner {t['winner']}, expected {w}")
        won[w] += 1
        leader = w
        if contract == 13 and w % 2 != declarer % 2:
            if ti != len(tricks) - 1:
                errs.append(f"a Boom goes on after the declarers lost trick {ti + 1}")
            return errs, trump, won
    if len(tricks) != 13:
        errs.append(f"{len(tricks)} tricks played, expected 13")
    return errs, trump, won


def check_deal(d: dict, dealt: list[list], rules: dict, declarer, contract, leader, trump):
    """The auction-independent part of a hand: play and scoring."""
    errs = []
    hands = d["hands"]
    for s in range(4):
        if sorted(hands[s], key=DECK.index) != sorted(dealt[s], key=DECK.index):
            errs.append(f"seat {s} holds {hands[s]}, the deal gives {sorted(dealt[s], key=DECK.index)}")
    if errs:
        return errs
    if d.get("first_leader", leader) != leader:
        errs.append(f"first leader {d.get('first_leader')}, expected {leader}")
    e, trump, won = check_play(d, dealt, leader, trump, declarer, contract, d.get("legal"))
    errs += e
    if e:
        return errs
    if d["trump"] != trump:
        errs.append(f"trump {d['trump']}, expected {trump}")
    if d["tricks_won"] != won:
        errs.append(f"tricks_won {d['tricks_won']}, expected {won}")
    team = [won[0] + won[2], won[1] + won[3]]
    if d["team_tricks"] != team:
        errs.append(f"team_tricks {d['team_tricks']}, expected {team}")
    if contract is None:                       # no-auction variant: one point per trick
        score = [team[s % 2] for s in range(4)]
        made = None
    else:
        dt = declarer % 2
        a, b, made = score_table(contract, team[dt], team[1 - dt], rules)
        score = [a if s % 2 == dt else b for s in range(4)]
    if d["made"] != made:
        errs.append(f"made {d['made']}, expected {made}")
    if d["score_delta"] != score:
        errs.append(f"score_delta {d['score_delta']}, expected {score}")
    return errs


def check_calls(d: dict, rules: dict):
    """Auction and the resulting (declarer, contract, first leader, trumps or None)."""
    dealer = d["dealer"]
    if rules["variant"] == "no_auction":
        errs = []
        if d["bids"] or d["bidder"] is not None or d["contract"] is not None:
            errs.append("the no-auction variant has no calls")
        return errs, None, None, (dealer + 1) % 4, None
    errs, decl, contract = check_auction(d["bids"], dealer, rules)
    if d["bidder"] != decl:
        errs.append(f"bidder {d['bidder']}, expected {decl}")
    if d["contract"] != contract:
        errs.append(f"contract {d['contract']!r}, expected {contract!r}")
    if contract == "meetje" and rules["meetje_trump"] == "dealer_names_then_eldest_leads":
        if d["trump"] not in SUITS:
            errs.append(f"named trump {d['trump']!r} is not a suit")
        return errs, decl, contract, (dealer + 1) % 4, d["trump"]
    return errs, decl, contract, decl, None


def regenerate_deal(d: dict, rules: dict):
    """(errors, the four hands as dealt) from the seed and hand index."""
    errs = []
    dealer = d["hand_index"] % 4
    if d["dealer"] != dealer:
        errs.append(f"dealer {d['dealer']}, expected {dealer}")
    rng = Rng(derive_key(d["seed"], GAME_BOOMKE_WIES, STREAM_DEAL), d["hand_index"])
    deck = shuffled_deck(rng)
    sizes = packets(rules)
    if rules["shuffle"] == "full":
        return errs, deal_cards(deck, dealer, sizes), deck
    # no shuffle: a warm-up deal by the previous dealer, its tricks gathered, cut, dealt
    warm = deal_cards(deck, (dealer + 3) % 4, sizes)
    pile = d["pile"]
    if sorted(pile, key=DECK.index) != DECK:
        errs.append("the pile is not the 52 cards")
        return errs, None, None
    owner = {c: s for s in range(4) for c in warm[s]}
    full = 4 * (52 // 4)
    i = 0
    while i + 4 <= len(pile):
        group = pile[i:i + 4]
        if sorted(owner[c] for c in group) != [0, 1, 2, 3]:
            break                      # the rest were left in hand after a Boom stopped
        i += 4
    for s in range(4):
        rest = [c for c in pile[i:] if owner[c] == s]
        if rest != sorted(rest, key=DECK.index):
            errs.append("cards left in hand are not gathered in order")
    if i < full:
        left = pile[i:]
        want = [c for s in range(4) for c in sorted((c for c in left if owner[c] == s), key=DECK.index)]
        if left != want:
            errs.append("the pile does not end with the cards left in hand, seat by seat")
    k = rng.below(51) + 1
    if d["cut"] != k:
        errs.append(f"cut {d['cut']}, expected {k}")
    order = cut(pile, k)
    return errs, deal_cards(order, dealer, sizes), order


def check_hand(d: dict) -> list[str]:
    """Everything the referee disagrees with in one trace dict (empty = all good)."""
    rules = d["rules"]
    errs, dealt, order = regenerate_deal(d, rules)
    if dealt is None:
        return errs
    if d["deal"] != d["hands"]:
        errs.append("deal and hands differ (Boomke Wies has no draw)")
    if rules["variant"] == "no_auction":
        if d.get("turn_up") != order[51] or order[51] not in dealt[d["dealer"]]:
            errs.append(f"turn-up {d.get('turn_up')}, expected the dealer's last card {order[51]}")
    e, decl, contract, leader, trump = check_calls(d, rules)
    errs += e
    if e:
        return errs
    if rules["variant"] == "no_auction":
        trump = suit(order[51])
    errs += check_deal(d, dealt, rules, decl, contract, leader, trump)
    return errs


# ---------------------------------------------------------------------------
# matches (rule 12)
# ---------------------------------------------------------------------------
def check_match(deals: list[dict], seed: int, m: int, rules: dict, extra: int, pts) -> list[str]:
    """A whole match: deal j is dealt by seat j % 4 from the deal stream of match m (a
    uniform shuffle each deal, or without a shuffle the previous deal's tricks gathered
    and cut); it ends after ``match_deals`` deals, or with ``target_score`` at the end of
    the first deal after which a team has reached it; a tie then gets one extra deal
    (``tiebreak_extra_deal``). ``deals``: TRACE-style dicts of its deals."""
    errs = []
    rng = Rng(derive_key(seed, GAME_BOOMKE_WIES, STREAM_DEAL), m)
    sizes = packets(rules)
    target = rules["target_score"]
    tot = [0, 0]
    prev = None
    want_extra = 0
    ended_at = None
    for j, d in enumerate(deals):
        if ended_at is not None:
            errs.append(f"deal {j} is played after the match ended at deal {ended_at}")
            break
        dealer = j % 4
        if d["dealer"] != dealer:
            errs.append(f"deal {j}: dealer {d['dealer']}, expected {dealer}")
        if rules["shuffle"] == "none_collect_tricks" and prev is not None:
            order = cut(collected_pile(prev["tricks"], prev["hands"]), rng.below(51) + 1)
        else:
            order = shuffled_deck(rng)
        dealt = deal_cards(order, dealer, sizes)
        if rules["variant"] == "no_auction" and d.get("turn_up") != order[51]:
            errs.append(f"deal {j}: turn-up {d.get('turn_up')}, expected {order[51]}")
        e, decl, contract, leader, trump = check_calls(d, rules)
        if not e:
            if rules["variant"] == "no_auction":
                trump = suit(order[51])
            e += check_deal(d, dealt, rules, decl, contract, leader, trump)
        errs += [f"deal {j}: {x}" for x in e]
        tot[0] += d["score_delta"][0]
        tot[1] += d["score_delta"][1]
        prev = d
        done = (tot[0] >= target or tot[1] >= target) if target else j + 1 >= rules["match_deals"]
        if done:
            if tot[0] == tot[1] and rules["tiebreak_extra_deal"] and want_extra == 0:
                want_extra = 1
            else:
                ended_at = j
    if ended_at != len(deals) - 1:
        errs.append(f"the match should have ended at deal {ended_at}, it has {len(deals)} deals")
    if extra != want_extra:
        errs.append(f"extra deals {extra}, expected {want_extra}")
    if [int(x) for x in pts] != tot:
        errs.append(f"match points {[int(x) for x in pts]}, expected {tot}")
    return errs
