"""Policies as data: a kind and a vector of numeric parameters per seat.

A policy decides three things (R4, R6): pass or play where R4.1 allows a pass, what to
discard in the exchange (and, for the dealer, whether to take the trump card and what
to give up for it, R4.3), and which legal card to play; with option ``intent_round``
(R4.0a, preset ``negotiations``) also whether to announce "on trumps" or "on suits". It
sees only what its player may know: his own cards, the trump card, the cards played, how
many cards each player exchanged and who passed, the announcements, and the declarations.

The kernels read :func:`pack_policies`' arrays; :mod:`rams_sim.reference` implements
the same decisions again in plain Python, from the descriptions below.

``random``
    Uniform over the legal choices, drawing from the seat's own stream
    (:class:`rams_sim.kernels.rng.Stream`); a draw is made only when there are two or
    more choices. Pass (where allowed): ``bounded(2) == 1``. Discard: number the
    hand's cards in ascending id order c0..c4; a discard set is a 5-bit mask m (bit j =
    cj); the choices are every m from 0 (stand) to 31 with popcount(m) <= talon size,
    in ascending m; pick the ``bounded(count)``-th. In ``one-turn`` the pass coin comes
    first and the discard draw follows only if it plays. Dealer's trump card (R4.3):
    when he may choose, take it iff ``bounded(2) == 1``; when he takes it, discard
    ``c[bounded(5)]`` of his five cards in ascending id order. Play: the legal cards in
    ascending id order, pick the ``bounded(count)``-th. Announcement (R4.0a): "on suits"
    iff ``bounded(2) == 1``, else "on trumps"; it comes after his pass coin and, in
    ``one-turn``, after his discard draw (before it in ``declare-then-buy``).

``basic``
    A sensible player who does not count cards. Parameters (defaults in
    :data:`BASIC_PARAMS`): Strength of a hand = per trump ``trump_weight``, plus
    ``high_trump_bonus`` per trump of rank >= ``high_trump_rank``, plus ``king_weight``
    per king of another suit. *Pass*, where allowed, iff strength < ``pass_threshold``
    and the dealt hand holds no same-colour jack pair (a pair makes remiz free, R7.3).
    *Discard*: (1) a rams (five of a suit) stands; (2) with ``rams_draw`` and exactly four
    of one suit: the dealer with four trumps stands (the trump card completes the rams,
    R4.3); anyone else discards the odd card if it is not an ace and the talon has a
    card; (3) otherwise keep the aces, the trumps of rank >= ``keep_trump_rank``, the
    kings of other suits if ``keep_kings``, and the jacks of a same-colour pair, and
    discard the rest; if the talon is short, discard only the talon-size cards of least
    keep value (ties: lower id first). Keep value: ace 100; trump 50 + rank; jack of a
    same-colour pair 40; other king 30 if ``keep_kings``; any other card its rank.
    *Dealer's trump card*: when forced, take it; when he may: decline with a rams; take
    it with four trumps; else take it iff its keep value exceeds the lowest keep value in
    his hand. He discards the odd card when holding four trumps, else the card of least
    keep value (ties: lower id). *Announcement* (R4.0a): "on trumps" iff the trump part of
    the strength (per trump ``trump_weight`` plus ``high_trump_bonus`` if of rank >=
    ``high_trump_rank``) is at least ``intent_threshold`` (3: two trumps with a high one, or
    three trumps), else "on suits"; every basic-like policy announces so, from the hand it
    holds at that moment (the dealt hand in ``declare-then-buy``). *Lead* (no lead duty): an ace of a plain suit (lowest
    id); else, with no trick yet, the highest trump, or failing that the highest-ranked
    card (ties: lower id); else the lowest-ranked plain card (ties: lower id), or the
    lowest trump. *Follow*: the cheapest card that wins the trick as it stands; if none
    wins, the cheapest legal card; "cheapest" orders by (trump, rank, id).

*What a counting player sees.* At his turn to play, a seat's **threats** are the cards an
opponent may hold as far as he can tell: the deck less his hand, every card played so far
(this trick included), his own discards (and the card he gave up for the trump card), and
the turned-up trump card unless another seat, the dealer, took it into his hand (R4.3).
Unknown discards, the talon and passers' hands stay among the threats. A threat *beats*
a card c if it is of c's suit and higher, or c is plain and the threat a trump. A card
is *sure* if nobody plays after it or no threat beats it. Its *risk* is (threats of its
suit above it) + ``void_weight`` x (threat trumps, when c is plain: a trump beats it
only if its holder is void in the suit); 0 if nobody plays after it.

``cautious``
    Protects its aces by securing a trick first. Basic's pass, exchange and trump-card
    rules with its own defaults (it passes more: ``pass_threshold`` 3). *Play* while it
    has no trick: among the cards that win the trick as it stands (every card on lead),
    the one of least risk (``void_weight`` 1: every trump out is a danger; ties: the
    cheapest); if none wins, the cheapest card. Once it has a trick it plays as basic.

``greedy``
    Exchanges aggressively and draws to rams. Basic's rules with other defaults (passes
    less, ``pass_threshold`` 1; keeps only trumps of queen or higher; keeps no kings),
    and *discard*: a rams stands; with ``rams_length`` (3) or more cards of one suit it
    keeps that suit (the longest; ties: trumps, then the lower suit) and its aces and
    discards the rest (on a short talon, the cards of least keep value); otherwise as
    basic. *Lead*: the highest trump, else the highest-ranked card (ties: lower id).
    *Follow*: the cheapest winning card, else the cheapest card.

``expert``
    Counts the cards. Basic's pass, exchange and trump-card rules with defaults tuned by
    ``rams-sim compare`` (``pass_threshold`` 0.5: it rarely passes; ``keep_kings`` 0: it
    draws to kings rather than keep them). *Lead*: a sure card if it has one (the
    cheapest); with no trick yet, the card of least risk (``void_weight`` 0: a plain card
    counts only the higher cards of its suit, which measured best; ties: the cheapest); else the lowest-ranked plain card (it ducks), or the lowest trump.
    *Follow*: if no card wins the trick as it stands, the cheapest card; last to play,
    the cheapest winner; else a sure winner if it has one (the cheapest); with no trick
    yet, the winner of least risk; else the cheapest winner.
    *Reading the announcements* (R4.0a; ``read_intents`` 1, 0 switches it off): when a
    seat still to play to this trick announced "on trumps", the higher trumps among the
    threats are likely in his hand, so a trump card's risk counts them ``intent_weight``
    (8) times; plain cards and every other step are unchanged. Without announcements
    (every preset but ``negotiations``) nothing changes. Measured with ``rams-sim compare
    expert expert:read_intents=0 --rules negotiations`` (docs/VARIANTS.md).

*zone* (R9 ``zone``, docs/VARIANTS.md "zone"). Every basic-like kind (basic, cautious,
greedy, expert) makes basic's zone decisions with its own parameter values; the classic
play rules above are not used there (zone has no duty to follow). Parameters, at the end
of basic's list so every kind inherits them: ``zone_swap_threshold`` (2) and
``zone_ace_weight`` (1). *Swap* (the dealer's partner only): a rams stands; else swap his
hand for the widow iff his zone strength (basic's strength plus ``zone_ace_weight`` per
plain ace) is below ``zone_swap_threshold``. *Play*: with ``s`` his score before the deal,
``got`` his tricks so far plus the jack points of his won cards as ``zone_jacks`` counts
them (``zone_jacks_both`` ignored) and ``r = s - got - A`` (A: his aces by ``ace_values``,
written off with his first trick, so counted from the start), winning the trick with card
c adds ``gain(c)`` = 1 plus the jack points the trick's cards (the led card if any, and c)
add to his won cards. ``zone_finish`` does not change the play (a stop at 0 only spares him
the ducking after it). *Follow*: the cheapest (trump, rank, id) of the cards that beat the led card
with gain <= r; if none, the cheapest card that loses; if every card wins, the least gain,
ties the cheapest. *Lead*: if r >= 1 and some legal card has gain <= r, the highest trump
among those, else the highest-ranked of those (ties: lower id); else the lowest-ranked
plain card (ties: lower id), or the lowest trump. A single legal card is simply played.
``random`` in zone: the partner swaps iff ``bounded(2) == 1`` (not drawn when branching
forces the choice); each card is the ``bounded(count)``-th legal card in ascending id
order, every card of the hand when following, no draw with one choice.
*duel* (presets ``duel`` and ``duel-trump``, docs/VARIANTS.md). Every basic-like kind
(basic, cautious, greedy, expert) decides the widow and dave alike; ``random`` flips
coins. *Widow* (the first hand, then the dealer if the first hand stood): basic-like
stands with a rams or a same-colour jack pair in hand (it wins the party at once); else
it swaps iff its **duel value** = strength + ``duel_ace_weight`` (3) x aces held is below
``duel_widow_threshold`` (5). random swaps iff ``bounded(2) == 1`` (one draw per seat
asked). *Dave*, before each card the seat may double with (the cube centred or his, the
doubled stake within ``dave_max``): the **estimate** of a seat with score s, tricks t this
deal and ace points A in its final hand, against an opponent with score s' and tricks t',
is p = clamp(0.5 + ``duel_dave_slope`` (0.1) x (need(s', t', a') - need(s, t, A)) +
``duel_dave_hand`` (0.05) x (strength of its current hand - 2), 0, 1), where need(s, t, a) =
s - t - a, at least 1 while t = 0 and at least 0 after (the tricks still needed to reach
zero). a', the opponent's aces: 0 when the seat offers from a centred cube; when it
answers or redoubles, the least value of an ace among its threats (an ace the opponent
may hold), 0 if none. basic-like offers iff p >
``duel_dave_offer`` (0.7) and accepts iff its own p > ``duel_dave_take`` (0.25). random
offers iff ``bounded(2) == 1`` from its stream, then the answerer, if random, accepts
iff ``bounded(2) == 1`` from its own; these draws come before the card's draw. In
``duel-trump`` the dealer's compulsory trump-card discard is R4.3's ``trump_discard``
(random: ``c[bounded(5)]``, no take coin).

*modern* (R9, [004] "Рамс современный", docs/VARIANTS.md). The cards are played as
above. *Redeal*, for a seat dealt five of one suit: ``random`` demands one iff
``bounded(2) == 1`` (drawn only by such a seat, while the right lasts); every other kind
demands one unless the five are trumps. *Turn* (pass, play, or take the widow blind
keeping one card): ``random``: where a pass is allowed (score below ``modern_no_pass``),
pass iff ``bounded(2) == 1``; then, if the widow is still open, take it iff
``bounded(2) == 1``, keeping ``c[bounded(5)]`` of his five cards in ascending id order;
else play on his cards. The basic-like kinds: (1) if the widow is open, the hand holds no
same-colour jack pair and its strength is below ``modern_widow_threshold`` (3.5:
anything weaker than two high trumps), take it, keeping the card of highest keep value (ties: the
lower id); (2) else, where a pass is allowed, pass as basic does (strength below
``pass_threshold``, no jack pair); (3) else play on his cards. Under
``exchange_order=declare-then-buy`` the two come apart: in the play/pass round each kind
makes its pass decision alone (random: the pass coin; the others: (2)), and when the widow
is offered to a player, its widow decision alone (random: the widow coin, then the kept
card; the others: (1)). The ``announce`` flag has no effect in modern (counting up,
reaching the target always wins at once).

``pimc`` (issue "Strong play", docs/SEARCH.md; classic Rams and the presets that only change
its options). Determinized search at every decision: ``samples`` (128) worlds of the cards
it cannot see, dealt uniformly over the layouts consistent with what it knows
(:mod:`rams_sim.kernels.knowledge`, :mod:`rams_sim.kernels.worlds`); every open option
(pass, stand and each discard set; each R4.0a announcement; as dealer, keep or take the
trump card giving up each card; each legal card) played out in every world with the
``rollout`` policy (a name: random, basic, cautious, greedy, expert; default expert, at
its default parameters) for every seat; the least total delta wins, ties the first option
(pass, stand, the discard masks ascending; keep, then the cards ascending; the lowest
card id). Its randomness is keyed by (seed, deal, seat, decision). A decision with one
open option takes it without drawing. Its other parameters are expert's, its fallback
where no world can be drawn. ``pimc:samples=32,rollout=basic`` sets both. ``infer``
(docs/SEARCH.md "Inference"): ``policy`` (the default) draws the worlds before the play
with their history, weighed by how likely the others' passes, exchanges and announcements
are if they play the rollout policy, which leaves ``floor`` (0.1) of its choices to
chance; ``play`` weighs the worlds at each card (classic's family) by that history too
(about six times slower; measured in docs/SEARCH.md); ``cards`` also by every card the
others played, each the model's card or not (issue 45); ``none`` deals them uniformly. ``race`` (docs/SEARCH.md "Racing", default 2):
every 8 worlds from the 16th, an option more than ``race`` standard errors worse than the
best so far (paired) gets no more worlds; 0 plays every option in every world.

``table`` (issue "Reports whose answers hold"; classic Rams and the presets that only change its
options). Expert at every decision but two: whether to pass (R4.1) and what to discard (R4.4)
come from a strategy table by the dealt hand's class and the seat's position
(:mod:`rams_sim.strategy_table` defines the classes, positions and actions: pass, stand,
exchange the k weakest, exchange every plain card below a king or every plain card but aces).
The package ships a table found by iterated best response on ``rams-sim branch`` data
(``make table``); ``table:file=PATH`` plays another. Its other parameters are expert's; its
table cells follow them in the parameter row (:data:`TABLE_BASE`).

*Probes* (every policy but ``pimc``, which refuses them; for replaying a deal with one
decision forced, paired by seed and deal index). ``first_card`` (default -1, off): with
j >= 0 the seat's first card of the deal (trick 0, R6.1-R6.2, whether he leads or follows)
is the j-th (0-based) of his legal cards (R6.7a) in ascending card-id order, or his
highest-id legal card if he has j or fewer; ``random`` draws nothing for it. From his
second card on, and in every other decision, he plays by his policy. In zone (R9) the
legal cards are the duty cards on the first lead, else his whole hand.
``take_trump`` (default -1: the policy decides): R4.3's choice of a playing dealer when he
may choose (``dealer_takes_trump=may``, the turned-up card not binding him): 1 takes the
trump card, 0 declines it; ``random`` then flips no coin for it. The card he gives up
when he takes it is still his policy's (random: ``c[bounded(5)]``; basic-like: the odd
card with four trumps, else his least-kept card). Where he must take it, where he passed,
or where R4.3 does not apply (zone, modern, duel), it changes nothing.

``announce`` (every policy, R8.2-R8.3): ``True`` announces reaching zero at once, which
ends the party; ``False`` never announces, so further tricks overshoot (R10.12).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from . import cards as C

MAX_POLICY_PARAMS = 32


class PolicyKind(IntEnum):
    """Built-in policy kinds; the kernels dispatch on these codes."""

    RANDOM = 0
    BASIC = 1
    CAUTIOUS = 2
    GREEDY = 3
    EXPERT = 4
    PIMC = 5
    TABLE = 6


# parameter name -> default, in the order the kernels read them (index = position)
RANDOM_PARAMS: dict[str, float] = {}
BASIC_PARAMS: dict[str, float] = {
    "pass_threshold": 2.0,
    "trump_weight": 1.0,
    "high_trump_bonus": 1.0,
    "high_trump_rank": float(C.JACK),
    "king_weight": 0.5,
    "keep_trump_rank": 0.0,
    "keep_kings": 1.0,
    "rams_draw": 1.0,
    "intent_threshold": 3.0,
    # ---- zone (R9, docs/VARIANTS.md "zone") ----
    "zone_swap_threshold": 2.0,
    "zone_ace_weight": 1.0,
    # ---- duel (R9 duel / duel-trump, docs/VARIANTS.md): the widow and dave ----
    "duel_widow_threshold": 5.0,  # swap the hand for the widow below this duel value
    "duel_ace_weight": 3.0,  # duel value of an ace (an ace and a trick win from 5)
    "duel_dave_slope": 0.1,  # win estimate per trick of need in his favour
    "duel_dave_hand": 0.05,  # win estimate per point of strength above 2
    "duel_dave_offer": 0.7,  # offer dave above this estimate
    "duel_dave_take": 0.25,  # accept an offered dave above this estimate
    # ---- modern (R9, docs/VARIANTS.md) ----
    "modern_widow_threshold": 3.5,  # take the widow with a strength below this (and no jack pair)
}
# cautious, greedy and expert share basic's parameters (same indices), with other defaults
CAUTIOUS_PARAMS: dict[str, float] = {**BASIC_PARAMS, "pass_threshold": 3.0, "void_weight": 1.0}
GREEDY_PARAMS: dict[str, float] = {
    **BASIC_PARAMS,
    "pass_threshold": 1.0,
    "keep_trump_rank": float(C.QUEEN),
    "keep_kings": 0.0,
    "rams_length": 3.0,
}
EXPERT_PARAMS: dict[str, float] = {
    **BASIC_PARAMS,
    "pass_threshold": 0.5,
    "keep_kings": 0.0,
    "void_weight": 0.0,
    "read_intents": 1.0,
    "intent_weight": 8.0,
}
# pimc (issue "Strong play", docs/SEARCH.md): determinized search for the cards; its
# other decisions are expert's, with expert's parameters (so they come first, same indices)
PIMC_PARAMS: dict[str, float] = {
    **EXPERT_PARAMS,
    "samples": 128.0,  # sampled worlds per decision (32 measured weaker: the best of 33 noisy exchange options)
    "rollout": float(PolicyKind.EXPERT),  # the policy every seat plays in the rollouts (a name: rollout=basic)
    # zone: what a прокат (money: one stake, paid for a deal without a trick) counts in the search's
    # value, in points beside the deal's delta (docs/SEARCH.md "zone"; 2,000 parties against expert,
    # the pimc seat's settlement a party: 0 -> -0.09, 10 -> +0.16, 30 -> +0.23, 60 -> +0.25, 150 -> +0.24)
    "prokat_weight": 60.0,
    # issue 35 (docs/SEARCH.md "Inference"): the worlds before the play, uniform (none, 0) or drawn with a
    # history weighed by the rollout policy (policy, 1: a name, infer=policy), which leaves ``floor`` to chance;
    # against infer=none (race=2 both) -0.26 points a deal, and 1,043 against 1,129 deals/s; play (2) weighs the
    # worlds at a card too: -0.060 +- 0.053 against policy (6,000 deals), at 168 against 1,042 deals/s
    "infer": 1.0,
    "floor": 0.1,
    # issue 35 (docs/SEARCH.md "Racing"): an option whose paired difference to the best so far exceeds this
    # many standard errors stops receiving worlds (checked every 8 worlds from 16 on); 0: every option gets all.
    # 2: 2.4 times as many deals a second as 0, +0.034 +- 0.022 points a deal (uniform worlds both)
    "race": 2.0,
}
# table (rams_sim.strategy_table): expert's decisions and parameters but the pass and the exchange
TABLE_PARAMS: dict[str, float] = dict(EXPERT_PARAMS)
TABLE_BASE = 32  # the first parameter slot of a table seat's cells (after every kind's named parameters)
# probes (every kind but pimc): one decision forced, in the last two slots of every kind's row, so a
# seat's row always holds them (-1, off, unless set); the kind's own parameters stay in their slots
PROBE_PARAMS: dict[str, float] = {
    "first_card": -1.0,  # the j-th legal card (ascending ids) as the seat's first card of the deal
    "take_trump": -1.0,  # R4.3, where the dealer may choose: 1 take the trump card, 0 decline it
}
FIRST_CARD = MAX_POLICY_PARAMS - 2
TAKE_TRUMP = MAX_POLICY_PARAMS - 1
PROBE_SLOTS = {"first_card": FIRST_CARD, "take_trump": TAKE_TRUMP}
# a branch's forced decision (rams_sim.decisions, kernels/force.py): the decision number and the option
# imposed on it, set by the branch driver on the focal seat's row alone, never by name; -1: nothing forced
FORCE_DECISION = MAX_POLICY_PARAMS - 4
FORCE_OPTION = MAX_POLICY_PARAMS - 3
NO_FORCED_DECISION = -1.0
PROBE_KINDS = tuple(k for k in PolicyKind if k != PolicyKind.PIMC)  # pimc searches every decision: refused
ROLLOUT_KINDS = (PolicyKind.RANDOM, PolicyKind.BASIC, PolicyKind.CAUTIOUS, PolicyKind.GREEDY, PolicyKind.EXPERT)
PARAMS_BY_KIND: dict[PolicyKind, dict[str, float]] = {
    PolicyKind.RANDOM: RANDOM_PARAMS,
    PolicyKind.BASIC: BASIC_PARAMS,
    PolicyKind.CAUTIOUS: CAUTIOUS_PARAMS,
    PolicyKind.GREEDY: GREEDY_PARAMS,
    PolicyKind.EXPERT: EXPERT_PARAMS,
    PolicyKind.PIMC: PIMC_PARAMS,
    PolicyKind.TABLE: TABLE_PARAMS,
}
assert MAX_POLICY_PARAMS == TABLE_BASE and max(map(len, PARAMS_BY_KIND.values())) <= FORCE_DECISION
# index of each basic parameter, for the kernels and the reference engine
B_PASS_THRESHOLD, B_TRUMP_WEIGHT, B_HIGH_TRUMP_BONUS, B_HIGH_TRUMP_RANK = 0, 1, 2, 3
B_KING_WEIGHT, B_KEEP_TRUMP_RANK, B_KEEP_KINGS, B_RAMS_DRAW = 4, 5, 6, 7
B_INTENT_THRESHOLD = 8  # R4.0a: announce "on trumps" from this trump strength up
# the kind-specific parameters follow basic's (whose list the games of R9 extend), so their
# indices are looked up rather than written out
G_RAMS_LENGTH = list(GREEDY_PARAMS).index("rams_length")  # greedy: keep a suit this long to draw to a rams
X_VOID_WEIGHT = list(EXPERT_PARAMS).index("void_weight")  # cautious, expert: weight of a trump threat against a plain card
X_READ_INTENTS = list(EXPERT_PARAMS).index("read_intents")  # expert: read the others' R4.0a announcements (0 = ignore them)
X_INTENT_WEIGHT = list(EXPERT_PARAMS).index("intent_weight")  # expert: weight of the higher trumps against a trump card when a seat to play said "on trumps"
assert list(CAUTIOUS_PARAMS).index("void_weight") == X_VOID_WEIGHT
# ---- zone (R9): basic's zone decisions (docs/VARIANTS.md "zone")
Z_SWAP_THRESHOLD = list(BASIC_PARAMS).index("zone_swap_threshold")  # the partner swaps below this zone strength
Z_ACE_WEIGHT = list(BASIC_PARAMS).index("zone_ace_weight")  # zone strength of a plain ace
# duel (docs/VARIANTS.md): every basic-like kind reads these
DUEL_WIDOW_THRESHOLD = list(BASIC_PARAMS).index("duel_widow_threshold")
DUEL_ACE_WEIGHT = list(BASIC_PARAMS).index("duel_ace_weight")
DUEL_DAVE_SLOPE = list(BASIC_PARAMS).index("duel_dave_slope")
DUEL_DAVE_HAND = list(BASIC_PARAMS).index("duel_dave_hand")
DUEL_DAVE_OFFER = list(BASIC_PARAMS).index("duel_dave_offer")
DUEL_DAVE_TAKE = list(BASIC_PARAMS).index("duel_dave_take")
M_WIDOW_THRESHOLD = list(BASIC_PARAMS).index("modern_widow_threshold")  # R9 modern: take the widow below this strength
P_SAMPLES = list(PIMC_PARAMS).index("samples")  # pimc: worlds per decision
P_ROLLOUT = list(PIMC_PARAMS).index("rollout")  # pimc: the rollout policy's kind code
P_PROKAT_WEIGHT = list(PIMC_PARAMS).index("prokat_weight")  # pimc in zone: points a прокат counts
P_INFER = list(PIMC_PARAMS).index("infer")  # pimc: the worlds' inference (kernels.inference.INFER_*)
P_FLOOR = list(PIMC_PARAMS).index("floor")  # pimc: the model's floor (kernels.inference)
P_RACE = list(PIMC_PARAMS).index("race")  # pimc: racing's threshold in standard errors (0: off)
INFER_SWEEPS = 1  # infer=policy: Gibbs sweeps over the acted seats' hands after the first pass (kernels/inference.py)
RACE_BATCH = 8  # pimc's racing: the options race every this many worlds ...
RACE_MIN = 16  # ... from this many on
INFER_NAMES = ("none", "policy", "play", "cards")  # pimc's infer=NAME, by code (kernels.inference.INFER_NONE .. INFER_CARDS)
DEFAULT_INFER = INFER_NAMES[int(PIMC_PARAMS["infer"])]  # advise's --infer: pimc's own default
DEFAULT_FLOOR = PIMC_PARAMS["floor"]  # advise's --floor: pimc's own default
MAX_SAMPLES = 100_000


def parameter_names(kind: PolicyKind) -> list[str]:
    """Every parameter ``kind`` accepts by name: its own, then the probes (pimc: none)."""
    return list(PARAMS_BY_KIND[kind]) + (list(PROBE_PARAMS) if kind in PROBE_KINDS else [])


def default_params() -> np.ndarray:
    """Every kind's default parameter vector: float64[len(PolicyKind), MAX_POLICY_PARAMS] (the rollouts' players)."""
    return np.stack([param_vector(kind, {}) for kind in PolicyKind])


def param_vector(kind: PolicyKind, params: dict[str, float]) -> np.ndarray:
    """A kind's parameters in kernel order, ``params`` over its defaults: float64[MAX_POLICY_PARAMS]
    (:meth:`PolicySpec.vector`; no validation, so the defaults need no table file read)."""
    out = np.zeros(MAX_POLICY_PARAMS, dtype=np.float64)
    for i, (name, default) in enumerate(PARAMS_BY_KIND[kind].items()):
        out[i] = float(params.get(name, default))
    for name, default in PROBE_PARAMS.items():
        out[PROBE_SLOTS[name]] = float(params.get(name, default))
    out[FORCE_DECISION] = out[FORCE_OPTION] = NO_FORCED_DECISION
    return out


@dataclass(frozen=True, slots=True)
class PolicySpec:
    """One seat's policy: a kind, parameter overrides and the announce flag.

    >>> PolicySpec.parse("basic:pass_threshold=1.5").params["pass_threshold"]
    1.5
    """

    kind: PolicyKind = PolicyKind.BASIC
    params: dict[str, float] = field(default_factory=dict)
    announce: bool = True
    table: str = ""  # table only: the strategy table's file, "" = the package's own (rams_sim.strategy_table)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", PolicyKind(self.kind))
        known = parameter_names(self.kind)
        for name, value in self.params.items():
            if name not in known:
                if name in PROBE_PARAMS:
                    raise ValueError(f"policy {self.name} has no parameter {name!r}: it searches that decision")
                valid = ", ".join(known) or "none"
                raise ValueError(f"policy {self.name} has no parameter {name!r}; its parameters: {valid}")
            if not np.isfinite(float(value)):
                raise ValueError(f"policy parameter {name} must be a finite number; got {value!r}")
        first = self.params.get("first_card", PROBE_PARAMS["first_card"])
        if first != int(first) or first < -1:
            raise ValueError(f"policy parameter first_card must be -1 (off) or a whole number from 0; got {first:g}")
        take = self.params.get("take_trump", PROBE_PARAMS["take_trump"])
        if take not in (-1.0, 0.0, 1.0):
            raise ValueError(f"policy parameter take_trump must be -1 (the policy decides), 0 or 1; got {take:g}")
        if self.table and self.kind != PolicyKind.TABLE:
            raise ValueError(f"policy {self.name} has no parameter 'file'; only table reads a strategy table file")
        if self.kind == PolicyKind.TABLE:
            self.strategy()  # a table that cannot be read is refused here, in one line
        if self.kind == PolicyKind.PIMC:
            samples = self.params.get("samples", PIMC_PARAMS["samples"])
            if samples != int(samples) or not 1 <= samples <= MAX_SAMPLES:
                raise ValueError(f"pimc samples must be a whole number from 1 to {MAX_SAMPLES:,}; got {samples:g}")
            rollout = self.params.get("rollout", PIMC_PARAMS["rollout"])
            if rollout not in [float(k) for k in ROLLOUT_KINDS]:
                valid = ", ".join(k.name.lower() for k in ROLLOUT_KINDS)
                raise ValueError(f"pimc rollout must be one of {valid}; got {rollout!r}")
            infer = self.params.get("infer", PIMC_PARAMS["infer"])
            if infer not in range(len(INFER_NAMES)):
                raise ValueError(f"pimc infer must be one of {', '.join(INFER_NAMES)}; got {infer!r}")
            race = self.params.get("race", PIMC_PARAMS["race"])
            if race < 0:
                raise ValueError(f"pimc race must be 0 (off) or a number of standard errors above 0; got {race:g}")
            floor = self.params.get("floor", PIMC_PARAMS["floor"])
            if not 0.0 < floor <= 1.0:
                raise ValueError(f"pimc floor must be a share above 0 and at most 1; got {floor:g}")
            weight = self.params.get("prokat_weight", PIMC_PARAMS["prokat_weight"])
            if weight != int(weight) or weight < 0:
                raise ValueError(f"pimc prokat_weight must be a whole number of points, 0 or more; got {weight:g}")

    @property
    def name(self) -> str:
        """The policy's name, e.g. ``"basic"``."""
        return self.kind.name.lower()

    def strategy(self):
        """table only: the loaded :class:`rams_sim.strategy_table.StrategyTable` (raises ValueError)."""
        from .strategy_table import SHIPPED_NAME, load

        return load(self.table or SHIPPED_NAME)

    def vector(self) -> np.ndarray:
        """The parameters in kernel order, defaults filled in: float64[MAX_POLICY_PARAMS]."""
        return param_vector(self.kind, self.params)

    def to_dict(self) -> dict:
        """JSON-ready description with every parameter, for provenance."""
        full = dict(zip(PARAMS_BY_KIND[self.kind], self.vector().tolist()))
        full.update({name: float(self.params[name]) for name in PROBE_PARAMS if name in self.params})  # only if set
        out = {"policy": self.name, "params": full, "announce": self.announce}
        if self.kind == PolicyKind.TABLE:
            table = self.strategy()
            out["table"] = {"file": table.name, "sha256": table.sha256}
        return out

    def __str__(self) -> str:
        names = {"rollout": lambda v: PolicyKind(int(v)).name.lower(), "infer": lambda v: INFER_NAMES[int(v)]}
        extra = [f"{k}={names[k](v)}" if k in names else f"{k}={v:g}" for k, v in self.params.items()]
        if self.table:
            extra.append(f"file={self.table}")
        if not self.announce:
            extra.append("announce=false")
        return self.name + (":" + ",".join(extra) if extra else "")

    @classmethod
    def parse(cls, text: str) -> PolicySpec:
        """Parse ``NAME[:KEY=VALUE,...]``, e.g. ``basic:pass_threshold=1.5,announce=false``."""
        name, _, rest = text.strip().partition(":")
        try:
            kind = PolicyKind[name.strip().upper()]
        except KeyError:
            valid = ", ".join(k.name.lower() for k in PolicyKind)
            raise ValueError(f"unknown policy {name.strip()!r}; known policies: {valid}") from None
        params: dict[str, float] = {}
        announce = True
        table = ""
        for item in filter(None, (s.strip() for s in re.split(r",", rest))):
            key, sep, value = item.partition("=")
            key = key.strip()
            if not sep:
                raise ValueError(f"policy parameter {item!r} must be KEY=VALUE")
            if key == "announce":
                if value.lower() not in ("true", "false", "1", "0", "always", "never"):
                    raise ValueError(f"announce must be true or false; got {value!r}")
                announce = value.lower() in ("true", "1", "always")
                continue
            if key == "file":  # table: a strategy table file
                if kind != PolicyKind.TABLE:
                    raise ValueError(f"policy {kind.name.lower()} has no parameter 'file'; only table reads a file")
                table = value.strip()
                continue
            if key == "infer" and kind == PolicyKind.PIMC:  # a name
                if value.strip().lower() not in INFER_NAMES:
                    raise ValueError(f"pimc infer must be one of {', '.join(INFER_NAMES)}; got {value.strip()!r}")
                params[key] = float(INFER_NAMES.index(value.strip().lower()))
                continue
            if key == "rollout" and kind == PolicyKind.PIMC:  # a policy name
                try:
                    params[key] = float(PolicyKind[value.strip().upper()])
                except KeyError:
                    valid = ", ".join(k.name.lower() for k in ROLLOUT_KINDS)
                    raise ValueError(f"pimc rollout must be one of {valid}; got {value.strip()!r}") from None
                continue
            try:
                params[key] = float(value)
            except ValueError:
                raise ValueError(f"policy parameter {key} must be a number; got {value!r}") from None
        return cls(kind, params, announce, table)


