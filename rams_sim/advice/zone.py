"""``rams-sim advise`` in R9 ``zone`` (docs/VARIANTS.md "zone"): the partner's swap, each card.

What a zone player knows, as the kernels' state arrays (:mod:`rams_sim.kernels.state`) for
the search the ``pimc`` policy runs (:mod:`rams_sim.kernels.games.zone_search`):

* his five cards and the turned card (the top of the stock: nobody holds it);
* whether the dealer's partner swapped his hand for the widow (``turns``,
  ``"1=swap"`` or ``"1=stand"``), and, if he is that partner and swapped, his old hand
  (``discarded``: it lies in the stock, and he knows it);
* at the play, the tricks (``played``, each in playing order from its leader). Zone has
  no duty to follow, so any card may answer; only the first lead is bound (``zone_lead=
  duty``: the holder of the trump A leads it, ...). Who led the first trick follows from
  whose turn it is now: with two players, one reading of the tricks ends with the seat to
  play, the other with his opponent. Under ``zone_finish=trick`` no finished trick may have
  left a player at exactly 0 (the deal would have stopped there): checked for the seat,
  and for the other when his A is known (no unseen ace has a value).

The decision: ``played`` given, the card; else the partner's swap (stand or swap). The
dealer decides nothing before the play.
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..kernels import codes
from ..kernels import state as S
from ..kernels.games.zone import N_ZONE, SWAP_OPTION, WIDOW_SIZE
from ..record import DealRecord, Trick
from ..rules import Rules
from .notation import AdviceError, parse_turns
from .position import Batch, Decision, Described, check_cards, hand_places, lay_out_play, new_arrays
from .questions import card_decisions, own_hand

TURN_WORDS = ("stand", "swap")  # the dealer's partner's turn
UNKNOWN_ACES = 1 << 40  # an A no score equals: the other's, while an unseen ace has a value


def zone_position(rules: Rules, seat: int, dealer: int, hand: list[int], trump_card: int, scores: list[int],
                  turns: dict | None, played: list[list[int]] | None, discarded: list[int]) -> Decision:  # fmt: skip
    """Validate a described zone position and lay it out as the kernels' state arrays (module docstring)."""

    check_cards(rules, seat, dealer, hand, trump_card, discarded)
    partner = 1 - dealer
    turns = dict(turns or {})
    if trump_card in hand:
        raise AdviceError(f"the turned card {C.format_card(trump_card)} is the top of the stock: nobody holds it")
    if set(turns) - {partner}:
        raise AdviceError(f"--turns: in zone only the dealer's partner (seat {partner}) has a turn: stand or swap")
    stage = "play" if played is not None else "swap"
    swapped = turns.get(partner) == "swap"
    if stage == "swap":
        if seat != partner:
            raise AdviceError(f"seat {seat} deals: he decides nothing before the play; give --played for his cards")
        if turns:
            raise AdviceError(f"--turns {partner}=...: the swap is the decision advised; leave it out")
        if len(hand) != C.HAND_SIZE:
            raise AdviceError(f"a hand holds five cards before the play (R3); {len(hand)} given")
        if discarded:
            raise AdviceError("--discarded: the partner's old hand is for after his swap")
    else:
        if partner not in turns:
            raise AdviceError(f"for the play give the partner's turn: --turns {partner}=stand or {partner}=swap")
        if seat == partner and swapped and len(discarded) != WIDOW_SIZE:
            raise AdviceError(f"seat {seat} swapped: give his old hand with --discarded (he knows it; "
                              f"{len(discarded)} cards given)")  # fmt: skip
        if not (seat == partner and swapped) and discarded:
            raise AdviceError("--discarded: only the partner who swapped knows cards out of play (his old hand)")
    cardsets, st, trick, log, info = new_arrays(trump_card)
    st[S.ACTIVE, :N_ZONE] = 1
    info[S.WIDOW] = partner if swapped else -1
    info[S.OUTCOME] = codes.O_PLAYED
    done, current, t, k, leader, own_played = replay_play(rules, seat, hand, trump_card, played or [], discarded)
    if done or current:
        by_seat = [-1] * N_ZONE
        for o, c in current:
            by_seat[o] = c
        first = done[0] if done else Trick(leader, tuple(by_seat), -1)
        _check_first_lead(rules, seat, dealer, C.mask_of(hand) | own_played, C.mask_of(discarded), trump_card, first,
                          done, current)  # fmt: skip
    played_mask = lay_out_play(done, current, st, trick, log) if stage == "play" else 0
    final = C.mask_of(hand) | own_played
    if done and rules.zone_finish.value == "trick":
        _check_not_stopped(rules, seat, dealer, trump_card, final, C.mask_of(discarded), played_mask, done, log, scores)
    cardsets[S.HAND, seat] = np.uint64(C.mask_of(hand))
    cardsets[S.DEALT, seat] = np.uint64(final)
    cardsets[S.FINAL, seat] = np.uint64(final)
    cardsets[S.DISCARDS, seat] = np.uint64(C.mask_of(discarded))
    duty = 0
    if stage == "play":
        duty = _first_duty(rules, seat, dealer, final, trump_card) if (t, k) == (0, 0) else 0
        legal = [c for c in sorted(hand) if not duty or duty >> c & 1]
        options, labels = np.array(legal, np.int64), [(C.format_card(c), [c]) for c in legal]
    else:
        options, labels = np.array([0, SWAP_OPTION], np.int64), [("stand", []), ("swap", [])]
    arrays = {"cardsets": cardsets, "st": st, "trick": trick, "log": log, "info": info,
              "scores": np.asarray(scores, np.int64)}  # fmt: skip
    scalars = {"seat": seat, "dealer": dealer, "trump_card": trump_card, "t": t, "k": k, "leader": leader,
               "played": played_mask, "duty": np.uint64(duty)}  # fmt: skip
    return Decision(stage, labels, options, arrays, scalars)


