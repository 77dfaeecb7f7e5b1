"""``rams-sim advise``: the command (:mod:`rams_sim.cli.main` registers it on its app); the work is :mod:`rams_sim.advice.search`."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ..games import GAMES
from ..policies import DEFAULT_FLOOR
from .common import PlayersOpt, PresetOpt, RuleOpt, build_rules, fail, parse_count

PLAYED_HELP = (
    "The tricks so far, separated by '/', each in the order played from its leader (R6.1: the first "
    "active seat left of the dealer; then the last trick's winner, R6.4), e.g. 'K♠ 7♠ A♠ 9♠ / 10♥'; "
    "the last trick may be unfinished. '-' : the play starts and you lead or follow nothing yet. "
    "With --played the advice is the card to play, and --exchanged must give every seat (modern, zone: --turns). "
    "zone: who led the first trick follows from whose turn it is."
)
EXCHANGED_HELP = (
    "What the seats did in the exchange (R4), SEAT=COUNT or SEAT=pass, comma-separated, e.g. '1=2,3=pass,0=1'. "
    "For your exchange: the seats before you (from the dealer's left). For the dealer's trump card (R4.3) "
    "and for the play: every seat, you included. Declare-then-buy presets (handbook): SEAT=play for a seat "
    "that said play and has not bought yet; your purchase is advised once you give YOUR_SEAT=play with every "
    "seat's word (the seats that bought before you with their counts)."
)

TURNS_HELP = (
    "modern's turns (R9), SEAT=pass, SEAT=play or SEAT=take (the widow), comma-separated, e.g. '1=pass,2=take': "
    "for your turn, the seats before you ('-': none, you are first); for the play, every seat. Without --turns "
    "and --played, a dealt five of one suit asks the redeal question, which comes before the turns. modern with "
    "exchange_order=declare-then-buy: for your play or pass, the seats before you (pass or play); for the widow "
    "offered to you, every seat's word with YOUR_SEAT=play (the players before you declined it). zone: the "
    "dealer's partner's turn, e.g. '1=swap' or '1=stand', for the play (without --played the partner's swap is advised). "
    "duel: the widow, the first hand (the dealer's opponent) then the dealer if the first stood, e.g. '1=stand,0=swap': "
    "without it the first hand's widow is advised, with '1=stand' the dealer's; in duel-trump, with the widow settled, "
    "the dealer's card for the trump card."
)
# classic's decisions in words (the other games' own are their entries' advise_stages, rams_sim.games)
STAGES = {"exchange": "your exchange (R4)", "round": "play or pass (R4.0, R4.1)", "intent": "your announcement (R4.0a)",
          "buy": "your purchase (R4.0, R4.4)", "trump": "the trump card (R4.3)", "play": "your card (R6)"}  # fmt: skip
DAVE_HELP = (
    "duel's dave at the play: 'pass' (you did not offer at this turn: your card is advised) or 'offered' (the other "
    "seat, whose turn it is, offered you dave: accept or decline). Without it, where you may offer now (the cube "
    "centred or yours, the doubled stake within dave_max), the offer is advised."
)


def advise(
    hand: Annotated[str, typer.Argument(help="Your cards, e.g. 'A♥ K♠ 7♠ 9♦ 10♣' or 'Ah Ks 7s 9d Tc' (10 or T).")],
    trump_card: Annotated[str, typer.Option("--trump-card", help="The turned-up trump card (R3), e.g. 8♥ or 8h; in modern the dealer's shown last card (the dealer holds it); in zone the turned top card of the stock.")],
    seat: Annotated[int, typer.Option("--seat", help="Your seat, 0..players-1.")],
    dealer: Annotated[int, typer.Option("--dealer", help="The dealer's seat; play starts at his left (R4.0, R6.1).")],
    players: PlayersOpt = None,
    preset: PresetOpt = "classic",
    rule: RuleOpt = None,
    scores: Annotated[str | None, typer.Option("--scores", help="Every seat's score before the deal, e.g. 100,80,95,60 (default: the start score); also reports how often the deal ends the party.")] = None,
    exchanged: Annotated[str, typer.Option("--exchanged", help=EXCHANGED_HELP)] = "",
    discarded: Annotated[str, typer.Option("--discarded", help="The cards you threw away in the exchange (and, as dealer, the card you gave up for the trump card); modern: the four you laid aside for the widow; zone and duel: your old hand after a swap (duel-trump's dealer adds the card he gave up for the trump card, last).")] = "",
    played: Annotated[str | None, typer.Option("--played", help=PLAYED_HELP)] = None,
    jacks: Annotated[str, typer.Option("--jacks", help="The other seats' jack declarations (R5.5), SEAT=pair or SEAT=four, e.g. 1=pair; a seat not named declared none.")] = "",
    intents: Annotated[str, typer.Option("--intents", help="The R4.0a announcements where the rules have them (negotiations), SEAT=trumps or SEAT=suits, e.g. 1=trumps,3=suits: those before yours for your announcement, every one after it.")] = "",
    turns: Annotated[str | None, typer.Option("--turns", help=TURNS_HELP)] = None,
    redeals: Annotated[int, typer.Option("--redeals", help="modern: how many redeals this deal has had (the right lapses after 10).")] = 0,
    stake: Annotated[int, typer.Option("--stake", help="duel: the party's stake now, 1 doubled by each accepted dave.")] = 1,
    cube: Annotated[int | None, typer.Option("--cube", help="duel: the seat owning the cube (the one that accepted the last dave); leave it out while it is centred (stake 1).")] = None,
    dave: Annotated[str | None, typer.Option("--dave", help=DAVE_HELP)] = None,
    took_trump: Annotated[bool, typer.Option("--took-trump/--no-took-trump", help="The dealer took the turned-up trump card (R4.3); for the play when you are not the dealer.")] = False,
    policy: Annotated[str, typer.Option("--policy", help="How the other seats play in the sampled worlds: others=NAME (random, basic, cautious, greedy, expert, with parameters).")] = "others=expert",
    rollout: Annotated[str, typer.Option("--rollout", help="How you play your later decisions in the sampled worlds.")] = "expert",
    target_se: Annotated[float | None, typer.Option("--target-se", help="Stop once every option's mean delta has at most this standard error (default 0.1 points; duel: 0.01 stakes).")] = None,
    deals: Annotated[str, typer.Option("--deals", help="The budget of sampled worlds (each option is played in every one).")] = "1e5",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sampled worlds (0..2**64-1).")] = 0,
    infer: Annotated[str | None, typer.Option("--infer", help="The sampled worlds: none (uniform over what you know), policy (before the play, weighted by how likely the others' passes and exchanges are if they play --policy's others; uniform at a card), play (weighted by that history at a card too; slower) or cards (at a card, also by every card the others played, each their model's or not; at the first trick every world drawn with its history: exact under the model). Default: cards at a card of the first trick (classic's family), else policy.")] = None,
    floor: Annotated[float, typer.Option("--floor", help="With --infer policy or play: the share of the others' choices the model leaves to chance (above 0, at most 1).")] = DEFAULT_FLOOR,
    race: Annotated[float, typer.Option("--race", help="Racing: an option this many standard errors worse than the best (paired) gets no more worlds; 0 plays every option in every world.")] = 3.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (options best first) instead of the table.")] = False,
) -> None:
    """Rank every option open to you in a real position by determinized search (docs/SEARCH.md).

    The unseen cards are dealt over the layouts that agree with what you know (your hand
    and discards, the trump card, who passed and how many each exchanged, the cards played
    and what they show, R4.1, R6); before the play they are weighted by how likely the
    others' passes and exchanges are if they play --policy's others (--infer policy), at a
    card uniformly unless --infer play weighs them by that history too. Every option is played out in the same worlds, the rest of the deal by
    --policy's others and by --rollout for you; an option clearly worse than the best stops
    receiving worlds (--race). Each
    option: its mean score delta (negative = written off) with a 95% CI, its paired
    difference to the best option (same worlds), P(remiz), and with --scores how often
    the deal ends the party. Classic Rams and the presets that only change its options,
    modern (--turns; its deltas count up: the most is the best) and zone (--turns for the
    partner's swap; --discarded for his old hand) and duel (--turns for the widow; --stake,
    --cube and --dave for the party; each option is worth the party's settlement in stakes,
    with P(win party)).
    """
    from ..advice.search import AdviceError
    from ..advice.search import advise as run_advise

    rules = build_rules(preset, players, rule)
    head, sep, others = policy.partition("=")
    if not sep or head.strip() != "others":
        fail(f"--policy takes others=NAME (the other seats' policy in the sampled worlds); got {policy!r}")
    budget = parse_count(deals, "--deals")
    if not 0 <= seed < 2**64:
        fail(f"--seed must be a whole number from 0 to 2**64 - 1; got {seed}")
    try:
        result = run_advise(hand, trump_card, seat=seat, dealer=dealer, rules=rules, scores=scores, others=others.strip(),
                            rollout=rollout, played=played, exchanged=exchanged, discarded=discarded,
                            took_trump=took_trump or None, jacks=jacks, intents=intents, turns=turns, redeals=redeals,
                            stake=stake, cube=cube, dave=dave, target_se=target_se, max_worlds=budget,
                            seed=seed, infer=infer, floor=floor, race=race)  # fmt: skip
    except AdviceError as err:
        fail(str(err))
    if as_json:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    game = GAMES[rules.game]
    what = {**STAGES, **game.advise_stages}[result.stage]  # the game's own decisions (rams_sim.games)
    typer.echo(f"advice for seat {seat} of {rules.players} (dealer {dealer}, {rules.preset}): {what}; you then play "
               f"{rollout}")  # fmt: skip
    typer.echo(f"{result.model}")
    typer.echo(result.interval)
    stop = "target SE reached" if result.target_reached else "budget used up before the target SE"
    worth = ("stake won per option (the party's settlement), 95% CI" if result.unit == "stake" else
             "points per option, 95% CI, counting up" if result.counts_up else
             "score delta per option, 95% CI, negative = written off")  # fmt: skip
    typer.echo(f"{result.worlds:,} sampled worlds of {result.layouts:.3g} consistent layouts ({stop}); {worth}")
    ends = result.rows[0]["p_ends_party"] is not None
    duel = result.unit == "stake"
    no_trick = game.p_column  # R7.2's remiz; modern's рожки, zone's прокат: no trick; duel: the party won
    typer.echo(f"  {'rank':<4} {'option':<22} {'mean':>8} {'95% CI':>18} {'vs best (paired)':>22} {no_trick:>9}"
               + (f" {'ends party':>10}" if ends else ""))  # fmt: skip
    for i, row in enumerate(result.rows, start=1):
        option = f"{row['option']} {row['cards']}".strip() if row["option"] not in row["cards"] else row["option"]
        ci = f"[{row['ci_low']:+.2f}, {row['ci_high']:+.2f}]"
        diff = "best" if i == 1 else f"{row['diff']:+.2f} [{row['diff_low']:+.2f}, {row['diff_high']:+.2f}]"
        line = f"  {i:<4} {option:<22} {row['mean']:+8.2f} {ci:>18} {diff:>22} {row['p_win' if duel else 'p_remiz']:9.1%}"
        if ends:
            line += f" {row['p_ends_party']:10.1%}"
        if row["worlds"] < result.worlds:
            line += f"  (dropped after {row['worlds']:,} worlds: clearly worse)"
        typer.echo(line)
