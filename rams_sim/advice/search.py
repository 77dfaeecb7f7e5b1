"""``rams-sim advise``: every option open to a seat in a real position, ranked by determinized search.

A player describes what he knows -- his hand, the turned-up trump card, the table, who
passed and how many cards each seat exchanged (``exchanged``), the tricks so far
(``played``) -- and :func:`advise` plays every option open to him in the same sampled
worlds (:mod:`rams_sim.kernels.pimc`: the unseen cards dealt uniformly over the layouts
consistent with what he knows, docs/SEARCH.md), the rest of the deal played out by
``others`` for the other seats and by ``rollout`` for his own later decisions. Each
option gets its mean score delta with a 95% CI, its paired difference to the best option
(same worlds) with a 95% CI, P(remiz) and, where scores are given, how often the deal
ends the party.

The decision is read from what is given:

* ``played`` given (``[]``: before the first lead): the card to play; every seat's
  exchange must be given, his own discards too (``discarded``);
* else, the dealer with every seat's exchange given (his own included): R4.3, keep his
  hand or take the trump card and give up one card;
* else: his exchange turn, every seat before him in R4.0's order given: in one-turn rules
  pass, stand or a discard set (stage "exchange"); in declare-then-buy rules play or
  pass (stage "round"), and, once he said ``play`` (``exchanged`` gives ``seat=play``
  and every seat's word, the seats that bought before him with their counts), his
  purchase: stand or a discard set (stage "buy"); with R4.0a announcements, between the
  first round and the purchases (or the trump card), his announcement (stage "intent").

Input as players write it: ``"A♥ K♠ 7♠ 9♦ 10♣"``, ``"Ah Ks 7s 9d Tc"``; ``played`` as
tricks separated by ``/``, each in the order played from its leader, e.g.
``"K♠ 7♠ A♠ 9♠ / 10♥"``; ``exchanged`` as ``"1=2,2=pass,3=0"`` (seat = cards exchanged,
``pass``, or ``play`` said in a declare-then-buy round before buying). Mistakes raise :class:`AdviceError` (one line; the CLI exits with 2).

The other seats' jack declarations (R5.5) are an input (``jacks``); a seat not named
declared none; the R4.0a announcements (``intents``, ``"1=trumps,3=suits"``) are given
where the rules have them (``intent_round``): those made before the seat's own
announcement (stage "intent", options "on trumps" and "on suits"), every one after it.
The seat's own jacks are counted from his hand at the first lead.

R9 ``modern``, ``zone`` and ``duel`` have their own decisions and notation (``turns``,
``redeals``, ``stake``, ``cube``, ``dave``): :mod:`rams_sim.advice.modern` lays modern's
positions out (the redeal question, the turn, each card), :mod:`rams_sim.advice.zone`
zone's (the partner's swap, each card) and :mod:`rams_sim.advice.duel` duel's (the widow,
duel-trump's card, dave, each card); the search and the table are this module's, with the
most ranked first where the game counts up (modern's points) or is settled by the party
(duel's stakes, with P(win party)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import cards as C
from ..games import GAMES
from ..kernels import codes
from ..kernels import state as S
from ..parallel import in_blocks
from ..policies import DEFAULT_FLOOR, DEFAULT_INFER, INFER_NAMES, ROLLOUT_KINDS, PolicySpec, as_spec
from ..rules import Rules
from . import model_error
from .model_error import ModelError
from .notation import (
    PLAYS,
    AdviceError,
    parse_cards,
    parse_exchanged,
    parse_intents,
    parse_jacks,
    parse_played,
    parse_scores,
)  # fmt: skip
from .position import (
    Batch,
    Decision,
    Described,
    Play,
    advice_module,
    check_cards,
    lay_out_play,
    new_arrays,
    order_from,
    replay_play,
    unseen_cards,
)  # fmt: skip
from .questions import classic_questions

Z95 = 1.959963984540054
# worlds per batch, between two checks of the target SE (a multiple of kernels.pimc.BLOCK: results do not depend on it)
BATCH = 1024
DEFAULT_TARGET_SE = 0.1  # points of score delta: the standard error of every option's mean
# duel's options are worth the party's stake (a spread of about 1, a deal's points about 10): the same precision
DEFAULT_TARGET_SE_STAKES = 0.01
DEFAULT_MAX_WORLDS = 100_000
DEFAULT_RACE = 3.0  # racing between batches: an option this many standard errors worse than the best drops out
INTENT_CODES = {"trumps": codes.INTENT_TRUMPS, "suits": codes.INTENT_SUITS}  # R4.0a word -> its code
PHASES = {"exchange": codes.PHASE_ROUND, "round": codes.PHASE_ROUND, "intent": codes.PHASE_INTENT,
          "buy": codes.PHASE_BUY, "trump": codes.PHASE_TRUMP}  # stage -> the search's phase  # fmt: skip


# ---- the position ---------------------------------------------------------------------------
def build_position(rules: Rules, seat: int, dealer: int, hand: list[int], trump_card: int, scores: list[int],
                   exchanged: dict, played: list[list[int]] | None, discarded: list[int],
                   took_trump: bool | None, require_turn: bool = True, jacks: dict | None = None,
                   intents: dict | None = None) -> Decision:  # fmt: skip
    """Validate a described position and lay it out as the kernels' state arrays.

    ``require_turn=False`` (for :func:`check_history`): a position inside the history,
    where another seat is about to play."""
    n = rules.players
    check_cards(rules, seat, dealer, hand, trump_card, discarded)
    order = order_from(dealer, n)
    passed = {s for s, v in exchanged.items() if v is None}
    intents = intents or {}
    stage = _stage_of(rules, seat, dealer, exchanged, played, took_trump, intents)
    talon_pos = _check_exchanges(rules, stage, order, seat, dealer, hand, trump_card, exchanged, passed, played,
                                 discarded)  # fmt: skip
    _check_intents(rules, stage, order, seat, passed, intents)
    if stage == "play":
        play = replay_play(rules, seat, dealer, hand, trump_card, played, passed, order, discarded, require_turn)
    elif len(hand) != C.HAND_SIZE:
        raise AdviceError(f"a hand holds five cards before the play (R3); {len(hand)} given")
    else:
        play = Play([], [], 0, 0, -1, [], 0, False)
    cardsets, st, trick, log, info = new_arrays(trump_card)
    played_mask = lay_out_play(play.done, play.current, st, trick, log)
    _lay_out_table(rules, stage, seat, dealer, hand, trump_card, exchanged, passed, played, discarded, took_trump,
                   jacks or {}, play.own_played, cardsets, st)  # fmt: skip
    for s_, word in intents.items():  # R4.0a: public
        st[S.INTENT, s_] = INTENT_CODES[word]
    options, labels, step = _options(rules, stage, seat, dealer, hand, trump_card, order, talon_pos, play, require_turn,
                                     cardsets, st, trick)  # fmt: skip
    arrays = {"cardsets": cardsets, "st": st, "trick": trick, "log": log, "info": info,
              "scores": np.asarray(scores, np.int64), "order": np.zeros(C.N_CARDS, np.int8)}  # fmt: skip
    scalars = {"seat": seat, "dealer": dealer, "trump_card": trump_card, "t": play.t, "k": play.k,
               "leader": play.leader, "played": played_mask, "q_duty": play.q_duty, "talon_pos": talon_pos,
               "step": step, "events": play.events}  # fmt: skip
    return Decision(stage, labels, options, arrays, scalars)


def _stage_of(rules: Rules, seat: int, dealer: int, exchanged: dict, played, took_trump: bool | None,
              intents: dict) -> str:  # fmt: skip
    """Which decision is asked (module docstring): "play" (``played`` given), "intent" (his
    R4.0a announcement: the first round over, he plays and has not announced), "trump" (the
    dealer, every exchange known, R4.3), "buy" (his purchase in a declare-then-buy round:
    he said play), else "exchange" (one-turn: pass, stand or discards) or "round"
    (declare-then-buy: play or pass)."""
    if played is not None:
        return "play"
    own = exchanged.get(seat, "")
    one_turn = rules.exchange_order.value == "one-turn"
    round_over = len(exchanged) == rules.players and (
        all(v is None or isinstance(v, int) for v in exchanged.values()) if one_turn
        else all(v is None or v == PLAYS for v in exchanged.values()))  # fmt: skip
    if rules.intent_round and round_over and own is not None and seat not in intents:
        return "intent"
    if seat == dealer and len(exchanged) == rules.players and isinstance(own, int) and took_trump is None:
        return "trump"
    if own == PLAYS:
        if one_turn:
            raise AdviceError(f"--exchanged {seat}=play: 'play' is said in a declare-then-buy round (R4.0); preset "
                              f"{rules.preset} exchanges in one turn: give what each seat exchanged")  # fmt: skip
        return "buy"
    return "exchange" if one_turn else "round"


def _check_exchanges(rules: Rules, stage: str, order: list[int], seat: int, dealer: int, hand: list[int],
                     trump_card: int, exchanged: dict, passed: set[int], played, discarded: list[int]) -> int:  # fmt: skip
    """R4: the exchanges given are those made before this decision, each open to its seat
    (R4.1, R4.4), the seat's own discards known, the trump card where R4.3 allows it.
    Returns the next talon card's position in the deck order (R3: after 5n + 1 cards)."""
    from ..kernels import bits

    n = rules.players
    talon_pos = C.HAND_SIZE * n + 1
    if stage in ("exchange", "round"):
        before = order[: order.index(seat)]
        missing = [s for s in before if s not in exchanged]
        if missing:
            value, hint = ("N", "N: how many cards it exchanged, or pass") if stage == "exchange" else ("play", "or pass")
            raise AdviceError(f"seat(s) {', '.join(map(str, missing))} decide before seat {seat} (R4.0): give "
                              f"--exchanged {','.join(f'{s}={value}' for s in missing)} ({hint})")  # fmt: skip
        extra = sorted(set(exchanged) - set(before))
        if extra:
            raise AdviceError(f"seat(s) {', '.join(map(str, extra))} decide after seat {seat}: they have not "
                              "decided yet, leave them out of --exchanged")  # fmt: skip
        if stage == "round":
            bought = [s for s in before if isinstance(exchanged[s], int)]
            if bought:
                raise AdviceError(f"declare-then-buy (R4.0): nobody buys before every seat said play or pass; give "
                                  f"{','.join(f'{s}=play' for s in bought)}")  # fmt: skip
        elif any(v == PLAYS for v in exchanged.values()):
            raise AdviceError(f"preset {rules.preset} exchanges in one turn: give what each seat exchanged, not 'play'")
    elif stage != "intent":  # (at an announcement the first round is over: _stage_of saw every seat's word)
        missing = [s for s in order if s not in exchanged]
        if missing:
            what = {"buy": "purchase", "trump": "trump card", "play": "play"}[stage]
            raise AdviceError(f"for the {what} every seat's exchange is known: add "
                              f"{','.join(f'{s}=N' for s in missing)} to --exchanged (N cards, pass, or play before "
                              "buying)")  # fmt: skip
        if seat in passed:
            raise AdviceError(f"seat {seat} passed (--exchanged {seat}=pass): he has nothing to decide")
        if stage == "buy":
            active = [s for s in order if s not in passed]
            before = active[: active.index(seat)]
            for s in active:
                if s in before and not isinstance(exchanged[s], int):
                    raise AdviceError(f"seat {s} buys before seat {seat} (R4.0): give how many cards he bought ({s}=N)")
                if s not in before and s != seat and exchanged[s] != PLAYS:
                    raise AdviceError(f"seat {s} buys after seat {seat}: give {s}=play (he has not bought yet)")
        elif any(v == PLAYS for v in exchanged.values()):
            raise AdviceError("for the trump card and the play give the cards each seat bought, not 'play'")
    own = exchanged.get(seat)
    r43 = 1 if seat == dealer and trump_card in [*hand, *(c for t in played or [] for c in t)] else 0  # R4.3's card
    exchanged_yet = stage in ("trump", "play") or (stage == "intent" and isinstance(own, int))
    if not exchanged_yet and discarded:
        raise AdviceError(f"seat {seat} has not exchanged yet: --discarded is for after his exchange")
    if exchanged_yet and len(discarded) != (own or 0) + r43:
        raise AdviceError(f"seat {seat} exchanged {own or 0} cards{' and gave one for the trump card' if r43 else ''}: "
                          f"give them with --discarded (he knows them; {len(discarded)} given)")  # fmt: skip
    for s, k in exchanged.items():  # R4.4: the talon limits the exchange, in order
        if s == seat and stage in ("exchange", "buy") or not isinstance(k, int):
            continue
        if k:
            if talon_pos + k > rules.deck_size:
                raise AdviceError(f"seat {s} cannot exchange {k} cards: the talon has {rules.deck_size - talon_pos} left (R4.4)")
            talon_pos += k
    if rules.ace_forbids_pass and seat in passed and C.mask_of(hand) & int(bits.ACE_CARDS):
        raise AdviceError(f"seat {seat} holds an ace and cannot have passed (R4.1)")
    if trump_card in hand and not (stage == "play" and seat == dealer):
        raise AdviceError(f"the trump card {C.format_card(trump_card)} is turned up on the table, not in the hand "
                          "(only the dealer takes it, R4.3)")  # fmt: skip
    return talon_pos