def _first_duty(rules: Rules, seat: int, dealer: int, final: int, trump_card: int) -> int:
    """The seat leads the first trick now: its duty cards (a mask; 0: any card), and it must be
    the leader the rules name for some holding of the other hand (:func:`.zone.first_lead`)."""
    from ..kernels.games.zone import first_lead

    partner = 1 - dealer
    if rules.zone_lead.value != "duty":
        if seat != partner:
            raise AdviceError(f"seat {seat} deals: the dealer's partner leads the first trick (zone_lead=partner)")
        return 0
    hands = np.zeros_like(new_arrays(trump_card)[0])
    hands[S.HAND, seat] = np.uint64(final)
    leader, duty = first_lead(True, hands, trump_card, partner)
    if leader != seat:  # no duty of his: the partner leads, unless the other holds a duty
        raise AdviceError(f"seat {seat} holds no lead duty and is not the dealer's partner: he does not lead the "
                          "first trick (zone_lead=duty)")  # fmt: skip
    return int(duty)


def _check_first_lead(rules: Rules, seat: int, dealer: int, mine: int, old: int, trump_card: int, first: Trick,
                      done: list, current: list) -> None:  # fmt: skip
    """The first trick's leader and card agree with the first-lead rule for some holding of the
    trump A, K and Q by the other hand, as the sampler reads it
    (:func:`rams_sim.kernels.games.zone_search.first_lead_facts`): else one line, before any
    search. ``mine``: the seat's cards at the first lead; ``old``: his old hand (swapped)."""
    from ..kernels.args import rules_args
    from ..kernels.games.zone_search import first_lead_facts

    partner = 1 - dealer
    other = 1 - seat
    led = first.cards[first.leader]
    if rules.zone_lead.value != "duty":
        if first.leader != partner:
            raise AdviceError(f"--played: the dealer's partner (seat {partner}) leads the first trick (zone_lead=partner)")
        return
    theirs = C.mask_of(tr.cards[other] for tr in done) | C.mask_of(c for o, c in current if o == other)
    seen = mine | old | theirs | C.mask_of(c for tr in done for c in tr.cards) | C.mask_of(c for _, c in current)
    unknown = C.deck_mask(rules.deck_size) & ~seen & ~(1 << trump_card)
    hands = np.zeros_like(new_arrays(trump_card)[0])
    *_, fits = first_lead_facts(rules_args(rules), seat, dealer, trump_card, np.uint64(mine), np.uint64(theirs),
                                np.uint64(unknown), first.leader, led, np.uint64(0), hands)  # fmt: skip
    if not fits:
        raise AdviceError(f"--played: seat {first.leader} cannot have led {C.format_card(led)} to the first trick: "
                          "zone's lead duty (the trump A, else K and Q, first) names another lead")  # fmt: skip


