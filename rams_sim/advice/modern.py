"""``rams-sim advise`` in R9 ``modern`` (docs/VARIANTS.md "modern"): the redeal, the turn, each card.

What a modern player knows, as the kernels' state arrays (:mod:`rams_sim.kernels.state`)
for the same search the ``pimc`` policy runs (:mod:`rams_sim.kernels.games.modern_search`
for the redeal and the turn, :func:`rams_sim.kernels.pimc.evaluate_cards` for a card):

* his five cards and the trump card, the dealer's own last card, shown (so it lies in the
  dealer's hand, or among the four cards he laid aside if he took the widow);
* the turns so far (``turns``, ``"1=pass,2=take"``): who passed and who took the widow; a
  taker laid aside four cards nobody saw, and nobody saw the widow;
* at the play, the tricks (``played``, as in classic), the jack pairs shown (``jacks``;
  four jacks end the deal before the play where they win) and, if he took the widow
  himself, the four cards he laid aside (``discarded``).

The decision is read from what is given: ``played`` given, the card; else a dealt five of
one suit with no ``turns`` given, the redeal question (it comes before every turn; keep or
demand a new dealing); else his turn (pass below ``modern_no_pass``, play, or take the
widow keeping one card while nobody has taken it), with the turns of the seats before him.
Under ``exchange_order=declare-then-buy`` he has two decisions: without his own word in
``turns``, the play/pass round ("round": pass or play, the words of the seats before him
given, pass or play); with ``SEAT=play`` and every seat's word (pass or play), the widow's
offer ("take": decline or take it keeping one card; the players before him declined it).
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..kernels import codes
from ..kernels import state as S
from ..kernels.games.modern import MAX_REDEALS, REDEAL, WIDOW_SIZE
from ..record import DealRecord, Declaration
from ..rules import ExchangeOrder, Rules
from .notation import AdviceError, parse_turns
from .position import (
    Batch,
    Decision,
    Described,
    check_cards,
    hand_places,
    lay_out_play,
    new_arrays,
    order_from,
    replay_play,
    unseen_cards,
)  # fmt: skip
from .questions import card_decisions, own_hand


def _stage(rules: Rules, seat: int, hand: list[int], turns: dict | None, played) -> str:
    """The decision asked (module docstring): play, redeal, turn (one-turn), round or take (declare-then-buy)."""
    if played is not None:
        return "play"
    five_suit = len(hand) == C.HAND_SIZE and len({C.suit_of(c) for c in hand}) == 1
    if turns is None and five_suit:
        return "redeal"
    if rules.exchange_order != ExchangeOrder.DECLARE_THEN_BUY:
        return "turn"
    return "take" if (turns or {}).get(seat) == "play" else "round"


def modern_position(rules: Rules, seat: int, dealer: int, hand: list[int], trump_card: int, scores: list[int],
                    turns: dict | None, played: list[list[int]] | None, discarded: list[int], jacks: dict,
                    redeals: int = 0, require_turn: bool = True) -> Decision:  # fmt: skip
    """Validate a described modern position and lay it out as the kernels' state arrays
    (module docstring). ``require_turn=False``: a position inside the history (another seat
    to play), for :func:`rams_sim.advice.search.check_history`."""
    n = rules.players
    check_cards(rules, seat, dealer, hand, trump_card, discarded)
    order = order_from(dealer, n)
    stage = _stage(rules, seat, hand, turns, played)
    turns = dict(turns or {})
    _check_turns(rules, stage, order, seat, scores, turns)
    mine = turns.get(seat)
    took = mine == "take"
    if stage != "play":
        if len(hand) != C.HAND_SIZE:
            raise AdviceError(f"a hand holds five cards before the play (R3); {len(hand)} given")
        if discarded:
            raise AdviceError("--discarded: in modern only a widow taker lays cards aside, and he does it at his turn")
        if stage == "redeal" and not 0 <= redeals < MAX_REDEALS:
            raise AdviceError(f"--redeals: after {MAX_REDEALS} redeals the right lapses (docs/VARIANTS.md); got {redeals}")
    elif took and len(discarded) != WIDOW_SIZE:
        raise AdviceError(f"seat {seat} took the widow: give the {WIDOW_SIZE} cards he laid aside with --discarded "
                          f"({len(discarded)} given)")  # fmt: skip
    elif not took and discarded:
        raise AdviceError(f"--discarded: seat {seat} did not take the widow and laid nothing aside")
    _check_trump_card(seat, dealer, hand, trump_card, played, discarded, stage)
    passed = {s for s, w in turns.items() if w == "pass"}
    cardsets, st, trick, log, info = new_arrays(trump_card)
    st[S.ACTIVE, :n] = 1
    st[S.OWN_TRUMP, dealer] = 1  # the trump card is the dealer's own card, shown (docs/VARIANTS.md)
    info[S.WIDOW] = -1
    info[S.REDEALS] = redeals
    for s, word in turns.items():
        if word == "pass":
            st[S.ACTIVE, s], st[S.PASSED, s] = 0, 1
        elif word == "take":
            info[S.WIDOW] = s
            if s != seat:
                cardsets[S.DISCARDS, s] = unseen_cards(WIDOW_SIZE)  # which four, nobody saw
    if stage == "play":
        play = replay_play(rules, seat, dealer, hand, trump_card, played, passed, order, discarded, require_turn)
        played_mask = lay_out_play(play.done, play.current, st, trick, log)
    else:
        play, played_mask = None, 0
    final = C.mask_of(hand) | (play.own_played if play else 0)
    cardsets[S.HAND, seat] = np.uint64(C.mask_of(hand))
    cardsets[S.DEALT, seat] = np.uint64(final)  # (the play reads no dealt hand here: jacks_count, below)
    cardsets[S.FINAL, seat] = np.uint64(final)
    cardsets[S.DISCARDS, seat] = np.uint64(C.mask_of(discarded))
    if stage == "play":
        _lay_out_jacks(rules, seat, took, final, jacks, st)
    elif jacks:
        raise AdviceError("--jacks: the jack pairs are shown before the first lead; give them with --played")
    options, labels = _options(rules, stage, seat, hand, scores, info, play, require_turn, trick,
                               order.index(seat) + (n if stage == "take" else 0))  # fmt: skip
    arrays = {"cardsets": cardsets, "st": st, "trick": trick, "log": log, "info": info,
              "scores": np.asarray(scores, np.int64), "order": np.zeros(C.N_CARDS, np.int8)}  # fmt: skip
    k_turn = order.index(seat) + (n if stage == "take" else 0)  # declare-then-buy: the offers follow the round
    scalars = {"seat": seat, "dealer": dealer, "trump_card": trump_card, "k_turn": k_turn,
               "t": play.t if play else 0, "k": play.k if play else 0, "leader": play.leader if play else -1,
               "played": played_mask, "q_duty": play.q_duty if play else False,
               "events": play.events if play else [], "trump_maybe_discarded": dealer in turns and turns[dealer] == "take"}  # fmt: skip
    return Decision(stage, labels, options, arrays, scalars)


def _check_turns(rules: Rules, stage: str, order: list[int], seat: int, scores: list[int], turns: dict) -> None:
    """The turns given are those made before this decision, each open to its seat: one take of
    the widow at most, a pass only below ``modern_no_pass`` points; in declare-then-buy's round
    and at its widow's offer, no take yet (and at the offer every seat's word)."""
    if stage == "redeal":
        return
    if stage in ("round", "take") and "take" in turns.values():
        taker = next(s for s, w in turns.items() if w == "take")
        raise AdviceError(f"--turns {taker}=take: in declare-then-buy the widow is offered once everybody has said "
                          f"play or pass; give each seat's word (pass or play)"
                          + (f", {seat}=play for your offer" if stage == "take" else ""))  # fmt: skip
    if stage == "take":
        missing = [s for s in order if s not in turns]
        if missing:
            raise AdviceError(f"the widow is offered once everybody has said play or pass: add "
                              f"{','.join(f'{s}=play' for s in missing)} to --turns (pass or play)")  # fmt: skip
    elif stage in ("turn", "round"):
        before = order[: order.index(seat)]
        missing = [s for s in before if s not in turns]
        if missing:
            raise AdviceError(f"seat(s) {', '.join(map(str, missing))} take their turn before seat {seat}: give --turns "
                              f"{','.join(f'{s}=play' for s in missing)} (pass, play or take)")  # fmt: skip
        if seat in turns:
            raise AdviceError(f"--turns {seat}=...: seat {seat}'s own turn is the one advised; leave it out (or give "
                              "--played for the play)")  # fmt: skip
        extra = sorted(set(turns) - set(before))
        if extra:
            raise AdviceError(f"seat(s) {', '.join(map(str, extra))} take their turn after seat {seat}: leave them out "
                              "of --turns")  # fmt: skip
    else:
        missing = [s for s in order if s not in turns]
        if missing:
            raise AdviceError(f"for the play every seat's turn is known: add {','.join(f'{s}=play' for s in missing)} "
                              "to --turns (pass, play or take)")  # fmt: skip
        if turns[seat] == "pass":
            raise AdviceError(f"seat {seat} passed (--turns {seat}=pass): he has nothing to decide")
    takers = [s for s in order if turns.get(s) == "take"]
    if len(takers) > 1:
        raise AdviceError(f"--turns: seats {takers[0]} and {takers[1]} both took the widow; once taken it is gone")
    for s, word in turns.items():
        if word == "pass" and scores[s] >= rules.modern_no_pass:
            raise AdviceError(f"--turns: seat {s} has {scores[s]} points and may not pass from {rules.modern_no_pass} "
                              "(modern_no_pass)")  # fmt: skip


def _check_trump_card(seat: int, dealer: int, hand: list[int], trump_card: int, played, discarded: list[int],
                      stage: str) -> None:  # fmt: skip
    """The trump card is the dealer's last card, shown: his own (docs/VARIANTS.md)."""
    card = C.format_card(trump_card)
    if seat != dealer:
        if trump_card in hand:
            raise AdviceError(f"the trump card {card} is the dealer's own last card (seat {dealer}), not in your hand")
        return
    where = [*hand, *discarded, *(c for t in played or [] for c in t)]
    if trump_card not in where:
        what = "in your hand" if stage != "play" else "in your hand, played by you or laid aside"
        raise AdviceError(f"the trump card {card} is your own last card as dealer (modern): it must be {what}")