def _check_intents(rules: Rules, stage: str, order: list[int], seat: int, passed: set[int], intents: dict) -> None:
    """R4.0a: announcements only where the rules have the round, by seats that play, after the
    first round; every one made before this decision given, none after it."""
    if intents and not rules.intent_round:
        raise AdviceError(f"--intents: preset {rules.preset} has no R4.0a announcements (rule intent_round)")
    if intents and stage in ("exchange", "round"):
        raise AdviceError("--intents: the R4.0a announcements follow the first round; leave them out before it")
    for s in intents:
        if s in passed:
            raise AdviceError(f"--intents: seat {s} passed and announces nothing (R4.0a)")
    if stage == "intent":
        _intents_before(order, seat, passed, intents)
        return
    if not (rules.intent_round and stage in ("buy", "trump", "play")):
        return
    missing = [s for s in order if s not in passed and s not in intents]
    if missing:
        raise AdviceError(f"every seat that plays announced (R4.0a): add {','.join(f'{s}=trumps' for s in missing)} "
                          "(or suits) to --intents")  # fmt: skip


def _intents_before(order: list[int], seat: int, passed: set[int], intents: dict) -> None:
    active = [s for s in order if s not in passed]
    before = active[: active.index(seat)]
    missing = [s for s in before if s not in intents]
    if missing:
        raise AdviceError(f"seat(s) {', '.join(map(str, missing))} announce before seat {seat} (R4.0a): give "
                          f"--intents {','.join(f'{s}=trumps' for s in missing)} (or suits)")  # fmt: skip
    extra = sorted(set(intents) - set(before))
    if extra:
        raise AdviceError(f"--intents: seat(s) {', '.join(map(str, extra))} announce after seat {seat}; leave them out")