def _check_not_stopped(rules: Rules, seat: int, dealer: int, trump_card: int, mine: int, old: int, played: int,
                       done: list, log: np.ndarray, scores: list[int]) -> None:  # fmt: skip
    """``zone_finish=trick``: no finished trick left a player at exactly 0 (R8.2: the deal stops
    there), by the kernels' own count (:func:`.zone.stopped_before`); else one line. The seat's
    A is his hand's; the other's is the aces he played when no unseen ace has a value, else
    unknown (not checked: the sampler draws again a world whose aces stopped it)."""
    from ..kernels.args import rules_args
    from ..kernels.games.zone import stopped_before

    other = 1 - seat
    unseen = C.deck_mask(rules.deck_size) & ~(mine | old | played | 1 << trump_card)
    values = rules.ace_values
    aces = [0, 0]
    aces[seat] = sum(values[s] for s in range(C.N_SUITS) if mine >> C.card_id(s, C.ACE) & 1)
    theirs = C.mask_of(tr.cards[other] for tr in done)
    aces[other] = sum(values[s] for s in range(C.N_SUITS) if theirs >> C.card_id(s, C.ACE) & 1)
    if any(values[s] and unseen >> C.card_id(s, C.ACE) & 1 for s in range(C.N_SUITS)):
        aces[other] = UNKNOWN_ACES
    r, at = rules_args(rules), np.asarray(scores, np.int64)
    for t in range(1, len(done) + 1):
        if stopped_before(r, log, t, at, dealer, C.suit_of(trump_card), aces[0], aces[1]):
            raise AdviceError(f"--played: a player stands at exactly 0 after trick {t}: under zone_finish=trick the "
                              "deal stopped there")  # fmt: skip


def replay_play(rules: Rules, seat: int, hand: list[int], trump_card: int, played: list[list[int]],
            discarded: list[int]) -> tuple[list[Trick], list, int, int, int, int]:  # fmt: skip
    """Read ``played``: each card possible once, the first leader the one under whom the seat is
    to play now, the winners (the highest card of the suit led, or the highest trump), the
    seat's number of cards. Returns (tricks done, the current trick as (seat, card), t, k,
    the current leader, the mask of the seat's own cards played)."""
    from .. import engine

    deck = C.deck_mask(rules.deck_size)
    trump = C.suit_of(trump_card)
    seen = C.mask_of(hand) | C.mask_of(discarded) | 1 << trump_card
    for i, cards in enumerate(played):
        if i >= C.N_TRICKS or len(cards) > N_ZONE or (len(cards) < N_ZONE and i < len(played) - 1):
            raise AdviceError(f"--played trick {i + 1} has {len(cards)} cards; two seats play each of five tricks")
        for c in cards:
            if not deck >> c & 1:
                raise AdviceError(f"--played: {C.format_card(c)} is not in the {rules.deck_size}-card deck")
            if seen >> c & 1:
                raise AdviceError(f"--played: {C.format_card(c)} is played twice, held, discarded or the turned card")
            seen |= 1 << c
    for first in (seat, 1 - seat):  # exactly one reading ends with the seat to play
        leader, done, own = first, [], 0
        for cards in played:
            by_seat = [-1, -1]
            for j, c in enumerate(cards):
                by_seat[(leader + j) % N_ZONE] = c
            own |= 1 << by_seat[seat] if by_seat[seat] >= 0 else 0
            if len(cards) == N_ZONE:
                w = (leader + engine.trick_winner(trump, cards)) % N_ZONE
                done.append(Trick(leader, tuple(by_seat), w))
                leader = w
        k = len(played[-1]) % N_ZONE if played else 0
        if (leader + k) % N_ZONE == seat:
            break
    t = len(done)
    if t >= C.N_TRICKS:
        raise AdviceError("--played holds all five tricks: the deal is over")
    current = [((leader + j) % N_ZONE, c) for j, c in enumerate(played[t])] if k else []
    if len(hand) != C.N_TRICKS - t:
        raise AdviceError(f"seat {seat} holds {C.N_TRICKS - t} cards at trick {t + 1}; {len(hand)} given")
    return done, current, t, k, leader, own


