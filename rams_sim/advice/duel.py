"""``rams-sim advise`` in R9 ``duel`` and ``duel-trump`` (docs/VARIANTS.md "duel and duel-trump").

What a duel player knows, as the kernels' state arrays (:mod:`rams_sim.kernels.state`) for
the search the ``pimc`` policy runs (:mod:`rams_sim.kernels.games.duel_search`):

* his five cards and the turned card (out of play in duel; in duel-trump the dealer's once
  he has given up a card for it, which the other does not see);
* the widow (``turns``: ``"1=stand,0=swap"``, the first hand -- the dealer's opponent --
  then the dealer if the first hand stood), and, if he swapped, his old hand
  (``discarded``; in duel-trump the dealer adds the card he gave up for the trump card,
  last);
* the party: both scores, the stake (``stake``: 1, doubled by each accepted dave) and who
  owns the cube (``cube``: the seat that accepted the last dave; None while it is centred);
* at the play, the tricks (``played``, each in playing order from its leader: the seat
  that took the widow leads the first, else the first hand; R6 holds in a duel).

The decision is read from what is given:

* no ``played``: the widow (the first hand; then the dealer, given ``--turns F=stand``), or
  in duel-trump the dealer's card for the trump card once the widow is settled;
* ``played``: at the seat's turn, dave (no offer, offer) where he may offer now, else (or
  with ``dave="pass"``: he did not offer) the card; with ``dave="offered"`` the other seat,
  whose turn it is, offered: accept or decline.

A declaration would have won the party before the play, so at the play neither hand
held one (the worlds respect it, as the policy's do: :func:`..kernels.games.duel.world_fits`).
Every option is worth the party to the seat: +stake won, -stake lost (advise shows the
settlement; the kernels count the least the best).
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..kernels import codes
from ..kernels import state as S
from ..record import DealRecord
from ..rules import Rules
from .notation import AdviceError, parse_turns
from .position import (
    Batch,
    Decision,
    Described,
    check_cards,
    lay_out_play,
    new_arrays,
    queen_duty,
    replay_play,
    unseen_cards,
)  # fmt: skip
from .questions import card_decisions, own_hand

TURN_WORDS = ("stand", "swap")  # the widow (VARIANTS.md: "продаю" is to stand, "ходи" the dealer's stand)
DAVE_WORDS = ("pass", "offered")  # --dave: the seat did not offer at this turn; the other offered at his


def duel_position(rules: Rules, seat: int, dealer: int, hand: list[int], trump_card: int, scores: list[int],
                  turns: dict | None, played: list[list[int]] | None, discarded: list[int], stake: int,
                  cube: int | None, dave: str | None, require_turn: bool = True) -> Decision:  # fmt: skip
    """Validate a described duel position and lay it out as the kernels' state arrays (module docstring).

    ``require_turn=False``: a position inside the history (:func:`rams_sim.advice.search.check_history`)."""
    check_cards(rules, seat, dealer, hand, trump_card, discarded)
    first = 1 - dealer
    turns = dict(turns or {})
    if trump_card in hand and not (played is not None and rules.duel_trump_card and seat == dealer):
        raise AdviceError(f"the turned card {C.format_card(trump_card)} lies face up"
                          + (": only the dealer takes it, after the widow (duel-trump)" if rules.duel_trump_card
                             else " out of play (duel: nobody uses it)"))  # fmt: skip
    _check_party(rules, stake, cube, dave, played)
    widow_taker = _check_turns(seat, dealer, first, turns, played)
    stage, step = _stage(rules, seat, dealer, first, turns, played)
    swapped = widow_taker == seat
    gave = 1 if rules.duel_trump_card and seat == dealer and stage == "play" else 0
    if stage in ("widow", "trump") and len(hand) != C.HAND_SIZE:
        raise AdviceError(f"a hand holds five cards before the play (R3); {len(hand)} given")
    if len(discarded) != C.HAND_SIZE * swapped + gave:
        what = " and the card he gave up for the trump card, last" if gave else ""
        raise AdviceError(f"seat {seat} {'swapped' if swapped else 'stood'}: --discarded takes "
                          f"{'his old hand' if swapped else 'nothing'}{what} "
                          f"({C.HAND_SIZE * swapped + gave} cards; {len(discarded)} given)")  # fmt: skip
    cardsets, st, trick, log, info = new_arrays(trump_card)
    st[S.ACTIVE, :2] = 1
    info[S.WIDOW] = widow_taker
    info[S.OUTCOME] = codes.O_PLAYED
    info[S.STAKE] = stake
    info[S.CUBE] = -1 if cube is None else cube
    own_played, t, k, leader, q_duty, events, offerer = 0, 0, 0, -1, False, [], seat
    if stage == "play":
        if not rules.duel_trump_card and any(trump_card in tr for tr in played):
            raise AdviceError(f"--played: the turned card {C.format_card(trump_card)} is out of play in duel")
        order = [widow_taker if widow_taker >= 0 else first]  # the first trick's leader, then the other
        order.append(1 - order[0])
        play = replay_play(rules, seat, dealer, hand, trump_card, played, set(), order, discarded, False)
        own_played, t, k, leader, events = play.own_played, play.t, play.k, play.leader, play.events
        lay_out_play(play.done, play.current, st, trick, log)
        to_play = leader if k == 0 else 1 - leader
        if require_turn:
            stage, offerer = _dave_stage(rules, seat, to_play, dave, info, k == 0)
            _check_turn(seat, to_play, stage, hand, t, any(o == seat for o, _ in play.current))
        if gave and not (trump_card in hand or own_played >> trump_card & 1):
            raise AdviceError(f"the dealer took the turned card {C.format_card(trump_card)} (duel-trump): it is in your "
                              "hand or among your cards played")  # fmt: skip
        q_duty = k == 0 and queen_duty(play.done, trump_card, 1 << _queen(trump_card))  # (lead_mask asks for the Q)
    final = C.mask_of(hand) | own_played
    _lay_out_seats(rules, seat, dealer, trump_card, final, hand, discarded, swapped, gave, widow_taker, stage, cardsets, st)
    options, labels = _options(rules, stage, seat, hand, trump_card, trick, k, q_duty, require_turn)
    arrays = {"cardsets": cardsets, "st": st, "trick": trick, "log": log, "info": info,
              "scores": np.asarray(scores, np.int64), "order": _order(trump_card)}  # fmt: skip
    scalars = {"seat": seat, "dealer": dealer, "trump_card": trump_card, "t": t, "k": k, "leader": leader,
               "played": sum(1 << c for tr in (played or []) for c in tr), "q_duty": q_duty, "step": step,
               "offerer": offerer, "events": events}  # fmt: skip
    return Decision(stage, labels, options, arrays, scalars)


def _check_party(rules: Rules, stake: int, cube: int | None, dave: str | None, played) -> None:
    """The stake is 1 doubled by each accepted dave, within ``dave_max``; the cube is centred at
    stake 1 and owned by a seat above it; dave words only at the play and with the rule on."""
    if stake < 1 or stake & (stake - 1):
        raise AdviceError(f"--stake is the party's stake: 1, doubled by each accepted dave (2, 4, ...); got {stake}")
    if stake > 1 and not rules.dave:
        raise AdviceError(f"--stake {stake}: preset {rules.preset} plays without dave (rule dave=false); the stake is 1")
    if stake > max(1, rules.dave_max):
        raise AdviceError(f"--stake {stake} is above dave_max ({rules.dave_max})")
    if cube is not None and cube not in (0, 1):
        raise AdviceError(f"--cube is the seat that owns the cube, 0 or 1 (leave it out while it is centred); got {cube}")
    if (stake == 1) != (cube is None):
        raise AdviceError("the cube is centred at stake 1 and owned by the seat that accepted the last dave above it: "
                          f"--stake {stake} with {'no --cube' if cube is None else f'--cube {cube}'}")  # fmt: skip
    if dave is not None and dave not in DAVE_WORDS:
        raise AdviceError(f"--dave takes pass (you did not offer at this turn) or offered (the other offered at his); "
                          f"got {dave!r}")  # fmt: skip
    if dave is not None and (played is None or not rules.dave):
        raise AdviceError("--dave is for the play of a preset with dave (pass: you did not offer at this turn; "
                          "offered: the other seat offered at his)")  # fmt: skip


def _check_turns(seat: int, dealer: int, first: int, turns: dict, played) -> int:
    """The widow's turns given are open (the dealer swaps only if the first hand stood); for the
    play both are settled. Returns the seat that took the widow, or -1."""
    if set(turns) - {first, dealer}:
        raise AdviceError("--turns: a duel has two seats, 0 and 1")
    if dealer in turns and first not in turns:
        raise AdviceError(f"--turns: the first hand (seat {first}) decides the widow before the dealer; give {first}=...")
    if turns.get(first) == "swap" and dealer in turns:
        raise AdviceError(f"--turns: seat {first} took the widow; the dealer has no widow turn (leave {dealer}= out)")
    if played is not None and (first not in turns or (turns[first] == "stand" and dealer not in turns)):
        need = f"{first}=stand,{dealer}=stand" if turns.get(first) == "stand" else f"{first}=stand or {first}=swap"
        raise AdviceError(f"for the play give the widow's turns: --turns {need} (or swap)")
    for s, word in turns.items():
        if word == "swap":
            return s
    return -1


def _stage(rules: Rules, seat: int, dealer: int, first: int, turns: dict, played) -> tuple[str, int]:
    """Which decision is asked before the play (module docstring; "play": at the play, dave or
    the card, :func:`_dave_stage`) and the deal's step of a widow decision."""
    if played is not None:
        return "play", -1
    if first not in turns:
        if seat != first:
            raise AdviceError(f"seat {seat} deals: the first hand (seat {first}) decides the widow first; give "
                              f"--turns {first}=stand or {first}=swap")  # fmt: skip
        return "widow", 0
    if turns[first] == "stand" and dealer not in turns:
        if seat != dealer:
            raise AdviceError(f"seat {seat} stood: the dealer decides the widow next; give --played for the play")
        return "widow", 1
    if rules.duel_trump_card and seat == dealer:
        return "trump", -1
    raise AdviceError(f"seat {seat} has nothing to decide before the play"
                      + ("" if rules.duel_trump_card else " (duel: nobody uses the turned card)")
                      + "; give --played ('-' before the first card)")  # fmt: skip


