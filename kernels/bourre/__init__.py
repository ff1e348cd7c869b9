"""Bourre kernels (RULES.md section 3), one module per phase, read in the order of a deal:

- ``rules``: the rule flags ``R_*``, the deal record ``REC_*``, card masks, the cinch, the legal plays;
- ``players``: the heuristic codes ``H_*``, the declaration of their parameters (``PARAMS``, columns ``P_*``),
  every heuristic decision and the expected-value player's table;
- ``draw``: dealing, the play/pass and discard declarations, the draw;
- ``solver``: the open-hand solver (what one seat can guarantee against all the others);
- ``pimc``: the sampling player (card play and, optionally, play/pass and discards);
- ``play``: one deal (``play_dealt``), its settlement and the antes of the next;
- batch entry points: ``sessions`` (sessions, traces, the reduction of a block), ``odds`` (one hand under
  the heuristics), ``odds_play`` (one hand under the heuristics, open-hand play and the sampling player),
  ``duplicate``, ``ev_train`` (the ev player's training), ``tail`` (the tail law and splitting).

The package re-exports the names of the phase modules the analysis reads as ``K.<name>``
(``from tricksim.kernels import bourre as K``); the solver, the sampling player and ``odds_play`` are
imported by their own paths (``from tricksim.kernels.bourre import solver as S``).
"""

from ..cards import DECK52, SUIT_MASK, U0, U1, highest, lowest, nth_card, popcount
from ..rng import below, seed_state, uniform
from ..tally import add_outer, add_sum_outer
from .draw import (DECK_IDS, basic_decision_call, deal_fresh, declare, declare_call, discard_and_draw, draw_declared,
                   draw_declared_call, must_play, seat_order, serve)
from .duplicate import sim_duplicate
from .ev_train import ET_CELLS, ET_CHANGED, ET_DECISIONS, EV_TRAIN, ev_outcome, sim_ev_train
from .odds import (OC_CELLS, OC_CHIPS, ODDS_CATS, ODDS_CELLS, ODDS_CHOICE, ODDS_STRIDE, deal_around, odds_outcome,
                   odds_playout, sim_odds)
from .play import add_net, next_deal, play_dealt, post_antes, refuse_ev_without_table, refuse_pimc_seats, settle
from .players import (COLUMN, EV_BOU, EV_CELLS, EV_DEC, EV_LEN, EV_NA, EV_NK, EV_NKC, EV_NNP, EV_NO, EV_NPOS,
                      EV_NPOT, EV_NT, EV_NTT, EV_PLAYED, EV_SAMP, EV_STATS, EV_TIE, EV_W, EV_WIN, H_BASIC, H_CINCH,
                      H_EV, H_PIMC, H_RANDOM, N_PARAMS, P_ACE_WEIGHT, P_ANTE_MULT, P_BOURRE_GUARD, P_DECIDE,
                      P_DECLARED_WEIGHT, P_DRAW, P_DRAW_WEIGHT, P_DRAW_Z, P_EVAL, P_KEEP_KINGS, P_KING_WEIGHT,
                      P_LONO_PROB, P_LONO_RANK, P_PLAY_PROB, P_POSITION_WEIGHT, P_POT_WEIGHT, P_RACE, P_SURE_WEIGHT,
                      P_THRESHOLD, P_TRUMP_RANK_WEIGHT, P_TRUMP_WEIGHT, P_WORLDS, PARAMS, choose_ante, choose_card,
                      choose_discard, choose_lono, choose_play, decide, decide_ev, decide_heuristic, estimate, ev_best,
                      ev_cell, ev_discard, ev_gain, ev_gain_var, ev_kept_class, strongest_card)