def _lay_out_table(rules: Rules, stage: str, seat: int, dealer: int, hand: list[int], trump_card: int, exchanged: dict,
                   passed: set[int], played, discarded: list[int], took_trump: bool | None, jacks: dict,
                   own_played: int, cardsets: np.ndarray, st: np.ndarray) -> None:  # fmt: skip
    """What the seat knows of the table into ``cardsets``/``st``: who passed (R4.1), how
    many cards each other seat exchanged (their cards unknown), the others' jack
    declarations (R5.5), his own hands, discards, aces and jacks, and who took the trump
    card (R4.3; which card the dealer gave for it stays his secret)."""
    from ..kernels import bits, codes
    from ..kernels.args import rules_args

    n = rules.players
    hand_mask = C.mask_of(hand)
    for s in range(n):
        is_passer = s in passed
        st[S.ACTIVE, s] = int(not is_passer)
        st[S.PASSED, s] = int(is_passer)
        count = exchanged.get(s)
        if s != seat and isinstance(count, int) and count > 0:
            cardsets[S.DISCARDS, s] = unseen_cards(count)
    for s_, kind in jacks.items():  # R5.5: the others' jack declarations, public
        if s_ == seat or not 0 <= s_ < n:
            raise AdviceError(f"--jacks: give the other seats' jack declarations (seats 0..{n - 1} but {seat}); "
                              f"got seat {s_}")  # fmt: skip
        four = kind == "four"
        st[S.DECL, s_] = codes.D_FOUR_JACKS if four else codes.D_JACK_PAIR
        st[S.JACKS, s_] = rules.four_jacks if four else rules.jack_pair
    final = hand_mask | own_played
    cardsets[S.HAND, seat] = np.uint64(hand_mask)
    before_exchange = stage in ("exchange", "round", "buy") or (stage == "intent" and not isinstance(exchanged[seat], int))
    cardsets[S.DEALT, seat] = np.uint64(hand_mask if before_exchange else final)
    cardsets[S.FINAL, seat] = np.uint64(final)
    cardsets[S.DISCARDS, seat] = np.uint64(C.mask_of(discarded))
    st[S.ACES, seat] = int(bits.ace_points(np.uint64(final), rules_args(rules).ace_values))
    kind = int(bits.jack_kind(np.uint64(final)))
    if stage == "play" and kind:
        st[S.JACKS, seat] = rules.four_jacks if kind == 2 else rules.jack_pair  # R5.5, declared before the play
    took = bool(took_trump)
    if stage == "play":
        shown = any(trump_card in t for t in played or [])  # only the dealer plays it (replay_play): he took it
        if took_trump is False and shown:
            raise AdviceError(f"--played: the dealer (seat {dealer}) played the trump card {C.format_card(trump_card)}, "
                              "so he took it (R4.3); leave out --no-took-trump")  # fmt: skip
        took = took or shown or (seat == dealer and bool(hand_mask >> trump_card & 1))
    if took and dealer != seat:
        st[S.TOOK_TRUMP, dealer], st[S.TRUMP_DISCARD, dealer] = 1, 0  # public: he took it; the card he gave is not
    elif took:
        st[S.TOOK_TRUMP, dealer] = 1


