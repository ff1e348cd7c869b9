"""``tricksim tune``: an optuna search for better heuristic parameters, scored by duplicate matches on
common deals and confirmed on fresh ones (``search``); its command, text and TOML file (``views``)."""
from .search import Plan, confirm_seed, confirmation, plan, score, tune, tune_steps, tuned_name
from .views import render_confirm, toml_text, tune_command

__all__ = ["Plan", "confirm_seed", "confirmation", "plan", "render_confirm", "score", "toml_text", "tune",
           "tune_command", "tune_steps", "tuned_name"]
