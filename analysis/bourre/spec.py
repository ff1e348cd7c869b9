"""Bourre's ``GameSpec`` (analysis/game.py): its rules, heuristics and kernel, and the helpers every game
shares.  The game's own modules use ``SPEC``; the package builds its whole ``Game`` record from it.  (The ``ev``
player's tables are not in the parameter matrix: analysis/bourre/ev.py ``ev_tables`` gives the kernels theirs.)"""
from ...kernels import bourre as K
from ...kernels.rng import GAME_BOURRE
from ..game import Duplicate, GameSpec
from .config import (ALIASES, DEFAULT_PLAYERS, KEY, MAX_PLAYERS, MIN_PLAYERS, REGISTRY, BourreRules, compare_slow,
                     rules_array)

SPEC = GameSpec(name="bourre", key=KEY, title="Bourre", rules=BourreRules, rules_array=rules_array, kernel=K,
                rng_id=GAME_BOURRE, heuristics=REGISTRY, aliases=ALIASES, seats=DEFAULT_PLAYERS,
                seat_range=(MIN_PLAYERS, MAX_PLAYERS),
                duplicate=Duplicate(study="bourre.duplicate", metrics=("chips",), unit="chips per deal", hands=300_000,
                                    block=1 << 16, layout="rounds", max_entrants=8, slow=compare_slow))