def _dave_stage(rules: Rules, seat: int, to_play: int, dave: str | None, info: np.ndarray, leading: bool) -> tuple[str, int]:
    """At the play: "answer" (``dave="offered"``: the other, to play, offered), "dave" (the seat may
    offer now, :func:`..kernels.games.duel.may_offer`, and did not say ``pass``) or "play" (the
    card). Returns (stage, the offerer)."""
    from ..kernels.args import rules_args
    from ..kernels.games.duel import may_offer

    r = rules_args(rules)
    if dave == "offered":
        if to_play != seat and not may_offer(r, info, to_play, leading):
            raise AdviceError(f"--dave offered: seat {to_play} may not offer dave now (the cube is yours, the "
                              "doubled stake passes dave_max, or dave_lead_only and he follows)")  # fmt: skip
        return "answer", 1 - seat
    if dave != "pass" and to_play == seat and may_offer(r, info, seat, leading):
        return "dave", seat
    return "play", seat


def _check_turn(seat: int, to_play: int, stage: str, hand: list[int], t: int, played_now: bool) -> None:
    """It is the seat's turn (answering a dave, the other's), and he holds a card per trick left
    (``t``: the tricks done; ``played_now``: he has played to the current one)."""
    if t >= C.N_TRICKS:
        raise AdviceError("--played holds all five tricks: the deal is over")
    if stage == "answer" and to_play == seat:
        raise AdviceError(f"--dave offered: after --played it is seat {seat}'s own turn; the other offers at his turn")
    if stage != "answer" and to_play != seat:
        raise AdviceError(f"after --played it is seat {to_play}'s turn, not seat {seat}'s (R6.1, R6.4; --dave "
                          "offered if he offered you dave)")  # fmt: skip
    if len(hand) != C.N_TRICKS - t - played_now:
        raise AdviceError(f"seat {seat} holds {C.N_TRICKS - t - played_now} cards now; {len(hand)} given")


