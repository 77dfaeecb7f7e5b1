"""Inference before the play, the reference's reading (issue 35, docs/SEARCH.md "Inference").

A ``pimc`` seat with ``infer=policy`` draws each world before the play *with its history*.
Each other seat whose action the table saw is dealt five cards from those the searching seat
has not seen (drawn one by one, each the j-th of those left in ascending order, j uniform
from the worlds' stream), and the hand is kept with the chance of what he was seen to do --
pass or play, how many cards he exchanged, his R4.0a announcement -- under the *model*,
else drawn again (at most MAX_DRAWS times; the last draw is kept): every other seat plays
the rollout policy, which takes its own choice with probability ``1 - floor`` and any of
the ``n`` open actions with probability ``floor / n``. Relative to the model's own choice,
an action the policy would not take has chance ``(floor / n) / (1 - floor + floor / n)``;
a pass R4.1 forbids has chance 0. The open actions: in one turn, a pass where allowed and
0 .. min(5, talon) cards (the talon when he exchanged: what the seats before him left);
in declare-then-buy, pass or play (play alone where a pass is forbidden), then 0 .. min(5,
talon) cards bought; "on trumps" or "on suits". The seats are dealt in R4.0's order, each
from the cards the others dealt so far left, then once more each (INFER_SWEEPS) from the
cards the others' hands leave (Gibbs sampling). The seats still to act get five cards
each. Then the exchange in order: a seat that exchanged ``k`` cards discarded what the
model discards -- the policy's own choice on a talon of ``k`` (R4.4's short talon), topped
up with his least-kept cards (the least keep value, then the lowest id); a ``random`` model
throws ``k`` cards drawn uniformly and gives every action the same chance -- and drew ``k``
of the cards left; the rest, shuffled, is the talon.

Shares with the kernels only the random streams (:class:`.pimc.Worlds`), as the rest of the
reference's search does; the model's decisions are this engine's policies (:mod:`.policy`).
"""

from __future__ import annotations

from .. import cards as C
from ..kernels.worlds import MAX_DRAWS
from ..policies import INFER_SWEEPS, PolicyKind
from ..record import Intent
from .exchange import PHASE_BUY, PHASE_INTENT, PHASE_ROUND, PHASE_TRUMP, may_pass_with, must_take_trump


def mismatch(floor: float, n_actions: int) -> float:
    """The chance of an action the policy would not take, relative to the one it takes."""
    share = floor / n_actions
    return share / (1.0 - floor + share)


def draw_cards(pool: list[int], count: int, worlds) -> list[int]:
    """``count`` cards drawn from ``pool`` (ascending) one by one, each the j-th of those left, j
    uniform from the worlds' stream; they leave ``pool``."""
    out = []
    for _ in range(count):
        card = pool[worlds.below(len(pool))]
        pool.remove(card)
        out.append(card)
    return sorted(out)


def model_discards(policy, random: bool, hand: list[int], trump: int, k: int, is_dealer: bool, position: int,
                   players: int, worlds) -> list[int]:  # fmt: skip
    """The ``k`` cards a seat holding ``hand`` discards under the model (module docstring)."""
    if random:
        return draw_cards(sorted(hand), k, worlds)
    out = list(policy.choose_discard(list(hand), trump, is_dealer, k, position, players))
    while len(out) < k:
        rest = [c for c in hand if c not in out]
        out.append(min(rest, key=lambda c: (policy.keep_value(c, hand, trump), c)))
    return sorted(out)


def _chance(took_own: bool, floor: float, n_actions: int) -> float:
    return 1.0 if took_own else mismatch(floor, n_actions)