def _options(rules: Rules, stage: str, seat: int, dealer: int, hand: list[int], trump_card: int, order: list[int],
             talon_pos: int, play: Play, require_turn: bool, cardsets: np.ndarray, st: np.ndarray,
             trick: np.ndarray) -> tuple[np.ndarray, list, int]:  # fmt: skip
    """The options open to the seat (int64 codes of kernels.pimc.options_at, or legal card
    ids, R6), their labels, and the deal's step of the decision (kernels.exchange)."""
    from .. import engine
    from ..kernels import codes
    from ..kernels.args import rules_args
    from ..kernels.pimc import options_at

    step = order.index(seat)
    if stage == "play" and not require_turn:
        return np.zeros(0, np.int64), [], step
    if stage == "play":
        before = [int(x) for x in trick[S.TRICK_CARD, : play.k]]
        legal = engine.legal_cards(rules, hand, C.suit_of(trump_card), before, play.q_duty)
        return np.array(legal, np.int64), [(C.format_card(c), [c]) for c in legal], step
    phase = PHASES[stage]
    n = rules.players
    step = {"trump": 3 * n, "buy": 2 * n + step, "intent": n + step}.get(stage, step)
    buf = np.zeros(codes.N_OPTIONS + 1, np.int64)
    count = options_at(phase, step, talon_pos, seat, rules_args(rules), cardsets, st, dealer, trump_card, buf)
    options = buf[:count].copy()
    return options, [_label(int(o), stage, hand) for o in options], step


def check_history(rules: Rules, pos: Decision, seat: int, dealer: int, hand: list[int], trump_card: int,
                  played: list[list[int]], build) -> None:  # fmt: skip
    """Each card another seat played could have been in his hand then: at that moment of the
    history it lies in his pile of what the seat knows (:func:`rams_sim.kernels.knowledge.play_piles`,
    the sampler's own reading of R6), else :class:`AdviceError` naming the card. ``build(then,
    before)``: the game's position with the seat holding ``then`` after the tricks ``before``
    (``require_turn=False``)."""
    from ..kernels.args import rules_args
    from ..kernels.knowledge import play_piles
    from ..kernels.worlds import MAX_PILES

    events = pos.scalars["events"]
    r = rules_args(rules)
    for i, (t_i, j, s, c) in enumerate(events):
        if s == seat or (s == dealer and c == trump_card):
            continue  # his own cards; the dealer's trump card, which he took (R4.3): known, never in a pile
        then = sorted(set(hand) | {e[3] for e in events[i:] if e[2] == seat})
        before = [list(trick) for trick in played[:t_i]] + [list(played[t_i][:j])]
        at = build(then, before)
        a, x = at.arrays, at.scalars
        allowed = np.zeros(MAX_PILES, np.uint64)
        caps = np.zeros(MAX_PILES, np.int64)
        pile_seat = np.zeros(MAX_PILES, np.int64)
        _, n_piles = play_piles(r, rules.players, seat, dealer, trump_card, a["cardsets"], a["st"], a["trick"], a["log"],
                                x["t"], x["k"], allowed, caps, pile_seat, np.zeros(C.MAX_SEATS, np.uint64),
                                np.zeros(C.MAX_SEATS, np.int8), np.full((3, 2), -1, np.int8),
                                np.zeros(3, np.int64), x.get("trump_maybe_discarded", False))  # fmt: skip (modern)
        piles = list(pile_seat[:n_piles])
        if s in piles and not int(allowed[piles.index(s)]) >> c & 1:
            raise AdviceError(f"--played: seat {s} cannot hold {C.format_card(c)} in trick {t_i + 1}: his earlier "
                              "cards showed he had none such (R6.2-R6.7)")  # fmt: skip


def _label(option: int, stage: str, hand: list[int]) -> tuple[str, list[int]]:
    from ..kernels import codes

    cards = sorted(hand)
    if stage == "trump":
        return ("keep", []) if option == codes.DECLINE else ("take", [option])
    if stage == "intent":
        return ("on trumps" if option == codes.INTENT_TRUMPS else "on suits"), []
    if option == codes.OPTION_PASS:
        return "pass", []
    if option == 0:
        return ("play", []) if stage == "round" else ("stand", [])
    return "discard", [cards[j] for j in range(C.HAND_SIZE) if option >> j & 1]


# ---- the search -----------------------------------------------------------------------------
COLUMNS = ("option", "cards", "mean", "ci_low", "ci_high", "diff", "diff_low", "diff_high", "p_remiz", "p_ends_party",
           "p_win", "worlds", "se", "diff_se")  # Advice.table's columns, in order  # fmt: skip


FIRST_TRICK_INFER = model_error.HISTORY_FIRST  # advise's default at a first-trick card (classic's family): worlds with their history