def _queen(trump_card: int) -> int:
    return C.card_id(C.suit_of(trump_card), C.QUEEN)


def _lay_out_seats(rules: Rules, seat: int, dealer: int, trump_card: int, final: int, hand: list[int],
                   discarded: list[int], swapped: bool, gave: int, widow_taker: int, stage: str, cardsets: np.ndarray,
                   st: np.ndarray) -> None:  # fmt: skip
    """What the seat knows of both seats into ``cardsets``/``st`` (the rows the engine keeps:
    :func:`..kernels.games.duel.take_widow`, :func:`..kernels.exchange.dealer_trump_with`):
    his hands, his old hand after a swap, the card he gave up for the trump card; the other's
    swap as five cards nobody saw; the dealer's taking of the trump card (duel-trump, public)."""
    from ..kernels import bits
    from ..kernels.args import rules_args

    before_play = stage in ("widow", "trump")
    old = C.mask_of(discarded[: C.HAND_SIZE * swapped])
    kept = C.mask_of(hand) if before_play else final  # the five he kept from the widow step
    if gave:
        kept = kept & ~(1 << trump_card) | 1 << discarded[-1]
    cardsets[S.HAND, seat] = np.uint64(C.mask_of(hand))
    cardsets[S.FINAL, seat] = np.uint64(0 if before_play else final)
    cardsets[S.DISCARDS, seat] = np.uint64(old)
    cardsets[S.DEALT, seat] = np.uint64(old if swapped else kept)
    cardsets[S.DRAWN, seat] = np.uint64(kept if swapped else 0)
    other = 1 - seat
    if widow_taker == other:
        cardsets[S.DISCARDS, other] = unseen_cards(C.HAND_SIZE)
    if rules.duel_trump_card and not before_play:
        st[S.TOOK_TRUMP, dealer] = 1
        st[S.TRUMP_DISCARD, dealer] = discarded[-1] if seat == dealer else 0  # his own card; the other's is hidden
    if not before_play:
        st[S.ACES, seat] = int(bits.ace_points(np.uint64(final), rules_args(rules).ace_values))


