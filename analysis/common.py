"""Shared configuration: the domain error, card parsing, rule flags and heuristic specs."""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tricksim.kernels.cards import RANKS, SUITS


class TricksimError(ValueError):
    """A user error: printed by the CLI as one line on stderr, exit code 2."""


# ---------------------------------------------------------------------------
# cards
# ---------------------------------------------------------------------------
def parse_card(text: str, allowed_ranks: str = RANKS) -> int:
    t = text.strip().upper()
    if t.startswith("10") and len(t) == 3:
        t = "T" + t[2]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise TricksimError(f"malformed card {text!r}: expected rank {RANKS} and suit {SUITS}, e.g. 'TH'")
    if t[0] not in allowed_ranks:
        raise TricksimError(f"card {text!r} is not in this game's deck (ranks {' '.join(allowed_ranks)})")
    return SUITS.index(t[1]) * 16 + RANKS.index(t[0])


def parse_cards(text: str, n: int | None, allowed_ranks: str = RANKS, what: str = "hand") -> list[int]:
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    cards = [parse_card(p, allowed_ranks) for p in parts]
    seen = set()
    for p, c in zip(parts, cards):
        if c in seen:
            raise TricksimError(f"duplicate card {p!r} in {what}")
        seen.add(c)
    if n is not None and len(cards) != n:
        raise TricksimError(f"a {what} must have {n} cards, got {len(cards)}")
    return cards


# ---------------------------------------------------------------------------
# rule flags: a frozen dataclass per game, every field a RULES.md flag
# ---------------------------------------------------------------------------
def rule_choices(cls, name):
    f = cls.__dataclass_fields__[name]
    return f.metadata.get("choices")


def apply_rule_overrides(rules, overrides: list[str] | dict | None):
    """``overrides``: ['name=value', ...] or a dict. Returns a new frozen rules object."""
    if not overrides:
        return rules
    items = overrides.items() if isinstance(overrides, dict) else [_split_kv(o, "--rule") for o in overrides]
    changes: dict[str, Any] = {}
    fields = rules.__dataclass_fields__
    prefix = rules.PREFIX + "."
    for name, value in items:
        name = name.strip().replace("-", "_")
        if name.startswith(prefix):
            name = name[len(prefix):]
        if name not in fields:
            raise TricksimError(f"unknown rule {name!r}; known: {', '.join(fields)}")
        changes[name] = _coerce(fields[name], name, value)
    return dataclasses.replace(rules, **changes)


def _split_kv(text: str, what: str):
    if "=" not in text:
        raise TricksimError(f"{what} expects name=value, got {text!r}")
    k, v = text.split("=", 1)
    return k, v


def _coerce(f, name, value):
    choices = f.metadata.get("choices")
    lo, hi = f.metadata.get("range", (None, None))
    if isinstance(f.default, bool):
        if isinstance(value, bool):
            return value
        v = str(value).strip().lower()
        if v in ("true", "1", "yes", "on"):
            return True
        if v in ("false", "0", "no", "off"):
            return False
        raise TricksimError(f"rule {name} must be true or false, got {value!r}")
    if choices:
        v = str(value).strip().lower().replace("-", "_")
        if v not in choices:
            raise TricksimError(f"rule {name} must be one of {' | '.join(choices)}, got {value!r}")
        return v
    if isinstance(f.default, int) or f.default is None:
        try:
            v = int(value)
        except (TypeError, ValueError):
            if f.default is None and str(value).strip().lower() in ("none", "off"):
                return None
            raise TricksimError(f"rule {name} must be an integer, got {value!r}") from None
        if lo is not None and not (lo <= v <= hi):
            raise TricksimError(f"rule {name} must be in {lo}..{hi}, got {v}")
        return v
    return value


def flag(default, choices=None, rng=None, help=""):
    md = {"help": help}
    if choices:
        md["choices"] = tuple(choices)
    if rng:
        md["range"] = rng
    return field(default=default, metadata=md)


def rules_dict(rules) -> dict:
    return dataclasses.asdict(rules)


# ---------------------------------------------------------------------------
# heuristics: NAME or NAME:param=value,...
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Param:
    name: str
    default: float
    lo: float
    hi: float
    help: str


@dataclass(frozen=True)
class HeuristicDef:
    name: str
    code: int
    params: dict  # name -> Param (the parameters this heuristic reads)
    help: str
    deterministic: bool = True


@dataclass(frozen=True)
class HeuristicSpec:
    """A heuristic with its parameter values; ``label`` is how reports name it."""
    name: str
    code: int
    values: tuple  # ((param, value), ...) every parameter, defaults filled in
    label: str
    deterministic: bool = True

    def value(self, p):
        return dict(self.values)[p]


