"""Every dataset the reports read, in one place, with its fixed seed and full size.

Questions share datasets (the position and ace pages read the same deals), so a dataset
is simulated once per ``make reports``, and not at all when a run of the same
provenance is already under ``data/reports/``. Seeds are fixed: the reports give the
same numbers every time. Datasets meant to be compared deal by deal share a seed (the
same deck orders: common random numbers).

Sizes are chosen so the stated answers are clear at 95% and the whole of
``make reports`` stays under 20 minutes on two cores (see analyses/README.md).
"""

from __future__ import annotations

from rams_sim.rules import PRESETS, Rules
from rams_sim.runs.runner import BRANCHES, DEALS, PARTIES

from .common import Data
from .readings import BASELINES as READING_BASELINES
from .readings import of_preset

TABLE_SIZES = tuple(range(2, 8))  # R2
DECKS = (24, 32, 36, 52)  # R2
POLICIES = ("random", "basic", "cautious", "greedy", "expert")
STARTS = (100, 150, 200)  # R8.1
SETTLES = ("remaining", "stake")  # R8.4
SEED_4P = 1004  # the classic 4-player deals every paired comparison shares
# rule options of question 7, each against classic on the same deals (deck changes change the deals)
OPTIONS = {
    "overtrump": {"ruff": "overtrump"},
    "must-head": {"must_head": True},
    "no-ace-cover": {"ace_covers_face": False},
    "declare-then-buy": {"exchange_order": "declare-then-buy"},
}
PLAY_OPTIONS = ("overtrump", "must-head", "no-ace-cover")  # options of R6 only: they cannot change the exchange
DECK_CHOICES_4P = {"deck24": "24", "deck36": "36", "deck52": "52"}  # classic 4p is 32 cards ([000])
SEARCH = "pimc"  # the kinds of player every headline is checked under: basic, expert and the search
SEARCH_POLICY = "pimc"  # the strongest player at its defaults (128 worlds a decision, inference, racing: issue 35)
SEARCH_DEALS, SEARCH_PARTIES, SEARCH_BRANCH_DEALS = 120_000, 12_000, 12_000  # four times issue 35's 32-world n
PLAYER_KINDS = ("basic", "expert", SEARCH)
# question 9: deals and parties of each preset's paired run (every reading of the preset an arm), per kind of player
READING_SIZES = {"basic": (2_000_000, 200_000), "expert": (500_000, 20_000), SEARCH: (1_000, 100)}
# question 8: the presets that vary another's game at its table, each paired with it
PRESET_BASES = {"handbook": "classic", "encyclopedia": "classic", "from-15": "classic", "negotiations": "classic",
                "duel-trump": "duel"}
# question 10: seat 0's first card forced to each of its legal cards in turn (PLAY_PROBES runs, each paired with the
# unforced run by deal), its R4.3 choice forced both ways, and its announcement (R8.3) switched off in parties
PLAY_PROBES = 5  # first_card = 0..4: the j-th legal card (five cards in hand: every legal card is some j)
PLAY_DEALS = {"basic": 1_000_000, "expert": 500_000}
SEARCH_OPTION_DEALS = 30_000  # question 7: the play options among searching players, 4 arms of about 4 ms a deal


def _deal_seed(players: int, deck: int) -> int:
    return 1000 + players if (deck == Rules(players=players).deck_size) else 2000 + 100 * deck + players


