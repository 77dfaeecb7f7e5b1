"""Question 10 (analyses/q10_play.py): the first card replayed once per legal card, the dealer's trump card taken
and declined, the announcement switched off; checked on small synthetic runs whose answers are known."""

from __future__ import annotations

import polars as pl
import pytest

from analyses import q10_play as q
from rams_sim.cards import card_id

TRUMP = 3  # hearts
SA, HK, H7, C8, D9 = card_id(0, 12), card_id(3, 11), card_id(3, 5), card_id(1, 6), card_id(2, 7)
HAND = (SA, HK, H7, C8, D9)  # ♠A ♥K ♥7 ♣8 ♦9, hearts trumps
GAINS = {SA: 3, HK: 1, H7: -2, C8: 0, D9: 2}  # seat 0's gain when this card leads the first trick


class FakeContext:
    """What q10_play reads of a Context: ``scan(name)``."""

    def __init__(self, runs: dict[str, pl.DataFrame]):
        self.runs = runs

    def scan(self, name: str) -> pl.LazyFrame:
        return self.runs[name].lazy()


def _rows(deal: int, seat0_card: int, gain: int, leads: bool = True, dealer: int = 3) -> pl.DataFrame:
    """One deal of a logged run: seat 0 plays ``seat0_card`` first (leading trick 1 or not); seat 1 plays ♣7."""
    return pl.DataFrame({"deal": [deal, deal], "seat": [0, 1], "dealer": [dealer, dealer], "trump": [TRUMP, TRUMP],
                         "card1": [seat0_card, card_id(1, 5)], "led": [1 if leads else 0, 0 if leads else 1],
                         "delta": [-gain, 0]},
                        schema={"deal": pl.Int64, "seat": pl.Int8, "dealer": pl.Int8, "trump": pl.Int8,
                                "card1": pl.Int8, "led": pl.Int8, "delta": pl.Int16})  # fmt: skip


def _runs(gains: dict[int, float] = GAINS, own: int = SA) -> dict[str, pl.DataFrame]:
    """The basic runs of one deal: unforced (seat 0 leads ``own``) and first_card = 0..4 (the j-th card by id)."""
    ordered = sorted(HAND)
    runs = {q.run_name("basic"): _rows(0, own, gains[own])}
    for j in range(5):
        runs[q.run_name("basic", f"first{j}")] = _rows(0, ordered[j], gains[ordered[j]])
    return runs


def test_first_cards_reads_every_legal_card_and_its_gain():
    deals, options = q.first_cards(FakeContext(_runs()), "basic")
    assert deals.height == 1 and deals["leads"][0] and deals["own"][0] == SA
    assert dict(zip(options["card"].to_list(), options["gain"].to_list())) == GAINS
    assert deals["position"][0] == 0  # dealer 3: seat 0 is first hand


def test_first_cards_refuses_replays_that_disagree():
    runs = _runs()
    bad = runs[q.run_name("basic", "first4")]
    runs[q.run_name("basic", "first4")] = pl.concat([bad]).with_columns(  # the last card played again by first3 ...
        pl.when(pl.col("seat") == 0).then(pl.lit(sorted(HAND)[3], pl.Int8)).otherwise(pl.col("card1")).alias("card1"),
        pl.when(pl.col("seat") == 0).then(pl.lit(-9, pl.Int16)).otherwise(pl.col("delta")).alias("delta"))
    with pytest.raises(ValueError, match="not deterministic"):  # ... with another result
        q.first_cards(FakeContext(runs), "basic")
    runs = _runs()
    runs[q.run_name("basic")] = _rows(0, SA, 7)  # the unforced card scores otherwise than its forced twin
    with pytest.raises(ValueError, match="unforced"):
        q.first_cards(FakeContext(runs), "basic")


