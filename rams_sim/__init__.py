"""rams-sim: Monte-Carlo strategy analysis for the Russian card game Rams (Рамс).

The public API: :class:`Rules` (the rule book's options and presets), :class:`PolicySpec`
(a seat's policy as data), :func:`simulate`, :func:`simulate_parties` and
:func:`simulate_branches` (the fast engine), :func:`compare` (two policies, paired on the
same deals), :func:`read_run` (a run folder as a polars data frame), :func:`advise` (every
option open to a seat in a real position, ranked by the search; :class:`AdviceError` for a
position it cannot take), and the record types both engines return.

The fast engine's functions and :func:`advise` are imported on first use (PEP 562 ``__getattr__``): they
bring in numba and its kernels, which reading data (:func:`read_run`) or building rules
does not need; :func:`read_run` too, as it brings in polars, which a command such as
``rams-sim advise`` does not need.
"""

import importlib

from .advice.notation import AdviceError
from .compare import Comparison, compare
from .policies import PolicyKind, PolicySpec
from .record import DealRecord, Declaration, EndKind, Intent, Outcome, PartyRecord
from .rules import PRESETS, PresetNotImplemented, Rules
from .version import __version__

# name -> module, imported when the name is first used (the engine and advise import numba, read_run polars)
_LAZY = {name: ".engine" for name in ("play_deal", "play_party", "simulate", "simulate_branches", "simulate_parties")}
_LAZY |= {"advise": ".advice", "read_run": ".runs.read"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "PRESETS",
    "AdviceError",
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
    "advise",
    "compare",
    "play_deal",
    "play_party",
    "read_run",
    "simulate",
    "simulate_branches",
    "simulate_parties",
]
