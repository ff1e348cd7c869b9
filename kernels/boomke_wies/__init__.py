"""Boomke Wies kernels (RULES.md section 2), one module per phase, read in the order of a deal:

- ``rules``: the rule flags ``R_*``, the calls, the hand record ``REC_*``, the card tables, the legal plays,
  the scoring table;
- ``players``: the heuristic codes ``H_*`` and parameter columns ``P_*``, valuation, bidding and card play;
- ``play``: one deal (dealing, the auction, trumps by the first lead, the tricks: ``play_deal``, ``full_hand``) and
  the scratch of a thread that deals and plays (``deal_scratch``);
- batch entry points: ``deals`` (``sim_deals``, ``sim_classes``, ``trace_deals``), ``odds``, ``duplicate``;
- ``matches``: whole matches (rule 12);
- ``equity``: match equity (outcome counts, matches from given points);
- ``pimc``: the sampling player (calls and cards by sampling worlds), compiled only into the kernels given their
  ``pimc`` argument (``trace_deals``, ``sim_duplicate``, ``odds_tricks``); it writes its reasons only when
  ``trace_deals`` is also given ``xo`` (``trace --explain``).

The package re-exports the names of the phase modules the analysis reads as ``K.<name>``
(``from tricksim.kernels import boomke_wies as K``); equity is imported by its own path
(``from tricksim.kernels.boomke_wies import equity as KE``); so is the sampling player
(``from tricksim.kernels.boomke_wies import pimc as KP``).
"""

from ..cards import SUIT_MASK, U0, U1, highest, lowest, nth_card, popcount
from ..deal import deal_with_fixed
from ..rng import below, seed_state, shuffle, uniform
from ..tally import add_sum_outer
from .deals import (AGG_A, AGG_B, AGG_CLASSES, AGG_DEALS, CHUNK, CL_TRICKS, CLASSES, DEALS, N_CC, OFF_A, OFF_B, OFF_C,
                    OFF_C_SQ, OFF_D, contract_class, hand_class, sim_classes, sim_deals, trace_deals)
from .duplicate import sim_duplicate
from .matches import AGG_MATCHES, MATCHES, MAX_MATCH_DEALS, play_match, sim_matches, trace_match
from .odds import (AGG_ODDS, ODDS, ODDS_DECLARER, ODDS_MEETJE, ODDS_POS, ODDS_POS_LEN, ODDS_POSITION, odds_one,
                   odds_tricks, sim_odds)
from .play import (auction, collect_pile, cut_and_deal, deal_from_deck, deal_hand, deal_pattern, deal_scratch,
                   fresh_deck, full_hand, play_deal, play_dealt, play_no_auction, play_tricks, refuse_pimc_seats)
from .players import (COLUMN, FL_COUNT, FL_DRAW, FL_RUFF, H_NAIVE, H_PARTNER, H_PIMC, H_RANDOM, N_PARAMS, P_ACE,
                      P_BID_PROB, P_BID_WORLDS, P_BOOM_MARGIN, P_COUNT, P_DRAW_TRUMPS, P_INFER, P_KING, P_MARGIN,
                      P_OVERCALL_PARTNER, P_PARTNER, P_PARTNER_BID, P_PARTNER_PASSED, P_QUEEN, P_RUFF,
                      P_SEVEN_MARGIN, P_SHORT, P_TRUMP_LEN, P_WORLDS, PARAMS,
                      aces_of_its_suits, best_suit, choose_card, discard, field_nonzero, fold_ranks, honour_count,
                      lead_card, lowest_per_field, opening_lead, own_tricks, partner_call, partner_credit, play_flags,
                      pop_fields4, random_call, random_card, smear_fields, sure_thirteen, thirteen_certain)
from .rules import (ABOVE, ACES, ADD13, ALL_ONES, AUCTION, BIT13, BOOM, DEALPOS, DECK, DEFENCE_LITERAL9,
                    DEFENCE_UPTO9, F1, F2, F4, F8, HEURISTIC_TRUMP, JACKS, KINGS, MAX_BIDS, MEETJE,
                    MEETJE_DEALER_LEADS, MEETJE_NAMES_ELDEST_LEADS, N_RULES, NO_BID, NO_CONTRACT, NOBODY, PACKETS_445,
                    PACKETS_544, PACKETS_4441, PASS, QUEENS, R_DEALER_8_12, R_DEFENCE, R_MATCH_DEALS,
                    R_MEETJE_SHORTFALL, R_MEETJE_TRUMP, R_PACKETS, R_SHUFFLE, R_TARGET, R_TIEBREAK_EXTRA, R_VARIANT,
                    RANKSET, REC_BIDS, REC_CONTRACT, REC_CUT, REC_DEALER, REC_DECL, REC_HANDS, REC_LEADER0, REC_LEGAL,
                    REC_LEN, REC_MADE, REC_NBIDS, REC_NTRICKS, REC_PILE, REC_SCORE, REC_TEAM, REC_TRICKS, REC_TRUMP,
                    REC_TURNUP, REC_WON, SHUFFLE_FULL, SHUFFLE_NONE, SM, SUITSET, VARIANT_AUCTION, VARIANT_NO_AUCTION,
                    beats, bitc, high, i64, legal_mask, low, pop, score_contract)
