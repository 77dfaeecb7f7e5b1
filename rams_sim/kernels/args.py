"""The kernel boundary: :class:`RulesArgs`, the rules packed as integers and arrays.

Option codes are the positions of the values in the enums of :mod:`rams_sim.rules`
(``enum_code``); the named constants below spell them for the kernels, and a test
checks that the two agree.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .. import cards as C

# R4.0 exchange_order
ORDER_ONE_TURN, ORDER_DECLARE_THEN_BUY = 0, 1
# R5.5 jacks_count
JACKS_DEALT_OR_FINAL, JACKS_DEALT, JACKS_FINAL = 0, 1, 2
# R8.4 settle
SETTLE_REMAINING, SETTLE_STAKE = 0, 1
# R9 the game a preset plays (rules.Game)
GAME_RAMS, GAME_DUEL, GAME_MODERN, GAME_ZONE = 0, 1, 2, 3

RulesArgs = namedtuple(
    "RulesArgs",
    [
        "game",  # R9: rules.Game code (GAME_*): which deal kernel plays it
        "players",  # R2
        "deck_size",  # R2
        "exchange_order",  # R4.0 code
        "intent_round",  # R4.0a, 0/1: the "on trumps" / "on suits" announcements
        "ace_forbids_pass",  # R4.1, 0/1
        "turned_ace_binds_dealer",  # R4.1, 0/1
        "dealer_must_take",  # R4.3, 0/1
        "lone_void",  # R4.5: 1 = void-deal
        "four_aces_win",  # R5.1, 0/1
        "rams_penalizes_passers",  # R5.2, 0/1
        "jacks_count",  # R5.5 code
        "four_jacks_win",  # R9 from-15, 0/1
        "overtrump",  # R6.3, 0/1
        "must_head",  # R6.3a, 0/1
        "ace_covers_face",  # R6.7, 0/1
        "score_so_far",  # R8.2a: 1 = score-so-far, 0 = freeze
        "start",  # R8.1
        "settle",  # R8.4 code
        "max_deals",  # R8.2c
        "remiz",  # R7.2
        "suit_rams",  # R5.2
        "trump_rams",  # R5.3
        "jack_pair",  # R5.5
        "four_jacks",  # R5.5
        "ace_value",  # int64[4]: R1 ace value by suit
        "card_points",  # int64[13]: R1 points by rank (R5.4 ties)
        "deck",  # int8[deck_size]: the deck's card ids, ascending
        "deck_mask",  # uint64: the same cards as a mask
        # ---- zone (R9, docs/VARIANTS.md "zone") ----
        "zone_lead_duty",  # 0/1: the first lead by the lead duties (zone_lead=duty)
        "zone_one_trick",  # 0/1: jacks count in one trick (zone_jacks=one-trick), else among won cards
        "zone_jacks_both",  # 0/1: both players write off their pairs (zone_jacks_both=both)
        "zone_overshoot_restart",  # 0/1: going past 0 restarts at the start score (zone_overshoot=restart)
        "zone_prokat",  # the прокат, in party stakes
        # ---- duel (R9, docs/VARIANTS.md) ----
        "duel_trump_card",  # 0/1: the dealer must take the trump card (duel-trump)
        "dave",  # 0/1: dave (doubling) allowed
        "dave_max",  # the cap on the stake
        "dave_lead_only",  # 0/1: dave only on one's lead
        # ---- modern (R9, docs/VARIANTS.md) ----
        "modern_target",  # the score that wins the party, counting up
        "modern_no_pass",  # from this score a player may not pass
        "horns_from_five",  # 1: the рожки only from a score of remiz up
        "modern_pot",  # 1: settle by the pot, 0: by the missing points
    ],
)


def rules_args(rules) -> RulesArgs:
    """Pack a :class:`rams_sim.rules.Rules` into a :class:`RulesArgs`."""
    from ..rules import DealerTakesTrump, LonePlayer, ModernHorns, ModernSettle, Ruff, TruncatedDeal, enum_code, CARD_POINTS

    return RulesArgs(
        game=np.int64(enum_code(rules.game)),
        players=np.int64(rules.players),
        deck_size=np.int64(rules.deck_size),
        exchange_order=np.int64(enum_code(rules.exchange_order)),
        intent_round=np.int64(rules.intent_round),
        ace_forbids_pass=np.int64(rules.ace_forbids_pass),
        turned_ace_binds_dealer=np.int64(rules.turned_ace_binds_dealer),
        dealer_must_take=np.int64(rules.dealer_takes_trump == DealerTakesTrump.MUST),
        lone_void=np.int64(rules.lone_player == LonePlayer.VOID_DEAL),
        four_aces_win=np.int64(rules.four_aces_win),
        rams_penalizes_passers=np.int64(rules.rams_penalizes_passers),
        jacks_count=np.int64(enum_code(rules.jacks_count)),
        four_jacks_win=np.int64(rules.four_jacks_win),
        overtrump=np.int64(rules.ruff == Ruff.OVERTRUMP),
        must_head=np.int64(rules.must_head),
        ace_covers_face=np.int64(rules.ace_covers_face),
        score_so_far=np.int64(rules.truncated_deal == TruncatedDeal.SCORE_SO_FAR),
        start=np.int64(rules.start),
        settle=np.int64(enum_code(rules.settle)),
        max_deals=np.int64(rules.max_deals),
        remiz=np.int64(rules.remiz),
        suit_rams=np.int64(rules.suit_rams),
        trump_rams=np.int64(rules.trump_rams),
        jack_pair=np.int64(rules.jack_pair),
        four_jacks=np.int64(rules.four_jacks),
        ace_value=np.array(rules.ace_values, dtype=np.int64),
        card_points=np.array(CARD_POINTS, dtype=np.int64),
        deck=C.deck_cards(rules.deck_size),
        deck_mask=np.uint64(C.deck_mask(rules.deck_size)),
        zone_lead_duty=np.int64(rules.zone_lead == "duty"),
        zone_one_trick=np.int64(rules.zone_jacks == "one-trick"),
        zone_jacks_both=np.int64(rules.zone_jacks_both == "both"),
        zone_overshoot_restart=np.int64(rules.zone_overshoot == "restart"),
        zone_prokat=np.int64(rules.zone_prokat),
        duel_trump_card=np.int64(rules.duel_trump_card),
        dave=np.int64(rules.dave),
        dave_max=np.int64(rules.dave_max),
        dave_lead_only=np.int64(rules.dave_lead_only),
        modern_target=np.int64(rules.modern_target),
        modern_no_pass=np.int64(rules.modern_no_pass),
        horns_from_five=np.int64(rules.modern_horns == ModernHorns.FROM_FIVE),
        modern_pot=np.int64(rules.modern_settle == ModernSettle.POT),
    )