def seat_chance(table, i: int, o: int, phase: int, step: int, hand: list[int], talon_left: int, model, random: bool,
                floor: float) -> float:  # fmt: skip
    """The chance of what seat ``o`` (the i-th in R4.0's order) was seen to do, dealt ``hand``
    (module docstring): his pass or count (one turn), or his word and purchase; his announcement."""
    book, n = table.book, table.n
    trump = C.suit_of(table.trump_card)
    passed, k = table.passed[o], len(table.discards[o])
    may = may_pass_with(book, hand, o == table.dealer, table.trump_card)
    if passed and not may:
        return 0.0
    chance = 1.0
    if random:
        return chance
    if book.declare_then_buy:
        if may:
            chance *= _chance(model.wants_pass(list(hand), trump, i, n) == passed, floor, 2)
    else:
        n_actions = min(C.HAND_SIZE, talon_left) + 1 + (1 if may else 0)
        own_pass = may and model.wants_pass(list(hand), trump, i, n)
        if passed or own_pass:
            chance *= _chance(passed == own_pass, floor, n_actions)
        else:
            own = model.choose_discard(list(hand), trump, o == table.dealer, talon_left, i, n)
            chance *= _chance(len(own) == k, floor, n_actions)
    if passed:
        return chance
    if book.intent_round and (phase > PHASE_INTENT or (phase == PHASE_INTENT and i < step - n)):
        chance *= _chance(Intent(model.choose_intent(list(hand), trump)) == Intent(table.intent[o]), floor, 2)
    if book.declare_then_buy and (phase > PHASE_BUY or (phase == PHASE_BUY and i < step - 2 * n)):
        own = model.choose_discard(list(hand), trump, o == table.dealer, talon_left, i, n)
        chance *= _chance(len(own) == k, floor, min(C.HAND_SIZE, talon_left) + 1)
    return chance


def has_acted(phase: int, step: int, i: int) -> bool:
    """Whether the i-th seat of R4.0's order said pass or play before decision (``phase``, ``step``)."""
    return phase > PHASE_ROUND or i < step


def has_exchanged(table, i: int, o: int, phase: int, step: int) -> bool:
    """Whether seat ``o`` (the i-th in R4.0's order) exchanged before decision (``phase``, ``step``)."""
    if table.passed[o]:
        return False
    if table.book.declare_then_buy:
        return phase > PHASE_BUY or (phase == PHASE_BUY and i < step - 2 * table.n)
    return has_acted(phase, step, i)


def talon_at(table, i: int) -> int:
    """The talon's size when the i-th seat of R4.0's order exchanges: less what the seats before him took."""
    return len(table.talon) - sum(len(table.discards[s]) for s in table.seats[:i])


def seat_hand(table, i: int, o: int, phase: int, step: int, pool: list[int], worlds, model, random: bool,
              floor: float) -> list[int]:  # fmt: skip
    """Seat ``o``'s dealt hand drawn from its conditional (module docstring): five cards of ``pool``
    (left untouched), drawn again until kept with their chance, at most MAX_DRAWS times."""
    talon_left = talon_at(table, i)
    hand = []
    for _ in range(MAX_DRAWS):
        hand = draw_cards(list(pool), C.HAND_SIZE, worlds)
        chance = seat_chance(table, i, o, phase, step, hand, talon_left, model, random, floor)
        if chance >= 1.0 or (chance > 0.0 and worlds.uniform() < chance):
            break
    return hand


def draw_world_with_history(table, knowledge, worlds, seat: int, phase: int, step: int, rollout: PolicyKind,
                            floor: float, with_talon: bool, shuffle: bool = True):  # fmt: skip
    """One world before the play drawn with its history (module docstring), as a :class:`.pimc.World`;
    the talon's rest is the cards left, shuffled (``with_talon``: before the R4.3 card; ``shuffle``
    False: not shuffled, at a card of the first trick)."""
    from ..policies import PolicySpec
    from .pimc import World
    from .policy import policy_for

    models = [policy_for(PolicySpec(rollout), table.key, s) for s in range(table.n)]
    random = rollout == PolicyKind.RANDOM
    trump = C.suit_of(table.trump_card)
    acted = [(i, o) for i, o in enumerate(table.seats) if o != seat and has_acted(phase, step, i)]
    pool = C.cards_of(knowledge.unknown)
    dealt = {}
    for sweep in range(INFER_SWEEPS + 1):  # in order, then again given the others' hands (Gibbs)
        for i, o in acted:
            if sweep > 0:
                pool = sorted(pool + dealt[o])
            dealt[o] = seat_hand(table, i, o, phase, step, pool, worlds, models[o], random, floor)
            pool = [c for c in pool if c not in dealt[o]]
    for i, o in enumerate(table.seats):  # the seats still to act
        if o != seat and not has_acted(phase, step, i):
            dealt[o] = draw_cards(pool, C.HAND_SIZE, worlds)
    hands, discards, drawn = {}, {}, {}
    for i, o in enumerate(table.seats):  # the exchange, in order
        if o == seat:
            continue
        thrown, got = [], []
        if has_exchanged(table, i, o, phase, step):
            k = len(table.discards[o])
            thrown = model_discards(models[o], random, dealt[o], trump, k, o == table.dealer, i, table.n, worlds)
            got = draw_cards(pool, k, worlds)
        discards[o], drawn[o] = thrown, got
        hands[o] = sorted([c for c in dealt[o] if c not in thrown] + got)
    talon = worlds.shuffle(C.mask_of(pool)) if shuffle else []
    return World(hands, discards, dealt=dealt, drawn=drawn, talon=talon if with_talon else [])


