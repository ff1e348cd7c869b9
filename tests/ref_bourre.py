"""A slow, readable referee for Bourre, written from RULES.md section 3 (plain Python, no numba).

``check_session(deals, seed, rules)`` replays the docs/trace.md dicts of one session
(``analysis.bourre.trace(..., with_legal=True)``, in order) and returns the list of
everything it disagrees with:

- the antes of every deal (rule 2: exemptions after bourre and after a tie, the
  dealer paying for all, tied-only deals without antes), the dealer's seat, the pot
  carried from the previous deal;
- the deal, regenerated from the seed with a pure-Python port of kernels/rng.py, and
  the up-card (rule 3, ``trump_card``);
- every pass/play decision against the forced cases (rule 4: Ace up-card; rule 7:
  everyone else passed; rule 18: Lo-No), the discard limits (``max_discard``,
  ``max_discard_7plus``) and every replacement card, replaying the stock and its
  reshuffles (rule 5, ``reshuffle``; ``declare_then_draw``);
- the lone player (rule 6), the leader (rule 8), every card played: in the player's
  hand and equal to the referee's own legal set (rules 10, 11 with every flag), which
  must equal the kernel's ``legal`` entry; trick winners (rule 9), tricks won;
- the settlement (rules 12-15, 17): winner, tie, bourre payments, pot limit, the pot
  after the deal, score_delta, and chip conservation over the session.

How the simulator reads RULES.md where it leaves room (issue 4):
- Cards are drawn one at a time from a pool: index ``below(m)``, then the last card
  of the pool takes the drawn card's place.  The pool starts as the 52 cards in
  ascending id order (id = suit*16 + rank, suits S H D C, ranks 2..A); a reshuffle
  refills it with the gathered cards in ascending id order.  Deal j of session k uses
  ``Rng(Rng(key, k).state, j)`` (deal stream) and the same for the decision stream.
- A passing dealer's face-up card stays out of a reshuffle, like a discarded one.
- ``max_discard_7plus`` applies when the table has 7 or 8 players.
- tied_only_next_hand: the next deal is dealt only to the tied players (nobody
  antes); its dealer is the normal dealer if tied, else the next tied seat clockwise.
- divide_equally: each tied player gets floor(pot taken / number tied), the remainder
  stays; the pot was paid out, so the tied players ante the next deal like everyone
  else (the rule 2b exemption holds only while a tied pot stays in the middle).
- The pot limit also caps what a lone player takes.
- Lo-No (rule 18): eligible up-cards are 2..7, only with dealer_fifth; no trumps, the
  lowest card of the suit led wins, the dealer leads the up-card to the first trick;
  must-head means playing lower.  No cinch rule applies (there are no trumps).
- The Ace up-card rule applies with dealer_fifth only (with separate_turnup the card
  belongs to no one).
- Rule 11 (iii) equivalents are used for the pagat cinch; the Hoyle form and
  void_must_play_highest_trump require the literal highest trump.
- Rule 11, the trick in progress: a follower whose every rule-10 legal card is a
  trump, while a trump above all of his wins the trick, counts one trick less.
- akq_in_order: a player who holds A, K and Q of trumps when play begins must, while
  leading, lead the highest of them he still holds.

The five points RULES.md once left open (issue 23, point 10) are the keys of ``READING``, the
project's choice first (RULES.md 3.1 says why); ``check_session(..., reading={key: other})``
replays the same deals under another reading, so a test can show that the deals really exercise
each point (the other reading disagrees with the kernel) and that the kernel follows the choice.
"""

from __future__ import annotations