@dataclass(frozen=True)
class Advice:
    """What :func:`advise` found: the ranked options and how they were reached."""

    rows: list[dict]  # one per option, best first, keyed by COLUMNS (see :func:`advise`)
    stage: str  # "exchange", "round", "intent", "buy", "trump", "play", or a game's own (modern, zone, duel)
    worlds: int  # worlds sampled (every option was played in each)
    layouts: float  # consistent layouts of the unseen cards (the worlds are drawn from these)
    target_reached: bool
    counts_up: bool = False  # modern, duel: the most is the best (else R7's deltas: the least)
    unit: str = "points"  # what ``mean`` counts: score points, or (duel) stakes of the party's settlement
    model: str = ""  # what the worlds assume, in words ("others play expert; worlds weighted by ...")
    infer: str = "none"  # the worlds' inference used (docs/SEARCH.md "Inference"): none or policy
    interval: str = ""  # what the intervals include, in words (rams_sim.advice.model_error.describe)
    model_error: ModelError | None = None  # the measured model error in the intervals, None: sampling only

    @property
    def table(self):
        """The rows as a polars DataFrame (imported here: the command prints the rows without it)."""
        import polars as pl

        schema = {name: pl.Float64 for name in COLUMNS} | {"option": pl.String, "cards": pl.String, "worlds": pl.Int64}
        return pl.DataFrame(self.rows, schema=schema, orient="row")

    def to_json(self) -> dict:
        """The ``--json`` object (CLARIFICATIONS "Strong play"): options best first."""
        return {"stage": self.stage, "worlds": self.worlds, "layouts": self.layouts,
                "target_reached": self.target_reached, "counts_up": self.counts_up, "unit": self.unit,
                "model": self.model, "infer": self.infer, "interval": self.interval,
                "model_error": None if self.model_error is None else {"mean": self.model_error.mean,
                               "diff": self.model_error.diff, "positions": self.model_error.positions},
                "options": [dict(row) for row in self.rows]}  # fmt: skip


@dataclass(frozen=True)
class Question:
    """A position read and checked by :func:`read_question`: what :func:`advise` searches."""

    rules: Rules
    pos: Decision
    others: PolicySpec  # the other seats' policy in the rollouts
    rollout: PolicySpec  # the seat's own later decisions
    with_scores: bool  # scores were given: the party's end is reported


def read_question(hand, trump_card, *, seat: int, dealer: int, players: int | None = None,
                  rules: Rules | str = "classic", scores=None, others="expert", rollout="expert", played=None,
                  exchanged=None, discarded=None, took_trump: bool | None = None, jacks=None, intents=None, turns=None,
                  redeals: int = 0, stake: int = 1, cube: int | None = None, dave: str | None = None) -> Question:  # fmt: skip
    """Read and check a position as :func:`advise` takes it (its arguments, same meaning), and lay
    it out for the search: every refusal of advise is raised here (:class:`AdviceError`, one
    line), before any search kernel is compiled or run."""

    rules = Rules.named(rules) if isinstance(rules, str) else rules
    if players is not None and players != rules.players:
        try:
            rules = rules.with_overrides([f"players={players}"])
        except ValueError as err:
            raise AdviceError(str(err)) from None
    game = GAMES[rules.game]
    if not game.r4_exchange and (exchanged or took_trump is not None or intents):
        raise AdviceError(f"{rules.game.value} has no exchange, R4.3 or R4.0a: give the turns with --turns")
    if game.r4_exchange and (turns is not None or redeals):
        raise AdviceError(f"--turns and --redeals are modern's, zone's and duel's; preset {rules.preset} exchanges "
                          "(--exchanged)")  # fmt: skip
    if game.no_jack_declaration and (redeals or jacks):
        raise AdviceError(f"{rules.game.value} has no redeal and no jack declaration ({game.no_jack_declaration})")
    if not game.dave and (stake != 1 or cube is not None or dave is not None):
        raise AdviceError(f"--stake, --cube and --dave are duel's (dave); preset {rules.preset} has none")
    n = rules.players
    hand = parse_cards(hand, "the hand") if isinstance(hand, str) else [int(c) for c in hand]
    trump_card = parse_cards(trump_card, "--trump-card")[0] if isinstance(trump_card, str) else int(trump_card)
    if isinstance(played, str):
        played = parse_played(played)
    exchanged = parse_exchanged(exchanged, n) if isinstance(exchanged, str) else dict(exchanged or {})
    discarded = parse_cards(discarded, "--discarded") if isinstance(discarded, str) else list(discarded or [])
    if scores is None:
        score_list = [rules.start] * n
    else:
        score_list = parse_scores(scores, n) if isinstance(scores, str) else [int(x) for x in scores]
        try:
            rules.check_scores(score_list)
        except ValueError as err:
            raise AdviceError(str(err)) from None
    try:
        others_spec, rollout_spec = as_spec(others), as_spec(rollout)
    except ValueError as err:
        raise AdviceError(str(err)) from None
    for spec in (others_spec, rollout_spec):
        if spec.kind not in ROLLOUT_KINDS:
            raise AdviceError(f"the rollouts are played by a scripted policy (random, basic, cautious, greedy, expert), "
                              f"not {spec.name}")  # fmt: skip
    jack_points = parse_jacks(jacks, n) if isinstance(jacks, str) else dict(jacks or {})
    said = parse_intents(intents, n) if isinstance(intents, str) else dict(intents or {})
    given = Described(seat, dealer, trump_card, score_list, exchanged, discarded, took_trump, jack_points, said, turns,
                      redeals, stake, cube, dave)  # fmt: skip
    build = advice_module(rules).position_builder(rules, given)  # the game's own layout (rams_sim.games)
    pos = build(hand, played, True)
    if played is not None and game.duty_to_follow:  # (zone: any card answers; the first lead's duty is the sampler's)
        check_history(rules, pos, seat, dealer, hand, trump_card, played, build)
    return Question(rules, pos, others_spec, rollout_spec, scores is not None)


