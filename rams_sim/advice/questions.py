"""Every decision of a recorded deal, asked as a player would ask ``rams-sim advise`` (issues 35, 45).

:func:`questions` turns a :class:`~rams_sim.record.DealRecord` (played with its log of tricks) into
one keyword dictionary per decision that the deal's seats really took: what the seat to decide had
been told by then, written as :func:`rams_sim.advise` takes it, plus ``stage`` (and ``t``, ``k`` for a
card). The decisions are those of each game's advise (docs/SEARCH.md "Reading pimc's numbers"); each
game's advice module has its ``record_questions`` (classic's is :func:`classic_questions`, here):

* classic and the presets that only change its options: each seat's exchange turn (R4.0: one
  turn, or declare-then-buy's play-or-pass and then its purchase), the R4.0a announcement where
  the rules have one, the dealer's R4.3 card, and each card (R6);
* duel, duel-trump: each card of a deal where nobody offered dave (the stake stays 1);
* zone: the partner's swap and each card; modern: each card.

Nothing here applies a rule: the record says who did what; the helpers only write it the way a
player would (counts of the others' exchanges, never their cards). The validation suite
(:mod:`rams_sim.advice.check`) and tests/test_advise_history.py ask these questions.
"""

from __future__ import annotations

from .. import cards as C
from ..record import DealRecord, Declaration, Intent
from ..rules import Rules
from .position import advice_module, play_order

INTENT_WORDS = {Intent.ON_TRUMPS: "trumps", Intent.ON_SUITS: "suits"}


def tricks_before(record: DealRecord, t: int, k: int) -> list[list[int]]:
    """The cards played before card ``k`` of trick ``t``, trick by trick in playing order."""
    out = []
    for tt in range(t + 1):
        trick = record.plays[tt]
        seats = play_order(record, trick.leader)
        if tt == t:
            seats = seats[:k]
        out.append([trick.cards[s] for s in seats])
    return out if out[-1] else out[:-1]


def own_hand(record: DealRecord, seat: int, before: list[list[int]]) -> list[int]:
    seen = {c for trick in before for c in trick}
    return [c for c in C.cards_of(record.hand_final[seat]) if c not in seen]


def card_decisions(record: DealRecord):
    """(seat, t, k, tricks before) for every card of the play."""
    for t, trick in enumerate(record.plays):
        for k, seat in enumerate(play_order(record, trick.leader)):
            yield seat, t, k, tricks_before(record, t, k)


def declared_jacks(record: DealRecord, seat: int) -> dict[int, str]:
    """The other seats' jack declarations (R5.5), as ``--jacks`` takes them."""
    words = {Declaration.JACK_PAIR: "pair", Declaration.FOUR_JACKS: "four"}
    return {s: words[Declaration(d)] for s, d in enumerate(record.declaration) if s != seat and d in words}


def classic_questions(rules: Rules, record: DealRecord) -> list[dict]:
    """classic Rams and the presets that only change its options: each seat's exchange turn (R4.0: one
    turn, or declare-then-buy's play-or-pass and then its purchase), the R4.0a announcement where the
    rules have one, the dealer's R4.3 card, and each card (R6)."""
    n = rules.players
    order = [(record.dealer + 1 + k) % n for k in range(n)]
    active = [s for s in order if not record.passed[s]]
    counts = {s: None if record.passed[s] else len(C.cards_of(record.discards[s])) for s in range(n)}
    intents = {s: INTENT_WORDS[Intent(record.intent[s])] for s in active} if rules.intent_round else {}
    base = {"seat": None, "dealer": record.dealer, "rules": rules, "trump_card": record.trump_card}
    out = []
    one_turn = rules.exchange_order.value == "one-turn"
    for i, seat in enumerate(order):  # the first round (R4.0)
        before = order[:i]
        said = {s: counts[s] if one_turn else (None if record.passed[s] else "play") for s in before}
        out.append(base | {"seat": seat, "hand": C.cards_of(record.hand_dealt[seat]), "exchanged": said,
                           "stage": "exchange" if one_turn else "round"})  # fmt: skip
    words = {s: None if record.passed[s] else "play" for s in order}
    if rules.intent_round:
        for i, seat in enumerate(active):
            out.append(base | {"seat": seat, "hand": C.cards_of(record.hand_dealt[seat]), "exchanged": words,
                               "intents": {s: intents[s] for s in active[:i]}, "stage": "intent"})  # fmt: skip
    if not one_turn:
        for i, seat in enumerate(active):
            said = words | {s: counts[s] for s in active[:i]}
            out.append(base | {"seat": seat, "hand": C.cards_of(record.hand_dealt[seat]), "exchanged": said,
                               "intents": intents or None, "stage": "buy"})  # fmt: skip
    dealer = record.dealer
    after_exchange = (record.hand_dealt[dealer] & ~record.discards[dealer]) | record.drawn[dealer]
    if not record.passed[dealer]:  # R4.3: a playing dealer keeps his hand or takes the card
        out.append(base | {"seat": dealer, "hand": C.cards_of(after_exchange), "exchanged": counts,
                           "discarded": C.cards_of(record.discards[dealer]), "intents": intents or None,
                           "stage": "trump"})  # fmt: skip
    for seat, t, k, before in card_decisions(record):
        discarded = C.cards_of(record.discards[seat])
        if seat == dealer and record.took_trump[dealer]:
            discarded.append(record.trump_discard[dealer])
        out.append(base | {"seat": seat, "hand": own_hand(record, seat, before), "exchanged": counts,
                           "played": before, "discarded": discarded, "took_trump": bool(record.took_trump[dealer]),
                           "jacks": declared_jacks(record, seat), "intents": intents or None, "stage": "play", "t": t,
                           "k": k})  # fmt: skip
    return out


def questions(rules: Rules, record: DealRecord) -> list[dict]:
    """Every decision the seats of ``record`` took under ``rules``, as :func:`rams_sim.advise`'s
    keywords plus ``stage`` (and ``t``, ``k`` for a card): :func:`asked` drops those."""
    return advice_module(rules).record_questions(rules, record)


def asked(question: dict) -> dict:
    """The keywords of ``question`` that advise takes (without ``stage``, ``t``, ``k``)."""
    return {key: value for key, value in question.items() if key not in ("stage", "t", "k")}
