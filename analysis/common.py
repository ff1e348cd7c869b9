"""Shared configuration: the domain error, card parsing, rule flags and heuristic specs."""
from __future__ import annotations

import atexit
import dataclasses
import os
import re
import sys
import tempfile
import textwrap
import threading
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from ..kernels.cards import RANKS, SUITS


class TricksimError(ValueError):
    """A user error: printed by the CLI as one line on stderr, exit code 2."""


def exit_now(code=0):
    """End this process, its work done, with exit ``code`` (``SystemExit``'s: None is 0, a message goes to stderr
    and gives 1): the exit handlers run (``atexit``), stdout and stderr are flushed, then ``os._exit`` skips the
    interpreter's teardown, which frees every object one by one, Numba's compiled code among them: 0.25 s after a
    warm ``odds boulmous --exact``, 1.7-1.9 s after compiling the Bourre sampling player (2026-11-28).  The command
    line (cli.main) and the report's and warm-up's child processes end here.  While a non-daemon thread other than
    the main one runs, or called from one: ``SystemExit(code)``, the normal exit, which waits for it."""
    if code is None:
        code = 0
    elif not isinstance(code, int):
        sys.stderr.write(f"{code}\n")
        code = 1
    main = threading.main_thread()
    if threading.current_thread() is not main or any(
            t is not main and not t.daemon and t.is_alive() for t in threading.enumerate()):
        raise SystemExit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):   # a closed pipe (| head), a closed stream: nothing more can be written
            pass
    os._exit(code)


SEED_MAX = 2 ** 64 - 1


def check_seed(seed) -> int:
    """A seed is an integer 0..2^64-1 (the generator's key space): anything else is refused, so two
    different seeds never give the same hands under different run ids."""
    try:
        v = int(seed)
    except (TypeError, ValueError):
        raise TricksimError(f"--seed must be an integer in 0..{SEED_MAX}, got {seed!r}") from None
    if isinstance(seed, float) and seed != v or not 0 <= v <= SEED_MAX:
        raise TricksimError(f"--seed must be an integer in 0..{SEED_MAX}, got {seed}")
    return v


def check_out_path(path, what: str = "run folder") -> None:
    """Refuse, before anything runs, an output path that is a file or lies where nothing can be written."""

    p = Path(path)
    try:
        a = p
        while not a.exists() and a.parent != a:   # the nearest existing ancestor
            a = a.parent
        if not a.is_dir():
            raise TricksimError(f"{what} {p} is a file, not a folder" if a == p
                                else f"{what} {p} cannot be created: {a} is a file, not a folder")
        if not os.access(a, os.W_OK | os.X_OK):
            ro = hasattr(os, "statvfs") and os.statvfs(a).f_flag & getattr(os, "ST_RDONLY", 1)
            why = "read-only file system" if ro else "permission denied"
            raise TricksimError(f"{what} {p} cannot be written: {why} ({a})")
        os.rmdir(tempfile.mkdtemp(prefix=".tricksim-probe-", dir=a))   # what access() cannot tell (root, mounts)
    except OSError as e:
        raise TricksimError(f"{what} {p} cannot be written: {e.strerror or e} ({a})") from None


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


def rules_text(cls) -> str:
    """Every flag of a rules class: ``PREFIX.name = default    [values]`` and its help, for ``tricksim rules``."""

    lines = []
    for f in dataclasses.fields(cls):
        ch = f.metadata.get("choices")
        rng = f.metadata.get("range")
        if ch:
            kind = " | ".join(ch)
        elif isinstance(f.default, bool):
            kind = "true | false"
        elif rng:
            kind = f"{rng[0]}..{rng[1]}"
        elif isinstance(f.default, str):
            kind = "text"
        else:
            kind = "int"
        lines.append(f"{cls.PREFIX}.{f.name} = {f.default}    [{kind}]")
        if f.metadata.get("help"):
            lines.append(textwrap.fill(f.metadata["help"], width=118, initial_indent="    ", subsequent_indent="    "))
    return "\n".join(lines)


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


def declared(table, names, **defaults) -> dict:
    """{name: Param} of ``names`` from a kernel's declaration of its heuristics' parameters (kernels/<game>/
    players.py ``PARAMS``: ``(name, default, lowest, highest, help)`` rows, a parameter's kernel column its
    row), in the order of ``names``; ``defaults`` give a heuristic's own defaults."""
    rows = {row[0]: row for row in table}
    unknown = set(defaults) - set(names)
    if unknown:
        raise ValueError(f"defaults for parameters not asked: {sorted(unknown)}")
    out = {}
    for name in names:
        _, default, lo, hi, text = rows[name]
        out[name] = Param(name, defaults.get(name, default), lo, hi, text)
    return out


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


class UserHeuristic(tuple):
    """A named heuristic of a TOML file: ``(base, {param: value}, source)``; ``source`` names the file
    and the table for error messages."""

    def __new__(cls, base, params, source):
        return super().__new__(cls, (base, params, source))


