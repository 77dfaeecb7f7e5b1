"""rams-sim: Monte-Carlo strategy analysis for the Russian card game Rams (Рамс).

The public API: :class:`Rules` (the rule book's options and presets), :class:`PolicySpec`
(a seat's policy as data), :func:`simulate`, :func:`simulate_parties` and
:func:`simulate_branches` (the fast engine), :func:`compare` (two policies, paired on the
same deals), and the record types both engines return.
"""

__version__ = "0.1.0"

from .compare import Comparison, compare  # noqa: E402
from .engine import play_deal, play_party, simulate, simulate_branches, simulate_parties  # noqa: E402
from .policies import PolicyKind, PolicySpec  # noqa: E402
from .record import DealRecord, Declaration, EndKind, Intent, Outcome, PartyRecord  # noqa: E402
from .rules import PRESETS, PresetNotImplemented, Rules  # noqa: E402

__all__ = [
    "PRESETS",
    "Comparison",
    "DealRecord",
    "Declaration",
    "EndKind",
    "Intent",
    "Outcome",
    "PartyRecord",
    "PolicyKind",
    "PolicySpec",
    "PresetNotImplemented",
    "Rules",
    "__version__",
    "compare",
    "play_deal",
    "play_party",
    "simulate",
    "simulate_branches",
    "simulate_parties",
]
