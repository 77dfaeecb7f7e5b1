"""Hand features and canonical exchange actions for whole columns of hands.

Thin wrappers over :mod:`rams_sim.kernels.features`: they take the uint64 card masks of
a Parquet table (``hand_dealt``, ``hand_final``) and its ``trump`` column and return
numpy columns the analyses group by.

>>> import numpy as np
>>> from rams_sim.cards import parse_cards, mask_of
>>> f = hand_features(np.array([mask_of(parse_cards("A♥ K♥ J♠ J♣ 7♦"))], np.uint64), np.array([3], np.int8))
>>> {k: int(v[0]) for k, v in f.items() if k in ("n_aces", "trumps", "top_trump", "jacks")}
{'n_aces': 1, 'trumps': 2, 'top_trump': 12, 'jacks': 1}
"""

from __future__ import annotations

import numpy as np

from .cards import HAND_SIZE
from .kernels import features as F

FEATURE_NAMES = ("aces", "n_aces", "trumps", "top_trump", "jacks", "rams_suit", "longest", "off_kings")
assert len(FEATURE_NAMES) == F.N_FEATURES


def hand_features(masks: np.ndarray, trumps: np.ndarray) -> dict[str, np.ndarray]:
    """Features of each hand: name -> int8[n] (see :mod:`rams_sim.kernels.features` for meanings).

    ``masks``: uint64[n] card masks; ``trumps``: int[n] trump suits 0-3.
    """
    masks = np.ascontiguousarray(masks, np.uint64)
    trumps = np.ascontiguousarray(trumps, np.int8)
    if masks.shape != trumps.shape or masks.ndim != 1:
        raise ValueError(f"masks and trumps must be 1-d of one length; got {masks.shape} and {trumps.shape}")
    out = np.empty((masks.shape[0], F.N_FEATURES), np.int8)
    F.hand_features(masks, trumps, out)
    return {name: out[:, j] for j, name in enumerate(FEATURE_NAMES)}


def weakest_discards(masks: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """int8[n, 6]: column k = the ``branch`` option code that discards the k weakest dealt cards.

    Weakest first: plain non-aces by rank, then plain aces, then trumps by rank (ties by id).
    Column 0 is 0 (stand). ``masks`` must hold exactly five cards each.
    """
    masks = np.ascontiguousarray(masks, np.uint64)
    trumps = np.ascontiguousarray(trumps, np.int8)
    out = np.empty((masks.shape[0], HAND_SIZE + 1), np.int8)
    F.weakest_discards(masks, trumps, out)
    return out