def parse_heuristic(text: str, registry: dict, aliases: dict, user_defs: dict | None = None) -> HeuristicSpec:
    """Parse ``NAME`` or ``NAME:p=v,...``; NAME may be a user heuristic from a TOML file."""
    text = text.strip()
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    overrides: dict[str, tuple] = {}   # param -> (value, where it was set: None = the command line)
    label = text
    builtin = sorted(set(registry) | set(aliases))
    if user_defs and name in user_defs:
        ud = user_defs[name]
        base, base_over = ud[0], ud[1]
        src = ud[2] if len(ud) > 2 else f"heuristic {name!r}"
        overrides.update({k: (v, src) for k, v in base_over.items()})
        label = name if not rest else text
        name = aliases.get(str(base).strip().lower(), str(base).strip().lower())
        if name not in registry:
            raise TricksimError(f"{src}: base = {base!r} is not a heuristic of this game; known: {', '.join(builtin)}")
    else:
        name = aliases.get(name, name)
        if name not in registry:
            raise TricksimError(f"unknown heuristic {text.partition(':')[0]!r}; known: "
                                f"{', '.join(sorted(set(builtin) | set(user_defs or ())))}")
    hd: HeuristicDef = registry[name]
    if rest.strip():
        for item in rest.split(","):
            k, v = _split_kv(item, "heuristic parameter")
            overrides[k.strip()] = (v.strip(), None)
    values = {p.name: p.default for p in hd.params.values()}
    for k, (v, src) in overrides.items():
        if k not in hd.params:
            if src:
                raise TricksimError(f"{src}: unknown key {k!r} (base {hd.name} takes: {', '.join(['base', *hd.params])})")
            raise TricksimError(f"unknown parameter {k!r} for heuristic {hd.name}; known: {', '.join(hd.params) or 'none'}")
        p = hd.params[k]
        try:
            if isinstance(v, bool) or not isinstance(v, (int, float, str)):
                raise ValueError
            fv = float(v)
            if fv != fv:
                raise ValueError
        except ValueError:
            if src:
                raise TricksimError(f"{src}: {k} = {v!r} is not a number") from None
            raise TricksimError(f"parameter {k} of {hd.name} must be a number, got {v!r}") from None
        if not (p.lo <= fv <= p.hi):
            if src:
                raise TricksimError(f"{src}: {k} = {fv:g} is out of range [{p.lo:g}, {p.hi:g}] (base {hd.name})")
            raise TricksimError(f"parameter {k} of {hd.name} is out of range: {fv:g} not in [{p.lo:g}, {p.hi:g}]")
        values[k] = fv
    return HeuristicSpec(hd.name, hd.code, tuple(sorted(values.items())), label, hd.deterministic)


def load_heuristic_file(path) -> dict:
    """TOML: ``[heuristics.NAME]`` tables with ``base = "cautious"`` and parameters.
    Returns {name: UserHeuristic(base, {param: value}, source)}; every problem of the file itself
    (unreadable, not UTF-8, not TOML, a misspelt table, a table without base) is one TricksimError
    naming the file (and the table)."""

    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        raise TricksimError(f"heuristics file not found: {path}") from None
    except IsADirectoryError:
        raise TricksimError(f"heuristics file {path} is a folder, not a TOML file") from None
    except OSError as e:
        raise TricksimError(f"heuristics file {path} cannot be read: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TricksimError(f"heuristics file {path} is not UTF-8 text (byte {e.start}): TOML files are UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise TricksimError(f"heuristics file {path} is not valid TOML: {str(e).splitlines()[0]}") from None
    for key, v in data.items():
        if key != "heuristics":
            hint = " (did you mean [heuristics.NAME]?)" if key.lower().startswith("heur") else ""
            what = f"table [{key}]" if isinstance(v, dict) else f"key {key!r}"
            raise TricksimError(f"heuristics file {path}: unknown {what}{hint}; "
                                "a heuristics file holds [heuristics.NAME] tables with base = \"...\"")
    tables = data.get("heuristics")
    if not isinstance(tables, dict):
        what = "nothing" if tables is None else f"heuristics = {tables!r}"
        raise TricksimError(f"heuristics file {path} defines {what}; "
                            "expected [heuristics.NAME] tables with base = \"...\"")
    if not tables:
        raise TricksimError(f"heuristics file {path} defines no [heuristics.NAME] table")
    out = {}
    for name, table in tables.items():
        src = f"heuristics file {path}, table [heuristics.{name}]"
        if not isinstance(table, dict):
            raise TricksimError(f"heuristics file {path}: heuristics.{name} = {table!r} must be a table "
                                f"([heuristics.{name}] with base = \"...\")")
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
            raise TricksimError(f"{src}: a heuristic name is letters, digits, '_', '-' or '.'")
        if "base" not in table:
            raise TricksimError(f"{src}: missing key 'base' (the heuristic it starts from, e.g. base = \"cautious\")")
        if not isinstance(table["base"], str):
            raise TricksimError(f"{src}: base = {table['base']!r} must be a heuristic name in quotes")
        if name.lower() in out:
            raise TricksimError(f"{src}: the name {name!r} is defined twice (names ignore case)")
        out[name.lower()] = UserHeuristic(table["base"].strip().lower(),
                                          {k: v for k, v in table.items() if k != "base"}, src)
    return out


def heuristics_table(registry: dict, aliases: dict):

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


def make_params(seed, rules, specs, **extra) -> dict:
    """A run's parameters: seed, every rule flag, the heuristic of each seat, study extras."""
    return {"seed": check_seed(seed), "rules": rules_dict(rules), "heuristics": spec_json(specs), **extra}
