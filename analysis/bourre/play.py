"""Bourre odds of one hand under several kinds of play on the same deals (issue 12 item 4):
``tricksim odds bourre --hand ... --up-card ... --play heuristic,open``.

Kinds of play (``PLAY_KINDS``):

- ``heuristic``: every seat plays its heuristic, as the plain odds study does (same deals, same decisions:
  its rows equal ``odds_hand``'s on the same deals);
- ``open``: paranoid open-hand play of the five tricks. Everything before the first trick is kept as the
  heuristics played it (the pass/play decisions, the discards and the cards drawn: the draw is hidden
  information), then every player sees every card, the seat plays perfectly and ALL the other active players
  play together against it (kernels/bourre/solver.py). Its rates are what the seat can be sure of against such
  a coalition: P(win) = it surely wins the pot (or is the lone player), P(bourre) = the others together can
  keep it without a trick. Real opponents each play for themselves, so this is neither a ceiling nor a floor
  of the heuristics' result. A tie does not exist as a sure outcome: when the seat cannot surely win but
  surely takes a trick, its chips are those of a deal lost with tricks (exact under tie = carry_over and
  tied_only_next_hand, where a tie pays the seat nothing this deal; a lower bound under divide_equally).

The block function ``bourre.odds_play`` (kernels/bourre/odds_play.py sim_odds_play) counts per choice the joint
histogram of (heuristic outcome, players active, players tied, open outcome), so every paired difference
(the gap column) comes from the same counts.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...kernels import bourre as K
from ...kernels.bourre import odds_play as O
from ...kernels.cards import card_str, cards_of
from .. import engine
from ..common import parse_card, spec_json
from ..engine import RunOptions
from ..output import PP, plain_table, pm
from ..play_kinds import parse_play as parse_kinds
from ..play_kinds import pimc_settings
from ..stats import mean_ci, wilson
from .bins import _pct
from .config import BourreRules, _dynamic, has_pimc, parse_hand, pimc_arg
from .ev import run_ev_tables
from .odds import _cell_value, odds_run, seat_words
from .spec import SPEC

PLAY_KINDS = ("heuristic", "pimc", "open")
PLAY_LABELS = {"heuristic": "heuristics", "pimc": "sampling (pimc)", "open": "open-hand (paranoid)"}
DEFAULT_PLAY = ("heuristic", "open")   # the Python API's default kinds (the CLI asks for --play)
PLAY_BLOCK = 1 << 12      # deals per block: a few seconds of open-hand solving at 7 players
PLAY_HANDS = 20_000       # default deals with --play


def parse_play(text) -> list[str]:
    """The kinds of play of ``--play`` among ``PLAY_KINDS``."""
    return parse_kinds(text, PLAY_KINDS, "Bourre")


def pimc_spec(play):
    """The sampling player of ``--play`` (``pimc:worlds=N,pimc:race=X`` items; defaults otherwise)."""
    spec = SPEC.parse_seats(pimc_settings(play), 1)[0]
    has_pimc([spec])                    # refuses a non-integer worlds
    return spec


def block_odds_play(params, first, n):
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    cm = np.array([c[1] for c in params["choices"]], np.int64)
    cdm = np.array([c[2] for c in params["choices"]], np.uint64)
    specs = SPEC.specs_from_json(params["heuristics"])
    pimc = pimc_arg(specs)                          # a heuristic seat is the sampling player
    seat = params["seat"]
    if "pimc" in params["play"]:        # the seat the sampling player, the others as in the heuristics' column
        specs[seat] = SPEC.specs_from_json([params["pimc"]])[0]
    pc, pp = SPEC.heuristic_arrays(specs)
    return _dynamic(O.sim_odds_play, kd, kc, first, n, params["players"], seat,
                    np.uint64(params["hand_mask"]), params["upcard"], params["pot"], cm, cdm, ra, codes, prm,
                    run_ev_tables(params), _on("open" in params["play"]), pc, pp, _on("pimc" in params["play"]), *pimc)


def _on(flag: bool):
    """A kind of play for sim_odds_play: True, or None when off (the kernel is then compiled without its solver
    or sampling player)."""
    return True if flag else None


def odds_play_run(cards, up, players=7, seat=0, pot=0, seed=0, hands=PLAY_HANDS, rules=None, heuristics=None,
                  play=DEFAULT_PLAY, block_size: int = PLAY_BLOCK):
    """The run of ``odds_play``: the odds run's parameters plus the kinds of play, under its own study name."""
    run, choices = odds_run(cards, up, players, seat, pot, seed, hands, rules, heuristics, block_size)
    params = dict(run.params, play=parse_play(play))
    if "pimc" in params["play"]:
        params["pimc"] = spec_json([pimc_spec(play)])[0]
    return engine.Run("bourre.odds_play", params, hands, block_size, unit="hands"), choices


