"""Shared fixtures: run every rule test against both engines (ENGINE.md section 9).

``engine`` is parametrized over the reference engine (plain Python,
``rams_sim.reference``) and the kernels' Python layer (``rams_sim.engine``). Both must
import: a broken engine fails the suite rather than being skipped.
"""

from __future__ import annotations

import importlib

import pytest
from hypothesis import HealthCheck, settings

# numba compiles on first call: no per-example deadline
settings.register_profile(
    "rams",
    deadline=None,
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("rams")

ENGINE_MODULES = ("reference", "engine")


def pytest_configure(config):
    # the pyproject registers it too; registering twice is harmless
    config.addinivalue_line("markers", "slow: long-running test (deselect with -m 'not slow')")


@pytest.fixture(params=ENGINE_MODULES, scope="session")
def engine(request):
    """The engine module under test: ``rams_sim.reference`` or ``rams_sim.engine``."""
    return importlib.import_module(f"rams_sim.{request.param}")