# ---- the game's hooks for advise (rams_sim.advice.position.advice_module) ---------------------------------
RACE_BEFORE_PLAY = False  # evaluate_swap plays both options in every world
# positions whose evaluations `python -m rams_sim.warm` compiles (advise's arguments): the swap, a card
WARM_QUESTIONS = (
    {"hand": "A♥ K♠ 7♠ 9♦ 10♣", "trump_card": "8♥", "seat": 1, "dealer": 0, "rules": "zone"},
    {"hand": "A♥ K♠ 7♠ 9♦ 10♣", "trump_card": "8♥", "seat": 1, "dealer": 0, "rules": "zone", "turns": "1=stand",
     "played": "-"},
)  # fmt: skip


def position_builder(rules: Rules, given: Described):
    """``build(cards, tricks, require_turn=False)``: :func:`zone_position` for the position ``given`` describes."""
    turns = parse_turns(given.turns, rules.players, TURN_WORDS) if isinstance(given.turns, str) else dict(given.turns or {})

    def build(cards, tricks, require_turn=False):
        return zone_position(rules, given.seat, given.dealer, cards, given.trump_card, given.scores, turns, tricks,
                             given.discarded)  # fmt: skip

    return build


def evaluation(pos: Decision, b: Batch):
    """A card: :func:`rams_sim.kernels.games.zone_search.evaluate_card` (any card answers); the partner's
    swap: :func:`rams_sim.kernels.games.zone_search.evaluate_swap`."""
    from ..kernels.games import zone_search

    a, x = pos.arrays, pos.scalars
    if pos.stage == "play":
        return zone_search.evaluate_card, (b.r, b.roll_kinds, b.roll_params, b.key, a["cardsets"], a["st"], a["trick"],
                                           a["info"], a["log"], a["scores"], x["dealer"], x["t"], x["k"], x["leader"],
                                           x["seat"], x["duty"], b.options, b.first, b.deltas, b.flags)  # fmt: skip
    return zone_search.evaluate_swap, (b.r, b.roll_kinds, b.roll_params, b.key, a["cardsets"], a["st"], a["trick"],
                                       a["info"], a["log"], a["scores"], x["dealer"], b.first, b.deltas, b.flags)  # fmt: skip


def deal_places(rules: Rules, dealer: int) -> tuple[list[list[int]], int, list[int]]:
    """Zone's deal in the deck order (docs/VARIANTS.md "zone: the deal", kernels.games.zone): the hands as
    R3 deals them, the widow the next five cards, the turned card after it. Returns (each seat's places,
    the trump card's place, the widow's places): :mod:`.truth`'s deck orders."""
    widow = C.HAND_SIZE * rules.players
    return hand_places(rules.players, dealer), widow + WIDOW_SIZE, list(range(widow, widow + WIDOW_SIZE))


# ---- the decisions of a recorded deal (rams_sim.advice.questions) ----
def record_questions(rules: Rules, record: DealRecord) -> list[dict]:
    """Every decision of a recorded zone deal, as advise's keywords: the partner's swap and each card (:mod:`.questions`)."""
    partner = 1 - record.dealer
    swapped = record.widow == partner
    base = {"dealer": record.dealer, "rules": rules, "trump_card": record.trump_card, "scores": [9, 6]}
    out = [base | {"seat": partner, "hand": C.cards_of(record.hand_dealt[partner]), "stage": "swap"}]
    for seat, t, k, before in card_decisions(record):
        out.append(base | {"seat": seat, "hand": own_hand(record, seat, before),
                           "turns": {partner: "swap" if swapped else "stand"}, "played": before,
                           "discarded": C.cards_of(record.discards[seat]) if swapped and seat == partner else [],
                           "stage": "play", "t": t, "k": k})  # fmt: skip
    return out