READING = {
    # rule 13: the deal after a tied_only_next_hand deal.  "rotation": deal j of a session is dealt by
    # seat j mod n (or the next seat in the deal clockwise from it), tied-only deals included;
    # "from_last_dealer": the deal passes to the left of whoever dealt the previous deal
    "dealer_after_tied_only": ("rotation", "from_last_dealer"),
    # rule 2(a): a bourre on the tied deal.  "spent": his exemption is for the next deal, the tied-only
    # deal (where nobody antes), so he antes the deal after it; "kept": it carries to the next deal with antes
    "bourre_exemption_over_tied_only": ("spent", "kept"),
    # rule 17: "pays": every player who plays pays the second ante, exempt or not (and in a tied-only deal);
    # "exempt": a player exempt from the ante pays no second ante either
    "second_ante_when_exempt": ("pays", "exempt"),
    # rule 10b with must_trump_even_if_cannot_win = false and must_overtrump = false, a trumped trick that
    # he can overtrump: "any_trump": he must trump, with any trump; "winning_trump": only with a winning one
    "trump_to_win": ("any_trump", "winning_trump"),
    # rule 11 with trump_card = separate_turnup: "out": the turned-up card is seen by all and out of play,
    # never in O; "in_o": it counts as a trump that may be against him
    "turnup_in_cinch": ("out", "in_o"),
}
CHOICE = {k: v[0] for k, v in READING.items()}

# ---------------------------------------------------------------------------
# cards
# ---------------------------------------------------------------------------
RANKS = "23456789TJQKA"
SUITS = "SHDC"


def cid(text: str) -> int:
    return SUITS.index(text[1]) * 16 + RANKS.index(text[0])


def cstr(c: int) -> str:
    return RANKS[c % 16] + SUITS[c // 16]


def suit(c):
    return c // 16


def rank(c):
    return c % 16


ALL_CARDS = [s * 16 + r for s in range(4) for r in range(13)]     # ascending ids

# ---------------------------------------------------------------------------
# pure-Python port of kernels/rng.py
# ---------------------------------------------------------------------------
from ref_rng import GAME_BOURRE, GOLDEN, M64, STREAM_DEAL, Rng, derive_key, mix64  # noqa: F401


def deal_rng(seed: int, session: int, deal: int) -> Rng:
    key = derive_key(seed, GAME_BOURRE, STREAM_DEAL)
    return Rng(Rng(key, session).state, deal)


class Pool:
    """The stock: a list drawn by ``below(len)`` with the last card moved into the hole."""

    def __init__(self, cards):
        self.cards = list(cards)

    def draw(self, rng: Rng) -> int:
        j = rng.below(len(self.cards))
        c = self.cards[j]
        self.cards[j] = self.cards[-1]
        self.cards.pop()
        return c


# ---------------------------------------------------------------------------
# rules 10 and 11: the legal plays
# ---------------------------------------------------------------------------
def beats(card, best, led, trump, lono):
    """Does ``card`` beat ``best`` (the card winning so far) in a trick led in ``led``? (rule 9)"""
    if trump is not None and suit(card) == trump:
        return suit(best) != trump or rank(card) > rank(best)
    if suit(card) == led and (trump is None or suit(best) != trump):
        return rank(card) < rank(best) if lono else rank(card) > rank(best)
    return False


def trick_winner(cards, leader_seat_order, trump, lono):
    led = suit(cards[0])
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], led, trump, lono):
            best = i
    return leader_seat_order[best]


def matching_size(H, O):
    """Rule 11: take the highest cards of O first, give each the highest card of H it beats."""
    free = sorted(H, reverse=True)
    m = 0
    for o in sorted(O, reverse=True):
        for h in free:
            if rank(h) < rank(o):
                free.remove(h)
                m += 1
                break
    return m


def equivalents(H, O):
    """Rule 11 (iii): his highest trump and each next lower one of his with no card of O between."""
    hs = sorted(H, key=rank, reverse=True)
    eq = [hs[0]]
    for h in hs[1:]:
        lo, hi = rank(h), rank(eq[-1])
        if any(lo < rank(o) < hi for o in O):
            break
        eq.append(h)
    return set(eq)