def _lay_out_jacks(rules: Rules, seat: int, took: bool, final: int, jacks: dict, st: np.ndarray) -> None:
    """The jack pairs shown before the first lead: the others' (``jacks``, active seats only:
    passers show nothing) and his own, counted from the hand he plays (``jacks_count=final``)."""
    from ..kernels import bits

    for s, kind in jacks.items():
        if s == seat or not 0 <= s < rules.players:
            raise AdviceError(f"--jacks: give the other seats' jack pairs (seats 0..{rules.players - 1} but {seat}); "
                              f"got seat {s}")  # fmt: skip
        if not st[S.ACTIVE, s]:
            raise AdviceError(f"--jacks: seat {s} passed and shows nothing (modern)")
        if kind == "four" and rules.four_jacks_win:
            raise AdviceError(f"--jacks: four jacks end the deal before the play (four_jacks_win); seat {s} cannot "
                              "have shown them")  # fmt: skip
        st[S.DECL, s] = codes.D_JACK_PAIR
        st[S.JACKS, s] = rules.jack_pair  # the bonus, earned with a trick
    if rules.jacks_count.value != "final" and took:
        raise AdviceError(f"jacks_count={rules.jacks_count.value}: a widow taker's jacks depend on the card he kept; "
                          "advise reads modern's own jacks_count=final")  # fmt: skip
    kind = int(bits.jack_kind(np.uint64(final)))
    if kind == 2 and rules.four_jacks_win:
        raise AdviceError("your four jacks end the deal before the play (four_jacks_win): there is no card to play")
    st[S.JACK_KIND, seat] = kind
    if kind:
        st[S.DECL, seat] = codes.D_JACK_PAIR
        st[S.JACKS, seat] = rules.jack_pair


