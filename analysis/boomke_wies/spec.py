"""Boomke Wies's ``GameSpec`` (analysis/game.py): its rules, heuristics and kernel, and the helpers every game
shares.  The game's own modules use ``SPEC``; the package builds its whole ``Game`` record from it."""
from ...kernels import boomke_wies as K
from ...kernels.rng import GAME_BOOMKE_WIES
from ..game import Duplicate, GameSpec
from .config import ALIASES, KEY, N_SEATS, REGISTRY, BoomkeRules, compare_slow, rules_array

SPEC = GameSpec(name="boomke-wies", key=KEY, title="Boomke Wies", rules=BoomkeRules, rules_array=rules_array,
                kernel=K, rng_id=GAME_BOOMKE_WIES, heuristics=REGISTRY, aliases=ALIASES, seats=N_SEATS,
                seat_range=(4, 4),
                duplicate=Duplicate(study="boomke_wies.duplicate", metrics=("points", "team_tricks"),
                                    unit="points per deal (per partnership)", hands=300_000, block=1 << 16,
                                    layout="pairs", slow=compare_slow))