def advise(hand, trump_card, *, seat: int, dealer: int, players: int | None = None, rules: Rules | str = "classic",
           scores=None, others="expert", rollout="expert", played=None, exchanged=None, discarded=None,
           took_trump: bool | None = None, jacks=None, intents=None, turns=None, redeals: int = 0, stake: int = 1,
           cube: int | None = None, dave: str | None = None, target_se: float | None = None,
           max_worlds: int = DEFAULT_MAX_WORLDS, seed: int = 0, infer: str | None = None, floor: float = DEFAULT_FLOOR,
           race: float = DEFAULT_RACE, progress=None, with_model_error: bool = True) -> Advice:  # fmt: skip
    """Rank every option open to ``seat`` (module docstring).

    ``hand``, ``trump_card``, ``played``, ``exchanged``, ``discarded``: text as players
    write it (or card ids, lists, a dict); ``jacks``: the other seats' jack declarations
    (R5.5; ``"1=pair,3=four"`` or a dict; a seat not named declared none, so the worlds
    give him no same-colour pair). ``turns``/``redeals``: modern's turns so far
    (``"1=pass,2=take"``) and redeals made (:mod:`rams_sim.advice.modern`); zone's partner's
    swap (``"1=swap"``, :mod:`rams_sim.advice.zone`); duel's widow (``"1=stand,0=swap"``) with the
    party's ``stake``, ``cube`` (the seat owning it, None centred) and ``dave`` ("pass": no offer
    made at this turn, "offered": the other offered at his; :mod:`rams_sim.advice.duel`). ``others``: the other seats' policy in the
    rollouts; ``rollout``: the seat's own later decisions. Worlds are drawn in batches
    until every option's standard error is at most ``target_se`` (default DEFAULT_TARGET_SE points;
    duel: DEFAULT_TARGET_SE_STAKES stakes) or ``max_worlds`` are
    used (the standard error of an option's mean delta; the paired differences, on the
    same worlds, are more precise). Returns an :class:`Advice` whose ``table`` (polars; ``rows``: the same as
    dicts) has per option: ``option``
    (pass, play, on trumps, on suits, stand, discard, keep, take, or the card), ``cards``, ``mean`` (score delta, R7:
    negative = written off), ``ci_low``/``ci_high`` (95%), ``diff`` and its CI (paired
    difference to the best option, same worlds), ``p_remiz``, ``p_ends_party`` (null
    without ``scores``), ``p_win`` (duel: the party won; else the deal ends the party with his
    win, null without ``scores``), ``worlds``. In duel ``mean`` is the party's settlement in
    stakes (+ won, ``unit`` "stake"), and the most is the best.

    ``infer`` (docs/SEARCH.md "Inference"): "none" draws the worlds uniformly over the
    layouts consistent with what the seat knows; "policy" (classic's family) draws the worlds
    with their history, weighed by how likely the others' passes, exchanges and
    announcements (and, at a card, the dealer's R4.3 take) are if they play ``others``, who
    leave ``floor`` of their choices to chance; "play" weighs the worlds at a card by that history
    too; "cards" also by every card the others played, and at a card of the first trick draws
    each world with its history (the others' dealt hands, their model's discards and R4.3 card,
    the cards played checked against them: the exact posterior under the model). None (the
    default): :data:`FIRST_TRICK_INFER` at a card of the first trick in classic's family, else
    pimc's own default (DEFAULT_INFER). ``Advice.model`` says which worlds were used.

    ``race`` (docs/SEARCH.md "Racing"): after each batch of worlds, an option whose paired
    difference to the best is above 0 by more than ``race`` standard errors receives no more
    worlds (its row keeps its own count, ``worlds``; 0: every option gets every world); the
    target SE then applies to the options still racing.

    The intervals (``ci_*``, ``diff_*``) hold the worlds' sampling error (``se``, ``diff_se``: its
    standard errors) and, where the validation suite has measured it for the decision
    (:mod:`rams_sim.advice.model_error`; ``with_model_error``), the model's own error;
    ``Advice.interval`` says which, in words.
    """
    from ..kernels import pimc
    from ..kernels.args import rules_args
    from ..kernels.rng import deal_key

    q = read_question(hand, trump_card, seat=seat, dealer=dealer, players=players, rules=rules, scores=scores,
                      others=others, rollout=rollout, played=played, exchanged=exchanged, discarded=discarded,
                      took_trump=took_trump, jacks=jacks, intents=intents, turns=turns, redeals=redeals, stake=stake,
                      cube=cube, dave=dave)  # fmt: skip
    rules, pos, others_spec, rollout_spec = q.rules, q.pos, q.others, q.rollout
    n = rules.players
    game, own = GAMES[rules.game], advice_module(rules)
    stakes = game.settled_by_stake  # duel: an option is worth the party's settlement in stakes
    if target_se is None:
        target_se = DEFAULT_TARGET_SE_STAKES if stakes else DEFAULT_TARGET_SE
    if not (math.isfinite(target_se) and target_se > 0):
        raise AdviceError(f"--target-se must be a positive number; got {target_se}")
    if max_worlds < 1:
        raise AdviceError(f"the world budget must be positive; got {max_worlds}")
    if infer is None:  # the default: exact worlds at the first trick's cards, where the game draws them so
        infer = FIRST_TRICK_INFER if game.r4_exchange and pos.stage == "play" and pos.scalars["t"] == 0 else DEFAULT_INFER
    if infer not in INFER_NAMES:
        raise AdviceError(f"--infer must be one of {', '.join(INFER_NAMES)}; got {infer!r}")
    if not (math.isfinite(floor) and 0.0 < floor <= 1.0):
        raise AdviceError(f"--floor must be a share above 0 and at most 1; got {floor}")
    if not (math.isfinite(race) and race >= 0.0):
        raise AdviceError(f"--race must be 0 (off) or a number of standard errors above 0; got {race}")
    # classic's family: the decisions before the play, and its cards (the history before the play)
    inferred = infer != "none" and game.r4_exchange and (pos.stage in PHASES or
                                                                (pos.stage == "play" and infer in ("play", "cards")))
    roll_kinds = np.full(n, int(others_spec.kind), np.int8)
    roll_kinds[seat] = int(rollout_spec.kind)
    roll_params = np.stack([(rollout_spec if s == seat else others_spec).vector() for s in range(n)])
    announce = np.array([int((rollout_spec if s == seat else others_spec).announce) for s in range(n)], np.int8)
    r = rules_args(rules)
    key = np.uint64(deal_key(seed, 0))  # a uint64 always: a Python int above 2**63 fails a compiled int64 signature
    n_opt = len(pos.options)
    deltas = np.zeros((n_opt, 0), np.int64)
    flags = np.zeros((n_opt, 0), np.int64)
    used = np.zeros(n_opt, np.int64)  # the worlds each option was played in
    alive = np.ones(n_opt, bool)  # racing: the options still receiving worlds
    raced = race > 0 and (pos.stage == "play" or own.RACE_BEFORE_PLAY)  # the kernels that take a set of options
    least_best = -1 if game.counts_up else 1  # the kernels' deltas: the least the best, modern's points the most
    layouts = 0.0
    reached = False
    while deltas.shape[1] < max_worlds:
        size = min(BATCH, -(-(max_worlds - deltas.shape[1]) // pimc.BLOCK) * pimc.BLOCK)
        options = pos.options[alive]
        d = np.zeros((len(options), size), np.int64)
        f = np.zeros((len(options), size), np.int64)
        batch = Batch(r, roll_kinds, roll_params, announce, key, options, deltas.shape[1], d, f,
                      INFER_NAMES.index(infer) if inferred else 0, floor)  # fmt: skip
        evaluate, args = own.evaluation(pos, batch) or _card_evaluation(pos, batch)  # the game's kernels (rams_sim.games)
        # every block of worlds counts the same layouts (0: the history is impossible)
        layouts = min(in_blocks(lambda lo, hi, evaluate=evaluate, args=args: evaluate(*args, lo, hi), size // pimc.BLOCK, 1))
        if not layouts > 0:
            raise AdviceError("no layout of the unseen cards agrees with this history: a card was played that R6 "
                              "did not allow (a void broken, a duty missed)")  # fmt: skip
        if (f & pimc.FLAG_ERROR).any():
            raise RuntimeError("a rollout stopped on an error status: please report this position")
        d_all = np.zeros((n_opt, size), np.int64)
        f_all = np.zeros((n_opt, size), np.int64)
        d_all[alive], f_all[alive] = d, f
        deltas, flags = np.concatenate([deltas, d_all], axis=1), np.concatenate([flags, f_all], axis=1)
        used[alive] += size
        if progress:
            progress(deltas.shape[1], max_worlds)
        if raced:
            _race(least_best * deltas, alive, race)
        if deltas[alive].std(axis=1, ddof=1).max() / math.sqrt(deltas.shape[1]) <= target_se:
            reached = True
            break
    if stakes:  # the party's settlement, + won (the kernels' worth counts the least the best)
        deltas = -deltas
    rows = _table(pos, deltas, flags, used, q.with_scores, -1 if game.counts_up or stakes else 1, stakes)
    used_infer = infer if inferred else "none"
    stage_key = model_error.stage_key(pos.stage, pos.scalars["t"] + 1 if pos.stage == "play" else 0, used_infer)
    error = model_error.lookup(rules.game.value, stage_key, used_infer) if with_model_error else None
    model_error.widen(rows, error)  # the model's measured error in the intervals (rams_sim.advice.model_error)
    model = _model_text(others_spec, rules, inferred, floor, pos.stage == "play", infer == "cards")
    unit = "stakes" if stakes else "points"
    return Advice(rows, pos.stage, int(deltas.shape[1]), float(layouts), reached, counts_up=game.counts_up or stakes,
                  unit="stake" if stakes else "points", model=model, infer=used_infer,
                  interval=model_error.describe(error, unit), model_error=error)  # fmt: skip


def _model_text(others: PolicySpec, rules: Rules, inferred: bool, floor: float, at_card: bool = False,
                cards: bool = False) -> str:  # fmt: skip
    """What the worlds assume, in words (advise's output and JSON ``model``)."""
    said = "passes, exchanges and announcements" if rules.intent_round else "passes and exchanges"
    if at_card:
        said += ", the dealer's trump-card take and every card they played" if cards else " and the dealer's trump-card take"
    how = (f"worlds weighted by their {said} ({floor:.0%} left to chance)" if inferred else
           "worlds uniform over the layouts consistent with what you know")  # fmt: skip
    return f"others play {others}; {how}"


# ---- the game's hooks for advise (classic's: rams_sim.advice.position.advice_module) -------------------------
RACE_BEFORE_PLAY = True  # evaluate_options takes the options still racing
# positions whose evaluations `python -m rams_sim.warm` compiles (advise's arguments): an exchange, a card
WARM_QUESTIONS = (
    {"hand": "A♥ K♠ 7♠ 9♦ 10♣", "trump_card": "8♥", "seat": 2, "dealer": 0, "exchanged": "1=2"},
    {"hand": "A♥ K♠ 7♠ 9♦ 10♣", "trump_card": "8♥", "seat": 2, "dealer": 0, "exchanged": "1=0,2=0,3=0,0=0",
     "played": "7♥"},
)  # fmt: skip


def position_builder(rules: Rules, given: Described):
    """``build(cards, tricks, require_turn=False)``: :func:`build_position` for the position ``given`` describes."""

    def build(cards, tricks, require_turn=False):
        return build_position(rules, given.seat, given.dealer, cards, given.trump_card, given.scores, given.exchanged,
                              tricks, given.discarded, given.took_trump, require_turn, given.jacks,
                              given.intents)  # fmt: skip

    return build


def evaluation(pos: Decision, b: Batch):
    """Classic's decisions before the play (R4): :func:`rams_sim.kernels.pimc.evaluate_options`; a card: None
    (:func:`_card_evaluation`)."""
    from ..kernels import pimc

    if pos.stage == "play":
        return None
    a, x = pos.arrays, pos.scalars
    return pimc.evaluate_options, (b.r, b.roll_kinds, b.roll_params, b.announce, b.key, a["order"], a["cardsets"],
                                   a["st"], a["trick"], a["log"], a["info"], x["dealer"], x["trump_card"], a["scores"],
                                   PHASES[pos.stage], x["step"], x["talon_pos"], x["seat"], b.options, b.infer, b.floor,
                                   b.first, b.deltas, b.flags)  # fmt: skip


def _card_evaluation(pos: Decision, b: Batch):
    """A card in the games with R6's duty to follow (classic, duel, modern): :func:`rams_sim.kernels.pimc.evaluate_cards`
    over the options still racing (the legal cards)."""
    from ..kernels import pimc

    a, x = pos.arrays, pos.scalars
    legal = np.uint64(C.mask_of(int(c) for c in b.options))
    return pimc.evaluate_cards, (b.r, b.roll_kinds, b.roll_params, b.announce, b.key, a["cardsets"], a["st"], a["trick"],
                                 a["log"], a["info"], x["dealer"], x["trump_card"], a["scores"], x["t"], x["k"],
                                 x["leader"], x["seat"], legal, np.uint64(x["played"]), x["q_duty"], b.infer, b.floor,
                                 b.first, b.deltas, b.flags)  # fmt: skip


def _race(values: np.ndarray, alive: np.ndarray, z: float) -> None:
    """Racing (docs/SEARCH.md "Racing"), between two batches of worlds: an option whose paired
    difference to the best alive option (``values`` int64[options, worlds], the least the
    best; every alive option has every world) is above 0 by more than ``z`` standard errors
    stops receiving worlds (``alive`` bool[options] updated)."""
    live = np.flatnonzero(alive)
    best = live[np.argmin(values[live].mean(axis=1))]
    diff = values[live] - values[best]
    w = values.shape[1]
    mean = diff.mean(axis=1)
    se = diff.std(axis=1, ddof=1) / math.sqrt(w)
    alive[live[mean > z * se]] = False


def _table(pos: Decision, deltas: np.ndarray, flags: np.ndarray, used: np.ndarray, with_scores: bool, sign: int,
           duel: bool = False) -> list[dict]:  # fmt: skip
    """The options' rows (keyed by COLUMNS) best first: the least mean delta times ``sign`` (1:
    deltas count down, R7; -1: modern counts up, duel's settlement; ties: the order tried);
    ``diff``: each option's paired difference to the best (the worlds both were played in);
    ``p_win``: duel's party won (a settlement above 0), else the deal ending the party with the
    seat the winner (FLAG_WINS). Option i's worlds are the first ``used[i]`` (racing drops an
    option clearly worse than the best; the best has them all)."""
    from ..kernels import pimc

    n_opt = deltas.shape[0]
    mean, half = np.zeros(n_opt), np.full(n_opt, np.nan)
    p_remiz, ends, wins = np.zeros(n_opt), np.zeros(n_opt), np.zeros(n_opt)
    for i in range(n_opt):
        w = int(used[i])
        d, f = deltas[i, :w], flags[i, :w]
        mean[i] = d.mean()
        if w > 1:
            half[i] = Z95 * d.std(ddof=1) / math.sqrt(w)
        p_remiz[i] = (f & pimc.FLAG_REMIZ).astype(bool).mean()
        ends[i] = (f & pimc.FLAG_ENDS).astype(bool).mean()
        wins[i] = (d > 0).mean() if duel else (f & pimc.FLAG_WINS).astype(bool).mean()
    full = used == used.max()
    best = int(np.flatnonzero(full)[np.argmin(sign * mean[full])])
    d_mean, d_half = np.zeros(n_opt), np.full(n_opt, np.nan)
    for i in range(n_opt):
        w = int(used[i])
        diff = deltas[i, :w] - deltas[best, :w]
        d_mean[i] = diff.mean()
        if w > 1:
            d_half[i] = Z95 * diff.std(ddof=1) / math.sqrt(w)
    rows = []
    order = sorted(range(n_opt), key=lambda i: (not full[i], sign * mean[i] if full[i] else sign * d_mean[i], i))
    for i in order:
        label, cards = pos.labels[i]
        rows.append({
            "option": label, "cards": C.format_cards(cards), "mean": float(mean[i]),
            "ci_low": float(mean[i] - half[i]), "ci_high": float(mean[i] + half[i]), "diff": float(d_mean[i]),
            "diff_low": float(d_mean[i] - d_half[i]), "diff_high": float(d_mean[i] + d_half[i]),
            "p_remiz": float(p_remiz[i]), "p_ends_party": float(ends[i]) if with_scores or duel else None,
            "p_win": float(wins[i]) if with_scores or duel else None, "worlds": int(used[i]),
            "se": float(half[i] / Z95), "diff_se": float(d_half[i] / Z95),
        })  # fmt: skip
    return rows


record_questions = classic_questions  # classic's decisions of a recorded deal (rams_sim.advice.questions)