def _open_value(oc, npl, rules: BourreRules, players, pot0):
    """Chips of an open-hand outcome (OC_*), valued as the categories of ``_cell_value``."""
    cat = {0: 0, 1: 1 if npl >= 2 else 2, 2: 4, 3: 5}[oc]
    return _cell_value(cat, npl, 1, rules, players, pot0)


def play_tables(counts, choices, kinds, rules, players, pot0):
    """(rows, gaps): per choice and kind P(win), P(tie), P(bourre) with Wilson intervals and the expected
    chips; per choice, each kind against the heuristics, the paired differences with 95% intervals."""
    rows, gaps = [], []
    for ci, (label, mode, dm) in enumerate(choices):
        blk = np.asarray(O.PLAY_CHOICE.nth(counts, ci))
        j = O.PLAY_CHOICE.field(blk, "cells")       # [category, players, tied, open outcome]
        n = int(j.sum())
        if n == 0:
            continue
        hval = np.zeros((K.ODDS_CATS, 9, 9))
        oval = np.zeros((9, O.N_OC))
        for npl in range(9):
            for cat in range(K.ODDS_CATS):
                for nt in range(9):
                    hval[cat, npl, nt] = _cell_value(cat, npl, nt, rules, players, pot0)
            for oc in range(O.N_OC):
                oval[npl, oc] = _open_value(oc, npl, rules, players, pot0)
        hv = np.broadcast_to(hval[..., None], j.shape)
        ov = np.broadcast_to(oval[None, :, None, :], j.shape)
        if int((hv * j).sum()) != O.PLAY_CHOICE.value(blk, "chips"):
            raise RuntimeError(f"odds --play: settlement mismatch for {label!r}")
        hcat = np.arange(K.ODDS_CATS)[:, None, None, None]
        ocat = np.arange(O.N_OC)[None, None, None, :]
        ind = {"heuristic": {"win": (hcat == 1) | (hcat == 2), "tie": hcat == 3, "bourre": hcat == 5,
                             "play": hcat != 0, "chips": hv},
               "open": {"win": ocat == O.OC_WIN, "bourre": ocat == O.OC_BOURRE, "play": ocat != O.OC_OUT,
                        "chips": ov}}
        for kind in (k for k in kinds if k != "pimc"):
            row = {"choice": label, "mode": mode, "discard": " ".join(card_str(c) for c in sorted(cards_of(int(dm)))),
                   "play": kind, "n": n}
            for name in ("win", "tie", "bourre", "play"):
                if name not in ind[kind]:
                    row.update({f"p_{name}": np.nan, f"{name}_lo": np.nan, f"{name}_hi": np.nan})
                    continue
                x = int((np.broadcast_to(ind[kind][name], j.shape) * j).sum())
                p, lo, hi = wilson(x, n)
                row.update({f"p_{name}": float(p), f"{name}_lo": float(lo), f"{name}_hi": float(hi)})
            s1 = float((ind[kind]["chips"] * j).sum())
            s2 = float((ind[kind]["chips"] ** 2 * j).sum())
            m, half = mean_ci(s1, s2, n)
            row.update({"exp_chips": float(m), "chips_ci": float(half)})
            rows.append(row)
        if "pimc" in kinds:
            rows.append(_pimc_row(counts, ci, len(choices), label, mode, dm, hval, rules))
            if "heuristic" in kinds:
                gaps.append(_pimc_gap(counts, ci, len(choices), label, mode, n))
        if "heuristic" in kinds and "open" in kinds:
            g = {"choice": label, "mode": mode, "play": "open", "versus": "heuristic", "n": n}
            for name in ("win", "bourre", "chips"):
                d = (np.broadcast_to(ind["open"][name], j.shape).astype(float)
                     - np.broadcast_to(ind["heuristic"][name], j.shape).astype(float))
                m, half = mean_ci(float((d * j).sum()), float((d * d * j).sum()), n)
                g.update({f"gap_{name}": float(m), f"gap_{name}_ci": float(half)})
            gaps.append(g)
    return pd.DataFrame(rows), pd.DataFrame(gaps)