def follow_legal(hand, trick, trump, lono, R, reading=None):
    """Rule 10 (a)-(c) for a player following; ``trick`` = cards already played."""
    winning_only = (reading or CHOICE)["trump_to_win"] == "winning_trump"
    led = suit(trick[0])
    best = trick[0]
    for c in trick[1:]:
        if beats(c, best, led, trump, lono):
            best = c
    trumped = trump is not None and suit(best) == trump        # trumps led, or ruffed
    ruffed = trumped and led != trump
    same = [c for c in hand if suit(c) == led]
    if same:
        if not ruffed and R["must_head_in_suit"]:
            better = [c for c in same if beats(c, best, led, trump, lono)]
            if better:
                return set(better)
        return set(same)
    trumps = [c for c in hand if trump is not None and suit(c) == trump]
    if not trumps or not R["must_trump_when_void"]:
        return set(hand)
    over = [c for c in trumps if trumped and rank(c) > rank(best)]
    if trumped:
        if R["must_trump_even_if_cannot_win"]:
            oblig = over if (R["must_overtrump"] and over) else trumps
        else:
            if not over:
                return set(hand)                     # cannot win: no obligation
            oblig = over if (R["must_overtrump"] or winning_only) else trumps
    else:
        oblig = trumps
    if R["void_must_play_highest_trump"]:
        return {max(trumps, key=rank)}
    return set(oblig)


def legal_plays(seat, hands, trick, ctx):
    """The referee's legal set for ``seat`` (rules 10, 11 and every flag)."""
    R = ctx["rules"]
    hand = hands[seat]
    trump, lono = ctx["trump"], ctx["lono"]
    trumps = [c for c in hand if trump is not None and suit(c) == trump]
    rule = R["cinch_rule"]
    if not trick:
        if lono and ctx["trick_no"] == 0:
            return {ctx["upcard"]}
        if trump is None or not trumps:
            return set(hand)
        if rule == "pagat" and has_cinch(seat, hands, trick, ctx):
            return equivalents(trumps, against(seat, hands, trick, ctx))
        if rule == "hoyle_lead_highest_with_akq" and any(rank(c) >= 10 for c in trumps):
            return {max(trumps, key=rank)}
        if rule == "akq_in_order" and seat in ctx["akq_holders"]:
            mine = [c for c in trumps if rank(c) >= 10]
            if mine:
                return {max(mine, key=rank)}
        return set(hand)
    base = follow_legal(hand, trick, trump, lono, R, ctx.get("reading"))
    if rule != "pagat" or trump is None or not trumps:
        return base
    led = suit(trick[0])
    last = len(trick) == ctx["n_active"] - 1
    if led != trump and any(suit(c) == led for c in hand):
        return base                                  # the cinch never overrides following suit
    if last and R["cinch_last_player_exempt"]:
        return base
    # the trick in progress: a trump above all of his is winning it and rule 10 leaves him
    # only trumps, so one of his trumps goes to a lost trick (sure tricks - 1)
    best = trick[0]
    for c in trick[1:]:
        if beats(c, best, led, trump, lono):
            best = c
    lost = (suit(best) == trump and all(rank(best) > rank(c) for c in trumps)
            and all(suit(c) == trump for c in base))
    if not has_cinch(seat, hands, trick, ctx, lost=1 if lost else 0):
        return base
    eq = equivalents(trumps, against(seat, hands, trick, ctx))
    return (base & eq) or eq


def against(seat, hands, trick, ctx):
    """O: trumps that may still be against ``seat`` (rule 11 DEFAULT detection), or the
    trumps really held by the other active players (omniscient)."""
    trump = ctx["trump"]
    if ctx["rules"]["cinch_knowledge"] == "omniscient":
        return [c for s in ctx["active"] if s != seat for c in hands[s] if suit(c) == trump]
    played = set(ctx["played"]) | set(trick)
    return [c for c in ALL_CARDS if suit(c) == trump and c not in hands[seat] and c not in played
            and c not in ctx["known_out"]]


def has_cinch(seat, hands, trick, ctx, lost=0):
    """Sure tricks = tricks won + |H| - m (rule 11), less ``lost`` tricks of his already
    lost in the trick in progress; a cinch when >= 3."""
    trump = ctx["trump"]
    H = [c for c in hands[seat] if suit(c) == trump]
    O = against(seat, hands, trick, ctx)
    return ctx["won"][seat] + len(H) - matching_size(H, O) - lost >= 3


# ---------------------------------------------------------------------------
# replaying one session
# ---------------------------------------------------------------------------
def discard_limit(R, n):
    lim = R["max_discard"]
    if n >= 7 and R["max_discard_7plus"] is not None:
        lim = min(lim, R["max_discard_7plus"])
    return lim