def as_spec(policy: PolicySpec | str) -> PolicySpec:
    """Accept a :class:`PolicySpec` or its text form."""
    return policy if isinstance(policy, PolicySpec) else PolicySpec.parse(policy)


def seat_policies(policies, players: int) -> list[PolicySpec]:
    """Expand one policy, or one per seat, into a list of ``players`` specs."""
    if isinstance(policies, (PolicySpec, str)):
        return [as_spec(policies)] * players
    specs = [as_spec(p) for p in policies]
    if len(specs) != players:
        raise ValueError(f"{len(specs)} policies given for {players} seats")
    return specs


def pack_policies(specs: list[PolicySpec]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pack per-seat policies for the kernels.

    Returns ``kinds`` int8[n_seats], ``params`` float64[n_seats, P] and ``announce``
    int8[n_seats]. P is MAX_POLICY_PARAMS, or with a ``table`` seat TABLE_BASE + n_seats x
    N_CLASSES: its strategy table's cells for this table size follow the named parameters
    (raises ValueError if the table has no rows for ``n_seats`` players).
    """
    kinds = np.array([int(s.kind) for s in specs], dtype=np.int8)
    params = np.stack([s.vector() for s in specs]) if specs else np.zeros((0, MAX_POLICY_PARAMS))
    tables = [i for i, s in enumerate(specs) if s.kind == PolicyKind.TABLE]
    if tables:
        cells = {i: specs[i].strategy().cells(len(specs)) for i in tables}
        width = TABLE_BASE + len(next(iter(cells.values())))
        wide = np.zeros((len(specs), width), np.float64)
        wide[:, :MAX_POLICY_PARAMS] = params
        for i, row in cells.items():
            wide[i, TABLE_BASE:] = row
        params = wide
    announce = np.array([int(s.announce) for s in specs], dtype=np.int8)
    return kinds, params, announce


def check_table_game(rules, specs) -> None:
    """Refuse ``table`` seats in a game whose exchange is not classic Rams' (R9 duel, modern,
    zone: their turns have no pass-and-exchange round to look up), or whose table has no rows
    for this table size; raises ValueError."""
    from .games import GAMES

    tables = [s for s in specs if s.kind == PolicyKind.TABLE]
    if tables and not GAMES[rules.game].r4_exchange:
        raise ValueError(f"policy table plays classic Rams' pass and exchange (R4); preset {rules.preset} plays the "
                         f"{rules.game.value} game")  # fmt: skip
    for spec in tables:
        spec.strategy().cells(rules.players)
