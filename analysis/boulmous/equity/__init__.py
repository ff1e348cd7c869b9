"""Boulmous match equity (issue 16): P(each seat wins the game) and the expected money from any score state,
and the decisions that use it.

- ``outcomes``: the per-deal outcome counts (block function, disk cache) and their decoding into score changes;
- ``table``: the equity table by value iteration over the score states (rules 15-18);
- ``studies``: the table measured and built, one state's equity with intervals, the heatmap grid, the check
  against whole games;
- ``decide``: one hand's calls ranked by the chance to win the game (``odds --scores``);
- ``saware``: score-aware bidding (``score_aware=1/2``) and its calibration;
- ``views``: the ``tricksim equity boulmous`` text and heatmap; ``report``: the game's part of the report's
  ``equity`` section.
"""