# ---- at a card of the first trick: the world drawn with its history (infer=cards) -----------------
def first_trick_world(table, state, seat: int, worlds, rollout: PolicyKind, floor: float):
    """``infer=cards`` at a card of the first trick: a world drawn with its history and the chance to
    keep it before the declarations and the cards are weighed, as ``(World, chance)``.

    The others' dealt hands, discards and draws as before the play (:func:`draw_world_with_history`,
    every seat having acted; the pool: the cards the seat had not seen before the play, its hand at
    the first lead, its discards, the trump card and its R4.3 card). Then R4.3: a playing dealer other
    than the seat who took the trump card gives up his model's card (a uniform card of his hand where
    the model would have kept it, or is random), and his take or refusal weighs :func:`mismatch` over
    two actions where the model would have done otherwise (never where R4.3 made him take it). Then
    each other playing seat's hand at the first lead must hold the cards he played to this trick
    (else the chance is 0); his hand now is the rest, his aces those of that hand (R7). The passers'
    hands are among the cards their drawn hands hold."""
    from ..policies import PolicySpec
    from .pimc import Knowledge, played_by
    from .policy import policy_for
    from .score import ace_total

    at_lead = list(table.hand[seat]) + played_by(table, state, seat)
    seen = C.mask_of(at_lead) | C.mask_of(table.discards[seat]) | C.mask_of([table.trump_card])
    if table.trump_discard[seat] != C.NO_CARD:
        seen |= C.mask_of([table.trump_discard[seat]])
    unknown = C.deck_mask(table.book.deck_size) & ~seen
    world = draw_world_with_history(table, Knowledge(unknown, []), worlds, seat, PHASE_TRUMP, 0, rollout, floor,
                                    with_talon=False, shuffle=False)  # fmt: skip
    chance = 1.0
    dealer = table.dealer
    if dealer != seat and not table.passed[dealer]:  # R4.3, under the model
        hand = world.hands[dealer]
        took = bool(table.took_trump[dealer])
        give = C.NO_CARD
        if rollout != PolicyKind.RANDOM:
            model = policy_for(PolicySpec(rollout), table.key, dealer)
            own, card = model.choose_trump_card(list(hand), table.trump_card, must_take_trump(table))
            give = card if own else C.NO_CARD
            if own != took:
                chance *= mismatch(floor, 2)
        if took:
            if give == C.NO_CARD:
                give = hand[worlds.below(len(hand))]
            world.hands[dealer] = sorted([c for c in hand if c != give] + [table.trump_card])
            world.give_ups[dealer] = give
    in_trick = list(zip(state.players(table), state.trick))
    among = []
    for o in range(table.n):
        if o == seat:
            continue
        if table.passed[o]:
            among += world.dealt[o]
            del world.hands[o]
            continue
        final = world.hands[o]
        mine = [c for s, c in in_trick if s == o]
        if any(c not in final for c in mine):
            return world, 0.0
        world.hands[o] = [c for c in final if c not in mine]
        world.aces[o] = ace_total(table.book, final)
    world.passers_among = sorted(among)
    return world, chance


# ---- at a card of the play ---------------------------------------------------------------------
def take_chance(table, model, random: bool, after: list[int], took: bool, floor: float) -> float:
    """R4.3: the chance that the playing dealer holding ``after`` (his hand after the exchange) took
    the trump card (``took``) or kept his hand; 1 where he had to take it."""
    if random or must_take_trump(table):
        return 1.0
    own, _ = model.choose_trump_card(list(after), table.trump_card, False)
    return _chance(own == took, floor, 2)


