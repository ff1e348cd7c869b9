"""Heuristic comparison: duplicate tournaments on the one block engine.

The design (``design``; Boulmous and Bourre): the entrants take the seats in the
repeating pattern 1, 2, ..., k, 1, 2, ... and the design holds every assignment of the
entrants to that pattern (all k! of them, as a set), so every entrant sits in every
seat, and meets every other entrant in every relative seat that is not a multiple of k
away (such a seat, with more seats than entrants, is its own), equally often, whatever the
order in which the names were given.  These seatings are cut into rounds of k: a round
shifts the entrants cyclically (entrant i+j mod k where the pattern has i), so it puts
every entrant in every seat once.  Every deal (same deal index: the same cards) is
replayed once per seating of one round (k playouts per deal: the luck of the cards
cancels in the paired differences), and the rounds take turns over the deals (Boulmous:
four deals at a time, one per dealer).  Means are stratified by round (every round
weighs the same), so the design is exactly balanced for any number of deals.  Boomke
Wies plays every ordered pair of entrants (a in seats 0 and 2, b in 1 and 3) on every deal.

A game's ``Game.duplicate`` (analysis/game.py) names its block function, returning exact
integer counts: per round the number of deals, and per metric of ``Duplicate.metrics`` the sums
S[h] = sum_d X_h(d), Q[a, b] = sum_d X_a(d) X_b(d) (X_h(d) = the metric summed over
entrant h's seat appearances in deal d), the per-playout cross products P and sums M
(what a design without replays would face); ``appearances`` gives each entrant's seats
per deal.  All of it is exact integer counts, so any thread count,
block size or backend gives the same numbers; and the entrants are put in a canonical
order (sorted by label) before the run, so any order of the names gives the same run,
and tables identical to the last digit.
"""
from .design import (appearances, canonical, default_extra, design, design_text, duplicate_params, entrant_specs,
                     n_seats, seating)
from .tables import MIN_DEALS, MONEY, full_verdict, in_order, tables_from_counts, verdict
from .tournament import best_value, compare, compare_run, sign_changes, sweep, sweep_values, zero_crossings
from .views import compare_command, render_best, render_compare, render_crossings, sweep_command, write_compare

__all__ = ["MIN_DEALS", "MONEY", "appearances", "best_value", "canonical", "compare", "compare_command", "compare_run",
           "default_extra", "design", "design_text", "duplicate_params", "entrant_specs", "full_verdict", "in_order",
           "n_seats", "render_best", "render_compare", "render_crossings", "seating", "sign_changes", "sweep", "sweep_command", "sweep_values",
           "tables_from_counts", "verdict", "write_compare", "zero_crossings"]
