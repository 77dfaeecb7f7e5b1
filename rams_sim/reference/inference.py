"""Inference before the play, the reference's reading (issue 35, docs/SEARCH.md "Inference").

A ``pimc`` seat with ``infer=policy`` draws each world before the play *with its history*:
the other seats' dealt hands are a layout of the unseen cards over the piles of
:func:`.pimc.what_seat_knows_before_play` (five cards each; a passer none of them an ace
where R4.1 forbids it), the free pile, shuffled, is the talon. The exchange is then replayed
seat by seat in R4.0's order up to the decision, each seat's action taken as the table saw
it -- pass or play, how many cards he exchanged, his R4.0a announcement -- and weighed by
its chance under the *model*: every other seat plays the rollout policy, which takes its
own choice with probability ``1 - floor`` and any of the ``n`` open actions with
probability ``floor / n``. Relative to the model's own choice, an action the policy would
not take has chance ``(floor / n) / (1 - floor + floor / n)``; a pass R4.1 forbids has
chance 0. The open actions: in one turn, a pass where allowed and 0 .. min(5, talon) cards;
in declare-then-buy, pass or play (play alone where a pass is forbidden), then 0 .. min(5,
talon) cards bought; "on trumps" or "on suits". A seat that exchanged ``k`` cards
discarded what the model discards: the policy's own choice on a talon of ``k`` (R4.4's
short talon), topped up with his least-kept cards (the least keep value, then the lowest
id); a ``random`` model discards ``k`` cards drawn uniformly (the j-th of the cards left in
ascending order, j from the worlds' stream), and gives every action the same chance. He
drew the next ``k`` cards of the talon. The world is kept with the product of the chances
(one uniform draw of the worlds' stream unless it is 1), else drawn again -- layout,
shuffle, replay -- at most MAX_DRAWS times; the last is kept if none was.

Shares with the kernels only the layout sampler and the streams (:class:`.pimc.Worlds`),
as the rest of the reference's search does; the model's decisions are this engine's
policies (:mod:`.policy`).
"""

from __future__ import annotations

from .. import cards as C
from ..kernels.worlds import MAX_DRAWS
from ..policies import PolicyKind
from ..record import Intent
from .exchange import PHASE_BUY, PHASE_INTENT, PHASE_ROUND, may_pass_with


def mismatch(floor: float, n_actions: int) -> float:
    """The chance of an action the policy would not take, relative to the one it takes."""
    share = floor / n_actions
    return share / (1.0 - floor + share)


def model_discards(policy, random: bool, hand: list[int], trump: int, k: int, is_dealer: bool, position: int,
                   players: int, worlds) -> list[int]:  # fmt: skip
    """The ``k`` cards a seat holding ``hand`` discards under the model (module docstring)."""
    if random:
        rest, out = sorted(hand), []
        for _ in range(k):
            card = rest[worlds.below(len(rest))]
            rest.remove(card)
            out.append(card)
        return sorted(out)
    out = list(policy.choose_discard(list(hand), trump, is_dealer, k, position, players))
    while len(out) < k:
        rest = [c for c in hand if c not in out]
        out.append(min(rest, key=lambda c: (policy.keep_value(c, hand, trump), c)))
    return sorted(out)


def _chance(took_own: bool, floor: float, n_actions: int) -> float:
    return 1.0 if took_own else mismatch(floor, n_actions)