def check_session(deals, seed, R, reading=None):
    """All disagreements between the kernel's deals (one session, in order) and the rules
    (``reading``: {key of READING: its reading}, the project's choice for the keys not given)."""
    reading = dict(CHOICE, **(reading or {}))
    errs = []
    if not deals:
        return ["empty session"]
    n = deals[0]["players"]
    pot = 0
    nets = [0] * n
    exempt, inmask = set(), set(range(n))
    last_dealer = n - 1
    for k, d in enumerate(deals):
        where = f"session {d['session']} deal {d['deal_in_session']}"

        def err(msg):
            errs.append(f"{where}: {msg}")
        if d["deal_in_session"] != k:
            err(f"deal index {d['deal_in_session']} != {k}")
        # dealer and who is in the deal
        dealer = k % n if reading["dealer_after_tied_only"] == "rotation" else (last_dealer + 1) % n
        while dealer not in inmask:
            dealer = (dealer + 1) % n
        if d["dealer"] != dealer:
            err(f"dealer {d['dealer']} != {dealer}")
        if set(d["in_deal"]) != inmask:
            err(f"in_deal {d['in_deal']} != {sorted(inmask)}")
        if set(d["exempt"]) != exempt:
            err(f"exempt {d['exempt']} != {sorted(exempt)}")
        if d["pot_before"] != pot:
            err(f"pot_before {d['pot_before']} != {pot}")
        # rule 2: antes
        amt = d["ante"]
        if not (R["dealer_sets_ante"] and k > 0) and amt != R["ante"]:
            err(f"ante amount {amt} != {R['ante']}")
        want = [0] * n
        if inmask == set(range(n)):
            owed = [s for s in range(n) if s not in exempt]
            if R["dealer_antes_for_all"]:
                want[dealer] = amt * len(owed)
            else:
                for s in owed:
                    want[s] = amt
        if d["antes"] != want:
            err(f"antes {d['antes']} != {want}")
        stake = pot + sum(want)
        if d.get("overflow"):
            return errs                        # the session stops here
        errs += [f"{where}: {e}" for e in check_deal(d, seed, R, n, dealer, inmask, stake, amt, exempt, reading)]
        if errs:
            return errs
        # bookkeeping for the next deal (rules 2, 13)
        for s in range(n):
            nets[s] += d["score_delta"][s]
        pot = d["pot_after"]
        last_dealer = dealer
        kept = set()
        if reading["bourre_exemption_over_tied_only"] == "kept" and inmask != set(range(n)):
            kept = exempt - inmask              # the tied deal's bourre players, out of the tied-only deal
        exempt = set(d["bourre"]) | kept
        inmask = set(range(n))
        if d["outcome"] == "tie" and R["tie"] != "divide_equally":
            exempt |= set(d["tied"])            # a divided pot is paid out: no exemption
            if R["tie"] == "tied_only_next_hand":
                inmask = set(d["tied"])
        if sum(nets) + pot != 0:
            err(f"chips not conserved: nets {nets} + pot {pot}")
    return errs


