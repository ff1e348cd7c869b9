"""Per-deal outcome distributions for the Boulmous match equity table (issue 16): the block function the
engine runs, the cache on disk, and the decoding of outcome codes into score changes.

The cache (analysis/cache.py): ``$TRICKSIM_CACHE`` (default ``~/.cache/tricksim``) ``/equity/<key>.npz``, the
key a hash of the rules, the heuristics, the sample (seed, deals) and the code that makes the counts and
tables (``CODE``: kernels/boulmous/, rng.py, cards.py and the modules here that decode the counts and build
the table: outcomes.py, table.py).  The counts the main job reads also ship with tricksim (``shipped``,
analysis/cache.py ``load_shipped``: found by ``config``, the key without the code).
"""
from __future__ import annotations

import numpy as np

from ....kernels.boulmous import equity as KE
from ...cache import code_hash, kernel_files, key_of, load_shipped
from ...cache import load as _load
from ...cache import save as _save
from ...common import TricksimError, rules_dict, spec_json
from ..spec import SPEC

CODE = code_hash([*kernel_files("boulmous"), "analysis/boulmous/equity/outcomes.py",
                  "analysis/boulmous/equity/table.py"])
FOLDER = "equity"


def config(kind: str, rules, specs, **extra) -> dict:
    """What makes the arrays of ``kind``, but the code (the key of a shipped table)."""
    return {"kind": kind, "rules": rules_dict(rules), "heuristics": spec_json(specs), **extra}


def cache_key(kind: str, rules, specs, **extra) -> str:
    return key_of(**config(kind, rules, specs, **extra), code=CODE)


def shipped(kind: str, rules, specs, **extra) -> dict | None:
    """The arrays of ``kind`` shipped with tricksim (analysis/data/), or None."""
    found = load_shipped(FOLDER, config(kind, rules, specs, **extra))
    return None if found is None else found[0]


def load(key: str) -> dict | None:
    """The arrays cached under ``key`` (a dict), or None."""
    return _load(FOLDER, key)


def save(key: str, **arrays) -> None:
    """Write atomically; a read-only cache is not an error (the result stays in memory)."""
    _save(FOLDER, key, **arrays)


# ---- the block function (listed in the game's Game.blocks) ---------------------------------------
def block_boulmous(params, first, n):
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    return KE.boulmous_outcomes(kd, kc, first, n, ra, codes, prm, False)


# ---- Boulmous outcome codes -> score changes ----------------------------------------------------
def decode_boulmous(counts: np.ndarray, rules) -> dict:
    """The canonical per-deal distribution (the four dealers pooled: seats relative to the dealer,
    0 = dealer's left .. 3 = dealer) of the counts of ``KE.boulmous_outcomes``: arrays ``prob``,
    ``delta`` (score change per seat, rules 15-16), ``taker`` (-1: all passed), ``box`` (rule 18 b),
    ``imm`` (the boulmous payments, rule 18 c-d), outcomes with the same effect merged, and ``n``."""
    c = np.asarray(counts, np.int64).reshape(4, KE.N_CODES).sum(axis=0)
    n = int(c.sum())
    if n == 0:
        raise TricksimError("no deal was measured")
    rows = {}
    for code in np.nonzero(c)[0]:
        code = int(code)
        if code == KE.PASS_CODE:
            key = (0, 0, 0, 0, -1, 0, 0)
        else:
            taker, contract, won = split_code(code)
            delta, box, b6, made = deal_effect(won, taker, contract, rules)
            # the taker matters for the box, the boulmous payments and the taker_priority tie-break
            key = (*delta, taker, box, b6)
        rows[key] = rows.get(key, 0) + int(c[code])
    keys = list(rows)
    cnt = np.array([rows[k] for k in keys], np.float64)
    delta = np.array([k[:4] for k in keys], np.int64)
    taker = np.array([k[4] for k in keys], np.int64)
    box = np.array([k[5] for k in keys], np.int64)
    return {"prob": cnt / n, "delta": delta, "taker": taker, "box": box, "imm": boulmous_payments(keys), "n": n,
            "count": cnt.astype(np.int64)}


def split_code(code: int):
    """A taker's outcome code (not ``PASS_CODE``) -> (taker, contract, the four seats' tricks), seats
    relative to the dealer."""
    tc, rest = divmod(code, 2401)
    taker, contract = divmod(tc, 4)
    return taker, contract + 3, [rest // 343, rest // 49 % 7, rest // 7 % 7, rest % 7]


def deal_effect(won, taker: int, bid: int, rules):
    """Rules 15-16 and 18 b-d of a deal the seat ``taker`` took with ``bid``: (score change per seat, box 0/1,
    boulmous payment sign: 1 made, -1 failed, 0 no boulmous, made)."""
    delta = list(won)
    made = won[taker] >= bid
    box = 0
    if not made:
        delta[taker] = won[taker] - bid if rules.failed_taker_keeps_tricks else -bid
        box = int(bid < 6 or rules.failed_boulmous_is_box)
    return delta, box, 0 if bid < 6 else (1 if made else -1), made


def boulmous_payments(keys) -> np.ndarray:
    """Rule 18 c-d per outcome key (``(*delta, taker, box, b6, ...)``, b6 = 1 a boulmous made, -1 failed):
    float64[len(keys), 4], the taker's +-3 and each other seat's -+1."""
    imm = np.zeros((len(keys), 4))
    for j, k in enumerate(keys):
        if k[6] != 0:
            imm[j, :] = -k[6]
            imm[j, k[4]] = 3 * k[6]
    return imm