def test_card_classes_and_comparisons_of_a_lead():
    deals, options = q.first_cards(FakeContext(_runs()), "basic")
    g = q.class_gains(deals, options)
    row = g.row(0, named=True)
    assert row["plain_ace"] == GAINS[SA] and row["top_trump"] == GAINS[HK] and row["low_trump"] == GAINS[H7]
    assert row["low_plain"] == GAINS[C8] and row["high_plain"] == GAINS[D9]  # ♣8 below ♦9 by rank
    by_label = {c.label: c for c in q.COMPARISONS}
    est, _ = q.compare(g, by_label["plain ace − top trump"])
    assert est.n == 1 and est.value == GAINS[SA] - GAINS[HK]
    est, _ = q.compare(g, by_label["top trump − lowest plain (no plain ace)"])  # he holds a plain ace: no deal
    assert est.n == 0
    est, _ = q.compare(g, by_label["cheapest − dearest (trump led)"])  # he led: no following deal
    assert est.n == 0


def test_following_orders_cards_by_trump_then_rank():
    runs = {q.run_name("basic"): _rows(0, C8, GAINS[C8], leads=False)}
    ordered = sorted(HAND)
    for j in range(5):
        runs[q.run_name("basic", f"first{j}")] = _rows(0, ordered[j], GAINS[ordered[j]], leads=False)
    deals, options = q.first_cards(FakeContext(runs), "basic")
    g = q.class_gains(deals, options)
    row = g.row(0, named=True)
    assert row["lowest"] == GAINS[C8] and row["highest"] == GAINS[HK]  # ♣8 cheapest; ♥K, a trump, dearest (not ♠A)
    assert row["led_kind"] == "plain"  # ♣7 was led
    by_label = {c.label: c for c in q.COMPARISONS}
    est, _ = q.compare(g, by_label["cheapest − dearest (other plain led)"])
    assert est.value == GAINS[C8] - GAINS[HK]
    est, _ = q.compare(g, by_label["own card − cheapest"])
    assert est.value == 0.0  # his own card was the cheapest


def _dealer_runs(take_flags=(True, False)) -> dict[str, pl.DataFrame]:
    def run(gain: int, took: bool, passed: bool = False) -> pl.DataFrame:
        return pl.DataFrame({"deal": [0, 1], "seat": [0, 0], "dealer": [0, 0], "passed": [passed, True],
                             "took_trump": [took, False], "trump_card": [card_id(3, 12)] * 2, "delta": [-gain, 0]},
                            schema_overrides={"seat": pl.Int8, "dealer": pl.Int8, "trump_card": pl.Int8,
                                              "delta": pl.Int16})  # fmt: skip

    return {q.run_name("basic", "take1"): run(6, take_flags[0]), q.run_name("basic", "take0"): run(1, take_flags[1]),
            q.run_name("basic"): run(1, False)}


def test_trump_card_compares_take_with_decline_on_the_deals_he_played():
    out = q.trump_card(FakeContext(_dealer_runs()), "basic")
    assert out["every hand"].n == 1 and out["every hand"].value == 5.0  # the passing dealer's deal 1 is left out
    assert out["the turned-up card is an ace or king"].value == 5.0
    assert out["policy declines: own choice − take"].value == -5.0  # his policy declined: 1 − 6
    with pytest.raises(ValueError, match="did not make"):
        q.trump_card(FakeContext(_dealer_runs((False, False))), "basic")


def test_announce_pairs_parties():
    loud = pl.DataFrame({"party": [0, 1, 2], "seat": [0, 0, 0], "won": [True, True, False], "resets": [0, 0, 0]})
    quiet = pl.DataFrame({"party": [0, 1, 2], "seat": [0, 0, 0], "won": [False, True, False], "resets": [1, 0, 2]})
    win, resets = q.announce(FakeContext({q.PARTIES_BASE: loud, q.PARTIES_QUIET: quiet}))
    assert win.n == 3 and win.value == pytest.approx(1 / 3) and resets.value == 1.0