def check_deal(d, seed, R, n, dealer, inmask, stake, amt, exempt=frozenset(), reading=None):
    reading = reading or CHOICE
    errs = []
    order = [(dealer + i) % n for i in range(1, n + 1) if (dealer + i) % n in inmask]   # dealer last
    # ---- rule 3: the deal ----
    rng = deal_rng(seed, d["session"], d["deal_in_session"])
    pool = Pool(ALL_CARDS)
    dealt = {s: [] for s in range(n)}
    up = None
    for _ in range(5):
        for s in order:
            c = pool.draw(rng)
            dealt[s].append(c)
            up = c
    sep = R["trump_card"] == "separate_turnup"
    if sep:
        up = pool.draw(rng)
    for s in range(n):
        if sorted(dealt[s]) != sorted(cid(c) for c in d["deal"][s]):
            errs.append(f"seat {s} dealt {d['deal'][s]}, referee {[cstr(c) for c in dealt[s]]}")
    if cid(d["trump_card"]) != up:
        errs.append(f"up-card {d['trump_card']} != {cstr(up)}")
    if errs:
        return errs
    lono = d["lo_no"]
    if lono and (not R["lo_no"] or sep or rank(up) > 5):
        errs.append(f"Lo-No called on {cstr(up)} (rule lo_no={R['lo_no']}, trump_card={R['trump_card']})")
    trump = None if lono else suit(up)
    if d["trump"] != ("NT" if lono else SUITS[trump]):
        errs.append(f"trump {d['trump']}")
    # ---- rule 4: pass / play and the draw ----
    hands = {s: list(dealt[s]) for s in range(n)}
    decs = d["decisions"]
    if [x["seat"] for x in decs] != order:
        return errs + [f"declaration order {[x['seat'] for x in decs]} != {order}"]
    limit = discard_limit(R, n)
    folded, discards = [], []          # not yet gathered for a reshuffle
    known_out = {up} if sep and reading["turnup_in_cinch"] == "out" else set()
    active = []
    second = [0] * n
    reshuffles = 0

    def serve(s, disc):
        nonlocal reshuffles
        got = []
        for _ in range(len(disc)):
            if not pool.cards:
                reshuffles += 1
                if R["reshuffle"] == "wp_folded_first_then_discards" and folded:
                    pool.cards = sorted(folded)
                    folded.clear()
                else:
                    pool.cards = sorted(folded + discards)
                    folded.clear()
                    discards.clear()
            got.append(pool.draw(rng))
        return got

    def discard_and_draw(s, x):
        disc = [cid(c) for c in x["discard"]]
        if len(disc) > limit:
            errs.append(f"seat {s} discarded {len(disc)} > limit {limit}")
        if any(c not in hands[s] for c in disc):
            errs.append(f"seat {s} discarded a card it does not hold")
        if lono and s == dealer and up in disc:
            errs.append("the Lo-No dealer discarded the up-card")
        for c in disc:
            hands[s].remove(c)
        got = serve(s, disc)
        if sorted(got) != sorted(cid(c) for c in x["drawn"]):
            errs.append(f"seat {s} drew {x['drawn']}, referee {[cstr(c) for c in got]}")
        hands[s] += got
        for c in disc:
            if s == dealer and c == up and not sep:
                known_out.add(up)           # the face-up card stays out
            else:
                discards.append(c)

    declare_first = R["declare_then_draw"]
    for i, x in enumerate(decs):
        s = x["seat"]
        is_dealer = s == dealer
        if is_dealer and not active and R["all_pass"] == "dealer_wins" and not x["play"]:
            errs.append("rule 7: the dealer passed after everyone else passed")
        if is_dealer and not sep and rank(up) == 12 and not x["play"]:
            errs.append("rule 4: the dealer passed with an Ace up-card")
        if is_dealer and lono and not x["play"]:
            errs.append("rule 18: the Lo-No dealer passed")
        if x["play"]:
            active.append(s)
            if R["double_ante"] and not (reading["second_ante_when_exempt"] == "exempt" and s in exempt):
                second[s] = amt
            lone_dealer = is_dealer and len(active) == 1
            if declare_first or lone_dealer:
                if lone_dealer and (x["discard"] or x["drawn"]):
                    errs.append("the dealer drew although he was alone")
                continue
            discard_and_draw(s, x)
        else:
            if x["discard"] or x["drawn"]:
                errs.append(f"seat {s} passed but drew")
            fold = list(hands[s])
            if is_dealer and not sep:
                fold.remove(up)
                known_out.add(up)
            folded += fold
            hands[s] = []
    if declare_first:
        for x in decs:
            if x["play"] and len(active) >= 2:
                discard_and_draw(x["seat"], x)
            elif x["discard"] or x["drawn"]:
                errs.append(f"seat {x['seat']} drew without a draw (lone player or passed)")
    if d["second_antes"] != second:
        errs.append(f"second antes {d['second_antes']} != {second}")
    if d["reshuffles"] != reshuffles:
        errs.append(f"reshuffles {d['reshuffles']} != {reshuffles}")
    pot = stake + sum(second)
    if d["pot"] != pot:
        errs.append(f"pot at stake {d['pot']} != {pot}")
    for s in range(n):
        want = sorted(hands[s]) if s in active else []
        if sorted(cid(c) for c in d["hands"][s]) != want:
            errs.append(f"seat {s} hand at the first trick {d['hands'][s]} != {[cstr(c) for c in want]}")
    if errs:
        return errs
    take = pot if R["pot_limit"] is None else min(pot, R["pot_limit"])
    won_pot = [0] * n
    paid = [0] * n
    won = {s: 0 for s in range(n)}
    if len(active) == 0:
        outcome = "all_pass"
    elif len(active) == 1:
        outcome = "lone"                               # rule 6
        won_pot[active[0]] = take
    else:
        # ---- rules 8-11: five tricks ----
        clockwise = [s for s in order if s in active]
        leader = dealer if lono else clockwise[0]
        ctx = {"rules": R, "reading": reading, "trump": trump, "lono": lono, "upcard": up, "won": won, "played": [],
               "known_out": known_out, "active": active, "n_active": len(active),
               "akq_holders": {s for s in active if trump is not None
                               and {trump * 16 + 10, trump * 16 + 11, trump * 16 + 12} <= set(hands[s])}}
        if len(d["tricks"]) != 5:
            return errs + [f"{len(d['tricks'])} tricks"]
        for t, tr in enumerate(d["tricks"]):
            ctx["trick_no"] = t
            if tr["leader"] != leader:
                errs.append(f"trick {t}: leader {tr['leader']} != {leader}")
                return errs
            i0 = clockwise.index(leader)
            seats = [clockwise[(i0 + q) % len(clockwise)] for q in range(len(clockwise))]
            trick = []
            for q, s in enumerate(seats):
                c = cid(tr["cards"][q])
                lg = legal_plays(s, hands, trick, ctx)
                kl = {cid(x) for x in d["legal"][t][q]}
                if lg != kl:
                    errs.append(f"trick {t} seat {s}: kernel legal {sorted(map(cstr, kl))} != referee {sorted(map(cstr, lg))}"
                                f" (hand {[cstr(x) for x in hands[s]]}, trick {[cstr(x) for x in trick]})")
                if c not in lg:
                    errs.append(f"trick {t} seat {s}: illegal card {cstr(c)}")
                hands[s].remove(c)
                trick.append(c)
            w = trick_winner(trick, seats, trump, lono)
            if tr["winner"] != w:
                errs.append(f"trick {t}: winner {tr['winner']} != {w}")
            won[w] += 1
            ctx["played"] += trick
            leader = w
        # ---- rules 12-15 ----
        best = max(won[s] for s in active)
        top = [s for s in active if won[s] == best]
        if len(top) == 1:
            outcome = "winner"
            won_pot[top[0]] = take
        else:
            outcome = "tie"
            if R["tie"] == "divide_equally":
                for s in top:
                    won_pot[s] = take // len(top)
        pen = take if R["bourre_penalty"] == "pot" else int(R["bourre_penalty"].split(":")[1])
        for s in active:
            if won[s] == 0:
                paid[s] = pen
    if [won[s] for s in range(n)] != d["tricks_won"]:
        errs.append(f"tricks won {d['tricks_won']} != {[won[s] for s in range(n)]}")
    if d["outcome"] != outcome:
        errs.append(f"outcome {d['outcome']} != {outcome}")
    bourre = [s for s in range(n) if paid[s] > 0 or (outcome in ("winner", "tie") and s in active and won[s] == 0)]
    if d["bourre"] != bourre:
        errs.append(f"bourre {d['bourre']} != {bourre}")
    if d["pot_won"] != won_pot:
        errs.append(f"pot_won {d['pot_won']} != {won_pot}")
    if d["bourre_paid"] != paid:
        errs.append(f"bourre_paid {d['bourre_paid']} != {paid}")
    after = pot - sum(won_pot) + sum(paid)
    if d["pot_after"] != after:
        errs.append(f"pot_after {d['pot_after']} != {after}")
    delta = [won_pot[s] - d["antes"][s] - second[s] - paid[s] for s in range(n)]
    if d["score_delta"] != delta:
        errs.append(f"score_delta {d['score_delta']} != {delta}")
    if outcome == "tie" and sorted(d["tied"]) != sorted(s for s in active if won[s] == max(won[x] for x in active)):
        errs.append(f"tied {d['tied']}")
    return errs