def parse_heuristic(text: str, registry: dict, aliases: dict, user_defs: dict | None = None) -> HeuristicSpec:
    """Parse ``NAME`` or ``NAME:p=v,...``; NAME may be a user heuristic from a TOML file."""
    text = text.strip()
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    overrides: dict[str, str] = {}
    label = text
    if user_defs and name in user_defs:
        base, base_over = user_defs[name]
        overrides.update(base_over)
        label = name if not rest else text
        name = base
    name = aliases.get(name, name)
    if name not in registry:
        raise TricksimError(f"unknown heuristic {text.partition(':')[0]!r}; known: {', '.join(sorted(set(registry) | set(aliases) | set(user_defs or ())))}")
    hd: HeuristicDef = registry[name]
    if rest.strip():
        for item in rest.split(","):
            k, v = _split_kv(item, "heuristic parameter")
            overrides[k.strip()] = v.strip()
    values = {p.name: p.default for p in hd.params.values()}
    for k, v in overrides.items():
        if k not in hd.params:
            raise TricksimError(f"unknown parameter {k!r} for heuristic {hd.name}; known: {', '.join(hd.params) or 'none'}")
        p = hd.params[k]
        try:
            fv = float(v)
        except ValueError:
            raise TricksimError(f"parameter {k} of {hd.name} must be a number, got {v!r}") from None
        if not (p.lo <= fv <= p.hi):
            raise TricksimError(f"parameter {k} of {hd.name} is out of range: {fv:g} not in [{p.lo:g}, {p.hi:g}]")
        values[k] = fv
    return HeuristicSpec(hd.name, hd.code, tuple(sorted(values.items())), label, hd.deterministic)


def load_heuristic_file(path) -> dict:
    """TOML: ``[heuristics.NAME]`` tables with ``base = "cautious"`` and parameters.
    Returns {name: (base, {param: value})}."""
    import tomllib

    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise TricksimError(f"heuristics file not found: {path}") from None
    except tomllib.TOMLDecodeError as e:
        raise TricksimError(f"heuristics file {path} is not valid TOML: {e}") from None
    out = {}
    for name, table in (data.get("heuristics") or {}).items():
        if not isinstance(table, dict) or "base" not in table:
            raise TricksimError(f"heuristic {name!r} in {path} needs a 'base' heuristic name")
        base = str(table["base"])
        out[name.lower()] = (base.lower(), {k: str(v) for k, v in table.items() if k != "base"})
    return out


def heuristics_table(registry: dict, aliases: dict):
    import pandas as pd

    rows = []
    for hd in registry.values():
        names = [hd.name] + [a for a, b in aliases.items() if b == hd.name]
        if not hd.params:
            rows.append({"heuristic": " / ".join(names), "parameter": "", "default": None, "min": None, "max": None, "meaning": hd.help})
        for i, p in enumerate(hd.params.values()):
            rows.append({"heuristic": " / ".join(names) if i == 0 else "", "parameter": p.name, "default": p.default,
                         "min": p.lo, "max": p.hi, "meaning": p.help if i else f"{hd.help} -- {p.help}"})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------
# run parameters: the JSON every block function receives (the same for every game)
# ---------------------------------------------------------------------------
def spec_json(specs) -> list:
    """Heuristic specs as JSON: [[name, {param: value}, label], ...]."""
    return [[s.name, dict(s.values), s.label] for s in specs]


def specs_from_json(js, registry: dict) -> list:
    """The inverse of ``spec_json`` for a game's heuristic registry."""
    out = []
    for name, values, label in js:
        hd = registry[name]
        out.append(HeuristicSpec(name, hd.code, tuple(sorted(values.items())), label, hd.deterministic))
    return out


def heuristic_arrays(specs, kernel) -> tuple:
    """Per-seat heuristic codes and a (seats, kernel.N_PARAMS) parameter matrix, each named
    parameter at the kernel's index ``P_<NAME>``."""
    codes = np.array([s.code for s in specs], np.int64)
    prm = np.zeros((len(specs), kernel.N_PARAMS), np.float64)
    for i, s in enumerate(specs):
        for name, v in s.values:
            prm[i, getattr(kernel, "P_" + name.upper())] = v
    return codes, prm


def make_params(seed, rules, specs, **extra) -> dict:
    """A run's parameters: seed, every rule flag, the heuristic of each seat, study extras."""
    return {"seed": int(seed), "rules": rules_dict(rules), "heuristics": spec_json(specs), **extra}