def _options(rules: Rules, stage: str, seat: int, hand: list[int], scores: list[int], info: np.ndarray, play,
             require_turn: bool, trick: np.ndarray, k_turn: int) -> tuple[np.ndarray, list]:  # fmt: skip
    """The options open to the seat, and their labels: keep or redeal; pass (below
    ``modern_no_pass``), play, and each take while the widow is open (the 4-bit mask of the
    sorted hand's cards laid aside), those of step ``k_turn`` of the turns (declare-then-buy:
    pass or play in the round; decline or a take at the widow's offer); or the legal cards (R6)."""
    from .. import engine
    from ..kernels.args import rules_args
    from ..kernels.games.modern_search import turn_options

    if stage == "redeal":
        return np.array([0, REDEAL], np.int64), [("keep", []), ("redeal", [])]
    if stage == "play":
        if not require_turn:
            return np.zeros(0, np.int64), []
        before = [int(x) for x in trick[S.TRICK_CARD, : play.k]]
        legal = engine.legal_cards(rules, hand, C.suit_of(int(info[S.TRUMP_CARD])), before, play.q_duty)
        return np.array(legal, np.int64), [(C.format_card(c), [c]) for c in legal]
    buf = np.zeros(codes.N_OPTIONS, np.int64)
    count = turn_options(rules_args(rules), k_turn, np.uint64(C.mask_of(hand)), scores[seat], info[S.WIDOW] < 0, buf)
    options = buf[:count].copy()
    cards = sorted(hand)
    labels = []
    for o in options:
        if o == codes.OPTION_PASS:
            labels.append(("pass", []))
        elif o == 0:
            labels.append(("decline" if stage == "take" else "play", []))
        else:
            labels.append(("take, keep", [cards[j] for j in range(C.HAND_SIZE) if not int(o) >> j & 1]))
    return options, labels


