"""The reference engine's view of the rules: :class:`RuleBook`, looked up once per rule set.

The kernels' counterpart is ``rams_sim/kernels/args.py``. A few options are spelled here as
the yes/no questions the steps ask (``book.overtrump`` for ``ruff=overtrump``); every other
option is read under its own name, forwarded to :class:`rams_sim.rules.Rules`, so a new
option needs no line here.
"""

from __future__ import annotations

from functools import lru_cache

from .. import cards as C
from ..rules import DealerTakesTrump, ExchangeOrder, LonePlayer, Ruff, Rules, Settle, TruncatedDeal


class RuleBook:
    """The values a deal needs from :class:`Rules`, looked up once per rule set.

    Any option not spelled below is read from the rules under its own name (``__getattr__``);
    the options of the R9 games (``zone_*``, ``duel_*``, ``dave*``, ``modern_*``) are read
    from ``book.rules`` by the game modules themselves.
    """

    def __init__(self, rules: Rules):
        self.rules = rules
        self.players = rules.players
        self.deck_size = rules.deck_size
        self.deck_array = C.deck_cards(rules.deck_size)  # int8, ascending ids
        self.deck = sorted(int(c) for c in self.deck_array)
        self.declare_then_buy = rules.exchange_order == ExchangeOrder.DECLARE_THEN_BUY  # R4.0
        self.intent_round = rules.intent_round  # R4.0a: "on trumps" / "on suits" once all said play or pass
        self.ace_forbids_pass = rules.ace_forbids_pass  # R4.1
        self.turned_ace_binds_dealer = rules.turned_ace_binds_dealer  # R4.1
        self.dealer_must_take = rules.dealer_takes_trump == DealerTakesTrump.MUST  # R4.3
        self.lone_void = rules.lone_player == LonePlayer.VOID_DEAL  # R4.5
        self.four_aces_win = rules.four_aces_win  # R5.1
        self.rams_penalizes_passers = rules.rams_penalizes_passers  # R5.2
        self.jacks_count = rules.jacks_count  # R5.5
        self.four_jacks_win = rules.four_jacks_win  # R9 from-15
        self.overtrump = rules.ruff == Ruff.OVERTRUMP  # R6.3
        self.must_head = rules.must_head  # R6.3a
        self.ace_covers_face = rules.ace_covers_face  # R6.7
        self.score_so_far = rules.truncated_deal == TruncatedDeal.SCORE_SO_FAR  # R8.2a
        self.start = rules.start  # R8.1
        self.settle_stake = rules.settle == Settle.STAKE  # R8.4
        self.max_deals = rules.max_deals  # R8.2c
        self.ace_values = tuple(rules.ace_values)  # R1/R7, by suit
        self.remiz = rules.remiz  # R7.2
        self.suit_rams = rules.suit_rams  # R5.2
        self.trump_rams = rules.trump_rams  # R5.3
        self.jack_pair = rules.jack_pair  # R5.5
        self.four_jacks = rules.four_jacks  # R5.5


    def __getattr__(self, name: str):
        """Every other option, as the rules hold it (only called for names not set above)."""
        if name == "rules":
            raise AttributeError(name)
        return getattr(self.rules, name)


@lru_cache(maxsize=64)
def rule_book(rules: Rules) -> RuleBook:
    """Return the (cached) :class:`RuleBook` of a rule set."""
    return RuleBook(rules)