def play_chance(table, state, seat: int, world, worlds, rollout: PolicyKind, floor: float) -> float:
    """The chance of what the other playing seats did before the play, in a world at a card
    (``infer=play``). Each playing seat, in R4.0's order: his hand after the exchange is his
    hand at the first lead (the world's and the cards he played; the dealer's with his give-up
    card for the trump card he took); of it he drew ``k`` cards (his count), drawn as
    :func:`draw_cards` does; the rest and the world's discards are his dealt hand, whose
    :func:`seat_chance` counts, and for the dealer :func:`take_chance`. Which cards he threw is
    the world's (uniform): the model's choice of them is not weighed. Passers are not weighed.
    0 ends the product."""
    from ..policies import PolicySpec
    from .pimc import played_by
    from .policy import policy_for

    random = rollout == PolicyKind.RANDOM
    chance = 1.0
    for i, o in enumerate(table.seats):
        if o == seat or table.passed[o]:
            continue
        model = policy_for(PolicySpec(rollout), table.key, o)
        after = sorted(list(world.hands[o]) + played_by(table, state, o))
        took = bool(table.took_trump[o])
        give_up = world.give_ups.get(o, C.NO_CARD)
        if o == table.dealer and took and give_up != C.NO_CARD:
            after = sorted([c for c in after if c != table.trump_card] + [give_up])
        rest = list(after)
        draw_cards(rest, len(table.discards[o]), worlds)  # the cards he drew leave ``rest``
        dealt = sorted(rest + list(world.discards[o]))
        talon_left = talon_at(table, i)
        chance *= seat_chance(table, i, o, PHASE_TRUMP, 0, dealt, talon_left, model, random, floor)
        if o == table.dealer:
            chance *= take_chance(table, model, random, after, took, floor)
        if chance == 0.0:
            return chance
    return chance


def cards_chance(table, state, seat: int, world, worlds, rollout: PolicyKind, floor: float) -> float:
    """The chance of every card the other seats played before this one, in a world at a card
    (``infer=cards``). The play is replayed card by card from the first trick: another seat's hand
    then is his hand at the first lead (the world's and the cards he played) less what he had
    played; his legal cards (R6.5-R6.7a, R6.6's duty after a marriage K led and won); and the card
    his model plays there, seeing what he saw then (:func:`.policy.threats` of the table as it
    stood, the tricks he had won, the announcements of those still to play). One legal card
    weighs 1; the model's card 1, another card :func:`mismatch` over his legal cards. A random
    model weighs nothing. A card his hand does not hold or R6 did not leave him gives 0 (a world
    drawn with its history, :func:`first_trick_world`; a layout never does); 0 ends the product."""
    import copy

    from ..policies import PolicySpec
    from .pimc import played_by
    from .play import legal_for, play_order
    from .policy import PlayView, policy_for, threats

    trump = table.trump
    king, queen = C.card_id(trump, C.KING), C.card_id(trump, C.QUEEN)
    then = copy.copy(table)  # the table as each card's player saw it: his hand then, the tricks finished
    then.hand = [sorted(list(world.hands[o]) + played_by(table, state, o)) if o in world.hands else list(table.hand[o])
                 for o in range(table.n)]  # fmt: skip
    then.discards = [list(world.discards.get(o, table.discards[o])) if o != seat else list(table.discards[o])
                     for o in range(table.n)]  # fmt: skip
    then.trump_discard = [table.trump_discard[o] if o == seat else world.give_ups.get(o, C.NO_CARD)
                          for o in range(table.n)]  # fmt: skip
    then.hand[seat] = sorted(list(table.hand[seat]) + played_by(table, state, seat))
    tricks = [(tr.leader, [(o, tr.cards[o]) for o in play_order(table, tr.leader)], tr.winner) for tr in table.plays[: state.t]]
    tricks.append((state.leader, list(zip(state.players(table), state.trick)), None))
    won = [0] * table.n
    chance = 1.0
    q_duty = False
    for tt, (leader, cards, winner) in enumerate(tricks):
        then.plays = list(table.plays[:tt])
        order = play_order(table, leader)
        trick: list[int] = []
        for o, card in cards:
            hand = then.hand[o]
            if o != seat:
                legal = legal_for(table.book, hand, trump, trick, q_duty and not trick)
                if card not in legal:
                    return 0.0  # a card the world's hand could not play (R6): a world drawn with its history
                if len(legal) > 1 and rollout != PolicyKind.RANDOM:
                    behind = order[order.index(o) + 1:]
                    view = PlayView(threats(then, o, trick), len(behind), tuple(int(table.intent[s]) for s in behind))
                    model = policy_for(PolicySpec(rollout), table.key, o)
                    own = model.choose_card(list(hand), trump, list(trick), legal, won[o], view)
                    if own != card:
                        chance *= mismatch(floor, len(legal))
            hand.remove(card)
            trick.append(card)
        if winner is not None:
            won[winner] += 1
            q_duty = leader == winner and trick[0] == king and queen in then.hand[winner]
        if chance == 0.0:
            return chance
    return chance
