"""Per-deal outcome distributions for the match equity tables (issue 16): the block functions the
engine runs, the cache on disk, and the decoding of Boulmous outcome codes into score changes.

The cache: ``$TRICKSIM_CACHE`` (default ``~/.cache/tricksim``) ``/equity/<key>.npz``, the key a hash of
the game, the rules, the heuristics, the sample (seed, deals) and the code that makes the counts and
tables (``CODE``: the games' kernels, kernels/boulmous/equity.py and kernels/boomke_wies/equity.py, rng.py, cards.py and the modules here that decode
the counts and build the tables: outcomes.py, boulmous.py, boomke.py), as in analysis/bourre/ev.py.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from tricksim.analysis.common import TricksimError, rules_dict, spec_json
from tricksim.kernels.boomke_wies import equity as KWE
from tricksim.kernels.boulmous import equity as KE


def _code_hash() -> str:
    root = Path(__file__).resolve().parent.parent.parent
    h = hashlib.sha256()
    files = [*sorted(f"kernels/{g}/{f.name}" for g in ("boulmous", "boomke_wies")
                     for f in (root / "kernels" / g).glob("*.py")),
             "kernels/rng.py", "kernels/cards.py", "analysis/equity/outcomes.py", "analysis/equity/boulmous.py",
             "analysis/equity/boomke.py"]
    for rel in files:
        h.update(rel.encode())
        h.update((root / rel).read_bytes())
    return h.hexdigest()[:16]


CODE = _code_hash()


def cache_dir() -> Path:
    base = os.environ.get("TRICKSIM_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tricksim")
    return Path(base) / "equity"


def cache_key(kind: str, rules, specs, **extra) -> str:
    js = {"kind": kind, "rules": rules_dict(rules), "heuristics": spec_json(specs), "code": CODE, **extra}
    return hashlib.sha256(json.dumps(js, sort_keys=True, default=str).encode()).hexdigest()[:24]


def load(key: str) -> dict | None:
    """The arrays cached under ``key`` (a dict), or None."""
    try:
        with np.load(cache_dir() / f"{key}.npz", allow_pickle=False) as z:
            if str(z["key"]) != key:
                return None
            return {k: z[k].copy() for k in z.files}
    except (OSError, ValueError, KeyError):
        return None


def save(key: str, **arrays) -> None:
    """Write atomically; a read-only cache is not an error (the result stays in memory)."""
    d = cache_dir()
    try:
        d.mkdir(parents=True, exist_ok=True)
        tmp = d / f".{key}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            np.savez(f, key=np.array(key), **arrays)
        os.replace(tmp, d / f"{key}.npz")
    except OSError:
        pass


# ---- block functions (listed in the games' Game.blocks) -------------------------------------------
def block_boulmous(params, first, n):
    from tricksim.analysis.boulmous.config import GAME
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    return KE.boulmous_outcomes(kd, kc, first, n, ra, codes, prm, False)


def block_boomke(params, first, n):
    from tricksim.analysis.boomke_wies.config import GAME
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    return KWE.boomke_outcomes(kd, kc, first, n, ra, codes, prm)


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


def decode_boomke(counts: np.ndarray) -> tuple[np.ndarray, int]:
    """Per dealer the distribution of the points difference (team 0 - team 1) of one deal:
    (float64[4, 2 * D + 1] with D = KWE.BW_SPAN - 1 + ... centred at index D, deals measured)."""
    c = np.asarray(counts, np.int64).reshape(4, KWE.BW_SPAN, KWE.BW_SPAN)
    D = KWE.BW_SPAN - 1
    out = np.zeros((4, 2 * D + 1))
    for a in range(KWE.BW_SPAN):
        for b in range(KWE.BW_SPAN):
            out[:, a - b + D] += c[:, a, b]
    tot = out.sum(axis=1, keepdims=True)
    if (tot == 0).any():
        raise TricksimError("no deal was measured for some dealer")
    return out / tot, int(c.sum())