# ---- the game's hooks for advise (rams_sim.advice.position.advice_module) ---------------------------------
RACE_BEFORE_PLAY = True  # evaluate_turn takes the options still racing
# positions whose evaluations `python -m rams_sim.warm` compiles (advise's arguments): a turn, a card
WARM_QUESTIONS = (
    {"hand": "A♥ K♠ 9♠ 10♦ Q♣", "trump_card": "9♥", "seat": 2, "dealer": 0, "rules": "modern", "turns": "1=pass"},
    {"hand": "A♥ K♠ 9♠ 10♦ Q♣", "trump_card": "9♥", "seat": 1, "dealer": 0, "rules": "modern",
     "turns": "1=play,2=play,3=play,0=play", "played": "-"},
)  # fmt: skip


def position_builder(rules: Rules, given: Described):
    """``build(cards, tricks, require_turn=False)``: :func:`modern_position` for the position ``given`` describes."""
    n = rules.players
    turns = parse_turns(given.turns, n) if isinstance(given.turns, str) else (None if given.turns is None else
                                                                             dict(given.turns))  # fmt: skip

    def build(cards, tricks, require_turn=False):
        return modern_position(rules, given.seat, given.dealer, cards, given.trump_card, given.scores, turns, tricks,
                               given.discarded, given.jacks, given.redeals, require_turn)  # fmt: skip

    return build


def evaluation(pos: Decision, b: Batch):
    """The redeal and the turn: :func:`rams_sim.kernels.games.modern_search.evaluate_turn`; a card: None (the
    cards' search of the games with R6's duty to follow)."""
    from ..kernels.games.modern_search import evaluate_turn

    if pos.stage == "play":
        return None
    a, x = pos.arrays, pos.scalars
    return evaluate_turn, (b.r, b.roll_kinds, b.roll_params, b.announce, b.key, a["cardsets"], a["st"], a["info"],
                           x["dealer"], a["scores"], x["k_turn"], x["seat"], pos.stage == "redeal", b.options, b.first,
                           b.deltas, b.flags)  # fmt: skip


def record_rows(rules: Rules, record: DealRecord, st: np.ndarray) -> None:
    """:func:`rams_sim.advice.position.state_at`'s modern rows: the shown trump card is the dealer's own, and a
    jack pair shown holds its bonus, earned with a trick (the record keeps what was earned)."""
    st[S.OWN_TRUMP, record.dealer] = 1
    for o, declared in enumerate(record.declaration):
        if declared == Declaration.JACK_PAIR:
            st[S.JACKS, o] = rules.jack_pair


def deal_places(rules: Rules, dealer: int) -> tuple[list[list[int]], int, list[int]]:
    """Modern's deal in the deck order (docs/VARIANTS.md "modern", kernels.games.modern): R3's hands, the
    trump card the dealer's last card (card 5n - 1, in his hand), the widow the four cards after the
    hands. Returns (each seat's places, the trump card's place, the widow's places): :mod:`.truth`'s
    deck orders."""
    widow = C.HAND_SIZE * rules.players
    return hand_places(rules.players, dealer), widow - 1, list(range(widow, widow + WIDOW_SIZE))


# ---- the decisions of a recorded deal (rams_sim.advice.questions) ----
def record_questions(rules: Rules, record: DealRecord) -> list[dict]:
    """Every decision of a recorded modern deal, as advise's keywords: each card (:mod:`.questions`)."""
    turns = {s: "pass" if record.passed[s] else "take" if record.widow == s else "play" for s in range(rules.players)}
    out = []
    for seat, t, k, before in card_decisions(record):
        jacks = {s: "pair" for s in range(rules.players)
                 if s != seat and not record.passed[s] and record.declaration[s] == Declaration.JACK_PAIR}  # fmt: skip
        out.append({"seat": seat, "dealer": record.dealer, "rules": rules, "trump_card": record.trump_card,
                    "hand": own_hand(record, seat, before), "turns": turns, "played": before, "jacks": jacks,
                    "discarded": C.cards_of(record.discards[seat]) if record.widow == seat else [],
                    "scores": [16] * rules.players, "stage": "play", "t": t, "k": k})  # fmt: skip
    return out