def _options(rules: Rules, stage: str, seat: int, hand: list[int], trump_card: int, trick: np.ndarray, k: int,
             q_duty: bool, require_turn: bool) -> tuple[np.ndarray, list]:  # fmt: skip
    """The options open to the seat (the kernels' codes or card ids, in the order they are tried) and their labels."""
    from .. import engine
    from ..kernels.games.duel import SWAP_OPTION

    if stage == "widow":
        return np.array([0, SWAP_OPTION], np.int64), [("stand", []), ("swap", [])]
    if stage == "trump":
        cards = sorted(hand)
        return np.array(cards, np.int64), [("give up", [c]) for c in cards]
    if stage == "dave":
        return np.array([0, 1], np.int64), [("no offer", []), ("offer dave", [])]
    if stage == "answer":
        return np.array([0, 1], np.int64), [("decline", []), ("accept", [])]
    if not require_turn:
        return np.zeros(0, np.int64), []
    before = [int(x) for x in trick[S.TRICK_CARD, :k]]
    legal = engine.legal_cards(rules, hand, C.suit_of(trump_card), before, q_duty)
    return np.array(legal, np.int64), [(C.format_card(c), [c]) for c in legal]


def _order(trump_card: int) -> np.ndarray:
    """A deck order for :func:`..kernels.games.duel.deal_from` from the widow step: the turned card at
    its place; the widow's places are filled by each world, the hands are in the card sets."""
    from ..kernels.games.duel import TRUMP_AT

    order = np.zeros(C.N_CARDS, np.int8)
    order[TRUMP_AT] = trump_card
    return order


