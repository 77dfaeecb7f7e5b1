"""Positions as players write them, for ``rams-sim advise``: cards, tricks, the exchange, scores, jacks.

Every mistake raises :class:`AdviceError` with one line naming the input and what was
expected (the CLI prints it and exits with code 2).
"""

from __future__ import annotations

import re

from .. import cards as C


class AdviceError(ValueError):
    """A position that cannot be advised on, described in one line."""


def parse_cards(text: str, what: str) -> list[int]:
    """Cards as players write them (``A♥``, ``Ah``, ``10♣``, ``Tc``), no card twice."""
    try:
        cards = C.parse_cards(text)
    except ValueError as err:
        raise AdviceError(f"{what}: {err}") from None
    seen = set()
    for c in cards:
        if c in seen:
            raise AdviceError(f"{what}: {C.format_card(c)} is given twice")
        seen.add(c)
    return cards


def parse_played(text: str) -> list[list[int]]:
    """Tricks separated by ``/``, each in playing order from its leader; ``""`` or ``-``: none yet."""
    if text.strip() in ("", "-"):
        return []
    tricks = [part.strip() for part in text.split("/")]
    if any(not t for t in tricks[:-1]) or (len(tricks) > 1 and not tricks[-1]):
        raise AdviceError(f"--played: an empty trick in {text!r}; separate tricks with '/', e.g. 'K♠ 7♠ A♠ / 10♥'")
    return [parse_cards(t, f"--played trick {i + 1}") for i, t in enumerate(tricks)]


PLAYS = "play"  # parse_exchanged: a seat that said "play" in a declare-then-buy round and has not bought yet


def parse_exchanged(text: str, players: int) -> dict[int, int | str | None]:
    """``"1=2,2=pass,3=play"`` -> {seat: cards exchanged, None for a pass, PLAYS for "play"
    said in a declare-then-buy round (R4.0) before buying}."""
    out: dict[int, int | str | None] = {}
    for item in filter(None, (s.strip() for s in re.split(r"[,\s]+", text.strip()))):
        seat_text, sep, value = item.partition("=")
        if not sep or not seat_text.strip().isdigit():
            raise AdviceError(f"--exchanged takes SEAT=COUNT, SEAT=pass or SEAT=play items, e.g. 1=2,3=pass; got {item!r}")
        seat = int(seat_text)
        if not 0 <= seat < players:
            raise AdviceError(f"--exchanged: seat {seat} is not a seat of a {players}-player table (0..{players - 1})")
        value = value.strip().lower()
        if value == "pass":
            out[seat] = None
        elif value == PLAYS:
            out[seat] = PLAYS
        elif value.isdigit() and int(value) <= C.HAND_SIZE:
            out[seat] = int(value)
        else:
            raise AdviceError(f"--exchanged: seat {seat} exchanged 0..5 cards, passed or said play; got {value!r}")
    return out


INTENT_WORDS = ("trumps", "suits")  # R4.0a: "on trumps", "on suits"


def parse_intents(text: str, players: int) -> dict[int, str]:
    """``"1=trumps,3=suits"`` -> {seat: the R4.0a announcement he made, "trumps" or "suits"}."""
    return _seat_words(text, players, "--intents", INTENT_WORDS, "the R4.0a announcements", "1=trumps,3=suits")


def parse_jacks(text: str, players: int) -> dict[int, str]:
    """``"1=pair,3=four"`` -> {seat: the jack declaration he made (R5.5): "pair" or "four"}."""
    return _seat_words(text, players, "--jacks", ("pair", "four"), "the jack declarations, R5.5", "1=pair")


def _seat_words(text: str, players: int, option: str, words: tuple[str, ...], what: str, example: str) -> dict[int, str]:
    """``SEAT=WORD`` items, comma- or space-separated, each word one of ``words``: {seat: word}."""
    out: dict[int, str] = {}
    for item in filter(None, (x.strip() for x in re.split(r"[,\s]+", text.strip()))):
        seat_text, sep, value = item.partition("=")
        value = value.strip().lower()
        if not sep or not seat_text.strip().isdigit() or value not in words:
            raise AdviceError(f"{option} takes {' or '.join(f'SEAT={w}' for w in words)} items ({what}), e.g. "
                              f"{example}; got {item!r}")  # fmt: skip
        seat = int(seat_text)
        if not 0 <= seat < players:
            raise AdviceError(f"{option}: seat {seat} is not a seat of a {players}-player table (0..{players - 1})")
        out[seat] = value
    return out


def parse_scores(text: str, players: int) -> list[int]:
    """``"100,80,95,60"``: every seat's score before the deal."""
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    if len(parts) != players or not all(re.fullmatch(r"-?\d+", p) for p in parts):
        raise AdviceError(f"--scores takes {players} whole numbers, one per seat, e.g. {','.join(['50'] * players)}; got {text!r}")
    return [int(p) for p in parts]


TURN_WORDS = ("pass", "play", "take")  # R9 modern: a turn passes, plays on the dealt cards, or takes the widow


def parse_turns(text: str, players: int, words: tuple[str, ...] = TURN_WORDS) -> dict[int, str]:
    """``"1=pass,2=play,3=take"`` -> {seat: his turn, one of ``words``} (R9 ``modern``: pass,
    play, take; ``zone``: stand, swap); ``"-"``: none yet."""
    if text.strip() == "-":
        return {}
    return _seat_words(text, players, "--turns", words, "the turns", f"1={words[-1]}")