def replay(table, seat: int, phase: int, step: int, dealt: dict[int, list[int]], free_order: list[int], worlds,
           models: list, random: bool, floor: float):  # fmt: skip
    """The exchange replayed in a world (module docstring) up to decision (``phase``, ``step``):
    returns (chance, hands, discards, drawn, the index in ``free_order`` where the talon's rest
    starts) for the other seats, whose dealt hands are ``dealt``."""
    book, n = table.book, table.n
    trump = C.suit_of(table.trump_card)
    hands = {o: list(h) for o, h in dealt.items()}
    discards = {o: [] for o in dealt}
    drawn = {o: [] for o in dealt}
    chance, pos = 1.0, 0
    talon_left = len(table.talon)

    def exchange(o: int, k: int, position: int) -> None:
        nonlocal pos
        thrown = model_discards(models[o], random, dealt[o], trump, k, o == table.dealer, position, n, worlds)
        got = free_order[pos : pos + k]
        pos += k
        discards[o], drawn[o] = thrown, sorted(got)
        hands[o] = sorted([c for c in dealt[o] if c not in thrown] + got)

    for i, o in enumerate(table.seats):  # the first round: pass or play (and in one turn the exchange)
        if not (phase > PHASE_ROUND or i < step):
            break
        k = len(table.discards[o])
        if o == seat:
            if not book.declare_then_buy:
                talon_left -= k
            continue
        may = may_pass_with(book, dealt[o], o == table.dealer, table.trump_card)
        if table.passed[o] and not may:
            chance *= 0.0
            continue
        if book.declare_then_buy:
            if not random and may:
                own = models[o].wants_pass(list(dealt[o]), trump, i, n)
                chance *= _chance(own == table.passed[o], floor, 2)
            continue
        if not random:
            n_actions = min(C.HAND_SIZE, talon_left) + 1 + (1 if may else 0)
            own_pass = may and models[o].wants_pass(list(dealt[o]), trump, i, n)
            if table.passed[o] or own_pass:
                chance *= _chance(table.passed[o] == own_pass, floor, n_actions)
            else:
                own = models[o].choose_discard(list(dealt[o]), trump, o == table.dealer, talon_left, i, n)
                chance *= _chance(len(own) == k, floor, n_actions)
        if not table.passed[o]:
            exchange(o, k, i)
            talon_left -= k
    if book.intent_round:
        for i, o in enumerate(table.seats):  # R4.0a, in order
            if not (phase > PHASE_INTENT or (phase == PHASE_INTENT and i < step - n)):
                break
            if o != seat and not table.passed[o] and not random:
                own = Intent(models[o].choose_intent(list(dealt[o]), trump))
                chance *= _chance(own == Intent(table.intent[o]), floor, 2)
    if book.declare_then_buy:
        for i, o in enumerate(table.seats):  # the purchases, in order
            if not (phase > PHASE_BUY or (phase == PHASE_BUY and i < step - 2 * n)):
                break
            if table.passed[o]:
                continue
            k = len(table.discards[o])
            if o == seat:
                talon_left -= k
                continue
            if not random:
                own = models[o].choose_discard(list(dealt[o]), trump, o == table.dealer, talon_left, i, n)
                chance *= _chance(len(own) == k, floor, min(C.HAND_SIZE, talon_left) + 1)
            exchange(o, k, i)
            talon_left -= k
    return chance, hands, discards, drawn, pos


def draw_world_with_history(table, knowledge, worlds, seat: int, phase: int, step: int, rollout: PolicyKind,
                            floor: float, with_talon: bool):  # fmt: skip
    """One world before the play drawn with its history (module docstring), as a :class:`.pimc.World`."""
    from .pimc import World
    from .policy import policy_for
    from ..policies import PolicySpec

    models = [policy_for(PolicySpec(rollout), table.key, s) for s in range(table.n)]
    random = rollout == PolicyKind.RANDOM
    for _ in range(MAX_DRAWS):
        layout = worlds.draw()
        free_order = worlds.shuffle(layout[-1])
        dealt = {pile.seat: C.cards_of(cards) for pile, cards in zip(knowledge.piles[:-1], layout)}
        chance, hands, discards, drawn, pos = replay(table, seat, phase, step, dealt, free_order, worlds, models,
                                                     random, floor)  # fmt: skip
        if chance >= 1.0 or (chance > 0.0 and worlds.uniform() < chance):
            break
    talon = list(free_order[pos : pos + table.talon_size]) if with_talon else []
    return World(hands, discards, dealt={o: sorted(h) for o, h in dealt.items()}, drawn=drawn, talon=talon)