def _build() -> dict[str, Data]:
    reg: dict[str, Data] = {}

    def add(d: Data) -> None:
        assert d.name not in reg, d.name
        reg[d.name] = d

    # classic deals at every table size (questions 1, 3, 4, 5)
    for p in TABLE_SIZES:
        add(Data(f"deals-{p}p", DEALS, Rules.classic(players=p), 2_000_000, _deal_seed(p, Rules(players=p).deck_size)))
    # every other deck a table size allows (question 3)
    for deck in DECKS:
        for p in TABLE_SIZES:
            if deck == Rules(players=p).deck_size or 5 * p + 1 > deck:
                continue
            rules = Rules.classic(players=p, deck=str(deck))
            add(Data(f"deals-{p}p-deck{deck}", DEALS, rules, 400_000, _deal_seed(p, deck)))
    # every policy at the 4-player table (question 3: declarations after the exchange)
    for policy in POLICIES:
        if policy != "basic":
            add(Data(f"deals-4p-{policy}", DEALS, Rules.classic(), 1_000_000, SEED_4P, (policy,)))
    # the strongest player, the search (issue "Strong play"), at every seat on the same deals: a smaller n, as it
    # costs about 4 ms a deal at its defaults, every seat searching (questions 1, 3, 5, 7 ask whether their answers
    # hold for it)
    add(Data(f"deals-4p-{SEARCH}", DEALS, Rules.classic(), SEARCH_DEALS, SEED_4P, (SEARCH_POLICY,)))
    # the table policy (question 2): seat 0 plays `table` among basic, among expert players; a searching seat 0
    # among expert players: each paired with seat 0 of deals-4p, deals-4p-expert (the same deals)
    add(Data("deals-4p-table0", DEALS, Rules.classic(), 1_000_000, SEED_4P, ("table", "basic", "basic", "basic")))
    add(Data("deals-4p-table0-expert", DEALS, Rules.classic(), 1_000_000, SEED_4P, ("table",) + ("expert",) * 3))
    add(Data(f"deals-4p-{SEARCH}0-expert", DEALS, Rules.classic(), SEARCH_DEALS, SEED_4P,
             (SEARCH_POLICY,) + ("expert",) * 3))  # fmt: skip
    # every exchange option of seat 0, same deals as deals-4p (questions 2, 4)
    add(Data("branch-4p", BRANCHES, Rules.classic(), 1_000_000, SEED_4P, seat=0))
    # ... with expert players (questions 2, 4: do their answers hold for them? the same deals as deals-4p-expert)
    add(Data("branch-4p-expert", BRANCHES, Rules.classic(), 1_000_000, SEED_4P, ("expert",), seat=0))
    # ... and with the search at every seat (questions 2, 4: its own exchange against the table policy's), on fewer
    # deals: each replays about 25 exchange options of a table of searching players (about 19 deals a second)
    add(Data(f"branch-4p-{SEARCH}", BRANCHES, Rules.classic(), SEARCH_BRANCH_DEALS, SEED_4P, (SEARCH_POLICY,), seat=0))
    # the same with a pass open to a seat dealt an ace (question 4: the price of R4.1)
    add(Data("branch-4p-ace-may-pass", BRANCHES, Rules.classic(ace_forbids_pass=False), 500_000, SEED_4P, seat=0))
    # parties (question 6): every start and settlement; settlement does not change the play,
    # so the two settlements of one start share a seed and are the same parties
    for start in STARTS:
        for settle in SETTLES:
            add(Data(f"party-{start}-{settle}", PARTIES, Rules.classic(start=start, settle=settle), 200_000, 3000 + start))
    for p in TABLE_SIZES:
        if p != 4:
            add(Data(f"party-100-{p}p", PARTIES, Rules.classic(players=p), 100_000, 3100 + p))
    # rule options (question 7): the same deals as deals-4p, and the same parties as party-100-remaining
    for name, options in OPTIONS.items():
        add(Data(f"deals-4p-{name}", DEALS, Rules.classic(**options), 2_000_000, SEED_4P))
        add(Data(f"branch-4p-{name}", BRANCHES, Rules.classic(**options), 200_000, SEED_4P, seat=0))
        add(Data(f"party-100-{name}", PARTIES, Rules.classic(**options), 200_000, 3100))
    # the play options at a table of random players, who break them when allowed, and of searching players, whom
    # they bind: one paired run each (rams_sim.runs.effect), every option an arm (question 7)
    play_variants = tuple(Rules.classic(**OPTIONS[name]) for name in PLAY_OPTIONS)
    add(Data("options-4p-random", DEALS, Rules.classic(), 1_000_000, SEED_4P, ("random",), variants=play_variants))
    add(Data(f"options-4p-{SEARCH}", DEALS, Rules.classic(), SEARCH_OPTION_DEALS, SEED_4P, (SEARCH_POLICY,),
             variants=play_variants))  # fmt: skip
    # the cards (question 10): basic and expert tables, seat 0's first card forced (each legal card once), its R4.3
    # choice forced to take and to decline the trump card; the same deals as deals-4p / deals-4p-expert
    for kind, count in PLAY_DEALS.items():
        others = (kind,) * 3
        suffix = "" if kind == "basic" else f"-{kind}"
        add(Data(f"play-4p{suffix}", DEALS, Rules.classic(), count, SEED_4P, (kind,) + others, log_plays=True))
        for j in range(PLAY_PROBES):
            add(Data(f"play-4p{suffix}-first{j}", DEALS, Rules.classic(), count, SEED_4P,
                     (f"{kind}:first_card={j}",) + others, log_plays=True))  # fmt: skip
        for take in (0, 1):
            add(Data(f"play-4p{suffix}-take{take}", DEALS, Rules.classic(), count, SEED_4P,
                     (f"{kind}:take_trump={take}",) + others))  # fmt: skip
    # ... and seat 0 never announcing that a trick took him to zero (R8.3), the same parties as party-100-remaining
    add(Data("party-100-noannounce0", PARTIES, Rules.classic(), 200_000, 3100, ("basic:announce=false",) + ("basic",) * 3))
    # parties of expert and of searching players (question 6: does the party's shape hold for them?)
    add(Data("party-100-expert", PARTIES, Rules.classic(), 100_000, 3100, ("expert",)))
    add(Data(f"party-100-{SEARCH}", PARTIES, Rules.classic(), SEARCH_PARTIES, 3100, (SEARCH_POLICY,)))
    for name, deck in DECK_CHOICES_4P.items():
        add(Data(f"party-100-{name}", PARTIES, Rules.classic(deck=deck), 100_000, 3100))
    # every implemented preset side by side (question 8): basic parties and deals, and the
    # skill pair: all random, then an expert at seat 0 among random players on the same seed
    for i, preset in enumerate(PRESETS):
        if not PRESETS[preset].implemented:
            continue
        rules = Rules.named(preset)
        others = ("random",) * (rules.players - 1)
        add(Data(f"variant-{preset}-deals", DEALS, rules, 500_000, 8000 + i))
        add(Data(f"variant-{preset}-parties", PARTIES, rules, 100_000, 8100 + i))
        add(Data(f"variant-{preset}-random", PARTIES, rules, 50_000, 8200 + i, ("random",) + others))
        add(Data(f"variant-{preset}-expert0", PARTIES, rules, 50_000, 8200 + i, ("expert",) + others))
        # skill among ordinary players: an expert at seat 0 among basic players, against variant-<preset>-parties
        add(Data(f"variant-{preset}-expert0-basic", PARTIES, rules, 100_000, 8100 + i,
                 ("expert",) + ("basic",) * (rules.players - 1)))  # fmt: skip
        # the same parties with expert players at every seat (does the side-by-side hold for them?)
        add(Data(f"variant-{preset}-parties-expert", PARTIES, rules, 50_000, 8100 + i, ("expert",)))
    # each preset against the preset whose game it varies, paired (question 8): deals and parties, basic players
    for preset, base in PRESET_BASES.items():
        add(Data(f"variant-{preset}-paired-deals", DEALS, Rules.named(base), 500_000, 8300, variants=(Rules.named(preset),)))
        add(Data(f"variant-{preset}-paired-parties", PARTIES, Rules.named(base), 100_000, 8400,
                 variants=(Rules.named(preset),)))  # fmt: skip
    # the readings (question 9): each preset and its readings in one paired run (rams_sim.runs.effect), deals by
    # position and whole parties, under basic, expert and searching players (the search at a smaller n)
    for i, preset in enumerate(READING_BASELINES):
        rules = Rules.named(preset)
        variants = tuple(rules.replace(**r.options) for r in of_preset(preset))
        for kind, (deals, parties) in READING_SIZES.items():
            policy = (SEARCH_POLICY if kind == SEARCH else kind,)
            add(Data(f"readings-{preset}-deals-{kind}", DEALS, rules, deals, 9000 + i, policy, variants=variants,
                     by=("position",)))  # fmt: skip
            add(Data(f"readings-{preset}-parties-{kind}", PARTIES, rules, parties, 9100 + i, policy, variants=variants))
    return reg


REGISTRY: dict[str, Data] = _build()
