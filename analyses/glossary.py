"""The glossary of the report site (``reports/glossary.html``): the words the pages use, in plain words.

Each :class:`Term` has an anchor (``glossary.html#<anchor>``), the definition a player reads, and the
patterns that find the term in a page's text, so :func:`analyses.site.link_terms` can link a term's
first use on each page to its definition. Rule options name the section of RULES.md that defines them.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    """One glossary entry: ``name`` as the pages write it, its ``anchor``, ``group`` and ``definition``
    (Markdown-free plain text); ``patterns`` find it in a page (regular expressions over the page's
    text; ``code_only``: only inside ``<code>``, for names that are also everyday words)."""

    name: str
    anchor: str
    group: str
    definition: str
    patterns: tuple[str, ...] = ()
    code_only: bool = False
    section: str = ""  # the section of RULES.md that defines it, if any

    def regex(self) -> re.Pattern:
        """One pattern for every way the pages write the term (case-sensitive, whole words)."""
        words = self.patterns or (re.escape(self.name),)
        return re.compile(r"(?<![\w-])(?:" + "|".join(words) + r")(?![\w-])")


NUMBERS = "Reading the numbers"
TABLE = "The game"
POSITIONS = "Positions at the table"
PLAYERS = "Kinds of player (policies)"
OPTIONS = "Rule options (code names)"

TERMS: tuple[Term, ...] = (
    # ---- reading the numbers
    Term("95% interval", "interval", NUMBERS,
         "A number written value [low, high] is an estimate with its 95% confidence interval: had the simulation "
         "been run again on other deals, 95 intervals in 100 built this way would hold the true value. A narrow "
         "interval means the number is well measured, not that it is large. An interval that excludes 0 (✓ in the "
         "tables) says the difference is real; one that holds 0 (°) says the data cannot tell.",
         (r"95% intervals?", r"95% CIs?", r"95% confidence intervals?", r"CIs?")),
    Term("paired difference", "paired", NUMBERS,
         "Two choices (or two rule sets) compared on the very same deals, deal by deal, so the luck of the cards "
         "cancels out and a small difference can be measured on fewer deals.",
         (r"paired differences?", r"paired")),
    Term("gain", "gain", NUMBERS,
         "The points a player writes off his score in a deal. The score counts down to zero, so a higher gain is "
         "better; a negative gain means points written on.",
         (r"[Gg]ain",)),
    Term("seat-deal", "seat-deal", NUMBERS,
         "One player's result in one deal: a 4-player deal gives four seat-deals. They are not independent (the "
         "four share the cards), which is why intervals over them are deal-clustered.",
         (r"seat-deals?",)),
    Term("deal-clustered", "deal-clustered", NUMBERS,
         "An interval over seat-deals that treats the seats of one deal as one unit, since they share the same "
         "cards; it is wider, and honest, where a plain interval would be too narrow.",
         (r"deal-clustered",)),
    Term("held-out / selection half", "held-out", NUMBERS,
         "To choose the best action of a hand class without flattering it, the deals are split in two: the best "
         "action is chosen on the selection half and its worth is measured on the other, held-out half only, so "
         "picking the luckiest option does not inflate the number.",
         (r"held-out", r"selection half")),
    Term("Bonferroni / simultaneous intervals", "simultaneous", NUMBERS,
         "Where a page judges many rows at once (which option moves the game most, which classes favour passing), "
         "each interval is widened so that all of them hold together with 95% confidence (Bonferroni: the 5% is "
         "shared among the rows). Without this, 1 row in 20 would look real by chance alone.",
         (r"Bonferroni", r"simultaneous(?:ly)?(?: 95%)? intervals?", r"simultaneous(?:ly)?")),
    Term("Wilson interval", "wilson", NUMBERS,
         "The 95% interval used for a share (how often something happens): unlike value ± 2 standard errors it "
         "stays between 0% and 100% and is right for rare events such as a rams.",
         (r"Wilson(?: intervals?)?",)),
    # ---- the game
    Term("remiz", "remiz", TABLE,
         "The penalty of a player who played the deal and took no trick: 5 points plus the value of his aces are "
         "written on (added to) his score.", (r"remiz(?:es)?",), section="R7.2"),
    Term("rams", "rams", TABLE,
         "A hand that ends the deal before play: five cards of one suit (a suit rams; a trump rams if the suit is "
         "trump) or four aces. The game takes its name from it.", (r"rams(?:es)?",), section="R5"),
    Term("jack pair", "jack-pair", TABLE,
         "Two jacks of one colour (♠♣ black or ♦♥ red); its holder writes off 5, even when he passes.",
         (r"jack pairs?",), section="R5.5"),
    Term("pass / play", "pass", TABLE,
         "After the deal each player says whether he plays the deal or passes (drops out). A player dealt an ace "
         "may not pass (R4.1).", (r"pass(?:es|ing)?",), section="R4"),
    Term("exchange", "exchange", TABLE,
         "Discarding some cards and drawing as many from the talon (the undealt stock), in turn from first hand "
         "to the dealer; standing pat means keeping the dealt five.", (r"exchanges?", r"stand(?:ing)? pat"),
         section="R4"),
    Term("dave", "dave", TABLE,
         "A doubling of the stake in the two-player duel (like the doubling cube of backgammon): the other player "
         "accepts and plays on at double stake, or declines and loses the party at the current stake.",
         (r"dave",), section="R9 duel"),
    Term("прокат", "prokat", TABLE,
         "In the zone game, the fixed payment a player who took no trick pays the other, besides his remiz.",
         (r"прокат",), section="R9 zone"),
    Term("lead / follow", "lead", TABLE,
         "The first card of a trick is led; the others follow in turn. A follower must play the led suit if he "
         "can, else a trump if he can (R6.2); the highest trump, else the highest card of the led suit, wins the "
         "trick (R6.4). Some leads are forced: a player holding the trump ace must lead it (R6.5).",
         (r"lead(?:s|ing)?", r"follow(?:s|ing)?"), section="R6"),
    Term("plain card", "plain", TABLE,
         "A card that is not a trump. A plain ace is an ace of a suit that is not trumps.",
         (r"plain cards?", r"plain aces?"), section="R6"),
    Term("announce", "announce", TABLE,
         "Saying at once that a trick took one to zero; it ends the party. A player who does not announce and takes "
         "more tricks overshoots and starts again from the starting score (R8.3).", (r"announc(?:e|es|ing)",),
         section="R8.3"),
    Term("party", "party", TABLE,
         "The sequence of deals from the starting score (100 in classic) until someone's score reaches zero; he "
         "wins it and the others settle with him.", (r"part(?:y|ies)",), section="R8"),
    # ---- positions
    Term("dealer", "dealer", POSITIONS,
         "The player who deals. He speaks and exchanges last and may take the turned-up trump card (R4.3).",
         (r"dealer",), section="R3, R4.3"),
    Term("first hand", "first-hand", POSITIONS,
         "The player on the dealer's left: he is the first to speak, exchanges first from a full talon and leads "
         "the first trick (R6.1). Also written the first to speak; the next is the second to speak, and so on round "
         "the table to the dealer.",
         (r"first hand", r"first to speak", r"dealer's left", r"1st to speak"), section="R6.1"),
    Term("dealer's right", "dealer-right", POSITIONS,
         "The player just before the dealer: the last to speak before him.", (r"dealer's right",)),
    Term("seat 0", "seat-0", POSITIONS,
         "In the simulations, the player who deals the first deal of a party (the deal then passes to the left); "
         "in a single deal, the seat whose choices a page varies.", (r"seat 0",)),
    # ---- kinds of player
    Term("random", "random", PLAYERS, "A player who makes every choice at random among the legal ones.",
         (r"random",), code_only=True),
    Term("basic", "basic", PLAYERS,
         "A sensible player who does not count cards: it plays with an ace or strong trumps, keeps trumps, aces "
         "and kings, and plays its tricks plainly. The pages' reference player.", (r"basic",), code_only=True),
    Term("cautious", "cautious", PLAYERS, "Like basic, but secures a trick first and passes more.",
         (r"cautious",), code_only=True),
    Term("greedy", "greedy", PLAYERS,
         "Exchanges aggressively, draws to a rams and tries to take every trick.", (r"greedy",), code_only=True),
    Term("expert", "expert", PLAYERS,
         "A player who counts the cards out, with pass and exchange rules tuned by simulation.",
         (r"expert",), code_only=True),
    Term("table", "table", PLAYERS,
         "A player that passes and exchanges by the strategy table of page 2 (chosen by simulation for each class "
         "of hand) and plays its cards as expert does.", (r"table",), code_only=True),
    Term("pimc", "pimc", PLAYERS,
         "A player that looks ahead by sampling the hidden cards: at each decision it deals the unseen cards at "
         "random many times (up to 128 worlds, consistent with what the others did), plays each out and takes the "
         "choice that does best on average. The strongest player here, and the slowest.",
         (r"pimc(?::[\w=,]+)?",), code_only=True),
    # ---- options
    Term("ruff", "ruff", OPTIONS,
         "Whether a player who cannot follow suit must overtrump: any-trump (default: any trump will do) or "
         "overtrump (he must beat the best trump already in the trick if he can).",
         (r"ruff", r"overtrump", r"any-trump"), section="R6.3"),
    Term("must_head", "must-head", OPTIONS,
         "Whether a player must beat the trick when he can (follow with a higher card of the suit led), as in Loo; "
         "off by default.", (r"must_head", r"must-head"), section="R6.3a"),
    Term("ace_covers_face", "ace-covers-face", OPTIONS,
         "Whether the trump ace must fall on a trump K, Q or J led or played to the trick (on by default; "
         "no-ace-cover turns it off).", (r"ace_covers_face", r"no-ace-cover"), section="R6.7"),
    Term("exchange_order", "exchange-order", OPTIONS,
         "How the exchange goes round the table: in one turn each (default), or declare play or pass first and "
         "then buy (declare-then-buy).", (r"exchange_order", r"declare-then-buy"), section="R4.0"),
    Term("ace_forbids_pass", "ace-forbids-pass", OPTIONS,
         "Whether an ace in the dealt hand forbids a pass (on in every source; off only to measure its price).",
         (r"ace_forbids_pass",), section="R4.1"),
    Term("dealer_takes_trump", "dealer-takes-trump", OPTIONS,
         "Whether the dealer may (default), must or may not take the turned-up trump card in his exchange.",
         (r"dealer_takes_trump",), section="R4.3"),
    Term("deck", "deck", OPTIONS,
         "How many cards are played: 24, 32, 36 or 52; auto (default) is 32 cards for up to 4 players and 52 "
         "above.", (r"deck(?:24|32|36|52)", r"deck=\w+"), section="R2"),
    Term("truncated_deal", "truncated-deal", OPTIONS,
         "What a deal cut short by the end of the party counts: frozen (default) or the score so far.",
         (r"truncated_deal",), section="R8.2a"),
    Term("settle", "settle", OPTIONS,
         "How the losers pay the winner at the end of a party: each his remaining score (default) or a stake.",
         (r"settle",), section="R8.4"),
    Term("preset", "preset", OPTIONS,
         "A named rule set of one source (classic, handbook, duel, modern, zone, …): the options as that source "
         "gives them.", (r"presets?",), section="R9"),
)


def glossary_html() -> str:
    """The glossary's body: one section per group, one ``<dt id=anchor>`` a term."""
    parts = ["<h1>Glossary</h1>",
             "<p>The words the report pages use, in plain words. Each page links the first use of a term here. "
             "R-numbers name the section of the rule book (RULES.md) that defines a rule.</p>"]  # fmt: skip
    groups: dict[str, list[Term]] = {}
    for term in TERMS:
        groups.setdefault(term.group, []).append(term)
    for group, terms in groups.items():
        parts.append(f"<h2>{html.escape(group)}</h2><dl>")
        for t in terms:
            section = f' <span class="rule">({html.escape(t.section)})</span>' if t.section else ""
            name = f"<code>{html.escape(t.name)}</code>" if t.group in (PLAYERS, OPTIONS) else html.escape(t.name)
            parts.append(f'<dt id="{t.anchor}">{name}{section}</dt><dd>{html.escape(t.definition)}</dd>')
        parts.append("</dl>")
    return "\n".join(parts)
