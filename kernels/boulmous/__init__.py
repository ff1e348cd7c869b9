"""Boulmous kernels (RULES.md section 1), one module per phase, read in the order of a deal:

- ``rules``: the rule flags ``R_*``, the hand record ``REC_*``, the card tables, the legal plays;
- ``players``: the heuristic codes ``H_*``, the declaration of their parameters (``PARAMS``, columns ``P_*``),
  every heuristic decision;
- ``dealing``: the deal itself (``deal_random``, ``deal_rest`` around a fixed hand);
- ``play``: one deal (the auction, the trump choice, the tricks, the score: ``play_deal``), with the sampling
  player in its seats when given its optional ``pimc`` argument;
- batch entry points: ``deals`` (``sim_deals``, ``trace_deals``), ``odds`` (one hand, hand classes), ``games``
  (whole games to the target, ``play_game``), ``duplicate``;
- ``solver``: the open-hand (double-dummy) solver, taker against the three defenders;
- ``odds_play``: the odds of one hand open-handed and under the heuristics, deal by deal;
- ``pimc``: the sampling player; ``pimc_batch``: the odds and class kernels played by four sampling seats;
- ``equity``: match equity (outcome counts, games from a score state, value iteration).

The package re-exports the names of the phase modules the analysis reads as ``K.<name>``
(``from tricksim.kernels import boulmous as K``); the solver, ``odds_play``, the sampling player and equity
are imported by their own paths (``from tricksim.kernels.boulmous import solver as S``).
"""

from ..cards import U0, U1, highest, lowest, nth_card, popcount
from ..deal import deal_with_fixed
from ..rng import below, seed_state, shuffle, uniform
from ..tally import add_outer, add_sum_outer
from .dealing import deal_random, deal_rest
from .deals import AGG_DEALS, CHUNK, DEALS, sim_deals, trace_deals
from .duplicate import sim_duplicate
from .games import (AGG_GAMES, GAMES, LOG_BOXES, LOG_SCORES, LOG_STAKES, LOG_W, LOG_WINNERS, MAX_DEALS_PER_GAME,
                    no_score_aware, play_game, sa_thresholds, settle, sim_games, trace_game)
from .odds import (AGG_CLASSES, AGG_ODDS, C_TRICKS, CLASSES, ODDS, exact_odds, hand_class, odds_one, sim_classes,
                   sim_odds)
from .play import (AUCTION, HEURISTIC_TRUMP, NO_BID, NO_GAME, NOBODY, PS_DEAL, auction, i64, no_game, pimc_scratch,
                   play_deal, play_tricks, score_deal)
from .players import (COLUMN, H_AGGRESSIVE, H_CAUTIOUS, H_PIMC, H_RANDOM, N_PARAMS, NO_SA, P_ACE_WEIGHT, P_BID,
                      P_BID_PROB, P_BOULMOUS_MARGIN, P_BOWER_WEIGHT, P_DRAW_TRUMPS, P_GANG_UP, P_KING_WEIGHT,
                      P_LEAD_HIGH, P_LENGTH_BONUS, P_MARGIN, P_NT_BIAS, P_RACE, P_SCORE_AWARE, P_TRUMP_WEIGHT,
                      P_WORLDS, PARAMS, SA_FLOOR, SA_NBINS, SA_STEP, SA_VMIN, best_trump, choose_bid, choose_card,
                      choose_trump, estimate, max_power, max_power_card, min_power_card, sa_bin)
from .rules import (ABOVE, ACES, AUCTION_MULTI, AUCTION_SINGLE, CSUIT, DECK24, END_DEAL, END_TRICK, KINGS, MAX_BIDS,
                    N_RULES, NT, OBL_MUST_OVERTRUMP, OBL_MUST_TRUMP, OBL_OPTIONAL, POWER, R_AUCTION, R_END_CHECK,
                    R_FAILED_B_IS_BOX, R_FAILED_KEEPS, R_LEFT_BOWER_TRUMP, R_MUST_HEAD, R_TARGET, R_TIE_BREAK,
                    R_TRUMP_OBL, R_WINNER_PAYS_OWN, RANK4, REC_BIDS, REC_CONTRACT, REC_DEALER, REC_HANDS, REC_LEGAL,
                    REC_LEN, REC_MADE, REC_NBIDS, REC_NTRICKS, REC_SCORE, REC_STAKES, REC_TAKER, REC_TRICKS,
                    REC_TRUMP, REC_WON, SUIT16, TABS, TIE_PLAY_ON, TIE_SHARED, TIE_TAKER, apply_card, beats,
                    build_tables, legal_mask)
