"""Advice in a real position (``rams-sim advise``): :mod:`.search` ranks every option open to a seat by
determinized search (:func:`advise`, :class:`Advice`); :mod:`.position` is the position the search starts
from (the unseen cards, the history checks); :mod:`.notation` reads and writes positions as players write
them; :mod:`.duel`, :mod:`.modern` and :mod:`.zone` are the games whose positions differ from classic's
(each game's entry in :mod:`rams_sim.games` names its module; :func:`.position.advice_module`).

Not called ``advise``: a subpackage of that name would hide the function :func:`rams_sim.advise`.
:func:`advise` and :class:`Advice` are imported on first use (PEP 562), as the search brings in numba,
which importing :class:`AdviceError` (e.g. by the package ``__init__``) must not.
"""

from .notation import AdviceError


def __getattr__(name: str):
    if name in ("advise", "Advice"):
        from . import search

        return getattr(search, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Advice", "AdviceError", "advise"]