from .rules import (ACES, ALLPASS_CARRY, ALLPASS_DEALER_WINS, CINCH_AKQ, CINCH_HOYLE, CINCH_NONE, CINCH_PAGAT, HIGH4,
                    IW_LEN, KINGS, KNOW_HOLDER, KNOW_OMNISCIENT, LONO_MAX_RANK, LOW01, LOW23, MAXP, N_RULES, NO_SEAT,
                    OUT_CARRY, OUT_LONE, OUT_TIE, OUT_WIN, OVF, QKA, R_ALL_PASS, R_ANTE, R_CINCH_KNOWLEDGE,
                    R_CINCH_LAST_EXEMPT, R_CINCH_RULE, R_DEALER_ANTES_ALL, R_DEALER_SETS_ANTE, R_DECLARE_THEN_DRAW,
                    R_DOUBLE_ANTE, R_LO_NO, R_MAX_DISCARD, R_MAX_DISCARD_7PLUS, R_MUST_HEAD, R_MUST_OVERTRUMP,
                    R_MUST_TRUMP, R_PENALTY, R_POT_LIMIT, R_RESHUFFLE, R_TIE, R_TRUMP_CARD,
                    R_TRUMP_EVEN_IF_CANNOT_WIN, R_VOID_HIGHEST_TRUMP, RANK_FIELD, REC_ACTIVE, REC_ANTE2, REC_ANTE_AMT,
                    REC_ANTES, REC_BOURRE, REC_BPAID, REC_CINCH, REC_DEAL, REC_DEAL_IDX, REC_DEALER, REC_DEC,
                    REC_EXEMPT, REC_HANDS, REC_INMASK, REC_LEGAL, REC_LEN, REC_LONO, REC_N, REC_NACTIVE, REC_NDEC,
                    REC_NRESHUF, REC_NTRICKS, REC_OUTCOME, REC_OVERFLOW, REC_POT_AFTER, REC_POT_BEFORE, REC_POT_STAKE,
                    REC_POT_WON, REC_SCORE, REC_SESSION, REC_TIED, REC_TRICKS, REC_TRUMP, REC_UP_OUT, REC_UPCARD,
                    REC_WINNER, REC_WON, RESHUF_PAGAT, RESHUF_WP, TIE_CARRY, TIE_DIVIDE, TIE_TIED_ONLY,
                    TRUMP_DEALER_FIFTH, TRUMP_SEPARATE, UW_LEN, above_in_suit, beats, below_in_suit, better_in_suit,
                    bitc, cinch_equiv, cinch_matching, cinch_O, draw_card, equivalent_top, fill_pool, fold_ranks,
                    legal_follow, legal_play, max_discard, max_rank_card, min_rank_card, sure_tricks, tmask)
from .sessions import (BIN_OVF, DOWN_MULT, MI_DEALS, MI_OK, MI_OVERFLOWED, MI_OVF_DEAL, MI_SESSIONS, MI_VIOLATIONS,
                       MISC, NB, PASS_MULT, POT_FIELDS, S_ACTIVE, S_BOURRE, S_CONS, S_DEALS, S_ENDPOT, S_LEN,
                       S_MAXPOT, S_NET, S_OUT, S_OVF, S_OVF_DEAL, S_PASS10, S_PASS100, S_PASS1000, S_SBOU, S_SPLAY,
                       S_SWIN, SE_BOURRES, SE_DOWN, SE_NET_HI, SE_NET_LO, SE_PLAYED, SE_WINS, SEAT, SEAT_LEN,
                       play_session, pot_bin, pot_layout, reduce_sessions, session_deal, session_scratch,
                       session_start, sim_sessions, trace_sessions)
from .tail import (SP_CAPPED, SP_DEALS, SP_LEN, SP_PARTICLES, SP_VIOL, SPLIT_TAG, TAIL, TAIL_A_GROWS, TAIL_BANDS,
                   TAIL_LEN, TAIL_NA, TAIL_NBAND, TAIL_NBB, TAIL_O_AB, TAIL_O_BAND, TAIL_O_CROSS, TAIL_O_HIST,
                   TAIL_O_OVERFLOWED, TAIL_O_SESSIONS, sim_tail, split_sessions, tail_a)
