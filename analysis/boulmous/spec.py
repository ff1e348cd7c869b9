"""Boulmous's ``GameSpec`` (analysis/game.py): its rules, heuristics and kernel, and the helpers every game
shares.  The game's own modules use ``SPEC``; the package builds its whole ``Game`` record from it."""
from ...kernels import boulmous as K
from ...kernels.rng import GAME_BOULMOUS
from ..game import Duplicate, GameSpec
from .config import ALIASES, KEY, REGISTRY, BoulmousRules, compare_slow, deal_compare_check, rules_array

SPEC = GameSpec(name="boulmous", key=KEY, title="Boulmous", rules=BoulmousRules, rules_array=rules_array, kernel=K,
                rng_id=GAME_BOULMOUS, heuristics=REGISTRY, aliases=ALIASES, seats=4, seat_range=(4, 4),
                duplicate=Duplicate(study="boulmous.duplicate", metrics=("points", "stakes"), unit="points per deal",
                                    hands=1_000_000, block=1 << 18, layout="rounds", max_entrants=8,
                                    dealer_note=" (four deals each, one per dealer)", slow=compare_slow,
                                    check=deal_compare_check))