# ---- the game's hooks for advise (rams_sim.advice.position.advice_module) ---------------------------------
RACE_BEFORE_PLAY = False  # the widow's, the trump card's and dave's kernels play every option in every world
# positions whose evaluations `python -m rams_sim.warm` compiles (advise's arguments): the widow, duel-trump's
# card, dave, a card
_WARM = {"hand": "A♥ K♠ 7♠ 9♦ 10♣", "trump_card": "8♥", "dealer": 0}
WARM_QUESTIONS = (
    {**_WARM, "seat": 1, "rules": "duel"},
    {**_WARM, "seat": 0, "rules": "duel-trump", "turns": "1=stand,0=stand"},
    {**_WARM, "seat": 1, "rules": "duel", "turns": "1=stand,0=stand", "played": "-"},
    {**_WARM, "seat": 1, "rules": "duel", "turns": "1=stand,0=stand", "played": "-", "dave": "pass"},
)


def position_builder(rules: Rules, given: Described):
    """``build(cards, tricks, require_turn=False)``: :func:`duel_position` for the position ``given`` describes."""
    turns = parse_turns(given.turns, rules.players, TURN_WORDS) if isinstance(given.turns, str) else dict(given.turns or {})

    def build(cards, tricks, require_turn=False):
        return duel_position(rules, given.seat, given.dealer, cards, given.trump_card, given.scores, turns, tricks,
                             given.discarded, given.stake, given.cube, given.dave, require_turn)  # fmt: skip

    return build


def evaluation(pos: Decision, b: Batch):
    """The kernel and arguments of a duel decision before a card (:mod:`rams_sim.kernels.games.duel_search`):
    the widow, duel-trump's card, a dave offer or answer; a card: None (the cards' search of the games with
    R6's duty to follow)."""
    from ..kernels.games import duel_search

    if pos.stage == "play":
        return None
    a, x = pos.arrays, pos.scalars
    head = (b.r, b.roll_kinds, b.roll_params, b.announce, b.key)
    if pos.stage == "widow":
        return duel_search.evaluate_widow, (*head, a["order"], a["cardsets"], a["st"], a["trick"], a["info"],
                                            a["log"], a["scores"], x["dealer"], x["step"], x["seat"], b.first,
                                            b.deltas, b.flags)  # fmt: skip
    if pos.stage == "trump":
        return duel_search.evaluate_trump, (*head, a["order"], a["cardsets"], a["st"], a["trick"], a["info"],
                                            a["log"], a["scores"], x["dealer"], b.first, b.deltas, b.flags)  # fmt: skip
    return duel_search.evaluate_dave, (*head, a["cardsets"], a["st"], a["trick"], a["log"], a["info"], a["scores"],
                                       x["t"], x["k"], x["leader"], x["q_duty"], x["offerer"], x["trump_card"],
                                       x["dealer"], np.uint64(x["played"]), x["seat"], b.first, b.deltas,
                                       b.flags)  # fmt: skip


# ---- the decisions of a recorded deal (rams_sim.advice.questions) ----
def record_questions(rules: Rules, record: DealRecord) -> list[dict]:
    """Every decision of a recorded duel deal, as advise's keywords: each card of a deal where nobody offered
    dave (the stake stays 1) (:mod:`.questions`)."""
    if sum(record.dave):
        return []  # a dave changes the stake: the tests ask deals played at stake 1
    first = 1 - record.dealer
    turns = {first: "swap" if record.widow == first else "stand"}
    if record.widow != first:
        turns[record.dealer] = "swap" if record.widow == record.dealer else "stand"
    out = []
    for seat, t, k, before in card_decisions(record):
        discarded = C.cards_of(record.discards[seat]) if record.widow == seat else []
        if rules.duel_trump_card and seat == record.dealer:
            discarded.append(record.trump_discard[seat])  # the card given up for the trump card, last
        out.append({"seat": seat, "dealer": record.dealer, "rules": rules, "trump_card": record.trump_card,
                    "hand": own_hand(record, seat, before), "turns": turns, "played": before,
                    "discarded": discarded, "scores": [5, 5], "dave": "pass", "stage": "play", "t": t,
                    "k": k})  # fmt: skip
    return out