def _pimc_block(counts, ci, nc):
    return np.asarray(O.PIMC_CHOICE.nth(counts, ci, base=nc * O.PLAY_STRIDE))   # after every choice's PLAY_CHOICE


def _pimc_row(counts, ci, nc, label, mode, dm, hval, rules):
    """The pimc column of one choice: rates with Wilson intervals and the expected chips."""
    blk = _pimc_block(counts, ci, nc)
    j = O.PIMC_CHOICE.field(blk, "cells")
    n = int(j.sum())
    if int((hval * j).sum()) != O.PIMC_CHOICE.value(blk, "chips"):
        raise RuntimeError(f"odds --play: settlement mismatch for {label!r} (pimc)")
    cat = np.arange(K.ODDS_CATS)[:, None, None]
    row = {"choice": label, "mode": mode, "discard": " ".join(card_str(c) for c in sorted(cards_of(int(dm)))),
           "play": "pimc", "n": n}
    for name, ind in (("win", (cat == 1) | (cat == 2)), ("tie", cat == 3), ("bourre", cat == 5), ("play", cat != 0)):
        p, lo, hi = wilson(int((np.broadcast_to(ind, j.shape) * j).sum()), n)
        row.update({f"p_{name}": float(p), f"{name}_lo": float(lo), f"{name}_hi": float(hi)})
    m, half = mean_ci(float((hval * j).sum()), float((hval ** 2 * j).sum()), n)
    row.update({"exp_chips": float(m), "chips_ci": float(half)})
    return row


def _pimc_gap(counts, ci, nc, label, mode, n):
    """pimc minus the heuristics on the same deals: paired differences of P(win), P(bourre), chips (95%)."""
    blk = _pimc_block(counts, ci, nc)
    g = {"choice": label, "mode": mode, "play": "pimc", "versus": "heuristic", "n": n}
    for name, key in (("win", "dwin"), ("bourre", "dbou"), ("chips", "dchips")):
        m, half = mean_ci(float(O.PIMC_CHOICE.value(blk, key)), float(O.PIMC_CHOICE.value(blk, key + "2")), n)
        g.update({f"gap_{name}": float(m), f"gap_{name}_ci": float(half)})
    return g


def best_choices(df: pd.DataFrame) -> pd.DataFrame:
    """Per kind of play, the decision (pass or play with a discard) with the highest expected chips."""
    rows = []
    for kind, d in df[df["mode"] >= 0].groupby("play", sort=False):
        b = d.sort_values(["exp_chips", "mode"], ascending=[False, True]).iloc[0]
        rows.append({"play": kind, "best": b.choice, "exp_chips": b.exp_chips, "chips_ci": b.chips_ci})
    return pd.DataFrame(rows)


def odds_play(hand, upcard, players: int = 7, seat: int = 0, pot: int = 0, seed: int = 0, hands: int = PLAY_HANDS,
              rules=None, heuristics=None, play=DEFAULT_PLAY, opts: RunOptions = RunOptions(),
              block_size: int = PLAY_BLOCK, prepared=None):
    """Chances of one Bourre hand before the draw under each kind of play in ``play``, every choice on the same
    deals. Returns a dict: ``choices`` (choice x kind: win / tie / bourre rates with intervals, expected chips),
    ``gaps`` (per choice, open-hand minus heuristics: paired differences of P(win), P(bourre) and the chips,
    with 95% intervals), ``best`` (per kind), ``n``, ``seconds`` and the inputs."""
    rules = rules or BourreRules()
    players = SPEC.check_players(players)
    cards = parse_hand(hand) if isinstance(hand, str) else list(hand)
    up = parse_card(upcard) if isinstance(upcard, str) else int(upcard)
    kinds = parse_play(play)
    specs = SPEC.parse_seats(heuristics, players)
    # ``play`` itself, not its kinds: the run keeps the sampling player's settings (pimc:worlds=N ...) and refuses
    # a bad one before anything compiles
    run, choices = prepared or odds_play_run(cards, up, players, seat, pot, seed, hands, rules, specs, play, block_size)
    r = opts.execute(run)
    df, gaps = play_tables(r.counts, choices, kinds, rules, players, pot)
    return {"choices": df, "gaps": gaps, "best": best_choices(df), "n": r.n, "seconds": r.seconds, "play": kinds,
            "pimc": pimc_spec(play).label if "pimc" in kinds else None,
            "pimc_eval": int(pimc_spec(play).value("eval")) if "pimc" in kinds else None,
            "hand": " ".join(card_str(c) for c in cards), "upcard": card_str(up), "players": players, "seat": seat,
            "pot": pot, "rules": rules, "stake": pot + players * rules.ante}


