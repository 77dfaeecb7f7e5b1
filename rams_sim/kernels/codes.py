"""Every integer code the kernels read or write, named once.

* Status codes of a deal (what the drivers report) and the forced-option codes of ``branch``.
* Option codes: the kernels' view of an enum option of :class:`rams_sim.rules.Rules` is
  its position in the enum (:func:`rams_sim.rules.enum_code`); the names below are
  computed from the enums, so the two can never disagree.
* Record codes (:mod:`rams_sim.record`): declarations, outcomes, end kinds, announcements.
"""

from __future__ import annotations

from ..cards import MAX_SEATS
from ..record import Declaration, EndKind, Intent, Outcome
from ..rules import (
    DealerTakesTrump,
    DuelJacksBoth,
    ExchangeOrder,
    JacksCount,
    LonePlayer,
    ModernHorns,
    ModernSettle,
    Ruff,
    Settle,
    TruncatedDeal,
    ZoneFinish,
    ZoneJacks,
    ZoneJacksBoth,
    ZoneLead,
    ZoneOvershoot,
    enum_code,
)

# ---- status of a deal -----------------------------------------------------------------
OK = 0
ERR_DISCARD = 1  # R4.4: more discards than the talon holds, or cards not held
ERR_TRUMP_DISCARD = 2  # R4.3: the dealer gave up a card he does not hold
ERR_CARD = 3  # R6.8: an illegal card
UNAVAILABLE = 4  # a forced option (branching) the rules do not open to the seat at that decision

# ---- forced options (``rams-sim branch``) ---------------------------------------------------
NO_FORCE = -1  # forced_seat when every seat follows its policy
EXCHANGE_DECISION = -1  # play_branches' decision: the game's first decision (the exchange, swap, turn, widow)
OPTION_PASS = -1  # forced options: -1 pass; 0 stand; 1..31 discard mask over the dealt cards (ascending ids)
N_OPTIONS = 33  # pass, stand and the 31 non-empty discard masks
NO_OPTION = -100  # no decision imposed (a searched decision, or a resumed deal's first one, imposes one)
DECLINE = -1  # R4.3 option: the dealer keeps his hand (else the card he gives up)
# the steps of a classic deal before the declarations, for resuming it (kernels/pimc.py): step k,
# 0 <= k < 3n, is seat (dealer + 1 + k % n)'s turn in phase k // n; then the dealer's R4.3 card
PHASE_ROUND, PHASE_INTENT, PHASE_BUY, PHASE_TRUMP = 0, 1, 2, 3
# decision numbers: a seat's decisions, numbered as the search keys its streams and as a branch
# forces one (rams_sim.decisions names them): the phases above before the play (PHASE_TRUMP is also
# duel-trump's card), modern's redeal question, 8 + t for the card of trick t; a dave choice is numbered
# past every seat's own (kernels/games/duel.py: dave_decision)
REDEAL_DECISION = 4  # R9 modern: keep the cards (0) or demand a redeal (1)
CARD_DECISION = 8
DECISIONS = 16  # decision numbers per seat
DAVE_DECISION = MAX_SEATS * DECISIONS  # dave decisions are numbered from here, past every seat's own

# ---- option codes (positions in the rules' enums) ----------------------------------------
ORDER_DECLARE_THEN_BUY = enum_code(ExchangeOrder.DECLARE_THEN_BUY)  # R4.0
TAKE_MUST = enum_code(DealerTakesTrump.MUST)  # R4.3
LONE_VOID_DEAL = enum_code(LonePlayer.VOID_DEAL)  # R4.5
JACKS_DEALT, JACKS_FINAL = enum_code(JacksCount.DEALT), enum_code(JacksCount.FINAL)  # R5.5
RUFF_OVERTRUMP = enum_code(Ruff.OVERTRUMP)  # R6.3
SCORE_SO_FAR = enum_code(TruncatedDeal.SCORE_SO_FAR)  # R8.2a
SETTLE_STAKE = enum_code(Settle.STAKE)  # R8.4
ZONE_LEAD_DUTY = enum_code(ZoneLead.DUTY)  # R9 zone
ZONE_ONE_TRICK = enum_code(ZoneJacks.ONE_TRICK)
ZONE_JACKS_BOTH = enum_code(ZoneJacksBoth.BOTH)
ZONE_RESTART = enum_code(ZoneOvershoot.RESTART)
ZONE_AT_TRICK = enum_code(ZoneFinish.TRICK)
DUEL_TRUMP_JACK = enum_code(DuelJacksBoth.TRUMP_JACK)  # R9 duel
HORNS_FROM_FIVE = enum_code(ModernHorns.FROM_FIVE)  # R9 modern
MODERN_POT = enum_code(ModernSettle.POT)

# ---- record codes -------------------------------------------------------------------------
D_NONE = int(Declaration.NONE)
D_JACK_PAIR = int(Declaration.JACK_PAIR)
D_FOUR_JACKS = int(Declaration.FOUR_JACKS)
D_SUIT_RAMS = int(Declaration.SUIT_RAMS)
D_TRUMP_RAMS = int(Declaration.TRUMP_RAMS)
D_FOUR_ACES = int(Declaration.FOUR_ACES)
D_RAMS_OUTRANKED = int(Declaration.RAMS_OUTRANKED)
D_JACKS_VOID = int(Declaration.JACKS_VOID)

O_PLAYED, O_LONE, O_NOBODY = int(Outcome.PLAYED), int(Outcome.LONE), int(Outcome.NOBODY)
O_RAMS, O_FOUR_ACES, O_JACKS_END = int(Outcome.RAMS), int(Outcome.FOUR_ACES), int(Outcome.JACKS_END)
O_VOID, O_FOUR_JACKS = int(Outcome.VOID), int(Outcome.FOUR_JACKS)

E_NONE, E_FOUR_ACES, E_RAMS, E_JACKS = int(EndKind.NONE), int(EndKind.FOUR_ACES), int(EndKind.RAMS), int(EndKind.JACKS)
E_TRICK, E_DEAL_END, E_UNFINISHED = int(EndKind.TRICK), int(EndKind.DEAL_END), int(EndKind.UNFINISHED)
E_FOUR_JACKS, E_DECLINED, E_TARGET = int(EndKind.FOUR_JACKS), int(EndKind.DECLINED), int(EndKind.TARGET)

NO_INTENT = int(Intent.NONE)  # R4.0a: no announcement
INTENT_TRUMPS, INTENT_SUITS = int(Intent.ON_TRUMPS), int(Intent.ON_SUITS)
