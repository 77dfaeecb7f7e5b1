"""R9: one module per game, each with the same entry points (:mod:`rams_sim.kernels.dispatch`).

``classic`` plays classic Rams and every preset that only changes its options; ``duel``
the presets duel and duel-trump; ``modern`` and ``zone`` the presets of those names.
"""
