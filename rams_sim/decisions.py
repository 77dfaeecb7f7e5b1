"""The decisions a branch can force (``rams-sim branch --decision``), named for people, numbered for the kernels.

A *branch* replays each deal once per option of one decision of one seat, on the same deck order
and coins, everyone else on his policy and the seat on his at every other decision
(:func:`rams_sim.engine.simulate_branches`, :mod:`rams_sim.kernels.force`). The decisions, by name:

* ``exchange`` -- the game's first decision: in classic Rams pass (R4.1) or play and the cards
  thrown (R4.4); zone's swap, modern's turn, duel's widow (also by their own names ``swap``,
  ``turn``, ``widow``). Options as ``rams-sim branch`` has always numbered them.
* ``round`` and ``buy`` -- R4.0's declare-then-buy: the first round's pass (-1) or play (0), his
  purchase then by his policy; the purchase, a discard mask over his hand (0 stands), 0 .. 31.
* ``intent`` -- R4.0a: "on trumps" (0) or "on suits" (1), where the rules have the round.
* ``trump`` -- R4.3: the playing dealer declines the turned-up trump card (-1) or takes it and gives
  up a card (the card's id); duel-trump's compulsory card (R9, the card's id).
* ``card:T`` -- the seat's card in trick ``T`` (1 .. 5): every card he may play there (R6.7a), by id.
* ``redeal`` -- R9 modern: a seat dealt five of one suit keeps them (0) or demands a redeal (1).
* ``offer:T``, ``answer:T`` -- R9 duel's dave before the seat's card of trick ``T``: no offer (0)
  or an offer (1); declining the other's offer (0) or accepting it (1).

Each game's entry (:attr:`rams_sim.games.GameInfo.branch_decisions`) lists the kinds it has. A
decision the seat never reaches in a deal (he passed, a declaration ended the deal, nobody offered
dave) gives that deal no rows; an option the rules do not open there (a card he may not play, a
decline where R4.3 makes him take the card) gives no row for that option.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import HAND_SIZE, MAX_SEATS, N_TRICKS
from .games import GAMES
from .kernels import codes

EXCHANGE, TRUMP, CARD, REDEAL, OFFER, ANSWER = "exchange", "trump", "card", "redeal", "offer", "answer"
ROUND, BUY, INTENT = "round", "buy", "intent"  # declare-then-buy's two steps (R4.0) and the R4.0a announcement
FIRST_NAMES = ("swap", "turn", "widow")  # the first decision under the names zone, modern and duel give it
BY_TRICK = (CARD, OFFER, ANSWER)  # the kinds named with a trick, KIND:T


@dataclass(frozen=True, slots=True)
class BranchDecision:
    """One decision of a seat, as a branch forces it: ``kind`` (one of the names above; the first
    decision is always ``exchange``) and, for a card or dave, ``trick`` (0-based)."""

    kind: str = EXCHANGE
    trick: int = 0

    @property
    def name(self) -> str:
        """The name as the command line takes it (``card:2`` for trick index 1)."""
        return f"{self.kind}:{self.trick + 1}" if self.kind in BY_TRICK else self.kind

    def number(self, seat: int) -> int:
        """The kernels' decision number (:mod:`rams_sim.kernels.codes`): EXCHANGE_DECISION for the first."""
        if self.kind == EXCHANGE:
            return codes.EXCHANGE_DECISION
        if self.kind == TRUMP:
            return codes.PHASE_TRUMP
        if self.kind == REDEAL:
            return codes.REDEAL_DECISION
        if self.kind in (ROUND, BUY, INTENT):
            return {ROUND: codes.PHASE_ROUND, BUY: codes.PHASE_BUY, INTENT: codes.PHASE_INTENT}[self.kind]
        if self.kind == CARD:
            return codes.CARD_DECISION + self.trick
        from .kernels.games.duel import dave_decision  # the kernels' own numbering, run as plain Python

        number = getattr(dave_decision, "py_func", dave_decision)  # (the function itself under NUMBA_DISABLE_JIT)
        return int(number(seat, self.trick, 1 if self.kind == ANSWER else 0))

    def option_range(self) -> tuple[int, int]:
        """(the first option code, how many) the branch driver forces: :mod:`rams_sim.kernels.force`'s
        codes (the j-th card of the hand, DECLINE, 0/1; the exchange's pass, stand and 31 masks)."""
        if self.kind == EXCHANGE:
            return codes.OPTION_PASS, codes.N_OPTIONS
        if self.kind == TRUMP:
            return codes.DECLINE, HAND_SIZE + 1
        if self.kind == CARD:
            return 0, HAND_SIZE
        if self.kind == ROUND:
            return codes.OPTION_PASS, 2
        if self.kind == BUY:
            return 0, 1 << HAND_SIZE
        return 0, 2