def render_play(res) -> str:
    df = res["choices"]
    pos = seat_words(res["seat"], res["players"])
    lines = [f"Bourre hand {res['hand']}, up-card {res['upcard']}, {res['players']} players, {pos}; "
             f"pot {res['stake']:,} chips after the antes ({res['pot']:,} carried over). {res['n']:,} random deals "
             f"of the unseen cards; every choice and every kind of play on the same deals."]
    if "open" in res["play"]:
        lines.append("open-hand (paranoid): the decisions and the draw as the heuristics made them, then the five "
                     "tricks with every card seen, this seat playing perfectly and ALL the other active players "
                     "together against it. P(win) = it surely wins the pot; P(bourre) = the others together can "
                     "keep it without a trick; no tie is sure, so P(tie) is '-' and E[chips] counts a deal it "
                     "cannot surely win as lost with tricks"
                     + (" (a lower bound under tie = divide_equally)" if res["rules"].tie == "divide_equally" else "")
                     + ". Real opponents each play for themselves: this is what the seat can be sure of against "
                     "a coalition, neither a ceiling nor a floor of the heuristics' result.")
    if "pimc" in res["play"]:
        lines.append(f"sampling (pimc): the same deals, decisions and draw; this seat plays its cards as {res['pimc']} "
                     "(worlds of the unseen cards consistent with the play; in each, every legal card "
                     + ("scored by what the open-hand solver says the seat is then sure of against all the others"
                        if res.get("pimc_eval", 1) else "played out as basic plays")
                     + "), the other seats as in the heuristics' column.")
    tab = pd.DataFrame({"choice": df.choice, "play": df.play.map(PLAY_LABELS),
                        "P(win pot)": [_pct(a, b, c) for a, b, c in zip(df.p_win, df.win_lo, df.win_hi)],
                        "P(tie)": [_pct(a, b, c) if a == a else "-" for a, b, c in zip(df.p_tie, df.tie_lo, df.tie_hi)],
                        "P(bourre)": [_pct(a, b, c) for a, b, c in zip(df.p_bourre, df.bourre_lo, df.bourre_hi)],
                        "E[chips]": [pm(a, b, 2) for a, b in zip(df.exp_chips, df.chips_ci)],
                        "n": df.n.map(lambda x: f"{x:,}")})
    lines.append(plain_table(tab))
    g = res["gaps"]
    if len(g):
        who = " / ".join(PLAY_LABELS[k] for k in PLAY_KINDS if k in set(g.play))
        lines.append(f"\ngap, {who} minus heuristics, paired on the same deals (95% CI):")
        lines.append(plain_table(pd.DataFrame({
            "choice": g.choice, "play": g.play.map(PLAY_LABELS),
            "P(win)": [f"{100 * a:+.1f} ± {100 * b:.1f} pp" for a, b in zip(g.gap_win, g.gap_win_ci)],
            "P(bourre)": [f"{100 * a:+.1f} ± {100 * b:.1f} pp" for a, b in zip(g.gap_bourre, g.gap_bourre_ci)],
            "E[chips]": [pm(a, b, 2) for a, b in zip(g.gap_chips, g.gap_chips_ci)],
            "n": g.n.map(lambda x: f"{x:,}")})))
        lines.append(f"({PP})")
    for b in res["best"].itertuples():
        lines.append(f"best decision under {PLAY_LABELS[b.play]}: {b.best} (expected chips {b.exp_chips:+.2f} "
                     f"± {b.chips_ci:.2f})")
    lines.append("E[chips] counts this deal from the decision on: the pot taken, minus any second ante and bourre "
                 "payment (the first ante is already in the pot). A tie's carried-over pot and ante exemption are "
                 "not valued. Pass = 0.")
    return "\n".join(lines)