_WORDS = {REDEAL: ("keep", "redeal"), OFFER: ("no offer", "offer"), ANSWER: ("decline", "accept"),
          INTENT: ("on trumps", "on suits")}


def option_label(decision: BranchDecision, option: int) -> str:
    """A branch row's ``option`` in words, for a decision other than the exchange: the card played or
    given up (``decline`` for the trump card kept out), keep/redeal, offer or not, decline/accept."""
    from .cards import format_card

    if decision.kind in _WORDS:
        return _WORDS[decision.kind][option]
    if decision.kind == ROUND:
        return "pass" if option == codes.OPTION_PASS else "play"
    if decision.kind == BUY:
        return "stand" if option == 0 else f"buy {option.bit_count()} (mask {option})"
    if decision.kind == TRUMP and option == codes.DECLINE:
        return "decline"
    return ("give up " if decision.kind == TRUMP else "") + format_card(option)


def decision_names(rules) -> list[str]:
    """The decisions of ``rules``' game in the command line's words (``card:1..5`` for five)."""
    out = []
    for kind in GAMES[rules.game].branch_decisions:
        if kind in BY_TRICK:
            out.append(f"{kind}:1..{N_TRICKS}")
        elif _available(rules, kind) is None:
            out.append(kind)
    return out


def _available(rules, kind: str) -> str | None:
    """Why ``kind`` is not a decision under ``rules`` though its game has it, or None."""
    if kind == TRUMP and GAMES[rules.game].settled_by_stake and not rules.duel_trump_card:
        return f"preset {rules.preset} turns no card for the dealer (duel_trump_card=false)"
    if kind in (OFFER, ANSWER) and GAMES[rules.game].dave and not rules.dave:
        return f"preset {rules.preset} plays without dave (dave=false)"
    if kind in (ROUND, BUY) and rules.exchange_order.value != "declare-then-buy":
        return f"preset {rules.preset} exchanges in one turn (exchange_order=one-turn): its decision is 'exchange'"
    if kind == INTENT and not rules.intent_round:
        return f"preset {rules.preset} has no R4.0a announcements (intent_round=false)"
    return None


def parse_decision(text: str, rules) -> BranchDecision:
    """``exchange`` (or the game's own name of it), ``trump``, ``card:T``, ``redeal``, ``offer:T``,
    ``answer:T``; ValueError in one line naming the decisions of ``rules``' game otherwise."""
    raw = text.strip().lower()
    kind, _, tail = raw.partition(":")
    info = GAMES[rules.game]
    first = info.branch_decisions[0]
    if kind in FIRST_NAMES or kind == EXCHANGE:
        if kind not in (EXCHANGE, first):
            raise ValueError(f"preset {rules.preset} has no decision {kind!r}; its first decision is {first!r} "
                             f"(or 'exchange'); its decisions: {', '.join(decision_names(rules))}")  # fmt: skip
        kind = EXCHANGE
    names = ", ".join(decision_names(rules))
    kinds = (EXCHANGE,) + tuple(info.branch_decisions[1:])
    if kind not in kinds:
        known = {EXCHANGE, TRUMP, CARD, REDEAL, OFFER, ANSWER, ROUND, BUY, INTENT, *FIRST_NAMES}
        what = "has no decision" if kind in known else "knows no decision"
        raise ValueError(f"preset {rules.preset} {what} {text.strip()!r}; its decisions: {names}")
    why = _available(rules, kind)
    if why:
        raise ValueError(f"{why}; its decisions: {names}")
    if kind in BY_TRICK:
        if not tail.strip().isdigit() or not 1 <= int(tail) <= N_TRICKS:
            raise ValueError(f"decision {kind} needs its trick, {kind}:1 .. {kind}:{N_TRICKS}; got {text.strip()!r}")
        return BranchDecision(kind, int(tail) - 1)
    if tail:
        raise ValueError(f"decision {kind} takes no trick; got {text.strip()!r}; its decisions: {names}")
    return BranchDecision(kind)


assert codes.DAVE_DECISION == MAX_SEATS * codes.DECISIONS
